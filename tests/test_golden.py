"""Golden summaries: every example and both benchmark scenarios, run at full length, give
exactly the `summary.json` checked in under `tests/golden/` — byte for byte. A change in
behaviour is then always a visible diff, made and explained in its own commit.

Update them (after checking that the change is the one intended) with:

    AIMDLAB_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import aimdlab

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted(ROOT.glob("examples/*.toml")) + sorted(ROOT.glob("benches/*.toml"))
GOLDEN = Path(__file__).resolve().parent / "golden"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_summary_is_the_golden_one(path):
    got = aimdlab.run(path).summary_json()
    golden = GOLDEN / f"{path.parent.name}-{path.stem}.summary.json"
    if os.environ.get("AIMDLAB_UPDATE_GOLDEN"):
        golden.write_text(got)
    assert golden.exists(), f"no golden summary for {path}; create it with AIMDLAB_UPDATE_GOLDEN=1"
    assert got == golden.read_text(), f"{path.name}: the summary differs from {golden.name}"


def test_every_golden_file_has_its_scenario():
    names = {f"{p.parent.name}-{p.stem}.summary.json" for p in SCENARIOS}
    assert {g.name for g in GOLDEN.glob("*.summary.json")} == names
