"""Response functions: the mean congestion window (packets) against the loss rate p, under one
loss every 1/p packets and one ACK per packet — the deterministic model each of these
controllers was designed with (`aimdlab.models.tcp` has the rates with timeouts).

- Reno (Mathis et al., CCR 1997, C = √(3/2)): W = √(3/(2p)); RFC 3649 rounds it to 1.2/√p.
- HighSpeed TCP, RFC 3649 §5: W = 0.12 / p^0.835 above Low_Window = 38 packets, Reno's
  1.2/√p below (the RFC's Table 3).
- Scalable TCP (Kelly, CCR 2003): a per ACK, b of the window at a loss. The window grows by a/p
  between losses and its peak loses b, so the peak is a/(b·p); growing ×(1 + a) per RTT, its
  time average is a / (p · ln(1/(1 − b))), 0.075/p at the paper's a = 0.01, b = 0.125 —
  above the legacy window. Below it Scalable grows as Reno (one packet a RTT) but still
  loses only b of its window at a loss: AIMD(1, 1 − b), √((2 − b)/(2b·p)) = 2.74/√p.
- CUBIC, RFC 8312 §5.1 (RFC 9438 keeps it): W = ∜(C(3 + β)/(4(1 − β))) · (RTT/p)^¾ with RTT
  in seconds, 1.054·(RTT/p)^¾ at C = 0.4, β = 0.7, or Reno's where that is larger (the
  Reno-friendly region, whose α = 3(1 − β)/(1 + β) gives Reno's window).
- Veno (Fu & Liew 2003 §II): a loss with the queue short (N < β) is taken as random and
  keeps 4/5 of the window; under random loss on an empty path Veno is AIMD(1, 4/5),
  √(1.8/(0.4p)) = 2.12/√p, 1.73× Reno's — the paper's point.
- YeAH (Baiocchi et al. 2007): with no queue it stays in its fast (Scalable) mode and a loss
  takes cwnd/8 (its δ = 3): Scalable's response function.
- H-TCP (Leith & Shorten 2004), no closed form: the window grows 2(1 − β)·α(Δ) packets a RTT
  with α(Δ) = 1 + 10(Δ − Δ_L) + ((Δ − Δ_L)/2)² after Δ_L = 1 s (RTT-scaled), and falls to β
  of its peak, β = 0.8 when the queue adds nothing to the RTT; the cycle that carries 1/p
  packets is found numerically.
- BIC (Xu, Harfoush & Rhee 2004), no closed form here: its per-RTT increase (binary search
  towards W_max, at most S_max, at least S_min; max probing above), applied per ACK, and a
  loss keeping β; the cycle that carries 1/p packets and ends where it began, found
  numerically (Linux's and ns-3's values, `cc/bic.rs`'s defaults).
- DCTCP, Alizadeh et al., SIGCOMM 2010 §3.3: N flows sharing a step-marking queue of
  threshold K packets on a path of C·RTT packets settle at α ≈ √(2/W*) with W* = (C·RTT + K)/N,
  and the queue swings by A ≈ ½·√(2N(C·RTT + K)) packets.

`cc/highspeed.rs` and `cc/scalable.rs` test their controllers against these;
`tests/test_aimd_family.py` tests the packet-level behaviour.
"""

from __future__ import annotations

import numpy as np

__all__ = ["reno_window", "highspeed_window", "scalable_window", "cubic_window", "veno_window", "yeah_window", "htcp_window", "bic_window",
           "dctcp_alpha", "dctcp_queue_amplitude"]


def reno_window(p):
    """Reno's mean window under periodic loss, √(3/(2p)) packets (Mathis et al. 1997)."""
    return np.sqrt(1.5 / np.asarray(p, dtype=float))


def highspeed_window(p, low_window: float = 38.0):
    """HighSpeed TCP's response function (RFC 3649 §5): 0.12/p^0.835 packets where that is
    above `low_window`, Reno's 1.2/√p (the RFC's form) below."""
    p = np.asarray(p, dtype=float)
    high = 0.12 / p**0.835
    return np.where(high > low_window, high, 1.2 / np.sqrt(p))


def scalable_window(p, a: float = 0.01, b: float = 0.125, legacy_window: float = 100.0):
    """Scalable TCP's mean window under periodic loss (Kelly 2003, §2's rule): a / (p · ln(1/(1 −
    b))) packets where that is above `legacy_window`; below, the window grows one packet a RTT
    and a loss still takes b of it, AIMD(1, 1 − b): √((2 − b)/(2b·p)) (GAIMD's square-root
    law, Yang & Lam 2000 eq. 2's triple-duplicate term)."""
    p = np.asarray(p, dtype=float)
    scalable = a / (p * np.log(1.0 / (1.0 - b)))
    below = np.sqrt((2.0 - b) / (2.0 * b * p))
    return np.where(scalable > legacy_window, scalable, below)


def cubic_window(p, rtt_s: float, c: float = 0.4, beta: float = 0.7):
    """CUBIC's mean window (RFC 8312 §5.1): ∜(C(3 + β)/(4(1 − β))) · (RTT/p)^¾ packets, or
    Reno's √(3/(2p)) where that is larger (the Reno-friendly region)."""
    p = np.asarray(p, dtype=float)
    cubic = (c * (3.0 + beta) / (4.0 * (1.0 - beta))) ** 0.25 * (rtt_s / p) ** 0.75
    return np.maximum(cubic, reno_window(p))


def veno_window(p, keep: float = 0.8):
    """Veno's mean window under random loss with an empty queue (Fu & Liew 2003 §II):
    AIMD(1, `keep`), √((1 + keep)/(2(1 − keep)p)) packets."""
    p = np.asarray(p, dtype=float)
    return np.sqrt((1.0 + keep) / (2.0 * (1.0 - keep) * p))


def yeah_window(p, legacy_window: float = 100.0):
    """YeAH's mean window with no queue (Baiocchi et al. 2007): its fast mode is Scalable's
    increase (a = 0.01 above `legacy_window`, as Linux's `TCP_SCALABLE_AI_CNT`) and a loss with
    no queue takes cwnd/8 (δ = 3) — `scalable_window`."""
    return scalable_window(p, a=0.01, b=0.125, legacy_window=legacy_window)


def htcp_window(p, rtt_s: float, beta: float = 0.8, delta_l_s: float = 1.0, rtt_ref_s: float = 0.1,
                rtt_scaling: bool = True) -> float:
    """H-TCP's mean window under one loss every 1/p packets (Leith & Shorten 2004), by its
    rules: between losses dW/dt = 2(1 − β)·α(t)/RTT with α(t) = 1 for t ≤ Δ_L, else
    1 + 10(t − Δ_L) + ((t − Δ_L)/2)², RTT-scaled as `cc/htcp.rs` (× clamp(RTT/RTT_ref, 0.1, 2),
    at least 1); a loss leaves β of the peak. The cycle length T whose packets, ∫W dt/RTT,
    are 1/p is found by bisection; the mean is the time average of W over it. A scalar p."""
    p = float(p)
    scale = min(max(rtt_s / rtt_ref_s, 0.1), 2.0)

    def cycle(length_s: float):
        t = np.linspace(0.0, length_s, 4000)
        d = np.maximum(t - delta_l_s, 0.0)
        alpha = 1.0 + 10.0 * d + (d / 2.0) ** 2
        if rtt_scaling:
            alpha = np.maximum(alpha * scale, 1.0)
        rate = 2.0 * (1.0 - beta) * alpha / rtt_s
        grown = np.concatenate([[0.0], np.cumsum((rate[1:] + rate[:-1]) / 2.0 * np.diff(t))])
        w = beta * grown[-1] / (1.0 - beta) + grown
        area = float(np.sum((w[1:] + w[:-1]) / 2.0 * np.diff(t)))
        return area / rtt_s, area / length_s

    lo, hi = 1e-4, 1e5
    for _ in range(200):
        mid = (lo * hi) ** 0.5
        if cycle(mid)[0] < 1.0 / p:
            lo = mid
        else:
            hi = mid
    return cycle(hi)[1]


def bic_window(p, beta: float = 0.8, s_max: float = 16.0, s_min: float = 0.2, b: float = 4.0, low_window: float = 14.0) -> float:
    """BIC's mean window under one loss every 1/p packets, by its rules (`cc/bic.rs`): the
    window grows inc(W)/RTT with inc = clamp((W_max − W)/b, S_min, S_max) below W_max, S_min
    within b above it, then min((W − W_max)/(b − 1), S_max); Reno's 1 at or below
    `low_window`; a loss sets W_max to the window and keeps β of it (½ at or below
    `low_window`). The steady cycle (it ends at the window it started from) is found by
    iteration, in steps of 1/20 RTT. A scalar p."""
    p = float(p)

    def inc(w: float, w_max: float) -> float:
        if w <= low_window:
            return 1.0
        if w < w_max:
            return min(max((w_max - w) / b, s_min), s_max)
        d = w - w_max
        return s_min if d < b else min(d / (b - 1.0), s_max)

    def cycle(w_loss: float):
        w = (0.5 if w_loss <= low_window else beta) * w_loss
        sent = rounds = 0.0
        step = 0.05  # of an RTT
        while sent < 1.0 / p:
            sent += w * step
            w += inc(w, w_loss) * step
            rounds += step
        return w, sent / rounds

    w, mean = 1.2 / np.sqrt(p), 0.0
    for _ in range(200):
        end, mean = cycle(w)
        if abs(end - w) < 1e-6 * w:
            break
        w = 0.5 * (w + end)
    return mean


def dctcp_alpha(flows, bdp_pkts, k_pkts):
    """DCTCP's steady-state α for `flows` flows (Alizadeh et al. 2010 §3.3): √(2/W*) with
    W* = (C·RTT + K)/N packets, capped at 1."""
    w_star = (np.asarray(bdp_pkts, dtype=float) + k_pkts) / np.asarray(flows, dtype=float)
    return np.minimum(np.sqrt(2.0 / w_star), 1.0)


def dctcp_queue_amplitude(flows, bdp_pkts, k_pkts):
    """The swing of DCTCP's queue around K, packets (Alizadeh et al. 2010 §3.3, eq. 9):
    ½·√(2N(C·RTT + K))."""
    return 0.5 * np.sqrt(2.0 * np.asarray(flows, dtype=float) * (np.asarray(bdp_pkts, dtype=float) + k_pkts))
