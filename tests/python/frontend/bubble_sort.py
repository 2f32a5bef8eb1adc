# In-place element assignment on a list parameter (a swap through a temporary), nested range
# loops whose bound depends on the outer variable, and returning the mutated parameter.
# case: solve([5, 1, 4, 2, 8]) == [1, 2, 4, 5, 8]
# case: solve([]) == []
# case: solve([2, 2, 1]) == [1, 2, 2]
# case: reverse_in_place([1, 2, 3, 4]) == [4, 3, 2, 1]


def solve(xs: list[int]) -> list[int]:
    n = len(xs)
    for i in range(n):
        for j in range(n - 1 - i):
            if xs[j] > xs[j + 1]:
                t = xs[j]
                xs[j] = xs[j + 1]
                xs[j + 1] = t
    return xs


def reverse_in_place(xs: list[int]) -> list[int]:
    i = 0
    j = len(xs) - 1
    while i < j:
        t = xs[i]
        xs[i] = xs[j]
        xs[j] = t
        i += 1
        j -= 1
    return xs
