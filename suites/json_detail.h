// nlohmann::json <-> vm::Value, for search/'s own .cpp files (the public headers keep JSON out
// of their interfaces). docs/language.md "Values as JSON" defines the mapping.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "vm/value.h"

namespace gs::suites::detail {

// One value of type t; false with *error saying what was found instead.
bool value_from_json(const nlohmann::json& j, Type t, vm::Value* out, std::string* error);
nlohmann::json json_of_value(const vm::Value& v);
const char* describe(const nlohmann::json& j);

// s without leading and trailing blanks (space, tab, CR, LF): JSON Lines readers' line test.
inline std::string_view trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

}  // namespace gs::suites::detail
