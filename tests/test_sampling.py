"""`sampled_flows`: which flows the per-flow time series records. Sampling only observes: the
flow table and the summary are the same whatever is sampled."""

from __future__ import annotations

import json

import aimdlab
import pytest
from conftest import dumbbell


def _run(sampled):
    sc = dumbbell(flows=5, duration="10s", warmup="2s")
    if sampled is not None:
        sc["sampled_flows"] = sampled
    return aimdlab.run(sc)


def test_sampling_changes_only_the_time_series():
    full = _run(None)
    none = _run("none")
    some = _run([3, 0, 3])
    assert none.timeseries.num_rows == 0
    ts = full.timeseries.to_pandas()
    sub = some.timeseries.to_pandas()
    assert sorted(sub["flow"].unique()) == [0, 3]
    expected = ts[ts["flow"].isin([0, 3])].reset_index(drop=True)
    assert sub.reset_index(drop=True).equals(expected)
    for r in (none, some):
        assert json.dumps(r.summary, sort_keys=True) == json.dumps(full.summary, sort_keys=True)
        for table in ("flows", "links", "link_timeseries"):  # (pandas: NaN equals NaN)
            assert getattr(r, table).to_pandas().equals(getattr(full, table).to_pandas()), table


def test_unsampled_flows_cost_no_time_series_memory():
    sc = dumbbell(flows=1000, duration="100s", sample_interval="10ms")
    est = {p[0]: p[2] for p in aimdlab._core.memory_estimate(json.dumps(sc))}
    sc["sampled_flows"] = "none"
    est_none = {p[0]: p[2] for p in aimdlab._core.memory_estimate(json.dumps(sc))}
    assert est["time series"] > 1e9 and est_none["time series"] < est["time series"] / 1000


@pytest.mark.parametrize("value,expected", [
    ("some", 'sampled_flows: "some" is not accepted; expected "all", "none" or a list of flow indices'),
    ([0, 5], "sampled_flows[1]: 5 is not a flow; expected an index below 5 (the run has 5 flows)"),
    ([-1], "sampled_flows"),
])
def test_bad_sampled_flows_are_named(value, expected):
    sc = dumbbell(flows=5)
    sc["sampled_flows"] = value
    with pytest.raises(aimdlab.ScenarioError) as e:
        aimdlab.validate(sc)
    assert str(e.value).startswith(expected), str(e.value)
