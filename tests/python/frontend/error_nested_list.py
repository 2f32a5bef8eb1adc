# Nested lists are outside the subset.
# error: 5


def solve(grid: list[list[int]]) -> int:
    return len(grid)
