"""The reproduction reports: one self-contained HTML page per paper (each item's figure with the
paper's numbers drawn over aimdlab's, the numbers side by side with their gaps and verdicts,
the likely cause where they differ) and an index of the papers."""

from __future__ import annotations

import json
import math
import textwrap
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from ..html_parts import esc as _e
from ..html_parts import num as _fmt
from ..html_parts import page
from ..plots import plain_log_axis, plain_text
from ..result import write_atomic
from ..sweep.report import axis_numbers, ci_yerr, png_data_uri, set_x_ticks
from . import (
    CANNOT,
    DIFFERS,
    INCONCLUSIVE,
    NOT_CHECKABLE,
    REPRODUCED,
    RESULT,
    ItemResult,
    PaperResult,
    same_x,
    total_tally,
)
from .items import Item, Judged, ModelItem, NotJudgedItem, OnSweep, SweepItem
from .trace import draw_trace
from .verdict import APART, CALIBRATED, CONTEXT, NOT_JUDGED_QUICK, SENSITIVITY, VERDICTS
from .words import column_words, model_words

__all__ = ["write_paper_report", "write_index"]

_BADGE = {REPRODUCED: "#1b7f3b", DIFFERS: "#b26a00", INCONCLUSIVE: "#5a5aa8", CANNOT: "#666", NOT_CHECKABLE: "#9a9a9a",
          NOT_JUDGED_QUICK: "#9a9a9a"}
_CLASS_WORDS = {CALIBRATED: "calibrated: a parameter fitted to the paper's numbers",
                SENSITIVITY: "sensitivity: another reading of a result",
                CONTEXT: "context: aimdlab's own measure or set-up, not a paper result"}
_EXTRA_CSS = (".badge { color: white; padding: 0.1em 0.5em; border-radius: 0.6em; font-size: 0.85em; white-space: nowrap; }"
              " .badge.apart { background: white; border: 1px solid; }"
              " .class { border: 1px solid #888; color: #444; padding: 0 0.4em; border-radius: 0.3em; font-size: 0.8em; white-space: nowrap; }"
              " figure img.zoom { cursor: zoom-in; } figure img.zoom.full { max-width: none; width: 960px; cursor: zoom-out; }")



def _x_words(it: Item) -> str:
    """The item's x axis in words ("" for an item with none)."""
    return (it.xlabel or it.x or "") if isinstance(it, (OnSweep, Judged)) else ""


def _measure(it: Item) -> str:
    """The measure an item drawn from a sweep reads ("" for another)."""
    return (it.measure or "") if isinstance(it, OnSweep) else ""


def _group_words(it: Item) -> str:
    """The item's group axis in words ("" without one)."""
    return (it.group_label or it.group or "") if isinstance(it, SweepItem) else ""


def badge(verdict: str, counted: bool = True) -> str:
    """A verdict as a coloured label: filled for a paper result, outlined for an item shown
    beside the results and not counted (calibrated, sensitivity, context)."""
    colour = _BADGE.get(verdict, '#666')
    if not counted:
        return f"<span class='badge apart' style='color:{colour}; border-color:{colour}'>{_e(verdict)}</span>"
    return f"<span class='badge' style='background:{colour}'>{_e(verdict)}</span>"


def class_label(kind: str) -> str:
    """An item's class beside its verdict, for every class but a paper result."""
    return "" if kind == RESULT else f" <span class='class' title='{_e(_CLASS_WORDS[kind])}'>{_e(kind)}</span>"


def counts_line(result: PaperResult) -> str:
    """The paper results by verdict, then what is shown beside them and not counted."""
    counts = result.counts()
    shown = {k: v for k, v in result.shown().items() if v}
    text = "<b>Paper results:</b> " + ", ".join(f"{badge(k)} {counts[k]}" for k in VERDICTS if k not in APART)
    if counts[NOT_CHECKABLE]:
        text += f". <b>Not checkable</b> (the text holding their values is missing): {counts[NOT_CHECKABLE]}"
    if counts[NOT_JUDGED_QUICK]:
        text += (f". <b>Not judged in quick mode</b> (--quick left out points that could change their verdicts): "
                 f"{counts[NOT_JUDGED_QUICK]}")
    if shown:
        text += ". <b>Shown, not counted:</b> " + ", ".join(f"{k} {v}" for k, v in shown.items())
    return f"<p>{text}.</p>"


@plain_text
def item_figure(r: ItemResult) -> str:
    """aimdlab's means with 95 % CI error bars against the item's x axis, the paper's numbers
    over them; a data URI."""
    from ..plots import _matplotlib

    plt = _matplotlib()
    fig, ax = plt.subplots(figsize=(6.0, 3.6))
    xs, unit = axis_numbers(r.x)
    pos = xs if xs is not None else list(range(len(r.x)))
    if r.plot_x:  # the paper's own axis: each point at its mean of another measure
        xs, unit, pos = list(r.plot_x), "", list(r.plot_x)
    if r.group:  # one series per value of the item's group axis
        for g in dict.fromkeys(json.dumps(v) for v in r.group):
            idx = [i for i, v in enumerate(r.group) if json.dumps(v) == g]
            ax.errorbar([pos[i] for i in idx], [r.mean[i] for i in idx], yerr=ci_yerr([r.mean[i] for i in idx], [r.low[i] for i in idx],
                        [r.high[i] for i in idx]), marker="o", ms=4, capsize=3, lw=1.4, label=f"aimdlab, {_group_words(r.item)} = {json.loads(g)}")
    else:
        label = "aimdlab's evaluation of the model" if isinstance(r.item, ModelItem) else "aimdlab (mean, 95 % CI)"
        if isinstance(r.item, OnSweep) and r.item.also:
            label = f"aimdlab, {r.item.name or r.item.measure}"
        ax.errorbar(pos, r.mean, yerr=ci_yerr(r.mean, r.low, r.high), marker="o", ms=4, capsize=3, lw=1.4, label=label)
    for label, values in r.also.items():
        ax.plot(pos, values, marker="s", ms=4, lw=1.2, ls="--", label=f"aimdlab, {label}")
    if r.peer is not None and not r.plot_x:  # ns-2.35 on the same set-ups, at aimdlab's points
        at = [(i, j) for i in range(len(r.x)) if (j := _peer_at(r, i)) is not None]
        if at:
            p = r.peer
            ax.errorbar([pos[i] for i, _ in at], [p.mean[j] for _, j in at],
                        yerr=ci_yerr([p.mean[j] for _, j in at], [p.low[j] for _, j in at], [p.high[j] for _, j in at]),
                        marker="D", ms=4, capsize=3, lw=0, elinewidth=1, color="tab:green", label="ns-2.35, same set-up (mean, 95 % CI)")
    judged = r.item if isinstance(r.item, Judged) else None
    if judged is not None and judged.published:
        pxs, _ = axis_numbers(judged.published_x)
        ppos = pxs if (pxs is not None and xs is not None) else [next((i for i, x in enumerate(r.x) if same_x(px, x)), math.nan)
                                                                 for px in judged.published_x]
        ax.plot(ppos, judged.published, "x", ms=8, mew=2, color="tab:red", label="paper")
    claim = judged.claim if judged is not None else None
    threshold = claim.get("threshold") if claim else None
    if isinstance(threshold, (list, tuple)):  # between: a band
        ax.axhspan(threshold[0], threshold[1], color="tab:gray", alpha=0.12, label=f"claim: between {threshold[0]:g} and {threshold[1]:g}")
    elif threshold is not None and claim:
        ax.axhline(threshold, ls="--", color="tab:gray", lw=1, label=f"claim: {claim['kind'].replace('_', ' ')} {threshold:g}")
    if r.plot_x:
        if isinstance(r.item, OnSweep) and r.item.plot_x and r.item.plot_x.get("log"):
            plain_log_axis(ax, "x", subs=(1.0, 2.0, 5.0))
        ax.set_xlabel(_plot_x_label(r.item))
    else:
        set_x_ticks(ax, xs, r.x)
        ax.set_xlabel(_x_words(r.item) + (f" ({unit})" if unit else ""))
    ax.set_ylabel("\n".join(textwrap.wrap(r.item.label or _measure(r.item), 45)))
    _at_least_a_visible_range(ax)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    ax.set_title("\n".join(textwrap.wrap(r.item.title, 90)), fontsize=9)
    return png_data_uri(fig)


def _plot_x_label(item: Item) -> str:
    """The name of the axis an item's `plot_x` draws along: its label, else its measure ("" without one)."""
    plot_x = (item.plot_x if isinstance(item, OnSweep) else None) or {}
    return str(plot_x.get("label") or plot_x.get("measure", ""))


def _at_least_a_visible_range(ax, fraction: float = 0.02) -> None:
    """Widens a y range narrower than `fraction` of the values' magnitude around its middle, so
    that equal values do not fill the plot as if they varied (94.928-94.930 drawn as a slope)."""
    low, high = ax.get_ylim()
    middle, magnitude = (low + high) / 2, max(abs(low), abs(high))
    if magnitude > 0 and high - low < fraction * magnitude:
        half = fraction * magnitude / 2
        ax.set_ylim(middle - half, middle + half)


def zoomable(src: str, alt: str) -> str:
    """A figure image that a click shows at full size (and a second click fits again)."""
    return f"<img class='zoom' src='{src}' alt='{_e(alt)}' title='click: full size' onclick=\"this.classList.toggle('full')\">"


_ITEM, _TRACE = "item", "trace"
"""The two figures an item can have: its points against the paper's, and its trace."""


def _figure_kinds(r: ItemResult) -> List[str]:
    """The figures item result `r`'s section shows."""
    kinds = [_ITEM] if r.x or not isinstance(r.item, NotJudgedItem) else []
    return kinds + ([_TRACE] if r.trace and isinstance(r.item, OnSweep) and r.item.figure is not None else [])


def draw_figure(task: Tuple[str, ItemResult]) -> str:
    """One figure of an item's section, `(kind, item result)`, as a data URI (a module-level
    function: the figures of a page are drawn on the sweeps' pool of processes)."""
    kind, r = task
    if kind == _ITEM:
        return item_figure(r)
    assert isinstance(r.item, OnSweep) and r.item.figure is not None
    return draw_trace(r.trace, r.item.figure, "aimdlab: " + r.item.title)


def submit_figures(result: PaperResult, jobs: Optional[int] = None) -> Dict[Tuple[int, str], Future]:
    """Every figure of the paper's page, by (item index, kind), handed to the sweeps' kept pool
    of `jobs` processes (default: one per core; see `executor.submit`): futures of data URIs."""
    from ..sweep.executor import submit

    return {(i, kind): submit(draw_figure, (kind, r), jobs) for i, r in enumerate(result.items) for kind in _figure_kinds(r)}


def _trace_figure(r: ItemResult, uri: Optional[str]) -> str:
    """The item's trace figure (`uri`; None: it has none): aimdlab's, drawn like the paper's."""
    spec = r.item.figure if isinstance(r.item, OnSweep) else None
    if uri is None or spec is None:
        return ""
    what = spec.label or column_words(spec.series, spec.y) or f"{spec.series}.{spec.y}"
    what += " (running total)" if spec.cumulative and "total" not in what else ""
    return (f"<figure>{zoomable(uri, r.item.title)}"
            f"<figcaption>aimdlab's figure: {_e(what)}, the first seed of each point</figcaption></figure>")


def _peer_at(r: ItemResult, i: int) -> Optional[int]:
    """The index of aimdlab's point `i` among the peer's points (same x, same group), or None."""
    p = r.peer
    if p is None:
        return None
    for j, x in enumerate(p.x):
        if same_x(x, r.x[i]) and (not r.group or (p.group and same_x(p.group[j], r.group[i]))):
            return j
    return None


def _peer_paragraph(r: ItemResult, provenance: Dict[str, Any]) -> str:
    """What the peer's runs of the same set-ups say of the item, and what that makes the cause."""
    p = r.peer
    if p is None:
        return ""
    name = provenance.get("name", "ns-2.35")
    ours, theirs = r.verdict.verdict, p.verdict.verdict
    if ours == DIFFERS and theirs == DIFFERS:
        cause = (f"{name} differs from the paper on the same set-up too: a tested cause — the paper's set-up or its "
                 "simulator's version, not aimdlab.")
    elif ours == DIFFERS and theirs == REPRODUCED:
        cause = f"{name} reproduces the paper where aimdlab does not: the difference is aimdlab's to find."
    elif ours == REPRODUCED and theirs == DIFFERS:
        cause = f"aimdlab reproduces the paper where {name} on the same set-up does not."
    else:
        cause = ""
    where = (f"{provenance.get('seeds_per_point', '?')} seeds per point, stored {provenance.get('date', '?')} by "
             f"<code>{_e(provenance.get('command', ''))}</code>, {name} {_e(provenance.get('debian_package') or '')}")
    return (f"<p><b>{_e(name)} on the same set-up:</b> {badge(theirs)} {_e(p.verdict.detail)}. {_e(cause)} "
            f"<span class='muted'>({where}.)</span></p>")


def _items_table(rows: List[ItemResult], heading: str) -> str:
    """The summary table of some of a paper's items (none: nothing)."""
    if not rows:
        return ""
    return (f"<h3>{_e(heading)}</h3>"
            "<table><tr><th class='text'>item</th><th class='text'>where</th><th class='text'>paper</th><th class='text'>aimdlab</th>"
            "<th class='text'>verdict</th><th class='text'>detail (in full under the item)</th></tr>"
            + "".join(f"<tr><td class='text'><a href='#{_e(r.item.id)}'>{_e(item_title(r.item))}</a></td><td class='text'>{_e(r.item.where)}</td>"
                      f"<td class='text'>{_e(_paper_values(r))}</td><td class='text'>{_e(_our_values(r))}</td>"
                      f"<td class='text'>{badge(r.verdict.verdict, r.item.kind == RESULT)}{class_label(r.item.kind)}</td>"
                      f"<td class='text'>{_e(_short(r.verdict.detail))}{_cause_tag(r)}</td></tr>" for r in rows)
            + "</table>")


_SHOWN = 5
"""Points a summary cell shows before "…"."""


def _points_text(pairs: List[Tuple[Any, float]]) -> str:
    """`x: value` pairs, the first few."""
    text = "; ".join(f"{x}: {_fmt(v)}" for x, v in pairs[:_SHOWN])
    return text + ("; …" if len(pairs) > _SHOWN else "")


def _paper_values(r: ItemResult) -> str:
    """The paper's numbers for the summary table, or what kind of statement it is."""
    if not isinstance(r.item, Judged):
        return "—"
    if r.item.published:
        return _points_text(list(zip(r.item.published_x, r.item.published)))
    if r.item.claim is not None:
        return "a claim"
    return "—"


def _our_values(r: ItemResult) -> str:
    """aimdlab's means for the summary table: at the paper's points when it has numbers."""
    if not r.x:
        return "—"
    pairs = list(zip(r.x if not r.group else [f"{g}, {x}" for g, x in zip(r.group, r.x)], r.mean))
    if isinstance(r.item, Judged) and r.item.published and not r.group:
        pairs = [(x, v) for x, v in pairs if any(same_x(x, px) for px in r.item.published_x)] or pairs
    return _points_text(pairs)


_CAUSE_TAGS = {"check": "cause: its check or sensitivity rows (below)", "sensitivity": "cause: its check or sensitivity rows (below)",
               "ns-2.35": "cause: ns-2.35 differs too", "screen": "cause: screened", None: "cause not tested"}
"""A difference's tested cause (`ItemResult.tested_cause`) in the few words the summary shows."""


def _cause_tag(r: ItemResult) -> str:
    """For a paper result that differs, its tested cause in a few words (the first clause of
    the detail does not reach it): a check's, ns-2.35's, a screen's (and whether it closes the
    gap), or none."""
    if r.item.kind != RESULT or r.verdict.verdict != DIFFERS:
        return ""
    closes = r.tested_cause == "screen" and r.screen is not None and bool(r.screen.closing())
    words = "cause: the unstated set-up would close it" if closes else _CAUSE_TAGS[r.tested_cause]
    return f"<br><i>{_e(words)}</i>"


def _short(detail: str) -> str:
    """A verdict's detail cut to its first clause (the item's section gives it whole)."""
    first = detail.split("; ")[0]
    return first if len(first) <= 160 else first[:157] + "…"


def item_title(it: Any) -> str:
    """An item's title, saying "Calibrated:" first for a calibration that does not say so."""
    if it.kind == CALIBRATED and not it.title.lower().startswith("calibrat"):
        return f"Calibrated: {it.title}"
    return it.title


def _item_section(r: ItemResult, figures: Dict[str, str], peer_provenance: Optional[Dict[str, Any]] = None,
                  unstated: Optional[Dict[str, Any]] = None) -> str:
    """An item's section of its paper's page; `figures` its drawn figures by kind;
    `peer_provenance` where its ns-2.35 values came from (shown when the item has them);
    `unstated` the paper's unstated parameters by id (for the item's screen, if it has one)."""
    it = r.item
    role = "a sensitivity row of" if it.kind == SENSITIVITY else "a check of the cause of"
    of = f" ({role} <a href='#{_e(it.of)}'>{_e(it.of)}</a>)" if it.of else ""
    parts = [f"<h2 id='{_e(it.id)}'>{_e(item_title(it))} {badge(r.verdict.verdict, it.kind == RESULT)}{class_label(it.kind)}</h2>",
             f"<p class='muted'>{_e(it.where)}{of}."
             + ("" if isinstance(it, NotJudgedItem) and r.verdict.detail == it.cannot else f" {_e(r.verdict.detail)}") + "</p>"]
    if isinstance(it, NotJudgedItem):
        parts.append(f"<p>{_e(it.cannot)}</p>")
        if _ITEM in figures:
            parts.append(f"<figure>{zoomable(figures[_ITEM], it.title)}<figcaption>aimdlab's figure: {_e(it.label or it.measure)}"
                         f" against {_e(_x_words(it))} (means over the seeds, 95 % CI)</figcaption></figure>")
        parts.append(_trace_figure(r, figures.get(_TRACE)))
        return "".join(parts)
    assert isinstance(it, Judged), "an item is judged or not"
    if it.threshold_from:
        parts.append(f"<p class='muted'><b>Threshold from:</b> {_e(it.threshold_from)}.</p>")
    if isinstance(it, ModelItem):
        what = f"{it.label or model_words(it.model) or it.model} (the paper's model, evaluated by aimdlab)"
    else:
        what = it.label or f"{_measure(it)}" + (f" × {it.scale:g}" if it.scale != 1 else "")
    against = _plot_x_label(it) or _x_words(it)
    parts.append(f"<figure>{zoomable(figures[_ITEM], it.title)}<figcaption>{_e(what)} against {_e(against)}; "
                 f"{'means over the seeds with their 95 % intervals' if any(n > 1 for n in r.runs) else 'one run per point (no interval)'}"
                 f"{', the paper’s numbers as red crosses' if it.published else ''}</figcaption></figure>")
    rows = []
    for i, x in enumerate(r.x):
        pub = [v for px, v in zip(it.published_x, it.published) if same_x(px, x)]
        point = next((p for px, p in zip(it.published_x, r.points) if same_x(px, x)), None)
        group = f"<td>{_e(r.group[i])}</td>" if r.group else ""
        plotted = f"<td>{_fmt(r.plot_x[i])}</td>" if r.plot_x else ""
        j = _peer_at(r, i)
        peer = "" if r.peer is None else ("<td>—</td>" if j is None else
                                          f"<td>{_fmt(r.peer.mean[j])} [{_fmt(r.peer.low[j])}, {_fmt(r.peer.high[j])}]</td>")
        rows.append(f"<tr>{group}<td>{_e(x)}</td>{plotted}<td>{_fmt(pub[0]) if pub else '—'}</td><td>{_fmt(r.mean[i])}</td>"
                    + ("<td>exact (a model)</td><td>—</td>" if isinstance(it, ModelItem) else f"<td>[{_fmt(r.low[i])}, {_fmt(r.high[i])}]</td><td>{r.runs[i]}</td>")
                    + peer
                    + f"<td>{'—' if point is None or point.gap is None else f'{point.gap:+.3g}'}</td>"
                    f"<td>{badge(point.verdict) if point else ''}</td></tr>")
    group_head = f"<th class='text'>{_e(_group_words(it))}</th>" if r.group else ""
    plotted_head = f"<th>{_e(_plot_x_label(it))}</th>" if r.plot_x else ""
    parts.append("<table><tr>" + group_head + "<th class='text'>" + _e(_x_words(it)) + "</th>" + plotted_head
                 + "<th>paper</th><th>aimdlab mean</th><th>95 % CI</th><th>runs</th>"
                 + (f"<th>{_e((peer_provenance or {}).get('name', 'ns-2.35'))} mean [95 % CI]</th>" if r.peer is not None else "")
                 + "<th>gap</th><th>verdict</th></tr>" + "".join(rows) + "</table>")
    parts.append(_peer_paragraph(r, peer_provenance or {}))
    parts.append(_trace_figure(r, figures.get(_TRACE)))
    if r.sensitivity and isinstance(it, SweepItem):
        sensitivity_rows = "".join(f"<tr><td class='text'>{_e(v if isinstance(v, str) else json.dumps(v))}</td><td class='text'>{badge(o.verdict.verdict, False)}</td><td class='text'>{_e(o.verdict.detail)}</td>"
                       f"<td>{', '.join(_fmt(m) for m in o.mean)}</td></tr>" for v, o in r.sensitivity)
        reading = it.sensitivity_label or it.sensitivity or ""
        parts.append(f"<p><b>The same result under other readings of {_e(reading)}</b> — shown, not counted: the verdict above "
                     f"is at {_e(it.select[it.sensitivity or ''])} (<code>{_e(it.sensitivity)}</code>):</p><table><tr><th class='text'>" + _e(reading) + "</th><th class='text'>verdict</th><th class='text'>detail</th>"
                     f"<th>aimdlab means along {_e(_x_words(it))}</th></tr>" + sensitivity_rows + "</table>")
    if r.screen is not None:
        parts.append(_screen_section(r, unstated or {}))
    if it.cause:
        parts.append(f"<p><b>Likely cause{'s' if r.verdict.verdict != REPRODUCED else ''} and notes.</b> {_e(r.cause or it.cause)}</p>")
    return "".join(parts)


def _screen_section(r: ItemResult, unstated: Dict[str, Any]) -> str:
    """The item's stored screen of the paper's unstated parameters (`explain.py`): what each
    is, each setting's verdict and distance from the paper, the conclusion."""
    from .explain import screen_words, setting_words

    s = r.screen
    assert s is not None
    trials = [s.as_run, *s.single, *s.pairs]
    closing = {id(t) for t in s.closing()}
    rows = "".join(f"<tr><td class='text'>{'<b>' if id(t) in closing else ''}{_e(setting_words(t.setting))}{'</b>' if id(t) in closing else ''}</td>"
                   f"<td class='text'>{badge(t.verdict, False)}</td><td>{_fmt(t.shortfall)}</td>"
                   f"<td>{_e(', '.join(_fmt(m) for m in t.mean[:12]) + (', ...' if len(t.mean) > 12 else ''))}</td></tr>" for t in trials)
    params = "".join(f"<li><code>{_e(k)}</code>: {_e(u.what)} (<code>{_e(u.field)}</code>) — {_e(u.why)}</li>"
                     for k, u in unstated.items() if k not in s.skipped and any(k in t.setting for t in trials))
    how = ((f"{s.seeds} seed{'' if s.seeds == 1 else 's'} per point{', the sweep’s quick durations' if s.quick else ''}" if s.seeds
            else "the paper’s model, evaluated") + "; "
           f"<code>{_e(s.provenance.get('command', ''))}</code>, {_e(s.provenance.get('date', ''))}")
    return (f"<p><b>What the paper leaves unstated, screened</b> — shown, not counted: the item’s points run again with each "
            f"parameter the paper does not give at each plausible value, then in pairs ({how}). <i>Off the paper</i>: how far "
            f"the means lie past the paper’s band or threshold, in units of it (0: on the paper’s side).</p><ul>{params}</ul>"
            f"<table><tr><th class='text'>setting</th><th class='text'>verdict</th><th>off the paper</th>"
            f"<th>aimdlab means along {_e(_x_words(r.item))}</th></tr>{rows}</table>"
            f"<p class='muted'>{_e(screen_words(s))}.</p>")


def _sweep_link(store: Path, out: Path) -> str:
    """A link to a sweep's report when it has one (`--sweep-reports`), else to its folder."""
    rel = store.relative_to(out).as_posix()
    target = f"{rel}/report.html" if (store / "report.html").is_file() else f"{rel}/"
    return f"<a href='{_e(target)}'>{_e(store.name)}</a>"


def write_paper_report(result: PaperResult, out: Path, jobs: Optional[int] = None,
                       figures: Optional[Dict[Tuple[int, str], Future]] = None) -> Path:
    """Writes `out/index.html`, the paper's page, and returns its path. Its figures: `figures`
    as `submit_figures` gave them, else drawn now, `jobs` at a time."""
    p = result.paper
    drawn = {key: future.result() for key, future in (figures if figures is not None else submit_figures(result, jobs)).items()}
    head = [f"<h1>{_e(p.title)}</h1>",
            f"<p class='muted'>{_e(p.citation) + ' ' if p.citation else ''}The paper ran on {_e(p.ran_on or 'an unstated simulator')}."
            f"{' <b>Quick run</b> (--quick: fewer seeds, shorter runs — the sweeps’ [quick] tables); the figures are indicative.' if result.quick else ''}</p>",
            f"<p>{_e(p.summary)}</p>",
            counts_line(result),
            _items_table([r for r in result.items if r.item.kind == RESULT], "Paper results"),
            _items_table([r for r in result.items if r.item.kind != RESULT],
                         "Shown apart, not counted: calibrations, sensitivity rows and context"),
            "<p class='muted'>Sweeps (<code>aimdlab report FOLDER</code> writes a sweep's own report; "
            "<code>aimdlab.open_sweep(FOLDER)</code> opens its tables): "
            + ", ".join(_sweep_link(Path(s), out) for s in result.sweeps.values()) + "</p>"]
    by_item: Dict[int, Dict[str, str]] = {}
    for (i, kind), uri in drawn.items():
        by_item.setdefault(i, {})[kind] = uri
    body = "".join(head) + "".join(_item_section(r, by_item.get(i, {}), result.peer_provenance,
                                                       {u.id: u for u in result.paper.unstated})
                                   for i, r in enumerate(result.items))
    path = out / "index.html"
    write_atomic(path, page(p.title, body, "reproduce", _EXTRA_CSS).encode("utf-8"))
    return path


def _causes_sentence(results: List[PaperResult]) -> str:
    """How many of the differences name a tested cause (a check, ns-2.35 on the same set-up, a
    screen of what the paper leaves unstated), as a paragraph of the index; empty without any."""
    differ = [i for r in results for i in r.items if i.item.kind == RESULT and i.verdict.verdict == DIFFERS]
    if not differ:
        return ""
    untested = sum(i.tested_cause is None for i in differ)
    return (f"<p>Of the {len(differ)} differences, {len(differ) - untested} name a tested cause on their page: a check of "
            "the cause that holds, their own sensitivity rows, ns-2.35 differing too on the same set-up, or a screen of what the "
            "paper leaves unstated "
            "(<code>aimdlab reproduce PAPER --explain ITEM</code>)" + (f"; {untested} say their cause is not tested" if untested else "")
            + (", differences of this quick run that the full run (without --quick) judges with the sweeps' own seeds" if untested and any(r.quick for r in results) else "")
            + ".</p>")


def write_index(results: List[PaperResult], out: Path) -> Path:
    """Writes `out/index.html`: every paper reproduced, with its verdict counts."""
    rows = []
    totals = total_tally(results)
    for r in results:
        c = r.tally()
        cited = f"<br><span class='muted'>{_e(r.paper.citation)}</span>" if r.paper.citation else ""
        rows.append(f"<tr><td class='text'><a href='{_e(r.paper.id)}/index.html'>{_e(r.paper.title)}</a>{cited}</td>"
                    + "".join(f"<td>{c[k]}</td>" for k in totals) + "</tr>")
    rows.append("<tr><td class='text'><b>all papers</b></td>" + "".join(f"<td><b>{v}</b></td>" for v in totals.values()) + "</tr>")
    body = ("<h1>aimdlab: reproductions</h1>"
            "<p>Paper results are the papers' own numbers and claims on the set-ups they describe, each judged by aimdlab's 95 % "
            "interval: <i>reproduced</i> (inside the tolerance), <i>differs</i> (outside), <i>inconclusive</i> (across its edge) or "
            "<i>cannot be reproduced</i>. Counted apart: results <i>not checkable</i> because the part of the paper's text holding "
            "their values is missing, and, in a quick run, results <i>not judged in quick mode</i> (it left out points that could "
            "change their verdicts). Shown beside them and never counted: <i>calibrated</i> items (a parameter fitted to the "
            "paper's numbers), <i>sensitivity</i> rows (another reading of a result) and <i>context</i> (aimdlab's own measures and "
            "set-ups).</p>" + _causes_sentence(results) +
            "<table><tr><th class='text' rowspan='2'>paper</th><th colspan='4'>paper results</th><th colspan='2'>counted apart</th>"
            "<th colspan='3'>shown, not counted</th></tr>"
            "<tr>" + "".join(f"<th>{_e(k)}</th>" for k in totals) + "</tr>" + "".join(rows) + "</table>")
    path = out / "index.html"
    write_atomic(path, page("reproductions", body, "reproduce", _EXTRA_CSS).encode("utf-8"))
    return path
