# Last index where a predicate holds: a backwards range with a negative literal step and an
# early return from inside the loop; the fall-through return after it.
# case: solve([1, 0, 2, 0, 3], 0) == 3
# case: solve([1, 2, 3], 7) == -1
# case: solve([], 0) == -1
# case: solve([4, 4, 4], 4) == 2
# case: first_even([1, 3, 6, 8]) == 2
# case: first_even([1, 3]) == -1


def solve(xs: list[int], target: int) -> int:
    for i in range(len(xs) - 1, -1, -1):
        if xs[i] == target:
            return i
    return -1


def first_even(xs: list[int]) -> int:
    i = 0
    while i < len(xs):
        if xs[i] % 2 == 0:
            return i
        i += 1
    return -1
