# Escapes in str literals, quotes of the other kind inside a literal, and a str containing '#'.
# case: solve() == 12
# case: joined(["a", "b"]) == "a\tb\n"
# case: quotes() == "it's \"q\""
# case: hash_in_string("a#b") == 1


def solve() -> int:
    s = "a\nb\tc\\d\"e'"
    return len(s) + len('\'') + len("\x41") + len('')


def joined(ws: list[str]) -> str:
    return "\t".join(ws) + "\n"


def quotes() -> str:
    return "it's " + '"q"'


def hash_in_string(s: str) -> int:
    return s.find("#")  # a comment after code
