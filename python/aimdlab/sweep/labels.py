"""Words for what a sweep shows: a measure's name (`groups.reno.goodput_bps.mean`) as a figure's
axis label ("goodput of group reno, mean over its flows (Mbit/s)"), an axis field
(`topology.dumbbell.bottleneck.delay`) as "bottleneck delay", a controller value
(`{"name": "gaimd", "beta": 0.875}`) as "gaimd β=0.875", and rates scaled to one SI prefix.
The tables keep the names as they are (a script reads them); figures and terminal tables use
these words."""

from __future__ import annotations

import json
import math
from typing import Any, Iterable, Tuple

from .bounds import _stat_and_field, measure_unit

__all__ = ["axis_words", "display_scale", "measure_header", "measure_words", "rate_scale", "value_label"]

_FIELD_WORDS = {
    "utilization": "utilization", "jain_index": "Jain's fairness index", "goodput_total_bps": "total goodput",
    "goodput_mean_bps": "mean goodput per flow", "goodput_bps": "goodput", "throughput_bps": "throughput",
    "send_rate_bps": "sending rate", "retransmitted_pkts": "retransmitted packets", "timeouts": "timeouts",
    "queue_mean_pkts": "mean queue", "queue_len_pkts": "queue", "cwnd_pkts": "cwnd", "srtt_ms": "smoothed RTT",
    "rtt_mean_ms": "mean RTT", "loss_event_rate": "loss-event rate", "loss_rate": "loss rate", "drops": "drops",
    "qdelay_mean_ms": "mean queuing delay", "queuing_delay_ms": "queuing delay", "delay_mean_ms": "mean one-way delay",
    "delay_p99_ms": "99th-percentile one-way delay", "jitter_ms": "jitter", "completion_time_s": "completion time",
}
_STAT_WORDS = {"mean": "mean", "median": "median", "min": "minimum", "max": "maximum", "sum": "sum", "std": "std. dev.",
               "cv": "coefficient of variation"}
_AXIS_WORDS = {"cc": "controller", "count": "flows", "limit": "buffer", "beta": "β", "alpha": "α", "seed": "seed",
               "duration": "duration", "mss": "MSS", "profile": "stack profile", "kind": "kind"}
_LINK_PARENTS = {"bottleneck": "bottleneck", "access": "access link"}
_GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ"}


def _field_words(field: str) -> str:
    if field in _FIELD_WORDS:
        return _FIELD_WORDS[field]
    for suffix in ("_bps", "_pkts", "_bytes", "_ms", "_s"):
        if field.endswith(suffix):
            field = field[: -len(suffix)]
            break
    return field.replace("_", " ").replace("rtt", "RTT").replace("ecn", "ECN")


def measure_words(measure: str, unit: str = "", short: bool = False) -> str:
    """`measure` as a figure labels it, with `unit` (default: the measure's own; `1` and none
    are left out): `bottleneck.utilization` → "bottleneck utilization",
    `flows.goodput_bps.mean` → "goodput, mean over flows (bit/s)"; `short`: the quantity
    alone, "goodput (bit/s)", for a y axis whose figure's title says the rest."""
    unit = unit or measure_unit(measure)
    tail = f" ({unit})" if unit and unit != "1" and not _field_words(_stat_and_field(measure)[1]).endswith(unit) else ""
    if ":" in measure:
        return measure + tail
    if " / " in measure:
        top, bottom = measure.split(" / ", 1)
        return f"{measure_words(top, '1')} / {measure_words(bottom, '1')}"
    stat, field = _stat_and_field(measure)
    parts = measure.strip().split(".")
    words = _field_words(field)
    if short:
        return words + tail
    if parts[0] == "bottleneck":
        text = f"bottleneck {words}"
    elif parts[0] == "flows" and stat:
        text = f"{words}, {_STAT_WORDS.get(stat, stat)} over flows"
    elif parts[0] == "groups" and len(parts) >= 3 and stat:
        text = f"{words} of group {parts[1]}, {_STAT_WORDS.get(stat, stat)} over its flows"
    elif parts[0] == "series" and stat:
        text = f"{words}, {_STAT_WORDS.get(stat, stat)} over time and flows"
    else:
        text = words
    return text + tail


def measure_header(measure: str, unit: str = "") -> str:
    """`measure` as a narrow table column heads it: `groups.reno.goodput_bps.mean` → "goodput
    reno mean (Mbit/s)" with `unit` "Mbit/s"; `bottleneck.utilization` → "utilization"."""
    unit = unit or measure_unit(measure)
    if ":" in measure or " / " in measure:
        return measure_words(measure, unit)
    stat, field = _stat_and_field(measure)
    words = _field_words(field)
    tail = f" ({unit})" if unit and unit != "1" and not words.endswith(unit) else ""
    parts = measure.strip().split(".")
    group = f" {parts[1]}" if parts[0] == "groups" and len(parts) >= 3 else ""
    return f"{words}{group}{' ' + stat if stat else ''}{tail}"


def axis_words(axis: str, unit: str = "") -> str:
    """An axis field as a figure labels it: `topology.dumbbell.bottleneck.delay` → "bottleneck
    delay (ms)", `flows[0].cc` → "controller"; a field not known keeps its path."""
    parts = [p.split("[")[0] for p in axis.split(".")]
    last = parts[-1]
    parent = parts[-2] if len(parts) > 1 else ""
    if last in ("rate", "delay") and parent in _LINK_PARENTS:
        words = f"{_LINK_PARENTS[parent]} {last}"
    elif parent == "queue" and last == "limit":
        words = "buffer"
    elif last in _AXIS_WORDS:
        words = _AXIS_WORDS[last]
    else:
        words = axis
    return words + (f" ({unit})" if unit else "")


def value_label(value: Any) -> str:
    """An axis value as a tick labels it: a table (or its JSON text) as its name and
    parameters, `gaimd β=0.875 α=tcp-friendly`; anything else as text."""
    if isinstance(value, str) and value.startswith("{"):
        try:
            value = json.loads(value)
        except ValueError:
            return value
    if isinstance(value, dict):
        name = value.get("name") or value.get("kind") or value.get("python") or ""
        params = " ".join(f"{_GREEK.get(k, k)}={v}" for k, v in value.items() if k not in ("name", "kind", "python"))
        return f"{name} {params}".strip()
    return str(value)


def rate_scale(values: Iterable[float]) -> Tuple[float, str]:
    """The factor and unit that show bit/s `values` with one SI prefix, chosen by the largest:
    (1e-6, "Mbit/s") for rates of some Mbit/s."""
    top = max((abs(v) for v in values if v is not None and math.isfinite(v)), default=0.0)
    for factor, unit in ((1e-9, "Gbit/s"), (1e-6, "Mbit/s"), (1e-3, "kbit/s")):
        if top * factor >= 1:
            return factor, unit
    return 1.0, "bit/s"


def display_scale(measure: str, values: Iterable[float]) -> Tuple[float, str]:
    """The factor and unit a person reads `measure`'s values in: rates in one SI prefix
    (`rate_scale`), a utilization in percent (the data keep the fraction), anything else as it
    is, in its own unit."""
    unit = measure_unit(measure)
    if unit == "bit/s":
        return rate_scale(values)
    if " / " not in measure and ":" not in measure and _stat_and_field(measure)[1] == "utilization":
        return 100.0, "%"
    return 1.0, "" if unit == "1" else unit
