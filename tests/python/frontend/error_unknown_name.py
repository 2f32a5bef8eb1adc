# A name that is never assigned (and a function that does not exist) are errors.
# error: 7: totl
# error: 11: nowhere


def solve(xs: list[int]) -> int:
    return totl


def other(x: int) -> int:
    return nowhere(x)
