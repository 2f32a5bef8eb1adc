#include "tests/reference/evaluator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>

namespace gs::reference {

using trees::BinaryOp;
using trees::Block;
using trees::Builtin;
using trees::Expr;
using trees::ExprKind;
using trees::Function;
using trees::Stmt;
using trees::StmtKind;
using trees::UnaryOp;
using vm::Trap;
using vm::Value;

u32 type_slot(Type t) {
  if (is_array(t)) return 3 + u32(element_of(t));  // Int = 1 .. Str = 4
  return u32(t) - 1;
}

Type slot_type(u32 slot) { return slot < 4 ? Type(slot + 1) : array_of(Type(slot - 3)); }

// ---- scalar semantics (docs/language.md §5) ---------------------------------------------------

namespace {

i64 wrap_add(i64 a, i64 b) { return i64(u64(a) + u64(b)); }
i64 wrap_sub(i64 a, i64 b) { return i64(u64(a) - u64(b)); }
i64 wrap_mul(i64 a, i64 b) { return i64(u64(a) * u64(b)); }
constexpr i64 kMin = INT64_MIN;

// Strings compare bytes as unsigned, a prefix first.
int compare_bytes(const std::string& a, const std::string& b) {
  size_t n = std::min(a.size(), b.size());
  for (size_t k = 0; k < n; ++k) {
    unsigned char x = static_cast<unsigned char>(a[k]), y = static_cast<unsigned char>(b[k]);
    if (x != y) return x < y ? -1 : 1;
  }
  if (a.size() == b.size()) return 0;
  return a.size() < b.size() ? -1 : 1;
}

// `==` of the language: IEEE for floats, element by element for arrays.
bool equal_values(const Value& a, const Value& b) {
  switch (a.type) {
    case Type::Int:
    case Type::Bool: return a.i == b.i;
    case Type::Float: return a.f == b.f;
    case Type::Str: return a.s == b.s;
    default: break;
  }
  if (a.items.size() != b.items.size()) return false;
  for (size_t k = 0; k < a.items.size(); ++k)
    if (!equal_values(a.items[k], b.items[k])) return false;
  return true;
}

// Byte offset of the first occurrence of t in s at or after from, or npos.
size_t find_bytes(const std::string& s, const std::string& t, size_t from) {
  if (t.empty()) return from <= s.size() ? from : std::string::npos;
  for (size_t k = from; k + t.size() <= s.size(); ++k) {
    size_t j = 0;
    while (j < t.size() && s[k + j] == t[j]) ++j;
    if (j == t.size()) return k;
  }
  return std::string::npos;
}

bool is_space_byte(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

i64 int_of_float(double x) {
  if (std::isnan(x)) return 0;
  if (x >= 9223372036854775808.0) return INT64_MAX;
  if (x <= -9223372036854775808.0) return kMin;
  return i64(x);  // truncates toward zero
}

std::string six_digits_trimmed(u64 fraction) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%06llu", static_cast<unsigned long long>(fraction));
  std::string s(buf);
  while (s.size() > 1 && s.back() == '0') s.pop_back();
  return s;
}

struct TrapSignal {
  Trap trap;
};

}  // namespace

std::string format_float(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  std::string sign = x < 0 ? "-" : "";
  double m = std::fabs(x);
  if (m < 1e12) {
    u64 q = u64(std::round(m * 1e6));
    return sign + std::to_string(q / 1000000) + "." + six_digits_trimmed(q % 1000000);
  }
  int e = 12;
  m = m / 1e12;
  while (m >= 10) {
    m = m / 10;
    e = e + 1;
  }
  u64 q = u64(std::round(m * 1e6));
  if (q == 10000000) {
    q = 1000000;
    e = e + 1;
  }
  return sign + std::to_string(q / 1000000) + "." + six_digits_trimmed(q % 1000000) + "e" + std::to_string(e);
}

// ---- the evaluator ---------------------------------------------------------------------------

namespace {

enum class Flow { Normal, Break, Continue, Return };

struct Frame {
  std::vector<std::pair<const std::string*, Value>> vars;  // innermost last
  std::vector<size_t> scopes;                              // vars.size() at each block's start
};

class Evaluator {
 public:
  Evaluator(const trees::Tree& p, const Options& o) : program_(p), options_(o), coverage_(o.coverage) {}

  Outcome run(std::string_view entry, std::span<const Value> args) {
    Outcome out;
    const Function* f = program_.find(entry);
    if (f == nullptr) throw std::invalid_argument("no function named " + std::string(entry));
    try {
      depth_ = 1;
      out.results = call(*f, std::vector<Value>(args.begin(), args.end()));
    } catch (const TrapSignal& t) {
      out.trap = t.trap;
      out.results.clear();
      if (coverage_) coverage_->traps[u32(t.trap)]++;
    }
    out.steps = steps_;
    return out;
  }

 private:
  [[noreturn]] static void trap(Trap t) { throw TrapSignal{t}; }

  void charge(u64 n) {
    steps_ += n;
    if (steps_ > options_.max_steps) trap(Trap::OUT_OF_FUEL);
  }

  // A naive substring search compares up to |s| * |t| bytes; charging that keeps the step count
  // an upper bound of the work a backend may count as fuel.
  void charge_search(const std::string& s, const std::string& t) {
    charge(u64(s.size() + 1) * std::max<u64>(t.size(), 1));
  }

  // ---- variables ----

  Value& lookup(const std::string& name) {
    for (size_t k = frame_->vars.size(); k-- > 0;)
      if (*frame_->vars[k].first == name) return frame_->vars[k].second;
    throw std::logic_error("reference: unknown variable " + name);
  }
  void declare(const std::string& name, Value v) {
    if (coverage_) note_declaration(name);
    frame_->vars.emplace_back(&name, std::move(v));
  }
  void note_declaration(const std::string& name) {
    for (const auto& var : frame_->vars) coverage_->shadowing += *var.first == name;
    coverage_->builtin_named_variable += trees::is_builtin_name(name);
  }
  void open_scope() { frame_->scopes.push_back(frame_->vars.size()); }
  void close_scope() {
    frame_->vars.resize(frame_->scopes.back());
    frame_->scopes.pop_back();
  }

  // ---- calls ----

  std::vector<Value> call(const Function& f, std::vector<Value> args) {
    Frame frame;
    Frame* caller = frame_;
    frame_ = &frame;
    open_scope();
    for (size_t k = 0; k < f.params.size(); ++k) declare(f.params[k].name, std::move(args[k]));
    Flow flow = exec_statements(f.body);
    frame_ = caller;
    if (flow == Flow::Return) return std::move(returned_);
    return {};  // a function without results ran off its end
  }

  std::vector<Value> eval_call(const Expr& e) {
    std::vector<Value> args;
    args.reserve(e.children.size());
    for (const Expr& a : e.children) args.push_back(eval(a));
    if (const Function* f = program_.find(e.text)) {  // a program's function hides a builtin
      if (coverage_) coverage_->builtin_hidden += trees::is_builtin_name(e.text);
      if (depth_ >= options_.max_call_depth) trap(Trap::CALL_DEPTH_EXCEEDED);
      ++depth_;
      std::vector<Value> results = call(*f, std::move(args));
      --depth_;
      return results;
    }
    std::vector<Type> types;
    for (const Expr& a : e.children) types.push_back(a.type);
    Type result;
    std::optional<Builtin> b = trees::resolve_builtin(e.text, types, &result);
    if (!b) throw std::logic_error("reference: no builtin " + e.text + " for these arguments");
    if (coverage_) coverage_->builtins[u32(*b)]++;
    std::vector<Value> out;
    out.push_back(builtin(*b, args, result));
    return out;
  }

  // ---- statements ----

  Flow exec_block(const Block& b) {
    open_scope();
    Flow flow = exec_statements(b);
    close_scope();
    return flow;
  }

  Flow exec_statements(const Block& b) {
    for (const Stmt& s : b) {
      Flow flow = exec(s);
      if (flow != Flow::Normal) return flow;
    }
    return Flow::Normal;
  }

  Flow exec(const Stmt& s) {
    charge(1);
    if (coverage_) coverage_->statements[u32(s.kind)]++;
    switch (s.kind) {
      case StmtKind::Let: declare(s.name, eval(s.exprs[0])); return Flow::Normal;
      case StmtKind::LetTuple: {
        std::vector<Value> values = eval_call(s.exprs[0]);
        for (size_t k = 0; k < s.names.size(); ++k) declare(s.names[k], std::move(values[k]));
        return Flow::Normal;
      }
      case StmtKind::Assign: {
        Value v = eval(s.exprs[0]);
        lookup(s.name) = std::move(v);
        return Flow::Normal;
      }
      case StmtKind::ElementAssign: return exec_element_assign(s);
      case StmtKind::If: return exec_if(s);
      case StmtKind::While: return exec_while(s);
      case StmtKind::ForRange: return exec_for_range(s);
      case StmtKind::ForIn: return exec_for_in(s);
      case StmtKind::Break: return Flow::Break;
      case StmtKind::Continue: return Flow::Continue;
      case StmtKind::Return: {
        std::vector<Value> values;
        if (s.exprs.size() == 1 && s.exprs[0].type == Type::Tuple) {
          values = eval_call(s.exprs[0]);  // return g(x); where g has the same results
        } else {
          for (const Expr& e : s.exprs) values.push_back(eval(e));
        }
        returned_ = std::move(values);
        return Flow::Return;
      }
      case StmtKind::CallStmt: eval_call(s.exprs[0]); return Flow::Normal;
      case StmtKind::Block: return exec_block(s.blocks[0]);
    }
    return Flow::Normal;
  }

  // The index is evaluated before the value and checked at the store (§5).
  Flow exec_element_assign(const Stmt& s) {
    i64 at = eval(s.exprs[0]).i;
    Value v = eval(s.exprs[1]);
    Value& target = lookup(s.name);
    if (at < 0 || u64(at) >= target.items.size()) trap(Trap::INDEX_OUT_OF_RANGE);
    target.items[size_t(at)] = std::move(v);
    return Flow::Normal;
  }

  Flow exec_if(const Stmt& s) {
    for (size_t k = 0; k < s.exprs.size(); ++k) {
      if (k > 0 && coverage_) coverage_->else_if_taken++;
      if (eval(s.exprs[k]).i) return exec_block(s.blocks[k]);
    }
    if (s.blocks.size() > s.exprs.size()) {
      if (coverage_) coverage_->else_taken++;
      return exec_block(s.blocks.back());
    }
    return Flow::Normal;
  }

  // Runs one iteration's body; true when the loop must stop (break or return).
  bool loop_body(const Block& body, Flow* flow) {
    charge(1);
    Flow f = exec_block(body);
    if (f == Flow::Break) {
      *flow = Flow::Normal;
      return true;
    }
    if (f == Flow::Return) {
      *flow = Flow::Return;
      return true;
    }
    return false;
  }

  Flow exec_while(const Stmt& s) {
    Flow flow = Flow::Normal;
    while (eval(s.exprs[0]).i)
      if (loop_body(s.blocks[0], &flow)) break;
    return flow;
  }

  // Bounds are evaluated once, in order; assigning the variable never changes the iterations.
  Flow exec_for_range(const Stmt& s) {
    i64 lo = eval(s.exprs[0]).i;
    i64 hi = eval(s.exprs[1]).i;
    Flow flow = Flow::Normal;
    for (i64 k = lo; k < hi; ++k) {
      open_scope();
      declare(s.name, Value::of_int(k));
      bool stop = loop_body(s.blocks[0], &flow);
      close_scope();
      if (stop) break;
    }
    return flow;
  }

  // The sequence is evaluated once; the loop sees the value it had then.
  Flow exec_for_in(const Stmt& s) {
    Value seq = eval(s.exprs[0]);
    bool bytes = seq.type == Type::Str;
    size_t n = bytes ? seq.s.size() : seq.items.size();
    Flow flow = Flow::Normal;
    for (size_t k = 0; k < n; ++k) {
      open_scope();
      declare(s.name, bytes ? Value::of_int(static_cast<unsigned char>(seq.s[k])) : seq.items[k]);
      bool stop = loop_body(s.blocks[0], &flow);
      close_scope();
      if (stop) break;
    }
    return flow;
  }

  // ---- expressions ----

  Value eval(const Expr& e) {
    charge(1);
    switch (e.kind) {
      case ExprKind::IntLit: return Value::of_int(e.int_value);
      case ExprKind::FloatLit: return Value::of_float(e.float_value);
      case ExprKind::BoolLit: return Value::of_bool(e.int_value != 0);
      case ExprKind::StrLit: return Value::of_str(e.text);
      case ExprKind::ArrayLit: {
        Value v = Value::of_array(element_of(e.type), {});
        for (const Expr& c : e.children) v.items.push_back(eval(c));
        return v;
      }
      case ExprKind::Name: return lookup(e.text);
      case ExprKind::Call: return std::move(eval_call(e)[0]);
      case ExprKind::Index: return eval_index(e);
      case ExprKind::Unary: return eval_unary(e);
      case ExprKind::Binary: return eval_binary(e);
    }
    throw std::logic_error("reference: bad expression kind");
  }

  Value eval_index(const Expr& e) {
    // A named sequence is read in place: copying it would cost time, not change the result.
    Value temp;
    const Value* seq;
    if (e.children[0].kind == ExprKind::Name) {
      charge(1);
      seq = &lookup(e.children[0].text);
    } else {
      temp = eval(e.children[0]);
      seq = &temp;
    }
    i64 at = eval(e.children[1]).i;
    if (seq->type == Type::Str) {
      if (at < 0 || u64(at) >= seq->s.size()) trap(Trap::INDEX_OUT_OF_RANGE);
      return Value::of_int(static_cast<unsigned char>(seq->s[size_t(at)]));
    }
    if (at < 0 || u64(at) >= seq->items.size()) trap(Trap::INDEX_OUT_OF_RANGE);
    return seq->items[size_t(at)];
  }

  Value eval_unary(const Expr& e) {
    Value v = eval(e.children[0]);
    if (coverage_) coverage_->unary[u32(e.op)][type_slot(v.type)]++;
    switch (e.unary_op()) {
      case UnaryOp::Neg:
        if (v.type == Type::Int) return Value::of_int(wrap_sub(0, v.i));
        return Value::of_float(-v.f);
      case UnaryOp::Not: return Value::of_bool(v.i == 0);
      case UnaryOp::BitNot: return Value::of_int(~v.i);
    }
    throw std::logic_error("reference: bad unary operator");
  }

  Value eval_binary(const Expr& e) {
    BinaryOp op = e.binary_op();
    Value a = eval(e.children[0]);
    if (coverage_) coverage_->binary[u32(op)][type_slot(a.type)]++;
    if (op == BinaryOp::And) return a.i ? eval(e.children[1]) : Value::of_bool(false);
    if (op == BinaryOp::Or) return a.i ? Value::of_bool(true) : eval(e.children[1]);
    Value b = eval(e.children[1]);
    if (op == BinaryOp::Eq) return Value::of_bool(equal_values(a, b));
    if (op == BinaryOp::Ne) return Value::of_bool(!equal_values(a, b));
    switch (a.type) {
      case Type::Int: return int_binary(op, a.i, b.i);
      case Type::Float: return float_binary(op, a.f, b.f);
      case Type::Str: return str_binary(op, a, b);
      default: break;
    }
    // [T] + [T]
    charge(a.items.size() + b.items.size());
    for (Value& item : b.items) a.items.push_back(std::move(item));
    return a;
  }

  static Value int_binary(BinaryOp op, i64 a, i64 b) {
    switch (op) {
      case BinaryOp::Add: return Value::of_int(wrap_add(a, b));
      case BinaryOp::Sub: return Value::of_int(wrap_sub(a, b));
      case BinaryOp::Mul: return Value::of_int(wrap_mul(a, b));
      case BinaryOp::Div:
        if (b == 0) trap(Trap::DIVISION_BY_ZERO);
        return Value::of_int(a == kMin && b == -1 ? kMin : a / b);
      case BinaryOp::Mod:
        if (b == 0) trap(Trap::DIVISION_BY_ZERO);
        return Value::of_int(a == kMin && b == -1 ? 0 : a % b);
      case BinaryOp::BitAnd: return Value::of_int(a & b);
      case BinaryOp::BitOr: return Value::of_int(a | b);
      case BinaryOp::BitXor: return Value::of_int(a ^ b);
      case BinaryOp::Shl: return Value::of_int(i64(u64(a) << (b & 63)));
      case BinaryOp::Shr: return Value::of_int(a >> (b & 63));
      case BinaryOp::Ushr: return Value::of_int(i64(u64(a) >> (b & 63)));
      case BinaryOp::Lt: return Value::of_bool(a < b);
      case BinaryOp::Le: return Value::of_bool(a <= b);
      case BinaryOp::Gt: return Value::of_bool(a > b);
      case BinaryOp::Ge: return Value::of_bool(a >= b);
      default: break;
    }
    throw std::logic_error("reference: bad int operator");
  }

  static Value float_binary(BinaryOp op, double a, double b) {
    switch (op) {
      case BinaryOp::Add: return Value::of_float(a + b);
      case BinaryOp::Sub: return Value::of_float(a - b);
      case BinaryOp::Mul: return Value::of_float(a * b);
      case BinaryOp::Div: return Value::of_float(a / b);
      case BinaryOp::Mod: return Value::of_float(std::fmod(a, b));
      case BinaryOp::Lt: return Value::of_bool(a < b);
      case BinaryOp::Le: return Value::of_bool(a <= b);
      case BinaryOp::Gt: return Value::of_bool(a > b);
      case BinaryOp::Ge: return Value::of_bool(a >= b);
      default: break;
    }
    throw std::logic_error("reference: bad float operator");
  }

  Value str_binary(BinaryOp op, Value& a, const Value& b) {
    int c = op == BinaryOp::Add ? 0 : compare_bytes(a.s, b.s);
    switch (op) {
      case BinaryOp::Add:
        charge(a.s.size() + b.s.size());
        a.s += b.s;
        return std::move(a);
      case BinaryOp::Lt: return Value::of_bool(c < 0);
      case BinaryOp::Le: return Value::of_bool(c <= 0);
      case BinaryOp::Gt: return Value::of_bool(c > 0);
      case BinaryOp::Ge: return Value::of_bool(c >= 0);
      default: break;
    }
    throw std::logic_error("reference: bad str operator");
  }

  // ---- builtins (docs/language.md "Builtins") ----

  Value builtin(Builtin b, std::vector<Value>& args, Type result) {
    Value& x = args[0];
    switch (b) {
      case Builtin::LenArray: return Value::of_int(i64(x.items.size()));
      case Builtin::LenStr: return Value::of_int(i64(x.s.size()));
      case Builtin::AbsInt: return Value::of_int(x.i < 0 ? wrap_sub(0, x.i) : x.i);
      case Builtin::AbsFloat: return Value::of_float(std::fabs(x.f));
      case Builtin::MinInt: return Value::of_int(args[1].i < x.i ? args[1].i : x.i);
      case Builtin::MaxInt: return Value::of_int(args[1].i > x.i ? args[1].i : x.i);
      case Builtin::MinFloat: return Value::of_float(args[1].f < x.f ? args[1].f : x.f);
      case Builtin::MaxFloat: return Value::of_float(args[1].f > x.f ? args[1].f : x.f);
      case Builtin::MinIntArray:
      case Builtin::MaxIntArray:
      case Builtin::MinFloatArray:
      case Builtin::MaxFloatArray: return fold_min_max(b, x);
      case Builtin::Push:
        charge(x.items.size() + 1);
        x.items.push_back(std::move(args[1]));
        return std::move(x);
      case Builtin::Pop:
        if (x.items.empty()) trap(Trap::INVALID_ARGUMENT);
        charge(x.items.size());
        x.items.pop_back();
        return std::move(x);
      case Builtin::SliceArray:
      case Builtin::SliceStr: return slice(x, args[1].i, args[2].i);
      case Builtin::SumInt:
      case Builtin::SumFloat: return sum(x);
      case Builtin::SortInt:
      case Builtin::SortFloat:
      case Builtin::SortStr: return sort(x);
      case Builtin::ReverseArray:
        charge(x.items.size());
        std::reverse(x.items.begin(), x.items.end());
        return std::move(x);
      case Builtin::ReverseStr:
        charge(x.s.size());
        std::reverse(x.s.begin(), x.s.end());
        return std::move(x);
      case Builtin::ContainsArray: return Value::of_bool(find_item(x, args[1]) >= 0);
      case Builtin::IndexOfArray: return Value::of_int(find_item(x, args[1]));
      case Builtin::ContainsStr:
        charge_search(x.s, args[1].s);
        return Value::of_bool(find_bytes(x.s, args[1].s, 0) != std::string::npos);
      case Builtin::IndexOfStr: {
        charge_search(x.s, args[1].s);
        size_t at = find_bytes(x.s, args[1].s, 0);
        return Value::of_int(at == std::string::npos ? -1 : i64(at));
      }
      case Builtin::ArrayFill: return array_fill(x.i, args[1], result);
      default: return convert(b, x, args);
    }
  }

  Value convert(Builtin b, Value& x, std::vector<Value>& args) {
    switch (b) {
      case Builtin::IntOfFloat: return Value::of_int(int_of_float(x.f));
      case Builtin::IntOfBool:
      case Builtin::IntOfInt: return Value::of_int(x.i);
      case Builtin::FloatOfInt: return Value::of_float(double(x.i));
      case Builtin::FloatOfFloat: return x;
      case Builtin::StrOfInt: return Value::of_str(std::to_string(x.i));
      case Builtin::StrOfFloat: return Value::of_str(format_float(x.f));
      case Builtin::StrOfBool: return Value::of_str(x.i ? "true" : "false");
      case Builtin::StrOfStr: return x;
      case Builtin::Sqrt: return Value::of_float(std::sqrt(x.f));
      case Builtin::Floor: return Value::of_float(std::floor(x.f));
      case Builtin::Ceil: return Value::of_float(std::ceil(x.f));
      case Builtin::Round: return Value::of_float(std::round(x.f));
      case Builtin::Chr:
        if (x.i < 0 || x.i > 255) trap(Trap::INVALID_ARGUMENT);
        return Value::of_str(std::string(1, char(x.i)));
      case Builtin::Split: return split(x.s, args[1].s);
      case Builtin::Join: return join(x, args[1].s);
      case Builtin::ParseInt: return parse_int(x.s);
      default: break;
    }
    throw std::logic_error("reference: bad builtin");
  }

  Value fold_min_max(Builtin b, const Value& xs) {
    if (xs.items.empty()) trap(Trap::INVALID_ARGUMENT);
    charge(xs.items.size());
    bool is_min = b == Builtin::MinIntArray || b == Builtin::MinFloatArray;
    Value acc = xs.items[0];
    for (size_t k = 1; k < xs.items.size(); ++k) {
      const Value& y = xs.items[k];  // min(acc, y) is y < acc ? y : acc
      bool take =
          acc.type == Type::Int ? (is_min ? y.i < acc.i : y.i > acc.i) : (is_min ? y.f < acc.f : y.f > acc.f);
      if (take) acc = y;
    }
    return acc;
  }

  // Elements a..b after clamping a to 0..len and b to a..len; never traps.
  Value slice(Value& s, i64 a, i64 b) {
    i64 n = i64(s.type == Type::Str ? s.s.size() : s.items.size());
    a = std::clamp<i64>(a, 0, n);
    b = std::clamp<i64>(b, a, n);
    charge(u64(b - a));
    if (s.type == Type::Str) return Value::of_str(s.s.substr(size_t(a), size_t(b - a)));
    return Value::of_array(element_of(s.type), std::vector<Value>(s.items.begin() + a, s.items.begin() + b));
  }

  // Left to right from zero (so the sum of [-0.0] is 0.0).
  Value sum(const Value& xs) {
    charge(xs.items.size());
    if (xs.type == Type::IntArray) {
      i64 acc = 0;
      for (const Value& v : xs.items) acc = wrap_add(acc, v.i);
      return Value::of_int(acc);
    }
    double acc = 0.0;
    for (const Value& v : xs.items) acc = acc + v.f;
    return Value::of_float(acc);
  }

  // Ascending and stable; NaNs after every other float; strings as by `<`.
  Value sort(Value& xs) {
    charge(xs.items.size());
    auto less = [](const Value& a, const Value& b) {
      switch (a.type) {
        case Type::Int: return a.i < b.i;
        case Type::Float: return (!std::isnan(a.f) && std::isnan(b.f)) || a.f < b.f;
        default: return compare_bytes(a.s, b.s) < 0;
      }
    };
    std::stable_sort(xs.items.begin(), xs.items.end(), less);
    return std::move(xs);
  }

  i64 find_item(const Value& xs, const Value& x) {
    charge(xs.items.size());
    for (size_t k = 0; k < xs.items.size(); ++k)
      if (equal_values(xs.items[k], x)) return i64(k);
    return -1;
  }

  Value array_fill(i64 n, const Value& x, Type result) {
    if (n < 0) trap(Trap::INVALID_ARGUMENT);
    charge(u64(n));  // before allocating: a huge n runs out of fuel instead of memory
    return Value::of_array(element_of(result), std::vector<Value>(size_t(n), x));
  }

  Value split(const std::string& s, const std::string& sep) {
    charge_search(s, sep);
    Value out = Value::of_array(Type::Str, {});
    if (sep.empty()) {  // maximal runs of non-whitespace
      size_t k = 0;
      while (k < s.size()) {
        while (k < s.size() && is_space_byte(s[k])) ++k;
        size_t start = k;
        while (k < s.size() && !is_space_byte(s[k])) ++k;
        if (k > start) out.items.push_back(Value::of_str(s.substr(start, k - start)));
      }
      return out;
    }
    size_t start = 0;
    for (size_t at = find_bytes(s, sep, 0); at != std::string::npos; at = find_bytes(s, sep, start)) {
      out.items.push_back(Value::of_str(s.substr(start, at - start)));
      start = at + sep.size();
    }
    out.items.push_back(Value::of_str(s.substr(start)));
    return out;
  }

  Value join(const Value& xs, const std::string& sep) {
    std::string out;
    for (size_t k = 0; k < xs.items.size(); ++k) {
      if (k) out += sep;
      out += xs.items[k].s;
    }
    charge(out.size());
    return Value::of_str(std::move(out));
  }

  // [+-]?[0-9]+ and nothing else, wrapping on overflow.
  Value parse_int(const std::string& s) {
    charge(s.size());
    size_t k = 0;
    bool negative = false;
    if (k < s.size() && (s[k] == '+' || s[k] == '-')) negative = s[k++] == '-';
    if (k == s.size()) trap(Trap::INVALID_ARGUMENT);
    u64 acc = 0;
    for (; k < s.size(); ++k) {
      if (s[k] < '0' || s[k] > '9') trap(Trap::INVALID_ARGUMENT);
      acc = acc * 10 + u64(s[k] - '0');
    }
    return Value::of_int(i64(negative ? 0 - acc : acc));
  }

  const trees::Tree& program_;
  Options options_;
  Coverage* coverage_;
  Frame* frame_ = nullptr;
  std::vector<Value> returned_;
  u64 steps_ = 0;
  u32 depth_ = 0;
};

}  // namespace

Outcome evaluate(const trees::Tree& p, std::string_view entry, std::span<const Value> args,
                 const Options& options) {
  return Evaluator(p, options).run(entry, args);
}

}  // namespace gs::reference
