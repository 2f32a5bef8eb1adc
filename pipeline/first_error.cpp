#include "pipeline/first_error.h"

#include "compiler/compiler.h"
#include "vm/trap.h"

namespace gs::pipeline {

std::string first_error(const BatchResults& r, u32 i, std::string_view source) {
  auto kept = r.kept_diagnostics(i);
  if (kept.empty()) {
    if (r.trap.empty() || r.program_status(i) != ProgramStatus::OK) return {};
    u32 counts[256] = {};
    for (u32 k = 0; k < r.cases; ++k) counts[r.trap[u64(i) * r.cases + k]]++;
    u32 worst = 0;
    for (u32 t = 1; t < 256; ++t)
      if (counts[t] > counts[worst] || (worst == 0 && counts[t] > 0)) worst = t;
    if (worst == 0) return {};
    return std::string(vm::trap_name(vm::Trap(worst))) + " x" + std::to_string(counts[worst]);
  }
  u32 line, column;
  compiler::line_and_column(source, kept[0].pos, &line, &column);
  std::string more =
      r.diagnostic_count[i] > 1 ? " (+" + std::to_string(r.diagnostic_count[i] - 1) + " more)" : "";
  return std::to_string(line) + ":" + std::to_string(column) + ": " + compiler::message(kept[0], source) +
         more;
}

}  // namespace gs::pipeline
