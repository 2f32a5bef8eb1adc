# Dicts are outside the subset.
# error: 6


def solve(x: int) -> int:
    d = {1: 2}
    return x
