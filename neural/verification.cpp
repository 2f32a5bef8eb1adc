#include "neural/verification.h"

#include <stdexcept>

#include "base/rng.h"
#include "trees/random_program.h"
#include "trees/random_values.h"

namespace gs::neural {
namespace {

bool same_signature(const vm::FunctionRecord& a, const vm::FunctionRecord& b) {
  if (a.param_count != b.param_count || a.result_count != b.result_count) return false;
  for (u32 i = 0; i < u32(a.param_count) + a.result_count; ++i)
    if (a.types[i] != b.types[i]) return false;
  return true;
}

std::string describe_outcome(const vm::Outcome& o) {
  if (o.trap != vm::Trap::NONE) return std::string("trap ") + vm::trap_name(o.trap);
  std::string s;
  for (size_t i = 0; i < o.results.size(); ++i) s += (i ? ", " : "") + vm::to_json(o.results[i]);
  return "(" + s + ")";
}

bool same_outcome(const vm::Outcome& a, const vm::Outcome& b) {
  if (a.trap != b.trap) return false;
  if (a.trap != vm::Trap::NONE) return true;
  if (a.results.size() != b.results.size()) return false;
  for (size_t i = 0; i < a.results.size(); ++i)
    if (!vm::identical(a.results[i], b.results[i])) return false;
  return true;
}

}  // namespace

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Correct: return "correct";
    case Verdict::Invalid: return "invalid";
    case Verdict::WrongEntry: return "wrong_entry";
    case Verdict::Differs: return "differs";
  }
  return "?";
}

std::optional<Reference> make_reference(std::span<const u8> bytecode, const ReferenceOptions& options,
                                        std::span<const std::vector<vm::Value>> extra, std::string* error) {
  vm::VerifyResult why;
  auto program = vm::Program::load(bytecode, &why);
  if (!program) {
    *error = "reference bytecode rejected by the verifier: " + vm::describe(why);
    return std::nullopt;
  }
  i32 entry = program->find(options.entry);
  if (entry < 0) {
    *error = "reference bytecode has no function '" + options.entry + "'";
    return std::nullopt;
  }
  Reference r{std::move(*program), u32(entry), {}, {}, 0};
  const vm::FunctionRecord& f = r.program.function(r.entry);
  Rng rng = Rng(options.seed, 0x7e1f).derive(options.stream);
  trees::InputConfig inputs;
  for (u32 k = 0; k < options.random_inputs; ++k) {
    std::vector<vm::Value> args;
    for (u32 p = 0; p < f.param_count; ++p) args.push_back(trees::random_value(f.param_type(p), inputs, rng));
    r.inputs.push_back(std::move(args));
  }
  for (const auto& args : extra) r.inputs.push_back(args);
  vm::Runner runner(options.limits);
  for (size_t k = 0; k < r.inputs.size(); ++k) {
    try {
      r.outcomes.push_back(runner.run(r.program, r.entry, r.inputs[k]));
    } catch (const std::invalid_argument& e) {
      *error = "input " + std::to_string(k) + " does not fit the reference's entry: " + e.what();
      return std::nullopt;
    }
    r.instructions += r.outcomes.back().instructions;
  }
  return r;
}

Verifier::Verifier(const vm::Limits& limits) : runner_(limits) {}

Check Verifier::check(const Reference& reference, std::span<const u8> candidate) {
  if (candidate.empty()) return {Verdict::Invalid, 0, 0, "no container"};
  vm::VerifyResult why;
  auto program = vm::Program::load(candidate, &why);
  if (!program) return {Verdict::Invalid, 0, 0, "verifier: " + vm::describe(why)};
  return check(reference, *program);
}

Check Verifier::check(const Reference& reference, const vm::Program& candidate) {
  const vm::FunctionRecord& want = reference.program.function(reference.entry);
  i32 entry = candidate.find(reference.program.function_name(reference.entry));
  if (entry < 0) return {Verdict::WrongEntry, 0, 0, "no entry function"};
  if (!same_signature(candidate.function(u32(entry)), want))
    return {Verdict::WrongEntry, 0, 0,
            "entry is " + candidate.signature(u32(entry)) + ", not " +
                reference.program.signature(reference.entry)};
  Check c{Verdict::Correct, 0, 0, {}};
  for (size_t k = 0; k < reference.inputs.size(); ++k) {
    vm::Outcome o = runner_.run(candidate, u32(entry), reference.inputs[k]);
    c.instructions += o.instructions;
    if (!same_outcome(o, reference.outcomes[k])) {
      c.verdict = Verdict::Differs;
      c.input = u32(k);
      c.why = "input " + std::to_string(k) + ": " + describe_outcome(o) + ", the reference gives " +
              describe_outcome(reference.outcomes[k]);
      return c;
    }
  }
  return c;
}

}  // namespace gs::neural
