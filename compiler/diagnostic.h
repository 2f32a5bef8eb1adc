// Compile errors as data (docs/design.md "Errors are data"): the core passes record them in a
// fixed-capacity list; the host renders them (compiler/compiler.h).
#pragma once

#include "base/hd.h"

namespace gs::compiler {

enum class Code : u8 {
#define DIAGNOSTIC(name, format) name,
#include "compiler/diagnostics.def"
#undef DIAGNOSTIC
};

struct Diagnostic {
  Code code;
  u32 pos;  // byte offset of the span in the source
  u32 len;  // span length in bytes
  u32 a;    // arguments, as the format says
  u32 b;
};

// Holds at most cap diagnostics; the last slot is kept for TOO_MANY_ERRORS.
struct Diagnostics {
  Diagnostic* items = nullptr;
  u32 cap = 0;
  u32 count = 0;
  bool stopped = false;  // the list is full: passes should stop

  GS_HD void add(Code code, u32 pos, u32 len, u32 a = 0, u32 b = 0) {
    if (stopped || cap == 0) return;
    if (count + 1 >= cap) {
      items[count++] = {Code::TOO_MANY_ERRORS, pos, len, 0, 0};
      stopped = true;
      return;
    }
    items[count++] = {code, pos, len, a, b};
  }
};

}  // namespace gs::compiler
