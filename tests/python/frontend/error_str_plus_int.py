# Adding an int to a str is a type error.
# error: 6


def solve(s: str) -> str:
    return s + 1
