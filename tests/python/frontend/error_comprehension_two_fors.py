# A comprehension with a second `for` is outside the subset (one loop per comprehension).
# error: 6:31: outside


def solve(xs: list[int], ys: list[int]) -> list[int]:
    return [x * y for x in xs for y in ys]
