# Digit sum: a while loop with // and %, a negated parameter.
# case: solve(0) == 0
# case: solve(7) == 7
# case: solve(12345) == 15
# case: solve(-907) == 16
# case: solve(1000000007) == 8


def solve(n: int) -> int:
    if n < 0:
        n = -n
    total = 0
    while n > 0:
        total += n % 10
        n //= 10
    return total
