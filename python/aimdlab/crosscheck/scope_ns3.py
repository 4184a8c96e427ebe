"""What a crosscheck can run in ns-3 3.44, refused field by field outside it: the scenario as
a plan for the ns-3 program (`ns3.py`), every TCP value from aimdlab's `ns3` profile given to
ns-3 through `Config::SetDefault`, and the scenario aimdlab runs beside it (`tcp.profile =
"ns3"`). The shared readings of links, RED, loss and applications are `scope.py`'s.
"""

from __future__ import annotations

import copy
from typing import Any, Dict, Tuple

from ..errors import ScenarioError
from ..units import duration_s, limit, rate_bps
from .scope import RED_FIELDS, _app_bytes, _loss_rate, _red, _s

__all__ = ["NS3_TYPE_IDS", "ns3_plan"]

NS3_TYPE_IDS = {
    "reno": "ns3::TcpNewReno", "newreno": "ns3::TcpNewReno", "cubic": "ns3::TcpCubic", "highspeed": "ns3::TcpHighSpeed",
    "scalable": "ns3::TcpScalable", "htcp": "ns3::TcpHtcp", "bic": "ns3::TcpBic", "illinois": "ns3::TcpIllinois",
    "westwood": "ns3::TcpWestwoodPlus", "vegas": "ns3::TcpVegas", "veno": "ns3::TcpVeno", "yeah": "ns3::TcpYeah",
    "bbr": "ns3::TcpBbr", "dctcp": "ns3::TcpDctcp",
}
"""aimdlab's controllers and the ns-3 3.44 classes that run them (`reno`: `TcpNewReno`, whose
cut aimdlab's `ns3` profile models with `halve = "flight"`)."""

NS3_PROFILE = {"mss": "536B", "initial_cwnd": 10, "receive_window": "131072B", "min_rto": "1s", "initial_rto": "1s",
               "dupthresh": 3, "delayed_ack": True, "delayed_ack_timeout": "200ms", "sack": True, "prr": True,
               "timestamps": True, "limited_transmit": True, "ecn": False}
"""ns-3.44's TCP defaults, as aimdlab's `ns3` profile sets them (`docs/explanation/profiles.md`)."""

NS3_TCP_FIELDS = set(NS3_PROFILE) | {"profile", "recovery"}
NS3_WHY_NOT = {
    "loss_detection": "ns-3.44 finds losses by duplicate ACKs and SACK only (no RACK-TLP)",
    "cwnd_growth": "ns-3's controllers grow the window as their own classes do", "rto_estimator": "ns-3 runs RttMeanDeviation",
    "recovery_rules": "ns-3 runs its own rules (the ns3 profile's)", "first_decrease": "ns-3's controllers cut as their classes do",
    "timeout_ssthresh": "ns-3 asks the controller (GetSsThresh)", "header": "ns-3's TCP/IP header is 40 bytes",
    "quickacks": "ns-3's receivers have no quick ACKs", "cwr_freeze": "ns-3 has its CA_CWR state always",
    "initial_ssthresh": "ns-3 starts ssthresh unbounded", "ecn_echo": "ns-3's echo is its classes' own",
    "max_rto": "ns-3 caps the RTO at 60 s, fixed", "send_jitter": "ns-3 sends without jitter",
}


def _refuse3(field: str, why: str) -> ScenarioError:
    return ScenarioError(f"{field}: {why}; crosscheck --with ns3 cannot run it (see docs/explanation/crosscheck.md)")


def _bytes(value: Any, where: str) -> int:
    n, unit = limit(str(value) if not isinstance(value, int) else f"{value}B", where)
    if unit == "pkt":
        raise _refuse3(where, "give bytes (ns-3 counts this in bytes)")
    return int(n)


def _link3(spec: Dict[str, Any], where: str, bottleneck: bool) -> Dict[str, Any]:
    """A link in the ns-3 program's terms; refuses what it cannot build."""
    loss_rate = 0.0
    if isinstance(spec.get("loss"), dict):
        loss_rate = _loss_rate(spec["loss"], where, _refuse3)
        if loss_rate and not bottleneck:
            raise _refuse3(f"{where}.loss", "the ns-3 peer puts loss on the bottleneck only")
    elif spec.get("loss") not in (None, 0, 0.0):
        raise _refuse3(f"{where}.loss", "give a loss model table ({ model = \"bernoulli\", rate = …, applies_to = \"data\" })")
    for field, same in (("framing", ("2B",)), ("device_queue", ("1pkt",))):
        if spec.get(field) is not None and spec[field] not in same:
            raise _refuse3(f"{where}.{field}", "the ns-3 peer's links are PPP (2 bytes of framing) with a 1-packet device queue, "
                           "as the ns3 profile's; other values are not translated")
    queue = spec.get("queue") or {}
    kind = queue.get("kind", "droptail")
    allowed = {"droptail": {"kind", "limit"}, "red": {"kind", "limit"} | set(RED_FIELDS),
               "step": {"kind", "limit", "k"}}
    if kind not in allowed or (kind != "droptail" and not bottleneck):
        raise _refuse3(f"{where}.queue.kind", f"{kind!r} is not translated into ns-3 here (DropTail everywhere; RED and step "
                       "at the bottleneck)")
    extra = sorted(set(queue) - allowed[kind])
    if extra:
        raise _refuse3(f"{where}.queue.{extra[0]}", f"is not a {kind} setting crosscheck translates into ns-3")
    n, unit = limit(str(queue.get("limit", "100pkt")), f"{where}.queue.limit")
    if unit != "pkt":
        raise _refuse3(f"{where}.queue.limit", "the ns-3 peer's queues count packets (give \"…pkt\")")
    link = {"rate_bps": rate_bps(str(spec["rate"]), f"{where}.rate"), "delay_s": duration_s(str(spec["delay"]), f"{where}.delay"),
            "limit_pkts": int(n), "qdisc": "fifo", "defaults": {}, "loss_rate": loss_rate}
    if kind == "red":
        red = _red(queue, where, spec["rate"])
        if red["bytes_"] == "true":
            raise _refuse3(f"{where}.queue.min_th", "the ns-3 peer runs RED in packets (give thresholds in packets)")
        link["qdisc"] = "red"
        link["defaults"] = {"MinTh": red["thresh_"], "MaxTh": red["maxthresh_"], "LInterm": red["linterm_"], "QW": red["q_weight_"],
                            "Gentle": red["gentle_"], "Wait": red["wait_"], "MeanPktSize": red["mean_pktsize_"],
                            "UseEcn": red["setbit_"], "UseHardDrop": "true"}
    elif kind == "step":  # (DCTCP's marking queue: RED with min_th = max_th = K, q_w = 1, marks above K)
        k, kunit = limit(str(queue.get("k", "20pkt")), f"{where}.queue.k")
        if kunit != "pkt":
            raise _refuse3(f"{where}.queue.k", "the ns-3 peer's step queue counts packets")
        link["qdisc"] = "red"
        link["defaults"] = {"MinTh": k, "MaxTh": k, "QW": 1, "Gentle": "false", "UseEcn": "true", "UseHardDrop": "false"}
    return link


def ns3_plan(scenario: Dict[str, Any]) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """(the ns-3 plan of `scenario`, the scenario aimdlab runs beside it). Refuses, naming the
    field, whatever the ns-3 peer cannot run as aimdlab does."""
    for field in sorted(set(scenario) - {"name", "description", "duration", "warmup", "seed", "topology", "flows", "tcp",
                                         "sample_interval", "sampled_flows", "cwnd_trace", "pcap", "max_memory"}):
        raise _refuse3(field, "is not translated into ns-3")
    topology = scenario.get("topology") or {}
    if "dumbbell" not in topology:
        raise _refuse3(f"topology.{next(iter(topology), 'explicit')}", "crosscheck translates dumbbells into ns-3")
    d = topology["dumbbell"]
    bottleneck = _link3(d["bottleneck"], "topology.dumbbell.bottleneck", True)
    access = _link3(d["access"], "topology.dumbbell.access", False)
    reverse = _link3(d["reverse_bottleneck"], "topology.dumbbell.reverse_bottleneck", False) if "reverse_bottleneck" in d else None
    if reverse is not None and (reverse["rate_bps"], reverse["delay_s"]) != (bottleneck["rate_bps"], bottleneck["delay_s"]):
        raise _refuse3("topology.dumbbell.reverse_bottleneck", "the ns-3 peer's bottleneck has one rate and delay both ways")
    base_tcp = dict(scenario.get("tcp") or {})
    tcps, flows = [], []
    for gi, g in enumerate(scenario["flows"]):
        where = f"flows[{gi}]"
        if g.get("transport", "tcp") != "tcp":  # (first: a DCCP flow's own table would be named instead)
            raise _refuse3(f"{where}.transport", f"{g['transport']!r} is not translated yet (TCP is)")
        for field in sorted(set(g) - {"name", "count", "cc", "start", "start_jitter", "stop", "tcp", "access", "receiver_access",
                                      "transport", "app"}):
            raise _refuse3(f"{where}.{field}", "is not translated into ns-3")
        app_bytes = _app_bytes(g.get("app") or {"kind": "bulk"}, where, _refuse3)
        own = dict(g.get("tcp") or {})
        for w, table in (("tcp", base_tcp), (f"{where}.tcp", own)):
            for field, value in table.items():
                if field == "profile" and value != "ns3":
                    raise _refuse3(f"{w}.profile", f"{value!r}: crosscheck with ns-3 runs aimdlab's ns3 profile")
                if field not in NS3_TCP_FIELDS:
                    raise _refuse3(f"{w}.{field}", NS3_WHY_NOT.get(field, "it is not translated into ns-3"))
        tcps.append({**NS3_PROFILE, **base_tcp, **own})
        cc = g.get("cc", "reno")
        name = cc.get("name") if isinstance(cc, dict) else cc
        if name not in NS3_TYPE_IDS:
            raise _refuse3(f"{where}.cc", f"{name!r} is not a controller ns-3.44 has (it has {', '.join(sorted(NS3_TYPE_IDS))})")
        if isinstance(cc, dict) and set(cc) - {"name"}:
            raise _refuse3(f"{where}.cc.{sorted(set(cc) - {'name'})[0]}", "ns-3's controllers run with their own defaults "
                           "(the ns3 profile's); settings are not translated")
        own_access = _link3({**d["access"], **(g.get("access") or {})}, f"{where}.access", False) if g.get("access") else access
        own_recv = _link3({**d["access"], **(g.get("receiver_access") or {})}, f"{where}.receiver_access", False) \
            if g.get("receiver_access") else access
        stop = duration_s(str(g["stop"]), f"{where}.stop") if g.get("stop") is not None else None
        for _ in range(int(g.get("count") or 1)):
            flows.append({"group": gi, "type_id": NS3_TYPE_IDS[name], "access": own_access, "receiver_access": own_recv,
                          "max_bytes": app_bytes or 0,
                          "stop_s": stop, "start_s": 0.0})
    first = tcps[0]
    for gi, t in enumerate(tcps[1:], start=1):  # (ns-3's defaults are global: one TCP for every flow)
        differing = sorted(k for k in t if t.get(k) != first.get(k))
        if differing:
            raise _refuse3(f"flows[{gi}].tcp.{differing[0]}", "the ns-3 peer sets TCP once for every flow; give it in [tcp]")
    recovery = first.get("recovery") or ("sack" if first.get("sack") else "newreno")
    if recovery not in ("sack", "newreno"):
        raise _refuse3("tcp.recovery", f"{recovery!r}: ns-3.44 recovers with SACK or, without it, as NewReno")
    defaults: Dict[str, Any] = {
        "ns3::TcpSocket::SegmentSize": _bytes(first["mss"], "tcp.mss"),
        "ns3::TcpSocket::InitialCwnd": int(first["initial_cwnd"]),
        "ns3::TcpSocket::RcvBufSize": _bytes(first["receive_window"], "tcp.receive_window"),
        "ns3::TcpSocket::SndBufSize": _bytes(first["receive_window"], "tcp.receive_window"),
        "ns3::TcpSocket::DelAckCount": 2 if first["delayed_ack"] else 1,
        "ns3::TcpSocket::DelAckTimeout": f"{_s(first['delayed_ack_timeout'])!r}s",
        "ns3::TcpSocketBase::MinRto": f"{_s(first['min_rto'])!r}s",
        "ns3::RttEstimator::InitialEstimation": f"{_s(first['initial_rto'])!r}s",
        "ns3::TcpSocketBase::ReTxThreshold": int(first["dupthresh"]),
        "ns3::TcpSocketBase::Sack": "true" if recovery == "sack" else "false",
        "ns3::TcpSocketBase::Timestamp": "true" if first["timestamps"] else "false",
        "ns3::TcpSocketBase::LimitedTransmit": "true" if first["limited_transmit"] else "false",
        "ns3::TcpSocketBase::UseEcn": "On" if first["ecn"] else "Off",
        "ns3::TcpL4Protocol::RecoveryType": "ns3::TcpPrrRecovery" if first["prr"] else "ns3::TcpClassicRecovery",
    }
    defaults.update({f"ns3::RedQueueDisc::{k}": v for k, v in bottleneck["defaults"].items()})
    aimdlab_side = copy.deepcopy(scenario)
    aimdlab_side["tcp"] = {**(aimdlab_side.get("tcp") or {}), "profile": "ns3"}
    plan = {"bottleneck": bottleneck, "access": access, "defaults": defaults, "flows": flows,
            "reverse_limit_pkts": (reverse or bottleneck)["limit_pkts"],
            "duration_s": duration_s(str(scenario["duration"]), "duration"),
            "warmup_s": duration_s(str(scenario.get("warmup", "0s")), "warmup"),
            "sample_interval_s": duration_s(str(scenario.get("sample_interval", "100ms")), "sample_interval")}
    return plan, aimdlab_side
