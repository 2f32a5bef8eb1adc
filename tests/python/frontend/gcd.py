# Euclid's gcd, recursive and iterative, and lcm through a helper.
# case: solve(12, 18) == 6
# case: solve(17, 5) == 1
# case: solve(0, 9) == 9
# case: solve(-12, 18) == 6
# case: gcd_loop(48, 36) == 12
# case: lcm(4, 6) == 12
# case: lcm(0, 0) raises
# case: lcm(0, 6) == 0


def solve(a: int, b: int) -> int:
    return gcd(abs(a), abs(b))


def gcd(a: int, b: int) -> int:
    if b == 0:
        return a
    return gcd(b, a % b)


def gcd_loop(a: int, b: int) -> int:
    while b != 0:
        t = a % b
        a = b
        b = t
    return a


def lcm(a: int, b: int) -> int:
    return a // gcd(a, b) * b
