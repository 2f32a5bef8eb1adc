#include "search/body_goals.h"

#include <algorithm>
#include <set>
#include <utility>

#include "vm/arith.h"

namespace gs::search::bank {

u32 sequence_length(const vm::Value& sequence) {
  return u32(sequence.type == Type::Str ? sequence.s.size() : sequence.items.size());
}

vm::Value sequence_element(const vm::Value& sequence, u32 j) {
  if (sequence.type == Type::Str) return vm::Value::of_int(u8(sequence.s[j]));
  return sequence.items[j];
}

namespace {

bool same_element(const vm::Value& a, const vm::Value& b) {
  if (a.type != b.type) return false;
  return a.type == Type::Str ? a.s == b.s : a.i == b.i;
}

// The elements of a sequence of n the loop visits: [first, end).
std::pair<u32, u32> visited(u32 n, Span span) {
  if (span == Span::DropFirst) return {std::min<u32>(1, n), n};
  if (span == Span::DropLast) return {0, n == 0 ? 0 : n - 1};
  return {0, n};
}

// The output as the loop makes it: reversed back for Span::Reversed (an [int]'s only).
std::optional<vm::Value> as_made(const vm::Value& out, Span span) {
  if (span != Span::Reversed) return out;
  if (out.type != Type::IntArray) return std::nullopt;
  vm::Value v = out;
  std::reverse(v.items.begin(), v.items.end());
  return v;
}

}  // namespace

std::optional<Targets> map_targets(std::span<const vm::Value> sequences, std::span<const vm::Value> outputs,
                                   Span span) {
  if (sequences.size() != outputs.size()) return std::nullopt;
  Targets t;
  u32 visits = 0;
  for (size_t k = 0; k < sequences.size(); ++k) {
    const std::optional<vm::Value> out = as_made(outputs[k], span);
    const u32 n = sequence_length(sequences[k]);
    const auto [first, end] = visited(n, span);
    if (!out || out->type != Type::IntArray || out->items.size() != end - first) return std::nullopt;
    for (u32 j = 0; j < n; ++j) {
      const bool visit = j >= first && j < end;
      t.values.push_back(visit ? out->items[j - first].i : 0);
      t.free.push_back(!visit);
      visits += visit;
    }
  }
  if (visits == 0) return std::nullopt;
  return t;
}

std::optional<Targets> filter_targets(std::span<const vm::Value> sequences,
                                      std::span<const vm::Value> outputs, bool rightmost, Span span) {
  if (sequences.size() != outputs.size()) return std::nullopt;
  Targets t;
  bool some_kept = false, some_dropped = false;
  for (size_t k = 0; k < sequences.size(); ++k) {
    const vm::Value& sequence = sequences[k];
    const std::optional<vm::Value> out = as_made(outputs[k], span);
    if (!out || out->type != sequence.type) return std::nullopt;
    const u32 n = sequence_length(sequence), m = sequence_length(*out);
    const auto [first, end] = visited(n, span);
    std::vector<i64> these(n, 0);
    u32 matched = 0;
    for (u32 step = 0; step < end - first; ++step) {  // the visited elements, first to last or last to first
      const u32 j = rightmost ? end - 1 - step : first + step, o = rightmost ? m - 1 - matched : matched;
      these[j] = matched < m && same_element(sequence_element(sequence, j), sequence_element(*out, o));
      matched += u32(these[j]);
      (these[j] ? some_kept : some_dropped) = true;
    }
    if (matched != m) return std::nullopt;
    t.values.insert(t.values.end(), these.begin(), these.end());
    for (u32 j = 0; j < n; ++j) t.free.push_back(j < first || j >= end);
  }
  if (!some_kept || !some_dropped) return std::nullopt;
  return t;
}

std::optional<Affine> fit_affine(std::span<const u64> words, std::span<const i64> targets,
                                 std::span<const u8> free) {
  if (words.size() != targets.size() || (!free.empty() && free.size() != words.size())) return std::nullopt;
  const auto visited = [&](size_t e) { return free.empty() || free[e] == 0; };
  // The line through the first element and the first whose word differs from it.
  size_t i = 0;
  while (i < words.size() && !visited(i)) ++i;
  if (i == words.size()) return std::nullopt;
  const i64 w0 = i64(words[i]), t0 = targets[i];
  size_t j = i + 1;
  while (j < words.size() && (!visited(j) || i64(words[j]) == w0)) ++j;
  if (j == words.size()) return std::nullopt;
  const __int128 dt = __int128(targets[j]) - t0, dw = __int128(i64(words[j])) - w0;
  if (dt % dw != 0) return std::nullopt;
  const __int128 a = dt / dw;
  if (a == 0 || a > INT64_MAX || a < INT64_MIN) return std::nullopt;
  const Affine fit{i64(a), vm::wrap_sub(t0, vm::wrap_mul(i64(a), w0))};
  std::set<u64> distinct;
  for (size_t e = 0; e < words.size(); ++e) {
    if (!visited(e)) continue;
    if (vm::wrap_add(vm::wrap_mul(fit.a, i64(words[e])), fit.b) != targets[e]) return std::nullopt;
    if (distinct.size() < 3) distinct.insert(words[e]);
  }
  if (distinct.size() < 3) return std::nullopt;
  return fit;
}

}  // namespace gs::search::bank
