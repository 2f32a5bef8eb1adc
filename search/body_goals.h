// Goals for a lambda's body (issue 21, docs/search.md "Lambda bodies"): where a result's every
// train output is a map over a sequence parameter — a list as long as the sequence — or a filter
// of it — a subsequence —, the outputs fix the body's output on every element, and the body can
// be searched for against those (a goal over the element cases, as top-down synthesisers such as
// λ² and Duet decompose a goal through map and filter) instead of found among every body's map.
// An int body may be met up to an affine map a * body + b, which takes the constants a body's
// grammar lacks (99 - x, 3 * x + 7).
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "base/types.h"
#include "vm/value.h"

namespace gs::search::bank {

// A sequence's elements as a body sees them: an [int]'s ints, a str's character codes, a [str]'s
// strs.
u32 sequence_length(const vm::Value& sequence);
vm::Value sequence_element(const vm::Value& sequence, u32 j);

// How a map's or a filter's output lines up with its sequence: the loop visits every element,
// all but the first (the output one element shorter: a map over xs[1..]), or all but the last;
// or it visits every element and the output is reversed (an [int]'s only).
enum class Span : u8 { All, DropFirst, DropLast, Reversed };

// What the body must give on each element, case by case in order: a map's ints, or 1 and 0 for a
// filter's kept and dropped elements; and the elements the loop does not visit (any output, or a
// trap, is right there).
struct Targets {
  std::vector<i64> values;
  std::vector<u8> free;
};

// A map's, or none when some output is not an [int] that long, or when the loop would visit no
// element at all.
std::optional<Targets> map_targets(std::span<const vm::Value> sequences, std::span<const vm::Value> outputs,
                                   Span span = Span::All);

// A filter's, or none when some output is not a subsequence of what the loop visits (of the
// sequence's type), or when every visited element is kept or every one dropped. Where an output
// could be matched more ways than one (repeated elements), the leftmost matching is taken (a body
// over the element's value keeps every copy alike, and this is its), or the rightmost (the later
// places' of a body over the index: keeping the places past 2 of [8, 4, 8] keeps the second 8,
// not the first).
std::optional<Targets> filter_targets(std::span<const vm::Value> sequences,
                                      std::span<const vm::Value> outputs, bool rightmost = false,
                                      Span span = Span::All);

// a and b with a * w + b == t on every element not free (the VM's wrapping arithmetic, as the
// program `a * (body) + b` computes it), a != 0, where the words take at least three distinct
// values there (two points always fit a line); none when no such pair exists.
struct Affine {
  i64 a = 1, b = 0;
};
std::optional<Affine> fit_affine(std::span<const u64> words, std::span<const i64> targets,
                                 std::span<const u8> free = {});

}  // namespace gs::search::bank
