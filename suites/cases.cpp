// A problem's cases as the pipeline's case sets (suites/cases.h).
#include "suites/cases.h"

#include <stdexcept>
#include <string>

namespace gs::suites {

std::optional<Split> parse_split(std::string_view name) {
  if (name == "train") return Split::Train;
  if (name == "test") return Split::Test;
  if (name == "all") return Split::All;
  return std::nullopt;
}

pipeline::CaseSet problem_cases(const Problem& p, Split split) {
  std::vector<pipeline::CaseSet::Case> cases;
  auto add = [&](const std::vector<Case>& from) {
    for (const Case& c : from) cases.push_back({c.inputs, c.outputs});
  };
  if (split != Split::Test) add(p.train);
  if (split != Split::Train) add(p.test);
  const Signature& s = p.signature;
  return pipeline::CaseSet(s.entry, s.params, s.results, cases, p.float_tolerance);
}

namespace {

vm::Value zero_of(Type t) {
  switch (t) {
    case Type::Int: return vm::Value::of_int(0);
    case Type::Float: return vm::Value::of_float(0);
    case Type::Bool: return vm::Value::of_bool(false);
    case Type::Str: return vm::Value::of_str("");
    default: break;
  }
  if (is_array(t)) return vm::Value::of_array(element_of(t), {});
  throw std::invalid_argument(std::string("a probe cannot return a ") + type_name(t));
}

}  // namespace

pipeline::CaseSet probe_cases(const Problem& p, Type t) {
  const std::vector<vm::Value> zero{zero_of(t)};
  std::vector<pipeline::CaseSet::Case> cases;
  for (const Case& c : p.train) cases.push_back({c.inputs, zero});
  const Type results[] = {t};
  return pipeline::CaseSet(p.signature.entry, p.signature.params, results, cases, p.float_tolerance);
}

}  // namespace gs::suites
