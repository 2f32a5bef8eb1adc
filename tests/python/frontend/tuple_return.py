# Several results: `return a, b` with a tuple annotation, and a call returning a tuple used as
# the result of another function.
# case: solve([3, 1, 4, 1, 5]) == (1, 5)
# case: solve([-2]) == (-2, -2)
# case: solve([]) raises
# case: divmod10(1234) == (123, 4)
# case: relay(57) == (5, 7)
# case: name_len("abc") == ("abc!", 3)


def solve(xs: list[int]) -> tuple[int, int]:
    lo = min(xs)
    hi = max(xs)
    return lo, hi


def divmod10(n: int) -> tuple[int, int]:
    return n // 10, n % 10


def relay(n: int) -> tuple[int, int]:
    return divmod10(n)


def name_len(s: str) -> tuple[str, int]:
    return s + "!", len(s)
