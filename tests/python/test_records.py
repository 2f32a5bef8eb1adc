import json
import subprocess

import pytest

import gpusynth


@pytest.fixture
def run_dir(tmp_path, gpusynth_bin):
    suite = tmp_path / "suite"
    suite.mkdir()
    for name, body in [("double", 2), ("triple", 3)]:
        cases = [{"inputs": [k], "outputs": [k * body]} for k in range(-3, 4)]
        (suite / f"{name}.json").write_text(json.dumps(
            {"name": name, "signature": "fn solve(x: int) -> int", "train": cases, "test": cases}))
    run = tmp_path / "run"
    subprocess.run([gpusynth_bin, "campaign", "--suite", str(suite), "--out", str(run), "-g", "gp",
                    "--budget", "20000", "--record-every", "1", "--quiet"], check=True, capture_output=True)
    return run


def test_records_of_a_campaign(run_dir):
    import h5py  # the independent reader: the file's own layout (docs/trace-format.md)

    expected = {}
    with h5py.File(run_dir / "records.h5", "r") as f:  # first: one process opens a file one way at a time
        for problem in ("double", "triple"):
            group = f[f"problems/{problem}"]
            expected[problem] = (list(group["candidates/id"]), len(group["iterations/iteration"]))
    with gpusynth.Records(str(run_dir / "records.h5")) as records:
        assert [p["name"] for p in records.problems] == ["double", "triple"]
        assert records.attributes["seed"] == 1 and records.warnings == []
        for problem, (ids, iterations) in expected.items():
            assert records.candidate_count(problem) == len(ids) > 3
            rows = records.candidates(problem, first=1, count=3)
            assert [r["id"] for r in rows] == ids[1:4]
            assert rows[0]["source"].startswith("fn solve")
            assert len(records.iterations(problem)) == iterations
            solutions = records.solutions(problem)
            if solutions:
                assert solutions[0]["train_passed"] == solutions[0]["train_total"] == 7


def test_bad_records_are_errors(run_dir, tmp_path):
    records = gpusynth.Records(str(run_dir / "records.h5"))
    with pytest.raises(gpusynth.RecordsError, match="nothere"):
        records.candidates("nothere")
    records.close()
    with pytest.raises(gpusynth.RecordsError, match="closed"):
        records.problems
    with pytest.raises(gpusynth.RecordsError, match="missing.h5"):
        gpusynth.Records(str(tmp_path / "missing.h5"))
    junk = tmp_path / "junk.h5"
    junk.write_bytes(b"not hdf5 at all" * 100)
    with pytest.raises(gpusynth.RecordsError, match="junk.h5"):
        gpusynth.Records(str(junk))
