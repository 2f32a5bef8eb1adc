// Model-sample helpers (suites/samples.h): the code in a model's completion, and pass@k.
#include "suites/samples.h"

#include <pybind11/stl.h>

#include "python/bindings.h"
#include "python/values.h"

namespace gs::python {

void bind_samples(py::module_& m) {
  m.def(
      "extract_code",
      [](py::handle completion) {
        return source_text(suites::extract_code(source_bytes(completion, "completion")));
      },
      py::arg("completion"),
      "The program in a model's completion: its first fenced Markdown code block, else the text from the "
      "first line that starts a function, else the text as it is.");
  m.def("pass_at_k", &suites::pass_at_k, py::arg("n"), py::arg("c"), py::arg("k"),
        "The unbiased estimator of pass@k (Chen et al. 2021) for n samples of which c are correct; None "
        "when n < k.");
}

}  // namespace gs::python
