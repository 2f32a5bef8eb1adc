#include "search/bank_lambdas.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <unordered_set>

#include "base/hash.h"
#include "pipeline/case_set.h"
#include "vm/place.h"

namespace gs::search::bank {

namespace {

// `base`, or base with underscores after it, whichever no parameter is named.
std::string free_name(std::string base, std::span<const std::string> names) {
  while (std::find(names.begin(), names.end(), base) != names.end()) base += "_";
  return base;
}

std::string join(std::span<const std::string> parts) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

// One [int] parameter's element context and the leaves its bodies give.
class ElementContext {
 public:
  ElementContext(u32 list, std::span<const Type> params, std::span<const std::string> names,
                 std::span<const std::vector<vm::Value>> inputs, const LambdaSettings& settings,
                 Evaluation evaluation)
      : list_(list), names_(names.begin(), names.end()) {
    x_ = free_name("x", names);
    i_ = free_name("i", names);
    std::vector<Type> types = {Type::Int, Type::Int};
    types.insert(types.end(), params.begin(), params.end());
    std::vector<std::vector<vm::Value>> elements;
    for (u32 k = 0; k < inputs.size(); ++k) {
      first_.push_back(u32(elements.size()));
      const std::vector<vm::Value>& items = inputs[k][list].items;
      for (u32 j = 0; j < items.size(); ++j) {
        std::vector<vm::Value> in = {items[j], vm::Value::of_int(j)};
        in.insert(in.end(), inputs[k].begin(), inputs[k].end());
        elements.push_back(std::move(in));
      }
    }
    first_.push_back(u32(elements.size()));
    if (elements.empty() || elements.size() > settings.max_elements) return;
    vm::Limits limits;
    limits.heap_bytes = settings.heap_bytes;
    try {
      cases_ = std::make_unique<Cases>(types, elements, limits, evaluation);
    } catch (const std::invalid_argument&) {  // the inputs do not fit an element case's heap: no lambdas
    }
  }

  bool usable() const { return cases_ != nullptr; }
  const std::string& x_name() const { return x_; }
  const std::string& i_name() const { return i_; }
  Cases& cases() { return *cases_; }

  // The body context's parameters: x, i and the problem's.
  std::string parameters(std::span<const Type> params) const {
    std::vector<std::string> p = {x_ + ": int", i_ + ": int"};
    for (u32 k = 0; k < params.size(); ++k) p.push_back(names_[k] + ": " + type_name(params[k]));
    return join(p);
  }

  std::vector<Leaf> leaves_of(const BankEnumerator& bodies, Cases& outer, std::span<const Type> params,
                              const LambdaSettings& settings, u32* counter) const {
    std::vector<Leaf> out;
    std::vector<std::string> typed;
    for (u32 k = 0; k < params.size(); ++k) typed.push_back(names_[k] + ": " + type_name(params[k]));
    const std::string outer_parameters = join(typed), outer_arguments = join(names_);
    const std::string& xs = names_[list_];
    const std::string head =
        "  for " + i_ + " in 0..len(" + xs + ") {\n    let " + x_ + " = " + xs + "[" + i_ + "];\n";
    auto add = [&](u32 body, const char* form, Type result, const std::string& before,
                   const std::string& step, const std::string& after, std::optional<Behaviour> b) {
      if (!b) return false;
      const std::string name = std::string(form) + "_" + std::to_string(++*counter);
      const Written w = bodies.write({&body, 1}, name + "_");
      std::string text = step;
      for (size_t at; (at = text.find("BODY")) != std::string::npos;) text.replace(at, 4, w.expressions[0]);
      Leaf leaf;
      leaf.text = name + "(" + outer_arguments + ")";
      leaf.behaviour = std::move(*b);
      leaf.size = bodies.size(body) + 1;
      leaf.helper = "fn " + name + "(" + outer_parameters + ") -> " + type_name(result) + " {\n" + before +
                    head + text + "  }\n" + after + "}\n" + w.functions;
      out.push_back(std::move(leaf));
      return true;
    };
    std::unordered_set<u64> lists, ints;  // the assembled behaviours, by result type
    u32 maps = 0, filters = 0, counts = 0, finds = 0;
    for (u32 body : bodies.banked(Type::Int))
      if (maps < settings.max_leaves)
        maps += add(body, "map", Type::IntArray, "  let out: [int] = [];\n", "    out = push(out, BODY);\n",
                    "  return out;\n", assemble(bodies.behaviour(body), outer, Form::Map, &lists));
    for (u32 body : bodies.banked(Type::Bool)) {
      const Behaviour& b = bodies.behaviour(body);
      if (filters < settings.max_leaves)
        filters += add(body, "filter", Type::IntArray, "  let out: [int] = [];\n",
                       "    if BODY {\n      out = push(out, " + x_ + ");\n    }\n", "  return out;\n",
                       assemble(b, outer, Form::Filter, &lists));
      if (counts < settings.max_leaves)
        counts += add(body, "count", Type::Int, "  let count = 0;\n",
                      "    if BODY {\n      count = count + 1;\n    }\n", "  return count;\n",
                      assemble(b, outer, Form::Count, &ints));
      if (finds < settings.max_leaves)
        finds += add(body, "find", Type::Int, "", "    if BODY {\n      return " + i_ + ";\n    }\n",
                     "  return -1;\n", assemble(b, outer, Form::Find, &ints));
    }
    return out;
  }

 private:
  enum class Form { Map, Filter, Count, Find };

  // The form's behaviour on the problem's cases from the body's on their elements, or nothing
  // when a behaviour of its type with the same outputs and traps was assembled before (`seen`:
  // nothing is placed in the cases' heaps for it).
  std::optional<Behaviour> assemble(const Behaviour& body, Cases& outer, Form form,
                                    std::unordered_set<u64>* seen) const {
    const u32 n = outer.count();
    const Type result = form == Form::Map || form == Form::Filter ? Type::IntArray : Type::Int;
    Behaviour out{result, std::vector<u64>(n, 0), std::vector<u8>(n, u8(vm::Trap::NONE))};
    std::vector<vm::Value> values(n);
    std::vector<u64> hashes(2 * n + 1, u64(result));
    for (u32 k = 0; k < n; ++k) {
      std::vector<vm::Value> items;
      i64 count = 0, found = -1;
      for (u32 e = first_[k]; e < first_[k + 1]; ++e) {
        if (body.traps[e] != u8(vm::Trap::NONE)) {
          out.traps[k] = body.traps[e];
          break;
        }
        const u64 word = body.words[e];
        if (form == Form::Map) items.push_back(vm::Value::of_int(i64(word)));
        if (word == 0) continue;
        if (form == Form::Filter) items.push_back(vm::Value::of_int(i64(cases_->parameter(0).words[e])));
        ++count;
        if (form == Form::Find) {
          found = e - first_[k];
          break;
        }
      }
      hashes[2 * k + 1] = out.traps[k];
      if (out.traps[k] != u8(vm::Trap::NONE)) continue;
      values[k] = result == Type::Int ? vm::Value::of_int(form == Form::Count ? count : found)
                                      : vm::Value::of_array(Type::Int, std::move(items));
      hashes[2 * k + 2] = pipeline::output_hash({&values[k], 1});
    }
    if (!seen->insert(fnv1a64(reinterpret_cast<const u8*>(hashes.data()), hashes.size() * sizeof(u64)))
             .second)
      return std::nullopt;
    for (u32 k = 0; k < n; ++k) {
      if (out.traps[k] != u8(vm::Trap::NONE)) continue;
      if (result == Type::Int)
        out.words[k] = u64(values[k].i);
      else if (!vm::place_value(outer.machine(k).heap, values[k], &out.words[k]))
        out.traps[k] = u8(vm::Trap::HEAP_EXHAUSTED);
    }
    return out;
  }

  u32 list_;
  std::vector<std::string> names_;
  std::string x_, i_;
  std::vector<u32> first_;  // case k's elements are the element cases first_[k] .. first_[k + 1] - 1
  std::unique_ptr<Cases> cases_;
};

}  // namespace

LambdaLeaves lambda_leaves(std::span<const Type> params, std::span<const std::string> names,
                           std::span<const std::vector<vm::Value>> inputs, Cases& cases,
                           std::span<const std::pair<std::string, vm::Value>> constants,
                           const std::function<std::vector<Production>()>& productions,
                           const LambdaSettings& settings) {
  LambdaLeaves out;
  u32 counter = 0;
  const u64 lists = u64(std::count(params.begin(), params.end(), Type::IntArray));
  for (u32 list = 0; list < params.size(); ++list) {
    if (params[list] != Type::IntArray) continue;
    ElementContext context(list, params, names, inputs, settings,
                           {.threads = 1, .interpreter_only = cases.interpreter_only()});
    if (!context.usable()) continue;
    Cases& elements = context.cases();
    std::vector<Leaf> leaves;
    for (u32 p = 0; p < params.size() + 2; ++p) {  // x, i, then the problem's parameters
      const std::string& name = p == 0 ? context.x_name() : p == 1 ? context.i_name() : names[p - 2];
      leaves.push_back({name, elements.parameter(p)});
    }
    for (const auto& [text, value] : constants) leaves.push_back({text, constant(value, elements)});
    BankEnumerator bodies(elements, std::move(leaves), productions(), context.parameters(params));
    EnumerationStats stats;
    bodies.search([](const Behaviour&) { return false; }, settings.max_body_size, settings.budget / lists,
                  &stats);
    out.evaluated += stats.evaluated;
    for (Leaf& leaf : context.leaves_of(bodies, cases, params, settings, &counter))
      out.leaves.push_back(std::move(leaf));
  }
  return out;
}

}  // namespace gs::search::bank
