# `a or b` as a value must be bools: on ints Python returns an operand, which the subset does
# not model (in a condition any value is fine: `if a or b:`).
# error: 7:14: 'or'


def solve(a: int, b: int) -> int:
    return a or b
