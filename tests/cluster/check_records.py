"""Checks a finished campaign's joined records with h5py (an independent HDF5 reader):
records.h5 holds exactly the problems of campaign.jsonl, and every candidate a problem's
search evaluated is recorded once (the run used --record-every 1).

usage: python3 check_records.py RUN_DIR
"""
import json
import sys

import h5py

run = sys.argv[1]
done = {r["problem"]: r for r in map(json.loads, open(run + "/campaign.jsonl"))}
with h5py.File(run + "/records.h5", "r", locking=False) as f:
    assert sorted(f["problems"]) == sorted(done), (sorted(f["problems"]), sorted(done))
    for name, p in f["problems"].items():
        ids = p["candidates/id"][:]
        # ids 0..n-1, n = candidates evaluated
        assert list(ids) == list(range(done[name]["candidates"])), (name, len(ids), done[name]["candidates"])
        assert p["iterations/cumulative_candidates"][-1] == done[name]["candidates"], name
print("h5py: records.h5 holds", len(done), "problems, every candidate once")
