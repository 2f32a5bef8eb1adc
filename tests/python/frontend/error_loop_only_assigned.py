# A loop body may run zero times: a variable first assigned in it is not assigned after it.
# error: 8: in_loop


def solve(n: int) -> int:
    for i in range(n):
        in_loop = i
    return in_loop
