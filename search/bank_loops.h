// The loops with state the value-bank enumeration builds (issue 21, docs/search.md "The value
// bank"): each a production whose operands are banked values and whose loop is a helper function
// in Syn, compiled with its Operation (the VM's semantics, traps and fuel included) and written
// out once in a materialised program, as choose's helpers are:
//
//   fold_OP(xs, init)        acc = init; for x in xs { acc = OP(acc, x) }          sum, product, max, …
//   scan_OP(xs, init)        every acc of that fold, in order                      prefix sums, running max
//   fold_range_OP(n, init)   the fold over 1, 2, …, n                              sum of squares, n!
//   digits_OP(n, b, init)    the fold over n's base-b digits, last first (n % b, n = n / b; no
//                            step unless n > 0 and b > 1)                          digit sums, reversal
//   recur_add(n, a, b)       (x, y) = (y, x + y) n times from (a, b); x           Fibonacci's numbers
//   euclid(a, b)             (a, b) = (b, a % b) until b is 0; a                   the gcd
//   count_where_P(xs, v)     how many x in xs have P(x, v)                         x == v, x < v, x % v == 0
//   first_where_P(xs, v)     the first index with P(xs[i], v), or -1
//   last_where_P(xs, v)      the last such index, or -1
//   filter_P(xs, v)          the x in xs with P(x, v), in order                    the positives, the evens
//   map_F(xs, v)             F(x, v) for each x in xs                              x + v, x * v, x / v, …
//   map_U(xs)                U(x) for each x                                       squares, negations
//   zip_F(xs, ys)            F(xs[i], ys[i]) for i below both lengths              vectors summed
//   map_D(xs), filter_Q(xs), DeepCoder's lambdas as one-node forms (bank::list_language_form,
//   count_where_Q(xs),       --list-forms): D x + 1, x - 1, x * 2, x / 2, x * 3, x / 3, x * 4, x / 4
//   scanl1_G(xs)             (inc … quarter); Q x > 0, x < 0, even, odd; scanl1: xs[0], then
//                            G(previous, x) for each later x, G -, max or min
//   map_str(xs)              str(x) for each x: only written around a lines goal's [int] for-loop-index
//                            (search/goal_shapes.h), not a production
//   remove_all(xs, v)        the x in xs other than v
//   repeat(v, n)             n copies of v ([] when n <= 0)
//   range_to(a, b)           a, a + 1, …, b ([] when b < a)
//   range_by(a, b, s)        a, a + s, … up to b ([] unless s > 0)
//   squares_below(a, s, v)   x * x for x = a, a + s, … while x * x < v ([] unless s > 0)
//   unique(xs)               each x of xs at its first place
//   interleave(xs, ys)       xs[0], ys[0], xs[1], ys[1], … below both lengths
//   count_each(vs, xs)       how often each v of vs occurs in xs                 a histogram
//   difference(xs, ys)       xs less one copy of each y of ys, in xs's order    Haskell's xs \\ ys
//
// with OP an accumulation (acc + x, acc * x, max, min, acc + x * x, acc + 1, and for digits
// acc * b + x), P a comparison with a banked value (x == v, x < v, x > v, v divides x, v does
// not), F an operator (+, -, *, /, %, max, min; zip: the first five but / and %) and U x * x,
// -x or abs(x): DeepCoder's list language (Balog et al. 2017) falls within them.
//
// In the bank a loop has kLoopFuel instructions per case (a few hundred steps), not the cases' whole
// limit: a fold over 1..n with a banked n of 10^9 would otherwise burn a million instructions on
// every case each time it is tried (PSB1's checksum fell from ~10^5 to 10^3 candidates/s). A
// program that needs a longer loop is missed by the bank, never proposed wrongly: the pipeline
// judges it with the run's own fuel.
//
// The Syn is the reference; the bank computes every loop in C++ as well (search/bank_loops.cpp,
// Operation::loop_natively), with the fuel the Syn would spend — affine in counts the C++ loop
// keeps (steps, elements kept, matched or walked, the way out), measured against the interpreter
// when the production is made — so that a case traps out_of_fuel exactly where the interpreter's
// would, and with the heap left as the interpreter leaves it.

#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "search/bank_enumerator.h"

namespace gs::search::bank {

inline constexpr u64 kLoopFuel = 5000;  // per case and application, in the bank (above)

// The loop productions over the types in `types` (those of a problem's signature, int and bool
// included): the [int] loops when [int] is there, the int loops always.
std::vector<Production> loop_productions(const std::set<Type>& types);

// The helper function of the loop `name` ("scan_add", "map_mul"), as its production writes it.
// Throws std::invalid_argument for a name no loop has.
std::string loop_helper(std::string_view name);
// The key (production_key) of the loop `name`'s production: "map_mul($0, $1) ([int], int) ->
// [int]". Throws std::invalid_argument as loop_helper does.
std::string loop_key(std::string_view name);

}  // namespace gs::search::bank
