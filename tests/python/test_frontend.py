"""Tests of the typed-Python front end: gpusynth.compile(source, language="python").

Two parts:

1. The corpus, tests/python/frontend/*.py: small programs in the subset, each carrying its own
   expectations in comments,

       # case: solve(<literal args>) == <literal result>    (any function of the file, not only solve)
       # case: solve(<literal args>) raises                  (a trap in gpusynth, an exception in CPython)

   and files named error_*.py that must not compile, with lines

       # error: LINE[:COLUMN][: substring of the message]

   Every case is checked twice: with CPython (so the expectations themselves are right) and with
   gpusynth. An error line is matched against CompileError.diagnostics: the line always, the
   column and the (case-insensitive) substring only when given.

2. A differential test: a seeded generator of well-typed subset programs (ProgramGenerator),
   each run on a few random inputs under CPython and under gpusynth, outcomes compared. CPython
   runs an instrumented copy of each program that stops (and so skips the case) when an int
   leaves +-2^62, a str or list grows past a few hundred elements, or loops run too long —
   things where gpusynth's 64-bit wrapping and bounded heap legitimately differ from Python.

By hand, to look at one generated program (the index a failure report names) or to run the
campaign with a summary:

    PYTHONPATH=build/py/python python3 tests/python/test_frontend.py show 17
    PYTHONPATH=build/py/python python3 tests/python/test_frontend.py run [COUNT]
"""
import ast
import collections
import contextlib
import copy
import dataclasses
import math
import pathlib
import random
import re
import sys

import pytest

import gpusynth

CORPUS = pathlib.Path(__file__).resolve().parent / "frontend"
FUEL = 10_000_000       # generous: the instrumented CPython run skips cases past TICK_LIMIT iterations
HEAP = 1 << 23          # bytes; the instrumented CPython run skips cases with big values anyway


# ---------------------------------------------------------------------------------------------
# Outcomes of one call, and comparing them
# ---------------------------------------------------------------------------------------------

# CPython exceptions that stand for a gpusynth trap (division by zero, index out of range,
# min/max of an empty list, chr/ord/int outside their domain). Anything else a generated
# program raises is a bug of the generator.
TRAP_LIKE = (ZeroDivisionError, IndexError, ValueError, OverflowError)


class Skip(Exception):
    """Raised by the instrumented CPython run: the case leaves what gpusynth can mirror."""


@dataclasses.dataclass
class Outcome:
    kind: str          # "value", "raises" (CPython exception / gpusynth trap), "skip", "bug"
    value: object = None
    detail: str = ""

    def __str__(self):
        if self.kind == "value":
            return f"returns {self.value!r}"
        return f"{self.kind} {self.detail}"


def is_trap_like(error):
    if isinstance(error, TRAP_LIKE):
        return True
    # ord() of a str whose length is not 1 is a TypeError in CPython, a trap in gpusynth.
    return isinstance(error, TypeError) and str(error).startswith("ord() expected")


def python_outcome(function, args):
    """Calls a CPython function on a deep copy of args (a callee may mutate its lists)."""
    try:
        return Outcome("value", function(*copy.deepcopy(args)))
    except Skip as skip:
        return Outcome("skip", detail=str(skip))
    except Exception as error:  # noqa: BLE001 - every exception is an outcome here
        kind = "raises" if is_trap_like(error) else "bug"
        return Outcome(kind, detail=f"{type(error).__name__}: {error}")


def gpusynth_outcome(program, args, entry="solve"):
    try:
        return Outcome("value", gpusynth.run(program, tuple(args), entry=entry, fuel=FUEL, heap=HEAP))
    except gpusynth.Trap as trap:
        return Outcome("raises", detail=trap.trap)
    except Exception as error:  # noqa: BLE001 - a wrong exception type is a disagreement
        return Outcome("bug", detail=f"{type(error).__name__}: {error}")


def same_value(a, b):
    """Equality with exact types (True is not 1), floats within 1e-12 relative or both NaN."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return a == b or math.isclose(a, b, rel_tol=1e-12) or (math.isnan(a) and math.isnan(b))
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    return a == b


def agree(py, gs):
    """A value on both sides that is the same, or a raise on both sides. Running out of fuel is
    never agreement: every program here ends quickly in CPython."""
    if py.kind == "value" and gs.kind == "value":
        return same_value(py.value, gs.value)
    return py.kind == "raises" and gs.kind == "raises" and gs.detail != "out_of_fuel"


def compile_python(source, path="<source>"):
    return gpusynth.compile(source, path=path, language="python")


# ---------------------------------------------------------------------------------------------
# Part 1: the corpus
# ---------------------------------------------------------------------------------------------

@dataclasses.dataclass
class Case:
    line: int
    entry: str
    args: tuple
    raises: bool
    expected: object = None

    def __str__(self):
        args = ", ".join(repr(a) for a in self.args)
        outcome = "raises" if self.raises else f"== {self.expected!r}"
        return f"line {self.line}: {self.entry}({args}) {outcome}"


@dataclasses.dataclass
class ExpectedError:
    line: int
    column: int | None
    substring: str | None

    def matches(self, diagnostic):
        line, column, message = diagnostic
        return (line == self.line and (self.column is None or column == self.column)
                and (self.substring is None or self.substring.lower() in message.lower()))

    def __str__(self):
        where = f"{self.line}" + (f":{self.column}" if self.column is not None else "")
        return where + (f": ...{self.substring}..." if self.substring else "")


CASE_LINE = re.compile(r"^#\s*case:\s*(.*?)\s*$")
ERROR_LINE = re.compile(r"^#\s*error:\s*(\d+)(?::(\d+))?(?::\s*(.*?))?\s*$")


def parse_cases(path):
    """The `# case:` lines of a corpus file. A case is parsed as a Python expression:
    `f(args) == result` (a comparison) or `f(args)` followed by the word `raises`."""
    cases = []
    for number, text in enumerate(path.read_text().splitlines(), 1):
        match = CASE_LINE.match(text)
        if not match:
            continue
        body = match.group(1)
        raises = body.endswith(" raises")
        if raises:
            body = body[: -len(" raises")]
        node = ast.parse(body, mode="eval").body
        expected = None
        if not raises:
            assert isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq), \
                f"{path.name}:{number}: a case is `f(args) == result` or `f(args) raises`"
            expected = ast.literal_eval(node.comparators[0])
            node = node.left
        assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords, \
            f"{path.name}:{number}: a case calls a function of the file by name"
        args = tuple(ast.literal_eval(arg) for arg in node.args)
        cases.append(Case(number, node.func.id, args, raises, expected))
    return cases


def parse_errors(path):
    errors = []
    for text in path.read_text().splitlines():
        match = ERROR_LINE.match(text)
        if match:
            line, column, substring = match.groups()
            errors.append(ExpectedError(int(line), int(column) if column else None, substring or None))
    return errors


PROGRAMS = sorted(p for p in CORPUS.glob("*.py") if not p.name.startswith("error_"))
ERRORS = sorted(CORPUS.glob("error_*.py"))


def check_cases(path, outcome_of):
    """Checks every case of a corpus file; outcome_of(case) -> Outcome. Reports all failures."""
    cases = parse_cases(path)
    assert cases, f"{path.name} has no `# case:` lines"
    failures = []
    for case in cases:
        got = outcome_of(case)
        ok = got.kind == "raises" and got.detail != "out_of_fuel" if case.raises \
            else got.kind == "value" and same_value(case.expected, got.value)
        if not ok:
            failures.append(f"{path.name}:{case}: got {got}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_corpus_expectations_hold_in_cpython(path):
    namespace = {}
    exec(compile(path.read_text(), str(path), "exec"), namespace)  # noqa: S102 - our own corpus
    check_cases(path, lambda case: python_outcome(namespace[case.entry], case.args))


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_corpus_runs_in_gpusynth(path):
    program = compile_python(path.read_text(), path=path.name)
    check_cases(path, lambda case: gpusynth_outcome(program, case.args, entry=case.entry))


@pytest.mark.parametrize("path", ERRORS, ids=lambda p: p.stem)
def test_error_files_are_python_with_located_expectations(path):
    """An error file is valid Python (so gpusynth rejects it for the subset, not for syntax) and
    every expected error names a line of code."""
    source = path.read_text()
    ast.parse(source)
    lines = source.splitlines()
    errors = parse_errors(path)
    assert errors, f"{path.name} has no `# error:` lines"
    for error in errors:
        assert 1 <= error.line <= len(lines), f"{path.name}: no line {error.line}"
        code = lines[error.line - 1].strip()
        assert code and not code.startswith("#"), f"{path.name}:{error.line} is not a line of code"


@pytest.mark.parametrize("path", ERRORS, ids=lambda p: p.stem)
def test_error_files_do_not_compile(path):
    with pytest.raises(gpusynth.CompileError) as raised:
        compile_python(path.read_text(), path=path.name)
    diagnostics = raised.value.diagnostics
    expected = parse_errors(path)
    missing = [str(e) for e in expected if not any(e.matches(d) for d in diagnostics)]
    assert not missing, f"{path.name}: expected {missing}, got diagnostics {diagnostics}\n{raised.value}"
    for error in expected:  # the rendered message names the file and line, as Syn's does
        assert f"{path.name}:{error.line}:" in str(raised.value)


# ---------------------------------------------------------------------------------------------
# Part 2: the program generator
# ---------------------------------------------------------------------------------------------

INT, BOOL, STR, FLOAT, LINT, LSTR = "int", "bool", "str", "float", "list[int]", "list[str]"
ELEMENT = {LINT: INT, LSTR: STR}
LISTS = (LINT, LSTR)
STR_LITERALS = ["", "a", "b", "ab", "ba", ",", "a,b", " ", "x y", "-", "abc", "c"]
SEPARATORS = [",", " ", "a", "-", ", "]
INPUT_ALPHABET = "ab,- c1"


# Small helpers that build ast nodes (ast.unparse turns them into source with minimal
# parentheses, so operator precedence in the front end's parser is exercised too).
def load(name):
    return ast.Name(name, ast.Load())


def store(name):
    return ast.Name(name, ast.Store())


def const(value):
    return ast.Constant(value)


def call(function, *args):
    return ast.Call(load(function), list(args), [])


def method(obj, name, *args):
    return ast.Call(ast.Attribute(obj, name, ast.Load()), list(args), [])


def compare(left, op, right):
    return ast.Compare(left, [op], [right])


def index(seq, i):
    return ast.Subscript(seq, i, ast.Load())


def sliced(seq, lo, hi, step=None):
    return ast.Subscript(seq, ast.Slice(lo, hi, step), ast.Load())


def annotation(t, typing_list=False):
    if t in LISTS:
        return ast.Subscript(load("List" if typing_list else "list"), load(ELEMENT[t]), ast.Load())
    if t.startswith("tuple"):
        return ast.Subscript(load("tuple"), ast.Tuple([load(INT), load(INT)], ast.Load()), ast.Load())
    return load(t)


class Context:
    """What the generator knows at one point of a function: the variables assigned on every
    path to here (one frame per block; a block's variables die with it, which is what keeps the
    generated programs definitely assigned), and what may not be changed here."""

    def __init__(self, rng, return_type, helpers):
        self.rng = rng
        self.return_type = return_type
        self.helpers = helpers          # [(name, [param types], result type)] callable from here
        self.frames = [{}]
        self.readonly = []              # names never assigned here (while counters, char loop vars)
        self.frozen = []                # list names never mutated here (iterated, or a helper's)
        self.chars = set()              # str names that always hold one character
        self.safe = []                  # (i, seq): i from `for i in range(len(seq))`
        self.loops = 0
        self.counter = 0

    def fresh(self, prefix):
        self.counter += 1
        return f"{prefix}{self.counter}"

    def declare(self, name, t):
        self.frames[-1][name] = t

    @contextlib.contextmanager
    def block(self, readonly=(), frozen=(), safe=(), loop=False):
        self.frames.append({})
        self.readonly.extend(readonly)
        self.frozen.extend(frozen)
        self.safe.extend(safe)
        self.loops += loop
        try:
            yield
        finally:
            self.frames.pop()
            del self.readonly[len(self.readonly) - len(readonly):]
            del self.frozen[len(self.frozen) - len(frozen):]
            del self.safe[len(self.safe) - len(safe):]
            self.loops -= loop

    def variables(self, t=None):
        seen = {}
        for frame in self.frames:
            seen.update(frame)
        return [name for name, vt in seen.items() if t is None or vt == t]

    def assignable(self, t=None):
        return [v for v in self.variables(t) if v not in self.readonly]

    def mutable_lists(self):
        return [v for t in LISTS for v in self.assignable(t) if v not in self.frozen]

    def type_of(self, name):
        for frame in reversed(self.frames):
            if name in frame:
                return frame[name]
        raise KeyError(name)


def weighted(rng, options):
    """options: [(weight, thunk)]; calls one thunk chosen by weight (weight 0: not available)."""
    options = [(w, f) for w, f in options if w > 0]
    pick = rng.uniform(0, sum(w for w, _ in options))
    for w, f in options:
        pick -= w
        if pick <= 0:
            return f()
    return options[-1][1]()


class ExpressionGenerator:
    """Well-typed expressions of the subset, one method per result type."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.rng = ctx.rng

    def expr(self, t, depth):
        if t in LISTS:
            return self.list_expr(depth, t)
        return {INT: self.int_expr, BOOL: self.bool_expr, STR: self.str_expr, FLOAT: self.float_expr}[t](depth)

    def fresh(self, t, depth):
        """An expression whose value never aliases a variable's list (a bare list name is
        copied with list(...)), for assignments: gpusynth's lists are values, Python's are not."""
        e = self.expr(t, depth)
        return call("list", e) if t in LISTS and self.shared(e) else e

    def shared(self, e):
        """May list expression e be another name's list? A name, a helper's result (perhaps its
        parameter, the caller's list), or `a if c else b` with such an arm."""
        if isinstance(e, ast.IfExp):
            return self.shared(e.body) or self.shared(e.orelse)
        return isinstance(e, ast.Name) or (isinstance(e, ast.Call) and isinstance(e.func, ast.Name)
                                           and e.func.id in {h[0] for h in self.ctx.helpers})

    def if_expr(self, t, depth):
        """a if c else b, the condition sometimes a non-bool value (truthiness)."""
        return ast.IfExp(self.condition(depth), self.expr(t, depth), self.expr(t, depth))

    def condition(self, depth):
        """A bool, or (a fifth of the time) any value as a condition: its truth."""
        rng = self.rng
        if depth <= 0 or rng.random() < 0.8:
            return self.bool_expr(depth)
        truth = lambda: self.expr(rng.choice([INT, INT, STR, LINT, LSTR, FLOAT]), depth - 1)  # noqa: E731
        return weighted(rng, [
            (4, truth),
            (1, lambda: ast.UnaryOp(ast.Not(), truth())),
            (1, lambda: ast.BoolOp(rng.choice([ast.And(), ast.Or()]), [truth(), self.condition(depth - 1)])),
        ])

    def comprehension(self, element_type, depth, generator=False):
        """[e for v in seq if c] (or the generator expression) over a list, a str or a range;
        v is the comprehension's own variable."""
        rng, ctx, d = self.rng, self.ctx, depth - 1
        source = rng.choice([LINT, LINT, STR, LSTR, "range"])
        if source == "range":
            seq = call("range", rng.choice([const(rng.randint(0, 6)), call("len", self.expr(rng.choice(LISTS), d))]))
            var_type = INT
        else:
            seq = self.expr(source, d)
            var_type = ELEMENT.get(source, STR)
        var = ctx.fresh("q")
        index = ctx.fresh("k") if source != "range" and rng.random() < 0.2 else None
        with ctx.block(readonly=(var, index) if index else (var,)):
            ctx.declare(var, var_type)
            if index:
                ctx.declare(index, INT)
            if source == STR:
                ctx.chars.add(var)
            conds = [self.condition(d) for _ in range(rng.choices([0, 1, 2], [4, 5, 1])[0])]
            element = self.expr(element_type, d)
        target = store(var)
        if index:
            target = ast.Tuple([store(index), store(var)], ast.Store())
            seq = call("enumerate", seq, *([const(rng.randint(-2, 3))] if rng.random() < 0.5 else []))
        loop = [ast.comprehension(target, seq, conds, 0)]
        return ast.GeneratorExp(element, loop) if generator else ast.ListComp(element, loop)

    def var_or(self, t, make):
        names = self.ctx.variables(t)
        return load(self.rng.choice(names)) if names and self.rng.random() < 0.75 else make()

    # ints --------------------------------------------------------------------------------
    def int_literal(self):
        return const(self.rng.choice([0, 1, 1, 2, 2, 3, 5, 7, 10, -1, -2, -3, 4, 6, 100]))

    def int_leaf(self):
        return self.var_or(INT, self.int_literal)

    def int_expr(self, depth):
        rng, d = self.rng, depth - 1
        if depth <= 0 or rng.random() < 0.25:
            return self.int_leaf()
        ops = [ast.Add(), ast.Sub(), ast.Mult(), ast.Add(), ast.Sub()]
        return weighted(rng, [
            (6, lambda: ast.BinOp(self.int_expr(d), rng.choice(ops), self.int_expr(d))),
            (3, lambda: ast.BinOp(self.int_expr(d), rng.choice([ast.FloorDiv(), ast.Mod()]), self.divisor(d))),
            (1, lambda: ast.UnaryOp(ast.USub(), self.var_or(INT, lambda: const(rng.randint(1, 9))))),
            (3, lambda: call("len", self.expr(rng.choice([STR, LINT, LSTR]), d))),
            (1, lambda: call("abs", self.int_expr(d))),
            (2, lambda: call(rng.choice(["min", "max"]), self.int_expr(d), self.int_expr(d))),
            (2, lambda: call(rng.choice(["min", "max", "sum", "sum"]), self.list_expr(d, LINT))),
            (2, lambda: self.element(LINT, d)),
            (1, lambda: call("ord", self.char(d))),
            (1, lambda: method(self.str_expr(d), "find", self.str_expr(d))),
            (1, lambda: call("int", self.float_expr(d))),
            (2 if self.helpers(INT) else 0, lambda: self.helper_call(INT, d)),
            (1, lambda: self.if_expr(INT, d)),
            (1, lambda: call(rng.choice(["sum", "sum", "min", "max"]), self.comprehension(INT, d, generator=True))),
            (0.5, lambda: call("len", self.comprehension(rng.choice([INT, STR]), d))),
        ])

    def divisor(self, depth):
        # Mostly nonzero literals (both signs: floor semantics), sometimes any int (may be 0).
        if self.rng.random() < 0.85:
            return const(self.rng.choice([2, 3, 10, 7, -2, -3, 4]))
        return self.int_expr(depth)

    def helpers(self, t):
        return [h for h in self.ctx.helpers if h[2] == t]

    def helper_call(self, t, depth):
        # A list argument is never a bare name: gpusynth refuses to let a list passed to a call
        # be changed in place afterwards (it may be shared), so the generator passes copies.
        name, params, _ = self.rng.choice(self.helpers(t))
        return call(name, *[self.fresh(p, depth) for p in params])

    def index_for(self, seq, depth):
        """An index into seq: a loop variable known to be in range, 0 / -1 / a small literal,
        `e % len(seq)` (in range whenever seq is not empty), or any int."""
        rng = self.rng
        if isinstance(seq, ast.Name):
            safe = [i for i, s in self.ctx.safe if s == seq.id]
            if safe and rng.random() < 0.7:
                return load(rng.choice(safe))
        return weighted(rng, [
            (4, lambda: const(rng.choice([0, 0, -1, -1, 1, -2, 2]))),
            (2, lambda: ast.BinOp(self.int_expr(depth), ast.Mod(), call("len", copy.deepcopy(seq)))),
            (0.5, lambda: self.int_expr(depth)),
        ])

    def element(self, t, depth):
        """seq[i] of a list type t (or STR): preferably a variable, so safe indexes apply."""
        names = self.ctx.variables(t)
        if names and self.rng.random() < 0.8:
            seq = load(self.rng.choice(names))
        else:
            seq = self.str_expr(depth) if t == STR else self.list_expr(depth, t)
        return index(seq, self.index_for(seq, depth))

    def char(self, depth):
        chars = [c for c in self.ctx.chars if c in self.ctx.variables(STR)]
        if chars and self.rng.random() < 0.5:
            return load(self.rng.choice(chars))
        return self.element(STR, depth)

    def bound(self, depth):
        """A small int for slice bounds: a literal of either sign, or any int."""
        if self.rng.random() < 0.6:
            return const(self.rng.randint(-4, 5))
        return self.int_expr(depth)

    def slice_of(self, seq, depth):
        rng = self.rng
        form = rng.randrange(4)
        if form == 0:
            return sliced(seq, None, None, const(-1))
        lo = self.bound(depth) if form in (1, 3) else None
        hi = self.bound(depth) if form in (2, 3) else None
        return sliced(seq, lo, hi)

    # bools -------------------------------------------------------------------------------
    def bool_expr(self, depth):
        rng, d = self.rng, depth - 1
        if depth <= 0 or rng.random() < 0.1:
            return self.var_or(BOOL, lambda: const(rng.random() < 0.5))
        cmp_ops = [ast.Lt(), ast.LtE(), ast.Gt(), ast.GtE(), ast.Eq(), ast.NotEq()]
        return weighted(rng, [
            (8, lambda: compare(self.int_expr(d), rng.choice(cmp_ops), self.int_expr(d))),
            (2, lambda: compare(self.str_expr(d), rng.choice([ast.Eq(), ast.NotEq()]), self.str_expr(d))),
            (1, lambda: compare(self.list_expr(d, LINT), rng.choice([ast.Eq(), ast.NotEq()]),
                                self.list_expr(d, LINT))),
            (2, lambda: compare(self.int_expr(d), rng.choice([ast.In(), ast.NotIn()]),
                                self.list_expr(d, LINT))),
            (2, lambda: compare(self.str_expr(d), rng.choice([ast.In(), ast.NotIn()]), self.str_expr(d))),
            (1, lambda: compare(self.str_expr(d), ast.In(), self.list_expr(d, LSTR))),
            (1, lambda: ast.UnaryOp(ast.Not(), self.bool_expr(d))),
            (3, lambda: ast.BoolOp(rng.choice([ast.And(), ast.Or()]), [self.bool_expr(d), self.bool_expr(d)])),
            (1, lambda: compare(self.float_expr(d), rng.choice(cmp_ops[:4]), self.float_expr(d))),
            (1, lambda: self.var_or(BOOL, lambda: const(rng.random() < 0.5))),
            (1 if self.helpers(BOOL) else 0, lambda: self.helper_call(BOOL, d)),
            (1, lambda: ast.UnaryOp(ast.Not(), self.expr(rng.choice([INT, STR, LINT, FLOAT]), d))),
            (0.5, lambda: self.if_expr(BOOL, d)),
        ])

    # strs --------------------------------------------------------------------------------
    def str_expr(self, depth):
        rng, d = self.rng, depth - 1
        literal = lambda: const(rng.choice(STR_LITERALS))  # noqa: E731
        if depth <= 0 or rng.random() < 0.25:
            return self.var_or(STR, literal)
        return weighted(rng, [
            (4, lambda: ast.BinOp(self.str_expr(d), ast.Add(), self.str_expr(d))),
            (1.5, lambda: self.element(STR, d)),
            (2, lambda: self.slice_of(self.var_or(STR, literal), d)),
            (2, lambda: call("str", self.int_expr(d))),
            (1, lambda: call("chr", ast.BinOp(const(97), ast.Add(),
                                             ast.BinOp(self.int_expr(d), ast.Mod(), const(26))))),
            (2, lambda: method(rng.choice([const(rng.choice(["", ",", "-", " "])), self.str_expr(0)]),
                               "join", self.list_expr(d, LSTR))),
            (1, lambda: self.element(LSTR, d)),
            (1 if self.helpers(STR) else 0, lambda: self.helper_call(STR, d)),
            (1, lambda: self.if_expr(STR, d)),
            (1, lambda: method(const(rng.choice(["", ","])), "join", self.comprehension(STR, d, generator=True))),
        ])

    # lists -------------------------------------------------------------------------------
    def list_expr(self, depth, t):
        rng, d = self.rng, depth - 1
        elem = ELEMENT[t]
        split = lambda: method(self.str_expr(d), "split", const(rng.choice(SEPARATORS)))  # noqa: E731
        literal = lambda: ast.List([self.expr(elem, d) for _ in range(rng.randint(1, 3))], ast.Load())  # noqa: E731
        if t == LSTR:
            literal = rng.choice([literal, split])
        if depth <= 0 or rng.random() < 0.3:
            names = self.ctx.variables(t)
            return load(rng.choice(names)) if names and rng.random() < 0.85 else literal()
        return weighted(rng, [
            (3, lambda: ast.BinOp(self.list_expr(d, t), ast.Add(), self.list_expr(d, t))),
            (3, lambda: self.slice_of(self.var_or(t, literal), d)),
            (2, lambda: call("sorted", self.list_expr(d, t))),
            (1, lambda: call("list", call("reversed", self.list_expr(d, t)))),
            (1, lambda: call("list", self.list_expr(d, t))),
            (2, literal),
            (3 if t == LSTR else 0, split),
            (1 if self.helpers(t) else 0, lambda: self.helper_call(t, d)),
            (2, lambda: self.comprehension(elem, d)),
            (0.5, lambda: call("sorted", self.comprehension(elem, d, generator=True))),
            (1, lambda: self.if_expr(t, d)),
        ])

    # floats (true division, promotion, float(), compared or turned back with int()) -------
    def float_expr(self, depth):
        rng, d = self.rng, depth - 1
        if depth <= 0 or rng.random() < 0.2:
            return self.var_or(FLOAT, lambda: ast.BinOp(self.int_leaf(), ast.Div(), self.divisor(0)))
        return weighted(rng, [
            (3, lambda: ast.BinOp(self.int_expr(d), ast.Div(), self.divisor(d))),
            (1, lambda: call("float", self.int_expr(d))),
            (2, lambda: ast.BinOp(self.float_expr(d), rng.choice([ast.Add(), ast.Sub(), ast.Mult()]),
                                  rng.choice([const(rng.choice([0.5, 1.5, 2.0, -0.25])), self.int_leaf()]))),
            (1, lambda: ast.BinOp(self.float_expr(d), ast.Add(), self.float_expr(d))),
            (1, lambda: ast.UnaryOp(ast.USub(), self.var_or(FLOAT, lambda: call("float", self.int_leaf())))),
        ])


class StatementGenerator:
    """Statements of the subset, one method per kind. Each returns a list of statements."""

    MAX_NESTING = 3
    EXPR_DEPTH = 3

    def __init__(self, ctx):
        self.ctx = ctx
        self.rng = ctx.rng
        self.e = ExpressionGenerator(ctx)

    def block(self, nesting, count):
        body = []
        for _ in range(count):
            body += self.statement(nesting)
        return body or [ast.Pass()]

    def statement(self, nesting):
        ctx, deeper = self.ctx, nesting < self.MAX_NESTING
        return weighted(self.rng, [
            (6, lambda: self.assign_new(nesting)),
            (4 if ctx.assignable() else 0, self.assign_existing),
            (4 if ctx.assignable(INT) + ctx.assignable(STR) + ctx.assignable(FLOAT) else 0, self.aug_assign),
            (2 if ctx.mutable_lists() else 0, self.element_assign),
            (3 if ctx.mutable_lists() else 0, self.append),
            (1 if ctx.mutable_lists() else 0, self.pop_value),
            (3 if deeper else 0, lambda: self.if_statement(nesting)),
            (1.5 if deeper else 0, lambda: self.branch_assign(nesting)),
            (3 if deeper else 0, lambda: self.for_range(nesting)),
            (3 if deeper else 0, lambda: self.for_each(nesting)),
            (1.5 if deeper else 0, lambda: self.while_loop(nesting)),
            (1.5 if ctx.loops else 0, self.break_continue),
            (1, self.early_return),
            (0.3, lambda: [ast.Pass()]),
        ])

    # assignments ---------------------------------------------------------------------------
    def assign_new(self, nesting):
        rng, ctx = self.rng, self.ctx
        t = rng.choices([INT, STR, LINT, BOOL, LSTR, FLOAT], [5, 2, 3, 1, 1, 0.7])[0]
        name = ctx.fresh("v")
        if t in LISTS and rng.random() < 0.35:
            stmt = ast.AnnAssign(store(name), annotation(t), ast.List([], ast.Load()), 1)
        else:
            value = self.e.fresh(t, self.EXPR_DEPTH)
            if rng.random() < 0.2:
                stmt = ast.AnnAssign(store(name), annotation(t), value, 1)
            else:
                stmt = ast.Assign([store(name)], value)
        ctx.declare(name, t)  # after the value: a variable is not visible in its own initializer
        return [stmt]

    def assign_existing(self):
        name = self.rng.choice(self.ctx.assignable())
        return [ast.Assign([store(name)], self.e.fresh(self.ctx.type_of(name), self.EXPR_DEPTH))]

    def aug_assign(self):
        rng, ctx = self.rng, self.ctx
        name = rng.choice(ctx.assignable(INT) * 3 + ctx.assignable(STR) + ctx.assignable(FLOAT))
        t = ctx.type_of(name)
        if t == INT:
            op = rng.choice([ast.Add(), ast.Sub(), ast.Mult(), ast.Add(), ast.FloorDiv(), ast.Mod()])
            value = self.e.divisor(2) if isinstance(op, (ast.FloorDiv, ast.Mod)) else self.e.int_expr(2)
        elif t == FLOAT:
            op = rng.choice([ast.Add(), ast.Sub(), ast.Mult()])
            value = rng.choice([self.e.float_expr(1), self.e.int_leaf()])
        else:
            op, value = ast.Add(), self.e.str_expr(2)
        return [ast.AugAssign(store(name), op, value)]

    def element_assign(self):
        """xs[i] = e with any int index, or xs[i] op= e with a name or literal index."""
        rng = self.rng
        name = rng.choice(self.ctx.mutable_lists())
        t = self.ctx.type_of(name)
        if t == LINT and rng.random() < 0.4:
            ints = self.ctx.variables(INT)
            i = load(rng.choice(ints)) if ints and rng.random() < 0.5 else const(rng.choice([0, 1, -1, -2]))
            op = rng.choice([ast.Add(), ast.Sub(), ast.Mult(), ast.FloorDiv(), ast.Mod()])
            value = self.e.divisor(1) if isinstance(op, (ast.FloorDiv, ast.Mod)) else self.e.int_expr(2)
            return [ast.AugAssign(ast.Subscript(load(name), i, ast.Store()), op, value)]
        i = self.e.index_for(load(name), 1)
        return [ast.Assign([ast.Subscript(load(name), i, ast.Store())], self.e.expr(ELEMENT[t], 2))]

    def pop_value(self):
        """v = xs.pop() / xs.pop(0) / xs.pop(-1) into a fresh variable (an empty list raises)."""
        rng, ctx = self.rng, self.ctx
        name = rng.choice(ctx.mutable_lists())
        value = method(load(name), "pop", *rng.choice([[], [], [const(0)], [const(-1)]]))
        v = ctx.fresh("v")
        ctx.declare(v, ELEMENT[ctx.type_of(name)])
        return [ast.Assign([store(v)], value)]

    def append(self):
        name = self.rng.choice(self.ctx.mutable_lists())
        value = self.e.expr(ELEMENT[self.ctx.type_of(name)], 2)
        return [ast.Expr(method(load(name), "append", value))]

    # control flow --------------------------------------------------------------------------
    def body(self, nesting, **scope):
        with self.ctx.block(**scope):
            return self.block(nesting + 1, self.rng.randint(1, 3))

    def if_statement(self, nesting):
        rng = self.rng
        test = self.e.condition(2)
        then = self.body(nesting)
        orelse = []
        shape = rng.random()
        if shape < 0.3:     # elif
            test2 = self.e.condition(2)
            orelse = [ast.If(test2, self.body(nesting), self.body(nesting) if rng.random() < 0.5 else [])]
        elif shape < 0.6:   # else
            orelse = self.body(nesting)
        return [ast.If(test, then, orelse)]

    def branch_assign(self, nesting):
        """`if c: ... v = e1 elif ...: ... else: ... v = e2`: a fresh variable assigned at the end of
        every branch (the first may return instead), so it is definitely assigned after. The last
        branch always assigns: code after an if whose branches all return would be dead, and
        gpusynth checks dead code where CPython never runs it."""
        rng, ctx = self.rng, self.ctx
        t = rng.choices([INT, STR, LINT, BOOL], [4, 2, 2, 1])[0]
        name = ctx.fresh("v")

        def branch(may_return=False):
            with ctx.block():
                body = self.block(nesting + 1, rng.randint(0, 2)) if rng.random() < 0.6 else []
                if may_return and rng.random() < 0.2:
                    return body + [self.return_statement()]
                return body + [ast.Assign([store(name)], self.e.fresh(t, 2))]

        test, then = self.e.condition(2), branch(may_return=True)
        if rng.random() < 0.3:
            orelse = [ast.If(self.e.condition(2), branch(), branch())]
        else:
            orelse = branch()
        ctx.declare(name, t)
        return [ast.If(test, then, orelse)]

    def small_count(self):
        """An int expression for a range bound that keeps loops short."""
        rng, e = self.rng, self.e
        return weighted(rng, [
            (3, lambda: const(rng.randint(0, 6))),
            (3, lambda: call("len", e.var_or(rng.choice([LINT, STR, LSTR]), lambda: e.str_expr(1)))),
            (2, lambda: ast.BinOp(e.int_expr(1), ast.Mod(), const(rng.choice([4, 5, 7])))),
            (1, lambda: call("min", e.int_expr(1), const(rng.randint(2, 6)))),
        ])

    def for_range(self, nesting):
        rng, ctx = self.rng, self.ctx
        safe = ()
        form = rng.randrange(5)
        if form <= 1:                                   # range(n)
            bound = self.small_count()
            args = [bound]
        elif form <= 3:                                 # range(a, b)
            args = [const(rng.randint(-3, 3)) if rng.random() < 0.7 else self.small_count(), self.small_count()]
        else:                                           # range(a, b, k), k a literal
            step = rng.choice([2, 3, -1, -1, -2])
            lo, hi = const(rng.randint(-2, 1)), self.small_count()
            args = [lo, hi, const(step)] if step > 0 else [ast.BinOp(hi, ast.Sub(), const(1)), lo, const(step)]
        # Mostly a fresh loop variable; sometimes an existing int, which keeps its last value after.
        existing = ctx.assignable(INT) if rng.random() < 0.15 else []
        var = rng.choice(existing) if existing else ctx.fresh("i")
        if form <= 1 and isinstance(args[0], ast.Call) and isinstance(args[0].args[0], ast.Name) \
                and args[0].func.id == "len":
            safe = ((var, args[0].args[0].id),)
        with ctx.block(safe=safe, loop=True):
            if not existing:
                ctx.declare(var, INT)
            body = self.block(nesting + 1, rng.randint(1, 3))
        return [ast.For(store(var), call("range", *args), body, [])]

    def for_each(self, nesting):
        """for x in <list> / for c in <str> / for x in reversed(<list var>). A list variable that
        is iterated is not mutated in the body (Python would see the mutation, gpusynth not)."""
        rng, ctx, e = self.rng, self.ctx, self.e
        t = rng.choice([LINT, LINT, STR, LSTR])
        iterable = e.list_expr(1, t) if t in LISTS else e.str_expr(1)
        if t in LISTS and isinstance(iterable, ast.Name) and rng.random() < 0.3:
            iterable = call("reversed", iterable)
        frozen = tuple(n.id for n in ast.walk(iterable) if isinstance(n, ast.Name) and n.id in ctx.variables())
        existing = ctx.assignable(INT) if t == LINT and rng.random() < 0.15 else []
        var = rng.choice(existing) if existing else ctx.fresh("c" if t == STR else "x")
        index = ctx.fresh("k") if rng.random() < 0.2 else None   # for k, x in enumerate(...)
        with ctx.block(frozen=frozen, readonly=(var,) if t == STR else (), loop=True):
            if not existing:
                ctx.declare(var, ELEMENT.get(t, STR))
            if index:
                ctx.declare(index, INT)
            if t == STR:
                ctx.chars.add(var)
            body = self.block(nesting + 1, rng.randint(1, 3))
        target = store(var)
        if index:
            target = ast.Tuple([store(index), store(var)], ast.Store())
            iterable = call("enumerate", iterable, *([const(rng.randint(-2, 3))] if rng.random() < 0.5 else []))
        return [ast.For(target, iterable, body, [])]

    def while_loop(self, nesting):
        """A counter set to a small count, decremented first thing in the body (so continue
        cannot skip it) and not assigned otherwise; sometimes a second condition besides."""
        rng, ctx = self.rng, self.ctx
        w = ctx.fresh("w")
        init = ast.Assign([store(w)], self.small_count())
        ctx.declare(w, INT)
        test = compare(load(w), ast.Gt(), const(0))
        if rng.random() < 0.3:
            extra = self.e.bool_expr(1)
            test = ast.BoolOp(ast.And(), [test, extra] if rng.random() < 0.5 else [extra, test])
        with ctx.block(readonly=(w,), loop=True):
            body = [ast.AugAssign(store(w), ast.Sub(), const(1))] + self.block(nesting + 1, rng.randint(1, 3))
        return [init, ast.While(test, body, [])]

    def break_continue(self):
        return [ast.If(self.e.condition(2), [self.rng.choice([ast.Break(), ast.Continue()])], [])]

    def early_return(self):
        return [ast.If(self.e.condition(2), [self.return_statement()], [])]

    def return_statement(self):
        t = self.ctx.return_type
        if t == "tuple[int, int]":
            return ast.Return(ast.Tuple([self.e.int_expr(2), self.e.int_expr(2)], ast.Load()))
        return ast.Return(self.e.expr(t, self.EXPR_DEPTH))


PARAM_NAMES = {INT: ["a", "b", "c"], LINT: ["xs", "ys", "zs"], STR: ["s", "t", "u"]}
RETURN_TYPES = [INT, LINT, STR, BOOL, "tuple[int, int]", FLOAT, LSTR]


@dataclasses.dataclass
class Generated:
    index: int
    source: str
    params: list        # parameter types of solve
    inputs: list        # argument tuples

    def describe(self):
        return f"program {self.index} (test_frontend.py show {self.index}):\n{self.source}"


class ProgramGenerator:
    """A whole program: `def solve(...)` with 1-3 parameters, and sometimes helpers it calls.
    Program k is generated from its own seed, so any one can be regenerated by its index."""

    SEED = "gpusynth-frontend"

    def __init__(self, index):
        self.index = index
        self.rng = random.Random(f"{self.SEED}:{index}")

    def function(self, name, params, return_type, helpers, frozen_params=False):
        """A FunctionDef; params [(name, type)]. A helper's list parameters are frozen: the
        caller's list would see a mutation in Python."""
        rng = self.rng
        ctx = Context(rng, return_type, helpers)
        for pname, t in params:
            ctx.declare(pname, t)
        if frozen_params:
            ctx.frozen.extend(p for p, t in params if t in LISTS)
        gen = StatementGenerator(ctx)
        body = []
        if rng.random() < 0.15:
            body.append(ast.Expr(const(f"Generated function {name}.")))
        body += gen.block(1 if frozen_params else 0, rng.randint(1, 3) if frozen_params else rng.randint(3, 7))
        body.append(gen.return_statement())
        typing_list = self.typing_list
        arguments = [ast.arg(p, annotation(t, typing_list)) for p, t in params]
        args = ast.arguments([], arguments, None, [], [], None, [])
        extra = {"type_params": []} if "type_params" in ast.FunctionDef._fields else {}  # Python 3.12+
        return ast.FunctionDef(name=name, args=args, body=body, decorator_list=[],
                               returns=annotation(return_type, typing_list), type_comment=None, **extra)

    def program(self):
        rng = self.rng
        self.typing_list = rng.random() < 0.15
        # 0-2 helpers; a later one may call an earlier one (no recursion: every call terminates).
        helpers, defs = [], []
        for k in range(rng.choices([0, 1, 2], [6, 3, 1])[0]):
            name = f"helper{k}" if k else "helper"
            params = [("p", rng.choice([INT, LINT, STR])), ("q", INT)][: rng.randint(1, 2)]
            result = rng.choices([INT, STR, LINT, BOOL], [5, 1, 1, 1])[0]
            defs.append(self.function(name, params, result, list(helpers), frozen_params=True))
            helpers.append((name, [t for _, t in params], result))
        kinds = [rng.choice([INT, INT, LINT, LINT, STR]) for _ in range(rng.randint(1, 3))]
        used = collections.Counter()
        params = []
        for t in kinds:
            params.append((PARAM_NAMES[t][used[t]], t))
            used[t] += 1
        solve = self.function("solve", params, rng.choices(RETURN_TYPES, [5, 2, 2, 1.5, 1, 1, 0.7])[0], helpers)
        defs.insert(rng.randrange(len(defs) + 1), solve)  # a helper before or after its caller
        body = ([ast.ImportFrom("typing", [ast.alias("List")], 0)] if self.typing_list else []) + defs
        source = self.bare_tuple_returns(ast.unparse(ast.fix_missing_locations(ast.Module(body, []))))
        inputs = [tuple(self.value(t) for t in kinds) for _ in range(5)]
        return Generated(self.index, source + "\n", kinds, inputs)

    def bare_tuple_returns(self, source):
        """ast.unparse writes `return (a, b)`; Python programs mostly write `return a, b`."""
        lines = []
        for line in source.splitlines():
            stripped = line.strip()
            if stripped.startswith("return (") and stripped.endswith(")") and self.rng.random() < 0.7:
                bare = "return " + stripped[len("return ("):-1]
                try:
                    same = ast.dump(ast.parse(bare)) == ast.dump(ast.parse(stripped))
                except SyntaxError:
                    same = False
                if same:
                    line = line[: len(line) - len(stripped)] + bare
            lines.append(line)
        return "\n".join(lines)

    def value(self, t):
        rng = self.rng
        if t == INT:
            return rng.choice([rng.randint(-10, 10), rng.randint(-10, 10), rng.randint(-1000, 1000), 0])
        if t == LINT:
            size = 0 if rng.random() < 0.1 else rng.randint(1, 8)
            return [rng.randint(-10, 10) if rng.random() < 0.85 else rng.randint(-100, 100)
                    for _ in range(size)]
        size = 0 if rng.random() < 0.1 else rng.randint(1, 8)
        return "".join(rng.choice(INPUT_ALPHABET) for _ in range(size))


# ---------------------------------------------------------------------------------------------
# Part 2: running generated programs under CPython (instrumented) and gpusynth
# ---------------------------------------------------------------------------------------------

INT_LIMIT = 1 << 62
SIZE_LIMIT = 200        # elements of a list / characters of a str
TICK_LIMIT = 2000       # loop iterations per call


class Instrument(ast.NodeTransformer):
    """Rewrites a program for CPython: every arithmetic result passes through _c (which raises
    Skip beyond what gpusynth mirrors), x op= e becomes x = _c(x op e), and every loop body and
    function starts with _tick() (which raises Skip after TICK_LIMIT iterations)."""

    UNCHECKED = {"_c", "_exact", "_tick"}

    @staticmethod
    def checked(node):
        return call("_c", node)

    def visit_BinOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Div):
            # CPython divides ints exactly; gpusynth converts them to double first.
            node.left, node.right = call("_exact", node.left), call("_exact", node.right)
        return self.checked(node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        return self.checked(node) if isinstance(node.op, ast.USub) else node

    def visit_Call(self, node):
        # Every call: sum and int can leave 64 bits, join and helpers can grow a str or list.
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id in self.UNCHECKED:
            return node
        return self.checked(node)

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        target = copy.deepcopy(node.target)
        target.ctx = ast.Load()
        return ast.Assign([node.target], self.checked(ast.BinOp(target, node.op, node.value)))

    def visit_Expr(self, node):
        # xs.append(e): check the length after it.
        value = node.value
        appends = (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
                   and value.func.attr == "append")
        seq = copy.deepcopy(value.func.value) if appends else None
        self.generic_visit(node)
        return [node, ast.Expr(self.checked(seq))] if appends else node

    def tick(self, node):
        self.generic_visit(node)
        node.body.insert(0, ast.Expr(call("_tick")))
        return node

    visit_For = visit_While = visit_FunctionDef = tick


class Budget:
    """The globals the instrumented program calls."""

    def __init__(self):
        self.ticks = 0

    def check(self, value):
        if type(value) is int and not -INT_LIMIT <= value <= INT_LIMIT:
            raise Skip("int beyond 2^62")
        if type(value) is float and not (math.isfinite(value) and abs(value) < 2.0 ** 53):
            raise Skip("float beyond 2^53")
        if isinstance(value, (str, list)) and len(value) > SIZE_LIMIT:
            raise Skip(f"a str or list longer than {SIZE_LIMIT}")
        return value

    def exact(self, value):
        if type(value) is int and not -(1 << 53) <= value <= 1 << 53:
            raise Skip("true division of an int beyond 2^53")
        return value

    def tick(self):
        self.ticks += 1
        if self.ticks > TICK_LIMIT:
            raise Skip(f"more than {TICK_LIMIT} loop iterations")

    def namespace(self):
        return {"_c": self.check, "_exact": self.exact, "_tick": self.tick}


def instrumented(source):
    tree = Instrument().visit(ast.parse(source))
    return compile(ast.fix_missing_locations(tree), "<instrumented>", "exec")


@dataclasses.dataclass
class Run:
    program: Generated
    args: tuple
    py: Outcome
    gs: Outcome | None = None

    def report(self):
        return (f"{self.program.describe()}input: solve{self.args!r}\n"
                f"  CPython:  {self.py}\n  gpusynth: {self.gs}\n")


def cpython_runs(program):
    budget = Budget()
    namespace = budget.namespace()
    exec(instrumented(program.source), namespace)  # noqa: S102 - generated by us
    runs = []
    for args in program.inputs:
        budget.ticks = 0
        runs.append(Run(program, args, python_outcome(namespace["solve"], args)))
    return runs


PROGRAM_COUNT = 300


@dataclasses.dataclass(repr=False)
class Campaign:
    programs: list
    runs: list                      # every Run, CPython outcome filled in
    compile_errors: list = dataclasses.field(default_factory=list)   # (program, CompileError)
    compiled: int = 0

    def __repr__(self):  # short, for pytest's report of a failing test's fixtures
        return f"<Campaign: {len(self.programs)} programs, {len(self.runs)} runs>"


def cpython_campaign(count=PROGRAM_COUNT):
    programs = [ProgramGenerator(k).program() for k in range(count)]
    return Campaign(programs, [run for p in programs for run in cpython_runs(p)])


def gpusynth_campaign(campaign):
    """Compiles every program with gpusynth and fills in the gpusynth outcome of its runs."""
    by_program = collections.defaultdict(list)
    for run in campaign.runs:
        by_program[run.program.index].append(run)
    for program in campaign.programs:
        try:
            compiled = compile_python(program.source, path=f"<generated {program.index}>")
        except gpusynth.CompileError as error:
            campaign.compile_errors.append((program, error))
            continue
        campaign.compiled += 1
        for run in by_program[program.index]:
            if run.py.kind in ("value", "raises"):
                run.gs = gpusynth_outcome(compiled, run.args)
    return campaign


@pytest.fixture(scope="module")
def generated():
    return cpython_campaign()


@pytest.fixture(scope="module")
def compared(generated):
    return gpusynth_campaign(generated)


def test_generated_programs_are_sound_python(generated):
    """Generator self-check, CPython only: no generated program fails in a way that is not a
    trap (NameError, UnboundLocalError, a TypeError of mixed types ... are generator bugs), few
    cases are skipped, and most runs return a value."""
    bugs = [run for run in generated.runs if run.py.kind == "bug"]
    assert not bugs, f"{len(bugs)} generator bugs; the first:\n{bugs[0].report()}"
    kinds = collections.Counter(run.py.kind for run in generated.runs)
    assert kinds["skip"] <= 0.1 * len(generated.runs), kinds
    assert kinds["value"] >= 0.5 * len(generated.runs), kinds


def test_generated_programs_cover_the_subset(generated):
    """Every construct the generator is meant to produce appears in the generated programs."""
    seen = collections.Counter()
    for program in generated.programs:
        for node in ast.walk(ast.parse(program.source)):
            seen[type(node).__name__] += 1
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                seen["call " + node.func.id] += 1
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                seen["method " + node.func.attr] += 1
            if isinstance(node, (ast.BinOp, ast.AugAssign, ast.UnaryOp, ast.BoolOp)):
                seen[type(node).__name__ + " " + type(node.op).__name__] += 1
            if isinstance(node, ast.Compare):
                seen["Compare " + type(node.ops[0]).__name__] += 1
            if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
                seen["slice"] += 1
            if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple):
                seen["return tuple"] += 1
    wanted = ["For", "While", "If", "Break", "Continue", "AnnAssign", "Expr", "ImportFrom", "slice",
              "return tuple", "BinOp FloorDiv", "BinOp Mod", "BinOp Div", "BinOp Mult", "UnaryOp USub",
              "UnaryOp Not", "BoolOp And", "BoolOp Or", "AugAssign Add", "AugAssign FloorDiv",
              "AugAssign Mod", "AugAssign Mult", "Compare In", "Compare NotIn", "Compare Eq",
              "Compare Lt", "call range", "call len", "call min", "call max", "call sum", "call sorted",
              "call reversed", "call list", "call str", "call int", "call float", "call ord",
              "call chr", "call abs", "call helper", "method append", "method split", "method join",
              "method find"]
    missing = [w for w in wanted if not seen[w]]
    assert not missing, f"never generated: {missing}"


def test_generated_programs_compile(compared):
    """At least 90% compile: a generator that leaves the subset (or a front end that rejects
    part of it) fails loudly here, with the first errors shown."""
    total = len(compared.programs)
    if compared.compiled < 0.9 * total:
        shown = "\n".join(f"{p.describe()}{e}\n" for p, e in compared.compile_errors[:3])
        pytest.fail(f"{compared.compiled}/{total} programs compile; the first errors:\n{shown}")


def test_generated_programs_agree_with_cpython(compared):
    checked = [run for run in compared.runs if run.gs is not None]
    failures = [run for run in checked if not agree(run.py, run.gs)]
    if failures:
        shown = "\n".join(run.report() for run in failures[:5])
        pytest.fail(f"{len(failures)} of {len(checked)} runs disagree "
                    f"({len({r.program.index for r in failures})} programs); the first:\n{shown}")


def test_generated_runs_are_not_vacuous(compared):
    """Most compared runs return a value on both sides: not just traps agreeing."""
    checked = [run for run in compared.runs if run.gs is not None]
    values = sum(run.py.kind == "value" and run.gs.kind == "value" for run in checked)
    assert checked and values >= 0.5 * len(checked), f"{values} of {len(checked)} runs return values"


# ---------------------------------------------------------------------------------------------
# By hand
# ---------------------------------------------------------------------------------------------

def main(argv):
    if len(argv) >= 2 and argv[0] == "show":
        program = ProgramGenerator(int(argv[1])).program()
        print(program.source)
        for run in cpython_runs(program):
            print(f"solve{run.args!r}: CPython {run.py}")
        return 0
    if argv and argv[0] == "run":
        campaign = cpython_campaign(int(argv[1]) if len(argv) > 1 else PROGRAM_COUNT)
        print("CPython outcomes:", dict(collections.Counter(r.py.kind for r in campaign.runs)))
        gpusynth_campaign(campaign)
        print(f"compiled {campaign.compiled}/{len(campaign.programs)}")
        for program, error in campaign.compile_errors:
            print(f"--- compile error, {program.describe()}{error}")
        failures = [r for r in campaign.runs if r.gs is not None and not agree(r.py, r.gs)]
        for run in failures:
            print("--- disagreement,", run.report())
        print(f"{len(failures)} disagreements")
        return 1 if failures else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
