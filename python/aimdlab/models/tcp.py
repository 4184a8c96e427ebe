"""Throughput models of TCP and TFRC.

- Mathis, Semke, Mahdavi, Ott, "The Macroscopic Behavior of the TCP Congestion Avoidance
  Algorithm" (CCR 1997): rate = MSS/RTT · C/√p, C = √(3/2) for periodic loss, one ACK per
  packet.
- Padhye, Firoiu, Towsley, Kurose, "Modeling TCP Throughput" (SIGCOMM 1998), the approximate
  form (their eq. 30 without the receiver-window cap): GAIMD's eq. (2) at α = 1, β = 1/2.
- TFRC, RFC 5348 §3.1: X = s / (R·√(2bp/3) + t_RTO·(3·√(3bp/8))·p·(1 + 32p²)).
"""

from __future__ import annotations

import numpy as np

from .gaimd import sending_rate

__all__ = ["mathis_rate_bps", "padhye_rate", "tfrc_rate_bps"]


def mathis_rate_bps(mss_bytes, rtt_s, p, c=1.5**0.5):
    """Mathis et al.'s square-root law, bits/s."""
    return 8.0 * mss_bytes / rtt_s * c / np.sqrt(p)


def padhye_rate(p, rtt_s, t0_s, b=1):
    """Padhye et al.'s approximate TCP Reno rate, packets/s (eq. 2 of gaimd.txt with α = 1,
    β = 1/2)."""
    return sending_rate(1.0, 0.5, p, rtt_s, t0_s, b)


def tfrc_rate_bps(s_bytes, rtt_s, p, b=1, t_rto_s=None):
    """The TCP throughput equation of TFRC (RFC 5348 §3.1), bits/s; t_RTO defaults to 4R as
    the RFC recommends."""
    t_rto = 4.0 * rtt_s if t_rto_s is None else t_rto_s
    denom = rtt_s * np.sqrt(2.0 * b * p / 3.0) + t_rto * (3.0 * np.sqrt(3.0 * b * p / 8.0)) * p * (1.0 + 32.0 * p**2)
    return 8.0 * s_bytes / denom
