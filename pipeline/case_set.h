// A problem's cases in the batch layout: each case's arguments as a ready heap image plus
// argument slots (copied into an execution's heap and stack as they are, with no conversion),
// and its expected results as a second image. The comparison of a finished execution's results
// with the expected ones, and the hash of those results, are host+device code, so the CPU and
// the CUDA executor judge the same way.
#pragma once

#include <cmath>
#include <span>
#include <string>
#include <vector>

#include "base/hash.h"
#include "base/types.h"
#include "vm/bytecode.h"
#include "vm/heap.h"
#include "vm/interpreter.h"
#include "vm/value.h"

namespace gs::pipeline {

inline constexpr u32 kMaxEntryName = 64;

struct CaseSetView {
  u32 case_count = 0;
  u32 param_count = 0;
  u32 result_count = 0;
  u8 types[vm::kMaxParams + vm::kMaxResults] = {};  // params, then results (as in a FunctionRecord)
  char entry[kMaxEntryName] = {};
  u32 entry_len = 0;
  double float_tolerance = 0;
  const u64* input_heap = nullptr;        // all cases' input heap images, concatenated
  const u32* input_offsets = nullptr;     // case_count + 1, in words
  const u64* input_slots = nullptr;       // case_count × param_count
  const u64* expected_heap = nullptr;     // the expected results' heap images
  const u32* expected_offsets = nullptr;  // case_count + 1, in words
  const u64* expected_slots = nullptr;    // case_count × result_count
};

// The output hash: the results' words mixed by mix_word, an [int]'s by mix_words (base/hash.h).

// Canonical bits of a float for hashing: every NaN hashes alike (value.h: all NaNs identical).
GS_HD inline u64 float_key(u64 bits) {
  double d = double_of(bits);
  return d != d ? 0x7ff8000000000000ull : bits;
}

GS_HD inline bool floats_match(u64 actual, u64 expected, double tolerance) {
  double a = double_of(actual), e = double_of(expected);
  if (a != a || e != e) return a != a && e != e;
  return a == e || fabs(a - e) <= tolerance;
}

enum class Match : u8 { PASS, FAIL, BAD_REFERENCE };

// The word a word-sized scalar of type t (Int, Float or Bool) is hashed as: every NaN alike, a
// bool as 0 or 1.
GS_HD inline u64 word_key(Type t, u64 word) {
  return t == Type::Float ? float_key(word) : t == Type::Bool ? u64(word != 0) : word;
}

// Mixes a str's length and bytes into hash: eight bytes a word (little-endian, the last word
// zero-padded; the length tells a padded word from one with zero bytes). Every str hash — a
// heap's, a Value's (case_set.cpp), the device's — is this one.
GS_HD inline u64 mix_bytes(u64 hash, const u8* bytes, u32 n) {
  hash = mix_word(hash, n);
  for (u32 k = 0; k < n; k += 8) {
    u64 word = 0;
    for (u32 j = 0; j < 8 && k + j < n; ++j) word |= u64(bytes[k + j]) << (8 * j);
    hash = mix_word(hash, word);
  }
  return hash;
}

// The output hash of a str with these bytes, and of an [int] with these elements: what
// result_hash gives them (for a caller that holds them outside a heap).
GS_HD inline u64 str_hash(const u8* bytes, u32 n) { return mix_bytes(kHashSeed, bytes, n); }
struct WordsAt {  // mix_words' k-th word of an array
  const u64* words;
  GS_HD u64 operator()(u32 k) const { return words[k]; }
};
GS_HD inline u64 ints_hash(const u64* words, u32 n) { return mix_words(kHashSeed, n, WordsAt{words}); }

// Mixes one scalar of type t (Int, Float, Bool or Str) of the heap into *hash; false when a Str
// word is not a string there.
GS_HD inline bool mix_scalar(Type t, vm::Heap& heap, u64 word, u64* hash) {
  if (t == Type::Str) {
    if (!heap.is_string(word)) return false;
    *hash = mix_bytes(*hash, heap.bytes(u32(word)), heap.header(u32(word))->length);
    return true;
  }
  *hash = mix_word(*hash, word_key(t, word));
  return true;
}

// The output hash of one result of type t (the hash compare_outputs gives a one-result
// execution), from the heap; false when a reference is not one (BAD_REFERENCE).
GS_HD inline bool result_hash(Type t, vm::Heap& heap, u64 word, u64* hash) {
  u64 h = kHashSeed;
  if (is_array(t)) {
    if (!heap.is_array(word)) return false;
    u32 n = heap.header(u32(word))->length;
    const u64* slots = heap.slots(u32(word));
    if (t == Type::IntArray) {
      *hash = ints_hash(slots, n);
      return true;
    }
    h = mix_word(h, n);
    for (u32 k = 0; k < n; ++k)
      if (!mix_scalar(element_of(t), heap, slots[k], &h)) return false;
  } else if (!mix_scalar(t, heap, word, &h)) {
    return false;
  }
  *hash = h;
  return true;
}

// One scalar of type t (Int, Float, Bool or Str) from the execution's heap against the expected
// image; mixes the actual value into *hash.
GS_HD inline Match match_scalar(Type t, vm::Heap& heap, u64 actual, vm::Heap& want, u64 expected,
                                double tolerance, u64* hash) {
  if (!mix_scalar(t, heap, actual, hash)) return Match::BAD_REFERENCE;
  switch (t) {
    case Type::Float: return floats_match(actual, expected, tolerance) ? Match::PASS : Match::FAIL;
    case Type::Str: {
      u32 n = heap.header(u32(actual))->length;
      return n == want.header(u32(expected))->length &&
                     equal_bytes(heap.bytes(u32(actual)), want.bytes(u32(expected)), n)
                 ? Match::PASS
                 : Match::FAIL;
    }
    case Type::Bool: actual = actual != 0; break;
    default: break;
  }
  return actual == expected ? Match::PASS : Match::FAIL;
}

// Case `c`'s expected results' heap image, as a (read-only) heap.
GS_HD inline vm::Heap expected_image(const CaseSetView& t, u32 c) {
  vm::Heap want;
  want.base = reinterpret_cast<u8*>(const_cast<u64*>(t.expected_heap + t.expected_offsets[c]));
  want.capacity = want.used = (t.expected_offsets[c + 1] - t.expected_offsets[c]) * 8;
  return want;
}

// Compares the results an execution left in m.stack[0 .. result_count) with case `c`'s
// expected results. *hash receives the hash of the actual results (0 on BAD_REFERENCE).
GS_HD inline Match compare_outputs(const CaseSetView& t, u32 c, vm::Machine& m, u64* hash) {
  vm::Heap want = expected_image(t, c);
  const u64* expected = t.expected_slots + u64(c) * t.result_count;
  vm::Heap& heap = m.heap;
  u64 h = kHashSeed;
  bool pass = m.result_count == t.result_count;
  for (u32 r = 0; r < t.result_count && r < m.result_count; ++r) {
    Type type = static_cast<Type>(t.types[t.param_count + r]);
    u64 actual = m.stack[r];
    Match one = Match::PASS;
    if (!is_array(type)) {
      one = match_scalar(type, heap, actual, want, expected[r], t.float_tolerance, &h);
    } else {
      if (!heap.is_array(actual)) {
        *hash = 0;
        return Match::BAD_REFERENCE;
      }
      u32 n = heap.header(u32(actual))->length;
      u32 expected_n = want.header(u32(expected[r]))->length;
      if (n != expected_n) one = Match::FAIL;
      if (type == Type::IntArray) {  // hashed as ints_hash does, compared word by word
        const u64* got = heap.slots(u32(actual));
        h = mix_words(h, n, WordsAt{got});
        for (u32 k = 0; k < n && one == Match::PASS; ++k)
          if (got[k] != want.slots(u32(expected[r]))[k]) one = Match::FAIL;
      } else {
        h = mix_word(h, n);
        for (u32 k = 0; k < n; ++k) {
          u64 e = k < expected_n ? want.slots(u32(expected[r]))[k] : 0;
          Match element = match_scalar(element_of(type), heap, heap.slots(u32(actual))[k], want, e,
                                       t.float_tolerance, &h);
          if (element == Match::BAD_REFERENCE) {
            *hash = 0;
            return element;
          }
          if (element == Match::FAIL || k >= expected_n) one = Match::FAIL;
        }
      }
    }
    if (one == Match::BAD_REFERENCE) {
      *hash = 0;
      return one;
    }
    if (one == Match::FAIL) pass = false;
  }
  *hash = h;
  return pass ? Match::PASS : Match::FAIL;
}

// Host storage of a case set; view() points into it.
class CaseSet {
 public:
  struct Case {
    std::span<const vm::Value> inputs;
    std::span<const vm::Value> outputs;
  };
  // entry: the function's name; params and results: the signature's types; every case's values
  // must have those types (else std::invalid_argument naming the case and value).
  CaseSet(std::string entry, std::span<const Type> params, std::span<const Type> results,
          std::span<const Case> cases, double float_tolerance);

  const CaseSetView& view() const { return view_; }
  // The arrays, for copying to a device (a device view has the same counts and other pointers).
  const std::vector<u64>& input_heap() const { return input_heap_; }
  const std::vector<u32>& input_offsets() const { return input_offsets_; }
  const std::vector<u64>& input_slots() const { return input_slots_; }
  const std::vector<u64>& expected_heap() const { return expected_heap_; }
  const std::vector<u32>& expected_offsets() const { return expected_offsets_; }
  const std::vector<u64>& expected_slots() const { return expected_slots_; }
  // Largest input image of a test, in bytes (an execution's heap must hold it).
  u32 max_input_bytes() const { return max_input_bytes_; }

  CaseSet(const CaseSet& other) = delete;
  CaseSet& operator=(const CaseSet&) = delete;
  CaseSet(CaseSet&&) = default;
  CaseSet& operator=(CaseSet&&) = default;

 private:
  void point_view();
  CaseSetView view_;
  std::vector<u64> input_heap_, input_slots_, expected_heap_, expected_slots_;
  std::vector<u32> input_offsets_, expected_offsets_;
  u32 max_input_bytes_ = 0;
};

// The host reference for compare_outputs on decoded values: same types, ints, bools and strings
// equal, floats within tolerance (NaN matches NaN), arrays element by element.
bool values_match(const vm::Value& actual, const vm::Value& expected, double tolerance);

// The host reference for output_error (pipeline/output_error.h) on decoded values: the sum over the
// results of each one's error, +inf when the counts differ.
float values_error(std::span<const vm::Value> actual, std::span<const vm::Value> expected, double tolerance);

// The host reference for the output hash compare_outputs computes.
u64 output_hash(std::span<const vm::Value> results);

}  // namespace gs::pipeline
