"""The papers' model figures, drawn with matplotlib from `aimdlab.models`:

- `gaimd_error_integral`: E_β(α) of eq. (8) against α, Fig. 9;
- `tcp_friendly_curves`: the TD, TO and error-minimizing TCP-friendly α against β, Fig. 10;
- `gaimd_rate_ratios`: T(α, β)/T(1, 1/2) against loss rate for those α, Fig. 11;
- `chiu_jain_phase`: two users' loads under a linear rule, with the efficiency and fairness
  lines (the vector diagram of Chiu & Jain used by both New-AIMD papers);
- `mr_aimd_exploitation`: MR-AIMD's and TCP's window after n RTTs, mr-aimd.txt Fig. 7.

Each returns a matplotlib Figure; save it with `aimdlab.plots.save_figure`. (GAIMD's Fig. 2–5,
simulation against its formula, is its paper's: `aimdlab.papers.gaimd.accuracy.figure`.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, Optional, Sequence

import numpy as np

from . import chiu_jain, gaimd, mr_aimd

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

__all__ = [
    "gaimd_error_integral",
    "tcp_friendly_curves",
    "gaimd_rate_ratios",
    "chiu_jain_phase",
    "mr_aimd_exploitation",
]


def _plt():
    from ..plots import _matplotlib

    return _matplotlib()


def _label(ax, xlabel: str, ylabel: str, title: str, legend_loc: str = "best", legend_size: int = 8) -> None:
    """Axis labels, title, legend and a light grid: the finish every model figure shares."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=legend_size, loc=legend_loc)
    ax.grid(alpha=0.3, which="both")


def gaimd_error_integral(beta: float = 0.875, thresholds: Sequence[float] = (0.1, 0.2, 0.3, 0.5, 0.7),
                         t0_over_rtt: float = 4.0) -> "Figure":
    """gaimd.txt Fig. 9: E_β(α) (eq. 8) against α for step weight thresholds, with each
    curve's minimum α* marked."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(5.5, 3.8))
    alphas = np.linspace(0.05, 1.0, 96)
    for th in thresholds:
        e = [gaimd.error_integral(a, beta, th, t0_over_rtt, points=1000) for a in alphas]
        best = gaimd.tcp_friendly_alpha_error_min(beta, th, t0_over_rtt)
        line, = ax.plot(alphas, e, label=f"threshold {th:g} (α* = {best:.3f})")
        ax.plot([best], [gaimd.error_integral(best, beta, th, t0_over_rtt)], "o", color=line.get_color())
    _label(ax, "α", "E_β(α)", f"Error integral, β = {beta:g}, T0 = {t0_over_rtt:g}·RTT")
    return fig


def tcp_friendly_curves(t0_over_rtt: float = 4.0, thresholds: Sequence[float] = (0.1, 0.4),
                        betas: Optional[Sequence[float]] = None) -> "Figure":
    """gaimd.txt Fig. 10: the TCP-friendly α for each β from the TD terms (eq. 6), the TO
    terms (eq. 7), and error minimization (eq. 8) at the given weight thresholds."""
    plt = _plt()
    beta_values = np.linspace(0.05, 0.95, 19) if betas is None else np.asarray(betas)
    fine = np.linspace(0.01, 0.99, 199)
    fig, ax = plt.subplots(figsize=(5.5, 3.8))
    ax.plot(fine, gaimd.tcp_friendly_alpha_td(fine), label="TD, eq. (6)")
    ax.plot(fine, gaimd.tcp_friendly_alpha_to(fine), label="TO, eq. (7)")
    for th in thresholds:
        a = [gaimd.tcp_friendly_alpha_error_min(b, th, t0_over_rtt) for b in beta_values]
        ax.plot(beta_values, a, "o--", ms=3, label=f"error-min., threshold {th:g}")
    ax.plot([0.5], [1.0], "k+", ms=10, label="TCP (1, 1/2)")
    _label(ax, "β", "TCP-friendly α", f"TCP-friendly curves (T0 = {t0_over_rtt:g}·RTT)")
    return fig


def gaimd_rate_ratios(beta: float = 0.875, t0_over_rtt: float = 4.0, threshold: float = 0.2) -> "Figure":
    """gaimd.txt Fig. 11: T(α, β)/T(1, 1/2) against loss rate for the TCP-friendly α of
    eq. (6), eq. (7) and eq. (8) at `threshold`."""
    plt = _plt()
    p = np.logspace(-3, np.log10(0.5), 200)
    alphas: Dict[str, float] = {
        "TD, eq. (6)": float(gaimd.tcp_friendly_alpha_td(beta)),
        "TO, eq. (7)": float(gaimd.tcp_friendly_alpha_to(beta)),
        f"error-min., threshold {threshold:g}": gaimd.tcp_friendly_alpha_error_min(beta, threshold, t0_over_rtt),
    }
    fig, ax = plt.subplots(figsize=(5.5, 3.8))
    for name, a in alphas.items():
        ax.plot(p * 100, gaimd.normalized_rate(a, beta, p, 1.0, t0_over_rtt), label=f"{name}: α = {a:.3f}")
    ax.axhline(1.0, color="0.4", lw=0.8)
    ax.set_xscale("log")
    _label(ax, "loss rate (%)", "T(α, β) / T(1, 1/2)", f"GAIMD rate relative to TCP, β = {beta:g}, T0 = {t0_over_rtt:g}·RTT")
    return fig


def chiu_jain_phase(rules: Optional[Dict[str, chiu_jain.LinearRule]] = None, x0=(2.0, 12.0), x_goal: float = 20.0,
                    steps: int = 60) -> "Figure":
    """Chiu & Jain's vector diagram: two users' loads x1, x2 step by step under each linear
    rule from `x0`, with the efficiency line x1 + x2 = X_goal and the fairness line x1 = x2.
    Default rules: AIMD (TCP), GAIMD(0.31, 7/8), AIAD and MIMD — only AIMD-type rules move
    toward the fairness line."""
    plt = _plt()
    rules = rules or {
        "AIMD (1, 1/2)": chiu_jain.aimd(),
        "GAIMD (0.31, 7/8)": chiu_jain.gaimd(0.3125, 0.875),
        "AIAD (1, 1)": chiu_jain.aiad(1.0, 1.0),
        "MIMD (1.1, 1/2)": chiu_jain.mimd(1.1, 0.5),
    }
    fig, ax = plt.subplots(figsize=(5, 5))
    lim = x_goal * 1.2
    ax.plot([0, x_goal], [x_goal, 0], color="0.3", lw=1, label="efficiency line x1 + x2 = X_goal")
    ax.plot([0, lim], [0, lim], color="0.3", lw=1, ls="--", label="fairness line x1 = x2")
    for name, rule in rules.items():
        x = chiu_jain.simulate(x0, x_goal, rule, steps)["x"]
        ax.plot(x[:, 0], x[:, 1], ".-", lw=0.8, ms=3, label=name)
    ax.plot([x0[0]], [x0[1]], "ko", label="start")
    ax.set_xlim(0, lim)
    ax.set_ylim(0, lim)
    ax.set_aspect("equal")
    _label(ax, "user 1 load x1", "user 2 load x2", f"Synchronous feedback, {steps} steps", legend_loc="upper right", legend_size=7)
    return fig


def mr_aimd_exploitation(n: int = 20, w_init: float = 20.0) -> "Figure":
    """mr-aimd.txt Fig. 7: the window after 1 … n RTTs without ECN marks from W_init, for
    MR-AIMD with a' = 0.5 and 0.005 (eq. 3–4, and the per-ACK reading a' per RTT) and TCP
    (eq. 5)."""
    plt = _plt()
    rtts = np.arange(0, n + 1)
    fig, ax = plt.subplots(figsize=(5.5, 3.8))

    def with_start(w):
        return np.concatenate([[w_init], w])

    for a_prime in (0.5, 0.005):
        ax.plot(rtts, with_start(mr_aimd.mr_aimd_window(n, a_prime, w_init, rule="eq3")), "o-", ms=3,
                label=f"MR-AIMD a' = {a_prime:g}, eq. (3)")
    ax.plot(rtts, with_start(mr_aimd.mr_aimd_window(n, 0.5, w_init, rule="per_rtt")), "s--", ms=3,
            label="MR-AIMD a' = 0.5, a' per RTT (§3.1)")
    ax.plot(rtts, with_start(mr_aimd.tcp_window(n, w_init)), "k^-", ms=3, label="TCP, eq. (5)")
    ax.axhline(2 * w_init, color="0.5", lw=0.8, ls=":", label="2·W_init")
    _label(ax, "RTTs after the contention drop", "cwnd (packets)", f"Bandwidth exploitation from W_init = {w_init:g}")
    return fig
