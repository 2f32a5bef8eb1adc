// gpusynth.compile, gpusynth.Program and gpusynth.run: one program compiled by the traditional
// compiler and run by the VM, as `gpusynth compile` and `gpusynth run` do.
#include "vm/program.h"

#include <pybind11/stl.h>

#include "compiler/compiler.h"
#include "python/bindings.h"
#include "python/options.h"
#include "python/values.h"
#include "vm/disasm.h"
#include "vm/runner.h"

namespace gs::python {

namespace {

struct Program {
  vm::Program program;
  std::string source;  // empty when it came as bytecode
};

Program compile_source(const std::string& source, const std::string& path, compiler::Language language) {
  compiler::Output out;
  {
    py::gil_scoped_release unlocked;
    compiler::CompileLimits limits;
    limits.language = language;
    out = compiler::compile(source, limits);
  }
  if (!out.ok()) {
    py::list diagnostics;
    for (const compiler::Diagnostic& d : out.diagnostics) {
      u32 line, column;
      compiler::line_and_column(source, d.pos, &line, &column);
      diagnostics.append(py::make_tuple(line, column, source_text(compiler::message(d, source))));
    }
    std::string text = compiler::render(out.diagnostics, path, source);
    while (!text.empty() && text.back() == '\n') text.pop_back();
    raise("CompileError", py::make_tuple(source_text(text), diagnostics));
  }
  return {*vm::Program::load(out.bytecode), source};
}

Program from_bytecode(const py::bytes& bytes) {
  std::string data = bytes;
  vm::VerifyResult verdict;
  auto program = vm::Program::load({reinterpret_cast<const u8*>(data.data()), data.size()}, &verdict);
  if (!program) raise("BytecodeError", py::make_tuple("invalid bytecode: " + vm::describe(verdict)));
  return {std::move(*program), {}};
}

u32 function_index(const vm::Program& p, const std::string& name) {
  i32 fn = p.find(name);
  if (fn < 0) throw py::key_error("no function named '" + name + "'");
  return u32(fn);
}

py::object run(py::object program, py::object args, const std::string& entry, std::optional<u64> fuel,
               std::optional<u32> heap, std::optional<u32> stack, std::optional<u32> call_depth) {
  const vm::Limits limits = run_limits({}, fuel, heap, stack, call_depth);
  std::optional<Program> compiled;
  const Program* p;
  if (py::isinstance<py::str>(program) || py::isinstance<py::bytes>(program)) {
    compiled = compile_source(source_bytes(program, "program"), "<source>", compiler::Language::Syn);
    p = &*compiled;
  } else {
    p = &py::cast<const Program&>(program);
  }
  const u32 fn = function_index(p->program, entry);
  const vm::FunctionRecord& f = p->program.function(fn);
  std::vector<Type> types;
  for (u32 k = 0; k < f.param_count; ++k) types.push_back(f.param_type(k));
  std::vector<vm::Value> values = to_arguments(args, types);
  vm::Outcome outcome;
  {
    py::gil_scoped_release unlocked;
    outcome = vm::Runner(limits).run(p->program, fn, values);
  }
  if (outcome.trap != vm::Trap::NONE) {
    const std::string name = vm::trap_name(outcome.trap);
    raise("Trap", py::make_tuple(entry + ": trap: " + name + " (after " +
                                     std::to_string(outcome.instructions) + " instructions)",
                                 name, outcome.instructions));
  }
  return to_python(outcome.results);
}

}  // namespace

void bind_program(py::module_& m) {
  py::class_<Program>(m, "Program", "A verified bytecode program (docs/bytecode.md).")
      .def_static("from_bytecode", &from_bytecode, py::arg("data"),
                  "Loads and verifies a bytecode container. Raises BytecodeError.")
      .def_property_readonly("functions",
                             [](const Program& p) {
                               std::vector<std::string> names;
                               for (u32 k = 0; k < p.program.function_count(); ++k)
                                 names.emplace_back(p.program.function_name(k));
                               return names;
                             })
      .def(
          "signature",
          [](const Program& p, const std::string& name) {
            return p.program.signature(function_index(p.program, name));
          },
          py::arg("name") = "solve")
      .def_property_readonly("bytecode",
                             [](const Program& p) {
                               auto b = p.program.bytes();
                               return py::bytes(reinterpret_cast<const char*>(b.data()), b.size());
                             })
      .def_property_readonly("source", [](const Program& p) { return source_text(p.source); })
      .def("disassemble", [](const Program& p) { return vm::disassemble(p.program); })
      .def("__repr__", [](const Program& p) {
        std::string s = "<gpusynth.Program";
        for (u32 k = 0; k < p.program.function_count(); ++k) s += (k ? ", " : " ") + p.program.signature(k);
        return s + ">";
      });
  m.def(
      "compile",
      [](py::handle source, const std::string& path, const std::string& language) {
        return compile_source(source_bytes(source, "source"), path, parse_language(language));
      },
      py::arg("source"), py::arg("path") = "<source>", py::kw_only(), py::arg("language") = "syn",
      "Compiles Syn source (language='python': the typed-Python subset, docs/python.md) to a Program. "
      "Raises CompileError (its diagnostics: (line, column, message)).");
  m.def("run", &run, py::arg("program"), py::arg("args") = py::tuple(), py::kw_only(),
        py::arg("entry") = "solve", py::arg("fuel") = py::none(), py::arg("heap") = py::none(),
        py::arg("stack") = py::none(), py::arg("call_depth") = py::none(),
        "Runs a function of a Program (or of Syn source) on Python arguments and returns its result "
        "(a tuple for several, None for none). Raises Trap (its .trap names it).");
}

}  // namespace gs::python
