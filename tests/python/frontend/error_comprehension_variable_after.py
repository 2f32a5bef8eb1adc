# A comprehension's variable is its own (Python 3): it is unknown after the comprehension.
# error: 8:12: unknown name 'x'


def solve(xs: list[int]) -> int:
    doubled = [x * 2 for x in xs]
    total = sum(doubled)
    return x + total
