// The builtin overload table (builtins.def) and its patterns. The checker resolves a call
// against it (compiler/checker.h); the chosen row names the instruction codegen emits.
#pragma once

#include "base/hd.h"
#include "base/types.h"
#include "vm/opcodes.h"

namespace gs::compiler {

enum class Pattern : u8 { _, ARRAY, ELEM, SCALAR, INT, FLOAT, BOOL, STR, INT_ARRAY, FLOAT_ARRAY, STR_ARRAY };
enum class ResultRule : u8 { INT, FLOAT, BOOL, STR, STR_ARRAY, ARG0, ARRAY_T };
enum class OperandRule : u8 { NONE, T };

inline constexpr vm::Op kNoInstruction = vm::Op(0xff);

// Opcode names usable unqualified in the table, plus NOTHING.
struct BuiltinOps {
#define OPCODE(name, operand, pops, pushes, doc) static constexpr vm::Op name = vm::Op::name;
#include "vm/opcodes.def"
#undef OPCODE
  static constexpr vm::Op NOTHING = kNoInstruction;
};

struct Overload {
  const char* name;
  u8 arity;
  Pattern params[3];
  ResultRule result;
  vm::Op op;  // kNoInstruction: the argument is the result
  OperandRule operand;
};

inline constexpr u32 kOverloadCount = 0
#define BUILTIN(id, name, n, p0, p1, p2, result, opcode, operand) +1
#include "compiler/builtins.def"
#undef BUILTIN
    ;

GS_HD inline const Overload& overload(u32 i) {
  // Copied into a function-local constant so device code can read it.
  static constexpr Overload table[] = {
#define BUILTIN(id, name, n, p0, p1, p2, result, opcode, operand) \
  {#name,                                                         \
   n,                                                             \
   {Pattern::p0, Pattern::p1, Pattern::p2},                       \
   ResultRule::result,                                            \
   BuiltinOps::opcode,                                            \
   OperandRule::operand},
#include "compiler/builtins.def"
#undef BUILTIN
  };
  return table[i];
}

GS_HD constexpr bool same_name(const char* builtin, const char* s, u32 n) {
  u32 i = 0;
  while (i < n && builtin[i] != 0 && builtin[i] == s[i]) ++i;
  return i == n && builtin[i] == 0;
}
GS_HD constexpr bool same_name(const char* a, const char* b) {
  while (*a != 0 && *a == *b) ++a, ++b;
  return *a == *b;
}

// Builtin names hashed at compile time into a small open-addressing table of first-overload
// indices, so a call's lookup is one hash and one comparison instead of a scan of the table.
struct BuiltinIndex {
  static constexpr u32 kSize = 128;  // a power of two, well above the number of names
  i16 first[kSize];
  static constexpr u32 hash(const char* s, u32 n) {
    u32 h = 2166136261u;
    for (u32 i = 0; i < n; ++i) h = (h ^ u8(s[i])) * 16777619u;
    return h;
  }
  static constexpr u32 length(const char* s) {
    u32 n = 0;
    while (s[n] != 0) ++n;
    return n;
  }
  constexpr BuiltinIndex() : first() {
    const char* names[] = {
#define BUILTIN(id, name, n, p0, p1, p2, result, opcode, operand) #name,
#include "compiler/builtins.def"
#undef BUILTIN
    };
    for (u32 k = 0; k < kSize; ++k) first[k] = -1;
    for (u32 i = 0; i < kOverloadCount; ++i) {
      if (i > 0 && same_name(names[i - 1], names[i])) continue;  // not the first of its group
      u32 slot = hash(names[i], length(names[i])) & (kSize - 1);
      while (first[slot] >= 0) slot = (slot + 1) & (kSize - 1);
      first[slot] = i16(i);
    }
  }
};

// Index of the first overload named s[0..n), or -1 when s is no builtin.
GS_HD inline i32 find_builtin(const char* s, u32 n) {
  static constexpr BuiltinIndex index{};  // (braces: nvcc leaves a device copy without them zero)
  for (u32 slot = BuiltinIndex::hash(s, n) & (BuiltinIndex::kSize - 1);;
       slot = (slot + 1) & (BuiltinIndex::kSize - 1)) {
    i32 i = index.first[slot];
    if (i < 0) return -1;
    if (same_name(overload(u32(i)).name, s, n)) return i;
  }
}

// Does argument type t fit pattern p, given the element type T bound so far (Empty: open)?
GS_HD inline bool fits(Pattern p, Type t, Type* T) {
  switch (p) {
    case Pattern::_: return false;
    case Pattern::ARRAY:
      if (!is_array(t)) return false;
      *T = element_of(t);
      return true;
    case Pattern::ELEM:
      if (!is_scalar(t)) return false;
      if (*T == Type::Empty) *T = t;
      return *T == t;
    case Pattern::SCALAR:
      if (!is_scalar(t)) return false;
      *T = t;
      return true;
    case Pattern::INT: return t == Type::Int;
    case Pattern::FLOAT: return t == Type::Float;
    case Pattern::BOOL: return t == Type::Bool;
    case Pattern::STR: return t == Type::Str;
    case Pattern::INT_ARRAY:
    case Pattern::FLOAT_ARRAY:
    case Pattern::STR_ARRAY: {
      Type want = p == Pattern::INT_ARRAY     ? Type::IntArray
                  : p == Pattern::FLOAT_ARRAY ? Type::FloatArray
                                              : Type::StrArray;
      if (t != want) return false;
      *T = element_of(t);  // the instruction's operand may name it
      return true;
    }
  }
  return false;
}

// The overload of builtin `first` (find_builtin's answer) that takes these argument types;
// -1 if none. *result and *instruction (an encoded word, or kNoInstruction's) describe it.
GS_HD inline i32 resolve_builtin(u32 first, const Type* args, u32 count, Type* result, u32* instruction) {
  const char* name = overload(first).name;
  for (u32 i = first; i < kOverloadCount && same_name(overload(i).name, name); ++i) {
    const Overload& o = overload(i);
    if (o.arity != count) continue;
    Type T = Type::Empty;
    bool ok = true;
    for (u32 k = 0; k < count && ok; ++k) ok = fits(o.params[k], args[k], &T);
    if (!ok) continue;
    switch (o.result) {
      case ResultRule::INT: *result = Type::Int; break;
      case ResultRule::FLOAT: *result = Type::Float; break;
      case ResultRule::BOOL: *result = Type::Bool; break;
      case ResultRule::STR: *result = Type::Str; break;
      case ResultRule::STR_ARRAY: *result = Type::StrArray; break;
      case ResultRule::ARG0: *result = args[0]; break;
      case ResultRule::ARRAY_T: *result = array_of(T); break;
    }
    u32 operand = o.operand == OperandRule::T ? u32(T == Type::Empty ? Type::Int : T) : 0;
    *instruction = o.op == kNoInstruction ? u32(kNoInstruction) : vm::encode(o.op, operand);
    return i32(i);
  }
  return -1;
}

}  // namespace gs::compiler
