"""Verdicts: does aimdlab reproduce a paper's published number or claim?

A published number is *reproduced* when aimdlab's mean lies within the tolerance the paper's
definition file gives (absolute, relative, or both: either suffices); otherwise it *differs*,
by the gap reported. A claim that needs data the paper does not give (a figure available only
as an image, a model with no primary definition) *cannot be reproduced*, with the reason.

A qualitative claim is a predicate over aimdlab's means across a figure's points: `at_least`
/ `at_most` a value at every point (by the means; the detail says how many points against it
have their whole 95 % confidence interval past the threshold, i.e. differ significantly),
`between` `[low, high]` at every point (both bounds), `flat` (the spread at most a fraction of the mean),
`increasing` / `decreasing` along the x axis.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional, Sequence

__all__ = ["REPRODUCED", "DIFFERS", "CANNOT", "Tolerance", "Verdict", "compare", "check_claim"]

REPRODUCED = "reproduced"
DIFFERS = "differs"
CANNOT = "cannot be reproduced"


@dataclass(frozen=True)
class Tolerance:
    """How far aimdlab's value may lie from the published one and still count as reproduced:
    `abs` in the value's unit, `rel` as a fraction of the published value; either suffices."""

    abs: Optional[float] = None
    rel: Optional[float] = None

    def allows(self, published: float, measured: float) -> bool:
        """Whether `measured` reproduces `published`."""
        gap = abs(measured - published)
        ok_abs = self.abs is not None and gap <= self.abs
        ok_rel = self.rel is not None and gap <= self.rel * abs(published)
        return ok_abs or ok_rel

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


def compare(published: float, measured: Optional[float], tolerance: Tolerance) -> Verdict:
    """The verdict for one published number against aimdlab's mean (None or NaN: no run
    completed, so it cannot be reproduced)."""
    if measured is None or not math.isfinite(measured):
        return Verdict(CANNOT, detail="no aimdlab value: the runs of this point did not complete")
    gap = measured - published
    rel = gap / published if published else math.inf if gap else 0.0
    ok = tolerance.allows(published, measured)
    return Verdict(REPRODUCED if ok else DIFFERS, gap, rel, f"{measured:.6g} against {published:.6g} (tolerance {tolerance.describe()})")


def check_claim(kind: str, values: Sequence[float], threshold: Optional[float] = None,
                lows: Optional[Sequence[float]] = None, highs: Optional[Sequence[float]] = None) -> Verdict:
    """A qualitative claim over aimdlab's means along a figure's x axis (in x order):
    `at_least` / `at_most` `threshold` everywhere, `flat` (max - min at most `threshold` of the
    mean), or `increasing` / `decreasing`."""
    xs = [float(v) for v in values]
    if not xs or not all(math.isfinite(v) for v in xs):
        return Verdict(CANNOT, detail="no aimdlab value at some point: its runs did not complete")
    if kind == "between":
        if not (isinstance(threshold, (list, tuple)) and len(threshold) == 2):
            raise ValueError("claim between needs threshold = [low, high]")
        low, high = float(threshold[0]), float(threshold[1])
        outside = [i for i, v in enumerate(xs) if not low <= v <= high]
        return Verdict(REPRODUCED if not outside else DIFFERS,
                       detail=f"between {low:g} and {high:g}: aimdlab's means run from {min(xs):.4g} to {max(xs):.4g}; "
                              f"{len(outside)} of {len(xs)} points outside")
    if kind in ("at_least", "at_most"):
        if threshold is None:
            raise ValueError(f"claim {kind} needs a threshold")
        # A point contradicts the claim when its mean lies on the wrong side of the threshold;
        # the detail says how many of those are significant (the whole 95 % interval past it).
        lo = [lows[i] if lows is not None and math.isfinite(lows[i]) else v for i, v in enumerate(xs)]
        hi = [highs[i] if highs is not None and math.isfinite(highs[i]) else v for i, v in enumerate(xs)]
        if kind == "at_least":
            against = [i for i in range(len(xs)) if hi[i] < threshold]
        else:
            against = [i for i in range(len(xs)) if lo[i] > threshold]
        worst = min(xs) if kind == "at_least" else max(xs)
        unsure = [i for i in range(len(xs)) if i not in against and ((xs[i] < threshold) if kind == "at_least" else (xs[i] > threshold))]
        wrong = len(against) + len(unsure)
        detail = (f"{kind.replace('_', ' ')} {threshold:g}: aimdlab's {'lowest' if kind == 'at_least' else 'highest'} mean is {worst:.6g}; "
                  f"{wrong} of {len(xs)} points on the wrong side" + (f" ({len(against)} with the whole 95 % interval past it)" if wrong else ""))
        return Verdict(REPRODUCED if not wrong else DIFFERS, detail=detail)
    if kind == "flat":
        if threshold is None:
            raise ValueError("claim flat needs a threshold (the largest spread, a fraction of the mean)")
        mean = sum(xs) / len(xs)
        spread = (max(xs) - min(xs)) / abs(mean) if mean else math.inf
        return Verdict(REPRODUCED if spread <= threshold else DIFFERS,
                       detail=f"flat within {100 * threshold:g} %: aimdlab's spread is {100 * spread:.3g} % of its mean")
    if kind in ("increasing", "decreasing"):
        steps = [b - a for a, b in zip(xs, xs[1:])]
        ok = all(s > 0 for s in steps) if kind == "increasing" else all(s < 0 for s in steps)
        return Verdict(REPRODUCED if ok else DIFFERS, detail=f"{kind}: aimdlab's values {', '.join(f'{v:.4g}' for v in xs)}")
    raise ValueError(f'claim kind "{kind}" is not one of at_least, at_most, between, flat, increasing, decreasing')
