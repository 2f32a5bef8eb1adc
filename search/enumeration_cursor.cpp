// The cursor of an enumeration (search/enumeration_cursor.h).
#include "search/enumeration_cursor.h"

namespace gs::search::enumeration {

namespace {

// The compositions of n into k positive parts, in lexicographic order: first and next.
bool first_parts(u32 n, u32 k, std::array<u32, 3>* parts) {
  if (k == 0 || n < k) return false;
  for (u32 j = 0; j + 1 < k; ++j) (*parts)[j] = 1;
  (*parts)[k - 1] = n - (k - 1);
  return true;
}

bool next_parts(u32 k, std::array<u32, 3>* parts) {
  // Find the rightmost part but the last that can grow (the last part then shrinks).
  u32 total = 0;
  for (u32 j = 0; j < k; ++j) total += (*parts)[j];
  for (i32 j = i32(k) - 2; j >= 0; --j) {
    u32 prefix = 0;
    for (i32 m = 0; m <= j; ++m) prefix += (*parts)[m];
    if (total - prefix - 1 >= k - 1 - u32(j)) {  // room for the rest at one each
      (*parts)[j] += 1;
      for (u32 m = u32(j) + 1; m + 1 < k; ++m) (*parts)[m] = 1;
      u32 used = 0;
      for (u32 m = 0; m + 1 < k; ++m) used += (*parts)[m];
      (*parts)[k - 1] = total - used;
      return true;
    }
  }
  return false;
}

}  // namespace

void Cursor::advance_type() {
  rule_ = 0;
  parts_valid_ = false;
  if (++type_ < grammar_.contexts()[context_].types.size()) return;
  type_ = 0;
  if (++context_ < grammar_.contexts().size()) return;
  context_ = 0;
  ++size_;
}

// xs[i] where that is a leaf of the context.
bool Cursor::is_index_leaf(const Node& n) const {
  const Context& ctx = grammar_.contexts()[context_];
  const Node& seq = bank_.entry(n.child[0]).node;
  return ctx.indexed && seq.child[0] == kNone && seq.rule < grammar_.signature().params.size() &&
         bank_.entry(n.child[1]).node.rule == ctx.variable;
}

// The next expression of type type_index() and size size_ in context_; false when there is
// none left.
bool Cursor::next(Node* node) {
  const std::vector<u32>& rules = grammar_.rules_for(context_, type_index());
  while (rule_ < rules.size()) {
    const Rule& r = grammar_.rules()[rules[rule_]];
    const u32 k = u32(r.args.size());
    if (r.kind == Production::Leaf) {
      ++rule_;
      if (size_ != 1) continue;
      node->rule = rules[rule_ - 1];
      node->child = {kNone, kNone, kNone};
      return true;
    }
    // A lambda costs its operands' sizes only: map(xs, f(x)) is as large as xs and f(x).
    const bool lambda = is_lambda(r);
    if (!parts_valid_) {
      if (!first_parts(size_ - (lambda ? 0 : 1), k, &parts_)) {
        ++rule_;
        continue;
      }
      parts_valid_ = true;
      at_ = {0, 0, 0};
    }
    // The operand lists of this split; an empty one means no tuples.
    std::array<const std::vector<u32>*, 3> lists{};
    bool empty = false;
    for (u32 j = 0; j < k; ++j) {
      lists[j] = &bank_.at(j == 1 && lambda ? r.body : context_, r.args[j], parts_[j]);
      empty = empty || lists[j]->empty();
    }
    // Commutative rules take operands in id order only (ids grow with size).
    if (!empty && r.commutative && parts_[0] > parts_[1]) empty = true;
    if (empty || at_[0] >= lists[0]->size()) {
      at_ = {0, 0, 0};
      if (!next_parts(k, &parts_)) {
        ++rule_;
        parts_valid_ = false;
      }
      continue;
    }
    node->rule = rules[rule_];
    node->child = {kNone, kNone, kNone};
    for (u32 j = 0; j < k; ++j) node->child[j] = (*lists[j])[at_[j]];
    // Odometer: the last operand turns fastest.
    for (i32 j = i32(k) - 1; j >= 0; --j) {
      if (++at_[j] < lists[j]->size() || j == 0) break;
      at_[j] = 0;
    }
    if (r.commutative && node->child[0] > node->child[1]) continue;
    if (lambda && !bank_.entry(node->child[1]).variable) continue;  // a body without x: array(len(xs), c)
    if (r.kind == Production::Index && is_index_leaf(*node)) continue;
    return true;
  }
  return false;
}

}  // namespace gs::search::enumeration
