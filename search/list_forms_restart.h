// DeepCoder's list forms once the enumeration has gone a while without them (issue 21; docs/search.md
// "The value bank"). The forms (bank::list_language_form: xs[0], map_triple(xs), filter_odd(xs),
// scanl1_max(xs), …) make DeepCoder's pipelines of list functions a node per function, and so
// reach them sooner; but they widen every level of the enumeration, so what the grammar's own
// spellings find near a budget falls past it (listfunctions at 10 s a problem: five fewer with them
// from the start). So the enumeration goes first without them, for EnumerateSettings::
// list_forms_after expressions or until it ends, and then begins again from size 1 with them: a
// search bounded by PushGP's 300,000 never gets there, and a long one has them for the rest of its
// time.
#pragma once

#include <functional>
#include <memory>

#include "search/generator.h"

namespace gs::search {

// An enumeration of the problem with DeepCoder's list forms (true) or without them (false).
using ListFormsFactory = std::function<std::unique_ptr<Generator>(bool list_forms)>;

// make(false) for `after` expressions (its lambda bodies and proposals counted, as the search counts
// them), or until it ends; then make(true), for as long as the search goes on. The first is dropped
// (its bank freed) before the second is made. Its notes say when it began again, the first
// enumeration's notes after that, then the second's.
std::unique_ptr<Generator> make_list_forms_restart(u64 after, ListFormsFactory make);

}  // namespace gs::search
