"""HTML reports of a sweep or of one run: one self-contained file (figures embedded as PNG
data, no script, no external asset), readable offline and in Jupyter (`_repr_html_`).

A sweep's report: its description and provenance, the axes and seeds, the aggregate table
(mean and 95 % confidence interval of each measure per axis point), a figure per measure
against the first axis (one line per value of the other axes, error bars = the confidence
interval), the failed runs with their errors, and a link to each run's overview figure
(drawn into `report-figures/` beside the report).
"""

from __future__ import annotations

import base64
import io
import json
import math
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from ..errors import ReportError
from ..html_parts import esc as _e
from ..html_parts import num as _num
from ..html_parts import page
from ..html_parts import table as _table
from ..plots import plain_text
from ..units import quantity

__all__ = ["ReportError", "write_report", "sweep_html"]


def png_data_uri(fig) -> str:
    """A matplotlib figure as a PNG data URI (the figure is closed)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=160, bbox_inches="tight")  # shown at 520 px; a click shows it whole
    import matplotlib.pyplot as plt

    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")




def axis_numbers(values: Sequence[Any]) -> Tuple[Optional[List[float]], str]:
    """The values of an axis as numbers and their common unit (`"10ms"` → 10, "ms"), or
    (None, "") when they are not all numbers of one unit."""
    out, units = [], set()
    for v in values:
        if isinstance(v, bool):
            return None, ""
        if isinstance(v, (int, float)):
            out.append(float(v))
            units.add("")
            continue
        q = quantity(str(v))
        if q is None:
            return None, ""
        out.append(q[0])
        units.add(q[1])
    if len(units) != 1:
        return None, ""
    return out, units.pop()


def set_x_ticks(ax, numbers: Optional[List[float]], values: Sequence[Any]) -> None:
    """Ticks for an axis: `values` as labels at positions 0, 1, ... when they are not numbers
    (`numbers` is None), whole-number ticks when every number is whole."""
    if numbers is None:
        ax.set_xticks(range(len(values)), [str(v) for v in values])
    elif len(set(numbers)) == 1:  # one point: its own value, not a range of ticks around it
        ax.set_xticks([numbers[0]], [str(values[0])])
    elif all(float(x).is_integer() for x in numbers):
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))


@plain_text
def measure_figure(agg, axes: List[str], measure: str):
    """Mean of `measure` against the first axis with 95 % CI error bars, one series per
    combination of the other axes' values (a single point without axes). Labels are in words
    with units (`labels`), rates in one SI unit; an axis of names or tables (controllers) is
    drawn as categories: points side by side, not a line through them."""
    from ..plots import _matplotlib
    from .labels import axis_words, display_scale, measure_words, value_label

    plt = _matplotlib()
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    factor, unit = display_scale(measure, agg[f"{measure}_mean"])
    mean, lo, hi = (agg[f"{measure}_{k}"] * factor for k in ("mean", "ci95_low", "ci95_high"))
    if not axes:
        ax.errorbar([0], mean, yerr=ci_yerr(mean, lo, hi), fmt="o", capsize=4)
        ax.set_xticks([0], ["all runs"])
    else:
        # A table value of an axis (a controller with its parameters) as its JSON text, which
        # groups like any other value.
        agg = agg.assign(**{a: [json.dumps(v, sort_keys=True) if isinstance(v, (dict, list)) else v for v in agg[a]] for a in axes})
        first, rest = axes[0], axes[1:]
        xs_all, x_unit = axis_numbers(list(dict.fromkeys(agg[first])))
        categories = list(dict.fromkeys(agg[first]))
        groups = list(agg.groupby(rest, sort=False)) if rest else [((), agg)]
        for gi, (key, rows) in enumerate(groups):
            key = key if isinstance(key, tuple) else (key,)
            label = ", ".join(f"{axis_words(a)} = {value_label(v)}" for a, v in zip(rest, key)) if rest else None
            m, low, high = (rows[f"{measure}_{k}"] * factor for k in ("mean", "ci95_low", "ci95_high"))
            if xs_all is not None:
                x = axis_numbers(list(rows[first]))[0]
                ax.errorbar(x, m, yerr=ci_yerr(m, low, high), marker="o", ms=4, capsize=3, lw=1.2, label=label)
            else:  # categories: each series a little to the side, no line joining unrelated values
                shift = (gi - (len(groups) - 1) / 2) * min(0.12, 0.6 / max(len(groups), 1))
                x = [categories.index(v) + shift for v in rows[first]]
                ax.errorbar(x, m, yerr=ci_yerr(m, low, high), marker="o", ms=5, capsize=3, linestyle="none", label=label)
        if xs_all is None:
            names = [value_label(v) for v in categories]
            long = max(len(n) for n in names) > 10
            ax.set_xticks(range(len(names)), names, rotation=20 if long else 0, ha="right" if long else "center", fontsize=8)
            ax.set_xlim(-0.5, len(names) - 0.5)
        else:
            set_x_ticks(ax, xs_all, categories)
        ax.set_xlabel(axis_words(first, x_unit))
        if rest:
            ax.legend(fontsize=7, loc="best")
    ax.set_ylabel(measure_words(measure, unit, short=True), fontsize=9)
    ax.grid(alpha=0.3)
    ax.set_title(f"{measure_words(measure, unit)}: mean over seeds, 95 % CI", fontsize=9)
    fig.tight_layout()
    return fig


def _short(path: str) -> str:
    return path.rsplit(".", 1)[-1] if len(path) > 24 else path


def ci_yerr(mean, lo, hi):
    """matplotlib's `yerr` for means with 95 % interval bounds (no bar where a bound is NaN)."""
    import numpy as np

    mean, lo, hi = (np.asarray(v, dtype=float) for v in (mean, lo, hi))
    below, above = np.nan_to_num(mean - lo, nan=0.0), np.nan_to_num(hi - mean, nan=0.0)
    return np.vstack([below, above])


def _provenance(experiment: Dict[str, Any], sessions: List[Dict[str, Any]]) -> str:
    engine = experiment.get("engine", "?")
    version, _, commit = engine.partition("+")
    last = sessions[-1] if sessions else {}
    where = (f"; last run on {_e(last.get('host'))} at {_e(last.get('time_utc'))}"
             + (f" by <code>{_e(last['command_line'])}</code>" if last.get("command_line") else "")
             + (f" ({len(sessions)} sessions)" if len(sessions) > 1 else "")) if last else ""
    return (f"aimdlab {_e(version)}, engine commit {_e(commit) if commit else 'unknown'}; "
            f"experiment file {_e(experiment.get('source') or 'inline')}{' (--quick)' if experiment.get('quick') else ''}{where}")


STAT_SUFFIXES = ("_n", "_mean", "_std", "_ci95_low", "_ci95_high")
"""The aggregate's columns of a measure end so."""


def sweep_html(sweep, run_figures: Dict[str, str]) -> str:
    """The sweep's whole report as one HTML page; `run_figures` maps run ids to the relative
    path of their overview figure."""
    exp = sweep.experiment
    agg = sweep.aggregate.to_pandas()
    cat = sweep.catalog.to_pandas()
    axes, measures = sweep.axes, sweep.measures
    parts = [f"<h1>{_e(exp['name'])}</h1>", f"<p>{_e(exp.get('description') or '')}</p>",
             f"<p class='muted'>{_provenance(exp, sweep.sessions)}. {len(cat)} runs: {int((cat['status'] == 'ok').sum())} ok, "
             f"{int((cat['status'] == 'failed').sum())} failed, {int((cat['status'] == 'missing').sum())} missing.</p>"]
    parts.append("<h2>Axes</h2><table><tr><th class='text'>field</th><th class='text'>values</th></tr>"
                 + "".join(f"<tr><td class='text'>{_e(a)}</td><td class='text'>{_e(', '.join(x if isinstance(x, str) else json.dumps(x) for x in v))}</td></tr>" for a, v in exp["axes"].items())
                 + f"<tr><td class='text'>seeds</td><td class='text'>{_e(', '.join(map(str, exp['seeds'])))}</td></tr>"
                 + f"<tr><td class='text'>combined as</td><td class='text'>{_e(exp['combine'])}</td></tr></table>")
    parts.append("<h2>Figures</h2>")
    for m in measures:
        if agg[f"{m}_n"].sum() == 0:
            parts.append(f"<p class='muted'>{_e(m)}: no finite value in any run.</p>")
            continue
        uri = png_data_uri(measure_figure(agg, axes, m))
        parts.append(f"<figure><img src='{uri}' alt='{_e(m)} against {_e(axes[0] if axes else 'runs')}'>"
                     f"<figcaption>{_e(m)}</figcaption></figure>")
    parts.append("<h2>Aggregate (mean, 95 % Student-t confidence interval over seeds, clipped to each measure's range)</h2>")
    fmt: Dict[str, Callable[[Any], str]] = {}
    params = [c for c in agg.columns if any(c.startswith(f"{a}.") for a in axes) and c not in measures and not c.endswith(STAT_SUFFIXES)]
    cols = [*axes, *params, "runs_ok", "runs_failed"]
    for m in measures:
        col = f"{m} mean [95 % CI]"
        agg[col] = [f"{_num(a)} [{_num(lo)}, {_num(hi)}]" if math.isfinite(hi) else _num(a)
                    for a, lo, hi in zip(agg[f"{m}_mean"], agg[f"{m}_ci95_low"], agg[f"{m}_ci95_high"])]
        fmt[col] = str
        cols.append(col)
    parts.append(_table(agg, cols, fmt))
    failed = cat[cat["status"] == "failed"]
    if len(failed):
        parts.append("<h2 class='failed'>Failed runs</h2>")
        parts.append(_table(failed, ["run_id", *axes, "seed", "error"], {"run_id": _e, "error": _e}))
    parts.append("<h2>Runs</h2>")

    def link(rid: str) -> str:
        fig = run_figures.get(rid)
        return f"<a href='{_e(fig)}'>{_e(rid)}</a>" if fig else _e(rid)

    parts.append(_table(cat, ["run_id", *axes, "seed", "status", "engine_wall_s", *measures], {"run_id": link}))
    parts.append("<h2>Base scenario</h2><details><summary>scenario (JSON)</summary><pre>"
                 + _e(json.dumps(exp["scenario"], indent=1)) + "</pre></details>")
    return page(exp["name"], "".join(parts), "report")


def run_html(folder: Path, figure_uri: Optional[str]) -> str:
    """One run's report: its summary, flows and links tables and the overview figure."""
    from ..result import Result

    r = Result.load(folder)
    prov = r.provenance or {}
    parts = [f"<h1>{_e(r.summary.get('name') or folder.name)}</h1>",
             f"<p class='muted'>aimdlab {_e(prov.get('aimdlab_version', '?'))}, engine commit {_e(prov.get('engine_commit') or 'unknown')}, "
             f"seed {_e(r.summary.get('seed'))}, scenario sha256 {_e(prov.get('scenario_sha256', '?'))}"
             + (f"; run on {_e(prov['host'])} at {_e(prov.get('time_utc'))}" if prov.get("host") else "")
             + (f" by <code>{_e(prov['command_line'])}</code>" if prov.get("command_line") else "") + "</p>", r._repr_html_()]
    if figure_uri:
        parts.append(f"<h2>Overview</h2><figure><img src='{figure_uri}' alt='overview'></figure>")
    links = r.links.to_pandas()
    if len(links):
        cols = [c for c in ("link", "name", "utilization", "tx_pkts", "drops", "queue_mean_pkts", "queue_max_pkts", "qdelay_mean_ms") if c in links]
        parts.append("<h2>Links</h2>" + _table(links, cols))
    parts.append("<h2>Scenario</h2><details><summary>scenario (JSON)</summary><pre>" + _e(json.dumps(r.scenario, indent=1)) + "</pre></details>")
    return page(r.summary.get("name") or folder.name, "".join(parts), "report")


def _draw_overview(args: Tuple[str, str]) -> str:
    """Draws the overview figure of the run in folder `src` into `dst` (for a process pool)."""
    from ..plots import overview, save_figure
    from ..result import Result

    src, dst = args
    save_figure(overview(Result.load(src)), dst)
    return dst


def write_report(folder: Union[str, Path], out: Optional[Union[str, Path]] = None, run_figures: Optional[bool] = None,
                 progress: Optional[Callable[[int, int], None]] = None, jobs: Optional[int] = None) -> Path:
    """Writes the report of the sweep or run in `folder` to `out` (default
    `folder/report.html`) and returns its path. For a sweep with `run_figures` (default off:
    a 1,000-run sweep's figures take minutes), each completed run's overview figure is drawn
    into `report-figures/` beside the report (figures already there are kept), in parallel over
    `jobs` processes. A run's folder gets its overview figure unless `run_figures` is False."""
    from .store import MARK, StoreError, Sweep

    folder = Path(folder)
    if not folder.is_dir():
        raise ReportError(f"{folder}: no such folder")
    from ..errors import OutputError
    from ..out_path import make_folder, resolve_out

    spelled = out if out is not None else folder / "report.html"
    try:
        out = resolve_out(spelled, flag="--out")  # (before the checks: `--out missing/../notes.txt` is notes.txt)
    except OutputError as e:
        raise ReportError(str(e)) from None
    _check_out(out, spelled)
    try:
        make_folder(out.parent, spelled, flag="--out")  # `--out newdir/r.html` makes newdir
    except OutputError as e:
        raise ReportError(str(e)) from None
    if (folder / MARK).is_file():
        try:
            sweep = Sweep(folder)
        except StoreError as e:
            raise ReportError(str(e)) from None
        figures: Dict[str, str] = {}
        if run_figures:  # (None: off for a sweep)
            fig_dir = out.parent / "report-figures"
            fig_dir.mkdir(exist_ok=True)
            cat = sweep.catalog.to_pandas()
            ok = list(dict.fromkeys(cat.loc[cat["status"] == "ok", "run_id"]))
            # A figure is drawn unless a whole one is there (an empty file is what a full disk left
            # before figures were written atomically).
            todo = [(str(sweep.run_dir(rid)), str(fig_dir / f"{rid}.png")) for rid in ok if not _has_file(fig_dir / f"{rid}.png")]
            _draw_all(todo, progress, jobs)
            figures = {rid: f"report-figures/{rid}.png" for rid in ok}
        text = sweep_html(sweep, figures)
    elif (folder / "summary.json").is_file():
        from ..plots import overview
        from ..result import Result

        text = run_html(folder, png_data_uri(overview(Result.load(folder))) if run_figures is not False else None)
    else:
        raise ReportError(f"{folder}: holds neither a sweep (sweep.json) nor a run (summary.json)")
    from ..result import write_atomic

    write_atomic(out, text.encode("utf-8"))
    return out


def _has_file(path: Path) -> bool:
    try:
        return path.stat().st_size > 0
    except OSError:
        return False


def _check_out(out: Path, spelled: Union[str, Path]) -> None:
    """Refuses a report path that is a folder, or a file aimdlab did not write (its pages carry
    the generator mark): `--out notes.txt` must not replace the user's notes."""
    import os

    from ..out_path import is_aimdlab_page

    if out.is_dir():
        raise ReportError(f"{spelled}: is a folder; expected the report's file name, e.g. {Path(spelled) / 'report.html'}")
    if os.path.lexists(out):
        if not os.access(out, os.R_OK):
            raise ReportError(f"{spelled}: cannot be read to check it is a report; choose another --out")
        if not is_aimdlab_page(out):
            raise ReportError(f"{spelled}: exists and is not a report aimdlab wrote; choose another --out or remove the file")


def _draw_all(todo: List[Tuple[str, str]], progress, jobs: Optional[int]) -> None:
    """Draws the figures, in parallel over `jobs` processes (the sweep's local pool: Ctrl-C
    stops it, and its workers die with this process)."""
    import os

    from .executor import ordered_map

    if progress:
        progress(0, len(todo))
    ordered_map(_draw_overview, todo, jobs=1 if len(todo) <= 4 else (jobs or os.cpu_count() or 1), progress=progress)
