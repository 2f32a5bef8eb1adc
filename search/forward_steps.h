// The last steps an answer may end with that have no inverse on the goals' side (docs/search.md
// "Goals"): a filter, a count, a running max, min or product, squares, halves, a list's sum, max,
// min, length, first, last or n-th element, its first or all but its first n. search/last_steps.h
// takes the invertible steps (reverse, sort, map_mul(e, 2), ...) backwards, from the outputs to a
// goal one step earlier; these go forwards instead: each banked [int] e is taken one step on,
// and step(e) is checked against every goal, so that an answer `return filter_gt(e, 0);` is found
// at e's level rather than at the next one or two (DeepCoder's list language ends many of its
// programs with one of these).
//
// A step is checked first on one train case (the enumeration's choice) by a sketch (sketch()
// below: the step written natively, with the VM's own arithmetic, vm/arith.h), and only where that
// agrees with the goal by the step's bank::Operation on every case: the VM's semantics decide what
// meets a goal, and a test holds the sketch to them on random lists.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/types.h"
#include "search/value_bank.h"
#include "suites/problem.h"

namespace gs::search {

struct ForwardStep {
  // An int from the list: Sum, Max, Min, Len, First, Last, At (its n-th, n a parameter). With a
  // predicate against a constant v: CountWhere, Filter. Elementwise: MapSquare (x * x), MapDiv
  // (x / v). The running max, min, product: ScanMax, ScanMin, ScanMul. With an [int] parameter:
  // ZipMax, ZipMin. With an int parameter n: Take (slice(e, 0, n)), Drop (slice(e, n, len(e))).
  enum class Kind : u8 {
    Sum,
    Max,
    Min,
    Len,
    First,
    Last,
    At,
    CountWhere,
    Filter,
    MapSquare,
    MapDiv,
    ScanMax,
    ScanMin,
    ScanMul,
    ZipMax,
    ZipMin,
    Take,
    Drop,
  };
  enum class Test : u8 { None, Gt, Lt, Divides, NotDivides };

  Kind kind = Kind::Sum;
  Test test = Test::None;
  i64 v = 0;                     // the predicate's or the divisor's constant
  std::optional<u32> parameter;  // the parameter At, ZipMax, ZipMin, Take, Drop take
  Type result = Type::Int;       // int or [int]
  std::string text;              // Syn over $0 (the list) and $1 (the parameter): "filter_gt($0, 0)"
  std::string helper;            // the loop's helper function it calls, or empty
  std::optional<bank::Operation> operation;  // over (the list[, the parameter])
  // The productions and constants it is written with, by key (search/bank_grammar.h): what an
  // answer ending with it uses besides its expression ("$0[$1] ([int], int) -> int", "0 () -> int").
  std::vector<std::string> keys;
};

// The forward steps for a problem's signature: none unless it has an int or [int] result.
std::vector<ForwardStep> forward_steps(const suites::Problem& problem);

// A sketch of one step on one case's list xs (and the parameter's value there, n or ys): a trap
// (max of an empty list, an index out of range), or the int or the list the VM gives (ints wrap).
struct Sketch {
  bool traps = false;
  i64 value = 0;
  std::vector<i64> items;
};
// Into *out (its items' storage reused).
void sketch(const ForwardStep& step, std::span<const u64> xs, i64 n, std::span<const u64> ys, Sketch* out);
// How long the list sketch() gives is (where it does not trap), for a list xs of `length` and a
// parameter ys of `ys_length`, without computing it: none for an int, or a filter's (its length
// depends on the elements).
std::optional<size_t> sketch_length(const ForwardStep& step, size_t length, i64 n, size_t ys_length);

// The step written around e (Syn), with `parameter_name` for its parameter.
std::string around(const ForwardStep& step, const std::string& e, const std::string& parameter_name);

}  // namespace gs::search
