# Literals: floats written 1.5, 1e3, 2.5e-1, 2.5E+1; hex ints; True and False; float literals
# with 17 significant digits (what repr() prints) must be converted exactly as CPython does.
# case: solve() == 1026.25
# case: flags() == [True, False]
# case: hexes() == 271
# case: exact_sum() == True
# case: exact_literals() == [True, True, True]


def solve() -> float:
    return 1.5 + 1e3 - 2.5e-1 + 2.5E+1


def flags() -> list[bool]:
    return [True, False]


def hexes() -> int:
    return 0xff + 0x10


def exact_sum() -> bool:
    return 0.1 + 0.2 == 0.30000000000000004


def exact_literals() -> list[bool]:
    # 1 + 2^-52, 0.1 + 0.2, and 2^1023 (2^52 = 4503599627370496).
    one_ulp = 1.0 / 4503599627370496
    big = 1.0
    for i in range(1023):
        big = big * 2.0
    return [1.0000000000000002 == 1.0 + one_ulp, 0.30000000000000004 == 0.1 + 0.2, 8.98846567431158e307 == big]
