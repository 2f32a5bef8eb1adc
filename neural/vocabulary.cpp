#include "neural/vocabulary.h"

#include <algorithm>

#include "compiler/builtins.h"

namespace gs::neural {
namespace {

constexpr u32 kSynCount = 0
#define TOKEN(name, text) +1
#include "compiler/tokens.def"
#undef TOKEN
    ;

constexpr const char* kMarkerNames[kMarkerCount] = {"NEG",       "LIT_FLOAT",   "LIT_STR", "LIT_END",
                                                    "CONST_INT", "CONST_FLOAT", "FUNC",    "RESULTS",
                                                    "LOCALS",    "MAX_STACK"};
constexpr const char* kSpecialNames[4] = {"<pad>", "<bos>", "<eos>", "<unk>"};

}  // namespace

Vocabulary::Vocabulary() {
  for (u32 i = 0; i < compiler::kOverloadCount; ++i) {
    std::string name = compiler::overload(i).name;
    if (std::find(builtins_.begin(), builtins_.end(), name) == builtins_.end()) builtins_.push_back(name);
  }
  const u32 counts[11] = {4,
                          kSynCount,
                          u32(builtins_.size()),
                          kMaxVariables,
                          kMaxFunctions,
                          vm::kOpCount,
                          kMarkerCount,
                          kValueTypeCount,
                          kSmallInts,
                          10,
                          256};
  TokenId next = 0;
  for (u32 s = 0; s < 11; ++s) {
    bases_[s] = next;
    counts_[s] = counts[s];
    next += TokenId(counts[s]);
  }
  size_ = u32(next);
}

const Vocabulary& Vocabulary::get() {
  static const Vocabulary v;
  return v;
}

TokenId Vocabulary::type(Type t) const {
  for (u32 i = 0; i < kValueTypeCount; ++i)
    if (kValueTypes[i] == t) return base(Section::Type) + TokenId(i);
  return unk();
}

i32 Vocabulary::builtin_index(std::string_view name) const {
  for (u32 i = 0; i < builtins_.size(); ++i)
    if (builtins_[i] == name) return i32(i);
  return -1;
}

TokenMeaning Vocabulary::meaning(TokenId id) const {
  for (u32 s = 0; s < 11; ++s)
    if (id >= bases_[s] && id < bases_[s] + TokenId(counts_[s])) return {Section(s), u32(id - bases_[s])};
  return {Section::Special, u32(Special::UNK)};
}

std::string Vocabulary::spell(TokenId id) const {
  TokenMeaning m = meaning(id);
  switch (m.section) {
    case Section::Special: return kSpecialNames[m.index];
    case Section::Syn: return compiler::token_text(compiler::Tok(m.index));
    case Section::Builtin: return builtins_[m.index];
    case Section::Variable: return "V" + std::to_string(m.index);
    case Section::Function: return "F" + std::to_string(m.index);
    case Section::Opcode: return vm::op_info(vm::Op(m.index)).name;
    case Section::Marker: return kMarkerNames[m.index];
    case Section::Type: return type_name(kValueTypes[m.index]);
    case Section::Small: return std::to_string(m.index);
    case Section::Digit: return "d" + std::to_string(m.index);
    case Section::Byte: {
      if (m.index >= 0x21 && m.index < 0x7f) return std::string("'") + char(m.index) + "'";
      static const char* hex = "0123456789abcdef";
      return std::string("0x") + hex[m.index >> 4] + hex[m.index & 15];
    }
  }
  return "<?>";
}

std::string Vocabulary::spell(const TokenSeq& ids) const {
  std::string out;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i) out += ' ';
    out += spell(ids[i]);
  }
  return out;
}

u64 Vocabulary::fingerprint() const {
  // FNV-1a over every token's spelling: any change of a table changes it.
  u64 h = 1469598103934665603ull;
  for (u32 id = 0; id < size_; ++id) {
    for (char c : spell(TokenId(id))) h = (h ^ u8(c)) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;
  }
  return h;
}

void append_number(const Vocabulary& v, u64 value, TokenSeq* out) {
  if (value < kSmallInts) {
    out->push_back(v.small(u32(value)));
    return;
  }
  char digits[24];
  int n = 0;
  for (; value > 0; value /= 10) digits[n++] = char(value % 10);
  while (n > 0) out->push_back(v.digit(u32(digits[--n])));
}

bool read_number(const Vocabulary& v, const TokenSeq& ids, size_t* at, u64* value) {
  size_t i = *at;
  if (i >= ids.size()) return false;
  if (v.in(ids[i], Section::Small)) {
    *value = u64(ids[i] - v.base(Section::Small));
    *at = i + 1;
    return true;
  }
  u64 x = 0;
  size_t start = i;
  for (; i < ids.size() && v.in(ids[i], Section::Digit); ++i) {
    u64 d = u64(ids[i] - v.base(Section::Digit));
    if (x > (~u64(0) - d) / 10) return false;  // would overflow 64 bits
    x = x * 10 + d;
  }
  if (i == start) return false;
  *value = x;
  *at = i;
  return true;
}

}  // namespace gs::neural
