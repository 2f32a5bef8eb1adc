// DeepCoder's list language once the enumeration has gone a while without it (issue 21;
// docs/search.md "The value bank"). Its one-node forms (bank::list_language_form: xs[0],
// map_triple(xs), filter_odd(xs), scanl1_max(xs), …) make DeepCoder's pipelines of list functions
// a node per function, and so reach them sooner; but they widen every level of the enumeration,
// so what the grammar's own spellings find near a budget falls past it (listfunctions at 10 s a
// problem: five fewer with them from the start). So the enumeration goes in three phases, each
// beginning again from size 1:
//   1. the whole grammar without the forms, for `after` expressions or until it ends (a search
//      bounded by PushGP's 300,000 never leaves it);
//   2. DeepCoder's list language alone (bank::list_language: its functions, a function a level;
//      the parameters the only leaves; no lambdas), for `alone` expressions or until it ends —
//      the five-function programs DeepCoder's problems need are millions of expressions into the
//      whole grammar, and tens of thousands into the language;
//   3. the whole grammar with the forms, for as long as the search goes on (what needs a
//      constant or a lambda beside the forms: listfunctions' c013 `filter(xs[0] > x % 10)`).
#pragma once

#include <functional>
#include <memory>

#include "search/generator.h"

namespace gs::search {

// The grammar of one phase: the whole without DeepCoder's list forms, the list language alone,
// or the whole beside the forms.
enum class ListForms { Without, Alone, Beside };

// An enumeration of the problem by that grammar.
using ListFormsFactory = std::function<std::unique_ptr<Generator>(ListForms grammar)>;

// make(Without) for `after` expressions (its lambda bodies and proposals counted, as the search
// counts them), or until it ends; then make(Alone) for `alone` expressions (0: that phase is
// skipped), or until it ends; then make(Beside), for as long as the search goes on. Each is
// dropped (its bank freed) before the next is made. Its notes say when each phase began, each
// dropped enumeration's notes after that, then the current one's.
std::unique_ptr<Generator> make_list_forms_restart(u64 after, u64 alone, ListFormsFactory make);

}  // namespace gs::search
