# The step of a three-argument range must be an int literal.
# error: 7


def solve(n: int, k: int) -> int:
    t = 0
    for i in range(0, n, k):
        t += i
    return t
