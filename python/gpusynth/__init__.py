"""gpusynth from Python: problems, the Syn compiler and VM, batch evaluation of candidate
programs, program search, and a run's records (docs/python.md).

    import gpusynth
    p = gpusynth.Problem("fn solve(xs: [int]) -> int", train=[(([1, 2, 3],), 6), (([],), 0)])
    gpusynth.run("fn solve(xs: [int]) -> int { return sum(xs); }", ([4, 5],))   # 9
    [r.passes for r in gpusynth.evaluate(p, ["fn solve(xs: [int]) -> int { return sum(xs); }"])]
    gpusynth.search(p, budget=100_000)["solution"]["simplified"]
"""

from ._core import Problem, Program, Records, Result, compile, evaluate, extract_code, pass_at_k, run, search
from .errors import BytecodeError, CompileError, GpusynthError, ProblemError, RecordsError, Trap

__version__ = "0.1.0"

__all__ = [
    "Problem", "Program", "Records", "Result", "compile", "evaluate", "run", "search", "extract_code", "pass_at_k",
    "GpusynthError", "ProblemError", "CompileError", "BytecodeError", "Trap", "RecordsError",
]
