#include "suites/samples.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "suites/json_detail.h"
#include "suites/json_text.h"

namespace gs::suites {

const char* language_name(SampleLanguage l) { return l == SampleLanguage::Python ? "python" : "syn"; }

bool parse_sample(std::string_view line, Sample* out, std::string* error) {
  detail::JsonError bad;
  std::optional<nlohmann::json> parsed = detail::parse_json(line, &bad);
  if (!parsed) {
    *error = bad.message + " (column " + std::to_string(bad.offset + 1) + ")";
    return false;
  }
  const nlohmann::json& j = *parsed;
  if (!j.is_object()) {
    *error = "a sample must be a JSON object with \"task_id\" and \"completion\" or \"source\"";
    return false;
  }
  auto task = j.find("task_id");
  if (task == j.end() || !task->is_string() || task->get_ref<const std::string&>().empty()) {
    *error = "a sample needs a non-empty string \"task_id\"";
    return false;
  }
  auto source = j.find("source");
  auto completion = j.find("completion");
  if ((source == j.end()) == (completion == j.end())) {
    *error =
        "a sample needs one of \"completion\" (a model's text) or \"source\" (code), not both or neither";
    return false;
  }
  const bool raw = source != j.end();
  const nlohmann::json& text = raw ? *source : *completion;
  if (!text.is_string()) {
    *error = std::string("\"") + (raw ? "source" : "completion") + "\" must be a string";
    return false;
  }
  SampleLanguage language = SampleLanguage::Syn;
  if (auto l = j.find("language"); l != j.end()) {
    if (*l == "python") {
      language = SampleLanguage::Python;
    } else if (*l != "syn") {
      *error = "\"language\" must be \"syn\" or \"python\", not " + l->dump();
      return false;
    }
  }
  out->task_id = task->get<std::string>();
  out->source = raw ? text.get<std::string>() : extract_code(text.get_ref<const std::string&>());
  out->language = language;
  return true;
}

std::string extract_code(std::string_view text) {
  // A fence: a line starting with ``` or ~~~ (after up to 3 spaces); the block ends at the next
  // line starting with the same fence, or at the end of the text.
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    size_t indent = line.find_first_not_of(' ');
    if (indent != std::string_view::npos && indent <= 3) {
      std::string_view rest = line.substr(indent);
      if (rest.substr(0, 3) == "```" || rest.substr(0, 3) == "~~~") {
        const std::string_view fence = rest.substr(0, 3);
        std::string code;
        size_t k = end + 1;
        while (k < text.size()) {
          size_t e = text.find('\n', k);
          if (e == std::string_view::npos) e = text.size();
          std::string_view l = text.substr(k, e - k);
          size_t i = l.find_first_not_of(' ');
          if (i != std::string_view::npos && i <= 3 && l.substr(i, 3) == fence) return code;
          code.append(l).append("\n");
          k = e + 1;
        }
        return code;
      }
    }
    at = end + 1;
  }
  // No fence: drop prose before the first line that starts a function.
  at = 0;
  while (at < text.size()) {
    std::string_view rest = text.substr(at);
    if (rest.substr(0, 3) == "fn " || rest.substr(0, 4) == "def ") return std::string(rest);
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) break;
    at = end + 1;
  }
  return std::string(text);
}

std::optional<double> pass_at_k(u64 n, u64 c, u64 k) {
  if (k == 0 || n < k) return std::nullopt;
  c = std::min(c, n);
  if (n - c < k) return 1.0;
  // 1 - prod_{i = n-c+1}^{n} (1 - k / i): the numerically stable form of the ratio of binomials.
  double none = 1.0;
  for (u64 i = n - c + 1; i <= n; ++i) none *= 1.0 - double(k) / double(i);
  return 1.0 - none;
}

}  // namespace gs::suites
