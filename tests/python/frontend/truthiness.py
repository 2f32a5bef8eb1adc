# Any value is a condition: an int or a float is true when it is not zero, a str or a list when
# it is not empty; `not`, `and` and `or` in a condition pass that on; `not x` is a bool anywhere.
# case: digit_sum(1234) == 10
# case: digit_sum(0) == 0
# case: drain([1, 2, 3]) == 6
# case: describe("") == "empty"
# case: describe("ab") == "ab"
# case: both(0, 5) == False
# case: both(2, 5) == True
# case: either([], "") == False
# case: either([], "x") == True
# case: negate([]) == True
# case: negate([0]) == False
# case: nonzero([0, 3, 0, 4]) == [3, 4]
# case: halve(0.0) == "zero"
# case: halve(1.5) == "nonzero"


def digit_sum(n: int) -> int:
    s = 0
    while n:
        s += n % 10
        n //= 10
    return s


def drain(xs: list[int]) -> int:
    total = 0
    while xs:
        total += xs[-1]
        xs.pop()
    return total


def describe(s: str) -> str:
    if not s:
        return "empty"
    return s


def both(a: int, b: int) -> bool:
    if a and b:
        return True
    return False


def either(xs: list[int], s: str) -> bool:
    return True if xs or s else False


def negate(xs: list[int]) -> bool:
    flag = not xs
    return flag


def nonzero(xs: list[int]) -> list[int]:
    return [x for x in xs if x]


def halve(x: float) -> str:
    return "nonzero" if x else "zero"
