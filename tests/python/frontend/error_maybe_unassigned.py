# A variable assigned on some paths only is an error where it is read.
# error: 9: maybe_total


def solve(c: bool) -> int:
    if c:
        maybe_total = 1
    x = 2
    return maybe_total + x
