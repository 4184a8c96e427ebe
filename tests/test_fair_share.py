"""Each flow's max-min fair share (the flows table's `fair_share_bps`) follows from the routes
and the link rates: rate / N on a dumbbell, half a hop for every flow of a parking lot of equal
hops, and what a slow access link leaves goes to the others."""

from __future__ import annotations

import aimdlab
import pytest
from aimdlab.package_data import package_folder
from conftest import dumbbell


def shares(result):
    return dict(zip(result.flows.column("group_name").to_pylist(), result.flows.column("fair_share_bps").to_pylist()))


def test_a_dumbbell_shares_its_bottleneck_rate_equally():
    r = aimdlab.run(dumbbell(flows=4, rate="10Mbps", duration="2s"))
    assert r.flows.column("fair_share_bps").to_pylist() == [2.5e6] * 4


def test_every_flow_of_the_parking_lot_gets_half_a_hop():
    r = aimdlab.run(aimdlab.load(package_folder("examples") / "parking-lot.toml"))
    assert shares(r) == {"long": 5e6, "cross1": 5e6, "cross2": 5e6, "cross3": 5e6}


def test_what_a_slow_access_link_leaves_goes_to_the_other_flows():
    links = [{"from": "a", "to": "r1", "rate": "2Mbps", "delay": "1ms"},
             {"from": "b", "to": "r1", "rate": "100Mbps", "delay": "1ms"},
             {"from": "c", "to": "r1", "rate": "100Mbps", "delay": "1ms"},
             {"from": "r1", "to": "r2", "rate": "10Mbps", "delay": "10ms"},
             {"from": "r2", "to": "d", "rate": "100Mbps", "delay": "1ms"}]
    sc = {"duration": "2s", "topology": {"explicit": {"nodes": ["a", "b", "c", "r1", "r2", "d"], "links": links}},
          "flows": [{"name": n, "src": n, "dst": "d"} for n in ("a", "b", "c")]}
    assert shares(aimdlab.run(sc)) == {"a": 2e6, "b": pytest.approx(4e6), "c": pytest.approx(4e6)}
