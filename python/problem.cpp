// gpusynth.Problem: a problem loaded from its file, parsed from JSON text, or made from Python
// values; the checks and the messages are the problem format's own (suites/problem.h).
#include "suites/problem.h"

#include <pybind11/stl.h>

#include <cctype>

#include "python/bindings.h"
#include "python/values.h"

namespace gs::python {

namespace {

suites::Problem parsed(const std::string& text, const std::string& path) {
  std::string error;
  auto p = suites::parse_problem(text, path, &error);
  if (!p) raise("ProblemError", py::make_tuple(error));
  return std::move(*p);
}

// A problem made from Python values is checked as the JSON text it becomes; its errors name
// "Problem" instead of that text's lines and columns ("Problem: train case 0: ...").
suites::Problem made(const std::string& text) {
  const std::string path = "Problem";
  std::string error;
  auto p = suites::parse_problem(text, path, &error);
  if (p) return std::move(*p);
  size_t at = path.size();
  if (error.compare(0, at, path) == 0) {
    while (at < error.size() && (error[at] == ':' || std::isdigit(static_cast<unsigned char>(error[at]))))
      ++at;
    error = path + ": " + error.substr(at + (error.compare(at, 1, " ") == 0 ? 1 : 0));
  }
  raise("ProblemError", py::make_tuple(error));
}

// A case as Python gives it: {"inputs": [...], "outputs": [...]} as in the file, or a pair
// (inputs, expected) where expected is the result (a tuple of them for several results).
nlohmann::json case_json(py::handle c, size_t results, const std::string& what) {
  if (py::isinstance<py::dict>(c)) return to_json(c, what);
  if (!(py::isinstance<py::tuple>(c) || py::isinstance<py::list>(c)) || py::len(c) != 2)
    throw py::type_error(what + ": expected a pair (inputs, expected) or a dict with inputs and outputs");
  py::sequence pair = py::reinterpret_borrow<py::sequence>(c);
  nlohmann::json outputs = nlohmann::json::array();
  if (results == 1) {
    outputs.push_back(to_json(pair[1], what + ": expected"));
  } else {
    outputs = to_json(pair[1], what + ": expected");
  }
  return {{"inputs", to_json(pair[0], what + ": inputs")}, {"outputs", outputs}};
}

nlohmann::json cases_json(py::handle cases, size_t results, const std::string& split) {
  nlohmann::json a = nlohmann::json::array();
  size_t k = 0;
  for (py::handle c : cases) a.push_back(case_json(c, results, split + " case " + std::to_string(k++)));
  return a;
}

py::list cases_of(const std::vector<suites::Case>& cases) {
  py::list out;
  for (const suites::Case& c : cases) {
    py::tuple inputs(c.inputs.size());
    for (size_t k = 0; k < c.inputs.size(); ++k) inputs[k] = to_python(c.inputs[k]);
    out.append(py::make_tuple(inputs, to_python(c.outputs)));
  }
  return out;
}

suites::Problem make(const std::string& signature, py::handle train, py::handle test, const std::string& name,
                     const std::string& description, double float_tolerance, py::handle constants) {
  suites::Signature sig;
  std::string error;
  if (!suites::parse_signature(signature, &sig, &error))
    raise("ProblemError", py::make_tuple("signature: " + error));
  nlohmann::json j = {{"name", name},
                      {"signature", signature},
                      {"train", cases_json(train, sig.results.size(), "train")},
                      {"test", cases_json(test, sig.results.size(), "test")}};
  if (!description.empty()) j["description"] = description;
  if (float_tolerance != 0) j["float_tolerance"] = float_tolerance;
  if (!constants.is_none()) j["constants"] = to_json(constants, "constants");
  return made(j.dump(1));
}

}  // namespace

void bind_problem(py::module_& m) {
  py::class_<suites::Problem>(m, "Problem",
                              "A Syn signature and input/output cases (docs/problems.md). Make one from "
                              "Python values, Problem.load(path) or Problem.from_json(text).")
      .def(py::init(&make), py::arg("signature"), py::arg("train"), py::kw_only(),
           py::arg("test") = py::list(), py::arg("name") = "problem", py::arg("description") = "",
           py::arg("float_tolerance") = 0.0, py::arg("constants") = py::none(),
           "Problem('fn solve(xs: [int]) -> int', train=[(([1, 2],), 3)], test=[...]): each case is "
           "(inputs, expected), expected a tuple when the signature has several results, or a dict "
           "{'inputs': [...], 'outputs': [...]} as in a problem file. Raises ProblemError.")
      .def_static(
          "load",
          [](const std::string& path) {
            std::string error;
            auto p = suites::load_problem(path, &error);
            if (!p) raise("ProblemError", py::make_tuple(error));
            return std::move(*p);
          },
          py::arg("path"), "Loads a problem file (JSON, docs/problems.md). Raises ProblemError.")
      .def_static("from_json", &parsed, py::arg("text"), py::arg("path") = "<json>",
                  "Parses a problem from JSON text; path names it in messages. Raises ProblemError.")
      .def_readonly("name", &suites::Problem::name)
      .def_property_readonly("signature", [](const suites::Problem& p) { return p.signature.text; })
      .def_property_readonly("entry", [](const suites::Problem& p) { return p.signature.entry; })
      .def_readonly("description", &suites::Problem::description)
      .def_readonly("float_tolerance", &suites::Problem::float_tolerance)
      .def_readonly("path", &suites::Problem::path)
      .def_property_readonly(
          "train", [](const suites::Problem& p) { return cases_of(p.train); },
          "The train cases as (inputs, expected) pairs.")
      .def_property_readonly("test", [](const suites::Problem& p) { return cases_of(p.test); })
      .def("to_json", &suites::problem_json, "The problem in the file format.")
      .def("__repr__", [](const suites::Problem& p) {
        return "<gpusynth.Problem " + p.name + ": " + p.signature.text + ", " +
               std::to_string(p.train.size()) + " train, " + std::to_string(p.test.size()) + " test cases>";
      });
}

}  // namespace gs::python
