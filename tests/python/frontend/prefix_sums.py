# Prefix sums: an annotated empty list, append, for-each over a list parameter.
# case: solve([]) == []
# case: solve([5]) == [5]
# case: solve([1, 2, 3, 4]) == [1, 3, 6, 10]
# case: solve([3, -3, 7, -10]) == [3, 0, 7, -3]


def solve(xs: list[int]) -> list[int]:
    out: list[int] = []
    running = 0
    for x in xs:
        running += x
        out.append(running)
    return out
