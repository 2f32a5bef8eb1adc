#include "search/bank_lambdas.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "base/hash.h"
#include "pipeline/case_set.h"
#include "search/bank_grammar.h"
#include "search/body_goals.h"
#include "search/case_split.h"
#include "trees/syntax.h"
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

// One sequence parameter's element context and the leaves its bodies give.
class ElementContext {
 public:
  enum class Form { Map, Filter, Count, Find, FlatMap, SortBy };

  // A body's case split has at most two branches: with four, the element cases are fitted by
  // chance (listfunctions c031's filter, is_even(x / 10), was met by four branches of unrelated
  // comparisons that failed its test cases).
  static constexpr u32 kMaxBranches = 2;
  // A sort's key is a body of at most 4 nodes (x % 10, x / 10, first_where_lt([i], 3)): with
  // every int body, the sorts' leaves made deepcoder-neo100's searches 38 % slower at 300,000
  // candidates for no problem solved.
  static constexpr u32 kLargestSortKey = 4;
  // Terms kept for a split: the element cases are many, and small bodies right on some of them
  // (x < 50 on a filter's) many more than on a result's train cases.
  static constexpr u32 kMaxTerms = 256;

  // A result's outputs as a map's or a filter's over the sequence: what the body gives on each
  // element case, and how it was met (entry ids of the bodies: a split's conditions and terms, or
  // one body, up to `affine` for an int body).
  struct BodyGoal {
    Form form = Form::Map;     // Map (an int body) or Filter (a bool body)
    Type result = Type::Unit;  // the form's
    Type body = Type::Unit;
    Span span = Span::All;
    std::vector<i64> ints;  // by element case: an int, or whether the element is kept (1 or 0)
    std::vector<u8> free;   // the elements the loop does not visit
    SplitTerms terms{kMaxTerms};
    std::optional<DecisionList> met;
    std::optional<Affine> affine;
    bool times_element = false;  // met as x * (body): the element times an int body
    u32 index = 0;               // among add_goals()'s
    bool given = false;          // by take_met()
  };

  // What a form's helper function is written from: the problem's parameters and the loop's
  // names. Shared with the leaves, whose helpers are written when an answer asks for them.
  struct HelperText {
    std::string typed;  // the parameters, "xs: [int], n: int"
    std::string xs, x, i;
    Type sequence = Type::Unit;

    std::string helper(Form form, Type result, Span span, const std::string& name, const Written& w) const {
      std::string before, step, after = "  return out;\n";
      switch (form) {
        case Form::Map:
          before = "  let out: " + std::string(type_name(result)) + " = [];\n";
          step = "    out = push(out, BODY);\n";
          break;
        case Form::Filter:  // a filter keeps the sequence's type: a str's keeps characters
          before = sequence == Type::Str ? "  let out = \"\";\n"
                                         : "  let out: " + std::string(type_name(sequence)) + " = [];\n";
          step = "    if BODY {\n      " +
                 (sequence == Type::Str ? "out = out + chr(" + x + ")" : "out = push(out, " + x + ")") +
                 ";\n    }\n";
          break;
        case Form::Count:
          before = "  let count = 0;\n";
          step = "    if BODY {\n      count = count + 1;\n    }\n";
          after = "  return count;\n";
          break;
        case Form::Find:
          step = "    if BODY {\n      return " + i + ";\n    }\n";
          after = "  return -1;\n";
          break;
        case Form::FlatMap:
          before = "  let out: [int] = [];\n";
          step = "    out = out + BODY;\n";
          break;
        case Form::SortBy:  // stable: an element goes after those of an equal key
          before = "  let out: [int] = [];\n  let keys: [int] = [];\n";
          step =
              "    let key = BODY;\n    let j = len(keys);\n    while j > 0 && keys[j - 1] > key {\n"
              "      j = j - 1;\n    }\n    out = slice(out, 0, j) + [" +
              x +
              "] + slice(out, j, len(out));\n    keys = slice(keys, 0, j) + [key] + slice(keys, j, "
              "len(keys));\n";
          break;
      }
      for (size_t at; (at = step.find("BODY")) != std::string::npos;) step.replace(at, 4, w.expressions[0]);
      const std::string range = span == Span::DropFirst  ? "1..len(" + xs + ")"
                                : span == Span::DropLast ? "0..len(" + xs + ") - 1"
                                                         : "0..len(" + xs + ")";
      if (span == Span::Reversed) after = "  return reverse(out);\n";
      return "fn " + name + "(" + typed + ") -> " + type_name(result) + " {\n" + before + "  for " + i +
             " in " + range + " {\n    let " + x + " = " + xs + "[" + i + "];\n" + step + "  }\n" + after +
             "}\n" + w.functions;
    }
  };

  // A leaf whose helper is written now, from what is at hand only now.
  static Leaf written(Leaf leaf) {
    leaf.helper = [text = leaf.helper()] { return text; };
    return leaf;
  }

  static std::shared_ptr<const HelperText> helper_text(u32 list, std::span<const Type> params,
                                                       std::span<const std::string> names) {
    HelperText text;
    std::vector<std::string> typed;
    for (u32 k = 0; k < params.size(); ++k) typed.push_back(names[k] + ": " + type_name(params[k]));
    text.typed = join(typed);
    text.xs = names[list];
    text.x = free_name("x", names);
    text.i = free_name("i", names);
    text.sequence = params[list];
    return std::make_shared<const HelperText>(std::move(text));
  }

  ElementContext(u32 list, std::span<const Type> params, std::span<const std::string> names,
                 std::span<const std::vector<vm::Value>> inputs, const LambdaSettings& settings,
                 Evaluation evaluation)
      : list_(list), names_(names.begin(), names.end()), text_(helper_text(list, params, names)) {
    std::vector<Type> types = {element_type(text_->sequence), Type::Int};
    types.insert(types.end(), params.begin(), params.end());
    std::vector<std::vector<vm::Value>> elements;
    for (u32 k = 0; k < inputs.size(); ++k) {
      first_.push_back(u32(elements.size()));
      const vm::Value& sequence = inputs[k][list];
      for (u32 j = 0; j < sequence_length(sequence) && elements.size() <= settings.max_elements; ++j) {
        std::vector<vm::Value> in = {sequence_element(sequence, j), vm::Value::of_int(j)};
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
  const std::string& x_name() const { return text_->x; }
  const std::string& i_name() const { return text_->i; }
  Cases& cases() { return *cases_; }

  // The body context's parameters: x, i and the problem's.
  std::string parameters(std::span<const Type> params) const {
    std::vector<std::string> p = {text_->x + ": " + type_name(element_type(text_->sequence)),
                                  text_->i + ": int"};
    for (u32 k = 0; k < params.size(); ++k) p.push_back(names_[k] + ": " + type_name(params[k]));
    return join(p);
  }

  // The results whose outputs a map or a filter over this sequence gives (search/body_goals.h),
  // each a goal for the body: goals[g][k] is result g's output on train case k, whose input
  // sequences are sequences[k].
  void add_goals(std::span<const std::vector<vm::Value>> goals, std::span<const vm::Value> sequences) {
    // The elements of the last quarter of the train cases (of four or more) are held back from
    // the splits: a split made on the others must be right on them too.
    held_ = case_mask(cases_->count());
    const u32 train = u32(first_.size()) - 1;
    if (train >= 4)
      for (u32 e = first_[train - (train + 3) / 4]; e < first_[train]; ++e) add_case(&held_, e);
    for (u32 index = 0; index < goals.size(); ++index) {
      const std::vector<vm::Value>& outputs = goals[index];
      auto add = [&](Form form, Span span, const Targets& t) {
        BodyGoal g;
        g.index = index;
        g.form = form;
        g.span = span;
        g.result = form == Form::Map ? Type::IntArray : text_->sequence;
        g.body = form == Form::Map ? Type::Int : Type::Bool;
        g.ints = t.values;
        g.free = t.free;
        // The same targets twice (a filter matched alike from either side) are one goal.
        if (g.ints.size() == cases_->count() &&
            std::none_of(goals_.begin(), goals_.end(), [&](const BodyGoal& o) {
              return o.index == index && o.form == form && o.span == span && o.ints == g.ints;
            }))
          goals_.push_back(std::move(g));
      };
      // Each way the outputs line up with the sequence is a goal of its own (the first met is
      // taken); a filter's matched leftmost and rightmost.
      for (Span span : {Span::All, Span::DropFirst, Span::DropLast, Span::Reversed}) {
        if (std::optional<Targets> t = map_targets(sequences, outputs, span)) add(Form::Map, span, *t);
        for (bool rightmost : {false, true})
          if (std::optional<Targets> t = filter_targets(sequences, outputs, rightmost, span))
            add(Form::Filter, span, *t);
      }
    }
  }
  bool has_goals() const { return !goals_.empty(); }

  // The bodies banked since the last call, against the goals: a body right on every element, or
  // (an int body) on every one up to an affine map; and those of the levels below `level` (the
  // one the enumeration is making), as terms and conditions of a case split over the elements —
  // a split waits for its parts' level to be complete, so that a whole body of the same size is
  // met first (listfunctions c086's filter, x > xs[0], was otherwise met by a split of smaller
  // parts that failed a test case). Whether every goal is met.
  bool scan(const BankEnumerator& bodies, u32 level) {
    const u32 n = cases_->count();
    auto right_on = [&](const BodyGoal& g, const Behaviour& b, CaseMask* right) {
      u32 count = 0;
      for (u32 e = 0; e < n; ++e)
        if (right_at(g, b, e)) {
          if (right != nullptr) add_case(right, e);
          ++count;
        }
      return count;
    };
    for (; scanned_ < bodies.count(); ++scanned_) {
      const Behaviour& b = bodies.behaviour(scanned_);
      for (BodyGoal& g : goals_) {
        if (settled(g) || b.type != g.body) continue;
        if (right_on(g, b, nullptr) == n)
          g.met = DecisionList{{}, scanned_};
        else if (g.body == Type::Int && !traps_where_visited(g, b) &&
                 ((g.affine = fit_affine(b.words, g.ints, g.free)) ||
                  (g.times_element = times_element(g, b))))
          g.met = DecisionList{{}, scanned_};
      }
    }
    bool terms_changed = false;
    for (; split_scanned_ < bodies.count() && bodies.size(split_scanned_) < level; ++split_scanned_) {
      const Behaviour& b = bodies.behaviour(split_scanned_);
      for (BodyGoal& g : goals_) {
        if (settled(g) || b.type != g.body) continue;
        CaseMask right = case_mask(n);
        if (right_on(g, b, &right) == 0) continue;
        for (size_t w = 0; w < right.size(); ++w) right[w] |= held_[w];  // no term is judged there
        terms_changed = g.terms.add(split_scanned_, right) || terms_changed;
      }
      if (b.type == Type::Bool && !b.traps_anywhere()) {
        CaseMask holds = case_mask(n);
        for (u32 e = 0; e < n; ++e)
          if (b.words[e] != 0) add_case(&holds, e);
        conditions_.add(split_scanned_, std::move(holds));
      }
    }
    if (!all_met() && conditions_.due(terms_changed))
      for (BodyGoal& g : goals_)
        if (!settled(g))
          if (std::optional<DecisionList> list =
                  split_by_size(n, g.terms, conditions_, [&](u32 id) { return bodies.size(id); },
                                {kMaxBranches, split_min_cases(n)});
              list && right_where_held(bodies, g, *list))
            g.met = std::move(list);
    return all_met();
  }

  // Whether body b traps on an element g's loop visits.
  static bool traps_where_visited(const BodyGoal& g, const Behaviour& b) {
    for (size_t e = 0; e < b.traps.size(); ++e)
      if (g.free[e] == 0 && b.traps[e] != u8(vm::Trap::NONE)) return true;
    return false;
  }
  // Whether x * b (the VM's wrapping product) gives g's targets on every visited element, where
  // at least three visited elements are not 0 (x * b is free where x is): a map of x * (x / 3 + 1)
  // is met by a body of 5 nodes, not 7.
  bool times_element(const BodyGoal& g, const Behaviour& b) const {
    const Behaviour& x = cases_->parameter(0);  // the elements (a [str]'s are no ints)
    if (x.type != Type::Int || x.words.size() != b.words.size()) return false;
    u32 nonzero = 0;
    for (size_t e = 0; e < b.words.size(); ++e) {
      if (g.free[e] != 0) continue;
      if (vm::wrap_mul(i64(x.words[e]), i64(b.words[e])) != g.ints[e]) return false;
      nonzero += x.words[e] != 0;
    }
    return nonzero >= 3;
  }
  // Whether body b gives goal g's output on element case e.
  static bool right_at(const BodyGoal& g, const Behaviour& b, u32 e) {
    return g.free[e] != 0 ||
           (b.traps[e] == u8(vm::Trap::NONE) &&
            (g.body == Type::Bool ? (b.words[e] != 0) == (g.ints[e] != 0) : i64(b.words[e]) == g.ints[e]));
  }
  // Whether a split made without the held-back elements is right on them.
  bool right_where_held(const BankEnumerator& bodies, const BodyGoal& g, const DecisionList& list) const {
    for (u32 e = 0; e < cases_->count(); ++e) {
      if (!has_case(held_, e)) continue;
      u32 term = list.otherwise;
      for (const Branch& b : list.branches)
        if ((bodies.behaviour(b.predicate).words[e] != 0) == b.when) {
          term = b.term;
          break;
        }
      if (!right_at(g, bodies.behaviour(term), e)) return false;
    }
    return true;
  }

  // The type of a form's body, by the form and its result.
  Type body_type(Form form, Type result) const {
    switch (form) {
      case Form::Map: return element_type(result);
      case Form::FlatMap: return Type::IntArray;
      case Form::SortBy: return Type::Int;
      default: return Type::Bool;
    }
  }

  // The form's helper, named FORM_N (N from *counter), over the problem's parameters, with the
  // body write(its name + "_") gives as its lambda's, written when the leaf's helper() is called
  // (`write` must stay callable until then): a leaf of `size` + 1 nodes without its behaviour.
  Leaf helper_leaf(Form form, Type result, u32 size, u32* counter,
                   std::function<Written(const std::string&)> write, Span span = Span::All) const {
    static constexpr const char* kNames[] = {"map", "filter", "count", "find", "flat_map", "sort_by"};
    const std::string name = std::string(kNames[int(form)]) + "_" + std::to_string(++*counter);
    Leaf leaf;
    leaf.form = form_key(kNames[int(form)], text_->sequence, body_type(form, result), result);
    leaf.text = name + "(" + join(names_) + ")";
    leaf.size = size + 1 + (span == Span::All ? 0 : 2);
    leaf.helper = [text = text_, form, result, span, name, write = std::move(write)] {
      return text->helper(form, result, span, name, write(name + "_"));
    };
    return leaf;
  }

  // A goal met since the last call and not yet given: its index among add_goals()'s and the
  // leaf of its form over its body (without a behaviour).
  std::optional<std::pair<u32, Leaf>> take_met(const BankEnumerator& bodies, std::span<const Type> params,
                                               u32* counter) {
    for (BodyGoal& g : goals_) {
      if (!g.met || g.given) continue;
      for (BodyGoal& other : goals_) other.given = other.given || other.index == g.index;
      u32 size = bodies.size(g.met->otherwise) + (g.affine ? 4 : 0) + (g.times_element ? 2 : 0);
      for (const Branch& b : g.met->branches) size += 1 + bodies.size(b.predicate) + bodies.size(b.term);
      return std::pair(
          g.index,
          written(helper_leaf(
              g.form, g.result, size, counter,
              [&](const std::string& prefix) { return write_body(bodies, g, params, prefix); }, g.span)));
    }
    return std::nullopt;
  }
  bool unseen_met() const {
    return std::any_of(goals_.begin(), goals_.end(), [](const BodyGoal& g) { return g.met && !g.given; });
  }
  bool all_met() const {
    return std::all_of(goals_.begin(), goals_.end(), [&](const BodyGoal& g) { return settled(g); });
  }
  // Whether g's result is met, by g or by another goal of its (a filter's other matching).
  bool settled(const BodyGoal& g) const {
    return std::any_of(goals_.begin(), goals_.end(),
                       [&](const BodyGoal& o) { return o.index == g.index && o.met.has_value(); });
  }

  // The parameters' types and the constants, as the bodies' leaves have them.
  struct BodyGrammar {
    std::vector<Type> params;
    std::vector<std::pair<std::string, vm::Value>> constants;
  };

  // `constants`: the bodies' constant leaves, after x, i and the parameters.
  std::vector<Leaf> leaves_of(std::shared_ptr<const BankEnumerator> shared, Cases& outer,
                              std::span<const Type> params,
                              std::span<const std::pair<std::string, vm::Value>> constants,
                              const LambdaSettings& settings, u32* counter) {
    const BankEnumerator& bodies = *shared;
    // What the leaves' body_uses() read, shared by them.
    const auto grammar = std::make_shared<const BodyGrammar>(
        BodyGrammar{{params.begin(), params.end()}, {constants.begin(), constants.end()}});
    std::vector<Leaf> out;
    std::unordered_set<u64> seen;  // the assembled behaviours, with their types
    bool heap_full = false;
    // Every (form, body), the smallest bodies first whatever the form: the leaves that make
    // lists take the cases' heaps in that order, and those past a full heap are not made.
    struct Job {
      Form form;
      u32 body;
      Type result;
    };
    std::vector<Job> jobs;
    for (Type t : {Type::Int, Type::Str})
      if (t == Type::Int || text_->sequence == Type::StrArray)  // a str body maps a [str] only
        for (u32 body : bodies.banked(t)) jobs.push_back({Form::Map, body, array_of(t)});
    if (text_->sequence == Type::IntArray)  // an [int] sorted by an int body, its key: a small one
      for (u32 body : bodies.banked(Type::Int))
        if (bodies.size(body) <= kLargestSortKey) jobs.push_back({Form::SortBy, body, Type::IntArray});
    // A bool body the same on every element of every case (xs == xs) filters out all or none:
    // its leaves are xs or [], len(xs) or 0, 0 or -1, which the bank has smaller.
    const auto uniform = [](const Behaviour& b) {
      return std::all_of(b.traps.begin(), b.traps.end(), [](u8 t) { return t == u8(vm::Trap::NONE); }) &&
             std::adjacent_find(b.words.begin(), b.words.end(), std::not_equal_to<>()) == b.words.end();
    };
    for (u32 body : bodies.banked(Type::Bool))
      if (!uniform(bodies.behaviour(body)))
        for (Form f : {Form::Filter, Form::Count, Form::Find})
          jobs.push_back({f, body, f == Form::Filter ? text_->sequence : Type::Int});
    for (u32 body : bodies.banked(Type::IntArray))  // not a list parameter itself, repeated
      if (bodies.size(body) > 1) jobs.push_back({Form::FlatMap, body, Type::IntArray});
    std::stable_sort(jobs.begin(), jobs.end(),
                     [&](const Job& a, const Job& b) { return bodies.size(a.body) < bodies.size(b.body); });
    std::unordered_map<u64, u32> made;  // leaves by form and result type
    // The sorts' orders of the elements, on every case; the elements' own order and sort(xs)'s
    // are had without a sort by a key.
    std::unordered_set<u64> orders;
    const Behaviour& x = cases_->parameter(0);
    orders.insert(order_hash(x));
    orders.insert(order_hash(Behaviour{Type::Int, std::vector<u64>(x.words.size(), 0), x.traps}));
    for (const Job& j : jobs) {
      u32& n = made[u64(j.form) << 8 | u8(j.result)];
      if (n >= settings.max_leaves || (heap_full && !is_word(j.result))) continue;
      // Most keys order the elements as another key did (x, x + 1, 2 * x: as sort does): such a
      // sort is passed over before its lists are made.
      if (j.form == Form::SortBy && !orders.insert(order_hash(bodies.behaviour(j.body))).second) continue;
      std::optional<Behaviour> b =
          assemble(bodies.behaviour(j.body), outer, j.form, j.result, &seen, &heap_full);
      if (!b) continue;
      out.push_back(helper_leaf(j.form, j.result, bodies.size(j.body), counter,
                                [shared, body = j.body](const std::string& prefix) {
                                  return shared->write({&body, 1}, prefix);
                                }));
      out.back().behaviour = std::move(*b);
      out.back().body_uses = [shared, body = j.body, grammar] {
        return body_uses(*shared, body, grammar->params, grammar->constants);
      };
      ++n;
    }
    return out;
  }

  // The productions and constants a body uses, by key (search/bank_grammar.h), sorted.
  static std::vector<std::string> body_uses(const BankEnumerator& bodies, u32 body,
                                            std::span<const Type> params,
                                            std::span<const std::pair<std::string, vm::Value>> constants) {
    std::vector<bool> productions, leaves;
    bodies.uses(body, &productions, &leaves);
    std::vector<std::string> keys;
    for (u32 i = 0; i < productions.size(); ++i)
      if (productions[i]) keys.push_back(production_key(bodies.production(i)));
    const size_t first = params.size() + 2;  // x, i, the parameters, then the constants
    for (size_t j = first; j < leaves.size() && j - first < constants.size(); ++j)
      if (leaves[j]) keys.push_back(constant_key(constants[j - first].second));
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    return keys;
  }

  // The hash of the order in which a key body sorts each case's elements (stably), with its traps.
  u64 order_hash(const Behaviour& key) {
    u64 h = kHashSeed;
    for (u32 k = 0; k + 1 < first_.size(); ++k) {
      order_.clear();
      bool traps = false;
      for (u32 e = first_[k]; e < first_[k + 1] && !traps; ++e) {
        traps = key.traps[e] != u8(vm::Trap::NONE);
        order_.push_back(e);
      }
      if (traps) {  // the case's trap is its first trapping element's
        h = mix_word(h, u64(key.traps[order_.back()]) << 32 | (order_.back() - first_[k]));
        continue;
      }
      std::stable_sort(order_.begin(), order_.end(),
                       [&](u32 a, u32 b) { return i64(key.words[a]) < i64(key.words[b]); });
      for (u32 e : order_) h = mix_word(h, e - first_[k]);
      h = mix_word(h, order_.size());
    }
    return h;
  }

 private:
  std::vector<u32> order_;  // order_hash()'s elements
  struct Scratch {          // assemble()'s buffers
    std::vector<u8> traps;
    std::vector<i64> ints;
    std::vector<std::vector<u64>> lists;
    std::vector<std::string> texts;
    std::vector<u64> hashes;
    std::vector<std::pair<i64, u64>> keyed;
  } scratch_;
  // The form's behaviour (of type `result`) on the problem's cases from the body's on their
  // elements, or nothing when a behaviour of its type with the same outputs and traps was
  // assembled before (`seen`: nothing is placed in the cases' heaps for it), or when a case's
  // heap is full (*heap_full is set).
  std::optional<Behaviour> assemble(const Behaviour& body, Cases& outer, Form form, Type result,
                                    std::unordered_set<u64>* seen, bool* heap_full) {
    const u32 n = outer.count();
    // Per case, the result: an int, or an [int]'s elements and a str's bytes as they are, or a
    // [str] as a Value (its elements are strings in the element cases' heaps). The buffers are
    // the context's, kept from call to call: most calls make a behaviour seen before.
    Scratch& s = scratch_;
    s.traps.assign(n, u8(vm::Trap::NONE));
    s.ints.assign(n, 0);
    if (s.lists.size() < n) s.lists.resize(n);
    if (s.texts.size() < n) s.texts.resize(n);
    std::vector<vm::Value> values(result == Type::StrArray ? n : 0);
    s.hashes.assign(2 * n + 1, u64(result));
    const Behaviour& x = cases_->parameter(0);  // the elements (a str's as their codes)
    for (u32 k = 0; k < n; ++k) {
      std::vector<vm::Value> items;  // a [str]'s
      s.keyed.clear();               // a sort's elements by key
      std::vector<u64>* list = result == Type::IntArray ? &s.lists[k] : nullptr;
      if (list != nullptr) list->clear();
      s.texts[k].clear();
      i64 count = 0, found = -1;
      for (u32 e = first_[k]; e < first_[k + 1]; ++e) {
        if (body.traps[e] != u8(vm::Trap::NONE)) {
          s.traps[k] = body.traps[e];
          break;
        }
        if (form == Form::Map) {
          if (list != nullptr)
            list->push_back(body.words[e]);
          else
            items.push_back(cases_->value(body, e));
          continue;
        }
        if (form == Form::FlatMap) {  // an [int] body: its list in element case e's heap
          vm::Heap& heap = cases_->machine(e).heap;
          const u32 ref = u32(body.words[e]);
          const u64* slots = heap.slots(ref);
          list->insert(list->end(), slots, slots + heap.header(ref)->length);
          continue;
        }
        if (form == Form::SortBy) {
          s.keyed.emplace_back(i64(body.words[e]), x.words[e]);
          continue;
        }
        if (body.words[e] == 0) continue;
        if (form == Form::Filter) {
          if (result == Type::Str)
            s.texts[k] += char(x.words[e]);
          else if (list != nullptr)
            list->push_back(x.words[e]);
          else
            items.push_back(cases_->value(x, e));
        }
        ++count;
        if (form == Form::Find) {
          found = e - first_[k];
          break;
        }
      }
      s.hashes[2 * k + 1] = s.traps[k];
      if (s.traps[k] != u8(vm::Trap::NONE)) continue;
      std::stable_sort(s.keyed.begin(), s.keyed.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      for (const auto& [key, element] : s.keyed) list->push_back(element);
      switch (result) {
        case Type::Int:
          s.ints[k] = form == Form::Count ? count : found;
          s.hashes[2 * k + 2] = u64(s.ints[k]);
          break;
        case Type::IntArray:
          s.hashes[2 * k + 2] = pipeline::ints_hash(s.lists[k].data(), u32(s.lists[k].size()));
          break;
        case Type::Str:
          s.hashes[2 * k + 2] =
              pipeline::str_hash(reinterpret_cast<const u8*>(s.texts[k].data()), u32(s.texts[k].size()));
          break;
        default:
          values[k] = vm::Value::of_array(element_of(result), std::move(items));
          s.hashes[2 * k + 2] = pipeline::output_hash({&values[k], 1});
      }
    }
    if (!seen->insert(fnv1a64(reinterpret_cast<const u8*>(s.hashes.data()), s.hashes.size() * sizeof(u64)))
             .second)
      return std::nullopt;
    // Lists and strings go in the cases' heaps, up to half of each: the rest is the enumeration's.
    auto bytes_of = [&](u32 k) -> u64 {
      switch (result) {
        case Type::IntArray: return vm::Heap::object_bytes(u64(s.lists[k].size()) * 8);
        case Type::Str: return vm::Heap::object_bytes(s.texts[k].size());
        default: return vm::heap_bytes_of(values[k]);
      }
    };
    if (result != Type::Int)
      for (u32 k = 0; k < n; ++k) {
        const vm::Heap& heap = outer.machine(k).heap;
        if (s.traps[k] == u8(vm::Trap::NONE) && heap.used + bytes_of(k) > heap.capacity / 2) {
          *heap_full = true;
          return std::nullopt;
        }
      }
    Behaviour out{result, std::vector<u64>(n, 0), s.traps};
    for (u32 k = 0; k < n; ++k) {
      if (out.traps[k] != u8(vm::Trap::NONE)) continue;
      vm::Heap& heap = outer.machine(k).heap;
      bool placed = true;
      switch (result) {
        case Type::Int: out.words[k] = u64(s.ints[k]); break;
        case Type::IntArray: placed = vm::place_words(heap, s.lists[k], &out.words[k]); break;
        case Type::Str:
          placed = vm::place_bytes(heap, {reinterpret_cast<const u8*>(s.texts[k].data()), s.texts[k].size()},
                                   &out.words[k]);
          break;
        default: placed = vm::place_value(heap, values[k], &out.words[k]);
      }
      if (!placed) throw std::logic_error("a lambda leaf does not fit the heap measured for it");
    }
    return out;
  }

  // A goal's body written out with its helpers: one banked body, or a * body + b, or a helper
  // function PREFIXbody over the element context's parameters whose `if`s take the split's
  // branches (a term runs only where its branch is taken).
  Written write_body(const BankEnumerator& bodies, const BodyGoal& g, std::span<const Type> params,
                     const std::string& prefix) const {
    std::vector<u32> parts;
    append_expressions(*g.met, &parts);
    Written w = bodies.write(parts, prefix);
    if (g.met->branches.empty()) {
      if (g.affine) {
        const auto literal = [](i64 v) { return trees::to_source(*trees::literal_of(vm::Value::of_int(v))); };
        std::string& e = w.expressions[0];
        const i64 a = g.affine->a, b = g.affine->b;
        if (a == -1)
          e = b == 0 ? "-(" + e + ")" : literal(b) + " - (" + e + ")";
        else
          e = (a == 1 ? "(" + e + ")" : literal(a) + " * (" + e + ")") + (b == 0 ? "" : " + " + literal(b));
      }
      if (g.times_element) w.expressions[0] = text_->x + " * (" + w.expressions[0] + ")";
      return w;
    }
    const std::string name = prefix + "body";
    size_t at = 0;
    const std::string helper =
        decision_function(name, parameters(params), type_name(g.body), *g.met, w.expressions, &at);
    std::vector<std::string> arguments = {text_->x, text_->i};
    arguments.insert(arguments.end(), names_.begin(), names_.end());
    return {{name + "(" + join(arguments) + ")"}, helper + w.functions};
  }

  u32 list_;
  std::vector<std::string> names_;
  std::shared_ptr<const HelperText> text_;  // the parameters and the loop's names
  std::vector<u32> first_;  // case k's elements are the element cases first_[k] .. first_[k + 1] - 1
  std::unique_ptr<Cases> cases_;
  std::vector<BodyGoal> goals_;
  SplitConditions conditions_;  // the bool bodies that never trap, for the goals' splits
  CaseMask held_;               // the element cases held back from them
  u32 scanned_ = 0;             // bodies seen by scan() as whole bodies
  u32 split_scanned_ = 0;       // … and as the parts of splits
};

}  // namespace

struct LambdaBodies::Context {
  std::unique_ptr<ElementContext> elements;
  std::shared_ptr<BankEnumerator> bodies;  // and the lambda leaves' helpers, written from it when asked
  EnumerationStats stats;
  u64 most_banked = 0;  // bodies, at most: their behaviours take a word and a trap byte per element case
};

LambdaBodies::LambdaBodies(std::span<const Type> params, std::span<const std::string> names,
                           std::span<const std::vector<vm::Value>> inputs, Cases& cases,
                           std::span<const std::pair<std::string, vm::Value>> constants,
                           const std::function<std::vector<Production>()>& productions,
                           std::span<const std::vector<vm::Value>> goals, const LambdaSettings& settings)
    : params_(params.begin(), params.end()), max_body_size_(settings.max_body_size) {
  const auto sequence = [](Type t) { return t == Type::IntArray || t == Type::Str || t == Type::StrArray; };
  const u64 lists = u64(std::count_if(params.begin(), params.end(), sequence));
  for (u32 list = 0; list < params.size(); ++list) {
    if (!sequence(params[list])) continue;
    auto c = std::make_unique<Context>();
    c->elements = std::make_unique<ElementContext>(
        list, params, names, inputs, settings,
        Evaluation{.threads = 1, .interpreter_only = cases.interpreter_only()});
    ElementContext& context = *c->elements;
    if (!context.usable()) continue;
    Cases& elements = context.cases();
    std::vector<Leaf> leaves;
    for (u32 p = 0; p < params.size() + 2; ++p) {  // x, i, then the problem's parameters
      const std::string& name = p == 0 ? context.x_name() : p == 1 ? context.i_name() : names[p - 2];
      leaves.push_back({name, elements.parameter(p)});
    }
    for (const auto& [text, value] : constants) leaves.push_back({text, constant(value, elements)});
    c->bodies = std::make_shared<BankEnumerator>(elements, std::move(leaves), productions(),
                                                 context.parameters(params));
    if (settings.goal_budget > 0) {
      std::vector<vm::Value> sequences;
      for (const std::vector<vm::Value>& in : inputs) sequences.push_back(in[list]);
      context.add_goals(goals, sequences);
    }
    c->most_banked = settings.memory / (u64(elements.count()) * (sizeof(u64) + 1));
    // The bodies first enumerated for the leaves: settings.budget over all the parameters.
    enumerate(*c, settings.budget / lists);
    evaluated_ += c->stats.evaluated;
    for (Leaf& leaf : context.leaves_of(c->bodies, cases, params, constants, settings, &counter_))
      leaves_.push_back(std::move(leaf));
    c->elements->scan(*c->bodies, c->stats.level);
    if (context.has_goals())
      goal_limit_ =
          std::max(goal_limit_, (settings.budget + std::min(settings.goal_budget, ~settings.budget)) / lists);
    contexts_.push_back(std::move(c));
  }
}

LambdaBodies::~LambdaBodies() = default;

void LambdaBodies::enumerate(Context& c, u64 until) {
  while (c.stats.evaluated < until && c.stats.banked < c.most_banked && !c.bodies->finished()) {
    c.bodies->search([](const Behaviour&) { return false; }, max_body_size_,
                     std::min<u64>(until - c.stats.evaluated, 1000), &c.stats);
    if (c.elements->has_goals() && !c.elements->all_met()) c.elements->scan(*c.bodies, c.stats.level);
  }
}

bool LambdaBodies::seeking() const {
  return std::any_of(contexts_.begin(), contexts_.end(), [&](const std::unique_ptr<Context>& c) {
    return c->elements->has_goals() && (!c->elements->all_met() || c->elements->unseen_met()) &&
           (c->stats.evaluated < goal_limit_ && c->stats.banked < c->most_banked && !c->bodies->finished());
  });
}

std::optional<LambdaBodies::Met> LambdaBodies::seek(u64 budget) {
  u64 spent = 0;
  for (const std::unique_ptr<Context>& c : contexts_) {
    if (!c->elements->has_goals()) continue;
    for (;;) {
      if (std::optional<std::pair<u32, Leaf>> met = c->elements->take_met(*c->bodies, params_, &counter_))
        return Met{met->first, std::move(met->second)};
      const u64 before = c->stats.evaluated;
      if (spent >= budget || c->elements->all_met() || c->stats.evaluated >= goal_limit_) break;
      enumerate(*c, std::min(goal_limit_, before + (budget - spent)));
      spent += c->stats.evaluated - before;
      evaluated_ += c->stats.evaluated - before;
      if (c->stats.evaluated == before) break;  // finished, or full
    }
  }
  return std::nullopt;
}

LambdaLeaves lambda_leaves(std::span<const Type> params, std::span<const std::string> names,
                           std::span<const std::vector<vm::Value>> inputs, Cases& cases,
                           std::span<const std::pair<std::string, vm::Value>> constants,
                           const std::function<std::vector<Production>()>& productions,
                           const LambdaSettings& settings) {
  LambdaBodies bodies(params, names, inputs, cases, constants, productions, {}, settings);
  return {bodies.take_leaves(), bodies.evaluated()};
}

}  // namespace gs::search::bank
