// The heap of one execution: a bump allocator over a fixed byte buffer. Arrays and strings are
// objects in it, and a reference is the object's byte offset. Nothing is freed; the whole heap
// is reset for the next execution, which is what makes it cheap on the GPU.
//
//   object:  u32 length | u32 capacity (bit 31: shared) | payload
//   payload: arrays: capacity 8-byte slots; strings: capacity bytes (padded to 8)
//
// Every access checks the reference against the heap's used bytes, so even bytecode that
// confuses an int with a reference stays inside the buffer (it gets bad_reference or a wrong
// value, never a stray access).
#pragma once

#include "base/hd.h"
#include "vm/trap.h"

namespace gs::vm {

struct ObjectHeader {
  u32 length;
  u32 capacity;  // bit 31: shared (the next in-place write must copy first)
};
inline constexpr u32 kSharedBit = 0x80000000u;
inline constexpr u32 kMaxObjectLength = 0x7fffffffu;

// The capacity PUSH_VAR gives an array of `length` elements with no room for one more: 8, then
// twice the length (amortised growth), one more past kMaxObjectLength / 16.
GS_HD inline u32 grown_capacity(u32 length) {
  return length < 4 ? 8 : (length > kMaxObjectLength / 16 ? length + 1 : 2 * length);
}

struct Heap {
  u8* base = nullptr;
  u32 capacity = 0;  // bytes
  u32 used = 0;      // bytes, always a multiple of 8

  GS_HD ObjectHeader* header(u32 ref) { return reinterpret_cast<ObjectHeader*>(base + ref); }
  GS_HD u64* slots(u32 ref) { return reinterpret_cast<u64*>(base + ref + 8); }
  GS_HD u8* bytes(u32 ref) { return base + ref + 8; }

  // A valid reference to an object whose first n payload bytes lie inside the used heap.
  // (Written so that no sum can wrap: a reference is any 64-bit value a program made up.)
  GS_HD bool holds(u64 ref, u64 payload_bytes) const {
    return (ref & 7u) == 0 && ref < used && used - ref >= 8 && used - ref - 8 >= payload_bytes;
  }
  GS_HD bool is_array(u64 ref) { return holds(ref, 0) && holds(ref, u64(header(u32(ref))->length) * 8); }
  GS_HD bool is_string(u64 ref) { return holds(ref, 0) && holds(ref, header(u32(ref))->length); }

  // The heap bytes an object with this payload takes: its header and the payload padded to 8.
  GS_HD static u64 object_bytes(u64 payload_bytes) { return 8 + ((payload_bytes + 7) & ~u64(7)); }

  // Reserves an object; false when it does not fit (heap_exhausted).
  GS_HD bool allocate(u64 payload_bytes, u32 length, u32* ref) {
    u64 size = object_bytes(payload_bytes);
    if (size > u64(capacity) - used) return false;
    *ref = used;
    used += u32(size);
    ObjectHeader* h = header(*ref);
    h->length = length;
    h->capacity = u32(payload_bytes);
    return true;
  }
  GS_HD bool new_array(u32 length, u32 capacity_slots, u32* ref) {
    if (!allocate(u64(capacity_slots) * 8, length, ref)) return false;
    header(*ref)->capacity = capacity_slots;
    return true;
  }
  GS_HD bool new_string(u32 length, u32* ref) { return allocate(length, length, ref); }
  GS_HD bool new_string_from(const u8* data, u32 length, u32* ref) {
    if (!new_string(length, ref)) return false;
    copy_bytes(bytes(*ref), data, length);
    return true;
  }
};

// One frame saved by CALL: where the caller resumes.
struct Frame {
  u32 function;
  u32 return_pc;  // absolute index into the program's code
  u32 base;       // caller's first local, as a slot index
  u32 reserved;
};

// Everything one execution works in, provided by the caller (a CPU worker's buffers or a GPU
// thread's local arrays and global scratch).
struct Machine {
  u64* stack = nullptr;
  u32 stack_slots = 0;
  Frame* frames = nullptr;
  u32 max_depth = 0;
  Heap heap;
  u32 literal_base = 0;  // where load_literals() put the program's string literals
  u64 fuel = 0;          // in: fuel; out: fuel left
  u64 instructions = 0;  // out: instructions executed
  u32 result_count = 0;  // out: results are stack[0 .. result_count)
};

}  // namespace gs::vm
