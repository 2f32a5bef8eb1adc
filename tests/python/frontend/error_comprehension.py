# List comprehensions are outside the subset.
# error: 6


def solve(xs: list[int]) -> list[int]:
    return [x * 2 for x in xs]
