# A generator expression may be the argument of sum/min/max/sorted/list/join only: len() of one
# is a TypeError in Python.
# error: 7:18: outside


def solve(xs: list[int]) -> int:
    return len(x for x in xs if x > 0)
