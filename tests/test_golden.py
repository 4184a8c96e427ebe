"""Golden summaries: every example and both benchmark scenarios, run at full length, give
exactly the `summary.json` checked in under `tests/golden/` — byte for byte — and tables
whose every column has the digest in `tests/golden/*.tables.json` (a summary does not show
an access link's largest queue or a flow's time series; a changed digest names the column).
A change in behaviour is then always a visible diff, made and explained in its own commit.

Update them (after checking that the change is the one intended) with:

    AIMDLAB_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import aimdlab
import pytest
from aimdlab.package_data import package_folder

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted(package_folder("examples").glob("*.toml")) + sorted(ROOT.glob("benches/*.toml"))
GOLDEN = Path(__file__).resolve().parent / "golden"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_summary_is_the_golden_one(path):
    got = aimdlab.run(path).summary_json()
    golden = GOLDEN / f"{path.parent.name}-{path.stem}.summary.json"
    if os.environ.get("AIMDLAB_UPDATE_GOLDEN"):
        golden.write_text(got)
    assert golden.exists(), f"no golden summary for {path}; create it with AIMDLAB_UPDATE_GOLDEN=1"
    assert got == golden.read_text(), f"{path.name}: the summary differs from {golden.name}"


def column_digests(result) -> dict:
    """SHA-256 (first 16 hex digits) of every column of every table, by `table.column`:
    numbers by their exact bits (float64 / uint64), strings joined by newlines."""
    out = {}
    for name in ("flows", "links", "timeseries", "link_timeseries"):
        table = getattr(result, name)
        for col in table.column_names:
            values = table.column(col).to_numpy(zero_copy_only=False)
            data = "\n".join(values).encode() if values.dtype == object else values.tobytes()
            out[f"{name}.{col}"] = hashlib.sha256(data).hexdigest()[:16]
    return out


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_tables_are_the_golden_ones(path):
    got = column_digests(aimdlab.run(path))
    golden = GOLDEN / f"{path.parent.name}-{path.stem}.tables.json"
    if os.environ.get("AIMDLAB_UPDATE_GOLDEN"):
        golden.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
    assert golden.exists(), f"no golden tables for {path}; create them with AIMDLAB_UPDATE_GOLDEN=1"
    want = json.loads(golden.read_text())
    changed = sorted(k for k in want.keys() | got.keys() if want.get(k) != got.get(k))
    assert not changed, f"{path.name}: these columns differ from {golden.name}: {', '.join(changed)}"


def test_every_golden_file_has_its_scenario():
    names = {f"{p.parent.name}-{p.stem}.{kind}.json" for p in SCENARIOS for kind in ("summary", "tables")}
    assert {g.name for g in GOLDEN.glob("*.json")} == names
