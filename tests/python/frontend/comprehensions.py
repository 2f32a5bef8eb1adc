# List comprehensions with `if`, over lists, strs and ranges; generator expressions in sum, min,
# max, sorted, list and join; a comprehension's variable is its own; nested comprehensions.
# case: solve([3, -1, 4, 0, 5]) == [6, 8, 10]
# case: solve([]) == []
# case: evens_at_odd([5, 2, 8, 4, 6]) == [2, 4]
# case: vowels("comprehension") == "oeeio"
# case: stats([4, -2, 7]) == (9, -2, 7)
# case: stats([]) raises
# case: smaller_before([3, 1, 2]) == [2, 0, 1]
# case: own_variable([1, 2, 3]) == "x23"
# case: squares_down(7) == [49, 25, 9, 1]
# case: sorted_words("pear fig apple") == ["apple", "fig", "pear"]
# case: chained([5, 15, 25, 35]) == [35, 55, 75]
# case: parenthesized([1, 2, 3]) == 6
# case: safe_div([0, 2, 5]) == [5, 2]


def solve(xs: list[int]) -> list[int]:
    return [x * 2 for x in xs if x > 0]


def evens_at_odd(xs: list[int]) -> list[int]:
    return [xs[i] for i in range(len(xs)) if i % 2 == 1 if xs[i] % 2 == 0]


def vowels(s: str) -> str:
    return "".join(c for c in s if c in "aeiou")


def stats(xs: list[int]) -> tuple[int, int, int]:
    return sum(x for x in xs), min(x for x in xs), max(x for x in xs)


def smaller_before(xs: list[int]) -> list[int]:
    return [len([y for y in xs if y < x]) for x in xs]


def own_variable(xs: list[int]) -> str:
    x = "x"
    ys = [str(x) for x in xs if x > 1]
    return x + "".join(ys)


def squares_down(n: int) -> list[int]:
    return [i * i for i in range(n, 0, -2)]


def sorted_words(s: str) -> list[str]:
    return sorted(w for w in s.split())


def chained(xs: list[int]) -> list[int]:
    return [y + 5 for y in [x * 2 for x in xs] if y > 20 and y < 80 if y % 4 == 2]


def parenthesized(xs: list[int]) -> int:
    return sum((x for x in xs))


def safe_div(xs: list[int]) -> list[int]:
    return [10 // x for x in xs if x != 0]
