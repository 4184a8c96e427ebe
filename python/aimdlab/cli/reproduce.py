"""`aimdlab reproduce`: a paper's figures and tables, with aimdlab's numbers beside the
published ones and a verdict each."""

from __future__ import annotations

import contextlib
import functools
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Dict, Iterator, List, Optional

import click

from ..errors import OutputError, ScenarioError
from .app import interrupted, main
from .options import check_dask_options, dask_options
from .output import SweepBar, emit_json, json_option, note, quiet, quiet_option

if TYPE_CHECKING:
    from ..reproduce import ItemResult

REPRODUCE_EXAMPLES = """
\b
Examples:
  aimdlab reproduce new-aimd-utilization --quick
  aimdlab reproduce all --quick --jobs 2
  aimdlab reproduce new-aimd-utilization --out results/reproduce --dask
  aimdlab reproduce gaimd --peer ns2 --peer-seeds 3
  aimdlab reproduce gaimd --explain fig4-accuracy-beta-0.875 --quick

\b
Each paper's definition is experiments/<paper>/paper.toml: its figures, tables and claims, the
sweeps that reproduce them, the published numbers and the tolerance that counts as reproduced.
Runs resume from the store (results/reproduce/<paper>/sweeps/); the report is
results/reproduce/<paper>/index.html, with an index of the papers in results/reproduce/.
A verdict follows aimdlab's 95 % interval over the seeds: reproduced, differs, inconclusive
(across the tolerance's edge) or cannot be reproduced; results whose values are in a part of the
paper's text that is missing are counted apart as not checkable, and so are, under --quick, the
results whose left-out points could change their verdicts (not judged in quick mode). Only the paper's own results
are counted; calibrated, sensitivity and context items are shown beside them. The command
prints one line per paper and the totals; --details adds every item's verdict.
With --peer ns2, the papers' sweeps are first run in ns-2.35 where it can run them (the same
set-ups, the first --peer-seeds seeds) and stored beside the paper (peer-ns2.json, with the
ns-2 version, date and command); every page then shows ns-2.35's value beside aimdlab's.
With --explain ITEM, the item's points run again with each parameter the paper leaves unstated
(its [[unstated]] tables) at each plausible value, then in pairs; the screen says which values
would close the gap, is stored beside the paper (explain.json) and shown on its page.
"""


@main.command(epilog=REPRODUCE_EXAMPLES)
@click.argument("paper")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("results/reproduce"), show_default=True,
              help="Where the sweeps and the reports go (reused to resume).")
@click.option("--quick", is_flag=True, help="Fewer seeds and shorter runs (each sweep's [quick] table); the report says so.")
@click.option("--jobs", type=click.IntRange(1, 4096), default=None, help="Parallel runs (default: one per core).")
@dask_options
@click.option("--experiments", "experiments_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="The folder of paper definitions (default: ./experiments if it holds any, else those inside the package).")
@click.option("--sweep-reports", is_flag=True,
              help="Also write each sweep's own report (its aggregate figures; about half again the time of a quick run). "
                   "Without it, `aimdlab report FOLDER` writes one when wanted.")
@click.option("--peer", type=click.Choice(["ns2"]), default=None,
              help="First measure the papers' items in ns-2.35 on the same set-ups and store them beside each paper.")
@click.option("--peer-seeds", type=click.IntRange(1, 100), default=3, show_default=True, help="Seeds per point in the peer.")
@click.option("--explain", "explain_item", metavar="ITEM", default=None,
              help="Screen the paper's unstated parameters for what would close ITEM's difference from the paper (one paper).")
@click.option("--details", is_flag=True, help="Also print every item's verdict and detail (the pages and --json have them too).")
@json_option
@quiet_option
def reproduce(paper: str, out_dir: Path, quick: bool, jobs: Optional[int], use_dask: bool, scheduler: Optional[str],
              experiments_dir: Optional[Path], sweep_reports: bool, peer: Optional[str], peer_seeds: int, explain_item: Optional[str],
              details: bool, as_json: bool) -> None:
    """Reproduce PAPER (or all): run its figures and tables, set aimdlab's numbers beside the
    published ones with a verdict each, and write an HTML report."""
    from ..reproduce import available_papers, find_experiments, load_paper, reproduce_papers, total_tally
    from ..reproduce.report import submit_figures, write_index, write_paper_report
    from ..sweep.executor import submit
    from ..sweep.report import write_report

    check_dask_options(use_dask, scheduler)
    try:
        root = find_experiments(experiments_dir)
        names = available_papers(root)
        chosen = names if paper == "all" else [paper]
        for name in chosen:
            if name not in names:
                raise ScenarioError(f"{name!r} is not a paper aimdlab can reproduce yet; expected one of {', '.join(names)} or all")
        papers = [load_paper(root / name) for name in chosen]
        out_dir = _reproduction_folder(out_dir, names)
    except (ScenarioError, FileNotFoundError, OutputError) as e:
        raise click.ClickException(str(e)) from None
    if explain_item is not None:
        if paper == "all":
            raise click.ClickException("--explain ITEM screens one item of one paper; name the paper, not all")
        _explain(papers[0], explain_item, out_dir / papers[0].id / "explain", quick, jobs, as_json)
        return
    t0 = time.perf_counter()
    if peer is not None:
        _measure_peer(papers, peer, peer_seeds, jobs)
    for p in papers:
        n = len(p.sweeps())
        note(f"{p.id}: {len(p.items)} figures, tables and claims; {n} sweep{'' if n == 1 else 's'}{' (quick)' if quick else ''}")
    figures: Dict[str, Dict] = {}  # each paper's figures, drawn on the workers as soon as it is evaluated

    def evaluated(result) -> None:
        figures[result.paper.id] = submit_figures(result, jobs)

    with _runs_kept_in(out_dir):
        with SweepBar() as bar:
            results = reproduce_papers([(p, out_dir / p.id) for p in papers], quick=quick, jobs=jobs, dask=use_dask,
                                       scheduler=scheduler, progress=bar.update, evaluated=evaluated)
        if sweep_reports:  # (drawn on the workers beside the pages' figures; before the pages, which link them)
            reports = [submit(functools.partial(write_report, run_figures=False), store, jobs)
                       for result in results for store in result.sweeps.values()]
            for report in reports:
                report.result()
        note(f"drawing {sum(len(f) for f in figures.values())} figures")
        pages = [write_paper_report(r, out_dir / r.paper.id, jobs=jobs, figures=figures.get(r.paper.id)) for r in results]
    index = write_index(results, out_dir) if results else None
    wall = time.perf_counter() - t0
    if as_json:
        from ..result import provenance_of_this_session

        emit_json({"command": "reproduce", "out_dir": out_dir, "index": index, "quick": quick, "wall_s": wall,
                   "provenance": provenance_of_this_session(),
                   "papers": [{"paper": r.paper.id, "page": page, "counts": r.counts(),
                               "items": [_item_json(i, r.peer_provenance) for i in r.items]} for r, page in zip(results, pages)],
                   "totals": total_tally(results) if results else {}})
        return
    if quiet():
        return
    from ..out_path import shown_path

    for result, page in zip(results, pages):
        if details:
            _print_items(result)
        click.echo(f"{result.paper.id}: {_count_words(result.counts(), why=False)}{_shown_words(result.shown())}; page: {shown_path(page)}")
    if results:
        totals = total_tally(results)
        verdicts = {k: totals[k] for k in results[0].counts()}
        how_many = f"{len(results)} paper{'' if len(results) == 1 else 's'}"
        mode = (" — quick: fewer seeds and shorter runs (each sweep's [quick] table), a first look; without --quick for the reproduction"
                if quick else "")
        click.echo(f"{how_many} in {wall:.1f} s{mode}")
        click.echo(f"paper results: {_count_words(verdicts)}; index: {shown_path(index) if index else '(none)'}")
        if not details:
            click.echo("each item's verdict and why: the pages, --details or --json")


def _print_items(result) -> None:
    """`--details`: every item of one paper, its verdict and detail, its sensitivity rows."""
    click.echo(f"{result.paper.id}:")
    for r in result.items:
        kind = "" if r.item.kind == "result" else f"[{r.item.kind}] "
        click.echo(f"  {r.verdict.verdict:<21} {kind}{r.item.title} — {r.verdict.detail}")
        for value, other in r.sensitivity:
            shown = value if isinstance(value, str) else json.dumps(value)
            click.echo(f"    {other.verdict.verdict:<19} at {r.item.sensitivity} = {shown}: {other.verdict.detail}")


def _item_json(i: ItemResult, peer_provenance: Dict) -> Dict:
    """An item's outcome for --json: its verdict, aimdlab's points, the paper's, and the
    peer's (ns-2.35 on the same set-ups) where the paper has them stored."""
    from ..reproduce.items import Judged

    judged = i.item if isinstance(i.item, Judged) else None
    out = {"id": i.item.id, "title": i.item.title, "kind": i.item.kind, "verdict": i.verdict.verdict, "detail": i.verdict.detail,
           "x": i.x, "group": i.group, "mean": i.mean, "ci95": [[lo, hi] for lo, hi in zip(i.low, i.high)],
           "published": {"x": judged.published_x if judged else [], "value": judged.published if judged else []}}
    if i.peer is not None:
        out["peer"] = {"name": peer_provenance.get("name"), "verdict": i.peer.verdict.verdict, "detail": i.peer.verdict.detail,
                       "x": i.peer.x, "group": i.peer.group, "mean": i.peer.mean,
                       "ci95": [[lo, hi] for lo, hi in zip(i.peer.low, i.peer.high)]}
    return out


@contextlib.contextmanager
def _runs_kept_in(folder: Path) -> Iterator[None]:
    """Runs a block that runs sweeps into `folder`: on Ctrl-C or a failure the worker pool is
    stopped, and Ctrl-C says the finished runs are kept there to resume, a failure is one line."""
    from ..sweep.executor import stop_pool

    try:
        yield
    except KeyboardInterrupt:
        stop_pool()
        interrupted(f"interrupted: the runs finished so far are kept in {folder}; run the same command again to resume")
    except (ScenarioError, RuntimeError, OSError) as e:
        stop_pool()
        raise click.ClickException(str(e)) from None


def _explain(paper, item_id: str, out: Path, quick: bool, jobs: Optional[int], as_json: bool) -> None:
    """`--explain ITEM`: the item's points run as aimdlab runs them, then with each unstated
    parameter of the paper at each of its values, then in pairs; the screen is printed and
    stored beside the paper (explain.json), where the pages find it."""
    from ..reproduce.explain import screen_item, screen_words, setting_words, value_words, write_screen

    command = f"aimdlab reproduce {paper.id} --explain {item_id}" + (" --quick" if quick else "")
    note(f"{paper.id} {item_id}: screening the unstated parameters the paper declares ({len(paper.unstated)}), one at a time, "
         "then in pairs" + (" (quick: the sweep's [quick] seeds and durations)" if quick else ""))
    with _runs_kept_in(out):
        with SweepBar() as bar:
            screen = screen_item(paper, item_id, out, quick=quick, jobs=jobs, progress=bar.update)
        path = write_screen(paper, screen, command)
    if as_json:
        emit_json({"command": "reproduce --explain", "paper": paper.id, "item": item_id, "stored": path, "screen": screen.to_dict()})
        return
    if quiet():
        return
    from ..out_path import shown_path

    params = {u.id for u in paper.unstated}
    click.echo(f"{paper.id} {item_id}: as run, {screen.as_run.verdict} — {screen.as_run.detail}")
    runs = (f"{screen.seeds} seed{'' if screen.seeds == 1 else 's'} per point{', quick' if screen.quick else ''}" if screen.seeds
            else "the paper's model, evaluated: no runs")
    click.echo(f"unstated parameters ({runs}):")
    for u in paper.unstated:
        if u.id not in screen.skipped:
            shown = ", ".join(u.labels if u.labels else (value_words(v) for v in u.values))
            click.echo(f"  {u.id}: {u.what} ({u.field}: {shown}) — {u.why}")
    reasons: Dict[str, List[str]] = {}
    for u in paper.unstated:
        if u.id in screen.skipped:
            reasons.setdefault(screen.skipped[u.id], []).append(u.id)
    for why, ids in reasons.items():
        click.echo(f"  not screened, {why}: {', '.join(ids)}")
    for key, why in screen.skipped.items():
        if key not in params:
            click.echo(f"  {key}: not run — {why}")
    width = max([len(setting_words(t.setting)) for t in [screen.as_run, *screen.single, *screen.pairs]] + [7])
    click.echo(f"  {'setting':<{width}}  {'verdict':<13} {'off the paper':>13}  means")
    for t in [screen.as_run, *screen.single, *screen.pairs]:
        off = f"{t.shortfall:.3g}" if t.shortfall == t.shortfall else "-"
        means = ", ".join(f"{m:.3g}" for m in t.mean[:8]) + (", ..." if len(t.mean) > 8 else "")
        click.echo(f"  {setting_words(t.setting):<{width}}  {t.verdict:<13} {off:>13}  {means}")
    click.echo("off the paper: how far the means lie past the paper's band or threshold, in units of it (0: on the paper's side)")
    click.echo(screen_words(screen))
    click.echo(f"stored: {shown_path(path)} (the pages show it)" + (f"; runs: {shown_path(out / item_id)}" if screen.seeds else ""))


def _measure_peer(papers: List, peer: str, seeds: int, jobs: Optional[int]) -> None:
    """`--peer`: each paper's sweeps run in the peer where it can run them, stored beside the paper."""
    from ..crosscheck import PEER_NAMES
    from ..crosscheck.ns2 import Ns2Error
    from ..reproduce.peer import measure_paper, write_peer_file
    from .output import steps

    for p in papers:
        tenths = None if quiet() else steps(f"{p.id} in {PEER_NAMES[peer]}")

        def progress(done: int, total: int, p=p, tenths=tenths) -> None:
            if done == 0:
                note(f"{p.id}: {total} runs in {PEER_NAMES[peer]} ({seeds} seeds per point it can run)")
            elif tenths is not None:
                tenths(done, total)

        try:
            data = measure_paper(p, peer=peer, seeds=seeds, jobs=jobs, progress=progress)
            path = write_peer_file(p.folder, data, peer)
        except KeyboardInterrupt:
            interrupted("interrupted: nothing of the peer's runs was stored")
        except (ScenarioError, Ns2Error, OSError) as e:
            raise click.ClickException(str(e)) from None
        refused = sum(len(s["refused"]) for s in data["sweeps"].values())
        note(f"{p.id}: stored {path}" + (f" ({refused} runs' set-ups {PEER_NAMES[peer]} cannot run were left out)" if refused else ""))


def _reproduction_folder(out_dir: Path, papers: List[str]) -> Path:
    """`out_dir` resolved, once checked to hold nothing but reproductions: the index page
    aimdlab wrote and a folder per paper holding its page and its sweeps. A user's own
    `index.html` or other files there refuse the command before anything runs."""
    from ..out_path import is_aimdlab_page, refuse_blocked, refuse_foreign, resolve_out

    out = resolve_out(out_dir, flag="--out")
    if out.exists() and not out.is_dir():
        raise OutputError(f"--out {out_dir}: is a file; expected a folder for the reproductions")

    def in_paper_folder(p: Path) -> bool:
        return (p.name == "index.html" and is_aimdlab_page(p)) or (p.name in ("sweeps", "explain") and p.is_dir() and not p.is_symlink())

    def owned(p: Path) -> bool:
        if p.name == "index.html":
            return is_aimdlab_page(p)
        return p.name in papers and p.is_dir() and not p.is_symlink() and not any(not in_paper_folder(q) for q in p.iterdir())

    refuse_foreign(out, out_dir, owned, "aimdlab reproductions")
    refuse_blocked(out, out_dir)  # (created by the first sweep: a failure before it leaves nothing)
    return out


def _count_words(counts: Dict[str, int], why: bool = True) -> str:
    """Paper results by verdict in words: `3 reproduced, 2 differ, 0 inconclusive, 1 cannot be
    reproduced`, then the results counted apart when there are any (`why`: and why)."""
    from ..reproduce.verdict import APART, DIFFERS, NOT_CHECKABLE, NOT_JUDGED_QUICK

    words = ", ".join(f"{v} {'differ' if k == DIFFERS and v != 1 else k}" for k, v in counts.items() if k not in APART)
    because = {NOT_CHECKABLE: " (the text holding their values is missing)",
               NOT_JUDGED_QUICK: " (it left out points that could change their verdicts)"}
    for k in APART:
        if counts.get(k):
            words += f"; {counts[k]} {'not checkable' if k == NOT_CHECKABLE else k}{because[k] if why else ''}"
    return words


def _shown_words(shown: Dict[str, int]) -> str:
    """The items shown beside the results and not counted: `; shown apart: 3 context`."""
    parts = [f"{v} {k}" for k, v in shown.items() if v]
    return f"; shown apart: {', '.join(parts)}" if parts else ""
