"""Writes the documentation site's reference pages from the code, so that they cannot drift from
it: every scenario field from the engine's JSON Schema (its type, default and description),
every result column from the engine's column registry, every command from the CLI.

    python tools/docs_reference.py          # writes docs/reference/{scenario,columns,cli,components,paper-toml}.md
    python tools/docs_reference.py --check  # exits 1 if a page differs from what the code gives

(`tests/test_docs.py` runs the check.)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT / "docs" / "reference"
HEADER = "<!-- Written by tools/docs_reference.py from the code: edit the code, then run it. -->\n\n"


def _cell(text: Any) -> str:
    """Text for a Markdown table cell: one line, pipes escaped."""
    return " ".join(str(text).split()).replace("|", "\\|")


def _type_of(spec: Dict[str, Any]) -> str:
    """A field's type in words: its JSON type, the definition it refers to, or its choices."""
    if "$ref" in spec:
        name = spec["$ref"].split("/")[-1]
        return f"[{name}](#{name.lower()})"
    if "enum" in spec:
        return " \\| ".join(f"`{json.dumps(v)}`" for v in spec["enum"])
    if "const" in spec:
        return f"`{json.dumps(spec['const'])}`"
    for key in ("anyOf", "oneOf", "allOf"):
        if key in spec:
            kinds = [_type_of(s) for s in spec[key] if s.get("type") != "null"]
            return " or ".join(dict.fromkeys(k for k in kinds if k)) or "null"
    kind = spec.get("type")
    if isinstance(kind, list):
        kind = " or ".join(k for k in kind if k != "null")
    if kind == "array":
        return f"list of {_type_of(spec.get('items', {})) or 'values'}"
    return str(kind or "")


SCENARIO_ORDER = ["name", "description", "duration", "warmup", "seed", "topology", "flows", "tcp",
                  "sample_interval", "sampled_flows", "cwnd_trace", "pcap", "max_memory"]
"""The top-level fields in the order a reader looks for them: what the run is, the network and
its flows, then what is recorded."""


def _default_of(name: str, field: Dict[str, Any], required: set) -> str:
    """The default column: the schema's default, else the one the description states
    ("Default `"100ms"`."), "required", or "—" (absent unless given)."""
    given = field.get("default")
    if given is not None:
        return f"`{json.dumps(given)}`"
    if name in required:
        return "required"
    text = field.get("description", "")
    said = re.search(r"\bDefault(?:s to|:)?\s+(`[^`]+`|[-+\d.∞]+(?: %)?|true\b|false\b)", text)
    if said:
        value = said.group(1).rstrip(".")
        return value if value.startswith("`") else f"`{value}`"
    at = min((i for i in (text.find("(default)"), text.find("the default")) if i >= 0), default=-1)
    before = re.findall(r"`[^`]+`", text[:at]) if at >= 0 else []
    if before:  # ('`"sack"` (RFC 6675, the default)': the value named last before it)
        return before[-1]
    if re.search(r"\bRequired\b", text):
        return "required"
    return "—"


def _fields_table(spec: Dict[str, Any], order: Optional[List[str]] = None) -> List[str]:
    """A table of an object's fields: required ones first, then the others by name (or in
    `order`), with the default each takes."""
    props = spec.get("properties", {})
    if not props:
        return []
    required = set(spec.get("required", []))
    rank = {n: i for i, n in enumerate(order or [])}
    names = sorted(props, key=lambda n: (rank.get(n, len(rank)), n not in required, n))
    lines = ["| field | type | default | what it is |", "|---|---|---|---|"]
    for name in names:
        field = props[name]
        lines.append(f"| `{name}` | {_cell(_type_of(field))} | {_cell(_default_of(name, field, required))} | {_cell(field.get('description', ''))} |")
    return lines


def scenario_page() -> str:
    """Every field of a scenario file, from `aimdlab._core.schema()`."""
    from aimdlab import _core

    schema = json.loads(_core.schema())
    out = [HEADER + "# Scenario files", "",
           "A scenario is a TOML file (or a dict in Python); the engine checks it against this schema and "
           "names the field, the value and what is accepted when something is wrong. Sizes, rates and times are "
           "text with a unit: `\"5Mbps\"`, `\"30ms\"`, `\"100pkt\"`, `\"20000KB\"`. "
           "`aimdlab schema` prints the JSON Schema itself.", "",
           "## The scenario", "", _cell(schema.get("description", "")), "", *_fields_table(schema, SCENARIO_ORDER), ""]
    for name, spec in sorted(schema.get("definitions", {}).items()):
        out += [f"## {name}", ""]
        if spec.get("description"):
            out += [_cell(spec["description"]), ""]
        table = _fields_table(spec)
        if table:
            out += [*table, ""]
        elif "enum" in spec or "oneOf" in spec or "anyOf" in spec:
            choices = spec.get("oneOf") or spec.get("anyOf") or []
            if "enum" in spec:
                out += [f"One of {_type_of(spec)}.", ""]
            for choice in choices:
                what = _type_of(choice) or ", ".join(f"`{k}`" for k in choice.get("properties", {}))
                out += [f"- {what}" + (f": {_cell(choice['description'])}" if choice.get("description") else ""), ""]
                out += [*_fields_table(choice), ""] if choice.get("properties") else []
        elif spec.get("type"):
            out += [f"A {_type_of(spec)}.", ""]
    return "\n".join(out).rstrip() + "\n"


def columns_page() -> str:
    """Every column of the result tables and every number of the summary, from
    `aimdlab._core.columns()`."""
    from aimdlab import _core
    from aimdlab.cli.info import _range

    out = [HEADER + "# Result columns", "",
           "What each column of a run's tables and each number of its summary means, with its unit and the values it "
           "can take (`aimdlab columns` prints the same; a sweep clips its confidence intervals to the range). "
           "`Result.flows`, `.links`, `.timeseries`, `.link_timeseries` and `.cwnd_trace` are Arrow tables; "
           "a run's folder holds them as Parquet files of the same names, and `summary.json` the summary "
           "(`bottleneck.utilization` is its `bottleneck` table's `utilization`).", ""]
    table = None
    for t, name, unit, doc, low, high in _core.columns():
        if t != table:
            out += ["", f"## {t}", "", "| column | unit | range | what it is |", "|---|---|---|---|"]
            table = t
        out.append(f"| `{name}` | {_cell(unit)} | {_cell(_range(low, high))} | {_cell(doc)} |")
    return "\n".join(out).rstrip() + "\n"


def cli_page() -> str:
    """Every command: its usage, what it does, its options and its examples, from the click
    commands themselves (not click's help text, whose spacing changes between its versions)."""
    import inspect

    import click
    from aimdlab.cli import main

    out = [HEADER + "# The `aimdlab` command", "",
           "Every command, its options and examples, as `aimdlab COMMAND --help` gives them.", ""]

    def walk(command: click.Command, path: List[str]) -> None:
        with click.Context(command, info_name=" ".join(path)) as ctx:
            usage = " ".join([*path, *command.collect_usage_pieces(ctx)])
        out.extend([f"## {' '.join(path)}", "", "```text", usage, "```", ""])
        if command.help:
            text, _, examples = inspect.cleandoc(command.help).replace("\b\n", "").partition("Examples:")
            out.extend([text.strip(), ""])
            if examples.strip():
                out.extend(["```text", "Examples:" + examples.rstrip(), "```", ""])
        options = [p for p in command.params if isinstance(p, click.Option) and not p.hidden]
        if options:
            out.extend(["| option | what it does |", "|---|---|"])
            for opt in options:
                value = "" if opt.is_flag or opt.count else f" {opt.metavar or opt.type.name.upper()}"
                names = ", ".join(f"`{n}{value}`" for n in opt.opts) + "".join(f", `{n}`" for n in opt.secondary_opts)
                extra = f" (default: `{opt.default}`)" if opt.show_default and opt.default not in (None, False) else ""
                out.append(f"| {names} | {_cell((opt.help or '') + extra)} |")
            out.append("")
        if command.epilog:
            out.extend(["```text", inspect.cleandoc(command.epilog).replace("\b\n", "").strip(), "```", ""])
        if isinstance(command, click.Group):
            for name in sorted(command.commands):
                walk(command.commands[name], [*path, name])

    walk(main, ["aimdlab"])
    return "\n".join(out).rstrip() + "\n"


#: The folders of the engine whose files are one component each, and the files that are not.
COMPONENTS = [("Congestion controllers", "cc", {"congestion_control", "hystart", "testing", "rate_control", "rtt_round", "window", "congestion_event", "ca_phase", "rate_sample"}),
              ("Queue disciplines", "net/queue", {"discipline", "fifo", "log"}),
              ("Applications (traffic sources)", "app", {"source"})]
PLUMBING = {"mod", "params", "registry", "spec"}


def _module_doc(path: Path) -> str:
    """A Rust file's leading `//!` comment as Markdown: its paragraphs and its lists."""
    blocks: List[List[str]] = [[]]
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("//!"):
            break
        text = line[3:].strip()
        if not text:
            blocks.append([])
        elif text.startswith("- ") or not blocks[-1]:
            if text.startswith("- ") and blocks[-1] and not blocks[-1][0].startswith("- "):
                blocks.append([])  # a list after a paragraph starts a block of its own
            blocks[-1].append(text)
        else:
            blocks[-1][-1] += " " + text
    return "\n\n".join("\n".join(block) for block in blocks if block)


def components_page() -> str:
    """Each controller, queue discipline and traffic source with the paper or RFC it follows,
    from the doc comment at the top of its file in the engine."""
    src = ROOT / "crates" / "aimdlab-core" / "src"
    out = [HEADER + "# Controllers, queues and sources", "",
           "Each is one file of the engine, which names the paper or RFC it follows at its top; this page is "
           "those comments. Their parameters are in [scenario files](scenario.md).", ""]
    for title, folder, helpers in COMPONENTS:
        out += [f"## {title}", ""]
        # One file each, or a folder whose mod.rs carries the comment (BBR).
        files = {p.stem: p for p in (src / folder).glob("*.rs")}
        files.update({p.parent.name: p for p in (src / folder).glob("*/mod.rs")})
        for name, path in sorted(files.items()):
            if name in PLUMBING or name in helpers:
                continue
            out += [f"### `{name}`", "", f"`{path.relative_to(ROOT).as_posix()}`", "", _module_doc(path), ""]
    return "\n".join(out).rstrip() + "\n"


def _field_docs(path: Path, cls: str) -> Dict[str, str]:
    """A dataclass's fields and the docstring under each (`field: type` then `\"\"\"...\"\"\"`)."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
    docs: Dict[str, str] = {}
    body = node.body
    for k, stmt in enumerate(body):
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            after = body[k + 1] if k + 1 < len(body) else None
            if isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant) and isinstance(after.value.value, str):
                docs[stmt.target.id] = " ".join(after.value.value.split())
            else:
                docs[stmt.target.id] = ""
    return docs


_PAPER_EXTRA = {"axis_labels": ("a table", 'The axes in words for every item that gives none: `{ "flows[0].count" = "flows" }`.'),
                "unstated": ("[[unstated]] tables", "The parameters of the set-up the paper does not give (below).")}
"""Top-level keys of paper.toml that are not a field of `Paper` as such."""
def paper_page() -> str:
    """The paper.toml format: its top-level keys, an item's keys with their types and meaning,
    the claims and the unstated parameters, from the code that reads them."""
    from aimdlab.reproduce import paper as paper_module
    from aimdlab.reproduce.verdict import check_claim

    folder = ROOT / "python" / "aimdlab" / "reproduce"
    paper_docs = _field_docs(folder / "paper.py", "Paper")
    unstated_docs = _field_docs(folder / "unstated.py", "Unstated")
    out = [HEADER + "# Paper definitions (paper.toml)", "",
           "A paper's reproduction is data: `experiments/<paper>/paper.toml` lists every figure, table and claim of the paper, "
           "the sweep that reproduces it, the published numbers and what counts as reproduced — or why it cannot be. "
           "`aimdlab reproduce PAPER` reads it; an unknown key or a wrong type is one line naming the file and the field. "
           "The module `aimdlab/reproduce/paper.py` has worked examples.", "", "## Top level", "",
           "| key | what it is |", "|---|---|"]
    for key in sorted(paper_module._PAPER_KEYS):
        if key in _PAPER_EXTRA:
            out.append(f"| `{key}` | {_cell(_PAPER_EXTRA[key][1])} |")
        else:
            out.append(f"| `{key}` | {_cell(paper_docs.get(key, ''))} |")
    from aimdlab.reproduce import items as items_module

    out += ["", "## Items (`[[items]]`)", "", " ".join((items_module.__doc__ or "").strip().split("\n\n")[-1].split()), ""]
    for kind in items_module.ITEM_KINDS:
        docs: Dict[str, str] = {}
        for cls in reversed(kind.__mro__):  # (a field's doc where it is declared last)
            if cls.__module__ == items_module.__name__:
                docs.update({k: v for k, v in _field_docs(folder / "items.py", cls.__name__).items() if v})
        out += [f"### {kind.KIND_WORDS[0].upper()}{kind.KIND_WORDS[1:]} (`{kind.__name__}`)", "",
                " ".join((kind.__doc__ or "").split()), "", "| key | type | what it is |", "|---|---|---|"]
        for key, (name, _, words) in sorted(items_module.toml_keys(kind).items()):
            out.append(f"| `{key}` | {_cell(words)} | {_cell(docs.get(name, ''))} |")
        out.append("")
    out += ["", "## Claims", "", f"`claim.kind` is one of {', '.join(f'`{k}`' for k in paper_module.CLAIM_KINDS)}.", "",
            " ".join((check_claim.__doc__ or "").split()), "",
            "## Unstated parameters (`[[unstated]]`)", "",
            "What `aimdlab reproduce PAPER --explain ITEM` screens ([how-to](../how-to/explain.md)).", "",
            "| key | what it is |", "|---|---|"]
    for key, doc in unstated_docs.items():
        out.append(f"| `{key}` | {_cell(doc)} |")
    return "\n".join(out).rstrip() + "\n"


def pages() -> Dict[str, str]:
    """Each reference page's file name and text."""
    return {"scenario.md": scenario_page(), "columns.md": columns_page(), "cli.md": cli_page(), "components.md": components_page(),
            "paper-toml.md": paper_page()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="compare the pages with the code instead of writing them")
    args = ap.parse_args()
    stale = []
    for name, text in pages().items():
        path = PAGES / name
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(str(path.relative_to(ROOT)))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if stale:
        sys.exit(f"out of date with the code: {', '.join(stale)}; run python tools/docs_reference.py")


if __name__ == "__main__":
    main()
