#include "neural/router.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "compiler/token.h"
#include "neural/source_tokenizer.h"
#include "neural/vocabulary.h"

namespace gs::neural {
namespace {

constexpr const char* kMagic = "gpusynth-router";
constexpr int kFormat = 1;

double sigmoid(double z) { return z >= 0 ? 1 / (1 + std::exp(-z)) : std::exp(z) / (1 + std::exp(z)); }

}  // namespace

RouteFeatures route_features(std::string_view source) {
  RouteFeatures f{};
  auto tokens = encode_source(source);
  if (!tokens) return f;
  const Vocabulary& v = Vocabulary::get();
  const TokenSeq& ids = tokens->ids;
  const TokenId lbrace = v.syn(compiler::Tok::LBRACE), rbrace = v.syn(compiler::Tok::RBRACE);
  const TokenId lparen = v.syn(compiler::Tok::LPAREN), lbracket = v.syn(compiler::Tok::LBRACKET);
  const TokenId str = v.marker(Marker::LIT_STR), flt = v.marker(Marker::LIT_FLOAT);
  double depth = 0, deepest = 0;
  for (size_t i = 0; i < ids.size(); ++i) {
    TokenId t = ids[i];
    if (t == lbrace) deepest = std::max(deepest, ++depth);
    if (t == rbrace) --depth;
    if (t == v.syn(compiler::Tok::KW_FOR) || t == v.syn(compiler::Tok::KW_WHILE)) f[3] += 1;
    if (t == v.syn(compiler::Tok::KW_IF)) f[4] += 1;
    const bool declared = i > 0 && ids[i - 1] == v.syn(compiler::Tok::KW_FN);  // `fn F0 (` is no call
    if (i + 1 < ids.size() && ids[i + 1] == lparen && !declared &&
        (v.in(t, Section::Function) || v.in(t, Section::Builtin)))
      f[5] += 1;
    if (t == lbracket) f[6] += 1;
    if (t == str) f[7] += 1;
    if (t == flt) f[8] += 1;
  }
  f[0] = double(ids.size());
  f[1] = double(tokens->function_names.size());
  f[2] = deepest;
  return f;
}

Router Router::fit(const std::vector<RouteExample>& history, double threshold, double l2, u32 steps) {
  Router r;
  r.threshold_ = threshold;
  r.fitted_ = true;
  const double n = double(history.size());
  for (u32 j = 0; j < kRouteFeatures; ++j) {
    double mean = 0, var = 0;
    for (const RouteExample& e : history) mean += e.features[j];
    mean = n > 0 ? mean / n : 0;
    for (const RouteExample& e : history) var += (e.features[j] - mean) * (e.features[j] - mean);
    r.mean_[j] = mean;
    r.scale_[j] = n > 1 && var > 0 ? std::sqrt(var / n) : 1;
  }
  if (history.empty()) return r;
  // Start from the base rate, so a history with one class gives that class everywhere.
  double base = 0;
  for (const RouteExample& e : history) base += e.success;
  base = std::clamp(base / n, 1e-4, 1 - 1e-4);
  r.bias_ = std::log(base / (1 - base));
  const double rate = 0.5;
  for (u32 step = 0; step < steps; ++step) {
    RouteFeatures grad{};
    double grad_bias = 0;
    for (const RouteExample& e : history) {
      double z = r.bias_;
      RouteFeatures x;
      for (u32 j = 0; j < kRouteFeatures; ++j)
        z += r.weight_[j] * (x[j] = (e.features[j] - r.mean_[j]) / r.scale_[j]);
      double d = sigmoid(z) - (e.success ? 1.0 : 0.0);
      for (u32 j = 0; j < kRouteFeatures; ++j) grad[j] += d * x[j];
      grad_bias += d;
    }
    for (u32 j = 0; j < kRouteFeatures; ++j) r.weight_[j] -= rate * (grad[j] / n + l2 * r.weight_[j]);
    r.bias_ -= rate * grad_bias / n;
  }
  return r;
}

double Router::probability(const RouteFeatures& f) const {
  if (!fitted_) return 1;
  double z = bias_;
  for (u32 j = 0; j < kRouteFeatures; ++j) z += weight_[j] * (f[j] - mean_[j]) / scale_[j];
  return sigmoid(z);
}

bool Router::save(const std::string& path, std::string* error) const {
  std::ofstream out(path);
  out.precision(17);
  out << kMagic << " " << kFormat << "\nthreshold " << threshold_ << "\n";
  for (u32 j = 0; j < kRouteFeatures; ++j)
    out << kRouteFeatureNames[j] << " " << mean_[j] << " " << scale_[j] << " " << weight_[j] << "\n";
  out << "bias " << bias_ << "\n";
  out.flush();
  if (!out) {
    *error = path + ": cannot write the router";
    return false;
  }
  return true;
}

std::optional<Router> Router::load(const std::string& path, std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = path + ": cannot open the router file";
    return std::nullopt;
  }
  auto fail = [&](u32 line, const std::string& what) {
    *error = path + ":" + std::to_string(line) + ": " + what;
    return std::nullopt;
  };
  Router r;
  r.fitted_ = true;
  std::string line, word;
  u32 number = 0;
  auto next = [&](std::istringstream* s) {
    if (!std::getline(in, line)) return false;
    ++number;
    *s = std::istringstream(line);
    return true;
  };
  std::istringstream s;
  int format = 0;
  if (!next(&s) || !(s >> word >> format) || word != kMagic)
    return fail(1, std::string("not a router file (it must begin with '") + kMagic + " " +
                       std::to_string(kFormat) + "')");
  if (format != kFormat)
    return fail(1,
                "router format " + std::to_string(format) + ", this build reads " + std::to_string(kFormat));
  // A line that is there but wrong is `number`; a missing one is the next.
  if (!next(&s)) return fail(number + 1, "expected 'threshold T'");
  if (!(s >> word >> r.threshold_) || word != "threshold") return fail(number, "expected 'threshold T'");
  for (u32 j = 0; j < kRouteFeatures; ++j) {
    const std::string expected = std::string("expected '") + kRouteFeatureNames[j] + " MEAN SCALE WEIGHT'";
    if (!next(&s)) return fail(number + 1, expected);
    if (!(s >> word >> r.mean_[j] >> r.scale_[j] >> r.weight_[j]) || word != kRouteFeatureNames[j])
      return fail(number, expected);
    if (!(r.scale_[j] > 0) || !std::isfinite(r.mean_[j]) || !std::isfinite(r.weight_[j]))
      return fail(number, std::string("feature '") + kRouteFeatureNames[j] +
                              "' needs a finite mean and weight and a positive scale");
  }
  if (!next(&s)) return fail(number + 1, "expected 'bias B' (finite)");
  if (!(s >> word >> r.bias_) || word != "bias" || !std::isfinite(r.bias_))
    return fail(number, "expected 'bias B' (finite)");
  return r;
}

bool write_history(const std::string& path, const std::vector<RouteExample>& rows, std::string* error) {
  std::ofstream out(path);
  for (const char* name : kRouteFeatureNames) out << name << "\t";
  out << "success\n";
  for (const RouteExample& e : rows) {
    for (double x : e.features) out << x << "\t";
    out << (e.success ? 1 : 0) << "\n";
  }
  out.flush();
  if (!out) {
    *error = path + ": cannot write the routing history";
    return false;
  }
  return true;
}

std::optional<std::vector<RouteExample>> read_history(const std::string& path, std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = path + ": cannot open the routing history";
    return std::nullopt;
  }
  std::string line;
  std::string header;
  for (const char* name : kRouteFeatureNames) header += std::string(name) + "\t";
  header += "success";
  if (!std::getline(in, line) || line != header) {
    *error = path + ":1: expected the header '" + header + "'";
    return std::nullopt;
  }
  std::vector<RouteExample> rows;
  u32 number = 1;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    std::istringstream s(line);
    RouteExample e;
    int success = -1;
    for (double& x : e.features) s >> x;
    s >> success;
    std::string rest;
    if (!s || (success != 0 && success != 1) || (s >> rest)) {
      *error = path + ":" + std::to_string(number) + ": expected " + std::to_string(kRouteFeatures) +
               " numbers and a success of 0 or 1";
      return std::nullopt;
    }
    e.success = success == 1;
    rows.push_back(e);
  }
  return rows;
}

}  // namespace gs::neural
