#include "neural/compiler_evaluation.h"

#include <torch/utils.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>
#include <thread>

#include "base/host.h"
#include "compiler/compiler.h"
#include "neural/checkpoint.h"
#include "neural/estimates.h"
#include "neural/neural_compiler.h"
#include "neural/router.h"
#include "neural/verification.h"

namespace gs::neural {

namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

constexpr u32 kPassAtKs[] = {1, 2, 4, 8, 16};
constexpr u32 kChunk = 16;                      // programs sampled between two progress lines
constexpr double kMinTraditionalSeconds = 0.2;  // one timed pass of the (µs-fast) traditional compiler

std::string format(const char* spec, double x) {
  char text[64];
  std::snprintf(text, sizeof text, spec, x);
  return text;
}

std::string options_problem(const EvaluationOptions& o) {
  if (o.checkpoint.empty()) return "--checkpoint CKPT is required";
  if (o.programs == 0) return "--programs must be positive";
  if (o.samples == 0) return "--samples must be positive";
  if (o.levels == 0 || o.levels > kCurriculumLevels)
    return "--levels must be 1.." + std::to_string(kCurriculumLevels);
  if (!(o.temperature >= 0)) return "--temperature must not be negative";
  if (!(o.top_p > 0 && o.top_p <= 1)) return "--top-p must be in (0, 1]";
  if (o.inputs == 0)
    return "--inputs must be positive (with none, every candidate of the right signature would count)";
  if (o.repetitions == 0) return "--repetitions must be positive";
  for (const std::string* path : {&o.json_path, &o.history_path, &o.router_path})
    if (!path->empty() && !std::ofstream(*path, std::ios::app)) return *path + ": cannot write file";
  return "";
}

// The pass@k reported: 1, 2, 4, 8, 16 up to K, and K itself.
std::vector<u32> reported_ks(u32 samples) {
  std::vector<u32> ks;
  for (u32 k : kPassAtKs)
    if (k <= samples) ks.push_back(k);
  if (ks.back() != samples) ks.push_back(samples);
  return ks;
}

// Seconds per pass over repeated passes: the best (least disturbed) and the median.
struct Timing {
  double best = 0, median = 0;
};

Timing summarise(std::vector<double> seconds) {
  std::sort(seconds.begin(), seconds.end());
  size_t n = seconds.size();
  return {seconds.front(), n % 2 ? seconds[n / 2] : (seconds[n / 2 - 1] + seconds[n / 2]) / 2};
}

struct Sampled {
  std::vector<Candidates> candidates;
  double seconds = 0;  // in NeuralCompiler::compile only
};

// K candidates for every source, kChunk sources per call, a progress line after each call.
Sampled sample_all(NeuralCompiler& model, const std::vector<std::string_view>& sources,
                   const CompileSampling& s, const char* what, std::ostream& log) {
  Sampled out;
  for (size_t first = 0; first < sources.size(); first += kChunk) {
    std::vector<std::string_view> part(sources.begin() + i64(first),
                                       sources.begin() + i64(std::min(sources.size(), first + kChunk)));
    CompileSampling chunk = s;
    chunk.stream = s.stream + first;  // candidate k of program i keyed by (seed, stream + i, k)
    auto t0 = Clock::now();
    std::vector<Candidates> c = model.compile(part, chunk);
    out.seconds += seconds_since(t0);
    std::move(c.begin(), c.end(), std::back_inserter(out.candidates));
    log << what << ": " << out.candidates.size() << "/" << sources.size() << " programs, "
        << format("%.1f", out.seconds) << " s\n";
    log.flush();
  }
  return out;
}

// What a bucket of programs (a curriculum level, or all) gathers.
struct Bucket {
  std::string name;
  std::vector<u32> correct;  // correct samples per program
  u32 greedy_correct = 0;    // programs whose greedy candidate is correct
  u64 verdicts[4] = {};      // samples by Verdict
  u64 fewer = 0;             // correct samples that execute fewer instructions than the reference
  u32 fewer_programs = 0;    // programs with at least one such sample
  BucketEstimate estimate;
};

struct RouterReport {
  u32 train = 0, test = 0;
  double accuracy = 0, majority_accuracy = 0, precision = NAN, recall = NAN, routed_neural = 0;
};

// Fits on the first half of the history (the levels interleave, so both halves hold every
// level) and scores the second half.
RouterReport evaluate_router(const std::vector<RouteExample>& history) {
  RouterReport r;
  r.train = u32(history.size() / 2);
  r.test = u32(history.size()) - r.train;
  if (r.train == 0) return r;
  const std::vector<RouteExample> train(history.begin(), history.begin() + r.train);
  const Router router = Router::fit(train);
  u32 right = 0, routed = 0, routed_success = 0, success = 0;
  for (size_t i = r.train; i < history.size(); ++i) {
    const bool neural = router.neural(history[i].features), ok = history[i].success;
    right += neural == ok;
    routed += neural;
    routed_success += neural && ok;
    success += ok;
  }
  r.accuracy = double(right) / r.test;
  r.majority_accuracy = double(std::max(success, r.test - success)) / r.test;
  if (routed) r.precision = double(routed_success) / routed;
  if (success) r.recall = double(routed_success) / success;
  r.routed_neural = double(routed) / r.test;
  return r;
}

struct Throughput {
  Timing neural, traditional;  // seconds per pass over all programs
  double greedy_seconds = 0;   // one greedy pass
};

// The traditional compiler on the same sources: passes until kMinTraditionalSeconds, per
// repetition, so that a pass of microseconds is timed over many.
Timing time_traditional(const std::vector<std::string_view>& sources, u32 repetitions) {
  compiler::Compiler compiler;
  std::vector<double> per_pass;
  for (u32 r = 0; r < repetitions; ++r) {
    u64 passes = 0;
    auto t0 = Clock::now();
    do {
      for (std::string_view s : sources) {
        u32 size = 0;
        if (compiler.compile_in_place(s, &size) != compiler::CompileStatus::OK)
          throw std::runtime_error("the traditional compiler rejects a held-out program");
      }
      ++passes;
    } while (seconds_since(t0) < kMinTraditionalSeconds);
    per_pass.push_back(seconds_since(t0) / double(passes));
  }
  return summarise(per_pass);
}

json interval(const Interval& i) { return json::array({i.low, i.high}); }

json bucket_json(const Bucket& b, u32 samples) {
  const BucketEstimate& e = b.estimate;
  json pass = json::object(), paper = json::object();
  for (size_t i = 0; i < e.ks.size(); ++i) {
    pass[std::to_string(e.ks[i])] = e.pass_at[i];
    paper[std::to_string(e.ks[i])] = e.paper_pass_at[i];
  }
  json verdicts = json::object();
  for (u8 v = 0; v < 4; ++v) verdicts[verdict_name(Verdict(v))] = b.verdicts[v];
  // K99 is +infinity when no sample is correct: JSON has no infinity, so it is null then.
  return {
      {"bucket", b.name},
      {"programs", e.programs},
      {"samples", e.samples},
      {"samples_per_program", samples},
      {"correct", e.correct},
      {"p", e.p},
      {"p_ci95", interval(e.p_ci)},
      {"k99", e.k99},
      {"k99_ci95", interval(e.k99_ci)},
      {"pass_at", pass},
      {"paper_pass_at", paper},
      {"greedy_pass_at_1", e.programs ? double(b.greedy_correct) / e.programs : 0.0},
      {"verdicts", verdicts},
      {"correct_fewer_instructions", b.fewer},
      {"programs_with_correct_fewer_instructions", b.fewer_programs},
      {"correct_programs", std::count_if(b.correct.begin(), b.correct.end(), [](u32 c) { return c > 0; })}};
}

std::string k99_text(double k) { return std::isinf(k) ? "inf" : format("%.1f", k); }

void print_table(std::ostream& out, const std::vector<Bucket>& buckets, const EvaluationOptions& o,
                 const Throughput& t, const RouterReport& r, u32 programs) {
  char line[256];
  out << "\nbucket  programs  samples       p  p 95% CI          K99  K99 95% CI        greedy@1\n";
  for (const Bucket& b : buckets) {
    const BucketEstimate& e = b.estimate;
    std::snprintf(line, sizeof line, "%-6s  %8u  %7llu  %6.4f  [%6.4f, %6.4f]  %6s  [%6s, %6s]  %8.4f\n",
                  b.name.c_str(), e.programs, (unsigned long long)e.samples, e.p, e.p_ci.low, e.p_ci.high,
                  k99_text(e.k99).c_str(), k99_text(e.k99_ci.low).c_str(), k99_text(e.k99_ci.high).c_str(),
                  e.programs ? double(b.greedy_correct) / e.programs : 0.0);
    out << line;
  }
  out << "\npass@k measured (unbiased) / paper 1-(1-p)^k\nbucket";
  for (u32 k : buckets.front().estimate.ks) {
    std::snprintf(line, sizeof line, "  %13s", ("pass@" + std::to_string(k)).c_str());
    out << line;
  }
  out << "\n";
  for (const Bucket& b : buckets) {
    std::snprintf(line, sizeof line, "%-6s", b.name.c_str());
    out << line;
    for (size_t i = 0; i < b.estimate.ks.size(); ++i)
      out << "  " << format("%6.4f", b.estimate.pass_at[i]) << "/"
          << format("%6.4f", b.estimate.paper_pass_at[i]);
    out << "\n";
  }
  out << "\nverdicts of the samples; correct with fewer instructions than the reference (samples, programs)\n"
         "bucket   correct   invalid  wrong_entry   differs   fewer (samples/programs)\n";
  for (const Bucket& b : buckets) {
    std::snprintf(line, sizeof line, "%-6s  %8llu  %8llu  %11llu  %8llu   %llu/%u\n", b.name.c_str(),
                  (unsigned long long)b.verdicts[0], (unsigned long long)b.verdicts[1],
                  (unsigned long long)b.verdicts[2], (unsigned long long)b.verdicts[3],
                  (unsigned long long)b.fewer, b.fewer_programs);
    out << line;
  }
  const double neural = programs / t.neural.best, traditional = programs / t.traditional.best;
  out << "\nthroughput (" << programs << " programs, best of " << o.repetitions << ", median in brackets)\n"
      << "  neural, K=" << o.samples << ":  " << format("%.2f", neural) << " programs/s ("
      << format("%.2f", programs / t.neural.median) << "), " << format("%.1f", neural * o.samples)
      << " samples/s\n"
      << "  neural, greedy: " << format("%.2f", programs / t.greedy_seconds) << " programs/s (one pass)\n"
      << "  traditional:    " << format("%.0f", traditional) << " programs/s ("
      << format("%.0f", programs / t.traditional.median) << ")\n"
      << "  traditional / neural: " << format("%.0f", traditional / neural) << "x\n";
  out << "\nrouter (fitted on " << r.train << " programs, scored on " << r.test << ")";
  if (r.train == 0) {
    out << ": too few programs\n";
    return;
  }
  out << ": accuracy " << format("%.3f", r.accuracy) << " (majority class "
      << format("%.3f", r.majority_accuracy) << "), precision " << format("%.3f", r.precision) << ", recall "
      << format("%.3f", r.recall) << ", routed to neural " << format("%.3f", r.routed_neural) << "\n";
}

}  // namespace

EvaluationResult evaluate_compiler(const EvaluationOptions& o, std::ostream& log, std::string* error) {
  if (std::string p = options_problem(o); !p.empty()) return *error = p, EvaluationResult::BadInput;
  if (o.threads > 0) torch::set_num_threads(int(o.threads));
  std::optional<CheckpointMeta> meta = read_checkpoint_meta(o.checkpoint, error);
  if (!meta) return EvaluationResult::BadInput;
  std::unique_ptr<NeuralCompiler> model = NeuralCompiler::load(o.checkpoint, o.device, error);
  if (!model) return EvaluationResult::BadInput;
  log << "checkpoint " << o.checkpoint << " (step " << meta->step << "): " << model->config().to_text()
      << ", device " << o.device << ", " << torch::get_num_threads() << " torch threads\n";

  try {
    const PairMaker maker(o.seed, u32(model->config().max_source), u32(model->config().max_bytecode));
    const std::vector<Example> programs = maker.held_out(o.programs, o.levels);
    std::vector<std::string_view> sources;
    std::vector<Reference> references;
    ReferenceOptions ro;
    ro.random_inputs = o.inputs;
    ro.seed = o.seed;
    for (size_t i = 0; i < programs.size(); ++i) {
      sources.push_back(programs[i].source);
      ro.stream = i;
      std::optional<Reference> r = make_reference(programs[i].bytecode, ro, {}, error);
      if (!r)
        return *error = "held-out program " + std::to_string(i) + ": " + *error, EvaluationResult::Failed;
      references.push_back(std::move(*r));
    }
    log << programs.size() << " held-out programs (levels 0.." << o.levels - 1 << "), " << o.inputs
        << " random inputs each\n";

    CompileSampling sampling{o.samples, o.temperature, o.top_p, o.seed, 0};
    Sampled sampled = sample_all(*model, sources, sampling, "sampling", log);
    Sampled greedy = sample_all(*model, sources, CompileSampling{1, 0.0, 1.0, o.seed, 0}, "greedy", log);

    // Buckets 0 .. levels-1, then "all".
    std::vector<Bucket> buckets(o.levels + 1);
    for (u32 l = 0; l < o.levels; ++l) buckets[l].name = std::to_string(l);
    buckets[o.levels].name = "all";
    std::vector<RouteExample> history;
    Verifier verifier(ro.limits);
    auto t0 = Clock::now();
    for (size_t i = 0; i < programs.size(); ++i) {
      u32 correct = 0, fewer = 0;
      u64 verdicts[4] = {};
      for (const DecodedBytecode& d : sampled.candidates[i].samples) {
        Check c = verifier.check(references[i], d.bytecode);
        ++verdicts[u8(c.verdict)];
        correct += c.verdict == Verdict::Correct;
        fewer += c.verdict == Verdict::Correct && c.instructions < references[i].instructions;
      }
      const bool greedy_correct =
          verifier.check(references[i], greedy.candidates[i].samples.front().bytecode).verdict ==
          Verdict::Correct;
      for (Bucket* b : {&buckets[programs[i].level], &buckets[o.levels]}) {
        b->correct.push_back(correct);
        b->greedy_correct += greedy_correct;
        for (u8 v = 0; v < 4; ++v) b->verdicts[v] += verdicts[v];
        b->fewer += fewer;
        b->fewer_programs += fewer > 0;
      }
      history.push_back({route_features(programs[i].source), correct > 0});
    }
    log << "verified " << programs.size() * (o.samples + 1) << " candidates in "
        << format("%.1f", seconds_since(t0)) << " s\n";
    const std::vector<u32> ks = reported_ks(o.samples);
    for (Bucket& b : buckets) b.estimate = estimate(b.correct, o.samples, ks, o.seed);

    Throughput t;
    std::vector<double> neural_passes{sampled.seconds};
    for (u32 r = 1; r < o.repetitions; ++r) {
      neural_passes.push_back(sample_all(*model, sources, sampling, "timing", log).seconds);
    }
    t.neural = summarise(neural_passes);
    t.greedy_seconds = greedy.seconds;
    t.traditional = time_traditional(sources, o.repetitions);

    const RouterReport router = evaluate_router(history);
    print_table(log, buckets, o, t, router, u32(programs.size()));

    if (!o.history_path.empty() && !write_history(o.history_path, history, error))
      return EvaluationResult::Failed;
    if (!o.router_path.empty() && !Router::fit(history).save(o.router_path, error))
      return EvaluationResult::Failed;
    if (!o.json_path.empty()) {
      json j;
      j["checkpoint"] = o.checkpoint;
      j["step"] = meta->step;
      j["model"] = model->config().to_text();
      j["machine"] = {{"hostname", host_name()},
                      {"hardware_threads", std::thread::hardware_concurrency()},
                      {"torch_threads", torch::get_num_threads()},
                      {"device", o.device}};
      j["options"] = {{"programs", o.programs}, {"levels", o.levels},
                      {"samples", o.samples},   {"temperature", o.temperature},
                      {"top_p", o.top_p},       {"inputs", o.inputs},
                      {"seed", o.seed},         {"repetitions", o.repetitions}};
      j["buckets"] = json::array();
      for (const Bucket& b : buckets) j["buckets"].push_back(bucket_json(b, o.samples));
      const double n = double(programs.size());
      j["throughput"] = {{"neural_programs_per_s", n / t.neural.best},
                         {"neural_programs_per_s_median", n / t.neural.median},
                         {"neural_samples_per_s", n * o.samples / t.neural.best},
                         {"neural_greedy_programs_per_s", n / t.greedy_seconds},
                         {"traditional_programs_per_s", n / t.traditional.best},
                         {"traditional_programs_per_s_median", n / t.traditional.median},
                         {"traditional_over_neural", t.neural.best / t.traditional.best}};
      // Undefined precision / recall (nothing routed, nothing succeeded) are NaN: null in JSON.
      j["router"] = {{"train_programs", router.train},       {"test_programs", router.test},
                     {"accuracy", router.accuracy},          {"majority_accuracy", router.majority_accuracy},
                     {"precision", router.precision},        {"recall", router.recall},
                     {"routed_neural", router.routed_neural}};
      std::ofstream out(o.json_path);
      out << j.dump(2) << "\n";
      if (!out) return *error = o.json_path + ": cannot write file", EvaluationResult::Failed;
    }
  } catch (const std::exception& e) {
    *error = std::string("evaluation failed: ") + e.what();
    return EvaluationResult::Failed;
  }
  return EvaluationResult::Ok;
}

}  // namespace gs::neural
