#include "neural/neural_pipeline.h"

#include <chrono>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "base/host.h"
#include "neural/neural_compiler.h"
#include "neural/router.h"
#include "neural/verification.h"
#include "pipeline/cpu_pipeline.h"

namespace gs::neural {

namespace {

// Candidates in the batch layout (8-aligned slots), for running them on the batch's tests.
struct CandidateBatch {
  std::vector<u64> bytes;
  std::vector<u64> offsets{0};  // in bytes
  std::vector<u32> sizes, entry;
  std::vector<u8> status;
  std::vector<u32> program;  // the program each candidate is for
  std::vector<const neural::DecodedBytecode*> candidate;
  pipeline::BatchResults results;  // of running the candidates on the batch's cases: pairs only

  void add(u32 of, const neural::DecodedBytecode& c) {
    const u64 words = (c.bytecode.size() + 7) / 8;
    bytes.resize(bytes.size() + words, 0);
    std::memcpy(reinterpret_cast<u8*>(bytes.data()) + offsets.back(), c.bytecode.data(), c.bytecode.size());
    offsets.push_back(offsets.back() + words * 8);
    sizes.push_back(u32(c.bytecode.size()));
    program.push_back(of);
    candidate.push_back(&c);
  }
  u32 count() const { return u32(sizes.size()); }
  pipeline::BytecodeBatch view() {
    status.assign(count(), u8(pipeline::ProgramStatus::OK));
    entry.assign(count(), 0);
    return {count(),     reinterpret_cast<u8*>(bytes.data()), offsets.data(), sizes.data(), status.data(),
            entry.data()};
  }
  pipeline::PairResults pairs(u32 cases) {
    results.reset({count(), cases, false});
    return results.pair_views();
  }
};

class NeuralPipeline final : public pipeline::CpuPipeline {
 public:
  NeuralPipeline(const pipeline::PipelineConfig& c, std::unique_ptr<neural::NeuralCompiler> model,
                 neural::Router router)
      : pipeline::CpuPipeline(c), model_(std::move(model)), router_(router), verifier_(c.limits) {}

  const char* name() const override {
    return config_.neural.mode == pipeline::CompileMode::Neural ? "cpu, neural compiler"
                                                                : "cpu, hybrid compiler";
  }

  void run(const pipeline::Sources& sources, const pipeline::CaseSet& tests,
           pipeline::BatchResults* out) override {
    auto start = std::chrono::steady_clock::now();
    const pipeline::CaseSetView& t = tests.view();
    pipeline::BytecodeBatch b = prepare(sources, t, out);
    const bool hybrid = config_.neural.mode == pipeline::CompileMode::Hybrid;
    if (hybrid) compile(sources, b, out);

    // Route: in hybrid mode only programs the traditional compiler accepted can be checked.
    auto t0 = std::chrono::steady_clock::now();
    std::vector<u32> routed;
    for (u32 i = 0; i < b.count; ++i) {
      if (!hybrid) {
        routed.push_back(i);
      } else if (b.status[i] == u8(pipeline::ProgramStatus::OK) &&
                 router_.neural(neural::route_features(sources.source(i)))) {
        routed.push_back(i);
      }
    }
    out->times.route = hybrid ? seconds_since(t0) : 0;
    out->neural.routed = u32(routed.size());

    t0 = std::chrono::steady_clock::now();
    std::vector<std::string_view> texts;
    for (u32 i : routed) texts.push_back(sources.source(i));
    neural::CompileSampling sampling;
    sampling.samples = config_.neural.temperature > 0 ? std::max<u32>(1, config_.neural.samples) : 1;
    sampling.temperature = config_.neural.temperature;
    sampling.top_p = config_.neural.top_p;
    sampling.seed = config_.neural.seed;
    sampling.stream = batches_++;
    std::vector<neural::Candidates> candidates =
        texts.empty() ? std::vector<neural::Candidates>{} : model_->compile(texts, sampling);
    out->times.neural = seconds_since(t0);
    for (const neural::Candidates& c : candidates)
      for (const neural::DecodedBytecode& d : c.samples) {
        out->neural.samples++;
        out->neural.valid += d.ok();
      }

    t0 = std::chrono::steady_clock::now();
    CandidateBatch cb = run_candidates(t, routed, candidates);
    if (hybrid)
      accept_verified(b, t, cb, out);
    else
      accept_best(b, t, routed, cb, out);
    out->times.check = seconds_since(t0);
    finish(b, t, out, start);
  }

 private:
  // Copies bytecode into program i's slot; false when it does not fit.
  static bool place(pipeline::BytecodeBatch& b, u32 i, const std::vector<u8>& bytecode) {
    if (bytecode.size() > b.offsets[i + 1] - b.offsets[i]) return false;
    std::memcpy(b.bytes + b.offsets[i], bytecode.data(), bytecode.size());
    b.sizes[i] = u32(bytecode.size());
    b.status[i] = u8(pipeline::ProgramStatus::OK);
    return true;
  }

  // Every valid candidate checked (entry, verifier) and run on the batch's tests.
  CandidateBatch run_candidates(const pipeline::CaseSetView& t, const std::vector<u32>& routed,
                                const std::vector<neural::Candidates>& candidates) {
    CandidateBatch cb;
    for (size_t r = 0; r < routed.size(); ++r)
      for (const neural::DecodedBytecode& d : candidates[r].samples)
        if (d.ok()) cb.add(routed[r], d);
    pipeline::BytecodeBatch cv = cb.view();
    pipeline::PairResults cp = cb.pairs(t.case_count);
    if (cb.count() > 0) {
      executor_.verify(cv, t);
      executor_.execute(cv, t, cp);
    }
    return cb;
  }

  // Neural: each program runs its candidate that passes the most tests (the first of equals) —
  // the paper's verification by execution, without a reference to say whether it is a faithful
  // compilation. A program without a candidate that verifies and has the entry is INVALID_BYTECODE.
  void accept_best(pipeline::BytecodeBatch& b, const pipeline::CaseSetView& t, const std::vector<u32>& routed,
                   const CandidateBatch& cb, pipeline::BatchResults* out) {
    std::vector<i64> best(b.count, -1);
    std::vector<u32> best_passed(b.count, 0);
    for (u32 c = 0; c < cb.count(); ++c) {
      if (cb.status[c] != u8(pipeline::ProgramStatus::OK)) continue;
      const u32 i = cb.program[c];
      u32 passed = 0;
      for (u32 k = 0; k < t.case_count; ++k) passed += cb.results.pass[u64(c) * t.case_count + k];
      if (best[i] < 0 || passed > best_passed[i]) {
        best[i] = c;
        best_passed[i] = passed;
      }
    }
    for (u32 i : routed) {
      b.status[i] = u8(pipeline::ProgramStatus::INVALID_BYTECODE);
      if (best[i] >= 0 && place(b, i, cb.candidate[best[i]]->bytecode)) out->neural.accepted++;
    }
  }

  // Hybrid: a candidate with the same trap and output hash as the traditional bytecode on every
  // test, and the same behaviour on random inputs (neural/verification.h), that executes no more
  // instructions on the tests than the traditional bytecode, replaces it — the cheapest such
  // candidate (the first of equals). A verified but costlier candidate would make the program
  // slower for nothing: the traditional bytecode is already right.
  void accept_verified(pipeline::BytecodeBatch& b, const pipeline::CaseSetView& t, const CandidateBatch& cb,
                       pipeline::BatchResults* out) {
    if (cb.count() == 0) return;
    // The traditional bytecode's outcomes: check and execute b as it stands.
    executor_.verify(b, t);
    reference_.reset({b.count, t.case_count, false});
    pipeline::PairResults ref = reference_.pair_views();
    executor_.execute(b, t, ref);

    neural::ReferenceOptions ro;
    ro.entry = std::string(t.entry, t.entry_len);
    ro.random_inputs = config_.neural.random_inputs;
    ro.seed = config_.neural.seed;
    ro.limits = config_.limits;
    // Per program: the instructions its bytecode executes over the tests (the traditional's to
    // begin with), and the cheapest verified candidate so far.
    std::vector<u64> cost(b.count, 0);
    for (u32 i = 0; i < b.count; ++i)
      for (u32 k = 0; k < t.case_count; ++k)
        cost[i] += reference_.pair_instructions[u64(i) * t.case_count + k];
    std::vector<i64> chosen(b.count, -1);
    std::vector<std::optional<neural::Reference>> references(b.count);  // made when first needed
    for (u32 c = 0; c < cb.count(); ++c) {
      const u32 i = cb.program[c];
      if (cb.status[c] != u8(pipeline::ProgramStatus::OK) || b.status[i] != u8(pipeline::ProgramStatus::OK))
        continue;
      bool same = true;
      u64 candidate_cost = 0;
      for (u32 k = 0; k < t.case_count && same; ++k) {
        const u64 p = u64(i) * t.case_count + k, q = u64(c) * t.case_count + k;
        same = cb.results.trap[q] == reference_.trap[p] &&
               cb.results.output_hash[q] == reference_.output_hash[p];
        candidate_cost += cb.results.pair_instructions[q];
      }
      if (!same || candidate_cost > cost[i] || (chosen[i] >= 0 && candidate_cost == cost[i])) continue;
      std::optional<neural::Reference>& reference = references[i];
      if (!reference) {
        std::string error;
        ro.stream = i;
        reference = neural::make_reference({b.bytes + b.offsets[i], b.sizes[i]}, ro, {}, &error);
        if (!reference) continue;  // the traditional bytecode passed verification: not expected
      }
      if (verifier_.check(*reference, cb.candidate[c]->bytecode).verdict != neural::Verdict::Correct)
        continue;
      chosen[i] = c;
      cost[i] = candidate_cost;
    }
    for (u32 i = 0; i < b.count; ++i)
      if (chosen[i] >= 0 && place(b, i, cb.candidate[size_t(chosen[i])]->bytecode)) out->neural.accepted++;
  }

  std::unique_ptr<neural::NeuralCompiler> model_;
  neural::Router router_;
  neural::Verifier verifier_;
  u64 batches_ = 0;
  pipeline::BatchResults reference_;  // the traditional bytecode's pairs (hybrid)
};

}  // namespace

std::unique_ptr<pipeline::Pipeline> make_neural_pipeline(const pipeline::PipelineConfig& config) {
  const pipeline::NeuralCompileConfig& n = config.neural;
  if (n.checkpoint.empty())
    throw std::runtime_error(std::string("the ") + pipeline::compile_mode_name(n.mode) +
                             " compile mode needs a neural compiler checkpoint");
  std::string error;
  auto model = neural::NeuralCompiler::load(n.checkpoint, n.device, &error);
  if (!model) throw std::runtime_error(error);
  neural::Router router;
  if (!n.router.empty()) {
    auto loaded = neural::Router::load(n.router, &error);
    if (!loaded) throw std::runtime_error(error);
    router = *loaded;
  }
  return make_neural_pipeline(config, std::move(model), router);
}

std::unique_ptr<pipeline::Pipeline> make_neural_pipeline(const pipeline::PipelineConfig& config,
                                                         std::unique_ptr<neural::NeuralCompiler> model,
                                                         neural::Router router) {
  if (config.neural.mode == pipeline::CompileMode::Traditional)
    throw std::invalid_argument("make_neural_pipeline: the compile mode is traditional");
  return std::make_unique<NeuralPipeline>(config, std::move(model), router);
}

void register_pipeline() {
  pipeline::register_neural_pipeline(
      [](const pipeline::PipelineConfig& config) { return make_neural_pipeline(config); });
}

}  // namespace gs::neural
