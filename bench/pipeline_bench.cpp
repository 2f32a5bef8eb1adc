// pipeline_bench: the batch pipeline's per-stage time and throughput for batches of 10^3 and
// more programs × 100 tests, on every backend this machine has, and in the same run the
// CPU-centric baseline loop (one program after another: compile, verify, run each test) as
// the ratio the pipeline is measured against. A table on stdout, JSON beside it.
//
// The corpus is bench/corpus.h's mixed synthesis-like programs (about 200 bytes each), each
// adapted to one problem signature: its entry is renamed `candidate` and a fixed entry
//   fn solve(xs: [int], k: int) -> int
// derives the candidate's arguments from xs and k and reduces its first result to an int. The
// tests' expected outputs count the elements of xs greater than k, so some candidates pass.
#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "bench/corpus.h"
#include "bench/gpu_energy.h"
#include "bench/machine.h"
#include "compiler/compiler.h"
#include "pipeline/pipeline.h"
#include "vm/program.h"
#include "vm/runner.h"

namespace gs::bench {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  if (v.empty()) return 0;
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// ---- the corpus ---------------------------------------------------------------------------------

std::string argument_for(Type t) {
  switch (t) {
    case Type::Int: return "k";
    case Type::Float: return "float(k) * 0.5";
    case Type::Bool: return "k > 0";
    case Type::Str: return "str(k)";
    case Type::IntArray: return "xs";
    case Type::FloatArray: return "[float(k), 2.5]";
    case Type::BoolArray: return "[k > 0, true]";
    case Type::StrArray: return "[str(k), \"ab\"]";
    default: return "?";
  }
}

// The adapted source, or "" for a candidate whose entry returns nothing.
std::string adapted(trees::Tree tree) {
  trees::Function* entry = nullptr;
  for (trees::Function& f : tree.functions)
    if (f.name == "solve") entry = &f;
  if (entry == nullptr || entry->results.empty()) return {};
  entry->name = "candidate";
  std::string call = "candidate(";
  for (size_t k = 0; k < entry->params.size(); ++k)
    call += (k ? ", " : "") + argument_for(entry->params[k].type);
  call += ")";
  std::string names;
  for (size_t k = 0; k < entry->results.size(); ++k) names += (k ? ", r" : "r") + std::to_string(k);
  std::string s = "fn solve(xs: [int], k: int) -> int {\n  let " +
                  (entry->results.size() > 1 ? "(" + names + ")" : names) + " = " + call + ";\n";
  switch (entry->results[0]) {
    case Type::Int: s += "  return r0;\n"; break;
    case Type::Float: s += "  return int(floor(r0));\n"; break;
    case Type::Bool: s += "  if r0 { return 1; }\n  return 0;\n"; break;
    default: s += "  return len(r0);\n"; break;
  }
  return s + "}\n" + trees::to_source(tree);
}

pipeline::Sources corpus_sources(u32 n, u64 seed) {
  CorpusConfig c;
  c.programs = n + n / 4 + 16;  // some have no result and are skipped
  c.inputs = 0;
  c.seed = seed;
  pipeline::Sources sources;
  for (CorpusProgram& p : make_corpus(c)) {
    if (sources.count() == n) break;
    std::string s = adapted(std::move(p.tree));
    if (!s.empty()) sources.add(s);
  }
  return sources;
}

struct Tests {
  std::vector<std::vector<vm::Value>> inputs, outputs;
  std::unique_ptr<pipeline::CaseSet> set;
};

Tests make_tests(u32 count, u64 seed) {
  Tests t;
  Rng rng(seed);
  std::vector<pipeline::CaseSet::Case> cases;
  for (u32 i = 0; i < count; ++i) {
    std::vector<vm::Value> xs;
    i64 k = rng.uniform_int(-5, 5), greater = 0;
    for (i64 n = rng.uniform_int(0, 8); n > 0; --n) {
      i64 x = rng.uniform_int(-20, 20);
      greater += x > k;
      xs.push_back(vm::Value::of_int(x));
    }
    t.inputs.push_back({vm::Value::of_array(Type::Int, xs), vm::Value::of_int(k)});
    t.outputs.push_back({vm::Value::of_int(greater)});
  }
  for (u32 i = 0; i < count; ++i) cases.push_back({t.inputs[i], t.outputs[i]});
  Type params[] = {Type::IntArray, Type::Int}, results[] = {Type::Int};
  t.set = std::make_unique<pipeline::CaseSet>("solve", params, results, cases, 0.0);
  return t;
}

// ---- the baseline loop --------------------------------------------------------------------------

struct Baseline {
  u32 programs = 0;
  double seconds = 0;
  u64 solved = 0;           // programs that passed every test
  std::vector<i64> passed;  // per program: tests passed, -1 when it did not get to run
  double rate() const { return programs / seconds; }
};

// One program after another on one thread, as code-generation loops run candidates today:
// compile, verify, then each test with prepared inputs.
Baseline baseline_loop(const pipeline::Sources& sources, u32 n, const Tests& tests,
                       const vm::Limits& limits) {
  Baseline b;
  compiler::Compiler compiler;
  vm::Runner runner(limits);
  auto start = Clock::now();
  for (u32 i = 0; i < n; ++i) {
    u32 size = 0;
    b.passed.push_back(-1);
    if (compiler.compile_in_place(sources.source(i), &size) != compiler::CompileStatus::OK) continue;
    auto program = vm::Program::load({compiler.bytes(), size});
    i32 entry = program ? program->find("solve") : -1;
    if (entry < 0) continue;
    u32 passed = 0;
    for (size_t k = 0; k < tests.inputs.size(); ++k) {
      vm::Outcome o = runner.run(*program, u32(entry), tests.inputs[k]);
      passed += o.trap == vm::Trap::NONE && o.results[0].i == tests.outputs[k][0].i;
    }
    b.solved += passed == tests.inputs.size();
    b.passed.back() = passed;
  }
  b.seconds = since(start);
  b.programs = n;
  return b;
}

// ---- the measurement ----------------------------------------------------------------------------

struct Row {
  std::string device;
  u32 programs = 0, cases = 0;
  double compile = 0, verify = 0, execute = 0, score = 0, transfer = 0, total = 0;  // median seconds
  u64 instructions = 0, ok = 0, solved = 0;
  u64 memory_bytes = 0;
  double baseline_rate = 0;      // candidates/s of the baseline loop, same run
  std::optional<double> joules;  // GPU energy of one run (median), from NVML
  std::vector<i64> passed;       // per program, as Baseline::passed
};

Row measure(pipeline::Pipeline& p, const pipeline::Sources& all, u32 n, const Tests& tests, u32 repeats,
            const GpuEnergy* energy) {
  pipeline::Sources sources;
  sources.text.assign(all.text.data(), all.offsets[n]);
  sources.offsets.assign(all.offsets.begin(), all.offsets.begin() + n + 1);
  Row row;
  row.device = p.name();
  row.programs = n;
  row.cases = tests.set->view().case_count;
  std::vector<double> compile, verify, execute, score, transfer, total, joules;
  pipeline::BatchResults r;
  p.run(sources, *tests.set, &r);  // warm-up: allocation, first touch
  for (u32 k = 0; k < repeats; ++k) {
    const std::optional<double> before = energy ? energy->joules() : std::nullopt;
    p.run(sources, *tests.set, &r);
    const std::optional<double> after = energy ? energy->joules() : std::nullopt;
    if (before && after) joules.push_back(*after - *before);
    compile.push_back(r.times.compile);
    verify.push_back(r.times.verify);
    execute.push_back(r.times.execute);
    score.push_back(r.times.score);
    transfer.push_back(r.times.upload + r.times.download);
    total.push_back(r.times.total);
  }
  row.compile = median(compile);
  row.verify = median(verify);
  row.execute = median(execute);
  row.score = median(score);
  row.transfer = median(transfer);
  row.total = median(total);
  if (!joules.empty()) row.joules = median(joules);
  for (u32 i = 0; i < n; ++i) {
    row.instructions += r.instructions[i];
    row.ok += r.status[i] == u8(pipeline::ProgramStatus::OK);
    row.solved += r.status[i] == u8(pipeline::ProgramStatus::OK) && r.cases_passed[i] == r.cases;
  }
  row.memory_bytes = r.memory_bytes;
  for (u32 i = 0; i < n; ++i)
    row.passed.push_back(r.status[i] == u8(pipeline::ProgramStatus::OK) ? i64(r.cases_passed[i]) : -1);
  return row;
}

json row_json(const Row& r) {
  u64 pairs = u64(r.programs) * r.cases;
  return {{"device", r.device},
          {"programs", r.programs},
          {"tests", r.cases},
          {"seconds",
           {{"compile", r.compile},
            {"verify", r.verify},
            {"execute", r.execute},
            {"score", r.score},
            {"transfer", r.transfer},
            {"total", r.total}}},
          {"compile_programs_per_s", r.programs / r.compile},
          {"vm_instructions_per_s", double(r.instructions) / r.execute},
          {"evaluations_per_s", double(pairs) / r.execute},
          {"end_to_end_candidates_per_s", r.programs / r.total},
          {"instructions", r.instructions},
          {"programs_ok", r.ok},
          {"programs_solved", r.solved},
          {"memory_bytes", r.memory_bytes},
          {"memory_mb_per_1000_programs", double(r.memory_bytes) / 1e6 / (r.programs / 1000.0)},
          {"baseline_candidates_per_s", r.baseline_rate},
          {"gpu_joules", r.joules ? json(*r.joules) : json(nullptr)},
          {"gpu_joules_per_candidate", r.joules ? json(*r.joules / r.programs) : json(nullptr)},
          {"ratio_to_baseline", (r.programs / r.total) / r.baseline_rate}};
}

}  // namespace
}  // namespace gs::bench

int main(int argc, char** argv) {
  using namespace gs;
  using namespace gs::bench;
  namespace po = boost::program_options;
  std::string sizes_text = "1000,10000,100000", devices_text = "cpu,cuda,cuda-warp",
              out = "bench/results/pipeline.json";
  u32 tests_count = 100, repeats = 3, baseline_max = 2000, threads = 0;
  u64 seed = 20251122;
  po::options_description o("pipeline_bench options");
  o.add_options()("help,h", "show this help")("sizes", po::value(&sizes_text)->default_value(sizes_text),
                                              "batch sizes (programs), comma-separated")(
      "tests", po::value(&tests_count)->default_value(tests_count), "tests per program")(
      "devices", po::value(&devices_text)->default_value(devices_text),
      "backends to measure: cpu, cpu-lexer (the CPU compiling from the batch lexer, as CUDA does), cuda, "
      "cuda-warp (one warp per program)")("repeats", po::value(&repeats)->default_value(repeats),
                                          "timed runs per row (after one warm-up); medians reported")(
      "baseline-programs", po::value(&baseline_max)->default_value(baseline_max),
      "programs the single-thread baseline loop runs (its rate is per program)")(
      "threads", po::value(&threads)->default_value(threads), "CPU backend threads (0: all)")(
      "seed", po::value(&seed)->default_value(seed), "corpus seed")(
      "out", po::value(&out)->default_value(out), "JSON results file");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, o), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "pipeline_bench: " << e.what() << "\n" << o << "\n";
    return 2;
  }
  if (vm.count("help")) {
    std::cout << o << "\n";
    return 0;
  }
  std::vector<u32> sizes;
  std::stringstream ss(sizes_text);
  for (std::string item; std::getline(ss, item, ',');) sizes.push_back(u32(std::stoul(item)));
  u32 largest = *std::max_element(sizes.begin(), sizes.end());

  pipeline::PipelineConfig config;
  config.threads = threads;
  config.keep_pairs = false;
  std::fprintf(stderr, "pipeline_bench: generating %u programs and %u tests...\n", largest, tests_count);
  pipeline::Sources all = corpus_sources(largest, seed);
  Tests tests = make_tests(tests_count, seed + 1);
  std::fprintf(stderr, "pipeline_bench: mean source %.0f bytes\n", double(all.text.size()) / all.count());

  Baseline base = baseline_loop(all, std::min(baseline_max, largest), tests, config.limits);
  std::fprintf(stderr,
               "pipeline_bench: baseline loop %u programs in %.2f s (%.0f candidates/s, %llu solved)\n",
               base.programs, base.seconds, base.rate(), (unsigned long long)base.solved);

  json rows = json::array(), unmeasured = json::array();
  bool disagreed = false;
  std::printf("%-9s %9s %6s %12s %12s %12s %12s %10s %8s %8s %7s %10s\n", "dev", "programs", "tests",
              "compile/s", "instr/s", "evals/s", "cands/s", "MB/1000", "vs base", "ok", "solved", "mJ/cand");
  std::stringstream ds(devices_text);
  for (std::string name; std::getline(ds, name, ',');) {
    const bool warps = name == "cuda-warp", batch_lexer = name == "cpu-lexer";
    auto device = pipeline::parse_device(warps ? "cuda" : batch_lexer ? "cpu" : name);
    std::string why;
    if (!device || (*device == pipeline::Device::Cuda && !pipeline::cuda_available(&why))) {
      std::printf("%-9s not measured: %s\n", name.c_str(), device ? why.c_str() : "unknown device");
      unmeasured.push_back({{"device", name}, {"reason", device ? why : "unknown device"}});
      continue;
    }
    pipeline::PipelineConfig device_config = config;
    device_config.warp_per_program = warps;
    device_config.batch_lexer = batch_lexer;
    auto pipeline = pipeline::make_pipeline(*device, device_config);
    std::optional<GpuEnergy> energy;
    if (*device == pipeline::Device::Cuda) {
      energy.emplace();
      if (!energy->available())
        std::fprintf(stderr, "pipeline_bench: GPU energy not measured: %s\n", energy->why().c_str());
    }
    for (u32 n : sizes) {
      std::fprintf(stderr, "pipeline_bench: %s, %u programs x %u tests...\n", name.c_str(), n, tests_count);
      Row row =
          measure(*pipeline, all, n, tests, repeats, energy && energy->available() ? &*energy : nullptr);
      if (warps || batch_lexer) row.device = name;
      row.baseline_rate = base.rate();
      // What is timed must be right: every program the baseline ran passed the same tests. A
      // backend that disagrees is not measured further (the others still are; exit status 1).
      std::optional<u32> wrong;
      for (u32 i = 0; i < std::min<u32>(n, base.programs) && !wrong; ++i)
        if (row.passed[i] != base.passed[i]) wrong = i;
      if (wrong) {
        const u32 i = *wrong;
        std::fprintf(
            stderr, "pipeline_bench: %s disagrees with the baseline on program %u (%lld vs %lld tests)\n%s\n",
            name.c_str(), i, (long long)row.passed[i], (long long)base.passed[i],
            std::string(all.source(i)).c_str());
        std::printf("%-9s not measured: disagrees with the baseline loop on program %u\n", name.c_str(), i);
        unmeasured.push_back(
            {{"device", name},
             {"reason", "disagrees with the baseline loop on program " + std::to_string(i)}});
        disagreed = true;
        break;
      }
      u64 pairs = u64(n) * tests_count;
      const std::string mj = row.joules ? std::to_string(*row.joules * 1000.0 / n) : "-";
      std::printf("%-9s %9u %6u %12.4g %12.4g %12.4g %12.4g %10.1f %7.1fx %8llu %7llu %10s\n",
                  row.device.c_str(), n, tests_count, n / row.compile, double(row.instructions) / row.execute,
                  double(pairs) / row.execute, n / row.total, double(row.memory_bytes) / 1e6 / (n / 1000.0),
                  (n / row.total) / row.baseline_rate, (unsigned long long)row.ok,
                  (unsigned long long)row.solved, mj.c_str());
      std::fflush(stdout);
      rows.push_back(row_json(row));
    }
  }
  json doc = {
      {"benchmark", "pipeline"},
      {"machine", machine_info()},
      {"corpus",
       {{"seed", seed}, {"programs", largest}, {"mean_source_bytes", double(all.text.size()) / all.count()}}},
      {"limits",
       {{"fuel", config.limits.fuel},
        {"stack_slots", config.limits.stack_slots},
        {"call_depth", config.limits.call_depth},
        {"heap_bytes", config.limits.heap_bytes}}},
      {"baseline",
       {{"programs", base.programs},
        {"seconds", base.seconds},
        {"candidates_per_s", base.rate()},
        {"solved", base.solved},
        {"what", "single thread: compile, verify, run every test"}}},
      {"rows", rows},
      {"not_measured", unmeasured},
      {"paper_memory_estimate_mb_per_1000_programs", {20, 200}}};
  std::ofstream(out) << doc.dump(2) << "\n";
  std::fprintf(stderr, "pipeline_bench: wrote %s\n", out.c_str());
  return disagreed ? 1 : 0;
}
