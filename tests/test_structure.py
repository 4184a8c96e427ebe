"""The code's structure: no import circles between source files (Rust and Python), checked by
`tools/import_circles.py`, which is itself shown to find a circle where there is one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT / "tools" / "import_circles.py"


def _check(repo: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(TOOL), str(repo)], capture_output=True, text=True, timeout=120)


def test_the_project_has_no_import_circles():
    r = _check(ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("no import circles")


def _tree(tmp_path: Path, files: dict) -> Path:
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    for d in ("crates/aimdlab-core/src", "crates/aimdlab-py/src", "python/aimdlab"):
        (tmp_path / d).mkdir(parents=True, exist_ok=True)
    return tmp_path


def test_a_rust_circle_through_a_re_export_is_found(tmp_path):
    repo = _tree(tmp_path, {
        "crates/aimdlab-core/src/lib.rs": "pub mod a;\npub mod sim;\n",
        "crates/aimdlab-core/src/a/mod.rs": "pub mod b;\npub use b::Thing;\npub fn f() { crate::sim::run(); }\n",
        "crates/aimdlab-core/src/a/b.rs": "// crate::sim is only named in this comment\npub struct Thing;\n",
        "crates/aimdlab-core/src/sim.rs": "use crate::a::Thing;\npub fn run() {}\n",
    })
    r = _check(repo)
    assert r.returncode == 1, r.stdout
    assert "crates/aimdlab-core/src/a/mod.rs -> crates/aimdlab-core/src/sim.rs: run" in r.stdout, r.stdout
    assert "crates/aimdlab-core/src/sim.rs -> crates/aimdlab-core/src/a/mod.rs: Thing" in r.stdout, r.stdout
    assert "b.rs" not in r.stdout.split("\n")[0], r.stdout  # b.rs defines Thing but imports nothing


def test_a_rust_tree_without_circles_passes(tmp_path):
    repo = _tree(tmp_path, {
        "crates/aimdlab-core/src/lib.rs": "pub mod a;\npub mod sim;\n",
        "crates/aimdlab-core/src/a.rs": "pub struct Thing;\n#[cfg(test)]\nmod tests {\n    use crate::sim::run;\n}\n",
        "crates/aimdlab-core/src/sim.rs": "use crate::a::Thing;\npub fn run() { let s = \"crate::a::Thing\"; }\n",
    })
    r = _check(repo)
    assert r.returncode == 0, r.stdout


def test_engine_modules_that_use_each_other_are_listed_and_test_modules_are_not_counted(tmp_path):
    repo = _tree(tmp_path, {
        "crates/aimdlab-core/src/lib.rs": "pub mod net;\npub mod scenario;\npub mod cc;\n",
        "crates/aimdlab-core/src/net/mod.rs": "pub mod queue;\n",
        "crates/aimdlab-core/src/net/queue.rs": "use crate::scenario::quantity::Size;\npub struct Q(Size);\n",
        "crates/aimdlab-core/src/scenario/mod.rs": "pub mod quantity;\npub mod compile;\n",
        "crates/aimdlab-core/src/scenario/quantity.rs": "pub struct Size;\n",
        "crates/aimdlab-core/src/scenario/compile.rs": "use crate::net::queue::Q;\npub fn c(_: Q) {}\n",
        "crates/aimdlab-core/src/cc/mod.rs": "#[cfg(test)]\nmod testing;\npub struct W;\n",
        "crates/aimdlab-core/src/cc/testing.rs": "use crate::net::queue::Q;\n",
    })
    r = subprocess.run([sys.executable, str(TOOL), "--folders", str(repo)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "net <-> scenario: net/queue.rs | scenario/compile.rs" in r.stdout, r.stdout
    assert "1 pairs" in r.stdout and "cc" not in r.stdout, r.stdout


def test_the_engine_has_one_pair_of_modules_that_use_each_other():
    # flow <-> scenario: the memory estimate (scenario/memory.rs) reads size_of::<Flow>() before
    # any flow exists, and a flow is made from its plan. Every other pair is gone (10 at 48b0fe7).
    r = subprocess.run([sys.executable, str(TOOL), "--folders", str(ROOT)], capture_output=True, text=True, timeout=120)
    assert r.stdout.splitlines()[-1] == "1 pairs of engine modules use each other", r.stdout
    assert r.stdout.startswith("flow <-> scenario: flow/mod.rs | scenario/memory.rs"), r.stdout


def test_a_python_circle_is_found(tmp_path):
    repo = _tree(tmp_path, {
        "python/aimdlab/__init__.py": "from .x import f\n",
        "python/aimdlab/x.py": "def f():\n    from .y import g\n    return g()\n",
        "python/aimdlab/y.py": "from aimdlab import x\n\ndef g():\n    return 1\n",
    })
    r = _check(repo)
    assert r.returncode == 1, r.stdout
    assert "python/aimdlab/x.py -> python/aimdlab/y.py: g" in r.stdout, r.stdout
    assert "python/aimdlab/y.py -> python/aimdlab/x.py: x" in r.stdout, r.stdout


def test_a_parent_that_uses_what_it_re_exports_from_a_child_that_uses_the_parent_is_a_circle(tmp_path):
    repo = _tree(tmp_path, {
        "crates/aimdlab-core/src/lib.rs": "pub mod q;\n",
        "crates/aimdlab-core/src/q/mod.rs": "pub mod red;\npub use red::Red;\npub struct Log;\npub enum Queue { Red(Red) }\n",
        "crates/aimdlab-core/src/q/red.rs": "use super::Log;\npub struct Red(Log);\n",
    })
    r = _check(repo)
    assert r.returncode == 1, r.stdout
    assert "crates/aimdlab-core/src/q/mod.rs -> crates/aimdlab-core/src/q/red.rs: Red" in r.stdout, r.stdout
    assert "crates/aimdlab-core/src/q/red.rs -> crates/aimdlab-core/src/q/mod.rs: Log" in r.stdout, r.stdout


def test_every_result_column_is_declared_with_a_description():
    import aimdlab
    from aimdlab import _core
    from conftest import dumbbell

    r = aimdlab.run({**dumbbell(duration="1s"), "cwnd_trace": [0]})
    declared = _core.columns()
    assert r.cwnd_trace.num_rows > 0
    for table in ("flows", "links", "timeseries", "link_timeseries", "cwnd_trace"):
        names = getattr(r, table).column_names
        assert [c[1] for c in declared if c[0] == table] == list(names), table
    assert all(doc for _, _, _, doc, _, _ in declared)


def _numbers(d, prefix=""):
    """The numeric leaves of a summary, `a.b` for nested ones."""
    for k, v in d.items():
        if isinstance(v, dict):
            yield from _numbers(v, f"{prefix}{k}.")
        elif isinstance(v, (int, float)) and not isinstance(v, bool) or v is None:
            yield f"{prefix}{k}"


def test_every_number_of_the_summary_is_declared_with_its_unit_and_range():
    import aimdlab
    from aimdlab import _core
    from conftest import dumbbell

    r = aimdlab.run(dumbbell(duration="1s"))
    declared = {c[1]: c for c in _core.columns() if c[0] == "summary"}
    assert sorted(_numbers(r.summary)) == sorted(declared)
    assert declared["jain_index"][2:] == ("1", "Jain's fairness index of the flows' goodput_bps", 0.0, 1.0)
    assert declared["bottleneck.utilization"][4:] == (0.0, 1.0)
    assert declared["goodput_total_bps"][2] == "bit/s" and declared["goodput_total_bps"][4:] == (0.0, float("inf"))
