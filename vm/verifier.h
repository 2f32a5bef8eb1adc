// The bytecode verifier: nothing runs before it accepts the program. It checks the container
// (sizes, limits, checksum), every function record, the string image, every operand, and — by
// abstract interpretation over each function's control flow — that the operand stack never
// underflows, never exceeds the function's declared max_stack, has one depth at every join,
// holds exactly the results at each RETURN, and that control never runs off a function's end.
//
// What it does not check is types: a hand-made program may treat an int as a reference, and
// the interpreter's heap checks turn that into bad_reference or a wrong value, never an access
// outside the execution's memory.
#pragma once

#include "vm/bytecode.h"
#include "vm/opcodes.h"

namespace gs::vm {

#define GS_VERIFY_ERRORS(X)                                                         \
  X(OK, "ok")                                                                       \
  X(BAD_SIZE, "the buffer is truncated, oversized or misaligned for its header")    \
  X(BAD_MAGIC, "not gpusynth bytecode (bad magic)")                                 \
  X(BAD_VERSION, "unsupported bytecode version")                                    \
  X(BAD_HEADER, "header field out of range")                                        \
  X(BAD_CHECKSUM, "checksum mismatch (corrupted bytecode)")                         \
  X(BAD_FUNCTION, "function record out of range")                                   \
  X(BAD_STRINGS, "string literal table or image malformed")                         \
  X(BAD_OPCODE, "unknown opcode")                                                   \
  X(BAD_OPERAND, "operand out of range")                                            \
  X(STACK_UNDERFLOW, "operand stack underflow")                                     \
  X(STACK_OVERFLOW, "operand stack exceeds the function's max_stack")               \
  X(STACK_MISMATCH, "different stack depths meet at a jump target")                 \
  X(BAD_RETURN, "RETURN with a stack depth other than the function's result count") \
  X(FALLS_OFF_END, "control runs past the end of the function")                     \
  X(SCRATCH_TOO_SMALL, "function too large for the verifier's scratch space")

enum class VerifyError : u8 {
#define GS_X(name, text) name,
  GS_VERIFY_ERRORS(GS_X)
#undef GS_X
};

GS_HD inline const char* verify_error_text(VerifyError e) {
  switch (e) {
#define GS_X(name, text) \
  case VerifyError::name: return text;
    GS_VERIFY_ERRORS(GS_X)
#undef GS_X
  }
  return "unknown verifier error";
}

struct VerifyResult {
  VerifyError error = VerifyError::OK;
  u32 function = 0;  // where, for errors inside a function
  u32 pc = 0;
  GS_HD bool ok() const { return error == VerifyError::OK; }
};

// Scratch a function of n instructions needs, in u32 words.
GS_HD constexpr u32 verifier_scratch_words(u32 n) { return 2 * n; }

GS_HD inline bool operand_fits(const ProgramView& p, const FunctionRecord& f, u32 word) {
  u32 arg = operand_of(word);
  auto type_in = [arg](Type a, Type b, Type c, Type d) {
    Type t = Type(arg);
    return arg <= 0xff && (t == a || t == b || t == c || t == d);
  };
  switch (op_info(opcode_of(word)).operand) {
    case OperandKind::NONE: return arg == 0;
    case OperandKind::IMM: return true;
    case OperandKind::CONST: return arg < p.header->constant_count;
    case OperandKind::STRING: return arg < p.header->string_count;
    case OperandKind::LOCAL: return arg < f.local_count;
    case OperandKind::TARGET: return arg < f.code_words;
    case OperandKind::FUNC: return arg < p.header->function_count;
    case OperandKind::COUNT: return arg <= kMaxFrameStack;
    case OperandKind::ELEM: return type_in(Type::Int, Type::Float, Type::Bool, Type::Str);
    case OperandKind::NUM: return type_in(Type::Int, Type::Float, Type::Int, Type::Float);
    case OperandKind::ORD: return type_in(Type::Int, Type::Float, Type::Str, Type::Str);
  }
  return false;
}

// What the stack analysis needs to know about a function's code: the verifier reads it from a
// program's records, the compiler from its own tables while it is still emitting.
struct CodeShape {
  const u32* code;
  u32 words;
  u32 own_results;
  const u8* callee_params;   // function f's parameter count is callee_params[f * stride]
  const u8* callee_results;  // likewise its result count
  u32 stride;                // bytes from one function's entry to the next
};

// Stack effect of one instruction whose operand is in range.
GS_HD inline void stack_effect(const CodeShape& c, u32 word, i32* pops, i32* pushes) {
  const OpInfo& info = op_info(opcode_of(word));
  auto resolve = [&](i32 e) -> i32 {
    if (e == N) return i32(operand_of(word));
    if (e == CALLEE_ARGS) return c.callee_params[operand_of(word) * c.stride];
    if (e == CALLEE_RESULTS) return c.callee_results[operand_of(word) * c.stride];
    if (e == OWN_RESULTS) return i32(c.own_results);
    return e;
  };
  *pops = resolve(info.pops);
  *pushes = resolve(info.pushes);
}

// Abstract interpretation of one function's operand stack. Writes the deepest stack reached
// to *max_depth; fails when it would exceed limit (the declared max_stack when verifying).
// Jump targets and CALL operands must already be in range.
GS_HD inline VerifyResult analyse_stack(const CodeShape& c, u32 limit, u32* scratch, u32 scratch_words,
                                        u32* max_depth) {
  u32 n = c.words;
  VerifyResult r{VerifyError::OK, 0, 0};
  if (scratch_words < verifier_scratch_words(n)) return {VerifyError::SCRATCH_TOO_SMALL, 0, 0};
  if (n == 0) return {VerifyError::FALLS_OFF_END, 0, 0};
  u32* depth = scratch;         // depth + 1 at each instruction; 0 = not reached yet
  u32* worklist = scratch + n;  // instructions reached but not yet analysed
  for (u32 i = 0; i < n; ++i) depth[i] = 0;
  u32 pending = 0, deepest = 0;
  depth[0] = 1;
  worklist[pending++] = 0;
  while (pending > 0) {
    u32 pc = worklist[--pending];
    u32 word = c.code[pc];
    Op op = opcode_of(word);
    i32 pops, pushes;
    stack_effect(c, word, &pops, &pushes);
    i32 d = i32(depth[pc]) - 1;
    r.pc = pc;
    if (d < pops) return r.error = VerifyError::STACK_UNDERFLOW, r;
    if (op == Op::RETURN && d != pops) return r.error = VerifyError::BAD_RETURN, r;
    i32 next = d - pops + pushes;
    if (u32(next) > limit) return r.error = VerifyError::STACK_OVERFLOW, r;
    if (u32(next) > deepest) deepest = u32(next);
    u32 successors[2];
    u32 count = 0;
    if (is_jump(op)) successors[count++] = operand_of(word);
    if (!ends_flow(op)) {
      if (pc + 1 >= n) return r.error = VerifyError::FALLS_OFF_END, r;
      successors[count++] = pc + 1;
    }
    for (u32 k = 0; k < count; ++k) {
      u32 s = successors[k];
      if (depth[s] == 0) {
        depth[s] = u32(next) + 1;
        worklist[pending++] = s;
      } else if (depth[s] != u32(next) + 1) {
        return r.error = VerifyError::STACK_MISMATCH, r;
      }
    }
  }
  *max_depth = deepest;
  r.pc = 0;
  return r;
}

GS_HD inline VerifyResult verify_header(const u8* bytes, u64 size, ProgramView* view) {
  if (size < sizeof(Header) + 4 || size > kMaxProgramBytes ||
      (reinterpret_cast<std::uintptr_t>(bytes) & 7u) != 0)
    return {VerifyError::BAD_SIZE};
  const auto* h = reinterpret_cast<const Header*>(bytes);
  if (magic_of(bytes) != kMagic) return {VerifyError::BAD_MAGIC};
  if (h->version != kBytecodeVersion) return {VerifyError::BAD_VERSION};
  if (h->flags != 0 || h->reserved != 0 || h->function_count == 0 || h->function_count > kMaxFunctions ||
      h->constant_count > kMaxConstants || h->string_count > kMaxStrings || h->code_words > kMaxCodeWords ||
      h->string_image_bytes % 8 != 0)
    return {VerifyError::BAD_HEADER};
  if (!view_program(bytes, size, view)) return {VerifyError::BAD_SIZE};
  if (container_checksum(bytes, size - 4) != *reinterpret_cast<const u32*>(bytes + size - 4))
    return {VerifyError::BAD_CHECKSUM};
  return {};
}

GS_HD inline VerifyResult verify_functions(const ProgramView& p) {
  u32 next_start = 0;
  for (u32 i = 0; i < p.function_count(); ++i) {
    const FunctionRecord& f = p.functions[i];
    bool ok = f.code_start == next_start && f.code_words >= 1 &&
              u64(f.code_start) + f.code_words <= p.header->code_words &&
              u64(f.name_offset) + f.name_length <= p.header->name_bytes && f.param_count <= kMaxParams &&
              f.result_count <= kMaxResults && f.param_count <= f.local_count &&
              f.local_count <= kMaxLocals && f.max_stack <= kMaxFrameStack;
    for (u32 k = 0; ok && k < kMaxParams + kMaxResults; ++k) {
      bool used = k < f.param_count || (k >= f.param_count && k < u32(f.param_count) + f.result_count);
      ok = used ? is_value_type(Type(f.types[k])) : f.types[k] == 0;
    }
    for (u32 k = 0; ok && k < sizeof f.reserved; ++k) ok = f.reserved[k] == 0;
    if (!ok) return {VerifyError::BAD_FUNCTION, i, 0};
    next_start += f.code_words;
  }
  if (next_start != p.header->code_words) return {VerifyError::BAD_FUNCTION, 0, 0};
  return {};
}

// String k must be the k-th object of the image, each a literal (capacity == length).
GS_HD inline VerifyResult verify_strings(const ProgramView& p) {
  u64 at = 0, image = p.header->string_image_bytes;
  for (u32 k = 0; k < p.header->string_count; ++k) {
    if (at + 8 > image || p.string_offsets[k] != at) return {VerifyError::BAD_STRINGS};
    const auto* h = reinterpret_cast<const u32*>(p.string_image + at);
    if (h[0] != h[1]) return {VerifyError::BAD_STRINGS};
    at += 8 + ((u64(h[0]) + 7) & ~u64(7));
  }
  if (at != image) return {VerifyError::BAD_STRINGS};
  return {};
}

// Every instruction of every function, reachable or not, has a known opcode and an operand in
// range; then each function's stack analysis.
GS_HD inline VerifyResult verify_code(const ProgramView& p, u32* scratch, u32 scratch_words) {
  for (u32 fi = 0; fi < p.function_count(); ++fi) {
    const FunctionRecord& f = p.functions[fi];
    const u32* code = p.code + f.code_start;
    for (u32 pc = 0; pc < f.code_words; ++pc) {
      if (!is_valid_op(code[pc])) return {VerifyError::BAD_OPCODE, fi, pc};
      if (!operand_fits(p, f, code[pc])) return {VerifyError::BAD_OPERAND, fi, pc};
    }
    u32 deepest;
    CodeShape shape{code,
                    f.code_words,
                    f.result_count,
                    &p.functions[0].param_count,
                    &p.functions[0].result_count,
                    sizeof(FunctionRecord)};
    VerifyResult r = analyse_stack(shape, f.max_stack, scratch, scratch_words, &deepest);
    r.function = fi;
    if (!r.ok()) return r;
  }
  return {};
}

// The whole check. scratch must hold verifier_scratch_words(n) words for the largest function.
GS_HD inline VerifyResult verify_program(const u8* bytes, u64 size, u32* scratch, u32 scratch_words,
                                         ProgramView* view) {
  VerifyResult r = verify_header(bytes, size, view);
  if (r.ok()) r = verify_functions(*view);
  if (r.ok()) r = verify_strings(*view);
  if (r.ok()) r = verify_code(*view, scratch, scratch_words);
  return r;
}

}  // namespace gs::vm
