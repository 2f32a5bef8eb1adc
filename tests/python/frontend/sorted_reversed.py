# sorted, list(reversed(xs)), for over reversed(xs), list(xs) as a copy, == on lists.
# case: solve([3, 1, 2]) == [1, 2, 3]
# case: solve([]) == []
# case: rev([1, 2, 3]) == [3, 2, 1]
# case: rev_loop([1, 2, 3]) == [3, 2, 1]
# case: is_sorted([1, 2, 2, 5]) == True
# case: is_sorted([2, 1]) == False
# case: is_list_palindrome([1, 2, 1]) == True
# case: is_list_palindrome([1, 2]) == False
# case: copy_then_change([1, 2]) == [1, 2, 1, 99]
# case: sorted_words(["b", "ab", "a"]) == ["a", "ab", "b"]


def solve(xs: list[int]) -> list[int]:
    return sorted(xs)


def rev(xs: list[int]) -> list[int]:
    return list(reversed(xs))


def rev_loop(xs: list[int]) -> list[int]:
    out: list[int] = []
    for x in reversed(xs):
        out.append(x)
    return out


def is_sorted(xs: list[int]) -> bool:
    return sorted(xs) == xs


def is_list_palindrome(xs: list[int]) -> bool:
    return list(reversed(xs)) == xs


def copy_then_change(xs: list[int]) -> list[int]:
    ys = list(xs)
    ys[0] = 99
    return xs + ys[:0] + [xs[0], ys[0]]


def sorted_words(ws: list[str]) -> list[str]:
    return sorted(ws)
