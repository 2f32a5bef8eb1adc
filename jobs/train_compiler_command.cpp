// gpusynth train-compiler --out DIR [--steps N] [--batch B] [--seed S] [--resume [CKPT]] …
//
// Supervised training of the neural compiler (docs/neural.md): pairs of random programs and
// their bytecode made on demand, a curriculum by program size, checkpoints and resume. Built
// into gpusynth-neural only (jobs/neural_relay.h).
#include <iostream>

#include "jobs/command.h"
#include "jobs/options.h"
#include "neural/train_compiler.h"

namespace gs::jobs {

int train_compiler_command(const std::vector<std::string>& args) {
  neural::TrainOptions o;
  neural::ModelConfig& m = o.model;
  i64 layers = 0;
  std::string resume;
  po::options_description visible("Options");
  visible.add_options()("help,h", "show this help")("out,o", po::value(&o.out_dir)->required(),
                                                    "directory for checkpoint.pt and progress.tsv")(
      "steps", defaulted(&o.steps), "total optimizer steps (a resumed run continues to it)")(
      "batch", defaulted(&o.batch), "examples per step")("seed", defaulted(&o.seed),
                                                         "seed of the data and the initial weights")(
      "lr", defaulted(&o.learning_rate), "Adam learning rate (after warm-up)")(
      "warmup", defaulted(&o.warmup), "steps of linear learning-rate warm-up")(
      "clip", defaulted(&o.clip), "gradient norm clip (0: none)")(
      "resume", po::value(&resume)->implicit_value("-"),
      "continue from a checkpoint (default: OUT/checkpoint.pt); its model sizes and seed are used")(
      "device,d", defaulted(&o.device), "cpu or cuda")("threads", defaulted(&o.threads),
                                                       "torch threads (0: torch's default)")(
      "levels", defaulted(&o.levels), "curriculum levels used, small programs first (1..4)")(
      "log-every", defaulted(&o.log_every), "a progress line every N steps")(
      "eval-every", defaulted(&o.eval_every),
      "held-out exact match and verifier pass rate every N steps (0: none)")(
      "eval-programs", defaulted(&o.eval_programs), "size of the held-out set")(
      "checkpoint-every", defaulted(&o.checkpoint_every),
      "save OUT/checkpoint.pt every N steps (and at the end)");
  po::options_description model("Model (a fresh run; a resumed one takes the checkpoint's)");
  model.add_options()("d-model", defaulted(&m.d_model), "width of the transformer")(
      "heads", defaulted(&m.heads), "attention heads (must divide d-model)")(
      "layers", po::value(&layers), "encoder and decoder layers both")(
      "encoder-layers", defaulted(&m.encoder_layers), "encoder layers")(
      "decoder-layers", defaulted(&m.decoder_layers), "decoder layers")(
      "ff", defaulted(&m.ff), "feed-forward width")("max-source", defaulted(&m.max_source),
                                                    "longest source, in tokens")(
      "max-bytecode", defaulted(&m.max_bytecode), "longest bytecode, in tokens")(
      "dropout", defaulted(&m.dropout), "dropout rate");
  visible.add(model);
  po::variables_map vm;
  bool help;
  const std::string usage =
      "usage: gpusynth train-compiler --out DIR [--steps N] [--batch B] [--seed S] [--resume [CKPT]] "
      "[--device cpu|cuda]\n"
      "Trains the neural compiler (source tokens -> bytecode tokens) on random programs compiled by the\n"
      "traditional compiler, small programs first; prints loss and token accuracy, and on a held-out set\n"
      "the exact-match rate and the share of greedy decodes the verifier accepts (docs/neural.md).";
  if (!parse_command_line(args, visible, nullptr, &vm, usage, &help)) return kExitUsage;
  if (help) return kExitOk;
  if (vm.count("layers")) {
    if (!vm["encoder-layers"].defaulted() || !vm["decoder-layers"].defaulted()) {
      std::cerr << "gpusynth train-compiler: give --layers or --encoder-layers/--decoder-layers, not both\n";
      return kExitUsage;
    }
    m.encoder_layers = m.decoder_layers = layers;
  }
  if (resume == "-") resume = o.out_dir + "/checkpoint.pt";
  o.resume = resume;
  std::string error;
  neural::TrainResult r = neural::train_compiler(o, std::cout, &error);
  if (r == neural::TrainResult::Ok) return kExitOk;
  std::cerr << "gpusynth train-compiler: " << error << "\n";
  return r == neural::TrainResult::BadInput ? kExitUsage : kExitFailed;
}

}  // namespace gs::jobs
