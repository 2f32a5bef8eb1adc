// JSON text as users write it, with the checks the JSON library leaves out: a number too large
// for a double (1e400) and a key given twice in one object are errors at their line and column,
// not a library message without a place, or the last value silently winning.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace gs::suites::detail {

struct JsonError {
  size_t offset = 0;  // byte offset in the text where the problem is
  std::string message;
};

// Parses one JSON document. On an error, *error says where and what: "not valid JSON: syntax
// error ...", "number out of range: 1e400" or "duplicate key \"name\"".
std::optional<nlohmann::json> parse_json(std::string_view text, JsonError* error);

// The first key given twice in one object, or the first number no double can hold, in text that
// is otherwise JSON; nullopt when there is neither. Iterative: any nesting depth is safe.
std::optional<JsonError> find_json_issue(std::string_view text);

}  // namespace gs::suites::detail
