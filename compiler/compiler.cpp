#include "compiler/compiler.h"

#include <cstring>

namespace gs::compiler {

CompileStatus Compiler::compile_in_place(std::string_view source, u32* size) {
  // Sources beyond the limit are refused before any memory is sized from them.
  u32 len = u32(std::min<size_t>(source.size(), size_t(limits_.max_source_bytes) + 1));
  u64 bytes = workspace_bytes(len, limits_);
  if (buffer_.size() * 8 < bytes) buffer_.resize((bytes + 7) / 8);
  carve_workspace(reinterpret_cast<u8*>(buffer_.data()), source.data(), len, limits_, &workspace_);
  if (source.size() > limits_.max_source_bytes) {
    workspace_.diagnostics.add(Code::SOURCE_TOO_LARGE, 0, 0, u32(std::min<size_t>(source.size(), UINT32_MAX)),
                               limits_.max_source_bytes);
    return CompileStatus::ERRORS;
  }
  if (output_.empty()) output_.resize(512);
  CompileStatus s =
      compile_core(workspace_, reinterpret_cast<u8*>(output_.data()), u32(output_.size() * 8), size);
  if (s == CompileStatus::OUTPUT_TOO_SMALL) {
    output_.resize((*size + 7) / 8);
    vm::Header h = container_header(workspace_);
    write_container(workspace_, h, reinterpret_cast<u8*>(output_.data()));
    s = CompileStatus::OK;
  }
  return s;
}

Output Compiler::compile(std::string_view source) {
  Output out;
  u32 size = 0;
  if (compile_in_place(source, &size) == CompileStatus::OK) {
    out.bytecode.assign(bytes(), bytes() + size);
    out.syntax_nodes = workspace_.node_count - 1;  // less node 0, the "none" sentinel
  } else {
    out.diagnostics.assign(diagnostics(), diagnostics() + diagnostic_count());
  }
  return out;
}

void line_and_column(std::string_view source, u32 pos, u32* line, u32* column) {
  u32 l = 1, start = 0;
  for (u32 i = 0; i < pos && i < source.size(); ++i)
    if (source[i] == '\n') ++l, start = i + 1;
  *line = l;
  *column = pos - start + 1;
}

// The span's text, quoted, with bytes that would garble a terminal escaped.
static std::string quoted_span(const Diagnostic& d, std::string_view source) {
  if (d.len == 0 || d.pos >= source.size()) return "end of input";
  std::string s = "'";
  u32 n = std::min<u32>(d.len, u32(source.size()) - d.pos);
  for (u32 i = 0; i < n && i < 40; ++i) {
    unsigned char c = static_cast<unsigned char>(source[d.pos + i]);
    if (c == '\n') break;
    if (c < 0x20 || c >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      s += buf;
    } else {
      s += char(c);
    }
  }
  if (n > 40) s += "...";
  return s + "'";
}

static const char* format_of(Code c) {
  switch (c) {
#define DIAGNOSTIC(name, format) \
  case Code::name:               \
    return format;
#include "compiler/diagnostics.def"
#undef DIAGNOSTIC
  }
  return "unknown error";
}

std::string message(const Diagnostic& d, std::string_view source) {
  std::string out;
  for (const char* f = format_of(d.code); *f; ++f) {
    if (*f != '%' || f[1] == 0) {
      out += *f;
      continue;
    }
    switch (*++f) {
      case 's': out += quoted_span(d, source); break;
      case 'k': out += std::string("'") + token_text(Tok(d.a)) + "'"; break;
      case 't': out += type_name(Type(d.a)); break;
      case 'u': out += type_name(Type(d.b)); break;
      case 'a': out += std::to_string(d.a); break;
      case 'b': out += std::to_string(d.b); break;
      case 'T':
        for (u32 k = 0; k < d.b; ++k) {
          if (k) out += ", ";
          out += k < 4 ? type_name(Type((d.a >> (8 * k)) & 0xff)) : "...";
          if (k == 4) break;
        }
        break;
      default: out += '%', out += *f;
    }
  }
  return out;
}

std::string render(const Diagnostic& d, std::string_view path, std::string_view source) {
  u32 line, column;
  line_and_column(source, d.pos, &line, &column);
  std::string out = std::string(path) + ":" + std::to_string(line) + ":" + std::to_string(column) +
                    ": error: " + message(d, source) + "\n";
  u32 start = d.pos - (column - 1);
  if (start > source.size()) return out;
  size_t end = source.find('\n', start);
  std::string_view text = source.substr(start, (end == std::string_view::npos ? source.size() : end) - start);
  out += "    " + std::string(text) + "\n    ";
  for (u32 i = 0; i + 1 < column && i < text.size(); ++i) out += text[i] == '\t' ? '\t' : ' ';
  out += '^';
  for (u32 i = 1; i < d.len && column + i <= text.size(); ++i) out += '~';
  return out + "\n";
}

std::string render(const std::vector<Diagnostic>& ds, std::string_view path, std::string_view source) {
  std::string out;
  for (const Diagnostic& d : ds) out += render(d, path, source);
  return out;
}

}  // namespace gs::compiler
