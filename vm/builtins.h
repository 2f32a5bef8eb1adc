// The sequence builtins, one small function each, called from the dispatch loop in
// vm/interpreter.h once it has validated the references and charged the work. Each returns
// Trap::NONE or the trap, and its result through *out.
#pragma once

#include "base/types.h"
#include "vm/heap.h"
#include "vm/text.h"

namespace gs::vm {

// ---- element comparison ---------------------------------------------------------------------

GS_HD inline int compare_strings(Heap& h, u32 a, u32 b) {
  u32 la = h.header(a)->length, lb = h.header(b)->length;
  const u8* x = h.bytes(a);
  const u8* y = h.bytes(b);
  u32 n = la < lb ? la : lb;
  for (u32 i = 0; i < n; ++i)
    if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
  return la == lb ? 0 : (la < lb ? -1 : 1);
}

// Elements of a [str] were produced by the VM, but hand-made bytecode may not have: check.
GS_HD inline bool strings_valid(Heap& h, u64 a, u64 b) { return h.is_string(a) && h.is_string(b); }

// x == y for two elements of type t; *ok = false on a bad string reference.
GS_HD inline bool elements_equal(Heap& h, Type t, u64 x, u64 y, bool* ok) {
  switch (t) {
    case Type::Float: return double_of(x) == double_of(y);
    case Type::Str:
      if (!strings_valid(h, x, y)) {
        *ok = false;
        return false;
      }
      return compare_strings(h, u32(x), u32(y)) == 0;
    default: return x == y;
  }
}

// Strict "x sorts before y" for sort(): ints, floats (NaN last), strings.
GS_HD inline bool sorts_before(Heap& h, Type t, u64 x, u64 y) {
  switch (t) {
    case Type::Int: return i64(x) < i64(y);
    case Type::Float: {
      double a = double_of(x), b = double_of(y);
      if (b != b) return a == a;  // every number sorts before NaN
      return a < b;
    }
    default: return compare_strings(h, u32(x), u32(y)) < 0;
  }
}

// ---- arrays ---------------------------------------------------------------------------------

GS_HD inline Trap copy_array(Heap& h, u32 a, u32 extra_capacity, u32* out) {
  u32 n = h.header(a)->length;
  if (!h.new_array(n, n + extra_capacity, out)) return Trap::HEAP_EXHAUSTED;
  copy_bytes(h.slots(*out), h.slots(a), u64(n) * 8);
  return Trap::NONE;
}

GS_HD inline Trap concat_arrays(Heap& h, u32 a, u32 b, u32* out) {
  u32 la = h.header(a)->length, lb = h.header(b)->length;
  if (u64(la) + lb > kMaxObjectLength / 8) return Trap::HEAP_EXHAUSTED;
  if (!h.new_array(la + lb, la + lb, out)) return Trap::HEAP_EXHAUSTED;
  copy_bytes(h.slots(*out), h.slots(a), u64(la) * 8);
  copy_bytes(h.slots(*out) + la, h.slots(b), u64(lb) * 8);
  return Trap::NONE;
}

GS_HD inline Trap fill_array(Heap& h, i64 n, u64 x, u32* out) {
  if (n < 0) return Trap::INVALID_ARGUMENT;
  if (n > i64(kMaxObjectLength / 8)) return Trap::HEAP_EXHAUSTED;
  if (!h.new_array(u32(n), u32(n), out)) return Trap::HEAP_EXHAUSTED;
  u64* s = h.slots(*out);
  for (i64 i = 0; i < n; ++i) s[i] = x;
  return Trap::NONE;
}

// slice(): clamp i to 0..len, j to i..len.
GS_HD inline void clamp_range(i64 len, i64* i, i64* j) {
  if (*i < 0) *i = 0;
  if (*i > len) *i = len;
  if (*j < *i) *j = *i;
  if (*j > len) *j = len;
}

GS_HD inline Trap slice_array(Heap& h, u32 a, i64 i, i64 j, u32* out) {
  clamp_range(h.header(a)->length, &i, &j);
  if (!h.new_array(u32(j - i), u32(j - i), out)) return Trap::HEAP_EXHAUSTED;
  copy_bytes(h.slots(*out), h.slots(a) + i, u64(j - i) * 8);
  return Trap::NONE;
}

GS_HD inline Trap reverse_array(Heap& h, u32 a, u32* out) {
  u32 n = h.header(a)->length;
  if (!h.new_array(n, n, out)) return Trap::HEAP_EXHAUSTED;
  const u64* s = h.slots(a);
  u64* d = h.slots(*out);
  for (u32 k = 0; k < n; ++k) d[k] = s[n - 1 - k];
  return Trap::NONE;
}

// Stable bottom-up merge sort into a new array, with a scratch array beside it.
GS_HD inline Trap sort_array(Heap& h, Type t, u32 a, u32* out) {
  u32 n = h.header(a)->length;
  u32 scratch;
  if (t == Type::Str) {
    for (u32 k = 0; k < n; ++k)
      if (!h.is_string(h.slots(a)[k])) return Trap::BAD_REFERENCE;
  }
  if (!h.new_array(n, n, out) || !h.new_array(n, n, &scratch)) return Trap::HEAP_EXHAUSTED;
  u64* src = h.slots(*out);
  u64* dst = h.slots(scratch);
  copy_bytes(src, h.slots(a), u64(n) * 8);
  for (u32 width = 1; width < n; width *= 2) {
    for (u32 lo = 0; lo < n; lo += 2 * width) {
      u32 mid = lo + width < n ? lo + width : n;
      u32 hi = lo + 2 * width < n ? lo + 2 * width : n;
      u32 x = lo, y = mid, k = lo;
      while (x < mid && y < hi) dst[k++] = sorts_before(h, t, src[y], src[x]) ? src[y++] : src[x++];
      while (x < mid) dst[k++] = src[x++];
      while (y < hi) dst[k++] = src[y++];
    }
    u64* swap = src;
    src = dst;
    dst = swap;
  }
  if (src != h.slots(*out)) copy_bytes(h.slots(*out), src, u64(n) * 8);
  return Trap::NONE;
}

// index_of(a, x): first index of an element equal to x, or -1.
GS_HD inline Trap find_element(Heap& h, Type t, u32 a, u64 x, i64* out) {
  u32 n = h.header(a)->length;
  const u64* s = h.slots(a);
  bool ok = true;
  for (u32 k = 0; k < n; ++k) {
    bool eq = elements_equal(h, t, s[k], x, &ok);
    if (!ok) return Trap::BAD_REFERENCE;
    if (eq) {
      *out = k;
      return Trap::NONE;
    }
  }
  *out = -1;
  return Trap::NONE;
}

GS_HD inline Trap arrays_equal(Heap& h, Type t, u32 a, u32 b, bool* out) {
  u32 n = h.header(a)->length;
  *out = false;
  if (n != h.header(b)->length) return Trap::NONE;
  bool ok = true;
  for (u32 k = 0; k < n; ++k) {
    bool eq = elements_equal(h, t, h.slots(a)[k], h.slots(b)[k], &ok);
    if (!ok) return Trap::BAD_REFERENCE;
    if (!eq) return Trap::NONE;
  }
  *out = true;
  return Trap::NONE;
}

// min(a) / max(a) over [int] or [float]: the two-argument form folded from the left.
GS_HD inline Trap extreme(Heap& h, Type t, bool want_max, u32 a, u64* out) {
  u32 n = h.header(a)->length;
  if (n == 0) return Trap::INVALID_ARGUMENT;
  const u64* s = h.slots(a);
  u64 best = s[0];
  for (u32 k = 1; k < n; ++k) {
    bool take = t == Type::Int
                    ? (want_max ? i64(s[k]) > i64(best) : i64(s[k]) < i64(best))
                    : (want_max ? double_of(s[k]) > double_of(best) : double_of(s[k]) < double_of(best));
    if (take) best = s[k];
  }
  *out = best;
  return Trap::NONE;
}

// ---- strings --------------------------------------------------------------------------------

GS_HD inline Trap concat_strings(Heap& h, u32 a, u32 b, u32* out) {
  u32 la = h.header(a)->length, lb = h.header(b)->length;
  if (u64(la) + lb > kMaxObjectLength) return Trap::HEAP_EXHAUSTED;
  if (!h.new_string(la + lb, out)) return Trap::HEAP_EXHAUSTED;
  copy_bytes(h.bytes(*out), h.bytes(a), la);
  copy_bytes(h.bytes(*out) + la, h.bytes(b), lb);
  return Trap::NONE;
}

GS_HD inline Trap slice_string(Heap& h, u32 s, i64 i, i64 j, u32* out) {
  clamp_range(h.header(s)->length, &i, &j);
  if (!h.new_string(u32(j - i), out)) return Trap::HEAP_EXHAUSTED;
  copy_bytes(h.bytes(*out), h.bytes(s) + i, u64(j - i));
  return Trap::NONE;
}

GS_HD inline Trap reverse_string(Heap& h, u32 s, u32* out) {
  u32 n = h.header(s)->length;
  if (!h.new_string(n, out)) return Trap::HEAP_EXHAUSTED;
  for (u32 k = 0; k < n; ++k) h.bytes(*out)[k] = h.bytes(s)[n - 1 - k];
  return Trap::NONE;
}

// Fuel for searching t in s byte by byte: every start position compares up to len(t) bytes.
GS_HD inline u64 search_work(u32 ls, u32 lt) { return lt > ls ? 0 : (u64(ls) - lt + 1) * (lt > 0 ? lt : 1); }

// First offset >= from where t occurs in s, or -1.
GS_HD inline i64 find_substring(Heap& h, u32 s, u32 t, u32 from) {
  u32 ls = h.header(s)->length, lt = h.header(t)->length;
  if (lt > ls) return -1;
  for (u32 k = from; k + lt <= ls; ++k)
    if (equal_bytes(h.bytes(s) + k, h.bytes(t), lt)) return k;
  return -1;
}

GS_HD inline bool is_space(u8 c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

// split(s, sep). Pieces are collected in a growing [str] that doubles as it fills.
GS_HD inline Trap split_string(Heap& h, u32 s, u32 sep, u32* out) {
  u32 ls = h.header(s)->length, lsep = h.header(sep)->length;
  u32 cap = 4, count = 0, arr;
  if (!h.new_array(0, cap, &arr)) return Trap::HEAP_EXHAUSTED;
  auto add = [&](u32 from, u32 to) -> Trap {
    u32 piece;
    if (!h.new_string_from(h.bytes(s) + from, to - from, &piece)) return Trap::HEAP_EXHAUSTED;
    if (count == cap) {
      u32 bigger;
      if (!h.new_array(count, cap * 2, &bigger)) return Trap::HEAP_EXHAUSTED;
      copy_bytes(h.slots(bigger), h.slots(arr), u64(count) * 8);
      arr = bigger;
      cap *= 2;
    }
    h.slots(arr)[count++] = piece;
    h.header(arr)->length = count;
    return Trap::NONE;
  };
  Trap trap = Trap::NONE;
  if (lsep == 0) {
    u32 k = 0;
    while (k < ls && trap == Trap::NONE) {
      while (k < ls && is_space(h.bytes(s)[k])) ++k;
      u32 start = k;
      while (k < ls && !is_space(h.bytes(s)[k])) ++k;
      if (k > start) trap = add(start, k);
    }
  } else {
    u32 start = 0;
    for (;;) {
      i64 at = find_substring(h, s, sep, start);
      if (at < 0) break;
      if ((trap = add(start, u32(at))) != Trap::NONE) break;
      start = u32(at) + lsep;
    }
    if (trap == Trap::NONE) trap = add(start, ls);
  }
  h.header(arr)->capacity = cap;
  *out = arr;
  return trap;
}

GS_HD inline Trap join_strings(Heap& h, u32 a, u32 sep, u32* out) {
  u32 n = h.header(a)->length, lsep = h.header(sep)->length;
  u64 total = 0;
  for (u32 k = 0; k < n; ++k) {
    if (!h.is_string(h.slots(a)[k])) return Trap::BAD_REFERENCE;
    total += h.header(u32(h.slots(a)[k]))->length + (k > 0 ? lsep : 0);
  }
  if (total > kMaxObjectLength) return Trap::HEAP_EXHAUSTED;
  if (!h.new_string(u32(total), out)) return Trap::HEAP_EXHAUSTED;
  u8* d = h.bytes(*out);
  for (u32 k = 0; k < n; ++k) {
    if (k > 0) {
      copy_bytes(d, h.bytes(sep), lsep);
      d += lsep;
    }
    u32 piece = u32(h.slots(a)[k]);
    copy_bytes(d, h.bytes(piece), h.header(piece)->length);
    d += h.header(piece)->length;
  }
  return Trap::NONE;
}

GS_HD inline Trap string_from_text(Heap& h, const char* text, u32 n, u32* out) {
  return h.new_string_from(reinterpret_cast<const u8*>(text), n, out) ? Trap::NONE : Trap::HEAP_EXHAUSTED;
}

}  // namespace gs::vm
