# Default arguments are outside the subset.
# error: 5


def solve(x: int = 3) -> int:
    return x
