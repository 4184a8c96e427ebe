"""The DCCP thesis's experiments as rebuilt in `aimdlab.papers.dccp_thesis`: its claims, as
facts the rebuilt set-ups must show."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import aimdlab
import numpy as np
import pytest
from aimdlab.papers import dccp_thesis as thesis

ROOT = Path(__file__).resolve().parent.parent


def test_every_experiment_is_a_valid_scenario():
    exps = thesis.experiments()
    assert {"4", "5-1", "5-2", "5-3", "6-1", "6-2", "6-3", "6-4", "6-5", "6-6", "ramp"} <= set(exps)
    for runs in exps.values():
        for sc in runs.values():
            aimdlab.validate(sc)


@pytest.mark.parametrize("delay", [thesis.SHORT_DELAY, thesis.LONG_DELAY])
def test_tcp_is_starved_by_cbr_over_udp_and_shares_with_ccid2(delay):
    udp = thesis.fair_share_ratio(aimdlab.run(thesis.friendliness("udp", delay, fully_utilised=True)))
    ccid2 = thesis.fair_share_ratio(aimdlab.run(thesis.friendliness("ccid2", delay, fully_utilised=True)))
    ccid3 = thesis.fair_share_ratio(aimdlab.run(thesis.friendliness("ccid3", delay, fully_utilised=True)))
    assert udp < 0.1, udp
    assert 0.5 <= ccid2 <= 2.0, ccid2
    assert np.isfinite(ccid3) and ccid3 > 0  # reported in the table, not a claim of the issue


def test_tw_ramps_up_sooner_and_smoother_than_tcp_like_on_the_300ms_link():
    runs = thesis.ramp_runs()
    t_tw, cv_tw = thesis.ramp(aimdlab.run(runs["tw"]), "tw")
    t_like, cv_like = thesis.ramp(aimdlab.run(runs["tcp-like"]), "tcp-like")
    assert t_tw < t_like, (t_tw, t_like)
    assert cv_tw < 0.5 * cv_like, (cv_tw, cv_like)


def test_the_experiment_script_lists_and_rejects_an_unknown_id():
    script = [sys.executable, "-m", "aimdlab.papers.dccp_thesis.run"]
    listed = subprocess.run([*script, "--list"], capture_output=True, text=True, check=True)
    assert listed.stdout.startswith("4: udp short not fully;")
    bad = subprocess.run([*script, "--only", "7-1"], capture_output=True, text=True)
    assert bad.returncode == 2 and "unknown experiment 7-1" in bad.stderr


def test_the_experiment_script_writes_tables_and_figures(tmp_path):
    subprocess.run([sys.executable, "-m", "aimdlab.papers.dccp_thesis.run", "--only", "4", "ramp", "--out", str(tmp_path), "--jobs", "2"],
                   capture_output=True, text=True, check=True)
    text = (tmp_path / "tables.md").read_text()
    assert "## Experiment 4" in text and "## Ramp-up on the 300 ms link" in text
    assert (tmp_path / "friendliness.png").stat().st_size > 10_000 and (tmp_path / "ramp.png").stat().st_size > 10_000
