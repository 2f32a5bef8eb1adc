# Places where Python's semantics differ from a naive translation to a C-like loop:
# - assigning the loop variable of a range loop does not change the iteration;
# - the range's bounds are evaluated once, before the loop;
# - a loop variable that was assigned before the loop keeps its last value after it (and the old
#   value when the loop runs zero times);
# - rebinding the iterated list inside a for-each does not change what is iterated;
# - range(len(xs)) is computed once, so appending to xs in the loop does not extend it.
# case: solve(4) == 4
# case: bounds_once(3) == 3
# case: last_value(5) == 4
# case: last_value(0) == -7
# case: snapshot([1, 2, 3]) == [1, 2, 3, 1, 2, 3]
# case: fresh_each_iteration(3) == 3
# case: grow_while_ranging([5, 6]) == [5, 6, 0, 1]


def solve(n: int) -> int:
    count = 0
    for i in range(n):
        i = i + 100
        count += 1
    return count


def bounds_once(n: int) -> int:
    trips = 0
    for i in range(n):
        n = n + 1
        trips += 1
    return trips


def last_value(n: int) -> int:
    i = -7
    for i in range(n):
        pass
    return i


def snapshot(xs: list[int]) -> list[int]:
    for x in xs:
        xs = xs + [x]
    return xs


def fresh_each_iteration(n: int) -> int:
    total = 0
    for k in range(n):
        acc: list[int] = []
        acc.append(k)
        total += len(acc)
    return total


def grow_while_ranging(xs: list[int]) -> list[int]:
    for i in range(len(xs)):
        xs.append(i)
    return xs
