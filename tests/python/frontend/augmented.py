# Augmented assignment on names and on list elements (name and literal indexes, negative ones).
# case: solve(10) == 2
# case: solve(-10) == 1
# case: elems([1, 2, 3], 1) == [1, 12, 6]
# case: elems([1, 2, 3], -3) == [11, 2, 6]
# case: elems([1], 0) raises
# case: grow("ab") == "ab!ab!"


def solve(n: int) -> int:
    x = n
    x += 5
    x -= 2
    x *= 3
    x //= 4
    x %= 7
    return x


def elems(xs: list[int], i: int) -> list[int]:
    xs[i] += 10
    xs[-1] *= 2
    xs[2] -= 0
    return xs


def grow(s: str) -> str:
    s += "!"
    s += s
    return s
