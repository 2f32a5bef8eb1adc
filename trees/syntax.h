// A host-side typed syntax tree of Syn programs (docs/language.md), made by the random program
// generator and by genetic operators, printed to source for the compiler and walked by the
// reference evaluator (tests/reference).
//
// Nodes own their children by value, so copying a node clones its subtree and a subtree can be
// replaced by assignment (mutation) or swapped with one of the same type from another program
// (crossover); collect_exprs() lists the candidates of a type. Every expression carries its
// Syn type; a call of a function with several results has type Tuple, one with none Unit.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/types.h"
#include "vm/value.h"

namespace gs::trees {

// clang-format off
enum class UnaryOp : u8 { Neg, Not, BitNot };
enum class BinaryOp : u8 {
  Add, Sub, Mul, Div, Mod,                // arithmetic (and + on str and arrays)
  BitAnd, BitOr, BitXor, Shl, Shr, Ushr,  // int only
  Eq, Ne, Lt, Le, Gt, Ge,                 // comparisons
  And, Or,                                // short-circuit
};
// clang-format on
inline constexpr u32 kUnaryOpCount = 3;
inline constexpr u32 kBinaryOpCount = 19;

const char* op_text(UnaryOp op);
const char* op_text(BinaryOp op);
bool is_comparison(BinaryOp op);

enum class ExprKind : u8 { IntLit, FloatLit, BoolLit, StrLit, ArrayLit, Name, Call, Index, Unary, Binary };

struct Expr {
  ExprKind kind = ExprKind::IntLit;
  Type type = Type::Int;
  u8 op = 0;                   // UnaryOp / BinaryOp
  bool hex = false;            // IntLit: printed as 64-bit hexadecimal
  i64 int_value = 0;           // IntLit, BoolLit (0/1)
  double float_value = 0;      // FloatLit
  std::string text;            // StrLit: the bytes; Name: the variable; Call: the callee
  std::vector<Expr> children;  // Unary/Binary operands, ArrayLit elements, Call arguments,
                               // Index: {sequence, index}

  static Expr int_lit(i64 v, bool hex = false);
  static Expr float_lit(double v);
  static Expr bool_lit(bool v);
  static Expr str_lit(std::string bytes);
  // An array literal of array type t; an empty one prints as "[]".
  static Expr array_lit(Type t, std::vector<Expr> elements);
  static Expr name(std::string n, Type t);
  static Expr call(std::string callee, Type result, std::vector<Expr> args);
  static Expr index(Expr sequence, Expr at);
  static Expr unary(UnaryOp op, Expr operand);
  // The result type follows from the operator and the operands' types.
  static Expr binary(BinaryOp op, Expr lhs, Expr rhs);

  UnaryOp unary_op() const { return UnaryOp(op); }
  BinaryOp binary_op() const { return BinaryOp(op); }
};

enum class StmtKind : u8 {
  Let,
  LetTuple,
  Assign,
  ElementAssign,
  If,
  While,
  ForRange,
  ForIn,
  Break,
  Continue,
  Return,
  CallStmt,
  Block,
};
inline constexpr u32 kStmtKindCount = 13;
const char* stmt_kind_name(StmtKind k);

struct Stmt;
using Block = std::vector<Stmt>;

struct Stmt {
  StmtKind kind = StmtKind::Block;
  std::string name;                // Let, Assign, ElementAssign; the loop variable of a for
  std::vector<std::string> names;  // LetTuple
  Type annotation = Type::Unit;    // Let: the written type, Unit when inferred
  // Let/Assign: {value}; ElementAssign: {index, value}; If: the conditions of if / else if;
  // While: {condition}; ForRange: {lo, hi}; ForIn: {sequence}; Return: the values (none,
  // one, or a tuple); CallStmt: {call}; LetTuple: {call}.
  std::vector<Expr> exprs;
  // If: one block per condition, then the else block if any; While/For: {body}; Block: {body}.
  std::vector<Block> blocks;

  static Stmt let(std::string name, Expr value, Type annotation = Type::Unit);
  static Stmt let_tuple(std::vector<std::string> names, Expr call);
  static Stmt assign(std::string name, Expr value);
  static Stmt element_assign(std::string name, Expr at, Expr value);
  static Stmt if_chain(std::vector<Expr> conditions, std::vector<Block> blocks);
  static Stmt while_loop(Expr condition, Block body);
  static Stmt for_range(std::string var, Expr lo, Expr hi, Block body);
  static Stmt for_in(std::string var, Expr sequence, Block body);
  static Stmt jump(StmtKind break_or_continue);
  static Stmt ret(std::vector<Expr> values);
  static Stmt call_stmt(Expr call);
  static Stmt block(Block body);
};

struct Param {
  std::string name;
  Type type;
};

struct Function {
  std::string name;
  std::vector<Param> params;
  std::vector<Type> results;  // none, one, or 2..8 (a tuple)
  Block body;
};

struct Tree {
  std::vector<Function> functions;
  const Function* find(std::string_view name) const;
};

// ---- builtins --------------------------------------------------------------------------------

// Every overload of every builtin: the rows of compiler/builtins.def, by their ids.
enum class Builtin : u8 {
#define BUILTIN(id, name, n, p0, p1, p2, result, opcode, operand) id,
#include "compiler/builtins.def"
#undef BUILTIN
};
inline constexpr u32 kBuiltinCount = 0
#define BUILTIN(id, name, n, p0, p1, p2, result, opcode, operand) +1
#include "compiler/builtins.def"
#undef BUILTIN
    ;
const char* builtin_name(Builtin b);       // "min"
const char* builtin_signature(Builtin b);  // "min([int])"
bool is_builtin_name(std::string_view name);
// The overload of `name` that takes arguments of these types, and its result type; nullopt
// when none does: the checker's own resolution (compiler/builtins.h). Arguments have concrete
// types (an empty literal has its array type).
std::optional<Builtin> resolve_builtin(std::string_view name, std::span<const Type> args, Type* result);

// ---- printing and traversal ------------------------------------------------------------------

// Syn source of a program; parentheses only where precedence needs them.
std::string to_source(const Tree& p);
std::string to_source(const Expr& e);
// A value as a literal; none for an empty array (Syn cannot type `[]` standing alone).
std::optional<Expr> literal_of(const vm::Value& v);
std::string type_source(Type t);  // "int", "[str]"
// A float literal that reads back as exactly v when v has a short decimal form (see
// float_literal_is_exact); non-finite values print as a division, e.g. "(1.0 / 0.0)".
std::string float_literal(double v);
// Whether float_literal(v) lies on the compiler's exact conversion path (docs/language.md §1:
// at most 19 significant digits, mantissa below 2^53, decimal exponent within ±22).
bool float_literal_is_exact(double v);
// The bytes of a string literal, escaped, with the quotes.
std::string string_literal(std::string_view bytes);

// Pointers to every expression of type t in p (every expression when t is Type::Error), in a
// fixed order: the mutation and crossover points. Valid until p changes shape.
std::vector<Expr*> collect_exprs(Tree& p, Type t);
// Pointers to every block (function bodies and nested blocks), outer blocks first.
std::vector<Block*> collect_blocks(Tree& p);
// Number of expression and statement nodes.
u32 node_count(const Tree& p);

}  // namespace gs::trees
