#include "search/body_goals.h"

#include <set>

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

}  // namespace

std::optional<std::vector<i64>> map_targets(std::span<const vm::Value> sequences,
                                            std::span<const vm::Value> outputs) {
  if (sequences.size() != outputs.size()) return std::nullopt;
  std::vector<i64> targets;
  for (size_t k = 0; k < sequences.size(); ++k) {
    const vm::Value& out = outputs[k];
    if (out.type != Type::IntArray || out.items.size() != sequence_length(sequences[k])) return std::nullopt;
    for (const vm::Value& v : out.items) targets.push_back(v.i);
  }
  if (targets.empty()) return std::nullopt;
  return targets;
}

std::optional<std::vector<bool>> filter_targets(std::span<const vm::Value> sequences,
                                                std::span<const vm::Value> outputs, bool rightmost) {
  if (sequences.size() != outputs.size()) return std::nullopt;
  std::vector<bool> kept;
  bool some_kept = false, some_dropped = false;
  for (size_t k = 0; k < sequences.size(); ++k) {
    const vm::Value& sequence = sequences[k];
    const vm::Value& out = outputs[k];
    if (out.type != sequence.type) return std::nullopt;
    const u32 n = sequence_length(sequence), m = sequence_length(out);
    std::vector<bool> these(n, false);
    u32 matched = 0;
    for (u32 step = 0; step < n; ++step) {  // the elements, first to last or last to first
      const u32 j = rightmost ? n - 1 - step : step, o = rightmost ? m - 1 - matched : matched;
      these[j] = matched < m && same_element(sequence_element(sequence, j), sequence_element(out, o));
      matched += these[j];
      (these[j] ? some_kept : some_dropped) = true;
    }
    if (matched != m) return std::nullopt;
    kept.insert(kept.end(), these.begin(), these.end());
  }
  if (!some_kept || !some_dropped) return std::nullopt;
  return kept;
}

std::optional<Affine> fit_affine(std::span<const u64> words, std::span<const i64> targets) {
  if (words.size() != targets.size() || words.empty()) return std::nullopt;
  // The line through the first element and the first whose word differs from it.
  const i64 w0 = i64(words[0]), t0 = targets[0];
  size_t j = 1;
  while (j < words.size() && i64(words[j]) == w0) ++j;
  if (j == words.size()) return std::nullopt;
  const __int128 dt = __int128(targets[j]) - t0, dw = __int128(i64(words[j])) - w0;
  if (dt % dw != 0) return std::nullopt;
  const __int128 a = dt / dw;
  if (a == 0 || a > INT64_MAX || a < INT64_MIN) return std::nullopt;
  const Affine fit{i64(a), vm::wrap_sub(t0, vm::wrap_mul(i64(a), w0))};
  std::set<u64> distinct;
  for (size_t e = 0; e < words.size(); ++e) {
    if (vm::wrap_add(vm::wrap_mul(fit.a, i64(words[e])), fit.b) != targets[e]) return std::nullopt;
    if (distinct.size() < 3) distinct.insert(words[e]);
  }
  if (distinct.size() < 3) return std::nullopt;
  return fit;
}

}  // namespace gs::search::bank
