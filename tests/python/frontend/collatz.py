# A while loop whose trip count depends on the data, with an elif and a counted break.
# case: solve(1) == 0
# case: solve(6) == 8
# case: solve(27) == 111
# case: capped(27, 10) == 10


def solve(n: int) -> int:
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def capped(n: int, cap: int) -> int:
    steps = 0
    while n > 1:
        if steps == cap:
            break
        elif n % 2 == 0:
            n //= 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps
