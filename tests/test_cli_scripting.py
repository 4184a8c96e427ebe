"""The `aimdlab` command in scripts and pipelines: `--json` on every command that prints
results (one object a script parses, with paths and provenance), `-q` that prints nothing but
errors, progress as lines when standard error is not a terminal, and a previous run that is
never replaced silently by a run of another scenario."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def aimdlab(*args: str, cwd=None) -> subprocess.CompletedProcess:
    """The command with real pipes for its output (not a terminal)."""
    return subprocess.run([sys.executable, "-m", "aimdlab", *args], capture_output=True, text=True, timeout=600, cwd=cwd)


def test_a_run_of_another_scenario_or_seed_is_not_replaced_without_force(tmp_path, examples_dir):
    out = str(tmp_path / "u")
    scenario = str(examples_dir / "utilization.toml")
    first = aimdlab("run", scenario, "--out", out, "--no-figure", "--set", "duration=20s")
    assert first.returncode == 0, first.stderr
    before = (tmp_path / "u" / "summary.json").read_bytes()
    other = aimdlab("run", scenario, "--out", out, "--no-figure", "--set", "duration=10s")
    assert other.returncode == 1
    assert other.stderr.strip().splitlines() == [
        f'Error: --out {out}: holds a run of another scenario (duration: "20s" there, "10s" here); replace it with --force, '
        "or give another --out"]
    seed = aimdlab("run", scenario, "--out", out, "--no-figure", "--set", "duration=20s", "--seed", "9")
    assert seed.returncode == 1 and "(seed: 1 there, 9 here)" in seed.stderr
    assert (tmp_path / "u" / "summary.json").read_bytes() == before, "the previous run is untouched"
    same = aimdlab("run", scenario, "--out", out, "--no-figure", "--set", "duration=20s")
    assert same.returncode == 0, "the same scenario and seed is the same run again"
    forced = aimdlab("run", scenario, "--out", out, "--no-figure", "--set", "duration=10s", "--force")
    assert forced.returncode == 0 and json.loads((tmp_path / "u" / "summary.json").read_text())["duration_s"] == 10.0


SWEEP = '''
name = "tiny"
measures = ["bottleneck.utilization", "jain_index"]
seeds = 2
[scenario]
duration = "2s"
[scenario.topology.dumbbell]
bottleneck = { rate = "5Mbps", delay = "10ms", queue = { limit = "30pkt" } }
access = { rate = "50Mbps", delay = "1ms" }
[[scenario.flows]]
count = 2
start_jitter = "100ms"
[axes]
"flows[0].count" = [1, 2]
'''


def test_every_command_that_prints_results_prints_json_a_script_parses(tmp_path, examples_dir):
    run = json.loads(aimdlab("run", str(examples_dir / "utilization.toml"), "--out", str(tmp_path / "u"), "--set", "duration=20s",
                             "--json").stdout)
    assert run["command"] == "run" and run["figure"] == str(tmp_path / "u" / "overview.png")
    assert {"summary.json", "overview.png", "provenance.json"} <= set(run["files"])
    assert run["summary"]["flows"] == 4 and run["provenance"]["host"]

    (tmp_path / "tiny.toml").write_text(SWEEP)
    sweep = json.loads(aimdlab("sweep", str(tmp_path / "tiny.toml"), "--out", str(tmp_path / "s"), "--jobs", "1", "--json").stdout)
    assert sweep["runs"] == {"points": 2, "seeds": 2, "total": 4, "executed": 4, "reused": 0, "failed": 0}
    assert sweep["axes"] == ["flows[0].count"] and len(sweep["aggregate"]) == 2
    assert all(0 < row["bottleneck.utilization_mean"] <= 1 for row in sweep["aggregate"])
    assert sweep["provenance"]["command_line"].startswith("python -m aimdlab sweep ")

    report = json.loads(aimdlab("report", str(tmp_path / "s"), "--json").stdout)
    assert report == {"ok": True, "command": "report", "folder": str(tmp_path / "s"), "report": str(tmp_path / "s" / "report.html"), "kind": "sweep"}

    listed = json.loads(aimdlab("examples", "--json").stdout)
    assert any(e["file"] == "examples/utilization.toml" for e in listed["examples"])
    copied = json.loads(aimdlab("examples", "--copy", str(tmp_path / "ex"), "--json").stdout)
    assert len(copied["files"]) == len(listed["examples"]) and copied["copied_to"] == str(tmp_path / "ex")

    columns = json.loads(aimdlab("columns", "links", "--json").stdout)["columns"]
    assert any(c["table"] == "links" and c["column"] == "utilization" and c["description"] for c in columns)

    bad = tmp_path / "bad.toml"
    bad.write_text((examples_dir / "utilization.toml").read_text().replace("duration", "duraton", 1))
    checked = aimdlab("validate", str(examples_dir / "utilization.toml"), str(bad), "--json")
    assert checked.returncode == 1
    files = json.loads(checked.stdout)["files"]
    assert files[0]["valid"] and files[0]["memory_bytes"] > 0
    assert not files[1]["valid"] and "duraton" in files[1]["error"]


def test_quiet_prints_nothing_but_errors(tmp_path, examples_dir):
    (tmp_path / "tiny.toml").write_text(SWEEP)
    for args in (["-q", "run", str(examples_dir / "utilization.toml"), "--out", str(tmp_path / "u"), "--set", "duration=20s"],
                 ["sweep", str(tmp_path / "tiny.toml"), "--out", str(tmp_path / "s"), "--jobs", "2", "-q"],
                 ["report", str(tmp_path / "s"), "--quiet"]):
        done = aimdlab(*args)
        assert (done.returncode, done.stdout, done.stderr) == (0, "", ""), args
    assert (tmp_path / "u" / "overview.png").is_file() and (tmp_path / "s" / "report.html").is_file()
    failed = aimdlab("-q", "run", str(tmp_path / "missing.toml"))
    assert failed.returncode == 1 and failed.stdout == "" and "missing.toml" in failed.stderr


def test_progress_is_a_line_per_step_when_piped(tmp_path):
    (tmp_path / "tiny.toml").write_text(SWEEP)
    sweep = aimdlab("sweep", str(tmp_path / "tiny.toml"), "--out", str(tmp_path / "s"), "--jobs", "1")
    assert [line for line in sweep.stderr.splitlines() if "runs done" in line] == [
        f"  {i} of 4 runs done, 0 failed" for i in (1, 2, 3, 4)]
    report = aimdlab("report", str(tmp_path / "s"), "--run-figures")
    steps = [line.strip() for line in report.stderr.splitlines() if line.strip().startswith("run figures:")]
    assert steps == [f"run figures: {p} %" for p in (20, 50, 70, 100)], report.stderr


@pytest.mark.parametrize("args", [["run", "--json", "--help"], ["sweep", "--help"], ["report", "--help"], ["reproduce", "--help"],
                                  ["validate", "files", "--help"], ["examples", "--help"], ["columns", "--help"]])
def test_every_result_command_offers_json(args):
    assert "--json" in aimdlab(*args).stdout


def test_a_scenario_without_a_seed_runs_again_into_its_folder(tmp_path, examples_dir):
    """The seed a scenario does not give is the default (1), there and here: the same run."""
    out = str(tmp_path / "r")
    scenario = str(examples_dir / "red-ecn.toml")
    for _ in range(2):
        r = aimdlab("run", scenario, "--out", out, "--no-figure", "--set", "duration=12s")
        assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("args", [["run", "bad.toml", "--out", "o"], ["report", "nosuch"], ["columns", "nosuch"],
                                  ["reproduce", "nosuch-paper", "--out", "rp"], ["sweep", "nosuch.toml"]])
def test_a_failing_command_still_prints_one_json_object(tmp_path, args):
    # json_stdout_empty_on_error.sh: only `validate` printed JSON when it failed; a script read "".
    (tmp_path / "bad.toml").write_text('duration = "-1s"\n')
    r = aimdlab(*args, "--json", cwd=tmp_path)
    assert r.returncode in (1, 2)
    outcome = json.loads(r.stdout)
    assert outcome["ok"] is False and outcome["command"] == args[0] and outcome["exit_code"] == r.returncode
    assert outcome["error"] and outcome["error"].splitlines()[0] in r.stderr, "the same error as on standard error"
