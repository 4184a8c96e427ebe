"""Every example scenario loads, validates and runs (shortened)."""

from __future__ import annotations

import aimdlab
import pytest
from aimdlab.package_data import package_folder

EXAMPLES = sorted(package_folder("examples").glob("*.toml"))


def test_there_are_examples():
    assert len(EXAMPLES) >= 6


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_runs(path):
    sc = aimdlab.apply_overrides(aimdlab.load(path), ["duration=8s", "warmup=1s"])
    r = aimdlab.run(sc)
    assert r.summary["name"] == path.stem
    assert r.summary["packets"]["delivered"] > 0
