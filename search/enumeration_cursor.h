// Where a bottom-up enumeration stands: it walks sizes, then contexts, then types, then the
// type's rules, then the compositions of the size into the rule's operand sizes, then the
// tuples of banked operands of those sizes (an odometer, the last operand turning fastest). So
// the enumeration is lazy: a size with millions of combinations costs memory only for what was
// proposed.
#pragma once

#include <array>

#include "search/enumeration_bank.h"
#include "search/enumeration_grammar.h"

namespace gs::search::enumeration {

class Cursor {
 public:
  Cursor(const Grammar& grammar, const Bank& bank) : grammar_(grammar), bank_(bank) {}

  // The next expression of type type_index() and size size() in context(); false when this
  // type's productions of this size are done (advance_type() then moves on).
  bool next(Node* node);
  void advance_type();

  u32 size() const { return size_; }
  u32 context() const { return context_; }
  u32 type_index() const { return grammar_.contexts()[context_].types[type_]; }

 private:
  bool is_index_leaf(const Node& n) const;

  const Grammar& grammar_;
  const Bank& bank_;
  // Size, context, type (index into the context's types), rule (index into its rules_for),
  // operand split, operand positions.
  u32 size_ = 1, context_ = 0, type_ = 0, rule_ = 0;
  bool parts_valid_ = false;
  std::array<u32, 3> parts_{}, at_{};
};

}  // namespace gs::search::enumeration
