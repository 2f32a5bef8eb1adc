# range with one, two and three arguments; positive and negative literal steps; empty ranges.
# case: solve(10) == [0, 3, 6, 9]
# case: solve(0) == []
# case: down(5) == [5, 3, 1]
# case: down(0) == []
# case: window(2, 6) == 14
# case: window(6, 2) == 0
# case: countdown(3) == [3, 2, 1, 0]
# case: countdown(-1) == []


def solve(n: int) -> list[int]:
    out: list[int] = []
    for i in range(0, n, 3):
        out.append(i)
    return out


def down(n: int) -> list[int]:
    out: list[int] = []
    for i in range(n, 0, -2):
        out.append(i)
    return out


def window(a: int, b: int) -> int:
    t = 0
    for i in range(a, b):
        t += i
    return t


def countdown(n: int) -> list[int]:
    out: list[int] = []
    for i in range(n, -1, -1):
        out.append(i)
    return out
