// The hybrid compiler's router (paper §5, docs/neural.md "Hybrid routing"): a few cheap features
// of a program's source, a logistic-regression classifier fitted on history — for each program
// the neural compiler was tried on, did one of its K samples verify? — and a threshold. Programs
// scoring at or above the threshold go to the neural compiler first; the rest go straight to the
// traditional one. The router only decides where to try first: the hybrid's results are always
// correct because a neural candidate is used only when it verifies (neural/neural_pipeline.cpp).
// No torch here: the fit is a few hundred steps of gradient descent on a handful of numbers.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/hd.h"

namespace gs::neural {

// tokens, functions, nesting depth, loops, branches, calls (not declarations), `[` (array types,
// literals and indexing), string literals, float literals (counts from the source tokens;
// depth = deepest `{`).
inline constexpr u32 kRouteFeatures = 9;
using RouteFeatures = std::array<double, kRouteFeatures>;
inline constexpr std::array<const char*, kRouteFeatures> kRouteFeatureNames = {
    "tokens", "functions", "depth", "loops", "branches", "calls", "arrays", "strings", "floats"};

// The features of a source (all zero when it cannot be tokenised; the router then sends it to
// the traditional compiler unless the fit says otherwise).
RouteFeatures route_features(std::string_view source);

// One row of history: a program's features and whether the neural path succeeded within K.
struct RouteExample {
  RouteFeatures features{};
  bool success = false;
};

class Router {
 public:
  // A router that sends everything to the neural compiler (probability 1): the hybrid without a
  // fitted router.
  Router() = default;
  // Logistic regression on standardised features (L2 penalty `l2`), fitted by full-batch
  // gradient descent from zero: deterministic.
  static Router fit(const std::vector<RouteExample>& history, double threshold = 0.5, double l2 = 1e-3,
                    u32 steps = 500);

  // P(the neural compiler succeeds within K samples).
  double probability(const RouteFeatures& f) const;
  bool neural(const RouteFeatures& f) const { return probability(f) >= threshold_; }
  double threshold() const { return threshold_; }
  void set_threshold(double t) { threshold_ = t; }
  bool fitted() const { return fitted_; }

  // A text file: "gpusynth-router 1", the threshold, then per feature name mean, scale and
  // weight, then the bias. load: nullopt with *error naming the file and line on a bad file.
  bool save(const std::string& path, std::string* error) const;
  static std::optional<Router> load(const std::string& path, std::string* error);

 private:
  bool fitted_ = false;
  double threshold_ = 0.5;
  RouteFeatures mean_{}, scale_{}, weight_{};
  double bias_ = 0;
};

// History as a TSV (a header naming kRouteFeatureNames then "success", a row per program), as
// eval-compiler writes it; nullopt with *error naming the file and line on a malformed one.
bool write_history(const std::string& path, const std::vector<RouteExample>& rows, std::string* error);
std::optional<std::vector<RouteExample>> read_history(const std::string& path, std::string* error);

}  // namespace gs::neural
