# Indexing strs (a one-character str), comparing characters, building from indexes.
# case: solve("level") == True
# case: solve("levels") == False
# case: solve("") == True
# case: every_other("abcdefg") == "aceg"
# case: char_at("abc", 1) == "b"
# case: char_at("abc", -1) == "c"
# case: char_at("abc", 3) raises


def solve(s: str) -> bool:
    i = 0
    j = len(s) - 1
    while i < j:
        if s[i] != s[j]:
            return False
        i += 1
        j -= 1
    return True


def every_other(s: str) -> str:
    out = ""
    for i in range(0, len(s), 2):
        out = out + s[i]
    return out


def char_at(s: str, i: int) -> str:
    return s[i]
