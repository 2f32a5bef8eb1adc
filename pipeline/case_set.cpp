#include "pipeline/case_set.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "pipeline/output_error.h"
#include "vm/place.h"
#include "vm/value.h"

namespace gs::pipeline {

namespace {

// Appends one image (the values' heap objects) to heap and their slots to slots; returns the
// image's bytes.
u32 append_image(std::span<const vm::Value> values, std::vector<u64>& heap, std::vector<u64>& slots) {
  u64 bytes = 0;
  for (const vm::Value& v : values) bytes += vm::heap_bytes_of(v);
  if (bytes > (u64(1) << 31)) throw std::invalid_argument("the values take more than 2 GiB of heap");
  std::vector<u64> image((bytes + 7) / 8);
  vm::Heap h;
  h.base = reinterpret_cast<u8*>(image.data());
  h.capacity = u32(bytes);
  for (const vm::Value& v : values) {
    u64 slot = 0;
    if (!vm::place_value(h, v, &slot)) throw std::logic_error("test image: heap_bytes_of was short");
    slots.push_back(slot);
  }
  heap.insert(heap.end(), image.begin(), image.end());
  return u32(bytes);
}

std::string where(size_t c, const char* part, size_t k) {
  return "case " + std::to_string(c + 1) + ", " + part + " " + std::to_string(k + 1);
}

}  // namespace

CaseSet::CaseSet(std::string entry, std::span<const Type> params, std::span<const Type> results,
                 std::span<const Case> cases, double float_tolerance) {
  if (entry.empty() || entry.size() >= kMaxEntryName)
    throw std::invalid_argument("entry function name must have 1 to " + std::to_string(kMaxEntryName - 1) +
                                " characters");
  if (params.size() > vm::kMaxParams || results.size() > vm::kMaxResults || results.empty())
    throw std::invalid_argument("a signature has at most " + std::to_string(vm::kMaxParams) +
                                " parameters and 1 to " + std::to_string(vm::kMaxResults) + " results");
  if (cases.size() >= (u64(1) << 31)) throw std::invalid_argument("too many test cases");
  view_.case_count = u32(cases.size());
  view_.param_count = u32(params.size());
  view_.result_count = u32(results.size());
  for (size_t k = 0; k < params.size(); ++k) view_.types[k] = u8(params[k]);
  for (size_t k = 0; k < results.size(); ++k) view_.types[params.size() + k] = u8(results[k]);
  copy_bytes(view_.entry, entry.data(), entry.size());
  view_.entry_len = u32(entry.size());
  view_.float_tolerance = float_tolerance;
  input_offsets_.push_back(0);
  expected_offsets_.push_back(0);
  for (size_t c = 0; c < cases.size(); ++c) {
    const Case& tc = cases[c];
    if (tc.inputs.size() != params.size())
      throw std::invalid_argument("case " + std::to_string(c + 1) + ": " + std::to_string(tc.inputs.size()) +
                                  " inputs for " + std::to_string(params.size()) + " parameters");
    if (tc.outputs.size() != results.size())
      throw std::invalid_argument("case " + std::to_string(c + 1) + ": " + std::to_string(tc.outputs.size()) +
                                  " outputs for " + std::to_string(results.size()) + " results");
    for (size_t k = 0; k < params.size(); ++k)
      if (!vm::has_type(tc.inputs[k], params[k]))
        throw std::invalid_argument(where(c, "input", k) + ": expected " + type_name(params[k]));
    for (size_t k = 0; k < results.size(); ++k)
      if (!vm::has_type(tc.outputs[k], results[k]))
        throw std::invalid_argument(where(c, "output", k) + ": expected " + type_name(results[k]));
    u32 in = append_image(tc.inputs, input_heap_, input_slots_);
    max_input_bytes_ = std::max(max_input_bytes_, in);
    append_image(tc.outputs, expected_heap_, expected_slots_);
    if (input_heap_.size() >= (u64(1) << 32) || expected_heap_.size() >= (u64(1) << 32))
      throw std::invalid_argument("the test set's values take more than 32 GiB");
    input_offsets_.push_back(u32(input_heap_.size()));
    expected_offsets_.push_back(u32(expected_heap_.size()));
  }
  point_view();
}

void CaseSet::point_view() {
  view_.input_heap = input_heap_.data();
  view_.input_offsets = input_offsets_.data();
  view_.input_slots = input_slots_.data();
  view_.expected_heap = expected_heap_.data();
  view_.expected_offsets = expected_offsets_.data();
  view_.expected_slots = expected_slots_.data();
}

bool values_match(const vm::Value& actual, const vm::Value& expected, double tolerance) {
  if (actual.type != expected.type) return false;
  switch (actual.type) {
    case Type::Int:
    case Type::Bool: return actual.i == expected.i;
    case Type::Float: {
      double a = actual.f, e = expected.f;
      if (std::isnan(a) || std::isnan(e)) return std::isnan(a) && std::isnan(e);
      return a == e || std::fabs(a - e) <= tolerance;
    }
    case Type::Str: return actual.s == expected.s;
    default: break;
  }
  if (actual.items.size() != expected.items.size()) return false;
  for (size_t k = 0; k < actual.items.size(); ++k)
    if (!values_match(actual.items[k], expected.items[k], tolerance)) return false;
  return true;
}

namespace {

// Levenshtein distance by the whole (n + 1) × (m + 1) table; when either string is longer than the
// device's cap, the same bound the device takes (pipeline/output_error.h).
u32 reference_edit_distance(const std::string& a, const std::string& b) {
  const std::string& shorter = a.size() <= b.size() ? a : b;
  const std::string& longer = a.size() <= b.size() ? b : a;
  if (longer.size() > kEditDistanceMaxLength) {
    u32 d = u32(longer.size() - shorter.size());
    for (size_t k = 0; k < shorter.size(); ++k) d += shorter[k] != longer[k];
    return d;
  }
  std::vector<std::vector<u32>> d(a.size() + 1, std::vector<u32>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = u32(i);
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = u32(j);
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j)
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
  return d[a.size()][b.size()];
}

float reference_scalar_error(const vm::Value& a, const vm::Value& e, double tolerance) {
  switch (e.type) {
    case Type::Float:
      if (values_match(a, e, tolerance)) return 0.0f;
      if (std::isnan(a.f) || std::isnan(e.f)) return INFINITY;
      return float(std::fabs(a.f - e.f));
    case Type::Str: return float(reference_edit_distance(a.s, e.s));
    case Type::Bool: return a.i == e.i ? 0.0f : 1.0f;
    default: return float(std::fabs(double(a.i) - double(e.i)));
  }
}

}  // namespace

float values_error(std::span<const vm::Value> actual, std::span<const vm::Value> expected, double tolerance) {
  if (actual.size() != expected.size()) return INFINITY;
  float error = 0.0f;
  for (size_t r = 0; r < expected.size(); ++r) {
    const vm::Value &a = actual[r], &e = expected[r];
    if (!is_array(e.type)) {
      error += reference_scalar_error(a, e, tolerance);
      continue;
    }
    size_t common = std::min(a.items.size(), e.items.size());
    for (size_t k = 0; k < common; ++k) error += reference_scalar_error(a.items[k], e.items[k], tolerance);
    size_t extra = std::max(a.items.size(), e.items.size()) - common;
    error += float(extra) * kItemCountError;
  }
  return error;
}

namespace {

u64 hash_scalar(u64 h, const vm::Value& v) {
  switch (v.type) {
    case Type::Int: return mix_word(h, u64(v.i));
    case Type::Bool: return mix_word(h, v.i != 0);
    case Type::Float: return mix_word(h, float_key(bits_of(v.f)));
    default: break;
  }
  return mix_bytes(h, reinterpret_cast<const u8*>(v.s.data()), u32(v.s.size()));
}

}  // namespace

u64 output_hash(std::span<const vm::Value> results) {
  u64 h = kHashSeed;
  for (const vm::Value& v : results) {
    if (!is_array(v.type)) {
      h = hash_scalar(h, v);
      continue;
    }
    if (v.type == Type::IntArray) {  // as the heap's (ints_hash)
      h = mix_words(h, u32(v.items.size()), [&](u32 k) { return u64(v.items[k].i); });
      continue;
    }
    h = mix_word(h, v.items.size());
    for (const vm::Value& item : v.items) h = hash_scalar(h, item);
  }
  return h;
}

}  // namespace gs::pipeline
