# Python names that are keywords or builtins of Syn (the VM's own language) are ordinary names
# in Python: variables, parameters and functions named so must work.
# case: solve(3) == 31
# case: split(47) == (4, 7)
# case: reverse([1, 2]) == [2, 1]
# case: push_pop([1], 2) == 4


def solve(let: int) -> int:
    fn = let * 2
    true = fn + 1
    false = true - fn
    array = [let, fn, true, false]
    sort = 0
    for push in array:
        sort += push
    pop = sort
    parse_int = pop + 14
    return parse_int


def split(n: int) -> tuple[int, int]:
    return n // 10, n % 10


def reverse(xs: list[int]) -> list[int]:
    return xs[::-1]


def push_pop(push: list[int], pop: int) -> int:
    push.append(pop)
    sqrt = sum(push)
    floor = len(push) - 1
    return sqrt + floor
