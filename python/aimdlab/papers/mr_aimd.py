"""MR-AIMD (shared/papers/mr-aimd.txt): §4.4's window-growth model (eq. 3-5, Fig. 7) in the
form `aimdlab reproduce` judges a model item: a function returning `{"x": [...], "y": [...]}`.
"""

from __future__ import annotations

__all__ = ["window_eq3", "window_per_rtt"]

RTTS = [1, 2, 3, 4, 5, 6, 7, 8, 10, 15, 20]
"""RTTs after the contention drop the windows are read at."""


def window_eq3():
    """W after n RTTs from W_init = 20 by eq. (4) with eq. (3) as printed, a_n = a_(n-1) + a'·n
    (a' = 0.5, a_0 = 1)."""
    from ..models import mr_aimd

    w = mr_aimd.mr_aimd_window(max(RTTS), 0.5, 20.0, rule="eq3")
    return {"x": RTTS, "y": [float(w[n - 1]) for n in RTTS]}


def window_per_rtt():
    """The same with §3.1's per-ACK rule (a grows by a' per RTT), which aimdlab's MR-AIMD runs."""
    from ..models import mr_aimd

    w = mr_aimd.mr_aimd_window(max(RTTS), 0.5, 20.0, rule="per_rtt")
    return {"x": RTTS, "y": [float(w[n - 1]) for n in RTTS]}
