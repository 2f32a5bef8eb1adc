# Early return from inside two nested loops (two-sum), with the not-found result after them.
# case: solve([2, 7, 11, 15], 9) == (0, 1)
# case: solve([3, 2, 4], 6) == (1, 2)
# case: solve([1, 2], 10) == (-1, -1)
# case: solve([], 0) == (-1, -1)
# case: has_pair_string("abcb") == True
# case: has_pair_string("abc") == False


def solve(xs: list[int], target: int) -> tuple[int, int]:
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            if xs[i] + xs[j] == target:
                return i, j
    return -1, -1


def has_pair_string(s: str) -> bool:
    for i in range(len(s)):
        j = i + 1
        while j < len(s):
            if s[i] == s[j]:
                return True
            j += 1
    return False
