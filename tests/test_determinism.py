"""Same scenario and seed: identical results, byte for byte. Another seed: other numbers."""

from __future__ import annotations

from conftest import dumbbell, run_checked


def scenario():
    return dumbbell(flows=4, buffer="30pkt", duration="20s", warmup="2s", flow={"start_jitter": "2s"})


def test_same_seed_gives_byte_identical_results(tmp_path):
    a = run_checked(scenario(), seed=7).save(tmp_path / "a")
    b = run_checked(scenario(), seed=7).save(tmp_path / "b")
    for name in ["summary.json", "flows.parquet", "links.parquet", "timeseries.parquet", "link_timeseries.parquet"]:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_another_seed_changes_per_flow_numbers_when_starts_are_random():
    a = run_checked(scenario(), seed=1).flows.to_pandas()
    b = run_checked(scenario(), seed=2).flows.to_pandas()
    assert list(a["start_s"]) != list(b["start_s"])
    assert list(a["goodput_bps"]) != list(b["goodput_bps"])


def test_adding_a_flow_does_not_change_the_start_draws_of_the_others():
    three = run_checked(dumbbell(flows=3, flow={"start_jitter": "1s"}, duration="2s"), seed=5).flows.to_pandas()
    four = run_checked(dumbbell(flows=4, flow={"start_jitter": "1s"}, duration="2s"), seed=5).flows.to_pandas()
    assert list(three["start_s"]) == list(four["start_s"][:3])


def test_scenario_seed_is_used_unless_overridden():
    sc = scenario()
    sc["seed"] = 11
    assert run_checked(sc).summary["seed"] == 11
    assert run_checked(sc, seed=3).summary["seed"] == 3
