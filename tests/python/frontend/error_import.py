# Only `from typing import List` may be imported.
# error: 3
import os


def solve(x: int) -> int:
    return x
