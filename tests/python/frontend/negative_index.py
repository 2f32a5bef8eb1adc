# Negative indexing with Python semantics: reads and writes of xs[-k] and s[-k]; out of range traps.
# case: solve([1, 2, 3]) == [1, 2, 30, 7]
# case: solve([5]) == [50, 7]
# case: solve([]) raises
# case: last_char("hello") == "o"
# case: last_char("") raises
# case: second_last("ab") == "a"
# case: second_last("a") raises
# case: at([10, 20, 30], -3) == 10
# case: at([10, 20, 30], -4) raises
# case: at([10, 20, 30], 3) raises


def solve(xs: list[int]) -> list[int]:
    xs[-1] = xs[-1] * 10
    if len(xs) >= 2:
        xs[-2] = xs[-2] - xs[0] + xs[0]
    xs.append(7)
    return xs


def last_char(s: str) -> str:
    return s[-1]


def second_last(s: str) -> str:
    return s[-2]


def at(xs: list[int], i: int) -> int:
    return xs[i]
