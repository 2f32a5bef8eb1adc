// The lexer: source bytes -> tokens. Each byte's class is a pure function of the byte
// (char_class), which is what lets the GPU lexer classify every byte of a batch at once;
// scan_token is the sequential reference the GPU lexer (pipeline/lex_stage.h) must agree
// with, and scans each of its tokens.
#pragma once

#include "base/hd.h"
#include "compiler/diagnostic.h"
#include "compiler/token.h"

namespace gs::compiler {

enum CharClass : u8 {
  kOther = 0,  // not valid outside strings and comments
  kSpace,
  kLetter,  // A-Z a-z _
  kDigit,
  kQuote,
  kPunct,  // one of ( ) [ ] { } , ; : . = + - * / % < > ! & | ^ ~
};

// The class of every byte, computed once at compile time (a table read in the lexer's loop).
struct CharClasses {
  u8 of[256];
  constexpr CharClasses() : of() {
    for (int c = 0; c < 256; ++c) {
      u8 k = kOther;
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n') k = kSpace;
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') k = kLetter;
      if (c >= '0' && c <= '9') k = kDigit;
      if (c == '"') k = kQuote;
      for (const char* p = "()[]{},;:.=+-*/%<>!&|^~"; *p; ++p)
        if (c == *p) k = kPunct;
      of[c] = k;
    }
  }
};

GS_HD inline CharClass char_class(u8 c) {
  static constexpr CharClasses table{};  // (braces: nvcc leaves a device copy without them zero)
  return CharClass(table.of[c]);
}

GS_HD inline bool is_hex_digit(u8 c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
GS_HD inline bool is_word_char(u8 c) { return char_class(c) == kLetter || char_class(c) == kDigit; }

GS_HD inline bool spelled(const char* s, const char* word, u32 n) {
  for (u32 i = 0; i < n; ++i)
    if (s[i] != word[i]) return false;
  return true;
}

// The keyword spelled by s[0..n), or IDENT (by length, then first letter: one comparison).
GS_HD inline Tok keyword(const char* s, u32 n) {
  switch (n) {
    case 2:
      if (spelled(s, "fn", 2)) return Tok::KW_FN;
      if (spelled(s, "if", 2)) return Tok::KW_IF;
      if (spelled(s, "in", 2)) return Tok::KW_IN;
      break;
    case 3:
      if (s[0] == 'l' && spelled(s, "let", 3)) return Tok::KW_LET;
      if (s[0] == 'f' && spelled(s, "for", 3)) return Tok::KW_FOR;
      if (s[0] == 'i' && spelled(s, "int", 3)) return Tok::KW_INT;
      if (s[0] == 's' && spelled(s, "str", 3)) return Tok::KW_STR;
      break;
    case 4:
      if (s[0] == 'e' && spelled(s, "else", 4)) return Tok::KW_ELSE;
      if (s[0] == 't' && spelled(s, "true", 4)) return Tok::KW_TRUE;
      if (s[0] == 'b' && spelled(s, "bool", 4)) return Tok::KW_BOOL;
      break;
    case 5:
      if (s[0] == 'w' && spelled(s, "while", 5)) return Tok::KW_WHILE;
      if (s[0] == 'b' && spelled(s, "break", 5)) return Tok::KW_BREAK;
      if (s[0] == 'f' && spelled(s, "false", 5)) return Tok::KW_FALSE;
      if (s[0] == 'f' && spelled(s, "float", 5)) return Tok::KW_FLOAT;
      break;
    case 6:
      if (spelled(s, "return", 6)) return Tok::KW_RETURN;
      break;
    case 8:
      if (spelled(s, "continue", 8)) return Tok::KW_CONTINUE;
      break;
    default: break;
  }
  return Tok::IDENT;
}

// Operators and punctuation, longest first.
GS_HD inline Tok punctuation(const char* s, u32 n, u32 pos, u32* len) {
  u8 c = u8(s[pos]);
  u8 d = pos + 1 < n ? u8(s[pos + 1]) : 0;
  u8 e = pos + 2 < n ? u8(s[pos + 2]) : 0;
  *len = 2;
  if (c == '>' && d == '>' && e == '>') return *len = 3, Tok::USHR;
  if (c == '-' && d == '>') return Tok::ARROW;
  if (c == '.' && d == '.') return Tok::DOTDOT;
  if (c == '=' && d == '=') return Tok::EQ;
  if (c == '!' && d == '=') return Tok::NE;
  if (c == '<' && d == '=') return Tok::LE;
  if (c == '>' && d == '=') return Tok::GE;
  if (c == '&' && d == '&') return Tok::AND;
  if (c == '|' && d == '|') return Tok::OR;
  if (c == '<' && d == '<') return Tok::SHL;
  if (c == '>' && d == '>') return Tok::SHR;
  *len = 1;
  switch (c) {
    case '(': return Tok::LPAREN;
    case ')': return Tok::RPAREN;
    case '[': return Tok::LBRACKET;
    case ']': return Tok::RBRACKET;
    case '{': return Tok::LBRACE;
    case '}': return Tok::RBRACE;
    case ',': return Tok::COMMA;
    case ';': return Tok::SEMI;
    case ':': return Tok::COLON;
    case '=': return Tok::ASSIGN;
    case '+': return Tok::PLUS;
    case '-': return Tok::MINUS;
    case '*': return Tok::STAR;
    case '/': return Tok::SLASH;
    case '%': return Tok::PERCENT;
    case '<': return Tok::LT;
    case '>': return Tok::GT;
    case '!': return Tok::NOT;
    case '&': return Tok::AMP;
    case '|': return Tok::PIPE;
    case '^': return Tok::CARET;
    case '~': return Tok::TILDE;
    default: return Tok::INVALID;  // a lone '.'
  }
}

// Number: 0x hex, or digits [. digits] [e [+-] digits]; a letter or digit right after it makes
// the whole run one invalid number.
GS_HD inline Tok scan_number(const char* s, u32 n, u32 pos, u32* end) {
  u32 i = pos;
  Tok kind = Tok::INT;
  bool ok = true;
  if (s[i] == '0' && i + 1 < n && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
    i += 2;
    u32 digits = i;
    while (i < n && is_hex_digit(u8(s[i]))) ++i;
    ok = i > digits;
  } else {
    while (i < n && char_class(u8(s[i])) == kDigit) ++i;
    if (i + 1 < n && s[i] == '.' && char_class(u8(s[i + 1])) == kDigit) {
      kind = Tok::FLOAT;
      ++i;
      while (i < n && char_class(u8(s[i])) == kDigit) ++i;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
      kind = Tok::FLOAT;
      ++i;
      if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
      u32 digits = i;
      while (i < n && char_class(u8(s[i])) == kDigit) ++i;
      ok = i > digits;
    }
  }
  if (i < n && is_word_char(u8(s[i]))) {
    ok = false;
    while (i < n && is_word_char(u8(s[i]))) ++i;
  }
  *end = i;
  return ok ? kind : Tok::INVALID;
}

// String literal from the opening quote: ends after the closing quote, or before the end of
// the line (unterminated). Bad escapes are reported and the scan goes on. (Sink: Diagnostics, or
// anything with its add(), as the batch lexer's sinks that count or place them.)
template <class Sink>
GS_HD inline u32 scan_string(const char* s, u32 n, u32 pos, Sink& d, bool* terminated) {
  u32 i = pos + 1;
  *terminated = false;
  while (i < n && s[i] != '\n') {
    if (s[i] == '"') {
      *terminated = true;
      return i + 1;
    }
    if (s[i] == '\\') {
      u8 e = i + 1 < n ? u8(s[i + 1]) : 0;
      bool ok = e == 'n' || e == 't' || e == 'r' || e == '0' || e == '\\' || e == '"';
      u32 len = 2;
      if (e == 'x') {
        ok = i + 3 < n && is_hex_digit(u8(s[i + 2])) && is_hex_digit(u8(s[i + 3]));
        len = ok ? 4 : 2;
      }
      if (!ok) d.add(Code::BAD_ESCAPE, i, i + 1 < n && s[i + 1] != '\n' ? 2 : 1);
      i += (i + len <= n && s[i + 1] != '\n') ? len : 1;
      continue;
    }
    ++i;
  }
  return i;
}

// The first position at or after pos that is neither space nor inside a comment (or n): the
// gap scan_token's loop skips, for the batch lexer's checks (pipeline/lex_stage.h). It is not
// called from scan_token only because lex() compiles to faster code with the loop written out
// there; tests/unit/batch_lexer_test.cpp holds the two equal.
GS_HD inline u32 skip_gap(const char* s, u32 n, u32 pos) {
  for (;;) {
    while (pos < n && char_class(u8(s[pos])) == kSpace) ++pos;
    if (pos + 1 < n && s[pos] == '/' && s[pos + 1] == '/') {
      while (pos < n && s[pos] != '\n') ++pos;
      continue;
    }
    return pos;
  }
}

// The token at or after pos (skipping space and comments); returns the position after it.
// Started at a token's first byte, it scans just that token (the batch lexer's use).
template <class Sink>
GS_HD GS_ALWAYS_INLINE u32 scan_token(const char* s, u32 n, u32 pos, Token* out, Sink& d) {
  for (;;) {
    while (pos < n && char_class(u8(s[pos])) == kSpace) ++pos;
    if (pos + 1 < n && s[pos] == '/' && s[pos + 1] == '/') {
      while (pos < n && s[pos] != '\n') ++pos;
      continue;
    }
    if (pos >= n) {
      *out = {n, 0, Tok::END};
      return n;
    }
    u32 end = pos + 1;
    Tok kind = Tok::INVALID;
    switch (char_class(u8(s[pos]))) {
      case kLetter:
        while (end < n && is_word_char(u8(s[end]))) ++end;
        kind = keyword(s + pos, end - pos);
        break;
      case kDigit:
        kind = scan_number(s, n, pos, &end);
        if (kind == Tok::INVALID) d.add(Code::BAD_NUMBER, pos, end - pos);
        break;
      case kQuote: {
        bool terminated;
        end = scan_string(s, n, pos, d, &terminated);
        kind = Tok::STRING;
        if (!terminated) d.add(Code::UNTERMINATED_STRING, pos, end - pos);
        break;
      }
      case kPunct: {
        u32 len;
        kind = punctuation(s, n, pos, &len);
        end = pos + len;
        if (kind == Tok::INVALID) d.add(Code::INVALID_CHARACTER, pos, 1);
        break;
      }
      default:
        d.add(Code::INVALID_CHARACTER, pos, 1);
        pos = end;
        continue;  // skip the byte; no token for it
    }
    *out = {pos, end - pos, kind};
    return end;
  }
}

// The whole source; the last token is always END. Returns the token count.
template <class Sink>
GS_HD inline u32 lex(const char* s, u32 n, Token* tokens, u32 cap, Sink& d) {
  u32 count = 0, pos = 0;
  for (;;) {
    Token t;
    pos = scan_token(s, n, pos, &t, d);
    if (count + 1 == cap && t.kind != Tok::END) {
      d.add(Code::TOO_MANY_TOKENS, t.pos, t.len, cap - 1);
      t = {n, 0, Tok::END};
    }
    tokens[count++] = t;
    if (t.kind == Tok::END) return count;
  }
}

}  // namespace gs::compiler
