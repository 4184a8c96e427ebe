"""A sweep's store survives damage: a run folder whose files were cut or changed is found by
its manifest and runs again; a damaged catalog or aggregate is rebuilt from the run folders;
a damaged sweep.json is a one-line error saying how to resume; a Python measure that raises
is that run's failure, named, and the sweep still finishes (shared/repro/2026-11-26:
store_damaged_run_wedges_sweep.sh, sweep_python_measure_raises.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from aimdlab.sweep import StoreError, open_sweep, parse_experiment, run_sweep

ROOT = Path(__file__).resolve().parent.parent

SMALL = {
    "name": "small", "seeds": 2, "axes": {"flows[0].count": [1, 2, 3]},
    "scenario": {"duration": "0.5s",
                 "topology": {"dumbbell": {"bottleneck": {"rate": "5Mbps", "delay": "5ms"}, "access": {"rate": "50Mbps", "delay": "1ms"}}},
                 "flows": [{"count": 1}]},
    "measures": ["bottleneck.utilization", "flows.goodput_bps.mean"],
}


def _sweep(tmp_path: Path, data=SMALL, out="st"):
    return run_sweep(parse_experiment(dict(data), ROOT, "small"), tmp_path / out, jobs=1)


def _catalog_without_wall(root: Path):
    return open_sweep(root).catalog.drop(["engine_wall_s"]).to_pylist()


def _cut(path: Path, keep: int) -> None:
    path.write_bytes(path.read_bytes()[:keep])


@pytest.mark.parametrize("victim", ["summary.json", "flows.parquet", "complete.json"])
def test_a_damaged_run_folder_runs_again_and_the_sweep_finishes_as_before(tmp_path, victim):
    first = _sweep(tmp_path)
    before = _catalog_without_wall(first.root)
    folder = sorted((first.root / "runs").iterdir())[0]
    _cut(folder / victim, 40)
    again = _sweep(tmp_path)
    assert _catalog_without_wall(again.root) == before
    assert all(s == "ok" for s in again.catalog.column("status").to_pylist())


def test_the_cli_warns_of_the_damaged_runs_it_runs_again(tmp_path):
    (tmp_path / "small.toml").write_text(
        'name = "small"\nseeds = 2\nmeasures = ["bottleneck.utilization"]\n[scenario]\nduration = "0.5s"\n'
        'topology = { dumbbell = { bottleneck = { rate = "5Mbps", delay = "5ms" }, access = { rate = "50Mbps", delay = "1ms" } } }\n'
        'flows = [{ count = 1 }]\n[axes]\n"flows[0].count" = [1, 2]\n')
    cmd = [sys.executable, "-m", "aimdlab.cli", "sweep", "small.toml", "--out", "st", "--jobs", "1"]
    assert subprocess.run(cmd, cwd=tmp_path, capture_output=True).returncode == 0
    (sorted((tmp_path / "st" / "runs").iterdir())[1] / "summary.json").write_text("{")
    out = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "warning: 1 run folder(s) in the store were damaged" in out.stderr and "executing 1 runs" in out.stderr


@pytest.mark.parametrize("table", ["catalog.parquet", "aggregate.parquet"])
def test_a_damaged_catalog_or_aggregate_is_rebuilt_from_the_runs(tmp_path, table):
    first = _sweep(tmp_path)
    before = _catalog_without_wall(first.root)
    _cut(first.root / table, 300)
    assert _catalog_without_wall(first.root) == before  # open_sweep rebuilt it
    report = subprocess.run([sys.executable, "-m", "aimdlab.cli", "report", str(first.root)], capture_output=True, text=True)
    assert report.returncode == 0, report.stderr


def test_a_damaged_sweep_json_says_how_to_resume_in_one_line(tmp_path):
    first = _sweep(tmp_path)
    _cut(first.root / "sweep.json", 30)
    with pytest.raises(StoreError) as e:
        open_sweep(first.root)
    assert "sweep.json: is damaged" in str(e.value) and "run the sweep again" in str(e.value) and "\n" not in str(e.value)
    report = subprocess.run([sys.executable, "-m", "aimdlab.cli", "report", str(first.root)], capture_output=True, text=True)
    assert report.returncode != 0 and len(report.stderr.strip().splitlines()) == 1, report.stderr
    _sweep(tmp_path)  # resuming writes it anew
    assert open_sweep(first.root).experiment["name"] == "small"


def raising_measure(result):
    """A Python measure that fails on runs with two flows (for the test below)."""
    if len(result.flows) == 2:
        raise ZeroDivisionError("no luck")
    return 1.0


def test_a_python_measure_that_raises_fails_its_run_by_name_and_the_sweep_finishes(tmp_path):
    data = {**SMALL, "measures": ["bottleneck.utilization", "test_store_damage:raising_measure", "json:dumps"]}
    sweep = _sweep(tmp_path, data)
    rows = sweep.catalog.to_pylist()
    assert all(r["status"] == "failed" for r in rows)  # json.dumps(Result) raises on every run
    assert rows[0]["error"].startswith("measures: json:dumps raised TypeError")
    data = {**SMALL, "measures": ["bottleneck.utilization", "test_store_damage:raising_measure"]}
    rows = _sweep(tmp_path, data, out="st2").catalog.to_pylist()
    failed = [r for r in rows if r["status"] == "failed"]
    assert {r["flows[0].count"] for r in failed} == {2}
    assert failed[0]["error"] == "measures: test_store_damage:raising_measure raised ZeroDivisionError: no luck"


def test_a_second_sweep_on_a_store_in_use_is_refused_naming_the_first(tmp_path):
    # two_sweeps_same_store.sh: runs ran twice, or one sweep failed with a confusing error.
    from aimdlab.sweep import Store, engine_version

    exp = parse_experiment(dict(SMALL), ROOT, "small")
    first = Store.prepare(tmp_path / "st", exp, engine_version())  # holds the lock, as a running sweep does
    try:
        with pytest.raises(StoreError) as e:
            _sweep(tmp_path)
        assert str(e.value) == (f"{tmp_path / 'st'}: a sweep is running in this folder (pid {__import__('os').getpid()}); "
                                "wait for it to finish or choose another --out")
    finally:
        first.release()
    assert all(s == "ok" for s in _sweep(tmp_path).catalog.column("status").to_pylist())  # free again


@pytest.mark.parametrize("damage", ["catalog-a-folder", "lock-a-folder", "runs-a-file"])
def test_structural_damage_is_repaired_or_named_with_what_to_do(tmp_path, damage):
    # store_structural_damage_wedges.sh: each wedged every resume with a bare OS error (one
    # naming a temporary file).
    import shutil

    first = _catalog_without_wall(_sweep(tmp_path).root)
    root = tmp_path / "st"
    if damage == "catalog-a-folder":
        (root / "catalog.parquet").unlink()
        (root / "catalog.parquet").mkdir()
    elif damage == "lock-a-folder":
        (root / ".lock").unlink()
        (root / ".lock").mkdir()
    else:
        shutil.rmtree(root / "runs")
        (root / "runs").write_text("x")
        with pytest.raises(StoreError) as e:
            _sweep(tmp_path)
        assert str(e.value) == (f"{root / 'runs'}: is a file where the sweep keeps its runs/ folder; move it out of the "
                                "sweep's folder, then run the sweep again (runs missing from it run again)")
        (root / "runs").unlink()
    assert _catalog_without_wall(_sweep(tmp_path).root) == first
