// gpusynth.evaluate: many candidate programs compiled, run and judged on a problem's cases in
// batch pipeline calls, as `gpusynth eval` does; the GIL is released while the pipeline works.
#include <pybind11/stl.h>

#include "pipeline/first_error.h"
#include "python/bindings.h"
#include "python/options.h"
#include "python/values.h"
#include "suites/cases.h"
#include "suites/problem.h"

namespace gs::python {

namespace {

struct Result {
  std::string status;  // pipeline::status_name: "ok", "compile_error", ...
  u32 passed = 0, cases = 0;
  std::string error;  // pipeline::first_error
  u64 instructions = 0;
  float reward = 0;
  bool passes() const { return status == "ok" && passed == cases; }
};

suites::Split checked_split(const std::string& split) {
  const std::optional<suites::Split> s = suites::parse_split(split);
  if (!s) throw py::value_error("split must be train, test or all, not '" + split + "'");
  return *s;
}

std::vector<Result> evaluate(const suites::Problem& problem, py::iterable sources, const std::string& split,
                             const std::string& device, u32 threads, u32 batch, std::optional<u64> fuel,
                             std::optional<u32> heap, const std::string& language) {
  if (batch == 0) throw py::value_error("batch must be at least 1");
  pipeline::PipelineConfig config;
  config.compile.language = parse_language(language);
  config.threads = checked_threads(threads);
  config.limits = run_limits(config.limits, fuel, heap, std::nullopt, std::nullopt);
  const pipeline::CaseSet tests = suites::problem_cases(problem, checked_split(split));
  if (tests.view().case_count == 0)
    throw py::value_error(problem.name + ": the " + split + " split has no cases to judge on");
  const pipeline::Device d = parse_device(device);
  std::vector<std::string> candidates;
  for (py::handle c : sources)
    candidates.push_back(source_bytes(c, "candidate " + std::to_string(candidates.size())));
  std::vector<Result> results;
  results.reserve(candidates.size());
  py::gil_scoped_release unlocked;
  auto pipeline = pipeline::make_pipeline(d, config);
  for (size_t first = 0; first < candidates.size(); first += batch) {
    const size_t end = std::min(candidates.size(), first + batch);
    pipeline::Sources sources;
    for (size_t c = first; c < end; ++c) sources.add(candidates[c]);
    pipeline::BatchResults r;
    pipeline->run(sources, tests, &r);
    for (u32 i = 0; i < r.programs; ++i)
      results.push_back({pipeline::status_name(r.program_status(i)), r.cases_passed[i], r.cases,
                         pipeline::first_error(r, i, candidates[first + i]), r.instructions[i], r.reward[i]});
  }
  return results;
}

}  // namespace

void bind_evaluate(py::module_& m) {
  py::class_<Result>(m, "Result", "One candidate's verdict from evaluate().")
      .def_readonly("status", &Result::status,
                    "ok, compile_error, bytecode_too_large, invalid_bytecode or no_entry")
      .def_readonly("passed", &Result::passed, "cases passed")
      .def_readonly("cases", &Result::cases, "cases judged on")
      .def_property_readonly(
          "error", [](const Result& r) { return source_text(r.error); },
          "its first compile error or its most frequent trap; '' if none")
      .def_readonly("instructions", &Result::instructions, "VM instructions over all its cases")
      .def_readonly("reward", &Result::reward)
      .def_property_readonly("passes", &Result::passes, "it compiled and passed every case")
      .def("__repr__", [](const Result& r) {
        return source_text("<gpusynth.Result " + r.status + " " + std::to_string(r.passed) + "/" +
                           std::to_string(r.cases) + (r.error.empty() ? "" : " " + r.error) + ">");
      });
  m.def("evaluate", &evaluate, py::arg("problem"), py::arg("candidates"), py::kw_only(),
        py::arg("split") = "train", py::arg("device") = "auto", py::arg("threads") = 0,
        py::arg("batch") = 65536, py::arg("fuel") = py::none(), py::arg("heap") = py::none(),
        py::arg("language") = "syn",
        "Compiles, runs and judges every candidate (Syn source, or typed Python with language='python') on "
        "the problem's cases (split: train, test "
        "or all) and returns one Result per candidate, in order. threads=0: every usable CPU.");
}

}  // namespace gs::python
