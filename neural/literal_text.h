// Literal text as tokens, shared by the source and bytecode tokenisers: a float as its
// shortest round-trip decimal text (so "1.5" in a source and the constant 1.5 in its bytecode
// are the same tokens), and raw bytes as `byte` tokens up to LIT_END.
#pragma once

#include <charconv>
#include <string>
#include <string_view>

#include "neural/vocabulary.h"

namespace gs::neural {

// "1.5", "0.002", "1e+300", "inf", "-inf", "nan" (std::to_chars' shortest form).
inline std::string shortest_float_text(double x) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
}

// The double that text spells exactly (the whole text), or false.
inline bool parse_float_text(std::string_view text, double* x) {
  if (text.empty()) return false;
  auto r = std::from_chars(text.data(), text.data() + text.size(), *x);
  return r.ec == std::errc() && r.ptr == text.data() + text.size();
}

inline void append_bytes(const Vocabulary& v, std::string_view bytes, TokenSeq* out) {
  for (char c : bytes) out->push_back(v.byte(u8(c)));
}

// Byte tokens from ids[*at] up to and including LIT_END; false when the sequence ends first or
// holds another kind of token (or more than max_bytes bytes).
inline bool read_bytes_until_end(const Vocabulary& v, const TokenSeq& ids, size_t* at, std::string* out,
                                 size_t max_bytes) {
  out->clear();
  for (size_t i = *at; i < ids.size(); ++i) {
    if (ids[i] == v.marker(Marker::LIT_END)) {
      *at = i + 1;
      return true;
    }
    if (!v.in(ids[i], Section::Byte) || out->size() == max_bytes) return false;
    out->push_back(char(ids[i] - v.base(Section::Byte)));
  }
  return false;
}

}  // namespace gs::neural
