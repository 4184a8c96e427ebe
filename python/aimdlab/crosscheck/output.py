"""A crosscheck on disk and on a page: its folder (written as one unit) and its figure.

    DIR/crosscheck.json   every figure of both sides: per seed, mean, 95 % interval, bound, verdict
    DIR/crosscheck.png    the bottleneck queue and flow 0's cwnd over time in both simulators (seed 1)
    DIR/aimdlab/          seed 1's run, as `aimdlab run` writes it
    DIR/ns2/              the peer's own files: each seed's script and what ns printed
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

__all__ = ["figure", "prepare", "write"]

OWNED = {"crosscheck.json", "crosscheck.png", "aimdlab", "ns2", "ns3"}
"""What a crosscheck folder holds (anything else there refuses the folder)."""


def figure(check: Any):
    """Two panels over time, seed 1: the bottleneck queue, and flow 0's congestion window —
    aimdlab's samples beside the peer's."""
    from ..plots import _matplotlib
    from . import PEER_NAMES

    plt = _matplotlib()
    result = check.results[0]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7.2, 5.0), sharex=True)
    links = result.links.to_pandas()
    name = str(result.summary["bottleneck"].get("link", "r1->r2"))  # (the first monitored link of an explicit topology)
    bottleneck = int(links.loc[links["name"] == name, "link"].iloc[0]) if (links["name"] == name).any() else 0
    lts = result.link_timeseries.to_pandas()
    lts = lts[lts["link"] == bottleneck]
    ts = result.timeseries.to_pandas()
    ts = ts[ts["flow"] == 0]
    peer = PEER_NAMES.get(check.peer, check.peer)
    t, q, w = zip(*check.peer_series) if check.peer_series else ((), (), ())
    top.plot(lts["time_s"], lts["queue_len_pkts"], lw=0.9, label="aimdlab")
    top.plot(t, q, lw=0.9, ls="--", label=peer)
    top.set_ylabel("bottleneck queue\n(packets waiting)")
    top.legend(fontsize=8, loc="upper right")
    bottom.plot(ts["time_s"], ts["cwnd_pkts"], lw=0.9, label="aimdlab")
    bottom.plot(t, w, lw=0.9, ls="--", label=peer)
    bottom.set_ylabel("flow 0 cwnd\n(packets)")
    bottom.set_xlabel("time (s)")
    for ax in (top, bottom):
        ax.grid(alpha=0.3)
    top.set_title(f"aimdlab and {peer} on the same set-up, seed 1", fontsize=9)
    fig.tight_layout()
    return fig


def prepare(out: Any) -> Any:
    """The crosscheck's folder `out`, checked before anything runs (a folder of other files is
    refused: `RunFolder`); `write` fills and commits it."""
    from ..run_folder import RunFolder

    return RunFolder(out, owned=lambda p: p.name in OWNED, what="a crosscheck's files")


def write(check: Any, folder: Any) -> Path:
    """Writes the crosscheck into `folder` (what `prepare` gave) as one unit: complete or
    absent; returns its path."""
    from ..jsonable import jsonable
    from ..plots import save_figure

    with folder as staging:
        (staging / "crosscheck.json").write_text(json.dumps(jsonable(check.to_dict()), indent=1) + "\n", encoding="utf-8")
        save_figure(figure(check), staging / "crosscheck.png")
        check.results[0].save(staging / "aimdlab")
        if check.folder:
            shutil.copytree(check.folder, staging / check.peer)
    check.discard()
    return folder.out
