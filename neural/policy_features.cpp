#include "neural/policy_features.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace gs::neural {
namespace {

using vm::Value;

float squash(double x, double scale) { return float(std::tanh(x / scale)); }

// The numbers of a value: ints, bools and floats as themselves, a str's characters by code, a
// list's elements.
std::vector<double> numbers(const Value& v) {
  std::vector<double> out;
  switch (v.type) {
    case Type::Int:
    case Type::Bool: out.push_back(double(v.i)); break;
    case Type::Float: out.push_back(std::isfinite(v.f) ? v.f : 0); break;
    case Type::Str:
      for (unsigned char ch : v.s) out.push_back(ch);
      break;
    default:
      for (const Value& e : v.items)
        out.push_back(e.type == Type::Float ? (std::isfinite(e.f) ? e.f : 0)
                      : e.type == Type::Str ? double(e.s.size())
                                            : double(e.i));
  }
  return out;
}

bool is_sequence(Type t) { return t == Type::Str || is_array(t); }
size_t length(const Value& v) { return v.type == Type::Str ? v.s.size() : v.items.size(); }

// kValueFeatures numbers.
void encode_value(const Value& v, std::vector<float>* out) {
  const size_t start = out->size();
  const Type types[] = {Type::Int, Type::Bool, Type::Float, Type::Str, Type::IntArray, Type::StrArray};
  for (Type t : types) out->push_back(v.type == t ? 1.f : 0.f);  // 6
  const bool other = is_array(v.type) && v.type != Type::IntArray && v.type != Type::StrArray;
  out->push_back(other ? 1.f : 0.f);  // 7
  const std::vector<double> xs = numbers(v);
  if (!is_sequence(v.type)) {  // 7 scalar
    const double x = xs.empty() ? 0 : xs[0];
    out->insert(out->end(), {x > 0   ? 1.f
                             : x < 0 ? -1.f
                                     : 0.f,
                             squash(x, 4), squash(x, 32), squash(x, 256),
                             float(std::min(1.0, std::log1p(std::fabs(x)) / 20)),
                             std::fabs(x) < 1e15 && i64(x) % 2 ? 1.f : 0.f, x == 0 ? 1.f : 0.f});
  } else {  // 7 summary of a sequence
    const size_t n = xs.size();
    const double lo = n ? *std::min_element(xs.begin(), xs.end()) : 0;
    const double hi = n ? *std::max_element(xs.begin(), xs.end()) : 0;
    double sum = 0;
    for (double x : xs) sum += x;
    const double scale = v.type == Type::Str ? 128 : 32;
    out->insert(out->end(),
                {n == 0 ? 1.f : 0.f, squash(double(n), 8), squash(lo, scale), squash(hi, scale),
                 squash(sum, 8 * scale), std::is_sorted(xs.begin(), xs.end()) ? 1.f : 0.f,
                 float(std::set<double>(xs.begin(), xs.end()).size()) / float(std::max<size_t>(n, 1))});
  }
  for (u32 k = 0; k < kPolicyElements; ++k)  // 8: the first elements (a str's by code around 'a')
    out->push_back(!is_sequence(v.type) || k >= xs.size() ? 0.f
                   : v.type == Type::Str                  ? squash(xs[k] - 96, 32)
                                                          : squash(xs[k], 32));
  out->resize(start + kValueFeatures, 0.f);
}

// kPairFeatures numbers: the result `r` against the parameter `p`.
void encode_pair(const Value& r, const Value& p, std::vector<float>* out) {
  const size_t start = out->size();
  auto flag = [&](bool b) { out->push_back(b ? 1.f : 0.f); };
  const std::vector<double> rs = numbers(r), ps = numbers(p);
  const bool same_type = r.type == p.type;
  flag(vm::identical(r, p));
  if (!is_sequence(r.type) && !is_sequence(p.type) && !rs.empty() && !ps.empty()) {
    flag(rs[0] < ps[0]);
    flag(rs[0] > ps[0]);
    flag(rs[0] == -ps[0]);
  } else {
    out->insert(out->end(), 3, 0.f);
  }
  if (!is_sequence(r.type) && is_sequence(p.type) && !rs.empty()) {  // an int from a list or str
    double sum = 0;
    for (double x : ps) sum += x;
    flag(rs[0] == double(length(p)));
    flag(std::find(ps.begin(), ps.end(), rs[0]) != ps.end());
    flag(rs[0] == sum && r.type != Type::Bool);
    flag(!ps.empty() && rs[0] == *std::max_element(ps.begin(), ps.end()));
    flag(!ps.empty() && rs[0] == *std::min_element(ps.begin(), ps.end()));
    flag(rs[0] >= 0 && rs[0] < double(ps.size()));
  } else {
    out->insert(out->end(), 6, 0.f);
  }
  if (is_sequence(r.type) && is_sequence(p.type)) {  // two sequences
    const size_t nr = rs.size(), np = ps.size();
    flag(nr == np);
    flag(nr < np);
    flag(nr > np);
    const std::multiset<double> in(ps.begin(), ps.end());
    flag(std::all_of(rs.begin(), rs.end(), [&](double x) { return in.count(x) > 0; }));
    flag(same_type && nr <= np && std::equal(rs.begin(), rs.end(), ps.begin()));     // a prefix
    flag(same_type && nr <= np && std::equal(rs.rbegin(), rs.rend(), ps.rbegin()));  // a suffix
  } else if (is_sequence(r.type) != is_sequence(p.type) && !rs.empty() && !ps.empty()) {
    // a sequence from a scalar: its length, whether it holds the scalar
    const double s = is_sequence(r.type) ? ps[0] : rs[0];
    const std::vector<double>& seq = is_sequence(r.type) ? rs : ps;
    flag(double(seq.size()) == s);
    flag(std::find(seq.begin(), seq.end(), s) != seq.end());
    out->insert(out->end(), 4, 0.f);
  } else {
    out->insert(out->end(), 6, 0.f);
  }
  out->resize(start + kPairFeatures, 0.f);
}

}  // namespace

std::vector<float> case_features(const suites::Case& c) {
  std::vector<float> out;
  out.reserve(kCaseFeatures);
  const Value none;
  for (u32 i = 0; i < kPolicyParams; ++i) {
    if (i < c.inputs.size())
      encode_value(c.inputs[i], &out);
    else
      out.resize(out.size() + kValueFeatures, 0.f);
  }
  const Value& result = c.outputs.empty() ? none : c.outputs[0];
  encode_value(result, &out);
  for (u32 i = 0; i < kPolicyParams; ++i) {
    if (i < c.inputs.size() && !c.outputs.empty())
      encode_pair(result, c.inputs[i], &out);
    else
      out.resize(out.size() + kPairFeatures, 0.f);
  }
  return out;
}

PolicyInput policy_input(const suites::Problem& problem) {
  PolicyInput in;
  in.rows = u32(std::min<size_t>(problem.train.size(), kPolicyCases));
  for (u32 k = 0; k < in.rows; ++k) {
    const std::vector<float> f = case_features(problem.train[k]);
    in.features.insert(in.features.end(), f.begin(), f.end());
  }
  return in;
}

}  // namespace gs::neural
