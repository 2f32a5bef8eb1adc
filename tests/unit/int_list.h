// An [int] value from its elements, for the value bank's tests.
#pragma once

#include <utility>
#include <vector>

#include "vm/value.h"

namespace gs::testing {

inline vm::Value int_list(const std::vector<i64>& xs) {
  std::vector<vm::Value> items;
  for (i64 x : xs) items.push_back(vm::Value::of_int(x));
  return vm::Value::of_array(Type::Int, std::move(items));
}

}  // namespace gs::testing
