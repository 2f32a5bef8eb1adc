// Bottom-up enumeration with observational equivalence as a generator (search/generator.h).
//
// The bank holds one expression per distinct behaviour: for each context, type and size, the
// expressions whose outputs on the train inputs differ from every expression banked before.
// Size s is built from banked expressions of smaller sizes only, one production (an operator,
// a builtin overload, an index, choose, map, filter) at a time, its operands' sizes summing to
// s − 1 (a lambda's to s: map(xs, f) costs only xs and f). Each batch holds expressions of one context and type: those of the problem's result
// type in the entry's context are candidates, the others probes (Generator::probe_result) run
// with their own result type so that their output hashes come back. observe() banks every
// expression that ran without a trap on every train input and whose output hashes are new for
// its context and type.
//
// Lambdas. A lambda context is the body of a loop over a sequence parameter's elements (the
// variable `x`) or over the indices 0..n (`i`); its expressions see the parameters and that
// variable. A body is told apart from the others by a probe that maps it over every source of
// the context's values — `map_1(xs, …) + map_2(ys, …)` — on the train inputs. The entry's
// context has the productions map(seq, body), filter(seq, cond) and map over 0..n, each written
// out as a helper function (fn map_1(s_: [int], xs: [int]) -> [int] { … }) that takes the
// entry's parameters too, since Syn has no closures.
//
// Goals. A problem with several results (a tuple), or a string result whose train outputs all
// share a prefix or suffix ("The number of syllables is 3"), has its answer assembled from parts:
// for each result a goal — its train outputs, less the common prefix and suffix — that an
// expression of the entry's context meets when its outputs are exactly those. The expression
// may be a probe. When every result has an expression meeting its goal, the assembled program,
// `return (e1, e2);` or `return "The number of syllables is " + e;`, is proposed as a candidate.
// Where no expression meets a goal yet, it may be met case by case (search/case_split.h): by a
// decision list of expressions each right on some train cases, under the entry's bool
// expressions as conditions — choose(n < 1000, "small", choose(n < 2000, "", "large")).
//
// Enumeration is lazy — a cursor walks productions × size splits × operand tuples — so a size
// with millions of combinations costs memory only for what was proposed.
#include <algorithm>
#include <array>
#include <stdexcept>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "search/case_split.h"
#include "search/generator.h"
#include "pipeline/batch.h"
#include "base/hash.h"
#include "pipeline/case_set.h"

namespace gs::search {

namespace {

enum class Production : u8 { Leaf, Unary, Binary, Builtin, Index, Choose, Map, MapRange, Filter };

constexpr u32 kNone = ~0u;
constexpr u32 kAnyContext = ~0u;
constexpr i64 kRangeProbe = 64;  // a range context over an int parameter n takes 0..min(n, 64)

struct Rule {
  Production kind;
  u8 op = 0;                    // UnaryOp / BinaryOp
  std::string callee;           // Builtin: the builtin's name
  std::vector<Type> args;       // operand types
  Type result = Type::Unit;
  bool commutative = false;     // operands of one type whose order does not matter
  u32 context = kAnyContext;    // the one context the rule belongs to (a lambda's variable: its own)
  u32 body = 0;                 // Map, MapRange, Filter: the lambda context of the second operand
};

// Where expressions are enumerated: the entry's body (context 0) or a lambda's body, which also
// sees `var`, bound to each element of its sources (parameters) or, for a range, to each index.
struct Context {
  std::string var;
  Type var_type = Type::Unit;
  bool range = false;
  std::vector<u32> sources;  // parameter indices
  std::vector<u32> types;    // the type indices enumerated in it (a lambda: the scalar ones)
  u32 variable = kNone;      // the rule of its variable's leaf
  bool indexed = false;      // a range whose sequences' elements at i are leaves
};

// One expression: a rule over banked operands (Leaf: the leaf's index in leaves_).
struct Node {
  u32 rule = 0;
  std::array<u32, 3> child{kNone, kNone, kNone};
};

struct Entry {
  Node node;
  Type type;
  u32 context;
  bool variable;  // a lambda body that uses its context's variable
};

// What one result of the problem must be, given as an expression's outputs on the train inputs:
// the result's outputs less a prefix and a suffix that every one of them has.
// Where what is left of every output is one character, or an integer's decimal digits, the goal
// is an int expression that chr() or str() turns into it. A single result's outputs as they are
// are a goal too (`whole`), met only case by case: an expression with exactly those outputs is a
// candidate itself.
struct Goal {
  u32 result = 0;  // which of the signature's results
  Type type = Type::Unit;
  std::string prefix, suffix;
  const char* convert = nullptr;  // "chr", "str": the builtin applied to the expression, or none
  bool whole = false;
  std::vector<u64> outputs;  // by train case: the output hash an expression must have
  u64 behaviour = 0;  // the hash observe() computes for an expression with exactly these outputs
  // The terms of a case split: banked expressions right on some of the cases, none on a subset
  // of another's (at most kMaxTerms, the first found), and those cases.
  std::vector<u32> terms;
  std::vector<CaseMask> term_cases;
};

// How a result's goal was met: by one expression (a list without branches), or case by case.
// Entry ids.
struct Met {
  u32 goal = 0;
  DecisionList list;
};

constexpr u32 kMaxTerms = 32;

// The int whose decimal digits t is, as str() writes them.
std::optional<i64> decimal(const std::string& t) {
  if (t.empty() || t.size() > 19) return std::nullopt;
  size_t k = t[0] == '-' ? 1 : 0;
  if (k == t.size() || (t[k] == '0' && t.size() > k + 1) || t == "-0") return std::nullopt;
  i64 v = 0;
  for (; k < t.size(); ++k) {
    if (t[k] < '0' || t[k] > '9') return std::nullopt;
    v = v * 10 + (t[k] - '0');
  }
  return t[0] == '-' ? -v : v;
}

// An expression's behaviour: the hash of its output hashes on the train inputs, in order. Two
// expressions with one behaviour are one; a goal is met by the behaviour of its outputs.
u64 behaviour_of(std::span<const u64> output_hashes) {
  return fnv1a64(reinterpret_cast<const u8*>(output_hashes.data()), output_hashes.size_bytes());
}

// The longest prefix (or suffix) every string has.
std::string common_affix(const std::vector<std::string>& texts, bool suffix) {
  if (texts.empty()) return "";
  size_t n = texts[0].size();
  for (const std::string& t : texts) {
    size_t k = 0;
    while (k < n && k < t.size() &&
           (suffix ? t[t.size() - 1 - k] == texts[0][texts[0].size() - 1 - k] : t[k] == texts[0][k]))
      ++k;
    n = k;
  }
  return suffix ? texts[0].substr(texts[0].size() - n) : texts[0].substr(0, n);
}

// "choose_int", "choose_list_str": the helper function that makes choose() an expression.
std::string choose_name(Type t) {
  std::string s = "choose_";
  for (char c : trees::type_source(t)) {
    if (c == '[') s += "list_";
    else if (c != ']') s += c;
  }
  return s;
}

// The compositions of n into k positive parts, in lexicographic order: first and next.
bool first_parts(u32 n, u32 k, std::array<u32, 3>* parts) {
  if (k == 0 || n < k) return false;
  for (u32 j = 0; j + 1 < k; ++j) (*parts)[j] = 1;
  (*parts)[k - 1] = n - (k - 1);
  return true;
}
bool next_parts(u32 k, std::array<u32, 3>* parts) {
  // Find the rightmost part but the last that can grow (the last part then shrinks).
  u32 total = 0;
  for (u32 j = 0; j < k; ++j) total += (*parts)[j];
  for (i32 j = i32(k) - 2; j >= 0; --j) {
    u32 prefix = 0;
    for (i32 m = 0; m <= j; ++m) prefix += (*parts)[m];
    if (total - prefix - 1 >= k - 1 - u32(j)) {  // room for the rest at one each
      (*parts)[j] += 1;
      for (u32 m = u32(j) + 1; m + 1 < k; ++m) (*parts)[m] = 1;
      u32 used = 0;
      for (u32 m = 0; m + 1 < k; ++m) used += (*parts)[m];
      (*parts)[k - 1] = total - used;
      return true;
    }
  }
  return false;
}

class EnumerateGenerator final : public Generator {
 public:
  EnumerateGenerator(const suites::Problem& problem, EnumerateSettings settings)
      : signature_(problem.signature), settings_(settings) {
    // A problem with several results has no candidates but assembled ones (make_goals): every
    // expression is a probe.
    if (signature_.results.size() == 1) result_ = signature_.results[0];
    make_affixes(problem);
    make_types(problem);
    make_leaves(problem);
    make_contexts();
    make_rules();
    bank_.assign(contexts_.size(), std::vector<std::vector<std::vector<u32>>>(types_.size()));
    seen_.assign(contexts_.size(), std::vector<std::unordered_set<u64>>(types_.size()));
    bank_array_leaves();
    make_goals(problem);
  }

  GeneratorKind kind() const override { return GeneratorKind::Enumerate; }

  std::optional<Type> probe_result() const override {
    if (batch_type_ == kNone) return std::nullopt;
    const Type t = batch_context_ == 0 ? types_[batch_type_] : array_of(types_[batch_type_]);
    if (t == result_) return std::nullopt;
    return t;
  }

  std::vector<Proposal> propose(u32 count, u64) override {
    pending_.clear();
    std::vector<Proposal> out;
    if (!assembled_.empty()) {  // candidates assembled from goals met, a batch of their own
      for (trees::Tree& p : assembled_) {
        Proposal proposal;
        proposal.source = trees::to_source(p);
        proposal.tree = std::move(p);
        out.push_back(std::move(proposal));
      }
      assembled_.clear();
      batch_type_ = kNone;
      return out;
    }
    while (out.empty()) {
      if (size_ > settings_.max_size) return out;  // the enumeration is finished
      Node node;
      while (out.size() < count && next(&node)) {
        Proposal p;
        p.tree = context_ == 0 ? program_of(node) : probe_of(node);
        p.source = trees::to_source(*p.tree);
        if (context_ == 0 && banked_as_probe(node, p.source)) continue;
        out.push_back(std::move(p));
        pending_.push_back(node);
      }
      batch_context_ = context_;
      batch_type_ = type_index();
      batch_size_ = size_;
      if (out.size() < count) advance_type();  // this type's productions of this size are done
    }
    return out;
  }

  void observe(std::span<const Proposal> proposals, const pipeline::BatchResults& e, i64 first_id) override {
    const u32 c = batch_context_, t = batch_type_;
    if (t == kNone) return;  // assembled candidates: nothing to bank
    for (u32 i = 0; i < e.programs; ++i) {
      std::optional<u64> behaviour;
      bool trapped = e.status[i] != u8(pipeline::ProgramStatus::OK);
      for (u32 k = 0; k < e.cases && !trapped; ++k) trapped = e.trap[u64(i) * e.cases + k] != 0;
      if (!trapped)
        behaviour = behaviour_of(std::span<const u64>(e.output_hash).subspan(u64(i) * e.cases, e.cases));
      if (c != 0 && i < proposals.size()) probed_[source_hash(proposals[i].source)] = behaviour;
      if (behaviour && seen_[c][t].insert(*behaviour).second)
        reached(bank(pending_[i], c, t, batch_size_), *behaviour, std::span<const u64>(e.output_hash).subspan(u64(i) * e.cases, e.cases));
    }
    split_goals();
  }

 private:
  // ---- the grammar -----------------------------------------------------------------------

  void add_type(Type t) {
    if (std::find(types_.begin(), types_.end(), t) == types_.end()) types_.push_back(t);
  }
  bool has_type(Type t) const { return std::find(types_.begin(), types_.end(), t) != types_.end(); }
  // The result type first (within a size, candidates go before probes), then int and bool, the
  // parameters' types and their elements, [str] with str (split), and with lambdas the arrays
  // that maps make.
  void make_types(const suites::Problem& problem) {
    for (Type t : signature_.results) {
      add_type(t);
      if (is_array(t)) add_type(element_of(t));
    }
    add_type(Type::Int);
    add_type(Type::Bool);
    std::vector<Type> named = signature_.params;
    for (Type t : signature_.results) named.push_back(t);
    for (const vm::Value& v : problem.constants) named.push_back(v.type);
    for (Type t : named) {
      if (is_array(t)) add_type(element_of(t));
      add_type(t);
    }
    if (has_type(Type::Str)) add_type(array_of(Type::Str));
    if (settings_.lambdas)
      for (Type t : map_results()) add_type(array_of(t));
    type_index_.fill(kNone);
    for (u32 i = 0; i < types_.size(); ++i) type_index_[u8(types_[i])] = i;
  }
  u32 index_of_type(Type t) const { return type_index_[u8(t)]; }
  // What a map's body may return: the scalar types but bool (a filter's condition).
  std::vector<Type> map_results() const {
    std::vector<Type> out;
    for (Type t : {Type::Int, Type::Float, Type::Str})
      if (has_type(t)) out.push_back(t);
    return out;
  }

  // Parameters, small constants of the scalar types (not -1: that is -(1); no `[]`, whose type
  // Syn cannot infer where it stands alone), and the string outputs that recur in the train
  // cases (a problem that answers "small" or "large" needs those words).
  void make_leaves(const suites::Problem& problem) {
    for (u32 i = 0; i < signature_.params.size(); ++i)
      leaves_.push_back(trees::Expr::name(signature_.param_names[i], signature_.params[i]));
    for (i64 v : {0, 1, 2, 10}) leaves_.push_back(trees::Expr::int_lit(v));
    leaves_.push_back(trees::Expr::bool_lit(true));
    leaves_.push_back(trees::Expr::bool_lit(false));
    if (index_of_type(Type::Float) != kNone)
      for (double v : {0.0, 1.0, 0.5}) leaves_.push_back(trees::Expr::float_lit(v));
    if (index_of_type(Type::Str) != kNone) {
      std::vector<std::string> strings{"", " "};
      std::vector<std::pair<std::string, u32>> counts;
      bool lines = false;
      for (const suites::Case& c : problem.train)
        for (u32 r = 0; r < c.outputs.size(); ++r) {
          const vm::Value& v = c.outputs[r];
          if (v.type != Type::Str) continue;
          lines = lines || v.s.find('\n') != std::string::npos;
          // Outputs with a common prefix or suffix are assembled from a goal's (make_goals).
          if (v.s.size() > 40 || !affixes_[r].first.empty() || !affixes_[r].second.empty()) continue;
          auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& p) { return p.first == v.s; });
          if (it == counts.end()) counts.push_back({v.s, 1});
          else ++it->second;
        }
      if (lines && settings_.lambdas) strings.push_back("\n");  // to join a map's strings into lines
      const u32 recurring = std::max<u32>(2, u32(problem.train.size() / 20));
      for (const auto& [text, n] : counts)
        if (n >= recurring && strings.size() < 8 && std::find(strings.begin(), strings.end(), text) == strings.end())
          strings.push_back(text);
      for (const std::string& s : strings) leaves_.push_back(trees::Expr::str_lit(s));
    }
    // The problem's own constants (docs/problems.md), those not among the leaves already.
    for (const vm::Value& v : problem.constants)
      if (std::optional<trees::Expr> e = literal_of(v)) add_leaf_once(std::move(*e));
    // With splits, thresholds: where the outputs step as an int parameter grows (small-or-large's
    // 1000 and 2000), those not among the leaves already.
    if (settings_.splits)
      for (i64 v : thresholds(problem)) add_leaf_once(trees::Expr::int_lit(v));
    for (u32 i = 0; i < leaves_.size(); ++i) rules_.push_back({Production::Leaf, 0, {}, {}, leaves_[i].type, false});
  }

  // A leaf, unless one of its type and source is there already.
  void add_leaf_once(trees::Expr e) {
    const std::string text = trees::to_source(e);
    if (std::none_of(leaves_.begin(), leaves_.end(), [&](const trees::Expr& l) { return l.type == e.type && trees::to_source(l) == text; }))
      leaves_.push_back(std::move(e));
  }

  // For each int parameter that alone decides the train outputs, in at most four steps of at
  // least split_min_cases() cases each: the values at which they change (the first value of each
  // step after the first). Decision-tree learners take their split points the same way; PushGP
  // draws such numbers as random constants.
  std::vector<i64> thresholds(const suites::Problem& problem) const {
    std::vector<i64> out;
    const u32 least = split_min_cases(u32(problem.train.size()));
    for (u32 p = 0; p < signature_.params.size(); ++p) {
      if (signature_.params[p] != Type::Int) continue;
      std::vector<std::pair<i64, u64>> points;  // the parameter's value, the outputs' hash
      for (const suites::Case& c : problem.train) points.push_back({c.inputs[p].i, pipeline::output_hash(c.outputs)});
      std::sort(points.begin(), points.end());
      std::vector<i64> steps;
      bool fits = true;
      u32 step_cases = 1;
      for (size_t k = 1; k < points.size() && fits; ++k, ++step_cases) {
        if (points[k].second == points[k - 1].second) continue;
        if (points[k].first == points[k - 1].first || step_cases < least) fits = false;  // one value, two outputs; a stray step
        steps.push_back(points[k].first);
        step_cases = 0;
      }
      if (fits && step_cases >= least && steps.size() <= 3) out.insert(out.end(), steps.begin(), steps.end());
    }
    return out;
  }

  // A value as a literal; none for an empty array (Syn cannot type `[]` standing alone).
  static std::optional<trees::Expr> literal_of(const vm::Value& v) {
    switch (v.type) {
      case Type::Int: return trees::Expr::int_lit(v.i);
      case Type::Float: return trees::Expr::float_lit(v.f);
      case Type::Bool: return trees::Expr::bool_lit(v.i != 0);
      case Type::Str: return trees::Expr::str_lit(v.s);
      default: break;
    }
    if (!is_array(v.type) || v.items.empty()) return std::nullopt;
    std::vector<trees::Expr> items;
    for (const vm::Value& item : v.items) items.push_back(*literal_of(item));
    return trees::Expr::array_lit(v.type, std::move(items));
  }

  // A name no parameter has (nor any name taken before).
  std::string fresh(std::string base) {
    const auto taken = [&](const std::string& n) {
      return std::find(signature_.param_names.begin(), signature_.param_names.end(), n) != signature_.param_names.end() ||
             std::find(names_.begin(), names_.end(), n) != names_.end();
    };
    while (taken(base)) base += '_';
    names_.push_back(base);
    return base;
  }

  // Context 0, the entry's body; with lambdas one context per element type of the sequence
  // parameters (a string's elements are ints), and one range context: the indices of the
  // sequence parameters, or where there are none 0..min(n, 64) for each int parameter n.
  void make_contexts() {
    Context entry;
    for (u32 t = 0; t < types_.size(); ++t) entry.types.push_back(t);
    contexts_.push_back(std::move(entry));
    for (const char* n : {"s_", "n_", "r_", "j_"}) helper_names_.push_back(fresh(n));
    if (!settings_.lambdas) return;
    const std::vector<Type>& params = signature_.params;
    const auto lambda = [&](std::string var, Type var_type, bool range, std::vector<u32> sources) {
      Context c{std::move(var), var_type, range, std::move(sources), {}};
      for (u32 t = 0; t < types_.size(); ++t)
        if (is_scalar(types_[t])) c.types.push_back(t);
      // The variable: a leaf of its context alone (rule i is still leaves_[i]).
      leaves_.push_back(trees::Expr::name(c.var, var_type));
      Rule leaf{Production::Leaf, 0, {}, {}, var_type, false};
      leaf.context = u32(contexts_.size());
      c.variable = u32(rules_.size());
      rules_.push_back(std::move(leaf));
      contexts_.push_back(std::move(c));
    };
    std::vector<Type> elements;
    for (Type t : params)
      if (is_array(t) || t == Type::Str) {
        const Type e = item_of(t);
        if (std::find(elements.begin(), elements.end(), e) == elements.end()) elements.push_back(e);
      }
    const std::string x = fresh("x"), i = fresh("i");
    for (Type e : elements) {
      std::vector<u32> sources;
      for (u32 p = 0; p < params.size(); ++p)
        if ((is_array(params[p]) || params[p] == Type::Str) && item_of(params[p]) == e) sources.push_back(p);
      lambda(x, e, false, std::move(sources));
    }
    std::vector<u32> sequences, ints;
    for (u32 p = 0; p < params.size(); ++p) {
      if (is_array(params[p]) || params[p] == Type::Str) sequences.push_back(p);
      if (params[p] == Type::Int) ints.push_back(p);
    }
    if (!sequences.empty()) {
      lambda(i, Type::Int, true, sequences);
      // Over the indices of two or more sequences, their elements there are leaves: xs[i] + ys[i]
      // is size 3. (Over one sequence's, s[i] is the element context's x.)
      contexts_.back().indexed = sequences.size() >= 2;
      if (contexts_.back().indexed)
        for (u32 p : sequences) {
          leaves_.push_back(trees::Expr::index(trees::Expr::name(signature_.param_names[p], params[p]), trees::Expr::name(i, Type::Int)));
          Rule leaf{Production::Leaf, 0, {}, {}, item_of(params[p]), false};
          leaf.context = u32(contexts_.size() - 1);
          rules_.push_back(std::move(leaf));
        }
    } else if (!ints.empty()) {
      lambda(i, Type::Int, true, std::move(ints));
    }
  }

  void add_rule(Rule r) {
    if (index_of_type(r.result) == kNone) return;
    for (Type a : r.args)
      if (index_of_type(a) == kNone) return;
    rules_.push_back(std::move(r));
  }

  void make_rules() {
    for (Type t : {Type::Int, Type::Float}) add_rule({Production::Unary, u8(trees::UnaryOp::Neg), {}, {t}, t, false});
    add_rule({Production::Unary, u8(trees::UnaryOp::Not), {}, {Type::Bool}, Type::Bool, false});
    for (Type t : types_) {
      const bool number = t == Type::Int || t == Type::Float;
      if (number || t == Type::Str || is_array(t))
        add_rule({Production::Binary, u8(trees::BinaryOp::Add), {}, {t, t}, t, number});
      if (number) {
        add_rule({Production::Binary, u8(trees::BinaryOp::Sub), {}, {t, t}, t, false});
        add_rule({Production::Binary, u8(trees::BinaryOp::Mul), {}, {t, t}, t, true});
        add_rule({Production::Binary, u8(trees::BinaryOp::Div), {}, {t, t}, t, false});
        add_rule({Production::Binary, u8(trees::BinaryOp::Mod), {}, {t, t}, t, false});
      }
      if (number || t == Type::Str)
        for (trees::BinaryOp op : {trees::BinaryOp::Lt, trees::BinaryOp::Le})  // > and >= are these with the operands swapped
          add_rule({Production::Binary, u8(op), {}, {t, t}, Type::Bool, false});
      add_rule({Production::Binary, u8(trees::BinaryOp::Eq), {}, {t, t}, Type::Bool, true});
      if (t != Type::Bool) add_rule({Production::Binary, u8(trees::BinaryOp::Ne), {}, {t, t}, Type::Bool, true});
      if (is_array(t)) add_rule({Production::Index, 0, {}, {t, Type::Int}, element_of(t), false});
      if (t == Type::Str) add_rule({Production::Index, 0, {}, {t, Type::Int}, Type::Int, false});
    }
    for (trees::BinaryOp op : {trees::BinaryOp::And, trees::BinaryOp::Or})
      add_rule({Production::Binary, u8(op), {}, {Type::Bool, Type::Bool}, Type::Bool, true});
    // Every builtin overload, found by trying the bank's types as arguments.
    std::vector<std::pair<std::string, u32>> builtins;
    for (u32 b = 0; b < trees::kBuiltinCount; ++b) {
      const std::string signature = trees::builtin_signature(trees::Builtin(b));
      const u32 arity = u32(std::count(signature.begin(), signature.end(), ',')) + 1;
      std::pair<std::string, u32> key{trees::builtin_name(trees::Builtin(b)), arity};
      if (std::find(builtins.begin(), builtins.end(), key) == builtins.end()) builtins.push_back(key);
    }
    const u32 n = u32(types_.size());
    for (const auto& [name, arity] : builtins) {
      u32 tuples = 1;
      for (u32 j = 0; j < arity; ++j) tuples *= n;
      for (u32 code = 0; code < tuples; ++code) {
        std::vector<Type> args;
        for (u32 j = 0, c = code; j < arity; ++j, c /= n) args.push_back(types_[c % n]);
        Type result;
        if (!trees::resolve_builtin(name, args, &result)) continue;
        // Conversions of a type to itself are the identity.
        if (arity == 1 && args[0] == result && (name == "int" || name == "float" || name == "str")) continue;
        const bool commutative = arity == 2 && args[0] == args[1] && (name == "min" || name == "max");
        add_rule({Production::Builtin, 0, name, args, result, commutative});
      }
    }
    if (settings_.choose)
      for (Type t : types_) add_rule({Production::Choose, 0, {}, {Type::Bool, t, t}, t, false});
    // The lambdas, in the entry's context: map and filter over every sequence type whose
    // elements a context's variable takes, map over 0..n.
    for (u32 c = 1; c < contexts_.size(); ++c) {
      const Context& ctx = contexts_[c];
      const auto lambda_rule = [&](Production kind, std::vector<Type> args, Type result) {
        Rule r{kind, 0, {}, std::move(args), result, false};
        r.context = 0;
        r.body = c;
        add_rule(std::move(r));
      };
      if (ctx.range) {
        for (Type u : map_results()) lambda_rule(Production::MapRange, {Type::Int, u}, array_of(u));
        continue;
      }
      for (Type s : types_) {
        if (!(is_array(s) || s == Type::Str) || item_of(s) != ctx.var_type) continue;
        for (Type u : map_results()) lambda_rule(Production::Map, {s, u}, array_of(u));
        lambda_rule(Production::Filter, {s, Type::Bool}, s);
      }
    }
    // Rules by context and result type, in rule order.
    by_result_.assign(contexts_.size(), std::vector<std::vector<u32>>(types_.size()));
    for (u32 c = 0; c < contexts_.size(); ++c)
      for (u32 r = 0; r < rules_.size(); ++r)
        if (rules_[r].context == kAnyContext || rules_[r].context == c)
          by_result_[c][index_of_type(rules_[r].result)].push_back(r);
  }

  // A lambda's body enumerates scalar types only (its probe returns an array of them); the
  // array parameters and constants are banked in it at size 1 as they are, so that `xs[i]` and
  // `len(xs)` can be built.
  void bank_array_leaves() {
    for (u32 c = 1; c < contexts_.size(); ++c)
      for (u32 l = 0; l < leaves_.size(); ++l)
        if (is_array(leaves_[l].type) && rules_[l].context == kAnyContext) bank({l, {kNone, kNone, kNone}}, c, index_of_type(leaves_[l].type), 1);
  }

  // Banks an expression; its id.
  u32 bank(const Node& node, u32 context, u32 type, u32 size) {
    const u32 id = u32(entries_.size());
    bool variable = rules_[node.rule].context == context && context != 0;  // the variable itself
    for (u32 c : node.child) variable = variable || (c != kNone && entries_[c].context == context && entries_[c].variable);
    entries_.push_back({node, types_[type], context, variable});
    auto& by_size = bank_[context][type];
    if (by_size.size() <= size) by_size.resize(size + 1);
    by_size[size].push_back(id);
    return id;
  }

  // ---- goals -----------------------------------------------------------------------------

  // The prefix and suffix all train outputs of each string result share (others: none).
  void make_affixes(const suites::Problem& problem) {
    for (u32 r = 0; r < signature_.results.size(); ++r) {
      std::vector<std::string> texts;
      if (signature_.results[r] == Type::Str)
        for (const suites::Case& c : problem.train) texts.push_back(c.outputs[r].s);
      const std::string prefix = common_affix(texts, false);
      for (std::string& t : texts) t.erase(0, prefix.size());
      affixes_.push_back({prefix, common_affix(texts, true)});
    }
  }

  // One goal per result, its outputs as they are (for a single result, `whole`: met only case by
  // case); for a string result whose train outputs share a prefix or suffix, one without them
  // too; for a string result whose outputs, less the affixes, are single characters or decimal
  // integers, an int goal under chr() or str().
  void make_goals(const suites::Problem& problem) {
    const std::vector<Type>& results = signature_.results;
    met_.assign(results.size(), std::nullopt);
    cases_ = u32(problem.train.size());
    const auto add = [&](u32 r, Type type, std::string prefix, std::string suffix, const char* convert,
                         const std::vector<vm::Value>& outputs) {
      if (index_of_type(type) == kNone) return;
      Goal goal;
      goal.result = r;
      goal.type = type;
      goal.prefix = std::move(prefix);
      goal.suffix = std::move(suffix);
      goal.convert = convert;
      for (const vm::Value& v : outputs) goal.outputs.push_back(pipeline::output_hash(std::span<const vm::Value>(&v, 1)));
      goal.behaviour = behaviour_of(goal.outputs);
      goal.whole = results.size() == 1 && goal.prefix.empty() && goal.suffix.empty() && !convert;
      goals_.push_back(std::move(goal));
    };
    for (u32 r = 0; r < results.size(); ++r) {
      std::vector<vm::Value> outputs;
      for (const suites::Case& c : problem.train) outputs.push_back(c.outputs[r]);
      add(r, results[r], "", "", nullptr, outputs);
      if (results[r] != Type::Str) continue;
      const auto& [prefix, suffix] = affixes_[r];
      std::vector<vm::Value> rest, chars, ints;
      for (const vm::Value& v : outputs) {
        const std::string t = v.s.substr(prefix.size(), v.s.size() - prefix.size() - suffix.size());
        rest.push_back(vm::Value::of_str(t));
        if (t.size() == 1) chars.push_back(vm::Value::of_int(u8(t[0])));
        if (std::optional<i64> v = decimal(t)) ints.push_back(vm::Value::of_int(*v));
      }
      if (!prefix.empty() || !suffix.empty()) add(r, Type::Str, prefix, suffix, nullptr, rest);
      if (chars.size() == outputs.size()) add(r, Type::Int, prefix, suffix, "chr", chars);
      if (ints.size() == outputs.size()) add(r, Type::Int, prefix, suffix, "str", ints);
    }
    // Within a size, the entry's context enumerates the goals' types first.
    std::vector<u32>& order = contexts_[0].types;
    std::stable_partition(order.begin(), order.end(), [&](u32 t) {
      return std::any_of(goals_.begin(), goals_.end(), [&](const Goal& g) { return !g.whole && g.type == types_[t]; });
    });
    const vm::Value yes = vm::Value::of_bool(true);
    true_hash_ = pipeline::output_hash(std::span<const vm::Value>(&yes, 1));
  }

  // A newly banked expression of the entry's context with these outputs (behaviour; by case,
  // where known): the goals it meets, the case splits it is a term or condition of, and once
  // every result has its goal met, the assembled candidate.
  void reached(u32 id, u64 behaviour, std::span<const u64> outputs) {
    if (goals_.empty() || entries_[id].context != 0) return;
    const Type type = entries_[id].type;
    bool met = false;
    for (u32 g = 0; g < goals_.size(); ++g) {
      Goal& goal = goals_[g];
      if (goal.type != type || met_[goal.result]) continue;
      if (goal.behaviour == behaviour) {
        if (goal.whole) continue;  // the candidate itself
        met_[goal.result] = Met{g, {{}, id}};
        met = true;
      } else if (settings_.splits && outputs.size() == cases_ && goal.terms.size() < kMaxTerms) {
        add_term(&goal, id, outputs);
      }
    }
    if (settings_.splits && type == Type::Bool && outputs.size() == cases_) {
      CaseMask holds = case_mask(cases_);
      for (u32 k = 0; k < cases_; ++k)
        if (outputs[k] == true_hash_) add_case(&holds, k);
      predicates_.push_back(id);
      predicate_cases_.push_back(std::move(holds));
    }
    if (met) assemble();
  }

  // An expression right on some of the goal's cases as a term of its case split, unless a term
  // is right on all of those (terms it is right on more than replace them).
  void add_term(Goal* goal, u32 id, std::span<const u64> outputs) {
    CaseMask right = case_mask(cases_);
    bool any = false;
    for (u32 k = 0; k < cases_; ++k)
      if (outputs[k] == goal->outputs[k]) {
        add_case(&right, k);
        any = true;
      }
    if (!any) return;
    for (const CaseMask& t : goal->term_cases)
      if (is_subset(right, t)) return;
    for (u32 j = u32(goal->terms.size()); j-- > 0;)
      if (is_subset(goal->term_cases[j], right)) {
        goal->terms.erase(goal->terms.begin() + j);
        goal->term_cases.erase(goal->term_cases.begin() + j);
      }
    goal->terms.push_back(id);
    goal->term_cases.push_back(std::move(right));
    terms_changed_ = true;
  }

  // Each branch of a case split, and the rest, must hold 5 % of the train cases and at least 5:
  // no branch for a stray case, and fewer than 10 cases do not split (a decision list would fit
  // them by chance).
  static u32 split_min_cases(u32 cases) { return std::max<u32>(5, cases / 20); }

  // Tries the case splits of the goals not met, when there are new terms or an eighth more
  // conditions than at the last try (a try costs terms × conditions).
  void split_goals() {
    if (!settings_.splits) return;
    if (!terms_changed_ && predicates_.size() < next_split_) return;
    terms_changed_ = false;
    next_split_ = predicates_.size() + predicates_.size() / 8 + 1;
    const SplitLimits limits{4, split_min_cases(cases_)};
    bool met = false;
    for (u32 g = 0; g < goals_.size(); ++g) {
      const Goal& goal = goals_[g];
      if (met_[goal.result] || goal.terms.size() < 2) continue;
      std::optional<DecisionList> list = split_cases(cases_, goal.term_cases, predicate_cases_, limits);
      if (!list) continue;
      for (Branch& b : list->branches) {
        b.predicate = predicates_[b.predicate];
        b.term = goal.terms[b.term];
      }
      list->otherwise = goal.terms[list->otherwise];
      met_[goal.result] = Met{g, std::move(*list)};
      met = true;
    }
    if (met) assemble();
  }

  // Once every result has its goal met: the program that returns them, a candidate to propose.
  void assemble() {
    if (std::find(met_.begin(), met_.end(), std::nullopt) != met_.end()) return;
    Helpers h;
    std::vector<trees::Expr> parts;
    for (const std::optional<Met>& m : met_) {
      const Goal& goal = goals_[m->goal];
      trees::Expr e = expr_of(entries_[m->list.otherwise].node, &h);
      for (size_t j = m->list.branches.size(); j-- > 0;) {
        const Branch& b = m->list.branches[j];
        trees::Expr term = expr_of(entries_[b.term].node, &h);
        std::vector<trees::Expr> args;
        args.push_back(expr_of(entries_[b.predicate].node, &h));
        args.push_back(b.when ? std::move(term) : std::move(e));
        args.push_back(b.when ? std::move(e) : std::move(term));
        e = choose_call(std::move(args), &h);
      }
      if (goal.convert) e = trees::Expr::call(goal.convert, Type::Str, {std::move(e)});
      if (!goal.prefix.empty()) e = trees::Expr::binary(trees::BinaryOp::Add, trees::Expr::str_lit(goal.prefix), std::move(e));
      if (!goal.suffix.empty()) e = trees::Expr::binary(trees::BinaryOp::Add, std::move(e), trees::Expr::str_lit(goal.suffix));
      parts.push_back(std::move(e));
    }
    assembled_.push_back(program_with(std::move(parts), std::move(h)));
  }

  static u64 source_hash(const std::string& source) {
    return fnv1a64(reinterpret_cast<const u8*>(source.data()), source.size());
  }

  // A lambda body's probe over one source is the program that maps the body over it:
  // map_1(xs, xs) is both. Such a program of the entry's context is not proposed again but
  // banked (or not) by the probe's outputs.
  bool banked_as_probe(const Node& node, const std::string& source) {
    if (!has_lambda(rules_[node.rule])) return false;
    const auto it = probed_.find(source_hash(source));
    if (it == probed_.end()) return false;
    if (it->second && seen_[0][type_index()].insert(*it->second).second) reached(bank(node, 0, type_index(), size_), *it->second, {});
    return true;
  }

  // ---- the cursor ------------------------------------------------------------------------

  const std::vector<u32>& banked(u32 context, Type t, u32 size) const {
    static const std::vector<u32> none;
    const auto& by_size = bank_[context][index_of_type(t)];
    return size < by_size.size() ? by_size[size] : none;
  }

  u32 type_index() const { return contexts_[context_].types[type_]; }

  void advance_type() {
    rule_ = 0;
    parts_valid_ = false;
    if (++type_ < contexts_[context_].types.size()) return;
    type_ = 0;
    if (++context_ < contexts_.size()) return;
    context_ = 0;
    ++size_;
  }

  // xs[i] where that is a leaf of the context.
  bool is_index_leaf(const Node& n) const {
    const Context& ctx = contexts_[context_];
    const Node& seq = entries_[n.child[0]].node;
    return ctx.indexed && seq.child[0] == kNone && seq.rule < signature_.params.size() &&
           entries_[n.child[1]].node.rule == ctx.variable;
  }

  static bool has_lambda(const Rule& r) {
    return r.kind == Production::Map || r.kind == Production::MapRange || r.kind == Production::Filter;
  }

  // The next expression of type type_index() and size size_ in context_; false when there is
  // none left.
  bool next(Node* node) {
    const std::vector<u32>& rules = by_result_[context_][type_index()];
    while (rule_ < rules.size()) {
      const Rule& r = rules_[rules[rule_]];
      const u32 k = u32(r.args.size());
      if (r.kind == Production::Leaf) {
        ++rule_;
        if (size_ != 1) continue;
        node->rule = rules[rule_ - 1];
        node->child = {kNone, kNone, kNone};
        return true;
      }
      // A lambda costs its operands' sizes only: map(xs, f(x)) is as large as xs and f(x).
      const bool lambda = has_lambda(r);
      if (!parts_valid_) {
        if (!first_parts(size_ - (lambda ? 0 : 1), k, &parts_)) {
          ++rule_;
          continue;
        }
        parts_valid_ = true;
        at_ = {0, 0, 0};
      }
      // The operand lists of this split; an empty one means no tuples.
      std::array<const std::vector<u32>*, 3> lists{};
      bool empty = false;
      for (u32 j = 0; j < k; ++j) {
        lists[j] = &banked(j == 1 && lambda ? r.body : context_, r.args[j], parts_[j]);
        empty = empty || lists[j]->empty();
      }
      // Commutative rules take operands in id order only (ids grow with size).
      if (!empty && r.commutative && parts_[0] > parts_[1]) empty = true;
      if (empty || at_[0] >= lists[0]->size()) {
        at_ = {0, 0, 0};
        if (!next_parts(k, &parts_)) {
          ++rule_;
          parts_valid_ = false;
        }
        continue;
      }
      node->rule = rules[rule_];
      node->child = {kNone, kNone, kNone};
      for (u32 j = 0; j < k; ++j) node->child[j] = (*lists[j])[at_[j]];
      // Odometer: the last operand turns fastest.
      for (i32 j = i32(k) - 1; j >= 0; --j) {
        if (++at_[j] < lists[j]->size() || j == 0) break;
        at_[j] = 0;
      }
      if (r.commutative && node->child[0] > node->child[1]) continue;
      if (lambda && !entries_[node->child[1]].variable) continue;  // a body without x: array(len(xs), c)
      if (r.kind == Production::Index && is_index_leaf(*node)) continue;
      return true;
    }
    return false;
  }

  // ---- programs --------------------------------------------------------------------------

  // What a program being written needs besides its entry: the choose helpers its expressions
  // call (by type) and the lambdas' helper functions.
  struct Helpers {
    std::vector<Type> chosen;
    std::vector<trees::Function> functions;
  };

  std::vector<trees::Expr> parameter_names() const {
    std::vector<trees::Expr> out;
    for (u32 i = 0; i < signature_.params.size(); ++i) out.push_back(trees::Expr::name(signature_.param_names[i], signature_.params[i]));
    return out;
  }

  static trees::Expr zero_of(Type t) {
    switch (t) {
      case Type::Int: return trees::Expr::int_lit(0);
      case Type::Float: return trees::Expr::float_lit(0.0);
      case Type::Str: return trees::Expr::str_lit("");
      default: return trees::Expr::bool_lit(false);
    }
  }

  // A lambda written out as a helper function that takes the sequence (a range: its length)
  // and the entry's parameters, added to h; the call of it on `over`.
  //   map:    fn map_k(s_: S, …) -> [U] { let r_ = array(len(s_), 0);
  //                                       for j_ in 0..len(s_) { let x = s_[j_]; r_[j_] = body; } return r_; }
  //   range:  fn map_k(n_: int, …) -> [U] { let r_ = array(max(n_, 0), 0); for i in 0..n_ { r_[i] = body; } return r_; }
  //   filter: fn filter_k(s_: S, …) -> S { let r_: S = []; for x in s_ { if body { r_ = push(r_, x); } } return r_; }
  //           (a string: let r_ = ""; … r_ = r_ + chr(x);)
  trees::Expr lambda_call(Production kind, const Context& ctx, Type over_type, trees::Expr over, trees::Expr body, Helpers* h) const {
    const std::string& s = helper_names_[0];
    const std::string& n = helper_names_[1];
    const std::string& r = helper_names_[2];
    const std::string& j = helper_names_[3];
    const Type u = body.type;
    const Type result = kind == Production::Filter ? over_type : array_of(u);
    trees::Function f;
    f.name = std::string(kind == Production::Filter ? "filter_" : "map_") + std::to_string(h->functions.size() + 1);
    f.params.push_back({kind == Production::MapRange ? n : s, over_type});
    for (u32 i = 0; i < signature_.params.size(); ++i) f.params.push_back({signature_.param_names[i], signature_.params[i]});
    f.results = {result};
    const auto name = [](const std::string& v, Type t) { return trees::Expr::name(v, t); };
    if (kind == Production::Map) {
      trees::Expr length = trees::Expr::call("len", Type::Int, {name(s, over_type)});
      f.body.push_back(trees::Stmt::let(r, trees::Expr::call("array", result, {length, zero_of(u)})));
      trees::Block loop;
      loop.push_back(trees::Stmt::let(ctx.var, trees::Expr::index(name(s, over_type), name(j, Type::Int))));
      loop.push_back(trees::Stmt::element_assign(r, name(j, Type::Int), std::move(body)));
      f.body.push_back(trees::Stmt::for_range(j, trees::Expr::int_lit(0), std::move(length), std::move(loop)));
    } else if (kind == Production::MapRange) {
      trees::Expr count = trees::Expr::call("max", Type::Int, {name(n, Type::Int), trees::Expr::int_lit(0)});
      f.body.push_back(trees::Stmt::let(r, trees::Expr::call("array", result, {std::move(count), zero_of(u)})));
      trees::Block loop;
      loop.push_back(trees::Stmt::element_assign(r, name(ctx.var, Type::Int), std::move(body)));
      f.body.push_back(trees::Stmt::for_range(ctx.var, trees::Expr::int_lit(0), name(n, Type::Int), std::move(loop)));
    } else {
      const bool text = over_type == Type::Str;
      f.body.push_back(text ? trees::Stmt::let(r, trees::Expr::str_lit("")) : trees::Stmt::let(r, trees::Expr::array_lit(result, {}), result));
      trees::Expr kept = text ? trees::Expr::binary(trees::BinaryOp::Add, name(r, result), trees::Expr::call("chr", Type::Str, {name(ctx.var, ctx.var_type)}))
                       : trees::Expr::call("push", result, {name(r, result), name(ctx.var, ctx.var_type)});
      trees::Block keep;
      keep.push_back(trees::Stmt::assign(r, std::move(kept)));
      trees::Block loop;
      loop.push_back(trees::Stmt::if_chain({std::move(body)}, {std::move(keep)}));
      f.body.push_back(trees::Stmt::for_in(ctx.var, name(s, over_type), std::move(loop)));
    }
    f.body.push_back(trees::Stmt::ret({name(r, result)}));
    std::vector<trees::Expr> args{std::move(over)};
    for (trees::Expr& p : parameter_names()) args.push_back(std::move(p));
    trees::Expr call = trees::Expr::call(f.name, result, std::move(args));
    h->functions.push_back(std::move(f));
    return call;
  }

  // choose_T(c, a, b) for args {c, a, b}, its helper noted in h.
  static trees::Expr choose_call(std::vector<trees::Expr> args, Helpers* h) {
    const Type t = args[1].type;
    if (std::find(h->chosen.begin(), h->chosen.end(), t) == h->chosen.end()) h->chosen.push_back(t);
    return trees::Expr::call(choose_name(t), t, std::move(args));
  }

  trees::Expr expr_of(const Node& n, Helpers* h) const {
    const Rule& r = rules_[n.rule];
    if (r.kind == Production::Leaf) return leaves_[n.rule];
    std::vector<trees::Expr> args;
    for (u32 j = 0; j < r.args.size(); ++j) args.push_back(expr_of(entries_[n.child[j]].node, h));
    switch (r.kind) {
      case Production::Unary: return trees::Expr::unary(trees::UnaryOp(r.op), std::move(args[0]));
      case Production::Binary: return trees::Expr::binary(trees::BinaryOp(r.op), std::move(args[0]), std::move(args[1]));
      case Production::Index: return trees::Expr::index(std::move(args[0]), std::move(args[1]));
      case Production::Builtin: return trees::Expr::call(r.callee, r.result, std::move(args));
      case Production::Choose:
        return choose_call(std::move(args), h);
      case Production::Map:
      case Production::MapRange:
      case Production::Filter:
        return lambda_call(r.kind, contexts_[r.body], r.args[0], std::move(args[0]), std::move(args[1]), h);
      case Production::Leaf: break;
    }
    throw std::logic_error("enumeration: unknown production");
  }

  // fn <entry>(<params>) -> T { return e; } (several results: -> (T, U) { return e, f; }) and
  // the helpers the expressions call.
  trees::Tree program_with(std::vector<trees::Expr> results, Helpers h) const {
    trees::Tree p;
    trees::Function entry;
    entry.name = signature_.entry;
    for (u32 i = 0; i < signature_.params.size(); ++i) entry.params.push_back({signature_.param_names[i], signature_.params[i]});
    for (const trees::Expr& e : results) entry.results.push_back(e.type);
    entry.body.push_back(trees::Stmt::ret(std::move(results)));
    p.functions.push_back(std::move(entry));
    for (trees::Function& f : h.functions) p.functions.push_back(std::move(f));
    for (Type t : h.chosen) {
      // fn choose_T(c: bool, a: T, b: T) -> T { if c { return a; } return b; }
      trees::Function f;
      f.name = choose_name(t);
      f.params = {{"c", Type::Bool}, {"a", t}, {"b", t}};
      f.results = {t};
      trees::Block then;
      then.push_back(trees::Stmt::ret({trees::Expr::name("a", t)}));
      f.body.push_back(trees::Stmt::if_chain({trees::Expr::name("c", Type::Bool)}, {std::move(then)}));
      f.body.push_back(trees::Stmt::ret({trees::Expr::name("b", t)}));
      p.functions.push_back(std::move(f));
    }
    return p;
  }

  trees::Tree program_of(const Node& n) const {
    Helpers h;
    std::vector<trees::Expr> e;
    e.push_back(expr_of(n, &h));
    return program_with(std::move(e), std::move(h));
  }

  // A lambda body's probe: the body mapped over each source of its context's values, the maps
  // concatenated — map_1(xs, …) + map_2(ys, …), or map_1(len(xs), …) + …, map_1(min(n, 64), …).
  trees::Tree probe_of(const Node& n) const {
    const Context& ctx = contexts_[context_];
    Helpers h;
    std::optional<trees::Expr> all;
    for (u32 p : ctx.sources) {
      const Type t = signature_.params[p];
      trees::Expr param = trees::Expr::name(signature_.param_names[p], t);
      trees::Expr over = !ctx.range ? std::move(param)
                  : t == Type::Int ? trees::Expr::call("min", Type::Int, {std::move(param), trees::Expr::int_lit(kRangeProbe)})
                                   : trees::Expr::call("len", Type::Int, {std::move(param)});
      trees::Expr body = expr_of(n, &h);
      trees::Expr mapped = lambda_call(ctx.range ? Production::MapRange : Production::Map, ctx, ctx.range ? Type::Int : t,
                                std::move(over), std::move(body), &h);
      all = all ? trees::Expr::binary(trees::BinaryOp::Add, std::move(*all), std::move(mapped)) : std::move(mapped);
    }
    std::vector<trees::Expr> e;
    e.push_back(std::move(*all));
    return program_with(std::move(e), std::move(h));
  }

  suites::Signature signature_;
  EnumerateSettings settings_;
  Type result_ = Type::Unit;
  std::vector<Type> types_;
  std::array<u32, 256> type_index_{};
  std::vector<trees::Expr> leaves_;
  std::vector<Rule> rules_;  // leaves first: rule i < leaves_.size() is leaves_[i]
  std::vector<Context> contexts_;
  std::vector<std::string> names_;         // names fresh() gave out
  std::vector<std::string> helper_names_;  // the lambda helpers' sequence, count, result and index names
  std::vector<std::vector<std::vector<u32>>> by_result_;  // context → type index → rules

  std::vector<Entry> entries_;                                  // the bank, by id
  std::vector<std::vector<std::vector<std::vector<u32>>>> bank_;  // context → type index → size → ids
  std::vector<std::vector<std::unordered_set<u64>>> seen_;      // context → type index → behaviours banked
  std::unordered_map<u64, std::optional<u64>> probed_;          // a lambda probe's source hash → its behaviour (none: it trapped)
  std::vector<std::pair<std::string, std::string>> affixes_;  // by result: the prefix and suffix of its outputs
  std::vector<Goal> goals_;
  std::vector<std::optional<Met>> met_;  // by result: how its goal was met, if it was
  u32 cases_ = 0;                          // train cases
  u64 true_hash_ = 0;                      // the output hash of `true`
  std::vector<u32> predicates_;            // the entry's bool expressions, conditions of case splits
  std::vector<CaseMask> predicate_cases_;   // … and the cases each holds on
  bool terms_changed_ = false;             // since split_goals() last tried
  size_t next_split_ = 1;                  // … and the conditions it waits for otherwise
  std::vector<trees::Tree> assembled_;    // candidates to propose next

  // Cursor: size, context, type (index into contexts_[context_].types), rule (index into
  // by_result_[context_][type_index()]), operand split, operand positions.
  u32 size_ = 1, context_ = 0, type_ = 0, rule_ = 0;
  bool parts_valid_ = false;
  std::array<u32, 3> parts_{}, at_{};
  // The batch proposed last: its context, type and size, and nodes.
  u32 batch_context_ = 0, batch_type_ = kNone, batch_size_ = 0;
  std::vector<Node> pending_;
};

}  // namespace

std::unique_ptr<Generator> make_enumerate_generator(const suites::Problem& problem, EnumerateSettings settings) {
  return std::make_unique<EnumerateGenerator>(problem, settings);
}

}  // namespace gs::search
