"""Every run says what produced it (versions, engine commit, scenario hash, seed) and where and
when (host, UTC time, command line): a fresh `Result` as a loaded one. Only `provenance.json`
differs between two runs of one scenario and seed, so run files stay comparable byte for byte."""

from __future__ import annotations

import datetime
import json
import platform

import aimdlab
import numpy as np
import pyarrow as pa
from aimdlab.result import Result, scenario_sha256
from aimdlab.sweep import open_sweep, parse_experiment, run_sweep
from conftest import dumbbell

WHAT = {"aimdlab_version", "engine_commit", "scenario_sha256", "seed", "python_version", "numpy_version", "pyarrow_version"}
WHERE = {"host", "platform", "time_utc", "command_line"}


def test_a_fresh_result_and_its_folder_carry_the_whole_provenance(tmp_path):
    before = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    result = aimdlab.run(dumbbell(duration="2s"), seed=7)
    prov = result.provenance
    assert set(prov) == WHAT | WHERE
    assert prov["seed"] == 7 and prov["aimdlab_version"] == aimdlab.__version__
    assert prov["scenario_sha256"] == scenario_sha256(result.scenario), "the scenario as run, its seed included"
    assert (prov["python_version"], prov["numpy_version"], prov["pyarrow_version"]) == (platform.python_version(), np.__version__, pa.__version__)
    assert before <= datetime.datetime.fromisoformat(prov["time_utc"].replace("Z", "+00:00")) <= datetime.datetime.now(datetime.timezone.utc)
    result.save(tmp_path / "a")
    loaded = Result.load(tmp_path / "a")
    assert loaded.provenance == prov
    # summary.json holds what produced the run, not where and when.
    assert set(json.loads((tmp_path / "a" / "summary.json").read_text())["provenance"]) == WHAT


def test_two_runs_of_one_scenario_differ_only_in_provenance_json(tmp_path):
    for name in ("a", "b"):
        aimdlab.run(dumbbell(duration="2s"), seed=3).save(tmp_path / name)
    files = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert "provenance.json" in files
    for name in files:
        if name != "provenance.json":
            assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


def test_a_sweep_records_each_session_and_no_provenance_json_in_its_runs(tmp_path):
    exp = parse_experiment({"scenario": dumbbell(duration="2s"), "seeds": 1, "axes": {"flows[0].count": [1, 2]},
                            "measures": ["bottleneck.utilization"]}, tmp_path, "prov")
    run_sweep(exp, tmp_path / "s", jobs=1)
    run_sweep(exp, tmp_path / "s", jobs=1)  # a second session, nothing left to run
    sweep = open_sweep(tmp_path / "s")
    assert len(sweep.sessions) == 2
    assert set(sweep.sessions[0]) == WHERE | {"engine"}
    assert not list((tmp_path / "s" / "runs").rglob("provenance.json"))
