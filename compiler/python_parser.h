// The typed-Python front end's parser: tokens (compiler/python_lexer.h) -> the syntax tree the
// Syn parser builds (compiler/ast.h), so the checker and the code generator are shared. What
// Python spells differently is rewritten here: `x in xs` is contains(xs, x), `xs.append(v)` the
// in-place x = push(x, v), `sorted` sort, `[v] * n` array(max(n, 0), v), `s[a:b]` a Slice, `a // b`
// the FLOOR_DIV operator; `a if c else b` and `[e for x in seq if c]` are the two node kinds only
// Python has (IfExpr, Comprehension). Python semantics that depend on types (promotion to float, a str's
// element being a str, variables scoped to the function, definite assignment, aliasing) are the
// checker's (compiler/checker.h, "Python" there). Anything outside the subset (docs/python.md)
// is a located error. Host+device code; recursion bounded by CompileLimits::max_depth as in the
// Syn parser, whose node and error machinery this one extends.
#pragma once

#include "compiler/parser.h"
#include "compiler/python_lexer.h"

namespace gs::compiler {

struct PythonParser : Parser {
  GS_HD explicit PythonParser(Workspace& workspace) : Parser{workspace} {}

  // The token index of a "(" that may open a generator expression (parse_arguments), or
  // kGeneratorTaken once parse_parenthesized has made one of it.
  u32 generator_paren = 0;
  static constexpr u32 kGeneratorTaken = ~0u;

  // ---- helpers ------------------------------------------------------------------------------
  GS_HD bool spelled_as(const Token& t, const char* word) const {
    u32 i = 0;
    while (i < t.len && word[i] == w.source[t.pos + i]) ++i;
    return i == t.len && word[i] == 0;
  }
  GS_HD bool at_word(const char* word) const { return kind() == Tok::IDENT && spelled_as(tok(), word); }
  GS_HD bool at_line_end() const {
    return kind() == Tok::NEWLINE || kind() == Tok::SEMI || kind() == Tok::END || kind() == Tok::DEDENT;
  }
  GS_HD void outside(u32 pos, u32 len) { error_at(Code::PY_OUTSIDE_SUBSET, pos, len); }
  GS_HD void outside_here() {
    if (kind() == Tok::INVALID) {
      panic = true;
      return;
    }
    outside(tok().pos, tok().len);
  }

  // Skips the rest of a logical line and, when an indented block follows, that block.
  GS_HD void skip_line() {
    u32 depth = 0;
    while (kind() != Tok::END) {
      if (kind() == Tok::DEDENT) {
        if (depth == 0) break;
        advance();
        if (--depth == 0) break;  // the block after the line is over
        continue;
      }
      if (kind() == Tok::INDENT) ++depth;
      bool newline = kind() == Tok::NEWLINE;
      advance();
      if (newline && depth == 0 && kind() != Tok::INDENT) break;
    }
    panic = false;
  }

  // A call of builtin `name` whose span is the token at (not its name): Python spells it differently.
  GS_HD u32 named_call(const Token& at_token, const char* name) {
    u32 call = make(NodeKind::Call, at_token.pos, at_token.len);
    if (call == 0) return 0;
    u32 n = 0;
    while (name[n] != 0) ++n;
    w.nodes[call].flags |= kNamedBuiltin;
    w.nodes[call].value = u64(find_builtin(name, n));
    return call;
  }
  GS_HD u32 int_node(u32 pos, i64 v) {
    u32 node = make(NodeKind::IntLit, pos, 0);
    if (node != 0) {
      w.nodes[node].value = u64(v);
      w.nodes[node].type = Type::Int;
    }
    return node;
  }
  // A copy of a leaf node (a name or a literal), for `xs[i] += v`.
  GS_HD u32 copy_leaf(u32 node) {
    u32 copy = make(w.nodes[node].kind, w.nodes[node].pos, w.nodes[node].len);
    if (copy != 0) {
      Node& c = w.nodes[copy];
      c.value = w.nodes[node].value;
      c.type = w.nodes[node].type;
      c.ref = w.nodes[node].ref;
    }
    return copy;
  }

  // ---- declarations -------------------------------------------------------------------------

  // module = { NEWLINE | "from" "typing" "import" names NEWLINE | funcdef } END ;
  GS_HD u32 parse_module() {
    u32 program = make(NodeKind::Program, 0, w.source_len), last = 0;
    while (kind() != Tok::END && !fatal && !w.diagnostics.stopped) {
      if (accept(Tok::NEWLINE)) continue;
      if (kind() == Tok::STRING &&
          (peek() == Tok::NEWLINE || peek() == Tok::END)) {  // the module's docstring
        advance();
        continue;
      }
      if (kind() == Tok::KW_DEF) {
        add(program, &last, parse_def());
      } else if (kind() == Tok::KW_FROM && w.tokens[at + 1].kind == Tok::IDENT &&
                 spelled_as(w.tokens[at + 1], "typing")) {
        while (kind() != Tok::NEWLINE && kind() != Tok::END)
          advance();  // typing's names are the annotations'
      } else if (kind() == Tok::KW_FROM || kind() == Tok::KW_IMPORT || kind() == Tok::KW_OUTSIDE) {
        outside_here();
      } else if (kind() == Tok::INDENT) {
        error(Code::PY_UNEXPECTED_INDENT);
      } else {
        error(Code::PY_TOP_LEVEL);
      }
      if (panic) skip_line();
      panic = false;
    }
    return program;
  }

  // funcdef = "def" IDENT "(" [ param { "," param } [ "," ] ] ")" "->" result ":" suite ;
  // param   = IDENT ":" type ;
  GS_HD u32 parse_def() {
    advance();  // def
    u32 fn = make_at_token(NodeKind::Function), last = 0;
    FunctionInfo info{};
    info.name_pos = tok().pos;
    info.name_len = tok().len;
    info.node = fn;
    bool named = kind() == Tok::IDENT;
    if (named)
      advance();
    else
      error(Code::EXPECTED, u32(Tok::IDENT));
    if (!panic && expect(Tok::LPAREN)) {
      while (kind() == Tok::IDENT && !panic) {
        u32 param = make_at_token(NodeKind::Param);
        const Token name = tok();
        advance();
        Type t = Type::Error;
        if (accept(Tok::COLON))
          t = parse_type();
        else
          error_at(Code::PY_ANNOTATION, name.pos, name.len);
        if (kind() == Tok::ASSIGN) outside_here();  // a default value
        if (param != 0) w.nodes[param].type = t;
        if (info.param_count == vm::kMaxParams)
          error_at(Code::TOO_MANY_PARAMS, name.pos, name.len, vm::kMaxParams);
        else
          info.types[info.param_count++] = u8(t);
        add(fn, &last, param);
        if (!accept(Tok::COMMA)) break;
      }
      if (!panic) expect(Tok::RPAREN);
    }
    if (!panic) {
      if (accept(Tok::ARROW))
        parse_result(&info);
      else
        error_at(Code::PY_ANNOTATION, info.name_pos, info.name_len);
    }
    if (panic) {  // a broken header: skip to its ':'
      info.broken = 1;
      while (kind() != Tok::END && kind() != Tok::NEWLINE &&
             !(kind() == Tok::COLON && peek() == Tok::NEWLINE))
        advance();
      panic = false;
    }
    if (expect(Tok::COLON)) {
      add(fn, &last, parse_suite());
    } else {
      info.broken = 1;
      skip_line();
    }
    finish_function(fn, info, named);
    return fn;
  }

  // result = "None" | type | ( "tuple" | "Tuple" ) "[" type { "," type } "]" ;
  GS_HD void parse_result(FunctionInfo* info) {
    if (accept(Tok::KW_NONE)) return;
    bool tuple = at_word("tuple") || at_word("Tuple");
    if (tuple) {
      advance();
      expect(Tok::LBRACKET);
    }
    do {
      Type t = parse_type();
      if (info->result_count == vm::kMaxResults)
        error(Code::TOO_MANY_RESULTS, vm::kMaxResults);
      else
        info->types[vm::kMaxParams + info->result_count++] = u8(t);
    } while (tuple && accept(Tok::COMMA) && !panic);
    if (tuple) expect(Tok::RBRACKET);
  }

  // type = "int" | "float" | "bool" | "str" | ( "list" | "List" ) "[" type "]" ;
  GS_HD Type parse_type() {
    if (kind() == Tok::IDENT) {
      const Token t = tok();
      Type scalar = spelled_as(t, "int")     ? Type::Int
                    : spelled_as(t, "float") ? Type::Float
                    : spelled_as(t, "bool")  ? Type::Bool
                    : spelled_as(t, "str")   ? Type::Str
                                             : Type::Error;
      if (scalar != Type::Error) {
        advance();
        return scalar;
      }
      if (spelled_as(t, "list") || spelled_as(t, "List")) {
        advance();
        if (!expect(Tok::LBRACKET)) return Type::Error;
        if (at_word("list") || at_word("List")) {
          error(Code::NESTED_ARRAY);
          return Type::Error;
        }
        Type element = parse_type();
        if (!expect(Tok::RBRACKET)) return Type::Error;
        return element == Type::Error ? Type::Error : array_of(element);
      }
    }
    error(Code::PY_EXPECTED_TYPE);
    return Type::Error;
  }

  // ---- statements ---------------------------------------------------------------------------

  // suite = NEWLINE INDENT statement { statement } DEDENT | simple_line ;
  GS_HD u32 parse_suite() {
    Level level(*this);
    u32 block = make_at_token(NodeKind::Block), last = 0;
    if (!level.ok) return block;
    if (!accept(Tok::NEWLINE)) {  // `if c: return x` on one line
      if (block != 0) w.nodes[block].pos = tok().pos;
      parse_simple_line(block, &last);
      close_span(block);
      return block;
    }
    if (kind() != Tok::INDENT) {
      error(Code::PY_EXPECTED_BLOCK);
      return block;
    }
    advance();
    if (block != 0) w.nodes[block].pos = tok().pos;
    while (kind() != Tok::DEDENT && kind() != Tok::END && !fatal && !w.diagnostics.stopped) {
      u32 start = at;
      parse_statement(block, &last);
      if (panic) skip_line();
      panic = false;
      if (at == start) advance();
    }
    close_span(block);
    accept(Tok::DEDENT);
    return block;
  }

  // statement = if_stmt | while_stmt | for_stmt | simple_line ;
  GS_HD GS_DEVICE_NOINLINE void parse_statement(u32 block, u32* last) {
    switch (kind()) {
      case Tok::KW_IF: add(block, last, parse_if()); return;
      case Tok::KW_WHILE: add(block, last, parse_while()); return;
      case Tok::KW_FOR: add(block, last, parse_for()); return;
      case Tok::KW_DEF: outside_here(); return;  // a nested function
      case Tok::INDENT: error(Code::PY_UNEXPECTED_INDENT); return;
      default: parse_simple_line(block, last);
    }
  }

  // simple_line = small { ";" small } [ ";" ] NEWLINE ;
  GS_HD void parse_simple_line(u32 block, u32* last) {
    do parse_small(block, last);
    while (!panic && accept(Tok::SEMI) && !at_line_end());
    if (panic) return;
    if (!accept(Tok::NEWLINE) && kind() != Tok::END && kind() != Tok::DEDENT)
      error(Code::EXPECTED, u32(Tok::NEWLINE));
  }

  // small = "pass" | "break" | "continue" | "return" [ expr { "," expr } ] | assignment | expr ;
  GS_HD void parse_small(u32 block, u32* last) {
    switch (kind()) {
      case Tok::KW_PASS: advance(); return;
      case Tok::KW_BREAK:
      case Tok::KW_CONTINUE:
        add(block, last, make_at_token(kind() == Tok::KW_BREAK ? NodeKind::Break : NodeKind::Continue));
        advance();
        return;
      case Tok::KW_RETURN: add(block, last, parse_return()); return;
      case Tok::KW_FROM:
      case Tok::KW_IMPORT:
      case Tok::KW_OUTSIDE:
      case Tok::KW_ELSE:
      case Tok::KW_ELIF: outside_here(); return;
      default: parse_expression_statement(block, last);
    }
  }

  GS_HD u32 parse_return() {
    u32 stmt = make_at_token(NodeKind::Return), last = 0;
    advance();  // return
    if (at_line_end()) return stmt;
    u32 first = parse_expr();
    if (kind() != Tok::COMMA) {
      add(stmt, &last, first);
      return stmt;
    }
    u32 tuple = make(NodeKind::Tuple, first != 0 ? w.nodes[first].pos : tok().pos, 1), tlast = 0;
    add(tuple, &tlast, first);
    while (accept(Tok::COMMA) && !panic && !at_line_end()) add(tuple, &tlast, parse_expr());
    close_span(tuple);
    add(stmt, &last, tuple);
    return stmt;
  }

  // assignment = target "=" expr | IDENT ":" type "=" expr | target AUG_ASSIGN expr ;
  // target     = IDENT | IDENT "[" expr "]" ;
  GS_HD void parse_expression_statement(u32 block, u32* last) {
    u32 target = parse_expr();
    if (panic || target == 0) return;
    const Node t = w.nodes[target];
    if (kind() == Tok::COMMA) {  // a, b = f(x) or a, b = x, y
      add(block, last, parse_tuple_assignment(target));
      return;
    }
    if (kind() == Tok::COLON) {  // x: T = value
      if (t.kind != NodeKind::Name) {
        error_at(Code::BAD_ASSIGNMENT, t.pos, t.len);
        return;
      }
      advance();
      Type type = parse_type();
      if (!expect(Tok::ASSIGN)) return;
      u32 let = make(NodeKind::Let, t.pos, t.len), llast = 0;
      if (let != 0) w.nodes[let].type = type;
      add(let, &llast, parse_value());
      add(block, last, let);
      return;
    }
    if (kind() == Tok::ASSIGN) {
      advance();
      u32 value = parse_value();
      const Node& v = w.nodes[value];
      if (value != 0 && v.kind == NodeKind::Call && (v.flags & kInPlace) && t.kind == NodeKind::Name &&
          v.len == 3 && equal_bytes(w.source + v.pos, "pop", 3)) {
        // x = xs.pop() / xs.pop(0): x = xs[-1] / xs[0] (which traps on an empty list), then the pop
        u32 element = make(NodeKind::Index, v.pos, v.len), elast = 0;
        if (element == 0) return;
        w.nodes[element].flags |= kPython;
        add(element, &elast, copy_leaf(v.first));
        add(element, &elast, int_node(v.pos, w.nodes[v.first].next != 0 ? 0 : -1));
        add(block, last, assignment(t, 0, element, 0));
        in_place(block, last, value);
        return;
      }
      add(block, last, assignment(t, 0, value, 0));
      return;
    }
    if (kind() == Tok::AUG_ASSIGN) {
      const Token op_token = tok();
      Tok op = augmented_operator(op_token);
      advance();
      if (op == Tok::INVALID) {
        outside(op_token.pos, op_token.len);
        return;
      }
      u32 rhs = parse_value();
      u32 index_copy = 0;
      if (t.kind == NodeKind::Index) {
        u32 index = w.nodes[t.first].next;
        NodeKind k = w.nodes[index].kind;
        if (k != NodeKind::Name && k != NodeKind::IntLit) {
          outside(t.pos, t.len);  // xs[f(i)] += v would evaluate f(i) twice
          return;
        }
        index_copy = copy_leaf(index);
      }
      u32 binary = make(NodeKind::Binary, op_token.pos, op_token.len);
      if (binary == 0 || rhs == 0) return;
      link_binary(binary, op, target, rhs);
      u32 stmt = assignment(t, index_copy, binary, op == Tok::PLUS ? kInPlace : 0);
      add(block, last, stmt);
      return;
    }
    // an expression statement: a call, an in-place method, or a docstring
    if (t.kind == NodeKind::StrLit) return;
    if (t.kind == NodeKind::Call && (t.flags & kInPlace)) {
      if (w.nodes[t.first].next != 0 && t.len == 3 && equal_bytes(w.source + t.pos, "pop", 3)) {
        outside(t.pos, t.len);  // xs.pop(0) whose element is dropped: it would not trap on []
        return;
      }
      in_place(block, last, target);
      return;
    }
    if (t.kind != NodeKind::Call) {
      if (t.kind != NodeKind::Error) error_at(Code::NOT_A_CALL, t.pos, t.len);
      return;
    }
    u32 stmt = make(NodeKind::ExprStmt, t.pos, t.len), slast = 0;
    add(stmt, &slast, target);
    add(block, last, stmt);
  }

  // The statement of an in-place method call (append, pop): receiver = call, marked kInPlace.
  GS_HD void in_place(u32 block, u32* last, u32 call) {
    w.nodes[call].flags &= u8(~kInPlace);
    const Node& receiver = w.nodes[w.nodes[call].first];
    u32 stmt = make(NodeKind::Assign, receiver.pos, receiver.len), slast = 0;
    if (stmt != 0) w.nodes[stmt].flags |= kInPlace;
    add(stmt, &slast, call);
    add(block, last, stmt);
  }

  // tuple_assignment = IDENT "," IDENT { "," IDENT } "=" ( call | expr "," expr { "," expr } ) ;
  // A LetTuple whose bindings are the names: every value is computed before any is stored.
  GS_HD u32 parse_tuple_assignment(u32 first) {
    const Node& f = w.nodes[first];
    u32 stmt = make(NodeKind::LetTuple, f.pos, f.len), last = 0;
    if (stmt != 0) w.nodes[stmt].flags |= kPython;
    u32 target = first;
    for (;;) {
      if (target == 0) return 0;
      const Node& t = w.nodes[target];
      if (t.kind != NodeKind::Name) {
        if (t.kind != NodeKind::Error) error_at(Code::BAD_ASSIGNMENT, t.pos, t.len);
        return 0;
      }
      u32 binding = make(NodeKind::Binding, t.pos, t.len);
      add(stmt, &last, binding);
      if (!accept(Tok::COMMA) || kind() == Tok::ASSIGN) break;
      target = parse_arith(1);
      if (panic) return 0;
    }
    if (!expect(Tok::ASSIGN)) return 0;
    u32 value = parse_expr();
    if (kind() == Tok::COMMA) {
      u32 tuple = make(NodeKind::Tuple, value != 0 ? w.nodes[value].pos : tok().pos, 1), tlast = 0;
      add(tuple, &tlast, value);
      while (accept(Tok::COMMA) && !panic && !at_line_end()) add(tuple, &tlast, parse_expr());
      close_span(tuple);
      value = tuple;
    }
    if (!panic && kind() == Tok::ASSIGN) outside_here();
    add(stmt, &last, value);
    return stmt;
  }

  // The right-hand side of an assignment: one expression (a, b or x = y = z are outside).
  GS_HD u32 parse_value() {
    u32 value = parse_expr();
    if (!panic && (kind() == Tok::COMMA || kind() == Tok::ASSIGN)) outside_here();
    return value;
  }

  // target = value for a parsed target: Assign for a name, AssignIndex for xs[i] (index: the
  // index node to use, 0 for the target's own).
  GS_HD u32 assignment(const Node& t, u32 index, u32 value, u8 flags) {
    if (t.kind == NodeKind::Name) {
      u32 stmt = make(NodeKind::Assign, t.pos, t.len), slast = 0;
      if (stmt != 0) w.nodes[stmt].flags |= flags;
      add(stmt, &slast, value);
      return stmt;
    }
    if (t.kind == NodeKind::Index && w.nodes[t.first].kind == NodeKind::Name) {
      const Node& seq = w.nodes[t.first];
      u32 stmt = make(NodeKind::AssignIndex, seq.pos, seq.len), slast = 0;
      if (stmt != 0) w.nodes[stmt].flags |= kPython;
      add(stmt, &slast, index != 0 ? index : seq.next);
      add(stmt, &slast, value);
      return stmt;
    }
    if (t.kind != NodeKind::Error) error_at(Code::BAD_ASSIGNMENT, t.pos, t.len);
    return 0;
  }

  // The operator of an augmented assignment (INVALID for one outside the subset: **=, @=).
  GS_HD Tok augmented_operator(const Token& t) const {
    const char* s = w.source + t.pos;
    if (t.len == 3)
      return s[0] == '/' ? Tok::FLOOR_DIV : s[0] == '<' ? Tok::SHL : s[0] == '>' ? Tok::SHR : Tok::INVALID;
    switch (s[0]) {
      case '+': return Tok::PLUS;
      case '-': return Tok::MINUS;
      case '*': return Tok::STAR;
      case '/': return Tok::TRUE_DIV;
      case '%': return Tok::FLOOR_MOD;
      case '&': return Tok::AMP;
      case '|': return Tok::PIPE;
      case '^': return Tok::CARET;
      default: return Tok::INVALID;
    }
  }

  // if_stmt = ( "if" | "elif" ) expr ":" suite [ if_stmt starting "elif" | "else" ":" suite ] ;
  GS_HD u32 parse_if() {
    Level level(*this);
    u32 stmt = make_at_token(NodeKind::If), last = 0;
    advance();  // if / elif
    if (!level.ok) return stmt;
    add(stmt, &last, parse_expr());
    if (!expect(Tok::COLON)) return stmt;
    add(stmt, &last, parse_suite());
    if (kind() == Tok::KW_ELIF) {
      add(stmt, &last, parse_if());
    } else if (kind() == Tok::KW_ELSE) {
      advance();
      if (expect(Tok::COLON)) add(stmt, &last, parse_suite());
    }
    return stmt;
  }

  // while_stmt = "while" expr ":" suite ;
  GS_HD u32 parse_while() {
    u32 stmt = make_at_token(NodeKind::While), last = 0;
    advance();  // while
    add(stmt, &last, parse_expr());
    if (!expect(Tok::COLON)) return stmt;
    add(stmt, &last, parse_suite());
    if (kind() == Tok::KW_ELSE) outside_here();  // while ... else
    return stmt;
  }

  // for_stmt = "for" IDENT "in" ( "range" "(" expr [ "," expr [ "," expr ] ] ")"
  //                             | "reversed" "(" expr ")" | expr ) ":" suite ;
  GS_HD u32 parse_for() {
    advance();  // for
    u32 stmt = make_at_token(NodeKind::ForEach), last = 0;
    if (!parse_loop_head(stmt, &last, false)) return stmt;
    if (!expect(Tok::COLON)) return stmt;
    add(stmt, &last, parse_suite());
    if (kind() == Tok::KW_ELSE) outside_here();  // for ... else
    return stmt;
  }

  // loop_head = IDENT "in" iterable
  //           | IDENT "," IDENT "in" "enumerate" "(" ( reversed | expr ) [ "," [ "-" ] INT ] ")" ;
  // The loop's variable and what it walks, into loop (made at the first name). For enumerate the
  // loop walks the sequence with the second name, and a Binding (the first name, value: the
  // start) after the sequence receives the index. False after a syntax error.
  GS_HD bool parse_loop_head(u32 loop, u32* last, bool in_comprehension) {
    if (!accept(Tok::IDENT)) {
      error(Code::EXPECTED, u32(Tok::IDENT));
      return false;
    }
    if (kind() != Tok::COMMA) return expect(Tok::KW_IN) && parse_iterable(loop, last, in_comprehension);
    const Token index = w.tokens[at - 1];
    advance();  // ,
    const Token element = tok();
    if (!accept(Tok::IDENT)) {
      error(Code::EXPECTED, u32(Tok::IDENT));
      return false;
    }
    if (!expect(Tok::KW_IN)) return false;
    if (!at_word("enumerate") || peek() != Tok::LPAREN) {  // zip(...), a tuple unpacked: outside
      outside(index.pos, element.pos + element.len - index.pos);
      return false;
    }
    advance();  // enumerate
    advance();  // (
    u32 seq = at_word("reversed") && peek() == Tok::LPAREN ? parse_reversed() : parse_expr();
    i64 start = 0;
    if (accept(Tok::COMMA) && !panic) {
      u32 s = parse_unary();
      if (s != 0 && w.nodes[s].kind != NodeKind::IntLit) outside(w.nodes[s].pos, w.nodes[s].len);
      if (s != 0) start = i64(w.nodes[s].value);
    }
    if (panic || !expect(Tok::RPAREN)) return false;
    u32 binding = make(NodeKind::Binding, index.pos, index.len);
    if (loop == 0 || binding == 0) return false;
    Node& l = w.nodes[loop];
    l.pos = element.pos;
    l.len = element.len;
    l.flags |= kPython | kEnumerate;
    w.nodes[binding].value = u64(start);
    add(loop, last, seq);
    add(loop, last, binding);
    return true;
  }

  // iterable = "range" "(" expr [ "," expr [ "," expr ] ] ")" | "reversed" "(" expr ")" | expr ;
  // The children of loop (a ForEach, made a ForRange for range): the sequence, or lo, hi and
  // the step. A comprehension's sequence is an or_test, so that its `if` is not an `a if c
  // else b`. False after a syntax error.
  GS_HD bool parse_iterable(u32 loop, u32* last, bool in_comprehension) {
    if (loop != 0) w.nodes[loop].flags |= kPython;
    if (at_word("range") && peek() == Tok::LPAREN) {
      const Token range = tok();
      advance();
      advance();  // (
      u32 bounds[3] = {0, 0, 0}, count = 0;
      while (kind() != Tok::RPAREN && !panic && count < 3) {
        bounds[count++] = parse_expr();
        if (!accept(Tok::COMMA)) break;
      }
      if (count == 0 || kind() != Tok::RPAREN) {
        if (!panic) error(count == 0 ? Code::EXPECTED_EXPRESSION : Code::EXPECTED, u32(Tok::RPAREN));
        return false;
      }
      advance();  // )
      if (loop != 0) w.nodes[loop].kind = NodeKind::ForRange;
      if (count == 1) {
        add(loop, last, int_node(range.pos, 0));
        add(loop, last, bounds[0]);
      } else {
        add(loop, last, bounds[0]);
        add(loop, last, bounds[1]);
      }
      if (count == 3) {
        add(loop, last, bounds[2]);
        if (loop != 0) w.nodes[loop].flags |= kHasStep;
      }
    } else if (at_word("reversed") && peek() == Tok::LPAREN) {
      add(loop, last, parse_reversed());
    } else {
      add(loop, last, in_comprehension ? parse_logical(Tok::OR) : parse_expr());
    }
    return !panic;
  }

  // ---- expressions --------------------------------------------------------------------------

  // expr = or_test [ "if" or_test "else" expr ] ;   (an IfExpr: only the chosen arm is evaluated)
  GS_HD GS_DEVICE_NOINLINE u32 parse_expr() {
    Level level(*this);
    if (!level.ok) return error_node();
    u32 e = parse_logical(Tok::OR);
    if (kind() != Tok::KW_IF || panic) return e;
    u32 node = make_at_token(NodeKind::IfExpr), last = 0;
    advance();  // if
    u32 cond = parse_logical(Tok::OR);
    if (!expect(Tok::KW_ELSE)) return error_node();
    u32 other = parse_expr();
    if (node == 0 || e == 0) return error_node();
    w.nodes[node].pos = w.nodes[e].pos;
    add(node, &last, cond);
    add(node, &last, e);
    add(node, &last, other);
    close_span(node);
    return node;
  }

  // comprehension = expr "for" loop_head { "if" or_test } ;   (after the element;
  // several `if`s are one `and`; a second `for` is outside the subset). Fills node comp.
  GS_HD u32 parse_comprehension(u32 comp, u32 element) {
    Level level(*this);
    if (!level.ok) return error_node();
    advance();  // for
    u32 loop = make_at_token(NodeKind::ForEach), loop_last = 0, last = 0;
    if (!parse_loop_head(loop, &loop_last, true)) return error_node();
    u32 cond = 0;
    while (kind() == Tok::KW_IF && !panic) {
      const Token if_token = tok();
      advance();
      u32 c = parse_logical(Tok::OR);
      if (cond == 0 || c == 0) {
        cond = c;
        continue;
      }
      u32 both = make(NodeKind::Binary, if_token.pos, if_token.len);
      if (both == 0) return error_node();
      link_binary(both, Tok::AND, cond, c);
      cond = both;
    }
    if (kind() == Tok::KW_FOR && !panic) outside_here();  // [x for xs in xss for x in xs]
    if (comp == 0 || element == 0 || loop == 0 || panic) return error_node();
    w.nodes[comp].kind = NodeKind::Comprehension;
    add(comp, &last, loop);
    add(comp, &last, element);
    add(comp, &last, cond);
    return comp;
  }

  // or_test = and_test { "or" and_test } ;  and_test = not_test { "and" not_test } ;
  GS_HD u32 parse_logical(Tok op) {
    u32 lhs = op == Tok::OR ? parse_logical(Tok::AND) : parse_not();
    while (kind() == op && !panic) {
      u32 node = make_at_token(NodeKind::Binary);
      advance();
      u32 rhs = op == Tok::OR ? parse_logical(Tok::AND) : parse_not();
      if (node == 0 || lhs == 0 || rhs == 0) return lhs;
      link_binary(node, op, lhs, rhs);
      lhs = node;
    }
    return lhs;
  }

  // not_test = "not" not_test | comparison ;
  GS_HD u32 parse_not() {
    if (kind() != Tok::NOT) return parse_comparison();
    Level level(*this);
    if (!level.ok) return error_node();
    u32 node = make_at_token(NodeKind::Unary), last = 0;
    advance();
    if (node != 0) w.nodes[node].op = u8(Tok::NOT);
    add(node, &last, parse_not());
    return node;
  }

  GS_HD bool at_comparison() const {
    Tok k = kind();
    return k == Tok::EQ || k == Tok::NE || k == Tok::LT || k == Tok::LE || k == Tok::GT || k == Tok::GE ||
           k == Tok::KW_IN || (k == Tok::NOT && peek() == Tok::KW_IN);
  }

  // comparison = arith [ ( "==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not" "in" ) arith ] ;
  GS_HD u32 parse_comparison() {
    u32 lhs = parse_arith(1);
    if (!at_comparison() || panic) return lhs;
    const Token op_token = tok();
    Tok op = kind();
    bool negated = op == Tok::NOT;
    if (negated) advance();
    const Token in_token = tok();
    advance();
    u32 rhs = parse_arith(1);
    u32 node;
    if (op == Tok::KW_IN || negated) {  // x in xs: contains(xs, x)
      node = named_call(in_token, "contains");
      u32 clast = 0;
      if (node == 0 || lhs == 0 || rhs == 0) return lhs;
      add(node, &clast, rhs);
      add(node, &clast, lhs);
      if (negated) {
        u32 n = make(NodeKind::Unary, op_token.pos, in_token.pos + in_token.len - op_token.pos), nlast = 0;
        if (n != 0) w.nodes[n].op = u8(Tok::NOT);
        add(n, &nlast, node);
        node = n;
      }
    } else {
      node = make(NodeKind::Binary, op_token.pos, op_token.len);
      if (node == 0 || lhs == 0 || rhs == 0) return lhs;
      link_binary(node, op, lhs, rhs);
    }
    if (at_comparison() && !panic) {
      error(Code::PY_CHAINED);
      if (node != 0) w.nodes[node].kind = NodeKind::Error;
    }
    return node;
  }

  // Binding power of a binary operator below the comparisons; 0 for anything else.
  GS_HD static u32 precedence(Tok k) {
    switch (k) {
      case Tok::PIPE: return 1;
      case Tok::CARET: return 2;
      case Tok::AMP: return 3;
      case Tok::SHL:
      case Tok::SHR: return 4;
      case Tok::PLUS:
      case Tok::MINUS: return 5;
      case Tok::STAR:
      case Tok::SLASH:
      case Tok::DSLASH:
      case Tok::PERCENT: return 6;
      default: return 0;
    }
  }

  // arith = the operators | ^ & << >> + - * / // % by precedence climbing, each left-associative;
  // `[v] * n` (or `n * [v]`) is array(max(n, 0), v).
  GS_HD u32 parse_arith(u32 min_precedence) {
    u32 lhs = parse_unary();
    for (;;) {
      u32 p = precedence(kind());
      if (p == 0 || p < min_precedence || panic) return lhs;
      const Token op_token = tok();
      Tok op = kind();
      advance();
      u32 rhs = parse_arith(p + 1);
      if (lhs == 0 || rhs == 0) return lhs;
      if (op == Tok::STAR && (single_element_list(lhs) || single_element_list(rhs))) {
        bool list_first = single_element_list(lhs);
        lhs = repeated_list(op_token, list_first ? lhs : rhs, list_first ? rhs : lhs);
        continue;
      }
      u32 node = make(NodeKind::Binary, op_token.pos, op_token.len);
      if (node == 0) return lhs;
      Tok tree_op = op == Tok::SLASH     ? Tok::TRUE_DIV
                    : op == Tok::DSLASH  ? Tok::FLOOR_DIV
                    : op == Tok::PERCENT ? Tok::FLOOR_MOD
                                         : op;
      link_binary(node, tree_op, lhs, rhs);
      lhs = node;
    }
  }

  GS_HD bool single_element_list(u32 node) const {
    const Node& n = w.nodes[node];
    return n.kind == NodeKind::ArrayLit && n.first != 0 && w.nodes[n.first].next == 0;
  }
  GS_HD u32 repeated_list(const Token& star, u32 list, u32 count) {
    u32 element = w.nodes[list].first;
    u32 call = named_call(star, "array"), last = 0;
    u32 at_least = named_call(star, "max"), mlast = 0;
    add(at_least, &mlast, count);
    add(at_least, &mlast, int_node(star.pos, 0));
    add(call, &last, at_least);
    add(call, &last, element);
    return call;
  }

  // unary = ( "-" | "~" ) unary | power ;   (unary "+" is outside the subset)
  GS_HD GS_DEVICE_NOINLINE u32 parse_unary() {
    Tok k = kind();
    if (k == Tok::MINUS && peek() == Tok::INT && peek(2) != Tok::LBRACKET && peek(2) != Tok::DSTAR &&
        peek(2) != Tok::DOT) {
      advance();  // a negative literal, so that -9223372036854775808 is one
      return parse_number(true, w.tokens[at - 1].pos);
    }
    if (k == Tok::PLUS) {
      outside_here();
      return error_node();
    }
    if (k != Tok::MINUS && k != Tok::TILDE) return parse_power();
    Level level(*this);
    if (!level.ok) return error_node();
    u32 node = make_at_token(NodeKind::Unary), last = 0;
    advance();
    if (node != 0) w.nodes[node].op = u8(k);
    add(node, &last, parse_unary());
    return node;
  }

  // power = postfix ;   (`**` is outside the subset)
  GS_HD u32 parse_power() {
    u32 e = parse_postfix();
    if (kind() == Tok::DSTAR && !panic) outside_here();
    return e;
  }

  // postfix = atom { "[" subscript "]" | "." IDENT "(" [ args ] ")" } ;
  GS_HD u32 parse_postfix() {
    u32 e = parse_atom();
    for (;;) {
      if (panic || e == 0) return e;
      if (kind() == Tok::LBRACKET) {
        e = parse_subscript(e);
      } else if (kind() == Tok::DOT) {
        e = parse_method(e);
      } else if (kind() == Tok::LPAREN) {
        outside_here();  // calling something that is not a name
        return e;
      } else {
        return e;
      }
    }
  }

  // subscript = expr | [ expr ] ":" [ expr ] | "::" "-1" ;
  GS_HD u32 parse_subscript(u32 seq) {
    u32 start = w.nodes[seq].pos;
    const Token open = tok();
    advance();  // [
    u32 lo = 0, hi = 0;
    if (kind() != Tok::COLON) lo = parse_expr();
    if (!accept(Tok::COLON)) {  // an index
      expect(Tok::RBRACKET);
      u32 node = make(NodeKind::Index, start, 1), last = 0;
      if (node == 0) return seq;
      w.nodes[node].flags |= kPython;
      add(node, &last, seq);
      add(node, &last, lo);
      close_span(node);
      return node;
    }
    if (kind() != Tok::RBRACKET && kind() != Tok::COLON) hi = parse_expr();
    if (accept(Tok::COLON)) {  // a step: only seq[::-1]
      u32 step = parse_expr();
      bool reverse = lo == 0 && hi == 0 && step != 0 && w.nodes[step].kind == NodeKind::IntLit &&
                     i64(w.nodes[step].value) == -1;
      if (!reverse && !panic) outside(open.pos, tok().pos + tok().len - open.pos);
      expect(Tok::RBRACKET);
      u32 call = named_call(open, "reverse"), last = 0;
      add(call, &last, seq);
      return call;
    }
    expect(Tok::RBRACKET);
    u32 node = make(NodeKind::Slice, start, 1), last = 0;
    if (node == 0) return seq;
    add(node, &last, seq);
    add(node, &last, lo != 0 ? lo : int_node(open.pos, 0));
    add(node, &last, hi != 0 ? hi : int_node(open.pos, INT64_MAX));
    close_span(node);
    return node;
  }

  // method = "." ( "append" | "pop" | "split" | "join" | "find" ) "(" [ args ] ")" ;
  GS_HD u32 parse_method(u32 receiver) {
    advance();  // .
    if (kind() != Tok::IDENT) {
      error(Code::EXPECTED, u32(Tok::IDENT));
      return receiver;
    }
    const Token name = tok();
    advance();
    if (kind() != Tok::LPAREN) {  // an attribute
      outside(name.pos, name.len);
      return receiver;
    }
    u32 args[2] = {0, 0}, count = parse_arguments(args, 2, spelled_as(name, "join"));
    if (panic) return receiver;
    struct Method {
      const char* name;
      const char* builtin;
      u32 arity;
      bool receiver_first, in_place;
    };
    static constexpr Method methods[] = {
        {"append", "push", 1, true, true},    {"pop", "pop", 0, true, true},
        {"split", "split", 1, true, false},   {"join", "join", 1, false, false},
        {"find", "index_of", 1, true, false},
    };
    for (const Method& m : methods) {
      if (!spelled_as(name, m.name)) continue;
      bool split_on_space = m.arity == 1 && count == 0 && spelled_as(name, "split");
      bool pop_at = spelled_as(name, "pop") && count == 1;  // pop(-1) is pop(); pop(0) a slice
      if (pop_at) {
        const Node& i = w.nodes[args[0]];
        if (i.kind != NodeKind::IntLit || (i.value != 0 && i64(i.value) != -1)) {
          outside(i.pos, i.len);  // pop(i) elsewhere in the list
          return receiver;
        }
        if (w.nodes[receiver].kind != NodeKind::Name) {
          outside(name.pos, name.len);
          return receiver;
        }
        if (i.value == 0) {  // xs = slice(xs, 1, len(xs)), the element taken by the caller
          u32 call = named_call(name, "slice"), last = 0;
          u32 len = named_call(name, "len"), llast = 0;
          if (call == 0 || len == 0) return receiver;
          w.nodes[call].flags |= kInPlace;
          add(len, &llast, copy_leaf(receiver));
          add(call, &last, receiver);
          add(call, &last, int_node(name.pos, 1));
          add(call, &last, len);
          return call;
        }
        count = 0;
      }
      if (count != m.arity && !split_on_space) {
        error_at(Code::ARGUMENT_COUNT, name.pos, name.len, m.arity, count);
        return receiver;
      }
      if (m.in_place && w.nodes[receiver].kind != NodeKind::Name) {
        outside(name.pos, name.len);  // f(x).append(v): nothing to change in place
        return receiver;
      }
      u32 call = named_call(name, m.builtin), last = 0;
      if (call == 0) return receiver;
      if (m.in_place) w.nodes[call].flags |= kInPlace;
      if (spelled_as(name, "split") && !split_on_space)
        w.nodes[call].flags |= kPython;  // an empty sep raises
      u32 arg = split_on_space ? empty_string(name) : args[0];
      add(call, &last, m.receiver_first ? receiver : arg);
      if (m.arity == 1) add(call, &last, m.receiver_first ? arg : receiver);
      return call;
    }
    outside(name.pos, name.len);
    return receiver;
  }

  // The string literal "" (s.split() splits on runs of whitespace: Syn's split with "").
  GS_HD u32 empty_string(const Token& at_token) {
    u32 node = make(NodeKind::StrLit, at_token.pos, at_token.len);
    intern_string(node, at_token, at_token.pos, 0, decode_python_string);
    return node;
  }

  // "(" [ expr { "," expr } [ "," ] ] ")": up to cap argument nodes into args; returns the count.
  // generator: a lone generator expression `f(e for x in xs)` may be the argument — a
  // comprehension, for the callees that consume it whole the way they would a list (sum, min,
  // max, sorted, list, join; not len or a function of the program, where a list differs).
  GS_HD u32 parse_arguments(u32* args, u32 cap, bool generator = false) {
    advance();  // (
    u32 count = 0;
    while (kind() != Tok::RPAREN && !panic) {
      if (kind() == Tok::IDENT && peek() == Tok::ASSIGN) {  // a keyword argument
        outside_here();
        return count;
      }
      if (generator && count == 0 && kind() == Tok::LPAREN) generator_paren = at;  // f((e for x in xs))
      u32 arg = parse_expr();
      if (generator_paren == kGeneratorTaken && kind() != Tok::RPAREN && !panic) {
        outside_here();  // a parenthesized generator and more arguments
        return count;
      }
      generator_paren = 0;
      if (kind() == Tok::KW_FOR && !panic) {  // a generator expression
        if (!generator || count != 0) {
          outside_here();
          return count;
        }
        u32 comp = arg != 0 ? make(NodeKind::Comprehension, w.nodes[arg].pos, w.nodes[arg].len) : 0;
        comp = parse_comprehension(comp, arg);
        close_span(comp);
        args[0] = comp;
        if (!panic) expect(Tok::RPAREN);
        return 1;
      }
      if (count < cap) args[count] = arg;
      ++count;
      if (!accept(Tok::COMMA)) break;
    }
    if (!panic) expect(Tok::RPAREN);
    return count;
  }

  // atom = IDENT | call | INT | FLOAT | STRING | "True" | "False" | "(" expr ")" | "(" expr "," ... ")"
  //      | "[" [ expr { "," expr } ] "]" ;
  GS_HD u32 parse_atom() {
    switch (kind()) {
      case Tok::INT:
      case Tok::FLOAT: return parse_number(false, tok().pos);
      case Tok::STRING: {
        u32 node = parse_py_string();
        if (kind() == Tok::STRING) outside_here();  // "a" "b": implicit concatenation
        return node;
      }
      case Tok::KW_TRUE:
      case Tok::KW_FALSE: {
        u32 node = make_at_token(NodeKind::BoolLit);
        if (node != 0) w.nodes[node].value = kind() == Tok::KW_TRUE ? 1 : 0;
        advance();
        return node;
      }
      case Tok::IDENT: {
        if (peek() == Tok::LPAREN) return parse_call();
        u32 node = make_at_token(NodeKind::Name);
        advance();
        return node;
      }
      case Tok::LPAREN: return parse_parenthesized();
      case Tok::LBRACKET: return parse_list();
      case Tok::INVALID: {  // the lexer has reported it
        u32 node = error_node();
        advance();
        return node;
      }
      case Tok::KW_NONE:
      case Tok::KW_OUTSIDE:
      case Tok::LBRACE:
      case Tok::AT: outside_here(); return error_node();
      default: break;
    }
    error(Code::EXPECTED_EXPRESSION);
    return error_node();
  }

  // An INT or FLOAT token (negated: after a unary minus starting at start); Python's
  // underscores between digits are dropped before Syn's literal conversion.
  GS_HD u32 parse_number(bool negated, u32 start) {
    const Token t = tok();
    const char* digits = w.source + t.pos;
    u32 n = t.len;
    char copy[kMaxNumberText];  // without the underscores, when there are some
    bool too_long = false;
    for (u32 i = 0; i < t.len; ++i) {
      if (w.source[t.pos + i] != '_') continue;
      too_long = t.len > kMaxNumberText;
      n = 0;
      for (u32 k = 0; k < t.len && n < kMaxNumberText; ++k)
        if (w.source[t.pos + k] != '_') copy[n++] = w.source[t.pos + k];
      digits = copy;
      break;
    }
    if (t.kind == Tok::FLOAT) {
      u32 node = make(NodeKind::FloatLit, t.pos, t.len);
      if (too_long) error_at(Code::BAD_NUMBER, t.pos, t.len);
      if (node != 0) w.nodes[node].value = bits_of(float_literal(digits, n));
      advance();
      return node;
    }
    u32 node = make(NodeKind::IntLit, start, t.pos + t.len - start);
    u64 v = 0;
    if (too_long || !int_literal(digits, n, negated, &v)) error_at(Code::INT_TOO_LARGE, t.pos, t.len);
    if (node != 0) {
      w.nodes[node].value = v;
      w.nodes[node].type = Type::Int;
    }
    advance();
    return node;
  }
  static constexpr u32 kMaxNumberText = 64;  // a literal with underscores

  GS_HD u32 parse_py_string() {
    const Token t = tok();
    char q = w.source[t.pos];
    bool triple = t.len >= 6 && w.source[t.pos + 1] == q && w.source[t.pos + 2] == q;
    u32 quote = triple ? 3 : 1;
    u32 body = t.pos + quote, body_len = t.len - quote;
    bool closed = body_len >= quote;
    for (u32 k = 0; closed && k < quote; ++k) closed = w.source[t.pos + t.len - 1 - k] == q;
    if (closed) body_len -= quote;
    u32 node = make_at_token(NodeKind::StrLit);
    intern_string(node, t, body, body_len, decode_python_string);
    advance();
    return node;
  }

  // call = IDENT "(" [ args ] ")" : a function of the program or a builtin Python names;
  // sorted, list, ord, reversed and min/max of more than two values are rewritten.
  GS_HD u32 parse_call() {
    const Token callee = tok();
    if (spelled_as(callee, "list") && w.tokens[at + 2].kind == Tok::IDENT &&
        spelled_as(w.tokens[at + 2], "reversed") && w.tokens[at + 3].kind == Tok::LPAREN) {
      advance();  // list
      advance();  // (
      u32 call = parse_reversed();
      expect(Tok::RPAREN);
      return call;
    }
    if (spelled_as(callee, "range") || spelled_as(callee, "reversed")) {
      outside(callee.pos, callee.len);  // only as a for loop's sequence
      return error_node();
    }
    advance();  // the name
    u32 args[vm::kMaxParams + 1] = {};
    bool consumes_whole = spelled_as(callee, "sum") || spelled_as(callee, "min") ||
                          spelled_as(callee, "max") || spelled_as(callee, "sorted") ||
                          spelled_as(callee, "list");
    u32 count = parse_arguments(args, vm::kMaxParams + 1, consumes_whole);
    if (count > vm::kMaxParams + 1) count = vm::kMaxParams + 1;
    if (panic) return error_node();
    bool min_max = spelled_as(callee, "min") || spelled_as(callee, "max");
    if (spelled_as(callee, "list") && count == 1) {  // a copy: xs + []
      u32 node = make(NodeKind::Binary, callee.pos, callee.len);
      u32 empty = make(NodeKind::ArrayLit, callee.pos, callee.len);
      if (node == 0 || empty == 0 || args[0] == 0) return error_node();
      link_binary(node, Tok::PLUS, args[0], empty);
      return node;
    }
    if (min_max && count > 2) {  // min(a, b, c) = min(min(a, b), c)
      const char* name = spelled_as(callee, "min") ? "min" : "max";
      u32 acc = args[0];
      for (u32 k = 1; k < count; ++k) {
        u32 call = named_call(callee, name), last = 0;
        add(call, &last, acc);
        add(call, &last, args[k]);
        acc = call;
      }
      return acc;
    }
    u32 call;
    if (spelled_as(callee, "sorted")) {
      call = named_call(callee, "sort");
    } else if (spelled_as(callee, "ord")) {
      call = make(NodeKind::Call, callee.pos, callee.len);
      if (call != 0) {
        w.nodes[call].flags |= kNamedBuiltin;
        w.nodes[call].value = kPythonOrd;
      }
    } else {
      call = make(NodeKind::Call, callee.pos, callee.len);
    }
    u32 last = 0;
    for (u32 k = 0; k < count; ++k) add(call, &last, args[k]);
    return call;
  }

  // "reversed" "(" expr ")": reverse(expr), a new list (Python's iterator, where it is used).
  GS_HD u32 parse_reversed() {
    const Token name = tok();
    advance();  // reversed
    u32 args[1] = {0};
    u32 count = parse_arguments(args, 1);
    if (count != 1) {
      if (!panic) error_at(Code::ARGUMENT_COUNT, name.pos, name.len, 1, count);
      return error_node();
    }
    u32 call = named_call(name, "reverse"), last = 0;
    add(call, &last, args[0]);
    return call;
  }

  // "(" expr ")" or a tuple "(" expr "," ... ")" (allowed only after return, as in Syn), or a
  // generator expression "(" comprehension ")" as the lone argument parse_arguments allows.
  GS_HD u32 parse_parenthesized() {
    u32 open = tok().pos;
    bool may_generate = generator_paren == at;
    advance();  // (
    u32 first = parse_expr();
    if (kind() == Tok::KW_FOR && !panic) {
      if (!may_generate) {
        outside_here();
        return first;
      }
      u32 comp = first != 0 ? make(NodeKind::Comprehension, open, 1) : 0;
      comp = parse_comprehension(comp, first);
      expect(Tok::RPAREN);
      close_span(comp);
      generator_paren = kGeneratorTaken;
      return comp;
    }
    if (kind() != Tok::COMMA) {
      expect(Tok::RPAREN);
      return first;
    }
    u32 tuple = make(NodeKind::Tuple, open, 1), last = 0;
    add(tuple, &last, first);
    while (accept(Tok::COMMA) && !panic && kind() != Tok::RPAREN) add(tuple, &last, parse_expr());
    expect(Tok::RPAREN);
    close_span(tuple);
    return tuple;
  }

  // list = "[" [ expr { "," expr } [ "," ] ] "]" | "[" comprehension "]" ;
  GS_HD u32 parse_list() {
    u32 list = make_at_token(NodeKind::ArrayLit), last = 0;
    advance();  // [
    while (kind() != Tok::RBRACKET && !panic) {
      u32 element = parse_expr();
      if (kind() == Tok::KW_FOR && !panic) {
        if (last != 0) {  // [a, b for ...]
          outside_here();
          return list;
        }
        u32 comp = parse_comprehension(list, element);
        expect(Tok::RBRACKET);
        close_span(comp);
        return comp;
      }
      add(list, &last, element);
      if (!accept(Tok::COMMA)) break;
    }
    expect(Tok::RBRACKET);
    close_span(list);
    return list;
  }
};

}  // namespace gs::compiler
