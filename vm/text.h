// Number <-> text conversions that give the same bytes on the host and the device
// (docs/language.md "Formatting floats"). No libc: device code has none.
#pragma once

#include <cmath>

#include "base/hd.h"

namespace gs::vm {

inline constexpr u32 kNumberTextMax = 40;  // longest text any function here writes

// Writes the decimal digits of v; returns their count.
GS_HD inline u32 format_unsigned(u64 v, char* out) {
  char tmp[24];
  u32 n = 0;
  do {
    tmp[n++] = char('0' + v % 10);
    v /= 10;
  } while (v != 0);
  for (u32 i = 0; i < n; ++i) out[i] = tmp[n - 1 - i];
  return n;
}

GS_HD inline u32 format_int(i64 v, char* out) {
  if (v < 0) {
    out[0] = '-';
    return 1 + format_unsigned(0 - u64(v), out + 1);
  }
  return format_unsigned(u64(v), out);
}

// "." and the six fraction digits of frac (< 10^6), trailing zeros removed, one kept.
GS_HD inline u32 format_fraction(u64 frac, char* out) {
  char digits[6];
  for (int i = 5; i >= 0; --i) {
    digits[i] = char('0' + frac % 10);
    frac /= 10;
  }
  u32 keep = 6;
  while (keep > 1 && digits[keep - 1] == '0') --keep;
  out[0] = '.';
  for (u32 i = 0; i < keep; ++i) out[1 + i] = digits[i];
  return 1 + keep;
}

GS_HD inline u32 format_float(double x, char* out) {
  if (x != x) {
    out[0] = 'n', out[1] = 'a', out[2] = 'n';
    return 3;
  }
  u32 n = 0;
  if (x < 0) out[n++] = '-';
  double m = std::fabs(x);
  if (m == HUGE_VAL) {
    out[n] = 'i', out[n + 1] = 'n', out[n + 2] = 'f';
    return n + 3;
  }
  if (m < 1e12) {
    u64 q = u64(std::round(m * 1e6));
    n += format_unsigned(q / 1000000, out + n);
    return n + format_fraction(q % 1000000, out + n);
  }
  i64 e = 12;
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
  out[n++] = char('0' + q / 1000000);
  n += format_fraction(q % 1000000, out + n);
  out[n++] = 'e';
  return n + format_int(e, out + n);
}

// parse_int: [+-]?[0-9]+, wrapping. False for anything else.
GS_HD inline bool parse_int(const u8* s, u32 n, i64* out) {
  u32 i = 0;
  bool negative = false;
  if (i < n && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  if (i == n) return false;
  u64 v = 0;
  for (; i < n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + u64(s[i] - '0');
  }
  *out = i64(negative ? 0 - v : v);
  return true;
}

// int(x) for a float: truncating, saturating, NaN -> 0.
GS_HD inline i64 int_of_float(double x) {
  if (x != x) return 0;
  if (x >= 9223372036854775808.0) return INT64_MAX;
  if (x < -9223372036854775808.0) return INT64_MIN;
  return i64(x);
}

}  // namespace gs::vm
