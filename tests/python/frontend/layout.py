# Layout: comments and blank lines inside blocks, expressions continued over lines inside
# brackets, trailing commas, a one-line if body, and deeper indentation.
# case: solve([1, 2, 3]) == 14
# case: solve([]) == 10


def solve(xs: list[int]) -> int:
    # a comment at the start of a block

    total = (1 +
             2 +  # a comment inside the expression
             3)
    extra = [
        4,
        0,
    ]

    if len(xs) > 0: total += xs[0]
    for x in xs:
            # a comment in a deeper-indented block
            if x > 1:
                    total += x - 1

    return total + sum(extra)
