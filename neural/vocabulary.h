// The neural compiler's one vocabulary, shared by source and bytecode token sequences (one
// embedding table; a literal copied from source to bytecode is the same token on both sides).
// Nothing here lists opcodes or Syn tokens: the sections are generated from vm/opcodes.def,
// compiler/tokens.def and compiler/builtins.def (docs/design.md "One instruction table").
//
//   section    tokens                                  used in
//   special    PAD BOS EOS UNK                         both
//   syn        one per Syn token kind (keyword,         source (LPAREN/RPAREN/ARROW... only)
//              punctuation, operator)
//   builtin    one per builtin name (len, max, ...)    source
//   variable   V0 .. V(kMaxVariables-1)                source: variables renamed by first use
//   function   F0 .. F(kMaxFunctions-1)                both: functions in declaration order
//   opcode     one per vm::Op                          bytecode
//   marker     NEG LIT_FLOAT LIT_STR LIT_END CONST_INT  both (docs/neural.md "Tokens")
//              CONST_FLOAT FUNC RESULTS LOCALS MAX_STACK
//   type       int float bool str [int] [float] ...    bytecode (function signatures)
//   small      0 .. kSmallInts-1: a number as one token both: numbers below kSmallInts
//   digit      0 .. 9                                  both: larger numbers, in decimal
//   byte       0x00 .. 0xff                            both: string and float literal text
//
// docs/neural.md describes how the tokenisers use each section.
#pragma once

#include <string>
#include <vector>

#include "base/types.h"
#include "compiler/token.h"
#include "vm/opcodes.h"

namespace gs::neural {

using TokenId = i32;
using TokenSeq = std::vector<TokenId>;

inline constexpr u32 kMaxVariables = 64;  // distinct variable names per program
inline constexpr u32 kMaxFunctions = 16;  // functions per program
inline constexpr u32 kSmallInts = 256;    // numbers below this are one token

enum class Special : TokenId { PAD = 0, BOS = 1, EOS = 2, UNK = 3 };
enum class Marker : u8 {
  NEG,
  LIT_FLOAT,
  LIT_STR,
  LIT_END,
  CONST_INT,
  CONST_FLOAT,
  FUNC,
  RESULTS,
  LOCALS,
  MAX_STACK
};
inline constexpr u32 kMarkerCount = 10;
// The value types a function signature can hold, in token order.
inline constexpr Type kValueTypes[] = {Type::Int,      Type::Float,      Type::Bool,      Type::Str,
                                       Type::IntArray, Type::FloatArray, Type::BoolArray, Type::StrArray};
inline constexpr u32 kValueTypeCount = 8;

enum class Section : u8 {
  Special,
  Syn,
  Builtin,
  Variable,
  Function,
  Opcode,
  Marker,
  Type,
  Small,
  Digit,
  Byte
};

// What a token id means: its section and its index within it.
struct TokenMeaning {
  Section section;
  u32 index;
};

class Vocabulary {
 public:
  // The vocabulary (built once from the tables).
  static const Vocabulary& get();

  u32 size() const { return size_; }
  TokenId pad() const { return TokenId(Special::PAD); }
  TokenId bos() const { return TokenId(Special::BOS); }
  TokenId eos() const { return TokenId(Special::EOS); }
  TokenId unk() const { return TokenId(Special::UNK); }
  TokenId syn(compiler::Tok t) const { return base(Section::Syn) + TokenId(t); }
  TokenId builtin(u32 i) const { return base(Section::Builtin) + TokenId(i); }
  TokenId variable(u32 i) const { return base(Section::Variable) + TokenId(i); }
  TokenId function(u32 i) const { return base(Section::Function) + TokenId(i); }
  TokenId op(vm::Op o) const { return base(Section::Opcode) + TokenId(o); }
  TokenId marker(Marker m) const { return base(Section::Marker) + TokenId(m); }
  TokenId type(Type t) const;  // t must be a value type
  TokenId small(u32 v) const { return base(Section::Small) + TokenId(v); }
  TokenId digit(u32 d) const { return base(Section::Digit) + TokenId(d); }
  TokenId byte(u8 b) const { return base(Section::Byte) + TokenId(b); }

  // The builtin index of a name (the distinct names of compiler/builtins.def, in table order), or -1.
  i32 builtin_index(std::string_view name) const;
  const std::string& builtin_name(u32 i) const { return builtins_[i]; }
  u32 builtin_count() const { return u32(builtins_.size()); }

  // Section and index of id; nullopt-like Special/UNK for ids outside the vocabulary.
  TokenMeaning meaning(TokenId id) const;
  bool in(TokenId id, Section s) const { return id >= base(s) && id < base(s) + TokenId(count(s)); }
  // A readable spelling of one token ("LOAD_VAR", "V3", "<bos>", "'a'", "17") and of a sequence.
  std::string spell(TokenId id) const;
  std::string spell(const TokenSeq& ids) const;
  // A fingerprint of the whole layout: checkpoints record it and refuse another vocabulary.
  u64 fingerprint() const;

  TokenId base(Section s) const { return bases_[u32(s)]; }
  u32 count(Section s) const { return counts_[u32(s)]; }

 private:
  Vocabulary();
  std::vector<std::string> builtins_;
  TokenId bases_[11];
  u32 counts_[11];
  u32 size_ = 0;
};

// Numbers, as both tokenisers write them: below kSmallInts one `small` token, otherwise its
// decimal digits (most significant first) as `digit` tokens.
void append_number(const Vocabulary& v, u64 value, TokenSeq* out);
// Reads a number at ids[*at], advancing *at; false (and *at unchanged) when none is there or
// it does not fit in 64 bits.
bool read_number(const Vocabulary& v, const TokenSeq& ids, size_t* at, u64* value);

}  // namespace gs::neural
