// Random expressions (trees/random_expressions.h).
#include "trees/random_expressions.h"

#include <algorithm>

#include "trees/random_values.h"

namespace gs::trees::random {

// ---- statements ----

Expr ExpressionMaker::grown(const std::string& name, Type t, int d) {
  Expr self = Expr::name(name, t);
  if (is_array(t) && s_.has("push") && s_.chance(0.5))
    return Expr::call("push", t, {std::move(self), untainted(element_of(t), d)});
  return Expr::binary(BinaryOp::Add, std::move(self), untainted(t, d));
}

Expr ExpressionMaker::untainted(Type t, int d) {
  bool saved = s_.exclude_tainted;
  s_.exclude_tainted = true;
  Expr e = expr(t, d);
  s_.exclude_tainted = saved;
  return e;
}

// ---- calls ----

Expr ExpressionMaker::depth_argument(Recursion r) {
  switch (r) {
    case Recursion::Bounded:
      if (s_.chance(0.5)) return Expr::int_lit(s_.uniform(-1, kBoundedDepth));
      return Expr::binary(BinaryOp::Mod, int_expr(1), Expr::int_lit(kBoundedDepth + 1));
    case Recursion::Deep:
      if (s_.chance(0.8)) return Expr::int_lit(s_.uniform(kDeepDepth - 10, kDeepDepth));
      return Expr::binary(BinaryOp::Mod, int_expr(1), Expr::int_lit(kDeepDepth + 1));
    default:
      if (s_.chance(0.6)) return Expr::int_lit(s_.uniform(-1, 3));
      return int_expr(1);
  }
}

std::optional<Expr> ExpressionMaker::valued_call(Type t, int d) {
  if (d <= 0) return std::nullopt;
  return user_call([&](const Signature& s) { return s.results.size() == 1 && s.results[0] == t; }, d);
}

// ---- expressions ----

Expr ExpressionMaker::expr(Type t, int d) {
  switch (t) {
    case Type::Int: return int_expr(d);
    case Type::Float: return float_expr(d);
    case Type::Bool: return bool_expr(d);
    case Type::Str: return str_expr(d);
    default: return array_expr(t, d);
  }
}

Expr ExpressionMaker::literal(Type t) {
  switch (t) {
    case Type::Int: return Expr::int_lit(random_int(s_.rng), s_.chance(0.1));
    case Type::Float: return Expr::float_lit(random_float(s_.rng));
    case Type::Bool: return Expr::bool_lit(s_.chance(0.5));
    case Type::Str: return Expr::str_lit(random_bytes(s_.rng, 6));
    default: {
      std::vector<Expr> items(1 + s_.below(3));
      for (Expr& e : items) e = literal(element_of(t));
      return Expr::array_lit(t, std::move(items));
    }
  }
}

Expr ExpressionMaker::leaf(Type t) {
  if (s_.chance(0.75))
    if (Var* v = s_.random_var(t)) return Expr::name(v->name, t);
  return literal(t);
}

Expr ExpressionMaker::call1(const char* f, Type result, Expr a) {
  return Expr::call(f, result, {std::move(a)});
}

Expr ExpressionMaker::call2(const char* f, Type result, Expr a, Expr b) {
  return Expr::call(f, result, {std::move(a), std::move(b)});
}

Expr ExpressionMaker::array_or_empty(Type t, int d) {
  return s_.chance(0.15) ? Expr::array_lit(t, {}) : array_expr(t, d);
}

Expr ExpressionMaker::int_expr(int d) {
  if (d <= 0) return leaf(Type::Int);
  bool seqs = s_.cfg.strings || s_.cfg.arrays;
  int k = s_.choose({6, 2, 6, 3, 2, 2, seqs && s_.has("len") ? 3 : 0, 3, s_.cfg.arrays ? 2 : 0,
                     s_.cfg.arrays && s_.has("sum") ? 1 : 0, seqs && s_.has("index_of") ? 2 : 0, 2,
                     s_.cfg.strings && s_.has("parse_int") ? 2 : 0, seqs ? 3 : 0, 2, 1});
  int e = d - 1;
  switch (k) {
    case 0: return leaf(Type::Int);
    case 1: return Expr::unary(s_.chance(0.5) ? UnaryOp::Neg : UnaryOp::BitNot, int_expr(e));
    case 2:
      return Expr::binary(s_.pick({BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul}), int_expr(e), int_expr(e));
    case 3: return division(Type::Int, e);
    case 4:
      return Expr::binary(s_.pick({BinaryOp::BitAnd, BinaryOp::BitOr, BinaryOp::BitXor}), int_expr(e),
                          int_expr(e));
    case 5: {
      Expr amount = s_.chance(0.6) ? Expr::int_lit(s_.uniform(0, 70)) : int_expr(e);
      return Expr::binary(s_.pick({BinaryOp::Shl, BinaryOp::Shr, BinaryOp::Ushr}), int_expr(e),
                          std::move(amount));
    }
    case 6: return call1("len", Type::Int, expr(s_.random_sequence_type(), e));
    case 7: return number_builtin(Type::Int, e);
    case 8: return array_fold(Type::Int, e);
    case 9: return call1("sum", Type::Int, array_expr(Type::IntArray, e));
    case 10: return search_builtin("index_of", Type::Int, e);
    case 11: return int_conversion(e);
    case 12: return parse_int(e);
    case 13: return element(Type::Int, e);
    case 14:
      if (auto call = valued_call(Type::Int, d)) return std::move(*call);
      return leaf(Type::Int);
    default: return int_edge(e);
  }
}

Expr ExpressionMaker::int_edge(int e) {
  Expr min_int = Expr::binary(BinaryOp::Sub, Expr::int_lit(-INT64_MAX), Expr::int_lit(1));
  Expr x =
      s_.has("min") ? call2("min", Type::Int, int_expr(e), std::move(min_int)) : int_expr(e);  // usually MIN
  switch (s_.below(4)) {
    case 0: return Expr::binary(BinaryOp::Div, std::move(x), Expr::int_lit(-1));
    case 1: return Expr::binary(BinaryOp::Mod, std::move(x), Expr::int_lit(-1));
    case 2: return s_.has("abs") ? call1("abs", Type::Int, std::move(x)) : x;
    default: return Expr::unary(UnaryOp::Neg, std::move(x));
  }
}

Expr ExpressionMaker::float_edge(int e) {
  Expr zero = Expr::float_lit(s_.chance(0.5) ? 0.0 : -0.0);
  switch (s_.below(6)) {
    case 0: return Expr::binary(BinaryOp::Div, float_expr(e), std::move(zero));  // +-inf or NaN
    case 1: return Expr::binary(BinaryOp::Div, zero, Expr::float_lit(0.0));      // NaN
    case 2: return Expr::binary(BinaryOp::Mul, float_expr(e), std::move(zero));  // +-0 or NaN
    case 3: return s_.has("sqrt") ? call1("sqrt", Type::Float, float_expr(e)) : zero;
    case 4: return Expr::binary(BinaryOp::Mul, float_expr(e), Expr::float_lit(1e22));
    default: {
      const char* f = s_.chance(0.5) ? "min" : "max";
      return s_.has(f) ? call2(f, Type::Float, float_expr(e), std::move(zero)) : zero;
    }
  }
}

Expr ExpressionMaker::division(Type t, int e) {
  BinaryOp op = s_.chance(0.5) ? BinaryOp::Div : BinaryOp::Mod;
  Expr a = expr(t, e);
  if (t == Type::Float) return Expr::binary(op, std::move(a), float_expr(e));
  Expr b = int_expr(e);
  if (!s_.risky() && !(b.kind == ExprKind::IntLit && b.int_value != 0)) {
    b = s_.chance(0.5) ? Expr::int_lit(s_.pick<i64>({-1, 1, 2, 3, 7, 10, -2, 1000}))
                       : Expr::binary(BinaryOp::BitOr, std::move(b), Expr::int_lit(1));
  }
  return Expr::binary(op, std::move(a), std::move(b));
}

Expr ExpressionMaker::number_builtin(Type t, int e) {
  const char* f = s_.pick({"abs", "min", "max"});
  if (!s_.has(f)) return leaf(t);
  if (f[0] == 'a') return call1(f, t, expr(t, e));
  return call2(f, t, expr(t, e), expr(t, e));
}

Expr ExpressionMaker::array_fold(Type t, int e) {
  const char* f = s_.chance(0.5) ? "min" : "max";
  if (!s_.has(f)) return leaf(t);
  Expr xs = array_expr(array_of(t), e);
  if (!(s_.risky() || s_.risky()) && s_.has("push"))
    xs = call2("push", array_of(t), std::move(xs), expr(t, e));
  return call1(f, t, std::move(xs));
}

Expr ExpressionMaker::search_builtin(const char* f, Type result, int e) {
  if (!s_.has(f)) return leaf(result);
  if (s_.cfg.strings && s_.chance(0.35)) return call2(f, result, str_expr(e), str_expr(e));
  Type t = array_type_for_search();
  return call2(f, result, s_.chance(0.1) ? Expr::array_lit(t, {}) : array_expr(t, e), expr(element_of(t), e));
}

Type ExpressionMaker::array_type_for_search() {
  if (!s_.cfg.arrays) return Type::IntArray;
  Type t = s_.random_type();
  return is_array(t) ? t : Type::IntArray;
}

Expr ExpressionMaker::int_conversion(int e) {
  switch (s_.choose({s_.cfg.floats ? 3 : 0, 1, 1})) {
    case 0: return call1("int", Type::Int, float_expr(e));
    case 1: return call1("int", Type::Int, bool_expr(e));
    default: return call1("int", Type::Int, int_expr(e));
  }
}

Expr ExpressionMaker::parse_int(int e) {
  static const char* const kGood[] = {
      "42", "-7", "+0", "0009", "99999999999999999999", "-9223372036854775808"};
  static const char* const kBad[] = {" 1", "", "-", "1a", "0x1f", "+", "1 "};
  if (s_.risky()) {
    if (s_.chance(0.5)) return call1("parse_int", Type::Int, Expr::str_lit(kBad[s_.below(7)]));
    return call1("parse_int", Type::Int, str_expr(e));
  }
  if (s_.chance(0.5)) return call1("parse_int", Type::Int, Expr::str_lit(kGood[s_.below(6)]));
  return call1("parse_int", Type::Int, call1("str", Type::Str, int_expr(e)));
}

Expr ExpressionMaker::element(Type t, int e) {
  bool from_str = t == Type::Int && s_.cfg.strings && (!s_.cfg.arrays || s_.chance(0.35));
  Type seq_type = from_str ? Type::Str : array_of(t);
  Var* v = s_.chance(0.8) ? s_.random_var(seq_type) : nullptr;
  Expr seq = v ? Expr::name(v->name, seq_type) : literal(seq_type);
  if (seq.kind == ExprKind::StrLit && seq.text.empty()) seq.text = "ab";  // ""[i] always traps
  Expr at = index_for(seq, e);
  return Expr::index(std::move(seq), std::move(at));
}

Expr ExpressionMaker::index_for(const Expr& seq, int e) {
  if (seq.kind == ExprKind::Name && s_.chance(0.6)) {
    for (auto it = s_.safe_indexes.rbegin(); it != s_.safe_indexes.rend(); ++it) {
      if (it->second != seq.text) continue;
      auto vars = s_.visible([&](const Var& v) { return v.name == it->first && v.type == Type::Int; });
      if (!vars.empty()) return Expr::name(it->first, Type::Int);
    }
  }
  i64 known = seq.kind == ExprKind::ArrayLit ? i64(seq.children.size())
              : seq.kind == ExprKind::StrLit ? i64(seq.text.size())
                                             : 2;  // a guess for a variable
  bool clamp = s_.has("min") && s_.has("max") && s_.has("len");
  bool unsafe = s_.risky();
  bool variable = seq.kind == ExprKind::Name;  // of unknown length: clamp unless risky
  switch (s_.choose({variable && !unsafe && clamp ? 0 : 3, clamp ? 5 : 0, unsafe ? 3 : 0,
                     unsafe && s_.has("len") ? 1 : 0})) {
    case 0: return Expr::int_lit(unsafe ? s_.uniform(-1, known) : s_.uniform(0, std::max<i64>(known - 1, 0)));
    case 1: {  // min(max(i, 0), len(seq) - 1): out of range only when seq is empty
      Expr last = Expr::binary(BinaryOp::Sub, call1("len", Type::Int, seq), Expr::int_lit(1));
      return call2("min", Type::Int, call2("max", Type::Int, int_expr(e), Expr::int_lit(0)), std::move(last));
    }
    case 2: return int_expr(e);
    default: return Expr::binary(BinaryOp::Mod, int_expr(e), call1("len", Type::Int, seq));
  }
}

Expr ExpressionMaker::float_expr(int d) {
  if (!s_.cfg.floats) return Expr::float_lit(1.5);
  if (d <= 0) return leaf(Type::Float);
  int k = s_.choose({6, 2, 6, 2, 3, s_.cfg.arrays ? 1 : 0, s_.cfg.arrays && s_.has("sum") ? 1 : 0, 3, 3,
                     s_.cfg.arrays ? 2 : 0, 2, 2});
  int e = d - 1;
  switch (k) {
    case 0: return leaf(Type::Float);
    case 1: return Expr::unary(UnaryOp::Neg, float_expr(e));
    case 2:
      return Expr::binary(s_.pick({BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul}), float_expr(e),
                          float_expr(e));
    case 3: return division(Type::Float, e);
    case 4: return number_builtin(Type::Float, e);
    case 5: return array_fold(Type::Float, e);
    case 6: return call1("sum", Type::Float, array_expr(Type::FloatArray, e));
    case 7:
      if (s_.chance(0.7)) return call1("float", Type::Float, int_expr(e));
      return call1("float", Type::Float, float_expr(e));
    case 8: {
      const char* f = s_.pick({"sqrt", "floor", "ceil", "round"});
      return s_.has(f) ? call1(f, Type::Float, float_expr(e)) : leaf(Type::Float);
    }
    case 9: return element(Type::Float, e);
    case 10:
      if (auto call = valued_call(Type::Float, d)) return std::move(*call);
      return leaf(Type::Float);
    default: return float_edge(e);
  }
}

Expr ExpressionMaker::bool_expr(int d) {
  if (d <= 0) return leaf(Type::Bool);
  int k = s_.choose({4, 2, 5, 8, (s_.cfg.arrays || s_.cfg.strings) && s_.has("contains") ? 2 : 0, 2,
                     s_.cfg.arrays ? 1 : 0, 2});
  int e = d - 1;
  switch (k) {
    case 0: return leaf(Type::Bool);
    case 1: return Expr::unary(UnaryOp::Not, bool_expr(e));
    case 2: return Expr::binary(s_.chance(0.5) ? BinaryOp::And : BinaryOp::Or, bool_expr(e), bool_expr(e));
    case 3: return comparison(e);
    case 4: return search_builtin("contains", Type::Bool, e);
    case 5: return guarded(e);
    case 6: return element(Type::Bool, e);
    default:
      if (auto call = valued_call(Type::Bool, d)) return std::move(*call);
      return leaf(Type::Bool);
  }
}

Expr ExpressionMaker::comparison(int e) {
  static const BinaryOp kOrdered[] = {BinaryOp::Lt, BinaryOp::Le, BinaryOp::Gt,
                                      BinaryOp::Ge, BinaryOp::Eq, BinaryOp::Ne};
  Type t = s_.random_type();
  BinaryOp op = kOrdered[s_.below(6)];
  bool ordered = t == Type::Int || t == Type::Float || t == Type::Str;
  if (!ordered) op = s_.chance(0.5) ? BinaryOp::Eq : BinaryOp::Ne;
  if (is_array(t) && s_.chance(0.2)) {  // [] takes its type from the other side
    Expr a = array_expr(t, e), empty = Expr::array_lit(t, {});
    return s_.chance(0.5) ? Expr::binary(op, std::move(a), std::move(empty))
                          : Expr::binary(op, std::move(empty), std::move(a));
  }
  Expr a = expr(t, e);
  Expr b = s_.chance(0.3) ? a : expr(t, e);  // equal operands make == and <= true now and then
  return Expr::binary(op, std::move(a), std::move(b));
}

Expr ExpressionMaker::guarded(int e) {
  switch (s_.below(3)) {
    case 0: {  // b != 0 && a / b > c
      Expr b = int_expr(e);
      Expr guard = Expr::binary(BinaryOp::Ne, b, Expr::int_lit(0));
      Expr risky =
          Expr::binary(s_.pick({BinaryOp::Gt, BinaryOp::Eq}),
                       Expr::binary(s_.pick({BinaryOp::Div, BinaryOp::Mod}), int_expr(e), b), int_expr(e));
      return Expr::binary(BinaryOp::And, std::move(guard), std::move(risky));
    }
    case 1: {  // len(s) > k && s[k] == c   (or len(s) <= k || ...)
      if (!s_.has("len") || (!s_.cfg.arrays && !s_.cfg.strings)) break;
      Type t = s_.cfg.arrays ? array_type_for_search() : Type::Str;
      if (s_.cfg.strings && s_.chance(0.3)) t = Type::Str;
      Var* v = s_.random_var(t);
      Expr seq = v ? Expr::name(v->name, t) : literal(t);
      i64 k = s_.uniform(0, 3);
      Type elem = item_of(t);
      Expr item = Expr::binary(BinaryOp::Eq, Expr::index(seq, Expr::int_lit(k)), expr(elem, e));
      Expr n = call1("len", Type::Int, seq);
      if (s_.chance(0.5))
        return Expr::binary(BinaryOp::And, Expr::binary(BinaryOp::Gt, std::move(n), Expr::int_lit(k)),
                            std::move(item));
      return Expr::binary(BinaryOp::Or, Expr::binary(BinaryOp::Le, std::move(n), Expr::int_lit(k)),
                          std::move(item));
    }
    default: {  // len(xs) == 0 || min(xs) < c
      if (!s_.has("len") || !s_.has("min") || !s_.cfg.arrays) break;
      Var* v = s_.random_var(Type::IntArray);
      Expr xs = v ? Expr::name(v->name, Type::IntArray) : array_expr(Type::IntArray, e);
      Expr empty = Expr::binary(BinaryOp::Eq, call1("len", Type::Int, xs), Expr::int_lit(0));
      Expr risky = Expr::binary(BinaryOp::Lt, call1("min", Type::Int, xs), int_expr(e));
      return Expr::binary(BinaryOp::Or, std::move(empty), std::move(risky));
    }
  }
  return leaf(Type::Bool);
}

Expr ExpressionMaker::str_expr(int d) {
  if (!s_.cfg.strings) return Expr::str_lit("s");
  if (d <= 0) return leaf(Type::Str);
  int k = s_.choose({6, 4, s_.has("slice") ? 2 : 0, s_.has("reverse") ? 1 : 0, 5, s_.has("chr") ? 2 : 0,
                     s_.cfg.arrays && s_.has("join") ? 1 : 0, s_.cfg.arrays ? 1 : 0, 2});
  int e = d - 1;
  switch (k) {
    case 0: return leaf(Type::Str);
    case 1: return Expr::binary(BinaryOp::Add, str_expr(e), str_expr(e));
    case 2: return Expr::call("slice", Type::Str, {str_expr(e), small_int(e), small_int(e)});
    case 3: return call1("reverse", Type::Str, str_expr(e));
    case 4:
      return call1("str", Type::Str,
                   expr(s_.pick({Type::Int, Type::Float, Type::Float, Type::Bool, Type::Str}), e));
    case 5: return chr(e);
    case 6: return call2("join", Type::Str, array_expr(Type::StrArray, e), str_expr(e));
    case 7: return element(Type::Str, e);
    default:
      if (auto call = valued_call(Type::Str, d)) return std::move(*call);
      return leaf(Type::Str);
  }
}

Expr ExpressionMaker::small_int(int e) {
  if (s_.chance(0.6)) return Expr::int_lit(s_.uniform(-2, 8));
  return int_expr(e);
}

Expr ExpressionMaker::chr(int e) {
  switch (s_.risky() ? 2 + s_.below(2) : s_.below(2)) {
    case 0:
      return call1("chr", Type::Str,
                   Expr::int_lit(s_.chance(0.2) ? s_.pick<i64>({0, 255, 128}) : s_.uniform(0, 255)));
    case 1: return call1("chr", Type::Str, Expr::binary(BinaryOp::BitAnd, int_expr(e), Expr::int_lit(255)));
    case 2:
      return call1("chr", Type::Str, Expr::int_lit(s_.pick<i64>({-1, 256, 255, 0})));  // around the domain
    default: return call1("chr", Type::Str, int_expr(e));                              // outside 0..255 traps
  }
}

Expr ExpressionMaker::array_expr(Type t, int d) {
  Type elem = element_of(t);
  if ((elem == Type::Float && !s_.cfg.floats) || (elem == Type::Str && !s_.cfg.strings)) return literal(t);
  if (d <= 0) return leaf(t);
  bool ordered = elem != Type::Bool;
  int k = s_.choose({6, 3, s_.has("push") ? 3 : 0, s_.has("pop") ? 1 : 0, s_.has("slice") ? 2 : 0,
                     ordered && s_.has("sort") ? 2 : 0, s_.has("reverse") ? 1 : 0, s_.has("array") ? 2 : 0,
                     t == Type::StrArray && s_.has("split") ? 3 : 0, 2, 2});
  int e = d - 1;
  switch (k) {
    case 0: return leaf(t);
    case 1: {
      if (s_.chance(0.15)) return Expr::binary(BinaryOp::Add, array_expr(t, e), Expr::array_lit(t, {}));
      return Expr::binary(BinaryOp::Add, array_expr(t, e), array_expr(t, e));
    }
    case 2: {
      Expr xs = s_.chance(0.1) ? Expr::array_lit(t, {}) : array_expr(t, e);
      return call2("push", t, std::move(xs), expr(elem, e));
    }
    case 3: {  // empty arrays trap unless pushed to first
      Expr xs = array_expr(t, e);
      if (!(s_.risky() || s_.risky()) && s_.has("push")) xs = call2("push", t, std::move(xs), expr(elem, e));
      return call1("pop", t, std::move(xs));
    }
    case 4: return Expr::call("slice", t, {array_expr(t, e), small_int(e), small_int(e)});
    case 5: return call1("sort", t, array_expr(t, e));
    case 6: return call1("reverse", t, array_expr(t, e));
    case 7: return Expr::call("array", t, {array_count(e), expr(elem, e)});
    case 8: {
      Expr sep =
          s_.chance(0.6) ? Expr::str_lit(s_.pick<const char*>({",", " ", "", "", "ab", ",,"})) : str_expr(e);
      return call2("split", t, str_expr(e), std::move(sep));
    }
    case 9: {
      std::vector<Expr> items(1 + s_.below(3));
      for (Expr& x : items) x = expr(elem, e);
      return Expr::array_lit(t, std::move(items));
    }
    default:
      if (auto call = valued_call(t, d)) return std::move(*call);
      return leaf(t);
  }
}

Expr ExpressionMaker::array_count(int e) {
  switch (s_.risky() ? 2 : s_.below(2)) {
    case 0: return Expr::int_lit(s_.uniform(0, 5));
    case 1: return Expr::binary(BinaryOp::BitAnd, int_expr(e), Expr::int_lit(7));
    default: return Expr::binary(BinaryOp::Mod, int_expr(e), Expr::int_lit(6));
  }
}

}  // namespace gs::trees::random
