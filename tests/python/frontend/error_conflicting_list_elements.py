# A list keeps one element type: an empty list that gets an int and then a str is an error.
# error: 8


def solve(n: int) -> int:
    xs = []
    xs.append(1)
    xs.append("a")
    return n
