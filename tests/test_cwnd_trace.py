"""The congestion-window trace (`cwnd_trace`): one row per change of cwnd or ssthresh with its
cause, for the flows a scenario names."""

import re

import aimdlab
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from aimdlab import ScenarioError
from conftest import dumbbell


def _traced(sc, flows="all"):
    return aimdlab.run({**sc, "cwnd_trace": flows})


def test_the_trace_agrees_with_the_sampled_window_and_the_sender_counters():
    # Two Reno flows, a 20-packet buffer: slow start, fast retransmits, recoveries, timeouts.
    r = _traced(dumbbell(flows=2, buffer="20pkt", duration="20s", sample_interval="50ms"), [1])
    tr = r.cwnd_trace.to_pandas()
    assert set(tr["flow"]) == {1}
    assert list(tr["time_s"]) == sorted(tr["time_s"])
    # Replaying the trace gives the window the time series sampled at every sample time.
    ts = r.timeseries.to_pandas()
    ts = ts[ts["flow"] == 1]
    at = np.searchsorted(tr["time_s"].to_numpy(), ts["time_s"].to_numpy(), side="right") - 1
    sampled = ts["cwnd_pkts"].to_numpy()[at >= 0]
    replayed = tr["cwnd_pkts"].to_numpy()[at[at >= 0]]
    assert len(sampled) > 300 and np.array_equal(sampled, replayed)
    # Every fast retransmit of a window this size cuts it: one `loss` row each.
    f = r.flows.to_pandas().set_index("flow").loc[1]
    causes = tr["cause"].value_counts()
    assert f["fast_retransmits"] > 5 and causes.get("loss", 0) == f["fast_retransmits"], (causes, f["fast_retransmits"])
    # (Reno's window is already ssthresh when a recovery ends: no `recovery_exit` rows.)
    assert causes.get("slow_start", 0) > 10 and causes.get("avoidance", 0) > 100
    # A loss row halves the window it found (Reno, β = 1/2) and sets ssthresh to it.
    before = tr["cwnd_pkts"].shift(1)
    loss = tr["cause"] == "loss"
    assert np.allclose(tr.loc[loss, "ssthresh_pkts"], np.maximum(before[loss] / 2, 2.0))
    # Slow start on an ACK per packet grows by one segment a row.
    ss = (tr["cause"] == "slow_start") & (before < tr["ssthresh_pkts"])
    assert np.allclose((tr["cwnd_pkts"] - before)[ss], 1.0)


def test_ecn_reductions_are_traced_as_ecn():
    sc = dumbbell(flows=2, duration="10s", tcp={"ecn": True})
    sc["topology"]["dumbbell"]["bottleneck"]["queue"] = {"kind": "red", "limit": "100pkt", "min_th": "5pkt", "max_th": "15pkt", "ecn": True}
    r = _traced(sc)
    tr = r.cwnd_trace.to_pandas()
    f = r.flows.to_pandas()
    for flow in (0, 1):
        mine = tr[tr["flow"] == flow]
        assert f.loc[flow, "ecn_reductions"] > 3
        assert (mine["cause"] == "ecn").sum() == f.loc[flow, "ecn_reductions"]


def test_dccp_ccid2_is_traced_and_flows_without_a_window_record_nothing():
    sc = dumbbell(duration="5s", buffer="20pkt")
    sc["flows"] = [
        {"count": 1, "transport": "dccp", "dccp": {"ccid": 2}},
        {"count": 1, "transport": "dccp", "dccp": {"ccid": 3}},
        {"count": 1, "app": {"kind": "onoff", "rate": "1Mbps", "on": "1s", "off": "1s"}},
    ]
    tr = _traced(sc).cwnd_trace.to_pandas()
    assert set(tr["flow"]) == {0}
    assert {"slow_start", "loss"} <= set(tr["cause"])


def test_the_trace_is_saved_with_its_causes_as_categories_and_only_when_asked(tmp_path):
    r = _traced(dumbbell(duration="2s"), [0])
    assert pa.types.is_dictionary(r.cwnd_trace.schema.field("cause").type)
    r.save(tmp_path / "a")
    saved = pq.read_table(tmp_path / "a" / "cwnd_trace.parquet")
    assert saved.equals(r.cwnd_trace)
    plain = aimdlab.run(dumbbell(duration="2s"))
    assert plain.cwnd_trace.num_rows == 0
    plain.save(tmp_path / "b")
    assert not (tmp_path / "b" / "cwnd_trace.parquet").exists()


@pytest.mark.parametrize("value,field", [([3], "cwnd_trace[0]"), ("some", "cwnd_trace")])
def test_a_bad_choice_of_flows_names_the_field(value, field):
    with pytest.raises(ScenarioError, match="^" + re.escape(field) + ": "):
        aimdlab.validate({**dumbbell(flows=2), "cwnd_trace": value})


def test_a_trace_too_big_for_the_memory_limit_is_refused():
    sc = {**dumbbell(flows=10, rate="1Gbps", access_rate="1Gbps", duration="2000s"), "cwnd_trace": "all"}
    with pytest.raises(ScenarioError, match="^cwnd_trace: this run needs about"):
        aimdlab.validate({**sc, "sampled_flows": "none"}, max_memory="4GB")


def test_the_overview_draws_the_traced_window_and_marks_its_cuts_by_cause():
    from aimdlab.plots import overview

    sc = dumbbell(flows=2, duration="10s", tcp={"ecn": True})
    sc["topology"]["dumbbell"]["bottleneck"]["queue"] = {"kind": "red", "limit": "100pkt", "min_th": "5pkt", "max_th": "15pkt", "ecn": True}
    r = _traced(sc, [0])
    n_ecn = int((r.cwnd_trace.to_pandas()["cause"] == "ecn").sum())
    labels = overview(r).axes[0].get_legend_handles_labels()[1]
    assert "exact cwnd of flow 0" in labels and f"ecn cut ({n_ecn})" in labels, labels
