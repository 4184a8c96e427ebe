"""Verdicts: does aimdlab reproduce a paper's published number or claim?

Every judgement follows aimdlab's 95 % confidence interval (over seeds) where it has one. A
published number is *reproduced* when the whole interval lies within the tolerance band the
paper's definition file gives (absolute, relative, or both: the wider band); it *differs*,
by the gap reported, when the whole interval lies outside; it is *inconclusive* when the
interval straddles an edge of the band. Without an interval (one seed) the mean decides, and
the detail says so; a ratio of two configurations has the interval of its per-seed ratios. A
claim that needs data the paper does not give (a figure available only as an image, a model
with no primary definition) *cannot be reproduced*, with the reason; one whose values are in a
part of the paper's text that is missing is *not checkable: text missing*, counted apart.

A qualitative claim is a predicate across a figure's points: `at_least` / `at_most` a value at
every point, `between` `[low, high]` at every point — reproduced when every point's interval
is on the claimed side, differs when some point's whole interval is past it, inconclusive
otherwise; `increasing` / `decreasing` along the x axis — differs when some step goes the other
way with the two intervals apart, inconclusive when some step's intervals overlap or its means
go the other way; `flat` (the means' spread at most a fraction of their mean).

Items are of a *class* (`CLASSES`): paper results are counted by verdict; calibrations,
sensitivity rows and context are shown beside them and never counted as paper results.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, List, Optional, Sequence, Tuple

__all__ = ["REPRODUCED", "DIFFERS", "INCONCLUSIVE", "CANNOT", "NOT_CHECKABLE", "NOT_JUDGED_QUICK", "APART", "VERDICTS", "RESULT", "CALIBRATED", "SENSITIVITY", "CONTEXT", "CLASSES",
           "Tolerance", "Verdict", "compare", "check_claim", "claim_band", "BAND_CLAIMS", "worst"]

REPRODUCED = "reproduced"
DIFFERS = "differs"
INCONCLUSIVE = "inconclusive"
CANNOT = "cannot be reproduced"
NOT_CHECKABLE = "not checkable: text missing"
"""A result whose values are in a part of the paper's text that is missing (the thesis's
chapters): counted apart from what cannot be reproduced."""
NOT_JUDGED_QUICK = "not judged in quick mode"
"""A result --quick ran on fewer of its points than a full run judges, where those left out
could change its verdict (a difference at a point it ran stands)."""
VERDICTS = (REPRODUCED, DIFFERS, INCONCLUSIVE, CANNOT, NOT_CHECKABLE, NOT_JUDGED_QUICK)
"""The verdicts, from the best to the worst for a paper result; then the results not
checkable and those a quick run does not judge, counted apart."""
APART = (NOT_CHECKABLE, NOT_JUDGED_QUICK)
"""Verdicts counted apart from the four of a judged result."""

RESULT = "result"
"""A paper result: a number or claim of the paper, on a set-up the paper describes. Counted."""
CALIBRATED = "calibrated"
"""A free parameter fitted to the paper's own numbers: reported as what the fit implies."""
SENSITIVITY = "sensitivity"
"""Another reading of a paper result (another error model, stack or rule), shown under it."""
CONTEXT = "context"
"""aimdlab's own measure, a claim true by construction, or a set-up aimdlab had to invent
because the text is missing."""
CLASSES = (RESULT, CALIBRATED, SENSITIVITY, CONTEXT)
"""Item classes; only `RESULT` items are counted as reproductions."""


@dataclass(frozen=True)
class Tolerance:
    """How far aimdlab's value may lie from the published one and still count as reproduced:
    `abs` in the value's unit, `rel` as a fraction of the published value; either suffices."""

    abs: Optional[float] = None
    rel: Optional[float] = None

    def band(self, published: float) -> "tuple[float, float]":
        """The values that reproduce `published`: the wider of the two tolerances."""
        width = max(self.abs or 0.0, (self.rel or 0.0) * abs(published))
        return published - width, published + width

    def describe(self) -> str:
        """The tolerance in words, e.g. `±0.5` or `±10 %`."""
        parts = ([f"±{self.abs:g}"] if self.abs is not None else []) + ([f"±{100 * self.rel:g} %"] if self.rel is not None else [])
        return " or ".join(parts) or "exact"


@dataclass(frozen=True)
class Verdict:
    """The outcome for one published number or claim."""

    verdict: str
    """`reproduced`, `differs` or `cannot be reproduced`."""
    gap: Optional[float] = None
    """aimdlab's value minus the published one (None for claims and unavailable data)."""
    rel_gap: Optional[float] = None
    """The gap as a fraction of the published value."""
    detail: str = ""
    """What was compared, in words."""


def compare(published: float, measured: Optional[float], tolerance: Tolerance,
            low: Optional[float] = None, high: Optional[float] = None, who: str = "aimdlab") -> Verdict:
    """The verdict for one published number against `who`'s mean (aimdlab's, or a peer
    simulator's) and its 95 % interval `[low, high]` (None or NaN: no interval, the mean
    decides). No mean (None or NaN: no run completed): it cannot be reproduced."""
    if measured is None or not math.isfinite(measured):
        return Verdict(CANNOT, detail=f"no {who} value: the runs of this point did not complete")
    gap = measured - published
    rel = gap / published if published else math.inf if gap else 0.0
    lo_band, hi_band = tolerance.band(published)
    if low is not None and high is not None and math.isfinite(low) and math.isfinite(high):
        lo, hi, interval = low, high, f", 95 % interval [{low:.6g}, {high:.6g}]"
    else:
        lo, hi, interval = measured, measured, ", no interval"
    if lo_band <= lo and hi <= hi_band:
        verdict = REPRODUCED
    elif hi < lo_band or lo > hi_band:
        verdict = DIFFERS
    else:
        verdict = INCONCLUSIVE
    return Verdict(verdict, gap, rel, f"{measured:.6g}{interval} against {published:.6g} (tolerance {tolerance.describe()})")


def worst(verdicts: Iterable[str]) -> str:
    """The verdict of several judgements: cannot over differs over inconclusive over
    reproduced (none: cannot)."""
    kinds = set(verdicts)
    for v in (CANNOT, DIFFERS, INCONCLUSIVE):
        if v in kinds:
            return v
    return REPRODUCED if kinds else CANNOT


def _interval(values: Sequence[float], bounds: Optional[Sequence[float]]) -> List[float]:
    """Each point's interval bound, or its mean where there is none."""
    return [bounds[i] if bounds is not None and math.isfinite(bounds[i]) else v for i, v in enumerate(values)]


BAND_CLAIMS = ("between", "at_least", "at_most")
"""The claims that every point lies in a band of values (`claim_band`)."""


def claim_band(kind: str, threshold: Any) -> Tuple[float, float]:
    """The values a band claim (`BAND_CLAIMS`) accepts at every point: (low, high), open-ended
    for `at_least` and `at_most`. Raises ValueError without the threshold it needs."""
    if kind == "between":
        if not (isinstance(threshold, (list, tuple)) and len(threshold) == 2):
            raise ValueError("claim between needs threshold = [low, high]")
        return float(threshold[0]), float(threshold[1])
    if threshold is None:
        raise ValueError(f"claim {kind} needs a threshold")
    return (float(threshold), math.inf) if kind == "at_least" else (-math.inf, float(threshold))


def check_claim(kind: str, values: Sequence[float], threshold: Optional[float] = None,
                lows: Optional[Sequence[float]] = None, highs: Optional[Sequence[float]] = None, who: str = "aimdlab",
                negligible: Optional[float] = None) -> Verdict:
    """A qualitative claim over `who`'s means (aimdlab's, or a peer simulator's) along a
    figure's x axis (in x order):
    `at_least` / `at_most` `threshold` everywhere, `flat` (max - min at most `threshold` of the
    mean), `increasing` / `decreasing`, or `crosses_down` (above `threshold` at the first point,
    below it at the last: both sides of a crossover). A trend with a `negligible` band (a fraction of the
    mean) differs when it is flat: every point's interval inside that band around the mean (an
    equivalence test: no change the claim could mean)."""
    xs = [float(v) for v in values]
    if not xs or not all(math.isfinite(v) for v in xs):
        return Verdict(CANNOT, detail=f"no {who} value at some point: its runs did not complete")
    lo, hi = _interval(xs, lows), _interval(xs, highs)
    intervals = sum(1 for i in range(len(xs)) if lows is not None and highs is not None and math.isfinite(lows[i]) and math.isfinite(highs[i]))
    note = "" if intervals == len(xs) else f"; {len(xs) - intervals} of {len(xs)} points without an interval (judged by the mean)"
    if kind in BAND_CLAIMS:
        low, high = claim_band(kind, threshold)
        if kind == "between":
            words = f"between {low:g} and {high:g}: {who}'s means run from {min(xs):.4g} to {max(xs):.4g}"
        else:
            worst_mean = min(xs) if kind == "at_least" else max(xs)
            words = f"{kind.replace('_', ' ')} {threshold:g}: {who}'s {'lowest' if kind == 'at_least' else 'highest'} mean is {worst_mean:.6g}"
        # A point is against the claim when its whole interval lies past a bound, for it when
        # its whole interval lies within, and undecided otherwise.
        against = [i for i in range(len(xs)) if hi[i] < low or lo[i] > high]
        undecided = [i for i in range(len(xs)) if i not in against and not (low <= lo[i] and hi[i] <= high)]
        verdict = DIFFERS if against else INCONCLUSIVE if undecided else REPRODUCED
        detail = (f"{words}; {len(against)} of {len(xs)} points with the whole 95 % interval on the wrong side, "
                  f"{len(undecided)} with it across the bound{note}")
        return Verdict(verdict, detail=detail)
    if kind == "flat":
        if threshold is None:
            raise ValueError("claim flat needs a threshold (the largest spread, a fraction of the mean)")
        mean = sum(xs) / len(xs)
        spread = (max(xs) - min(xs)) / abs(mean) if mean else math.inf
        return Verdict(REPRODUCED if spread <= threshold else DIFFERS,
                       detail=f"flat within {100 * threshold:g} %: {who}'s spread is {100 * spread:.3g} % of its mean")
    if kind in ("increasing", "decreasing"):
        if negligible is not None and len(xs) > 1:
            mean = sum(xs) / len(xs)
            if max(hi) - min(lo) <= negligible * abs(mean):
                return Verdict(DIFFERS, detail=f"{kind}: flat — {who}'s means {', '.join(f'{v:.6g}' for v in xs)} and their intervals "
                                               f"lie within {max(hi) - min(lo):.3g}, inside the negligible band of "
                                               f"{100 * negligible:g} % of the mean ({negligible * abs(mean):.3g}){note}")
        sign = 1.0 if kind == "increasing" else -1.0
        # A step is significant when the two points' intervals do not overlap.
        wrong = [i for i in range(len(xs) - 1) if sign * (xs[i + 1] - xs[i]) <= 0]
        rises = [lo[i + 1] > hi[i] for i in range(len(xs) - 1)]
        falls = [hi[i + 1] < lo[i] for i in range(len(xs) - 1)]
        apart = [i for i in range(len(xs) - 1) if (rises if sign > 0 else falls)[i]]
        against = [i for i in range(len(xs) - 1) if (falls if sign > 0 else rises)[i]]
        verdict = DIFFERS if against else REPRODUCED if len(apart) == len(xs) - 1 and not wrong else INCONCLUSIVE
        detail = (f"{kind}: {who}'s means {', '.join(f'{v:.4g}' for v in xs)}; of {len(xs) - 1} steps, {len(apart)} go that way with the "
                  f"intervals apart, {len(against)} go the other way with them apart, {len(wrong)} go the other way by the means{note}")
        return Verdict(verdict, detail=detail)
    if kind == "crosses_down":
        if threshold is None or len(xs) < 2:
            raise ValueError("claim crosses_down needs a threshold and two points or more")
        t = float(threshold)
        above, below = lo[0] > t, hi[-1] < t
        wrong_side = hi[0] < t or lo[-1] > t
        verdict = REPRODUCED if above and below else DIFFERS if wrong_side else INCONCLUSIVE
        sides = (f"first point {'above' if above else 'below' if hi[0] < t else 'across'} {t:g} (mean {xs[0]:.4g}), "
                 f"last point {'below' if below else 'above' if lo[-1] > t else 'across'} it (mean {xs[-1]:.4g})")
        return Verdict(verdict, detail=f"a crossover down through {t:g}: {who}'s {sides}{note}")
    raise ValueError(f'claim kind "{kind}" is not one of at_least, at_most, between, flat, increasing, decreasing, crosses_down')
