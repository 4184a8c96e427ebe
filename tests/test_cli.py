"""The `aimdlab` command as a new user meets it."""

from __future__ import annotations

import json

from aimdlab.cli import main
from click.testing import CliRunner


def test_help_shows_examples():
    r = CliRunner().invoke(main, ["--help"])
    assert r.exit_code == 0
    assert "aimdlab run examples/utilization.toml" in r.output
    r = CliRunner().invoke(main, ["run", "--help"])
    assert r.exit_code == 0 and "--set" in r.output and "Examples" in r.output


def test_run_writes_results_and_a_figure(tmp_path, examples_dir):
    out = tmp_path / "u"
    r = CliRunner().invoke(main, ["run", str(examples_dir / "utilization.toml"), "--out", str(out), "--set", "duration=20s"])
    assert r.exit_code == 0, r.output
    assert "utilization" in r.output and "Jain index" in r.output
    for name in ["summary.json", "scenario.json", "provenance.json", "flows.parquet", "links.parquet", "timeseries.parquet", "link_timeseries.parquet"]:
        assert (out / name).stat().st_size > 0, name
    png = (out / "overview.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000
    summary = json.loads((out / "summary.json").read_text())
    assert summary["duration_s"] == 20.0 and summary["flows"] == 4


def test_json_output_has_the_summary_the_files_and_the_provenance(tmp_path, examples_dir):
    r = CliRunner().invoke(main, ["run", str(examples_dir / "long-delay.toml"), "--out", str(tmp_path), "--json",
                                  "--no-figure", "--seed", "3", "--set", "duration=40s"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    saved = json.loads((tmp_path / "summary.json").read_text())
    saved.pop("provenance")
    assert out["summary"] == saved and out["summary"]["seed"] == 3
    assert out["out_dir"] == str(tmp_path) and out["figure"] is None and "flows.parquet" in out["files"]
    assert out["provenance"]["seed"] == 3 and out["provenance"]["command_line"]
    assert not (tmp_path / "overview.png").exists()


def test_a_typo_in_a_scenario_file_is_reported_with_its_field(tmp_path, examples_dir):
    bad = tmp_path / "typo.toml"
    bad.write_text((examples_dir / "utilization.toml").read_text().replace('delay = "30ms", queue', 'dealy = "30ms", queue', 1))
    r = CliRunner().invoke(main, ["run", str(bad), "--out", str(tmp_path / "out")])
    assert r.exit_code != 0
    assert "typo.toml: topology.dumbbell.bottleneck.dealy: is not a parameter of the bottleneck table; it takes rate, delay" in r.output
    assert "(did you mean delay?)" in r.output
    assert not (tmp_path / "out").exists(), "nothing is written for an invalid scenario"


def test_missing_file_and_bad_override(tmp_path, examples_dir):
    r = CliRunner().invoke(main, ["run", str(tmp_path / "nope.toml")])
    assert r.exit_code != 0 and "scenario file not found" in r.output
    r = CliRunner().invoke(main, ["run", str(examples_dir / "utilization.toml"), "--set", "flows[0].count=zero"])
    assert r.exit_code != 0 and "flows[0].count" in r.output


def test_validate_and_schema(examples_dir):
    r = CliRunner().invoke(main, ["validate", str(examples_dir / "utilization.toml"), str(examples_dir / "long-delay.toml")])
    assert r.exit_code == 0 and r.output.count("ok") == 2
    r = CliRunner().invoke(main, ["schema"])
    schema = json.loads(r.output)
    assert "duration" in schema["required"] and "topology" in schema["properties"]


def test_piped_output_keeps_every_digit(tmp_path, examples_dir):
    # In a pipeline (stdout not a terminal) the tables used 80 columns and cut numbers: "342…".
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "aimdlab", "run", str(examples_dir / "utilization.toml"), "--out", str(tmp_path / "u"),
                          "--no-figure", "--set", "duration=20s"], capture_output=True, text=True, timeout=300)
    columns = subprocess.run([sys.executable, "-m", "aimdlab", "columns", "flows"], capture_output=True, text=True, timeout=300)
    sweep = subprocess.run([sys.executable, "-m", "aimdlab", "sweep", str(examples_dir / "sweeps" / "utilization-flows.toml"), "--quick",
                            "--out", str(tmp_path / "s")], capture_output=True, text=True, timeout=600)
    for out in (run, columns, sweep):
        assert out.returncode == 0, out.stderr
        assert "…" not in out.stdout, out.stdout
    flows = json.loads((tmp_path / "u" / "summary.json").read_text())
    assert f"{flows['goodput_total_bps'] / 1e6:.3f}" in run.stdout  # the full figure is there
