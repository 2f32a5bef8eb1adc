#include "suites/json_values.h"

#include <cmath>

#include "suites/json_detail.h"
#include "suites/json_text.h"

namespace gs::suites {

std::string utf8_of_bytes(std::string_view bytes) {
  std::string out;
  for (unsigned char c : bytes) {
    if (c < 0x80) {
      out += char(c);
    } else {
      out += char(0xc0 | (c >> 6));
      out += char(0x80 | (c & 0x3f));
    }
  }
  return out;
}

bool bytes_of_utf8(std::string_view text, std::string* bytes) {
  bytes->clear();
  for (size_t k = 0; k < text.size(); ++k) {
    unsigned char c = static_cast<unsigned char>(text[k]);
    if (c < 0x80) {
      *bytes += char(c);
    } else if ((c == 0xc2 || c == 0xc3) && k + 1 < text.size()) {  // U+0080..U+00FF
      *bytes += char(((c & 0x03) << 6) | (static_cast<unsigned char>(text[++k]) & 0x3f));
    } else {
      return false;
    }
  }
  return true;
}

namespace detail {

using nlohmann::json;

const char* describe(const json& j) {
  switch (j.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::string: return "a string";
    case json::value_t::array: return "an array";
    case json::value_t::object: return "an object";
    case json::value_t::number_float:
      return std::trunc(j.get<double>()) == j.get<double>() &&
                     std::fabs(j.get<double>()) >= 9223372036854775808.0
                 ? "a number beyond the 64-bit integer range"
                 : "a float";
    case json::value_t::number_unsigned:
      return j.get<u64>() > u64(INT64_MAX) ? "an integer beyond the 64-bit range" : "an integer";
    default: return "an integer";
  }
}

bool value_from_json(const json& j, Type t, vm::Value* out, std::string* error) {
  auto fail = [&](const std::string& detail = "") {
    *error = std::string("expected ") + type_name(t) + ", found " + describe(j) + detail;
    return false;
  };
  switch (t) {
    case Type::Int:
      if (j.is_number_unsigned() && j.get<u64>() > u64(INT64_MAX)) return fail();
      if (j.is_number_integer()) {
        *out = vm::Value::of_int(j.is_number_unsigned() ? i64(j.get<u64>()) : j.get<i64>());
        return true;
      }
      if (j.is_number_float() && std::trunc(j.get<double>()) == j.get<double>() &&
          std::fabs(j.get<double>()) < 9.2e18) {
        *out = vm::Value::of_int(i64(j.get<double>()));
        return true;
      }
      return fail();
    case Type::Float:
      if (!j.is_number()) return fail();
      *out = vm::Value::of_float(j.get<double>());
      return true;
    case Type::Bool:
      if (!j.is_boolean()) return fail();
      *out = vm::Value::of_bool(j.get<bool>());
      return true;
    case Type::Str: {
      if (!j.is_string()) return fail();
      std::string bytes;
      if (!bytes_of_utf8(j.get_ref<const std::string&>(), &bytes)) {
        *error = "string character beyond U+00FF (a Syn string holds bytes: write byte N as \\u00NN)";
        return false;
      }
      *out = vm::Value::of_str(std::move(bytes));
      return true;
    }
    default: break;
  }
  if (!is_array(t) || !j.is_array()) return fail();
  std::vector<vm::Value> items(j.size());
  for (size_t k = 0; k < j.size(); ++k) {
    std::string inner;
    if (!value_from_json(j[k], element_of(t), &items[k], &inner)) {
      *error = "element " + std::to_string(k) + ": " + inner;
      return false;
    }
  }
  *out = vm::Value::of_array(element_of(t), std::move(items));
  return true;
}

json json_of_value(const vm::Value& v) {
  switch (v.type) {
    case Type::Int: return v.i;
    case Type::Bool: return v.i != 0;
    case Type::Float: return std::isfinite(v.f) ? json(v.f) : json(nullptr);
    case Type::Str: return utf8_of_bytes(v.s);
    default: break;
  }
  json a = json::array();
  for (const vm::Value& item : v.items) a.push_back(json_of_value(item));
  return a;
}

}  // namespace detail

using detail::describe;
using nlohmann::json;

bool parse_values(std::string_view json_text, std::span<const Type> types, std::vector<vm::Value>* out,
                  std::string* error) {
  detail::JsonError bad;
  std::optional<json> parsed = detail::parse_json(json_text, &bad);
  if (!parsed) {
    *error = bad.message + " (column " + std::to_string(bad.offset + 1) + ")";
    return false;
  }
  const json& j = *parsed;
  if (!j.is_array()) {
    *error = "expected a JSON array of arguments, found " + std::string(describe(j));
    return false;
  }
  if (j.size() != types.size()) {
    *error = "expected " + std::to_string(types.size()) + " arguments, found " + std::to_string(j.size());
    return false;
  }
  out->assign(types.size(), {});
  for (size_t k = 0; k < types.size(); ++k) {
    std::string why;
    if (!detail::value_from_json(j[k], types[k], &(*out)[k], &why)) {
      *error = "argument " + std::to_string(k + 1) + ": " + why;
      return false;
    }
  }
  return true;
}

}  // namespace gs::suites
