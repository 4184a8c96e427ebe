"""Response functions at packet level: one flow of Reno, CUBIC, HighSpeed and Scalable TCP on a
20 Gbit/s, 100 ms path whose data packets are lost at random (Bernoulli) — never at the
queue — at rates from 10⁻² to 3·10⁻⁵; its time-average window against the loss-event rate
it measured, beside the response functions of `aimdlab.models.response` (issue 37):

    python benches/response_functions.py [--out docs/img/response-functions.png]

Prints one row per run (mean window, loss-event rate, the model at that rate, their ratio)
and draws the figure of docs/explanation/aimd-family.md.
"""

from __future__ import annotations

import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from aimdlab.models import response  # noqa: E402
from aimdlab.validation.response import mean_window_and_loss_event_rate  # noqa: E402

MODELS = {"reno": response.reno_window, "cubic": lambda p: response.cubic_window(p, 0.1), "highspeed": response.highspeed_window,
          "scalable": response.scalable_window}
LOSS_RATES = [1e-2, 3e-3, 1e-3, 3e-4, 1e-4, 3e-5]


def run(cc: str, p: float) -> tuple[float, float]:
    """Mean window and loss-event rate of one flow at random loss `p`, long enough for about
    100 loss events."""
    seconds = int(min(900, max(60, 100 / (p * MODELS[cc](p) / 0.1))))
    return mean_window_and_loss_event_rate(cc, p, seconds)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="docs/img/response-functions.png")
    a = ap.parse_args()
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    grid = np.logspace(-5, -1.7, 100)
    print("| controller | random loss p | loss-event rate | mean window (pkts) | model at that rate | ratio |")
    print("|---|---|---|---|---|---|")
    for (cc, model), color in zip(MODELS.items(), ["tab:blue", "tab:red", "tab:orange", "tab:green"]):
        ax.plot(grid, model(grid), color=color, lw=1.2, label=f"{cc}: response function")
        pts = []
        for p in LOSS_RATES:
            w, pe = run(cc, p)
            pts.append((pe, w))
            print(f"| {cc} | {p:g} | {pe:.2e} | {w:.1f} | {model(pe):.1f} | {w / model(pe):.3f} |", flush=True)
        xs, ys = zip(*pts)
        ax.plot(xs, ys, "o", color=color, ms=5, label=f"{cc}: one flow, random loss")
    ax.set(xscale="log", yscale="log", xlabel="loss-event rate p", ylabel="mean congestion window (packets)",
           title="Window against loss rate: packet level and response functions")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(a.out, dpi=120)
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
