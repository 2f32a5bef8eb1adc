# Python's reversed() walks the live list: changing that list inside the loop is refused.
# error: 7:9: changed in place


def solve(xs: list[int]) -> int:
    for x in reversed(xs):
        xs[0] = x
    return xs[0]
