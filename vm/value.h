// A typed Syn value on the host: arguments going into an execution and results coming out.
#pragma once

#include <string>
#include <vector>

#include "base/types.h"

namespace gs::vm {

struct Value {
  Type type = Type::Unit;
  i64 i = 0;                 // Int, Bool (0/1)
  double f = 0;              // Float
  std::string s;             // Str
  std::vector<Value> items;  // arrays

  static Value of_int(i64 v) { return {Type::Int, v, 0, {}, {}}; }
  static Value of_float(double v) { return {Type::Float, 0, v, {}, {}}; }
  static Value of_bool(bool v) { return {Type::Bool, v ? 1 : 0, 0, {}, {}}; }
  static Value of_str(std::string v) { return {Type::Str, 0, 0, std::move(v), {}}; }
  static Value of_array(Type element, std::vector<Value> items) {
    return {array_of(element), 0, 0, {}, std::move(items)};
  }
};

// Same type and same value; floats compare by bits, so 0.0 differs from -0.0, except that all
// NaNs are identical: which NaN an operation yields is unspecified and unobservable in Syn.
// This is what "identical results" means between backends.
bool identical(const Value& a, const Value& b);

// JSON text of a value: floats with 17 significant digits, NaN and infinities as null, a
// string's byte N as the character U+00NN (escaped when not printable ASCII).
std::string to_json(const Value& v);

}  // namespace gs::vm
