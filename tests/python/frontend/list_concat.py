# + on lists and strs, list literals with expressions, == and != on lists.
# case: solve([1, 2], [3]) == [1, 2, 3, 0, 4]
# case: solve([], []) == [0, 1]
# case: same([1, 2], [1, 2]) == True
# case: same([1, 2], [2, 1]) == False
# case: same([], []) == True
# case: differ([1], [1, 1]) == True
# case: greet("bob") == "hi bob!"
# case: pair_words("a", "b") == ["a", "b", "ab"]


def solve(xs: list[int], ys: list[int]) -> list[int]:
    return xs + ys + [0, len(xs) + len(ys) + 1]


def same(xs: list[int], ys: list[int]) -> bool:
    return xs == ys


def differ(xs: list[int], ys: list[int]) -> bool:
    return xs != ys


def greet(name: str) -> str:
    return "hi " + name + "!"


def pair_words(a: str, b: str) -> list[str]:
    return [a, b] + [a + b]
