#include "vm/place.h"

#include <algorithm>

namespace gs::vm {

u64 heap_bytes_of(const Value& v) {
  if (v.type == Type::Str) return Heap::object_bytes(v.s.size());
  if (!is_array(v.type)) return 0;
  u64 n = Heap::object_bytes(u64(v.items.size()) * 8);
  for (const Value& item : v.items) n += heap_bytes_of(item);
  return n;
}

bool place_words(Heap& h, std::span<const u64> words, u64* slot) {
  const u32 n = u32(words.size());
  u32 ref;
  if (words.size() > kMaxObjectLength / 8 || !h.new_array(n, n, &ref)) return false;
  std::copy(words.begin(), words.end(), h.slots(ref));
  *slot = ref;
  return true;
}

bool place_bytes(Heap& h, std::span<const u8> bytes, u64* slot) {
  u32 ref;
  if (bytes.size() > kMaxObjectLength || !h.new_string_from(bytes.data(), u32(bytes.size()), &ref))
    return false;
  *slot = ref;
  return true;
}

bool place_value(Heap& h, const Value& v, u64* slot) {
  switch (v.type) {
    case Type::Int:
    case Type::Bool: *slot = u64(v.i); return true;
    case Type::Float: *slot = bits_of(v.f); return true;
    case Type::Str: return place_bytes(h, {reinterpret_cast<const u8*>(v.s.data()), v.s.size()}, slot);
    default: break;
  }
  u32 n = u32(v.items.size()), ref;
  if (v.items.size() > kMaxObjectLength / 8 || !h.new_array(n, n, &ref)) return false;
  for (u32 k = 0; k < n; ++k) {
    u64 element;  // (placing a string element allocates: take the slot's address afterwards)
    if (!place_value(h, v.items[k], &element)) return false;
    h.slots(ref)[k] = element;
  }
  *slot = ref;
  return true;
}

bool read_value(Heap& h, Type t, u64 slot, Value* out) {
  out->type = t;
  switch (t) {
    case Type::Int: out->i = i64(slot); return true;
    case Type::Bool: out->i = slot != 0; return true;
    case Type::Float: out->f = double_of(slot); return true;
    case Type::Str:
      if (!h.is_string(slot)) return false;
      out->s.assign(reinterpret_cast<const char*>(h.bytes(u32(slot))), h.header(u32(slot))->length);
      return true;
    default: break;
  }
  if (!is_array(t) || !h.is_array(slot)) return false;
  u32 ref = u32(slot), n = h.header(ref)->length;
  out->items.resize(n);
  for (u32 k = 0; k < n; ++k)
    if (!read_value(h, element_of(t), h.slots(ref)[k], &out->items[k])) return false;
  return true;
}

bool has_type(const Value& v, Type t) {
  if (v.type != t) return false;
  if (!is_array(t)) return true;
  for (const Value& item : v.items)
    if (item.type != element_of(t)) return false;
  return true;
}

}  // namespace gs::vm
