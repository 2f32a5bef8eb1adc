// Random values: the literals the random program generator writes and the inputs programs are
// run on — edge values (INT64_MIN, 2^31 - 1, NaN where asked, strings with odd bytes) drawn often
// beside plain small ones.
#pragma once

#include <string>
#include <vector>

#include "base/rng.h"
#include "trees/syntax.h"
#include "vm/value.h"

namespace gs::trees {

struct InputConfig {
  u32 max_array_length = 8;
  u32 max_string_length = 12;
  bool non_finite_floats = false;  // NaN and infinities among float inputs
};

// A random int literal's value: small ones mostly, edge values often.
i64 random_int(Rng& rng);
// A random float whose literal converts exactly (few significant digits, small exponent).
double random_float(Rng& rng);
// A random string of at most max_length bytes, with separators, digits and odd bytes.
std::string random_bytes(Rng& rng, u32 max_length);

// A random value of type t (an int, float, bool, str or array of those).
vm::Value random_value(Type t, const InputConfig& config, Rng& rng);
// Random arguments for f's parameters.
std::vector<vm::Value> random_inputs(const Function& f, const InputConfig& config, Rng& rng);

}  // namespace gs::trees
