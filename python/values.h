// Python values to and from Syn values (docs/python.md "Values"): int, float, bool, str (a Syn
// string's byte N is the character U+00NN, as in JSON; bytes are accepted too), lists (and
// tuples) for arrays; several results come back as a tuple, none as None.
#pragma once
#include <pybind11/pybind11.h>

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "vm/value.h"

namespace gs::python {

namespace py = pybind11;

// A Python value as a Syn value of type t; TypeError / ValueError naming `what` ("argument 2:
// element 3: expected int, found str").
vm::Value to_syn(py::handle v, Type t, const std::string& what);
// The arguments of a call: a list or tuple with one value per type.
std::vector<vm::Value> to_arguments(py::handle args, std::span<const Type> types);

py::object to_python(const vm::Value& v);
// A call's results: None for none, the value for one, a tuple for several.
py::object to_python(const std::vector<vm::Value>& results);

// A Python value as JSON (dicts with str keys, lists, tuples, str, bytes, int, float, bool,
// None) for the problem format's parser; ValueError naming `what` for anything else, an int
// beyond 64 bits, or a float that JSON cannot hold (nan, inf).
nlohmann::json to_json(py::handle v, const std::string& what);

// Program source: bytes that are mostly UTF-8 text but may hold any byte in a string literal
// (a generator's, say). They come back as str decoded with the "surrogateescape" handler, so a
// byte that is not UTF-8 survives the round trip; str (encoded back the same way) or bytes go in.
py::str source_text(std::string_view bytes);
std::string source_bytes(py::handle source, const std::string& what);

}  // namespace gs::python
