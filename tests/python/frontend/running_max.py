# Running maximum: min/max of two values, indexing by a range loop variable, xs[0] on an empty list traps.
# case: solve([2, 1, 5, 3, 9]) == [2, 2, 5, 5, 9]
# case: solve([-4, -7, -1]) == [-4, -4, -1]
# case: solve([]) raises
# case: spread([4, 9, -2, 6]) == 11
# case: spread([3]) == 0


def solve(xs: list[int]) -> list[int]:
    best = xs[0]
    out: list[int] = []
    for i in range(len(xs)):
        best = max(best, xs[i])
        out.append(best)
    return out


def spread(xs: list[int]) -> int:
    lo = xs[0]
    hi = xs[0]
    for x in xs:
        lo = min(lo, x)
        hi = max(x, hi)
    return hi - lo
