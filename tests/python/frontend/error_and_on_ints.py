# `and` / `or` take bools only (Python's value-returning `and` on ints is outside the subset).
# error: 6


def solve(a: int, b: int) -> int:
    return a and b
