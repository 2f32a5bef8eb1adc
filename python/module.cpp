// The extension module gpusynth._core; python/gpusynth/__init__.py is the package users import.
#include "python/bindings.h"

namespace gs::python {

void raise(const char* name, py::tuple args) {
  py::object type = py::module_::import("gpusynth.errors").attr(name);
  py::object error = type(*args);
  PyErr_SetObject(type.ptr(), error.ptr());
  throw py::error_already_set();
}

}  // namespace gs::python

PYBIND11_MODULE(_core, m) {
  m.doc() = "gpusynth's libraries: problems, the compiler, the VM, the batch pipeline, search, records";
  gs::python::bind_problem(m);
  gs::python::bind_program(m);
  gs::python::bind_evaluate(m);
  gs::python::bind_search(m);
  gs::python::bind_records(m);
  gs::python::bind_samples(m);
}
