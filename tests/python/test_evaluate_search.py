import threading

import pytest

import gpusynth

SUM = "fn solve(xs: [int]) -> int { return sum(xs); }"


@pytest.fixture
def sum_problem():
    return gpusynth.Problem("fn solve(xs: [int]) -> int", name="sum",
                            train=[(([1, 2, 3],), 6), (([],), 0), (([5, -5, 2],), 2)],
                            test=[(([7, 7],), 14)])


def test_evaluate_judges_each_candidate(sum_problem):
    first = "fn solve(xs: [int]) -> int { return xs[0]; }"
    results = gpusynth.evaluate(sum_problem, [SUM, first, "fn solve(", "fn other(x: int) -> int { return x; }"],
                                device="cpu")
    assert [r.status for r in results] == ["ok", "ok", "compile_error", "no_entry"]
    assert [r.passed for r in results] == [3, 0, 0, 0] and all(r.cases == 3 for r in results)
    assert results[0].passes and not results[1].passes
    assert results[0].error == "" and results[1].error == "index_out_of_range x1"
    assert results[2].error.startswith("1:10: ")
    assert [r.passes for r in gpusynth.evaluate(sum_problem, [SUM], split="test")] == [True]
    assert gpusynth.evaluate(sum_problem, []) == []


def test_evaluate_judges_python_candidates(sum_problem):
    right = "def solve(xs: list[int]) -> int:\n    t = 0\n    for x in xs:\n        t += x\n    return t\n"
    traps = "def solve(xs: list[int]) -> int:\n    return xs[-1] + sum(xs[:-1])\n"
    outside = "def solve(xs: list[int]) -> int:\n    return len(x for x in xs)\n"
    results = gpusynth.evaluate(sum_problem, [right, traps, outside, SUM], language="python")
    assert [r.status for r in results] == ["ok", "ok", "compile_error", "compile_error"]
    assert results[0].passes and results[1].passed == 2 and results[1].error == "index_out_of_range x1"
    assert "outside gpusynth's Python subset" in results[2].error
    with pytest.raises(ValueError, match="language must be syn or python"):
        gpusynth.evaluate(sum_problem, [SUM], language="cobol")
    with pytest.raises(ValueError, match="language must be"):
        gpusynth.compile(SUM, language="rust")


def test_evaluate_agrees_with_run_across_batches(sum_problem):
    candidates = [f"fn solve(xs: [int]) -> int {{ return sum(xs) + {k % 3}; }}" for k in range(50)]
    results = gpusynth.evaluate(sum_problem, candidates, batch=7, threads=1)
    assert [r.passes for r in results] == [k % 3 == 0 for k in range(50)]


def test_evaluate_refuses_what_it_cannot_judge(sum_problem):
    no_test = gpusynth.Problem("fn solve(x: int) -> int", train=[((1,), 1)])
    with pytest.raises(ValueError, match="test split has no cases"):
        gpusynth.evaluate(no_test, [SUM], split="test")
    with pytest.raises(ValueError, match="split must be"):
        gpusynth.evaluate(sum_problem, [SUM], split="dev")
    with pytest.raises(ValueError, match="device must be"):
        gpusynth.evaluate(sum_problem, [SUM], device="tpu")
    with pytest.raises(ValueError, match="threads must be in"):
        gpusynth.evaluate(sum_problem, [SUM], threads=100000)
    with pytest.raises(ValueError, match="batch"):
        gpusynth.evaluate(sum_problem, [SUM], batch=0)


def test_evaluate_releases_the_gil(sum_problem):
    candidates = [SUM] * 20000
    done = []
    worker = threading.Thread(target=lambda: done.append(gpusynth.evaluate(sum_problem, candidates, threads=1)))
    worker.start()
    ticks = 0
    while worker.is_alive():
        ticks += 1
        worker.join(0.001)
    assert all(r.passes for r in done[0])
    assert ticks > 1  # this thread ran while the pipeline worked


def test_search_solves_and_generalises(sum_problem):
    seen = []
    outcome = gpusynth.search(sum_problem, budget=50000, seed=3, progress=seen.append)
    assert outcome["solved"] and outcome["solution"]["generalises"]
    assert gpusynth.run(outcome["solution"]["simplified"], ([4, 4],)) == 8
    assert seen and seen[-1]["solved"]


def test_search_stops_at_its_budget_and_rejects_bad_settings(sum_problem):
    hard = gpusynth.Problem("fn solve(x: int) -> int", train=[((k,), (k * 7919) % 104729 ^ 5) for k in range(20)])
    outcome = gpusynth.search(hard, generator="gp", budget=3000, batch=500)
    assert not outcome["solved"] and outcome["candidates"] == 3000 and "solution" not in outcome
    with pytest.raises(ValueError, match="generator must be"):
        gpusynth.search(sum_problem, generator="external")
    with pytest.raises(ValueError, match="budget"):
        gpusynth.search(sum_problem, budget=0)
    with pytest.raises(ValueError, match="seconds"):
        gpusynth.search(sum_problem, seconds=float("nan"))


def test_an_exception_in_progress_stops_the_search(sum_problem):
    hard = gpusynth.Problem("fn solve(x: int) -> int", train=[((k,), (k * 7919) % 104729 ^ 5) for k in range(20)])

    def stop(report):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        gpusynth.search(hard, generator="gp", budget=10**7, batch=200, progress=stop)


def test_model_sample_helpers():
    assert gpusynth.extract_code("Sure!\n```syn\n" + SUM + "\n```\nDone.") == SUM + "\n"
    assert gpusynth.extract_code("The answer:\n" + SUM) == SUM
    assert gpusynth.pass_at_k(10, 3, 1) == pytest.approx(0.3)
    assert gpusynth.pass_at_k(2, 1, 5) is None
    assert gpusynth.pass_at_k(5, 5, 2) == 1.0
