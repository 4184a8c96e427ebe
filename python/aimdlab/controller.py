"""Congestion controllers written in Python.

Subclass `Controller`, keep the window in `self.cwnd` (packets) and `self.ssthresh`, and
react in `on_ack` and `on_congestion`; pass an instance as a flow group's `cc`::

    class MyAimd(aimdlab.Controller):
        def __init__(self, alpha=1.0, beta=0.5):
            super().__init__()
            self.alpha, self.beta = alpha, beta

        def on_ack(self, ack):
            if ack.in_recovery or ack.newly_acked_pkts == 0:
                return
            if self.cwnd < self.ssthresh:
                self.cwnd += min(ack.newly_acked_pkts, 1)   # slow start
            else:
                self.cwnd += self.alpha / self.cwnd            # alpha per RTT

        def on_congestion(self, event):                        # "loss", "timeout" or "ecn"
            self.ssthresh = max(self.beta * self.cwnd, 2.0)
            self.cwnd = 1.0 if event.kind == "timeout" else self.ssthresh

    scenario["flows"][0]["cc"] = MyAimd(alpha=0.31, beta=0.875)
    aimdlab.run(scenario)

A group of `count = N` flows runs N independent deep copies of the instance. The engine
sets `cwnd`/`ssthresh` to the flow's initial window and threshold when they are None, calls
the hooks from the simulation (each call takes the GIL: a few microseconds, see the README),
and reads `cwnd`/`ssthresh` after each call. A controller that paces sets
`pacing_rate_bps`: the sender then lets packets leave no faster than that rate (one packet's
serialization time apart), within the window. `state()` may return named numbers to record in
the time series. An exception in a hook stops the run and is raised by `aimdlab.run`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Optional

if TYPE_CHECKING:  # pragma: no cover
    from ._core import AckEvent, CongestionEvent

__all__ = ["Controller"]


class Controller:
    """Base class of congestion controllers written in Python.

    Attributes:
        cwnd: congestion window, packets (None until the engine sets the initial window).
        ssthresh: slow-start threshold, packets (None until set; ∞ means unbounded).
        pacing_rate_bps: pacing rate, bits per second (None: no pacing).
    """

    def __init__(self) -> None:
        self.cwnd: Optional[float] = None
        self.ssthresh: Optional[float] = None
        self.pacing_rate_bps: Optional[float] = None

    def on_ack(self, ack: "AckEvent") -> None:
        """An ACK arrived. `ack` (an `aimdlab.AckEvent`) has `now_s`, `newly_acked_pkts` (0 for
        a duplicate), `rtt_s`, `srtt_s`, `min_rtt_s`, `ece`, `in_recovery`, `pkts_in_flight`."""

    def on_congestion(self, event: "CongestionEvent") -> None:
        """A congestion signal (an `aimdlab.CongestionEvent`). `event.kind` is "loss" (fast
        retransmit), "timeout" or "ecn"; also `now_s`, `pkts_in_flight`, `srtt_s`."""

    def state(self) -> Dict[str, float]:
        """Named numbers to record in the time series at every sample (default: none)."""
        return {}


def engine_view(scenario: Any) -> Any:
    """`scenario` as the engine reads it: each flow group's `Controller` instance replaced by
    the name "python" (the instance itself runs in Python, one copy per flow)."""
    flows = scenario.get("flows") if isinstance(scenario, dict) else None
    if not isinstance(flows, list) or not any(isinstance(g, dict) and isinstance(g.get("cc"), Controller) for g in flows):
        return scenario
    return {**scenario, "flows": [dict(g, cc="python") if isinstance(g, dict) and isinstance(g.get("cc"), Controller) else g
                                  for g in flows]}
