// Literal values from token text, identically on host and device (docs/language.md §1).
#pragma once

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

// Float literal text -> value: exact on the fast path (at most 19 significant digits,
// mantissa below 2^53, decimal exponent within +-22), otherwise by repeated scaling by ten.
GS_HD inline double float_literal(const char* s, u32 n) {
  u64 mantissa = 0;
  i32 exp10 = 0, digits = 0;
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
    } else if (!seen_point) {
      ++exp10;  // dropped integer digit
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
  while (mantissa != 0 && mantissa % 10 == 0) {  // 2.50 is 25e-1: keep the mantissa small
    mantissa /= 10;
    ++exp10;
  }
  double v = double(mantissa);
  const double exact[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                          1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  if (mantissa < (u64(1) << 53) && exp10 >= -22 && exp10 <= 22)
    return exp10 >= 0 ? v * exact[exp10] : v / exact[-exp10];
  for (; exp10 > 0 && v != 0 && v <= 1.7976931348623157e308; --exp10) v = v * 10;
  for (; exp10 < 0 && v != 0; ++exp10) v = v / 10;
  return v;
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
