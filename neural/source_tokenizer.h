// Syn source -> token ids for the neural compiler's encoder (docs/neural.md "Source tokens").
//
// The Syn lexer (compiler/lexer.h) cuts the source; then
//   keywords, punctuation, operators   one `syn` token each
//   a function's name                  F<i>, i = the function's place in declaration order
//   a builtin's name                   its `builtin` token (unless a function of the program
//                                      takes that name: then it is that function's F<i>)
//   any other identifier               V<j>, j = the order of first appearance in the program
//   an integer literal                 its value as a number (vocabulary.h append_number)
//   a float literal                    LIT_FLOAT, the value's shortest round-trip decimal text
//                                      as `byte` tokens, LIT_END
//   a string literal                   LIT_STR, its bytes (escapes decoded), LIT_END
//   an invalid token                   UNK
// and EOS at the end. Renaming makes programs that differ only in names the same sequence, and
// keeps the vocabulary closed; the function names are kept beside the ids, so a decoded
// bytecode can be given the program's own names back (bytecode_tokenizer.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "neural/vocabulary.h"

namespace gs::neural {

struct SourceTokens {
  TokenSeq ids;                             // ends with EOS
  std::vector<std::string> function_names;  // F<i> is function_names[i]
  std::vector<std::string> variable_names;  // V<j> is variable_names[j]
};

// The tokens of a source, or nullopt with *error set when the program has more functions or
// variables than the vocabulary names (kMaxFunctions, kMaxVariables). Lexical errors do not
// fail: an invalid token becomes UNK.
std::optional<SourceTokens> encode_source(std::string_view source, std::string* error = nullptr);

}  // namespace gs::neural
