// gpusynth.Records: a run's HDF5 records (docs/trace-format.md) read through records::Reader,
// rows as dicts; `gpusynth trace` reads the same files.
#include "records/records.h"

#include <pybind11/stl.h>

#include <cmath>
#include <limits>
#include <optional>

#include "python/bindings.h"
#include "python/values.h"
#include "vm/trap.h"

namespace gs::python {

namespace {

// A Reader that close() (or leaving a `with` block) lets go of, so that another reader of the
// file in this process — h5py, which shares the HDF5 library — may open it.
struct Records {
  std::optional<records::Reader> reader;
  std::string path;

  const records::Reader& live() const {
    if (!reader) raise("RecordsError", py::make_tuple(path + ": closed"));
    return *reader;
  }
};

Records open(const std::string& path) {
  try {
    return {records::Reader::open(path), path};
  } catch (const std::exception& e) {
    raise("RecordsError", py::make_tuple(std::string(e.what())));
  }
}

// What read(reader) gives for a problem; RecordsError (not a C++ exception's RuntimeError) for a
// problem not there, or a closed file.
template <typename F>
auto of_problem(const Records& records, const std::string& problem, F&& read) {
  const records::Reader& r = records.live();
  try {
    return read(r);
  } catch (const std::exception& e) {
    raise("RecordsError", py::make_tuple(r.path() + ": problem " + problem + ": " + e.what()));
  }
}

template <typename Row>
py::list dicts(const std::vector<Row>& rows, py::dict (*dict)(const Row&)) {
  py::list out;
  for (const Row& row : rows) out.append(dict(row));
  return out;
}

const char* trap_text(u8 trap) {
  return trap == pipeline::kNotRun ? "not_run" : vm::trap_name(vm::Trap(trap));
}

py::dict candidate_dict(const records::CandidateRecord& c) {
  py::list errors;
  for (float e : c.case_errors) errors.append(e);
  py::list parents;
  for (i64 p : c.parents)
    if (p != records::kNoParent) parents.append(p);
  return py::dict(
      py::arg("id") = c.id, py::arg("iteration") = c.iteration, py::arg("index") = c.index,
      py::arg("generator") = search::generator_name(c.generator), py::arg("source") = source_text(c.source),
      py::arg("bytecode_bytes") = c.bytecode_bytes, py::arg("bytecode_hash") = c.bytecode_hash,
      py::arg("compile_path") = records::compile_path_name(c.compile_path),
      py::arg("status") = pipeline::status_name(c.status), py::arg("trap") = trap_text(c.trap),
      py::arg("train_passed") = c.train_passed, py::arg("reward") = c.reward, py::arg("parents") = parents,
      py::arg("syntax_nodes") = c.syntax_nodes, py::arg("case_errors") = errors);
}

py::dict iteration_dict(const records::IterationRecord& i) {
  return py::dict(
      py::arg("iteration") = i.iteration, py::arg("candidates_evaluated") = i.candidates_evaluated,
      py::arg("candidates_recorded") = i.candidates_recorded,
      py::arg("cumulative_candidates") = i.cumulative_candidates,
      py::arg("elapsed_seconds") = i.elapsed_seconds, py::arg("generate_seconds") = i.generate_seconds,
      py::arg("compile_seconds") = i.compile_seconds, py::arg("execute_seconds") = i.execute_seconds,
      py::arg("score_seconds") = i.score_seconds, py::arg("select_seconds") = i.select_seconds,
      py::arg("best_reward") = i.best_reward, py::arg("best_train_passed") = i.best_train_passed,
      py::arg("solved") = i.solved);
}

py::dict solution_dict(const records::SolutionRecord& s) {
  return py::dict(py::arg("candidate_id") = s.candidate_id, py::arg("iteration") = s.iteration,
                  py::arg("source") = source_text(s.source),
                  py::arg("simplified_source") = source_text(s.simplified_source),
                  py::arg("train_passed") = s.train_passed, py::arg("train_total") = s.train_total,
                  py::arg("test_passed") = s.test_passed, py::arg("test_total") = s.test_total,
                  py::arg("generalises") = s.generalises);
}

}  // namespace

void bind_records(py::module_& m) {
  py::class_<Records>(m, "Records",
                      "A run's records file (RUN/records.h5), read-only; close() or a with block lets it go.")
      .def(py::init(&open), py::arg("path"), "Opens a records file. Raises RecordsError.")
      .def_readonly("path", &Records::path)
      .def_property_readonly(
          "warnings", [](const Records& r) { return r.live().warnings(); },
          "What a crash left missing or truncated, found on open.")
      .def("close", [](Records& r) { r.reader.reset(); })
      .def(
          "__enter__", [](Records& r) -> Records& { return r; }, py::return_value_policy::reference)
      .def("__exit__", [](Records& r, py::args) { r.reader.reset(); })
      .def_property_readonly(
          "problems",
          [](const Records& r) {
            py::list out;
            for (const records::ProblemInfo& p : r.live().problems())
              out.append(py::dict(py::arg("name") = p.name, py::arg("signature") = p.signature,
                                  py::arg("train_cases") = p.train_cases,
                                  py::arg("test_cases") = p.test_cases,
                                  py::arg("source_file") = p.source_file));
            return out;
          })
      .def_property_readonly(
          "attributes",
          [](const Records& r) {
            const records::RunAttributes& a = r.live().attributes();
            return py::dict(py::arg("format_version") = a.format_version,
                            py::arg("gpusynth_version") = a.gpusynth_version, py::arg("created") = a.created,
                            py::arg("last_opened") = a.last_opened, py::arg("sessions") = a.sessions,
                            py::arg("seed") = a.run.seed, py::arg("config") = a.run.config_text,
                            py::arg("command_line") = a.run.command_line, py::arg("hosts") = a.run.hosts,
                            py::arg("devices") = a.run.devices,
                            py::arg("budget_exceeded") = a.budget_exceeded,
                            py::arg("budget_note") = a.budget_note);
          })
      .def(
          "candidate_count",
          [](const Records& records, const std::string& problem) {
            return of_problem(records, problem,
                              [&](const records::Reader& r) { return r.candidate_count(problem); });
          },
          py::arg("problem"))
      .def(
          "candidates",
          [](const Records& records, const std::string& problem, u64 first, std::optional<u64> count) {
            return dicts(of_problem(records, problem,
                                    [&](const records::Reader& r) {
                                      return r.candidates(problem, first,
                                                          count.value_or(std::numeric_limits<u64>::max()));
                                    }),
                         &candidate_dict);
          },
          py::arg("problem"), py::arg("first") = 0, py::arg("count") = py::none(),
          "The problem's recorded candidates as dicts, from row `first`, at most `count` of them.")
      .def(
          "iterations",
          [](const Records& records, const std::string& problem) {
            return dicts(
                of_problem(records, problem, [&](const records::Reader& r) { return r.iterations(problem); }),
                &iteration_dict);
          },
          py::arg("problem"))
      .def(
          "solutions",
          [](const Records& records, const std::string& problem) {
            return dicts(
                of_problem(records, problem, [&](const records::Reader& r) { return r.solutions(problem); }),
                &solution_dict);
          },
          py::arg("problem"))
      .def("__repr__", [](const Records& r) {
        if (!r.reader) return "<gpusynth.Records " + r.path + ", closed>";
        return "<gpusynth.Records " + r.path + ": " + std::to_string(r.reader->problems().size()) +
               " problems>";
      });
}

}  // namespace gs::python
