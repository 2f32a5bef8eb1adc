# Conditional expressions (x if c else y) are outside the subset.
# error: 6


def solve(c: bool, y: int, z: int) -> int:
    x = y if c else z
    return x
