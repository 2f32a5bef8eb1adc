# and/or short-circuit (guarding an index that would trap), not, elif chains returning strs.
# case: solve([]) == False
# case: solve([0]) == False
# case: solve([4, 1]) == True
# case: fizz(15) == "FizzBuzz"
# case: fizz(9) == "Fizz"
# case: fizz(10) == "Buzz"
# case: fizz(7) == "7"
# case: safe_first_or(["x"], 3) == True
# case: safe_first_or([], 3) == True
# case: safe_first_or(["y"], -3) == False
# case: safe_first_or([], -3) raises
# case: neither(True, False) == False
# case: neither(False, False) == True


def solve(xs: list[int]) -> bool:
    return len(xs) > 0 and xs[0] > 0


def fizz(n: int) -> str:
    if n % 15 == 0:
        return "FizzBuzz"
    elif n % 3 == 0:
        return "Fizz"
    elif n % 5 == 0:
        return "Buzz"
    else:
        return str(n)


def safe_first_or(xs: list[str], k: int) -> bool:
    return k > 0 or xs[0] == "x"


def neither(a: bool, b: bool) -> bool:
    return not a and not (b or a)
