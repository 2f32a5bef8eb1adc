// Host values in and out of an execution's heap: placing a Value lays its arrays and strings out
// as heap objects (an array first, then its elements' strings) and gives the slot that refers
// to them; reading turns a slot of a known type back into a Value. The Runner places arguments
// and reads results with these; a CaseSet builds its input and expected images with them.
#pragma once

#include <span>

#include "vm/heap.h"
#include "vm/value.h"

namespace gs::vm {

// Heap bytes place_value() takes for v.
u64 heap_bytes_of(const Value& v);

// False when v does not fit the heap's remaining capacity.
bool place_value(Heap& heap, const Value& v, u64* slot);

// An array of these slots (an [int]'s elements, or references already in the heap) and a str of
// these bytes, as place_value lays them out (Heap::object_bytes(8 * n) and (n) bytes); false
// when they do not fit or are longer than an object may be.
bool place_words(Heap& heap, std::span<const u64> words, u64* slot);
bool place_bytes(Heap& heap, std::span<const u8> bytes, u64* slot);

// False when slot is not a valid reference of type t's shape.
bool read_value(Heap& heap, Type t, u64 slot, Value* out);

// v has type t (an array's elements included).
bool has_type(const Value& v, Type t);

}  // namespace gs::vm
