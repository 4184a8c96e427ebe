"""Shared helpers: a dumbbell scenario builder and the conservation check every run must pass."""

from __future__ import annotations

import collections
import json
import os
from typing import Any, Dict

import aimdlab
import pytest
from aimdlab.package_data import package_folder

CONTROLLER_NAMES = json.dumps(aimdlab.controllers())
"""The registered controllers as the engine's errors list them (`["reno", "newreno", ...]`):
a new controller changes no test's expected message."""
QUEUE_KINDS = json.dumps([v["properties"]["kind"]["enum"][0] for v in aimdlab.schema()["definitions"]["QueueSpec"]["anyOf"]
                          if "kind" in v.get("properties", {})])
"""The registered queue disciplines, likewise (`["droptail", "red", ...]`)."""


def dumbbell(
    *,
    rate: str = "10Mbps",
    delay: str = "20ms",
    buffer: str = "50pkt",
    access_rate: str = "100Mbps",
    access_delay: str = "1ms",
    flows: int = 1,
    duration: str = "30s",
    warmup: str = "0s",
    tcp: Dict[str, Any] | None = None,
    flow: Dict[str, Any] | None = None,
    sample_interval: str = "100ms",
    seed: int = 1,
) -> Dict[str, Any]:
    """A single-bottleneck dumbbell scenario dict with `flows` identical bulk Reno flows."""
    group: Dict[str, Any] = {"count": flows}  # cc defaults to reno (UDP flows have none)
    group.update(flow or {})
    return {
        "name": "test",
        "duration": duration,
        "warmup": warmup,
        "seed": seed,
        "sample_interval": sample_interval,
        "topology": {
            "dumbbell": {
                "bottleneck": {"rate": rate, "delay": delay, "queue": {"limit": buffer}},
                "access": {"rate": access_rate, "delay": access_delay, "queue": {"limit": "1000pkt"}},
            }
        },
        "tcp": {"mss": "1000B", **(tcp or {})},
        "flows": [group],
    }


def assert_conserved(result: aimdlab.Result) -> None:
    """Every packet a host sent was delivered, dropped, or is still in a queue or on a wire."""
    p = result.summary["packets"]
    assert p["sent"] == p["delivered"] + p["dropped"] + p["in_flight"], p


def run_checked(scenario: Dict[str, Any], seed: int | None = None) -> aimdlab.Result:
    """Runs a scenario and checks packet conservation (explicitly; the autouse fixture below
    checks every other run too)."""
    result = aimdlab.run(scenario, seed=seed)
    assert_conserved(result)
    return result


@pytest.fixture(autouse=True)
def every_run_conserves_packets(monkeypatch):
    """Wraps `aimdlab.run` for the whole suite (the CLI included) so that every run any test
    makes is checked for packet conservation."""
    real_run = aimdlab.run

    def checked_run(*args, **kwargs):
        result = real_run(*args, **kwargs)
        assert_conserved(result)
        return result

    monkeypatch.setattr(aimdlab, "run", checked_run)


def assert_refused(plan, scenario: Dict[str, Any], field: str, why: str) -> None:
    """`plan(scenario)` (a crosscheck peer's translation) refuses `scenario` in one line that
    starts with `field` and says `why`."""
    with pytest.raises(aimdlab.ScenarioError) as e:
        plan(scenario)
    assert str(e.value).startswith(f"{field}: ") and why in str(e.value), str(e.value)
    assert "\n" not in str(e.value)


def assert_wireless_backoffs_agree(peer: str, seeds: int) -> None:
    """MR-AIMD's wireless example (PER 0.3 on data; 200 s, so backoffs deepen over a run) in
    aimdlab and in `peer`: timeouts and retransmissions agree within crosscheck's bounds, and
    goodput, which the backoffs' lengths set, within a third either way."""
    from aimdlab.crosscheck import crosscheck

    sc = aimdlab.load(package_folder("examples") / "mr-aimd-wireless.toml")
    check = crosscheck(sc, peer=peer, seeds=seeds)
    rows = {r.figure: r for r in check.rows}
    assert rows["timeouts"].verdict == rows["retransmitted_pkts"].verdict == "agrees", check.to_dict()["figures"]
    ours, theirs = rows["goodput_total_bps"].stats("aimdlab")[0], rows["goodput_total_bps"].stats(peer)[0]
    assert 0.75 < ours / theirs < 1.33, (ours, theirs)


@pytest.fixture
def peer_files_in_tmp(tmp_path, monkeypatch):
    """The crosscheck peers' temporary folders (their default) go under the test's own folder."""
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))


@pytest.fixture
def examples_dir():

    return package_folder("examples")


def add_to_fuzz_report(tally: collections.Counter, examples: int) -> None:
    """Adds a fuzz module's outcomes to the file `AIMDLAB_FUZZ_REPORT` names (if any), to what
    another fuzz module of the same run wrote there."""
    report = os.environ.get("AIMDLAB_FUZZ_REPORT")
    if not report:
        return
    try:
        with open(report) as f:
            outcomes = collections.Counter(json.load(f).get("outcomes", {}))
    except (OSError, ValueError):
        outcomes = collections.Counter()
    outcomes.update(tally)
    with open(report, "w") as f:
        json.dump({"examples_per_test": examples, "outcomes": dict(sorted(outcomes.items()))}, f, indent=2)
