# Lambdas are outside the subset.
# error: 6


def solve(x: int) -> int:
    f = lambda y: y + 1
    return x
