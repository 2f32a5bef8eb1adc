#include "search/value_bank.h"

#include <algorithm>
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

u64 behaviour_hash(const Behaviour& b, Cases& cases) {
  if (is_word(b.type) && b.words.size() == cases.count() && b.traps.size() == cases.count())
    return word_behaviour_hash(b.type, b.traps.data(), b.words.data(), cases.count());  // no heap to read
  u64 h = kHashSeed;
  for (u32 k = 0; k < cases.count(); ++k) h = mix_word(h, case_hash(b, cases, k));
  return h;
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
    all_code_words_ += view.functions[i].code_words;
    all_frame_slots_ += u32(view.functions[i].local_count) + view.functions[i].max_stack;
  }
  if (view.function_count() == 1 && n >= 1 && n <= 3 && f.code_words == n + 2) {
    bool in_order = vm::opcode_of(code[n + 1]) == vm::Op::RETURN;
    for (u32 i = 0; i < n; ++i)
      in_order = in_order && vm::opcode_of(code[i]) == vm::Op::LOAD_VAR && vm::operand_of(code[i]) == i;
    const vm::Op op = vm::opcode_of(code[n]);
    const u32 operand = vm::operand_of(code[n]);
    const Direct kind = vm::scalar_arity(op) == n            ? Direct::Scalar
                        : vm::reading_arity(op) == n         ? Direct::Reading
                        : vm::making_arity(op, operand) == n ? Direct::Making
                                                             : Direct::None;
    if (in_order && kind != Direct::None) {
      direct_ = kind;
      instruction_ = op;
      instruction_operand_ = operand;
    }
  }
}

void Operation::count_steps_by(u32 operand) {
  for (Type t : operands_)
    if (t != Type::Int) throw std::logic_error("count_steps_by: an operand is not an int: " + source_);
  if (operand >= arity()) throw std::logic_error("count_steps_by: no operand " + std::to_string(operand));
  vm::Limits limits;
  vm::OwnedMachine owned(limits);
  auto cost = [&](i64 v) {
    vm::Machine& m = owned.get();
    vm::begin_execution(m);
    for (u32 i = 0; i < arity(); ++i) m.stack[i] = i == operand ? u64(v) : 0;
    m.fuel = limits.fuel;
    if (vm::execute(program_->view(), 0, m) != vm::Trap::NONE)
      throw std::logic_error("count_steps_by: a trap at " + std::to_string(v) + ": " + source_);
    return limits.fuel - m.fuel;
  };
  const u64 base = cost(0), step = cost(1) - base;
  for (i64 v : {-7, -1, 2, 3, 10, 41, 300})
    if (cost(v) != base + step * u64(std::max<i64>(v, 0)))
      throw std::logic_error("count_steps_by: the fuel is not affine in operand " + std::to_string(operand) +
                             ": " + source_);
  steps_operand_ = operand;
  cost_base_ = base;
  cost_step_ = step;
}

// Whether the operation is (1-3 ints and [int]s) -> result, for a loop_natively() loop.
static bool over_words_and_lists(std::span<const Type> operands, Type result, Type want) {
  return !operands.empty() && operands.size() <= 3 && result == want &&
         std::all_of(operands.begin(), operands.end(),
                     [](Type t) { return t == Type::Int || t == Type::IntArray; });
}

void Operation::loop_natively(NativeWordLoop loop) {
  if (!over_words_and_lists(operands_, result_, Type::Int) || loop.fits == nullptr || loop.run == nullptr)
    throw std::logic_error("loop_natively: not ([int] | int, …) -> int with 1-3 operands: " + source_);
  native_word_ = loop;
}

void Operation::loop_natively(NativeListLoop loop) {
  if (!over_words_and_lists(operands_, result_, Type::IntArray) || loop.fits == nullptr ||
      loop.run == nullptr)
    throw std::logic_error("loop_natively: not ([int] | int, …) -> [int] with 1-3 operands: " + source_);
  native_list_ = loop;
}

u64 Operation::fuel_for(const Cases& cases) const {
  return fuel_ != 0 ? std::min(fuel_, cases.limits().fuel) : cases.limits().fuel;
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

u8 Operation::run_case(const Behaviour* const* operands, Cases& cases, u32 k, u64 fuel, u64* word,
                       u64* native) const {
  *word = 0;
  if (const u8 t = first_trap(operands, arity(), k); t != u8(vm::Trap::NONE)) return t;
  if (steps_operand_ && !cases.interpreter_only()) {
    const i64 v = i64(operands[*steps_operand_]->words[k]);
    const u64 steps = v > 0 ? u64(v) : 0;
    if (steps <= kMaxCountedSteps &&
        (fuel < cost_base_ || (cost_step_ != 0 && steps > (fuel - cost_base_) / cost_step_)))
      return u8(vm::Trap::OUT_OF_FUEL);
  }
  if (u8 t = 0; !cases.interpreter_only() && run_natively(operands, cases, k, fuel, word, &t)) {
    ++*native;
    return t;
  }
  vm::Machine& m = cases.machine(k);
  for (u32 i = 0; i < arity(); ++i) m.stack[i] = operands[i]->words[k];
  m.fuel = fuel;
  // The heap keeps what earlier applications made: the operands' arrays and strings live there.
  const u32 used = m.heap.used;
  const vm::Trap t = vm::execute(program_->view(), 0, m);
  if (is_word(result_)) m.heap.used = used;  // nothing made here is referred to
  if (t == vm::Trap::NONE) *word = m.stack[0];
  return u8(t);
}

bool Operation::run_natively(const Behaviour* const* operands, Cases& cases, u32 k, u64 fuel, u64* word,
                             u8* trap) const {
  if (!loops_natively()) return false;
  const vm::Limits& l = cases.limits();
  // The stack the interpreter would need: the frames of op and one helper.
  if (l.call_depth < 2 || l.stack_slots < all_frame_slots_) return false;
  vm::Heap& heap = cases.machine(k).heap;
  *trap = u8(vm::Trap::NONE);
  LoopOperand in[3];
  for (u32 i = 0; i < arity(); ++i) {
    const u64 w = operands[i]->words[k];
    in[i].word = w;
    if (operands_[i] != Type::IntArray) continue;
    if (!heap.is_array(w)) return false;
    in[i].slots = heap.slots(u32(w));
    in[i].length = heap.header(u32(w))->length;
  }
  auto mark_shared = [&] {  // as op's call marks its operands
    for (u32 i = 0; i < arity(); ++i)
      if (operands_[i] == Type::IntArray) heap.header(u32(in[i].word))->capacity |= vm::kSharedBit;
  };
  if (native_word_.run != nullptr) {
    if (!native_word_.fits(in, all_code_words_, fuel)) return false;
    mark_shared();
    *trap = u8(native_word_.run(in, word));
    return true;
  }
  u32 room = 0;
  if (!native_list_.fits(in, all_code_words_, fuel, &room)) return false;
  // `[]`, then the pushes, each growing the array in place where it ends the heap: room for every
  // push, then the capacity the pushes made reach.
  auto capacity_for = [](u32 length) {
    u32 capacity = 0;
    while (capacity < length) capacity = vm::grown_capacity(capacity);
    return capacity;
  };
  const u32 used = heap.used;
  u32 out = 0, made = 0;
  if (!heap.new_array(0, capacity_for(room), &out)) return false;
  if (native_list_.run(in, heap.slots(out), &made) != vm::Trap::NONE) {
    heap.used = used;  // the interpreter meets the trap, and leaves the heap as it does
    return false;
  }
  const u32 capacity = capacity_for(made);
  heap.header(out)->length = made;
  heap.header(out)->capacity = capacity | vm::kSharedBit;  // as the helper's return marks it
  heap.used = out + 8 + capacity * 8;
  mark_shared();
  *word = out;
  return true;
}

void Operation::apply(std::span<const Behaviour* const> operands, Cases& cases, Behaviour* out) const {
  if (operands.size() != operands_.size())
    throw std::invalid_argument("operation: " + std::to_string(operands.size()) + " operands for " +
                                std::to_string(operands_.size()));
  const u32 n = cases.count();
  out->type = result_;
  out->words.resize(n);
  out->traps.resize(n);
  const u64 fuel = fuel_for(cases);
  const bool direct = takes_direct_path(cases, fuel);
  if (direct && direct_ != Direct::Scalar) {
    apply_in_heaps(operands, cases, fuel, out);
    return;
  }
  if (direct) {  // the first operand's trap, the second's, or the instruction's
    const u64* a = operands[0]->words.data();
    const u8* ta = operands[0]->traps.data();
    const u64* b = arity() == 2 ? operands[1]->words.data() : a;
    const u8* tb = arity() == 2 ? operands[1]->traps.data() : ta;
    u64* words = out->words.data();
    u8* traps = out->traps.data();
    apply_words(instruction_, n, a, ta, b, tb, words, traps);
    return;
  }
  u64 native = 0;
  for (u32 k = 0; k < n; ++k)
    out->traps[k] = run_case(operands.data(), cases, k, fuel, &out->words[k], &native);
  if (native != 0) native_cases_.n.fetch_add(native, std::memory_order_relaxed);
}

namespace {

// The direct path through the heap over the cases for an instruction known when compiling, so
// that the switches of reading_ops.h and making_ops.h fold away inside the loop (as in the
// interpreter's case for it): as the interpreter, the operands' traps, the check, the fuel of
// the work (the loads' and the instruction's own charged first: with them it must not pass the
// fuel), the instruction, then the return's unit of fuel.
template <vm::Op kOp>
void apply_in_heaps_of(const Behaviour* const* operands, u32 arity, u32 operand, u64 fuel, u32 code_words,
                       Cases& cases, Behaviour* out) {
  const bool reads = vm::reading_arity(kOp) != 0;
  if (!reads && vm::making_arity(kOp, operand) == 0) return;  // not a heap instruction: never chosen
  const bool charges = reads ? vm::reading_walks(kOp) : vm::making_charges(kOp);
  const u32 n = cases.count();
  constexpr u8 kNone = u8(vm::Trap::NONE);
  for (u32 k = 0; k < n; ++k) {
    u64 x[3] = {0, 0, 0}, r = 0, work = 0;
    for (u32 i = 0; i < arity; ++i) x[i] = operands[i]->words[k];
    u8 t = first_trap(operands, arity, k);
    vm::Heap& heap = cases.machine(k).heap;
    if (t == kNone)
      t = u8(reads ? vm::reading_check(kOp, heap, x[0], &work)
                   : vm::making_check(kOp, operand, heap, x, &work));
    if (t == kNone && charges && work > fuel - (code_words - 1)) t = u8(vm::Trap::OUT_OF_FUEL);
    if (t == kNone)
      t = u8(reads ? vm::reading_op(kOp, operand, heap, x[0], x[1], &r)
                   : vm::making_op(kOp, operand, heap, x, &r));
    if (t == kNone && charges && work > fuel - code_words) t = u8(vm::Trap::OUT_OF_FUEL);
    out->traps[k] = t;
    out->words[k] = t == kNone ? r : 0;
  }
}

}  // namespace

void Operation::apply_in_heaps(std::span<const Behaviour* const> operands, Cases& cases, u64 fuel,
                               Behaviour* out) const {
  switch (instruction_) {
#define OPCODE(name, operand, pops, pushes, doc)                                                 \
  case vm::Op::name:                                                                             \
    return apply_in_heaps_of<vm::Op::name>(operands.data(), arity(), instruction_operand_, fuel, \
                                           code_words_, cases, out);
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
  const u64 fuel = fuel_for(cases);
  if (!makes_nothing()) throw std::logic_error("apply_all: the applications would keep arrays: " + source_);
  if (takes_direct_path(cases, fuel)) {
    for (size_t j = 0; j < outs.size(); ++j) apply(operands.subspan(j * width, width), cases, &outs[j]);
    return;
  }
  const u32 n = cases.count();
  for (Behaviour& out : outs) {
    out.type = result_;
    out.words.resize(n);
    out.traps.resize(n);
  }
  // Case by case, every application: a case's machine is one thread's.
  auto run = [&](u64 begin, u64 end) {
    u64 native = 0;
    for (u64 k = begin; k < end; ++k)
      for (size_t j = 0; j < outs.size(); ++j)
        outs[j].traps[k] =
            run_case(operands.data() + j * width, cases, u32(k), fuel, &outs[j].words[k], &native);
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
