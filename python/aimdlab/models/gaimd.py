"""GAIMD's sending-rate model and TCP-friendliness (Y. R. Yang and S. S. Lam, "General AIMD
Congestion Control", shared/papers/gaimd.txt, §2.3 and §3).

Rates are in packets per second; `rtt` and `t0` in seconds; `p` the loss rate; `b` packets
acknowledged per ACK.
"""

from __future__ import annotations

import functools

import numpy as np

__all__ = [
    "td_term",
    "to_term",
    "sending_rate",
    "normalized_rate",
    "expected_window",
    "expected_rounds",
    "timeout_probability",
    "sending_rate_td_full",
    "sending_rate_full",
    "tcp_friendly_alpha_td",
    "tcp_friendly_alpha_to",
    "error_integral",
    "tcp_friendly_alpha_error_min",
]


def td_term(alpha, beta, p, rtt, b=1):
    """TD_{α,β}(p, RTT, b) = RTT·sqrt(2b(1 − β)p / (α(1 + β))) — eq. (3), the
    triple-duplicate-ACK part of the denominator of eq. (2)."""
    return rtt * np.sqrt(2.0 * b * (1.0 - beta) * p / (alpha * (1.0 + beta)))


def to_term(alpha, beta, p, t0, b=1):
    """TO_{α,β}(p, T0, b) = T0·min(1, 3·sqrt((1 − β²)b·p / (2α)))·p·(1 + 32p²) — eq. (4), the
    timeout part; its min(...) is Q, the probability that a loss is a timeout."""
    q = np.minimum(1.0, 3.0 * np.sqrt((1.0 - beta**2) * b * p / (2.0 * alpha)))
    return t0 * q * p * (1.0 + 32.0 * p**2)


def sending_rate(alpha, beta, p, rtt, t0, b=1):
    """T_{α,β}(p, RTT, T0, b) = 1 / (TD + TO), packets/s — eq. (2). With α = 1, β = 1/2 it is
    Padhye et al.'s TCP Reno formula."""
    return 1.0 / (td_term(alpha, beta, p, rtt, b) + to_term(alpha, beta, p, t0, b))


def expected_window(alpha, beta, p, b=1):
    """E[W], the mean window at the end of a TD period, packets — Appendix eq. (24):
    c + sqrt(c² + 2α(1 − p)/(b(1 − β²)p)) with c = (α + b(1 − β))/(2b(1 − β²))."""
    c = (alpha + b * (1.0 - beta)) / (2.0 * b * (1.0 - beta**2))
    return c + np.sqrt(c**2 + 2.0 * alpha / (b * (1.0 - beta**2)) * (1.0 - p) / p)


def expected_rounds(alpha, beta, p, b=1):
    """E[X], the mean number of rounds in a TD period — Appendix eq. (27)–(28):
    E[X] = b(1 − β)E[W]/α."""
    return b * (1.0 - beta) / alpha * expected_window(alpha, beta, p, b)


def sending_rate_td_full(alpha, beta, p, rtt, b=1):
    """T = ((1 − p)/p + E[W]) / (RTT·(E[X] + 1)), packets/s — Appendix eq. (32)–(33), the
    full form with triple-duplicate indications only. Its "+ 1" is the round in which the
    loss is detected, which the closed form eq. (2) drops; it matters when a TD period has
    few rounds (large α and β, high p)."""
    return ((1.0 - p) / p + expected_window(alpha, beta, p, b)) / (rtt * (expected_rounds(alpha, beta, p, b) + 1.0))


def timeout_probability(w, p):
    """Q̂(w), the probability that a loss in a window of w packets is a timeout, under the
    model's correlated-loss assumption — Appendix eq. (45):
    min(1, (1 − (1 − p)³)(1 + (1 − p)³(1 − (1 − p)^(w − 3))) / (1 − (1 − p)^w)); 1 for w ≤ 3."""
    w = np.asarray(w, dtype=float)
    q = 1.0 - p
    with np.errstate(divide="ignore", invalid="ignore"):
        val = (1.0 - q**3) * (1.0 + q**3 * (1.0 - q ** (w - 3.0))) / (1.0 - q**w)
    return np.where(w <= 3.0, 1.0, np.minimum(1.0, val))


def sending_rate_full(alpha, beta, p, rtt, t0, b=1):
    """T_{α,β} with timeouts, packets/s — Appendix eq. (55):
    ((1 − p)/p + E[W] + Q̂(E[W])/(1 − p)) / (RTT(E[X] + 1) + Q̂(E[W])·T0·f(p)/(1 − p)),
    f(p) = 1 + p + 2p² + 4p³ + 8p⁴ + 16p⁵ + 32p⁶ (eq. 56), Q̂ from eq. (45) at E[W] (eq. 49).
    Eq. (2) is its approximation for small p."""
    w = expected_window(alpha, beta, p, b)
    q = timeout_probability(w, p)
    f = 1.0 + p + 2 * p**2 + 4 * p**3 + 8 * p**4 + 16 * p**5 + 32 * p**6
    num = (1.0 - p) / p + w + q / (1.0 - p)
    den = rtt * (expected_rounds(alpha, beta, p, b) + 1.0) + q * t0 * f / (1.0 - p)
    return num / den


def normalized_rate(alpha, beta, p, rtt=1.0, t0=4.0, b=1):
    """T_{α,β}(p) / T_{1,1/2}(p): the GAIMD rate relative to TCP's (Fig. 11). Depends on
    `rtt` and `t0` only through T0/RTT."""
    return sending_rate(alpha, beta, p, rtt, t0, b) / sending_rate(1.0, 0.5, p, rtt, t0, b)


def tcp_friendly_alpha_td(beta):
    """α = 3(1 − β)/(1 + β) — eq. (6), matching the TD terms."""
    return 3.0 * (1.0 - beta) / (1.0 + beta)


def tcp_friendly_alpha_to(beta):
    """α = 4(1 − β²)/3 — eq. (7), matching the TO terms (α = 0.31 at β = 7/8)."""
    return 4.0 * (1.0 - beta**2) / 3.0


def error_integral(alpha, beta, threshold, t0_over_rtt=4.0, b=1, points=4000, full=False):
    """E_β(α) = ∫₀¹ w(p)·|T_{α,β}(p)/T_{1,1/2}(p) − 1| dp with the step weight w(p) = 1 for
    p < threshold, 0 above — eq. (8) and Fig. 8 (midpoint rule on `points` intervals). T is
    eq. (2), or with `full` the Appendix's eq. (55) (the paper does not say which its Fig. 9
    integrates). `alpha` may be an array: one integral each."""
    p = (np.arange(points) + 0.5) * threshold / points
    a = np.asarray(alpha, dtype=float)[..., np.newaxis]
    rate = sending_rate_full if full else sending_rate
    ratio = rate(a, beta, p, 1.0, t0_over_rtt, b) / rate(1.0, 0.5, p, 1.0, t0_over_rtt, b)
    errors = np.sum(np.abs(ratio - 1.0), axis=-1) * threshold / points
    return float(errors) if errors.ndim == 0 else errors


@functools.lru_cache(maxsize=256)  # Fig. 10's curves ask for the same α* more than once
def tcp_friendly_alpha_error_min(beta, threshold, t0_over_rtt=4.0, b=1, full=False):
    """α* minimizing eq. (8) for `beta` (the error-minimizing TCP-friendly curve of Fig. 10):
    a grid search on (0, 3] refined around its best point; `full` as for `error_integral`."""
    grid = np.linspace(0.005, 3.0, 600)
    best = grid[int(np.argmin(error_integral(grid, beta, threshold, t0_over_rtt, b, full=full)))]
    fine = np.linspace(max(best - 0.01, 1e-4), best + 0.01, 201)
    return float(fine[int(np.argmin(error_integral(fine, beta, threshold, t0_over_rtt, b, full=full)))])
