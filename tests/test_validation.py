"""`aimdlab validate gaimd`: GAIMD's formula against packet-level runs (gaimd.txt §2.4)."""

from __future__ import annotations

import pandas as pd
import pytest
from aimdlab.cli import main
from aimdlab.validation import gaimd as v
from click.testing import CliRunner


@pytest.mark.parametrize("alpha,beta", [(1.0, 0.5), (0.2, 0.875)])
def test_formula_predicts_the_sending_rate_under_the_papers_background_traffic(alpha, beta):
    """16 GAIMD + 16 Reno flows and 40 Pareto ON/OFF sources on 15 Mbps / 50 ms DropTail: a
    few per cent loss, where the paper finds eq. (2) accurate within 20 %."""
    row = v.run([v.Point(alpha, beta, "onoff", 40)], jobs=1).iloc[0]
    assert 0.01 < row["loss_rate"] < 0.05, row
    assert 0.8 < row["ratio"] < 1.25, row
    assert row["t0_s"] >= 1.0  # the first RTO of a sequence is at least the 1 s floor


def test_measured_loss_rate_is_a_lower_bound_of_the_links_loss_rate():
    """Window reductions / packets sent counts one indication for several losses in a
    window (§2.4.1), so on a link that drops 10 % of data packets it is below 10 %."""
    row = v.run([v.Point(1.0, 0.5, "loss", 0.10)], jobs=1).iloc[0]
    assert 0.04 < row["loss_rate"] < 0.10, row


def test_a_red_bottleneck_spreads_the_losses_and_the_formula_predicts_less():
    """Fig. 5: the same runs on a RED link. RED drops early and at random, so the GAIMD flows
    see more loss indications than on drop-tail (bursts become single losses), and eq. (2),
    which assumes losses within a round are correlated, predicts a lower rate from the higher
    indication rate: its ratio to the measured rate falls below drop-tail's."""
    red, tail = v.run([v.Point(0.2, 0.875, "onoff", 40, queue="red"), v.Point(0.2, 0.875, "onoff", 40)], jobs=2).to_dict("records")
    assert red["queue"] == "red" and v.scenario(v.Point(0.2, 0.875, "onoff", 40, queue="red"))["topology"]["dumbbell"]["bottleneck"]["queue"]["kind"] == "red"
    assert red["loss_rate"] > tail["loss_rate"], (red, tail)
    assert red["ratio"] < tail["ratio"], (red, tail)
    with pytest.raises(ValueError, match='queue: "wred" is not a queue'):
        v.scenario(v.Point(0.2, 0.875, "onoff", 40, queue="wred"))


def test_eq2_ratio_as_a_sweep_measure_is_the_validation_ratio():
    from aimdlab.runner import run

    pt = v.Point(0.4, 0.75, "onoff", 40)
    result = run(v.scenario(pt))
    assert v.eq2_ratio(result) == v.measure(pt, result)["ratio"]
    per_flow = v.per_flow_accuracy(result)
    assert len(per_flow) == 16 and per_flow["loss_rate"].between(0.005, 0.1).all()


def test_validate_gaimd_cli_writes_table_and_figure(tmp_path):
    r = CliRunner().invoke(main, ["validate", "gaimd", "--quick", "--mode", "loss", "--jobs", "2", "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    table = pd.read_csv(tmp_path / "gaimd-validation.csv")
    assert len(table) == 3 * 3 * 2  # β × α × loss levels
    assert set(table["beta"]) == {0.5, 0.75, 0.875}
    assert (tmp_path / "gaimd-accuracy.png").stat().st_size > 10_000
    assert "runs within 0.8-1.25" in r.output


def test_validate_still_checks_scenario_files(examples_dir, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('duration = "10s"\n[topology.dumbbell]\nbottleneck = { rate = "10Mbsp", delay = "1ms" }\n[[flows]]\n')
    r = CliRunner().invoke(main, ["validate", str(examples_dir / "utilization.toml"), str(bad)])
    assert r.exit_code == 1
    assert "ok      " in r.output and "10Mbsp" in r.output
