#include "suites/problem.h"

#include <fstream>
#include <sstream>

#include "base/input_file.h"
#include "compiler/compiler.h"
#include "compiler/parser.h"
#include "suites/json_detail.h"
#include "suites/json_text.h"

namespace gs::suites {

using nlohmann::json;

// ---- signatures -----------------------------------------------------------------------------

bool parse_signature(std::string_view text, Signature* out, std::string* error) {
  if (text.size() > kMaxSignatureBytes) {
    *error = "signature '" + std::string(text.substr(0, 40)) + "...': longer than " +
             std::to_string(kMaxSignatureBytes) + " bytes";
    return false;
  }
  // The signature is the head of a function: give it an empty body and let Syn's parser read it.
  std::string source = std::string(text) + " {}";
  compiler::CompileLimits limits;
  std::vector<u64> memory((compiler::workspace_bytes(u32(source.size()), limits) + 7) / 8);
  compiler::Workspace w;
  compiler::carve_workspace(reinterpret_cast<u8*>(memory.data()), source.data(), u32(source.size()), limits,
                            &w);
  w.token_count = compiler::lex(w.source, w.source_len, w.tokens, w.token_cap, w.diagnostics);
  w.node_count = 1;
  w.nodes[0] = compiler::Node{};
  compiler::Parser parser{w};
  u32 program = parser.parse_program();
  if (w.diagnostics.count > 0) {
    // Quoted against the signature itself: what the appended body holds reads as its end.
    *error = "signature '" + std::string(text) + "': " + compiler::message(w.diagnostics.items[0], text);
    return false;
  }
  if (w.function_count != 1) {
    *error = "signature '" + std::string(text) + "': expected exactly one 'fn name(params) -> result'";
    return false;
  }
  const compiler::FunctionInfo& f = w.functions[0];
  *out = Signature{};
  out->text = std::string(text);
  out->entry.assign(source.data() + f.name_pos, f.name_len);
  for (u32 c = w.nodes[w.nodes[program].first].first; c != 0; c = w.nodes[c].next) {
    const compiler::Node& n = w.nodes[c];
    if (n.kind != compiler::NodeKind::Param) continue;
    out->param_names.emplace_back(source.data() + n.pos, n.len);
    out->params.push_back(n.type);
  }
  for (u32 k = 0; k < f.result_count; ++k) out->results.push_back(f.result(k));
  if (out->results.empty()) {
    *error = "signature '" + std::string(text) + "': a problem's function must return a value";
    return false;
  }
  return true;
}

// ---- where a value sits in the JSON text ----------------------------------------------------

// A minimal JSON scanner that finds the byte offset of the value at a path of object keys and
// array indices, so errors about a value can name its line (nlohmann keeps no positions).
class Locator {
 public:
  explicit Locator(std::string_view text) : s_(text) {}

  struct Step {
    std::string key;  // for objects
    size_t index;     // for arrays, when key is empty
  };

  size_t find(const std::vector<Step>& path) {
    at_ = 0;
    space();
    for (const Step& step : path) {
      if (at_ >= s_.size()) return s_.size();
      if (!(step.key.empty() ? enter_array(step.index) : enter_object(step.key))) break;
    }
    return at_;
  }

 private:
  void space() {
    while (at_ < s_.size() && (s_[at_] == ' ' || s_[at_] == '\n' || s_[at_] == '\t' || s_[at_] == '\r'))
      ++at_;
  }
  std::string string() {
    std::string out;
    ++at_;
    while (at_ < s_.size() && s_[at_] != '"') {
      if (s_[at_] == '\\') ++at_;
      if (at_ < s_.size()) out += s_[at_++];
    }
    ++at_;
    return out;
  }
  void skip_value() {
    space();
    if (at_ >= s_.size()) return;
    char c = s_[at_];
    if (c == '"') {
      string();
    } else if (c == '[' || c == '{') {
      int depth = 0;
      while (at_ < s_.size()) {
        char d = s_[at_];
        if (d == '"') {
          string();
          continue;
        }
        if (d == '[' || d == '{') ++depth;
        if (d == ']' || d == '}') --depth;
        ++at_;
        if (depth == 0) break;
      }
    } else {
      while (at_ < s_.size() && s_[at_] != ',' && s_[at_] != ']' && s_[at_] != '}') ++at_;
    }
    space();
  }
  bool enter_array(size_t index) {
    if (s_[at_] != '[') return false;
    ++at_;
    space();
    for (size_t k = 0; k < index; ++k) {
      skip_value();
      if (at_ >= s_.size() || s_[at_] != ',') return false;
      ++at_;
      space();
    }
    return true;
  }
  bool enter_object(const std::string& key) {
    if (s_[at_] != '{') return false;
    ++at_;
    for (;;) {
      space();
      if (at_ >= s_.size() || s_[at_] != '"') return false;
      std::string k = string();
      space();
      if (at_ < s_.size() && s_[at_] == ':') ++at_;
      space();
      if (k == key) return true;
      skip_value();
      if (at_ >= s_.size() || s_[at_] != ',') return false;
      ++at_;
    }
  }

  std::string_view s_;
  size_t at_ = 0;
};

// ---- problems -------------------------------------------------------------------------------

namespace {

// {"TYPE": [values], …}: TYPE a value type as Syn writes it ("str", "[int]").
bool constants_from_json(const json& j, std::vector<vm::Value>* out, std::string* error) {
  if (!j.is_object()) {
    *error = std::string("constants: expected an object of lists by type, {\"str\": [\"aeiouy\"]}, found ") +
             detail::describe(j);
    return false;
  }
  out->clear();
  for (const auto& item : j.items()) {
    std::optional<Type> type;
    for (u32 t = 0; t < 256 && !type; ++t)
      if (is_value_type(Type(t)) && item.key() == type_name(Type(t))) type = Type(t);
    if (!type) {
      *error = "constants: \"" + item.key() +
               "\" is not a value type (int, float, bool, str, [int], [float], [bool], [str])";
      return false;
    }
    if (!item.value().is_array()) {
      *error = "constants: \"" + item.key() + "\" must be a list of values";
      return false;
    }
    for (size_t k = 0; k < item.value().size(); ++k) {
      vm::Value v;
      std::string why;
      if (!detail::value_from_json(item.value()[k], *type, &v, &why)) {
        *error = "constants: " + item.key() + "[" + std::to_string(k) + "]: " + why;
        return false;
      }
      out->push_back(std::move(v));
    }
  }
  return true;
}

// Carries what every message needs: "FILE:LINE:COLUMN: ".
struct Reader {
  std::string_view text;
  const std::string& path;
  std::string* error;

  bool fail(size_t offset, const std::string& message) const {
    u32 line, column;
    compiler::line_and_column(text, u32(std::min(offset, text.size())), &line, &column);
    *error = path + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message;
    return false;
  }
  bool fail_at(const std::vector<Locator::Step>& where, const std::string& message) const {
    return fail(Locator(text).find(where), message);
  }

  bool read_values(const json& list, const std::vector<Type>& types, const char* what,
                   std::vector<Locator::Step> where, const std::string& context,
                   std::vector<vm::Value>* out) const {
    if (!list.is_array())
      return fail_at(where, context + ": \"" + what + "\" must be an array, found " + detail::describe(list));
    if (list.size() != types.size())
      return fail_at(where, context + ": expected " + std::to_string(types.size()) + " " + what + ", found " +
                                std::to_string(list.size()));
    out->resize(types.size());
    for (size_t k = 0; k < types.size(); ++k) {
      std::string why;
      if (!detail::value_from_json(list[k], types[k], &(*out)[k], &why)) {
        where.push_back({"", k});
        return fail_at(where, context + ": " + what + "[" + std::to_string(k) + "]: " + why);
      }
    }
    return true;
  }

  bool read_cases(const json& doc, const char* split, const Signature& sig, std::vector<Case>* out) const {
    const json& cases = doc[split];
    if (!cases.is_array())
      return fail_at({{split, 0}}, std::string("\"") + split + "\" must be an array of cases");
    out->resize(cases.size());
    for (size_t k = 0; k < cases.size(); ++k) {
      std::string context = std::string(split) + " case " + std::to_string(k);
      const json& c = cases[k];
      std::vector<Locator::Step> where = {{split, 0}, {"", k}};
      if (!c.is_object() || !c.contains("inputs") || !c.contains("outputs"))
        return fail_at(where, context + ": a case is an object with \"inputs\" and \"outputs\"");
      for (const auto& item : c.items())
        if (item.key() != "inputs" && item.key() != "outputs") {
          where.push_back({item.key(), 0});
          return fail_at(where, context + ": unknown field \"" + item.key() +
                                    "\" (a case has \"inputs\" and \"outputs\")");
        }
      where.push_back({"inputs", 0});
      if (!read_values(c["inputs"], sig.params, "inputs", where, context, &(*out)[k].inputs)) return false;
      where.back() = {"outputs", 0};
      if (!read_values(c["outputs"], sig.results, "outputs", where, context, &(*out)[k].outputs))
        return false;
    }
    return true;
  }
};

// Why a problem's name cannot name its records group and summary line, or null.
const char* bad_name(const std::string& name) {
  if (name.empty()) return "must not be empty";
  if (name.size() > 255) return "must have at most 255 bytes";
  if (name == "." || name == "..") return "must not be . or ..";
  for (unsigned char c : name) {
    if (c == '/') return "must not hold '/' (it names an HDF5 group)";
    if (c < 0x20 || c == 0x7f) return "must not hold control characters";
  }
  return nullptr;
}

}  // namespace

std::optional<Problem> parse_problem(std::string_view text, const std::string& path, std::string* error) {
  Reader r{text, path, error};
  detail::JsonError bad;
  std::optional<json> parsed = detail::parse_json(text, &bad);
  if (!parsed) {
    r.fail(bad.offset, bad.message);
    return std::nullopt;
  }
  const json& doc = *parsed;
  if (!doc.is_object()) {
    r.fail(0, "a problem file holds one JSON object");
    return std::nullopt;
  }
  static const char* known[] = {"name", "signature",       "description", "train",
                                "test", "float_tolerance", "constants",   "source"};
  for (const auto& item : doc.items()) {
    const std::string& key = item.key();
    if (std::find_if(std::begin(known), std::end(known), [&key](const char* k) { return key == k; }) ==
        std::end(known)) {
      r.fail_at({{key, 0}}, "unknown field \"" + key +
                                "\" (known: name, signature, description, train, test, "
                                "float_tolerance, constants, source)");
      return std::nullopt;
    }
  }
  for (const char* required : {"name", "signature", "train"}) {
    if (!doc.contains(required)) {
      r.fail(0, std::string("missing field \"") + required + "\"");
      return std::nullopt;
    }
  }
  for (const char* field : {"name", "signature", "description", "source"}) {
    if (doc.contains(field) && !doc[field].is_string()) {
      r.fail_at({{field, 0}}, std::string("\"") + field + "\" must be a string");
      return std::nullopt;
    }
  }
  Problem p;
  p.path = path;
  p.name = doc["name"];
  if (const char* why = bad_name(p.name)) {
    r.fail_at({{"name", 0}}, std::string("\"name\" ") + why);
    return std::nullopt;
  }
  p.description = doc.value("description", "");
  p.source = doc.value("source", "");
  std::string why;
  if (!parse_signature(doc["signature"].get<std::string>(), &p.signature, &why)) {
    r.fail_at({{"signature", 0}}, why);
    return std::nullopt;
  }
  if (doc.contains("float_tolerance")) {
    const json& t = doc["float_tolerance"];
    if (!t.is_number() || t.get<double>() < 0) {
      r.fail_at({{"float_tolerance", 0}}, "\"float_tolerance\" must be a number >= 0");
      return std::nullopt;
    }
    p.float_tolerance = t.get<double>();
  }
  if (doc.contains("constants") && !constants_from_json(doc["constants"], &p.constants, &why)) {
    r.fail_at({{"constants", 0}}, why);
    return std::nullopt;
  }
  if (!r.read_cases(doc, "train", p.signature, &p.train)) return std::nullopt;
  if (doc.contains("test") && !r.read_cases(doc, "test", p.signature, &p.test)) return std::nullopt;
  if (p.train.empty()) {
    r.fail_at({{"train", 0}}, "\"train\" has no cases");
    return std::nullopt;
  }
  return p;
}

bool parse_constants(std::string_view json_text, std::vector<vm::Value>* out, std::string* error) {
  const json j = json::parse(json_text.begin(), json_text.end(), nullptr, false);
  if (j.is_discarded()) {
    *error = "constants: not valid JSON: " + std::string(json_text.substr(0, 80));
    return false;
  }
  return constants_from_json(j, out, error);
}

std::optional<Problem> load_problem(const std::string& path, std::string* error) {
  const auto text = read_input_file(path, kMaxProblemBytes, error);
  if (!text) return std::nullopt;
  return parse_problem(*text, path, error);
}

// One field per line and one case per line: readable, and a changed case is a one-line diff.
std::string problem_json(const Problem& p) {
  auto field = [](const char* key, const json& value) {
    return "  \"" + std::string(key) + "\": " + value.dump();
  };
  std::vector<std::string> fields = {field("name", p.name), field("signature", p.signature.text)};
  if (!p.description.empty()) fields.push_back(field("description", p.description));
  for (const auto* split : {&p.train, &p.test}) {
    std::string cases = std::string("  \"") + (split == &p.train ? "train" : "test") + "\": [";
    for (size_t k = 0; k < split->size(); ++k) {
      json inputs = json::array(), outputs = json::array();
      for (const vm::Value& v : (*split)[k].inputs) inputs.push_back(detail::json_of_value(v));
      for (const vm::Value& v : (*split)[k].outputs) outputs.push_back(detail::json_of_value(v));
      cases += std::string(k ? ",\n" : "\n") + "    {\"inputs\": " + inputs.dump() +
               ", \"outputs\": " + outputs.dump() + "}";
    }
    fields.push_back(cases + (split->empty() ? "]" : "\n  ]"));
  }
  if (p.float_tolerance > 0) fields.push_back(field("float_tolerance", p.float_tolerance));
  if (!p.constants.empty()) {
    std::vector<Type> order;  // types in order of first appearance (a json object would sort them)
    for (const vm::Value& v : p.constants)
      if (std::find(order.begin(), order.end(), v.type) == order.end()) order.push_back(v.type);
    std::string text = "{";
    for (size_t k = 0; k < order.size(); ++k) {
      json list = json::array();
      for (const vm::Value& v : p.constants)
        if (v.type == order[k]) list.push_back(detail::json_of_value(v));
      text += (k ? ", " : "") + json(type_name(order[k])).dump() + ": " + list.dump();
    }
    fields.push_back("  \"constants\": " + text + "}");
  }
  if (!p.source.empty()) fields.push_back(field("source", p.source));
  std::string out = "{\n";
  for (size_t k = 0; k < fields.size(); ++k) out += fields[k] + (k + 1 < fields.size() ? ",\n" : "\n");
  return out + "}\n";
}

}  // namespace gs::suites
