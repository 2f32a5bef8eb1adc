// Who made a candidate: the generators of search/generator.h, named once for the command line
// (`--generator`), the search loop and the records (records/records.h). The records keep every
// name by its code, a retired one too (`bank`: parse_generator refuses it).
#pragma once

#include <optional>
#include <string_view>

#include "base/types.h"

namespace gs::search {

// clang-format off
#define GS_GENERATOR_KINDS(X) \
  X(Random, "random")         \
  X(Gp, "gp")                 \
  X(Enumerate, "enumerate")   \
  X(External, "external")     \
  X(Portfolio, "portfolio")   \
  X(Bank, "bank") /* retired: the value bank's own name before it became enumerate's engine */
// clang-format on

enum class GeneratorKind : u8 {
#define GS_X(id, name) id,
  GS_GENERATOR_KINDS(GS_X)
#undef GS_X
};
const char* generator_name(GeneratorKind k);
std::optional<GeneratorKind> parse_generator(std::string_view name);

}  // namespace gs::search
