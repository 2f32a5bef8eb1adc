// Syn -> Python over the typed syntax tree (trees/syntax.h), for the CPython baseline of
// bench/compile_vm. Benchmark code, not part of search/.
//
// The Python computes what the Syn program computes, outcome for outcome (results, or the trap
// as a Python exception), so the benchmark can verify every evaluation against the VM. It is
// idiomatic where Python's semantics equal Syn's (str is `bytes`, arrays are lists, `x in xs`,
// `sorted`, `min`, `xs.append(x)` for `xs = push(xs, x)`, ...) and calls the small helpers of
// bench/cpython_baseline.py's PRELUDE (names starting with `_`) only where they differ:
//   - int `/` `%` truncate and trap on zero (`_div`, `_mod`; `n // k` inline for a name and a
//     positive literal); `<<` wraps (`_shl`), `>>>` is logical (`_ushr`);
//   - an index that may be negative traps (`xs[i if i >= 0 else _oob()]`) instead of counting
//     from the end; slice bounds clamp (`_slice`);
//   - floats: `/` by zero gives inf/NaN (`_fdiv`), `%` is C fmod (`_fmod`), sqrt of a negative
//     is NaN, floor/ceil/round keep the float type and the sign of zero, round halves away from
//     zero, int(x) saturates, str(x) follows docs/language.md "Formatting floats" (`_fstr`),
//     sum adds left to right, sort puts NaNs last, contains/index_of/== on float arrays do not
//     let Python's identity shortcut call a NaN equal to itself;
//   - pop/array/parse_int/join/split edge cases (`_pop`, `_array`, `_parse_int`, `_split`);
//   - the call-depth bound: in a program with recursion every function takes `_d`, its depth.
// Arrays are values in Syn and references in Python: an array changed in place (`a[i] = e`,
// `xs.append`) is copied where it is bound from, or flows into, another name.
//
// Ints are not wrapped: the corpus keeps them small (bench/corpus.h). check_overflow adds
// `_ck(...)` around every int result that can leave the int64 range; that variant runs once,
// untimed, to find the evaluations where Syn's wrapping and Python's big ints part ways.
#pragma once

#include <string>
#include <string_view>

#include "trees/syntax.h"

namespace gs::bench {

struct PythonOptions {
  bool check_overflow = false;
  u32 call_depth = 64;  // vm::Limits::call_depth: the entry call counts as 1
};

struct PythonProgram {
  std::string source;  // `def` statements, using the PRELUDE's helpers
  std::string entry;   // the Python name of the entry function
};

PythonProgram to_python(const trees::Tree& program, std::string_view entry,
                        const PythonOptions& options = {});

}  // namespace gs::bench
