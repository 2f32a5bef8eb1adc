# Helper functions: a predicate called from a loop, a helper defined after its caller, and a
# helper returning a list.
# case: solve(10) == [2, 3, 5, 7]
# case: solve(2) == []
# case: solve(20) == [2, 3, 5, 7, 11, 13, 17, 19]
# case: count_primes([1, 2, 3, 4, 5, 9, 11]) == 4


def solve(n: int) -> list[int]:
    primes: list[int] = []
    for k in range(2, n):
        if is_prime(k):
            primes.append(k)
    return primes


def count_primes(xs: list[int]) -> int:
    return len(keep_primes(xs))


def keep_primes(xs: list[int]) -> list[int]:
    out: list[int] = []
    for x in xs:
        if is_prime(x):
            out.append(x)
    return out


def is_prime(k: int) -> bool:
    if k < 2:
        return False
    d = 2
    while d * d <= k:
        if k % d == 0:
            return False
        d += 1
    return True
