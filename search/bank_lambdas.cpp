#include "search/bank_lambdas.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <unordered_map>
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

// A sequence's element type in a body: an [int]'s and a str's (its characters' codes, as
// s[i] gives them) are ints, a [str]'s strs.
Type element_type(Type sequence) { return sequence == Type::StrArray ? Type::Str : Type::Int; }

// Element j of a sequence value, as the loop's `let x = xs[j];` has it.
vm::Value element(const vm::Value& sequence, u32 j) {
  if (sequence.type == Type::Str) return vm::Value::of_int(u8(sequence.s[j]));
  return sequence.items[j];
}

u32 length(const vm::Value& sequence) {
  return u32(sequence.type == Type::Str ? sequence.s.size() : sequence.items.size());
}

// One sequence parameter's element context and the leaves its bodies give.
class ElementContext {
 public:
  enum class Form { Map, Filter, Count, Find };

  ElementContext(u32 list, std::span<const Type> params, std::span<const std::string> names,
                 std::span<const std::vector<vm::Value>> inputs, const LambdaSettings& settings,
                 Evaluation evaluation)
      : list_(list), sequence_(params[list]), names_(names.begin(), names.end()) {
    x_ = free_name("x", names);
    i_ = free_name("i", names);
    std::vector<Type> types = {element_type(sequence_), Type::Int};
    types.insert(types.end(), params.begin(), params.end());
    std::vector<std::vector<vm::Value>> elements;
    for (u32 k = 0; k < inputs.size(); ++k) {
      first_.push_back(u32(elements.size()));
      const vm::Value& sequence = inputs[k][list];
      for (u32 j = 0; j < length(sequence) && elements.size() <= settings.max_elements; ++j) {
        std::vector<vm::Value> in = {element(sequence, j), vm::Value::of_int(j)};
        in.insert(in.end(), inputs[k].begin(), inputs[k].end());
        elements.push_back(std::move(in));
      }
    }
    first_.push_back(u32(elements.size()));
    if (elements.empty() || elements.size() > settings.max_elements) return;
    // A body is one expression over its operands: a small stack, and the heap shared out.
    vm::Limits limits;
    limits.stack_slots = 256;
    limits.heap_bytes =
        u32(std::clamp<u64>(settings.heap_total / elements.size(), 8u << 10, settings.heap_bytes));
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
    std::vector<std::string> p = {x_ + ": " + type_name(element_type(sequence_)), i_ + ": int"};
    for (u32 k = 0; k < params.size(); ++k) p.push_back(names_[k] + ": " + type_name(params[k]));
    return join(p);
  }

  std::vector<Leaf> leaves_of(const BankEnumerator& bodies, Cases& outer, std::span<const Type> params,
                              const LambdaSettings& settings, u32* counter) {
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
    std::unordered_set<u64> seen;  // the assembled behaviours, with their types
    // A filter keeps the sequence's type: a str's keeps characters.
    const std::string filtered = sequence_ == Type::Str
                                     ? "  let out = \"\";\n"
                                     : "  let out: " + std::string(type_name(sequence_)) + " = [];\n";
    const std::string keep =
        sequence_ == Type::Str ? "out = out + chr(" + x_ + ")" : "out = push(out, " + x_ + ")";
    // Every (form, body), the smallest bodies first whatever the form: the leaves that make
    // lists take the cases' heaps in that order, and those past a full heap are not made.
    struct Job {
      Form form;
      u32 body;
      Type result;
    };
    std::vector<Job> jobs;
    for (Type t : {Type::Int, Type::Str})
      if (t == Type::Int || sequence_ == Type::StrArray)  // a str body maps a [str] only
        for (u32 body : bodies.banked(t)) jobs.push_back({Form::Map, body, array_of(t)});
    for (u32 body : bodies.banked(Type::Bool))
      for (Form f : {Form::Filter, Form::Count, Form::Find})
        jobs.push_back({f, body, f == Form::Filter ? sequence_ : Type::Int});
    std::stable_sort(jobs.begin(), jobs.end(),
                     [&](const Job& a, const Job& b) { return bodies.size(a.body) < bodies.size(b.body); });
    std::unordered_map<u64, u32> made;  // leaves by form and result type
    bool heap_full = false;
    for (const Job& j : jobs) {
      u32& n = made[u64(j.form) << 8 | u8(j.result)];
      if (n >= settings.max_leaves || (heap_full && !is_word(j.result))) continue;
      std::optional<Behaviour> b =
          assemble(bodies.behaviour(j.body), outer, j.form, j.result, &seen, &heap_full);
      switch (j.form) {
        case Form::Map:
          n += add(j.body, "map", j.result, "  let out: " + std::string(type_name(j.result)) + " = [];\n",
                   "    out = push(out, BODY);\n", "  return out;\n", std::move(b));
          break;
        case Form::Filter:
          n += add(j.body, "filter", j.result, filtered, "    if BODY {\n      " + keep + ";\n    }\n",
                   "  return out;\n", std::move(b));
          break;
        case Form::Count:
          n += add(j.body, "count", Type::Int, "  let count = 0;\n",
                   "    if BODY {\n      count = count + 1;\n    }\n", "  return count;\n", std::move(b));
          break;
        case Form::Find:
          n += add(j.body, "find", Type::Int, "", "    if BODY {\n      return " + i_ + ";\n    }\n",
                   "  return -1;\n", std::move(b));
          break;
      }
    }
    return out;
  }

 private:
  // The form's behaviour (of type `result`) on the problem's cases from the body's on their
  // elements, or nothing when a behaviour of its type with the same outputs and traps was
  // assembled before (`seen`: nothing is placed in the cases' heaps for it), or when a case's
  // heap is full (*heap_full is set).
  std::optional<Behaviour> assemble(const Behaviour& body, Cases& outer, Form form, Type result,
                                    std::unordered_set<u64>* seen, bool* heap_full) {
    const u32 n = outer.count();
    Behaviour out{result, std::vector<u64>(n, 0), std::vector<u8>(n, u8(vm::Trap::NONE))};
    std::vector<vm::Value> values(n);
    std::vector<u64> hashes(2 * n + 1, u64(result));
    for (u32 k = 0; k < n; ++k) {
      std::vector<vm::Value> items;
      std::string chars;
      i64 count = 0, found = -1;
      for (u32 e = first_[k]; e < first_[k + 1]; ++e) {
        if (body.traps[e] != u8(vm::Trap::NONE)) {
          out.traps[k] = body.traps[e];
          break;
        }
        if (form == Form::Map) {
          items.push_back(cases_->value(body, e));
          continue;
        }
        if (body.words[e] == 0) continue;
        if (form == Form::Filter) {
          const vm::Value x = cases_->value(cases_->parameter(0), e);
          if (result == Type::Str)
            chars += char(x.i);
          else
            items.push_back(x);
        }
        ++count;
        if (form == Form::Find) {
          found = e - first_[k];
          break;
        }
      }
      hashes[2 * k + 1] = out.traps[k];
      if (out.traps[k] != u8(vm::Trap::NONE)) continue;
      if (result == Type::Int)
        values[k] = vm::Value::of_int(form == Form::Count ? count : found);
      else if (result == Type::Str)
        values[k] = vm::Value::of_str(std::move(chars));
      else
        values[k] = vm::Value::of_array(element_of(result), std::move(items));
      hashes[2 * k + 2] = pipeline::output_hash({&values[k], 1});
    }
    if (!seen->insert(fnv1a64(reinterpret_cast<const u8*>(hashes.data()), hashes.size() * sizeof(u64)))
             .second)
      return std::nullopt;
    // Lists and strings go in the cases' heaps, up to half of each: the rest is the enumeration's.
    if (result != Type::Int)
      for (u32 k = 0; k < n; ++k) {
        const vm::Heap& heap = outer.machine(k).heap;
        if (out.traps[k] == u8(vm::Trap::NONE) &&
            heap.used + vm::heap_bytes_of(values[k]) > heap.capacity / 2) {
          *heap_full = true;
          return std::nullopt;
        }
      }
    for (u32 k = 0; k < n; ++k) {
      if (out.traps[k] != u8(vm::Trap::NONE)) continue;
      if (result == Type::Int)
        out.words[k] = u64(values[k].i);
      else if (!vm::place_value(outer.machine(k).heap, values[k], &out.words[k]))
        throw std::logic_error("a lambda leaf does not fit the heap measured for it");
    }
    return out;
  }

  u32 list_;
  Type sequence_;
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
  const auto sequence = [](Type t) { return t == Type::IntArray || t == Type::Str || t == Type::StrArray; };
  const u64 lists = u64(std::count_if(params.begin(), params.end(), sequence));
  for (u32 list = 0; list < params.size(); ++list) {
    if (!sequence(params[list])) continue;
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
    // The bodies' behaviours take a word and a trap byte per element case each: the enumeration
    // stops where those would pass settings.memory, or at the budget.
    const u64 most_banked = settings.memory / (u64(elements.count()) * (sizeof(u64) + 1));
    EnumerationStats stats;
    for (u64 budget = settings.budget / lists;
         stats.evaluated < budget && stats.banked < most_banked && !bodies.finished();)
      bodies.search([](const Behaviour&) { return false; }, settings.max_body_size,
                    std::min<u64>(budget - stats.evaluated, 1000), &stats);
    out.evaluated += stats.evaluated;
    for (Leaf& leaf : context.leaves_of(bodies, cases, params, settings, &counter))
      out.leaves.push_back(std::move(leaf));
  }
  return out;
}

}  // namespace gs::search::bank
