"""Names from scenarios, experiments and paper definitions are text, never markup or paths:
a `$` in a name is drawn as a dollar sign, not parsed as a formula (the reproducers of
shared/repro/2026-11-26 kept here as tests)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import aimdlab
from conftest import dumbbell


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "aimdlab.cli", *args], capture_output=True, text=True, cwd=cwd, timeout=600)


def test_a_name_with_dollar_signs_is_drawn_as_text(tmp_path):
    # mathtext_name_figure_crash.toml: the scenario's and a group's name in the overview figure.
    (tmp_path / "s.toml").write_text(
        "name = 'cost $\\foo$'\nduration = \"1s\"\n[topology.dumbbell]\n"
        "bottleneck = { rate = \"10Mbps\", delay = \"10ms\" }\naccess = { rate = \"100Mbps\", delay = \"1ms\" }\n"
        "[[flows]]\ncount = 2\nname = '$\\bar{x'\n")
    out = _cli("run", "s.toml", "--out", "r", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "r" / "overview.png").stat().st_size > 0


def test_a_sweep_axis_value_with_dollar_signs_reaches_the_report(tmp_path):
    (tmp_path / "e.toml").write_text(
        "name = \"e\"\n[scenario]\nduration = \"0.5s\"\n"
        "topology = { dumbbell = { bottleneck = { rate = \"5Mbps\", delay = \"5ms\" }, access = { rate = \"50Mbps\", delay = \"1ms\" } } }\n"
        "flows = [{ count = 1 }]\n[axes]\nname = ['a $\\x$', 'b $$']\n")
    out = _cli("sweep", "e.toml", "--out", "s", "--jobs", "1", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    report = _cli("report", "s", cwd=tmp_path)
    assert report.returncode == 0, report.stderr


def test_the_overview_of_a_dollar_name_is_drawn_in_python_too(tmp_path):
    sc = dumbbell(rate="10Mbps", delay="10ms", duration="1s")
    sc["name"] = "$\\undefined{$"
    from aimdlab.plots import overview, save_figure

    assert save_figure(overview(aimdlab.run(sc)), tmp_path / "o.png").stat().st_size > 0
