"""Python objects that scenarios and experiments name as text, `module:name` (a controller
class, a Python measure, a reproduction's model): imported as `import module` would, with the
current folder searched after `sys.path` (as `python -m` puts it first), so a `mymod.py` beside
the files of an experiment run from that folder is found by the `aimdlab` command too. A
sweep's worker processes and a local Dask cluster's workers start in the same folder; to a remote
Dask cluster's workers the sweep sends the modules of the current folder it names
(`local_modules`), and a module from elsewhere must be installed on them.

A scenario that names Python code runs that code, as a `.py` file would. What is imported is
kept to what was meant: a module is read (not run) first, and imported only if its source
defines the name at its top level; a program's entry point (`pkg.__main__`) and a module built
into Python (no source to read) are refused. So `cc = "this:X"` or `"venv.__main__:X"` is an
error naming the field, with nothing run."""

from __future__ import annotations

import ast
import importlib
import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path
from typing import Any, Iterable, List, Optional

__all__ = ["ImportNameError", "USER_CODE_ERRORS", "import_name", "local_modules", "raised", "split_name"]

USER_CODE_ERRORS = (Exception, SystemExit, GeneratorExit)
"""What a user's named code may raise that aimdlab reports as that code's failure: everything
but `KeyboardInterrupt` (Ctrl-C). A `SystemExit` from a controller or a measure must not end
aimdlab silently with the code's own exit status."""


def raised(e: BaseException) -> str:
    """What named code raised, in a message: `ValueError: beta must be ...`, or the type alone."""
    text = str(e).strip()
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


class ImportNameError(ValueError):
    """The text names no importable object; the message says why (without the field, which
    the caller adds)."""


def split_name(text: Any) -> tuple:
    """`"pkg.mod:Name"` → `("pkg.mod", "Name")`; `ImportNameError` if it is not of that form."""
    if not isinstance(text, str):
        raise ImportNameError(f"{text!r} is not a name; expected text module:name such as \"mypkg.mymod:MyAimd\"")
    module, sep, attr = (part.strip() for part in text.partition(":"))
    parts = module.split(".") + attr.split(".")
    if not sep or not all(p.isidentifier() for p in parts):
        raise ImportNameError(f"{text!r} is not of the form module:name; expected e.g. \"mypkg.mymod:MyAimd\"")
    return module, attr


def import_name(text: str) -> Any:
    """The object `text` (`module:name`, `name` may be dotted) names; `ImportNameError` naming
    what is missing: the module (and where it was looked for), or the name in it. An error
    raised while the module itself runs is reported with its type and message."""
    module, attr = split_name(text)
    _check_source_defines(module, attr.split(".")[0])
    try:
        found = _import_quietly(module)
    except ModuleNotFoundError as e:
        top = module.split(".")[0]
        here = os.getcwd()
        if e.name != top or here in sys.path:
            raise _not_found(e, module, here) from None
        sys.path.append(here)  # (kept: the module's own imports of its neighbours need it too)
        try:
            found = _import_quietly(module)
        except ModuleNotFoundError as e2:
            raise _not_found(e2, module, here) from None
        except Exception as e2:
            raise ImportNameError(f"importing module {module!r} failed: {type(e2).__name__}: {e2}") from None
    except Exception as e:
        raise ImportNameError(f"importing module {module!r} failed: {type(e).__name__}: {e}") from None
    obj: Any = found
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise ImportNameError(f"module {module!r} ({getattr(found, '__file__', None) or 'built in'}) has no {attr!r}")
        obj = getattr(obj, part)
    return obj


def _import_quietly(module: str) -> Any:
    """`importlib.import_module`, with what the module prints while it loads sent to standard
    error: standard output is aimdlab's results (one JSON object with `--json`)."""
    import contextlib

    with contextlib.redirect_stdout(sys.stderr):
        return importlib.import_module(module)


def _not_found(e: ModuleNotFoundError, module: str, here: str) -> ImportNameError:
    if e.name and e.name != module and not module.startswith(e.name + "."):  # the module imports something missing
        return ImportNameError(f"importing module {module!r} failed: {e}")
    return ImportNameError(f"no module named {module!r} on sys.path or in the current folder {here} "
                           "(set PYTHONPATH, install it, or run from its folder)")


def _check_source_defines(module: str, name: str) -> None:
    """Refuses, without running anything of `module` (its parent packages aside, which any
    import of it runs), a module whose source does not bind `name` at its top level: an entry
    point, a module built into Python, a missing module or one without the name."""
    if "__main__" in module.split("."):
        raise ImportNameError(f"module {module!r} is a program's entry point, not a module of definitions; "
                              "expected a module of your own such as mycc (mycc.py)")
    if module in sys.modules:
        return  # (imported already: importing it again runs nothing)
    top = module.split(".")[0]
    if top in sys.builtin_module_names:
        raise ImportNameError(f"module {top!r} is built into Python (no source to read); expected a module of your own such as mycc (mycc.py)")
    spec = _find_spec(module)
    if spec is None:
        return  # (not found: the import says where it looked)
    origin = spec.origin or ""
    if not origin.endswith(".py"):
        raise ImportNameError(f"module {module!r} ({origin or 'a namespace package'}) has no Python source to read; "
                              "expected a .py module that defines the name")
    try:
        with open(origin, "rb") as f:
            tree = ast.parse(f.read(), filename=origin)
    except (OSError, SyntaxError, ValueError):
        return  # (the import reports it)
    bound = _top_level_names(tree)
    if name not in bound and _ANY not in bound and "__getattr__" not in bound:
        raise ImportNameError(f"module {module!r} ({origin}) defines no {name!r} at its top level; nothing of it was run")


def _find_spec(module: str) -> Optional[importlib.machinery.ModuleSpec]:
    """Where `module` would be imported from, found as the import system finds it (on
    `sys.path`, then in the current folder), without running it; None if nowhere. Its parent
    packages are imported (finding a submodule needs them)."""
    parent, _, _ = module.rpartition(".")
    if parent:
        try:
            importlib.import_module(parent)
            return importlib.util.find_spec(module)
        except (ImportError, ValueError):
            return None
    spec = importlib.machinery.PathFinder.find_spec(module, sys.path)
    if spec is None and os.getcwd() not in sys.path:
        spec = importlib.machinery.PathFinder.find_spec(module, [os.getcwd()])
    return spec


def _top_level_names(tree: ast.Module) -> List[str]:
    """The names a module's top-level statements bind: definitions, assignments, imports (also
    inside top-level `if`/`try` blocks, as a guarded import is)."""
    names: List[str] = []

    def visit(body: List[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                names.append(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    names.extend(n.id for n in ast.walk(t) if isinstance(n, ast.Name))
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    names.append(alias.asname or alias.name.split(".")[0])
                    if alias.name == "*":
                        names.append(_ANY)
            elif isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
                for block in ("body", "orelse", "finalbody"):
                    visit(getattr(node, block, []) or [])
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)

    visit(tree.body)
    return names


_ANY = "*"


def local_modules(names: Iterable[str]) -> List[Path]:
    """The files of the top-level modules that `names` (`module:name`) come from and that the
    current folder holds: a `mycc.py`, or a package folder `mycc/`. A remote cluster's workers
    run elsewhere and lack them; the sweep sends them (see `executor`)."""
    here = Path(os.getcwd()).resolve()
    found: List[Path] = []
    for text in names:
        try:
            module, _ = split_name(text)
        except ImportNameError:
            continue
        spec = _find_spec(module.split(".")[0])
        origin = Path(spec.origin).resolve() if spec is not None and spec.origin else None
        if origin is None:
            continue
        path = origin.parent if origin.name == "__init__.py" else origin
        if path.parent == here and path not in found:
            found.append(path)
    return found
