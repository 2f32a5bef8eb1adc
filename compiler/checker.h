// The checker: resolves names to slots and functions, gives every expression its type,
// resolves builtin overloads, folds constants, and works out which statements can complete
// normally (for "missing return" and for dropping dead code). It reports every error it finds
// and keeps going: an expression in error has type Error, which fits anywhere, so one mistake
// is reported once.
//
// Python (the typed-Python front end, CompileLimits::language): the same tree with Python's
// rules where they differ — variables belong to the function (blocks open no scope) and come
// into being at their first assignment; a read must follow an assignment on every path
// (definite assignment, as in Java: a loop's body may not run); an int meets a float by
// becoming one; `/` divides as floats; a str's element is a str; any value is a condition (its
// truth: not zero, not empty); a comprehension's variable is its own; and a list changed in place
// (append, pop, xs[i] = v, +=) must not be one another name may share (aliasing: Python's lists
// are references, Syn's values), so such a program is an error rather than a wrong answer.
#pragma once

#include "compiler/builtins.h"
#include "compiler/fold.h"
#include "compiler/token.h"
#include "compiler/workspace.h"

namespace gs::compiler {

GS_HD inline u32 hash_bytes(const char* s, u32 n) {
  u32 h = 2166136261u;
  for (u32 i = 0; i < n; ++i) h = (h ^ u8(s[i])) * 16777619u;
  return h;
}

// May a value of type `from` be stored where `to` is expected?
GS_HD inline bool assignable(Type to, Type from) {
  return to == from || to == Type::Error || from == Type::Error || (from == Type::EmptyArray && is_array(to));
}

// Definitely assigned variables (Python): one bit per entry of the function's locals table.
struct Assigned {
  u64 bits[(kMaxVariables + 64) / 64];
  GS_HD void set(u32 i) { bits[i / 64] |= u64(1) << (i % 64); }
  GS_HD bool has(u32 i) const { return (bits[i / 64] >> (i % 64)) & 1; }
  GS_HD void all() {
    for (u64& b : bits) b = ~u64(0);
  }
  GS_HD void clear(u32 i) { bits[i / 64] &= ~(u64(1) << (i % 64)); }
  GS_HD void meet(const Assigned& o) {
    for (u32 k = 0; k < sizeof bits / 8; ++k) bits[k] &= o.bits[k];
  }
};

struct Checker {
  Workspace& w;
  u32 fn = 0;          // function being checked
  u8 scope = 0;        // block nesting inside it
  u32 next_slot = 0;   // first free local slot
  u32 slots_used = 0;  // high-water mark: the function's local_count
  bool locals_overflow = false;
  bool python = false;
  Assigned assigned{};  // Python: the variables assigned on every path to here
  u32 body_depth = 0;   // Python: blocks open around the statement being checked

  GS_HD explicit Checker(Workspace& workspace)
      : w(workspace), python(workspace.limits.language == Language::Python) {}

  GS_HD void error(Code code, const Node& at, u32 a = 0, u32 b = 0) {
    w.diagnostics.add(code, at.pos, at.len, a, b);
  }
  GS_HD const char* text(const Node& n) const { return w.source + n.pos; }
  GS_HD u32 child(u32 node, u32 k) const {
    u32 c = w.nodes[node].first;
    while (k-- > 0 && c != 0) c = w.nodes[c].next;
    return c;
  }

  // ---- functions ----------------------------------------------------------------------------

  // Index of the function named s[0..n), or -1.
  GS_HD i32 find_function(const char* s, u32 n) const {
    u32 h = hash_bytes(s, n), mask = w.function_table_size - 1;
    for (u32 i = h & mask;; i = (i + 1) & mask) {
      u16 e = w.function_table[i];
      if (e == 0) return -1;
      const FunctionInfo& f = w.functions[e - 1];
      if (f.hash == h && f.name_len == n && equal_bytes(w.source + f.name_pos, s, n)) return i32(e - 1);
    }
  }

  GS_HD void register_functions() {
    for (u32 i = 0; i < w.function_table_size; ++i) w.function_table[i] = 0;
    for (u32 i = 0; i < w.function_count; ++i) {
      FunctionInfo& f = w.functions[i];
      const Node& at = w.nodes[f.node];
      Node name_span = at;
      name_span.pos = f.name_pos;
      name_span.len = f.name_len;
      f.hash = hash_bytes(w.source + f.name_pos, f.name_len);
      if (find_function(w.source + f.name_pos, f.name_len) >= 0) {
        error(Code::DUPLICATE_FUNCTION, name_span);
        continue;
      }
      u32 mask = w.function_table_size - 1;
      u32 slot = f.hash & mask;
      while (w.function_table[slot] != 0) slot = (slot + 1) & mask;
      w.function_table[slot] = u16(i + 1);
    }
  }

  GS_HD void verify_stage(u32 program) {
    if (w.function_count == 0) {
      w.diagnostics.add(Code::NO_FUNCTIONS, 0, 0);
      return;
    }
    register_functions();
    for (u32 node = w.nodes[program].first; node != 0; node = w.nodes[node].next)
      if (w.nodes[node].kind == NodeKind::Function) check_function(node);
    if (!python) return;
    for (u32 i = 0; i < w.function_count; ++i) {  // a list parameter changed in place is the caller's list
      const FunctionInfo& f = w.functions[i];
      if (f.called && f.mutated_param_len > 0)
        w.diagnostics.add(Code::PY_ALIASED_LIST, f.mutated_param_pos, f.mutated_param_len);
    }
  }

  GS_HD void check_function(u32 node) {
    fn = w.nodes[node].ref;
    FunctionInfo& info = w.functions[fn];
    w.local_count = 0;
    w.loop_count = 0;
    scope = 0;
    next_slot = slots_used = 0;
    locals_overflow = false;
    assigned = Assigned{};
    body_depth = 0;
    u32 body = 0;
    for (u32 c = w.nodes[node].first; c != 0; c = w.nodes[c].next) {
      if (w.nodes[c].kind == NodeKind::Param) {
        declare(w.nodes[c], w.nodes[c].type);
        if (w.local_count > 0) {
          w.locals[w.local_count - 1].param = 1;
          assigned.set(w.local_count - 1);
        }
      } else {
        body = c;
      }
    }
    bool completes = body != 0 && w.nodes[body].kind == NodeKind::Block ? check_block(body) : false;
    if (completes && info.result_count > 0 && !info.broken) {
      Node name_span = w.nodes[node];
      name_span.pos = info.name_pos;
      name_span.len = info.name_len;
      error(Code::MISSING_RETURN, name_span);
    }
    info.local_count = u16(slots_used);
    if (python) check_aliasing(info);
  }

  // Python: a list changed in place must be its name's alone (see the header).
  GS_HD void check_aliasing(FunctionInfo& info) {
    for (u32 i = 0; i < w.local_count; ++i) {
      const Local& l = w.locals[i];
      if (l.mutated_len == 0) continue;
      if (l.shared) {
        w.diagnostics.add(Code::PY_ALIASED_LIST, l.mutated_pos, l.mutated_len);
      } else if (l.param && info.mutated_param_len == 0) {
        info.mutated_param_pos = l.mutated_pos;
        info.mutated_param_len = l.mutated_len;
      }
    }
  }

  GS_HD Local* local_of_slot(u32 slot) {
    for (u32 i = w.local_count; i-- > 0;)
      if (w.locals[i].slot == slot) return &w.locals[i];
    return nullptr;
  }

  // Python: the list in variable `slot` is changed in place by statement `at`.
  GS_HD void mutated(u32 slot, const Node& at) {
    Local* l = local_of_slot(slot);
    if (l == nullptr || !is_array(l->type)) return;
    if (l->mutated_len == 0) {
      l->mutated_pos = at.pos;
      l->mutated_len = at.len;
    }
    for (u32 i = 0; i < w.loop_count; ++i) {  // for x in xs: xs.append(..) sees the new elements in Python
      const Node& loop = w.nodes[w.loops[i].node];
      if (loop.kind == NodeKind::ForEach && names_slot(loop.first, slot))
        l->shared = 1;  // reported with the others at the function's end
    }
  }

  // Python: is expression e the list in variable `slot` (itself, an arm of `a if c else b`, or
  // what `reversed(...)` walks: Python's iterator reads the live list)?
  GS_HD bool names_slot(u32 e, u32 slot) const {
    const Node& n = w.nodes[e];
    if (n.kind == NodeKind::Name) return n.ref == slot;
    if (n.kind == NodeKind::Call && n.len == 8 && equal_bytes(w.source + n.pos, "reversed", 8))
      return n.first != 0 && names_slot(n.first, slot);
    if (n.kind != NodeKind::IfExpr) return false;
    u32 a = w.nodes[n.first].next;
    return names_slot(a, slot) || names_slot(w.nodes[a].next, slot);
  }

  // Python: is value node e a new list? A list read from a name is shared by both names (the
  // name's is marked so), one a program function returns may be its argument's, and `a if c
  // else b` is new when both arms are.
  GS_HD bool fresh(u32 e) {
    const Node& v = w.nodes[e];
    if (v.kind == NodeKind::Name) {
      if (Local* source = local_of_slot(v.ref)) source->shared = 1;
      return false;
    }
    if (v.kind == NodeKind::IfExpr) {
      u32 a = w.nodes[v.first].next;
      bool fresh_a = fresh(a);
      return fresh(w.nodes[a].next) && fresh_a;
    }
    return v.kind != NodeKind::Call || (v.flags & (kHasInstruction | kNamedBuiltin));
  }

  // Python: variable `target` receives value node `value`: a list read from a name is shared by
  // both names, and one a program function returns may be its argument's.
  GS_HD void note_sharing(u32 target, u32 value) {
    Local* t = local_of_slot(target);
    if (t == nullptr || !is_array(t->type)) return;
    if (!fresh(value)) {
      t->shared = 1;
    } else if (body_depth == 1 && t->mutated_len == 0) {
      t->shared = t->param = 0;  // a new list on every path from here on, before any change
    }
  }

  // ---- scopes -------------------------------------------------------------------------------

  // Declares a variable in the current scope; returns its slot.
  GS_HD u32 declare(const Node& name, Type type) {
    const char* s = text(name);
    u32 h = hash_bytes(s, name.len);
    for (u32 i = w.local_count; i-- > 0 && w.locals[i].scope == scope;) {
      const Local& l = w.locals[i];
      if (l.hash == h && l.len == name.len && equal_bytes(w.source + l.pos, s, name.len)) {
        error(Code::DUPLICATE_NAME, name);
        break;
      }
    }
    u32 slot = allocate_slots(name, 1);
    if (w.local_count == kMaxVariables) {
      if (!locals_overflow) error(Code::TOO_MANY_LOCALS, name, kMaxVariables);
      locals_overflow = true;
      return slot;
    }
    w.locals[w.local_count++] = Local{name.pos, name.len, h, u16(slot), type, scope, 0, 0, 0, 0};
    return slot;
  }

  // Reserves n consecutive slots (hidden loop state when not declared by name).
  GS_HD u32 allocate_slots(const Node& at, u32 n) {
    u32 slot = next_slot;
    if (next_slot + n > vm::kMaxLocals) {
      if (!locals_overflow) error(Code::TOO_MANY_LOCALS, at, vm::kMaxLocals);
      locals_overflow = true;
      return 0;
    }
    next_slot += n;
    if (next_slot > slots_used) slots_used = next_slot;
    return slot;
  }

  GS_HD const Local* lookup(const Node& name) const {
    const char* s = text(name);
    u32 h = hash_bytes(s, name.len);
    for (u32 i = w.local_count; i-- > 0;) {
      const Local& l = w.locals[i];
      if (l.hash == h && l.len == name.len && equal_bytes(w.source + l.pos, s, name.len)) return &l;
    }
    return nullptr;
  }

  struct Scope {
    Checker& c;
    u32 locals, slot;
    GS_HD explicit Scope(Checker& checker)
        : c(checker), locals(checker.w.local_count), slot(checker.next_slot) {
      if (!c.python) ++c.scope;  // Python: a variable belongs to the whole function
    }
    GS_HD ~Scope() {
      if (c.python) return;
      --c.scope;
      c.w.local_count = locals;
      c.next_slot = slot;  // slots of a closed block are reused
    }
  };

  // ---- statements ---------------------------------------------------------------------------

  // Checks a block in a new scope; true when control can run past its end.
  GS_HD bool check_block(u32 block) {
    Scope s(*this);
    ++body_depth;
    bool completes = check_statements(block);
    --body_depth;
    return completes;
  }

  GS_HD bool check_statements(u32 block) {
    bool completes = true;
    for (u32 stmt = w.nodes[block].first; stmt != 0; stmt = w.nodes[stmt].next)
      if (!check_statement(stmt)) completes = false;
    w.nodes[block].flags = completes ? kCompletes : 0;
    return completes;
  }

  GS_HD GS_DEVICE_NOINLINE bool check_statement(u32 node) {
    bool completes = true;
    switch (w.nodes[node].kind) {
      case NodeKind::Block: completes = check_block(node); break;
      case NodeKind::Let: check_let(node); break;
      case NodeKind::LetTuple: check_let_tuple(node); break;
      case NodeKind::Assign: check_assign(node); break;
      case NodeKind::AssignIndex: check_assign_index(node); break;
      case NodeKind::If: completes = check_if(node); break;
      case NodeKind::While: completes = check_while(node); break;
      case NodeKind::ForRange:
      case NodeKind::ForEach: check_for(node); break;
      case NodeKind::Break:
      case NodeKind::Continue:
        check_jump(node);
        completes = false;
        break;
      case NodeKind::Return:
        check_return(node);
        completes = false;
        break;
      case NodeKind::ExprStmt: check_expr(w.nodes[node].first); break;
      default: break;  // Error: already reported
    }
    w.nodes[node].flags |= completes ? kCompletes : 0;
    if (!completes) assigned.all();  // nothing after it runs
    return completes;
  }

  // Python: the variable named by `name` for an assignment, declared at its first one
  // (type: what it is assigned; a later assignment of another type is an error). A variable
  // first assigned [] takes its element type from the first list assigned or appended to it.
  GS_HD Local* python_variable(const Node& name, Type type) {
    Local* l = const_cast<Local*>(lookup(name));
    if (l == nullptr) {
      declare(name, type);
      l = const_cast<Local*>(lookup(name));
    } else if (l->type == Type::EmptyArray && is_array(type) && type != Type::EmptyArray) {
      l->type = type;
    }
    return l;
  }
  GS_HD void set_assigned(const Local* l) {
    if (l != nullptr) assigned.set(u32(l - w.locals));
  }

  GS_HD void check_let(u32 node) {
    Node& n = w.nodes[node];
    Type init = check_value(n.first);
    Type type = n.type;
    if (python) {  // x: T = value — declares x, or assigns it when it exists
      const Local* l = lookup(n);
      if (l == nullptr) {
        declare(n, type);
        l = lookup(n);
      } else if (l->type != type && l->type != Type::Error && type != Type::Error) {
        error(Code::TYPE_MISMATCH, n, u32(l->type), u32(type));
      }
      if (!assignable(type, init)) error(Code::TYPE_MISMATCH, w.nodes[n.first], u32(type), u32(init));
      if (l == nullptr) return;
      n.ref = l->slot;
      note_sharing(n.ref, n.first);
      set_assigned(l);
      return;
    }
    if (type == Type::Unit) {
      type = init;
      if (init == Type::EmptyArray) {
        error(Code::CANNOT_INFER, w.nodes[n.first]);
        type = Type::Error;
      }
    } else if (!assignable(type, init)) {
      error(Code::TYPE_MISMATCH, w.nodes[n.first], u32(type), u32(init));
    }
    n.type = type;
    n.ref = declare(n, type);
  }

  // Python's a, b = f(x) / a, b = x, y: every value is computed, then each name assigned.
  GS_HD void check_python_tuple_assignment(u32 node) {
    u32 bindings = 0, init = 0;
    for (u32 c = w.nodes[node].first; c != 0; c = w.nodes[c].next) {
      if (w.nodes[c].kind == NodeKind::Binding)
        ++bindings;
      else
        init = c;
    }
    Type types[vm::kMaxResults + 1];
    u32 values[vm::kMaxResults + 1] = {};
    u32 count = 0;
    if (init != 0 && w.nodes[init].kind == NodeKind::Tuple) {
      for (u32 c = w.nodes[init].first; c != 0; c = w.nodes[c].next, ++count) {
        Type t = check_value(c);
        if (count <= vm::kMaxResults) {
          types[count] = t;
          values[count] = c;
        }
      }
      w.nodes[init].type = Type::Tuple;
    } else {
      Type t = init != 0 ? check_expr(init) : Type::Error;
      if (t == Type::Tuple) {
        const FunctionInfo& f = w.functions[w.nodes[init].ref];
        count = f.result_count;
        for (u32 k = 0; k < count; ++k) {
          types[k] = f.result(k);
          values[k] = init;
        }
      } else if (t != Type::Error && init != 0) {
        error(Code::NOT_A_TUPLE, w.nodes[init]);
      }
    }
    if (count != 0 && count != bindings) error(Code::RESULT_COUNT, w.nodes[init], bindings, count);
    u32 k = 0;
    for (u32 c = w.nodes[node].first; c != 0; c = w.nodes[c].next, ++k) {
      Node& b = w.nodes[c];
      if (b.kind != NodeKind::Binding) continue;
      bool known = count == bindings && k <= vm::kMaxResults;
      Type t = known ? types[k] : Type::Error;
      Local* l = python_variable(b, t);
      if (l == nullptr) continue;
      if (!assignable(l->type, t)) error(Code::TYPE_MISMATCH, b, u32(l->type), u32(t));
      b.ref = l->slot;
      b.type = l->type;
      if (known) note_sharing(b.ref, values[k]);
      set_assigned(l);
    }
  }

  GS_HD void check_let_tuple(u32 node) {
    if (python) return check_python_tuple_assignment(node);
    u32 bindings = 0, init = 0;
    for (u32 c = w.nodes[node].first; c != 0; c = w.nodes[c].next) {
      if (w.nodes[c].kind == NodeKind::Binding)
        ++bindings;
      else
        init = c;
    }
    Type t = init != 0 ? check_expr(init) : Type::Error;
    const FunctionInfo* f = nullptr;
    if (t == Type::Tuple)
      f = &w.functions[w.nodes[init].ref];
    else if (t != Type::Error && init != 0)
      error(Code::NOT_A_TUPLE, w.nodes[init]);
    if (f != nullptr && f->result_count != bindings)
      error(Code::RESULT_COUNT, w.nodes[init], bindings, f->result_count);
    u32 k = 0;
    for (u32 c = w.nodes[node].first; c != 0; c = w.nodes[c].next, ++k) {
      Node& b = w.nodes[c];
      if (b.kind != NodeKind::Binding) continue;
      b.type = (f != nullptr && k < f->result_count) ? f->result(k) : Type::Error;
      b.ref = declare(b, b.type);
    }
  }

  GS_HD void check_assign(u32 node) {
    Node& n = w.nodes[node];
    Type value = check_value(n.first);
    const Local* l = python ? python_variable(n, value) : lookup(n);
    if (l == nullptr) {
      error(Code::UNKNOWN_NAME, n);
      return;
    }
    n.ref = l->slot;
    n.type = l->type;
    if (!assignable(l->type, value)) error(Code::TYPE_MISMATCH, w.nodes[n.first], u32(l->type), u32(value));
    if (python) {
      if (n.flags & kInPlace)
        mutated(n.ref, n);
      else
        note_sharing(n.ref, n.first);
      set_assigned(l);
    }
    for (u32 i = 0; i < w.loop_count; ++i) {
      Node& loop = w.nodes[w.loops[i].node];
      if (loop.kind == NodeKind::ForRange && loop.ref == n.ref) loop.flags |= kVarAssigned;
    }
  }

  GS_HD void check_assign_index(u32 node) {
    Node& n = w.nodes[node];
    u32 index = n.first, value = w.nodes[index].next;
    Type ti = check_value(index);
    Type tv = check_value(value);
    const Local* l = lookup(n);
    if (l == nullptr) {
      error(Code::UNKNOWN_NAME, n);
      return;
    }
    n.ref = l->slot;
    n.type = l->type;
    if (python) {
      check_read(l, n);
      mutated(n.ref, n);
    }
    if (ti != Type::Int && ti != Type::Error) error(Code::INDEX_TYPE, w.nodes[index], u32(ti));
    if (l->type == Type::Str) {
      error(Code::STRING_IMMUTABLE, n);
    } else if (is_array(l->type)) {
      if (!assignable(element_of(l->type), tv))
        error(Code::TYPE_MISMATCH, w.nodes[value], u32(element_of(l->type)), u32(tv));
    } else if (l->type != Type::Error) {
      error(Code::NOT_INDEXABLE, n, u32(l->type));
    }
  }

  GS_HD void check_condition(u32 node) {
    if (python) return check_truth(node);
    Type t = check_value(node);
    if (t != Type::Bool && t != Type::Error) error(Code::CONDITION_TYPE, w.nodes[node], u32(t));
  }

  // Python: a condition may be any value — an int or a float is true when it is not zero, a str
  // or a list when it is not empty (to_truth) — and `and`, `or`, `not` in a condition pass that
  // on to their operands. The left spine of an and/or chain is walked in a loop, as in
  // check_binary; only right operands and `not` recurse (each adds to the tree's depth).
  GS_HD void check_truth(u32 top) {
    u32 n = top, parent = 0;
    while (w.nodes[n].kind == NodeKind::Binary &&
           (Tok(w.nodes[n].op) == Tok::AND || Tok(w.nodes[n].op) == Tok::OR)) {
      w.nodes[n].ref = parent;
      parent = n;
      n = w.nodes[n].first;
    }
    Node& leaf = w.nodes[n];
    if (leaf.kind == NodeKind::Unary && Tok(leaf.op) == Tok::NOT) {
      check_truth(leaf.first);
      leaf.type = Type::Bool;
      fold(w, n);
    } else {
      Type t = check_value(n);
      if (t != Type::Bool && t != Type::Error) to_truth(n, t);
    }
    for (u32 b = parent; b != 0;) {
      u32 up = w.nodes[b].ref;
      check_truth(w.nodes[w.nodes[b].first].next);
      w.nodes[b].type = Type::Bool;
      fold(w, b);
      b = up;
    }
  }

  GS_HD bool check_if(u32 node) {
    u32 cond = w.nodes[node].first, then = w.nodes[cond].next, other = w.nodes[then].next;
    check_condition(cond);
    Assigned before = assigned;
    bool completes = check_statement(then);
    if (other == 0) {
      assigned = before;
      return true;
    }
    Assigned after_then = assigned;
    assigned = before;
    bool other_completes = check_statement(other);
    assigned.meet(after_then);  // (a branch that cannot complete assigned everything)
    return other_completes || completes;
  }

  GS_HD void push_loop(u32 node) {
    if (w.loop_count < w.loop_cap) w.loops[w.loop_count++] = Loop{node, kNoTarget, 0, 0, 0};
  }

  GS_HD bool check_while(u32 node) {
    u32 cond = w.nodes[node].first, body = w.nodes[cond].next;
    check_condition(cond);
    Assigned before = assigned;
    push_loop(node);
    check_statement(body);
    bool has_break = w.loops[w.loop_count - 1].has_break;
    --w.loop_count;
    assigned = before;  // the body may not run
    bool forever = w.nodes[cond].kind == NodeKind::BoolLit && w.nodes[cond].value == 1;
    return !forever || has_break;
  }

  GS_HD void check_range_bound(u32 bound) {
    Type t = check_value(bound);
    if (t != Type::Int && t != Type::Error) error(Code::RANGE_TYPE, w.nodes[bound], u32(t));
  }

  // for i in lo..hi: slots i, then hidden counter, end.  for x in seq: slots x, then hidden
  // sequence, index, length. (Python: the variable may exist already; it is always apart
  // from the counter, as it keeps the last value after the loop.)
  GS_HD void check_for(u32 node) {
    Node& n = w.nodes[node];
    bool range = n.kind == NodeKind::ForRange;
    u32 body = n.first;
    while (w.nodes[body].next != 0) body = w.nodes[body].next;  // the last child
    Type element = check_iterable(node);
    if (range && python) n.flags |= kVarAssigned;
    Scope s(*this);
    Assigned before = assigned;
    const Local* var = python ? python_variable(n, element) : nullptr;
    if (var != nullptr) {
      if (var->type != element && var->type != Type::Error && element != Type::Error)
        error(Code::TYPE_MISMATCH, n, u32(var->type), u32(element));
      n.ref = var->slot;
      set_assigned(var);
    } else {
      n.ref = declare(n, element);
    }
    n.type = element;
    if (n.flags & kEnumerate) check_enumerate_index(w.nodes[n.first].next, false);
    n.value = allocate_slots(n, range ? 2 : 3);
    push_loop(node);
    check_statement(body);
    --w.loop_count;
    assigned = before;  // the body may not run
  }

  // Python's `for i, x in enumerate(seq)`: the index variable i, an int — the loop's (which a
  // for statement's is: it outlives the loop) or, own, the comprehension's.
  GS_HD void check_enumerate_index(u32 binding, bool own) {
    Node& b = w.nodes[binding];
    b.type = Type::Int;
    if (own) {
      u32 locals = w.local_count;
      b.ref = declare(b, Type::Int);
      if (w.local_count > locals) assigned.set(w.local_count - 1);
      return;
    }
    Local* l = python_variable(b, Type::Int);
    if (l == nullptr) return;
    if (l->type != Type::Int && l->type != Type::Error)
      error(Code::TYPE_MISMATCH, b, u32(l->type), u32(Type::Int));
    b.ref = l->slot;
    set_assigned(l);
  }

  // The iterable of loop node `node` (a ForRange's lo, hi and step; a ForEach's sequence),
  // checked; returns the type its variable takes.
  GS_HD Type check_iterable(u32 node) {
    const Node& n = w.nodes[node];
    u32 first = n.first, second = w.nodes[first].next;
    if (n.kind == NodeKind::ForRange) {
      check_range_bound(first);
      check_range_bound(second);
      if (n.flags & kHasStep) check_step(w.nodes[second].next);
      return Type::Int;
    }
    Type t = check_value(first);
    if (t == Type::Str) return python ? Type::Str : Type::Int;
    if (t == Type::EmptyArray)
      error(Code::CANNOT_INFER, w.nodes[first]);
    else if (is_array(t))
      return element_of(t);
    else if (t != Type::Error)
      error(Code::NOT_ITERABLE, w.nodes[first], u32(t));
    return Type::Error;
  }

  // Python's [element for x in seq if cond]: seq is checked where the comprehension stands;
  // x, the loop's hidden slots and the result's slot are the comprehension's own, in a scope
  // closed after it (its slots are reused; x's definite assignment is forgotten).
  GS_HD Type check_comprehension(u32 node) {
    u32 loop = w.nodes[node].first, element = w.nodes[loop].next, cond = w.nodes[element].next;
    u32 locals = w.local_count, slots = next_slot;
    // the result's slot first: it is set before seq is evaluated (whose slots are then free)
    w.nodes[node].value = allocate_slots(w.nodes[node], 1);
    Type var_type = check_iterable(loop);
    ++scope;
    Node& l = w.nodes[loop];
    l.ref = declare(l, var_type);
    l.type = var_type;
    if (w.local_count > locals) assigned.set(w.local_count - 1);
    if (l.flags & kEnumerate) check_enumerate_index(w.nodes[l.first].next, true);
    l.value = allocate_slots(l, l.kind == NodeKind::ForRange ? 2 : 3);
    if (cond != 0) check_condition(cond);
    Type t = check_value(element);
    for (u32 i = locals; i < w.local_count; ++i) assigned.clear(i);
    w.local_count = locals;
    next_slot = slots;
    --scope;
    if (t == Type::Error || var_type == Type::Error) return Type::Error;
    if (!is_scalar(t)) {
      error(Code::NESTED_ARRAY, w.nodes[element]);
      return Type::Error;
    }
    return array_of(t);
  }

  // Python's `a if c else b`: one type for both arms; an int arm meeting a float one becomes a
  // float (as an int operand of + does).
  GS_HD Type check_if_expr(u32 node) {
    u32 cond = w.nodes[node].first, a = w.nodes[cond].next, b = w.nodes[a].next;
    check_condition(cond);
    Type ta = check_value(a), tb = check_value(b);
    if (ta == Type::Error || tb == Type::Error) return Type::Error;
    if (ta == Type::Int && tb == Type::Float) ta = to_float(a);
    if (ta == Type::Float && tb == Type::Int) tb = to_float(b);
    if (ta == Type::EmptyArray && is_array(tb)) return tb;
    if (tb == Type::EmptyArray && is_array(ta)) return ta;
    if (ta != tb) error(Code::TYPE_MISMATCH, w.nodes[b], u32(ta), u32(tb));
    return ta == tb ? ta : Type::Error;
  }

  // Python: range(a, b, step) with step a nonzero int literal (its sign picks the comparison).
  GS_HD void check_step(u32 step) {
    Type t = check_value(step);
    const Node& s = w.nodes[step];
    if (t != Type::Error && (s.kind != NodeKind::IntLit || s.value == 0)) error(Code::PY_RANGE_STEP, s);
  }

  GS_HD void check_jump(u32 node) {
    if (w.loop_count == 0) {
      error(w.nodes[node].kind == NodeKind::Break ? Code::BREAK_OUTSIDE_LOOP : Code::CONTINUE_OUTSIDE_LOOP,
            w.nodes[node]);
      return;
    }
    if (w.nodes[node].kind == NodeKind::Break) w.loops[w.loop_count - 1].has_break = 1;
  }

  GS_HD void check_return(u32 node) {
    const FunctionInfo& f = w.functions[fn];
    u32 value = w.nodes[node].first;
    if (f.broken) {  // the header is in error: check the values, not against it
      if (value != 0 && w.nodes[value].kind == NodeKind::Tuple)
        for (u32 c = w.nodes[value].first; c != 0; c = w.nodes[c].next) check_value(c);
      else if (value != 0)
        check_expr(value);
      return;
    }
    if (value == 0) {
      if (f.result_count > 0)
        error(Code::RETURN_WITHOUT_VALUE, w.nodes[node],
              f.result_count == 1 ? u32(f.result(0)) : u32(Type::Tuple));
      return;
    }
    if (w.nodes[value].kind == NodeKind::Tuple) {
      u32 count = 0;
      for (u32 c = w.nodes[value].first; c != 0; c = w.nodes[c].next, ++count) {
        Type t = check_value(c);
        if (count < f.result_count && !assignable(f.result(count), t))
          error(Code::TYPE_MISMATCH, w.nodes[c], u32(f.result(count)), u32(t));
      }
      w.nodes[value].type = Type::Tuple;
      if (count != f.result_count) error(Code::RESULT_COUNT, w.nodes[value], f.result_count, count);
      return;
    }
    Type t = check_expr(value);
    if (f.result_count == 0) {
      error(Code::RETURN_IN_UNIT, w.nodes[value]);
    } else if (t == Type::Tuple) {
      const FunctionInfo& g = w.functions[w.nodes[value].ref];
      bool same = g.result_count == f.result_count;
      for (u32 k = 0; same && k < f.result_count; ++k) same = g.result(k) == f.result(k);
      if (!same) error(Code::RESULT_COUNT, w.nodes[value], f.result_count, g.result_count);
    } else if (t == Type::Unit) {
      error(Code::UNIT_VALUE, w.nodes[value]);
    } else if (f.result_count > 1) {
      error(Code::RESULT_COUNT, w.nodes[value], f.result_count, 1);
    } else if (!assignable(f.result(0), t)) {
      error(Code::TYPE_MISMATCH, w.nodes[value], u32(f.result(0)), u32(t));
    }
  }

  // ---- expressions --------------------------------------------------------------------------

  // An expression whose value is used: it must have exactly one value.
  GS_HD Type check_value(u32 node) {
    Type t = check_expr(node);
    if (t == Type::Unit) error(Code::UNIT_VALUE, w.nodes[node]);
    if (t == Type::Tuple) error(Code::TUPLE_VALUE, w.nodes[node]);
    if (t == Type::Unit || t == Type::Tuple) w.nodes[node].type = t = Type::Error;
    return t;
  }

  GS_HD GS_DEVICE_NOINLINE Type check_expr(u32 node) {
    if (node == 0) return Type::Error;
    Node& n = w.nodes[node];
    Type t = Type::Error;
    switch (n.kind) {
      case NodeKind::IntLit: t = Type::Int; break;
      case NodeKind::FloatLit: t = Type::Float; break;
      case NodeKind::BoolLit: t = Type::Bool; break;
      case NodeKind::StrLit: t = Type::Str; break;
      case NodeKind::ArrayLit: t = check_array(node); break;
      case NodeKind::Name: t = check_name(node); break;
      case NodeKind::Call: t = check_call(node); break;
      case NodeKind::Index: t = check_index(node); break;
      case NodeKind::Unary: t = check_unary(node); break;
      case NodeKind::Binary: t = check_binary(node); break;
      case NodeKind::Slice: t = check_slice(node); break;
      case NodeKind::IfExpr: t = check_if_expr(node); break;
      case NodeKind::Comprehension: t = check_comprehension(node); break;
      case NodeKind::Tuple:
        error(Code::MISPLACED_TUPLE, n);
        for (u32 c = n.first; c != 0; c = w.nodes[c].next) check_value(c);
        break;
      default: break;
    }
    w.nodes[node].type = t;
    if (n.kind == NodeKind::Unary) fold(w, node);  // binary nodes fold in check_binary
    return t;
  }

  GS_HD Type check_array(u32 node) {
    Type element = Type::Empty;
    for (u32 c = w.nodes[node].first; c != 0; c = w.nodes[c].next) {
      Type t = check_value(c);
      if (t == Type::Error) {
        element = Type::Error;
      } else if (!is_scalar(t)) {
        error(Code::NESTED_ARRAY, w.nodes[c]);
        element = Type::Error;
      } else if (element == Type::Empty) {
        element = t;
      } else if (element != Type::Error && t != element) {
        error(Code::MIXED_ARRAY, w.nodes[c], u32(element), u32(t));
        element = Type::Error;
      }
    }
    return element == Type::Error ? Type::Error : array_of(element);
  }

  GS_HD Type check_name(u32 node) {
    Node& n = w.nodes[node];
    const Local* l = lookup(n);
    if (l == nullptr) {
      error(Code::UNKNOWN_NAME, n);
      return Type::Error;
    }
    n.ref = l->slot;
    if (python) check_read(l, n);
    return l->type;
  }

  // Python: a variable read where some path has not assigned it (reported once).
  GS_HD void check_read(const Local* l, const Node& at) {
    u32 i = u32(l - w.locals);
    if (assigned.has(i)) return;
    error(Code::PY_UNBOUND, at);
    assigned.set(i);
  }

  GS_HD Type check_call(u32 node) {
    Node& n = w.nodes[node];
    Type args[vm::kMaxParams + 1];
    u32 count = 0;
    bool poisoned = false;
    for (u32 c = n.first; c != 0; c = w.nodes[c].next) {
      Type t = check_value(c);
      poisoned |= t == Type::Error;
      if (count <= vm::kMaxParams) args[count] = t;
      ++count;
    }
    if (n.flags & kInPlace) {  // xs.append(v) / xs.pop() used as a value (Python: None, or the element)
      error(Code::PY_OUTSIDE_SUBSET, n);
      return Type::Error;
    }
    if (python && !(n.flags & kNamedBuiltin) && lookup(n) != nullptr) {  // len = 3; len(xs)
      error(Code::NOT_A_FUNCTION, n);
      return Type::Error;
    }
    // a program's own function hides a builtin (not one the Python front end names itself)
    i32 callee = (n.flags & kNamedBuiltin) ? -1 : find_function(text(n), n.len);
    if (callee < 0) return check_builtin_call(node, args, count, poisoned);
    FunctionInfo& f = w.functions[callee];
    n.ref = u32(callee);
    if (python) {  // the callee may return (or change) a list it is given
      f.called = 1;
      for (u32 c = n.first; c != 0; c = w.nodes[c].next)
        if (is_array(w.nodes[c].type)) fresh(c);
    }
    if (count != f.param_count) {
      error(Code::ARGUMENT_COUNT, n, f.param_count, count);
    } else {
      u32 k = 0;
      for (u32 c = n.first; c != 0; c = w.nodes[c].next, ++k)
        if (!assignable(f.param(k), args[k]))
          error(Code::TYPE_MISMATCH, w.nodes[c], u32(f.param(k)), u32(args[k]));
    }
    if (f.result_count == 0) return Type::Unit;
    return f.result_count == 1 ? f.result(0) : Type::Tuple;
  }

  GS_HD Type check_builtin_call(u32 node, const Type* args, u32 count, bool poisoned) {
    Node& n = w.nodes[node];
    if ((n.flags & kNamedBuiltin) && n.value == kPythonOrd) return check_ord(node, args, count, poisoned);
    i32 builtin = (n.flags & kNamedBuiltin) ? i32(n.value) : find_builtin(text(n), n.len);
    if (python && !(n.flags & kNamedBuiltin) && !python_builtin(text(n), n.len)) builtin = -1;
    if (builtin < 0) {
      error(lookup(n) != nullptr ? Code::NOT_A_FUNCTION : Code::UNKNOWN_FUNCTION, n);
      return Type::Error;
    }
    if (poisoned) return Type::Error;
    Type result = Type::Error;
    u32 instruction = 0;
    i32 row = count <= 3 ? resolve_builtin(u32(builtin), args, count, &result, &instruction) : -1;
    if (row < 0) {
      for (u32 k = 0; k < count && k <= vm::kMaxParams; ++k) {  // args holds the first kMaxParams + 1
        if (args[k] != Type::EmptyArray) continue;
        error(Code::CANNOT_INFER, w.nodes[child(node, k)]);  // sum([]): which [T]?
        return Type::Error;
      }
      u32 packed = 0;
      for (u32 k = 0; k < count && k < 4; ++k) packed |= u32(args[k]) << (8 * k);
      error(Code::BUILTIN_ARGUMENTS, n, packed, count);
      return Type::Error;
    }
    if (python && result == Type::Str && (args[0] == Type::Float || args[0] == Type::Bool)) {
      error(Code::PY_STR_OF, n, u32(args[0]));  // Python's str(2.5) and str(True) differ from Syn's
      return Type::Error;
    }
    if (python) instruction = python_instruction(instruction, n);
    n.op = u8(row + 1);
    n.value = instruction;
    n.flags |= kHasInstruction;
    return result;
  }

  // Python's variant of a builtin's instruction where Python raises and Syn does not: int() of
  // a float that is NaN, infinite or past the int range; s.split(sep) with an empty sep (the
  // parser marks the explicit-separator form kPython).
  GS_HD static u32 python_instruction(u32 instruction, const Node& call) {
    vm::Op op = vm::opcode_of(instruction);
    if (op == vm::Op::INT_OF_FLOAT) return vm::encode(vm::Op::TRUNC_FLOAT, 0);
    if (op == vm::Op::SPLIT && (call.flags & kPython)) return vm::encode(vm::Op::SPLIT_SEP, 0);
    return instruction;
  }

  // The builtins a Python program names as Syn does (others are a program's functions).
  GS_HD static bool python_builtin(const char* s, u32 n) {
    const char* names[] = {"len", "abs", "min", "max", "sum", "int", "float", "str", "chr"};
    for (const char* name : names)
      if (same_name(name, s, n)) return true;
    return false;
  }

  // Python's ord(c): the byte of a one-character str.
  GS_HD Type check_ord(u32 node, const Type* args, u32 count, bool poisoned) {
    Node& n = w.nodes[node];
    if (poisoned) return Type::Error;
    if (count != 1) {
      error(Code::ARGUMENT_COUNT, n, 1, count);
      return Type::Error;
    }
    if (args[0] != Type::Str) {
      error(Code::BUILTIN_ARGUMENTS, n, u32(args[0]), 1);
      return Type::Error;
    }
    n.value = vm::encode(vm::Op::ORD, 0);
    n.flags |= kHasInstruction;
    return Type::Int;
  }

  // Python's seq[lo:hi]: the sequence's type.
  GS_HD Type check_slice(u32 node) {
    u32 seq = w.nodes[node].first, lo = w.nodes[seq].next, hi = w.nodes[lo].next;
    Type ts = check_value(seq);
    const u32 bounds[2] = {lo, hi};
    for (u32 bound : bounds) {
      Type t = check_value(bound);
      if (t != Type::Int && t != Type::Error) error(Code::INDEX_TYPE, w.nodes[bound], u32(t));
    }
    if (ts == Type::Str || is_array(ts) || ts == Type::Error) return ts;
    if (ts == Type::EmptyArray) {
      error(Code::CANNOT_INFER, w.nodes[seq]);
    } else {
      error(Code::NOT_INDEXABLE, w.nodes[seq], u32(ts));
    }
    return Type::Error;
  }

  GS_HD Type check_index(u32 node) {
    u32 seq = w.nodes[node].first, index = w.nodes[seq].next;
    Type ts = check_value(seq);
    Type ti = check_value(index);
    if (ti != Type::Int && ti != Type::Error) error(Code::INDEX_TYPE, w.nodes[index], u32(ti));
    if (ts == Type::Str) return python ? Type::Str : Type::Int;  // Python: a one-character str
    if (ts == Type::EmptyArray) {
      error(Code::CANNOT_INFER, w.nodes[seq]);
      return Type::Error;
    }
    if (is_array(ts)) return element_of(ts);
    if (ts != Type::Error) error(Code::NOT_INDEXABLE, w.nodes[seq], u32(ts));
    return Type::Error;
  }

  GS_HD Type check_unary(u32 node) {
    Node& n = w.nodes[node];
    Type t = check_value(n.first);
    if (t == Type::Error) return t;
    Tok op = Tok(n.op);
    if (python && op == Tok::NOT && t != Type::Bool) t = to_truth(n.first, t);  // not xs
    if (t == Type::Error) return t;
    bool ok = (op == Tok::MINUS && (t == Type::Int || t == Type::Float)) ||
              (op == Tok::NOT && t == Type::Bool) || (op == Tok::TILDE && t == Type::Int);
    if (!ok) {
      error(Code::UNARY_TYPE, n, u32(t));
      return Type::Error;
    }
    return t;
  }

  // A chain ((a + b) + c) + d is walked down its left spine, threading each node's parent
  // through its ref field, and typed on the way back up: no recursion however long it is.
  GS_HD Type check_binary(u32 top) {
    u32 n = top, parent = 0;
    while (w.nodes[n].kind == NodeKind::Binary) {
      w.nodes[n].ref = parent;
      parent = n;
      n = w.nodes[n].first;
    }
    Type t = check_value(n);
    for (u32 b = parent; b != 0;) {
      u32 up = w.nodes[b].ref;
      t = check_operator(b, t);
      w.nodes[b].type = t;
      fold(w, b);
      b = up;
    }
    return t;
  }

  // Types one binary node whose left operand (of type a) is already checked.
  GS_HD Type check_operator(u32 node, Type a) {
    Node& n = w.nodes[node];
    Type b = check_value(w.nodes[n.first].next);
    if (a == Type::Error || b == Type::Error) return Type::Error;
    if (python) promote(node, &a, &b);
    Type t = binary_result(Tok(n.op), a, b);
    if (t == Type::Empty) {
      error(Code::CANNOT_INFER, n);
      return Type::Error;
    }
    if (t == Type::Error) error(Code::BINARY_TYPES, n, u32(a), u32(b));
    return t;
  }

  // Python: an int operand of an arithmetic or comparison operator meeting a float becomes a
  // float, and / divides floats.
  GS_HD void promote(u32 node, Type* a, Type* b) {
    Tok op = Tok(w.nodes[node].op);
    bool numeric = op == Tok::PLUS || op == Tok::MINUS || op == Tok::STAR || op == Tok::TRUE_DIV ||
                   op == Tok::LT || op == Tok::LE || op == Tok::GT || op == Tok::GE || op == Tok::EQ ||
                   op == Tok::NE;
    bool mixed = (*a == Type::Int && *b == Type::Float) || (*a == Type::Float && *b == Type::Int);
    bool ints_divided = op == Tok::TRUE_DIV && *a == Type::Int && *b == Type::Int;
    if (!numeric || !(mixed || ints_divided)) return;
    u32 lhs = w.nodes[node].first, rhs = w.nodes[lhs].next;
    if (*a == Type::Int) *a = to_float(lhs);
    if (*b == Type::Int) *b = to_float(rhs);
  }

  // Turns node e (an int expression) into float(e) in place: e's content moves to a new node
  // under it, so its parent's links stay as they are. Float, or Error when no node is left.
  GS_HD Type to_float(u32 e) {
    if (w.node_count >= w.node_cap) {
      error(Code::TOO_MANY_NODES, w.nodes[e], w.node_cap - 1);
      return Type::Error;
    }
    u32 moved = w.node_count++;
    w.nodes[moved] = w.nodes[e];
    w.nodes[moved].next = 0;
    Node& c = w.nodes[e];
    c.kind = NodeKind::Call;
    c.flags = kHasInstruction;
    c.op = 0;
    c.value = vm::encode(vm::Op::FLOAT_OF_INT, 0);
    c.first = moved;
    c.type = Type::Float;
    c.depth = u8(w.nodes[moved].depth < 255 ? w.nodes[moved].depth + 1 : 255);
    return Type::Float;
  }

  // Python: turns node e (of type t) into its truth in place — e != 0 for an int, e != 0.0 for a
  // float, len(e) != 0 for a str or a list — as to_float does. Bool, or Error when no node is left.
  GS_HD Type to_truth(u32 e, Type t) {
    bool sized = t == Type::Str || t == Type::EmptyArray || is_array(t);
    u32 need = sized ? 3 : 2;
    if (w.node_count + need > w.node_cap) {
      error(Code::TOO_MANY_NODES, w.nodes[e], w.node_cap - 1);
      return Type::Error;
    }
    Node& c = w.nodes[e];
    u32 moved = w.node_count++, operand = moved;
    w.nodes[moved] = c;
    w.nodes[moved].next = 0;
    Node span{};
    span.pos = c.pos;
    span.len = c.len;
    if (sized) {
      operand = w.node_count++;
      Node& len = w.nodes[operand] = span;
      len.kind = NodeKind::Call;
      len.flags = kHasInstruction;
      len.value = vm::encode(vm::Op::LEN, 0);
      len.first = moved;
      len.type = Type::Int;
    }
    u32 zero = w.node_count++;
    Node& z = w.nodes[zero] = span;
    z.kind = t == Type::Float ? NodeKind::FloatLit : NodeKind::IntLit;
    z.type = t == Type::Float ? Type::Float : Type::Int;
    w.nodes[operand].next = zero;
    u32 d = u32(w.nodes[moved].depth) + need - 1;
    c.kind = NodeKind::Binary;
    c.op = u8(Tok::NE);
    c.flags = 0;
    c.first = operand;
    c.ref = 0;
    c.value = 0;
    c.type = Type::Bool;
    c.depth = u8(d < 255 ? d : 255);
    fold(w, e);
    return Type::Bool;
  }

  // Result type of a binary operator; Error when it does not apply, Empty when it applies
  // only once "[]" has an element type.
  GS_HD static Type binary_result(Tok op, Type a, Type b) {
    // [] joins any array type: [T] op [] is [T] op [T]
    Type common = a == b ? a : Type::Error;
    if (a == Type::EmptyArray && is_array(b)) common = b;
    if (b == Type::EmptyArray && is_array(a)) common = a;
    if (common == Type::Error) return Type::Error;
    switch (op) {
      case Tok::AND:
      case Tok::OR: return common == Type::Bool ? Type::Bool : Type::Error;
      case Tok::PLUS:
        if (common == Type::Str || is_array(common)) return common;
        [[fallthrough]];
      case Tok::MINUS:
      case Tok::STAR:
      case Tok::SLASH:
      case Tok::PERCENT: return common == Type::Int || common == Type::Float ? common : Type::Error;
      case Tok::FLOOR_DIV:  // Python's // and % (on floats: outside the subset for now)
      case Tok::FLOOR_MOD: return common == Type::Int ? Type::Int : Type::Error;
      case Tok::TRUE_DIV: return common == Type::Float ? Type::Float : Type::Error;
      case Tok::AMP:
      case Tok::PIPE:
      case Tok::CARET:
      case Tok::SHL:
      case Tok::SHR:
      case Tok::USHR: return common == Type::Int ? Type::Int : Type::Error;
      case Tok::LT:
      case Tok::LE:
      case Tok::GT:
      case Tok::GE:
        return common == Type::Int || common == Type::Float || common == Type::Str ? Type::Bool : Type::Error;
      case Tok::EQ:
      case Tok::NE:
        if (common == Type::EmptyArray) return Type::Empty;
        return Type::Bool;
      default: return Type::Error;
    }
  }
};

}  // namespace gs::compiler
