"""A module docstring; functions with docstrings, pass, and annotated assignments."""
# case: solve(3) == 3
# case: solve(-1) == 0
# case: flags(2) == [True, False]


def solve(n: int) -> int:
    """Counts up to n."""
    count: int = 0
    total: float = 0.0
    for i in range(n):
        pass
        count += 1
        total = total + 0.5
    if n < 0:
        pass
    else:
        pass
    return count


def flags(n: int) -> list[bool]:
    '''Single-quoted docstring.'''
    out: list[bool] = []
    out.append(n > 1)
    out.append(n > 5)
    return out
