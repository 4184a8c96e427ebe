"""`aimdlab reproduce`: run a paper's figures and tables (sweeps, in the resumable store), set
aimdlab's numbers beside the published ones, give each a verdict and write an HTML report per
paper and an index. The papers' definitions live in `experiments/<paper>/paper.toml` (see
`paper.py`); the verdict rules in `verdict.py`.
"""

from __future__ import annotations

import dataclasses
import math
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple, Union

from ..sweep import Experiment, Sweep, SweepProgress, load_experiment, run_sweeps
from ..sweep.experiment import axis_fields
from .axes import same_x
from .evaluation import (  # (the judging, re-exported: `aimdlab.reproduce` is its public face)
    ItemResult,
    PaperResult,
    _check_stability,
    _evaluate,
    _full_grid,
    _judge,
    _quick_verdict,
    _SeedSubset,
    evaluate,
    total_tally,
)
from .explain import read_screens, screen_words
from .items import Item, ModelItem, NotJudgedItem, OnSweep, SweepItem
from .paper import Paper, check_fields, find_experiments, load_paper
from .verdict import CANNOT, CLASSES, DIFFERS, INCONCLUSIVE, NOT_CHECKABLE, NOT_JUDGED_QUICK, REPRODUCED, RESULT

__all__ = ["ItemResult", "PaperResult", "available_papers", "load_paper", "reproduce_paper", "reproduce_papers", "find_experiments", "total_tally",
           "evaluate", "link_causes", "same_x", "Item", "SweepItem", "ModelItem", "NotJudgedItem", "Paper",
           "REPRODUCED", "DIFFERS", "INCONCLUSIVE", "CANNOT", "NOT_CHECKABLE", "NOT_JUDGED_QUICK", "CLASSES", "RESULT",
           "_check_stability", "_evaluate", "_full_grid", "_judge", "_quick_verdict", "_SeedSubset"]


def available_papers(experiments: Path) -> List[str]:
    """The papers with a `paper.toml` under `experiments`."""
    return sorted(p.parent.name for p in experiments.glob("*/paper.toml"))


def reproduce_paper(paper: Paper, out: Union[str, Path], quick: bool = False, jobs: Optional[int] = None, dask: bool = False,
                    scheduler: Optional[str] = None, progress: Optional[Callable[[SweepProgress], None]] = None) -> PaperResult:
    """Runs (or resumes) every sweep of `paper` into `out/sweeps/<name>` and evaluates its
    items. `progress(state)` follows the runs (see `run_sweeps`)."""
    return reproduce_papers([(paper, Path(out))], quick, jobs, dask, scheduler, progress)[0]


def reproduce_papers(papers: Sequence[Tuple[Paper, Path]], quick: bool = False, jobs: Optional[int] = None, dask: bool = False,
                     scheduler: Optional[str] = None, progress: Optional[Callable[[SweepProgress], None]] = None,
                     evaluated: Optional[Callable[[PaperResult], None]] = None) -> List[PaperResult]:
    """`reproduce_paper` for each `(paper, out)`, the sweeps of all of them run as one batch
    (`run_sweeps`): a paper's items are evaluated as soon as its sweeps are complete, in a
    thread of this process, while the other papers' runs go on; `evaluated(result)` is then
    called in that thread. Every item is checked against its sweep before anything runs."""
    batch: List[Tuple[Experiment, Path]] = []
    owner: List[Tuple[int, str]] = []
    for k, (paper, out) in enumerate(papers):
        for path in paper.sweeps():
            exp = load_experiment(path, quick=quick)
            fields = [f for axis in exp.axes for f in dict.fromkeys([axis, *axis_fields(axis)])]
            check_fields(paper, path, fields, exp.measures)
            batch.append((exp, Path(out) / "sweeps" / path.stem))
            owner.append((k, str(path)))
    sweeps: List[Dict[str, Sweep]] = [{} for _ in papers]
    left = [len(paper.sweeps()) for paper, _ in papers]
    evaluator = ThreadPoolExecutor(1, thread_name_prefix="aimdlab-evaluate")
    results: List[Optional[Future]] = [None] * len(papers)

    def evaluate_paper(k: int) -> PaperResult:
        from .peer import attach_peer

        paper = papers[k][0]
        result = PaperResult(paper, [evaluate(item, sweeps[k].get(str(item.sweep)) if isinstance(item, OnSweep) else None) for item in paper.items],
                             {str(path): sweeps[k][str(path)].root for path in paper.sweeps()}, quick)
        attach_peer(result)  # (ns-2.35's stored values of the same set-ups, where the paper has them)
        screens = read_screens(paper.folder)
        for r in result.items:
            r.screen = screens.get(r.item.id)
        link_causes(result.items, quick)
        if evaluated:
            evaluated(result)
        return result

    def finished(i: int, sweep: Sweep) -> None:
        k, path = owner[i]
        sweeps[k][path] = sweep
        left[k] -= 1
        if not left[k]:
            results[k] = evaluator.submit(evaluate_paper, k)

    try:
        for k in range(len(papers)):
            if not left[k]:  # a paper of models only
                results[k] = evaluator.submit(evaluate_paper, k)
        run_sweeps(batch, jobs=jobs, dask=dask, scheduler=scheduler, progress=progress, finished=finished)
        return [future.result() for future in results if future is not None]
    finally:
        evaluator.shutdown(wait=False, cancel_futures=True)


def link_causes(results: List[ItemResult], quick: bool = False) -> List[ItemResult]:
    """Says of each paper result that differs whether its cause was tested, in its detail, by
    the first of: the check it names (`cause_tested_by`, another item), which counts only when
    that check is reproduced (else the next are tried, and without any the detail says "cause
    not tested: its check ... is ..."); its own
    sensitivity axis; ns-2.35 on the same set-up, when it differs from the paper too (the
    difference is then not aimdlab's model of the stack); a stored screen of the paper's
    unstated parameters (`explain.py`), with what it found; else "cause not tested" (which in a
    `quick` run says to judge the item without --quick first); `ItemResult.tested_cause` names
    which. Call it once the peer's values and the screens are attached. Returns `results`."""
    by_id = {r.item.id: r for r in results}
    for r in results:
        if r.verdict.verdict != DIFFERS or r.item.kind != RESULT:
            continue
        check = by_id.get(r.item.cause_tested_by or "")
        failed = "" if check is None else f"its check ({check.item.id}) is {check.verdict.verdict}"
        said = ""
        if check is not None and check.verdict.verdict == REPRODUCED:
            r.tested_cause = "check"
        elif r.item.cause_tested_by == "sensitivity":
            r.tested_cause = "sensitivity"
        elif r.peer is not None and r.peer.verdict.verdict == DIFFERS:
            r.tested_cause = "ns-2.35"
            said = (f"cause tested: ns-2.35 on the same set-up differs from the paper too ({_values_words(r.peer)}), so the "
                    "difference is not aimdlab's model of the stack")
        elif r.screen is not None:
            r.tested_cause = "screen"
            said = screen_words(r.screen)
        else:
            said = f"cause not tested: {failed}" if failed else "cause not tested"
            if quick:  # (a first look: the difference itself may not stand with the sweep's own seeds and lengths)
                said += " in this quick run (fewer seeds, shorter runs): judge it without --quick first"
        if said:
            r.verdict = dataclasses.replace(r.verdict, detail=f"{r.verdict.detail}; {said}")
    return results


def _values_words(r: ItemResult) -> str:
    """A judged series in a few words: `means 0.91 to 1.3`."""
    finite = [v for v in r.mean if math.isfinite(v)]
    if not finite:
        return "no value"
    low, high = min(finite), max(finite)
    return f"mean {low:.3g}" if math.isclose(low, high) else f"means {low:.3g} to {high:.3g}"

