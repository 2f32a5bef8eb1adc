# min/max/sum over lists (empty min/max trap, empty sum is 0), abs, two-argument min/max.
# case: solve([3, -8, 5]) == (-8, 5, 0)
# case: solve([]) raises
# case: total([]) == 0
# case: total([1, -1, 10]) == 10
# case: dist(3, -4) == 7
# case: clamp(15, 0, 10) == 10
# case: clamp(-3, 0, 10) == 0
# case: clamp(4, 0, 10) == 4
# case: biggest_abs([-9, 4, 7]) == 9


def solve(xs: list[int]) -> tuple[int, int, int]:
    return min(xs), max(xs), sum(xs)


def total(xs: list[int]) -> int:
    return sum(xs)


def dist(a: int, b: int) -> int:
    return abs(a - b)


def clamp(x: int, lo: int, hi: int) -> int:
    return min(max(x, lo), hi)


def biggest_abs(xs: list[int]) -> int:
    best = 0
    for x in xs:
        best = max(best, abs(x))
    return best
