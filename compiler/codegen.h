// The code generator: checked syntax tree -> stack bytecode, one function after another into
// the workspace's code array.
//
// Patch lists: a forward jump is emitted before its target is known; its operand then holds the
// previous unpatched jump of the same list (index + 1, 0 ends the list), so a list costs no
// memory beyond the jumps themselves. patch() walks the list and writes the real target.
//
// Conditions compile to jumps (emit_branch), so `a && b` in an `if` costs no boolean values.
// Statements after one that cannot complete (return, break, continue, ...) are not emitted:
// the optimiser's dead-code part.
#pragma once

#include "compiler/builtins.h"
#include "compiler/token.h"
#include "compiler/workspace.h"
#include "vm/opcodes.h"

namespace gs::compiler {

struct Codegen {
  using Op = vm::Op;
  Workspace& w;
  u32 start = 0;  // first instruction of the function being generated
  bool overflow = false;
  // Operand stack depth after the last instruction emitted, and its maximum in the function:
  // every statement starts and ends at depth 0, so counting each instruction's stack effect
  // in emission order gives the exact max_stack (the verifier checks it on every load).
  i32 depth = 0, deepest = 0;
  u32 own_results = 0;

  GS_HD explicit Codegen(Workspace& workspace) : w(workspace) {}

  // ---- emission -----------------------------------------------------------------------------
  GS_HD u32 here() const { return w.code_count - start; }
  GS_HD void emit(Op op, u32 operand = 0) {
    if (w.code_count == w.code_cap) {
      if (!overflow) w.diagnostics.add(Code::CODE_TOO_LARGE, 0, 0, w.code_cap);
      overflow = true;
      return;
    }
    w.code[w.code_count++] = vm::encode(op, operand & vm::kMaxOperand);
    const vm::OpInfo& info = vm::op_info(op);
    depth += effect(info.pushes, operand) - effect(info.pops, operand);
    if (depth > deepest) deepest = depth;
  }
  GS_HD i32 effect(i32 e, u32 operand) const {
    if (e == vm::N) return i32(operand);
    if (e == vm::CALLEE_ARGS) return w.functions[operand].param_count;
    if (e == vm::CALLEE_RESULTS) return w.functions[operand].result_count;
    if (e == vm::OWN_RESULTS) return i32(own_results);
    return e;
  }
  GS_HD void emit_word(u32 word) {
    if ((word & 0xffu) != u32(kNoInstruction)) emit(vm::opcode_of(word), vm::operand_of(word));
  }
  // A forward jump added to *list.
  GS_HD void jump(Op op, u32* list) {
    u32 at = here();
    emit(op, *list);
    if (!overflow) *list = at + 1;
  }
  GS_HD void patch(u32 list, u32 target) {
    while (list != 0 && !overflow) {
      u32& word = w.code[start + list - 1];
      list = vm::operand_of(word);
      word = vm::encode(vm::opcode_of(word), target);
    }
  }

  GS_HD void load_int(i64 v) {
    if (v >= vm::kMinImm && v <= vm::kMaxImm) {
      emit(Op::LOAD_INT, u32(v) & vm::kMaxOperand);
      return;
    }
    load_constant(u64(v));
  }
  // Constants are shared with recent identical ones (a bounded search keeps this linear).
  GS_HD void load_constant(u64 bits) {
    u32 from = w.constant_count > 32 ? w.constant_count - 32 : 0;
    for (u32 i = from; i < w.constant_count; ++i)
      if (w.constants[i] == bits) return emit(Op::LOAD_CONST, i);
    if (w.constant_count == w.constant_cap) {
      if (!overflow) w.diagnostics.add(Code::TOO_MANY_CONSTANTS, 0, 0, w.constant_cap);
      overflow = true;
      return;
    }
    w.constants[w.constant_count] = bits;
    emit(Op::LOAD_CONST, w.constant_count++);
  }

  GS_HD const Node& node(u32 i) const { return w.nodes[i]; }
  GS_HD u32 next(u32 i) const { return w.nodes[i].next; }
  GS_HD u32 last_child(u32 i) const {
    u32 c = node(i).first;
    while (c != 0 && next(c) != 0) c = next(c);
    return c;
  }

  // ---- functions ----------------------------------------------------------------------------

  GS_HD void function(u32 fn_node) {
    start = w.code_count;
    FunctionInfo& f = w.functions[node(fn_node).ref];
    depth = deepest = 0;
    own_results = f.result_count;
    u32 body = 0;
    for (u32 c = node(fn_node).first; c != 0; c = next(c))
      if (node(c).kind == NodeKind::Block) body = c;
    statements(body);
    if (node(body).flags & kCompletes) emit(Op::RETURN);
    f.code_start = start;
    f.code_words = w.code_count - start;
    f.max_stack = u16(deepest > i32(vm::kMaxFrameStack) ? vm::kMaxFrameStack + 1 : deepest);
  }

  // ---- statements ---------------------------------------------------------------------------

  GS_HD void statements(u32 block) {
    for (u32 s = node(block).first; s != 0; s = next(s)) {
      statement(s);
      if (!(node(s).flags & kCompletes)) return;  // the rest is dead
    }
  }

  GS_HD GS_DEVICE_NOINLINE void statement(u32 s) {
    const Node& n = node(s);
    switch (n.kind) {
      case NodeKind::Block: statements(s); break;
      case NodeKind::Let:
        owned(n.first);
        emit(Op::STORE_VAR, n.ref);
        break;
      case NodeKind::LetTuple: let_tuple(s); break;
      case NodeKind::Assign: assign(s); break;
      case NodeKind::AssignIndex:
        value(n.first);
        if (n.flags & kPython) emit(Op::WRAP_INDEX_AT, n.ref);
        value(next(n.first));
        emit(Op::ARRAY_SET, n.ref);
        break;
      case NodeKind::If: if_statement(s); break;
      case NodeKind::While: while_loop(s); break;
      case NodeKind::ForRange: for_range(s, [&] { statement(last_child(s)); }); break;
      case NodeKind::ForEach: for_each(s, [&] { statement(last_child(s)); }); break;
      case NodeKind::Break: jump(Op::JUMP, &w.loops[w.loop_count - 1].break_list); break;
      case NodeKind::Continue: {
        Loop& loop = w.loops[w.loop_count - 1];
        if (loop.continue_target != kNoTarget)
          emit(Op::JUMP, loop.continue_target);
        else
          jump(Op::JUMP, &loop.continue_list);
        break;
      }
      case NodeKind::Return: return_statement(s); break;
      case NodeKind::ExprStmt: {
        u32 results = call(n.first);
        for (u32 k = 0; k < results; ++k) emit(Op::POP);
        break;
      }
      default: break;
    }
  }

  GS_HD void let_tuple(u32 s) {
    u32 init = 0, count = 0;
    for (u32 c = node(s).first; c != 0; c = next(c)) {
      if (node(c).kind == NodeKind::Binding)
        ++count;
      else
        init = c;
    }
    if (node(init).kind == NodeKind::Tuple) {  // Python's a, b = x, y
      for (u32 c = node(init).first; c != 0; c = next(c)) owned(c);
    } else {
      call(init);
    }
    // results arrive in order: the last is on top
    for (u32 k = count; k-- > 0;) {
      u32 c = node(s).first;
      for (u32 j = 0; j < k; ++j) c = next(c);
      emit(Op::STORE_VAR, node(c).ref);
    }
  }

  // x = push(x, e) and x = pop(x) update x in place.
  GS_HD void assign(u32 s) {
    const Node& n = node(s);
    const Node& v = node(n.first);
    if (v.kind == NodeKind::Call && (v.flags & kHasInstruction)) {
      Op op = vm::opcode_of(u32(v.value));
      const Node& a = node(v.first);
      bool same = a.kind == NodeKind::Name && a.ref == n.ref;
      if (same && op == Op::PUSH) {
        value(a.next);
        emit(Op::PUSH_VAR, n.ref);
        return;
      }
      if (same && op == Op::POP_ARRAY) {
        emit(Op::POP_VAR, n.ref);
        return;
      }
    }
    owned(n.first);
    emit(Op::STORE_VAR, n.ref);
  }

  GS_HD void if_statement(u32 s) {
    u32 cond = node(s).first, then = next(cond), other = next(then);
    if (node(cond).kind == NodeKind::BoolLit) {  // decided at compile time
      if (node(cond).value)
        statement(then);
      else if (other)
        statement(other);
      return;
    }
    u32 skip = 0;
    branch(cond, false, &skip);
    statement(then);
    if (other == 0) {
      patch(skip, here());
      return;
    }
    u32 done = 0;
    if (node(then).flags & kCompletes) jump(Op::JUMP, &done);
    patch(skip, here());
    statement(other);
    patch(done, here());
  }

  GS_HD Loop& push_loop(u32 s) {
    w.loops[w.loop_count++] = Loop{s, kNoTarget, 0, 0, 0};
    return w.loops[w.loop_count - 1];
  }

  // while c { body }  =>  JUMP cond; top: body; cond: if c goto top; end:
  GS_HD void while_loop(u32 s) {
    u32 cond = node(s).first, body = next(cond);
    bool forever = node(cond).kind == NodeKind::BoolLit;
    if (forever && node(cond).value == 0) return;
    u32 entry = 0;
    if (!forever) jump(Op::JUMP, &entry);
    u32 top = here();
    Loop& loop = push_loop(s);
    if (forever) loop.continue_target = top;
    statement(body);
    Loop done = w.loops[--w.loop_count];
    if (forever) {
      emit(Op::JUMP, top);
    } else {
      patch(entry, here());
      patch(done.continue_list, here());
      u32 again = 0;
      branch(cond, true, &again);
      patch(again, top);
    }
    patch(done.break_list, here());
  }

  // for i in lo..hi: the loop variable doubles as the counter unless the body assigns it.
  // Python's range(lo, hi, step): the counter moves by the literal step, while below hi (step
  // > 0) or above it (step < 0). body() emits the body (a statement, or a comprehension's).
  template <typename Body>
  GS_HD void for_range(u32 s, Body body) {
    const Node& n = node(s);
    u32 lo = n.first, hi = next(lo);
    i64 step = (n.flags & kHasStep) ? i64(node(next(hi)).value) : 1;
    bool separate = n.flags & kVarAssigned;
    u32 hidden = u32(n.value);
    u32 var = n.ref, counter = separate ? hidden : n.ref, end = hidden + 1;
    bool literal_end = node(hi).kind == NodeKind::IntLit;
    value(lo);  // both bounds before either is stored: a comprehension in hi may use these slots
    if (!literal_end) {
      value(hi);
      emit(Op::STORE_VAR, end);
    }
    emit(Op::STORE_VAR, counter);
    u32 entry = 0;
    jump(Op::JUMP, &entry);
    u32 top = here();
    if (separate) {
      emit(Op::LOAD_VAR, counter);
      emit(Op::STORE_VAR, var);
    }
    loop_body(s, body, counter, step, entry, top, [&] {
      emit(Op::LOAD_VAR, counter);
      if (literal_end)
        load_int(i64(node(hi).value));
      else
        emit(Op::LOAD_VAR, end);
    });
  }

  // for x in seq: hidden slots hold the sequence, the index and the length. (Python: a str's
  // elements are one-character strs.)
  template <typename Body>
  GS_HD void for_each(u32 s, Body body) {
    const Node& n = node(s);
    u32 seq = n.first;
    u32 hidden = u32(n.value);
    u32 var = n.ref, sequence = hidden, index = hidden + 1, length = hidden + 2;
    owned(seq);
    emit(Op::STORE_VAR, sequence);
    emit(Op::LOAD_INT, 0);
    emit(Op::STORE_VAR, index);
    emit(Op::LOAD_VAR, sequence);
    emit(Op::LEN);
    emit(Op::STORE_VAR, length);
    u32 entry = 0;
    jump(Op::JUMP, &entry);
    u32 top = here();
    emit(Op::LOAD_VAR, sequence);
    emit(Op::LOAD_VAR, index);
    emit(node(seq).type != Type::Str ? Op::ARRAY_GET : n.type == Type::Str ? Op::STR_CHAR : Op::STR_GET);
    emit(Op::STORE_VAR, var);
    if (n.flags & kEnumerate) {  // Python's enumerate: i = index + start
      const Node& i = node(next(seq));
      emit(Op::LOAD_VAR, index);
      if (i.value != 0) {
        load_int(i64(i.value));
        emit(Op::BINARY_ADD);
      }
      emit(Op::STORE_VAR, i.ref);
    }
    loop_body(s, body, index, 1, entry, top, [&] {
      emit(Op::LOAD_VAR, index);
      emit(Op::LOAD_VAR, length);
    });
  }

  // The shared tail of both for loops: body; counter += step; if counter < bound (> for a
  // negative step) goto top.
  template <typename Body, typename PushCounterAndBound>
  GS_HD void loop_body(u32 s, Body body, u32 counter, i64 step, u32 entry, u32 top,
                       PushCounterAndBound bound) {
    push_loop(s);
    body();
    Loop done = w.loops[--w.loop_count];
    patch(done.continue_list, here());
    emit(Op::LOAD_VAR, counter);
    load_int(step);
    emit(Op::BINARY_ADD);
    emit(Op::STORE_VAR, counter);
    patch(entry, here());
    bound();
    emit(step > 0 ? Op::COMPARE_LT : Op::COMPARE_GT);
    emit(Op::JUMP_IF_TRUE, top);
    patch(done.break_list, here());
  }

  GS_HD void return_statement(u32 s) {
    u32 v = node(s).first;
    if (v != 0 && node(v).kind == NodeKind::Tuple) {
      for (u32 c = node(v).first; c != 0; c = next(c)) owned(c);
    } else if (v != 0 && node(v).type == Type::Tuple) {
      call(v);
    } else if (v != 0) {
      owned(v);
    }
    emit(Op::RETURN);
  }

  // ---- expressions --------------------------------------------------------------------------

  // A value that will be stored: an array read from a variable is marked shared, so that a
  // later write through either name copies it (value semantics).
  GS_HD void owned(u32 e) {
    value(e);
    if (node(e).kind == NodeKind::Name && is_array(node(e).type)) emit(Op::SHARE);
  }

  // Emits a call; returns how many values it leaves on the stack.
  GS_HD u32 call(u32 e) {
    const Node& n = node(e);
    if (n.flags & kHasInstruction) {
      for (u32 c = n.first; c != 0; c = next(c)) value(c);
      emit_word(u32(n.value));
      return 1;
    }
    for (u32 c = n.first; c != 0; c = next(c)) owned(c);
    emit(Op::CALL, n.ref);
    return w.functions[n.ref].result_count;
  }

  // Pushes exactly one value.
  GS_HD GS_DEVICE_NOINLINE void value(u32 e) {
    const Node& n = node(e);
    switch (n.kind) {
      case NodeKind::IntLit: load_int(i64(n.value)); return;
      case NodeKind::FloatLit: load_constant(n.value); return;
      case NodeKind::BoolLit: emit(Op::LOAD_INT, u32(n.value)); return;
      case NodeKind::StrLit: emit(Op::LOAD_STR, n.ref); return;
      case NodeKind::Name: emit(Op::LOAD_VAR, n.ref); return;
      case NodeKind::Call: call(e); return;
      case NodeKind::ArrayLit: {
        u32 count = 0;
        for (u32 c = n.first; c != 0; c = next(c), ++count) value(c);
        emit(Op::NEW_ARRAY, count);
        return;
      }
      case NodeKind::Index: {
        u32 seq = n.first;
        value(seq);
        value(next(seq));
        if (n.flags & kPython) emit(Op::WRAP_INDEX);
        emit(node(seq).type != Type::Str ? Op::ARRAY_GET : n.type == Type::Str ? Op::STR_CHAR : Op::STR_GET);
        return;
      }
      case NodeKind::Slice: {
        u32 seq = n.first, lo = next(seq);
        value(seq);
        value(lo);
        value(next(lo));
        emit(Op::WRAP_BOUNDS);
        emit(node(seq).type == Type::Str ? Op::SLICE_STR : Op::SLICE_ARRAY);
        return;
      }
      case NodeKind::Unary: {
        value(n.first);
        Tok op = Tok(n.op);
        if (op == Tok::NOT)
          emit(Op::UNARY_NOT);
        else if (op == Tok::TILDE)
          emit(Op::UNARY_INVERT);
        else
          emit(n.type == Type::Float ? Op::FLOAT_NEG : Op::UNARY_NEG);
        return;
      }
      case NodeKind::Binary: binary(e); return;
      case NodeKind::IfExpr: {  // only the chosen arm runs; an arm read from a name is shared
        u32 cond = n.first, a = next(cond), b = next(a);
        if (node(cond).kind == NodeKind::BoolLit) return owned(node(cond).value ? a : b);
        u32 other = 0, done = 0;
        branch(cond, false, &other);
        owned(a);
        jump(Op::JUMP, &done);
        --depth;  // the other arm starts without a's value
        patch(other, here());
        owned(b);
        patch(done, here());
        return;
      }
      case NodeKind::Comprehension: comprehension(e); return;
      default: return;
    }
  }

  // [element for x in seq if cond]: result = []; the loop, whose body is `if cond: result =
  // push(result, element)` (in place); then the result. The loop runs with values below it on
  // the stack (an operand the comprehension is the right of): its body is balanced.
  GS_HD void comprehension(u32 e) {
    u32 loop = node(e).first, element = next(loop), cond = next(element);
    u32 result = u32(node(e).value);
    emit(Op::NEW_ARRAY, 0);
    emit(Op::STORE_VAR, result);
    auto body = [&] {
      u32 skip = 0;
      if (cond != 0) branch(cond, false, &skip);
      value(element);
      emit(Op::PUSH_VAR, result);
      patch(skip, here());
    };
    if (node(loop).kind == NodeKind::ForRange)
      for_range(loop, body);
    else
      for_each(loop, body);
    emit(Op::LOAD_VAR, result);
  }

  GS_HD static bool is_logical(u8 op) { return Tok(op) == Tok::AND || Tok(op) == Tok::OR; }

  // Walks down the left spine of a chain of binary nodes accepted by `same` (as the checker
  // does, threading parents through ref); returns the leftmost operand and the lowest node.
  template <typename Same>
  GS_HD u32 descend(u32 top, u32* lowest, Same same) {
    u32 n = top, parent = 0;
    while (node(n).kind == NodeKind::Binary && same(node(n).op)) {
      w.nodes[n].ref = parent;
      parent = n;
      n = node(n).first;
    }
    *lowest = parent;
    return n;
  }

  GS_HD void binary(u32 e) {
    if (is_logical(node(e).op)) {  // a boolean value from jumping code
      u32 is_false = 0, done = 0;
      branch(e, false, &is_false);
      emit(Op::LOAD_INT, 1);
      jump(Op::JUMP, &done);
      --depth;  // the false path arrives here without the 1
      patch(is_false, here());
      emit(Op::LOAD_INT, 0);
      patch(done, here());
      return;
    }
    u32 b;
    value(descend(e, &b, [](u8 op) { return !is_logical(op); }));
    while (b != 0) {
      u32 up = node(b).ref;
      value(next(node(b).first));
      operator_of(b);
      b = up;
    }
  }

  // The instruction(s) of binary node e, its operands being on the stack.
  GS_HD void operator_of(u32 e) {
    const Node& n = node(e);
    Tok op = Tok(n.op);
    u32 lhs = n.first, rhs = next(lhs);
    Type a = node(lhs).type, b = node(rhs).type;
    Type t = a == Type::EmptyArray ? b : a;  // the operands' common type
    if (t == Type::Str && op != Tok::PLUS) {
      emit(Op::STR_COMPARE);
      emit(Op::LOAD_INT, 0);
      t = Type::Int;
    }
    if (is_array(t) || t == Type::EmptyArray) {
      if (op == Tok::PLUS) return emit(Op::CONCAT_ARRAY);
      Type element = element_of(t) == Type::Empty ? Type::Int : element_of(t);
      emit(Op::ARRAY_EQ, u32(element));
      if (op == Tok::NE) emit(Op::UNARY_NOT);
      return;
    }
    emit(binary_op(op, t));
  }

  GS_HD static Op binary_op(Tok op, Type t) {
    if (t == Type::Float) {
      switch (op) {
        case Tok::PLUS: return Op::FLOAT_ADD;
        case Tok::MINUS: return Op::FLOAT_SUB;
        case Tok::STAR: return Op::FLOAT_MUL;
        case Tok::SLASH: return Op::FLOAT_DIV;
        case Tok::TRUE_DIV: return Op::FLOAT_TRUE_DIV;
        case Tok::PERCENT: return Op::FLOAT_MOD;
        case Tok::LT: return Op::FLOAT_LT;
        case Tok::LE: return Op::FLOAT_LE;
        case Tok::GT: return Op::FLOAT_GT;
        case Tok::GE: return Op::FLOAT_GE;
        case Tok::EQ: return Op::FLOAT_EQ;
        default: return Op::FLOAT_NE;
      }
    }
    if (t == Type::Str) return Op::CONCAT_STR;  // only + reaches here for strings
    switch (op) {
      case Tok::PLUS: return Op::BINARY_ADD;
      case Tok::MINUS: return Op::BINARY_SUB;
      case Tok::STAR: return Op::BINARY_MUL;
      case Tok::SLASH: return Op::BINARY_DIV;
      case Tok::PERCENT: return Op::BINARY_MOD;
      case Tok::FLOOR_DIV: return Op::FLOOR_DIV;
      case Tok::FLOOR_MOD: return Op::FLOOR_MOD;
      case Tok::AMP: return Op::BINARY_AND;
      case Tok::PIPE: return Op::BINARY_OR;
      case Tok::CARET: return Op::BINARY_XOR;
      case Tok::SHL: return Op::BINARY_SHL;
      case Tok::SHR: return Op::BINARY_SHR;
      case Tok::USHR: return Op::BINARY_USHR;
      case Tok::LT: return Op::COMPARE_LT;
      case Tok::LE: return Op::COMPARE_LE;
      case Tok::GT: return Op::COMPARE_GT;
      case Tok::GE: return Op::COMPARE_GE;
      case Tok::EQ: return Op::COMPARE_EQ;
      default: return Op::COMPARE_NE;
    }
  }

  // Jumps (via *list) when e evaluates to `when`; falls through otherwise.
  GS_HD GS_DEVICE_NOINLINE void branch(u32 e, bool when, u32* list) {
    const Node& n = node(e);
    if (n.kind == NodeKind::BoolLit) {
      if ((n.value != 0) == when) jump(Op::JUMP, list);
      return;
    }
    Tok op = Tok(n.op);
    if (n.kind == NodeKind::Unary && op == Tok::NOT) return branch(n.first, !when, list);
    if (n.kind == NodeKind::Binary && is_logical(n.op)) {
      // a && b jumps on false as soon as a is false; a || b jumps on true as soon as a is.
      // A chain of one operator is walked like any binary chain.
      bool shortcut = op == Tok::OR;
      u32 b, skip = 0;
      u32 leftmost = descend(e, &b, [op](u8 o) { return Tok(o) == op; });
      bool direct = when == shortcut;
      branch(leftmost, shortcut, direct ? list : &skip);
      while (b != 0) {
        u32 up = node(b).ref;
        bool last = b == e;
        branch(next(node(b).first), last ? when : shortcut, direct || last ? list : &skip);
        b = up;
      }
      patch(skip, here());
      return;
    }
    value(e);
    jump(when ? Op::JUMP_IF_TRUE : Op::JUMP_IF_FALSE, list);
  }
};

}  // namespace gs::compiler
