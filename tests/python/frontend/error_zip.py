# A tuple target other than enumerate's is outside the subset (zip, unpacking pairs).
# error: 7:9: outside


def solve(xs: list[int], ys: list[int]) -> int:
    t = 0
    for a, b in zip(xs, ys):
        t += a * b
    return t
