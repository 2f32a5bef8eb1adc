# The arms of `a if c else b` must have one type (an int and a float: the int becomes a float).
# error: 6:24: expected int, found str


def solve(c: bool, n: int) -> int:
    return n if c else "none"
