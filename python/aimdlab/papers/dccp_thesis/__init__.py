"""The experiments of S. Awang Nor, "Enhancing Datagram Congestion Control Protocol for
Efficient Long Delay Link" (PhD thesis, Universiti Utara Malaysia, 2012;
shared/papers/dccp-tcp-like-tw-thesis.txt), rebuilt from its table of contents.

Only the thesis's front matter, contents and introduction are available, so every set-up
below is a reading, each choice written here and a keyword argument:

- Topology (its Fig. 3.2, 4.4, 5.1, 6.1 are dumbbells): one sender/receiver pair per flow,
  access links 10 Mbit/s and 1 ms, a 2 Mbit/s bottleneck (`BOTTLENECK`) with a DropTail
  buffer of 50 packets (ns-2's default queue limit) or RED (experiment 6-4).
- "Short delay" is a 20 ms bottleneck (`SHORT_DELAY`); "long delay" is its Tprop = 300 ms
  (`LONG_DELAY`, a GEO-satellite hop).
- Packets carry 1000 bytes of payload (ns-2's default packet size); runs last 200 s.
- TCP is SACK TCP with Reno (the thesis compares with TCP SACK and NewReno, §2.4.1).
- Chapter 4's "not fully / fully utilised bandwidth": the two UDP or DCCP flows carry CBR
  sources of 25 % / 50 % of the bottleneck each (our reading: together they leave half the
  link, or offer all of it), against one bulk TCP flow.
- "TCP-like" is DCCP CCID-2 with Reno; "TCP-like TW" is CCID-2 with the `tw` controller;
  TFRC is CCID-3. Chapters 5–6 run bulk sources over DCCP except 6-5 (H.263 VBR video: the
  synthetic `vbr` source at its defaults, about 256 kbit/s).
- TW's final values are not in the available text: `TW` below uses initial ssthresh 200
  packets (the value of Fig. 5.4), slow-start growth ×2 per RTT and a 25 % drop (the middle of
  the three drops experiment 5-3 tries). Set them to what a full copy of the thesis says.

`experiments()` maps each experiment id to its runs (label → scenario); `flow_table` and
`ramp` turn results into the thesis's measures (average throughput, packet drop, average
delay, average jitter; time to reach the link rate and the smoothness after it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

BOTTLENECK_BPS = 2_000_000
BOTTLENECK = "2Mbps"
SHORT_DELAY = "20ms"
LONG_DELAY = "300ms"
BUFFER = "50pkt"
MSS = "1000B"
DURATION = "200s"
TW: Dict[str, Any] = {"name": "tw", "initial_ssthresh": 200, "ss_growth": 2, "decrease": 0.25}

Scenario = Dict[str, Any]


def topology(delay: str, queue: str = "droptail", buffer: str = BUFFER, rate: str = BOTTLENECK) -> Dict[str, Any]:
    """The dumbbell: a `rate` bottleneck of one-way `delay` behind a `queue` of `buffer`."""
    q: Dict[str, Any] = {"kind": queue, "limit": buffer}
    if queue == "red":
        q["auto"] = True
    return {"dumbbell": {"bottleneck": {"rate": rate, "delay": delay, "queue": q}, "access": {"rate": "10Mbps", "delay": "1ms"}}}


def scenario(name: str, delay: str, flows: List[Dict[str, Any]], queue: str = "droptail", duration: str = DURATION, seed: int = 1) -> Scenario:
    """A thesis run: `flows` on the dumbbell of `delay`, 1 s samples, starts within 1 s."""
    for f in flows:
        f.setdefault("start_jitter", "1s")
    return {
        "name": name,
        "description": "DCCP thesis (Awang Nor 2012), rebuilt: see aimdlab.papers.dccp_thesis",
        "duration": duration,
        "seed": seed,
        "sample_interval": "1s",
        "topology": topology(delay, queue),
        "tcp": {"mss": MSS},
        "flows": flows,
    }


def tcp(name: str = "tcp") -> Dict[str, Any]:
    """A bulk SACK TCP (Reno) flow."""
    return {"name": name, "transport": "tcp", "cc": "reno"}


def dccp(name: str, ccid: int = 2, cc: Any = None, app: Optional[Dict[str, Any]] = None, count: int = 1, **settings: Any) -> Dict[str, Any]:
    """A DCCP flow group: CCID `ccid`, window controller `cc` (CCID-2), bulk unless `app`."""
    g: Dict[str, Any] = {"name": name, "count": count, "transport": "dccp", "dccp": {"ccid": ccid, **settings}}
    if cc is not None:
        g["cc"] = cc
    if app is not None:
        g["app"] = app
    return g


def cbr_share(fraction: float) -> Dict[str, Any]:
    """A CBR source at `fraction` of the bottleneck."""
    return {"kind": "cbr", "rate": f"{fraction * BOTTLENECK_BPS / 1000:.0f}Kbps"}


# Chapter 4: friendliness of UDP, CCID-2 and CCID-3 towards one TCP flow.


def friendliness(kind: str, delay: str, fully_utilised: bool, seed: int = 1) -> Scenario:
    """One bulk TCP flow against two CBR flows over `kind` (udp, ccid2, ccid3) whose sources
    each offer 50 % (`fully_utilised`) or 25 % of the bottleneck."""
    share = 0.5 if fully_utilised else 0.25
    if kind == "udp":
        other = {"name": "udp", "count": 2, "transport": "udp", "app": cbr_share(share)}
    elif kind in ("ccid2", "ccid3"):
        other = dccp(kind, ccid=int(kind[-1]), app=cbr_share(share), count=2)
    else:
        raise ValueError(f"kind: {kind!r}; expected 'udp', 'ccid2' or 'ccid3'")
    util = "fully" if fully_utilised else "not-fully"
    return scenario(f"ch4-{kind}-{util}-{'long' if delay == LONG_DELAY else 'short'}", delay, [tcp(), other], seed=seed)


# Chapter 5: the TCP-like knobs, one CCID-2 flow over the long-delay link.


def initial_ssthresh(pkts: Optional[int]) -> Scenario:
    """Experiment 5-1: TCP-like with initial ssthresh `pkts` (None: unbounded)."""
    settings: Dict[str, Any] = {} if pkts is None else {"initial_ssthresh": pkts}
    return scenario(f"5-1-ssthresh-{pkts or 'inf'}", LONG_DELAY, [dccp("tcp-like", **settings)])


def growth_factor(factor: float, ssthresh: int = 200) -> Scenario:
    """Experiment 5-2: slow-start growth `factor` per RTT, initial ssthresh 200."""
    cc = {"name": "tw", "initial_ssthresh": ssthresh, "ss_growth": factor, "decrease": 0.5}
    return scenario(f"5-2-growth-{factor:g}", LONG_DELAY, [dccp("tcp-like", cc=cc)])


def window_drop(drop: float) -> Scenario:
    """Experiment 5-3: congestion-avoidance drop `drop` (0.5, 0.25, 0.05), TCP's slow start."""
    cc = {"name": "tw", "initial_ssthresh": 1e9, "ss_growth": 2, "decrease": drop}
    return scenario(f"5-3-drop-{drop:g}", LONG_DELAY, [dccp("tcp-like", cc=cc)])


# Chapter 6: TCP-like TW against TCP, TCP-like and TFRC.


def tw_against(delay: str, queue: str = "droptail", n_tw: int = 1) -> Dict[str, Scenario]:
    """Experiments 6-1 (short), 6-2 (long), 6-3 (`n_tw` = 4), 6-4 (RED): TW vs TCP, TCP-like vs
    TCP, TW vs TCP-like."""
    tag = "long" if delay == LONG_DELAY else "short"
    return {
        "tw-vs-tcp": scenario(f"6-tw-tcp-{tag}-{queue}-{n_tw}", delay, [dccp("tw", cc=TW, count=n_tw), tcp()], queue),
        "tcp-like-vs-tcp": scenario(f"6-tcplike-tcp-{tag}-{queue}-{n_tw}", delay, [dccp("tcp-like", count=n_tw), tcp()], queue),
        "tw-vs-tcp-like": scenario(f"6-tw-tcplike-{tag}-{queue}", delay, [dccp("tw", cc=TW), dccp("tcp-like")], queue),
    }


def video(delay: str) -> Dict[str, Scenario]:
    """Experiment 6-5: H.263 VBR video over TW, TCP-like and TFRC, each against one TCP flow."""
    tag = "long" if delay == LONG_DELAY else "short"
    vbr = {"kind": "vbr"}
    return {
        "tw": scenario(f"6-5-vbr-tw-{tag}", delay, [dccp("tw", cc=TW, app=vbr), tcp()]),
        "tcp-like": scenario(f"6-5-vbr-tcplike-{tag}", delay, [dccp("tcp-like", app=vbr), tcp()]),
        "tfrc": scenario(f"6-5-vbr-tfrc-{tag}", delay, [dccp("tfrc", ccid=3, app=vbr), tcp()]),
    }


def three_way() -> Scenario:
    """Experiment 6-6: TW, TCP-like and TFRC together over the long-delay link."""
    return scenario("6-6-tw-tcplike-tfrc", LONG_DELAY, [dccp("tw", cc=TW), dccp("tcp-like"), dccp("tfrc", ccid=3)])


def experiments() -> Dict[str, Dict[str, Scenario]]:
    """Every experiment id → its runs, label → scenario."""
    ch4 = {}
    for delay, tag in ((SHORT_DELAY, "short"), (LONG_DELAY, "long")):
        for full in (False, True):
            for kind in ("udp", "ccid2", "ccid3"):
                ch4[f"{kind} {tag} {'fully' if full else 'not fully'}"] = friendliness(kind, delay, full)
    return {
        "4": ch4,
        "5-1": {f"ssthresh {p or 'unbounded'}": initial_ssthresh(p) for p in (None, 20, 50, 100, 200)},
        "5-2": {f"growth x{g:g}": growth_factor(g) for g in (1.5, 2.0, 3.0, 4.0)},
        "5-3": {f"drop {int(d * 100)} %": window_drop(d) for d in (0.5, 0.25, 0.05)},
        "6-1": tw_against(SHORT_DELAY),
        "6-2": tw_against(LONG_DELAY),
        "6-3": {k: v for k, v in tw_against(LONG_DELAY, n_tw=4).items() if k != "tw-vs-tcp-like"},
        "6-4": tw_against(LONG_DELAY, queue="red"),
        "6-5": {**{f"{k} short": v for k, v in video(SHORT_DELAY).items()}, **{f"{k} long": v for k, v in video(LONG_DELAY).items()}},
        "6-6": {"tw, tcp-like, tfrc": three_way()},
        "ramp": ramp_runs(),
    }


def ramp_runs(delay: str = LONG_DELAY) -> Dict[str, Scenario]:
    """TW and TCP-like each alone on the link (the thesis's claim of §6.7.2: TW reaches the
    link rate sooner and is smoother after): one run each, measured with `ramp`."""
    return {
        "tw": scenario("ramp-tw", delay, [dccp("tw", cc=TW)]),
        "tcp-like": scenario("ramp-tcp-like", delay, [dccp("tcp-like")]),
    }


# Measures.


def flow_table(result) -> "pd.DataFrame":
    """Per flow group: average throughput (kbit/s), packet drop (packets lost / sent), average
    delay and jitter (ms) — the columns of the thesis's Tables 4.2, 5.1, 6.1–6.8."""
    f = result.flows.to_pandas()
    lost = f["data_pkts_sent"].astype(float) - f["received_pkts"].astype(float)
    f = f.assign(lost=lost.clip(lower=0))
    g = f.groupby("group_name", sort=False)
    return g.apply(
        lambda d: __import__("pandas").Series(
            {
                "transport": d["transport"].iloc[0],
                "cc": d["cc"].iloc[0],
                "flows": len(d),
                "throughput_kbps": d["throughput_bps"].mean() / 1e3,
                "packet_drop": d["lost"].sum() / max(d["data_pkts_sent"].sum(), 1),
                "delay_ms": d["delay_mean_ms"].mean(),
                "jitter_ms": d["jitter_ms"].mean(),
            }
        ),
        include_groups=False,
    )


def ramp(result, group: str, capacity_bps: float = BOTTLENECK_BPS, level: float = 0.9) -> Tuple[float, float]:
    """Time (s) until the first flow of `group` first receives `level` of `capacity_bps` (1 s
    samples of its goodput; NaN if never), and the coefficient of variation of its throughput
    after that."""
    f = result.flows.to_pandas()
    flow = int(f.loc[f["group_name"] == group, "flow"].iloc[0])
    ts = result.timeseries.to_pandas()
    ts = ts[ts["flow"] == flow]
    rate = ts["goodput_bps"].to_numpy()
    reached = np.nonzero(rate >= level * capacity_bps * 1000 / 1036)[0]  # payload share of the wire rate
    if len(reached) == 0:
        return float("nan"), float("nan")
    t = float(ts["time_s"].to_numpy()[reached[0]])
    after = rate[reached[0] :]
    return t, float(np.std(after) / np.mean(after)) if np.mean(after) > 0 else float("nan")


def fair_share_ratio(result, group: str = "tcp") -> float:
    """The group's mean throughput over its fair share of the bottleneck (capacity / flows)."""
    f = result.flows.to_pandas()
    share = BOTTLENECK_BPS / len(f)
    return float(f.loc[f["group_name"] == group, "throughput_bps"].mean() / share)


__all__: List[str] = [
    "experiments",
    "ramp_runs",
    "friendliness",
    "initial_ssthresh",
    "growth_factor",
    "window_drop",
    "tw_against",
    "video",
    "three_way",
    "flow_table",
    "ramp",
    "fair_share_ratio",
]
