"""Response functions against packet-level simulation: one flow whose data packets are lost at
random, its time-average window against the loss-event rate it measured — the two figures
`aimdlab.models.response` relates (RFC 3649 §5 for HighSpeed, Kelly 2003 §2 for Scalable,
RFC 8312 §5.1 for CUBIC, Reno's 1.22/√p). `tests/test_aimd_family.py` holds the AIMD family
to its models with it, and `benches/response_functions.py` draws the figure of
docs/explanation/aimd-family.md.

The path: 20 Gbit/s, 100 ms RTT, buffers of 100,000 packets and a receive window of 10⁶
packets, so the window never meets the queue or the receiver and every loss is the random
one (Bernoulli, data packets only). The loss-event rate is window reductions (fast
retransmits and timeouts) per data packet sent: the p of a response function, which is
below the packet loss rate when one event covers several losses.
"""

from __future__ import annotations

from typing import Any, Dict, Tuple

from .. import run


def random_loss_path(cc: Any, loss_rate: float, seconds: int, seed: int = 1) -> Dict[str, Any]:
    """The scenario: one flow of controller `cc` (a name or a `cc` table) for `seconds`, data
    packets lost at random with probability `loss_rate`, the first fifth a warm-up."""
    queue = {"limit": "100000pkt"}
    loss = {"model": "bernoulli", "rate": loss_rate, "applies_to": "data"}
    return {
        "name": "random-loss-path", "duration": f"{seconds}s", "warmup": f"{seconds // 5}s", "sample_interval": "10ms",
        "sampled_flows": "all", "seed": seed,
        "topology": {"dumbbell": {
            "bottleneck": {"rate": "20Gbps", "delay": "49ms", "queue": queue, "loss": loss},
            "access": {"rate": "40Gbps", "delay": "0.5ms", "queue": queue}}},
        "tcp": {"mss": "1460B", "receive_window": "1000000pkt"},
        "flows": [{"count": 1, "cc": cc}],
    }


def mean_window_and_loss_event_rate(cc: Any, loss_rate: float, seconds: int, seed: int = 1) -> Tuple[float, float]:
    """Runs `random_loss_path` and returns the flow's mean window after the warm-up (packets)
    and its loss-event rate (window reductions per data packet sent)."""
    r = run(random_loss_path(cc, loss_rate, seconds, seed))
    t = r.timeseries.to_pandas()
    f = r.flows.to_pandas()
    events = f["fast_retransmits"].sum() + f["timeouts"].sum()
    window = float(t[t["time_s"] > seconds // 5]["cwnd_pkts"].mean())
    return window, float(events / f["data_pkts_sent"].sum())
