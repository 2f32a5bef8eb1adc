// The enumeration on a sample of a problem's train cases, grown by counterexamples (issue 21;
// docs/search.md "A sample of the cases"). The value bank evaluates every expression on every
// case it holds, so a problem of 200 train cases (PSB1's) costs four times one of 50, and its
// heaps, shared by the cases, hold a quarter as much per case. Most expressions that agree with
// the outputs on a few dozen cases agree on all of them, so the bank holds only a sample — half
// of it the first train cases (where a suite's hand-picked edge cases are), the rest spread evenly
// over the others — and the pipeline, the judge of record, runs each proposal on every train case
// as before. When a proposal fails a
// case outside the sample (it met the goals on the sample only), up to kCounterexamples of those
// cases join the sample and the enumeration starts again over it — counterexample-guided, as
// CEGIS is: an expression banked on the sample hides every other with its outputs there, so the
// bank cannot go on past a false answer; it is rebuilt on cases that tell them apart. A solution
// passes every train case whatever the sample.
#pragma once

#include <functional>
#include <memory>

#include "search/generator.h"
#include "suites/problem.h"

namespace gs::search {

inline constexpr u32 kCounterexamples = 8;  // cases a false answer adds to the sample, at most

using GeneratorFactory = std::function<std::unique_ptr<Generator>(const suites::Problem&)>;

// `make` over the problem with `sample` of its train cases as above (the same problem when it has
// no more), grown as above; `sample` at least 1.
std::unique_ptr<Generator> make_sampled_generator(const suites::Problem& problem, u32 sample,
                                                  GeneratorFactory make);

}  // namespace gs::search
