// The execute-and-test stages of the batch pipeline for one program or one (program, case)
// pair, as host+device code: the CPU executor (pipeline/cpu_executor.h) and the CUDA kernels
// (pipeline/cuda_executor.cu) are loops around these and nothing else.
#pragma once

#include "pipeline/batch.h"
#include "pipeline/case_set.h"
#include "pipeline/output_error.h"
#include "vm/interpreter.h"
#include "vm/verifier.h"

namespace gs::pipeline {

// Verifier scratch for any program the batch holds (its largest function has at most
// kMaxCodeWords instructions).
inline constexpr u32 kVerifierScratchWords = vm::verifier_scratch_words(vm::kMaxCodeWords);

// The index of the function named t.entry with exactly the signature's types, or -1.
GS_HD inline i32 find_entry(const vm::ProgramView& p, const CaseSetView& t) {
  for (u32 i = 0; i < p.function_count(); ++i) {
    const vm::FunctionRecord& f = p.functions[i];
    if (f.name_length != t.entry_len || !equal_bytes(p.names + f.name_offset, t.entry, t.entry_len)) continue;
    if (f.param_count != t.param_count || f.result_count != t.result_count) return -1;
    for (u32 k = 0; k < t.param_count + t.result_count; ++k)
      if (f.types[k] != t.types[k]) return -1;
    return i32(i);
  }
  return -1;
}

// The verify stage for program i of a batch whose compile stage left status COMPILE_ERROR,
// BYTECODE_TOO_LARGE or OK (with a container) in it: verifies the container and finds the entry.
GS_HD inline void verify_stage(BytecodeBatch& b, u32 i, const CaseSetView& t, u32* scratch) {
  if (b.status[i] != u8(ProgramStatus::OK)) return;
  vm::ProgramView view;
  if (!vm::verify_program(b.bytes + b.offsets[i], b.sizes[i], scratch, kVerifierScratchWords, &view).ok()) {
    b.status[i] = u8(ProgramStatus::INVALID_BYTECODE);
    return;
  }
  i32 entry = find_entry(view, t);
  if (entry < 0) {
    b.status[i] = u8(ProgramStatus::NO_ENTRY);
    return;
  }
  b.entry[i] = u32(entry);
}

// Runs program i on case k in machine m (its stack, frames and heap; limits already set) with
// the given fuel, compares the results, and writes pair (i, k)'s results.
// A pair that is not run — its program did not compile, or the batch's deadline passed before
// it began (Pipeline::set_deadline): no pass, no output, trap kNotRun.
GS_HD inline void skip_stage(u32 i, const CaseSetView& t, u32 k, PairResults& out) {
  u64 pair = u64(i) * t.case_count + k;
  out.pass[pair] = 0;
  out.instructions[pair] = 0;
  out.output_hash[pair] = 0;
  if (out.error != nullptr) out.error[pair] = kNoOutputError;
  out.trap[pair] = kNotRun;
}

GS_HD inline void execute_stage(const BytecodeBatch& b, u32 i, const CaseSetView& t, u32 k, vm::Machine& m,
                                u64 fuel, PairResults& out) {
  skip_stage(i, t, k, out);  // the pair's results start as not run; a run fills them below
  if (b.status[i] != u8(ProgramStatus::OK)) return;
  u64 pair = u64(i) * t.case_count + k;
  vm::ProgramView view;
  vm::view_program(b.bytes + b.offsets[i], b.sizes[i], &view);  // verified by verify_stage
  vm::begin_execution(m);
  u64 image_bytes = u64(t.input_offsets[k + 1] - t.input_offsets[k]) * 8;
  vm::Trap trap = vm::Trap::NONE;
  if (image_bytes > m.heap.capacity || t.param_count > m.stack_slots) {
    trap = vm::Trap::HEAP_EXHAUSTED;
  } else {
    copy_bytes(m.heap.base, t.input_heap + t.input_offsets[k], image_bytes);
    m.heap.used = u32(image_bytes);
    copy_bytes(m.stack, t.input_slots + u64(k) * t.param_count, u64(t.param_count) * 8);
    if (!vm::load_literals(view, m)) {
      trap = vm::Trap::HEAP_EXHAUSTED;
    } else {
      m.fuel = fuel;
      trap = vm::execute(view, b.entry[i], m);
      out.instructions[pair] = u32(m.instructions);
    }
  }
  if (trap == vm::Trap::NONE) {
    u64 hash = 0;
    Match match = compare_outputs(t, k, m, &hash);
    if (match == Match::BAD_REFERENCE) trap = vm::Trap::BAD_REFERENCE;
    out.pass[pair] = match == Match::PASS;
    out.output_hash[pair] = hash;
    if (out.error != nullptr && match != Match::BAD_REFERENCE)
      out.error[pair] = match == Match::PASS ? 0.0f : output_error(t, k, m);
  }
  out.trap[pair] = u8(trap);
}

// The reward stage for program i: reduces its pairs.
GS_HD inline void score_stage(const BytecodeBatch& b, u32 i, const CaseSetView& t, const PairResults& pairs,
                              const RewardWeights& w, u64 fuel, ProgramResults& out) {
  u32 passed = 0;
  u64 instructions = 0;
  const bool compiled = b.status[i] == u8(ProgramStatus::OK);
  for (u32 k = 0; k < t.case_count; ++k) {
    u64 pair = u64(i) * t.case_count + k;
    passed += pairs.pass[pair];
    // A compiled program's pair cut by the deadline is charged its whole fuel: never cheaper
    // than one that ran.
    instructions += compiled && pairs.trap[pair] == kNotRun ? fuel : pairs.instructions[pair];
  }
  out.cases_passed[i] = passed;
  out.instructions[i] = instructions;
  out.reward[i] = reward_of(w, b.status[i], passed, t.case_count, instructions, fuel);
  out.bytecode_hash[i] = b.sizes[i] == 0 ? 0 : bytecode_hash(b.bytes + b.offsets[i], b.sizes[i]);
}

}  // namespace gs::pipeline
