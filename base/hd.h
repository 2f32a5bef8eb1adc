// Portability for code that runs on the host and on the device (docs/design.md "One implementation,
// two processors"). Cores written with GS_HD use no STL containers, exceptions, virtual calls or
// unbounded recursion, so nvcc compiles the very same functions into CUDA kernels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define GS_HD __host__ __device__
#define GS_DEVICE_INLINE __forceinline__
#else
#define GS_HD
#define GS_DEVICE_INLINE inline
#endif

#if defined(__CUDA_ARCH__)
#define GS_ON_DEVICE 1
#else
#define GS_ON_DEVICE 0
#endif

// GS_NOINLINE: kept out of line, so that a rarely taken path's large locals do not grow the
// frame of every (recursive) caller — on the device each thread's stack is small.
// GS_DEVICE_NOINLINE: out of line in device code only. The compiler's recursive hubs (a parse,
// check or codegen step per statement and per expression) carry it: inlined into one another
// they make the compile kernel one huge function that nvcc's optimiser takes many minutes over.
#if defined(__CUDA_ARCH__)
#define GS_DEVICE_NOINLINE __noinline__
#else
#define GS_DEVICE_NOINLINE
#endif

#if defined(__CUDACC__)
#define GS_NOINLINE __noinline__
#elif defined(__GNUC__)
#define GS_NOINLINE __attribute__((noinline))
#else
#define GS_NOINLINE
#endif

#if defined(__CUDACC__)
#define GS_ALWAYS_INLINE __forceinline__
#elif defined(__GNUC__)
#define GS_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define GS_ALWAYS_INLINE inline
#endif

#if defined(__GNUC__)
#define GS_LIKELY(x) __builtin_expect(!!(x), 1)
#define GS_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define GS_LIKELY(x) (x)
#define GS_UNLIKELY(x) (x)
#endif

static_assert(sizeof(void*) == 8, "gpusynth assumes a 64-bit target");

namespace gs {

using u8 = std::uint8_t;
using i16 = std::int16_t;
using u16 = std::uint16_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
using i32 = std::int32_t;
using i64 = std::int64_t;

// Byte copies and fills usable in device code (CUDA provides memcpy and memset there, not
// memcmp).
GS_HD inline void copy_bytes(void* dst, const void* src, u64 n) {
  if (n != 0) memcpy(dst, src, n);
}
GS_HD inline void fill_bytes(void* dst, u8 value, u64 n) {
  if (n != 0) memset(dst, value, n);
}
GS_HD inline bool equal_bytes(const void* a, const void* b, u64 n) {
  const auto* x = static_cast<const u8*>(a);
  const auto* y = static_cast<const u8*>(b);
  for (u64 i = 0; i < n; ++i)
    if (x[i] != y[i]) return false;
  return true;
}
GS_HD inline u64 bits_of(double d) {
  u64 u;
  memcpy(&u, &d, 8);
  return u;
}
GS_HD inline double double_of(u64 u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}
GS_HD constexpr u32 align8(u32 n) { return (n + 7u) & ~7u; }

}  // namespace gs
