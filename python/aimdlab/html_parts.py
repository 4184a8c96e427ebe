"""HTML building blocks of aimdlab's reports and notebook views: escaping, number formatting,
tables and the page style (no script, no external asset)."""

from __future__ import annotations

import html
import math
from typing import Any, Callable, Dict, Optional, Sequence

__all__ = ["CSS", "esc", "num", "page", "table"]

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 1100px; color: #222; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; } h2 { font-size: 1.25em; margin-top: 1.6em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.5em; text-align: right; }
th { background: #f3f3f3; } td.text, th.text { text-align: left; }
.muted { color: #666; font-size: 0.9em; } .failed { color: #b00020; }
figure { display: inline-block; margin: 0.5em 1em 1em 0; } figure img { max-width: 520px; border: 1px solid #eee; }
figcaption { font-size: 0.85em; color: #444; } pre { background: #f7f7f7; padding: 0.6em; overflow-x: auto; font-size: 0.8em; }
.scroll { max-height: 28em; max-width: 100%; overflow: auto; display: inline-block; }
"""
"""The style of every report page."""


def esc(x: Any) -> str:
    """`x` as text, HTML-escaped."""
    return html.escape(str(x))


def num(x: Any, spec: str = ".4g") -> str:
    """A number formatted with `spec` (NaN, ±∞ and None as a dash); anything else escaped."""
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "—"
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return format(x, spec)
    return esc(x)


def table(df, columns: Sequence[str], formats: Optional[Dict[str, Callable[[Any], str]]] = None, max_rows: int = 2000) -> str:
    """An HTML table of `columns` of DataFrame `df` (first `max_rows` rows) in a scrolling box;
    `formats` maps a column to a function giving its cells' HTML."""
    formats = formats or {}
    head = "".join(f"<th class='text'>{esc(c)}</th>" for c in columns)
    rows = []
    for _, r in df.head(max_rows).iterrows():
        cells = []
        for c in columns:
            v = r[c]
            text = formats[c](v) if c in formats else num(v)
            cls = " class='text'" if isinstance(v, str) or c in formats else ""
            cells.append(f"<td{cls}>{text}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    more = f"<p class='muted'>… {len(df) - max_rows} more rows in the Parquet file</p>" if len(df) > max_rows else ""
    return f"<div class='scroll'><table><tr>{head}</tr>{''.join(rows)}</table></div>{more}"


GENERATOR = "<meta name='generator' content='aimdlab'>"
"""The mark of a page aimdlab wrote: `report --out` replaces only files that carry it."""


def page(title: str, body: str, command: str, css: str = "") -> str:
    """A whole HTML page: `title` (suffixed with the aimdlab `command` that wrote it), the
    style (`CSS` plus `css`), `body` and a footer naming the command."""
    return (f"<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>{GENERATOR}<title>{esc(title)} — aimdlab {command}</title>"
            f"<style>{CSS}{css}</style></head><body>{body}<p class='muted'>Written by aimdlab {command}.</p></body></html>\n")
