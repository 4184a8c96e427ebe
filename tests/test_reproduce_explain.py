"""`aimdlab reproduce PAPER --explain ITEM`: a paper's unstated parameters, screened one at a
time and in pairs for what would close an item's difference, stored beside the paper and shown
as the tested cause of the difference on its page."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from aimdlab import ScenarioError
from aimdlab.package_data import package_folder
from aimdlab.reproduce import ItemResult, NotJudgedItem, link_causes, load_paper
from aimdlab.reproduce.explain import Screen, Trial, item_experiment, parse_unstated, screen_words, shortfall
from aimdlab.reproduce.verdict import DIFFERS, INCONCLUSIVE, REPRODUCED, Verdict

SWEEP = """
name = "tiny"
seeds = 2
measures = ["bottleneck.utilization"]

[axes]
"flows[0].count" = [1, 2, 3]

[scenario]
name = "tiny"
duration = "20s"
warmup = "5s"
sampled_flows = "none"

[scenario.topology.dumbbell]
bottleneck = { rate = "10Mbps", delay = "20ms", queue = { kind = "droptail", limit = "3pkt" } }
access = { rate = "100Mbps", delay = "1ms", queue = { limit = "100pkt" } }

[[scenario.flows]]
name = "reno"
count = 1
cc = "reno"
"""

PAPER = """
id = "p"
title = "A paper whose link is full"
paper = "x.txt"

[[unstated]]
id = "buffer"
what = "the bottleneck's buffer"
field = "topology.dumbbell.bottleneck.queue.limit"
values = ["1pkt", "60pkt"]
why = "The paper gives none."

[[unstated]]
id = "flows"
what = "the number of flows"
field = "flows[0].count"
values = [4]
why = "The sweep's own axis: never screened."

[[items]]
id = "full"
title = "the link is full with one and two flows"
where = "§1"
sweep = "s.toml"
x = "flows[0].count"
measure = "bottleneck.utilization"
claim = { kind = "at_least", threshold = 0.97 }
threshold_from = "the paper's words"
at_x = [1, 2]
"""


@pytest.fixture
def experiments(tmp_path: Path) -> Path:
    folder = tmp_path / "exps" / "p"
    folder.mkdir(parents=True)
    (folder / "s.toml").write_text(SWEEP)
    (folder / "paper.toml").write_text(PAPER)
    return tmp_path / "exps"


def test_unstated_parameters_name_their_mistakes(tmp_path):
    (tmp_path / "s.toml").write_text(SWEEP)
    path = tmp_path / "paper.toml"
    good = {"id": "b", "what": "w", "field": "tcp.mss", "values": ["500B"], "why": "y"}
    assert parse_unstated([good], path)[0].values == ["500B"]
    for bad, words in [({**good, "colour": 1}, "unstated[0].colour: unknown field"),
                       ({**good, "values": []}, "unstated[0].values: expected a non-empty list"),
                       ({**good, "why": ""}, "unstated[0].why: is missing"),
                       ({**good, "id": "a/b"}, "unstated[0].id"),
                       ({**good, "field": "a, b", "values": [1]}, "links 2 fields"),
                       ({**good, "sweeps": ["nope.toml"]}, "'nope.toml' is not an experiment file")]:
        with pytest.raises(ScenarioError, match=words.replace("(", r"\(").replace("[", r"\[")):
            parse_unstated([bad], path)
    with pytest.raises(ScenarioError, match="two parameters share an id"):
        parse_unstated([good, good], path)


def test_the_screen_runs_only_the_items_own_points(experiments):
    item = {i.id: i for i in load_paper(experiments / "p").items}["full"]
    exp = item_experiment(item)
    assert exp.axes == {"flows[0].count": [1, 2]} and exp.seeds == [1, 2]  # at_x keeps 1 and 2 of 1-3


def test_shortfall_is_the_distance_past_the_band_in_units_of_it(experiments):
    item = {i.id: i for i in load_paper(experiments / "p").items}["full"]
    res = ItemResult(item, x=[1, 2, 3], mean=[0.97, 0.873, 0.0], verdict=Verdict(DIFFERS))
    # 0 at the threshold, (0.97 - 0.873) / 0.97 = 0.1 below it; x = 3 is not judged (at_x).
    assert shortfall(item, res) == pytest.approx(0.05)


def test_explain_finds_the_unstated_setting_that_closes_a_gap_and_the_page_shows_it(experiments, tmp_path):
    out = tmp_path / "r"
    cmd = [sys.executable, "-m", "aimdlab", "reproduce", "p", "--experiments", str(experiments), "--out", str(out), "--jobs", "2"]
    done = subprocess.run(cmd + ["--explain", "full"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "buffer = 60pkt" in done.stdout and "not screened, the sweep varies flows[0].count (an axis): the item's own points set it: flows" in done.stdout
    assert "would close the gap (buffer = 60pkt reproduces it" in done.stdout
    stored = json.loads((experiments / "p" / "explain.json").read_text())["items"]["full"]
    assert stored["as_run"]["verdict"] == DIFFERS and stored["provenance"]["command"] == "aimdlab reproduce p --explain full"
    by_value = {t["setting"]["buffer"]: t for t in stored["single"]}
    assert by_value["60pkt"]["verdict"] == REPRODUCED and by_value["60pkt"]["shortfall"] == 0
    assert by_value["1pkt"]["shortfall"] > stored["as_run"]["shortfall"] > 0
    assert stored["pairs"] == []  # one parameter moves it: no pair to try
    # The reproduction then counts the difference's cause as tested, and its page shows the screen.
    again = subprocess.run(cmd + ["--json"], capture_output=True, text=True)
    item = json.loads(again.stdout)["papers"][0]["items"][0]
    assert item["verdict"] == DIFFERS and "cause screened: the paper's unstated set-up would close the gap" in item["detail"]
    page = (out / "p" / "index.html").read_text()
    assert "What the paper leaves unstated, screened" in page and "<b>buffer = 60pkt</b>" in page
    # The screen's runs live in the reproduction's folder, which stays aimdlab's own.
    assert (out / "p" / "explain" / "full").is_dir()
    assert subprocess.run(cmd + ["--explain", "full", "-q"], capture_output=True, text=True).returncode == 0


def test_explain_refuses_what_it_cannot_screen_in_one_line(experiments, tmp_path):
    base = [sys.executable, "-m", "aimdlab", "reproduce"]
    for args, words in [(["p", "--explain", "nope"], "'nope' is not an item of p; expected one of full"),
                        (["all", "--explain", "full"], "screens one item of one paper; name the paper, not all")]:
        done = subprocess.run(base + args + ["--experiments", str(experiments), "--out", str(tmp_path / "r")], capture_output=True, text=True)
        assert done.returncode != 0 and words in done.stderr and "Traceback" not in done.stderr
    unjudged = next(i for i in load_paper(package_folder("experiments") / "gaimd").items if isinstance(i, NotJudgedItem) and not i.text_missing)
    done = subprocess.run(base + ["gaimd", "--explain", unjudged.id, "--out", str(tmp_path / "r")], capture_output=True, text=True)
    assert done.returncode != 0 and "an item nothing judges" in done.stderr


def test_a_difference_names_the_first_tested_cause_it_has(experiments):
    item = {i.id: i for i in load_paper(experiments / "p").items}["full"]

    def detail(peer=None, screen=None) -> str:
        r = ItemResult(item, x=[1], mean=[0.5], verdict=Verdict(DIFFERS, detail="d"))
        r.peer, r.screen = peer, screen
        return link_causes([r])[0].verdict.detail

    assert detail() == "d; cause not tested"
    ns2 = ItemResult(item, x=[1], mean=[0.6], verdict=Verdict(DIFFERS))
    assert detail(peer=ns2).startswith("d; cause tested: ns-2.35 on the same set-up differs from the paper too (mean 0.6)")
    none = Screen("full", Trial({}, DIFFERS, shortfall=0.5), [Trial({"buffer": "1pkt"}, DIFFERS, shortfall=0.9)], [], {}, 2, False)
    assert detail(screen=none) == "d; " + screen_words(none)
    assert "no declared unstated parameter closes the gap or moves it towards the paper (1 setting tried)" in screen_words(none)
    nearer = Screen("full", Trial({}, DIFFERS, shortfall=0.5), [Trial({"buffer": "9pkt"}, DIFFERS, shortfall=0.2)], [], {}, 2, False)
    assert "the closest, buffer = 9pkt, brings it from 0.5 to 0.2" in screen_words(nearer)
    within = Screen("full", Trial({}, DIFFERS, shortfall=0.5), [Trial({"buffer": "9pkt"}, INCONCLUSIVE, shortfall=0.0)], [], {}, 2, False)
    assert "buffer = 9pkt puts the means on the paper's side, inconclusive (the intervals reach across" in screen_words(within)
    # The peer agreeing with aimdlab comes first; a peer that reproduces the paper is no cause.
    agrees = ItemResult(item, x=[1], mean=[0.99], verdict=Verdict(REPRODUCED))
    assert detail(peer=agrees, screen=none) == "d; " + screen_words(none)
    assert Screen.from_dict(json.loads(json.dumps(nearer.to_dict()))).closest().setting == {"buffer": "9pkt"}
    # Which test it was is kept beside the words (the pages' summary and index read it).
    kinds = [link_causes([ItemResult(item, x=[1], mean=[0.5], verdict=Verdict(DIFFERS, detail="d"), peer=p, screen=sc)])[0].tested_cause
             for p, sc in [(None, None), (ns2, None), (None, none), (agrees, None)]]
    assert kinds == [None, "ns-2.35", "screen", None]
    assert math.isnan(Screen.from_dict({**none.to_dict(), "as_run": {**none.to_dict()["as_run"], "shortfall": None}}).as_run.shortfall)


def test_a_models_unstated_arguments_are_screened_without_runs(tmp_path):
    """GAIMD Fig. 10 is the paper's model: the screen calls it with each declared argument
    (a longer timeout brings eq. (7)'s α nearer the optimum), and runs nothing."""
    from aimdlab.reproduce.explain import screen_item

    screen = screen_item(load_paper(package_folder("experiments") / "gaimd"), "fig10-to-bounds-optimum", tmp_path)
    assert screen.seeds == 0 and {k for t in screen.single for k in t.setting} == {"acks_per_packet", "timeout"}
    by = {json.dumps(t.setting): t for t in screen.single}
    assert by['{"timeout": 8.0}'].shortfall < screen.as_run.shortfall < by['{"timeout": 2.0}'].shortfall
    assert "mss" in screen.skipped and not list(tmp_path.iterdir())


def test_a_values_label_is_what_the_screen_records_and_pairs_find_the_value_again(tmp_path):
    (tmp_path / "s.toml").write_text(SWEEP)
    good = {"id": "red", "what": "w", "field": "a, b", "values": [[1, 2], [3, 4]], "labels": ["one", "two"], "why": "y"}
    u = parse_unstated([good], tmp_path / "paper.toml")[0]
    assert u.label([3, 4]) == "two" and u.value_of("two") == [3, 4]
    with pytest.raises(ScenarioError, match=r"unstated\[0\]\.labels: expected a name for each of the 2 values"):
        parse_unstated([{**good, "labels": ["one"]}], tmp_path / "paper.toml")


def test_a_ratio_items_screen_runs_its_baseline_rows_too():
    """An item divided by another configuration (baseline) needs both on its points: GAIMD on
    SACK over GAIMD on Reno runs both recoveries."""
    item = {i.id: i for i in load_paper(package_folder("experiments") / "gaimd").items}["gaimd-on-sack-more-aggressive"]
    exp = item_experiment(item)
    assert sorted(set(exp.axes["flows[0].tcp.recovery"])) == ["reno", "sack"] and len(exp.axis_points()) == 12


def test_an_untested_quick_difference_says_to_judge_it_in_full_first(experiments):
    item = {i.id: i for i in load_paper(experiments / "p").items}["full"]
    r = ItemResult(item, x=[1], mean=[0.5], verdict=Verdict(DIFFERS, detail="d"))
    assert link_causes([r], quick=True)[0].verdict.detail == (
        "d; cause not tested in this quick run (fewer seeds, shorter runs): judge it without --quick first")
