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
      "steps", bounded(&o.steps, 1, 1000000000), "total optimizer steps (a resumed run continues to it)")(
      "batch", bounded(&o.batch, 1, 1u << 16), "examples per step")(
      "seed", at_least(&o.seed, 0), "seed of the data and the initial weights")(
      "lr", bounded(&o.learning_rate, 0, 10), "Adam learning rate (after warm-up)")(
      "warmup", at_least(&o.warmup, 0), "steps of linear learning-rate warm-up")(
      "clip", bounded(&o.clip, 0, 1e6), "gradient norm clip (0: none)")(
      "resume", po::value(&resume)->implicit_value("-"),
      "continue from a checkpoint (default: OUT/checkpoint.pt); its model sizes and seed are used")(
      "device,d", defaulted(&o.device), "cpu or cuda")("threads", bounded(&o.threads, 0, max_threads()),
                                                       "torch threads (0: torch's default)")(
      "levels", bounded(&o.levels, 1, 4), "curriculum levels used, small programs first (1..4)")(
      "log-every", at_least(&o.log_every, 1), "a progress line every N steps")(
      "eval-every", at_least(&o.eval_every, 0),
      "held-out exact match and verifier pass rate every N steps (0: none)")(
      "eval-programs", bounded(&o.eval_programs, 0, 1u << 20), "size of the held-out set")(
      "checkpoint-every", at_least(&o.checkpoint_every, 0),
      "save OUT/checkpoint.pt every N steps (and at the end)");
  po::options_description model("Model (a fresh run; a resumed one takes the checkpoint's)");
  model.add_options()("d-model", bounded(&m.d_model, 8, 8192), "width of the transformer")(
      "heads", bounded(&m.heads, 1, 64), "attention heads (must divide d-model)")(
      "layers", po::value(&layers), "encoder and decoder layers both")(
      "encoder-layers", bounded(&m.encoder_layers, 1, 64), "encoder layers")(
      "decoder-layers", bounded(&m.decoder_layers, 1, 64), "decoder layers")(
      "ff", bounded(&m.ff, 8, 1u << 16), "feed-forward width")(
      "max-source", bounded(&m.max_source, 16, 1u << 16), "longest source, in tokens")(
      "max-bytecode", bounded(&m.max_bytecode, 16, 1u << 16), "longest bytecode, in tokens")(
      "dropout", bounded(&m.dropout, 0, 0.9), "dropout rate");
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
