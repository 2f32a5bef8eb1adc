# break and continue in for and while loops, including a break in an inner loop that leaves the
# outer loop running.
# case: solve([1, -2, 3, 0, 5]) == 4
# case: solve([0, 1]) == 0
# case: solve([-1, -1]) == 0
# case: first_square_over(50) == 64
# case: rows(4) == [0, 0, 1, 3]


def solve(xs: list[int]) -> int:
    total = 0
    for x in xs:
        if x < 0:
            continue
        if x == 0:
            break
        total += x
    return total


def first_square_over(limit: int) -> int:
    k = 0
    while True:
        k += 1
        if k * k <= limit:
            continue
        break
    return k * k


def rows(n: int) -> list[int]:
    out: list[int] = []
    for i in range(n):
        count = 0
        for j in range(100):
            if j >= i:
                break
            count += j
        out.append(count)
    return out
