# Integer // and % with Python's floor semantics on every sign combination; by zero traps.
# case: solve(7, 2) == (3, 1)
# case: solve(-7, 2) == (-4, 1)
# case: solve(7, -2) == (-4, -1)
# case: solve(-7, -2) == (3, -1)
# case: solve(-6, 3) == (-2, 0)
# case: solve(0, -5) == (0, 0)
# case: solve(5, 0) raises
# case: mod_only(5, 0) raises
# case: mod_only(-1, 10) == 9
# case: aug(-17, 5) == -17


def solve(a: int, b: int) -> tuple[int, int]:
    return a // b, a % b


def mod_only(a: int, b: int) -> int:
    return a % b


def aug(a: int, b: int) -> int:
    q = a
    q //= b
    r = a
    r %= b
    return q * 10 + r + 20
