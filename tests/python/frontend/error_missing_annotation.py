# Every parameter needs an annotation.
# error: 5


def solve(x) -> int:
    return 1
