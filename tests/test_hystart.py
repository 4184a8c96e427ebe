"""CUBIC's HyStart (Linux's hybrid slow start): slow start ends before the first loss."""

from __future__ import annotations

import math

import aimdlab
import pytest
from conftest import dumbbell, run_checked


def slow_start(hystart: bool, seed: int):
    """One CUBIC flow, 20 Mbit/s, 44 ms RTT, a BDP (106-packet) buffer, its first 3 s; the
    seed moves the packets' send jitter. Returns the drops and the first finite ssthresh."""
    sc = dumbbell(rate="20Mbps", delay="20ms", buffer="106pkt", duration="3s", sample_interval="10ms", tcp={"send_jitter": "1ms"}, flow={"cc": {"name": "cubic", "hystart": hystart}}, seed=seed)
    r = run_checked(sc)
    ssthresh = r.timeseries.to_pandas()["ssthresh_pkts"]
    finite = ssthresh[ssthresh.notna() & (ssthresh < 1e9)]
    return r.summary["bottleneck"]["drops"], (finite.iloc[0] if len(finite) else math.inf)


def test_hystart_leaves_slow_start_before_the_first_loss_in_most_seeds():
    with_hystart = [slow_start(True, seed) for seed in range(10)]
    without = [slow_start(False, seed) for seed in range(10)]
    # Without HyStart slow start overshoots the 212-packet pipe + buffer: hundreds of drops.
    assert all(drops > 100 for drops, _ in without)
    # With it, slow start ends by itself (ssthresh = cwnd, somewhere between the BDP and
    # BDP + buffer) and nothing is dropped in the first 3 s.
    clean = [(drops, ssthresh) for drops, ssthresh in with_hystart if drops == 0 and 106 <= ssthresh <= 212]
    assert len(clean) >= 8, with_hystart


def test_cubic_parameters_are_checked():
    with pytest.raises(aimdlab.ScenarioError, match=r"flows\[0\]\.cc\.beta: 1\.2 is outside \(0, 1\)"):
        aimdlab.validate(dumbbell(flow={"cc": {"name": "cubic", "beta": 1.2}}))
    with pytest.raises(aimdlab.ScenarioError, match=r"flows\[0\]\.cc\.hystart: .* is not valid; expected true or false"):
        aimdlab.validate(dumbbell(flow={"cc": {"name": "cubic", "hystart": "on"}}))
