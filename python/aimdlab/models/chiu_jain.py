"""The synchronous binary-feedback model of Chiu and Jain ("Analysis of the Increase and
Decrease Algorithms for Congestion Avoidance in Computer Networks", 1989), as restated in
shared/papers/new-aimd-utilization.txt eq. (1): m users with loads x_i(t); the network
signals y(t) = 1 when X(t) = Σ x_i(t) > X_goal, and every user then applies the same
linear rule (or each its own: gaimd.txt §3.1, Fig. 12)

    x_i(t+1) = a_I + b_I·x_i(t)   if y(t) = 0,
    x_i(t+1) = a_D + b_D·x_i(t)   if y(t) = 1.

Also New-AIMD's two-flow model of shared/papers/new-aimd-delay.txt (eq. 1–4 and its
pseudocode): each flow's load is the part x_i it carried into the cycles, halved at every
congestion, plus all additive increments t since the start, which are never halved.
"""

from __future__ import annotations

from typing import Dict, Sequence, Tuple, Union

import numpy as np

__all__ = ["LinearRule", "aimd", "mimd", "aiad", "gaimd", "simulate", "jain_index", "new_aimd_pseudocode", "new_aimd_cycles"]

LinearRule = Tuple[float, float, float, float]
"""(a_I, b_I, a_D, b_D) of the linear controls."""


def aimd(alpha: float = 1.0, beta: float = 0.5) -> LinearRule:
    """Additive increase α, multiplicative decrease β (TCP: α = 1, β = 1/2)."""
    return (alpha, 1.0, 0.0, beta)


def gaimd(alpha: float, beta: float) -> LinearRule:
    """GAIMD(α, β) — the same rule family as `aimd`, named after gaimd.txt."""
    return aimd(alpha, beta)


def mimd(increase: float = 1.1, decrease: float = 0.5) -> LinearRule:
    """Multiplicative increase and decrease."""
    return (0.0, increase, 0.0, decrease)


def aiad(alpha: float = 1.0, decrease: float = 1.0) -> LinearRule:
    """Additive increase α, additive decrease by `decrease`."""
    return (alpha, 1.0, -decrease, 1.0)


def jain_index(x) -> np.ndarray:
    """Jain's fairness index (Σx)²/(n·Σx²) along the last axis."""
    x = np.asarray(x, dtype=float)
    return x.sum(-1) ** 2 / (x.shape[-1] * (x**2).sum(-1))


def simulate(x0: Sequence[float], x_goal: float, rule: Union[LinearRule, Sequence[LinearRule]], steps: int) -> Dict[str, np.ndarray]:
    """Runs eq. (1) for `steps` steps from loads `x0`. `rule` is one linear rule for every
    user, or one per user (gaimd.txt §3.1, Fig. 12: a GAIMD user beside a TCP user, both
    told the same feedback). Returns `x` (steps+1 × m loads), `total`, `feedback` y(t),
    `efficiency` (total / X_goal) and `fairness` (Jain) per step. Loads are floored at 0."""
    rules = np.asarray([rule] * len(x0) if np.ndim(rule) == 1 else rule, dtype=float)
    if rules.shape != (len(x0), 4):
        raise ValueError(f"rule: expected one (a_I, b_I, a_D, b_D) or one per user ({len(x0)}); got shape {rules.shape}")
    increase = [(float(a), float(b)) for a, b in rules[:, :2]]
    decrease = [(float(a), float(b)) for a, b in rules[:, 2:]]
    loads = [float(v) for v in x0]
    x = np.empty((steps + 1, len(x0)))
    x[0] = loads
    y = np.zeros(steps + 1, dtype=int)
    # Plain floats step by step: numpy's overhead per call dominated at a few users (the same
    # numbers: numpy also sums fewer than eight elements left to right).
    for t in range(steps):
        total = 0.0
        for v in loads:
            total += v
        congested = total > x_goal
        y[t] = congested
        loads = [max(0.0, a + b * v) for (a, b), v in zip(decrease if congested else increase, loads)]
        x[t + 1] = loads
    y[steps] = int(x[steps].sum() > x_goal)
    total_load = x.sum(1)
    return {"x": x, "total": total_load, "feedback": y, "efficiency": total_load / x_goal, "fairness": jain_index(x)}


def new_aimd_pseudocode(x1: float, x2: float, w: float, steps: int) -> Dict[str, np.ndarray]:
    """The New-AIMD pseudocode of new-aimd-delay.txt for two flows, one RTT per step: the
    total is z = x1 + x2 + 2t; when z ≥ W both carried parts halve (t is kept). Returns per
    step the carried parts, t, the loads x_i + t, the total and whether it was a congestion
    step. (Read literally the total never falls below 2t, so it stays congested once
    2t ≥ W: the unbounded reading documented in aimdlab's new_aimd controller.)"""
    c = np.empty((steps + 1, 2))
    t = np.zeros(steps + 1)
    congested = np.zeros(steps + 1, dtype=bool)
    c[0] = (x1, x2)
    for k in range(steps):
        z = c[k].sum() + 2 * t[k]
        congested[k] = z >= w
        c[k + 1] = c[k] / 2 if congested[k] else c[k]
        t[k + 1] = t[k] if congested[k] else t[k] + 1
    congested[steps] = c[steps].sum() + 2 * t[steps] >= w
    loads = c + t[:, None]
    return {"carried": c, "t": t, "loads": loads, "total": loads.sum(1), "congested": congested}


def new_aimd_cycles(x1: float, x2: float, w: float, cycles: int) -> Dict[str, np.ndarray]:
    """New-AIMD's cycle analysis (new-aimd-delay.txt, "Total number of packets"): with the
    first cycle ending exactly at capacity, x1 + x2 + 2k₁ = W, so k₁ = (W − x1 − x2)/2;
    k₂ = (W − 2k₁)/4 and k_m = k₂/2^(m−2) for m ≥ 2; cycle m carries (1 + k_m)(W − k_m)
    packets. Returns `k` and `packets` per cycle (continuous values, as in the paper)."""
    k1 = (w - x1 - x2) / 2.0
    k2 = (w - 2.0 * k1) / 4.0
    k = np.array([k1] + [k2 / 2.0 ** (m - 2) for m in range(2, cycles + 1)])
    return {"k": k, "packets": (1.0 + k) * (w - k)}
