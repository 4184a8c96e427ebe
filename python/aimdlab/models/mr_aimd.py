"""MR-AIMD's bandwidth-exploitation model (shared/papers/mr-aimd.txt §4.4, eq. 3–5, Fig. 7):
after a contention drop, windows grow from W_init over n RTTs with no ECN marks.

Eq. (3) as printed, a_n = a_{n−1} + a'·n, makes a grow quadratically in n; the per-ACK rule of
§3.1 (a ← a + a'/cwnd, i.e. a' per RTT) gives a_n = a_{n−1} + a'. Both are offered
(`rule = "eq3"` or `"per_rtt"`); the figure in the paper cannot tell them apart without its
data, so neither is claimed to be what it plotted.
"""

from __future__ import annotations

import numpy as np

__all__ = ["increase_factor", "mr_aimd_window", "tcp_window"]


def increase_factor(n: int, a_prime: float, a0: float = 1.0, rule: str = "eq3") -> np.ndarray:
    """a_1 … a_n: eq. (3) a_n = a_{n−1} + a'·n (`rule="eq3"`) or a_n = a_{n−1} + a'
    (`rule="per_rtt"`), from a_0 = `a0`."""
    steps = np.arange(1, n + 1)
    if rule == "eq3":
        return a0 + a_prime * np.cumsum(steps)
    if rule == "per_rtt":
        return a0 + a_prime * steps
    raise ValueError(f"rule: {rule!r} is not a rule; expected 'eq3' or 'per_rtt'")


def mr_aimd_window(n: int, a_prime: float = 0.5, w_init: float = 20.0, a0: float = 1.0, rule: str = "eq3") -> np.ndarray:
    """W after 1 … n RTTs, W_fin = W_init + Σ a_k — eq. (4)."""
    return w_init + np.cumsum(increase_factor(n, a_prime, a0, rule))


def tcp_window(n: int, w_init: float = 20.0, a: float = 1.0) -> np.ndarray:
    """TCP's W after 1 … n RTTs, W_fin = W_init + a·n — eq. (5)."""
    return w_init + a * np.arange(1, n + 1)
