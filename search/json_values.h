// Syn values to and from JSON text, guided by the types a signature gives (problem files,
// `gpusynth run --args`).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "vm/value.h"

namespace gs::search {

// Parses a JSON array of values of the given types. On failure returns false and sets *error
// to a message such as "argument 2: expected [int], found a string".
bool parse_values(std::string_view json_text, std::span<const Type> types, std::vector<vm::Value>* out,
                  std::string* error);

}  // namespace gs::search
