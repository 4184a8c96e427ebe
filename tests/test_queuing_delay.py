"""The bottleneck's queuing delay over time: the link series' `queuing_delay_ms` (mean wait
of the packets sent in each sample interval) and New-AIMD's per-RTT average built on it
(`aimdlab.series.queuing_delay_per_rtt`)."""

from __future__ import annotations

import aimdlab
import numpy as np
import pytest
from aimdlab.series import queuing_delay_per_rtt
from conftest import dumbbell


@pytest.fixture(scope="module")
def run():
    # 4 Reno flows on 10 Mbit/s, 20 ms, a 50-packet DropTail buffer: the queue fills and drains.
    return aimdlab.run(dumbbell(flows=4, duration="60s", warmup="5s", sample_interval="10ms"))


def test_the_series_adds_up_to_the_run_mean_and_obeys_littles_law(run):
    lt = run.link_timeseries.to_pandas()
    w = lt[lt["time_s"] > 5.0]
    waited_ms = (w["tx_pkts"] * w["queuing_delay_ms"].fillna(0.0)).sum()
    b = run.summary["bottleneck"]
    # The same packets as the summary's mean (every packet started after the warm-up).
    assert waited_ms / w["tx_pkts"].sum() == pytest.approx(b["qdelay_mean_ms"], rel=1e-9)
    # Little's law: the time-averaged queue equals the total waiting time over the window.
    assert waited_ms / 1000.0 / 55.0 == pytest.approx(b["queue_mean_pkts"], rel=0.01)
    # An interval with no packet sent has no mean delay; one with packets has a finite one.
    assert np.isnan(lt.loc[lt["tx_pkts"] == 0, "queuing_delay_ms"]).all()
    assert np.isfinite(lt.loc[lt["tx_pkts"] > 0, "queuing_delay_ms"]).all()


def test_per_rtt_rounds_last_one_rtt_of_propagation_plus_queuing(run):
    rounds = queuing_delay_per_rtt(run)
    assert len(rounds) > 100
    # Rounds tile the run without gaps.
    assert np.allclose(rounds["start_s"].to_numpy()[1:], (rounds["start_s"] + rounds["rtt_ms"] / 1000.0).to_numpy()[:-1])
    # No packet waits longer than a full buffer takes to drain: 50 x 1500 B at 10 Mbit/s = 60 ms.
    assert rounds["queuing_delay_ms"].max() <= 60.0 + 1.3
    # A round is the senders' RTT: 2 x (1 + 20 + 1) ms of propagation plus the queuing delay,
    # so what is left once the queuing delay is taken off is the propagation RTT (44 ms plus
    # a few serialization times; the median, since srtt lags the queue by a few rounds).
    base = (rounds["rtt_ms"] - rounds["queuing_delay_ms"]).median()
    assert 44.0 <= base <= 44.0 * 1.1, base
    # Weighted by the packets sent, the rounds average to the run's mean.
    lt = run.link_timeseries.to_pandas()
    total = (lt["tx_pkts"] * lt["queuing_delay_ms"].fillna(0.0)).sum() / lt["tx_pkts"].sum()
    r = rounds.dropna()
    assert (r["tx_pkts"] * r["queuing_delay_ms"]).sum() / r["tx_pkts"].sum() == pytest.approx(total, rel=1e-9)


def test_per_rtt_needs_a_sampled_flow_and_a_known_link(run):
    with pytest.raises(ValueError, match="link: 7 was not sampled"):
        queuing_delay_per_rtt(run, link=7)
    sc = dumbbell(flows=2, duration="5s")
    sc["sampled_flows"] = "none"
    with pytest.raises(ValueError, match="no flow was sampled"):
        queuing_delay_per_rtt(aimdlab.run(sc))
