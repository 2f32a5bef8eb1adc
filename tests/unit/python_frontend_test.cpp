// The typed-Python front end (compiler/python_lexer.h, python_parser.h, the checker's Python
// rules) and the VM's Python instructions. Whole programs against CPython's answers are
// tests/python/test_frontend.py's (its corpus and its differential test); here: the lexer's
// layout tokens, Python's integer division against a brute-force reference, located errors,
// and the semantics where Python and Syn differ, each on a small program.
#include <gtest/gtest.h>

#include <random>

#include "compiler/compiler.h"
#include "suites/json_values.h"
#include "vm/arith.h"
#include "vm/runner.h"

namespace gs {
namespace {

compiler::CompileLimits python() {
  compiler::CompileLimits l;
  l.language = compiler::Language::Python;
  return l;
}

std::vector<compiler::Tok> kinds(const std::string& source) {
  std::vector<compiler::Token> tokens(2 * source.size() + 2);
  compiler::Diagnostics d;
  std::vector<compiler::Diagnostic> items(8);
  d.items = items.data();
  d.cap = u32(items.size());
  u32 n = compiler::python_lex(source.data(), u32(source.size()), tokens.data(), u32(tokens.size()), d);
  EXPECT_EQ(d.count, 0u) << source;
  std::vector<compiler::Tok> out;
  for (u32 i = 0; i < n; ++i) out.push_back(tokens[i].kind);
  return out;
}

TEST(PythonLexer, LayoutBecomesNewlineIndentAndDedentTokens) {
  using compiler::Tok;
  // blank and comment lines are skipped; inside brackets a line break is not a line end
  const std::string src =
      "def f(a: int,\n      b: int) -> int:\n\n    # c\n    if a:\n        return b\n    return a\n";
  std::vector<Tok> k = kinds(src);
  std::vector<Tok> expected = {Tok::KW_DEF,    Tok::IDENT,     Tok::LPAREN,  Tok::IDENT,   Tok::COLON,
                               Tok::IDENT,     Tok::COMMA,     Tok::IDENT,   Tok::COLON,   Tok::IDENT,
                               Tok::RPAREN,    Tok::ARROW,     Tok::IDENT,   Tok::COLON,   Tok::NEWLINE,
                               Tok::INDENT,    Tok::KW_IF,     Tok::IDENT,   Tok::COLON,   Tok::NEWLINE,
                               Tok::INDENT,    Tok::KW_RETURN, Tok::IDENT,   Tok::NEWLINE, Tok::DEDENT,
                               Tok::KW_RETURN, Tok::IDENT,     Tok::NEWLINE, Tok::DEDENT,  Tok::END};
  EXPECT_EQ(k, expected);
  // no final newline: the line still ends, and every open block closes
  EXPECT_EQ(kinds("def f() -> int:\n  return 1"),
            (std::vector<Tok>{Tok::KW_DEF, Tok::IDENT, Tok::LPAREN, Tok::RPAREN, Tok::ARROW, Tok::IDENT,
                              Tok::COLON, Tok::NEWLINE, Tok::INDENT, Tok::KW_RETURN, Tok::INT, Tok::NEWLINE,
                              Tok::DEDENT, Tok::END}));
  EXPECT_EQ(kinds("x = 'a\\'b' + \"\"\"c\nd\"\"\" // 2 ** .5\n"),
            (std::vector<Tok>{Tok::IDENT, Tok::ASSIGN, Tok::STRING, Tok::PLUS, Tok::STRING, Tok::DSLASH,
                              Tok::INT, Tok::DSTAR, Tok::FLOAT, Tok::NEWLINE, Tok::END}));
}

// Python's // and % against their definition, by brute force on small numbers and at the edges.
TEST(PythonArith, FloorDivisionAndModuloMatchTheirDefinition) {
  for (i64 a = -40; a <= 40; ++a) {
    for (i64 b = -12; b <= 12; ++b) {
      if (b == 0) continue;
      i64 q = -100;
      for (i64 c = -100; c <= 100; ++c)  // the largest q with q * b <= a (b > 0) or q * b >= a (b < 0)
        if ((b > 0 && c * b <= a) || (b < 0 && c * b >= a)) q = c;
      ASSERT_EQ(vm::floor_div(a, b), q) << a << " // " << b;
      ASSERT_EQ(vm::floor_mod(a, b), a - q * b) << a << " % " << b;
    }
  }
  const i64 lo = INT64_MIN, hi = INT64_MAX;
  EXPECT_EQ(vm::floor_div(lo, -1), lo);  // wraps, as Syn's / does
  EXPECT_EQ(vm::floor_mod(lo, -1), 0);
  EXPECT_EQ(vm::floor_div(lo, 3), -3074457345618258603);
  EXPECT_EQ(vm::floor_mod(lo, 3), 1);
  EXPECT_EQ(vm::floor_mod(hi, -2), -1);
  std::mt19937_64 rng(7);
  for (int k = 0; k < 100000; ++k) {  // q * b + r == a with 0 <= |r| < |b|, r of b's sign
    i64 a = i64(rng()), b = i64(rng()) >> (rng() % 63);
    if (b == 0 || (a == lo && b == -1)) continue;
    i64 q = vm::floor_div(a, b), r = vm::floor_mod(a, b);
    ASSERT_EQ(__int128(q) * b + r, __int128(a)) << a << " " << b;
    ASSERT_TRUE(r == 0 || ((r < 0) == (b < 0))) << a << " " << b;
    ASSERT_LT(r < 0 ? -__int128(r) : __int128(r), b < 0 ? -__int128(b) : __int128(b));
  }
}

struct Ran {
  std::string result;  // JSON, or "trap: NAME"
  std::string errors;  // rendered diagnostics when it does not compile
};

Ran run(const std::string& source, const std::string& args, const std::string& entry = "solve") {
  compiler::Output out = compiler::compile(source, python());
  if (!out.ok()) return {"", compiler::render(out.diagnostics, "t.py", source)};
  auto program = vm::Program::load(out.bytecode);
  EXPECT_TRUE(program.has_value());
  i32 fn = program->find(entry);
  EXPECT_GE(fn, 0);
  const vm::FunctionRecord& f = program->function(u32(fn));
  std::vector<Type> types;
  for (u32 k = 0; k < f.param_count; ++k) types.push_back(f.param_type(k));
  std::vector<vm::Value> values;
  std::string error;
  EXPECT_TRUE(suites::parse_values(args, types, &values, &error)) << error;
  vm::Outcome o = vm::Runner().run(*program, u32(fn), values);
  if (o.trap != vm::Trap::NONE) return {std::string("trap: ") + vm::trap_name(o.trap), ""};
  return {o.results.empty() ? "null" : vm::to_json(o.results[0]), ""};
}

// Where Python's meaning differs from Syn's, the front end gives Python's (each expectation is
// what CPython 3.11 prints for the same call).
TEST(PythonFrontEnd, GivesPythonsMeaning) {
  struct Case {
    const char* source;
    const char* args;
    const char* result;
  } cases[] = {
      {"def solve(a: int, b: int) -> list[int]:\n    return [a // b, a % b, -a // b, -a % b]\n", "[7, 2]",
       "[3, 1, -4, 1]"},
      {"def solve(a: int, b: int) -> float:\n    return a / b\n", "[7, 2]", "3.5"},
      {"def solve(a: int, b: int) -> float:\n    return a / b\n", "[7, 0]", "trap: division_by_zero"},
      {"def solve(a: int) -> float:\n    return a + 0.5\n", "[2]", "2.5"},
      {"def solve(a: int) -> bool:\n    return a == 2.0\n", "[2]", "true"},
      {"def solve(xs: list[int]) -> int:\n    return xs[-1] + xs[-len(xs)]\n", "[[4, 5, 6]]", "10"},
      {"def solve(xs: list[int]) -> int:\n    return xs[-4]\n", "[[4, 5, 6]]", "trap: index_out_of_range"},
      {"def solve(s: str) -> str:\n    return s[-1] + s[1:-1] + s[-2:] + s[:-5] + s[::-1]\n", "[\"abcd\"]",
       "\"dbccddcba\""},
      {"def solve(s: str) -> int:\n    n = 0\n    for c in s:\n        n = n * 256 + ord(c)\n    return n\n",
       "[\"ab\"]", "24930"},
      {"def solve(xs: list[int]) -> list[int]:\n    xs = list(xs)\n    xs[-1] = 9\n    xs.append(len(xs))\n"
       "    xs.pop()\n    return xs\n",
       "[[1, 2]]", "[1, 9]"},
      {"def solve(n: int) -> list[int]:\n    out: list[int] = []\n    for i in range(n, 0, -2):\n        "
       "out.append(i)\n"
       "    return out\n",
       "[7]", "[7, 5, 3, 1]"},
      {"def solve(n: int) -> int:\n    i = 100\n    for i in range(n):\n        pass\n    return i\n", "[3]",
       "2"},  // the loop variable keeps its last value
      {"def solve(n: int) -> list[int]:\n    return [n] * 3 + [1] * (0 - n)\n", "[2]", "[2, 2, 2]"},
      {"def solve(x: int, xs: list[int]) -> bool:\n    return x in xs and 7 not in xs\n", "[2, [1, 2]]",
       "true"},
      {"def solve(s: str) -> str:\n    return \"-\".join(s.split()) + str(s.find(\"b\"))\n", "[\" a  b \"]",
       "\"a-b4\""},
      {"def solve(xs: list[int]) -> int:\n    return min(3, 1, 2) + max(xs) + sum(sorted(xs)[:1])\n",
       "[[5, 4]]", "10"},
      {"def solve(n: int) -> int:\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    "
       "return a\n",
       "[10]", "55"},  // every value computed before any is assigned
      {"def dm(a: int, b: int) -> tuple[int, int]:\n    return a // b, a % b\n\ndef solve(n: int) -> int:\n"
       "    q, r = dm(n, 7)\n    return q * 100 + r\n",
       "[-20]", "-299"},
      {"def solve(x: float) -> int:\n    return int(x)\n", "[-2.75]", "-2"},
      {"def solve(x: float) -> int:\n    return int(x / 0.5 * 1e300 * 1e300)\n", "[1.0]",
       "trap: invalid_argument"},
      {"def solve(s: str, sep: str) -> int:\n    return len(s.split(sep))\n", "[\"a,b\", \"\"]",
       "trap: invalid_argument"},
      {"def solve(n: int) -> int:\n    return n + 1_000_000 + int(2_5.0_0)\n", "[1]", "1000026"},
      {"def fib(n: int) -> int:\n    if n < 2:\n        return n\n    return fib(n - 1) + fib(n - 2)\n\n"
       "def solve(n: int) -> int:\n    return fib(n)\n",
       "[10]", "55"},
      // a conditional expression evaluates only its chosen arm
      {"def solve(xs: list[int]) -> int:\n    return 0 if len(xs) == 0 else xs[0] // len(xs)\n", "[[]]", "0"},
      {"def solve(a: int) -> float:\n    return a if a > 0 else 0.5\n", "[2]", "2.0"},  // Python: 2
      // truthiness: an int, a float, a str, a list; `not` of any value; and/or in a condition
      {"def solve(n: int, s: str, xs: list[int], f: float) -> list[bool]:\n    out: list[bool] = []\n"
       "    for v in [n, len(s), len(xs)]:\n        out.append(not v)\n    if n and s or xs:\n"
       "        out.append(True)\n    if f:\n        out.append(False)\n    return out\n",
       "[0, \"a\", [5], 0.0]", "[true, false, false, true]"},
      {"def solve(n: int) -> int:\n    s = 0\n    while n:\n        s += n % 10\n        n //= 10\n    "
       "return s\n",
       "[905]", "14"},
      // comprehensions: filtered, over a str and a range, nested, as generator arguments
      {"def solve(xs: list[int]) -> list[int]:\n    return [x * x for x in xs if x % 2 if x > 1]\n",
       "[[1, 2, 3, 5]]", "[9, 25]"},
      {"def solve(s: str) -> str:\n    return \"\".join(c + c for c in s if c != \"b\")\n", "[\"abc\"]",
       "\"aacc\""},
      {"def solve(xs: list[int]) -> list[int]:\n    return [len([y for y in xs if y < x]) for x in xs]\n",
       "[[3, 1, 2]]", "[2, 0, 1]"},
      {"def solve(xs: list[int]) -> int:\n    return sum((x for x in xs)) + max(x * 2 for x in xs)\n",
       "[[1, 4]]", "13"},
      {"def solve(xs: list[int]) -> int:\n    return min(x for x in xs if x > 9)\n", "[[1, 4]]",
       "trap: invalid_argument"},
      // enumerate (its index variable outlives a for loop, is the comprehension's own in one);
      // pop as a value, at either end
      {"def solve(xs: list[int]) -> list[int]:\n    k = 0\n    for i, x in enumerate(xs, 1):\n        k = i "
       "* x\n"
       "    return [k] + [i for i, x in enumerate(reversed(xs), -1) if x > 1]\n",
       "[[5, 1, 2]]", "[6, -1, 1]"},
      {"def solve(xs: list[int]) -> list[int]:\n    q = list(xs)\n    a = q.pop(0)\n    b = q.pop()\n"
       "    q.pop(-1)\n    return [a, b] + q\n",
       "[[1, 2, 3, 4, 5]]", "[1, 5, 2, 3]"},
      // a comprehension in a range bound, and one whose sequence is another: their slots are
      // free again when the loop stores its own state
      {"def solve(xs: list[int]) -> int:\n    t = 0\n    for i in range(1, len([x for x in xs if x])):\n"
       "        t += i\n    return t + len([a for a in [b + 1 for b in xs] if a > 1])\n",
       "[[0, 1, 2, 3]]", "6"},
  };
  for (const Case& c : cases) {
    Ran r = run(c.source, c.args);
    EXPECT_EQ(r.errors, "") << c.source;
    EXPECT_EQ(r.result, c.result) << c.source;
  }
}

// What is outside the subset, or cannot keep Python's meaning, is a located error.
TEST(PythonFrontEnd, RefusesWithALocatedError) {
  struct Case {
    const char* source;
    const char* error;  // "LINE:COL: message" as rendered
  } cases[] = {
      {"import os\ndef solve() -> int:\n    return 1\n",
       "t.py:1:1: error: 'import' is outside gpusynth's Python subset"},
      {"def solve(x) -> int:\n    return x\n", "t.py:1:11: error: annotate 'x' with its type"},
      {"def solve(x: int):\n    return x\n", "t.py:1:5: error: annotate 'solve' with its type"},
      {"def solve(c: bool) -> int:\n    if c:\n        y = 1\n    return y\n",
       "t.py:4:12: error: 'y' may be read before it is assigned"},
      {"def solve(xs: list[int]) -> int:\n    for x in xs:\n        last = x\n    return last\n",
       "t.py:4:12: error: 'last' may be read before it is assigned"},
      {"def solve(xs: list[int]) -> list[int]:\n    ys = xs\n    ys.append(1)\n    return xs\n",
       "t.py:3:5: error: 'ys' is changed in place but its list may be shared"},
      {"def f(xs: list[int]) -> int:\n    xs[0] = 1\n    return 0\n\ndef solve(xs: list[int]) -> int:\n"
       "    return f(xs) + xs[0]\n",
       "t.py:2:5: error: 'xs' is changed in place but its list may be shared"},
      {"def solve(xs: list[int]) -> int:\n    for x in xs:\n        xs.append(x)\n    return 0\n",
       "t.py:3:9: error: 'xs' is changed in place"},
      {"def solve(a: int) -> bool:\n    return 0 < a < 9\n",
       "t.py:2:18: error: comparisons cannot be chained"},
      {"def solve(a: int) -> int:\n    return a if a > 0 else \"-\"\n",
       "t.py:2:28: error: expected int, found str"},
      {"def solve(a: int, b: int) -> int:\n    return a or b\n",
       "t.py:2:14: error: operator 'or' cannot take int"},
      {"def solve(xs: list[int]) -> int:\n    return len(x for x in xs)\n",
       "t.py:2:18: error: 'for' is outside"},
      {"def solve(xs: list[int]) -> int:\n    ys = [x for x in xs]\n    return x\n",
       "t.py:3:12: error: unknown name 'x'"},  // a comprehension's variable is its own
      {"def solve(xs: list[int], c: bool) -> int:\n    ys = xs if c else []\n    ys.append(1)\n    return "
       "0\n",
       "t.py:3:5: error: 'ys' is changed in place but its list may be shared"},
      {"def solve(a: int) -> int:\n    return a ** 2\n", "t.py:2:14: error: '**' is outside"},
      {"def solve(xs: list[int]) -> list[int]:\n    return [x for x in xs for y in xs]\n",
       "t.py:2:27: error: 'for' is outside"},
      {"def solve(a: int) -> int:\n    x = 1\n    x = \"s\"\n    return a\n",
       "t.py:3:9: error: expected int, found str"},
      {"def solve(a: float) -> str:\n    return str(a)\n",
       "t.py:2:12: error: str() of float differs from Python's"},
      {"def solve(a: int) -> int:\n    x = push([1], a)\n    return a\n",
       "t.py:2:9: error: unknown function 'push'"},
      {"def solve(a: int) -> int:\n  return a\n   x = 1\n", "t.py:3:4: error: unexpected indentation"},
      {"def solve(a: int) -> int:\n    if a:\n        return 1\n  return a\n",
       "t.py:4:1: error: this line's indentation matches no enclosing block"},
      {"def solve(xs: list[int]) -> int:\n    return xs.pop()\n", "t.py:2:15: error: 'pop' is outside"},
      {"def solve(xs: list[int]) -> int:\n    return xs.pop(0) if len(xs) > 0 else 0\n",
       "t.py:2:15: error: 'pop' is outside"},  // a pop as a value only in `x = xs.pop(...)`
      {"def solve(xs: list[int]) -> int:\n    v = xs.pop(1)\n    return v\n",
       "t.py:2:16: error: '1' is outside"},
      {"def solve(xs: list[int], ys: list[int]) -> int:\n    for a, b in zip(xs, ys):\n        pass\n"
       "    return 0\n",
       "t.py:2:9: error: 'a, b' is outside"},
      {"def solve(xs: list[int]) -> int:\n    for x in reversed(xs):\n        xs[0] = x\n    return 0\n",
       "t.py:3:9: error: 'xs' is changed in place"},
      {"def g(x: int) -> int:\n    return x\n\ndef solve(g: int) -> int:\n    return g(g)\n",
       "t.py:5:12: error: 'g' is a variable, not a function"},
      {"class A:\n    x = 1\n\ndef solve(a: int) -> int:\n    return b\n",  // recovers at the next def
       "t.py:1:1: error: 'class' is outside"},
      {"def solve(n: int) -> int:\n    for i in range(0, n, n):\n        pass\n    return n\n",
       "t.py:2:26: error: a range step must be a nonzero integer literal"},
  };
  for (const Case& c : cases) {
    Ran r = run(c.source, "[]");
    EXPECT_NE(r.errors.find(c.error), std::string::npos) << c.source << "\n--- got:\n" << r.errors;
  }
}

}  // namespace
}  // namespace gs
