#include "neural/source_tokenizer.h"

#include <algorithm>
#include <charconv>

#include "compiler/lexer.h"
#include "compiler/literal.h"
#include "neural/literal_text.h"

namespace gs::neural {
namespace {

using compiler::Tok;
using compiler::Token;

std::vector<Token> lex_all(std::string_view source) {
  std::vector<Token> tokens(source.size() + 2);
  compiler::Diagnostic sink_items[4];
  compiler::Diagnostics sink{sink_items, 4, 0, false};  // lexical errors become UNK tokens
  u32 n = compiler::lex(source.data(), u32(source.size()), tokens.data(), u32(tokens.size()), sink);
  tokens.resize(n);
  return tokens;
}

i32 index_of(const std::vector<std::string>& names, std::string_view name) {
  auto it = std::find(names.begin(), names.end(), name);
  return it == names.end() ? -1 : i32(it - names.begin());
}

}  // namespace

std::optional<SourceTokens> encode_source(std::string_view source, std::string* error) {
  const Vocabulary& v = Vocabulary::get();
  std::vector<Token> tokens = lex_all(source);
  auto text = [&](const Token& t) { return source.substr(t.pos, t.len); };
  auto fail = [&](const std::string& why) -> std::optional<SourceTokens> {
    if (error) *error = why;
    return std::nullopt;
  };

  SourceTokens out;
  // Functions first: a call may come before the callee's declaration.
  for (size_t i = 0; i + 1 < tokens.size(); ++i)
    if (tokens[i].kind == Tok::KW_FN && tokens[i + 1].kind == Tok::IDENT &&
        index_of(out.function_names, text(tokens[i + 1])) < 0)
      out.function_names.emplace_back(text(tokens[i + 1]));
  if (out.function_names.size() > kMaxFunctions)
    return fail("more than " + std::to_string(kMaxFunctions) + " functions");

  for (const Token& t : tokens) {
    switch (t.kind) {
      case Tok::END: out.ids.push_back(v.eos()); break;
      case Tok::INVALID: out.ids.push_back(v.unk()); break;
      case Tok::IDENT: {
        std::string_view name = text(t);
        if (i32 f = index_of(out.function_names, name); f >= 0) {
          out.ids.push_back(v.function(u32(f)));
        } else if (i32 b = v.builtin_index(name); b >= 0) {
          out.ids.push_back(v.builtin(u32(b)));
        } else {
          i32 j = index_of(out.variable_names, name);
          if (j < 0) {
            if (out.variable_names.size() == kMaxVariables)
              return fail("more than " + std::to_string(kMaxVariables) + " variable names");
            j = i32(out.variable_names.size());
            out.variable_names.emplace_back(name);
          }
          out.ids.push_back(v.variable(u32(j)));
        }
        break;
      }
      case Tok::INT: {
        u64 bits;  // parsed as if negated, then negated back: every value up to 2^63 fits
        if (compiler::int_literal(source.data() + t.pos, t.len, true, &bits))
          append_number(v, 0 - bits, &out.ids);
        else
          out.ids.push_back(v.unk());
        break;
      }
      case Tok::FLOAT: {
        out.ids.push_back(v.marker(Marker::LIT_FLOAT));
        append_bytes(v, shortest_float_text(compiler::float_literal(source.data() + t.pos, t.len)), &out.ids);
        out.ids.push_back(v.marker(Marker::LIT_END));
        break;
      }
      case Tok::STRING: {
        std::string_view body = text(t).substr(1);
        if (!body.empty() && body.back() == '"') body.remove_suffix(1);
        std::string bytes(body.size(), '\0');
        bytes.resize(
            compiler::decode_string(body.data(), u32(body.size()), reinterpret_cast<u8*>(bytes.data())));
        out.ids.push_back(v.marker(Marker::LIT_STR));
        append_bytes(v, bytes, &out.ids);
        out.ids.push_back(v.marker(Marker::LIT_END));
        break;
      }
      default: out.ids.push_back(v.syn(t.kind)); break;
    }
  }
  return out;
}

}  // namespace gs::neural
