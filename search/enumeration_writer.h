// Banked expressions written out as Syn programs, the form in which a candidate or a probe is
// proposed and judged: `fn solve(…) -> T { return e; }` with the helper functions e calls —
// choose_T for choose(), map_k and filter_k for the lambdas (Syn has no closures, so a lambda is
// a function that takes the sequence and the entry's parameters).
#pragma once

#include <vector>

#include "search/enumeration_bank.h"
#include "search/enumeration_grammar.h"
#include "trees/syntax.h"

namespace gs::search::enumeration {

// What a program being written needs besides its entry: the choose helpers its expressions call
// (by type) and the lambdas' helper functions.
struct Helpers {
  std::vector<Type> chosen;
  std::vector<trees::Function> functions;
};

class Writer {
 public:
  Writer(const Grammar& grammar, const Bank& bank) : grammar_(grammar), bank_(bank) {}

  // A node of the entry's context as the candidate `return e;`.
  trees::Tree program_of(const Node& n) const;
  // A node of a lambda context as its probe: the body mapped over each source of the context's
  // values, the maps concatenated — map_1(xs, …) + map_2(ys, …), or map_1(len(xs), …) + …,
  // map_1(min(n, 64), …).
  trees::Tree probe_of(const Node& n, u32 context) const;
  // The expression of a node, its helpers noted in h.
  trees::Expr expr_of(const Node& n, Helpers* h) const;
  // fn <entry>(<params>) -> T { return e; } (several results: -> (T, U) { return e, f; }) and
  // the helpers the expressions call.
  trees::Tree program_with(std::vector<trees::Expr> results, Helpers h) const;
  // choose_T(c, a, b) for args {c, a, b}, its helper noted in h.
  static trees::Expr choose_call(std::vector<trees::Expr> args, Helpers* h);

 private:
  std::vector<trees::Expr> parameter_names() const;
  trees::Expr lambda_call(Production kind, const Context& ctx, Type over_type, trees::Expr over,
                          trees::Expr body, Helpers* h) const;

  const Grammar& grammar_;
  const Bank& bank_;
};

}  // namespace gs::search::enumeration
