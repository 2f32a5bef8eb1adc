#include "trees/syntax.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "compiler/builtins.h"

namespace gs::trees {

// ---- operators --------------------------------------------------------------------------------

const char* op_text(UnaryOp op) {
  static const char* const kText[] = {"-", "!", "~"};
  return kText[u32(op)];
}

const char* op_text(BinaryOp op) {
  static const char* const kText[] = {"+",   "-",  "*",  "/", "%",  "&", "|",  "^",  "<<", ">>",
                                      ">>>", "==", "!=", "<", "<=", ">", ">=", "&&", "||"};
  return kText[u32(op)];
}

bool is_comparison(BinaryOp op) { return op >= BinaryOp::Eq && op <= BinaryOp::Ge; }

const char* stmt_kind_name(StmtKind k) {
  static const char* const kNames[] = {"let",    "let_tuple", "assign", "element_assign", "if",
                                       "while",  "for_range", "for_in", "break",          "continue",
                                       "return", "call_stmt", "block"};
  return kNames[u32(k)];
}

// ---- constructors ----------------------------------------------------------------------------

Expr Expr::int_lit(i64 v, bool hex) {
  Expr e;
  e.kind = ExprKind::IntLit;
  e.type = Type::Int;
  e.int_value = v;
  e.hex = hex;
  return e;
}

Expr Expr::float_lit(double v) {
  Expr e;
  e.kind = ExprKind::FloatLit;
  e.type = Type::Float;
  e.float_value = v;
  return e;
}

Expr Expr::bool_lit(bool v) {
  Expr e;
  e.kind = ExprKind::BoolLit;
  e.type = Type::Bool;
  e.int_value = v ? 1 : 0;
  return e;
}

Expr Expr::str_lit(std::string bytes) {
  Expr e;
  e.kind = ExprKind::StrLit;
  e.type = Type::Str;
  e.text = std::move(bytes);
  return e;
}

Expr Expr::array_lit(Type t, std::vector<Expr> elements) {
  Expr e;
  e.kind = ExprKind::ArrayLit;
  e.type = t;
  e.children = std::move(elements);
  return e;
}

Expr Expr::name(std::string n, Type t) {
  Expr e;
  e.kind = ExprKind::Name;
  e.type = t;
  e.text = std::move(n);
  return e;
}

Expr Expr::call(std::string callee, Type result, std::vector<Expr> args) {
  Expr e;
  e.kind = ExprKind::Call;
  e.type = result;
  e.text = std::move(callee);
  e.children = std::move(args);
  return e;
}

Expr Expr::index(Expr sequence, Expr at) {
  Expr e;
  e.kind = ExprKind::Index;
  e.type = item_of(sequence.type);
  e.children.push_back(std::move(sequence));
  e.children.push_back(std::move(at));
  return e;
}

Expr Expr::unary(UnaryOp op, Expr operand) {
  Expr e;
  e.kind = ExprKind::Unary;
  e.op = u8(op);
  e.type = operand.type;
  e.children.push_back(std::move(operand));
  return e;
}

Expr Expr::binary(BinaryOp op, Expr lhs, Expr rhs) {
  Expr e;
  e.kind = ExprKind::Binary;
  e.op = u8(op);
  e.type = (is_comparison(op) || op == BinaryOp::And || op == BinaryOp::Or) ? Type::Bool : lhs.type;
  e.children.push_back(std::move(lhs));
  e.children.push_back(std::move(rhs));
  return e;
}

Stmt Stmt::let(std::string name, Expr value, Type annotation) {
  Stmt s;
  s.kind = StmtKind::Let;
  s.name = std::move(name);
  s.annotation = annotation;
  s.exprs.push_back(std::move(value));
  return s;
}

Stmt Stmt::let_tuple(std::vector<std::string> names, Expr call) {
  Stmt s;
  s.kind = StmtKind::LetTuple;
  s.names = std::move(names);
  s.exprs.push_back(std::move(call));
  return s;
}

Stmt Stmt::assign(std::string name, Expr value) {
  Stmt s;
  s.kind = StmtKind::Assign;
  s.name = std::move(name);
  s.exprs.push_back(std::move(value));
  return s;
}

Stmt Stmt::element_assign(std::string name, Expr at, Expr value) {
  Stmt s;
  s.kind = StmtKind::ElementAssign;
  s.name = std::move(name);
  s.exprs.push_back(std::move(at));
  s.exprs.push_back(std::move(value));
  return s;
}

Stmt Stmt::if_chain(std::vector<Expr> conditions, std::vector<Block> blocks) {
  Stmt s;
  s.kind = StmtKind::If;
  s.exprs = std::move(conditions);
  s.blocks = std::move(blocks);
  return s;
}

Stmt Stmt::while_loop(Expr condition, Block body) {
  Stmt s;
  s.kind = StmtKind::While;
  s.exprs.push_back(std::move(condition));
  s.blocks.push_back(std::move(body));
  return s;
}

Stmt Stmt::for_range(std::string var, Expr lo, Expr hi, Block body) {
  Stmt s;
  s.kind = StmtKind::ForRange;
  s.name = std::move(var);
  s.exprs.push_back(std::move(lo));
  s.exprs.push_back(std::move(hi));
  s.blocks.push_back(std::move(body));
  return s;
}

Stmt Stmt::for_in(std::string var, Expr sequence, Block body) {
  Stmt s;
  s.kind = StmtKind::ForIn;
  s.name = std::move(var);
  s.exprs.push_back(std::move(sequence));
  s.blocks.push_back(std::move(body));
  return s;
}

Stmt Stmt::jump(StmtKind break_or_continue) {
  Stmt s;
  s.kind = break_or_continue;
  return s;
}

Stmt Stmt::ret(std::vector<Expr> values) {
  Stmt s;
  s.kind = StmtKind::Return;
  s.exprs = std::move(values);
  return s;
}

Stmt Stmt::call_stmt(Expr call) {
  Stmt s;
  s.kind = StmtKind::CallStmt;
  s.exprs.push_back(std::move(call));
  return s;
}

Stmt Stmt::block(Block body) {
  Stmt s;
  s.kind = StmtKind::Block;
  s.blocks.push_back(std::move(body));
  return s;
}

const Function* Tree::find(std::string_view name) const {
  for (const Function& f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

// ---- builtins --------------------------------------------------------------------------------

const char* builtin_name(Builtin b) { return compiler::overload(u32(b)).name; }

namespace {

const char* pattern_text(compiler::Pattern p) {
  using compiler::Pattern;
  switch (p) {
    case Pattern::ARRAY: return "[T]";
    case Pattern::ELEM:
    case Pattern::SCALAR: return "T";
    case Pattern::INT: return "int";
    case Pattern::FLOAT: return "float";
    case Pattern::BOOL: return "bool";
    case Pattern::STR: return "str";
    case Pattern::INT_ARRAY: return "[int]";
    case Pattern::FLOAT_ARRAY: return "[float]";
    case Pattern::STR_ARRAY: return "[str]";
    case Pattern::_: break;
  }
  return "?";
}

// "min([int])": the row's name and its patterns.
std::string render_signature(const compiler::Overload& o) {
  std::string out = std::string(o.name) + "(";
  for (u32 k = 0; k < o.arity; ++k) {
    if (k > 0) out += ',';
    out += pattern_text(o.params[k]);
  }
  return out + ")";
}

}  // namespace

const char* builtin_signature(Builtin b) {
  static const std::vector<std::string> signatures = [] {
    std::vector<std::string> all;
    for (u32 i = 0; i < kBuiltinCount; ++i) all.push_back(render_signature(compiler::overload(i)));
    return all;
  }();
  return signatures[u32(b)].c_str();
}

bool is_builtin_name(std::string_view name) {
  return compiler::find_builtin(name.data(), u32(name.size())) >= 0;
}

std::optional<Builtin> resolve_builtin(std::string_view name, std::span<const Type> args, Type* result) {
  i32 first = compiler::find_builtin(name.data(), u32(name.size()));
  if (first < 0) return std::nullopt;
  u32 instruction = 0;
  i32 row = compiler::resolve_builtin(u32(first), args.data(), u32(args.size()), result, &instruction);
  if (row < 0) return std::nullopt;
  return Builtin(row);
}

// ---- literals --------------------------------------------------------------------------------

std::string type_source(Type t) {
  std::string out = is_array(t) ? "[" : "";  // built in place: GCC 12 warns on "[" + string&&
  out += type_name(is_array(t) ? element_of(t) : t);
  if (is_array(t)) out += ']';
  return out;
}

std::string string_literal(std::string_view bytes) {
  std::string out = "\"";
  for (unsigned char c : bytes) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      case '\0': out += "\\0"; break;
      default:
        if (c < 0x20 || c == 0x7f) {  // bytes >= 0x80 are legal as they are inside a string
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", c);
          out += buf;
        } else {
          out += char(c);
        }
    }
  }
  return out + "\"";
}

namespace {

// Shortest round-trip digits of a positive finite v, as v = digits * 10^exponent.
void shortest_decimal(double v, std::string* digits, int* exponent) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string text(buf, r.ptr);  // "d.ddde+XX"
  size_t e = text.find('e');
  digits->clear();
  for (size_t k = 0; k < e; ++k)
    if (text[k] != '.') *digits += text[k];
  *exponent = std::atoi(text.c_str() + e + 1) - int(digits->size() - 1);
}

}  // namespace

bool float_literal_is_exact(double v) {
  if (!std::isfinite(v)) return false;
  v = std::fabs(v);
  if (v == 0) return true;
  std::string digits;
  int exponent;
  shortest_decimal(v, &digits, &exponent);
  int nd = int(digits.size());
  int point = nd + exponent;  // digits before the decimal point
  u64 mantissa = std::strtoull(digits.c_str(), nullptr, 10);
  if (point >= -5 && point <= 10) {  // the plain form float_literal writes
    // Count every written digit (leading zeros included) in case the compiler does.
    int written = point <= 0 ? 1 - point + nd : (point >= nd ? point + 1 : nd);
    for (int k = 0; point >= nd && k <= point - nd; ++k) mantissa *= 10;  // "1000.0" is 10000e-1
    int scale = point >= nd ? -1 : point - nd;
    return written <= 19 && mantissa < (u64(1) << 53) && scale >= -22;
  }
  return nd <= 19 && mantissa < (u64(1) << 53) && exponent >= -22 && exponent <= 22;
}

std::string float_literal(double v) {
  if (std::isnan(v)) return "(0.0 / 0.0)";
  if (std::isinf(v)) return v > 0 ? "(1.0 / 0.0)" : "(-1.0 / 0.0)";
  std::string sign = std::signbit(v) ? "-" : "";
  v = std::fabs(v);
  if (v == 0) return sign + "0.0";
  std::string digits;
  int exponent;
  shortest_decimal(v, &digits, &exponent);
  int point = int(digits.size()) + exponent;
  if (point >= -5 && point <= 10) {  // plain decimal: 0.00015, 1.5, 1000.0
    std::string whole, fraction;
    if (point <= 0) {
      whole = "0";
      fraction = std::string(size_t(-point), '0') + digits;
    } else if (point >= int(digits.size())) {
      whole = digits + std::string(size_t(point) - digits.size(), '0');
      fraction = "0";
    } else {
      whole = digits.substr(0, size_t(point));
      fraction = digits.substr(size_t(point));
    }
    return sign + whole + "." + fraction;
  }
  std::string mantissa = digits.size() == 1 ? digits : digits.substr(0, 1) + "." + digits.substr(1);
  return sign + mantissa + "e" + std::to_string(point - 1);
}

// ---- printer ---------------------------------------------------------------------------------

namespace {

// Binding strength, loosest first (docs/language.md §2).
enum Prec : int {
  kOr = 1,
  kAnd,
  kCompare,
  kBitOr,
  kBitXor,
  kBitAnd,
  kShift,
  kAdd,
  kMul,
  kUnary,
  kPostfix,
  kPrimary
};

int binary_prec(BinaryOp op) {
  switch (op) {
    case BinaryOp::Or: return kOr;
    case BinaryOp::And: return kAnd;
    case BinaryOp::BitOr: return kBitOr;
    case BinaryOp::BitXor: return kBitXor;
    case BinaryOp::BitAnd: return kBitAnd;
    case BinaryOp::Shl:
    case BinaryOp::Shr:
    case BinaryOp::Ushr: return kShift;
    case BinaryOp::Add:
    case BinaryOp::Sub: return kAdd;
    case BinaryOp::Mul:
    case BinaryOp::Div:
    case BinaryOp::Mod: return kMul;
    default: return kCompare;
  }
}

int expr_prec(const Expr& e) {
  switch (e.kind) {
    case ExprKind::IntLit: return (!e.hex && e.int_value < 0) ? kUnary : kPrimary;
    case ExprKind::FloatLit: return std::signbit(e.float_value) ? kUnary : kPrimary;
    case ExprKind::Unary: return kUnary;
    case ExprKind::Binary: return binary_prec(e.binary_op());
    case ExprKind::Index: return kPostfix;
    default: return kPrimary;
  }
}

std::string int_literal(i64 v, bool hex) {
  char buf[32];
  if (hex) {
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
  }
  if (v >= 0) return std::to_string(v);
  return "-" + std::to_string(0 - u64(v));  // -9223372036854775808 is legal after a minus
}

void print_expr(const Expr& e, int min_prec, std::string& out);

void print_list(const std::vector<Expr>& items, std::string& out) {
  for (size_t k = 0; k < items.size(); ++k) {
    if (k) out += ", ";
    print_expr(items[k], 0, out);
  }
}

void print_expr_bare(const Expr& e, std::string& out) {
  switch (e.kind) {
    case ExprKind::IntLit: out += int_literal(e.int_value, e.hex); return;
    case ExprKind::FloatLit: out += float_literal(e.float_value); return;
    case ExprKind::BoolLit: out += e.int_value ? "true" : "false"; return;
    case ExprKind::StrLit: out += string_literal(e.text); return;
    case ExprKind::Name: out += e.text; return;
    case ExprKind::ArrayLit:
      out += '[';
      print_list(e.children, out);
      out += ']';
      return;
    case ExprKind::Call:
      out += e.text;
      out += '(';
      print_list(e.children, out);
      out += ')';
      return;
    case ExprKind::Index:
      print_expr(e.children[0], kPostfix, out);
      out += '[';
      print_expr(e.children[1], 0, out);
      out += ']';
      return;
    case ExprKind::Unary:
      out += op_text(e.unary_op());
      print_expr(e.children[0], kUnary, out);
      return;
    case ExprKind::Binary: {
      int p = binary_prec(e.binary_op());
      print_expr(e.children[0], p == kCompare ? p + 1 : p, out);  // left-associative
      out += ' ';
      out += op_text(e.binary_op());
      out += ' ';
      print_expr(e.children[1], p + 1, out);
      return;
    }
  }
}

void print_expr(const Expr& e, int min_prec, std::string& out) {
  bool parens = expr_prec(e) < min_prec;
  if (parens) out += '(';
  print_expr_bare(e, out);
  if (parens) out += ')';
}

void indent(int depth, std::string& out) { out.append(size_t(depth) * 2, ' '); }

void print_block(const Block& b, int depth, std::string& out);

void print_if(const Stmt& s, int depth, std::string& out) {
  for (size_t k = 0; k < s.exprs.size(); ++k) {
    out += k ? " else if " : "if ";
    print_expr(s.exprs[k], 0, out);
    out += ' ';
    print_block(s.blocks[k], depth, out);
  }
  if (s.blocks.size() > s.exprs.size()) {
    out += " else ";
    print_block(s.blocks.back(), depth, out);
  }
}

void print_stmt(const Stmt& s, int depth, std::string& out) {
  indent(depth, out);
  switch (s.kind) {
    case StmtKind::Let:
      out += "let " + s.name;
      if (s.annotation != Type::Unit) out += ": " + type_source(s.annotation);
      out += " = ";
      print_expr(s.exprs[0], 0, out);
      out += ';';
      break;
    case StmtKind::LetTuple:
      out += "let (";
      for (size_t k = 0; k < s.names.size(); ++k) out += (k ? ", " : "") + s.names[k];
      out += ") = ";
      print_expr(s.exprs[0], 0, out);
      out += ';';
      break;
    case StmtKind::Assign:
      out += s.name + " = ";
      print_expr(s.exprs[0], 0, out);
      out += ';';
      break;
    case StmtKind::ElementAssign:
      out += s.name + "[";
      print_expr(s.exprs[0], 0, out);
      out += "] = ";
      print_expr(s.exprs[1], 0, out);
      out += ';';
      break;
    case StmtKind::If: print_if(s, depth, out); break;
    case StmtKind::While:
      out += "while ";
      print_expr(s.exprs[0], 0, out);
      out += ' ';
      print_block(s.blocks[0], depth, out);
      break;
    case StmtKind::ForRange:
    case StmtKind::ForIn:
      out += "for " + s.name + " in ";
      print_expr(s.exprs[0], 0, out);
      if (s.kind == StmtKind::ForRange) {
        out += "..";
        print_expr(s.exprs[1], 0, out);
      }
      out += ' ';
      print_block(s.blocks[0], depth, out);
      break;
    case StmtKind::Break: out += "break;"; break;
    case StmtKind::Continue: out += "continue;"; break;
    case StmtKind::Return:
      out += "return";
      if (s.exprs.size() == 1) {
        out += ' ';
        print_expr(s.exprs[0], 0, out);
      } else if (s.exprs.size() > 1) {
        out += " (";
        print_list(s.exprs, out);
        out += ')';
      }
      out += ';';
      break;
    case StmtKind::CallStmt:
      print_expr(s.exprs[0], 0, out);
      out += ';';
      break;
    case StmtKind::Block: print_block(s.blocks[0], depth, out); break;
  }
}

void print_block(const Block& b, int depth, std::string& out) {
  out += "{\n";
  for (const Stmt& s : b) {
    print_stmt(s, depth + 1, out);
    out += '\n';
  }
  indent(depth, out);
  out += '}';
}

void print_function(const Function& f, std::string& out) {
  out += "fn " + f.name + "(";
  for (size_t k = 0; k < f.params.size(); ++k)
    out += (k ? ", " : "") + f.params[k].name + ": " + type_source(f.params[k].type);
  out += ')';
  if (f.results.size() == 1) out += " -> " + type_source(f.results[0]);
  if (f.results.size() > 1) {
    out += " -> (";
    for (size_t k = 0; k < f.results.size(); ++k) out += (k ? ", " : "") + type_source(f.results[k]);
    out += ')';
  }
  out += ' ';
  print_block(f.body, 0, out);
  out += '\n';
}

}  // namespace

std::optional<Expr> literal_of(const vm::Value& v) {
  switch (v.type) {
    case Type::Int: return Expr::int_lit(v.i);
    case Type::Float: return Expr::float_lit(v.f);
    case Type::Bool: return Expr::bool_lit(v.i != 0);
    case Type::Str: return Expr::str_lit(v.s);
    default: break;
  }
  if (!is_array(v.type) || v.items.empty()) return std::nullopt;
  std::vector<Expr> items;
  for (const vm::Value& item : v.items) items.push_back(*literal_of(item));
  return Expr::array_lit(v.type, std::move(items));
}

std::string to_source(const Expr& e) {
  std::string out;
  print_expr(e, 0, out);
  return out;
}

std::string to_source(const Tree& p) {
  std::string out;
  for (const Function& f : p.functions) print_function(f, out);
  return out;
}

// ---- traversal -------------------------------------------------------------------------------

namespace {

void collect_in_expr(Expr& e, Type t, std::vector<Expr*>& out) {
  if (t == Type::Error || e.type == t) out.push_back(&e);
  for (Expr& c : e.children) collect_in_expr(c, t, out);
}

template <typename Visit>
void visit_blocks(Block& b, Visit& visit) {
  visit(b);
  for (Stmt& s : b)
    for (Block& inner : s.blocks) visit_blocks(inner, visit);
}

u32 count_expr(const Expr& e) {
  u32 n = 1;
  for (const Expr& c : e.children) n += count_expr(c);
  return n;
}

u32 count_block(const Block& b) {
  u32 n = 0;
  for (const Stmt& s : b) {
    n += 1;
    for (const Expr& e : s.exprs) n += count_expr(e);
    for (const Block& inner : s.blocks) n += count_block(inner);
  }
  return n;
}

}  // namespace

std::vector<Expr*> collect_exprs(Tree& p, Type t) {
  std::vector<Expr*> out;
  auto visit = [&](Block& b) {
    for (Stmt& s : b)
      for (Expr& e : s.exprs) collect_in_expr(e, t, out);
  };
  for (Function& f : p.functions) visit_blocks(f.body, visit);
  return out;
}

std::vector<Block*> collect_blocks(Tree& p) {
  std::vector<Block*> out;
  auto visit = [&](Block& b) { out.push_back(&b); };
  for (Function& f : p.functions) visit_blocks(f.body, visit);
  return out;
}

u32 node_count(const Tree& p) {
  u32 n = 0;
  for (const Function& f : p.functions) n += 1 + u32(f.params.size()) + count_block(f.body);
  return n;
}

}  // namespace gs::trees
