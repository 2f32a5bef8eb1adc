# // and % take ints only.
# error: 6


def solve(x: float) -> float:
    return x // 2.0
