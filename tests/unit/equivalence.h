// Comparisons shared by the CPU-against-CUDA tests (backend_equivalence_test, whole batches;
// stage_equivalence_test, stage by stage): arrays compared as bytes, so that floats must match
// bit for bit, with the failing program and item named.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "compiler/diagnostic.h"

namespace gs::testing {

// per_program: the array's items per program (1, or the cases for per-pair arrays).
template <class T>
void expect_same_bytes(const std::vector<T>& cpu, const std::vector<T>& gpu, const std::string& what,
                       u32 per_program) {
  ASSERT_EQ(cpu.size(), gpu.size()) << what;
  for (size_t k = 0; k < cpu.size(); ++k)
    ASSERT_TRUE(std::memcmp(&cpu[k], &gpu[k], sizeof(T)) == 0)
        << what << " differs at program " << k / per_program << ", item " << k % per_program;
}

inline bool same_diagnostic(const compiler::Diagnostic& a, const compiler::Diagnostic& b) {
  return a.code == b.code && a.pos == b.pos && a.len == b.len && a.a == b.a && a.b == b.b;
}

}  // namespace gs::testing
