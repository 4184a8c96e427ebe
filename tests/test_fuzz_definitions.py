"""The fuzz harness for what is not a scenario: paper definitions (paper.toml), experiment
files, trace files and a sweep's store under damage. Each random case ends in a completed
load or run, or in a one-line error naming its file and field (or, for a damaged store, runs
again to the same catalog) — never a traceback, hang or abort.

CI runs each test on `AIMDLAB_FUZZ_EXAMPLES` examples (default 60). A long run:

    AIMDLAB_FUZZ_EXAMPLES=5000 AIMDLAB_FUZZ_REPORT=fuzz-definitions.json \\
        python -m pytest tests/test_fuzz_definitions.py -p no:randomly

writes the tally of outcomes to the report file.
"""

from __future__ import annotations

import collections
import json
import math
import os
import re
import shutil
from pathlib import Path

import aimdlab
import pytest
from aimdlab import ScenarioError
from aimdlab.reproduce import load_paper
from aimdlab.reproduce.paper import check_fields
from aimdlab.sweep import StoreError, open_sweep, parse_experiment, run_sweep
from conftest import add_to_fuzz_report
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

EXAMPLES = int(os.environ.get("AIMDLAB_FUZZ_EXAMPLES", "60"))
TALLY: collections.Counter = collections.Counter()
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module", autouse=True)
def fuzz_report():
    yield
    add_to_fuzz_report(TALLY, EXAMPLES)


def _one_line(e: BaseException) -> str:
    text = str(e)
    assert text and "\n" not in text and "Traceback" not in text, repr(text)
    return text


# A value of any TOML type, nested a little.
_SCALARS = st.one_of(st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=False, allow_infinity=False),
                     st.text(max_size=12), st.sampled_from(["x", "flows[0].count", "jain_index", "s.toml", "at_least", "1ms", "..", ""]))
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(
    st.sampled_from(["abs", "rel", "x", "value", "kind", "threshold", "series", "y", "measure", "at_most", "at_least", "log", "label", "zz"]),
    inner, max_size=3)), max_leaves=6)

_SWEEP = """name = "s"
measures = ["jain_index", "bottleneck.utilization"]
[scenario]
duration = "0.3s"
topology = { dumbbell = { bottleneck = { rate = "5Mbps", delay = "5ms" }, access = { rate = "50Mbps", delay = "1ms" } } }
flows = [{ count = 1 }]
[axes]
"flows[0].count" = [1, 2]
"""

_ITEM = {"id": "a", "title": "a", "where": "w", "sweep": "s.toml", "x": "flows[0].count", "measure": "jain_index",
         "claim": {"kind": "at_least", "threshold": 0.1}, "threshold_from": "a test"}
_KEYS = sorted(["id", "title", "where", "sweep", "x", "measure", "scale", "label", "tolerance", "published", "claim", "cannot", "cause",
                "select", "baseline", "figure", "group", "only", "xlabel", "group_label", "sensitivity", "model", "at_x", "also", "name",
                "class", "of", "cause_tested_by", "points", "plot_x", "threshold_from"])


def _toml(value) -> str:
    """A TOML inline value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value) if not isinstance(value, float) or math.isfinite(value) else "nan"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return "{ " + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value.items()) + " }"


@pytest.fixture(scope="module")
def small_sweep(tmp_path_factory):
    """The sweep every fuzzed paper item is evaluated against (run once)."""
    folder = tmp_path_factory.mktemp("sweep")
    (folder / "s.toml").write_text(_SWEEP)
    return folder, run_sweep(aimdlab.sweep.load_experiment(folder / "s.toml"), folder / "store", jobs=1)


_NUM = st.floats(-2, 2, allow_nan=False)
_PLAUSIBLE = {
    "tolerance": st.fixed_dictionaries({}, optional={"abs": _NUM, "rel": _NUM}),
    "published": st.fixed_dictionaries({"x": st.lists(st.sampled_from([1, 2, 3]), min_size=1, max_size=3),
                                        "value": st.lists(_NUM, min_size=1, max_size=3)}),
    "claim": st.fixed_dictionaries({"kind": st.sampled_from(["at_least", "at_most", "between", "flat", "increasing", "decreasing"])},
                                   optional={"threshold": st.one_of(_NUM, st.lists(_NUM, min_size=2, max_size=2))}),
    "select": st.dictionaries(st.sampled_from(["flows[0].count", "name"]), st.sampled_from([1, 2, 3, "a"]), max_size=1),
    "baseline": st.dictionaries(st.sampled_from(["flows[0].count"]), st.sampled_from([1, 2]), max_size=1),
    "scale": _NUM, "at_x": st.lists(st.sampled_from([1, 2, 3]), max_size=3), "points": st.lists(st.sampled_from([1, 2, 3]), max_size=3),
    "plot_x": st.fixed_dictionaries({"measure": st.sampled_from(["bottleneck.utilization", "jain_index", "nope"])}, optional={"log": st.booleans()}),
    "only": st.fixed_dictionaries({"measure": st.sampled_from(["bottleneck.utilization", "nope"])}, optional={"at_most": _NUM, "at_least": _NUM}),
    "also": st.dictionaries(st.sampled_from(["u", "v"]), st.sampled_from(["bottleneck.utilization", "nope"]), max_size=2),
    "figure": st.fixed_dictionaries({"series": st.sampled_from(["timeseries", "link_timeseries", "nope"]),
                                     "y": st.sampled_from(["cwnd_pkts", "utilization", "nope"])}),
    "class": st.sampled_from(["result", "calibrated", "sensitivity", "context", "other"]),
    "x": st.sampled_from(["flows[0].count", "name", "seed"]), "group": st.sampled_from(["flows[0].count", "nope"]),
    "sensitivity": st.sampled_from(["flows[0].count", "nope"]), "measure": st.sampled_from(["jain_index", "bottleneck.utilization", "nope"]),
    "model": st.sampled_from(["aimdlab.papers.gaimd:tcp_friendly_alpha", "json:dumps", "nope:nope"]),
    "cannot": st.text(max_size=5), "of": st.sampled_from(["a", "b"]), "cause_tested_by": st.sampled_from(["a", "sensitivity"]),
}


@st.composite
def _changes(draw):
    keys = draw(st.lists(st.sampled_from(_KEYS), min_size=1, max_size=3, unique=True))
    return {k: draw(_PLAUSIBLE[k] if k in _PLAUSIBLE and draw(st.booleans()) else _VALUES) for k in keys}


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(changes=_changes(),
       drop=st.lists(st.sampled_from(sorted(_ITEM)), max_size=2))
def test_a_malformed_paper_item_is_one_line_naming_its_field(tmp_path_factory, small_sweep, changes, drop):
    from aimdlab.reproduce import evaluate

    sweep_folder, sweep = small_sweep
    folder = tmp_path_factory.mktemp("p")
    shutil.copy(sweep_folder / "s.toml", folder / "s.toml")
    item = {k: v for k, v in _ITEM.items() if k not in drop}
    item.update(changes)
    text = 'id = "p"\ntitle = "t"\npaper = "p.txt"\n[[items]]\n' + "".join(f"{json.dumps(k)} = {_toml(v)}\n" for k, v in item.items())
    (folder / "paper.toml").write_text(text)
    try:
        paper = load_paper(folder)
        for path in paper.sweeps():
            check_fields(paper, path, ["flows[0].count"], ["jain_index", "bottleneck.utilization"])
    except ScenarioError as e:
        msg = _one_line(e)
        assert msg.startswith(str(folder)), msg
        TALLY["paper: refused naming the file and field"] += 1
        return
    for item in paper.items:  # what was accepted is judged without a traceback
        try:
            evaluate(item, sweep if item.sweep is not None else None)
        except ScenarioError as e:
            _one_line(e)
            TALLY["paper: refused when judged, naming the field"] += 1
            return
    TALLY["paper: loaded and judged"] += 1


_EXPERIMENT = {"name": "e", "seeds": 2, "measures": ["jain_index"], "axes": {"flows[0].count": [1, 2]},
               "scenario": {"duration": "0.3s", "flows": [{"count": 1}],
                            "topology": {"dumbbell": {"bottleneck": {"rate": "5Mbps", "delay": "5ms"}, "access": {"rate": "50Mbps", "delay": "1ms"}}}}}
_EXPERIMENT_KEYS = ["name", "description", "scenario", "set", "combine", "seeds", "axes", "measures", "quick", "zz"]
_EXPERIMENT_PLAUSIBLE = {
    "seeds": st.one_of(st.integers(-2, 5), st.lists(st.integers(-1, 5), max_size=3)),
    "axes": st.dictionaries(st.sampled_from(["flows[0].count", "seed", "flows[0].cc", "duration", "flows[1].count", "a, b", ""]),
                            st.one_of(st.lists(_SCALARS, max_size=3), st.sampled_from(["1..3", "1ms..5ms step 1ms", "x"])), max_size=2),
    "measures": st.lists(st.sampled_from(["jain_index", "flows.goodput_bps.mean", "timeseries.cwnd_pkts.mean", "json:dumps", "nope", "a / b"]),
                         max_size=3),
    "set": st.dictionaries(st.sampled_from(["duration", "flows[0].count", "nope"]), _SCALARS, max_size=2),
    "combine": st.sampled_from(["product", "zip", "cross"]),
    "quick": st.dictionaries(st.sampled_from(["seeds", "set", "axes", "zz"]), _VALUES, max_size=2),
    "name": st.sampled_from(["ok", "../x", "/abs", "a b", "\x00"]),
}


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_malformed_experiment_is_one_line_naming_its_field(data):
    keys = data.draw(st.lists(st.sampled_from(_EXPERIMENT_KEYS), min_size=1, max_size=3, unique=True))
    exp = dict(_EXPERIMENT)
    for k in keys:
        use_plausible = k in _EXPERIMENT_PLAUSIBLE and data.draw(st.booleans())
        exp[k] = data.draw(_EXPERIMENT_PLAUSIBLE[k] if use_plausible else _VALUES)
    try:
        parse_experiment(exp, ROOT, "e", quick=data.draw(st.booleans()))
    except ScenarioError as e:
        _one_line(e)
        TALLY["experiment: refused naming the field"] += 1
        return
    TALLY["experiment: accepted"] += 1


_TRACE_LINES = st.lists(st.one_of(
    st.tuples(st.integers(0, 10**6), st.one_of(st.floats(-1, 1e6), st.sampled_from([float("nan"), float("inf")])), st.sampled_from("IPB"),
              st.integers(-5, 10**8)).map(lambda t: " ".join(map(str, t))),
    st.text(max_size=20), st.just("# comment"), st.just("")), max_size=12)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(lines=_TRACE_LINES, unit=st.sampled_from(["ms", "s"]), repeat=st.booleans(), transport=st.sampled_from(["udp", "tcp", "dccp"]))
def test_a_random_trace_file_runs_or_is_refused_naming_the_file(tmp_path_factory, lines, unit, repeat, transport):
    path = tmp_path_factory.mktemp("t") / "frames.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    sc = {"duration": "0.5s", "flows": [{"count": 1, "transport": transport,
                                          "app": {"kind": "trace", "file": str(path), "time_unit": unit, "repeat": repeat}}],
          "topology": {"dumbbell": {"bottleneck": {"rate": "10Mbps", "delay": "5ms"}, "access": {"rate": "100Mbps", "delay": "1ms"}}}}
    try:
        aimdlab.validate(sc)
    except ScenarioError as e:
        msg = _one_line(e)
        assert re.match(r"^flows\[0\]\.(app\.file|app|tcp\.mss)[.:]", msg) or msg.startswith("flows[0]"), msg
        TALLY["trace: refused naming the field"] += 1
        return
    r = aimdlab.run(sc)
    assert r.summary["duration_s"] == 0.5
    TALLY["trace: ran"] += 1


@settings(max_examples=max(10, EXAMPLES // 6), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(damage=st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(["cut", "garbage", "remove", "empty"])), min_size=1, max_size=4))
def test_a_damaged_store_resumes_to_the_same_catalog_or_says_why(tmp_path_factory, damage):
    root = tmp_path_factory.mktemp("store")
    exp = parse_experiment(dict(_EXPERIMENT), ROOT, "e")
    first = run_sweep(exp, root / "st", jobs=1).catalog.drop(["engine_wall_s"]).to_pylist()
    files = sorted(p for p in (root / "st").rglob("*") if p.is_file() and p.name != ".lock")
    for pick, how in damage:
        f = files[pick % len(files)]
        if not f.exists():
            continue
        if how == "remove":
            f.unlink()
        elif how == "empty":
            f.write_bytes(b"")
        elif how == "garbage":
            f.write_bytes(os.urandom(64))
        else:
            f.write_bytes(f.read_bytes()[: max(0, len(f.read_bytes()) // 2)])
    try:
        open_sweep(root / "st")  # a damaged catalog is rebuilt, a damaged sweep.json is one line
        TALLY["store: opened"] += 1
    except StoreError as e:
        _one_line(e)
        TALLY["store: refused to open, saying how to resume"] += 1
    again = run_sweep(exp, root / "st", jobs=1).catalog.drop(["engine_wall_s"]).to_pylist()
    assert again == first
    TALLY["store: resumed to the same catalog"] += 1
    shutil.rmtree(root, ignore_errors=True)
