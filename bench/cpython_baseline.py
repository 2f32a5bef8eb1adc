#!/usr/bin/env python3
"""CPython baseline of bench/compile_vm (compile_vm_bench runs it; standard library only).

    python3 bench/cpython_baseline.py CORPUS.json OUT.json [--repetitions 5] [--min-seconds 0.5]

CORPUS.json holds the corpus's programs translated to Python by bench/python_translation.cpp
(a fast variant and a checked one) with their inputs. For every program not marked "skip":
  1. verification: the checked variant runs each input once, untimed; a program where some
     int leaves the int64 range (Syn would wrap) gets status "overflow" and is left out;
  2. compile(): programs/s over the remaining programs;
  3. evaluations: the functions are defined once (exec), then the entry is called on every
     input; the outcomes of the last pass go to OUT.json for compile_vm_bench to compare with
     the VM's;
  4. end to end: compile() + exec + every input, per program.
Each timed measurement is repeated; a repetition runs whole passes until it has lasted at
least --min-seconds. OUT.json gets every repetition.
"""

import argparse
import json
import platform
import sys
import time

# The helpers the translation calls where Python's semantics differ from Syn's
# (docs/language.md). Traps are exceptions: ZeroDivisionError is division_by_zero, IndexError
# index_out_of_range, ValueError invalid_argument, _CallDepth call_depth_exceeded.
PRELUDE = r'''
import functools
import math
import operator
import sys

_NAN = float("nan")
_INF = float("inf")
_MIN = -(1 << 63)
_MAX = (1 << 63) - 1
_MASK = (1 << 64) - 1


class _CallDepth(Exception):
    """More nested calls than the call-depth bound."""


class _Overflow(Exception):
    """An int left the int64 range, where Syn wraps (checked variant only)."""


def _ck(x):
    if _MIN <= x <= _MAX:
        return x
    raise _Overflow


def _wrap(x):
    x &= _MASK
    return x - (1 << 64) if x > _MAX else x


def _oob():
    raise IndexError("index out of range")


# int / and % truncate toward zero (Python's floor); MIN / -1 is MIN, MIN % -1 is 0.
def _div(a, b):
    if b == 0:
        raise ZeroDivisionError
    q = a // b
    if q < 0 and q * b != a:
        q += 1
    return _MIN if q > _MAX else q


def _mod(a, b):
    if b == 0:
        raise ZeroDivisionError
    r = a % b
    if r and (a < 0) != (b < 0):
        r -= b
    return r


def _shl(a, b):
    return _wrap(a << (b & 63))


def _ushr(a, b):
    return _wrap((a & _MASK) >> (b & 63))


# Float / by zero is inf or NaN, not an exception.
def _fdiv(a, b):
    try:
        return a / b
    except ZeroDivisionError:
        if a != a or a == 0.0:
            return _NAN
        return _INF if (a > 0.0) == (math.copysign(1.0, b) > 0.0) else -_INF


# C fmod: NaN where math.fmod raises (x % 0.0, inf % y).
def _fmod(a, b):
    try:
        return math.fmod(a, b)
    except ValueError:
        return _NAN


def _sqrt(x):
    return math.sqrt(x) if x >= 0.0 else _NAN


# C floor, ceil and round: floats, with x's sign (so -0.5 rounds to -1.0 and ceil(-0.5) is
# -0.0); non-finite values stay as they are; round takes halves away from zero.
def _floor(x):
    return math.copysign(float(math.floor(x)), x) if x - x == 0.0 else x


def _ceil(x):
    return math.copysign(float(math.ceil(x)), x) if x - x == 0.0 else x


def _round(x):
    if x - x != 0.0:
        return x
    f = math.floor(x)
    d = x - f
    if d > 0.5 or (d == 0.5 and x > 0.0):
        f += 1
    return math.copysign(float(f), x)


# int(x): truncated, NaN gives 0, saturating beyond the int64 range.
def _int_f(x):
    if x != x:
        return 0
    if x >= 9.223372036854775808e18:
        return _MAX
    if x <= -9.223372036854775808e18:
        return _MIN
    return int(x)


def _cround(y):
    """C round of a non-negative double, as an int."""
    f = math.floor(y)
    return f + 1 if y - f >= 0.5 else f


def _digits6(r):
    return (b"%06d" % r).rstrip(b"0") or b"0"


# str(x) of a float: docs/language.md "Formatting floats", one IEEE operation per step.
def _fstr(x):
    if x != x:
        return b"nan"
    if x - x != 0.0:
        return b"inf" if x > 0.0 else b"-inf"
    sign = b"-" if x < 0.0 else b""
    m = abs(x)
    if m < 1e12:
        q = _cround(m * 1e6)
        return b"%s%d.%s" % (sign, q // 1000000, _digits6(q % 1000000))
    e = 12
    m = m / 1e12
    while m >= 10.0:
        m = m / 10.0
        e += 1
    q = _cround(m * 1e6)
    if q == 10000000:
        q = 1000000
        e += 1
    return b"%s%d.%se%d" % (sign, q // 1000000, _digits6(q % 1000000), e)


# slice clamps a to 0..len and b to a..len; Python would count negative bounds from the end.
def _slice(s, a, b):
    if a < 0:
        a = 0
    if b < a:
        b = a
    return s[a:b]


def _pop(xs):
    if not xs:
        raise ValueError("pop of an empty array")
    return xs[:-1]


def _array(n, x):
    if n < 0:
        raise ValueError("array of a negative length")
    return [x] * n


def _contains(xs, x):
    return x in xs


def _index(xs, x):
    try:
        return xs.index(x)
    except ValueError:
        return -1


# `in`, list.index and list == take an identical object as equal, so a NaN would equal itself.
def _containsf(xs, x):
    return x == x and x in xs


def _indexf(xs, x):
    return _index(xs, x) if x == x else -1


def _feq(a, b):
    return len(a) == len(b) and all(map(operator.eq, a, b))


# sort: NaNs after every other float.
def _sortf(xs):
    return sorted([x for x in xs if x == x]) + [x for x in xs if x != x]


# split with "" takes the runs of non-whitespace, which is bytes.split() without a separator.
def _split(s, sep):
    return s.split(sep) if sep else s.split()


def _join(xs, sep):
    return sep.join(xs)


# [+-]?[0-9]+ and nothing else (int() would take spaces and underscores), wrapping.
def _parse_int(s):
    digits = s[1:] if s[:1] in (b"+", b"-") else s
    if not digits.isdigit():
        raise ValueError("not an integer")
    v = int(digits)
    return _wrap(-v if s[:1] == b"-" else v)


# sum of floats: left to right from 0.0 (sum() is compensated since CPython 3.12).
if sys.version_info < (3, 12):
    _fsum = functools.partial(sum, start=0.0)
else:
    def _fsum(xs):
        acc = 0.0
        for x in xs:
            acc += x
        return acc
'''


class Trap:
    def __init__(self, name):
        self.name = name


class Error:
    def __init__(self, exception):
        self.text = f"{type(exception).__name__}: {exception}"


DIVISION_BY_ZERO = Trap("division_by_zero")
INDEX_OUT_OF_RANGE = Trap("index_out_of_range")
INVALID_ARGUMENT = Trap("invalid_argument")
CALL_DEPTH_EXCEEDED = Trap("call_depth_exceeded")

BASE = {}
exec(compile(PRELUDE, "<prelude>", "exec"), BASE)
CallDepth = BASE["_CallDepth"]
Overflow = BASE["_Overflow"]


def decoder(t):
    """JSON value of Syn type t (as "[int]") -> Python: str is bytes, float may be "nan"."""
    if t.startswith("["):
        item = decoder(t[1:-1])
        return lambda v: [item(x) for x in v]
    if t == "str":
        return lambda v: v.encode("latin-1")
    return {"int": int, "float": float, "bool": bool}[t]


def encode(v):
    """Python result -> JSON: floats as exact hex text, bytes as latin-1 text."""
    if isinstance(v, bool) or isinstance(v, int):
        return v
    if isinstance(v, float):
        return v.hex()
    if isinstance(v, bytes):
        return v.decode("latin-1")
    if isinstance(v, list):
        return [encode(x) for x in v]
    return repr(v)  # not a Syn value: the comparison reports it


def outcome(r, result_count):
    if isinstance(r, Trap):
        return ["trap", r.name]
    if isinstance(r, Error):
        return ["error", r.text]
    values = [] if result_count == 0 else [r] if result_count == 1 else list(r)
    return ["ok", [encode(v) for v in values]]


def call_all(f, argsets, out):
    """Runs f on every argument list into out: the evaluation loop both timed passes use."""
    k = 0
    for args in argsets:
        try:
            out[k] = f(*args)
        except ZeroDivisionError:
            out[k] = DIVISION_BY_ZERO
        except IndexError:
            out[k] = INDEX_OUT_OF_RANGE
        except ValueError:
            out[k] = INVALID_ARGUMENT
        except CallDepth:
            out[k] = CALL_DEPTH_EXCEEDED
        except Exception as e:  # a translation bug; the comparison reports it
            out[k] = Error(e)
        k += 1


def define(source, entry):
    namespace = dict(BASE)
    exec(compile(source, "<syn>", "exec"), namespace)
    return namespace[entry]


def overflows(program):
    """Runs the checked variant on every input: does some int leave the int64 range?"""
    f = define(program["python_checked"], program["entry"])
    for args in program["args"]:
        try:
            f(*args)
        except Overflow:
            return True
        except Exception:
            pass
    return False


def repeat(repetitions, min_seconds, one_pass):
    """Each repetition runs whole passes until min_seconds have gone by."""
    runs = []
    for _ in range(repetitions):
        passes = 0
        start = time.perf_counter()
        while True:
            one_pass()
            passes += 1
            seconds = time.perf_counter() - start
            if seconds >= min_seconds:
                break
        runs.append({"seconds": seconds, "passes": passes})
    return runs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus")
    parser.add_argument("out")
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--min-seconds", type=float, default=0.5)
    options = parser.parse_args()

    with open(options.corpus, encoding="utf-8") as f:
        corpus = json.load(f)
    programs = corpus["programs"]
    report = []
    for p in programs:
        decoders = [decoder(t) for t in p["params"]]
        p["args"] = [tuple(d(v) for d, v in zip(decoders, args)) for args in p["inputs"]]
        status = "skipped" if p["skip"] else "ok"
        if status == "ok":
            try:
                compile(p["python"], "<syn>", "exec")
                if overflows(p):
                    status = "overflow"
            except SyntaxError as e:  # a translation bug: compile_vm_bench reports it
                status = "syntax_error: " + str(e)
        report.append({"status": status})
    included = [p for p, r in zip(programs, report) if r["status"] == "ok"]
    sources = [p["python"] for p in included]
    evaluations = sum(len(p["args"]) for p in included)
    print(f"cpython_baseline: {len(included)} programs, {evaluations} evaluations "
          f"({sum(r['status'] == 'overflow' for r in report)} left out: an int leaves int64)",
          file=sys.stderr)

    def compile_pass():
        for s in sources:
            compile(s, "<syn>", "exec")

    work = [(define(p["python"], p["entry"]), p["args"], [None] * len(p["args"])) for p in included]

    def evaluate_pass():
        for f, argsets, out in work:
            call_all(f, argsets, out)

    end_to_end_out = [[None] * len(p["args"]) for p in included]
    items = [(p["python"], p["entry"], p["args"], out) for p, out in zip(included, end_to_end_out)]

    def end_to_end_pass():
        for source, entry, argsets, out in items:
            call_all(define(source, entry), argsets, out)

    timings = {}
    for name, one_pass in (("compile", compile_pass), ("evaluate", evaluate_pass),
                           ("end_to_end", end_to_end_pass)):
        one_pass()  # warm-up
        timings[name] = repeat(options.repetitions, options.min_seconds, one_pass)

    k = 0
    for p, r in zip(programs, report):
        if r["status"] != "ok":
            continue
        n = len(p["results"])
        r["outcomes"] = [outcome(x, n) for x in work[k][2]]
        # The end-to-end loop ran the same code: it must have got the same outcomes.
        r["end_to_end_agrees"] = [outcome(x, n) for x in end_to_end_out[k]] == r["outcomes"]
        k += 1

    result = {
        "python": {
            "version": platform.python_version(),
            "implementation": platform.python_implementation(),
            "executable": sys.executable,
            "build": " ".join(platform.python_build()),
            "compiler": platform.python_compiler(),
        },
        "included_programs": len(included),
        "evaluations_per_pass": evaluations,
        "source_bytes_per_pass": sum(len(s) for s in sources),
        "timings": timings,
        "programs": report,
    }
    with open(options.out, "w", encoding="utf-8") as f:
        json.dump(result, f)


if __name__ == "__main__":
    main()
