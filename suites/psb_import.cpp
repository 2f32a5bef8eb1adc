#include "suites/psb_import.h"

#include <cmath>
#include <cstdint>

#include "suites/json_detail.h"
#include "suites/json_text.h"

namespace gs::suites {

using nlohmann::json;

namespace {

// value_from_json takes 3.0 for an int (hand-written problem files may say so) and wraps an
// integer beyond int64; in imported data either means the data or the signature is wrong.
bool strictly_typed(const json& j, Type t, std::string* why) {
  if (is_array(t) && j.is_array()) {
    for (size_t k = 0; k < j.size(); ++k) {
      std::string inner;
      if (!strictly_typed(j[k], element_of(t), &inner)) {
        *why = "element " + std::to_string(k) + ": " + inner;
        return false;
      }
    }
    return true;
  }
  if (t == Type::Int && j.is_number_float()) {
    *why = "expected int, found a float";
    return false;
  }
  if (t == Type::Int && j.is_number_unsigned() && j.get<u64>() > u64(INT64_MAX)) {
    *why = "integer beyond the range of int (64-bit)";
    return false;
  }
  return true;
}

// "input1".."inputP", "output1".."outputR": the keys a case of this signature has.
std::string key_range(const Signature& sig) {
  auto range = [](const char* stem, size_t n) {
    if (n == 1) return std::string(stem) + "1";
    return std::string(stem) + "1.." + stem + std::to_string(n);
  };
  std::string keys = sig.params.empty() ? "" : range("input", sig.params.size()) + ", ";
  return keys + range("output", sig.results.size());
}

// One line into *out; false with *why on the first thing wrong with it.
bool read_case(std::string_view line, const Signature& sig, Case* out, std::string* why) {
  detail::JsonError bad;
  std::optional<json> parsed = detail::parse_json(line, &bad);
  if (!parsed) {
    *why = bad.message + " (column " + std::to_string(bad.offset + 1) + ")";
    return false;
  }
  const json& j = *parsed;
  if (!j.is_object()) {
    *why = std::string("a case is a JSON object {\"input1\": ..., \"output1\": ...}, found ") +
           detail::describe(j);
    return false;
  }
  struct Slot {
    std::string key;
    Type type;
    vm::Value* value;
  };
  std::vector<Slot> slots;
  out->inputs.assign(sig.params.size(), {});
  out->outputs.assign(sig.results.size(), {});
  for (size_t k = 0; k < sig.params.size(); ++k)
    slots.push_back({"input" + std::to_string(k + 1), sig.params[k], &out->inputs[k]});
  for (size_t k = 0; k < sig.results.size(); ++k)
    slots.push_back({"output" + std::to_string(k + 1), sig.results[k], &out->outputs[k]});
  for (const auto& item : j.items()) {
    bool known = false;
    for (const Slot& s : slots) known = known || s.key == item.key();
    if (!known) {
      *why = "unexpected key \"" + item.key() + "\": '" + sig.text + "' takes the keys " + key_range(sig);
      return false;
    }
  }
  for (const Slot& s : slots) {
    auto it = j.find(s.key);
    if (it == j.end()) {
      *why = "missing key \"" + s.key + "\": '" + sig.text + "' takes the keys " + key_range(sig);
      return false;
    }
    std::string detail;
    if (!strictly_typed(*it, s.type, &detail) || !detail::value_from_json(*it, s.type, s.value, &detail)) {
      *why = "\"" + s.key + "\": " + detail;
      return false;
    }
  }
  return true;
}

// Names, descriptions and sources end up as JSON strings: they must be valid UTF-8.
bool valid_utf8(const std::string& s) {
  try {
    (void)json(s).dump();
    return true;
  } catch (const json::exception&) {
    return false;
  }
}

}  // namespace

std::vector<Case> read_psb_cases(const PsbFile& file, const Signature& sig,
                                 std::vector<std::string>* errors) {
  std::vector<Case> cases;
  std::string_view text = file.text;
  size_t start = 0;
  for (u64 number = 1; start < text.size(); ++number) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = detail::trim(text.substr(start, end - start));
    start = end + 1;
    if (line.empty()) continue;
    Case c;
    std::string why;
    if (read_case(line, sig, &c, &why))
      cases.push_back(std::move(c));
    else
      errors->push_back(file.path + ":" + std::to_string(number) + ": " + why);
  }
  return cases;
}

std::optional<Problem> import_psb(const PsbImport& in, std::vector<std::string>* errors) {
  size_t errors_before = errors->size();
  Problem p;
  std::string why;
  if (!parse_signature(in.signature, &p.signature, &why)) {
    errors->push_back(why);
    return std::nullopt;
  }
  if (in.name.empty()) errors->push_back("the problem needs a name");
  for (const std::string* text : {&in.name, &in.description, &in.source})
    if (!valid_utf8(*text)) errors->push_back("'" + *text + "' is not valid UTF-8");
  if (!(in.float_tolerance >= 0) || !std::isfinite(in.float_tolerance))
    errors->push_back("the float tolerance must be a finite number >= 0");
  p.name = in.name;
  p.description = in.description;
  p.source = in.source;
  p.float_tolerance = in.float_tolerance;
  if (!in.constants.empty() && !parse_constants(in.constants, &p.constants, &why))
    errors->push_back("--constants: " + why);
  // A file that is empty (or all blank) is a mistake for train and test; PSB1 ships empty edge
  // files for problems without edge cases, so an empty edge file is fine.
  auto read = [&](const PsbFile& file, bool may_be_empty, std::vector<Case>* into) {
    size_t before = errors->size();
    std::vector<Case> cases = read_psb_cases(file, p.signature, errors);
    if (cases.empty() && !may_be_empty && errors->size() == before)
      errors->push_back(file.path + ":1: no cases: the file is empty");
    for (Case& c : cases) into->push_back(std::move(c));
  };
  if (in.edge) read(*in.edge, true, &p.train);
  read(in.train, false, &p.train);
  if (in.test) read(*in.test, false, &p.test);
  if (errors->size() != errors_before) return std::nullopt;
  return p;
}

}  // namespace gs::suites
