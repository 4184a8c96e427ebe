"""Property tests and the fuzz harness: random valid scenarios never crash and always
conserve packets; extreme ones (every field at the edges of what it accepts) complete, or
are refused naming a field, and never hang, panic or abort; random invalid ones always give
an error naming the field.

CI runs each test on `AIMDLAB_FUZZ_EXAMPLES` examples (default 60). A long run:

    AIMDLAB_FUZZ_EXAMPLES=7000 AIMDLAB_FUZZ_REPORT=fuzz.json python -m pytest tests/test_properties.py -p no:randomly

writes the tally of outcomes (completed runs, field-naming refusals, runs stopped at their
wall-clock budget with the simulated clock still moving) to `fuzz.json`.
"""

from __future__ import annotations

import collections
import copy
import datetime
import decimal
import os
import re
import time

import aimdlab
import numpy as np
import pytest
from conftest import add_to_fuzz_report, assert_conserved
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

EXAMPLES = int(os.environ.get("AIMDLAB_FUZZ_EXAMPLES", "60"))
TALLY: collections.Counter = collections.Counter()


def _kinds(definition: str) -> list:
    """The `kind` values of a scenario definition's variants, from the engine's schema (a new
    queue or application is fuzzed as soon as it is registered)."""
    variants = aimdlab.schema()["definitions"][definition]["anyOf"]
    return [v["properties"]["kind"]["enum"][0] for v in variants if "kind" in v.get("properties", {})]


QUEUE_KINDS = _kinds("QueueSpec")
APP_KINDS = [k for k in _kinds("AppSpec") if k != "trace"]  # (a trace needs a file of frame sizes: its own tests)
PROFILES = [v["enum"][0] for v in aimdlab.schema()["definitions"]["StackProfile"]["oneOf"]]
CONTROLLERS = [c for c in aimdlab.controllers() if c != "python"]  # (a Python controller is code: its own tests)

# An error message starts with the field it is about: `flows[0].tcp.min_rto: ...`.
FIELD = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\[\d+\])*(?:\.[A-Za-z_][A-Za-z0-9_]*(?:\[\d+\])*)*: ")


@pytest.fixture(scope="module", autouse=True)
def fuzz_report():
    yield
    add_to_fuzz_report(TALLY, EXAMPLES)


class _Budget(Exception):
    """A run reached its wall-clock budget (its simulated clock still moving)."""


def run_within(sc, seed, budget_s: float, kind: str):
    """Runs `sc`, stopping it after `budget_s` of wall time. Returns the result, or None when
    stopped (counted as slow, after checking that the simulated clock had moved). Any
    `ScenarioError` must name a field; an `EngineError` (a panic or a stalled clock) fails."""
    started = time.monotonic()
    reached = [0.0]

    def progress(now_s, total_s):
        reached[0] = now_s
        if time.monotonic() - started > budget_s:
            raise _Budget()

    try:
        r = aimdlab.run(sc, seed=seed, progress=progress, max_memory="1GB")
    except _Budget:
        assert reached[0] > 0.0, f"the simulated clock did not move in {budget_s} s: {sc}"
        TALLY[f"{kind}: stopped at its budget, clock moving"] += 1
        return None
    except aimdlab.ScenarioError as e:
        assert FIELD.match(str(e)), f"the error names no field: {e}"
        TALLY[f"{kind}: refused naming a field"] += 1
        return None
    TALLY[f"{kind}: completed"] += 1
    return r

rates = st.sampled_from(["200Kbps", "1Mbps", "5Mbps", "10Mbps", "48Mbps", "100Mbps"])
delays = st.sampled_from(["0ms", "1ms", "5ms", "20ms", "100ms", "300ms"])
limits = st.one_of(
    st.integers(1, 300).map(lambda n: f"{n}pkt"),
    st.integers(2, 200).map(lambda k: f"{k}KB"),
)


@st.composite
def queues(draw):
    kind = draw(st.sampled_from(QUEUE_KINDS))
    q = {"kind": kind}
    if kind == "step":
        n = draw(st.integers(1, 300))
        q.update(limit=f"{n}pkt", k=f"{draw(st.integers(1, n))}pkt", ecn=draw(st.booleans()))
    elif kind == "fq_codel":
        q["limit"] = f"{draw(st.integers(1, 300))}pkt"
        q["flows"] = draw(st.sampled_from([1, 4, 1024]))
    else:
        q["limit"] = draw(limits)
    if kind == "red":
        lo = draw(st.integers(1, 30))
        q.update(min_th=f"{lo}pkt", max_th=f"{lo + draw(st.integers(1, 60))}pkt", max_p=draw(st.sampled_from([0.02, 0.1, 1.0])),
                 gentle=draw(st.booleans()), wait=draw(st.booleans()), ecn=draw(st.booleans()))
        if draw(st.booleans()):
            q = {"kind": "red", "limit": q["limit"], "auto": True}
    if kind in ("codel", "pie", "fq_codel"):
        q["ecn"] = draw(st.booleans())
    return q


losses = st.one_of(
    st.none(),
    st.builds(lambda r, a: {"model": "bernoulli", "rate": r, "applies_to": a},
              st.sampled_from([0.0, 0.01, 0.3, 1.0]), st.sampled_from(["data", "ack", "both"])),
    st.builds(lambda p, r: {"model": "gilbert_elliott", "p": p, "r": r}, st.sampled_from([0.0, 0.01, 0.2]), st.sampled_from([0.1, 1.0])),
)


@st.composite
def flow_groups(draw):
    g = {"count": draw(st.integers(1, 4)), "cc": draw(st.sampled_from(CONTROLLERS)), "start": draw(st.sampled_from(["0s", "0.1s", "0.9s"]))}
    if draw(st.booleans()):
        g["start_jitter"] = draw(st.sampled_from(["10ms", "500ms", "2s"]))
    app = draw(st.sampled_from(APP_KINDS))
    if app == "finite":
        g["app"] = {"kind": "finite", "size": draw(st.sampled_from(["1B", "999B", "1000B", "20KB", "300KB"]))}
    elif app == "onoff":
        g["app"] = {"kind": "onoff", "rate": draw(rates), "on": draw(st.sampled_from(["10ms", "1s"])), "off": "500ms"}
    elif app == "cbr":
        g["app"] = {"kind": "cbr", "rate": draw(rates)}
    elif app == "vbr":
        g["app"] = {"kind": "vbr", "frame_rate": draw(st.sampled_from([10, 25, 60])), "gop": draw(st.sampled_from(["I", "IPB", "IPPPPPPPPPPP"]))}
    elif app == "voip":
        g["app"] = {"kind": "voip", "on": draw(st.sampled_from(["10ms", "1s"]))}
    if app not in ("bulk", "finite"):
        g["transport"] = draw(st.sampled_from(["udp", "tcp", "dccp"]))
        if g["transport"] == "udp":
            del g["cc"]  # a UDP flow has no congestion controller
    elif draw(st.integers(0, 3)) == 0:
        g["transport"] = "dccp"
    if g.get("transport") == "dccp":
        ccid = draw(st.sampled_from([2, 3]))
        g["dccp"] = {"ccid": ccid, "ack_ratio": draw(st.integers(1, 4)), "ack_ratio_adapt": draw(st.booleans()), "ecn": draw(st.booleans()),
                     "send_buffer": draw(st.sampled_from([1, 5, 64])), "buffer_policy": draw(st.sampled_from(["drop_oldest", "drop_newest", "block"]))}
        if ccid == 3:
            del g["cc"]  # CCID-3 is rate-based
        else:
            g["cc"] = draw(st.sampled_from(["reno", {"name": "tw"}, {"name": "tw", "decrease": 0.05, "ss_growth": 3}]))
    if draw(st.booleans()):
        g["stop"] = draw(st.sampled_from(["1.5s", "3s"]))
    if draw(st.booleans()):
        g["access"] = {"delay": draw(delays)}
    g["tcp"] = {
        "profile": draw(st.sampled_from(PROFILES)),
        "recovery": draw(st.sampled_from(["sack", "newreno", "reno"])),
        "cwnd_growth": draw(st.sampled_from(["per_ack", "per_segment"])),
        "cwr_freeze": draw(st.booleans()),
        "prr": draw(st.booleans()),
        "first_decrease": draw(st.sampled_from(["controller", "half"])),
        "quickacks": draw(st.sampled_from([0, 2, 16])),
        "timestamps": draw(st.booleans()),
        "limited_transmit": draw(st.booleans()),
        "rto_estimator": draw(st.sampled_from(["rfc6298", "linux"])),
        "timeout_ssthresh": draw(st.sampled_from(["controller", "half"])),
        "delayed_ack": draw(st.booleans()),
        "initial_cwnd": draw(st.integers(1, 20)),
        "min_rto": draw(st.sampled_from(["200ms", "1s"])),
        "ecn": draw(st.booleans()),
        "send_jitter": draw(st.sampled_from(["0s", "100us", "5ms"])),
    }
    if g.get("cc") == "dctcp":
        g["tcp"]["ecn"] = True  # (DCTCP needs ECN: refused without it, which the invalid-scenario tests cover)
    return g


@st.composite
def scenarios(draw):
    bottleneck = {"rate": draw(rates), "delay": draw(delays), "queue": draw(queues())}
    loss = draw(losses)
    if loss is not None:
        bottleneck["loss"] = loss
    duration = draw(st.sampled_from(["1s", "2.5s", "4s"]))
    flows = draw(st.lists(flow_groups(), min_size=1, max_size=3))
    for g in flows:  # a valid group starts its last flow before the end
        seconds = {k: float(g.get(k, "0s").removesuffix("ms")) / 1000 if g.get(k, "0s").endswith("ms") else float(g.get(k, "0s")[:-1])
                   for k in ("start", "start_jitter")}
        if seconds["start"] + seconds["start_jitter"] > float(duration[:-1]):
            g["start_jitter"] = f"{float(duration[:-1]) - seconds['start']:g}s"
    return {
        "duration": duration,
        "warmup": draw(st.sampled_from(["0s", "0.5s"])),
        "sample_interval": draw(st.sampled_from(["50ms", "100ms", "1s"])),
        "topology": {
            "dumbbell": {
                "bottleneck": bottleneck,
                "access": {"rate": draw(rates), "delay": draw(delays), "queue": {"limit": draw(limits)}},
            }
        },
        "tcp": {"mss": draw(st.sampled_from(["500B", "1000B", "1460B"]))},
        "flows": flows,
    }


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios(), st.integers(0, 2**32))
def test_random_valid_scenarios_run_and_conserve_packets(sc, seed):
    r = aimdlab.run(sc, seed=seed)
    TALLY["valid: completed"] += 1
    assert_conserved(r)
    f = r.flows.to_pandas()
    assert len(f) == sum(g["count"] for g in sc["flows"])
    assert (f["goodput_bps"].fillna(0) <= f["throughput_bps"].fillna(0) + 1e-9).all()
    assert f["loss_rate"].dropna().between(0.0, 1.0).all(), f["loss_rate"]  # the dropped share of what was sent
    util = r.summary["bottleneck"]["utilization"]
    assert util is None or 0.0 <= util <= 1.0


# Mutations that make a valid scenario invalid: (path, bad value, field path the error must name).
BAD = [
    (("duration",), "0s", "duration"),
    (("duration",), "-3s", "duration"),
    (("sample_interval",), "1 fortnight", "sample_interval"),
    (("topology", "dumbbell", "bottleneck", "rate"), "0Mbps", "topology.dumbbell.bottleneck.rate"),
    (("topology", "dumbbell", "bottleneck", "rate"), 5, "topology.dumbbell.bottleneck.rate"),
    (("topology", "dumbbell", "access", "delay"), "fast", "topology.dumbbell.access.delay"),
    (("topology", "dumbbell", "access", "queue", "limit"), "1.5pkt", "topology.dumbbell.access.queue.limit"),
    (("topology", "dumbbell", "access", "colour"), "blue", "topology.dumbbell.access.colour"),
    (("tcp", "mss"), "0B", "tcp.mss"),
    (("topology", "dumbbell", "bottleneck", "queue"), {"kind": "red", "min_th": "9pkt", "max_th": "9pkt"}, "topology.dumbbell.bottleneck.queue.min_th"),
    (("topology", "dumbbell", "bottleneck", "queue"), {"kind": "red", "w_q": 2.0}, "topology.dumbbell.bottleneck.queue.w_q"),
    (("topology", "dumbbell", "bottleneck", "queue"), {"kind": "pie", "interval": "1s"}, "topology.dumbbell.bottleneck.queue.interval"),
    (("topology", "dumbbell", "bottleneck", "loss"), {"model": "bernoulli", "rate": 2}, "topology.dumbbell.bottleneck.loss.rate"),
    (("tcp", "initial_cwnd"), 0, "tcp.initial_cwnd"),
    (("tcp", "receive_window"), "0pkt", "tcp.receive_window"),
    (("flows", 0, "cc"), "copa", "flows[0].cc"),
    (("flows", 0, "count"), 0, "flows[0].count"),
    (("flows", 0, "start"), "-1s", "flows[0].start"),
    (("flows", 0, "app"), {"kind": "finite"}, "flows[0].app.size"),
    (("flows", 0, "app"), {"kind": "bulk", "size": "1MB"}, "flows[0].app.size"),
    (("flows", 0, "app"), {"kind": "onoff", "shape": 1.0}, "flows[0].app.shape"),
    (("flows", 0, "app"), {"kind": "bulk", "rate": "1Mbps"}, "flows[0].app.rate"),
    (("flows", 0, "src"), "s0", "flows[0].src"),
    (("flows", 0, "tcp", "min_rto"), "1000s", "flows[0].tcp.min_rto"),
]


@settings(max_examples=EXAMPLES, deadline=None)
@given(scenarios(), st.sampled_from(BAD))
def test_random_invalid_scenarios_name_the_field(sc, bad):
    path, value, field = bad
    sc = copy.deepcopy(sc)
    node = sc
    for k in path[:-1]:
        node = node.setdefault(k, {}) if isinstance(k, str) else node[k]
    node[path[-1]] = value
    try:
        aimdlab.validate(sc)
    except aimdlab.ScenarioError as e:
        assert str(e).startswith(field + ":"), (str(e), field)
        TALLY["invalid (targeted): refused naming the field"] += 1
    else:
        raise AssertionError(f"{path}={value!r} was accepted")


# --- extreme: every field at the edges of what it accepts ----------------------------------

tiny_or_huge_rates = st.sampled_from(["1bps", "64Kbps", "1Mbps", "100Mbps", "10Gbps", "1000Tbps"])
tiny_or_huge_delays = st.sampled_from(["0s", "1ps", "1ns", "1us", "100ms", "2s"])
edge_limits = st.sampled_from(["1pkt", "2pkt", "100000pkt", "1B", "1500B", "100MB"])


@st.composite
def extreme_tcp(draw):
    mss = draw(st.sampled_from(["1B", "40B", "1460B", "9000B", "65000B"]))
    tcp = {"mss": mss, "header": draw(st.sampled_from(["0B", "1B", "40B", "1000B"]))}
    rto = draw(st.sampled_from(["1us", "1ms", "200ms", "60s"]))
    tcp.update(min_rto=rto, max_rto=draw(st.sampled_from([rto, "120s"])), initial_rto=draw(st.sampled_from(["1us", "3s"])))
    tcp.update(initial_cwnd=draw(st.sampled_from([1, 2, 1000])), dupthresh=draw(st.sampled_from([1, 3, 50])),
               delayed_ack=draw(st.booleans()), delayed_ack_timeout=draw(st.sampled_from(["1us", "500ms"])),
               receive_window=draw(st.sampled_from(["1pkt", "2pkt", "65535pkt", "1460B"])), sack=draw(st.booleans()),
               ecn=draw(st.booleans()), send_jitter=draw(st.sampled_from(["0s", "1ps", "1us", "50ms"])))
    if draw(st.booleans()):
        tcp["initial_ssthresh"] = draw(st.sampled_from([2, 3, 10**6]))
    return tcp


@st.composite
def extreme_groups(draw):
    g = {"count": draw(st.sampled_from([1, 2, 7, 40])),
         "cc": draw(st.sampled_from(["reno", "cubic", "new_aimd", "mr_aimd", "iiad", "sqrt", "aiad", "mimd",
                                     {"name": "mimd", "increase": 2.0, "decrease": 0.01}, {"name": "aiad", "alpha": 50, "decrease": 1000},
                                     {"name": "gaimd", "beta": 0.999, "alpha": 10.0}, {"name": "gaimd", "beta": 0.01, "alpha": 0.001}])),
         "start": draw(st.sampled_from(["0s", "1ps", "0.4s"])),
         "start_jitter": draw(st.sampled_from(["0s", "1ps", "10s"]))}
    kind = draw(st.sampled_from(["bulk", "finite", "onoff", "cbr", "vbr"]))
    if kind == "finite":
        g["app"] = {"kind": "finite", "size": draw(st.sampled_from(["1B", "1MB"]))}
    elif kind == "onoff":
        g["app"] = {"kind": "onoff", "rate": draw(st.sampled_from(["1bps", "1Mbps", "8Gbps"])),
                    "on": draw(st.sampled_from(["1us", "1s"])), "off": draw(st.sampled_from(["1us", "1s"])),
                    "shape": draw(st.sampled_from([1.0001, 1.5, 50.0]))}
    elif kind == "cbr":
        g["app"] = {"kind": "cbr", "rate": draw(st.sampled_from(["1bps", "1Mbps", "8Gbps"]))}
    elif kind == "vbr":
        g["app"] = {"kind": "vbr", "frame_rate": draw(st.sampled_from([0.01, 25, 1000])), "cv": draw(st.sampled_from([0, 3])), "i_mean": draw(st.sampled_from(["1B", "1MB"]))}
    if kind in ("onoff", "cbr", "vbr"):
        choice = draw(st.integers(0, 2))
        if choice == 0:
            g["transport"] = "tcp"  # application-limited TCP
        elif choice == 1:
            g["transport"] = "dccp"
            g["dccp"] = {"ccid": draw(st.sampled_from([2, 3])), "ack_ratio": draw(st.sampled_from([1, 1000])), "send_buffer": draw(st.sampled_from([1, 100000])),
                         "ack_delay": draw(st.sampled_from(["1us", "10s"])), "min_rto": draw(st.sampled_from(["1ms", "60s"]))}
            if g["dccp"]["ccid"] == 3 and draw(st.integers(0, 9)) > 0:
                del g["cc"]  # CCID-3 takes no cc (now and then: refused)
        elif draw(st.integers(0, 9)) > 0:
            del g["cc"]  # a UDP flow has no congestion controller (now and then: refused)
    if draw(st.booleans()):
        g["tcp"] = draw(extreme_tcp())
    if draw(st.booleans()):
        g["stop"] = draw(st.sampled_from(["0.5s", "100s"]))
    return g


@st.composite
def extreme_links(draw):
    link = {"rate": draw(tiny_or_huge_rates), "delay": draw(tiny_or_huge_delays), "queue": draw(queues())}
    link["queue"]["limit"] = draw(st.sampled_from(["1pkt", "2pkt", "100000pkt"])) if link["queue"]["kind"] == "fq_codel" else draw(edge_limits)
    if link["queue"]["kind"] == "red" and "min_th" in link["queue"]:
        link["queue"] = {"kind": "red", "auto": True, "limit": link["queue"]["limit"]}
    loss = draw(losses)
    if loss is not None:
        link["loss"] = loss
    return link


@st.composite
def extreme_scenarios(draw):
    sc = {"duration": draw(st.sampled_from(["1ms", "0.5s", "2s"])),
          "sample_interval": draw(st.sampled_from(["1us", "1ms", "100ms", "1s"])),
          "tcp": draw(extreme_tcp()),
          "flows": draw(st.lists(extreme_groups(), min_size=1, max_size=3))}
    if draw(st.booleans()):
        sc["sampled_flows"] = draw(st.sampled_from(["none", "all", [0]]))
    for g in sc["flows"]:
        if g["start"] == "0.4s" and sc["duration"] == "1ms":
            g["start"] = "0s"
    if draw(st.booleans()):
        sc["topology"] = {"dumbbell": {"bottleneck": draw(extreme_links()), "access": draw(extreme_links())}}
    else:
        # A parking lot a - b - c with hosts on a and c, some static routes.
        links = [dict(draw(extreme_links()), **{"from": a, "to": b}) for a, b in (("a", "b"), ("b", "c"), ("ha", "a"), ("hc", "c"))]
        sc["topology"] = {"explicit": {"nodes": ["a", "b", "c", "ha", "hc"], "links": links}}
        for i, g in enumerate(sc["flows"]):
            g["src"], g["dst"] = ("ha", "hc") if i % 2 == 0 else ("hc", "ha")
    return sc


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(extreme_scenarios(), st.integers(0, 2**64 - 1))
def test_extreme_scenarios_complete_or_are_refused_naming_a_field(sc, seed):
    r = run_within(sc, seed, budget_s=1.0, kind="extreme")
    if r is not None:
        assert_conserved(r)


# --- invalid: random values of every kind at random places --------------------------------

def _deep():
    d: list = []
    for _ in range(200):
        d = [d]
    return d


GARBAGE = [float("nan"), float("inf"), -float("inf"), -1, 0, 2**70, -(2**70), True, False, None, "", "5.s", ".5ms",
           "5\u00a0s", "1e3ms", "abc", "-1s", "1000000000Tbps", "0pkt", [], ["10Mbps", "10ms"], {}, {"bogus": 1},
           np.int64(3), np.float32(0.5), np.float64("nan"), {1, 2}, decimal.Decimal("1.5"), datetime.date(2020, 1, 1),
           b"bytes", 1.5, 10**6, "x" * 300]


def _places(value, prefix=()):
    """Every path inside `value` (tables and arrays), the value's own root excluded."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield prefix + (k,)
            yield from _places(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield prefix + (i,)
            yield from _places(v, prefix + (i,))


@st.composite
def mutated(draw):
    sc = copy.deepcopy(draw(st.one_of(scenarios(), extreme_scenarios())))
    places = list(_places(sc))
    path = draw(st.sampled_from(places))
    node = sc
    for k in path[:-1]:
        node = node[k]
    how = draw(st.sampled_from(["replace", "replace", "replace", "delete", "unknown key", "deep"]))
    if how == "replace":
        node[path[-1]] = draw(st.sampled_from(GARBAGE))
    elif how == "delete":
        del node[path[-1]]
    elif how == "unknown key" and isinstance(node, dict):
        node[path[-1] + "_typo" if isinstance(path[-1], str) else "typo"] = 1
    else:
        node[path[-1]] = _deep()
    return sc, path, how


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated(), st.integers(0, 2**64 - 1))
def test_random_invalid_values_give_an_error_naming_a_field_or_run(case, seed):
    sc, path, how = case
    run_within(sc, seed, budget_s=1.0, kind="invalid (random)")
