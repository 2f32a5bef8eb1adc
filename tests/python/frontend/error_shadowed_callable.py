# A name that holds a value is not a function, even when a function or builtin has that name:
# CPython raises TypeError for these calls, so gpusynth must not quietly call the function.
# error: 12
# error: 17


def g(x: int) -> int:
    return x


def solve(g: int) -> int:
    return g(g)


def other(xs: list[int]) -> int:
    len = 3
    return len(xs)
