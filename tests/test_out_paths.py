"""No spelling of an output path reaches a user's files.

Every command that writes takes its path through `aimdlab.out_path.resolve_out` first. Here a
tree of a user's files (a folder with a thesis, notes, a folder of edited examples, a home page,
symlinks to each, a dangling symlink) meets generated spellings — `..`, `.`, missing folders,
symlinks, trailing slashes, absolute and relative — for each writing command. Whatever a command
does (refuse, or write somewhere new or of its own), every file of the user's comes out with its
bytes, every symlink with its target, and no hidden partial folder is left behind.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Dict, Tuple

import aimdlab
import pytest
from aimdlab.errors import CopyError, OutputError, ReportError
from aimdlab.sweep import StoreError, parse_experiment
from conftest import dumbbell
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

NAMES = ["victim", "notes.txt", "proj", "site", "results", "link_victim", "link_notes", "link_site", "dangling",
         "missing", "missing2", "new", ".", ".."]

SPELLINGS = st.tuples(
    st.lists(st.sampled_from(NAMES), min_size=1, max_size=4),
    st.booleans(),  # absolute
    st.booleans(),  # a trailing slash
)

EXPERIMENT = {"scenario": {"duration": "0.2s", "topology": {"dumbbell": {"bottleneck": {"rate": "5Mbps", "delay": "5ms"},
                                                                          "access": {"rate": "50Mbps", "delay": "1ms"}}},
                           "flows": [{"count": 1}]},
              "axes": {"flows[0].count": [1]}}


@pytest.fixture(scope="module")
def a_result():
    return aimdlab.run(dumbbell(duration="0.5s"))


def _user_tree(base: Path, result) -> Path:
    """A user's folder `base/home` (the current folder in the trials) and what it holds."""
    home = base / "home"
    (home / "victim").mkdir(parents=True)
    (home / "victim" / "thesis.tex").write_text("years of work")
    (home / "notes.txt").write_text("my notes")
    (home / "proj").mkdir()
    (home / "proj" / "utilization.toml").write_text("# my own edits")
    (home / "site").mkdir()
    (home / "site" / "index.html").write_text("<h1>my homepage</h1>")
    result.save(home / "results")  # a folder of aimdlab's own: may be replaced
    (home / "link_victim").symlink_to(home / "victim")
    (home / "link_notes").symlink_to(home / "notes.txt")
    (home / "link_site").symlink_to("site")
    (home / "dangling").symlink_to(base / "outside.toml")
    return home


def _snapshot(base: Path) -> Dict[str, Tuple[str, str]]:
    """Every file and symlink under `base` except aimdlab's results folder: its bytes or target."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(base):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            rel = str(p.relative_to(base))
            if p.is_symlink():
                out[rel] = ("link", os.readlink(p))
            elif p.is_file() and not rel.startswith("home/results"):
                out[rel] = ("file", p.read_text(errors="replace"))
    return out


def _spell(home: Path, parts, absolute: bool, slash: bool) -> str:
    text = "/".join(parts) + ("/" if slash else "")
    return str(home / text) if absolute else text


def _debris(base: Path):
    return [str(p) for p in base.rglob(".*partial*")] + [str(p) for p in base.rglob(".*.old-*")]


def _trial(a_result, spelling, write) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp).resolve()
        home = _user_tree(base, a_result)
        out = _spell(home, *spelling)
        target = Path(os.path.realpath(os.path.join(home, out)))
        if base not in target.parents:
            return  # (`../..` leaves the trial's folder: not a place to write in a test)
        before = _snapshot(base)
        cwd = os.getcwd()
        os.chdir(home)
        try:
            write(out, home)
        except (OutputError, CopyError, ReportError, StoreError):
            pass  # refused, one line: fine
        finally:
            os.chdir(cwd)
        after = _snapshot(base)
        changed = {k: (v, after.get(k)) for k, v in before.items() if after.get(k) != v}
        assert not changed, f"{out!r}: the user's files changed: {changed}"
        assert not (base / "outside.toml").exists(), f"{out!r}: written through the dangling symlink"
        assert _debris(base) == [], f"{out!r}: left {_debris(base)}"


TRIALS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@TRIALS
@given(SPELLINGS)
def test_run_out_never_touches_user_files(a_result, spelling):
    _trial(a_result, spelling, lambda out, home: a_result.save(out))


@TRIALS
@given(SPELLINGS)
def test_report_out_never_touches_user_files(a_result, spelling):
    from aimdlab.sweep.report import write_report

    _trial(a_result, spelling, lambda out, home: write_report(home / "results", out, run_figures=False))


@TRIALS
@given(SPELLINGS)
def test_examples_copy_never_touches_user_files(a_result, spelling):
    from aimdlab.package_data import copy_examples

    _trial(a_result, spelling, lambda out, home: copy_examples(out))


@TRIALS
@given(SPELLINGS)
def test_sweep_out_never_touches_user_files(a_result, spelling):
    from aimdlab.sweep import Store, engine_version

    def write(out, home):
        store = Store.prepare(out, parse_experiment(dict(EXPERIMENT), home, "small"), engine_version())
        store.release()

    _trial(a_result, spelling, write)


@TRIALS
@given(SPELLINGS)
def test_reproduce_out_never_touches_user_files(a_result, spelling):
    from aimdlab.cli.reproduce import _reproduction_folder
    from aimdlab.html_parts import page
    from aimdlab.result import write_atomic

    def write(out, home):
        folder = _reproduction_folder(Path(out), ["p"])
        (folder / "p" / "sweeps").mkdir(parents=True, exist_ok=True)  # what a reproduction writes
        write_atomic(folder / "p" / "index.html", page("p", "", "reproduce").encode())
        write_atomic(folder / "index.html", page("reproductions", "", "reproduce").encode())

    _trial(a_result, spelling, write)


def test_the_guard_resolves_before_it_checks(tmp_path, monkeypatch):
    # out_dotdot_missing_parent_bypasses_guard.sh: `missing/../victim` was checked as a path that
    # did not exist, then written as victim.
    from aimdlab.out_path import resolve_out

    monkeypatch.chdir(tmp_path)
    (tmp_path / "victim").mkdir()
    assert resolve_out("missing/../victim") == tmp_path / "victim"
    assert resolve_out("missing/../victim/") == tmp_path / "victim"
    (tmp_path / "link").symlink_to("victim")
    assert resolve_out("link") == tmp_path / "victim"
    for spelled in ("", ".", "missing/..", "victim/../.", os.path.expanduser("~"), "/"):
        with pytest.raises(OutputError):
            resolve_out(spelled)
