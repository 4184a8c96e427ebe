"""Finds import circles between the project's source files (Rust crates and the Python
package) and exits 1 when there is one, printing each circle and the names that tie it.

Usage: python tools/import_circles.py [REPO]
       python tools/import_circles.py --folders [REPO]

`--folders` lists instead the pairs of the engine's top-level modules (`crates/aimdlab-core/src`
folders and files) that use each other, with the files that tie each side: a report, not a
check (exit 0).

A file depends on another when it uses a name defined there: `use` declarations and inline
`crate::`/`super::`/`self::` paths (or paths through a name it imported) in Rust, `import`
statements in Python. A name taken through a re-export (`pub use`) ties the file to both the
re-exporting file and the one defining the name; a re-export is an edge only where the file's
own code uses the name; `mod` declarations are not edges; comments, strings, each file's
trailing `#[cfg(test)]` module and the files of modules declared under `#[cfg(test)]` are
ignored (test code may reach anywhere).
"""

from __future__ import annotations

import ast
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

Edges = Dict[str, Dict[str, Set[str]]]  # file -> file -> names


# ---------------------------------------------------------------- Rust

def _strip_rust(text: str) -> str:
    """Removes comments, string and char literals, and the trailing test module."""
    m = re.search(r"^#\[cfg\(test\)\]\s*\n\s*(pub\s+)?mod\s+\w+\s*\{", text, re.M)
    if m:
        text = text[: m.start()]
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c == '"' or (c == "r" and re.match(r'r#*"', text[i:i + 8]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_"))):
            if c == "r":
                hashes = re.match(r"r(#*)\"", text[i:]).group(1)
                end = text.find('"' + hashes, i + 2 + len(hashes))
                i = n if end < 0 else end + 1 + len(hashes)
            else:
                j = i + 1
                while j < n and text[j] != '"':
                    j += 2 if text[j] == "\\" else 1
                i = j + 1
            out.append('""')
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", text[i:i + 4] if text[i + 1:i + 2] != "\\" else text[i:i + 12]):
            m2 = re.match(r"'(\\[^']*|[^\\'])'", text[i:])
            i += len(m2.group(0)) if m2 else 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _expand_use_tree(tree: str) -> List[str]:
    """`a::{b, c::{d, e as f}}` -> ["a::b", "a::c::d", "a::c::e"]."""
    tree = re.sub(r"\s+", "", tree)
    depth, start, parts = 0, 0, []
    brace = tree.find("{")
    if brace < 0:
        return [re.sub(r"as\w+$", "", tree.split(" as ")[0])] if tree else []
    prefix, inner = tree[:brace], tree[brace + 1: tree.rfind("}")]
    for i, ch in enumerate(inner):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(inner[start:i])
            start = i + 1
    parts.append(inner[start:])
    out = []
    for p in parts:
        if not p:
            continue
        for e in _expand_use_tree(p):
            out.append(prefix + e if e != "self" else prefix.rstrip(":"))
    return out


class RustCrate:
    def __init__(self, src: Path, repo: Path, crate_names: Tuple[str, ...]):
        self.src, self.repo, self.crate_names = src, repo, crate_names
        self.modules: Dict[Tuple[str, ...], Path] = {}
        for f in sorted(src.rglob("*.rs")):
            rel = f.relative_to(src).with_suffix("").parts
            if rel in (("lib",), ("main",)):
                mod: Tuple[str, ...] = ()
            elif rel[-1] == "mod":
                mod = rel[:-1]
            else:
                mod = rel
            self.modules[mod] = f
        # A module declared under `#[cfg(test)]` (`mod tests;`, `mod testing;`) is test code, in
        # a file of its own: left out like a file's trailing test module.
        test_only = {m + (name,) for m, f in self.modules.items()
                     for name in re.findall(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", f.read_text())}
        self.modules = {m: f for m, f in self.modules.items() if not any(m[:len(t)] == t for t in test_only)}
        self.code = {m: _strip_rust(f.read_text()) for m, f in self.modules.items()}
        self.reexports: Dict[Tuple[str, ...], Dict[str, Tuple[str, ...]]] = {}
        self.uses: Dict[Tuple[str, ...], List[Tuple[Tuple[str, ...], bool]]] = {}
        for m, code in self.code.items():
            re_map: Dict[str, Tuple[str, ...]] = {}
            uses = []
            for um in re.finditer(r"(^|[;{}\s])(pub(\([^)]*\))?\s+)?use\s+([^;]+);", code):
                is_pub = bool(um.group(2))
                for p in _expand_use_tree(um.group(4)):
                    path = self._absolute(m, p.split("::"))
                    if path is None:
                        continue
                    uses.append((path, is_pub))
                    if is_pub and path:
                        re_map[path[-1]] = path
            self.reexports[m] = re_map
            self.uses[m] = uses

    def _absolute(self, here: Tuple[str, ...], segs: List[str]) -> Optional[Tuple[str, ...]]:
        segs = [s for s in segs if s]
        if not segs:
            return None
        head = segs[0]
        if head in ("crate", "$crate") or head in self.crate_names:
            return tuple(segs[1:])
        if head == "self":
            return here + tuple(segs[1:])
        if head == "super":
            base = list(here)
            while segs and segs[0] == "super":
                base = base[:-1]
                segs = segs[1:]
            return tuple(base) + tuple(segs)
        if here + (head,) in self.modules:  # a child module used without `self::`
            return here + tuple(segs)
        return None  # std, external crates, local names

    def files_of(self, path: Tuple[str, ...], seen: int = 0) -> List[Tuple[Path, str]]:
        """The file named by `path` and, through its re-exports, the file defining the name."""
        for k in range(len(path), -1, -1):
            mod = path[:k]
            if mod in self.modules:
                rest = path[k:]
                found = [(self.modules[mod], rest[0] if rest else path[-1] if path else "crate")]
                if rest and seen < 8 and rest[0] in self.reexports.get(mod, {}):
                    target = self.reexports[mod][rest[0]] + rest[1:]
                    if target != path:
                        found += self.files_of(target, seen + 1)
                return found
        return []

    def edges(self, edges: Edges, extra: Optional["RustCrate"] = None) -> None:
        for m, code in self.code.items():
            here = self.modules[m]
            targets: List[Tuple[Tuple[str, ...], "RustCrate"]] = []
            aliases: Dict[str, Tuple[str, ...]] = {}
            for path, is_pub in self.uses[m]:
                if path:
                    aliases[path[-1]] = path
                if not is_pub:
                    targets.append((path, self))
            # A name a re-export brings in counts where the file's own code uses it.
            body = re.sub(r"(^|[;{}\s])(pub(\([^)]*\))?\s+)?use\s+[^;]+;", " ", code)
            used = set(re.findall(r"\b[A-Za-z_]\w*\b", body))
            for path, is_pub in self.uses[m]:
                if is_pub and path and path[-1] in used:
                    targets.append((path, self))
            for pm in re.finditer(r"(?<![\w:])((?:\$?crate|super|self|[a-z_][a-z0-9_]*)(?:::\w+)+)", code):
                segs = pm.group(1).split("::")
                start = code.rfind("\n", 0, pm.start()) + 1
                line = code[start:pm.start()]
                if re.match(r"\s*(pub(\([^)]*\))?\s+)?use\b", line) or re.search(r"\buse\b[^;]*$", code[max(0, pm.start() - 400):pm.start()]):
                    continue  # inside a use declaration, handled above
                if segs[0] in aliases and segs[0] not in ("crate", "super", "self"):
                    targets.append((aliases[segs[0]] + tuple(segs[1:]), self))
                    continue
                if extra is not None and segs[0] in extra.crate_names:
                    targets.append((tuple(segs[1:]), extra))
                    continue
                p = self._absolute(m, segs)
                if p is not None:
                    targets.append((p, self))
            for path, crate in targets:
                for f, name in crate.files_of(path):
                    if f != here:
                        edges[str(here.relative_to(crate.repo))][str(f.relative_to(crate.repo))].add(name)


# ---------------------------------------------------------------- Python

def python_edges(pkg: Path, repo: Path, edges: Edges) -> None:
    """Edges between the package's modules from every import statement (also those inside
    functions). `from . import _core` names the compiled module, not the package."""
    files = set(pkg.rglob("*.py"))

    def module_file(parts: List[str]) -> Optional[Path]:
        p = pkg.parent.joinpath(*parts)
        for cand in (p.with_suffix(".py"), p / "__init__.py"):
            if cand in files:
                return cand
        return None

    def is_compiled(parts: List[str]) -> bool:
        p = pkg.parent.joinpath(*parts)
        return p.with_suffix(".pyi").exists() or any(p.parent.glob(p.name + ".*.so")) or any(p.parent.glob(p.name + ".*.pyd"))

    for f in sorted(files):
        rel = list(f.relative_to(pkg.parent).with_suffix("").parts)
        package = rel[:-1]
        tree = ast.parse(f.read_text(), str(f))
        for node in ast.walk(tree):
            found: List[Tuple[List[str], str]] = []
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
                    parts = base + (node.module.split(".") if node.module else [])
                else:
                    parts = (node.module or "").split(".")
                    if parts[0] != pkg.name:
                        continue
                for alias in node.names:
                    if module_file(parts + [alias.name]) is not None or is_compiled(parts + [alias.name]):
                        found.append((parts + [alias.name], alias.name))
                    else:
                        found.append((parts, alias.name))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    parts = alias.name.split(".")
                    if parts[0] == pkg.name:
                        found.append((parts, alias.name))
            for parts, name in found:
                target = module_file(parts)
                if target is not None and target != f:
                    edges[str(f.relative_to(repo))][str(target.relative_to(repo))].add(name)


# ---------------------------------------------------------------- circles

def circles(edges: Edges) -> List[List[str]]:
    """Strongly connected components of more than one file (Tarjan)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on: Set[str] = set()
    out: List[List[str]] = []
    counter = [0]
    nodes = set(edges) | {t for ts in edges.values() for t in ts}

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def project_edges(repo: Path) -> Edges:
    edges: Edges = defaultdict(lambda: defaultdict(set))
    core = RustCrate(repo / "crates/aimdlab-core/src", repo, ("aimdlab_core",))
    core.edges(edges)
    py = RustCrate(repo / "crates/aimdlab-py/src", repo, ())
    py.edges(edges, extra=core)
    python_edges(repo / "python/aimdlab", repo, edges)
    return edges


def folder_pairs(edges: Edges) -> List[Tuple[str, str, List[str], List[str]]]:
    """The engine's top-level modules that use each other: (a, b, files of a using b, files of
    b using a)."""
    prefix = "crates/aimdlab-core/src/"
    uses: Dict[Tuple[str, str], Set[str]] = defaultdict(set)
    for a, targets in edges.items():
        for b in targets:
            if a.startswith(prefix) and b.startswith(prefix):
                top_a, top_b = (Path(x[len(prefix):]).parts[0].removesuffix(".rs") for x in (a, b))
                if top_a != top_b:
                    uses[(top_a, top_b)].add(a[len(prefix):])
    return [(a, b, sorted(files), sorted(uses[(b, a)])) for (a, b), files in sorted(uses.items()) if a < b and (b, a) in uses]


def main(argv: List[str]) -> int:
    if len(argv) > 1 and argv[1] == "--folders":
        pairs = folder_pairs(project_edges(Path(argv[2] if len(argv) > 2 else Path(__file__).resolve().parents[1])))
        for a, b, ab, ba in pairs:
            print(f"{a} <-> {b}: {', '.join(ab)} | {', '.join(ba)}")
        print(f"{len(pairs)} pairs of engine modules use each other")
        return 0
    repo = Path(argv[1] if len(argv) > 1 else Path(__file__).resolve().parents[1])
    edges = project_edges(repo)
    found = circles(edges)
    n_edges = sum(len(t) for t in edges.values())
    if not found:
        print(f"no import circles ({len(edges)} files with imports, {n_edges} file-to-file edges)")
        return 0
    for i, comp in enumerate(found, 1):
        print(f"circle {i}: {', '.join(comp)}")
        for a in comp:
            for b, names in sorted(edges[a].items()):
                if b in comp:
                    print(f"  {a} -> {b}: {', '.join(sorted(names))}")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
