"""The items whose set-ups ns-2.35 ran, as one table: item, paper, ns-2.35, aimdlab, and what
ns-2.35 makes the cause (from `aimdlab reproduce ... --json`):

    aimdlab reproduce gaimd mr-aimd --quick --json > r.json   # (one paper per call, or all)
    python tools/peer_table.py r.json

Each value column gives the points as `x: value`; the cause column says what ns-2.35 on the
same set-up shows: both differ from the paper (the paper's set-up or version), ns-2.35
reproduces it where aimdlab does not (aimdlab's to find), or the two verdicts agree.
"""

from __future__ import annotations

import json
import math
import sys


def _points(xs, values, group=None) -> str:
    def num(v):
        return "—" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.4g}"

    labels = [f"{g}, {x}" for g, x in zip(group, xs)] if group else [str(x) for x in xs]
    return "; ".join(f"{k}: {num(v)}" for k, v in zip(labels, values))


def _cause(ours: str, theirs: str) -> str:
    if ours == "differs" and theirs == "differs":
        return "ns-2.35 differs too: the paper's set-up or version (tested)"
    if ours == "differs" and theirs == "reproduced":
        return "ns-2.35 reproduces: aimdlab's to find"
    if ours == "reproduced" and theirs == "differs":
        return "aimdlab reproduces where ns-2.35 does not"
    return "same verdict" if ours == theirs else f"{theirs} in ns-2.35"


def main(path: str) -> None:
    data = json.loads(open(path, encoding="utf-8").read())
    print("| paper | item | paper's values | ns-2.35 | aimdlab | verdict aimdlab / ns-2.35 | cause |")
    print("|---|---|---|---|---|---|---|")
    for paper in data["papers"]:
        for item in paper["items"]:
            peer = item.get("peer")
            if not peer:
                continue
            pub = item["published"]
            published = _points(pub["x"], pub["value"]) if pub["value"] else "(a claim)"
            print(f"| {paper['paper']} | {item['id']} | {published} | {_points(peer['x'], peer['mean'], peer['group'])} | "
                  f"{_points(item['x'], item['mean'], item['group'])} | {item['verdict']} / {peer['verdict']} | "
                  f"{_cause(item['verdict'], peer['verdict'])} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
