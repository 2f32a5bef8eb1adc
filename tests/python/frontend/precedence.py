# Operator precedence and associativity as Python defines them.
# case: solve(7, 3, 2) == [2, 1, 2, 4, -4, 2, -1]
# case: logic(1, [1, 2]) == [False, True, True]
# case: logic(5, []) == [True, False, True]


def solve(a: int, b: int, c: int) -> list[int]:
    return [a - b - c, a // b // c, -a % b, a // b * c, -a // 2, a % b * c, a - b * c - c]


def logic(x: int, xs: list[int]) -> list[bool]:
    r1 = not x in xs
    r2 = x < 3 or x > 4 and x < 2
    r3 = not x == 2 and not len(xs) == 1
    return [r1, r2, r3]
