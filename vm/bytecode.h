// The bytecode container: one compiled program as one contiguous, relocatable byte buffer, the
// same on the host, on disk and in device memory. docs/bytecode.md describes it for readers.
//
//   offset            section
//   0                 Header (40 bytes)
//   40                FunctionRecord[function_count]          (48 bytes each)
//   8-aligned         u64 constants[constant_count]           (int bits or float bits)
//                     u32 string_offsets[string_count]        (padded to 8 bytes)
//   8-aligned         string image (string_image_bytes)       (heap objects, copied into
//                                                               each execution's heap)
//                     names (name_bytes, padded to 4)
//   4-aligned         u32 code[code_words]                    (all functions, in order)
//                     u32 checksum                            (container_checksum of all before)
//
// All integers are little-endian. A buffer holding a container must start 8-byte aligned.
// view_program() checks only that the sections fit the buffer; vm/verifier.h checks the rest
// before anything executes it.
#pragma once

#include "base/hd.h"
#include "base/types.h"

namespace gs::vm {

// "GSBC" as the first four bytes; a scalar, since device code cannot read host arrays.
inline constexpr u32 kMagic = 0x43425347u;
inline constexpr u16 kBytecodeVersion = 1;
inline constexpr u32 kMaxParams = 16;
inline constexpr u32 kMaxResults = 8;
inline constexpr u32 kMaxLocals = 1024;  // slots: named variables and the compiler's hidden ones
inline constexpr u32 kMaxFunctions = 256;
inline constexpr u32 kMaxCodeWords = 65536;
inline constexpr u32 kMaxConstants = 65536;
inline constexpr u32 kMaxStrings = 65536;
inline constexpr u32 kMaxFrameStack = 4096;  // operand stack of one function
inline constexpr u32 kMaxProgramBytes = 16u << 20;

struct Header {
  u8 magic[4];
  u16 version;
  u16 flags;  // 0
  u32 total_bytes;
  u32 function_count;
  u32 constant_count;
  u32 string_count;
  u32 string_image_bytes;  // a multiple of 8
  u32 name_bytes;
  u32 code_words;
  u32 reserved;  // 0
};
static_assert(sizeof(Header) == 40);

struct FunctionRecord {
  u32 code_start;   // index of the first instruction in code[]
  u32 code_words;   // instructions of this function
  u32 name_offset;  // into names
  u16 name_length;
  u8 param_count;
  u8 result_count;
  u16 local_count;                     // parameters included
  u16 max_stack;                       // operand stack depth, computed at compile time
  u8 types[kMaxParams + kMaxResults];  // param types, then result types (gs::Type)
  u8 reserved[4];

  GS_HD Type param_type(u32 i) const { return static_cast<Type>(types[i]); }
  GS_HD Type result_type(u32 i) const { return static_cast<Type>(types[param_count + i]); }
};
static_assert(sizeof(FunctionRecord) == 48);

GS_HD inline u32 magic_of(const u8* bytes) {
  u32 m;
  memcpy(&m, bytes, 4);
  return m;
}

// Byte offsets of the sections, computed from a header in 64-bit arithmetic (no overflow).
struct Layout {
  u64 functions, constants, string_offsets, string_image, names, code, checksum, total;
};

GS_HD inline Layout layout_of(const Header& h) {
  Layout l{};
  l.functions = sizeof(Header);
  l.constants = l.functions + u64(h.function_count) * sizeof(FunctionRecord);
  l.string_offsets = l.constants + u64(h.constant_count) * 8;
  l.string_image = l.string_offsets + ((u64(h.string_count) * 4 + 7) & ~u64(7));
  l.names = l.string_image + u64(h.string_image_bytes);
  l.code = l.names + ((u64(h.name_bytes) + 3) & ~u64(3));
  l.checksum = l.code + u64(h.code_words) * 4;
  l.total = l.checksum + 4;
  return l;
}

// A program seen through its sections; no copies.
struct ProgramView {
  const u8* bytes = nullptr;
  const Header* header = nullptr;
  const FunctionRecord* functions = nullptr;
  const u64* constants = nullptr;
  const u32* string_offsets = nullptr;
  const u8* string_image = nullptr;
  const char* names = nullptr;
  const u32* code = nullptr;

  GS_HD u32 function_count() const { return header->function_count; }
};

// Fills *out when the sections fit in size bytes exactly; false otherwise.
GS_HD inline bool view_program(const u8* bytes, u64 size, ProgramView* out) {
  if (size < sizeof(Header) + 4 || size > kMaxProgramBytes) return false;
  if ((reinterpret_cast<std::uintptr_t>(bytes) & 7u) != 0) return false;
  const auto* h = reinterpret_cast<const Header*>(bytes);
  if (magic_of(bytes) != kMagic) return false;
  Layout l = layout_of(*h);
  if (l.total != size || h->total_bytes != size) return false;
  out->bytes = bytes;
  out->header = h;
  out->functions = reinterpret_cast<const FunctionRecord*>(bytes + l.functions);
  out->constants = reinterpret_cast<const u64*>(bytes + l.constants);
  out->string_offsets = reinterpret_cast<const u32*>(bytes + l.string_offsets);
  out->string_image = bytes + l.string_image;
  out->names = reinterpret_cast<const char*>(bytes + l.names);
  out->code = reinterpret_cast<const u32*>(bytes + l.code);
  return true;
}

// The container's checksum: FNV-1a over 32-bit little-endian words (every section is a multiple
// of 4 bytes; a stray tail byte is folded in alone). Word by word it costs a quarter of the
// byte-wise serial multiply chain, which showed in compile throughput.
GS_HD inline u32 container_checksum(const u8* p, u64 n) {
  u32 h = 2166136261u;
  u64 i = 0;
  for (; i + 4 <= n; i += 4) {
    u32 word;
    memcpy(&word, p + i, 4);
    h = (h ^ word) * 16777619u;
  }
  for (; i < n; ++i) h = (h ^ p[i]) * 16777619u;
  return h;
}

// Index of the function named name (len bytes), or -1.
GS_HD inline i32 find_function(const ProgramView& p, const char* name, u32 len) {
  for (u32 i = 0; i < p.function_count(); ++i) {
    const FunctionRecord& f = p.functions[i];
    if (f.name_length == len && equal_bytes(p.names + f.name_offset, name, len)) return i32(i);
  }
  return -1;
}

}  // namespace gs::vm
