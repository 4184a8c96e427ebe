"""`aimdlab reproduce`: the verdict rules (a published number inside its tolerance is
reproduced, outside it differs, without a value it cannot be), paper definitions that name
their mistakes, and a quick reproduction of a paper end to end, its report opened in Chromium."""

from __future__ import annotations

import dataclasses
import json
import math
import re
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from aimdlab import ScenarioError
from aimdlab.package_data import package_folder
from aimdlab.reproduce import available_papers, find_experiments, load_paper
from aimdlab.reproduce.paper import check_fields
from aimdlab.reproduce.verdict import (
    CANNOT,
    DIFFERS,
    INCONCLUSIVE,
    REPRODUCED,
    Tolerance,
    check_claim,
    compare,
)

ROOT = Path(__file__).resolve().parent.parent


def test_a_number_inside_its_tolerance_is_reproduced_and_outside_it_differs():
    tol = Tolerance(abs=0.5)
    assert compare(94.74, 94.93, tol).verdict == REPRODUCED
    assert compare(94.74, 95.24, tol).verdict == REPRODUCED  # the edge counts
    v = compare(94.74, 95.25, tol)
    assert v.verdict == DIFFERS and math.isclose(v.gap, 0.51) and math.isclose(v.rel_gap, 0.51 / 94.74)
    assert compare(94.74, 93.0, tol).verdict == DIFFERS
    rel = Tolerance(rel=0.1)
    assert compare(742, 800, rel).verdict == REPRODUCED and compare(742, 420, rel).verdict == DIFFERS
    assert compare(742, 420, Tolerance(abs=10, rel=0.5)).verdict == REPRODUCED  # either suffices
    assert compare(94.74, None, tol).verdict == CANNOT and compare(94.74, math.nan, tol).verdict == CANNOT


def test_axis_values_match_whatever_way_the_catalog_stores_them():
    from aimdlab.reproduce import same_x

    assert same_x(2, 2.0) and same_x("10ms", "10ms") and not same_x(2, 3)
    table = {"name": "tw", "decrease": 0.25}
    stored = '{"name": "tw", "decrease": 0.25}'  # a table axis value, as the catalog keeps it
    assert same_x(stored, table) and same_x(table, stored) and not same_x(stored, {"name": "reno"})


def test_claims_hold_or_not_at_every_point():
    assert check_claim("at_least", [94.9, 95.0], 94).verdict == REPRODUCED
    assert check_claim("at_least", [94.9, 93.9], 94).verdict == DIFFERS
    assert check_claim("at_most", [1.0, 2.0], 2.0).verdict == REPRODUCED
    # The 95 % interval decides: wholly past the threshold differs, across it is inconclusive,
    # whatever side the mean is on.
    loose = check_claim("at_least", [0.85, 1.2], 1.0, lows=[-1.5, 1.1], highs=[3.2, 1.3])
    tight = check_claim("at_least", [0.85, 1.2], 1.0, lows=[0.80, 1.1], highs=[0.90, 1.3])
    above_but_across = check_claim("at_least", [1.05, 1.2], 1.0, lows=[0.95, 1.1], highs=[1.15, 1.3])
    assert (loose.verdict, tight.verdict, above_but_across.verdict) == (INCONCLUSIVE, DIFFERS, INCONCLUSIVE)
    assert "1 of 2 points with the whole 95 % interval on the wrong side, 0 with it across" in tight.detail
    assert check_claim("decreasing", [3, 2, 1]).verdict == REPRODUCED
    assert check_claim("decreasing", [3, 3, 1]).verdict == INCONCLUSIVE
    assert check_claim("decreasing", [3, 4, 1], lows=[2.9, 3.9, 0.9], highs=[3.1, 4.1, 1.1]).verdict == DIFFERS
    # Means that fall, but with overlapping intervals: not shown to fall.
    assert check_claim("decreasing", [3, 2.9, 2.8], lows=[2.5, 2.5, 2.5], highs=[3.5, 3.5, 3.5]).verdict == INCONCLUSIVE
    assert check_claim("increasing", [1, 2, math.nan]).verdict == CANNOT
    assert check_claim("between", [0.85, 1.2], [0.8, 1.25]).verdict == REPRODUCED
    outside = check_claim("between", [0.85, 1.3, 0.7], [0.8, 1.25])
    assert outside.verdict == DIFFERS and "2 of 3 points with the whole 95 % interval on the wrong side" in outside.detail
    assert check_claim("flat", [118.9, 119.0, 119.3], 0.01).verdict == REPRODUCED
    assert check_claim("flat", [100, 110], 0.05).verdict == DIFFERS
    with pytest.raises(ValueError):
        check_claim("wiggly", [1, 2])


def test_a_published_number_is_judged_by_the_interval_around_the_mean():
    tol = Tolerance(abs=0.5)
    assert compare(94.7, 94.9, tol, 94.8, 95.0).verdict == REPRODUCED
    assert compare(94.7, 95.5, tol, 95.3, 95.7).verdict == DIFFERS
    # The mean inside the band does not make it reproduced while the interval leaves it.
    assert compare(94.7, 95.1, tol, 94.9, 95.3).verdict == INCONCLUSIVE
    assert compare(94.7, 95.1, tol).verdict == REPRODUCED and "no interval" in compare(94.7, 95.1, tol).detail
    # Either tolerance suffices: the band is the wider one.
    assert Tolerance(abs=1.0, rel=0.05).band(100.0) == (95.0, 105.0)


def test_a_flat_series_is_not_a_trend_when_the_claim_states_a_negligible_band():
    """An equivalence test: every point's interval inside the negligible band around the mean
    is a flat series, which differs from a claimed trend (not "inconclusive"); outside the band
    the usual step test decides."""
    flat = check_claim("decreasing", [94.15, 94.15, 94.151, 94.149], None, [94.145] * 4, [94.155] * 4, negligible=0.00026)
    assert flat.verdict == DIFFERS and "flat" in flat.detail and "0.026 % of the mean" in flat.detail
    assert check_claim("decreasing", [94.15, 94.15, 94.151, 94.149], None, [94.145] * 4, [94.155] * 4).verdict == INCONCLUSIVE
    assert check_claim("decreasing", [94.74, 94.69, 94.6, 94.49], negligible=0.00026).verdict == REPRODUCED
    # Wide intervals are not evidence of flatness: the step test decides (here, undecided).
    assert check_claim("decreasing", [1.70, 1.66, 1.64], None, [1.6] * 3, [1.75, 1.72, 1.7], negligible=0.05).verdict == INCONCLUSIVE


def test_a_crossover_needs_both_sides():
    """GAIMD Fig. 13's crossover was judged at 4 flows only; `crosses_down` judges both ends."""
    assert check_claim("crosses_down", [2.6, 0.8], 1.0, [2.5, 0.7], [2.7, 0.9]).verdict == REPRODUCED
    assert check_claim("crosses_down", [2.6, 1.25], 1.0).verdict == DIFFERS  # (the far side not shown)
    assert check_claim("crosses_down", [2.6, 1.2], 1.0, [2.5, 0.9], [2.7, 1.3]).verdict == INCONCLUSIVE
    assert "last point above it (mean 1.25)" in check_claim("crosses_down", [2.6, 1.25], 1.0).detail


def test_a_paper_definition_names_its_mistakes(tmp_path):
    (tmp_path / "s.toml").write_text((package_folder("experiments") / "new-aimd-utilization/table1.toml").read_text())
    base = 'id = "p"\ntitle = "t"\npaper = "x.txt"\n[[items]]\nid = "a"\ntitle = "a"\nwhere = "w"\nsweep = "s.toml"\nx = "flows[0].count"\nmeasure = "jain_index"\n'
    model = 'id = "p"\ntitle = "t"\npaper = "x.txt"\n[[items]]\nid = "a"\ntitle = "a"\nwhere = "w"\nmodel = "math:sqrt"\nclaim = { kind = "increasing" }\n'
    cases = [(base + "publishd = 3\n", "items[0].publishd: is not a field of an item judged on a sweep; it takes also, at_x, baseline, cause, cause_tested_by, claim, class, figure, group, group_label, id, label, measure, name, of, only, plot_x, points, published, scale, select, sensitivity, sweep, threshold_from, title, tolerance, where, x, xlabel (did you mean published?)"),
             (base + 'published = { x = [2], value = [0.9] }\n', "items[0].tolerance: is missing"),
             (base + 'published = { x = [2, 3], value = [0.9] }\n', "items[0].published: expected"),
             (base, "items[0]: has neither published numbers nor a claim"),
             (base.replace('sweep = "s.toml"', 'sweep = "none.toml"') + 'claim = { kind = "increasing" }\n', "items[0].sweep"),
             (base + 'claim = { kind = "increasing" }\nfigure = { series = "timeseris", y = "a" }\n',
              "items[0].figure.series: 'timeseris' is not accepted; expected one of timeseries, link_timeseries"),
             (base + 'claim = { kind = "increasing" }\nfigure = { series = "timeseries", y = "a", flows = "all" }\n', "items[0].figure.flows"),
             ('id = "p"\ntitle = "t"\npaper = "x.txt"\n[[items]]\nid = "a"\ntitle = "a"\nwhere = "w"\ncannot = "image"\nsweep = "s.toml"\n',
              "items[0].sweep: an item that cannot be reproduced uses a sweep only to draw aimdlab's figure: give a `figure`, or `x` and `measure`"),
             ('id = "p"\ntitle = "t"\npaper = "x.txt"\n[[items]]\nid = "a"\ntitle = "a"\nwhere = "w"\ncannot = "image"\ntext_missing = "gone"\n',
              "items[0].text_missing: give either `cannot` (a reason) or `text_missing` (the text that is missing), not both"),
             (base + 'claim = { kind = "at_lest", threshold = 94 }\n', "items[0].claim.kind: 'at_lest' is not a claim; expected one of at_least"),
             (base + 'claim = { kind = "at_least", threshold = 94, negligible = 0.01 }\nthreshold_from = "t"\n',
              "items[0].claim.negligible: a trend's negligible band"),
             (base + 'claim = { kind = "between", threshold = 1 }\n', "items[0].claim.threshold: between takes [low, high]"),
             (base + 'claim = { kind = "increasing", threshold = 1 }\n', "items[0].claim.threshold: increasing takes no threshold"),
             (base + 'claim = { kind = "increasing" }\nclass = "calibration"\n',
              "items[0].class: 'calibration' is not a class; expected one of result, calibrated, sensitivity, context"),
             (base + 'claim = { kind = "increasing" }\nclass = "sensitivity"\n', "items[0].of: a sensitivity item names the result it reads differently"),
             (base + 'claim = { kind = "increasing" }\ncause_tested_by = "b"\n', "items[0].cause_tested_by: 'b' is not a sensitivity or context item of 'a'"),
             (base + 'claim = { kind = "at_least", threshold = 1 }\n', "items[0].threshold_from: is missing: say where the tolerance or threshold comes from"),
             ('id = "p"\ntitle = "t"\n', "paper: is missing"),
             # Ids become folders and links: plain names only (paper_id_path_traversal.sh).
             (base.replace('id = "p"', 'id = ".."'), "id: '..' is not a plain name"),
             (base.replace('id = "p"', 'id = "/tmp/elsewhere"'), "id: '/tmp/elsewhere' is not a plain name"),
             (base.replace('id = "p"', 'id = "javascript:alert(1)//"'), "id: 'javascript:alert(1)//' is not a plain name"),
             (base.replace('id = "a"', 'id = "a b"'), "items[0].id: 'a b' is not a plain name"),
             # Each kind takes its own keys: a tolerance on an item that is not judged judges nothing.
             ('id = "p"\ntitle = "t"\npaper = "x.txt"\n[[items]]\nid = "a"\ntitle = "a"\nwhere = "w"\ncannot = "image"\ntolerance = { abs = 1 }\n',
              "items[0].tolerance: is not a field of an item that is not judged; it takes also, baseline, cannot, cause, cause_tested_by, "
              "class, figure, id, label, measure, name, of, scale, select, sweep, text_missing, title, where, x, xlabel; tolerance belongs to "
              "an item judged on a sweep or an item judged on a model"),
             (model + 'group = "x"\n', "items[0].group: is not a field of an item judged on a model"),
             (model.replace("math:sqrt", "nosuchmodule:f"), "items[0].model: 'nosuchmodule:f'")]
    for text, message in cases:
        (tmp_path / "paper.toml").write_text(text)
        with pytest.raises(ScenarioError) as e:
            load_paper(tmp_path)
        assert message in str(e.value)


def test_results_whose_text_is_missing_are_counted_apart_from_what_cannot_be_reproduced(tmp_path):
    """The DCCP thesis's figures and tables (only its introduction survives) are "not checkable:
    text missing", never inside "cannot be reproduced"."""
    from aimdlab.reproduce import NOT_CHECKABLE, NotJudgedItem, reproduce_paper

    root = find_experiments(package_folder("experiments"))
    paper = load_paper(root / "dccp-tcp-like-tw")
    paper.items = [i for i in paper.items if isinstance(i, NotJudgedItem)]  # (no sweep runs: only the unjudged items)
    assert all(isinstance(i, NotJudgedItem) and i.text_missing for i in paper.items)
    assert len(paper.items) == 56 and all(i.text_missing for i in paper.items)
    counts = reproduce_paper(paper, tmp_path / "r").counts()
    assert counts[NOT_CHECKABLE] == 56 and counts["cannot be reproduced"] == 0


def test_a_quick_run_does_not_judge_an_item_on_fewer_points_than_a_full_run():
    """MR-AIMD's contention sweep runs 10, 20, 50 and 100 flows; --quick runs 10 and 100. A
    claim that holds at the two it ran is "not judged in quick mode" (20 and 50 could break
    it); one broken at a point it ran differs whatever the others give; a trend is not judged
    on two of four points either way; a published number not run is not judged."""
    from aimdlab.reproduce import DIFFERS, NOT_JUDGED_QUICK, ItemResult, _quick_verdict
    from aimdlab.reproduce.items import SweepItem as Item
    from aimdlab.reproduce.verdict import Verdict

    sweep = package_folder("experiments") / "mr-aimd" / "contention.toml"

    def verdict(claim=None, published=(), published_x=(), given=REPRODUCED):
        item = Item("a", "a", "w", sweep=sweep, x="flows[0].count", measure="goodput_total_bps",
                    select={"flows[0].cc": "mr_aimd", "tcp.ecn": True}, claim=claim, published=list(published), published_x=list(published_x))
        res = ItemResult(item, x=[10, 100], mean=[1.0, 1.0], low=[1.0, 1.0], high=[1.0, 1.0])
        return _quick_verdict(item, res, Verdict(given, detail="d"))

    left_out = verdict({"kind": "at_least", "threshold": 0.5})
    assert left_out.verdict == NOT_JUDGED_QUICK and "flows[0].count = 20, 50" in left_out.detail and "reproduced — d" in left_out.detail
    assert verdict({"kind": "at_least", "threshold": 0.5}, given=DIFFERS).verdict == DIFFERS
    assert verdict({"kind": "increasing"}, given=DIFFERS).verdict == NOT_JUDGED_QUICK
    assert verdict(published=[1, 1], published_x=[10, 100]).verdict == REPRODUCED  # (every published point ran)
    assert verdict(published=[1, 1], published_x=[10, 20]).verdict == NOT_JUDGED_QUICK
    # A selection the quick grid lacks but the full grid has (20 flows) is not judged in quick
    # mode; one the full grid lacks too (9 flows) cannot be reproduced.
    from aimdlab.reproduce import _full_grid

    at = Item("a", "a", "w", sweep=sweep, x="flows[0].count", measure="goodput_total_bps")
    assert len(_full_grid(dataclasses.replace(at, select={"flows[0].count": 20, "flows[0].cc": "reno"}))) == 2  # (with and without ECN)
    assert len(_full_grid(dataclasses.replace(at, select={"flows[0].count": 9}))) == 0


def test_a_cause_counts_as_tested_only_when_its_check_supports_it():
    """GAIMD Fig. 14's "cause tested" pointed at a check that was itself inconclusive: a
    result's cause is tested only when the item named in `cause_tested_by` is reproduced."""
    from aimdlab.reproduce import ItemResult, link_causes
    from aimdlab.reproduce.items import SweepItem as Item
    from aimdlab.reproduce.verdict import Verdict

    def pair(check_verdict):
        result = Item("r", "r", "w", cause_tested_by="c")
        check = Item("c", "c", "w", kind="context", of="r")
        return link_causes([ItemResult(result, verdict=Verdict(DIFFERS, detail="d")), ItemResult(check, verdict=Verdict(check_verdict))])[0]

    assert pair(REPRODUCED).verdict.detail == "d"
    assert pair(INCONCLUSIVE).verdict.detail == "d; cause not tested: its check (c) is inconclusive"


def test_a_notes_numbers_come_from_the_run(tmp_path):
    """A note quotes the run through placeholders (`notes.py`), never a number typed by hand."""
    import pandas as pd
    from aimdlab.reproduce.notes import check_placeholders, fill

    agg = pd.DataFrame({"flows[0].count": [10, 100], "jain_index_mean": [0.71, 0.38]})
    text = "Jain {jain_index at flows[0].count=10} and {jain_index at flows[0].count=100}; G/T down to {min}, at 20 {mean at 20}."
    assert fill(text, [10, 20], [0.9, 0.81234], agg, {}) == "Jain 0.71 and 0.38; G/T down to 0.8123, at 20 0.8123."
    assert fill("{jain_index at flows[0].count=50}", [], [], agg, {}) == "(not in this run)"
    assert check_placeholders("a {typo here} b") is not None and check_placeholders(text) is None
    (tmp_path / "paper.toml").write_text('id = "p"\ntitle = "t"\npaper = "x.txt"\n[[items]]\nid = "a"\ntitle = "a"\nwhere = "w"\n'
                                         'cannot = "c"\ncause = "down to {lowest}"\n')
    with pytest.raises(ScenarioError) as e:
        load_paper(tmp_path)
    assert "items[0].cause: '{lowest}' is not a placeholder" in str(e.value)


def test_every_paper_definition_loads():
    from aimdlab.reproduce import NotJudgedItem

    root = find_experiments(package_folder("experiments"))
    names = available_papers(root)
    assert {"new-aimd-utilization", "new-aimd-delay", "mr-aimd", "gaimd", "dccp-tcp-like-tw"} <= set(names)
    for name in names:
        paper = load_paper(root / name)
        assert paper.items and all(isinstance(i, NotJudgedItem) or i.published or i.claim for i in paper.items)


@pytest.mark.slow
def test_a_quick_reproduction_runs_end_to_end_with_the_papers_numbers_beside(tmp_path):
    out = subprocess.run([sys.executable, "-m", "aimdlab.cli", "reproduce", "new-aimd-utilization", "--quick", "--jobs", "2",
                          "--out", str(tmp_path / "r"), "--experiments", str(package_folder("experiments"))], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "reproduced" in out.stdout and "cannot be reproduced" in out.stdout
    # A short summary a new user can read, saying it is quick; the items are on the page.
    lines = out.stdout.splitlines()
    assert len(lines) == 4 and lines[0].startswith("new-aimd-utilization: ") and "page: " in lines[0], out.stdout
    assert "quick: fewer seeds and shorter runs" in lines[1] and lines[2].startswith("paper results: ")
    page = (tmp_path / "r" / "new-aimd-utilization" / "index.html").read_text()
    for published in ("94.74", "94.69", "94.6", "94.49"):
        assert published in page
    # The summary table sets the paper's values beside aimdlab's (Table 1: 94.74 with 2 flows).
    assert "<th class='text'>paper</th><th class='text'>aimdlab</th>" in page and "2: 94.74; 3: 94.69" in page
    # The paper cited as a reader cites it, with no path to a file a user does not have.
    assert "Journal of Computer Science 5(12): 1055-1059" in page and "shared/papers" not in page
    index = (tmp_path / "r" / "index.html").read_text()
    assert "Journal of Computer Science 5(12)" in index
    # Each difference names its tested cause (New-AIMD's: the stacks' sensitivity rows, Reno's busy link).
    assert re.search(r"Of the (\d+) differences, \1 name a tested cause on their page", index), index
    # Seven items' figures, and Fig. 3-6's per-second trace drawn from the runs.
    assert "Quick run" in page and page.count("data:image/png;base64,") == 8
    assert (tmp_path / "r" / "index.html").is_file()
    # The sweeps' own reports only on request (--sweep-reports): the page links their folders.
    assert "href='sweeps/table1/'" in page and not list((tmp_path / "r").rglob("sweeps/*/report.html"))
    # The page renders in a real browser with every figure loaded.
    from test_report import browse, chromium

    seen = browse(tmp_path / "r" / "new-aimd-utilization" / "index.html", tmp_path, chromium())
    assert len(seen["images"]) == 8 and all(i["ok"] for i in seen["images"]) and seen["errors"] == []
    # Again: every run is in the store; nothing executes, the verdicts are the same.
    # (--details also prints every item's verdict)
    again = subprocess.run([sys.executable, "-m", "aimdlab.cli", "reproduce", "new-aimd-utilization", "--quick", "--details",
                            "--out", str(tmp_path / "r"), "--experiments", str(package_folder("experiments"))], capture_output=True, text=True)
    assert again.returncode == 0 and "nothing to run: all 80 runs are complete in the store" in again.stderr
    assert lines[0] in again.stdout.splitlines() and lines[2] in again.stdout.splitlines()
    assert again.stdout.startswith("new-aimd-utilization:\n  ") and "Table 1" in again.stdout
    as_json = subprocess.run([sys.executable, "-m", "aimdlab.cli", "reproduce", "new-aimd-utilization", "--quick", "--json", "-q",
                              "--out", str(tmp_path / "r"), "--experiments", str(package_folder("experiments"))], capture_output=True, text=True)
    assert as_json.returncode == 0 and as_json.stderr == "", as_json.stderr
    told = json.loads(as_json.stdout)
    (paper,) = told["papers"]
    assert paper["paper"] == "new-aimd-utilization" and paper["page"] == str(tmp_path / "r" / "new-aimd-utilization" / "index.html")
    printed = [line for line in again.stdout.splitlines()[1:] if line.startswith("  ") and not line.startswith("    ")]
    assert [f"  {i['verdict']:<21}" for i in paper["items"]] == [line[:23] for line in printed]
    assert told["index"] == str(tmp_path / "r" / "index.html") and told["provenance"]["aimdlab_version"]
    with_reports = subprocess.run([sys.executable, "-m", "aimdlab.cli", "reproduce", "new-aimd-utilization", "--quick", "--sweep-reports",
                                   "--out", str(tmp_path / "r"), "--experiments", str(package_folder("experiments"))], capture_output=True, text=True)
    assert with_reports.returncode == 0, with_reports.stderr
    assert (tmp_path / "r" / "new-aimd-utilization" / "sweeps" / "table1" / "report.html").is_file()
    assert "href='sweeps/table1/report.html'" in (tmp_path / "r" / "new-aimd-utilization" / "index.html").read_text()


def test_an_unknown_paper_is_an_error_listing_the_known_ones(tmp_path):
    out = subprocess.run([sys.executable, "-m", "aimdlab.cli", "reproduce", "new-aimd", "--experiments", str(package_folder("experiments"))],
                         capture_output=True, text=True)
    known = ", ".join(available_papers(package_folder("experiments")))
    assert out.returncode == 1 and f"'new-aimd' is not a paper aimdlab can reproduce yet; expected one of {known} or all" in out.stderr


def test_items_select_rows_by_an_axis_or_a_field_of_a_linked_axis(tmp_path):
    from aimdlab.reproduce import reproduce_paper

    paper = load_paper(package_folder("experiments") / "mr-aimd")
    result = reproduce_paper(paper, tmp_path / "mr", quick=True, jobs=2)
    by_id = {r.item.id: r for r in result.items}
    # The sweep crosses a (5 values) x flows (2) x wired/wireless (a linked axis of 4 fields);
    # each item keeps one flow count and one of the two cases, along a; the wired items keep
    # the four values of a the paper's wired table has (`points`).
    assert by_id["wired-goodput-2"].x == [0.5, 1.0, 1.5, 2.0]
    assert by_id["wireless-goodput-4"].x == [0.5, 1.0, 1.5, 2.0, 5.0]
    wired, wireless = by_id["wired-goodput-2"].mean, by_id["wireless-goodput-2"].mean
    assert all(w > 5 * v for w, v in zip(wired, wireless)), "the lossy 10 Mbit/s case is the slow one here"
    assert len(by_id["wired-retx-4"].points) == 4


def test_a_baseline_item_divides_point_by_point(tmp_path):
    from aimdlab import open_sweep
    from aimdlab.reproduce import reproduce_paper

    paper = load_paper(package_folder("experiments") / "new-aimd-delay")
    result = reproduce_paper(paper, tmp_path / "d", quick=True, jobs=2)
    ratio = next(r for r in result.items if r.item.id == "twelve-percent")
    agg = open_sweep(result.sweeps[str(paper.folder / "completion.toml")]).aggregate.to_pandas()
    m = "flows.completion_time_s.max_mean"
    for x, value in zip(ratio.x, ratio.mean):
        new = agg[(agg["flows[0].count"] == x) & (agg["flows[0].cc"] == "new_aimd")][m].iloc[0]
        reno = agg[(agg["flows[0].count"] == x) & (agg["flows[0].cc"] == "reno")][m].iloc[0]
        assert value == new / reno
    assert ratio.x == [1, 2, 3, 4, 5] and all(math.isnan(v) for v in ratio.low)


def test_a_ratio_is_judged_by_the_interval_of_its_per_seed_ratios(tmp_path):
    from aimdlab.reproduce import SweepItem as Item
    from aimdlab.reproduce import evaluate
    from aimdlab.sweep import parse_experiment, run_sweep
    from aimdlab.sweep.stats import mean_std_ci95

    base = {"name": "t", "duration": "4s", "sample_interval": "1s",
            "topology": {"dumbbell": {"bottleneck": {"rate": "5Mbps", "delay": "10ms", "queue": {"limit": "30pkt"}},
                                      "access": {"rate": "50Mbps", "delay": "1ms"}}},
            "flows": [{"name": "f", "count": 2, "cc": "reno", "start_jitter": "1s"}]}
    exp = parse_experiment({"scenario": base, "seeds": 4, "axes": {"flows[0].count": [1, 3], "flows[0].cc": ["reno", "mr_aimd"]},
                            "measures": ["retransmitted_pkts"]}, ROOT, "t")
    sweep = run_sweep(exp, tmp_path / "s", jobs=1)
    item = Item("r", "ratio", "w", x="flows[0].count", measure="retransmitted_pkts", select={"flows[0].cc": "mr_aimd"},
                baseline={"flows[0].cc": "reno"}, claim={"kind": "at_least", "threshold": 0.0})
    res = evaluate(item, sweep)
    runs = sweep.catalog.to_pandas()
    for i, x in enumerate(res.x):
        at = runs[runs["flows[0].count"] == x]
        mr = at[at["flows[0].cc"] == "mr_aimd"].set_index("seed")["retransmitted_pkts"]
        reno = at[at["flows[0].cc"] == "reno"].set_index("seed")["retransmitted_pkts"]
        n, mean, _, half = mean_std_ci95([mr[sd] / reno[sd] for sd in mr.index if reno[sd]])
        assert (res.runs[i], res.mean[i]) == (n, mean) and n >= 2
        assert res.low[i] == pytest.approx(mean - half) and res.high[i] == pytest.approx(mean + half)


def test_an_item_whose_point_the_sweep_lacks_says_so(tmp_path):
    from aimdlab.reproduce import evaluate, reproduce_paper

    paper = load_paper(package_folder("experiments") / "new-aimd-utilization")
    result = reproduce_paper(paper, tmp_path / "u", quick=True, jobs=1)
    item = next(i for i in paper.items if i.id == "claim-above-94")
    item.select = {"flows[0].count": 9}
    # The busy times are aimdlab's own measure (one a check of a cause), and the per-second
    # reading a stricter reading of the averaged claim: shown, not counted among the paper's results.
    assert result.shown() == {"calibrated": 0, "sensitivity": 1, "context": 2}
    assert sum(result.counts().values()) == len(paper.items) - 3
    verdict = evaluate(item, next(iter(result.sweeps.values()))).verdict
    assert verdict.verdict == CANNOT and "no point where {'flows[0].count': 9} (a --quick run has fewer points)" in verdict.detail
    # A published point a --quick run leaves out is skipped and said; the verdict is over the others.
    table = next(i for i in paper.items if i.id == "table-1")
    table.published_x, table.published = [*table.published_x, 9], [*table.published, 50.0]
    verdict = evaluate(table, next(iter(result.sweeps.values()))).verdict
    assert re.search(r"\b[0-4] of 4 points within ±0\.5", verdict.detail), verdict.detail
    assert "1 published point(s) not run by --quick (flows[0].count = 9)" in verdict.detail


def test_a_trace_figure_draws_one_line_per_panel_and_line_value_from_the_first_seed(tmp_path):
    from aimdlab.reproduce.trace import parse_trace, trace_lines
    from aimdlab.sweep import parse_experiment, run_sweep

    base = {"name": "t", "duration": "3s", "sample_interval": "100ms",
            "topology": {"dumbbell": {"bottleneck": {"rate": "5Mbps", "delay": "10ms", "queue": {"limit": "30pkt"}},
                                      "access": {"rate": "50Mbps", "delay": "1ms"}}},
            "flows": [{"name": "f", "count": 2, "cc": "reno"}]}
    exp = parse_experiment({"scenario": base, "seeds": 2, "axes": {"flows[0].count": [1, 3], "flows[0].cc": ["reno", "mr_aimd"]},
                            "measures": ["goodput_total_bps"]}, ROOT, "t")
    sweep = run_sweep(exp, tmp_path / "s", jobs=1)
    spec = parse_trace({"series": "timeseries", "y": "goodput_bps", "flows": "sum", "panels": "flows[0].count", "lines": "flows[0].cc"}, "figure")
    lines = trace_lines(sweep, {}, spec)
    assert [(p, label) for p, label, _, _ in lines] == [(1, "flows[0].cc = reno"), (1, "flows[0].cc = mr_aimd"),
                                                       (3, "flows[0].cc = reno"), (3, "flows[0].cc = mr_aimd")]
    # Each line is its point's first seed: the flows' goodput summed at every sample.
    cat = sweep.catalog.to_pandas()
    rid = cat[(cat["flows[0].count"] == 3) & (cat["flows[0].cc"] == "reno") & (cat["replication"] == 0)]["run_id"].iloc[0]
    ts = pq.read_table(sweep.run_dir(rid) / "timeseries.parquet").to_pandas()
    assert lines[2][3] == ts.groupby("time_s")["goodput_bps"].sum().tolist()
    # `each` draws every flow; `select` keeps one configuration; a missing column is named.
    each = trace_lines(sweep, {"flows[0].cc": "mr_aimd"}, parse_trace({"series": "timeseries", "y": "a", "panels": "flows[0].count"}, "f"))
    assert [(p, label) for p, label, _, _ in each] == [(1, "flow 0"), (3, "flow 0"), (3, "flow 1"), (3, "flow 2")]
    with pytest.raises(ScenarioError, match="figure.y: the runs' timeseries has no column 'b'"):
        trace_lines(sweep, {}, parse_trace({"series": "timeseries", "y": "b"}, "f"))


def test_a_sensitivity_axis_judges_the_item_again_at_each_other_reading(tmp_path):
    from aimdlab.reproduce import evaluate, reproduce_paper

    paper = load_paper(package_folder("experiments") / "new-aimd-utilization")
    result = reproduce_paper(paper, tmp_path / "u", quick=True, jobs=2)
    table = next(r for r in result.items if r.item.id == "table-1")
    # Judged on the Linux stack (NCTUns's), and again on each other profile of the sweep.
    assert table.item.select["tcp.profile"] == "linux26"
    assert [v for v, _ in table.sensitivity] == ["linux", "rfc", "ns3", "ns2"]
    sweep = next(iter(result.sweeps.values()))
    for value, other in table.sensitivity:
        direct = evaluate(dataclasses.replace(table.item, select={**table.item.select, "tcp.profile": value}, sensitivity=None, figure=None,
                                              kind="sensitivity"), sweep)
        assert other.mean == direct.mean and other.verdict == direct.verdict
    # `values` restricts the readings shown.
    only_ns2 = dataclasses.replace(table.item, sensitivity_values=["ns2"])
    assert [v for v, _ in evaluate(only_ns2, sweep).sensitivity] == ["ns2"]


def test_a_model_item_judges_the_papers_analytic_model_without_a_sweep(tmp_path):
    from aimdlab.reproduce import evaluate

    paper = load_paper(package_folder("experiments") / "gaimd")
    items = {i.id: i for i in paper.items}
    alpha = evaluate(items["fig10-tcp-friendly-alpha"], None)
    # eq. (7): α = 4(1 - β²)/3, 0.3125 at β = 7/8 against the paper's rounded 0.31.
    assert alpha.verdict.verdict == REPRODUCED and alpha.mean[alpha.x.index(0.875)] == pytest.approx(0.3125)
    # at_x judges the claim at low loss only; over every point it would not hold.
    low = items["fig11-to-low-loss"]
    assert evaluate(low, None).verdict.verdict == REPRODUCED
    assert evaluate(dataclasses.replace(low, at_x=None), None).verdict.verdict == DIFFERS
    (tmp_path / "paper.toml").write_text('id = "p"\ntitle = "t"\npaper = "x.txt"\n[[items]]\nid = "a"\ntitle = "a"\nwhere = "w"\n'
                                         'model = "aimdlab.papers.gaimd:rate_ratio_to"\nsweep = "s.toml"\nclaim = { kind = "decreasing" }\n')
    with pytest.raises(ScenarioError, match=r"items\[0\].sweep: is not a field of an item judged on a model"):  # (a sweep or a model, not both)
        load_paper(tmp_path)


def test_an_item_that_cannot_be_judged_still_draws_aimdlabs_figure_with_more_measures(tmp_path):
    from aimdlab.reproduce import reproduce_paper
    from aimdlab.reproduce.report import write_paper_report

    paper = load_paper(package_folder("experiments") / "gaimd")
    paper.items = [i for i in paper.items if i.id == "fig13-normalized"]
    result = reproduce_paper(paper, tmp_path / "g", quick=True, jobs=2)
    r = result.items[0]
    # Not judged (the paper's values are an image), but drawn: GAIMD's mean and TCP's beside it.
    assert r.verdict.verdict == CANNOT and r.x == [2, 16, 64]
    assert set(r.also) == {"TCP mean"} and len(r.also["TCP mean"]) == 3
    # Two groups of n flows each on one link: their shares of the fair rate add up to about 2
    # where the link is not overloaded with retransmissions (few flows).
    assert r.mean[0] + r.also["TCP mean"][0] == pytest.approx(2.0, rel=0.1)
    page = write_paper_report(result, tmp_path / "g").read_text()
    assert page.count("data:image/png;base64,") == 1 and "aimdlab, TCP mean" not in page  # (the legend is in the PNG)


def test_an_item_naming_a_field_its_sweep_does_not_vary_is_refused_before_anything_runs(tmp_path):
    from aimdlab.reproduce import reproduce_paper

    paper = load_paper(package_folder("experiments") / "new-aimd-utilization")
    paper.items[0].select = {**paper.items[0].select, "flows[0].cuont": 2}
    with pytest.raises(ScenarioError, match=r"items\[0\]\.select\.flows\[0\]\.cuont: 'flows\[0\]\.cuont' is not an axis of table1\.toml; "
                                             r"its axes set flows\[0\]\.count, tcp\.profile"):
        reproduce_paper(paper, tmp_path / "u", quick=True, jobs=1)
    assert not (tmp_path / "u" / "sweeps").exists()


def test_new_aimds_per_second_utilization_stays_within_a_segment_of_its_average_on_a_full_link():
    import aimdlab
    from aimdlab.papers.new_aimd import lowest_utilization_per_second_pct
    from aimdlab.scenario import loads

    sc = loads((package_folder("experiments") / "new-aimd-utilization/table1.toml").read_text())["scenario"]
    sc["duration"] = "30s"
    r = aimdlab.run(sc)
    average_pct = r.flows.to_pandas()["goodput_bps"].sum() / 5e6 * 100
    lowest = lowest_utilization_per_second_pct(r)
    # The bottleneck never idles: a second holds at most one segment (1448 B at 5 Mbit/s:
    # 0.23 % of it) less than the average second.
    assert average_pct - 0.24 < lowest <= average_pct


def test_a_verdict_that_one_seed_decides_is_called_not_stable():
    import pandas as pd
    import pyarrow as pa
    from aimdlab.reproduce import SweepItem as Item
    from aimdlab.reproduce import _check_stability, _evaluate
    from aimdlab.sweep.store import aggregate

    class ThreeSeeds:
        """A sweep of one point and three seeds (what evaluation reads of a sweep)."""

        axes, measures, experiment = ["x"], ["m"], {"quick": False}

        def __init__(self, values):
            runs = pd.DataFrame({"run_id": ["a", "b", "c"], "point": [0, 0, 0], "replication": [0, 1, 2], "seed": [1, 2, 3],
                                 "x": [1, 1, 1], "status": ["ok"] * 3, "error": [None] * 3, "engine_wall_s": [0.1] * 3, "m": values})
            self.catalog = pa.Table.from_pandas(runs, preserve_index=False)
            self.aggregate = aggregate(self.catalog, self.axes, self.measures)

    item = Item("s", "at least 0.9", "w", x="x", measure="m", claim={"kind": "at_least", "threshold": 0.9}, threshold_from="a test")
    # 1.00, 1.02, 1.04: the interval is [0.970, 1.070], above 0.9; without seed 3 it is
    # 1.01 ± 12.7 · 0.0141 / √2 = [0.883, 1.137] and without seed 2 1.02 ± 0.254, both across
    # 0.9; without seed 1, 1.03 ± 0.127 = [0.903, 1.157] stays above it.
    shaky = ThreeSeeds([1.00, 1.02, 1.04])
    res = _evaluate(item, shaky)
    _check_stability(item, res, shaky)
    assert res.verdict.verdict == "reproduced" and res.stable is False
    assert res.verdict.detail.endswith("not stable over the seeds: inconclusive without seed 2, inconclusive without seed 3")
    firm = ThreeSeeds([1.50, 1.51, 1.52])
    res = _evaluate(item, firm)
    _check_stability(item, res, firm)
    assert res.verdict.verdict == "reproduced" and res.stable is True and "not stable" not in res.verdict.detail


def test_a_transfer_behind_a_bdp_buffer_keeps_the_bottleneck_busy_until_it_completes():
    import aimdlab
    from aimdlab.papers.new_aimd import busy_until_done_pct
    from aimdlab.scenario import loads

    sc = loads((package_folder("experiments") / "new-aimd-delay/completion.toml").read_text())["scenario"]
    sc["flows"][0].update(count=1, cc="reno")
    sc["duration"] = "60s"
    r = aimdlab.run(sc)
    done_s = r.flows.to_pandas()["completion_time_s"].iloc[0]
    # 20000 KB over 5 Mbit/s with 38 + 52 bytes per 1448-byte segment: about 34 s, busy all along
    # but for slow start's first round trips.
    assert 33 < done_s < 36
    assert 97 < busy_until_done_pct(r) <= 100
    sc["flows"][0]["app"] = {"kind": "finite", "size": "1000000000KB"}  # not finished: no value
    assert math.isnan(busy_until_done_pct(aimdlab.run({**sc, "duration": "5s"})))


def test_axes_and_traces_are_named_in_words_from_the_schema_and_the_column_docs():
    from aimdlab.reproduce.words import column_words, field_words, model_words

    assert field_words("flows[0].count") == "How many flows this group makes"
    assert field_words("topology.dumbbell.bottleneck.rate") == "Transmission rate"  # the example is cut
    assert field_words("tcp.profile") == "Whose TCP to run"  # a long description cut at its colon
    assert field_words("flows[0].no_such_field") == "" and field_words("name") == "set-up"
    assert column_words("timeseries", "cwnd_pkts").endswith(", packets")
    assert model_words("aimdlab.papers.gaimd:tcp_friendly_alpha").startswith("Fig. 10: the TCP-friendly α of eq. (7)")
    # No item of any paper is left with a raw key where a reader sees the axis or the measure.
    root = find_experiments(package_folder("experiments"))
    for name in available_papers(root):
        for item in load_paper(root / name).items:
            x, group, sensitivity, measure = (getattr(item, k, None) for k in ("x", "group", "sensitivity", "measure"))  # (as its kind has them)
            for words in (item.xlabel if x else "x", item.group_label if group else "g",
                          item.sensitivity_label if sensitivity else "s", item.label if measure else "m"):
                assert words and not re.search(r"\[\d+\]|\w\.\w+_\w", words), (name, item.id, words)


def test_a_malformed_item_names_its_field_before_anything_runs(tmp_path):
    # paper_malformed_item_tracebacks.sh: tracebacks for tolerance = 1.5, scale = "x", items = true,
    # select = 0, xlabel = inf, and a KeyError 'x_mean' after the sweeps ran for an unknown measure.
    (tmp_path / "s.toml").write_text((package_folder("experiments") / "new-aimd-utilization/table1.toml").read_text())
    base = ('id = "p"\ntitle = "t"\npaper = "x.txt"\n[[items]]\nid = "a"\ntitle = "a"\nwhere = "w"\nsweep = "s.toml"\n'
            'x = "flows[0].count"\nmeasure = "jain_index"\nclaim = { kind = "at_least", threshold = 0.1 }\nthreshold_from = "t"\n')
    cases = [(base + "tolerance = 1.5\n", "items[0].tolerance: 1.5 is not a table"),
             (base + 'scale = "x"\n', "items[0].scale: 'x' is not a finite number"),
             (base + "select = 0\n", "items[0].select: 0 is not a table"),
             (base + "xlabel = inf\n", "items[0].xlabel: inf is not text"),
             (base + 'tolerance = { abs = "x" }\n', "items[0].tolerance.abs: 'x' is not a finite number >= 0"),
             (base + "published = { x = false, value = [1] }\n", "items[0].published.x: False is not a non-empty list"),
             (base + 'model = "nope:nope"\n', "items[0].sweep: is not a field of an item judged on a model"),  # (a sweep or a model, not both)
             ('id = "p"\ntitle = "t"\npaper = "x.txt"\nitems = true\n', "items: expected [[items]] tables")]
    for text, message in cases:
        (tmp_path / "paper.toml").write_text(text)
        with pytest.raises(ScenarioError) as e:
            load_paper(tmp_path)
        assert message in str(e.value) and "\n" not in str(e.value), str(e.value)
    (tmp_path / "paper.toml").write_text(base.replace('measure = "jain_index"', 'measure = "x"'))
    paper = load_paper(tmp_path)  # (checked against its sweep before any sweep runs)
    with pytest.raises(ScenarioError) as e:
        check_fields(paper, paper.items[0].sweep, ["flows[0].count"], ["jain_index"])
    assert "items[0].measure: 'x' is not a measure of s.toml; it aggregates jain_index" in str(e.value)


def test_a_scatter_figure_takes_log_axes_and_a_shaded_band_and_names_a_wrong_one():
    from aimdlab.reproduce.trace import draw_trace, parse_trace

    spec = parse_trace({"series": "timeseries", "y": "r", "x": "p", "style": "points", "log": "xy", "band": [0.8, 1.25]}, "figure")
    assert spec.log == "xy" and spec.band == (0.8, 1.25)
    assert draw_trace([("a", "", [0.01, 0.1], [1.0, 3.0]), ("b", "", [0.02], [1.1])], spec, "t").startswith("data:image/png;base64,")
    for bad, words in [({"log": "z"}, r"figure\.log: 'z' is not accepted"), ({"band": [2, 1]}, r"figure\.band: expected \[low, high\]")]:
        with pytest.raises(ScenarioError, match=words):
            parse_trace({"series": "timeseries", "y": "r", **bad}, "figure")


def test_fig12s_window_measures_count_crossings_and_the_distance_from_the_equal_window_line():
    """GAIMD Fig. 12's measures on a made-up trace: two windows that swap the lead twice, and
    keep 4 packets apart around a mean of 8 in the second half."""
    import pyarrow as pa
    from aimdlab.papers.gaimd import equal_window_crossings, equal_window_gap

    times = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    gaimd, tcp = [10, 6, 10, 10, 10, 10], [6, 10, 6, 6, 6, 6]
    run = type("Run", (), {})()
    run.flows = pa.table({"flow": [0, 1], "group_name": ["gaimd", "tcp"]})
    run.timeseries = pa.table({"time_s": times * 2, "flow": [0] * 6 + [1] * 6, "cwnd_pkts": gaimd + tcp})
    run.summary = {"warmup_s": 0.0}
    assert equal_window_crossings(run) == 2.0
    assert equal_window_gap(run) == pytest.approx(4 / 8)  # samples after 3 s: |10 - 6| over (10 + 6) / 2
