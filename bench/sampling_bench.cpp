// sampling: the neural compiler's decoding with and without dropping finished rows from the
// batch (neural/sampling.h SamplingOptions::compact), in one run: greedy decoding and K-sample
// decoding of held-out programs from a train-compiler checkpoint, each mode timed in turn,
// medians of the repetitions. Both modes must give the same sequences (checked every
// repetition; exit status 1 otherwise). A table on stdout, JSON beside it (bench/README.md).
#include <torch/utils.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/machine.h"
#include "neural/checkpoint.h"
#include "neural/data.h"
#include "neural/sampling.h"

namespace po = boost::program_options;

namespace gs::bench {
namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

int run(int argc, char** argv) {
  std::string checkpoint, out_path = std::string(GPUSYNTH_SOURCE_DIR) + "/bench/results/sampling.json";
  u32 programs = 32, samples = 16, repetitions = 3, threads = 1, levels = neural::kCurriculumLevels;
  u64 seed = 1;
  double temperature = 0.8, top_p = 0.95;
  po::options_description d("sampling_bench: decoding with and without dropping finished rows");
  d.add_options()("help,h", "show this help")("checkpoint,c", po::value(&checkpoint)->required(),
                                              "a train-compiler checkpoint")(
      "programs,n", po::value(&programs)->default_value(programs),
      "held-out programs, spread over the levels")("levels", po::value(&levels)->default_value(levels),
                                                   "curriculum levels of the programs")(
      "samples,k", po::value(&samples)->default_value(samples), "K: samples per program")(
      "temperature", po::value(&temperature)->default_value(temperature, "0.8"), "sampling temperature")(
      "top-p", po::value(&top_p)->default_value(top_p, "0.95"), "nucleus")(
      "repetitions", po::value(&repetitions)->default_value(repetitions), "timed runs of each mode (median)")(
      "threads", po::value(&threads)->default_value(threads), "torch threads")(
      "seed", po::value(&seed)->default_value(seed), "programs and samples")(
      "out", po::value(&out_path)->default_value(out_path), "JSON results");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, d), vm);
    if (vm.count("help")) return std::cout << d << "\n", 0;
    po::notify(vm);
  } catch (const std::exception& e) {
    return std::fprintf(stderr, "sampling_bench: %s\n", e.what()), 2;
  }
  if (programs == 0 || samples == 0 || repetitions == 0 || levels == 0 || levels > neural::kCurriculumLevels)
    return std::fprintf(
               stderr,
               "sampling_bench: --programs, --samples, --repetitions must be positive, --levels 1..%u\n",
               neural::kCurriculumLevels),
           2;
  torch::set_num_threads(int(threads));
  std::string error;
  auto meta = neural::read_checkpoint_meta(checkpoint, &error);
  if (!meta) return std::fprintf(stderr, "sampling_bench: %s\n", error.c_str()), 2;
  neural::Seq2Seq model(meta->model);
  if (!neural::load_checkpoint(checkpoint, model, nullptr, &error))
    return std::fprintf(stderr, "sampling_bench: %s\n", error.c_str()), 2;
  model->eval();
  const torch::Device cpu(torch::kCPU);
  const neural::PairMaker maker(seed, u32(meta->model.max_source), u32(meta->model.max_bytecode));
  std::vector<neural::TokenSeq> sources;
  for (const neural::Example& x : maker.held_out(programs, levels)) sources.push_back(x.source_ids);

  struct Mode {
    const char* name;
    u32 k;
    bool compact;
    std::vector<double> seconds;
    double tokens = 0;  // tokens decoded per pass
  };
  std::vector<Mode> modes = {{"greedy, every row to the end", 1, false, {}},
                             {"greedy, finished rows dropped", 1, true, {}},
                             {"K samples, every row to the end", samples, false, {}},
                             {"K samples, finished rows dropped", samples, true, {}}};
  bool same = true;
  for (u32 r = 0; r < repetitions; ++r) {
    std::vector<std::vector<neural::TokenSeq>> previous;
    for (Mode& m : modes) {
      neural::SamplingOptions o;
      o.samples = m.k;
      o.temperature = m.k == 1 ? 0.0 : temperature;
      o.top_p = top_p;
      o.seed = seed;
      o.compact = m.compact;
      torch::NoGradGuard no_grad;
      auto t0 = Clock::now();
      std::vector<std::vector<neural::TokenSeq>> out = neural::sample(model, sources, o, cpu);
      m.seconds.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
      m.tokens = 0;
      for (const auto& per : out)
        for (const neural::TokenSeq& s : per) m.tokens += double(s.size());
      if (m.compact) same = same && out == previous;  // the mode before is the same K, every row
      previous = std::move(out);
    }
  }
  nlohmann::json rows = nlohmann::json::array();
  std::printf("%u held-out programs (levels 0..%u), K = %u, %u torch thread(s), medians of %u\n\n", programs,
              levels - 1, samples, threads, repetitions);
  std::printf("%-34s %10s %12s %12s %8s\n", "decoding", "seconds", "programs/s", "tokens/s", "speedup");
  for (size_t i = 0; i < modes.size(); ++i) {
    const Mode& m = modes[i];
    const double s = median(m.seconds);
    const double speedup = m.compact ? median(modes[i - 1].seconds) / s : 1.0;
    std::printf("%-34s %10.2f %12.2f %12.0f %7.2fx\n", m.name, s, programs / s, m.tokens / s, speedup);
    rows.push_back({{"mode", m.name},
                    {"samples", m.k},
                    {"compact", m.compact},
                    {"seconds", m.seconds},
                    {"median_seconds", s},
                    {"programs_per_second", programs / s},
                    {"tokens", m.tokens},
                    {"speedup", speedup}});
  }
  std::printf("\nsame sequences in both modes: %s\n", same ? "yes" : "NO");
  nlohmann::json j = {{"benchmark", "sampling"},  {"machine", machine_info()},
                      {"checkpoint", checkpoint}, {"step", meta->step},
                      {"programs", programs},     {"samples", samples},
                      {"threads", threads},       {"repetitions", repetitions},
                      {"same_sequences", same},   {"rows", rows}};
  std::ofstream(out_path) << j.dump(1) << "\n";
  std::printf("wrote %s\n", out_path.c_str());
  return same ? 0 : 1;
}

}  // namespace
}  // namespace gs::bench

int main(int argc, char** argv) { return gs::bench::run(argc, argv); }
