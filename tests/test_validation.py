"""`aimdlab validate gaimd`: GAIMD's formula against packet-level runs (gaimd.txt §2.4), one
implementation with the reproduction (the sweeps experiments/gaimd/accuracy*.toml)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from aimdlab.cli import main
from aimdlab.models import gaimd as model
from aimdlab.papers.gaimd import accuracy as v
from aimdlab.runner import run
from click.testing import CliRunner


def point_of(background: str, **values):
    """The quick sweep's scenario at the axis values given (the first value of the others)."""
    exp = v.experiment(background, quick=True)
    chosen = [values.get(key, vals[0]) for key, vals in exp.axes.items()]
    return dict(exp.scenario_at(chosen), seed=1)


@pytest.mark.parametrize("mss", ["1000B", "500B"])
def test_the_measure_is_eq2_from_the_gaimd_groups_mean_loss_rate_rtt_and_t0(mss):
    """The measured rate is in packets per second, whatever the segment size (it was once
    taken from the rate in bits over a fixed 1040-byte packet: 500-byte segments then doubled
    the ratio)."""
    scenario = point_of("onoff", **{"flows[0].cc.beta": 0.875, "flows[0].cc.alpha": 0.5, "flows[2].count": 40})
    scenario["tcp"]["mss"] = mss
    result = run(scenario)
    g = result.flows.to_pandas().query("group_name == 'gaimd'")
    p, rtt_s, t0_s = g["loss_event_rate"].mean(), g["rtt_mean_ms"].mean() / 1e3, g["rto_first_mean_ms"].mean() / 1e3
    measured = g["data_pkts_sent"].mean() / (result.summary["duration_s"] - result.summary["warmup_s"])
    assert 0.005 < p < 0.1, "40 ON/OFF sources make a few per cent of loss"
    assert v.eq2_ratio(result) == pytest.approx(model.sending_rate(0.5, 0.875, p, rtt_s, t0_s) / measured, rel=1e-12)
    # The comparison TCP flows' accuracy (Fig. 6-7 draw it beside GAIMD's): TCP is GAIMD(1, 1/2).
    r = result.flows.to_pandas().query("group_name == 'reno'")
    tcp_measured = r["data_pkts_sent"].mean() / (result.summary["duration_s"] - result.summary["warmup_s"])
    tcp_predicted = model.sending_rate(1.0, 0.5, r["loss_event_rate"].mean(), r["rtt_mean_ms"].mean() / 1e3, r["rto_first_mean_ms"].mean() / 1e3)
    assert v.eq2_ratio_tcp(result) == pytest.approx(tcp_predicted / tcp_measured, rel=1e-12)
    per_flow = v.per_flow_accuracy(result)
    assert len(per_flow) == 16 and per_flow["loss_rate"].between(0.001, 0.2).all()


def test_window_reductions_per_packet_are_a_lower_bound_of_the_links_loss_rate():
    """Window reductions / packets sent counts one indication for several losses in a window
    (§2.4.1), so on a link that drops 10 % of data packets it is below 10 %."""
    result = run(point_of("random-loss", **{"topology.dumbbell.bottleneck.loss.rate": 0.1}))
    p = v.prediction(result, 0.4, 0.5)["loss_rate"]
    assert 0.04 < p < 0.10, p


def test_a_red_bottleneck_spreads_the_losses():
    """Fig. 5: RED drops early and at random, so the GAIMD flows see more loss indications
    than on drop-tail, where losses come in bursts."""
    queues = dict(v.experiment("onoff", quick=True).axes["name, topology.dumbbell.bottleneck.queue"])
    rates = {name: v.prediction(run(point_of("onoff", **{"flows[2].count": 40, "name, topology.dumbbell.bottleneck.queue": [name, q]})),
                                0.4, 0.5)["loss_rate"] for name, q in queues.items()}
    assert rates["RED"] > rates["drop-tail"], rates


def test_validate_gaimd_runs_the_reproductions_sweep_and_writes_table_and_figure(tmp_path):
    args = ["validate", "gaimd", "--quick", "--background", "random-loss", "--jobs", "2", "--out", str(tmp_path)]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    table = pd.read_csv(tmp_path / "gaimd-validation.csv")
    assert len(table) == 3 * 2 * 2  # β × α × loss probability of the quick sweep
    assert set(table["beta"]) == {0.5, 0.75, 0.875} and set(table["level"]) == {0.02, 0.1}
    assert np.isfinite(table["ratio"]).all()
    assert (tmp_path / "catalog.parquet").exists(), "the sweep's store, which the reproduction reads too"
    assert (tmp_path / "gaimd-accuracy.png").stat().st_size > 10_000
    assert "points within 0.8-1.25" in r.output
    again = CliRunner().invoke(main, [*args, "--json"])
    assert again.exit_code == 0, again.output
    out = json.loads(again.stdout)
    assert len(out["rows"]) == 12 and out["sweep"].endswith("accuracy-random-loss.toml")
    assert pd.read_csv(tmp_path / "gaimd-validation.csv").equals(table), "resumed from the store: the same table"


def test_the_table_names_each_points_queue_from_the_linked_axis():
    key = "name, topology.dumbbell.bottleneck.queue"
    ratio = "aimdlab.papers.gaimd.accuracy:eq2_ratio"
    aggregate = pd.DataFrame({"flows[0].cc.beta": [0.5, 0.5], "flows[0].cc.alpha": [0.4, 0.4], "flows[2].count": [10, 10],
                              key: ['["drop-tail", {"kind": "droptail"}]', '["RED", {"kind": "red"}]'],
                              "groups.gaimd.loss_event_rate.mean_mean": [0.02, 0.03], f"{ratio}_mean": [1.1, 1.2],
                              f"{ratio}_ci95_low": [1.0, 1.1], f"{ratio}_ci95_high": [1.2, 1.3], "runs_ok": [5, 5]})
    t = v.table(aggregate, "onoff")
    assert list(t["queue"]) == ["drop-tail", "RED"] and list(t["level"]) == [10.0, 10.0]


def test_validate_still_checks_scenario_files(examples_dir, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('duration = "10s"\n[topology.dumbbell]\nbottleneck = { rate = "10Mbsp", delay = "1ms" }\n[[flows]]\n')
    r = CliRunner().invoke(main, ["validate", str(examples_dir / "utilization.toml"), str(bad)])
    assert r.exit_code == 1
    assert "ok      " in r.output and "10Mbsp" in r.output
