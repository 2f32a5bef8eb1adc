# str builtins: split with an explicit separator (empty pieces kept), join, find, str(int),
# ord/chr, len.
# case: solve("a,b,,c") == 4
# case: solve("") == 1
# case: solve("abc") == 1
# case: rejoin("a b c") == "a-b-c"
# case: rejoin("") == ""
# case: where("hello", "l") == 2
# case: where("hello", "z") == -1
# case: where("hello", "") == 0
# case: show(-42) == "n=-42"
# case: show(0) == "n=0"
# case: caesar("abz", 1) == "bca"
# case: caesar("", 3) == ""
# case: code("A") == 65
# case: code("AB") raises
# case: code("") raises
# case: digits_of(905) == [9, 0, 5]
# case: split_by("a--b-", "-") == ["a", "", "b", ""]
# case: split_by("aaa", "aa") == ["", "a"]
# case: split_by("a b", "") raises


def solve(s: str) -> int:
    return len(s.split(","))


def rejoin(s: str) -> str:
    parts = s.split(" ")
    return "-".join(parts)


def where(s: str, t: str) -> int:
    return s.find(t)


def show(n: int) -> str:
    return "n=" + str(n)


def caesar(s: str, k: int) -> str:
    out = ""
    for c in s:
        out += chr((ord(c) - ord("a") + k) % 26 + ord("a"))
    return out


def code(c: str) -> int:
    return ord(c)


def digits_of(n: int) -> list[int]:
    out: list[int] = []
    for c in str(n):
        out.append(ord(c) - 48)
    return out


def split_by(s: str, sep: str) -> list[str]:
    # An empty separator is a ValueError in Python (Syn's split would split at whitespace).
    return s.split(sep)
