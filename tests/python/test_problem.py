import json
import re

import pytest

import gpusynth

SUM = "fn solve(xs: [int]) -> int"


def test_made_from_python_values_round_trips():
    p = gpusynth.Problem(SUM, train=[(([1, 2, 3],), 6), (([],), 0)], test=[(([7],), 7)], name="sum",
                         description="add them up")
    assert (p.name, p.signature, p.entry, p.description) == ("sum", SUM, "solve", "add them up")
    assert p.train == [(([1, 2, 3],), 6), (([],), 0)]
    assert p.test == [(([7],), 7)]
    again = gpusynth.Problem.from_json(p.to_json())
    assert again.train == p.train and again.test == p.test


def test_several_results_and_every_value_type():
    sig = "fn solve(s: str, f: float, b: bool, ss: [str]) -> (int, [float])"
    p = gpusynth.Problem(sig, train=[(("h\u00e9", 1.5, True, ["a", ""]), (2, [0.25, -1.0]))])
    assert p.train == [(("h\u00e9", 1.5, True, ["a", ""]), (2, [0.25, -1.0]))]


def test_cases_in_the_file_format_are_accepted():
    p = gpusynth.Problem(SUM, train=[{"inputs": [[4]], "outputs": [4]}])
    assert p.train == [(([4],), 4)]


def test_load_a_bundled_problem(problems_dir):
    p = gpusynth.Problem.load(str(problems_dir / "psb1" / "last-index-of-zero.json"))
    assert p.name == "last-index-of-zero" and len(p.train) == 200 and len(p.test) == 2000


@pytest.mark.parametrize("train, message", [
    ([(([1, "x"],), 3)], re.escape("Problem: train case 0: inputs[0]: element 1: expected int")),
    ([(([1],), 3, 4)], "train case 0: expected a pair"),
    ([((1, 2), 3), (([1], 2), 3)], "train case 0: expected 1 inputs, found 2"),
    ([], "train"),
])
def test_bad_cases_are_located_errors(train, message):
    with pytest.raises((gpusynth.ProblemError, TypeError), match=message):
        gpusynth.Problem(SUM, train=train)


def test_bad_signature_and_name():
    with pytest.raises(gpusynth.ProblemError, match="signature"):
        gpusynth.Problem("fn solve(xs: [int] -> int", train=[(([1],), 1)])
    with pytest.raises(gpusynth.ProblemError, match="name"):
        gpusynth.Problem(SUM, train=[(([1],), 1)], name="a/b")


def test_values_json_cannot_hold_are_refused():
    with pytest.raises(ValueError, match="beyond 64 bits"):
        gpusynth.Problem(SUM, train=[(([2**64],), 1)])
    with pytest.raises(ValueError, match="JSON"):
        gpusynth.Problem("fn solve(x: float) -> float", train=[((float("nan"),), 1.0)])
    with pytest.raises(ValueError, match="U\\+00FF"):
        gpusynth.Problem("fn solve(s: str) -> int", train=[(("\u20ac",), 1)])


def test_a_bad_file_names_file_line_and_column(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"name": "p", "signature": SUM, "train": [{"inputs": [["x"]], "outputs": [1]}]}))
    with pytest.raises(gpusynth.ProblemError, match=r"p\.json:1:\d+: train case 0: inputs\[0\]"):
        gpusynth.Problem.load(str(path))
    with pytest.raises(gpusynth.ProblemError, match="missing.json"):
        gpusynth.Problem.load(str(tmp_path / "missing.json"))
