// gpusynth train-compiler --out DIR [--steps N] [--batch B] [--seed S] [--resume [CKPT]] …
//
// Supervised training of the neural compiler (docs/neural.md): pairs of random programs and
// their bytecode made on demand, a curriculum by program size, checkpoints and resume. A build
// without libtorch still has the command; it says how to get one.
#include <iostream>

#include "jobs/command.h"
#include "jobs/options.h"
#ifdef GPUSYNTH_HAVE_TORCH
#include "neural/train_compiler.h"
#endif

namespace gs::jobs {

#ifndef GPUSYNTH_HAVE_TORCH

int train_compiler_command(const std::vector<std::string>&) {
  std::cerr << "gpusynth train-compiler: this build has no libtorch: the neural compiler is not built.\n"
               "Install it (apt-get install libtorch-dev, or PyTorch's libtorch on a GPU machine) and configure\n"
               "with -DGPUSYNTH_TORCH=ON (the release preset does); see docs/neural.md.\n";
  return kExitUsage;
}

#else

int train_compiler_command(const std::vector<std::string>& args) {
  neural::TrainOptions o;
  neural::ModelConfig& m = o.model;
  i64 layers = 0;
  std::string resume;
  po::options_description visible("Options");
  visible.add_options()
      ("help,h", "show this help")
      ("out,o", po::value(&o.out_dir)->required(), "directory for checkpoint.pt and progress.tsv")
      ("steps", po::value(&o.steps)->default_value(o.steps), "total optimizer steps (a resumed run continues to it)")
      ("batch", po::value(&o.batch)->default_value(o.batch), "examples per step")
      ("seed", po::value(&o.seed)->default_value(o.seed), "seed of the data and the initial weights")
      ("lr", po::value(&o.learning_rate)->default_value(o.learning_rate), "Adam learning rate (after warm-up)")
      ("warmup", po::value(&o.warmup)->default_value(o.warmup), "steps of linear learning-rate warm-up")
      ("clip", po::value(&o.clip)->default_value(o.clip), "gradient norm clip (0: none)")
      ("resume", po::value(&resume)->implicit_value("-"),
       "continue from a checkpoint (default: OUT/checkpoint.pt); its model sizes and seed are used")
      ("device,d", po::value(&o.device)->default_value(o.device), "cpu or cuda")
      ("threads", po::value(&o.threads)->default_value(o.threads), "torch threads (0: torch's default)")
      ("levels", po::value(&o.levels)->default_value(o.levels), "curriculum levels used, small programs first (1..4)")
      ("log-every", po::value(&o.log_every)->default_value(o.log_every), "a progress line every N steps")
      ("eval-every", po::value(&o.eval_every)->default_value(o.eval_every),
       "held-out exact match and verifier pass rate every N steps (0: none)")
      ("eval-programs", po::value(&o.eval_programs)->default_value(o.eval_programs), "size of the held-out set")
      ("checkpoint-every", po::value(&o.checkpoint_every)->default_value(o.checkpoint_every),
       "save OUT/checkpoint.pt every N steps (and at the end)");
  po::options_description model("Model (a fresh run; a resumed one takes the checkpoint's)");
  model.add_options()
      ("d-model", po::value(&m.d_model)->default_value(m.d_model), "width of the transformer")
      ("heads", po::value(&m.heads)->default_value(m.heads), "attention heads (must divide d-model)")
      ("layers", po::value(&layers), "encoder and decoder layers both")
      ("encoder-layers", po::value(&m.encoder_layers)->default_value(m.encoder_layers), "encoder layers")
      ("decoder-layers", po::value(&m.decoder_layers)->default_value(m.decoder_layers), "decoder layers")
      ("ff", po::value(&m.ff)->default_value(m.ff), "feed-forward width")
      ("max-source", po::value(&m.max_source)->default_value(m.max_source), "longest source, in tokens")
      ("max-bytecode", po::value(&m.max_bytecode)->default_value(m.max_bytecode), "longest bytecode, in tokens")
      ("dropout", po::value(&m.dropout)->default_value(m.dropout), "dropout rate");
  visible.add(model);
  po::variables_map vm;
  bool help;
  const std::string usage =
      "usage: gpusynth train-compiler --out DIR [--steps N] [--batch B] [--seed S] [--resume [CKPT]] [--device cpu|cuda]\n"
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

#endif

}  // namespace gs::jobs
