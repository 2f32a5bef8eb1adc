// Keyword arguments the API's functions share — run limits, device, threads — checked against
// the ranges every command uses (vm/limits.h, docs/cli.md); ValueError for one out of range.
#pragma once

#include <pybind11/pybind11.h>

#include <optional>
#include <string>

#include "pipeline/pipeline.h"
#include "vm/limits.h"

namespace gs::python {

namespace py = pybind11;

// base with the given limits replaced.
vm::Limits run_limits(vm::Limits base, std::optional<u64> fuel, std::optional<u32> heap,
                      std::optional<u32> stack, std::optional<u32> call_depth);

// "cpu", "cuda" or "auto".
pipeline::Device parse_device(const std::string& text);
// "syn" or "python" (the typed subset, docs/python.md); ValueError otherwise.
compiler::Language parse_language(const std::string& text);

// CPU worker threads: 0 (every CPU the process may use) up to that number.
u32 checked_threads(u32 threads);

}  // namespace gs::python
