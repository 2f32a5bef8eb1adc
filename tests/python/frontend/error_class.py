# Classes are outside the subset.
# error: 5


class Point:
    x: int = 0


def solve(x: int) -> int:
    return x
