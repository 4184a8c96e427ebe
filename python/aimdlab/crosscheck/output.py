"""A crosscheck on disk and on a page: its folder (written as one unit) and its figure.

    DIR/crosscheck.json   every figure of both sides: per seed, mean, 95 % interval, bound, verdict
    DIR/crosscheck.png    the bottleneck queue and flow 0's cwnd over time in both simulators (seed 1)
    DIR/aimdlab/          seed 1's run, as `aimdlab run` writes it
    DIR/ns2/              the peer's own files: each seed's script and what ns printed
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from ..out_path import refuse_foreign, resolve_out

__all__ = ["figure", "write"]

OWNED = {"crosscheck.json", "crosscheck.png", "aimdlab", "ns2", "ns3"}
"""What a crosscheck folder holds (anything else there refuses the folder)."""


def figure(check: Any):
    """Two panels over time, seed 1: the bottleneck queue, and flow 0's congestion window —
    aimdlab's samples beside the peer's."""
    from ..plots import _matplotlib

    plt = _matplotlib()
    result = check.results[0]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7.2, 5.0), sharex=True)
    links = result.links.to_pandas()
    bottleneck = int(links.loc[links["name"] == "r1->r2", "link"].iloc[0]) if (links["name"] == "r1->r2").any() else 0
    lts = result.link_timeseries.to_pandas()
    lts = lts[lts["link"] == bottleneck]
    ts = result.timeseries.to_pandas()
    ts = ts[ts["flow"] == 0]
    peer = check.peer.replace("ns2", "ns-2.35").replace("ns3", "ns-3.44")
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


def write(check: Any, out: Any) -> Path:
    """Writes the crosscheck into folder `out` as one unit (complete or absent; a folder of
    other files is refused); returns the folder."""
    from ..plots import save_figure

    folder = resolve_out(out, flag="--out")
    refuse_foreign(folder, out, lambda p: p.name in OWNED, "a crosscheck's")
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}.partial-{os.getpid()}-"))
    try:
        (staging / "crosscheck.json").write_text(json.dumps(_jsonable(check.to_dict()), indent=1) + "\n", encoding="utf-8")
        save_figure(figure(check), staging / "crosscheck.png")
        check.results[0].save(staging / "aimdlab")
        if check.folder:
            shutil.copytree(check.folder, staging / check.peer)
        if folder.exists():
            old = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}.old-{os.getpid()}-"))
            os.rename(folder, old / "previous")
            os.rename(staging, folder)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.rename(staging, folder)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return folder


def _jsonable(value: Any) -> Any:
    """`value` as JSON holds it: NaN and infinity as null."""
    import math

    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
