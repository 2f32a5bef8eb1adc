// The gpusynth Python module (docs/python.md): pybind11 bindings of the libraries, one file per
// part of the API. module.cpp defines the module and calls each bind_* below.
#pragma once
#include <pybind11/pybind11.h>

#include <string>

namespace gs::python {

namespace py = pybind11;

// Raises the Python exception gpusynth.errors.NAME(args...) (a class of python/gpusynth/errors.py).
[[noreturn]] void raise(const char* name, py::tuple args);

void bind_problem(py::module_& m);   // problem.cpp: Problem
void bind_program(py::module_& m);   // program.cpp: compile, Program, run
void bind_evaluate(py::module_& m);  // evaluate.cpp: evaluate, Result
void bind_search(py::module_& m);    // search.cpp: search
void bind_records(py::module_& m);   // records.cpp: Records
void bind_samples(py::module_& m);   // samples.cpp: extract_code, pass_at_k

}  // namespace gs::python
