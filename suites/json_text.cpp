#include "suites/json_text.h"

#include <cmath>
#include <cstdlib>
#include <set>
#include <vector>

namespace gs::suites::detail {

namespace {

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

// The raw text of a string token starting at s[at] == '"' (escapes kept as written); at moves
// past its closing quote.
std::string_view string_token(std::string_view s, size_t* at) {
  size_t start = ++*at;
  while (*at < s.size() && s[*at] != '"') *at += s[*at] == '\\' ? 2 : 1;
  std::string_view raw = s.substr(start, std::min(*at, s.size()) - start);
  ++*at;
  return raw;
}

}  // namespace

std::optional<JsonError> find_json_issue(std::string_view s) {
  // One frame per open object (its keys so far) or array (no keys).
  struct Frame {
    bool object;
    std::set<std::string_view> keys;
  };
  std::vector<Frame> open;
  bool expect_key = false;
  for (size_t at = 0; at < s.size();) {
    const char c = s[at];
    if (is_space(c)) {
      ++at;
    } else if (c == ',' || c == ':') {
      expect_key = c == ',' && !open.empty() && open.back().object;
      ++at;
    } else if (c == '{' || c == '[') {
      open.push_back({c == '{', {}});
      expect_key = c == '{';
      ++at;
    } else if (c == '}' || c == ']') {
      if (!open.empty()) open.pop_back();
      expect_key = false;
      ++at;
    } else if (c == '"') {
      const size_t start = at;
      std::string_view text = string_token(s, &at);
      if (expect_key && !open.empty() && !open.back().keys.insert(text).second)
        return JsonError{start, "duplicate key \"" + std::string(text) + "\""};
      expect_key = false;
    } else {  // a number, true, false or null
      const size_t start = at;
      while (at < s.size() && !is_space(s[at]) && s[at] != ',' && s[at] != ']' && s[at] != '}') ++at;
      const std::string token(s.substr(start, at - start));
      if ((c == '-' || (c >= '0' && c <= '9')) && std::isinf(std::strtod(token.c_str(), nullptr)))
        return JsonError{start, "number out of range: " + token};
    }
  }
  return std::nullopt;
}

std::optional<nlohmann::json> parse_json(std::string_view text, JsonError* error) {
  using json = nlohmann::json;
  try {
    json doc = json::parse(text.begin(), text.end());
    if (auto issue = find_json_issue(text)) {
      *error = *issue;
      return std::nullopt;
    }
    return doc;
  } catch (const json::parse_error& e) {
    std::string what = e.what();
    size_t cut = what.find("syntax error");
    *error = {e.byte == 0 ? 0 : e.byte - 1,
              "not valid JSON: " + (cut == std::string::npos ? what : what.substr(cut))};
  } catch (const json::exception& e) {  // out_of_range 406: a number overflow, found by the scan
    *error = find_json_issue(text).value_or(JsonError{0, std::string("not valid JSON: ") + e.what()});
  }
  return std::nullopt;
}

}  // namespace gs::suites::detail
