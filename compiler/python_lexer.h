// The typed-Python front end's lexer: source bytes -> the tokens of tokens.def, with Python's
// layout made explicit as NEWLINE, INDENT and DEDENT tokens (docs/python.md "Lexical
// structure"). Host+device code like the Syn lexer (compiler/lexer.h), whose character
// classes and number scanner it shares. Token count: at most 2 × the source length + 2 (every
// token but NEWLINE, DEDENT and END covers a byte of its own; a NEWLINE covers its '\n'; a
// DEDENT closes an INDENT, which covers the line's leading space), which workspace_sizes
// provides for a Python source.
#pragma once

#include "compiler/lexer.h"

namespace gs::compiler {

// Indentation levels open at once (a deeper line is a TOO_DEEP error).
inline constexpr u32 kMaxPythonIndents = 100;

// The keyword spelled by s[0..n) in the subset, KW_OUTSIDE for Python's other keywords, or IDENT.
// int, float, bool, str, list are names in Python (a call `int(x)`, a type `list[int]`).
GS_HD inline Tok python_keyword(const char* s, u32 n) {
  struct Keyword {
    const char* text;
    Tok kind;
  };
  static constexpr Keyword table[] = {
      {"def", Tok::KW_DEF},
      {"return", Tok::KW_RETURN},
      {"if", Tok::KW_IF},
      {"elif", Tok::KW_ELIF},
      {"else", Tok::KW_ELSE},
      {"while", Tok::KW_WHILE},
      {"for", Tok::KW_FOR},
      {"in", Tok::KW_IN},
      {"break", Tok::KW_BREAK},
      {"continue", Tok::KW_CONTINUE},
      {"pass", Tok::KW_PASS},
      {"and", Tok::AND},
      {"or", Tok::OR},
      {"not", Tok::NOT},
      {"True", Tok::KW_TRUE},
      {"False", Tok::KW_FALSE},
      {"None", Tok::KW_NONE},
      {"from", Tok::KW_FROM},
      {"import", Tok::KW_IMPORT},
      {"class", Tok::KW_OUTSIDE},
      {"lambda", Tok::KW_OUTSIDE},
      {"is", Tok::KW_OUTSIDE},
      {"with", Tok::KW_OUTSIDE},
      {"try", Tok::KW_OUTSIDE},
      {"except", Tok::KW_OUTSIDE},
      {"finally", Tok::KW_OUTSIDE},
      {"raise", Tok::KW_OUTSIDE},
      {"global", Tok::KW_OUTSIDE},
      {"nonlocal", Tok::KW_OUTSIDE},
      {"yield", Tok::KW_OUTSIDE},
      {"del", Tok::KW_OUTSIDE},
      {"assert", Tok::KW_OUTSIDE},
      {"async", Tok::KW_OUTSIDE},
      {"await", Tok::KW_OUTSIDE},
      {"as", Tok::KW_OUTSIDE},
  };
  for (const Keyword& k : table) {
    u32 i = 0;
    while (i < n && k.text[i] == s[i]) ++i;
    if (i == n && k.text[n] == 0) return k.kind;
  }
  return Tok::IDENT;
}

// Operators and punctuation, longest first; INVALID for a byte that starts none.
GS_HD inline Tok python_punctuation(const char* s, u32 n, u32 pos, u32* len) {
  u8 c = u8(s[pos]);
  u8 d = pos + 1 < n ? u8(s[pos + 1]) : 0;
  u8 e = pos + 2 < n ? u8(s[pos + 2]) : 0;
  *len = 3;
  if (c == '/' && d == '/' && e == '=') return Tok::AUG_ASSIGN;
  if ((c == '*' && d == '*' && e == '=') || (c == '<' && d == '<' && e == '=') ||
      (c == '>' && d == '>' && e == '='))
    return Tok::AUG_ASSIGN;  // outside the subset; the parser says so
  *len = 2;
  if (d == '=' &&
      (c == '+' || c == '-' || c == '*' || c == '/' || c == '%' || c == '&' || c == '|' || c == '^'))
    return Tok::AUG_ASSIGN;
  if (c == '-' && d == '>') return Tok::ARROW;
  if (c == '=' && d == '=') return Tok::EQ;
  if (c == '!' && d == '=') return Tok::NE;
  if (c == '<' && d == '=') return Tok::LE;
  if (c == '>' && d == '=') return Tok::GE;
  if (c == '<' && d == '<') return Tok::SHL;
  if (c == '>' && d == '>') return Tok::SHR;
  if (c == '/' && d == '/') return Tok::DSLASH;
  if (c == '*' && d == '*') return Tok::DSTAR;
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
    case '.': return Tok::DOT;
    case '=': return Tok::ASSIGN;
    case '+': return Tok::PLUS;
    case '-': return Tok::MINUS;
    case '*': return Tok::STAR;
    case '/': return Tok::SLASH;
    case '%': return Tok::PERCENT;
    case '<': return Tok::LT;
    case '>': return Tok::GT;
    case '&': return Tok::AMP;
    case '|': return Tok::PIPE;
    case '^': return Tok::CARET;
    case '~': return Tok::TILDE;
    case '@': return Tok::AT;
    default: return Tok::INVALID;  // '!', '$', '?', ...
  }
}

// Digits from i, with Python's single underscores between digits; returns the end.
GS_HD inline u32 scan_digits(const char* s, u32 n, u32 i, bool hex) {
  auto digit = [&](u32 k) {
    return k < n && (hex ? is_hex_digit(u8(s[k])) : char_class(u8(s[k])) == kDigit);
  };
  while (digit(i) || (i < n && s[i] == '_' && i > 0 && digit(i - 1) && digit(i + 1))) ++i;
  return i;
}

// A number from its first byte: decimal or 0x hex ints, floats with a point and/or an exponent
// (.5, 5., 1e3), underscores between digits. 0o, 0b and imaginary literals make it INVALID (the
// parser drops the underscores before converting, compiler/python_parser.h parse_number).
GS_HD inline Tok scan_python_number(const char* s, u32 n, u32 pos, u32* end) {
  u32 i = pos;
  Tok kind = Tok::INT;
  bool ok = true;
  if (s[i] == '0' && i + 1 < n && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
    u32 digits = i + 2;
    i = scan_digits(s, n, digits, true);
    ok = i > digits;
  } else {
    i = scan_digits(s, n, i, false);
    bool before = i > pos;
    if (i < n && s[i] == '.') {
      kind = Tok::FLOAT;
      u32 after = ++i;
      i = scan_digits(s, n, i, false);
      ok = before || i > after;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
      kind = Tok::FLOAT;
      ++i;
      if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
      u32 digits = i;
      i = scan_digits(s, n, i, false);
      ok = ok && i > digits;
    }
  }
  if (i < n && is_word_char(u8(s[i]))) {
    ok = false;
    while (i < n && is_word_char(u8(s[i]))) ++i;
  }
  *end = i;
  return ok ? kind : Tok::INVALID;
}

// A string literal from its opening quote (' or ", single or tripled): ends after the closing
// quote(s); a single-quoted one also ends, unterminated, before the end of its line. Bad escapes
// are reported and the scan goes on.
template <class Sink>
GS_HD inline u32 scan_python_string(const char* s, u32 n, u32 pos, Sink& d, bool* terminated) {
  char q = s[pos];
  bool triple = pos + 2 < n && s[pos + 1] == q && s[pos + 2] == q;
  u32 i = pos + (triple ? 3 : 1);
  *terminated = false;
  while (i < n) {
    if (!triple && s[i] == '\n') return i;
    if (s[i] == q && (!triple || (i + 2 < n && s[i + 1] == q && s[i + 2] == q))) {
      *terminated = true;
      return i + (triple ? 3 : 1);
    }
    if (s[i] == '\\' && i + 1 < n) {
      u8 e = u8(s[i + 1]);
      bool ok = e == 'n' || e == 't' || e == 'r' || e == '0' || e == '\\' || e == '"' || e == '\'' ||
                (triple && e == '\n');
      u32 len = 2;
      if (e == 'x') {
        ok = i + 3 < n && is_hex_digit(u8(s[i + 2])) && is_hex_digit(u8(s[i + 3]));
        len = ok ? 4 : 2;
      }
      if (!ok) d.add(Code::BAD_ESCAPE, i, s[i + 1] != '\n' ? 2 : 1);
      if (s[i + 1] == '\n' && !triple) {
        ++i;
        continue;
      }
      i += len <= n - i ? len : n - i;
      continue;
    }
    ++i;
  }
  return n;
}

// Decodes the body of a Python string literal (between its quotes) into out; returns the byte
// count. Escapes as scan_python_string accepts them; a backslash-newline in a triple-quoted
// string joins the lines.
GS_HD inline u32 decode_python_string(const char* s, u32 n, u8* out) {
  u32 k = 0;
  for (u32 i = 0; i < n; ++i) {
    if (s[i] != '\\' || i + 1 >= n) {
      out[k++] = u8(s[i]);
      continue;
    }
    char e = s[++i];
    switch (e) {
      case 'n': out[k++] = '\n'; break;
      case 't': out[k++] = '\t'; break;
      case 'r': out[k++] = '\r'; break;
      case '0': out[k++] = 0; break;
      case '\\': out[k++] = '\\'; break;
      case '"': out[k++] = '"'; break;
      case '\'': out[k++] = '\''; break;
      case '\n': break;
      case 'x':
        if (i + 2 < n) {
          out[k++] = u8(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]));
          i += 2;
          break;
        }
        [[fallthrough]];
      default: out[k++] = '\\'; out[k++] = u8(e);
    }
  }
  return k;
}

// The whole source; the last token is always END. Returns the token count.
template <class Sink>
GS_HD inline u32 python_lex(const char* s, u32 n, Token* tokens, u32 cap, Sink& d) {
  u32 count = 0, pos = 0;
  u32 indents[kMaxPythonIndents + 1];
  u32 levels = 1;
  indents[0] = 0;
  u32 brackets = 0;        // open ( [ { : newlines inside are not line ends
  bool line_start = true;  // at the start of a logical line: measure its indentation
  bool line_has_tokens = false;
  bool full = false;
  auto push = [&](Tok kind, u32 at, u32 len) {
    if (full) return;
    if (count + 1 >= cap) {
      d.add(Code::TOO_MANY_TOKENS, at, len, cap - 1);
      full = true;
      return;
    }
    tokens[count++] = Token{at, len, kind};
  };
  while (pos <= n && !full) {
    if (line_start && brackets == 0) {
      // measure the indentation; a blank or comment-only line is skipped whole
      u32 width = 0, i = pos;
      while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\f')) {
        width = s[i] == '\t' ? (width / 8 + 1) * 8 : s[i] == '\f' ? 0 : width + 1;
        ++i;
      }
      if (i < n && s[i] == '\r' && i + 1 < n && s[i + 1] == '\n') ++i;
      if (i < n && (s[i] == '\n' || s[i] == '#')) {
        while (i < n && s[i] != '\n') ++i;
        pos = i + 1;
        if (i >= n) pos = n + 1;
        continue;
      }
      if (i >= n) break;
      if (width > indents[levels - 1]) {
        if (levels == kMaxPythonIndents + 1) {
          d.add(Code::TOO_DEEP, i, 1, kMaxPythonIndents);
          break;
        }
        indents[levels++] = width;
        push(Tok::INDENT, i, 0);
      } else {
        while (width < indents[levels - 1]) {
          --levels;
          push(Tok::DEDENT, i, 0);
        }
        if (width != indents[levels - 1]) d.add(Code::PY_BAD_INDENT, pos, i - pos);
      }
      pos = i;
      line_start = false;
    }
    if (pos >= n) break;
    u8 c = u8(s[pos]);
    if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
      ++pos;
      continue;
    }
    if (c == '#') {
      while (pos < n && s[pos] != '\n') ++pos;
      continue;
    }
    if (c == '\\' && pos + 1 < n &&
        (s[pos + 1] == '\n' || (s[pos + 1] == '\r' && pos + 2 < n && s[pos + 2] == '\n'))) {
      pos += s[pos + 1] == '\n' ? 2 : 3;  // an explicit line join
      continue;
    }
    if (c == '\n') {
      if (brackets == 0) {
        if (line_has_tokens) push(Tok::NEWLINE, pos, 1);
        line_has_tokens = false;
        line_start = true;
      }
      ++pos;
      continue;
    }
    line_has_tokens = true;
    u32 end = pos + 1;
    Tok kind = Tok::INVALID;
    if (char_class(c) == kLetter) {
      while (end < n && is_word_char(u8(s[end]))) ++end;
      kind = python_keyword(s + pos, end - pos);
      // a prefixed string (f"", r"", b"", ...): outside the subset, one token with its literal
      if (end - pos <= 2 && end < n && (s[end] == '"' || s[end] == '\'')) {
        bool prefix = true;
        for (u32 k = pos; k < end; ++k) {
          char p = s[k] | 0x20;
          prefix &= p == 'f' || p == 'r' || p == 'b' || p == 'u';
        }
        if (prefix) {
          bool terminated;
          end = scan_python_string(s, n, end, d, &terminated);
          kind = Tok::KW_OUTSIDE;
        }
      }
    } else if (char_class(c) == kDigit || (c == '.' && pos + 1 < n && char_class(u8(s[pos + 1])) == kDigit)) {
      kind = scan_python_number(s, n, pos, &end);
      if (kind == Tok::INVALID) d.add(Code::BAD_NUMBER, pos, end - pos);
    } else if (c == '"' || c == '\'') {
      bool terminated;
      end = scan_python_string(s, n, pos, d, &terminated);
      kind = Tok::STRING;
      if (!terminated) d.add(Code::UNTERMINATED_STRING, pos, end - pos);
    } else {
      u32 len;
      kind = python_punctuation(s, n, pos, &len);
      end = pos + len;
      if (kind == Tok::INVALID) {
        d.add(Code::INVALID_CHARACTER, pos, 1);
        pos = end;
        continue;
      }
      if (kind == Tok::LPAREN || kind == Tok::LBRACKET || kind == Tok::LBRACE) ++brackets;
      if ((kind == Tok::RPAREN || kind == Tok::RBRACKET || kind == Tok::RBRACE) && brackets > 0) --brackets;
    }
    push(kind, pos, end - pos);
    pos = end;
  }
  if (line_has_tokens) push(Tok::NEWLINE, n, 0);
  while (levels > 1) {
    --levels;
    push(Tok::DEDENT, n, 0);
  }
  if (count >= cap) count = cap - 1;
  tokens[count++] = Token{n, 0, Tok::END};
  return count;
}

}  // namespace gs::compiler
