# Chained comparisons (a < b < c) are outside the subset.
# error: 6


def solve(a: int, b: int, c: int) -> bool:
    return a < b < c
