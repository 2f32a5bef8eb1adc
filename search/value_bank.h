// The values of the enumeration engine's bank (issue 21, docs/design.md "Search"): an expression's
// behaviour is its output on every train case, a word per case (a scalar, or a reference into that
// case's heap) beside a trap per case, so that an expression that traps on some cases (max(xs) of
// an empty xs, xs[0], a division by zero) is a value like any other. A larger expression's
// behaviour is computed from its operands' behaviours, case by case, with the VM's own semantics:
// an Operation is a one-function Syn program over its operands, compiled by the traditional
// compiler and run by the interpreter (vm/interpreter.h) on the case's machine, whose heap keeps
// every value of that case. An operand that trapped on a case makes the result trap alike there
// (the first operand's trap, left to right, as the whole program would); choose is lazy: a case
// takes only the arm its condition picks.
//
// The interpreter is the engine's reference evaluator, the judge of what every faster path must
// agree with (tests/property/value_bank_test.cpp runs it against whole programs compiled and run by
// the VM). The fast path: an operation that is one of the VM's heap-free instructions
// (vm/scalar_ops.h: int, bool and float arithmetic, comparisons, conversions) is applied to the
// operands' word vectors directly, by the same function the interpreter's case for it calls.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "vm/machine.h"
#include "vm/opcodes.h"
#include "vm/program.h"
#include "vm/trap.h"
#include "vm/value.h"

namespace gs::search::bank {

// A value of type t is its word (an int, a float, a bool), not a reference into a case's heap.
inline bool is_word(Type t) { return t == Type::Int || t == Type::Float || t == Type::Bool; }

// An expression's outputs on every case: words[k] and traps[k] (a vm::Trap; words[k] means
// nothing where traps[k] is not NONE).
struct Behaviour {
  Type type = Type::Unit;
  std::vector<u64> words;
  std::vector<u8> traps;
  // On some case the application would have made a list longer than the cases' bound
  // (Cases::bound_lengths) and made nothing there: never banked, its words there mean nothing.
  bool too_long = false;
  bool traps_anywhere() const;
};

// How Operation::apply runs on a Cases: loops over the cases on `threads` threads (0: every CPU,
// as ThreadPool's), and every production through the interpreter when `interpreter_only` (the
// reference the direct path is measured and tested against).
struct Evaluation {
  u32 threads = 1;
  bool interpreter_only = false;
};

// The train cases as machines: one per case, its heap holding the case's inputs and then every
// value computed on it.
class Cases {
 public:
  // inputs[k] are case k's arguments, of the types `params`. Throws std::invalid_argument when
  // an input has another type or does not fit `limits.heap_bytes`.
  Cases(std::span<const Type> params, std::span<const std::vector<vm::Value>> inputs,
        const vm::Limits& limits, Evaluation evaluation = {});
  Cases(const Cases&) = delete;
  Cases& operator=(const Cases&) = delete;

  u32 count() const { return u32(machines_.size()); }
  // Parameter i's behaviour (never a trap).
  const Behaviour& parameter(u32 i) const { return params_[i]; }
  // Case k's output of b as a host value (b must not trap there).
  vm::Value value(const Behaviour& b, u32 k);
  vm::Machine& machine(u32 k) { return machines_[k]->get(); }
  const vm::Limits& limits() const { return limits_; }
  // From now on no list of more than `list` elements, nor str of more than `str` bytes, is wanted
  // (none is too long by default): an application whose output on a case would be a longer list
  // it knows the length of before making it — `array(n, x)` — makes none there and says so
  // (Behaviour::too_long), as it says the traps, rather than filling n slots to have them dropped.
  void bound_lengths(u32 list, u32 str) {
    longest_list_ = list;
    longest_str_ = str;
  }
  u32 longest_list() const { return longest_list_; }
  u32 longest_str() const { return longest_str_; }
  ThreadPool* pool() { return pool_.get(); }
  bool interpreter_only() const { return interpreter_only_; }

  // Where every case's heap ends now; rollback() frees what was made after (a rejected
  // candidate's arrays and strings: nothing banked may refer to them).
  struct Mark {
    std::vector<u32> used;
  };
  void mark(Mark* into);
  Mark mark() {
    Mark m;
    mark(&m);
    return m;
  }
  void rollback(const Mark& mark);
  // Bytes the cases' heaps hold now, in all.
  u64 heap_used();
  // Whether case k's heap holds 255/256 of its capacity or more.
  bool heap_nearly_full(u32 k);
  // Whether case k's heap holds 15/16 of its capacity or more: the bank keeps the last sixteenth
  // for expressions tried as answers and given back (BankEnumerator: once the heaps are full).
  bool heap_in_reserve(u32 k);

 private:
  vm::Limits limits_;
  std::unique_ptr<ThreadPool> pool_;
  bool interpreter_only_ = false;
  std::vector<std::unique_ptr<vm::OwnedMachine>> machines_;
  std::vector<Behaviour> params_;
  u32 longest_list_ = ~0u, longest_str_ = ~0u;  // bound_lengths()
};

// An operand of a loop computed in C++, on one case: an [int]'s elements, or an int.
struct LoopOperand {
  const u64* slots = nullptr;  // an [int]'s, length of them
  u32 length = 0;
  u64 word = 0;  // an int
};
// What a loop computed in C++ counted on one case: its steps (n[0]), and what else the fuel its
// Syn spends depends on — the elements kept or matched, the elements a walk charges, which way
// the loop ended. That fuel is affine in these counts, the coefficients measured against the
// interpreter when the loop is declared (Operation::loop_natively); n[0]'s is positive, and every
// step the interpreter runs costs at least that much (so that a loop stopped after more steps
// than the fuel buys is out of it).
struct LoopCounts {
  static constexpr u32 kCounts = 4;
  u64 n[kCounts] = {};
};
// A loop with an int result over its operands (arity() of them, ints and [int]s), its functions
// making nothing in the heap, computed in C++ rather than by the interpreter
// (search/bank_loops.cpp: the folds, count / first / last index where, the folds over 1..n,
// recur_add, the digit loops, euclid).
struct NativeWordLoop {
  // On these operands, taking at most most_steps steps (a loop that would take more stops there,
  // its n[0] then most_steps + 1): the result in *out and the counts, or the trap its Syn would
  // meet.
  vm::Trap (*run)(const LoopOperand* operands, u64 most_steps, u64* out, LoopCounts* counts) = nullptr;
};
// A loop that makes an [int] — `let out: [int] = [];`, then `out = push(out, …)` and nothing else
// made in the heap — computed in C++ (search/bank_loops.cpp: the scans, maps, zips, filters,
// repeat, the ranges, unique, interleave, count_each), over its operands (arity() of them).
struct NativeListLoop {
  // The most ints it pushes in at most most_steps steps: the room made for them first.
  u64 (*room)(const LoopOperand* operands, u64 most_steps) = nullptr;
  // As NativeWordLoop's, the ints into out[0 .. *made) (out then partly written on a trap).
  vm::Trap (*run)(const LoopOperand* operands, u64 most_steps, u64* out, u32* made,
                  LoopCounts* counts) = nullptr;
};

// A production: `fn op(a0: T0, a1: T1, ...) -> R { return BODY; }`, BODY an expression over the
// operands a0, a1, ... (e.g. "a0 / a1", "max(a0)", "a0[a1]", "scan_sum(a0, a1)"), and the
// functions BODY calls (`helpers`: a loop's, say); constants are leaves of the bank, not
// literals of an operation.
class Operation {
 public:
  // Throws std::invalid_argument with the compiler's message when the functions do not compile,
  // and when they hold a string literal. `fuel`, when not 0, bounds one application's fuel below
  // the cases' limit (a loop's: see search/bank_loops.h).
  Operation(std::span<const Type> operands, Type result, const std::string& body,
            const std::string& helpers = "", u64 fuel = 0);

  Type result() const { return result_; }
  u32 arity() const { return u32(operands_.size()); }
  Type operand(u32 i) const { return operands_[i]; }
  const std::string& source() const { return source_; }
  // Declares that `loop` computes this operation (an int over 1-3 ints and [int]s, its functions
  // as NativeWordLoop says) as its Syn does, traps included, and measures the fuel its Syn spends
  // against the counts it gives, on random operands (std::logic_error when that is not affine in
  // them: the loop does not count what its fuel depends on). run_case() then calls `loop` wherever
  // the stack is there, and where the fuel would not do, traps out_of_fuel as the interpreter
  // would; the interpreter runs the cases where `loop` meets another trap, and every case of
  // Cases that are interpreter_only (the reference; tests/unit/bank_loops_test.cpp compares the
  // two). The operands are marked shared, as op's call marks them.
  void loop_natively(NativeWordLoop loop);
  // … of an operation that makes an [int] over ints and [int]s, its functions as NativeListLoop
  // says, where besides the list, grown in place at the heap's end as the interpreter's `[]` and
  // pushes grow it (vm::grown_capacity), has room for `room` ints; the heap is then left as the
  // interpreter leaves it — the list's object where those put it, with the capacity they reach,
  // the list and the operands marked shared.
  void loop_natively(NativeListLoop loop);
  // Whether a loop_natively() loop was declared, and over how many cases the C++ path has
  // computed this operation since it was made (where it was not taken, the interpreter ran).
  bool loops_natively() const { return native_word_.run != nullptr || native_list_.run != nullptr; }
  u64 native_cases() const { return native_cases_.n.load(std::memory_order_relaxed); }

  // Whether apply() takes the direct path: one instruction over whole vectors, heap-free
  // (vm/scalar_ops.h), reading the heap (vm/reading_ops.h) or making arrays and strings
  // (vm/making_ops.h), applied by the functions the interpreter's cases call, without it.
  bool direct() const { return direct_ != Direct::None; }
  // The heap-free instruction (vm/scalar_ops.h) apply() runs on these cases' words without the
  // interpreter, where it does (search/bank_words.h apply_word: what a device runs too).
  std::optional<vm::Op> scalar_instruction(const Cases& cases) const;
  // Whether an application leaves nothing in the cases' heaps, on either path: its result is a
  // word, or its program is one instruction that makes nothing (`a0[a1]` on a [str]: a reference
  // to an element already in the heap).
  bool makes_nothing() const {
    return is_word(result_) || direct_ == Direct::Scalar || direct_ == Direct::Reading;
  }

  // The behaviour of this operation over the operands' behaviours (their types must be the
  // operation's): per case, the first operand's trap if one trapped, else what the interpreter
  // returns (a trap included) with the cases' fuel limit (or the operation's, if lower) for this
  // one application. Into *out (its vectors reused).
  void apply(std::span<const Behaviour* const> operands, Cases& cases, Behaviour* out) const {
    apply_cases(operands, cases, 0, cases.count(), out);
  }
  // … on case k alone, as apply() gives it there: *out's vectors are sized to every case, and
  // its other cases are left as they were (to be asked of nothing but case k).
  void apply_on(std::span<const Behaviour* const> operands, Cases& cases, u32 k, Behaviour* out) const {
    apply_cases(operands, cases, k, k + 1, out);
  }
  Behaviour apply(std::span<const Behaviour* const> operands, Cases& cases) const {
    Behaviour out;
    apply(operands, cases, &out);
    return out;
  }
  // The operation over several operand tuples at once — tuple j is operands[j * arity() ..] — into
  // outs[j], as apply() would give them one by one; the cases are shared out among the cases'
  // threads. Only for an operation that makes_nothing(): its applications keep nothing in the
  // heaps (an interpreter's temporaries are given back case by case), so they may run in any
  // order.
  void apply_all(std::span<const Behaviour* const> operands, Cases& cases, std::span<Behaviour> outs) const;

 private:
  std::vector<Type> operands_;
  Type result_;
  std::string source_;
  u64 fuel_ = 0;
  std::optional<vm::Program> program_;
  // What every case of one application shares: its fuel (fuel_for), and whether a
  // loop_natively() loop may run in C++ (not on interpreter_only cases, and where the stack holds
  // the interpreter's frames of op and one helper) and the most steps that fuel buys it (each
  // costs loop_cost_[1] at least).
  struct Fuel {
    u64 fuel = 0;
    bool natively = false;
    u64 most_steps = 0;
  };
  Fuel fuel_of(const Cases& cases) const;
  // Case k of one application (operands: arity() behaviours) through the interpreter with this
  // fuel: the first operand's trap there or the program's, and the word in *word. A word result
  // gives the heap back.
  u8 run_case(const Behaviour* const* operands, Cases& cases, u32 k, u64 fuel, u64* word) const;
  // The cases begin to end of one application into words[k] and traps[k]: through a
  // loop_natively() loop where it is taken (the operands' vectors found once for all the cases),
  // else run_case(). How many cases the loop took.
  u64 run_cases(const Behaviour* const* operands, Cases& cases, u32 begin, u32 end, const Fuel& fuel,
                u64* words, u8* traps) const;
  // apply() on the cases begin to end.
  void apply_cases(std::span<const Behaviour* const> operands, Cases& cases, u32 begin, u32 end,
                   Behaviour* out) const;
  bool takes_direct_path(const Cases& cases, u64 fuel) const;
  u64 fuel_for(const Cases& cases) const;

  // The program is LOAD_VAR 0, [LOAD_VAR 1, [LOAD_VAR 2,]] instruction_, RETURN, and
  // instruction_ is one of vm/scalar_ops.h's, reading_ops.h's or making_ops.h's (or one of the
  // last two's, then LOAD_INT c and a comparison: compared_by_); else None.
  enum class Direct : u8 { None, Scalar, Reading, Making };
  Direct direct_ = Direct::None;
  // The direct path through the heap (Reading, Making) over n cases: a loop compiled for each
  // instruction (its switches folded away), chosen by instruction_; on the cases begin to end.
  void apply_in_heaps(std::span<const Behaviour* const> operands, Cases& cases, u32 begin, u32 end, u64 fuel,
                      Behaviour* out) const;
  vm::Op instruction_ = vm::Op::RETURN;
  u32 instruction_operand_ = 0;
  // Where the program compares instruction_'s int with a constant before it returns (a str's `<`:
  // STR_COMPARE, LOAD_INT 0, COMPARE_LT): the comparison and the constant; else RETURN.
  vm::Op compared_by_ = vm::Op::RETURN;
  u64 compared_with_ = 0;
  u32 code_words_ = 0;          // the fuel the interpreter would charge
  u32 frame_slots_ = 0;         // and the stack it would need
  NativeWordLoop native_word_;  // loop_natively()
  NativeListLoop native_list_;  // loop_natively()
  // The fuel a loop_natively() loop's Syn spends: loop_cost_[0] + loop_cost_[1 + j] * counts.n[j]
  // (a step's cost, loop_cost_[1], positive; one that ends a loop otherwise may be negative).
  i64 loop_cost_[LoopCounts::kCounts + 1] = {};
  void measure_loop_cost();
  u64 loop_cost(const LoopCounts& counts) const;  // saturating
  // The C++ path of a loop_natively() loop on one case's operands (its [int]s checked arrays of
  // that case's heap), where it is taken: true, the trap in *trap (and the word in *word).
  bool run_natively(const LoopOperand* in, vm::Heap& heap, const Fuel& fuel, u64* word, u8* trap) const;
  u32 all_frame_slots_ = 0;  // over every function, helpers included
  // native_cases(): added to once an application (or a thread's share of apply_all()'s), copied
  // by its value.
  struct Count {
    std::atomic<u64> n{0};
    Count() = default;
    Count(const Count& other) : n(other.n.load()) {}
    Count& operator=(const Count& other) {
      n = other.n.load();
      return *this;
    }
  };
  mutable Count native_cases_;
};

// Per case, the hash the pipeline gives that output (pipeline::output_hash, which the device's
// compare_outputs computes too), or 0 where it trapped, as the pipeline's output_hash array holds:
// what the enumeration's observational equivalence and goals compare.
std::vector<u64> output_hashes(const Behaviour& b, Cases& cases);
u64 case_hash(const Behaviour& b, Cases& cases, u32 k);  // … of case k
// Those hashes made into one (search/bank_words.h case_term, behaviour_key): the key of a
// behaviour's observational equivalence class. `case_hashes`, where given, receives the case hashes
// on the way.
u64 behaviour_hash(const Behaviour& b, Cases& cases, std::vector<u64>* case_hashes = nullptr);

// choose(c, a, b), lazily: case k is a's output (or trap) where c is true, b's where c is false,
// c's trap where c trapped. `a && b` is choose(a, b, false), `a || b` choose(a, true, b).
void choose(const Behaviour& condition, const Behaviour& then, const Behaviour& otherwise, Behaviour* out);
inline Behaviour choose(const Behaviour& condition, const Behaviour& then, const Behaviour& otherwise) {
  Behaviour out;
  choose(condition, then, otherwise, &out);
  return out;
}

// A behaviour with the same word on every case (a constant leaf), placed in each case's heap.
Behaviour constant(const vm::Value& v, Cases& cases);

}  // namespace gs::search::bank
