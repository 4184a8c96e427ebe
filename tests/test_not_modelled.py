"""The page of what aimdlab does not model (docs/explanation/not-modelled.md) stays complete and
true: every source file whose header says "not modelled" is cited there, what a field would
switch on is absent from the scenario schema, and the README names every controller."""

from __future__ import annotations

import re
from pathlib import Path

from aimdlab import _core

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "explanation" / "not-modelled.md"


def _header(path: Path) -> str:
    """A Rust file's module doc (its leading `//!` lines)."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("//!"):
            break
        lines.append(line[3:])
    return " ".join(lines)


def test_every_source_file_that_says_what_it_does_not_model_is_on_the_page():
    page = PAGE.read_text(encoding="utf-8")
    saying = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "crates" / "aimdlab-core" / "src").rglob("*.rs")
                    if re.search(r"not modell?ed", _header(p), re.IGNORECASE))
    assert saying, "the headers say nothing is left out: the search is broken"
    missing = [p for p in saying if f"`{p}`" not in page]
    assert not missing, f"not-modelled.md does not cite {missing}"
    cited = re.findall(r"`(crates/[^`]+\.rs)`", page)
    assert all((ROOT / c).is_file() for c in cited), [c for c in cited if not (ROOT / c).is_file()]


def test_what_the_page_says_is_left_out_has_no_field_to_switch_it_on():
    import json

    import aimdlab

    fields = set(re.findall(r'"([a-z_0-9]+)"\s*:', json.dumps(aimdlab.schema())))
    assert {"delayed_ack", "receive_window", "send_jitter"} <= fields, "the schema search is broken"
    for left_out in ("frto", "dsack", "window_scaling", "ecmp", "tso", "handshake"):
        assert left_out not in fields, f"the schema has {left_out!r}: not-modelled.md says aimdlab leaves it out"


def test_the_readme_names_every_controller():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    bullet = readme[readme.index("- **Controllers** (`cc`)"):]
    bullet = bullet[:bullet.index("\n- **")]
    named = set(re.findall(r"`([a-z_0-9]+)`", bullet))
    assert set(_core.controllers()) <= named, sorted(set(_core.controllers()) - named)
