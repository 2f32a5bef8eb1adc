#include "python/values.h"

#include <cmath>

#include "python/bindings.h"
#include "suites/json_values.h"

namespace gs::python {

namespace {

std::string python_type(py::handle v) { return py::str(py::type::handle_of(v).attr("__name__")); }

[[noreturn]] void mismatch(py::handle v, Type t, const std::string& what) {
  throw py::type_error(what + ": expected " + type_name(t) + ", found " + python_type(v));
}

// A str of characters up to U+00FF, or bytes, as Syn's bytes.
bool syn_bytes(py::handle v, std::string* out) {
  if (py::isinstance<py::bytes>(v)) {
    *out = py::cast<std::string>(v);
    return true;
  }
  if (!py::isinstance<py::str>(v)) return false;
  PyObject* latin1 = PyUnicode_AsLatin1String(v.ptr());
  if (latin1 == nullptr) {  // a character beyond U+00FF
    PyErr_Clear();
    return false;
  }
  *out = py::cast<std::string>(py::reinterpret_steal<py::bytes>(latin1));
  return true;
}

i64 int64_of(py::handle v, const std::string& what) {
  int overflow = 0;
  long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
  if (overflow != 0) throw py::value_error(what + ": " + std::string(py::str(v)) + " is beyond 64 bits");
  if (x == -1 && PyErr_Occurred()) throw py::error_already_set();
  return x;
}

}  // namespace

vm::Value to_syn(py::handle v, Type t, const std::string& what) {
  const bool is_bool = py::isinstance<py::bool_>(v);
  switch (t) {
    case Type::Int:
      if (is_bool || !py::isinstance<py::int_>(v)) mismatch(v, t, what);
      return vm::Value::of_int(int64_of(v, what));
    case Type::Float:
      if (is_bool || !(py::isinstance<py::float_>(v) || py::isinstance<py::int_>(v))) mismatch(v, t, what);
      return vm::Value::of_float(py::cast<double>(v));
    case Type::Bool:
      if (!is_bool) mismatch(v, t, what);
      return vm::Value::of_bool(py::cast<bool>(v));
    case Type::Str: {
      std::string bytes;
      if (syn_bytes(v, &bytes)) return vm::Value::of_str(std::move(bytes));
      if (py::isinstance<py::str>(v))
        throw py::value_error(what + ": a Syn string holds bytes: characters up to U+00FF");
      mismatch(v, t, what);
    }
    default: break;
  }
  if (!is_array(t) || !(py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v))) mismatch(v, t, what);
  std::vector<vm::Value> items;
  size_t k = 0;
  for (py::handle item : v)
    items.push_back(to_syn(item, element_of(t), what + ": element " + std::to_string(k++)));
  return vm::Value::of_array(element_of(t), std::move(items));
}

std::vector<vm::Value> to_arguments(py::handle args, std::span<const Type> types) {
  if (!(py::isinstance<py::list>(args) || py::isinstance<py::tuple>(args)))
    throw py::type_error("args: expected a list or tuple of arguments, found " + python_type(args));
  if (py::len(args) != types.size())
    throw py::type_error("args: expected " + std::to_string(types.size()) + " argument(s), found " +
                         std::to_string(py::len(args)));
  std::vector<vm::Value> values;
  size_t k = 0;
  for (py::handle a : args) {
    values.push_back(to_syn(a, types[k], "argument " + std::to_string(k + 1)));
    ++k;
  }
  return values;
}

py::object to_python(const vm::Value& v) {
  switch (v.type) {
    case Type::Int: return py::int_(v.i);
    case Type::Float: return py::float_(v.f);
    case Type::Bool: return py::bool_(v.i != 0);
    case Type::Str:
      return py::reinterpret_steal<py::object>(
          PyUnicode_DecodeLatin1(v.s.data(), Py_ssize_t(v.s.size()), nullptr));
    default: break;
  }
  py::list items;
  for (const vm::Value& item : v.items) items.append(to_python(item));
  return items;
}

py::object to_python(const std::vector<vm::Value>& results) {
  if (results.empty()) return py::none();
  if (results.size() == 1) return to_python(results[0]);
  py::tuple t(results.size());
  for (size_t k = 0; k < results.size(); ++k) t[k] = to_python(results[k]);
  return t;
}

py::str source_text(std::string_view bytes) {
  PyObject* text = PyUnicode_DecodeUTF8(bytes.data(), Py_ssize_t(bytes.size()), "surrogateescape");
  if (text == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(text);
}

std::string source_bytes(py::handle source, const std::string& what) {
  if (py::isinstance<py::bytes>(source)) return py::cast<std::string>(source);
  if (!py::isinstance<py::str>(source))
    throw py::type_error(what + ": expected Syn source as str or bytes, found " + python_type(source));
  PyObject* bytes = PyUnicode_AsEncodedString(source.ptr(), "utf-8", "surrogateescape");
  if (bytes == nullptr) throw py::error_already_set();
  return py::cast<std::string>(py::reinterpret_steal<py::bytes>(bytes));
}

nlohmann::json to_json(py::handle v, const std::string& what) {
  if (v.is_none()) return nullptr;
  if (py::isinstance<py::bool_>(v)) return py::cast<bool>(v);
  if (py::isinstance<py::int_>(v)) return int64_of(v, what);
  if (py::isinstance<py::float_>(v)) {
    double x = py::cast<double>(v);
    if (!std::isfinite(x))
      throw py::value_error(what + ": " + std::string(py::str(v)) + " cannot be written as JSON");
    return x;
  }
  if (py::isinstance<py::str>(v) || py::isinstance<py::bytes>(v)) {
    std::string bytes;
    if (!syn_bytes(v, &bytes))
      throw py::value_error(what + ": a Syn string holds bytes: characters up to U+00FF");
    return suites::utf8_of_bytes(bytes);  // JSON text is UTF-8: byte N is the character U+00NN
  }
  if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    nlohmann::json a = nlohmann::json::array();
    size_t k = 0;
    for (py::handle item : v) a.push_back(to_json(item, what + "[" + std::to_string(k++) + "]"));
    return a;
  }
  if (py::isinstance<py::dict>(v)) {
    nlohmann::json o = nlohmann::json::object();
    for (auto [key, value] : py::cast<py::dict>(v)) {
      if (!py::isinstance<py::str>(key))
        throw py::type_error(what + ": a key must be a str, not " + python_type(key));
      std::string k = py::cast<std::string>(key);
      o[k] = to_json(value, what + "." + k);
    }
    return o;
  }
  throw py::type_error(what + ": cannot be written as JSON: " + python_type(v));
}

}  // namespace gs::python
