# Floats: true division (always float, by zero traps), int/float promotion, float(), int()
# truncating toward zero, sums and comparisons of floats.
# case: solve([1, 2, 3, 4]) == 2.5
# case: solve([-3]) == -3.0
# case: solve([]) raises
# case: halves(7) == 3.5
# case: halves(-7) == -3.5
# case: trunc(2.75) == 2
# case: trunc(-2.75) == -2
# case: mixed(3, 0.5) == 3.5
# case: scale([0.5, 1.25, -2.0], 2) == [1.0, 2.5, -4.0]
# case: fsum([0.25, 0.5, 0.125]) == 0.875
# case: above([1.5, 0.5, 2.5], 1.0) == 2
# case: ratio(1, 0) raises
# case: ratio(1, 3) == 0.3333333333333333
# case: fdiv(1.0, 0.0) raises
# case: trunc(1e400) raises
# case: trunc(-1e400) raises
# case: trunc_nan(1e400) raises


def solve(xs: list[int]) -> float:
    return sum(xs) / len(xs)


def halves(n: int) -> float:
    return n / 2


def trunc(x: float) -> int:
    return int(x)


def trunc_nan(x: float) -> int:
    # inf - inf is NaN: int() of it is a ValueError in Python, as int() of inf is an OverflowError.
    return int(x - x)


def mixed(n: int, f: float) -> float:
    y = float(n)
    return y + f + n * f - f * 3


def scale(xs: list[float], k: int) -> list[float]:
    out: list[float] = []
    for x in xs:
        out.append(x * k)
    return out


def fsum(xs: list[float]) -> float:
    return sum(xs)


def above(xs: list[float], t: float) -> int:
    n = 0
    for x in xs:
        if x > t:
            n += 1
    return n


def ratio(a: int, b: int) -> float:
    return a / b


def fdiv(a: float, b: float) -> float:
    return a / b
