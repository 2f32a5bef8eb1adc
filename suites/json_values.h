// Syn values to and from JSON text, guided by the types a signature gives (problem files,
// `gpusynth run --args`).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "vm/value.h"

namespace gs::suites {

// docs/language.md "Values as JSON": a Syn string's byte N is the character U+00NN, written in
// UTF-8 in JSON text. bytes_of_utf8 is false for a character beyond U+00FF.
std::string utf8_of_bytes(std::string_view bytes);
bool bytes_of_utf8(std::string_view utf8, std::string* bytes);

// Parses a JSON array of values of the given types. On failure returns false and sets *error
// to a message such as "argument 2: expected [int], found a string".
bool parse_values(std::string_view json_text, std::span<const Type> types, std::vector<vm::Value>* out,
                  std::string* error);

}  // namespace gs::suites
