#include "python/options.h"

#include "base/host.h"

namespace gs::python {

vm::Limits run_limits(vm::Limits base, std::optional<u64> fuel, std::optional<u32> heap,
                      std::optional<u32> stack, std::optional<u32> call_depth) {
  if (fuel) base.fuel = *fuel;
  if (heap) base.heap_bytes = *heap;
  if (stack) base.stack_slots = *stack;
  if (call_depth) base.call_depth = *call_depth;
  if (const char* problem = vm::limits_problem(base)) throw py::value_error(problem);
  return base;
}

pipeline::Device parse_device(const std::string& text) {
  auto d = pipeline::parse_device(text);
  if (!d) throw py::value_error("device must be cpu, cuda or auto, not '" + text + "'");
  return *d;
}

u32 checked_threads(u32 threads) {
  const u32 most = usable_cpus();
  if (threads > most)
    throw py::value_error("threads must be in [0, " + std::to_string(most) + "] (0: every usable CPU), not " +
                          std::to_string(threads));
  return threads;
}

compiler::Language parse_language(const std::string& text) {
  if (text == "syn") return compiler::Language::Syn;
  if (text == "python") return compiler::Language::Python;
  throw py::value_error("language must be syn or python, not '" + text + "'");
}

}  // namespace gs::python
