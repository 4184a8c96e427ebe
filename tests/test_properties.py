"""Property tests: random valid scenarios never crash and always conserve packets; random
invalid ones always give an error naming the field."""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import aimdlab
from conftest import assert_conserved

rates = st.sampled_from(["200Kbps", "1Mbps", "5Mbps", "10Mbps", "48Mbps", "100Mbps"])
delays = st.sampled_from(["0ms", "1ms", "5ms", "20ms", "100ms", "300ms"])
limits = st.one_of(
    st.integers(1, 300).map(lambda n: f"{n}pkt"),
    st.integers(2, 200).map(lambda k: f"{k}KB"),
)


@st.composite
def queues(draw):
    kind = draw(st.sampled_from(["droptail", "red", "codel", "fq_codel", "pie"]))
    q = {"kind": kind}
    if kind == "fq_codel":
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
    g = {"count": draw(st.integers(1, 4)), "cc": "reno", "start": draw(st.sampled_from(["0s", "0.1s", "0.9s"]))}
    if draw(st.booleans()):
        g["start_jitter"] = draw(st.sampled_from(["10ms", "500ms", "2s"]))
    app = draw(st.sampled_from(["bulk", "finite", "onoff"]))
    if app == "finite":
        g["app"] = {"kind": "finite", "size": draw(st.sampled_from(["1B", "999B", "1000B", "20KB", "300KB"]))}
    elif app == "onoff":
        g["app"] = {"kind": "onoff", "rate": draw(rates), "on": draw(st.sampled_from(["10ms", "1s"])), "off": "500ms"}
    if draw(st.booleans()):
        g["stop"] = draw(st.sampled_from(["1.5s", "3s"]))
    if draw(st.booleans()):
        g["access"] = {"delay": draw(delays)}
    g["tcp"] = {
        "sack": draw(st.booleans()),
        "delayed_ack": draw(st.booleans()),
        "initial_cwnd": draw(st.integers(1, 20)),
        "min_rto": draw(st.sampled_from(["200ms", "1s"])),
        "ecn": draw(st.booleans()),
        "send_jitter": draw(st.sampled_from(["0s", "100us", "5ms"])),
    }
    return g


@st.composite
def scenarios(draw):
    bottleneck = {"rate": draw(rates), "delay": draw(delays), "queue": draw(queues())}
    loss = draw(losses)
    if loss is not None:
        bottleneck["loss"] = loss
    return {
        "duration": draw(st.sampled_from(["1s", "2.5s", "4s"])),
        "warmup": draw(st.sampled_from(["0s", "0.5s"])),
        "sample_interval": draw(st.sampled_from(["50ms", "100ms", "1s"])),
        "topology": {
            "dumbbell": {
                "bottleneck": bottleneck,
                "access": {"rate": draw(rates), "delay": draw(delays), "queue": {"limit": draw(limits)}},
            }
        },
        "tcp": {"mss": draw(st.sampled_from(["500B", "1000B", "1460B"]))},
        "flows": draw(st.lists(flow_groups(), min_size=1, max_size=3)),
    }


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios(), st.integers(0, 2**32))
def test_random_valid_scenarios_run_and_conserve_packets(sc, seed):
    r = aimdlab.run(sc, seed=seed)
    assert_conserved(r)
    f = r.flows.to_pandas()
    assert len(f) == sum(g["count"] for g in sc["flows"])
    assert (f["goodput_bps"].fillna(0) <= f["throughput_bps"].fillna(0) + 1e-9).all()
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
    (("flows", 0, "cc"), "vegas", "flows[0].cc"),
    (("flows", 0, "count"), 0, "flows[0].count"),
    (("flows", 0, "start"), "-1s", "flows[0].start"),
    (("flows", 0, "app"), {"kind": "finite"}, "flows[0].app.size"),
    (("flows", 0, "app"), {"kind": "bulk", "size": "1MB"}, "flows[0].app.size"),
    (("flows", 0, "app"), {"kind": "onoff", "shape": 1.0}, "flows[0].app.shape"),
    (("flows", 0, "app"), {"kind": "bulk", "rate": "1Mbps"}, "flows[0].app.rate"),
    (("flows", 0, "src"), "s0", "flows[0].src"),
    (("flows", 0, "tcp", "min_rto"), "100s", "flows[0].tcp.min_rto"),
]


@settings(max_examples=60, deadline=None)
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
    else:
        raise AssertionError(f"{path}={value!r} was accepted")
