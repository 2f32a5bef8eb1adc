#include "search/value_bank.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>

#include "base/hash.h"
#include "compiler/compiler.h"
#include "pipeline/case_set.h"
#include "search/bank_words.h"
#include "vm/interpreter.h"
#include "vm/making_ops.h"
#include "vm/place.h"
#include "vm/reading_ops.h"

namespace gs::search::bank {

bool Behaviour::traps_anywhere() const {
  for (u8 t : traps)
    if (t != u8(vm::Trap::NONE)) return true;
  return false;
}

Cases::Cases(std::span<const Type> params, std::span<const std::vector<vm::Value>> inputs,
             const vm::Limits& limits, Evaluation evaluation)
    : limits_(limits), interpreter_only_(evaluation.interpreter_only), params_(params.size()) {
  if (evaluation.threads != 1) pool_ = std::make_unique<ThreadPool>(evaluation.threads);
  for (u32 i = 0; i < params.size(); ++i) {
    params_[i].type = params[i];
    params_[i].words.resize(inputs.size());
    params_[i].traps.assign(inputs.size(), u8(vm::Trap::NONE));
  }
  for (u32 k = 0; k < inputs.size(); ++k) {
    if (inputs[k].size() != params.size())
      throw std::invalid_argument("case " + std::to_string(k) + " has " + std::to_string(inputs[k].size()) +
                                  " inputs, not " + std::to_string(params.size()));
    machines_.push_back(std::make_unique<vm::OwnedMachine>(limits));
    vm::Machine& m = machines_.back()->get();
    vm::begin_execution(m);
    for (u32 i = 0; i < params.size(); ++i) {
      if (!vm::has_type(inputs[k][i], params[i]))
        throw std::invalid_argument("case " + std::to_string(k) + ": input " + std::to_string(i) +
                                    " is not of its parameter's type");
      if (!vm::place_value(m.heap, inputs[k][i], &params_[i].words[k]))
        throw std::invalid_argument("case " + std::to_string(k) + ": the inputs do not fit the heap");
    }
  }
}

u64 Cases::heap_used() {
  u64 used = 0;
  for (u32 k = 0; k < count(); ++k) used += machine(k).heap.used;
  return used;
}

bool Cases::heap_nearly_full(u32 k) {
  const vm::Heap& heap = machine(k).heap;
  return heap.used >= heap.capacity - heap.capacity / 256;
}

bool Cases::heap_in_reserve(u32 k) {
  const vm::Heap& heap = machine(k).heap;
  return heap.used >= heap.capacity - heap.capacity / 16;
}

vm::Value Cases::value(const Behaviour& b, u32 k) {
  vm::Value v;
  if (b.traps[k] != u8(vm::Trap::NONE) || !vm::read_value(machine(k).heap, b.type, b.words[k], &v))
    throw std::logic_error("no value on case " + std::to_string(k));
  return v;
}

void Cases::mark(Mark* into) {
  into->used.resize(count());
  for (u32 k = 0; k < count(); ++k) into->used[k] = machine(k).heap.used;
}

void Cases::rollback(const Mark& mark) {
  for (u32 k = 0; k < count(); ++k) machine(k).heap.used = mark.used[k];
}

u64 case_hash(const Behaviour& b, Cases& cases, u32 k) {
  if (b.traps[k] != u8(vm::Trap::NONE)) return 0;
  u64 h = 0;
  if (!pipeline::result_hash(b.type, cases.machine(k).heap, b.words[k], &h))
    throw std::logic_error("no value on case " + std::to_string(k));
  return h;
}

std::vector<u64> output_hashes(const Behaviour& b, Cases& cases) {
  std::vector<u64> hashes(cases.count(), 0);
  for (u32 k = 0; k < cases.count(); ++k) hashes[k] = case_hash(b, cases, k);
  return hashes;
}

u64 behaviour_hash(const Behaviour& b, Cases& cases, std::vector<u64>* case_hashes) {
  if (case_hashes == nullptr && is_word(b.type) && b.words.size() == cases.count() &&
      b.traps.size() == cases.count())
    return word_behaviour_hash(b.type, b.traps.data(), b.words.data(), cases.count());  // no heap to read
  if (case_hashes != nullptr) case_hashes->resize(cases.count());
  u64 sum = 0;
  for (u32 k = 0; k < cases.count(); ++k) {
    const u64 c = case_hash(b, cases, k);
    if (case_hashes != nullptr) (*case_hashes)[k] = c;
    sum += case_term(k, c);
  }
  return behaviour_key(sum);
}

Operation::Operation(std::span<const Type> operands, Type result, const std::string& body,
                     const std::string& helpers, u64 fuel)
    : operands_(operands.begin(), operands.end()), result_(result), fuel_(fuel) {
  source_ = "fn op(";
  for (u32 i = 0; i < operands_.size(); ++i)
    source_ += (i ? ", a" : "a") + std::to_string(i) + ": " + type_name(operands_[i]);
  source_ +=
      std::string(") -> ") + type_name(result) + " { return " + body + "; }\n" + helpers;  // op is function 0
  compiler::Output out = compiler::compile(source_);
  if (!out.ok()) throw std::invalid_argument(compiler::render(out.diagnostics, "operation", source_));
  vm::VerifyResult why;
  program_ = vm::Program::load(out.bytecode, &why);
  if (!program_) throw std::invalid_argument("operation: " + vm::describe(why) + "\n" + source_);
  if (program_->view().header->string_image_bytes != 0)
    throw std::invalid_argument("operation: a string literal in '" + body + "' (constants are leaves)");
  // The direct path: one heap-free instruction over the operands in order.
  const vm::ProgramView view = program_->view();
  const vm::FunctionRecord& f = view.functions[0];
  const u32* code = view.code + f.code_start;
  const u32 n = arity();
  code_words_ = f.code_words;
  frame_slots_ = u32(f.local_count) + f.max_stack;
  for (u32 i = 0; i < view.function_count(); ++i) {
    all_frame_slots_ += u32(view.functions[i].local_count) + view.functions[i].max_stack;
  }
  // … or one instruction through the heap whose int is then compared with a constant: a str's `<`
  // or `==` is STR_COMPARE, LOAD_INT 0, COMPARE_LT (a comparison never traps).
  auto comparison = [](vm::Op op) {
    return op == vm::Op::COMPARE_LT || op == vm::Op::COMPARE_LE || op == vm::Op::COMPARE_GT ||
           op == vm::Op::COMPARE_GE || op == vm::Op::COMPARE_EQ || op == vm::Op::COMPARE_NE;
  };
  const bool compared = n >= 1 && n <= 3 && f.code_words == n + 4 &&
                        vm::opcode_of(code[n + 1]) == vm::Op::LOAD_INT &&
                        comparison(vm::opcode_of(code[n + 2]));
  if (view.function_count() == 1 && n >= 1 && n <= 3 && (f.code_words == n + 2 || compared)) {
    bool in_order = vm::opcode_of(code[f.code_words - 1]) == vm::Op::RETURN;
    for (u32 i = 0; i < n; ++i)
      in_order = in_order && vm::opcode_of(code[i]) == vm::Op::LOAD_VAR && vm::operand_of(code[i]) == i;
    const vm::Op op = vm::opcode_of(code[n]);
    const u32 operand = vm::operand_of(code[n]);
    const Direct kind = vm::scalar_arity(op) == n            ? Direct::Scalar
                        : vm::reading_arity(op) == n         ? Direct::Reading
                        : vm::making_arity(op, operand) == n ? Direct::Making
                                                             : Direct::None;
    if (in_order && kind != Direct::None && !(compared && kind == Direct::Scalar)) {
      direct_ = kind;
      instruction_ = op;
      instruction_operand_ = operand;
      if (compared) {
        compared_by_ = vm::opcode_of(code[n + 2]);
        compared_with_ = u64(i64(vm::signed_operand_of(code[n + 1])));
      }
    }
  }
}

// Whether the operation is (1-3 ints and [int]s) -> result, for a loop_natively() loop.
static bool over_words_and_lists(std::span<const Type> operands, Type result, Type want) {
  return !operands.empty() && operands.size() <= 3 && result == want &&
         std::all_of(operands.begin(), operands.end(),
                     [](Type t) { return t == Type::Int || t == Type::IntArray; });
}

void Operation::loop_natively(NativeWordLoop loop) {
  if (!over_words_and_lists(operands_, result_, Type::Int) || loop.run == nullptr)
    throw std::logic_error("loop_natively: not ([int] | int, …) -> int with 1-3 operands: " + source_);
  native_word_ = loop;
  measure_loop_cost();
}

void Operation::loop_natively(NativeListLoop loop) {
  if (!over_words_and_lists(operands_, result_, Type::IntArray) || loop.room == nullptr ||
      loop.run == nullptr)
    throw std::logic_error("loop_natively: not ([int] | int, …) -> [int] with 1-3 operands: " + source_);
  native_list_ = loop;
  measure_loop_cost();
}

namespace {

// The integer coefficients c with c[0] + c[1] x[1] + … = y exactly on every row x (x[0] = 1), by
// least squares over the terms that vary (Gauss-Jordan elimination of the normal equations; a
// term that depends on the others gets 0), or nothing when no such integers fit.
template <size_t kTerms>
std::optional<std::array<i64, kTerms>> exact_affine_fit(const std::vector<std::array<double, kTerms>>& rows,
                                                        const std::vector<u64>& ys) {
  std::array<bool, kTerms> used{true};
  for (const auto& row : rows)
    for (u32 j = 1; j < kTerms; ++j) used[j] = used[j] || row[j] != rows[0][j];
  std::array<std::array<double, kTerms + 1>, kTerms> a{};
  for (size_t r = 0; r < rows.size(); ++r)
    for (u32 i = 0; i < kTerms; ++i) {
      for (u32 j = 0; j < kTerms; ++j) a[i][j] += rows[r][i] * rows[r][j];
      a[i][kTerms] += rows[r][i] * double(ys[r]);
    }
  std::array<int, kTerms> pivot_row;
  pivot_row.fill(-1);
  std::array<bool, kTerms> taken{};
  for (u32 j = 0; j < kTerms; ++j) {
    if (!used[j]) continue;
    int best = -1;
    for (u32 i = 0; i < kTerms; ++i)
      if (!taken[i] && used[i] && std::abs(a[i][j]) > 1e-6 &&
          (best < 0 || std::abs(a[i][j]) > std::abs(a[best][j])))
        best = int(i);
    if (best < 0) continue;
    taken[best] = true;
    pivot_row[j] = best;
    for (u32 i = 0; i < kTerms; ++i) {
      if (i == u32(best) || a[i][j] == 0) continue;
      const double f = a[i][j] / a[best][j];
      for (u32 c = 0; c <= kTerms; ++c) a[i][c] -= f * a[best][c];
    }
  }
  std::array<i64, kTerms> c{};
  for (u32 j = 0; j < kTerms; ++j) {
    const double x = pivot_row[j] >= 0 ? a[pivot_row[j]][kTerms] / a[pivot_row[j]][j] : 0.0;
    if (std::abs(std::round(x) - x) > 1e-3 || std::abs(x) > 1e9) return std::nullopt;
    c[j] = i64(std::round(x));
  }
  for (size_t r = 0; r < rows.size(); ++r) {
    __int128 y = c[0];
    for (u32 j = 1; j < kTerms; ++j) y += __int128(c[j]) * i64(rows[r][j]);
    if (y != __int128(ys[r])) return std::nullopt;
  }
  return c;
}

}  // namespace

void Operation::measure_loop_cost() {
  // Once a process for each program: a search makes its loop productions afresh.
  using Cost = std::array<i64, LoopCounts::kCounts + 1>;
  static std::mutex mutex;
  static std::map<std::string, Cost> measured;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = measured.find(source_); it != measured.end()) {
      std::copy(it->second.begin(), it->second.end(), loop_cost_);
      return;
    }
  }
  // The interpreter and the loop on random operands — ints from -3 to 12, lists of up to 6 ints
  // from -2 to 3 (repeats, matches, divisors) — where the interpreter meets no trap: the fuel
  // spent and the counts, and the affine map between them that gives every sample's fuel.
  std::mt19937_64 rng(11);
  auto draw = [&](i64 lo, i64 hi) { return std::uniform_int_distribution<i64>(lo, hi)(rng); };
  vm::Limits limits;  // the operands are small: a small machine, soon made
  limits.heap_bytes = 1 << 12;
  limits.stack_slots = 256;
  vm::OwnedMachine owned(limits);
  constexpr u32 kTerms = LoopCounts::kCounts + 1;
  std::vector<std::array<double, kTerms>> rows;
  std::vector<u64> costs;
  std::vector<u64> out;
  for (int sample = 0; sample < 120; ++sample) {
    vm::Machine& m = owned.get();
    vm::begin_execution(m);
    LoopOperand in[3];
    for (u32 i = 0; i < arity(); ++i) {
      if (operands_[i] == Type::Int) {
        in[i].word = u64(draw(-3, 12));
      } else {
        std::vector<u64> words(size_t(draw(0, 6)));
        for (u64& w : words) w = u64(draw(-2, 3));
        if (!vm::place_words(m.heap, words, &in[i].word)) throw std::logic_error("loop_natively: no heap");
        in[i].slots = m.heap.slots(u32(in[i].word));
        in[i].length = u32(words.size());
      }
      m.stack[i] = in[i].word;
    }
    m.fuel = limits.fuel;
    if (vm::execute(program_->view(), 0, m) != vm::Trap::NONE) continue;
    const u64 cost = limits.fuel - m.fuel;
    LoopCounts counts;
    u64 word = 0;
    u32 made = 0;
    vm::Trap t = vm::Trap::NONE;
    constexpr u64 kMostSteps = 1000;  // more than the small operands' loops take
    if (native_word_.run != nullptr) {
      t = native_word_.run(in, kMostSteps, &word, &counts);
    } else {
      out.resize(size_t(native_list_.room(in, kMostSteps)));
      t = native_list_.run(in, kMostSteps, out.data(), &made, &counts);
    }
    if (t != vm::Trap::NONE || counts.n[0] > kMostSteps)
      throw std::logic_error("loop_natively: the loop traps or runs on where its Syn does not: " + source_);
    std::array<double, kTerms> row{1.0};
    for (u32 j = 0; j < LoopCounts::kCounts; ++j) row[j + 1] = double(counts.n[j]);
    rows.push_back(row);
    costs.push_back(cost);
  }
  if (rows.size() < 50) throw std::logic_error("loop_natively: too few runs without a trap: " + source_);
  const std::optional<std::array<i64, kTerms>> fit = exact_affine_fit(rows, costs);
  if (!fit) throw std::logic_error("loop_natively: the fuel is not affine in the loop's counts: " + source_);
  std::copy(fit->begin(), fit->end(), loop_cost_);
  if (loop_cost_[1] <= 0) throw std::logic_error("loop_natively: steps that cost no fuel: " + source_);
  const std::lock_guard<std::mutex> lock(mutex);
  Cost& cost = measured[source_];
  std::copy(loop_cost_, loop_cost_ + cost.size(), cost.begin());
}

u64 Operation::loop_cost(const LoopCounts& counts) const {
  __int128 total = loop_cost_[0];
  for (u32 j = 0; j < LoopCounts::kCounts; ++j) total += __int128(loop_cost_[j + 1]) * counts.n[j];
  return total < 0 ? 0 : total > __int128(~u64(0)) ? ~u64(0) : u64(total);
}

u64 Operation::fuel_for(const Cases& cases) const {
  return fuel_ != 0 ? std::min(fuel_, cases.limits().fuel) : cases.limits().fuel;
}

Operation::Fuel Operation::fuel_of(const Cases& cases) const {
  Fuel f;
  f.fuel = fuel_for(cases);
  const vm::Limits& l = cases.limits();
  f.natively = loops_natively() && loop_cost_[1] > 0 && !cases.interpreter_only() && l.call_depth >= 2 &&
               l.stack_slots >= all_frame_slots_;
  if (f.natively) f.most_steps = f.fuel / u64(loop_cost_[1]);
  return f;
}

std::optional<vm::Op> Operation::scalar_instruction(const Cases& cases) const {
  if (direct_ != Direct::Scalar || !takes_direct_path(cases, fuel_for(cases))) return std::nullopt;
  return instruction_;
}

bool Operation::takes_direct_path(const Cases& cases, u64 fuel) const {
  // The interpreter would trap only on limits too small for its three or four instructions.
  const vm::Limits& l = cases.limits();
  return direct_ != Direct::None && !cases.interpreter_only() && fuel >= code_words_ &&
         l.stack_slots >= frame_slots_ && l.call_depth >= 1;
}

namespace {

// The direct path over n cases for an instruction known when compiling, so that scalar_op's
// switch folds away inside the loop (as in the interpreter's case for it); a tenth of an
// enumeration over ints went to calling apply_word with the opcode at run time.
template <vm::Op kOp>
void apply_words(u32 n, const u64* a, const u8* ta, const u64* b, const u8* tb, u64* words, u8* traps) {
  for (u32 k = 0; k < n; ++k) traps[k] = apply_word(kOp, ta[k], a[k], tb[k], b[k], &words[k]);
}

// … for `op`: one loop per row of the instruction table (those that are not scalar trap
// BAD_INSTRUCTION, as scalar_op does).
void apply_words(vm::Op op, u32 n, const u64* a, const u8* ta, const u64* b, const u8* tb, u64* words,
                 u8* traps) {
  switch (op) {
#define OPCODE(name, operand, pops, pushes, doc) \
  case vm::Op::name:                             \
    return apply_words<vm::Op::name>(n, a, ta, b, tb, words, traps);
#include "vm/opcodes.def"
#undef OPCODE
  }
}

// Case k's trap of the first operand that trapped there, left to right, as the whole program
// would meet them; NONE when none did.
u8 first_trap(const Behaviour* const* operands, u32 arity, u32 k) {
  for (u32 i = 0; i < arity; ++i)
    if (operands[i]->traps[k] != u8(vm::Trap::NONE)) return operands[i]->traps[k];
  return u8(vm::Trap::NONE);
}

}  // namespace

u8 Operation::run_case(const Behaviour* const* operands, Cases& cases, u32 k, u64 fuel, u64* word) const {
  *word = 0;
  if (const u8 t = first_trap(operands, arity(), k); t != u8(vm::Trap::NONE)) return t;
  vm::Machine& m = cases.machine(k);
  for (u32 i = 0; i < arity(); ++i) m.stack[i] = operands[i]->words[k];
  m.fuel = fuel;
  // The heap keeps what earlier applications made: the operands' arrays and strings live there.
  const u32 used = m.heap.used;
  const vm::Trap t = vm::execute(program_->view(), 0, m);
  // Nothing made here is referred to where the result is a word, or a trap.
  if (is_word(result_) || t != vm::Trap::NONE) m.heap.used = used;
  if (t == vm::Trap::NONE) *word = m.stack[0];
  return u8(t);
}

u64 Operation::run_cases(const Behaviour* const* operands, Cases& cases, u32 begin, u32 end, const Fuel& f,
                         u64* words, u8* traps) const {
  if (!f.natively) {
    for (u32 k = begin; k < end; ++k) traps[k] = run_case(operands, cases, k, f.fuel, &words[k]);
    return 0;
  }
  // A loop's operands (1-3: loop_natively()), their vectors found once for every case.
  constexpr u8 kNone = u8(vm::Trap::NONE);
  const u32 n = arity();
  const u64* in_words[3] = {};
  const u8* in_traps[3] = {};
  bool list[3] = {};
  for (u32 i = 0; i < n; ++i) {
    in_words[i] = operands[i]->words.data();
    in_traps[i] = operands[i]->traps.data();
    list[i] = operands_[i] == Type::IntArray;
  }
  u64 native = 0;
  for (u32 k = begin; k < end; ++k) {
    u8 t = kNone;
    for (u32 i = 0; i < n && t == kNone; ++i) t = in_traps[i][k];
    words[k] = 0;
    if (t != kNone) {
      traps[k] = t;
      continue;
    }
    vm::Heap& heap = cases.machine(k).heap;
    LoopOperand in[3];
    bool taken = true;
    for (u32 i = 0; i < n && taken; ++i) {
      const u64 w = in_words[i][k];
      in[i].word = w;
      if (!list[i]) continue;
      taken = heap.is_array(w);
      if (taken) {
        in[i].slots = heap.slots(u32(w));
        in[i].length = heap.header(u32(w))->length;
      }
    }
    if (taken && run_natively(in, heap, f, &words[k], &t)) {
      ++native;
      traps[k] = t;
    } else {
      traps[k] = run_case(operands, cases, k, f.fuel, &words[k]);
    }
  }
  return native;
}

bool Operation::run_natively(const LoopOperand* in, vm::Heap& heap, const Fuel& f, u64* word,
                             u8* trap) const {
  const u64 fuel = f.fuel, most_steps = f.most_steps;
  *trap = u8(vm::Trap::NONE);
  auto mark_shared = [&] {  // as op's call marks its operands
    for (u32 i = 0; i < arity(); ++i)
      if (operands_[i] == Type::IntArray) heap.header(u32(in[i].word))->capacity |= vm::kSharedBit;
  };
  // A loop that would take more steps than most_steps runs out of fuel before it ends (or before
  // its next trap, which the loop would have met first).
  LoopCounts counts;
  if (native_word_.run != nullptr) {
    u64 result = 0;  // a trapped case's word is 0, as the interpreter leaves it
    if (native_word_.run(in, most_steps, &result, &counts) != vm::Trap::NONE) return false;
    mark_shared();
    if (counts.n[0] > most_steps || loop_cost(counts) > fuel)
      *trap = u8(vm::Trap::OUT_OF_FUEL);
    else
      *word = result;
    return true;
  }
  const u64 room = native_list_.room(in, most_steps);
  if (room > vm::kMaxObjectLength) return false;
  // `[]`, then the pushes, each growing the array in place where it ends the heap: room for every
  // push, then the capacity the pushes made reach.
  auto capacity_for = [](u32 length) {
    u32 capacity = 0;
    while (capacity < length) capacity = vm::grown_capacity(capacity);
    return capacity;
  };
  const u32 used = heap.used;
  u32 out = 0, made = 0;
  if (!heap.new_array(0, capacity_for(u32(room)), &out)) return false;
  const vm::Trap t = native_list_.run(in, most_steps, heap.slots(out), &made, &counts);
  heap.used = used;                       // until the list is known to stand
  if (t != vm::Trap::NONE) return false;  // the interpreter meets the trap
  mark_shared();
  if (counts.n[0] > most_steps || loop_cost(counts) > fuel) {  // the heap given back above, as after a trap
    *trap = u8(vm::Trap::OUT_OF_FUEL);
    return true;
  }
  const u32 capacity = capacity_for(made);
  heap.header(out)->length = made;
  heap.header(out)->capacity = capacity | vm::kSharedBit;  // as the helper's return marks it
  heap.used = out + 8 + capacity * 8;
  *word = out;
  return true;
}

void Operation::apply_cases(std::span<const Behaviour* const> operands, Cases& cases, u32 begin, u32 end,
                            Behaviour* out) const {
  if (operands.size() != operands_.size())
    throw std::invalid_argument("operation: " + std::to_string(operands.size()) + " operands for " +
                                std::to_string(operands_.size()));
  const u32 n = cases.count();
  out->type = result_;
  out->words.resize(n);
  out->traps.resize(n);
  out->too_long = false;
  const Fuel f = fuel_of(cases);
  const bool direct = takes_direct_path(cases, f.fuel);
  if (direct && direct_ != Direct::Scalar) {
    apply_in_heaps(operands, cases, begin, end, f.fuel, out);
    return;
  }
  if (direct) {  // the first operand's trap, the second's, or the instruction's
    const u64* a = operands[0]->words.data() + begin;
    const u8* ta = operands[0]->traps.data() + begin;
    const u64* b = arity() == 2 ? operands[1]->words.data() + begin : a;
    const u8* tb = arity() == 2 ? operands[1]->traps.data() + begin : ta;
    apply_words(instruction_, end - begin, a, ta, b, tb, out->words.data() + begin,
                out->traps.data() + begin);
    return;
  }
  const u64 native = run_cases(operands.data(), cases, begin, end, f, out->words.data(), out->traps.data());
  if (native != 0) native_cases_.n.fetch_add(native, std::memory_order_relaxed);
}

namespace {

// The direct path through the heap over the cases for an instruction known when compiling, so
// that the switches of reading_ops.h and making_ops.h fold away inside the loop (as in the
// interpreter's case for it): as the interpreter, the operands' traps, the check, the fuel of
// the work (the loads' and the instruction's own charged first: with them it must not pass the
// fuel), the instruction, its int compared with a constant where compared_by is a comparison
// (not RETURN), then the fuel of the instructions after it.
template <vm::Op kOp>
void apply_in_heaps_of(const Behaviour* const* operands, u32 arity, u32 operand, vm::Op compared_by,
                       u64 compared_with, u64 fuel, u32 code_words, Cases& cases, u32 begin, u32 end,
                       Behaviour* out) {
  const bool reads = vm::reading_arity(kOp) != 0;
  if (!reads && vm::making_arity(kOp, operand) == 0) return;  // not a heap instruction: never chosen
  const bool charges = reads ? vm::reading_walks(kOp) : vm::making_charges(kOp);
  constexpr u8 kNone = u8(vm::Trap::NONE);
  // The length of what it would make, where that is known before: array(n, x)'s n.
  const u64 longest = kOp == vm::Op::NEW_FILLED ? cases.longest_list() : ~u64(0);
  for (u32 k = begin; k < end; ++k) {
    u64 x[3] = {0, 0, 0}, r = 0, work = 0;
    for (u32 i = 0; i < arity; ++i) x[i] = operands[i]->words[k];
    u8 t = first_trap(operands, arity, k);
    vm::Heap& heap = cases.machine(k).heap;
    const u32 used = heap.used;
    if (t == kNone)
      t = u8(reads ? vm::reading_check(kOp, heap, x[0], &work)
                   : vm::making_check(kOp, operand, heap, x, &work));
    if (t == kNone && charges && work > fuel - (arity + 1)) t = u8(vm::Trap::OUT_OF_FUEL);
    if (t == kNone && kOp == vm::Op::NEW_FILLED && x[0] > longest &&
        !(charges && work > fuel - code_words)) {  // made, it would be dropped: not made
      out->too_long = true;
      out->traps[k] = kNone;
      out->words[k] = 0;
      continue;
    }
    if (t == kNone)
      t = u8(reads ? vm::reading_op(kOp, operand, heap, x[0], x[1], &r)
                   : vm::making_op(kOp, operand, heap, x, &r));
    if (t == kNone && compared_by != vm::Op::RETURN) vm::scalar_op(compared_by, r, compared_with, &r);
    if (t == kNone && charges && work > fuel - code_words) t = u8(vm::Trap::OUT_OF_FUEL);
    if (t != kNone) heap.used = used;  // as run_case() gives it back: nothing refers to it
    out->traps[k] = t;
    out->words[k] = t == kNone ? r : 0;
  }
}

}  // namespace

void Operation::apply_in_heaps(std::span<const Behaviour* const> operands, Cases& cases, u32 begin, u32 end,
                               u64 fuel, Behaviour* out) const {
  switch (instruction_) {
#define OPCODE(name, operand, pops, pushes, doc)                                                         \
  case vm::Op::name:                                                                                     \
    return apply_in_heaps_of<vm::Op::name>(operands.data(), arity(), instruction_operand_, compared_by_, \
                                           compared_with_, fuel, code_words_, cases, begin, end, out);
#include "vm/opcodes.def"
#undef OPCODE
  }
}

void Operation::apply_all(std::span<const Behaviour* const> operands, Cases& cases,
                          std::span<Behaviour> outs) const {
  const u32 width = arity();
  if (operands.size() != u64(width) * outs.size())
    throw std::invalid_argument("operation: " + std::to_string(operands.size()) + " operands for " +
                                std::to_string(outs.size()) + " applications of " + std::to_string(width));
  const Fuel f = fuel_of(cases);
  if (!makes_nothing()) throw std::logic_error("apply_all: the applications would keep arrays: " + source_);
  if (takes_direct_path(cases, f.fuel)) {
    for (size_t j = 0; j < outs.size(); ++j) apply(operands.subspan(j * width, width), cases, &outs[j]);
    return;
  }
  const u32 n = cases.count();
  for (Behaviour& out : outs) {
    out.type = result_;
    out.words.resize(n);
    out.traps.resize(n);
    out.too_long = false;
  }
  // A thread's cases (a case's machine is one thread's), application by application: each
  // application reads its operands' vectors and writes its own in order.
  auto run = [&](u64 begin, u64 end) {
    u64 native = 0;
    for (size_t j = 0; j < outs.size(); ++j)
      native += run_cases(operands.data() + j * width, cases, u32(begin), u32(end), f, outs[j].words.data(),
                          outs[j].traps.data());
    if (native != 0) native_cases_.n.fetch_add(native, std::memory_order_relaxed);
  };
  ThreadPool* pool = cases.pool();
  if (pool != nullptr && outs.size() > 1 && n > 1)
    pool->parallel_for(n, std::max<u64>(1, n / (4 * pool->size())),
                       [&](u64 begin, u64 end, u32) { run(begin, end); });
  else
    run(0, n);
}

void choose(const Behaviour& condition, const Behaviour& then, const Behaviour& otherwise, Behaviour* out) {
  const size_t n = condition.words.size();
  out->type = then.type;
  out->words.resize(n);
  out->traps.resize(n);
  out->too_long = false;
  for (size_t k = 0; k < n; ++k) {
    const Behaviour& picked = condition.words[k] != 0 ? then : otherwise;
    if (condition.traps[k] != u8(vm::Trap::NONE)) {
      out->traps[k] = condition.traps[k];
      out->words[k] = 0;
    } else {
      out->traps[k] = picked.traps[k];
      out->words[k] = picked.words[k];
    }
  }
}

Behaviour constant(const vm::Value& v, Cases& cases) {
  const u32 n = cases.count();
  Behaviour out{v.type, std::vector<u64>(n, 0), std::vector<u8>(n, u8(vm::Trap::NONE))};
  for (u32 k = 0; k < n; ++k)
    if (!vm::place_value(cases.machine(k).heap, v, &out.words[k]))
      out.traps[k] = u8(vm::Trap::HEAP_EXHAUSTED);
  return out;
}

}  // namespace gs::search::bank
