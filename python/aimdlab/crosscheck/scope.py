"""What a crosscheck can run in ns-2.35, refused field by field outside it (ns-3's scope is
`scope_ns3.py`, which shares this file's readings of links, RED, loss and applications).

A scenario is read once, before anything runs: every field it sets is either translated into
the peer's terms or refused with a line that names the field and says why (ns-2.35 has no
PRR, say). The aimdlab side runs the scenario as written with `tcp.profile = "ns2"`, ns-2.35's
TCP value by value (see `docs/explanation/profiles.md`); a field that sets a TCP detail ns-2
can also set (the segment size, the recovery, delayed ACKs, the initial window, the timers,
the receive window) is set in both.
"""

from __future__ import annotations

import copy
import math
from typing import Any, Dict, List, Tuple

from ..errors import ScenarioError
from ..units import duration_s, limit, rate_bps

__all__ = ["ns2_plan"]

NS2_PROFILE = {"mss": 1000, "initial_cwnd": 2, "receive_window": 20, "min_rto": 0.2, "max_rto": 60.0, "initial_rto": 3.0,
               "dupthresh": 3, "delayed_ack_timeout": 0.1}
"""ns-2.35's defaults, as the `ns2` profile sets them (`docs/explanation/profiles.md`)."""

AGENTS = {"reno": "Reno", "newreno": "Newreno", "sack": "Sack1"}
TCP_FIELDS = {"mss", "recovery", "sack", "delayed_ack", "delayed_ack_timeout", "initial_cwnd", "receive_window", "min_rto",
              "max_rto", "initial_rto", "dupthresh", "profile", "ecn", "send_jitter"}
WHY_NOT = {
    "prr": "ns-2.35 has no PRR", "loss_detection": "ns-2.35 finds losses by duplicate ACKs only (no RACK-TLP)",
    "cwnd_growth": "ns-2.35 grows the window once per new ACK (per_ack)", "timestamps": "the ns2 profile runs without timestamps",
    "rto_estimator": "ns-2.35 runs its own estimator",
    "recovery_rules": "ns-2.35 runs its own rules (the ns2 profile's)", "first_decrease": "ns-2.35 halves as the ns2 profile does",
    "timeout_ssthresh": "ns-2.35 halves as the ns2 profile does", "header": "ns-2.35's TCP header is 40 bytes",
    "quickacks": "ns-2.35's sinks have no quick ACKs", "cwr_freeze": "ns-2.35 has no CWR state",
    "limited_transmit": "the ns2 profile's limited transmit is ns-2's singledup_ (not translated yet)",
    "initial_ssthresh": "ns-2.35 starts ssthresh at the receive window", "ecn_echo": "ECN is not translated yet",
}


def _refuse(field: str, why: str) -> ScenarioError:
    return ScenarioError(f"{field}: {why}; crosscheck --with ns2 cannot run it (see docs/explanation/crosscheck.md)")


def _link(spec: Dict[str, Any], where: str) -> Dict[str, Any]:
    """A link of the dumbbell in ns-2's terms; refuses what ns-2's duplex-link DropTail cannot be."""
    loss_rate = 0.0
    for field in ("loss", "framing", "device_queue"):
        value = spec.get(field)
        if isinstance(value, dict) and field == "loss":
            loss_rate = _loss_rate(value, where)
            continue
        if value not in (None, 0, "0B", "0pkt"):
            raise _refuse(f"{where}.{field}", f"{field} is not translated into ns-2")
    queue = spec.get("queue") or {}
    kind = queue.get("kind", "droptail")
    if kind not in ("droptail", "red"):
        raise _refuse(f"{where}.queue.kind", f"{kind!r} is not translated yet (DropTail and RED are)")
    allowed = {"kind", "limit"} | (set(RED_FIELDS) if kind == "red" else set())
    extra = sorted(set(queue) - allowed)
    if extra:
        why = {
               "mark_forced": "ns-2's RED drops above max_th also with ECN (mark_forced false)",
               "variant": "ns-2 runs its own RED (the ns2 variant)"}
        raise _refuse(f"{where}.queue.{extra[0]}", why.get(extra[0], f"is not a {kind} setting crosscheck translates"))
    n, unit = limit(str(queue.get("limit", "100pkt")), f"{where}.queue.limit")
    red = _red(queue, where, spec["rate"]) if kind == "red" else None
    in_bytes = red is not None and red["queue_in_bytes_"] == "true"
    if in_bytes != (unit != "pkt"):
        raise _refuse(f"{where}.queue.limit", "RED in byte mode takes its limit in bytes, in packet mode in packets"
                      if red is not None else "a DropTail limit in bytes is not translated (give packets)")
    link = {"rate_bps": rate_bps(str(spec["rate"]), f"{where}.rate"), "delay_s": duration_s(str(spec["delay"]), f"{where}.delay"),
            "limit_pkts": int(n), "kind": kind, "loss_rate": loss_rate}
    if red is not None:
        link["red"] = red
        if in_bytes:  # (ns-2 counts a byte-mode limit in mean_pktsize_ units)
            link["limit_pkts"] = int(round(n / red["mean_pktsize_"]))
    return link


def _loss_rate(loss: Dict[str, Any], where: str, refuse: Any = None) -> float:
    """A link's loss in a peer's terms: a Bernoulli packet error rate on data packets (ns-2: an
    `ErrorModel` after the link, `unit pkt`; ns-3: a `RateErrorModel` at the receiving end),
    0 for a model that loses nothing."""
    refuse = refuse or _refuse
    if loss.get("model") != "bernoulli":
        raise refuse(f"{where}.loss.model", f"{loss.get('model')!r} is not translated (bernoulli is)")
    rate = float(loss.get("rate") or 0.0)
    if rate == 0.0:
        return 0.0
    if loss.get("applies_to", "both") != "data":
        raise refuse(f"{where}.loss.applies_to", f"{loss.get('applies_to', 'both')!r} is not translated (\"data\" is)")
    if loss.get("retries"):
        raise refuse(f"{where}.loss.retries", "the peer's error model has no link-layer retransmission")
    return rate


RED_FIELDS = {"min_th": "5pkt", "max_th": "15pkt", "max_p": 0.1, "w_q": 0.002, "gentle": True, "wait": True,
              "mean_pkt_size": "500B", "ecn": False, "auto": False, "target": "5ms"}
"""The RED settings crosscheck translates, with aimdlab's defaults (ns-2's rules, packet mode)."""


def _red(queue: Dict[str, Any], where: str, link_rate: Any) -> Dict[str, Any]:
    """A RED queue in ns-2's `Queue/RED` terms (packet mode: thresholds in packets)."""
    red = {**RED_FIELDS, **{k: v for k, v in queue.items() if k in RED_FIELDS}}
    mean, _ = limit(str(red["mean_pkt_size"]), f"{where}.queue.mean_pkt_size")
    if red["auto"]:
        # aimdlab's `auto` (Adaptive RED's rules, packet mode) computed here and given to ns-2
        # value by value: the scenario's RED, not ns-2.35's own automatic one (byte mode).
        c = rate_bps(str(link_rate), f"{where}.rate") / (8.0 * int(mean))
        target = duration_s(str(red["target"]), f"{where}.queue.target")
        low = max(5.0, target * c / 2.0)
        red["w_q"] = 1.0 - math.exp(-1.0 / c)
    out: Dict[str, Any] = {}
    units = set()
    for field in ("min_th", "max_th"):
        if red["auto"]:
            n, unit = (low if field == "min_th" else 3 * low), "pkt"
        else:
            n, unit = limit(str(red[field]), f"{where}.queue.{field}")
        units.add(unit)
        # Byte mode (thresholds in bytes): ns-2 takes thresh_ and maxthresh_ in mean_pktsize_ units.
        out[field] = n if unit == "pkt" else n / int(mean)
    if len(units) > 1:
        raise _refuse(f"{where}.queue.max_th", "min_th and max_th in different units")
    byte_mode = "false" if units == {"pkt"} else "true"
    return {"thresh_": out["min_th"], "maxthresh_": out["max_th"], "linterm_": 1.0 / float(red["max_p"]),
            "q_weight_": float(red["w_q"]), "gentle_": "true" if red["gentle"] else "false",
            "wait_": "true" if red["wait"] else "false", "mean_pktsize_": int(mean), "bytes_": byte_mode,
            "queue_in_bytes_": byte_mode, "setbit_": "true" if red["ecn"] else "false"}


def _tcp(table: Dict[str, Any], where: str) -> Dict[str, Any]:
    for field, value in table.items():
        if field == "profile" and value != "ns2":
            raise _refuse(f"{where}.profile", f"{value!r}: crosscheck with ns-2 runs aimdlab's ns2 profile")
        if field not in TCP_FIELDS:
            raise _refuse(f"{where}.{field}", WHY_NOT.get(field, "it is not translated into ns-2"))
    return table


def ns2_plan(scenario: Dict[str, Any]) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """(the ns-2 plan of `scenario`, the scenario aimdlab runs beside it). Refuses, naming the
    field, whatever ns-2.35 cannot run as aimdlab does."""
    for field in sorted(set(scenario) - {"name", "description", "duration", "warmup", "seed", "topology", "flows", "tcp",
                                         "sample_interval", "sampled_flows", "cwnd_trace", "pcap", "max_memory"}):
        raise _refuse(field, "is not translated into ns-2")
    topology = scenario.get("topology") or {}
    explicit = _explicit(topology["explicit"]) if "explicit" in topology else None
    if explicit is None and "dumbbell" not in topology:
        raise _refuse(f"topology.{next(iter(topology), 'topology')}", "crosscheck translates dumbbells and explicit topologies into ns-2")
    d = topology.get("dumbbell") or {}
    if explicit is None:
        bottleneck = _link(d["bottleneck"], "topology.dumbbell.bottleneck")
        access = _link(d["access"], "topology.dumbbell.access")
        reverse = _link(d["reverse_bottleneck"], "topology.dumbbell.reverse_bottleneck") if "reverse_bottleneck" in d else bottleneck
        if (reverse["rate_bps"], reverse["delay_s"]) != (bottleneck["rate_bps"], bottleneck["delay_s"]):
            raise _refuse("topology.dumbbell.reverse_bottleneck", "ns-2's duplex-link has one rate and delay both ways")
    else:
        bottleneck = access = reverse = explicit["bottleneck"]
    base_tcp = _tcp(dict(scenario.get("tcp") or {}), "tcp")
    flows: List[Dict[str, Any]] = []
    for gi, g in enumerate(scenario["flows"]):
        where = f"flows[{gi}]"
        ends = {"src", "dst"} if explicit is not None else {"access", "receiver_access"}
        app = g.get("app") or {"kind": "bulk"}
        self_paced = app.get("kind", "bulk") not in ("bulk", "finite")
        transport = g.get("transport", "udp" if self_paced else "tcp")
        if transport not in ("tcp", "udp"):  # (first: a DCCP flow's own table would be named instead)
            raise _refuse(f"{where}.transport", f"{transport!r} is not translated yet (TCP and UDP are)")
        for field in sorted(set(g) - {"name", "count", "cc", "start", "start_jitter", "stop", "tcp", "transport", "app"} - ends):
            raise _refuse(f"{where}.{field}", "is not translated into ns-2")
        if transport == "udp":
            flows += _udp_flows(g, where, {**NS2_PROFILE, **base_tcp}, explicit, d, access)
            continue
        app_bytes = _app_bytes(app, where, _refuse)
        tcp = {**NS2_PROFILE, **base_tcp, **_tcp(dict(g.get("tcp") or {}), f"{where}.tcp")}
        recovery = tcp.get("recovery") or ("sack" if tcp.get("sack") else "reno")
        if tcp.get("sack") is False and recovery == "sack":
            recovery = "newreno"
        cc = g.get("cc", "reno")
        name = cc.get("name") if isinstance(cc, dict) else cc
        settings: Dict[str, Any] = {}
        if name in ("reno", "newreno"):
            extra = sorted(set(cc) - {"name"}) if isinstance(cc, dict) else []
            if extra:
                raise _refuse(f"{where}.cc.{extra[0]}", "is not translated into ns-2")
        elif name == "gaimd":
            params = cc if isinstance(cc, dict) else {}
            alpha, beta = params.get("alpha", 1.0), float(params.get("beta", 0.5))
            if alpha == "tcp-friendly":  # (gaimd.txt eq. 7, or eq. 6 with friendly_curve = "td", as the engine derives it)
                from ..models.gaimd import tcp_friendly_alpha_td, tcp_friendly_alpha_to

                td = params.get("friendly_curve", "to") == "td"
                alpha = float(tcp_friendly_alpha_td(beta) if td else tcp_friendly_alpha_to(beta))
            if not isinstance(alpha, (int, float)) or set(params) - {"name", "alpha", "beta", "friendly_curve"}:
                raise _refuse(f"{where}.cc", "GAIMD goes to ns-2 with alpha (a number or tcp-friendly) and beta only "
                              "(increase_num_, decrease_num_)")
            settings.update(increase_num_=float(alpha), decrease_num_=float(beta))
        else:
            raise _refuse(f"{where}.cc", f"{name!r} is not an ns-2.35 agent crosscheck translates (reno, newreno, gaimd)")
        mss = int(limit(str(tcp["mss"]) if not isinstance(tcp["mss"], int) else f"{tcp['mss']}B", f"{where}.tcp.mss")[0])
        if tcp.get("ecn"):
            settings["ecn_"] = 1  # (the sink echoes marks by itself)
        if tcp.get("send_jitter"):
            settings["overhead_"] = _s(tcp["send_jitter"])  # (a random delay before each packet is sent)
        # (ns-2.35 opens with a simulated SYN — `syn_`: packet 0 is 40 bytes, cwnd 1 until its
        # ACK — and `delay_growth_` resets the window to windowInit_ at the first ACK; aimdlab's
        # ns2 profile has no handshake and opens with windowInit_ at once: both off here)
        settings.update(syn_="false", delay_growth_="false")
        settings.update(packetSize_=mss, window_=_window_pkts(tcp["receive_window"], f"{where}.tcp.receive_window"), windowInit_=int(tcp["initial_cwnd"]),
                        minrto_=_s(tcp["min_rto"]), maxrto_=_s(tcp["max_rto"]), rtxcur_init_=_s(tcp["initial_rto"]),
                        numdupacks_=int(tcp["dupthresh"]))
        delayed = bool(tcp.get("delayed_ack"))
        sink = {"reno": "TCPSink", "newreno": "TCPSink", "sack": "TCPSink/Sack1"}[recovery] + ("/DelAck" if delayed else "")
        flow_ends = _ends(g, where, explicit, d, access)
        stop = duration_s(str(g["stop"]), f"{where}.stop") if g.get("stop") is not None else None
        for _ in range(int(g.get("count") or 1)):
            flows.append({"group": gi, "agent": AGENTS[recovery], "sink": sink, "agent_settings": settings,
                          "packets": None if app_bytes is None else max(1, math.ceil(app_bytes / mss)),
                          "sink_settings": {"interval_": _s(tcp["delayed_ack_timeout"])} if delayed else {},
                          "mss_bytes": mss, "stop_s": stop, "start_s": 0.0, **flow_ends})
    aimdlab_side = copy.deepcopy(scenario)
    aimdlab_side["tcp"] = {**(aimdlab_side.get("tcp") or {}), "profile": "ns2"}
    plan = {"bottleneck": bottleneck, "access": access, "reverse_limit_pkts": reverse["limit_pkts"], "flows": flows, **(explicit or {}),
            "duration_s": duration_s(str(scenario["duration"]), "duration"),
            "warmup_s": duration_s(str(scenario.get("warmup", "0s")), "warmup"),
            "sample_interval_s": duration_s(str(scenario.get("sample_interval", "100ms")), "sample_interval")}
    return plan, aimdlab_side


def _app_bytes(app: Dict[str, Any], where: str, refuse: Any) -> Any:
    """A flow's application in the peers' terms: None for a bulk transfer, the payload bytes
    of a finite one (`kind = "finite"`, `size`); refuses the others."""
    kind = app.get("kind", "bulk")
    if kind == "bulk" and set(app) <= {"kind"}:
        return None
    if kind == "finite" and set(app) <= {"kind", "size"} and app.get("size") is not None:
        n, unit = limit(str(app["size"]) if not isinstance(app["size"], int) else f"{app['size']}B", f"{where}.app.size")
        if unit == "pkt":
            raise refuse(f"{where}.app.size", "give the size in bytes")
        return int(n)
    if kind in ("bulk", "finite"):
        extra = sorted(set(app) - {"kind", "size"}) or ["size"]
        raise refuse(f"{where}.app.{extra[0]}", "is not translated (a finite transfer goes with its size only)")
    raise refuse(f"{where}.app.kind", f"{kind!r} is not translated yet (bulk and finite are)")


def _ends(g: Dict[str, Any], where: str, explicit: Any, d: Dict[str, Any], access: Dict[str, Any]) -> Dict[str, Any]:
    """Where a flow group's flows start and end: an explicit topology's `src` and `dst` nodes,
    or a dumbbell's sender and receiver access links (the group's own over the dumbbell's)."""
    if explicit is not None:
        return {"src": g["src"], "dst": g["dst"]}

    def own(field: str) -> Dict[str, Any]:
        return _link({**d["access"], **g[field]}, f"{where}.{field}") if g.get(field) else access

    return {"access": own("access"), "receiver_access": own("receiver_access")}


def _udp_flows(g: Dict[str, Any], where: str, tcp: Dict[str, Any], explicit: Any, d: Dict[str, Any],
               access: Dict[str, Any]) -> List[Dict[str, Any]]:
    """A UDP flow group in ns-2's terms: an `Agent/UDP` of `packetSize_` = mss + 40 (the wire
    size, as aimdlab's UDP packet counts it) feeding an `Agent/LossMonitor`, driven by
    `Application/Traffic/CBR` (`rate_`, `random_ 0`) or `Application/Traffic/Pareto`
    (`rate_`, `burst_time_`, `idle_time_`, `shape_`: ns-2 draws a burst's length in whole
    packets, aimdlab its ON time)."""
    for field in sorted(set(g) - {"name", "count", "start", "start_jitter", "stop", "transport", "app", "access", "receiver_access",
                                  "src", "dst"}):
        raise _refuse(f"{where}.{field}", "is not a setting of a UDP flow crosscheck translates")
    app = dict(g.get("app") or {})
    kind = app.pop("kind", "bulk")
    mss = int(limit(str(tcp["mss"]) if not isinstance(tcp["mss"], int) else f"{tcp['mss']}B", "tcp.mss")[0])
    traffic: Dict[str, Any]
    if kind == "cbr":
        extra, traffic = sorted(set(app) - {"rate"}), {"rate_": rate_bps(str(app.get("rate", "1Mbps")), f"{where}.app.rate"), "random_": 0}
    elif kind == "onoff":
        extra = sorted(set(app) - {"rate", "on", "off", "shape"})
        traffic = {"rate_": rate_bps(str(app.get("rate", "500Kbps")), f"{where}.app.rate"),
                   "burst_time_": duration_s(str(app.get("on", "1s")), f"{where}.app.on"),
                   "idle_time_": duration_s(str(app.get("off", "2s")), f"{where}.app.off"), "shape_": float(app.get("shape", 1.5))}
    else:
        raise _refuse(f"{where}.app.kind", f"{kind!r} over UDP is not translated yet (cbr and onoff are)")
    if extra:
        raise _refuse(f"{where}.app.{extra[0]}", "is not translated into ns-2")
    ends = _ends(g, where, explicit, d, access)
    stop = duration_s(str(g["stop"]), f"{where}.stop") if g.get("stop") is not None else None
    return [{"udp": True, "traffic": "Pareto" if kind == "onoff" else "CBR", "traffic_settings": {**traffic, "packetSize_": mss + 40},
             "packet_bytes": mss + 40, "mss_bytes": mss, "stop_s": stop, "start_s": 0.0, **ends}
            for _ in range(int(g.get("count") or 1))]


def _explicit(e: Dict[str, Any]) -> Dict[str, Any]:
    """An explicit topology in ns-2's terms: its nodes, its links (ns-2's `duplex-link` or
    `simplex-link`), and the first monitored link as the bottleneck, as aimdlab's summary takes
    it. ns-2 routes by hop count, as aimdlab does (a tie between equal paths may go another way
    in each: crosscheck gives such topologies their own `routes` in neither)."""
    where = "topology.explicit"
    for field in sorted(set(e) - {"nodes", "links"}):
        raise _refuse(f"{where}.{field}", "is not translated into ns-2 (routes follow ns-2's hop count)")
    links = []
    for i, spec in enumerate(e["links"]):
        at = f"{where}.links[{i}]"
        for field in sorted(set(spec) - {"from", "to", "rate", "delay", "queue", "monitor", "duplex", "loss", "framing", "device_queue"}):
            raise _refuse(f"{at}.{field}", "is not translated into ns-2")
        link = _link(spec, at)
        if link["loss_rate"]:
            raise _refuse(f"{at}.loss", "loss on an explicit topology's link is not translated yet (on a dumbbell's bottleneck it is)")
        links.append({**link, "from": spec["from"], "to": spec["to"], "duplex": spec.get("duplex", True) is not False,
                      "monitor": bool(spec.get("monitor"))})
    monitored = [link for link in links if link["monitor"]]
    if not monitored:
        raise _refuse(f"{where}.links", "no link has monitor = true; crosscheck compares the first monitored link (aimdlab's bottleneck)")
    return {"nodes": list(e["nodes"]), "links": links, "bottleneck": monitored[0]}


def _s(value: Any) -> float:
    """A time given as text with a unit ("200ms") or as seconds."""
    return duration_s(value, "time") if isinstance(value, str) else float(value)


def _window_pkts(value: Any, where: str) -> int:
    """The receive window in packets (ns-2's `window_`)."""
    if isinstance(value, int):
        return value
    n, unit = limit(str(value), where)
    if unit != "pkt":
        raise _refuse(where, "a window in bytes is not translated (ns-2's window_ counts packets)")
    return int(n)
