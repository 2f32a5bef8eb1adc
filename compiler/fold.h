// Constant folding, the first of the optimiser's three parts (the others: dead code after
// return/break/continue in codegen.h, jump threading in peephole.h). A typed Unary or Binary
// node whose operands are literals becomes a literal, computed with the VM's own arithmetic
// (vm/arith.h) so folding never changes a result. An integer division by a literal zero is
// left alone: it must trap at run time.
#pragma once

#include <cmath>

#include "compiler/token.h"
#include "compiler/workspace.h"
#include "vm/arith.h"

namespace gs::compiler {

GS_HD inline bool is_literal(const Node& n) {
  return n.kind == NodeKind::IntLit || n.kind == NodeKind::FloatLit || n.kind == NodeKind::BoolLit;
}

GS_HD inline void make_literal(Node& n, NodeKind kind, u64 value) {
  n.kind = kind;
  n.value = value;
  n.first = 0;
  n.depth = 1;
}

// Replaces node with its child (keeping node's place among its siblings).
GS_HD inline void replace_with(Workspace& w, u32 node, u32 child) {
  u32 next = w.nodes[node].next;
  w.nodes[node] = w.nodes[child];
  w.nodes[node].next = next;
}

// The six comparisons, for ints and floats alike (IEEE for floats: false with NaN).
template <typename T>
GS_HD inline bool fold_comparison(Tok op, T a, T b, u64* out) {
  switch (op) {
    case Tok::LT: *out = a < b; return true;
    case Tok::LE: *out = a <= b; return true;
    case Tok::GT: *out = a > b; return true;
    case Tok::GE: *out = a >= b; return true;
    case Tok::EQ: *out = a == b; return true;
    case Tok::NE: *out = a != b; return true;
    default: return false;
  }
}

GS_HD inline bool fold_ints(Tok op, i64 a, i64 b, u64* out, bool* is_bool) {
  using namespace vm;
  *is_bool = false;
  switch (op) {
    case Tok::PLUS: *out = u64(wrap_add(a, b)); return true;
    case Tok::MINUS: *out = u64(wrap_sub(a, b)); return true;
    case Tok::STAR: *out = u64(wrap_mul(a, b)); return true;
    case Tok::SLASH:
      if (b == 0) return false;
      *out = u64(int_div(a, b));
      return true;
    case Tok::PERCENT:
      if (b == 0) return false;
      *out = u64(int_mod(a, b));
      return true;
    case Tok::FLOOR_DIV:
      if (b == 0) return false;
      *out = u64(floor_div(a, b));
      return true;
    case Tok::FLOOR_MOD:
      if (b == 0) return false;
      *out = u64(floor_mod(a, b));
      return true;
    case Tok::AMP: *out = u64(a & b); return true;
    case Tok::PIPE: *out = u64(a | b); return true;
    case Tok::CARET: *out = u64(a ^ b); return true;
    case Tok::SHL: *out = u64(shift_left(a, b)); return true;
    case Tok::SHR: *out = u64(shift_right(a, b)); return true;
    case Tok::USHR: *out = u64(shift_right_logical(a, b)); return true;
    default: break;
  }
  *is_bool = true;
  return fold_comparison(op, a, b, out);
}

GS_HD inline bool fold_floats(Tok op, double a, double b, u64* out, bool* is_bool) {
  *is_bool = false;
  switch (op) {
    case Tok::PLUS: *out = bits_of(a + b); return true;
    case Tok::MINUS: *out = bits_of(a - b); return true;
    case Tok::STAR: *out = bits_of(a * b); return true;
    case Tok::SLASH: *out = bits_of(a / b); return true;
    case Tok::PERCENT: *out = bits_of(std::fmod(a, b)); return true;
    default: break;
  }
  *is_bool = true;
  return fold_comparison(op, a, b, out);
}

GS_HD inline void fold_unary(Workspace& w, Node& n) {
  const Node& c = w.nodes[n.first];
  Tok op = Tok(n.op);
  if (c.kind == NodeKind::IntLit && op == Tok::MINUS)
    make_literal(n, NodeKind::IntLit, u64(vm::wrap_neg(i64(c.value))));
  else if (c.kind == NodeKind::IntLit && op == Tok::TILDE)
    make_literal(n, NodeKind::IntLit, ~c.value);
  else if (c.kind == NodeKind::FloatLit && op == Tok::MINUS)
    make_literal(n, NodeKind::FloatLit, c.value ^ (u64(1) << 63));
  else if (c.kind == NodeKind::BoolLit && op == Tok::NOT)
    make_literal(n, NodeKind::BoolLit, c.value ^ 1);
}

GS_HD inline void fold_binary(Workspace& w, u32 node) {
  Node& n = w.nodes[node];
  u32 lhs = n.first, rhs = w.nodes[lhs].next;
  const Node& l = w.nodes[lhs];
  const Node& r = w.nodes[rhs];
  Tok op = Tok(n.op);
  if ((op == Tok::AND || op == Tok::OR) && l.kind == NodeKind::BoolLit) {
    // the right side is evaluated only when the left does not decide
    bool decides = (op == Tok::AND) ? l.value == 0 : l.value == 1;
    if (decides)
      make_literal(n, NodeKind::BoolLit, l.value);
    else
      replace_with(w, node, rhs);
    return;
  }
  if (l.kind != r.kind || !is_literal(l)) return;
  u64 out;
  bool is_bool;
  bool ok = false;
  if (l.kind == NodeKind::IntLit) ok = fold_ints(op, i64(l.value), i64(r.value), &out, &is_bool);
  if (l.kind == NodeKind::FloatLit)
    ok = fold_floats(op, double_of(l.value), double_of(r.value), &out, &is_bool);
  if (l.kind == NodeKind::BoolLit && (op == Tok::EQ || op == Tok::NE)) {
    ok = is_bool = true;
    out = (l.value == r.value) == (op == Tok::EQ);
  }
  if (!ok) return;
  make_literal(n, is_bool ? NodeKind::BoolLit : l.kind, out);
}

// Folds a just-typed Unary or Binary node in place.
GS_HD inline void fold(Workspace& w, u32 node) {
  Node& n = w.nodes[node];
  if (n.type == Type::Error) return;
  if (n.kind == NodeKind::Unary)
    fold_unary(w, n);
  else if (n.kind == NodeKind::Binary)
    fold_binary(w, node);
}

}  // namespace gs::compiler
