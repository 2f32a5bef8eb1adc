// Random literals and inputs (trees/random_values.h).
#include "trees/random_values.h"

#include <cmath>

#include "trees/syntax.h"

namespace gs::trees {

i64 random_int(Rng& rng) {
  static const i64 kSpecial[] = {INT64_MIN,
                                 INT64_MAX,
                                 -1,
                                 0,
                                 1,
                                 2,
                                 63,
                                 64,
                                 65,
                                 -64,
                                 255,
                                 256,
                                 i64(1) << 32,
                                 (i64(1) << 31) - 1,
                                 -(i64(1) << 31),
                                 INT64_MIN + 1,
                                 1000000007,
                                 -9,
                                 48,
                                 57,
                                 97};
  switch (rng.below(12)) {
    case 0:
    case 1:
    case 2:
    case 3: return rng.uniform_int(-10, 10);
    case 4:
    case 5: return rng.uniform_int(0, 255);
    case 6: return rng.uniform_int(-100000, 100000);
    case 7:
    case 8: return kSpecial[rng.below(sizeof kSpecial / sizeof kSpecial[0])];
    case 9: return rng.bernoulli(0.5) ? INT64_MIN : INT64_MAX;
    default: return i64(rng.next_u64());
  }
}

// A float whose literal converts exactly (few significant digits, small exponent).
double random_float(Rng& rng) {
  // Halves for round, values around str(float)'s thresholds (1e12; a mantissa rounding up to 10).
  static const double kSpecial[] = {0.5,
                                    1.5,
                                    2.5,
                                    0.1,
                                    0.2,
                                    0.3,
                                    1e12,
                                    999999999999.5,
                                    1e21,
                                    1.5e20,
                                    1e22,
                                    2.5e-10,
                                    1e-5,
                                    123456.789,
                                    0.0000005,
                                    0.0000015,
                                    3.25,
                                    1e15,
                                    9.9999996e13,
                                    9.9999995e12,
                                    999999999999.999,
                                    0.0000004999,
                                    9.99999949e20};
  double v;
  switch (rng.below(9)) {
    case 7: v = 0.0; break;
    case 0:
    case 1: v = double(rng.uniform_int(0, 100)); break;
    case 2:
    case 3:
    case 4: {
      double scale[] = {1e1, 1e2, 1e3, 1e4, 1e5, 1e6};
      v = double(rng.uniform_int(0, 999999)) / scale[rng.below(6)];
      break;
    }
    case 5: v = double(rng.uniform_int(0, 20)) + 0.5; break;
    default: v = kSpecial[rng.below(sizeof kSpecial / sizeof kSpecial[0])];
  }
  if (rng.bernoulli(0.3)) v = -v;
  return float_literal_is_exact(v) ? v : 1.5;
}

std::string random_bytes(Rng& rng, u32 max_length) {
  static const char* const kSpecial[] = {
      "",         " ",   ",",  "a,b,,c", "  hello  world ",     "123", "-42", "+7", "abc",
      "a b\tc\n", "007", "ab", "x,y",    "99999999999999999999"};
  if (rng.bernoulli(0.25)) return kSpecial[rng.below(sizeof kSpecial / sizeof kSpecial[0])];
  static const char kAlphabet[] = "abcab ,-+0123456789xyzXYZ\n\t\"\\";
  std::string s;
  u32 n = rng.below(max_length + 1);
  bool digits = rng.bernoulli(0.2);
  for (u32 k = 0; k < n; ++k) {
    if (digits) {
      s += char('0' + rng.below(10));
    } else if (rng.bernoulli(0.1)) {
      static const unsigned char kOdd[] = {0, 0x7f, 0x80, 0xff, 0x01, 0x0b, 0x0c, 0xe9};
      s += char(kOdd[rng.below(sizeof kOdd)]);
    } else {
      s += kAlphabet[rng.below(sizeof kAlphabet - 1)];
    }
  }
  if (digits && rng.bernoulli(0.3)) s.insert(s.begin(), rng.bernoulli(0.5) ? '-' : '+');
  return s;
}

vm::Value random_value(Type t, const InputConfig& config, Rng& rng) {
  switch (t) {
    case Type::Int: return vm::Value::of_int(random_int(rng));
    case Type::Bool: return vm::Value::of_bool(rng.bernoulli(0.5));
    case Type::Str: return vm::Value::of_str(random_bytes(rng, config.max_string_length));
    case Type::Float: {
      static const double kOdd[] = {0.0,   -0.0,        0.0,    -0.0,     1e15,   -1e15,
                                    1e300, -1e300,      1e-300, 4.9e-324, 1e12,   999999999999.9999,
                                    2.5,   -2.5,        0.5,    -0.5,     9.3e18, -9.3e18,
                                    1e19,  9.9999996e13};
      if (config.non_finite_floats && rng.bernoulli(0.1)) {
        static const double kNonFinite[] = {NAN, INFINITY, -INFINITY};
        return vm::Value::of_float(kNonFinite[rng.below(3)]);
      }
      if (rng.bernoulli(0.25)) return vm::Value::of_float(kOdd[rng.below(sizeof kOdd / sizeof kOdd[0])]);
      if (rng.bernoulli(0.1)) {  // any finite bit pattern
        double d;
        do d = double_of(rng.next_u64());
        while (!std::isfinite(d));
        return vm::Value::of_float(d);
      }
      return vm::Value::of_float(random_float(rng));
    }
    default: {
      u32 n = rng.bernoulli(0.15) ? 0 : rng.below(config.max_array_length + 1);
      std::vector<vm::Value> items;
      for (u32 k = 0; k < n; ++k) items.push_back(random_value(element_of(t), config, rng));
      return vm::Value::of_array(element_of(t), std::move(items));
    }
  }
}

std::vector<vm::Value> random_inputs(const Function& f, const InputConfig& config, Rng& rng) {
  std::vector<vm::Value> args;
  for (const Param& p : f.params) args.push_back(random_value(p.type, config, rng));
  return args;
}

}  // namespace gs::trees
