// Probabilistic verification (paper §4.3, docs/neural.md "Verification"): a sampled bytecode
// counts as a correct compilation of its source when the bytecode verifier accepts it, it has
// the source's entry with the same signature, and it behaves exactly like the traditional
// compiler's bytecode — same results (vm::identical) or the same trap — on every input of the
// reference: random inputs drawn for the entry's parameter types (differential testing) and,
// when there is a problem, the problem's test inputs. No torch here: the checks run on the CPU
// reference VM (vm::Runner), one candidate at a time.
//
// Correctness is "probabilistic" in the paper's sense twice over: the model is right only with
// some probability p per sample, and agreement on finitely many inputs does not prove
// equivalence. More inputs make a false "correct" rarer (docs/neural.md measures it).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "trees/random_values.h"
#include "vm/limits.h"
#include "vm/program.h"
#include "vm/runner.h"
#include "vm/value.h"

namespace gs::neural {

// A source's traditional bytecode and the inputs candidates are compared on, with the
// reference's own outcome on each (made by make_reference).
struct Reference {
  vm::Program program;  // the traditional compiler's bytecode, verified
  u32 entry = 0;        // index of the entry function in program
  std::vector<std::vector<vm::Value>> inputs;
  std::vector<vm::Outcome> outcomes;  // program's outcome on inputs[i]
  u64 instructions = 0;               // executed by program over all inputs
};

struct ReferenceOptions {
  std::string entry = "solve";
  u32 random_inputs = 16;  // drawn for the entry's parameter types
  u64 seed = 0;            // of the random inputs (with the program's index as the stream)
  u64 stream = 0;
  vm::Limits limits = vm::Limits{};
};

// The reference for a traditional container and entry, with options.random_inputs random
// inputs plus `extra` ones (a problem's test inputs). nullopt with *error when the bytecode does
// not verify or has no such entry.
std::optional<Reference> make_reference(std::span<const u8> bytecode, const ReferenceOptions& options,
                                        std::span<const std::vector<vm::Value>> extra, std::string* error);

enum class Verdict : u8 {
  Correct,     // agrees with the reference on every input
  Invalid,     // no container, or the verifier rejects it (decoding reports which)
  WrongEntry,  // no entry function, or one with another signature
  Differs,     // some input gives other results or another trap
};
const char* verdict_name(Verdict v);

struct Check {
  Verdict verdict = Verdict::Invalid;
  u64 instructions = 0;  // executed over all inputs (meaningful when Correct)
  u32 input = 0;         // the first input it differs on (Differs)
  std::string why;       // for the record: "input 3: result 1 is 7, the reference's 8"
};

// Runs candidates against references; reuses one VM between checks (not thread-safe: one per
// thread).
class Verifier {
 public:
  explicit Verifier(const vm::Limits& limits = vm::Limits{});
  // An empty candidate is Invalid (the decoder found no container).
  Check check(const Reference& reference, std::span<const u8> candidate);
  Check check(const Reference& reference, const vm::Program& candidate);

 private:
  vm::Runner runner_;
};

}  // namespace gs::neural
