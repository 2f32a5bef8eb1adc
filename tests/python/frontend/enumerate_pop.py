# enumerate (with a literal start) in for loops and comprehensions; `x = xs.pop()`,
# `xs.pop(-1)` and `x = xs.pop(0)` (which raise on an empty list).
# case: solve([3, 4, 5]) == 14
# case: solve([]) == 0
# case: numbered(["a", "b", "c"]) == ["1a", "3c"]
# case: positions("banana", "a") == [1, 3, 5]
# case: reversed_pairs([7, 8]) == [1, 7, 0, 8]
# case: stack_order([1, 2, 3]) == [3, 2, 1]
# case: queue_order([1, 2, 3]) == [2, 4, 6]
# case: take_first([]) raises
# case: drop_last([4, 5, 6]) == 6


def solve(xs: list[int]) -> int:
    t = 0
    for i, x in enumerate(xs):
        t += i * x
    return t


def numbered(xs: list[str]) -> list[str]:
    return [str(i) + c for i, c in enumerate(xs, 1) if i != 2]


def positions(s: str, ch: str) -> list[int]:
    return [i for i, c in enumerate(s) if c == ch]


def reversed_pairs(xs: list[int]) -> list[int]:
    out: list[int] = []
    for i, x in enumerate(reversed(xs)):
        out = [i, x] + out
    return out


def stack_order(xs: list[int]) -> list[int]:
    ys = list(xs)
    out: list[int] = []
    while ys:
        v = ys.pop()
        out.append(v)
    return out


def queue_order(xs: list[int]) -> list[int]:
    q = list(xs)
    out: list[int] = []
    while q:
        v = q.pop(0)
        out.append(v * 2)
    return out


def take_first(xs: list[int]) -> int:
    q = list(xs)
    v = q.pop(0)
    return v


def drop_last(xs: list[int]) -> int:
    q = list(xs)
    q.pop(-1)
    v = q.pop(-1)
    return v + len(q)
