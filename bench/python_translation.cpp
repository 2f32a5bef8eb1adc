#include "bench/python_translation.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <vector>

namespace gs::bench {

namespace {

using trees::BinaryOp;
using trees::Block;
using trees::Builtin;
using trees::Expr;
using trees::ExprKind;
using trees::Function;
using trees::Stmt;
using trees::StmtKind;
using trees::UnaryOp;

// Names a variable or function must not take in Python: keywords, the builtins the translation
// calls, the modules the prelude uses. Names starting with `_` belong to the prelude.
bool reserved(const std::string& n) {
  static const std::set<std::string> names = {
      "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
      "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
      "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
      "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield",    "match",
      "case",  "type",     "len",   "abs",    "min",  "max",    "sum",    "sorted",   "int",
      "float", "bytes",    "range", "list",   "bool", "str",    "math",   "sys"};
  return n.empty() || n[0] == '_' || names.count(n) > 0;
}

// A Python expression, and whether it may stand as an operand without parentheses.
struct Py {
  std::string text;
  bool atom = true;
};

std::string paren(const Py& p) { return p.atom ? p.text : "(" + p.text + ")"; }
std::string copy_of(const Py& p) { return paren(p) + "[:]"; }

Py int_literal(i64 v) {
  if (v >= 0) return {std::to_string(v), true};
  return {"-" + std::to_string(0 - u64(v)), false};
}

Py float_literal(double v) {
  if (std::isnan(v)) return {"_NAN", true};
  if (std::isinf(v)) return v > 0 ? Py{"_INF", true} : Py{"-_INF", false};
  char buf[40];
  auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest text that reads back as v
  std::string t(buf, r.ptr);
  if (t.find_first_of(".e") == std::string::npos) t += ".0";  // "-0" must stay a float
  return {t, t[0] != '-'};
}

std::string bytes_literal(const std::string& s) {
  std::string out = "b\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c >= 0x20 && c < 0x7f) {
      out += char(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  return out + "\"";
}

// Does any Assign in b (nested blocks included) write `name`? Conservative about shadowing.
bool assigns(const Block& b, const std::string& name) {
  for (const Stmt& s : b) {
    if (s.kind == StmtKind::Assign && s.name == name) return true;
    for (const Block& inner : s.blocks)
      if (assigns(inner, name)) return true;
  }
  return false;
}

struct Var {
  std::string syn, py;
  Type type = Type::Int;
  bool nonneg = false;    // an int that cannot be negative (a loop index from 0, a byte)
  bool in_place = false;  // an array this function changes in place: it owns its list
};

class Translator {
 public:
  Translator(const trees::Tree& p, const PythonOptions& o) : program_(p), options_(o) {}

  PythonProgram run(std::string_view entry) {
    name_functions();
    for (const Function& f : program_.functions) scan(f.body, facts_[f.name]);
    find_recursion();
    for (size_t k = 0; k < program_.functions.size(); ++k) {
      if (k) out_ += '\n';
      function(program_.functions[k], program_.functions[k].name == entry);
    }
    return {out_, function_py_.at(std::string(entry))};
  }

 private:
  // Per function: the arrays it changes in place, and the functions it calls.
  struct Facts {
    std::set<std::string> in_place;
    std::set<std::string> callees;
  };

  bool is_function(const std::string& name) const { return program_.find(name) != nullptr; }
  bool checked() const { return options_.check_overflow; }
  Py check(Py p) const { return checked() ? Py{"_ck(" + p.text + ")", true} : p; }

  // ---- program analysis ----

  void name_functions() {
    std::set<std::string> taken;
    for (const Function& f : program_.functions) {
      std::string py = f.name[0] == '_' ? "f" + f.name : f.name;
      if (reserved(py)) py += "_fn";
      while (taken.count(py)) py += "_";
      taken.insert(py);
      function_py_[f.name] = py;
    }
    for (const auto& [syn, py] : function_py_) function_names_.insert(py);
  }

  // `xs = push(xs, x)`: `xs.append(x)`.
  bool is_append(const Stmt& s) const {
    if (s.kind != StmtKind::Assign) return false;
    const Expr& v = s.exprs[0];
    return is_array(v.type) && v.kind == ExprKind::Call && v.text == "push" && !is_function("push") &&
           v.children[0].kind == ExprKind::Name && v.children[0].text == s.name;
  }

  // `x = x op e` as `x op= e`; for arrays (`xs += ys`) that extends the list in place. Not for
  // checked int arithmetic, which needs the `_ck` around the result.
  const char* augmented_op(const Stmt& s) const {
    if (s.kind != StmtKind::Assign) return nullptr;
    const Expr& v = s.exprs[0];
    if (v.kind != ExprKind::Binary || v.children[0].kind != ExprKind::Name || v.children[0].text != s.name)
      return nullptr;
    BinaryOp op = v.binary_op();
    switch (v.type) {
      case Type::Int:
        if (op == BinaryOp::BitAnd || op == BinaryOp::BitOr || op == BinaryOp::BitXor)
          return trees::op_text(op);
        if (checked()) return nullptr;
        [[fallthrough]];
      case Type::Float:
        return op == BinaryOp::Add || op == BinaryOp::Sub || op == BinaryOp::Mul ? trees::op_text(op)
                                                                                 : nullptr;
      default: return op == BinaryOp::Add ? "+" : nullptr;  // str, arrays
    }
  }

  void scan(const Expr& e, Facts& f) {
    if (e.kind == ExprKind::Call && is_function(e.text)) f.callees.insert(e.text);
    for (const Expr& c : e.children) scan(c, f);
  }
  void scan(const Block& b, Facts& f) {
    for (const Stmt& s : b) {
      bool extends = augmented_op(s) && is_array(s.exprs[0].type);
      if (s.kind == StmtKind::ElementAssign || is_append(s) || extends) f.in_place.insert(s.name);
      for (const Expr& e : s.exprs) scan(e, f);
      for (const Block& inner : s.blocks) scan(inner, f);
    }
  }

  // A program where some function can reach itself needs the call-depth bound: Python's own
  // recursion limit is far away and not exact. Every function then takes `_d`, its depth.
  void find_recursion() {
    for (const auto& [name, facts] : facts_) {
      std::set<std::string> seen;
      std::vector<std::string> todo(facts.callees.begin(), facts.callees.end());
      while (!todo.empty()) {
        std::string g = todo.back();
        todo.pop_back();
        if (g == name) recursive_ = true;
        if (!seen.insert(g).second) continue;
        for (const std::string& h : facts_[g].callees) todo.push_back(h);
      }
    }
  }

  bool param_in_place(const std::string& fn, const trees::Param& p) {
    return is_array(p.type) && facts_[fn].in_place.count(p.name) > 0;
  }

  // ---- scopes ----

  Var& lookup(const std::string& syn) {
    for (size_t s = scopes_.size(); s-- > 0;)
      for (size_t k = scopes_[s].size(); k-- > 0;)
        if (scopes_[s][k].syn == syn) return scopes_[s][k];
    throw std::logic_error("python translation: unknown variable " + syn);
  }

  bool live_py_name(const std::string& py) const {
    for (const auto& scope : scopes_)
      for (const Var& v : scope)
        if (v.py == py) return true;
    return false;
  }

  // Python has one scope per function: a Syn variable that shadows a live one gets a new name.
  Var& declare(const std::string& syn, Type type, bool nonneg) {
    std::string base = syn[0] == '_' ? "v" + syn : syn;
    if (reserved(base) || function_names_.count(base)) base += "_";
    std::string py = base;
    for (int n = 2; live_py_name(py) || function_names_.count(py); ++n) py = base + "_" + std::to_string(n);
    bool in_place = is_array(type) && facts_[function_->name].in_place.count(syn) > 0;
    scopes_.back().push_back({syn, py, type, nonneg, in_place});
    return scopes_.back().back();
  }

  // A name whose list this function changes in place: whoever else gets it needs a copy.
  bool owned_name(const Expr& e) { return e.kind == ExprKind::Name && lookup(e.text).in_place; }

  // ---- expressions ----

  // Evaluating e may trap. Where Python evaluates two operands in the other order than Syn
  // (`x in xs`, `sep.join(xs)`, `a[i] = e`), the order only shows when both can trap.
  bool can_trap(const Expr& e) const {
    switch (e.kind) {
      case ExprKind::Index: return true;
      case ExprKind::Call:
        if (is_function(e.text)) return true;  // anything, and the call-depth bound
        if (e.text == "chr" || e.text == "parse_int" || e.text == "array" || e.text == "pop") return true;
        if ((e.text == "min" || e.text == "max") && e.children.size() == 1) return true;
        break;
      case ExprKind::Binary:
        if (e.children[0].type == Type::Int &&
            (e.binary_op() == BinaryOp::Div || e.binary_op() == BinaryOp::Mod))
          return true;
        break;
      default: break;
    }
    for (const Expr& c : e.children)
      if (can_trap(c)) return true;
    return false;
  }

  // An int that is never negative, so Python's negative indexing cannot differ from Syn's trap.
  bool nonneg(const Expr& e) {
    switch (e.kind) {
      case ExprKind::IntLit: return e.int_value >= 0;
      case ExprKind::Name: return lookup(e.text).nonneg;
      case ExprKind::Call: return e.text == "len" && !is_function("len");
      case ExprKind::Binary:
        return e.binary_op() == BinaryOp::BitAnd && (nonneg(e.children[0]) || nonneg(e.children[1]));
      default: return false;
    }
  }

  Py expr(const Expr& e) {
    switch (e.kind) {
      case ExprKind::IntLit: return int_literal(e.int_value);
      case ExprKind::FloatLit: return float_literal(e.float_value);
      case ExprKind::BoolLit: return {e.int_value ? "True" : "False", true};
      case ExprKind::StrLit: return {bytes_literal(e.text), true};
      case ExprKind::ArrayLit: return {"[" + list(e.children) + "]", true};
      case ExprKind::Name: return {lookup(e.text).py, true};
      case ExprKind::Call: return call(e);
      case ExprKind::Index: return {paren(expr(e.children[0])) + "[" + subscript(e.children[1]) + "]", true};
      case ExprKind::Unary: return unary(e);
      case ExprKind::Binary: return binary(e);
    }
    throw std::logic_error("python translation: bad expression");
  }

  std::string list(const std::vector<Expr>& items) {
    std::string out;
    for (size_t k = 0; k < items.size(); ++k) out += (k ? ", " : "") + expr(items[k]).text;
    return out;
  }

  // Python counts a negative index from the end; Syn traps.
  std::string subscript(const Expr& at) {
    Py i = expr(at);
    if (nonneg(at)) return i.text;
    if (at.kind == ExprKind::IntLit) return "_oob()";
    if (at.kind == ExprKind::Name) return i.text + " if " + i.text + " >= 0 else _oob()";
    return "_k if (_k := " + i.text + ") >= 0 else _oob()";
  }

  Py unary(const Expr& e) {
    std::string a = paren(expr(e.children[0]));
    switch (e.unary_op()) {
      case UnaryOp::Neg: return e.type == Type::Int ? check({"-" + a, false}) : Py{"-" + a, false};
      case UnaryOp::Not: return {"not " + a, false};
      case UnaryOp::BitNot: return {"~" + a, false};
    }
    throw std::logic_error("python translation: bad unary operator");
  }

  Py binary(const Expr& e) {
    BinaryOp op = e.binary_op();
    const Expr& l = e.children[0];
    const Expr& r = e.children[1];
    std::string o = trees::op_text(op);
    if (op == BinaryOp::And || op == BinaryOp::Or)
      return {paren(expr(l)) + (op == BinaryOp::And ? " and " : " or ") + paren(expr(r)), false};
    if (l.type == Type::FloatArray && (op == BinaryOp::Eq || op == BinaryOp::Ne)) {
      std::string eq = "_feq(" + expr(l).text + ", " + expr(r).text + ")";
      return op == BinaryOp::Eq ? Py{eq, true} : Py{"not " + eq, false};
    }
    if (trees::is_comparison(op)) return {paren(expr(l)) + " " + o + " " + paren(expr(r)), false};
    if (l.type == Type::Int) return int_binary(op, l, r);
    if (l.type == Type::Float) return float_binary(op, l, r);
    return {paren(expr(l)) + " + " + paren(expr(r)), false};  // str and arrays: concatenation
  }

  Py int_binary(BinaryOp op, const Expr& l, const Expr& r) {
    Py a = expr(l), b = expr(r);
    std::string o = trees::op_text(op);
    switch (op) {
      case BinaryOp::Add:
      case BinaryOp::Sub:
      case BinaryOp::Mul: return check({paren(a) + " " + o + " " + paren(b), false});
      case BinaryOp::Div:
      case BinaryOp::Mod: {
        bool div = op == BinaryOp::Div;
        bool simple = l.kind == ExprKind::Name || l.kind == ExprKind::IntLit;  // read twice below
        if (r.kind == ExprKind::IntLit && r.int_value > 0 && simple) {
          // Python floors, Syn truncates: they agree on a non-negative dividend.
          std::string py_op = div ? " // " : " % ";
          if (nonneg(l)) return {paren(a) + py_op + b.text, false};
          std::string n = paren(a);
          return {n + py_op + b.text + " if " + n + " >= 0 else -(-" + n + py_op + b.text + ")", false};
        }
        return {std::string(div ? "_div(" : "_mod(") + a.text + ", " + b.text + ")", true};
      }
      case BinaryOp::BitAnd:
      case BinaryOp::BitOr:
      case BinaryOp::BitXor: return {paren(a) + " " + o + " " + paren(b), false};
      case BinaryOp::Shl: return {"_shl(" + a.text + ", " + b.text + ")", true};
      case BinaryOp::Shr: {
        std::string amount =
            r.kind == ExprKind::IntLit ? std::to_string(r.int_value & 63) : "(" + paren(b) + " & 63)";
        return {paren(a) + " >> " + amount, false};
      }
      case BinaryOp::Ushr: return {"_ushr(" + a.text + ", " + b.text + ")", true};
      default: break;
    }
    throw std::logic_error("python translation: bad int operator");
  }

  Py float_binary(BinaryOp op, const Expr& l, const Expr& r) {
    Py a = expr(l), b = expr(r);
    switch (op) {
      case BinaryOp::Add:
      case BinaryOp::Sub:
      case BinaryOp::Mul: return {paren(a) + " " + trees::op_text(op) + " " + paren(b), false};
      case BinaryOp::Div:
        if (r.kind == ExprKind::FloatLit && r.float_value != 0) return {paren(a) + " / " + paren(b), false};
        return {"_fdiv(" + a.text + ", " + b.text + ")", true};
      case BinaryOp::Mod: return {"_fmod(" + a.text + ", " + b.text + ")", true};
      default: break;
    }
    throw std::logic_error("python translation: bad float operator");
  }

  Py call(const Expr& e) {
    if (is_function(e.text)) return user_call(e);
    std::vector<Type> types;
    for (const Expr& c : e.children) types.push_back(c.type);
    Type result;
    std::optional<Builtin> b = trees::resolve_builtin(e.text, types, &result);
    if (!b) throw std::logic_error("python translation: no builtin " + e.text);
    return builtin(*b, e);
  }

  Py user_call(const Expr& e) {
    const Function& f = *program_.find(e.text);
    std::string out = function_py_[e.text] + "(";
    for (size_t k = 0; k < e.children.size(); ++k) {
      const Expr& a = e.children[k];
      // A callee that changes the parameter copies it itself; otherwise it may hand the list
      // back, and this function's later in-place changes must not reach that result.
      bool copy = owned_name(a) && !param_in_place(f.name, f.params[k]);
      out += (k ? ", " : "") + (copy ? copy_of(expr(a)) : expr(a).text);
    }
    if (recursive_) out += e.children.empty() ? "_d + 1" : ", _d + 1";
    return {out + ")", true};
  }

  Py fn(const std::string& name, const Expr& e) { return {name + "(" + list(e.children) + ")", true}; }

  Py builtin(Builtin b, const Expr& e) {
    const std::vector<Expr>& args = e.children;
    auto arg = [&](size_t k) { return expr(args[k]); };
    switch (b) {
      case Builtin::LenArray:
      case Builtin::LenStr: return fn("len", e);
      case Builtin::AbsInt: return check(fn("abs", e));
      case Builtin::AbsFloat: return fn("abs", e);
      // Python's min(a, b) is `b < a ? b : a` and max(a, b) `b > a ? b : a`, as in Syn, and the
      // one-argument forms fold from the left: the same results, NaNs included.
      case Builtin::MinInt:
      case Builtin::MinFloat:
      case Builtin::MinIntArray:
      case Builtin::MinFloatArray: return fn("min", e);
      case Builtin::MaxInt:
      case Builtin::MaxFloat:
      case Builtin::MaxIntArray:
      case Builtin::MaxFloatArray: return fn("max", e);
      case Builtin::Push: return {paren(arg(0)) + " + [" + arg(1).text + "]", false};
      case Builtin::Pop: return fn("_pop", e);
      case Builtin::SliceArray:
      case Builtin::SliceStr:
        if (nonneg(args[1]) && nonneg(args[2]))
          return {paren(arg(0)) + "[" + arg(1).text + ":" + arg(2).text + "]", true};
        return fn("_slice", e);
      case Builtin::SumInt: return check(fn("sum", e));
      case Builtin::SumFloat: return fn("_fsum", e);
      case Builtin::SortInt:
      case Builtin::SortStr: return fn("sorted", e);
      case Builtin::SortFloat: return fn("_sortf", e);
      case Builtin::ReverseArray:
      case Builtin::ReverseStr: return {paren(arg(0)) + "[::-1]", true};
      case Builtin::ContainsArray:
        if (args[1].type == Type::Float) return fn("_containsf", e);
        [[fallthrough]];
      case Builtin::ContainsStr:
        if (can_trap(args[0]) && can_trap(args[1])) return fn("_contains", e);
        return {paren(arg(1)) + " in " + paren(arg(0)), false};
      case Builtin::IndexOfArray: return fn(args[1].type == Type::Float ? "_indexf" : "_index", e);
      case Builtin::IndexOfStr: return {paren(arg(0)) + ".find(" + arg(1).text + ")", true};
      case Builtin::ArrayFill:
        if (args[0].kind == ExprKind::IntLit && args[0].int_value >= 0)
          return {"[" + arg(1).text + "] * " + arg(0).text, false};
        return fn("_array", e);
      default: return conversion(b, e);
    }
  }

  Py conversion(Builtin b, const Expr& e) {
    const std::vector<Expr>& args = e.children;
    Py x = expr(args[0]);
    switch (b) {
      case Builtin::IntOfFloat: return fn("_int_f", e);
      case Builtin::IntOfBool: return fn("int", e);
      case Builtin::IntOfInt:
      case Builtin::FloatOfFloat:
      case Builtin::StrOfStr: return x;
      case Builtin::FloatOfInt: return fn("float", e);
      case Builtin::StrOfInt: return {"b\"%d\" % " + paren(x), false};
      case Builtin::StrOfFloat: return fn("_fstr", e);
      case Builtin::StrOfBool: return {"(b\"true\" if " + x.text + " else b\"false\")", true};
      case Builtin::Sqrt: return fn("_sqrt", e);
      case Builtin::Floor: return fn("_floor", e);
      case Builtin::Ceil: return fn("_ceil", e);
      case Builtin::Round: return fn("_round", e);
      case Builtin::Chr: return {"bytes((" + x.text + ",))", true};  // ValueError outside 0..255
      case Builtin::Split:
        if (args[1].kind == ExprKind::StrLit) {  // bytes.split() takes runs of ASCII whitespace
          std::string sep = args[1].text.empty() ? "" : expr(args[1]).text;
          return {paren(x) + ".split(" + sep + ")", true};
        }
        return fn("_split", e);
      case Builtin::Join:
        if (can_trap(args[0]) && can_trap(args[1])) return fn("_join", e);
        return {paren(expr(args[1])) + ".join(" + x.text + ")", true};
      case Builtin::ParseInt: return fn("_parse_int", e);
      default: break;
    }
    throw std::logic_error("python translation: bad builtin");
  }

  // ---- statements ----

  void line(const std::string& text) {
    out_.append(size_t(indent_) * 4, ' ');
    out_ += text;
    out_ += '\n';
  }

  // A Syn block: a scope of its own, statements at the current indentation.
  void block(const Block& b) {
    scopes_.emplace_back();
    for (const Stmt& s : b) statement(s);
    scopes_.pop_back();
  }

  // A Python suite: one level deeper, `pass` when nothing was written.
  void suite(const Block& b) {
    ++indent_;
    size_t before = out_.size();
    block(b);
    if (out_.size() == before) line("pass");
    --indent_;
  }

  // The value bound to a name. Arrays are values in Syn: a list bound from another name (or
  // from a call, which may return its argument) is copied when either side changes it in place.
  std::string bound_value(const Expr& v, bool target_in_place) {
    Py p = expr(v);
    if (!is_array(v.type)) return p.text;
    bool shared = v.kind == ExprKind::Name || (v.kind == ExprKind::Call && is_function(v.text));
    return (target_in_place && shared) || owned_name(v) ? copy_of(p) : p.text;
  }

  void statement(const Stmt& s) {
    switch (s.kind) {
      case StmtKind::Let: {
        Type t = s.annotation != Type::Unit ? s.annotation : s.exprs[0].type;
        bool in_place = is_array(t) && facts_[function_->name].in_place.count(s.name) > 0;
        std::string value = bound_value(s.exprs[0], in_place);  // before the name is declared
        line(declare(s.name, t, false).py + " = " + value);
        return;
      }
      case StmtKind::LetTuple: return let_tuple(s);
      case StmtKind::Assign: return assign(s);
      case StmtKind::ElementAssign: return element_assign(s);
      case StmtKind::If:
        for (size_t k = 0; k < s.exprs.size(); ++k) {
          line((k ? "elif " : "if ") + expr(s.exprs[k]).text + ":");
          suite(s.blocks[k]);
        }
        if (s.blocks.size() > s.exprs.size()) {
          line("else:");
          suite(s.blocks.back());
        }
        return;
      case StmtKind::While:
        line("while " + expr(s.exprs[0]).text + ":");
        suite(s.blocks[0]);
        return;
      case StmtKind::ForRange: return for_range(s);
      case StmtKind::ForIn: return for_in(s);
      case StmtKind::Break: line("break"); return;
      case StmtKind::Continue: line("continue"); return;
      case StmtKind::Return: line(s.exprs.empty() ? "return" : "return " + list(s.exprs)); return;
      case StmtKind::CallStmt: line(expr(s.exprs[0]).text); return;
      case StmtKind::Block: block(s.blocks[0]); return;
    }
  }

  void let_tuple(const Stmt& s) {
    const Expr& call = s.exprs[0];
    std::string value = expr(call).text;
    const Function& f = *program_.find(call.text);
    std::string names;
    std::vector<std::string> owned;  // the callee may return a list its caller still holds
    for (size_t k = 0; k < s.names.size(); ++k) {
      const Var& v = declare(s.names[k], f.results[k], false);
      names += (k ? ", " : "") + v.py;
      if (v.in_place) owned.push_back(v.py);
    }
    line(names + " = " + value);
    for (const std::string& py : owned) line(py + " = " + py + "[:]");
  }

  void assign(const Stmt& s) {
    const Var& var = lookup(s.name);
    const Expr& v = s.exprs[0];
    if (is_append(s)) {
      line(var.py + ".append(" + expr(v.children[1]).text + ")");
    } else if (const char* op = augmented_op(s)) {
      line(var.py + " " + op + "= " + expr(v.children[1]).text);
    } else {
      line(var.py + " = " + bound_value(v, var.in_place));
    }
  }

  // Syn evaluates the index, then the value, and checks the index at the store; Python
  // evaluates the value first. The order shows only when both can trap: then a temporary.
  void element_assign(const Stmt& s) {
    const Var& var = lookup(s.name);
    const Expr& at = s.exprs[0];
    if (!can_trap(at) || !can_trap(s.exprs[1])) {
      line(var.py + "[" + subscript(at) + "] = " + expr(s.exprs[1]).text);
      return;
    }
    line("_i = " + expr(at).text);  // not _k: the value may index with a `_k :=` of its own
    line(var.py + "[" + (nonneg(at) ? "_i" : "_i if _i >= 0 else _oob()") + "] = " + expr(s.exprs[1]).text);
  }

  void for_range(const Stmt& s) {
    const Expr& lo = s.exprs[0];
    std::string hi = expr(s.exprs[1]).text;
    bool from_zero = lo.kind == ExprKind::IntLit && lo.int_value == 0;
    std::string range = from_zero ? "range(" + hi + ")" : "range(" + expr(lo).text + ", " + hi + ")";
    bool nonneg_index = nonneg(lo) && !assigns(s.blocks[0], s.name);
    scopes_.emplace_back();
    line("for " + declare(s.name, Type::Int, nonneg_index).py + " in " + range + ":");
    suite(s.blocks[0]);
    scopes_.pop_back();
  }

  // The loop sees the sequence as it was when the loop started: a list this function changes
  // in place is iterated over a copy.
  void for_in(const Stmt& s) {
    const Expr& seq = s.exprs[0];
    Py p = expr(seq);
    std::string text = owned_name(seq) ? copy_of(p) : p.text;
    bool bytes = seq.type == Type::Str;
    scopes_.emplace_back();
    const Var& v =
        declare(s.name, bytes ? Type::Int : element_of(seq.type), bytes && !assigns(s.blocks[0], s.name));
    line("for " + v.py + " in " + text + ":");
    suite(s.blocks[0]);
    scopes_.pop_back();
  }

  void function(const Function& f, bool entry) {
    function_ = &f;
    scopes_.assign(1, {});
    std::string params;
    for (const trees::Param& p : f.params)
      params += (params.empty() ? "" : ", ") + declare(p.name, p.type, false).py;
    if (recursive_) params += std::string(params.empty() ? "" : ", ") + (entry ? "_d=1" : "_d");
    line("def " + function_py_[f.name] + "(" + params + "):");
    ++indent_;
    size_t before = out_.size();
    if (recursive_) line("if _d > " + std::to_string(options_.call_depth) + ": raise _CallDepth");
    for (const Var& v : scopes_[0])
      if (v.in_place) line(v.py + " = " + v.py + "[:]");  // the caller's list stays as it was
    block(f.body);
    if (out_.size() == before) line("pass");
    --indent_;
  }

  const trees::Tree& program_;
  PythonOptions options_;
  std::map<std::string, std::string> function_py_;  // Syn function name -> Python name
  std::set<std::string> function_names_;            // the Python names of all functions
  std::map<std::string, Facts> facts_;
  bool recursive_ = false;
  const Function* function_ = nullptr;
  std::vector<std::vector<Var>> scopes_;
  int indent_ = 0;
  std::string out_;
};

}  // namespace

PythonProgram to_python(const trees::Tree& program, std::string_view entry, const PythonOptions& options) {
  return Translator(program, options).run(entry);
}

}  // namespace gs::bench
