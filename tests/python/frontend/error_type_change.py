# A variable keeps one type: assigning a str to an int variable is an error.
# error: 7: found str


def solve(n: int) -> int:
    changing = n + 1
    changing = "text"
    return n
