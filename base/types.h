// Syn's types as one byte, shared by the compiler, the bytecode and the VM.
//
//   bit 7..5: unused   bit 4: array flag   bits 3..0: scalar kind
//
// Unit, Empty ("[]" before its element type is known) and Tuple exist only inside the
// compiler; bytecode stores Int, Float, Bool, Str and arrays of those.
#pragma once

#include "base/hd.h"

namespace gs {

enum class Type : u8 {
  Unit = 0,
  Int = 1,
  Float = 2,
  Bool = 3,
  Str = 4,
  Empty = 5,  // element type of the literal "[]", compile time only
  Tuple = 6,  // a call's multiple results, compile time only
  Error = 7,  // a poisoned expression, compile time only: fits everywhere
  IntArray = 0x11,
  FloatArray = 0x12,
  BoolArray = 0x13,
  StrArray = 0x14,
  EmptyArray = 0x15,
};

GS_HD constexpr bool is_array(Type t) { return (static_cast<u8>(t) & 0x10) != 0; }
GS_HD constexpr Type element_of(Type t) { return static_cast<Type>(static_cast<u8>(t) & 0x0f); }
GS_HD constexpr Type array_of(Type t) { return static_cast<Type>(static_cast<u8>(t) | 0x10); }
// The type of a sequence's elements as `s[i]` and `for x in s` give them: an array's element
// type, or int for a string (its bytes).
GS_HD constexpr Type item_of(Type t) { return t == Type::Str ? Type::Int : element_of(t); }
GS_HD constexpr bool is_scalar(Type t) {
  return t == Type::Int || t == Type::Float || t == Type::Bool || t == Type::Str;
}
// Types a value of which can live in bytecode: parameters, results, array elements.
GS_HD constexpr bool is_value_type(Type t) {
  return is_scalar(t) || ((static_cast<u8>(t) & 0xf0) == 0x10 && is_scalar(element_of(t)));
}
// Values that are references into the execution's heap.
GS_HD constexpr bool is_heap_type(Type t) { return t == Type::Str || is_array(t); }

// Printable name ("int", "[str]", ...); host and device.
GS_HD inline const char* type_name(Type t) {
  switch (t) {
    case Type::Unit: return "()";
    case Type::Int: return "int";
    case Type::Float: return "float";
    case Type::Bool: return "bool";
    case Type::Str: return "str";
    case Type::Empty: return "?";
    case Type::Tuple: return "tuple";
    case Type::Error: return "<error>";
    case Type::IntArray: return "[int]";
    case Type::FloatArray: return "[float]";
    case Type::BoolArray: return "[bool]";
    case Type::StrArray: return "[str]";
    case Type::EmptyArray: return "[]";
  }
  return "<bad type>";
}

}  // namespace gs
