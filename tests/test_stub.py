"""The hand-written stub `aimdlab/_core.pyi` matches the compiled module: the same public
names, the same function parameters (names, order, defaults), the same class members."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import aimdlab
import pytest
from aimdlab import _core

STUB = Path(aimdlab.__file__).with_name("_core.pyi")


def _stub():
    tree = ast.parse(STUB.read_text())
    functions, classes, names = {}, {}, set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            functions[node.name] = node
        elif isinstance(node, ast.ClassDef):
            classes[node.name] = {n.name if isinstance(n, ast.FunctionDef) else n.target.id
                                  for n in node.body if isinstance(n, (ast.FunctionDef, ast.AnnAssign))}
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
        elif isinstance(node, ast.ImportFrom):  # re-exported: `from aimdlab.errors import X as X`
            names.update(a.asname for a in node.names if a.asname == a.name)
    return functions, classes, names


def _params(fn: ast.FunctionDef):
    args = fn.args
    defaults = [None] * (len(args.args) - len(args.defaults)) + [ast.literal_eval(d) for d in args.defaults]
    return [(a.arg, d) for a, d in zip(args.args, defaults)]


def test_public_names_match():
    functions, classes, names = _stub()
    public = {n for n in dir(_core) if not n.startswith("_")}
    assert public == set(functions) | set(classes) | (names - {"__version__", "__commit__"})


def test_function_signatures_match():
    functions, _, _ = _stub()
    for name, node in functions.items():
        sig = inspect.signature(getattr(_core, name))
        real = [(p.name, None if p.default is inspect.Parameter.empty else p.default) for p in sig.parameters.values()]
        assert real == _params(node), name


def test_class_members_match():
    _, classes, _ = _stub()
    for name, members in classes.items():
        cls = getattr(_core, name)
        real = {m for m in dir(cls) if not m.startswith("_")} | ({"__init__"} if "__init__" in members else set())
        if issubclass(cls, BaseException):
            assert members == set(), name
            continue
        assert real == members, name


@pytest.mark.slow
def test_mypy_stubtest_finds_nothing_to_say():
    # mypy's own comparison of the stub with the compiled module: names, signatures, `@final`
    # classes, `__all__`.
    import subprocess
    import sys

    import pytest

    pytest.importorskip("mypy")
    out = subprocess.run([sys.executable, "-m", "mypy.stubtest", "aimdlab._core"], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
