"""The pytest suite of the gpusynth Python package (docs/python.md). ctest runs it with the build
tree's package first on PYTHONPATH and GPUSYNTH_BIN naming the gpusynth command; by hand:

    PYTHONPATH=build/release/python GPUSYNTH_BIN=build/release/jobs/gpusynth python3 -m pytest tests/python
"""
import os
import pathlib

import pytest

SOURCE = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture
def problems_dir():
    return SOURCE / "problems"


@pytest.fixture
def gpusynth_bin():
    path = os.environ.get("GPUSYNTH_BIN")
    if not path:
        pytest.fail("GPUSYNTH_BIN must name the gpusynth command (ctest sets it)")
    return path
