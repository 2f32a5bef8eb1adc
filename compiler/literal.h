// Literal values from token text, identically on host and device (docs/language.md §1).
#pragma once

#include <cmath>

#include "base/hd.h"

namespace gs::compiler {

GS_HD inline u32 hex_value(char c) {
  if (c >= '0' && c <= '9') return u32(c - '0');
  if (c >= 'a' && c <= 'f') return u32(c - 'a' + 10);
  return u32(c - 'A' + 10);
}

// Integer literal text -> bits. False when it does not fit: decimal above 2^63 - 1 (or above
// 2^63 when negated, the literal being the operand of a unary minus), hex above 64 bits.
GS_HD inline bool int_literal(const char* s, u32 n, bool negated, u64* out) {
  u64 v = 0;
  if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    for (u32 i = 2; i < n; ++i) {
      if (v >> 60) return false;
      v = (v << 4) | hex_value(s[i]);
    }
    *out = negated ? 0 - v : v;
    return true;
  }
  const u64 limit = negated ? (u64(1) << 63) : (u64(1) << 63) - 1;
  for (u32 i = 0; i < n; ++i) {
    u64 digit = u64(s[i] - '0');
    if (v > (limit - digit) / 10) return false;
    v = v * 10 + digit;
  }
  *out = negated ? 0 - v : v;
  return true;
}

// An unsigned integer of up to kBigLimbs × 32 bits, for correctly rounded float literals.
inline constexpr u32 kBigLimbs = 40;  // 1280 bits: 2^64 × 10^310 and 10^345 fit
struct BigNat {
  u32 limb[kBigLimbs] = {};  // little-endian
  u32 used = 0;              // limbs in use (the top one nonzero, or none)
  GS_HD void mul_add(u32 m, u32 a) {
    u64 carry = a;
    for (u32 k = 0; k < used; ++k) {
      u64 x = u64(limb[k]) * m + carry;
      limb[k] = u32(x);
      carry = x >> 32;
    }
    if (carry != 0 && used < kBigLimbs) limb[used++] = u32(carry);
  }
  GS_HD u32 bits() const {
    if (used == 0) return 0;
    u32 top = limb[used - 1], b = 0;
    while (top != 0) ++b, top >>= 1;
    return (used - 1) * 32 + b;
  }
  GS_HD bool bit(u32 i) const { return i / 32 < used && ((limb[i / 32] >> (i % 32)) & 1); }
  GS_HD void double_plus(u32 b) {  // *this = 2 * this + b
    u32 carry = b;
    for (u32 k = 0; k < used; ++k) {
      u32 next = limb[k] >> 31;
      limb[k] = (limb[k] << 1) | carry;
      carry = next;
    }
    if (carry != 0 && used < kBigLimbs) limb[used++] = carry;
  }
  GS_HD bool at_least(const BigNat& o) const {
    if (used != o.used) return used > o.used;
    for (u32 k = used; k-- > 0;)
      if (limb[k] != o.limb[k]) return limb[k] > o.limb[k];
    return true;
  }
  GS_HD void subtract(const BigNat& o) {  // *this >= o
    i64 borrow = 0;
    for (u32 k = 0; k < used; ++k) {
      i64 x = i64(limb[k]) - (k < o.used ? i64(o.limb[k]) : 0) - borrow;
      borrow = x < 0;
      limb[k] = u32(x + (borrow << 32));
    }
    while (used > 0 && limb[used - 1] == 0) --used;
  }
};

// The double nearest a / b (ties to even), a and b > 0 with b's bits ≤ kBigLimbs × 32 - 2:
// binary long division keeps the quotient's first 64 bits and whether anything follows.
GS_HD GS_NOINLINE inline double nearest_quotient(const BigNat& a, const BigNat& b) {
  u32 abits = a.bits(), bbits = b.bits();
  u32 shift = bbits + 64 > abits ? bbits + 64 - abits : 0;  // the quotient gets at least 64 bits
  BigNat r;
  u64 top = 0;    // the quotient's first 64 bits
  i32 extra = 0;  // quotient bits after them
  bool sticky = false;
  for (u32 i = abits + shift; i-- > 0;) {
    r.double_plus(i >= shift && a.bit(i - shift) ? 1 : 0);
    u32 q = 0;
    if (r.at_least(b)) {
      r.subtract(b);
      q = 1;
    }
    if (top >> 63) {
      sticky |= q != 0;
      ++extra;
    } else {
      top = top * 2 + q;
    }
  }
  sticky |= r.used != 0;
  // value = (top + fraction) × 2^(extra - shift), top in [2^63, 2^64): keep 53 bits, or fewer
  // for a subnormal, rounding to nearest, ties to even
  i32 exponent = extra - i32(shift);  // of top's lowest bit
  i32 p = exponent + 63;              // of top's highest bit
  i32 keep = p >= -1022 ? 53 : 53 - (-1022 - p);
  if (keep <= 0) {  // below half the smallest subnormal, or at least half of it
    bool above_half = keep == 0 && (top != (u64(1) << 63) || sticky);
    return above_half ? ldexp(1.0, -1074) : 0.0;
  }
  u32 drop = u32(64 - keep);
  u64 mantissa = top >> drop;
  u64 rest = top & ((u64(1) << drop) - 1), half = u64(1) << (drop - 1);
  if (rest > half || (rest == half && (sticky || (mantissa & 1)))) ++mantissa;
  return ldexp(double(mantissa), exponent + i32(drop));  // exact: mantissa fits its precision
}

// The double nearest mantissa × 10^exp10 (dropped: plus something smaller than 10^exp10).
GS_HD GS_NOINLINE inline double exact_float(u64 mantissa, i32 exp10, bool dropped) {
  if (mantissa == 0) return 0.0;
  if (exp10 > 310) return HUGE_VAL;  // at least 1e310: past the largest double
  if (exp10 < -345) return 0.0;      // below 2^64 × 1e-345: under half the smallest
  BigNat a, b;
  a.limb[0] = u32(mantissa);
  a.limb[1] = u32(mantissa >> 32);
  a.used = a.limb[1] != 0 ? 2 : 1;
  if (dropped) {  // the digits after the 19th: strictly between M and M + 1 at their place
    a.mul_add(10, 1);
    --exp10;
  }
  b.limb[0] = 1;
  b.used = 1;
  for (i32 k = 0; k < (exp10 > 0 ? exp10 : -exp10); ++k) (exp10 > 0 ? a : b).mul_add(10, 0);
  return nearest_quotient(a, b);
}

// Float literal text -> value, correctly rounded (to nearest, ties to even) for up to 19
// significant digits — every literal repr() prints — by exact integer arithmetic past the fast
// path (mantissa below 2^53, decimal exponent within ±22). Beyond 19 digits the rest counts
// only as "something more", which can misround a value within 10^-19 of a tie.
GS_HD inline double float_literal(const char* s, u32 n) {
  u64 mantissa = 0;
  i32 exp10 = 0, digits = 0;
  bool dropped = false;  // a nonzero digit past the 19th
  u32 i = 0;
  bool seen_point = false;
  for (; i < n; ++i) {
    char c = s[i];
    if (c == '.') {
      seen_point = true;
      continue;
    }
    if (c == 'e' || c == 'E') break;
    if (digits == 0 && c == '0') {
      if (seen_point) --exp10;
      continue;  // leading zeros carry no digits
    }
    if (digits < 19) {
      mantissa = mantissa * 10 + u64(c - '0');
      ++digits;
      if (seen_point) --exp10;
    } else {
      dropped |= c != '0';
      if (!seen_point) ++exp10;  // dropped integer digit
    }
  }
  if (i < n) {
    ++i;
    bool neg = false;
    if (i < n && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
    i32 e = 0;
    for (; i < n; ++i)
      if (e < 100000) e = e * 10 + (s[i] - '0');
    exp10 += neg ? -e : e;
  }
  while (mantissa != 0 && mantissa % 10 == 0 && !dropped) {  // 2.50 is 25e-1: keep the mantissa small
    mantissa /= 10;
    ++exp10;
  }
  double v = double(mantissa);
  const double exact[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                          1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  if (!dropped && mantissa < (u64(1) << 53) && exp10 >= -22 && exp10 <= 22)
    return exp10 >= 0 ? v * exact[exp10] : v / exact[-exp10];
  return exact_float(mantissa, exp10, dropped);
}

// Decodes a string literal's body (between the quotes, escapes validated by the lexer, or
// taken literally where they were not valid) into out; returns the byte count.
GS_HD inline u32 decode_string(const char* s, u32 n, u8* out) {
  u32 k = 0;
  for (u32 i = 0; i < n; ++i) {
    if (s[i] != '\\' || i + 1 >= n) {
      out[k++] = u8(s[i]);
      continue;
    }
    char e = s[++i];
    switch (e) {
      case 'n': out[k++] = '\n'; break;
      case 't': out[k++] = '\t'; break;
      case 'r': out[k++] = '\r'; break;
      case '0': out[k++] = 0; break;
      case '\\': out[k++] = '\\'; break;
      case '"': out[k++] = '"'; break;
      case 'x':
        if (i + 2 < n) {
          out[k++] = u8(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]));
          i += 2;
          break;
        }
        [[fallthrough]];
      default: out[k++] = '\\'; out[k++] = u8(e);
    }
  }
  return k;
}

}  // namespace gs::compiler
