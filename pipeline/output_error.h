// The graded error of a finished execution against a test's expected results: how far a wrong
// answer is from the right one, so that lexicase selection can prefer the nearer of two programs
// that both fail a case (Helmuth & Spector 2015 judge PSB1 the same way: absolute difference for
// numbers, edit distance for strings). Host+device code beside compare_outputs (pipeline/case_set.h),
// so the CPU and CUDA executors grade alike; values_error is its host reference.
//
//   Int            |actual − expected|, in double, then float
//   Float          0 within the case set's tolerance (or both NaN), else |actual − expected|;
//                  +inf when exactly one is NaN
//   Bool           0 or 1
//   Str            the Levenshtein distance when both strings have at most
//                  kEditDistanceMaxLength bytes; else the bound |n − m| + the positions of the
//                  shorter where the two differ (so a pair costs at most 128 × 128 steps, however
//                  long a string a program builds)
//   arrays         the elements' errors over the common prefix + kItemCountError per element too
//                  many or too few
//   several results: the sum. A pair that trapped, did not run or left malformed results: +inf.
//
// A passing pair has error 0 and a failing one a positive error, except a float difference below
// float's smallest denormal. The pass bit stays the judge of "solved"; the error only ranks.
#pragma once

#include <math.h>

#include "pipeline/case_set.h"

namespace gs::pipeline {

inline constexpr u32 kEditDistanceMaxLength = 128;
inline constexpr float kItemCountError = 1000.0f;
inline constexpr float kNoOutputError = INFINITY;

// Edit distance (insertions, deletions, substitutions of bytes), exact when both have at most
// kEditDistanceMaxLength bytes: one row of the dynamic programme, over the longer.
GS_HD inline u32 edit_distance(const u8* a, u32 n, const u8* b, u32 m) {
  if (n > m) {
    const u8* s = a;
    a = b;
    b = s;
    u32 t = n;
    n = m;
    m = t;
  }
  if (m > kEditDistanceMaxLength) {
    u32 d = m - n;
    for (u32 k = 0; k < n; ++k) d += a[k] != b[k];
    return d;
  }
  u32 row[kEditDistanceMaxLength + 1];
  for (u32 k = 0; k <= n; ++k) row[k] = k;
  for (u32 j = 1; j <= m; ++j) {
    u32 diagonal = row[0];
    row[0] = j;
    for (u32 k = 1; k <= n; ++k) {
      u32 above = row[k];
      u32 best = diagonal + (a[k - 1] != b[j - 1]);
      if (above + 1 < best) best = above + 1;
      if (row[k - 1] + 1 < best) best = row[k - 1] + 1;
      row[k] = best;
      diagonal = above;
    }
  }
  return row[n];
}

// One scalar of type t (its references valid: compare_outputs checked them).
GS_HD inline float scalar_error(Type t, vm::Heap& heap, u64 actual, vm::Heap& want, u64 expected,
                                double tolerance) {
  switch (t) {
    case Type::Float: {
      if (floats_match(actual, expected, tolerance)) return 0.0f;
      double a = double_of(actual), e = double_of(expected);
      if (a != a || e != e) return kNoOutputError;
      return float(fabs(a - e));
    }
    case Type::Str:
      return float(edit_distance(heap.bytes(u32(actual)), heap.header(u32(actual))->length,
                                 want.bytes(u32(expected)), want.header(u32(expected))->length));
    case Type::Bool: return (actual != 0) == (expected != 0) ? 0.0f : 1.0f;
    default: return float(fabs(double(i64(actual)) - double(i64(expected))));
  }
}

// The error of the results an execution left in m.stack against case `test`'s expected ones.
// Call it only where compare_outputs returned FAIL (PASS means 0; BAD_REFERENCE, +inf).
GS_HD inline float output_error(const CaseSetView& t, u32 test, vm::Machine& m) {
  if (m.result_count != t.result_count) return kNoOutputError;
  vm::Heap want = expected_image(t, test);
  const u64* expected = t.expected_slots + u64(test) * t.result_count;
  float error = 0.0f;
  for (u32 r = 0; r < t.result_count; ++r) {
    Type type = static_cast<Type>(t.types[t.param_count + r]);
    u64 actual = m.stack[r];
    if (!is_array(type)) {
      error += scalar_error(type, m.heap, actual, want, expected[r], t.float_tolerance);
      continue;
    }
    u32 n = m.heap.header(u32(actual))->length;
    u32 expected_n = want.header(u32(expected[r]))->length;
    u32 common = n < expected_n ? n : expected_n;
    for (u32 k = 0; k < common; ++k)
      error += scalar_error(element_of(type), m.heap, m.heap.slots(u32(actual))[k], want,
                            want.slots(u32(expected[r]))[k], t.float_tolerance);
    error += float(n > expected_n ? n - expected_n : expected_n - n) * kItemCountError;
  }
  return error;
}

}  // namespace gs::pipeline
