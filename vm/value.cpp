#include "vm/value.h"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace gs::vm {

bool identical(const Value& a, const Value& b) {
  if (a.type != b.type) return false;
  switch (a.type) {
    case Type::Int:
    case Type::Bool: return a.i == b.i;
    case Type::Float:  // no Syn program can tell NaNs apart, so neither does this
      return (std::isnan(a.f) && std::isnan(b.f)) || std::memcmp(&a.f, &b.f, sizeof(double)) == 0;
    case Type::Str: return a.s == b.s;
    default: break;
  }
  if (!is_array(a.type) || a.items.size() != b.items.size()) return false;
  for (size_t k = 0; k < a.items.size(); ++k)
    if (!identical(a.items[k], b.items[k])) return false;
  return true;
}

static void append_string_json(std::string& out, const std::string& s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20 || c >= 0x7f) {  // byte N is code point N (docs/language.md "Values as JSON")
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += char(c);
        }
    }
  }
  out += '"';
}

static void append_json(std::string& out, const Value& v) {
  switch (v.type) {
    case Type::Int: out += std::to_string(v.i); return;
    case Type::Bool: out += v.i ? "true" : "false"; return;
    case Type::Float: {
      if (!std::isfinite(v.f)) {
        out += "null";
        return;
      }
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.17g", v.f);
      out += buf;
      if (!std::strpbrk(buf, ".eE")) out += ".0";
      return;
    }
    case Type::Str: append_string_json(out, v.s); return;
    default: break;
  }
  if (!is_array(v.type)) {
    out += "null";
    return;
  }
  out += '[';
  for (size_t k = 0; k < v.items.size(); ++k) {
    if (k) out += ", ";
    append_json(out, v.items[k]);
  }
  out += ']';
}

std::string to_json(const Value& v) {
  std::string out;
  append_json(out, v);
  return out;
}

}  // namespace gs::vm
