// nlohmann::json <-> vm::Value, for search/'s own .cpp files (the public headers keep JSON out
// of their interfaces). docs/language.md "Values as JSON" defines the mapping.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "vm/value.h"

namespace gs::search::detail {

// One value of type t; false with *error saying what was found instead.
bool value_from_json(const nlohmann::json& j, Type t, vm::Value* out, std::string* error);
nlohmann::json json_of_value(const vm::Value& v);
const char* describe(const nlohmann::json& j);

}  // namespace gs::search::detail
