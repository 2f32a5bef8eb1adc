# Less common literal forms of Python: floats without digits on one side of the point (.5, 5.)
# and ints with _ separators.
# case: solve() == 5.5
# case: big() == 1000000


def solve() -> float:
    return .5 + 5.


def big() -> int:
    return 1_000_000
