// Bottom-up enumeration with observational equivalence as a generator (search/generator.h).
//
// The bank holds one expression per distinct behaviour: for each type and size, the
// expressions whose outputs on the train inputs differ from every expression banked before.
// Size s is built from banked expressions of smaller sizes only, one production (an operator,
// a builtin overload, an index, choose) at a time, its operands' sizes summing to s − 1. Each
// batch holds expressions of one type: those of the problem's result type are candidates, the
// others probes (Generator::probe_result) run with that result type so that their output
// hashes come back. observe() banks every expression that ran without a trap on every train
// input and whose output hashes are new for its type.
//
// Enumeration is lazy — a cursor walks productions × size splits × operand tuples — so a size
// with millions of combinations costs memory only for what was proposed.
#include <algorithm>
#include <array>
#include <stdexcept>
#include <unordered_set>

#include "search/generator.h"
#include "vm/batch.h"
#include "vm/hash.h"

namespace gs::search {

namespace {

enum class Production : u8 { Leaf, Unary, Binary, Builtin, Index, Choose };

struct Rule {
  Production kind;
  u8 op = 0;                    // UnaryOp / BinaryOp
  std::string callee;           // Builtin: the builtin's name
  std::vector<Type> args;       // operand types
  Type result = Type::Unit;
  bool commutative = false;     // operands of one type whose order does not matter
};

constexpr u32 kNone = ~0u;

// One expression: a rule over banked operands (Leaf: the leaf's index in leaves_).
struct Node {
  u32 rule = 0;
  std::array<u32, 3> child{kNone, kNone, kNone};
};

struct Entry {
  Node node;
  Type type;
};

// "choose_int", "choose_list_str": the helper function that makes choose() an expression.
std::string choose_name(Type t) {
  std::string s = "choose_";
  for (char c : type_source(t)) {
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
  EnumerateGenerator(const Problem& problem, EnumerateSettings settings)
      : signature_(problem.signature), settings_(settings) {
    if (signature_.results.size() != 1)
      throw std::invalid_argument(problem.path + ": enumeration needs a problem with one result, this one has " +
                                  std::to_string(signature_.results.size()));
    result_ = signature_.results[0];
    make_types();
    make_leaves(problem);
    make_rules();
    bank_.resize(types_.size());
    seen_.resize(types_.size());
  }

  GeneratorKind kind() const override { return GeneratorKind::Enumerate; }

  std::optional<Type> probe_result() const override {
    if (batch_type_ == kNone || types_[batch_type_] == result_) return std::nullopt;
    return types_[batch_type_];
  }

  std::vector<Proposal> propose(u32 count, u64) override {
    pending_.clear();
    std::vector<Proposal> out;
    while (out.empty()) {
      if (size_ > settings_.max_size) return out;  // the enumeration is finished
      Node node;
      while (out.size() < count && next(&node)) {
        Proposal p;
        p.tree = program_of(node);
        p.source = to_source(*p.tree);
        out.push_back(std::move(p));
        pending_.push_back(node);
      }
      batch_type_ = type_;
      batch_size_ = size_;
      if (out.size() < count) advance_type();  // this type's productions of this size are done
    }
    return out;
  }

  void observe(std::span<const Proposal>, const Evaluation& e) override {
    const u32 t = batch_type_;
    for (u32 i = 0; i < e.programs; ++i) {
      if (e.status[i] != u8(vm::ProgramStatus::OK)) continue;
      bool trapped = false;
      for (u32 k = 0; k < e.tests && !trapped; ++k) trapped = e.trap[u64(i) * e.tests + k] != 0;
      if (trapped) continue;
      const u64 behaviour =
          vm::fnv1a64(reinterpret_cast<const u8*>(e.output_hash.data() + u64(i) * e.tests), e.tests * sizeof(u64));
      if (!seen_[t].insert(behaviour).second) continue;
      const u32 id = u32(entries_.size());
      entries_.push_back({pending_[i], types_[t]});
      if (bank_[t].size() <= batch_size_) bank_[t].resize(batch_size_ + 1);
      bank_[t][batch_size_].push_back(id);
    }
  }

 private:
  // ---- the grammar -----------------------------------------------------------------------

  void add_type(Type t) {
    if (std::find(types_.begin(), types_.end(), t) == types_.end()) types_.push_back(t);
  }
  // The result type first (within a size, candidates go before probes), then int and bool, the
  // parameters' types and their elements, and [str] with str (split).
  void make_types() {
    add_type(result_);
    if (is_array(result_)) add_type(element_of(result_));
    add_type(Type::Int);
    add_type(Type::Bool);
    std::vector<Type> named = signature_.params;
    named.push_back(result_);
    for (Type t : named) {
      if (is_array(t)) add_type(element_of(t));
      add_type(t);
    }
    const auto has = [&](Type t) { return std::find(types_.begin(), types_.end(), t) != types_.end(); };
    if (has(Type::Str)) add_type(array_of(Type::Str));
    type_index_.fill(kNone);
    for (u32 i = 0; i < types_.size(); ++i) type_index_[u8(types_[i])] = i;
  }
  u32 index_of_type(Type t) const { return type_index_[u8(t)]; }

  // Parameters, small constants of the scalar types (not -1: that is -(1); no `[]`, whose type
  // Syn cannot infer where it stands alone), and the string outputs that recur in the train
  // cases (a problem that answers "small" or "large" needs those words).
  void make_leaves(const Problem& problem) {
    for (u32 i = 0; i < signature_.params.size(); ++i)
      leaves_.push_back(Expr::name(signature_.param_names[i], signature_.params[i]));
    for (i64 v : {0, 1, 2, 10}) leaves_.push_back(Expr::int_lit(v));
    leaves_.push_back(Expr::bool_lit(true));
    leaves_.push_back(Expr::bool_lit(false));
    if (index_of_type(Type::Float) != kNone)
      for (double v : {0.0, 1.0, 0.5}) leaves_.push_back(Expr::float_lit(v));
    if (index_of_type(Type::Str) != kNone) {
      std::vector<std::string> strings{"", " "};
      std::vector<std::pair<std::string, u32>> counts;
      for (const Case& c : problem.train)
        for (const vm::Value& v : c.outputs) {
          if (v.type != Type::Str || v.s.size() > 40) continue;
          auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& p) { return p.first == v.s; });
          if (it == counts.end()) counts.push_back({v.s, 1});
          else ++it->second;
        }
      const u32 recurring = std::max<u32>(2, u32(problem.train.size() / 20));
      for (const auto& [text, n] : counts)
        if (n >= recurring && strings.size() < 8 && std::find(strings.begin(), strings.end(), text) == strings.end())
          strings.push_back(text);
      for (const std::string& s : strings) leaves_.push_back(Expr::str_lit(s));
    }
    for (u32 i = 0; i < leaves_.size(); ++i) rules_.push_back({Production::Leaf, 0, {}, {}, leaves_[i].type, false});
  }

  void add_rule(Rule r) {
    if (index_of_type(r.result) == kNone) return;
    for (Type a : r.args)
      if (index_of_type(a) == kNone) return;
    rules_.push_back(std::move(r));
  }

  void make_rules() {
    for (Type t : {Type::Int, Type::Float}) add_rule({Production::Unary, u8(UnaryOp::Neg), {}, {t}, t, false});
    add_rule({Production::Unary, u8(UnaryOp::Not), {}, {Type::Bool}, Type::Bool, false});
    for (Type t : types_) {
      const bool number = t == Type::Int || t == Type::Float;
      if (number || t == Type::Str || is_array(t))
        add_rule({Production::Binary, u8(BinaryOp::Add), {}, {t, t}, t, number});
      if (number) {
        add_rule({Production::Binary, u8(BinaryOp::Sub), {}, {t, t}, t, false});
        add_rule({Production::Binary, u8(BinaryOp::Mul), {}, {t, t}, t, true});
        add_rule({Production::Binary, u8(BinaryOp::Div), {}, {t, t}, t, false});
        add_rule({Production::Binary, u8(BinaryOp::Mod), {}, {t, t}, t, false});
      }
      if (number || t == Type::Str)
        for (BinaryOp op : {BinaryOp::Lt, BinaryOp::Le})  // > and >= are these with the operands swapped
          add_rule({Production::Binary, u8(op), {}, {t, t}, Type::Bool, false});
      add_rule({Production::Binary, u8(BinaryOp::Eq), {}, {t, t}, Type::Bool, true});
      if (t != Type::Bool) add_rule({Production::Binary, u8(BinaryOp::Ne), {}, {t, t}, Type::Bool, true});
      if (is_array(t)) add_rule({Production::Index, 0, {}, {t, Type::Int}, element_of(t), false});
      if (t == Type::Str) add_rule({Production::Index, 0, {}, {t, Type::Int}, Type::Int, false});
    }
    for (BinaryOp op : {BinaryOp::And, BinaryOp::Or})
      add_rule({Production::Binary, u8(op), {}, {Type::Bool, Type::Bool}, Type::Bool, true});
    // Every builtin overload, found by trying the bank's types as arguments.
    std::vector<std::pair<std::string, u32>> builtins;
    for (u32 b = 0; b < kBuiltinCount; ++b) {
      const std::string signature = builtin_signature(Builtin(b));
      const u32 arity = u32(std::count(signature.begin(), signature.end(), ',')) + 1;
      std::pair<std::string, u32> key{builtin_name(Builtin(b)), arity};
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
        if (!resolve_builtin(name, args, &result)) continue;
        // Conversions of a type to itself are the identity.
        if (arity == 1 && args[0] == result && (name == "int" || name == "float" || name == "str")) continue;
        const bool commutative = arity == 2 && args[0] == args[1] && (name == "min" || name == "max");
        add_rule({Production::Builtin, 0, name, args, result, commutative});
      }
    }
    if (settings_.choose)
      for (Type t : types_) add_rule({Production::Choose, 0, {}, {Type::Bool, t, t}, t, false});
    // Rules by result type, in rule order.
    by_result_.resize(types_.size());
    for (u32 r = 0; r < rules_.size(); ++r) by_result_[index_of_type(rules_[r].result)].push_back(r);
  }

  // ---- the cursor ------------------------------------------------------------------------

  const std::vector<u32>& banked(Type t, u32 size) const {
    static const std::vector<u32> none;
    const auto& by_size = bank_[index_of_type(t)];
    return size < by_size.size() ? by_size[size] : none;
  }

  void advance_type() {
    rule_ = 0;
    parts_valid_ = false;
    if (++type_ < types_.size()) return;
    type_ = 0;
    ++size_;
  }

  // The next expression of type types_[type_] and size size_; false when there is none left.
  bool next(Node* node) {
    const std::vector<u32>& rules = by_result_[type_];
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
      if (!parts_valid_) {
        if (!first_parts(size_ - 1, k, &parts_)) {
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
        lists[j] = &banked(r.args[j], parts_[j]);
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
      return true;
    }
    return false;
  }

  // ---- programs --------------------------------------------------------------------------

  Expr expr_of(const Node& n, std::vector<Type>* chosen) const {
    const Rule& r = rules_[n.rule];
    if (r.kind == Production::Leaf) return leaves_[n.rule];
    std::vector<Expr> args;
    for (u32 j = 0; j < r.args.size(); ++j) args.push_back(expr_of(entries_[n.child[j]].node, chosen));
    switch (r.kind) {
      case Production::Unary: return Expr::unary(UnaryOp(r.op), std::move(args[0]));
      case Production::Binary: return Expr::binary(BinaryOp(r.op), std::move(args[0]), std::move(args[1]));
      case Production::Index: return Expr::index(std::move(args[0]), std::move(args[1]));
      case Production::Builtin: return Expr::call(r.callee, r.result, std::move(args));
      case Production::Choose:
        if (std::find(chosen->begin(), chosen->end(), r.result) == chosen->end()) chosen->push_back(r.result);
        return Expr::call(choose_name(r.result), r.result, std::move(args));
      case Production::Leaf: break;
    }
    throw std::logic_error("enumeration: unknown production");
  }

  // fn <entry>(<params>) -> T { return e; } and the choose helpers e calls.
  Program program_of(const Node& n) const {
    std::vector<Type> chosen;
    Expr e = expr_of(n, &chosen);
    Program p;
    Function entry;
    entry.name = signature_.entry;
    for (u32 i = 0; i < signature_.params.size(); ++i) entry.params.push_back({signature_.param_names[i], signature_.params[i]});
    entry.results = {e.type};
    entry.body.push_back(Stmt::ret({std::move(e)}));
    p.functions.push_back(std::move(entry));
    for (Type t : chosen) {
      // fn choose_T(c: bool, a: T, b: T) -> T { if c { return a; } return b; }
      Function f;
      f.name = choose_name(t);
      f.params = {{"c", Type::Bool}, {"a", t}, {"b", t}};
      f.results = {t};
      Block then;
      then.push_back(Stmt::ret({Expr::name("a", t)}));
      f.body.push_back(Stmt::if_chain({Expr::name("c", Type::Bool)}, {std::move(then)}));
      f.body.push_back(Stmt::ret({Expr::name("b", t)}));
      p.functions.push_back(std::move(f));
    }
    return p;
  }

  Signature signature_;
  EnumerateSettings settings_;
  Type result_ = Type::Unit;
  std::vector<Type> types_;
  std::array<u32, 256> type_index_{};
  std::vector<Expr> leaves_;
  std::vector<Rule> rules_;  // leaves first: rule i < leaves_.size() is leaves_[i]
  std::vector<std::vector<u32>> by_result_;  // type index → rules

  std::vector<Entry> entries_;                           // the bank, by id
  std::vector<std::vector<std::vector<u32>>> bank_;      // type index → size → ids
  std::vector<std::unordered_set<u64>> seen_;            // type index → behaviours banked

  // Cursor: size, type, rule (index into by_result_[type_]), operand split, operand positions.
  u32 size_ = 1, type_ = 0, rule_ = 0;
  bool parts_valid_ = false;
  std::array<u32, 3> parts_{}, at_{};
  // The batch proposed last: its type, size and nodes.
  u32 batch_type_ = kNone, batch_size_ = 0;
  std::vector<Node> pending_;
};

}  // namespace

std::unique_ptr<Generator> make_enumerate_generator(const Problem& problem, EnumerateSettings settings) {
  return std::make_unique<EnumerateGenerator>(problem, settings);
}

}  // namespace gs::search
