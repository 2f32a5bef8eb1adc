# Iterating over a str: each element is a one-character str; `in` on a str literal; building a
# str with += and +.
# case: solve("hello world") == 3
# case: solve("") == 0
# case: solve("xyz") == 0
# case: swap_case_ab("abcab") == "bacba"
# case: swap_case_ab("") == ""
# case: count_char("banana", "a") == 3


def solve(s: str) -> int:
    vowels = 0
    for c in s:
        if c in "aeiou":
            vowels += 1
    return vowels


def swap_case_ab(s: str) -> str:
    out = ""
    for c in s:
        if c == "a":
            out += "b"
        elif c == 'b':
            out = out + 'a'
        else:
            out += c
    return out


def count_char(s: str, ch: str) -> int:
    n = 0
    for i in range(len(s)):
        if s[i] == ch:
            n = n + 1
    return n
