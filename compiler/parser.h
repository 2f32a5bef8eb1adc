// The parser: tokens -> syntax tree, by recursive descent whose depth is bounded by
// CompileLimits::max_depth. Each parse function opens with the grammar rule it implements
// (docs/language.md §2 collects them). After a syntax error the parser reports nothing more
// until it has skipped to the next statement boundary, then goes on, so one pass reports every
// independent mistake.
#pragma once

#include "compiler/lexer.h"
#include "compiler/literal.h"
#include "compiler/workspace.h"

namespace gs::compiler {

struct Parser {
  Workspace& w;
  u32 at = 0;          // current token
  u32 depth = 0;       // recursion depth
  bool panic = false;  // an error was reported and the parser has not resynchronised yet
  bool fatal = false;  // a bound was exceeded: the tree is incomplete, do not check it

  // ---- tokens -------------------------------------------------------------------------------
  GS_HD const Token& tok() const { return w.tokens[at]; }
  GS_HD Tok kind() const { return w.tokens[at].kind; }
  GS_HD Tok peek(u32 k = 1) const {
    u32 i = at + k < w.token_count ? at + k : w.token_count - 1;
    return w.tokens[i].kind;
  }
  GS_HD void advance() {
    if (kind() != Tok::END) ++at;
  }
  GS_HD bool accept(Tok k) {
    if (kind() != k) return false;
    advance();
    return true;
  }

  // ---- errors -------------------------------------------------------------------------------
  GS_HD void error_at(Code code, u32 pos, u32 len, u32 a = 0, u32 b = 0) {
    if (!panic && !fatal) w.diagnostics.add(code, pos, len, a, b);
    panic = true;
  }
  // An INVALID token was already reported by the lexer: stay quiet about it.
  GS_HD void error(Code code, u32 a = 0) {
    if (kind() == Tok::INVALID) {
      panic = true;
      return;
    }
    error_at(code, tok().pos, tok().len, a);
  }
  GS_HD bool expect(Tok k) {
    if (accept(k)) return true;
    error(Code::EXPECTED, u32(k));
    return false;
  }
  GS_HD static bool starts_statement(Tok k) {
    return k == Tok::KW_LET || k == Tok::KW_IF || k == Tok::KW_WHILE || k == Tok::KW_FOR ||
           k == Tok::KW_RETURN || k == Tok::KW_BREAK || k == Tok::KW_CONTINUE;
  }
  // Skips to a statement boundary: past a ';', or to a '}' or a keyword that starts a
  // statement (nested braces skipped whole).
  GS_HD void synchronize() {
    u32 braces = 0;
    while (kind() != Tok::END) {
      if (braces == 0 && starts_statement(kind())) break;
      if (kind() == Tok::LBRACE) ++braces;
      if (kind() == Tok::RBRACE) {
        if (braces == 0) break;
        --braces;
      }
      if (kind() == Tok::KW_FN && braces == 0) break;
      bool semi = kind() == Tok::SEMI;
      advance();
      if (semi && braces == 0) break;
    }
    panic = false;
  }

  // ---- nodes --------------------------------------------------------------------------------
  GS_HD u32 make(NodeKind k, u32 pos, u32 len) {
    if (w.node_count >= w.node_cap) {
      if (!fatal) w.diagnostics.add(Code::TOO_MANY_NODES, pos, len, w.node_cap - 1);
      fatal = true;
      return 0;
    }
    u32 id = w.node_count++;
    Node& n = w.nodes[id];
    n = Node{};
    n.kind = k;
    n.depth = 1;
    n.pos = pos;
    n.len = len;
    return id;
  }
  GS_HD u32 make_at_token(NodeKind k) { return make(k, tok().pos, tok().len); }
  // Appends child to parent; *last tracks parent's last child.
  GS_HD void add(u32 parent, u32* last, u32 child) {
    if (parent == 0 || child == 0) return;
    if (*last == 0) {
      w.nodes[parent].first = child;
    } else {
      w.nodes[*last].next = child;
    }
    *last = child;
    u32 d = u32(w.nodes[child].depth) + 1;
    if (d > w.nodes[parent].depth) {
      if (d > w.limits.max_depth) {
        too_deep(w.nodes[child].pos);
        d = w.limits.max_depth;
      }
      w.nodes[parent].depth = u8(d);
    }
  }
  // A chain a + b + c is ((a + b) + c): the passes walk its left spine in a loop, so only the
  // right operand adds depth and a long flat chain is not deep nesting.
  GS_HD void link_binary(u32 node, Tok op, u32 lhs, u32 rhs) {
    Node& n = w.nodes[node];
    n.op = u8(op);
    n.first = lhs;
    w.nodes[lhs].next = rhs;
    u32 d = w.nodes[lhs].depth;
    if (u32(w.nodes[rhs].depth) + 1 > d) d = u32(w.nodes[rhs].depth) + 1;
    if (d > w.limits.max_depth) {
      too_deep(w.nodes[rhs].pos);
      d = w.limits.max_depth;
    }
    n.depth = u8(d);
  }
  GS_HD void too_deep(u32 pos) {
    u32 len = pos < w.source_len ? 1 : 0;  // at the end of input the span is empty
    if (pos > w.source_len) pos = w.source_len;
    if (!fatal) w.diagnostics.add(Code::TOO_DEEP, pos, len, w.limits.max_depth);
    fatal = panic = true;  // the tree is incomplete: nothing after this is worth reporting
  }
  GS_HD u32 error_node() { return make(NodeKind::Error, tok().pos, tok().len); }
  // Extends a node's span to the end of the previous token.
  GS_HD void close_span(u32 node) {
    if (node == 0 || at == 0) return;
    const Token& prev = w.tokens[at - 1];
    if (prev.pos + prev.len > w.nodes[node].pos) w.nodes[node].len = prev.pos + prev.len - w.nodes[node].pos;
  }

  // Recursion guard: every recursive entry point takes one level.
  struct Level {
    Parser& p;
    bool ok;
    GS_HD explicit Level(Parser& parser) : p(parser), ok(++parser.depth <= parser.w.limits.max_depth) {
      if (!ok) p.too_deep(p.tok().pos);
    }
    GS_HD ~Level() { --p.depth; }
  };

  // ---- declarations -------------------------------------------------------------------------

  // program = { function } EOF ;
  GS_HD u32 parse_program() {
    u32 program = make(NodeKind::Program, 0, w.source_len), last = 0;
    while (kind() != Tok::END && !fatal && !w.diagnostics.stopped) {
      if (kind() != Tok::KW_FN) {
        error(Code::EXPECTED_FUNCTION);
        while (kind() != Tok::END && kind() != Tok::KW_FN) advance();
        panic = false;
        continue;
      }
      add(program, &last, parse_function());
      panic = false;
    }
    return program;
  }

  // function = "fn" IDENT "(" [ param { "," param } ] ")" [ "->" result ] block ;
  GS_HD u32 parse_function() {
    advance();  // fn
    u32 fn = make_at_token(NodeKind::Function), last = 0;
    FunctionInfo info{};
    info.name_pos = tok().pos;
    info.name_len = tok().len;
    info.node = fn;
    bool named = kind() == Tok::IDENT;
    if (!named)
      error(Code::EXPECTED, u32(Tok::IDENT));
    else
      advance();
    if (expect(Tok::LPAREN)) {
      if (kind() != Tok::RPAREN) {
        do {
          u32 param = parse_param();
          if (param != 0) {
            if (info.param_count == vm::kMaxParams)
              error_at(Code::TOO_MANY_PARAMS, w.nodes[param].pos, w.nodes[param].len, vm::kMaxParams);
            else
              info.types[info.param_count++] = u8(w.nodes[param].type);
          }
          add(fn, &last, param);
        } while (accept(Tok::COMMA) && !panic);
      }
      if (panic) {  // a broken parameter: skip to the end of the list, keep the result type
        while (kind() != Tok::END && kind() != Tok::RPAREN && kind() != Tok::LBRACE) advance();
        info.broken = 1;
        panic = false;
      }
      expect(Tok::RPAREN);
    }
    if (accept(Tok::ARROW)) parse_result(&info);
    if (panic) info.broken = 1;
    if (panic) {
      // a broken header: skip to its body
      while (kind() != Tok::END && kind() != Tok::LBRACE && kind() != Tok::KW_FN) advance();
      panic = false;
    }
    if (kind() != Tok::LBRACE) error(Code::EXPECTED, u32(Tok::LBRACE));
    add(fn, &last, kind() == Tok::LBRACE ? parse_block() : error_node());
    finish_function(fn, info, named);
    return fn;
  }

  // Registers a parsed function (its results collected in info.types[kMaxParams ..]); an
  // unnamed one becomes an Error node. Shared with the Python front end.
  GS_HD void finish_function(u32 fn, FunctionInfo info, bool named) {
    if (fn != 0 && named) {
      if (w.function_count == w.function_cap) {
        if (!fatal) w.diagnostics.add(Code::TOO_MANY_FUNCTIONS, info.name_pos, info.name_len, w.function_cap);
        fatal = true;
      } else {
        for (u32 k = 0; k < info.result_count; ++k)
          info.types[info.param_count + k] = info.types[vm::kMaxParams + k];
        for (u32 k = info.param_count + info.result_count; k < vm::kMaxParams + vm::kMaxResults; ++k)
          info.types[k] = 0;
        w.nodes[fn].ref = w.function_count;
        w.functions[w.function_count++] = info;
      }
    } else if (fn != 0) {
      w.nodes[fn].kind = NodeKind::Error;
    }
  }

  // param = IDENT ":" type ;
  GS_HD u32 parse_param() {
    if (kind() != Tok::IDENT) {
      error(Code::EXPECTED, u32(Tok::IDENT));
      return 0;
    }
    u32 param = make_at_token(NodeKind::Param);
    advance();
    w.nodes[param].type = expect(Tok::COLON) ? parse_type() : Type::Error;
    return param;
  }

  // result = type | "(" type "," type { "," type } ")" ;
  // (collected in info.types[kMaxParams ..] and moved behind the parameters afterwards)
  GS_HD void parse_result(FunctionInfo* info) {
    auto push = [&](Type t) {
      if (info->result_count == vm::kMaxResults)
        error(Code::TOO_MANY_RESULTS, vm::kMaxResults);
      else
        info->types[vm::kMaxParams + info->result_count++] = u8(t);
    };
    if (!accept(Tok::LPAREN)) {
      push(parse_type());
      return;
    }
    push(parse_type());
    expect(Tok::COMMA);
    do push(parse_type());
    while (accept(Tok::COMMA) && !panic);
    expect(Tok::RPAREN);
  }

  // type = "int" | "float" | "bool" | "str" | "[" scalar_type "]" ;
  GS_HD Type parse_type() {
    switch (kind()) {
      case Tok::KW_INT: advance(); return Type::Int;
      case Tok::KW_FLOAT: advance(); return Type::Float;
      case Tok::KW_BOOL: advance(); return Type::Bool;
      case Tok::KW_STR: advance(); return Type::Str;
      case Tok::LBRACKET: {
        u32 pos = tok().pos;
        advance();
        if (kind() == Tok::LBRACKET) {
          error(Code::NESTED_ARRAY);
          return Type::Error;
        }
        Type element = parse_type();
        if (!expect(Tok::RBRACKET)) return Type::Error;
        (void)pos;
        return element == Type::Error ? Type::Error : array_of(element);
      }
      default: error(Code::EXPECTED_TYPE); return Type::Error;
    }
  }

  // ---- statements ---------------------------------------------------------------------------

  // block = "{" { statement } "}" ;
  GS_HD u32 parse_block() {
    Level level(*this);
    u32 block = make_at_token(NodeKind::Block), last = 0;
    if (!level.ok || !expect(Tok::LBRACE)) return block;
    while (kind() != Tok::RBRACE && kind() != Tok::END && !fatal && !w.diagnostics.stopped) {
      u32 start = at;
      u32 stmt = parse_statement();
      // resynchronise unless the broken statement already ended with its ';'
      if (panic && w.tokens[at - 1].kind != Tok::SEMI) synchronize();
      panic = false;
      if (at == start && kind() != Tok::RBRACE) advance();
      add(block, &last, stmt);
    }
    expect(Tok::RBRACE);
    close_span(block);
    return block;
  }

  // statement = let_stmt | if_stmt | while_stmt | for_stmt | return_stmt
  //           | "break" ";" | "continue" ";" | block | simple_stmt ;
  GS_HD GS_DEVICE_NOINLINE u32 parse_statement() {
    switch (kind()) {
      case Tok::KW_LET: return parse_let();
      case Tok::KW_IF: return parse_if();
      case Tok::KW_WHILE: return parse_while();
      case Tok::KW_FOR: return parse_for();
      case Tok::KW_RETURN: return parse_return();
      case Tok::LBRACE: return parse_block();
      case Tok::KW_BREAK:
      case Tok::KW_CONTINUE: {
        u32 stmt = make_at_token(kind() == Tok::KW_BREAK ? NodeKind::Break : NodeKind::Continue);
        advance();
        expect(Tok::SEMI);
        return stmt;
      }
      case Tok::KW_FN:
      case Tok::KW_ELSE:
      case Tok::KW_IN: error(Code::EXPECTED_STATEMENT); return 0;
      case Tok::INVALID:  // reported by the lexer; skip just that token
        advance();
        return 0;
      default: return parse_simple_statement();
    }
  }

  // let_stmt = "let" IDENT [ ":" type ] "=" expr ";"
  //          | "let" "(" IDENT "," IDENT { "," IDENT } ")" "=" expr ";" ;
  GS_HD u32 parse_let() {
    advance();  // let
    if (kind() == Tok::LPAREN) return parse_let_tuple();
    u32 let = make_at_token(NodeKind::Let), last = 0;
    if (kind() != Tok::IDENT) {
      error(Code::EXPECTED, u32(Tok::IDENT));
      return let;
    }
    advance();
    if (let != 0) w.nodes[let].type = Type::Unit;
    if (accept(Tok::COLON)) {
      Type t = parse_type();
      if (let != 0) w.nodes[let].type = t;
    }
    u32 init = expect(Tok::ASSIGN) ? parse_expr() : error_node();
    add(let, &last, init);
    expect(Tok::SEMI);
    return let;
  }

  GS_HD u32 parse_let_tuple() {
    u32 let = make_at_token(NodeKind::LetTuple), last = 0;
    advance();  // (
    do {
      if (kind() != Tok::IDENT) {
        error(Code::EXPECTED, u32(Tok::IDENT));
        return let;
      }
      add(let, &last, make_at_token(NodeKind::Binding));
      advance();
    } while (accept(Tok::COMMA));
    expect(Tok::RPAREN);
    u32 init = expect(Tok::ASSIGN) ? parse_expr() : error_node();
    add(let, &last, init);
    expect(Tok::SEMI);
    return let;
  }

  // if_stmt = "if" expr block [ "else" ( if_stmt | block ) ] ;
  GS_HD u32 parse_if() {
    Level level(*this);
    u32 stmt = make_at_token(NodeKind::If), last = 0;
    advance();  // if
    if (!level.ok) return stmt;
    add(stmt, &last, parse_expr());
    add(stmt, &last, parse_block());
    if (accept(Tok::KW_ELSE)) add(stmt, &last, kind() == Tok::KW_IF ? parse_if() : parse_block());
    return stmt;
  }

  // while_stmt = "while" expr block ;
  GS_HD u32 parse_while() {
    u32 stmt = make_at_token(NodeKind::While), last = 0;
    advance();  // while
    add(stmt, &last, parse_expr());
    add(stmt, &last, parse_block());
    return stmt;
  }

  // for_stmt = "for" IDENT "in" expr [ ".." expr ] block ;
  GS_HD u32 parse_for() {
    advance();  // for
    u32 stmt = make_at_token(NodeKind::ForEach), last = 0;
    if (!accept(Tok::IDENT)) {
      error(Code::EXPECTED, u32(Tok::IDENT));
      return stmt;
    }
    expect(Tok::KW_IN);
    add(stmt, &last, parse_expr());
    if (accept(Tok::DOTDOT)) {
      if (stmt != 0) w.nodes[stmt].kind = NodeKind::ForRange;
      add(stmt, &last, parse_expr());
    }
    add(stmt, &last, parse_block());
    return stmt;
  }

  // return_stmt = "return" [ expr ] ";" ;
  GS_HD u32 parse_return() {
    u32 stmt = make_at_token(NodeKind::Return), last = 0;
    advance();  // return
    if (kind() != Tok::SEMI) add(stmt, &last, parse_expr());
    expect(Tok::SEMI);
    return stmt;
  }

  // simple_stmt = IDENT "=" expr ";" | IDENT "[" expr "]" "=" expr ";" | call ";" ;
  GS_HD u32 parse_simple_statement() {
    u32 target = parse_expr();
    if (panic || target == 0) return target;
    Node& t = w.nodes[target];
    if (accept(Tok::ASSIGN)) {
      bool name = t.kind == NodeKind::Name;
      bool element = t.kind == NodeKind::Index && w.nodes[t.first].kind == NodeKind::Name;
      if (!name && !element) {
        error_at(Code::BAD_ASSIGNMENT, t.pos, t.len);
        return 0;
      }
      u32 stmt, last = 0;
      if (name) {
        stmt = make(NodeKind::Assign, t.pos, t.len);
      } else {
        const Node& array = w.nodes[t.first];
        stmt = make(NodeKind::AssignIndex, array.pos, array.len);
        add(stmt, &last, array.next);  // the index expression
      }
      add(stmt, &last, parse_expr());
      expect(Tok::SEMI);
      return stmt;
    }
    if (t.kind != NodeKind::Call) {
      if (t.kind != NodeKind::Error) error_at(Code::NOT_A_CALL, t.pos, t.len);
      return 0;
    }
    u32 stmt = make(NodeKind::ExprStmt, t.pos, t.len), last = 0;
    add(stmt, &last, target);
    expect(Tok::SEMI);
    return stmt;
  }

  // ---- expressions --------------------------------------------------------------------------

  // expr = or_expr ;
  GS_HD GS_DEVICE_NOINLINE u32 parse_expr() {
    Level level(*this);
    if (!level.ok) return error_node();
    return parse_binary(1);
  }

  // Binding power of a binary operator; 0 for anything else.
  GS_HD static u32 precedence(Tok k) {
    switch (k) {
      case Tok::OR: return 1;
      case Tok::AND: return 2;
      case Tok::EQ:
      case Tok::NE:
      case Tok::LT:
      case Tok::LE:
      case Tok::GT:
      case Tok::GE: return 3;
      case Tok::PIPE: return 4;
      case Tok::CARET: return 5;
      case Tok::AMP: return 6;
      case Tok::SHL:
      case Tok::SHR:
      case Tok::USHR: return 7;
      case Tok::PLUS:
      case Tok::MINUS: return 8;
      case Tok::STAR:
      case Tok::SLASH:
      case Tok::PERCENT: return 9;
      default: return 0;
    }
  }

  // or_expr     = and_expr { "||" and_expr } ;
  // and_expr    = cmp_expr { "&&" cmp_expr } ;
  // cmp_expr    = bitor_expr [ ( "==" | "!=" | "<" | "<=" | ">" | ">=" ) bitor_expr ] ;
  // bitor_expr  = bitxor_expr { "|" bitxor_expr } ;
  // bitxor_expr = bitand_expr { "^" bitand_expr } ;
  // bitand_expr = shift_expr { "&" shift_expr } ;
  // shift_expr  = add_expr { ( "<<" | ">>" | ">>>" ) add_expr } ;
  // add_expr    = mul_expr { ( "+" | "-" ) mul_expr } ;
  // mul_expr    = unary_expr { ( "*" | "/" | "%" ) unary_expr } ;
  // (precedence climbing: one function for all nine levels, each left-associative)
  GS_HD u32 parse_binary(u32 min_precedence) {
    // recursion here is bounded by the nine precedence levels: no nesting level taken
    u32 lhs = parse_unary();
    for (;;) {
      u32 p = precedence(kind());
      if (p == 0 || p < min_precedence) return lhs;
      u32 op_pos = tok().pos, op_len = tok().len;
      Tok op = kind();
      advance();
      u32 rhs = parse_binary(p + 1);
      u32 node = make(NodeKind::Binary, op_pos, op_len);
      if (node == 0) return lhs;
      link_binary(node, op, lhs, rhs);
      lhs = node;
      if (p == 3 && precedence(kind()) == 3) {
        error(Code::CHAINED_COMPARISON);
        w.nodes[lhs].kind = NodeKind::Error;  // one report: the checker leaves the chain alone
      }
    }
  }

  // unary_expr = ( "-" | "!" | "~" ) unary_expr | postfix_expr ;
  GS_HD GS_DEVICE_NOINLINE u32 parse_unary() {
    Tok k = kind();
    if (k == Tok::MINUS && peek() == Tok::INT && peek(2) != Tok::LBRACKET) {
      advance();  // a negative literal, so that -9223372036854775808 is one
      return parse_int_literal(true, w.tokens[at - 1].pos);
    }
    if (k != Tok::MINUS && k != Tok::NOT && k != Tok::TILDE) return parse_postfix();
    Level level(*this);
    if (!level.ok) return error_node();
    u32 node = make_at_token(NodeKind::Unary), last = 0;
    advance();
    if (node != 0) w.nodes[node].op = u8(k);
    add(node, &last, parse_unary());
    return node;
  }

  // postfix_expr = primary { "[" expr "]" } ;
  GS_HD u32 parse_postfix() {
    u32 expr = parse_primary();
    while (kind() == Tok::LBRACKET && !panic) {
      u32 node = make_at_token(NodeKind::Index), last = 0;
      advance();
      add(node, &last, expr);
      add(node, &last, parse_expr());
      expect(Tok::RBRACKET);
      if (node == 0) return expr;
      if (expr != 0) w.nodes[node].pos = w.nodes[expr].pos;
      close_span(node);
      expr = node;
    }
    return expr;
  }

  GS_HD u32 parse_int_literal(bool negated, u32 start) {
    u32 node = make(NodeKind::IntLit, start, tok().pos + tok().len - start);
    u64 v = 0;
    if (!int_literal(w.source + tok().pos, tok().len, negated, &v))
      error_at(Code::INT_TOO_LARGE, tok().pos, tok().len);
    if (node != 0) {
      w.nodes[node].value = v;
      w.nodes[node].type = Type::Int;
    }
    advance();
    return node;
  }

  // primary = INT | FLOAT | STRING | "true" | "false" | call | IDENT
  //         | "(" expr ")" | "(" expr "," expr { "," expr } ")" | "[" [ expr { "," expr } ] "]" ;
  GS_HD u32 parse_primary() {
    switch (kind()) {
      case Tok::INT: return parse_int_literal(false, tok().pos);
      case Tok::FLOAT: {
        u32 node = make_at_token(NodeKind::FloatLit);
        if (node != 0) w.nodes[node].value = bits_of(float_literal(w.source + tok().pos, tok().len));
        advance();
        return node;
      }
      case Tok::STRING: return parse_string();
      case Tok::KW_TRUE:
      case Tok::KW_FALSE: {
        u32 node = make_at_token(NodeKind::BoolLit);
        if (node != 0) w.nodes[node].value = kind() == Tok::KW_TRUE ? 1 : 0;
        advance();
        return node;
      }
      case Tok::IDENT:
      case Tok::KW_INT:
      case Tok::KW_FLOAT:
      case Tok::KW_STR: {
        if (peek() == Tok::LPAREN) return parse_call();
        if (kind() != Tok::IDENT) break;
        u32 node = make_at_token(NodeKind::Name);
        advance();
        return node;
      }
      case Tok::LPAREN: return parse_parenthesized();
      case Tok::LBRACKET: return parse_array();
      case Tok::INVALID: {  // the lexer has reported it: an Error node, no second message
        u32 node = error_node();
        advance();
        return node;
      }
      default: break;
    }
    error(Code::EXPECTED_EXPRESSION);
    return error_node();
  }

  // call = ( IDENT | "int" | "float" | "str" ) "(" [ expr { "," expr } ] ")" ;
  GS_HD u32 parse_call() {
    u32 call = make_at_token(NodeKind::Call), last = 0;
    advance();  // callee
    advance();  // (
    if (kind() != Tok::RPAREN) {
      do add(call, &last, parse_expr());
      while (accept(Tok::COMMA) && !panic);
    }
    expect(Tok::RPAREN);
    return call;
  }

  GS_HD u32 parse_parenthesized() {
    u32 open = tok().pos;
    advance();  // (
    u32 first = parse_expr();
    if (kind() != Tok::COMMA) {
      expect(Tok::RPAREN);
      return first;
    }
    u32 tuple = make(NodeKind::Tuple, open, 1), last = 0;
    add(tuple, &last, first);
    while (accept(Tok::COMMA) && !panic) add(tuple, &last, parse_expr());
    expect(Tok::RPAREN);
    close_span(tuple);
    return tuple;
  }

  GS_HD u32 parse_array() {
    u32 array = make_at_token(NodeKind::ArrayLit), last = 0;
    advance();  // [
    if (kind() != Tok::RBRACKET) {
      do add(array, &last, parse_expr());
      while (accept(Tok::COMMA) && !panic);
    }
    expect(Tok::RBRACKET);
    close_span(array);
    return array;
  }

  // A string literal becomes an object in the string image (docs/bytecode.md).
  GS_HD u32 parse_string() {
    const Token& t = tok();
    u32 node = make_at_token(NodeKind::StrLit);
    u32 body = t.pos + 1;
    u32 body_len = t.len - 1;
    if (body_len > 0 && w.source[t.pos + t.len - 1] == '"' && t.len >= 2) --body_len;
    intern_string(node, t, body, body_len, decode_string);
    advance();
    return node;
  }

  // Decodes source[body .. body + body_len) with decode into a new object of the string image,
  // which StrLit node refers to (t: the literal's token, for the error when the image is full).
  template <class Decode>
  GS_HD void intern_string(u32 node, const Token& t, u32 body, u32 body_len, Decode decode) {
    u64 need = 8 + align8(body_len);
    if (w.string_count == w.string_cap || w.string_image_used + need > w.string_image_cap) {
      error_at(Code::TOO_MANY_STRINGS, t.pos, t.len, w.string_cap);
    } else if (node != 0) {
      u8* obj = w.string_image + w.string_image_used;
      u32 n = decode(w.source + body, body_len, obj + 8);
      reinterpret_cast<u32*>(obj)[0] = n;
      reinterpret_cast<u32*>(obj)[1] = n;
      fill_bytes(obj + 8 + n, 0, align8(n) - n);
      w.string_offsets[w.string_count] = w.string_image_used;
      w.nodes[node].ref = w.string_count++;
      w.string_image_used += 8 + align8(n);
    }
  }
};

}  // namespace gs::compiler
