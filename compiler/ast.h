// The syntax tree: a flat array of fixed-size nodes in the compiler's workspace, children
// linked first-child / next-sibling by index. Index 0 is a sentinel meaning "none".
#pragma once

#include "base/hd.h"
#include "base/types.h"
#include "vm/bytecode.h"

namespace gs::compiler {

enum class NodeKind : u8 {
  None,
  Error,  // what the parser builds where it found a syntax error
  // declarations
  Program,   // children: Function*
  Function,  // ref: function index; children: Param*, Block
  Param,     // span: name; type: declared
  // statements
  Block,        // children: statements
  Let,          // span: name; type: declared or Unit; ref: slot; children: init
  LetTuple,     // children: Binding*, init (a Call)
  Binding,      // span: name; ref: slot; type: element type (also an enumerate's index, see kEnumerate)
  Assign,       // span: name; ref: slot; children: value
  AssignIndex,  // span: name; ref: slot; children: index, value
  If,           // children: condition, Block, [Block or If]
  While,        // children: condition, Block
  ForRange,     // span: name; ref: slot; value: hidden slots (counter, end); children: lo, hi, Block
  ForEach,      // span: name; ref: slot; value: hidden slots (sequence, index, length); children: seq, Block
  Break,
  Continue,
  Return,    // children: [expr or Tuple]
  ExprStmt,  // children: Call
  // expressions
  IntLit,    // value: the int
  FloatLit,  // value: the float's bits
  BoolLit,   // value: 0 / 1
  StrLit,    // ref: string literal index
  ArrayLit,  // children: elements
  Name,      // span: name; ref: slot
  Call,      // span: callee; op: builtin id or 0; ref: function index; children: args
  Index,     // children: sequence, index
  Unary,     // op: TokenKind; children: operand
  Binary,    // op: TokenKind; children: lhs, rhs
  Tuple,     // children: exprs (only directly under Return)
  Slice,     // (Python) children: sequence, lo, hi — seq[lo:hi] with Python's negative bounds
  IfExpr,    // (Python) children: condition, then, else — `a if c else b`, only one arm evaluated
  // (Python) [element for x in seq if cond]: value: the result's hidden slot; children: loop,
  // element, [condition]. The loop is a ForEach or ForRange node without a body; its variable
  // belongs to the comprehension alone.
  Comprehension,
};

// Node flags.
inline constexpr u8 kCompletes = 1;       // statement: control can continue after it
inline constexpr u8 kVarAssigned = 2;     // ForRange: the body assigns the loop variable
inline constexpr u8 kHasInstruction = 4;  // Call of a builtin: value holds its instruction
// The typed-Python front end's (compiler/python_parser.h):
inline constexpr u8 kPython =
    8;  // Index, AssignIndex: Python's negative index; ForEach: a str gives 1-char strs
inline constexpr u8 kNamedBuiltin =
    16;  // Call: value holds the builtin's first overload row (not named by its span)
inline constexpr u8 kInPlace = 32;  // Assign: Python changes the list in place (append, pop, +=)
inline constexpr u8 kHasStep = 64;  // ForRange: children lo, hi, step, Block
// ForEach: Python's `for i, x in enumerate(seq[, start])` — children seq, Binding i (its value:
// start), [Block]; x is the loop's own variable.
inline constexpr u8 kEnumerate = 128;
// A kNamedBuiltin call's value for Python's ord(), which is not a Syn builtin (instruction ORD).
inline constexpr u64 kPythonOrd = 0xffff;

struct Node {
  NodeKind kind;
  u8 op;
  Type type;
  u8 depth;  // height of the subtree, bounded by CompileLimits::max_depth
  u8 flags;
  u8 pad[3];
  u32 pos, len;     // source span
  u32 first, next;  // first child, next sibling
  u32 ref;
  u32 pad2;
  u64 value;
};
static_assert(sizeof(Node) == 40);

// A function's signature and what the passes learn about it.
struct FunctionInfo {
  u32 name_pos, name_len, hash;
  u32 node;  // its Function node
  u8 param_count, result_count;
  u8 broken;  // the header had a syntax error: its result types are not to be trusted
  u8 called;  // (Python) the program calls it: a list parameter it changes in place is the caller's
  u16 local_count;
  u16 max_stack;
  u32 code_start, code_words;
  u8 types[vm::kMaxParams + vm::kMaxResults];  // params, then results
  u32 mutated_param_pos, mutated_param_len;    // (Python) a list parameter first changed in place
  GS_HD Type param(u32 i) const { return Type(types[i]); }
  GS_HD Type result(u32 i) const { return Type(types[param_count + i]); }
};

}  // namespace gs::compiler
