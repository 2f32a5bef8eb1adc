# `a if c else b`: only the chosen arm runs (a trap in the other does not happen); it nests to
# the right; an int arm meeting a float one is a float; lists from names keep value semantics.
# case: solve([]) == 0
# case: solve([4, 9]) == 4
# case: sign(-5) == -1
# case: sign(0) == 0
# case: sign(7) == 1
# case: mean([]) == 0.0
# case: mean([1, 2]) == 1.5
# case: first_or(["a", "b"], "z") == "a"
# case: first_or([], "z") == "z"
# case: pick([1, 2], [3], True) == [1, 2, 7]
# case: pick([1, 2], [3], False) == [3, 7]
# case: in_comprehension([1, 2, 3, 4]) == [1, -2, 3, -4]


def solve(xs: list[int]) -> int:
    return 0 if len(xs) == 0 else 10 // len(xs) - xs[0] // 4


def sign(n: int) -> int:
    return -1 if n < 0 else 1 if n > 0 else 0


def mean(xs: list[int]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def first_or(xs: list[str], default: str) -> str:
    return xs[0] if len(xs) > 0 else default


def pick(xs: list[int], ys: list[int], c: bool) -> list[int]:
    zs = list(xs if c else ys)
    zs.append(7)
    return zs


def in_comprehension(xs: list[int]) -> list[int]:
    return [x if x % 2 == 1 else -x for x in xs]
