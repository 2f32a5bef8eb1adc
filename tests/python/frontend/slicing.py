# Slices of lists and strs: missing bounds, negative bounds, bounds beyond the length (clamped,
# never a trap), empty results, and [::-1].
# case: solve([1, 2, 3, 4, 5], 1, 3) == [2, 3]
# case: solve([1, 2, 3, 4, 5], -3, -1) == [3, 4]
# case: solve([1, 2, 3], 2, 100) == [3]
# case: solve([1, 2, 3], -100, 2) == [1, 2]
# case: solve([1, 2, 3], 3, 1) == []
# case: solve([], 0, 5) == []
# case: head_tail([1, 2, 3, 4], 1) == [2, 3, 4, 1]
# case: head_tail([1, 2, 3, 4], -1) == [4, 1, 2, 3]
# case: head_tail([], 2) == []
# case: rev_list([1, 2, 3]) == [3, 2, 1]
# case: rev_list([]) == []
# case: rev_str("abc") == "cba"
# case: middle("abcdef", 1, -1) == "bcde"
# case: middle("abcdef", -2, 10) == "ef"
# case: middle("abc", 5, 9) == ""
# case: is_palindrome("racecar") == True
# case: is_palindrome("ab") == False
# case: is_palindrome("") == True


def solve(xs: list[int], a: int, b: int) -> list[int]:
    return xs[a:b]


def head_tail(xs: list[int], k: int) -> list[int]:
    return xs[k:] + xs[:k]


def rev_list(xs: list[int]) -> list[int]:
    return xs[::-1]


def rev_str(s: str) -> str:
    return s[::-1]


def middle(s: str, a: int, b: int) -> str:
    return s[a:b]


def is_palindrome(s: str) -> bool:
    return s == s[::-1]
