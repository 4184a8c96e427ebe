"""Runs the DCCP thesis's experiments as rebuilt in `aimdlab.papers.dccp_thesis` (every
set-up choice is written there) and writes, per experiment, the thesis's table — average
throughput, packet drop, average delay, average jitter per flow group — plus three figures:
TCP's share against UDP, CCID-2 and CCID-3 (Chapter 4), TW's and TCP-like's ramp-up on the
300 ms link (§6.7.2), and H.263 video over TW, TCP-like and TFRC (§6.7.5).

    python -m aimdlab.papers.dccp_thesis.run                       # everything, to results/dccp-thesis
    python -m aimdlab.papers.dccp_thesis.run --only 4 ramp --out /tmp/thesis
    python -m aimdlab.papers.dccp_thesis.run --list
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import pandas as pd

import aimdlab
from aimdlab.papers import dccp_thesis as thesis
from aimdlab.plots import save_figure
from aimdlab.sweep.executor import ordered_map


def run_one(job):
    exp, label, scenario = job
    r = aimdlab.run(scenario)
    table = thesis.flow_table(r).reset_index()
    table.insert(0, "run", label)
    table.insert(0, "experiment", exp)
    extra = {}
    if exp == "ramp":
        extra["ramp"] = thesis.ramp(r, label)
        ts = r.timeseries.to_pandas()
        extra["series"] = ts[["time_s", "goodput_bps"]].to_numpy()
    if exp == "4":
        extra["tcp_fair_share"] = thesis.fair_share_ratio(r)
    return exp, label, table, extra


def markdown(df: pd.DataFrame, index: bool = False) -> str:
    """A GitHub-style table of `df` (numbers to 4 significant digits)."""
    if index:
        df = df.reset_index()
    fmt = lambda v: f"{v:.4g}" if isinstance(v, float) else str(v)  # noqa: E731
    rows = [list(map(str, df.columns))] + [[fmt(v) for v in row] for row in df.itertuples(index=False)]
    return "\n".join(["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])] + ["| " + " | ".join(r) + " |" for r in rows[1:]])


def friendliness_figure(shares):
    from aimdlab.plots import _matplotlib

    plt = _matplotlib()
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
    for ax, delay in zip(axes, ("short", "long")):
        kinds = ["udp", "ccid2", "ccid3"]
        for i, util in enumerate(("not fully", "fully")):
            vals = [shares[f"{k} {delay} {util}"] for k in kinds]
            ax.bar([x + 0.38 * i for x in range(3)], vals, width=0.36, label=f"{util} utilised")
        ax.axhline(1.0, color="k", lw=0.8, ls="--")
        ax.set_xticks([x + 0.19 for x in range(3)], ["2 × UDP (CBR)", "2 × CCID-2", "2 × CCID-3"])
        ax.set_title(f"{'20 ms' if delay == 'short' else '300 ms'} bottleneck")
        ax.grid(alpha=0.3, axis="y")
    axes[0].set_ylabel("TCP throughput / fair share")
    axes[0].legend(fontsize=8)
    fig.suptitle("One TCP flow against two CBR flows (DCCP thesis, Chapter 4, rebuilt)")
    fig.tight_layout()
    return fig


def ramp_figure(series, ramps):
    from aimdlab.plots import _matplotlib

    plt = _matplotlib()
    fig, ax = plt.subplots(figsize=(8, 4))
    for label, data in series.items():
        t90, cv = ramps[label]
        ax.plot(data[:, 0], data[:, 1] / 1e6, label=f"{label}: 90 % at {t90:.0f} s, CV after {cv:.3f}")
    ax.axhline(0.9 * thesis.BOTTLENECK_BPS * 1000 / 1036 / 1e6, color="k", lw=0.8, ls="--", label="90 % of the link (payload)")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("goodput (Mbit/s, 1 s samples)")
    ax.set_title("TCP-like TW and TCP-like alone on a 2 Mbit/s, 300 ms link")
    ax.legend(fontsize=8, loc="lower right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def video_figure(table):
    from aimdlab.plots import _matplotlib

    plt = _matplotlib()
    v = table[(table["experiment"] == "6-5") & (table["transport"] != "tcp")].copy()
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.5))
    for ax, (col, what) in zip(axes, [("packet_drop", "packet drop"), ("delay_ms", "average delay (ms)"), ("jitter_ms", "average jitter (ms)")]):
        ax.bar(range(len(v)), v[col].to_numpy())
        ax.set_xticks(range(len(v)), v["run"].tolist(), rotation=30, fontsize=8)
        ax.set_title(what)
        ax.grid(alpha=0.3, axis="y")
    fig.suptitle("H.263-like VBR video against one TCP flow (DCCP thesis, experiment 6-5, rebuilt)")
    fig.tight_layout()
    return fig


def main(argv=None) -> int:
    exps = thesis.experiments()
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", nargs="*", default=None, help=f"experiment ids among {', '.join(exps)}")
    ap.add_argument("--out", default="results/dccp-thesis", help="output folder (default: %(default)s)")
    ap.add_argument("--jobs", type=int, default=None, help="parallel runs (default: the CPU count)")
    ap.add_argument("--list", action="store_true", help="list the experiments and their runs, then stop")
    args = ap.parse_args(argv)
    if args.list:
        for exp, runs in exps.items():
            print(f"{exp}: " + "; ".join(runs))
        return 0
    chosen = args.only or list(exps)
    unknown = [e for e in chosen if e not in exps]
    if unknown:
        print(f"--only: unknown experiment {', '.join(unknown)}; expected some of {', '.join(exps)}", file=sys.stderr)
        return 2
    jobs = [(e, label, sc) for e in chosen for label, sc in exps[e].items()]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    tables, shares, ramps, series = [], {}, {}, {}
    for i, (exp, label, table, extra) in enumerate(ordered_map(run_one, jobs, jobs=args.jobs), 1):
        print(f"[{i}/{len(jobs)}] {exp} {label}", file=sys.stderr)
        tables.append(table)
        if "tcp_fair_share" in extra:
            shares[label] = extra["tcp_fair_share"]
        if "ramp" in extra:
            ramps[label], series[label] = extra["ramp"], extra["series"]
    table = pd.concat(tables, ignore_index=True)
    table.to_csv(out / "tables.csv", index=False)
    lines = ["# DCCP thesis experiments, rebuilt (aimdlab)", "", "Set-up choices: see `aimdlab.papers.dccp_thesis`.", ""]
    for exp in chosen:
        lines += [f"## Experiment {exp}", "", markdown(table[table["experiment"] == exp].drop(columns="experiment")), ""]
    if shares:
        lines += ["## TCP throughput / fair share (Chapter 4)", "", markdown(pd.Series(shares, name="tcp / fair share").rename_axis("run").to_frame(), index=True), ""]
        save_figure(friendliness_figure(shares), out / "friendliness.png")
    if ramps:
        lines += ["## Ramp-up on the 300 ms link", "", markdown(pd.DataFrame(ramps, index=["time to 90 % (s)", "CV after"]).T.rename_axis("run"), index=True), ""]
        save_figure(ramp_figure(series, ramps), out / "ramp.png")
    if "6-5" in chosen:
        save_figure(video_figure(table), out / "video.png")
    (out / "tables.md").write_text("\n".join(lines))
    print(f"{len(jobs)} runs in {time.time() - t0:.1f} s; wrote {out}/tables.md, tables.csv and figures", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
