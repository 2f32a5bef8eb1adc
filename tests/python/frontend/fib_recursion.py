# Recursion: Fibonacci and a recursive sum over a shrinking slice.
# case: solve(0) == 0
# case: solve(1) == 1
# case: solve(10) == 55
# case: solve(20) == 6765
# case: rsum([1, 2, 3, 4]) == 10
# case: rsum([]) == 0


def solve(n: int) -> int:
    if n < 2:
        return n
    return solve(n - 1) + solve(n - 2)


def rsum(xs: list[int]) -> int:
    if len(xs) == 0:
        return 0
    return xs[0] + rsum(xs[1:])
