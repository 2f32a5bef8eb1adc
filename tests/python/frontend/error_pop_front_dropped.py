# xs.pop(0) whose element is dropped is outside the subset (write xs = xs[1:], which does not
# raise on an empty list, or v = xs.pop(0)).
# error: 8:7: outside


def solve(xs: list[int]) -> int:
    q = list(xs)
    q.pop(0)
    return len(q)
