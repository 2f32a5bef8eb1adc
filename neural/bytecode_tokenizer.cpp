#include "neural/bytecode_tokenizer.h"

#include <algorithm>
#include <cstring>

#include "neural/literal_text.h"
#include "vm/bytecode.h"
#include "vm/opcodes.h"
#include "vm/program.h"
#include "vm/verifier.h"

namespace gs::neural {
namespace {

constexpr size_t kMaxLiteralBytes = 1u << 20;

// A container's bytes in 8-byte-aligned storage, as views and the verifier need.
struct Aligned {
  std::vector<u64> words;
  u64 size = 0;
  explicit Aligned(std::span<const u8> bytes) : words((bytes.size() + 7) / 8), size(bytes.size()) {
    if (!bytes.empty()) std::memcpy(words.data(), bytes.data(), bytes.size());
  }
  const u8* data() const { return reinterpret_cast<const u8*>(words.data()); }
};

vm::VerifyResult verify(const u8* bytes, u64 size, vm::ProgramView* view) {
  // Enough for any function that fits in size bytes.
  u64 words = std::min<u64>(size / 4 + 1, vm::kMaxCodeWords);
  std::vector<u32> scratch(vm::verifier_scratch_words(u32(words)) + 2);
  return vm::verify_program(bytes, size, scratch.data(), u32(scratch.size()), view);
}

void append_signed(const Vocabulary& v, i64 x, TokenSeq* out) {
  if (x < 0) out->push_back(v.marker(Marker::NEG));
  append_number(v, x < 0 ? 0 - u64(x) : u64(x), out);
}

void append_constant(const Vocabulary& v, u64 bits, TokenSeq* out) {
  std::string as_int = std::to_string(i64(bits));
  double x;
  std::memcpy(&x, &bits, 8);
  std::string as_float = shortest_float_text(x);
  double back;
  u64 back_bits = 0;
  if (parse_float_text(as_float, &back)) std::memcpy(&back_bits, &back, 8);
  if (back_bits == bits && as_float.size() < as_int.size()) {
    out->push_back(v.marker(Marker::CONST_FLOAT));
    append_bytes(v, as_float, out);
    out->push_back(v.marker(Marker::LIT_END));
  } else {
    out->push_back(v.marker(Marker::CONST_INT));
    append_signed(v, i64(bits), out);
  }
}

// The deepest operand stack of function fi by the verifier's analysis (of a verified program).
u32 deepest_stack(const vm::ProgramView& p, u32 fi) {
  const vm::FunctionRecord& f = p.functions[fi];
  std::vector<u32> scratch(vm::verifier_scratch_words(f.code_words) + 2);
  vm::CodeShape shape{p.code + f.code_start,
                      f.code_words,
                      f.result_count,
                      &p.functions[0].param_count,
                      &p.functions[0].result_count,
                      sizeof(vm::FunctionRecord)};
  u32 deepest = 0;
  vm::analyse_stack(shape, vm::kMaxFrameStack, scratch.data(), u32(scratch.size()), &deepest);
  return deepest;
}

// ---- decoding ---------------------------------------------------------------------------------

struct Function {
  u32 name = 0;
  std::vector<u8> params, results;
  u32 locals = 0;
  i32 max_stack = -1;  // -1: the verifier's analysis decides
  std::vector<u32> code;
};

struct Parsed {
  std::vector<u64> constants;
  std::vector<std::string> strings;
  std::vector<Function> functions;
};

class Parser {
 public:
  Parser(const TokenSeq& ids, size_t names) : ids_(ids), names_(names) {}

  bool parse(Parsed* p, std::string* error) {
    if (at_ < ids_.size() && ids_[at_] == v_.bos()) ++at_;
    while (peek(v_.marker(Marker::CONST_INT)) || peek(v_.marker(Marker::CONST_FLOAT))) {
      if (p->constants.size() == vm::kMaxConstants) return fail("too many constants", error);
      u64 bits;
      if (!constant(&bits, error)) return false;
      p->constants.push_back(bits);
    }
    while (peek(v_.marker(Marker::LIT_STR))) {
      if (p->strings.size() == vm::kMaxStrings) return fail("too many string literals", error);
      ++at_;
      std::string s;
      if (!read_bytes_until_end(v_, ids_, &at_, &s, kMaxLiteralBytes))
        return fail("string literal: bytes and LIT_END expected", error);
      p->strings.push_back(std::move(s));
    }
    u32 code_words = 0;
    while (peek(v_.marker(Marker::FUNC))) {
      if (p->functions.size() == kMaxFunctions) return fail("too many functions", error);
      Function f;
      if (!function(&f, &code_words, error)) return false;
      p->functions.push_back(std::move(f));
    }
    if (p->functions.empty()) return fail("FUNC expected", error);
    if (at_ < ids_.size() && ids_[at_] != v_.eos()) return fail("unexpected token", error);
    return true;
  }

 private:
  bool peek(TokenId t) const { return at_ < ids_.size() && ids_[at_] == t; }

  bool fail(const std::string& why, std::string* error) const {
    *error = "token " + std::to_string(at_);
    if (at_ < ids_.size()) *error += " (" + v_.spell(ids_[at_]) + ")";
    *error += ": " + why;
    return false;
  }

  bool signed_number(i64 lo, i64 hi, i64* x) {
    bool neg = peek(v_.marker(Marker::NEG));
    if (neg) ++at_;
    u64 m;
    if (!read_number(v_, ids_, &at_, &m)) return false;
    if (neg ? m > u64(0) - u64(lo) : m > u64(hi)) return false;
    *x = neg ? i64(0 - m) : i64(m);
    return true;
  }

  bool constant(u64* bits, std::string* error) {
    bool is_float = ids_[at_++] == v_.marker(Marker::CONST_FLOAT);
    if (!is_float) {
      i64 x;
      if (!signed_number(INT64_MIN, INT64_MAX, &x))
        return fail("int constant: a 64-bit value expected", error);
      *bits = u64(x);
      return true;
    }
    std::string text;
    double x;
    if (!read_bytes_until_end(v_, ids_, &at_, &text, 64) || !parse_float_text(text, &x))
      return fail("float constant: its text and LIT_END expected", error);
    std::memcpy(bits, &x, 8);
    return true;
  }

  bool types(std::vector<u8>* out, size_t max, TokenId end, std::string* error) {
    while (at_ < ids_.size() && v_.in(ids_[at_], Section::Type)) {
      if (out->size() == max) return fail("too many parameter or result types", error);
      out->push_back(u8(kValueTypes[ids_[at_++] - v_.base(Section::Type)]));
    }
    if (!peek(end))
      return fail(std::string(end == v_.marker(Marker::RESULTS) ? "RESULTS" : "LOCALS") + " expected", error);
    ++at_;
    return true;
  }

  bool function(Function* f, u32* code_words, std::string* error) {
    ++at_;  // FUNC
    if (at_ >= ids_.size() || !v_.in(ids_[at_], Section::Function) ||
        u32(ids_[at_] - v_.base(Section::Function)) >= names_)
      return fail("a function name F<i> from the name table expected", error);
    f->name = u32(ids_[at_++] - v_.base(Section::Function));
    if (!types(&f->params, vm::kMaxParams, v_.marker(Marker::RESULTS), error)) return false;
    if (!types(&f->results, vm::kMaxResults, v_.marker(Marker::LOCALS), error)) return false;
    u64 locals;
    if (!read_number(v_, ids_, &at_, &locals) || locals > vm::kMaxLocals)
      return fail("a local count up to " + std::to_string(vm::kMaxLocals) + " expected", error);
    f->locals = u32(locals);
    if (peek(v_.marker(Marker::MAX_STACK))) {
      ++at_;
      u64 depth;
      if (!read_number(v_, ids_, &at_, &depth) || depth > vm::kMaxFrameStack)
        return fail("a max_stack up to " + std::to_string(vm::kMaxFrameStack) + " expected", error);
      f->max_stack = i32(depth);
    }
    while (at_ < ids_.size() && v_.in(ids_[at_], Section::Opcode)) {
      if (++*code_words > vm::kMaxCodeWords) return fail("too many instructions", error);
      vm::Op op = vm::Op(ids_[at_++] - v_.base(Section::Opcode));
      vm::OperandKind kind = vm::op_info(op).operand;
      u32 operand = 0;
      if (kind == vm::OperandKind::IMM) {
        i64 x;
        if (!signed_number(vm::kMinImm, vm::kMaxImm, &x))
          return fail("a 24-bit signed operand expected", error);
        operand = u32(x) & vm::kMaxOperand;
      } else if (kind != vm::OperandKind::NONE) {
        u64 x;
        if (!read_number(v_, ids_, &at_, &x) || x > vm::kMaxOperand)
          return fail("a 24-bit operand expected", error);
        operand = u32(x);
      }
      f->code.push_back(vm::encode(op, operand));
    }
    return true;
  }

  const Vocabulary& v_ = Vocabulary::get();
  const TokenSeq& ids_;
  size_t names_;
  size_t at_ = 0;
};

// Lays the parsed parts out as the compiler does (compiler/compile_core.h write_container),
// with max_stack from the verifier's own stack analysis.
DecodedBytecode build(const Parsed& p, std::span<const std::string> names) {
  DecodedBytecode out;
  vm::Header h{};
  u32 magic = vm::kMagic;
  std::memcpy(h.magic, &magic, 4);
  h.version = vm::kBytecodeVersion;
  h.function_count = u32(p.functions.size());
  h.constant_count = u32(p.constants.size());
  h.string_count = u32(p.strings.size());
  u64 image = 0, name_bytes = 0, code_words = 0;
  for (const std::string& s : p.strings) image += 8 + ((s.size() + 7) & ~size_t(7));
  for (const Function& f : p.functions) name_bytes += names[f.name].size(), code_words += f.code.size();
  if (image + name_bytes + 8 * p.constants.size() > vm::kMaxProgramBytes) return {{}, "container too large"};
  h.string_image_bytes = u32(image);
  h.name_bytes = u32(name_bytes);
  h.code_words = u32(code_words);
  vm::Layout l = vm::layout_of(h);
  if (l.total > vm::kMaxProgramBytes) return {{}, "container too large"};
  h.total_bytes = u32(l.total);

  std::vector<u64> words((l.total + 7) / 8, 0);
  u8* b = reinterpret_cast<u8*>(words.data());
  std::memcpy(b, &h, sizeof h);
  u32 name_at = 0, code_at = 0;
  for (size_t i = 0; i < p.functions.size(); ++i) {
    const Function& f = p.functions[i];
    const std::string& name = names[f.name];
    vm::FunctionRecord r{};
    r.code_start = code_at;
    r.code_words = u32(f.code.size());
    r.name_offset = name_at;
    r.name_length = u16(std::min<size_t>(name.size(), 0xffff));
    r.param_count = u8(f.params.size());
    r.result_count = u8(f.results.size());
    r.local_count = u16(f.locals);
    std::copy(f.params.begin(), f.params.end(), r.types);
    std::copy(f.results.begin(), f.results.end(), r.types + f.params.size());
    std::memcpy(b + l.functions + i * sizeof r, &r, sizeof r);
    std::memcpy(b + l.names + name_at, name.data(), name.size());
    if (!f.code.empty()) std::memcpy(b + l.code + u64(code_at) * 4, f.code.data(), f.code.size() * 4);
    name_at += u32(name.size());
    code_at += u32(f.code.size());
  }
  if (!p.constants.empty()) std::memcpy(b + l.constants, p.constants.data(), p.constants.size() * 8);
  u32 at = 0;
  for (size_t k = 0; k < p.strings.size(); ++k) {
    const std::string& s = p.strings[k];
    std::memcpy(b + l.string_offsets + k * 4, &at, 4);
    u32 len = u32(s.size());
    std::memcpy(b + l.string_image + at, &len, 4);
    std::memcpy(b + l.string_image + at + 4, &len, 4);
    std::memcpy(b + l.string_image + at + 8, s.data(), s.size());
    at += 8 + u32((s.size() + 7) & ~size_t(7));
  }

  // max_stack: each function's deepest stack, once its operands are known to be in range.
  vm::ProgramView view;
  if (!vm::view_program(b, l.total, &view)) return {{}, "internal error: container layout"};
  std::vector<u32> scratch(vm::verifier_scratch_words(std::max<u32>(h.code_words, 1)) + 2);
  for (u32 fi = 0; fi < h.function_count; ++fi) {
    auto* r = reinterpret_cast<vm::FunctionRecord*>(b + l.functions + u64(fi) * sizeof(vm::FunctionRecord));
    vm::VerifyResult bad{};
    for (u32 pc = 0; pc < r->code_words && bad.ok(); ++pc) {
      u32 word = view.code[r->code_start + pc];
      if (!vm::operand_fits(view, *r, word)) bad = {vm::VerifyError::BAD_OPERAND, fi, pc};
    }
    u32 deepest = 0;
    if (bad.ok() && r->param_count <= r->local_count) {
      vm::CodeShape shape{view.code + r->code_start,
                          r->code_words,
                          r->result_count,
                          &view.functions[0].param_count,
                          &view.functions[0].result_count,
                          sizeof(vm::FunctionRecord)};
      bad = vm::analyse_stack(shape, vm::kMaxFrameStack, scratch.data(), u32(scratch.size()), &deepest);
      bad.function = fi;
    }
    if (!bad.ok()) return {{}, "verifier: " + vm::describe(bad)};
    r->max_stack = u16(p.functions[fi].max_stack >= 0 ? u32(p.functions[fi].max_stack) : deepest);
  }
  u32 sum = vm::container_checksum(b, l.checksum);
  std::memcpy(b + l.checksum, &sum, 4);
  vm::VerifyResult r = verify(b, l.total, &view);
  if (!r.ok()) return {{}, "verifier: " + vm::describe(r)};
  out.bytecode.assign(b, b + l.total);
  return out;
}

}  // namespace

std::vector<std::string> function_names_of(std::span<const u8> bytecode) {
  Aligned a(bytecode);
  vm::ProgramView view;
  std::vector<std::string> names;
  if (!vm::view_program(a.data(), a.size, &view)) return names;
  for (u32 i = 0; i < view.function_count(); ++i) {
    const vm::FunctionRecord& f = view.functions[i];
    if (u64(f.name_offset) + f.name_length > view.header->name_bytes) return {};
    names.emplace_back(view.names + f.name_offset, f.name_length);
  }
  return names;
}

BytecodeTokens encode_bytecode(std::span<const u8> bytecode, std::span<const std::string> function_names) {
  const Vocabulary& v = Vocabulary::get();
  Aligned a(bytecode);
  vm::ProgramView p;
  vm::VerifyResult verdict = verify(a.data(), a.size, &p);
  if (!verdict.ok()) return {{}, "not a valid container: " + vm::describe(verdict)};
  if (p.function_count() > kMaxFunctions)
    return {{}, "more than " + std::to_string(kMaxFunctions) + " functions"};

  BytecodeTokens out;
  TokenSeq& ids = out.ids;
  ids.push_back(v.bos());
  for (u32 k = 0; k < p.header->constant_count; ++k) append_constant(v, p.constants[k], &ids);
  for (u32 k = 0; k < p.header->string_count; ++k) {
    const u8* object = p.string_image + p.string_offsets[k];
    u32 len;
    std::memcpy(&len, object, 4);
    ids.push_back(v.marker(Marker::LIT_STR));
    append_bytes(v, std::string_view(reinterpret_cast<const char*>(object + 8), len), &ids);
    ids.push_back(v.marker(Marker::LIT_END));
  }
  for (u32 i = 0; i < p.function_count(); ++i) {
    const vm::FunctionRecord& f = p.functions[i];
    std::string_view name(p.names + f.name_offset, f.name_length);
    auto it = std::find(function_names.begin(), function_names.end(), name);
    if (it == function_names.end())
      return {{}, "function '" + std::string(name) + "' is not in the name table"};
    if (size_t(it - function_names.begin()) >= kMaxFunctions)
      return {{}, "function '" + std::string(name) + "' is beyond the vocabulary's F tokens"};
    ids.push_back(v.marker(Marker::FUNC));
    ids.push_back(v.function(u32(it - function_names.begin())));
    for (u32 k = 0; k < f.param_count; ++k) ids.push_back(v.type(f.param_type(k)));
    ids.push_back(v.marker(Marker::RESULTS));
    for (u32 k = 0; k < f.result_count; ++k) ids.push_back(v.type(f.result_type(k)));
    ids.push_back(v.marker(Marker::LOCALS));
    append_number(v, f.local_count, &ids);
    if (f.max_stack != deepest_stack(p, i)) {
      ids.push_back(v.marker(Marker::MAX_STACK));
      append_number(v, f.max_stack, &ids);
    }
    for (u32 pc = 0; pc < f.code_words; ++pc) {
      u32 word = p.code[f.code_start + pc];
      vm::Op op = vm::opcode_of(word);
      ids.push_back(v.op(op));
      vm::OperandKind kind = vm::op_info(op).operand;
      if (kind == vm::OperandKind::IMM)
        append_signed(v, vm::signed_operand_of(word), &ids);
      else if (kind != vm::OperandKind::NONE)
        append_number(v, vm::operand_of(word), &ids);
    }
  }
  ids.push_back(v.eos());

  // Canonical layout only: what decoding gives back must be the container itself.
  DecodedBytecode back = decode_bytecode(ids, function_names);
  if (!back.ok()) return {{}, "container does not decode back: " + back.error};
  if (back.bytecode.size() != bytecode.size())
    return {{}, "container is not in the compiler's canonical layout (its size differs)"};
  auto diff = std::mismatch(back.bytecode.begin(), back.bytecode.end(), bytecode.begin());
  if (diff.first != back.bytecode.end())
    return {{},
            "container is not in the compiler's canonical layout (names or padding): byte " +
                std::to_string(diff.first - back.bytecode.begin()) + " differs"};
  return out;
}

DecodedBytecode decode_bytecode(const TokenSeq& ids, std::span<const std::string> function_names) {
  Parsed parsed;
  std::string error;
  Parser parser(ids, std::min<size_t>(function_names.size(), kMaxFunctions));
  if (!parser.parse(&parsed, &error)) return {{}, error};
  return build(parsed, function_names);
}

}  // namespace gs::neural
