#include "search/value_bank.h"

#include <algorithm>
#include <stdexcept>

#include "compiler/compiler.h"
#include "pipeline/case_set.h"
#include "vm/interpreter.h"
#include "vm/place.h"

namespace gs::search::bank {

bool Behaviour::traps_anywhere() const {
  for (u8 t : traps)
    if (t != u8(vm::Trap::NONE)) return true;
  return false;
}

Cases::Cases(std::span<const Type> params, std::span<const std::vector<vm::Value>> inputs,
             const vm::Limits& limits)
    : limits_(limits), params_(params.size()) {
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

vm::Value Cases::value(const Behaviour& b, u32 k) {
  vm::Value v;
  if (b.traps[k] != u8(vm::Trap::NONE) || !vm::read_value(machine(k).heap, b.type, b.words[k], &v))
    throw std::logic_error("no value on case " + std::to_string(k));
  return v;
}

Cases::Mark Cases::mark() {
  Mark m;
  for (u32 k = 0; k < count(); ++k) m.used.push_back(machine(k).heap.used);
  return m;
}

void Cases::rollback(const Mark& mark) {
  for (u32 k = 0; k < count(); ++k) machine(k).heap.used = mark.used[k];
}

std::vector<u64> output_hashes(const Behaviour& b, Cases& cases) {
  std::vector<u64> hashes(cases.count(), 0);
  for (u32 k = 0; k < cases.count(); ++k)
    if (b.traps[k] == u8(vm::Trap::NONE)) {
      const vm::Value v = cases.value(b, k);
      hashes[k] = pipeline::output_hash({&v, 1});
    }
  return hashes;
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
}

Behaviour Operation::apply(std::span<const Behaviour* const> operands, Cases& cases) const {
  if (operands.size() != operands_.size())
    throw std::invalid_argument("operation: " + std::to_string(operands.size()) + " operands for " +
                                std::to_string(operands_.size()));
  const u32 n = cases.count();
  Behaviour out{result_, std::vector<u64>(n, 0), std::vector<u8>(n, u8(vm::Trap::NONE))};
  for (u32 k = 0; k < n; ++k) {
    u8 trapped = u8(vm::Trap::NONE);
    for (const Behaviour* b : operands)
      if (b->traps[k] != u8(vm::Trap::NONE)) {
        trapped = b->traps[k];
        break;
      }
    if (trapped != u8(vm::Trap::NONE)) {
      out.traps[k] = trapped;
      continue;
    }
    vm::Machine& m = cases.machine(k);
    for (u32 i = 0; i < operands.size(); ++i) m.stack[i] = operands[i]->words[k];
    m.fuel = fuel_ != 0 ? std::min(fuel_, cases.limits().fuel) : cases.limits().fuel;
    // The heap keeps what earlier applications made: the operands' arrays and strings live there.
    const vm::Trap t = vm::execute(program_->view(), 0, m);
    out.traps[k] = u8(t);
    if (t == vm::Trap::NONE) out.words[k] = m.stack[0];
  }
  return out;
}

Behaviour choose(const Behaviour& condition, const Behaviour& then, const Behaviour& otherwise) {
  const size_t n = condition.words.size();
  Behaviour out{then.type, std::vector<u64>(n, 0), std::vector<u8>(n, u8(vm::Trap::NONE))};
  for (size_t k = 0; k < n; ++k) {
    const Behaviour& picked = condition.words[k] != 0 ? then : otherwise;
    if (condition.traps[k] != u8(vm::Trap::NONE)) {
      out.traps[k] = condition.traps[k];
    } else {
      out.traps[k] = picked.traps[k];
      out.words[k] = picked.words[k];
    }
  }
  return out;
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
