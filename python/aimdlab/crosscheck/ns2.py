"""ns-2.35 as a peer: a scenario in ns-2's own terms (an OTcl script of its agents, sinks, links
and queues), run by the `ns` binary, and what it measured read back.

Conventions of ns-2.35, each measured here rather than assumed (`tests/test_crosscheck.py`
checks them against `ns` when it is installed):

- A TCP data packet is `packetSize_` of payload plus a 40-byte header (`tcpip_base_hdr_size_`):
  1040 bytes on the wire for `packetSize_ 1000`, aimdlab's `mss = "1000B"` under the `ns2`
  profile. An ACK is 40 bytes.
- A DropTail `queue-limit` of L holds L − 1 waiting packets besides the one on the wire
  (`DropTail::enque` drops when `length() + 1 >= qlim_`); aimdlab's `limit` counts waiting
  packets only, so aimdlab's L is ns-2's L + 1. A RED queue's `queue-limit` of L holds L
  waiting packets: the same L.
- RED is set through `Queue/RED`'s class defaults before its link is made, every value given
  (ns-2.35's own defaults are automatic thresholds, `q_weight_ -1`): `thresh_`, `maxthresh_`,
  `linterm_` = 1/max_p, `q_weight_`, `gentle_`, `wait_`, `mean_pktsize_`, packet mode.
- ns-2.35's agents open with a simulated SYN (`syn_ true`: packet 0 is a 40-byte SYN, cwnd
  1 until its ACK) and `delay_growth_ true` (the window reset to `windowInit_` at the first
  ACK); aimdlab has no handshake and opens with the initial window at once, so the script
  sets both false. Measured: with them off, two SACK flows on a 1.5 Mbit/s link (seed 2)
  run packet for packet as in aimdlab — the same drops and per-flow retransmissions — where
  with them on each flow starts a round trip later and the runs part at once. With `syn_
  false` ns-2 sends packet 0 without the 40-byte header (1000 bytes for `packetSize_ 1000`),
  and at an arrival and a departure of the same instant it runs the one scheduled first where
  aimdlab always runs the arrival first: seeds 1 and 3 part at a slow-start drop for these
  reasons (docs/explanation/crosscheck.md).
- `ack_` is the highest cumulative ACK, a packet number from 0 (−1 before the first): the
  payload delivered by a time is (`ack_` + 1) · `packetSize_`.
- `nrexmitpack_` counts retransmitted packets, `nrexmit_` every retransmission timeout (each
  backoff too): aimdlab's `retransmitted_pkts` and `timeouts`. `ndatapack_` counts data
  packets sent, retransmissions included: × (`packetSize_` + 40) bytes, aimdlab's
  `send_rate_bps` (wire bytes of data sent).
- The bottleneck's loss on data packets (a Bernoulli packet error rate) is an `ErrorModel`
  (`unit pkt`) on the link from r2 to each receiver: the packet has used the bottleneck, as in
  aimdlab, where a lost packet is dropped when its transmission ends; the queue monitor does
  not see it (`drops` compares queue drops on both sides).
- A UDP flow is an `Agent/UDP` whose `packetSize_` is the wire size (mss + 40: ns-2 adds no
  header to it) feeding an `Agent/LossMonitor`; CBR is `Application/Traffic/CBR` (`rate_`,
  `random_ 0`), ON/OFF `Application/Traffic/Pareto` (`rate_`, `burst_time_`, `idle_time_`,
  `shape_`; ns-2 draws a burst's length in whole packets where aimdlab draws an ON time).
  Measured: a 2 Mbit/s CBR flow delivers 2 · 1000/1040 Mbit/s of payload in both.
- A queue monitor (`monitor-queue`) sits around the queue: its `pdrops_` are the queue's drops,
  `bdepartures_` the bytes that left for the wire, and its packet integrator the time integral
  of the waiting packets (the one on the wire is not in it).

The script is ns-2's own: links by `duplex-link`, one `Agent/TCP/Reno`, `Newreno` or `Sack1`
per flow with a `TCPSink` (`/Sack1`, `/DelAck`) and an `Application/FTP`, GAIMD as ns-2 runs it
(`increase_num_`, `decrease_num_`); a finite transfer of N packets is `$ftp produce N`
(measured: `produce 100` sends 100 data packets; with ns-2's simulated SYN on, packet 0 is the
SYN and 101 go out). Each flow starts when aimdlab's flow of that seed started,
so the two simulators run the same set-up with the same start times.
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
from typing import Any, Dict, List, Optional, Tuple

__all__ = ["Ns2Error", "automatic_red", "available", "measures", "run", "run_script", "script", "version"]


class Ns2Error(RuntimeError):
    """ns-2 is missing or its run failed; the message says how to get it or what it printed."""


MISSING = "ns-2 is not installed (no `ns` on PATH); on Debian or Ubuntu: sudo apt-get install ns2"
"""What a command says when `ns` is not there."""


def available() -> Optional[str]:
    """The path of the `ns` binary, or None."""
    return shutil.which(os.environ.get("AIMDLAB_NS2", "ns"))


def version() -> Dict[str, Any]:
    """Which ns-2 ran: the binary, what it says of its version (`ns-version`), and the Debian
    package's version where there is one."""
    ns = available()
    out: Dict[str, Any] = {"binary": ns}
    if ns is None:
        return out
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "version.tcl")
        with open(path, "w", encoding="utf-8") as f:
            f.write("puts [ns-version]\nexit 0\n")
        done = subprocess.run([ns, path], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    out["version"] = done.stdout.strip() or None
    try:
        pkg = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "ns2"], capture_output=True, text=True, timeout=30)
        out["debian_package"] = (pkg.stdout.strip() or None) if pkg.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        out["debian_package"] = None
    return out


def automatic_red(rate_bps: float, delay_s: float, limit: int, mean_pkt_bytes: int = 500, target_delay_s: float = 0.005) -> Dict[str, Any]:
    """The RED queue ns-2.35 builds with its own defaults (`Queue/RED` as `ns-default.tcl` sets
    it: `bytes_` and `queue_in_bytes_` true, `thresh_` and `maxthresh_` 0, `q_weight_` -1,
    `linterm_` 10, `gentle_` and `wait_` true, `mean_pktsize_` 500, `targetdelay_` 0.005) on a
    link of `rate_bps` and `delay_s` with `queue-limit` `limit`, as an aimdlab queue table.

    `queue/red.cc` (`initialize_params`, `reset`): C = rate / (8 · mean_pktsize) packets per
    second; min_th = max(5, targetdelay · C / 2) and max_th = 3 · min_th packets of
    mean_pktsize, in bytes since the queue is measured in bytes; q_w = 1 − exp(−1 / (10 · rtt ·
    C)) with rtt = max(0.1, 3 · (delay + 1/C)); the limit is `limit` · mean_pktsize bytes.
    Thresholds are rounded to whole bytes (at most half a byte off)."""
    c = rate_bps / (8.0 * mean_pkt_bytes)
    th_min = max(5.0, target_delay_s * c / 2.0)
    rtt = max(0.1, 3.0 * (delay_s + 1.0 / c))
    return {"kind": "red", "limit": f"{limit * mean_pkt_bytes}B", "min_th": f"{round(th_min * mean_pkt_bytes)}B",
            "max_th": f"{round(3 * th_min * mean_pkt_bytes)}B", "max_p": 0.1, "w_q": 1.0 - math.exp(-1.0 / (10.0 * rtt * c)),
            "gentle": True, "wait": True, "mean_pkt_size": f"{mean_pkt_bytes}B"}


def _queue(link: Dict[str, Any]) -> str:
    return "RED" if link.get("kind") == "red" else "DropTail"


def _limit(link: Dict[str, Any]) -> int:
    """ns-2's `queue-limit` for aimdlab's limit of waiting packets: DropTail holds one fewer
    than its limit, RED its limit (both measured)."""
    return link["limit_pkts"] + (0 if link.get("kind") == "red" else 1)


def _red_defaults(link: Dict[str, Any]) -> List[str]:
    """`Queue/RED set ...` lines that make the next RED queue the link's (ns-2.35's own defaults
    are its automatic thresholds)."""
    return [f"Queue/RED set {name} {value}" for name, value in (link.get("red") or {}).items()]


def _wire_loss(bottleneck: Dict[str, Any], i: int) -> List[str]:
    """The bottleneck's loss on data packets, as an `ErrorModel` on the link from r2 to flow
    i's receiver: a packet is lost after it crossed the bottleneck (it used the link, as in
    aimdlab), and the bottleneck's queue monitor counts queue drops only."""
    rate = bottleneck.get("loss_rate") or 0.0
    if not rate:
        return []
    return [f"set em({i}) [new ErrorModel]", f"$em({i}) unit pkt", f"$em({i}) set rate_ {rate!r}",
            f"$em({i}) ranvar [new RandomVariable/Uniform]", f"$em({i}) drop-target [new Agent/Null]",
            f"$ns lossmodel $em({i}) $r2 $d({i})"]


def _dumbbell_lines(plan: Dict[str, Any]) -> Tuple[List[str], List[Tuple[str, str]]]:
    """A dumbbell's nodes, links and bottleneck queue monitor; and each flow's (sender,
    receiver) node."""
    bn = plan["bottleneck"]
    lines = [
        "set r1 [$ns node]",
        "set r2 [$ns node]",
        *_red_defaults(bn),
        f"$ns duplex-link $r1 $r2 {bn['rate_bps']} {bn['delay_s']!r} {_queue(bn)}",
        f"$ns queue-limit $r1 $r2 {_limit(bn)}",
        f"$ns queue-limit $r2 $r1 {_limit({**bn, 'limit_pkts': plan['reverse_limit_pkts']})}",
        'set qmon [$ns monitor-queue $r1 $r2 ""]',
    ]
    ends = []
    for i, f in enumerate(plan["flows"]):
        a, ra = f["access"], f["receiver_access"]
        lines += [
            f"set s({i}) [$ns node]",
            f"set d({i}) [$ns node]",
            *_red_defaults(a),
            f"$ns duplex-link $s({i}) $r1 {a['rate_bps']} {a['delay_s']!r} {_queue(a)}",
            f"$ns queue-limit $s({i}) $r1 {_limit(a)}",
            f"$ns queue-limit $r1 $s({i}) {_limit(a)}",
            *_red_defaults(ra),
            f"$ns duplex-link $r2 $d({i}) {ra['rate_bps']} {ra['delay_s']!r} {_queue(ra)}",
            f"$ns queue-limit $r2 $d({i}) {_limit(ra)}",
            f"$ns queue-limit $d({i}) $r2 {_limit(ra)}",
            *_wire_loss(bn, i),
        ]
        ends.append((f"$s({i})", f"$d({i})"))
    return lines, ends


def _explicit_lines(plan: Dict[str, Any]) -> Tuple[List[str], List[Tuple[str, str]]]:
    """An explicit topology's nodes and links (ns-2 routes by hop count, as aimdlab does), the
    queue monitor of its first monitored link (aimdlab's `bottleneck`), and each flow's
    (sender, receiver) node."""
    names = {n: f"$n({k})" for k, n in enumerate(plan["nodes"])}
    lines = [f"set n({k}) [$ns node]" for k in range(len(plan["nodes"]))]
    for link in plan["links"]:
        a, b = names[link["from"]], names[link["to"]]
        lines += [*_red_defaults(link),
                  f"$ns {'duplex' if link['duplex'] else 'simplex'}-link {a} {b} {link['rate_bps']} {link['delay_s']!r} {_queue(link)}",
                  f"$ns queue-limit {a} {b} {_limit(link)}"]
        if link["duplex"]:
            lines.append(f"$ns queue-limit {b} {a} {_limit(link)}")
    bn = plan["bottleneck"]
    lines.append(f'set qmon [$ns monitor-queue {names[bn["from"]]} {names[bn["to"]]} ""]')
    return lines, [(names[f["src"]], names[f["dst"]]) for f in plan["flows"]]


def script(plan: Dict[str, Any], starts_s: List[float]) -> str:
    """The OTcl script of `plan` (what `scope.ns2_plan` gives: a dumbbell or an explicit
    topology, its flows resolved) with flow i starting at `starts_s[i]`. It prints one line per
    measurement: `W ...` at the start of the window, `E ...` at the end, `S ...` (queue, flow
    0's cwnd) every sample."""
    flows = plan["flows"]
    topology, ends = _explicit_lines(plan) if "nodes" in plan else _dumbbell_lines(plan)
    lines = ["# Written by aimdlab crosscheck: the scenario in ns-2.35's own terms.", "set ns [new Simulator]", *topology]
    for i, f in enumerate(flows):
        src, dst = ends[i]
        if f.get("udp"):
            lines += [f"set udp({i}) [new Agent/UDP]", f"$udp({i}) set packetSize_ {f['packet_bytes']}",
                      f"set sink({i}) [new Agent/LossMonitor]", f"$ns attach-agent {src} $udp({i})",
                      f"$ns attach-agent {dst} $sink({i})", f"$ns connect $udp({i}) $sink({i})", f"$udp({i}) set fid_ {i}",
                      f"set app({i}) [new Application/Traffic/{f['traffic']}]",
                      *[f"$app({i}) set {k} {v!r}" for k, v in f["traffic_settings"].items()],
                      f"$app({i}) attach-agent $udp({i})", f"$ns at {starts_s[i]!r} \"$app({i}) start\""]
            if f.get("stop_s") is not None:
                lines.append(f"$ns at {f['stop_s']!r} \"$app({i}) stop\"")
            continue
        lines += [
            f"set tcp({i}) [new Agent/TCP/{f['agent']}]",
            f"set sink({i}) [new Agent/{f['sink']}]",
        ]
        for name, value in f["agent_settings"].items():
            lines.append(f"$tcp({i}) set {name} {value}")
        for name, value in f["sink_settings"].items():
            lines.append(f"$sink({i}) set {name} {value}")
        lines += [
            f"$ns attach-agent {src} $tcp({i})",
            f"$ns attach-agent {dst} $sink({i})",
            f"$ns connect $tcp({i}) $sink({i})",
            f"$tcp({i}) set fid_ {i}",
            f"set ftp({i}) [new Application/FTP]",
            f"$ftp({i}) attach-agent $tcp({i})",
            # (a finite transfer of n packets: `produce n`)
            f"$ns at {starts_s[i]!r} \"$ftp({i}) start\"" if f.get("packets") is None
            else f"$ns at {starts_s[i]!r} \"$ftp({i}) produce {f['packets']}\"",
        ]
        if f.get("stop_s") is not None:
            lines.append(f"$ns at {f['stop_s']!r} \"$ftp({i}) stop\"")
    # Per flow: TCP's (ack_, nrexmitpack_, nrexmit_, ndatapack_); a UDP flow's as the same
    # four — packets received − 1 (so that Δ is the packets delivered), 0, 0, and packets
    # received + lost (LossMonitor's count of the sequence gaps: what was sent, but for a loss
    # not yet followed by a later arrival).
    per_flow = "".join(
        f" [expr [$sink({i}) set npkts_] - 1] 0 0 [expr [$sink({i}) set npkts_] + [$sink({i}) set nlost_]]" if f.get("udp")
        else f" [$tcp({i}) set ack_] [$tcp({i}) set nrexmitpack_] [$tcp({i}) set nrexmit_] [$tcp({i}) set ndatapack_]"
        for i, f in enumerate(flows))
    cwnd0 = "0" if flows and flows[0].get("udp") else "[$tcp(0) set cwnd_]"
    lines += [
        "proc snap {tag} {",
        "    global tcp sink qmon ns",
        "    set out \"$tag [$ns now] [$qmon set bdepartures_] [$qmon set pdrops_] [[$qmon get-pkts-integrator] set sum_]\"",
        f"    append out \"{per_flow}\"",
        "    puts $out",
        "}",
        "proc sample {dt} {",
        "    global tcp qmon ns",
        f"    puts \"S [$ns now] [$qmon set pkts_] {cwnd0}\"",
        "    $ns at [expr [$ns now] + $dt] \"sample $dt\"",
        "}",
        f"$ns at 0.0 \"sample {plan['sample_interval_s']!r}\"",
        f"$ns at {plan['warmup_s']!r} \"snap W\"",
        f"$ns at {plan['duration_s']!r} \"snap E; exit 0\"",
        "$ns run",
    ]
    return "\n".join(lines) + "\n"


def _parse(stdout: str) -> Dict[str, Any]:
    """The script's lines: `S` samples and the `W` and `E` snapshots (see `run_script`)."""
    snaps: Dict[str, Any] = {"series": []}
    for line in stdout.splitlines():
        parts = line.split()
        if parts and parts[0] == "S":
            snaps["series"].append(tuple(float(x) for x in parts[1:4]))
        elif parts and parts[0] in ("W", "E"):
            nums = [float(x) for x in parts[1:]]
            flows = [tuple(nums[k:k + 4]) for k in range(4, len(nums), 4)]
            snaps[parts[0]] = {"t": nums[0], "bytes": nums[1], "drops": nums[2], "queue_integral": nums[3], "flows": flows}
    return snaps


def run_script(text: str, folder: str, name: str = "scenario.tcl", timeout_s: float = 3600) -> Dict[str, Any]:
    """Runs `text` with `ns` in `folder` (the script and ns-2's output are kept there) and
    returns the two snapshots, `W` and `E`: time, bytes departed, drops, queue integral, and
    per flow (ack, retransmitted packets, timeouts, data packets sent); and `series`: (time,
    bottleneck queue in packets, flow 0's cwnd in packets) every sample interval."""
    from .peer_run import run_program

    ns = available()
    if ns is None:
        raise Ns2Error(MISSING)
    return run_program([ns], text, folder, name, _parse, Ns2Error, "ns-2", timeout_s)


def measures(plan: Dict[str, Any], snaps: Dict[str, Any]) -> Dict[str, Any]:
    """The crosscheck's figures of one ns-2 run, in aimdlab's definitions (`peer_run`), and
    each flow's sending rate: data packets sent × (`packetSize_` + 40) bytes."""
    from .peer_run import window_figures

    w, e = snaps["W"], snaps["E"]
    mss = [f["mss_bytes"] for f in plan["flows"]]
    delta = [[b - a for a, b in zip(fw, fe)] for fw, fe in zip(w["flows"], e["flows"])]
    # (Δ`ack_` is the packets delivered: `ack_` is −1 before the first)
    delivered = [(fe[0] - max(fw[0], -1.0)) * m for fw, fe, m in zip(w["flows"], e["flows"], mss)]
    out = window_figures(plan, w, e, delivered, [d[1] for d in delta], [d[2] for d in delta])
    out["send_rate_bps"] = [d[3] * (m + 40) * 8 / s if s > 0 else float("nan") for d, m, s in zip(delta, mss, out["own_window_s"])]
    return out


def run(plan: Dict[str, Any], starts_s: List[float], folder: str, seed: int) -> Dict[str, Any]:
    """One run of `plan` in ns-2.35 with flow i starting at `starts_s[i]` (the script kept in
    `folder` as `seed<seed>.tcl`): its `measures` and its `series`."""
    for f, start in zip(plan["flows"], starts_s):
        f["start_s"] = start
    snaps = run_script(script(plan, starts_s), folder, name=f"seed{seed}.tcl")
    return {**measures(plan, snaps), "series": snaps["series"]}
