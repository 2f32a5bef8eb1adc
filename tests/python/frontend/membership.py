# Membership: `x in xs`, `x not in xs` on lists of ints and strs, substring `in` on strs.
# case: solve([1, 2, 3], 2) == True
# case: solve([1, 2, 3], 5) == False
# case: solve([], 0) == False
# case: missing([1, 3], 3) == [0, 2]
# case: missing([], 2) == [0, 1]
# case: has_sub("hello", "ell") == True
# case: has_sub("hello", "") == True
# case: has_sub("", "a") == False
# case: known_word(["a", "bc"], "bc") == 1
# case: known_word(["a", "bc"], "b") == 0


def solve(xs: list[int], x: int) -> bool:
    return x in xs


def missing(xs: list[int], n: int) -> list[int]:
    out: list[int] = []
    for k in range(n):
        if k not in xs:
            out.append(k)
    return out


def has_sub(s: str, t: str) -> bool:
    return t in s


def known_word(words: list[str], w: str) -> int:
    if w not in words:
        return 0
    return 1
