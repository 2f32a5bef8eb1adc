#include "suites/candidates.h"

#include <nlohmann/json.hpp>

#include "suites/json_detail.h"
#include "suites/json_text.h"

namespace gs::suites {

namespace {

// Splits text into lines (without their '\n'); the last line may be empty.
std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

void parse_json_line(std::string_view line, u32 number, const std::string& path, CandidateFile* out) {
  auto fail = [&](const std::string& why) {
    out->errors.push_back(path + ":" + std::to_string(number) + ": " + why);
  };
  detail::JsonError bad;
  std::optional<nlohmann::json> parsed = detail::parse_json(line, &bad);
  if (!parsed) return fail(bad.message + " (column " + std::to_string(bad.offset + 1) + ")");
  const nlohmann::json& j = *parsed;
  const nlohmann::json* source = &j;
  if (j.is_object()) {
    auto it = j.find("source");
    if (it == j.end()) it = j.find("completion");
    if (it == j.end()) return fail("object without a \"source\" or \"completion\" field");
    source = &*it;
  }
  if (!source->is_string()) return fail("the candidate must be a JSON string");
  out->candidates.push_back({source->get<std::string>(), number, std::string(detail::trim(line))});
}

}  // namespace

CandidateFile parse_candidates(std::string_view text, const std::string& path) {
  CandidateFile out;
  std::string_view first = detail::trim(text);
  out.json_lines = !first.empty() && (first[0] == '{' || first[0] == '"');
  std::vector<std::string_view> lines = lines_of(text);
  if (out.json_lines) {
    for (size_t k = 0; k < lines.size(); ++k)
      if (!detail::trim(lines[k]).empty()) parse_json_line(lines[k], u32(k + 1), path, &out);
    return out;
  }
  size_t begin = 0;  // first line of the candidate being read
  auto flush = [&](size_t end) {
    if (begin >= lines.size()) return;
    std::string source;
    for (size_t k = begin; k < end; ++k) source.append(lines[k]).append(k + 1 < lines.size() ? "\n" : "");
    if (!detail::trim(source).empty()) out.candidates.push_back({std::move(source), u32(begin + 1), {}});
  };
  for (size_t k = 0; k < lines.size(); ++k) {
    if (detail::trim(lines[k]) != "---") continue;
    flush(k);
    begin = k + 1;
  }
  flush(lines.size());
  return out;
}

std::string candidates_text(const std::vector<const Candidate*>& candidates, bool json_lines) {
  std::string out;
  for (size_t k = 0; k < candidates.size(); ++k) {
    const std::string& s = candidates[k]->source;
    if (json_lines) {
      const std::string& r = candidates[k]->record;
      out +=
          (r.empty() ? nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) : r) +
          "\n";
    } else {
      if (k > 0) out += "---\n";
      out += s;
      if (s.empty() || s.back() != '\n') out += "\n";
    }
  }
  return out;
}

}  // namespace gs::suites
