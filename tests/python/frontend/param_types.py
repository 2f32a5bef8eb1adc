# Parameters and results of every type: bool, float, list[bool], list[float], list[str], and a
# function with no parameters.
# case: solve(True, 2.5) == -2.5
# case: solve(False, 2.5) == 2.5
# case: count_true([True, False, True]) == 2
# case: count_true([]) == 0
# case: longest(["ab", "abcd", "c"]) == "abcd"
# case: longest([]) == ""
# case: maxf([1.5, -2.0, 3.25]) == 3.25
# case: const() == 42
# case: negate_all([True, False]) == [False, True]


def solve(flip: bool, x: float) -> float:
    if flip:
        return -x
    return x


def count_true(bs: list[bool]) -> int:
    n = 0
    for b in bs:
        if b:
            n += 1
    return n


def longest(ws: list[str]) -> str:
    best = ""
    for w in ws:
        if len(w) > len(best):
            best = w
    return best


def maxf(xs: list[float]) -> float:
    return max(xs)


def const() -> int:
    return 42


def negate_all(bs: list[bool]) -> list[bool]:
    out: list[bool] = []
    for b in bs:
        out.append(not b)
    return out
