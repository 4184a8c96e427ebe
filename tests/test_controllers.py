"""The AIMD family on a packet-level dumbbell, and controllers written in Python."""

from __future__ import annotations

import aimdlab
import numpy as np
import pytest
from conftest import CONTROLLER_NAMES, dumbbell, run_checked


class PyGaimd(aimdlab.Controller):
    """GAIMD(α, β) as the built-in one is written (cc/gaimd.rs): β·W at a loss, W/2 in slow start."""

    def __init__(self, alpha: float = 0.31, beta: float = 0.875) -> None:
        super().__init__()
        self.alpha, self.beta = alpha, beta

    def on_ack(self, ack):
        if ack.in_recovery or ack.newly_acked_pkts == 0:
            return
        if self.cwnd < self.ssthresh:
            self.cwnd += min(ack.newly_acked_pkts, 1)
        else:
            self.cwnd += self.alpha / self.cwnd

    def on_congestion(self, event):
        factor = 0.5 if self.cwnd < self.ssthresh else self.beta
        self.ssthresh = max(self.cwnd * factor, 2.0)
        self.cwnd = 1.0 if event.kind == "timeout" else self.ssthresh


class PyReno(PyGaimd):
    """RFC 5681 Reno, written as the built-in one is (cc/reno.rs): GAIMD(1, 1/2)."""

    def __init__(self) -> None:
        super().__init__(alpha=1.0, beta=0.5)

    def state(self):
        return {"py_cwnd": self.cwnd}


class RuleGaimd(aimdlab.Controller):
    """The same GAIMD written as a rule: the transport keeps the window and the recovery gate."""

    def __init__(self, alpha: float = 0.31, beta: float = 0.875) -> None:
        super().__init__()
        self.alpha, self.beta = alpha, beta

    def cong_avoid(self, w, ack):
        w.aimd_step(self.alpha)

    def ssthresh(self, w, event):
        return w.cwnd * (0.5 if w.in_slow_start() else self.beta)


def per_flow(result):
    f = result.flows.to_pandas().drop(columns=["cc"]).fillna(-1.0)  # NaN != NaN
    return f.to_dict("list")


def test_a_python_reno_gives_the_same_results_as_the_built_in_reno():
    sc = dumbbell(flows=3, buffer="20pkt", duration="20s", warmup="2s", flow={"start_jitter": "1s"})
    builtin = run_checked(sc, seed=4)
    sc_py = dict(sc, flows=[dict(sc["flows"][0], cc=PyReno())])
    python = run_checked(sc_py, seed=4)
    assert per_flow(python) == per_flow(builtin)
    assert set(python.flows.to_pandas()["cc"]) == {"test_controllers:PyReno"}, "the flows table names the class"
    ts = python.timeseries.to_pandas()
    assert np.allclose(ts["py_cwnd"], ts["cwnd_pkts"]), "state() is recorded in the time series"


def test_the_ns2_window_rules_apply_to_a_python_controller_as_to_a_built_in_one():
    # ns2 profile: the first decrease and a timeout's ssthresh halve whatever β (slowdown()).
    sc = dumbbell(flows=3, buffer="5pkt", duration="30s", warmup="2s",
                  flow={"start_jitter": "1s", "tcp": {"profile": "ns2"}, "cc": {"name": "gaimd", "alpha": 0.31, "beta": 0.875}})
    builtin = run_checked(sc, seed=3)
    python = run_checked(dict(sc, flows=[dict(sc["flows"][0], cc=PyGaimd())]), seed=3)
    assert builtin.flows.to_pandas()["timeouts"].sum() > 0, "the set-up exercises the timeout rule"
    assert per_flow(python) == per_flow(builtin)
    plain = run_checked(dict(sc, flows=[dict(sc["flows"][0], tcp={"profile": "ns2", "first_decrease": "controller",
                                                                 "timeout_ssthresh": "controller"})]), seed=3)
    assert per_flow(plain) != per_flow(builtin), "the rules change the run"


@pytest.mark.parametrize("profile", ["rfc", "ns2", "linux"])
def test_a_rule_in_python_gives_the_same_results_as_the_built_in_controller(profile):
    # ns2: the stack's halving over the rule's cut; linux: growth per segment (the transport
    # calls cong_avoid once a segment).
    sc = dumbbell(flows=3, buffer="5pkt", duration="30s", warmup="2s",
                  flow={"start_jitter": "1s", "tcp": {"profile": profile}, "cc": {"name": "gaimd", "alpha": 0.31, "beta": 0.875}})
    builtin = run_checked(sc, seed=5)
    rule = run_checked(dict(sc, flows=[dict(sc["flows"][0], cc=RuleGaimd())]), seed=5)
    f = builtin.flows.to_pandas()
    assert (f["fast_retransmits"] + f["timeouts"]).sum() > 0, "the set-up exercises the cut"
    assert per_flow(rule) == per_flow(builtin)


def test_a_rule_that_leaves_a_bad_window_or_threshold_is_named():
    class Shrinks(RuleGaimd):
        def cong_avoid(self, w, ack):
            w.cwnd = -1.0

    class Negative(RuleGaimd):
        def ssthresh(self, w, event):
            return -5

    with pytest.raises(aimdlab.ControllerError, match=r"^controller Shrinks of flow 0: after cong_avoid: w.cwnd = -1 is not a positive"):
        aimdlab.run(dumbbell(buffer="5pkt", duration="5s", flow={"cc": Shrinks()}))
    with pytest.raises(aimdlab.ControllerError, match=r"^controller Negative of flow 0: after ssthresh: ssthresh\(\) returned -5; expected a positive"):
        aimdlab.run(dumbbell(buffer="5pkt", duration="5s", flow={"cc": Negative()}))


def test_half_a_rule_is_a_clear_error():
    class GrowsOnly(aimdlab.Controller):
        def cong_avoid(self, w, ack):
            w.aimd_step(1.0)

    with pytest.raises(aimdlab.ControllerError, match="^controller GrowsOnly of flow 0: defines cong_avoid but not ssthresh; a rule defines both"):
        aimdlab.run(dumbbell(duration="1s", flow={"cc": GrowsOnly()}))


def test_gaimd_one_half_is_reno():
    sc = dumbbell(flows=2, buffer="20pkt", duration="20s", flow={"start_jitter": "1s"})
    reno = per_flow(run_checked(sc))
    gaimd = per_flow(run_checked(dict(sc, flows=[dict(sc["flows"][0], cc={"name": "gaimd", "alpha": 1.0, "beta": 0.5})])))
    assert gaimd == reno


def test_an_exception_in_a_python_controller_reaches_the_caller():
    class Broken(PyReno):
        def on_congestion(self, event):
            raise ZeroDivisionError("my controller is broken")

    sc = dumbbell(buffer="10pkt", duration="10s", flow={"cc": Broken()})
    with pytest.raises(aimdlab.ControllerError, match="^controller Broken of flow 0: on_congestion raised ZeroDivisionError: "
                                                      "my controller is broken$") as e:
        aimdlab.run(sc)
    assert isinstance(e.value.__cause__, ZeroDivisionError), "the controller's own exception, with its traceback"


def test_python_cc_without_an_object_is_a_clear_error():
    with pytest.raises(aimdlab.ScenarioError, match=r'flows\[0\]\.cc: "python" needs a controller; name its class'):
        aimdlab.run(dumbbell(flow={"cc": "python"}))


BAD = [
    ({"name": "gaimd", "beta": 1.0}, "flows[0].cc.beta: 1 is outside (0, 1)"),
    ({"name": "gaimd", "beta": 1.5}, "flows[0].cc.beta: 1.5 is outside (0, 1)"),
    ({"name": "gaimd", "alpha": 0}, "flows[0].cc.alpha: 0 is not positive"),
    ({"name": "gaimd", "alpha": -1}, "flows[0].cc.alpha: -1 is not positive"),
    ({"name": "gaimd", "alpha": "friendly"}, 'flows[0].cc.alpha: "friendly" is not valid; expected a number > 0 or "tcp-friendly"'),
    ({"name": "reno", "alpha": 2}, 'flows[0].cc.alpha: is not a parameter of "reno"; it takes halve'),
    ({"name": "mr_aimd", "beta": 0.5}, 'flows[0].cc.beta: is not a parameter of "mr_aimd"; it takes a, a_prime, a_prime_ecn, a_prime_reset_rtts, b'),
    ({"name": "new_aimd", "reading": "loose"}, 'flows[0].cc.reading: "loose" is not valid; expected one of "epoch", "literal"'),
    ({"name": "iiad", "k": 0.5}, 'flows[0].cc.k: iiad fixes k = 1 and l = 0; use name = "binomial" for other exponents'),
    ({"name": "gaimd", "beta": "half"}, 'flows[0].cc.beta: "half" is not valid; expected a number'),
    ({"name": "gaimd", "alpha": 2, "friendly_curve": "td"}, 'flows[0].cc.friendly_curve: applies only with alpha = "tcp-friendly"'),
    ({"beta": 0.5}, "flows[0].cc.name: is missing"),
    ({"name": "copa"}, 'flows[0].cc.name: "copa" is not a known controller; expected one of ' + CONTROLLER_NAMES),
]


@pytest.mark.parametrize("cc,expected", BAD, ids=[str(b[0]) for b in BAD])
def test_bad_controller_parameters_are_named(cc, expected):
    with pytest.raises(aimdlab.ScenarioError) as e:
        aimdlab.validate(dumbbell(flow={"cc": cc}))
    assert str(e.value).startswith(expected), str(e.value)


@pytest.mark.parametrize("name", [n for n in aimdlab._core.controllers() if n not in ("reno", "newreno", "python")])
def test_every_controller_fills_the_link_and_conserves(name):
    r = run_checked(dumbbell(flows=4, buffer="50pkt", duration="30s", warmup="5s", flow={"cc": name, "start_jitter": "1s"}))
    assert r.summary["bottleneck"]["utilization"] > 0.9, (name, r.summary["bottleneck"])
    assert set(r.flows.to_pandas()["cc"]) == {name}


def gaimd_vs_reno(seed: int, queue: str = "red", send_jitter: str = "0s"):
    """8 Reno + 8 GAIMD(0.31, 7/8) flows on the 15 Mbps, 50 ms bottleneck of gaimd.txt §2.4.1,
    with random access delays and start times against phase effects (as the paper does); RED
    is its Fig. 16, DropTail its Fig. 14 (see aimdlab.papers.gaimd.friendliness)."""
    rng = np.random.default_rng(seed)
    sc = dumbbell(rate="15Mbps", delay="50ms", access_rate="100Mbps", duration="200s", warmup="20s", sample_interval="1s", seed=seed)
    q = {"kind": queue, "limit": "125pkt"}
    if queue == "red":
        q["auto"] = True
    sc["topology"]["dumbbell"]["bottleneck"]["queue"] = q
    sc["tcp"]["send_jitter"] = send_jitter
    gaimd = {"name": "gaimd", "beta": 0.875, "alpha": "tcp-friendly"}
    sc["flows"] = [
        {"name": "reno" if i < 8 else "gaimd", "cc": "reno" if i < 8 else gaimd, "start_jitter": "2s",
         "access": {"delay": f"{rng.uniform(0.5, 5):.3f}ms"}}
        for i in range(16)
    ]
    return run_checked(sc)


def loss_rate_by_group(f):
    """Window reductions / packets sent, per group — how gaimd.txt §2.4.1 measures loss."""
    g = f.groupby("group_name")
    return (g["fast_retransmits"].sum() + g["timeouts"].sum()) / g["data_pkts_sent"].sum()


def test_gaimd_0_31_7_8_shares_with_reno_as_its_formula_predicts():
    r = gaimd_vs_reno(seed=1)
    f = r.flows.to_pandas()
    ts = r.timeseries.to_pandas()
    ts = ts[ts["time_s"] > 20]
    rate = f.groupby("group_name")["send_rate_bps"].mean()
    # Both groups see the same loss-event rate under RED ...
    p = loss_rate_by_group(f)
    assert abs(p["gaimd"] / p["reno"] - 1) < 0.15, p
    # ... so their rates differ as the triple-duplicate term of gaimd.txt eq. (2) says:
    # T ∝ sqrt(α(1 + β)/(1 − β)), i.e. sqrt(0.3125·1.875/0.125 / 3) = 1.25 at low loss
    # (α = 0.31 is friendly on the timeout term, eq. 7, which matters at high loss).
    predicted = np.sqrt(0.3125 * 1.875 / 0.125 / 3.0)
    assert abs(rate["gaimd"] / rate["reno"] / predicted - 1) < 0.08, (rate["gaimd"] / rate["reno"], predicted)
    # GAIMD's sending rate is clearly smoother: about half Reno's coefficient of variation.
    cov = ts.groupby("flow")["send_rate_bps"].agg(lambda x: x.std() / x.mean())
    by_group = cov.groupby(f.set_index("flow")["group_name"]).mean()
    assert by_group["gaimd"] < 0.65 * by_group["reno"], by_group


def test_on_droptail_gaimd_gets_more_than_reno_because_reno_sees_more_losses():
    """DropTail (Fig. 14) with ns-2-style send jitter: the two groups' rates differ by more than
    the 1.25 of equal loss rates because Reno, adding a packet every RTT, loses more often
    than GAIMD, adding one every ~3 RTTs; eq. (2) at each group's own loss rate, RTT and
    T0 = 1 s (the minimum RTO) still predicts each group's rate."""
    from aimdlab.models import gaimd as model

    r = gaimd_vs_reno(seed=2, queue="droptail", send_jitter="1ms")
    f = r.flows.to_pandas()
    p = loss_rate_by_group(f)
    assert p["reno"] > 1.3 * p["gaimd"], p
    for group, (alpha, beta) in {"gaimd": (0.3125, 0.875), "reno": (1.0, 0.5)}.items():
        g = f[f["group_name"] == group]
        predicted_bps = model.sending_rate(alpha, beta, p[group], g["rtt_mean_ms"].mean() / 1e3, 1.0) * 1040 * 8
        assert abs(predicted_bps / g["send_rate_bps"].mean() - 1) < 0.1, (group, predicted_bps, g["send_rate_bps"].mean())


def _two_flow_windows(cc: str):
    """Mean cwnd of two flows (the second starts 20 s late) over [90, 150) s and [240, 300) s."""
    sc = {"duration": "300s", "seed": 1, "sample_interval": "1s",
          "topology": {"dumbbell": {"bottleneck": {"rate": "10Mbps", "delay": "20ms", "queue": {"limit": "100pkt"}},
                                    "access": {"rate": "100Mbps", "delay": "1ms"}}},
          "flows": [{"count": 1, "cc": cc}, {"count": 1, "cc": cc, "start": "20s"}]}
    t = aimdlab.run(sc).timeseries.to_pandas()
    w = t.pivot(index="time_s", columns="flow", values="cwnd_pkts")
    early, late = w[(w.index >= 90) & (w.index < 150)].mean(), w[w.index >= 240].mean()
    return early.values, late.values


def _relative_gap(w):
    return abs(w[0] - w[1]) / (w[0] + w[1])


@pytest.mark.parametrize("cc", ["aiad", "mimd"])
def test_chiu_jain_aiad_and_mimd_keep_the_unfairness_aimd_removes(cc):
    # Chiu and Jain's phase plot: AIMD moves to the fairness line; AIAD moves parallel to it
    # (the difference is kept) and MIMD along a ray through the origin (the ratio is kept).
    reno_early, reno_late = _two_flow_windows("reno")
    assert _relative_gap(reno_early) < 0.05 and _relative_gap(reno_late) < 0.05, (reno_early, reno_late)
    early, late = _two_flow_windows(cc)
    assert _relative_gap(early) > 0.2, early
    if cc == "aiad":
        assert abs((late[0] - late[1]) - (early[0] - early[1])) < 0.1 * abs(early[0] - early[1]), (early, late)
    else:
        assert abs(late[0] / late[1] - early[0] / early[1]) < 0.1 * early[0] / early[1], (early, late)


def test_aiad_and_mimd_parameters_are_checked():
    for cc, expected in [({"name": "aiad", "decrease": 0}, "flows[0].cc.decrease: 0 is not positive"),
                         ({"name": "mimd", "increase": 1.0}, "flows[0].cc.increase: 1 is not above 1"),
                         ({"name": "mimd", "decrease": 1.5}, "flows[0].cc.decrease: 1.5 is outside (0, 1)"),
                         ({"name": "mimd", "alpha": 1}, 'flows[0].cc.alpha: is not a parameter of "mimd"; it takes decrease, increase')]:
        with pytest.raises(aimdlab.ScenarioError) as e:
            aimdlab.validate(dumbbell(flow={"cc": cc}))
        assert str(e.value).startswith(expected), str(e.value)


class _Paced(aimdlab.Controller):
    """A large fixed window, paced at a fixed rate."""

    def __init__(self, rate_bps):
        super().__init__()
        self.pacing_rate_bps = rate_bps

    def on_ack(self, ack):
        self.cwnd = 1000.0

    def on_congestion(self, event):
        pass


def test_a_pacing_rate_spaces_packets_at_that_rate():
    sc = dumbbell(rate="100Mbps", buffer="1000pkt", duration="10s", warmup="2s", flow={"cc": _Paced(10e6)})
    r = run_checked(sc)
    f = r.flows.to_pandas().iloc[0]
    assert abs(f["send_rate_bps"] / 10e6 - 1) < 0.01, f["send_rate_bps"]
    # Paced below the bottleneck: the queue never builds beyond a packet or two.
    assert r.summary["bottleneck"]["queue_max_pkts"] <= 2, r.summary["bottleneck"]
    unpaced = run_checked(dumbbell(rate="100Mbps", buffer="1000pkt", duration="10s", warmup="2s", flow={"cc": _Paced(None)}))
    assert unpaced.flows.to_pandas().iloc[0]["send_rate_bps"] > 50e6


class _PacedRule(RuleGaimd):
    """The rule form, pacing from its constructor."""

    def __init__(self, rate_bps):
        super().__init__()
        self.pacing_rate_bps = rate_bps


def test_a_rule_paces_from_its_constructor_on():
    # A pacing rate set in __init__ holds from the first packet, and a bad one is refused
    # there, in either form of controller.
    with pytest.raises(ValueError, match="controller _PacedRule of flow 0: after __init__: pacing_rate_bps = 0 is outside"):
        aimdlab.run(dumbbell(duration="1s", flow={"cc": _PacedRule(0.0)}))
    r = run_checked(dumbbell(rate="100Mbps", buffer="1000pkt", duration="1s", flow={"cc": _PacedRule(1e6)}))
    assert r.summary["bottleneck"]["queue_max_pkts"] <= 1, "the initial window leaves paced, not as a burst"


def test_a_bad_pacing_rate_is_named():
    with pytest.raises(ValueError, match="controller _Paced of flow 0: after __init__: pacing_rate_bps = 0 is outside"):
        aimdlab.run(dumbbell(duration="1s", flow={"cc": _Paced(0.0)}))
