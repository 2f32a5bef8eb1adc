// Token kinds (from tokens.def) and the token record the lexer produces.
#pragma once

#include "base/hd.h"

namespace gs::compiler {

enum class Tok : u8 {
#define TOKEN(name, text) name,
#include "compiler/tokens.def"
#undef TOKEN
};

struct Token {
  u32 pos;  // byte offset in the source
  u32 len;
  Tok kind;
};

GS_HD inline const char* token_text(Tok t) {
  switch (t) {
#define TOKEN(name, text) \
  case Tok::name:         \
    return text;
#include "compiler/tokens.def"
#undef TOKEN
  }
  return "?";
}

}  // namespace gs::compiler
