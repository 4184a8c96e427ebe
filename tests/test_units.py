"""`aimdlab.units` reads a quantity exactly as a run does: the engine's parser, its numbers
and its one-line errors; sweeps' ranges and reports' axes use it."""

from __future__ import annotations

import aimdlab
import pytest
from aimdlab import units
from aimdlab.sweep.experiment import parse_range
from conftest import dumbbell


@pytest.mark.parametrize("text, seconds", [("30ms", 0.03), ("1.5s", 1.5), ("250us", 250e-6), ("0s", 0.0), ("7 s", 7.0)])
def test_a_duration_is_what_a_run_reads(text, seconds):
    assert units.duration_s(text) == pytest.approx(seconds, abs=1e-15)
    if seconds > 0.01:
        assert aimdlab.run(dumbbell(duration=text, warmup="0s")).summary["duration_s"] == pytest.approx(seconds)


def test_rates_sizes_and_limits():
    assert units.rate_bps("1.5Gbps") == 1_500_000_000 and units.rate_bps("64Kbps") == 64_000
    assert units.size_bytes("4MiB") == 4 << 20 and units.size_bytes("64KB") == 64_000
    assert units.limit("100pkt") == (100, "pkt") and units.limit("150KB") == (150_000, "B")
    assert units.format_rate(8e9) == "8Gbps" and units.format_rate(1.5e6) == "1.5Mbps"


@pytest.mark.parametrize("field, value, parse", [("duration", "5mbit", units.duration_s), ("duration", "-1s", units.duration_s),
                                                 ("topology.dumbbell.bottleneck.rate", "5mbit", units.rate_bps),
                                                 ("topology.dumbbell.bottleneck.rate", "0Mbps", units.rate_bps)])
def test_errors_are_the_scenarios_own(field, value, parse):
    with pytest.raises(aimdlab.ScenarioError) as from_units:
        parse(value, field)
    sc = aimdlab.apply_overrides(dumbbell(), [f'{field}="{value}"'])
    with pytest.raises(aimdlab.ScenarioError) as from_engine:
        aimdlab.validate(sc)
    assert str(from_units.value) == str(from_engine.value)


def test_the_quantity_grammar_is_the_engines():
    assert units.quantity("12.5ms") == (12.5, "ms") and units.quantity("7") == (7.0, "") and units.quantity("-2s") == (-2.0, "s")
    for not_one in (".5s", "5.s", "+5s", " 5s", "5ms ", "x", 5):
        assert units.quantity(not_one) is None, not_one
    assert parse_range("10ms..30ms step 10ms", "axes.x") == ["10ms", "20ms", "30ms"]
    with pytest.raises(aimdlab.ScenarioError, match=r'axes.x: "\+5ms" in "\+5ms..10ms step 1ms" is not a number or a quantity'):
        parse_range("+5ms..10ms step 1ms", "axes.x")


def test_parquet_files_carry_each_columns_unit_and_description(tmp_path):
    import pyarrow.parquet as pq
    from aimdlab.sweep import parse_experiment, run_sweep

    aimdlab.run(dumbbell(duration="2s")).save(tmp_path / "r")
    flows = pq.read_schema(tmp_path / "r" / "flows.parquet")
    assert flows.field("goodput_bps").metadata == {b"unit": b"bit/s", b"description": b"payload delivered for the first time, per second of the window"}
    assert pq.read_schema(tmp_path / "r" / "links.parquet").field("queue_mean_pkts").metadata[b"unit"] == b"packets"
    exp = parse_experiment({"scenario": dumbbell(duration="2s"), "seeds": 2, "measures": ["bottleneck.utilization", "flows.goodput_bps.mean"],
                            "axes": {"topology.dumbbell.bottleneck.delay": ["10ms", "20ms"]}}, tmp_path, "u")
    run_sweep(exp, tmp_path / "s", jobs=1)
    agg = pq.read_schema(tmp_path / "s" / "aggregate.parquet")
    assert agg.field("topology.dumbbell.bottleneck.delay").metadata[b"unit"] == b"ms"
    assert agg.field("bottleneck.utilization_ci95_high").metadata[b"unit"] == b"1"
    assert agg.field("flows.goodput_bps.mean_mean").metadata[b"unit"] == b"bit/s"
    catalog = pq.read_schema(tmp_path / "s" / "catalog.parquet")
    assert catalog.field("engine_wall_s").metadata[b"unit"] == b"s" and catalog.field("flows.goodput_bps.mean").metadata[b"unit"] == b"bit/s"
