// Trap codes: run-time faults are data (docs/design.md "Errors are data").
#pragma once

#include "base/hd.h"

namespace gs::vm {

enum class Trap : u8 {
#define TRAP(name, text) name,
#include "vm/traps.def"
#undef TRAP
};

inline constexpr u32 kTrapCount = 0
#define TRAP(name, text) +1
#include "vm/traps.def"
#undef TRAP
    ;

GS_HD inline const char* trap_name(Trap t) {
  switch (t) {
#define TRAP(name, text) \
  case Trap::name:       \
    return text;
#include "vm/traps.def"
#undef TRAP
  }
  return "unknown_trap";
}

}  // namespace gs::vm
