// The checker: resolves names to slots and functions, gives every expression its type,
// resolves builtin overloads, folds constants, and works out which statements can complete
// normally (for "missing return" and for dropping dead code). It reports every error it finds
// and keeps going: an expression in error has type Error, which fits anywhere, so one mistake
// is reported once.
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

struct Checker {
  Workspace& w;
  u32 fn = 0;          // function being checked
  u8 scope = 0;        // block nesting inside it
  u32 next_slot = 0;   // first free local slot
  u32 slots_used = 0;  // high-water mark: the function's local_count
  bool locals_overflow = false;

  GS_HD explicit Checker(Workspace& workspace) : w(workspace) {}

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
  }

  GS_HD void check_function(u32 node) {
    fn = w.nodes[node].ref;
    FunctionInfo& info = w.functions[fn];
    w.local_count = 0;
    w.loop_count = 0;
    scope = 0;
    next_slot = slots_used = 0;
    locals_overflow = false;
    u32 body = 0;
    for (u32 c = w.nodes[node].first; c != 0; c = w.nodes[c].next) {
      if (w.nodes[c].kind == NodeKind::Param)
        declare(w.nodes[c], w.nodes[c].type);
      else
        body = c;
    }
    bool completes = body != 0 && w.nodes[body].kind == NodeKind::Block ? check_block(body) : false;
    if (completes && info.result_count > 0 && !info.broken) {
      Node name_span = w.nodes[node];
      name_span.pos = info.name_pos;
      name_span.len = info.name_len;
      error(Code::MISSING_RETURN, name_span);
    }
    info.local_count = u16(slots_used);
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
    w.locals[w.local_count++] = Local{name.pos, name.len, h, u16(slot), type, scope};
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
      ++c.scope;
    }
    GS_HD ~Scope() {
      --c.scope;
      c.w.local_count = locals;
      c.next_slot = slot;  // slots of a closed block are reused
    }
  };

  // ---- statements ---------------------------------------------------------------------------

  // Checks a block in a new scope; true when control can run past its end.
  GS_HD bool check_block(u32 block) {
    Scope s(*this);
    return check_statements(block);
  }

  GS_HD bool check_statements(u32 block) {
    bool completes = true;
    for (u32 stmt = w.nodes[block].first; stmt != 0; stmt = w.nodes[stmt].next)
      if (!check_statement(stmt)) completes = false;
    w.nodes[block].flags = completes ? kCompletes : 0;
    return completes;
  }

  GS_HD bool check_statement(u32 node) {
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
    return completes;
  }

  GS_HD void check_let(u32 node) {
    Node& n = w.nodes[node];
    Type init = check_value(n.first);
    Type type = n.type;
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

  GS_HD void check_let_tuple(u32 node) {
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
    const Local* l = lookup(n);
    if (l == nullptr) {
      error(Code::UNKNOWN_NAME, n);
      return;
    }
    n.ref = l->slot;
    n.type = l->type;
    if (!assignable(l->type, value)) error(Code::TYPE_MISMATCH, w.nodes[n.first], u32(l->type), u32(value));
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
    Type t = check_value(node);
    if (t != Type::Bool && t != Type::Error) error(Code::CONDITION_TYPE, w.nodes[node], u32(t));
  }

  GS_HD bool check_if(u32 node) {
    u32 cond = w.nodes[node].first, then = w.nodes[cond].next, other = w.nodes[then].next;
    check_condition(cond);
    bool completes = check_statement(then);
    if (other == 0) return true;
    return check_statement(other) || completes;
  }

  GS_HD void push_loop(u32 node) {
    if (w.loop_count < w.loop_cap) w.loops[w.loop_count++] = Loop{node, kNoTarget, 0, 0, 0};
  }

  GS_HD bool check_while(u32 node) {
    u32 cond = w.nodes[node].first, body = w.nodes[cond].next;
    check_condition(cond);
    push_loop(node);
    check_statement(body);
    bool has_break = w.loops[w.loop_count - 1].has_break;
    --w.loop_count;
    bool forever = w.nodes[cond].kind == NodeKind::BoolLit && w.nodes[cond].value == 1;
    return !forever || has_break;
  }

  GS_HD void check_range_bound(u32 bound) {
    Type t = check_value(bound);
    if (t != Type::Int && t != Type::Error) error(Code::RANGE_TYPE, w.nodes[bound], u32(t));
  }

  // for i in lo..hi: slots i, counter, end.  for x in seq: slots x, sequence, index, length.
  GS_HD void check_for(u32 node) {
    Node& n = w.nodes[node];
    bool range = n.kind == NodeKind::ForRange;
    u32 first = n.first, second = w.nodes[first].next;
    u32 body = range ? w.nodes[second].next : second;
    Type element = Type::Error;
    if (range) {
      check_range_bound(first);
      check_range_bound(second);
      element = Type::Int;
    } else {
      Type t = check_value(first);
      if (t == Type::Str)
        element = Type::Int;
      else if (t == Type::EmptyArray)
        error(Code::CANNOT_INFER, w.nodes[first]);
      else if (is_array(t))
        element = element_of(t);
      else if (t != Type::Error)
        error(Code::NOT_ITERABLE, w.nodes[first], u32(t));
    }
    Scope s(*this);
    n.ref = declare(n, element);
    allocate_slots(n, range ? 2 : 3);
    push_loop(node);
    check_statement(body);
    --w.loop_count;
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

  GS_HD Type check_expr(u32 node) {
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
    return l->type;
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
    i32 callee = find_function(text(n), n.len);  // a program's own function hides a builtin
    if (callee < 0) return check_builtin_call(node, args, count, poisoned);
    const FunctionInfo& f = w.functions[callee];
    n.ref = u32(callee);
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
    i32 builtin = find_builtin(text(n), n.len);
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
    n.op = u8(row + 1);
    n.value = instruction;
    n.flags |= kHasInstruction;
    return result;
  }

  GS_HD Type check_index(u32 node) {
    u32 seq = w.nodes[node].first, index = w.nodes[seq].next;
    Type ts = check_value(seq);
    Type ti = check_value(index);
    if (ti != Type::Int && ti != Type::Error) error(Code::INDEX_TYPE, w.nodes[index], u32(ti));
    if (ts == Type::Str) return Type::Int;
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
    Type t = binary_result(Tok(n.op), a, b);
    if (t == Type::Empty) {
      error(Code::CANNOT_INFER, n);
      return Type::Error;
    }
    if (t == Type::Error) error(Code::BINARY_TYPES, n, u32(a), u32(b));
    return t;
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
