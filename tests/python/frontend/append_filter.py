# typing.List annotations (the import is ignored), filtering with append and %.
# case: solve([1, 2, 3, 4, 6, -2, -3]) == [2, 4, 6, -2]
# case: solve([]) == []
# case: odd_words(["a", "bb", "ccc"]) == ["a", "ccc"]
from typing import List


def solve(xs: List[int]) -> List[int]:
    evens: List[int] = []
    for x in xs:
        if x % 2 == 0:
            evens.append(x)
    return evens


def odd_words(words: List[str]) -> List[str]:
    out: List[str] = []
    for w in words:
        if len(w) % 2 == 1:
            out.append(w)
    return out
