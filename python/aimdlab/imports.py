"""Python objects that scenarios and experiments name as text, `module:name` (a controller
class, a Python measure, a reproduction's model): imported as `import module` would, with the
current folder searched after `sys.path` (as `python -m` puts it first), so a `mymod.py` beside
the files of an experiment run from that folder is found by the `aimdlab` command too. A
sweep's worker processes and a local Dask cluster's workers start in the same folder; a remote
Dask cluster needs the module installed on its workers."""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

__all__ = ["ImportNameError", "import_name", "split_name"]


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
    try:
        found = importlib.import_module(module)
    except ModuleNotFoundError as e:
        top = module.split(".")[0]
        here = os.getcwd()
        if e.name != top or here in sys.path:
            raise _not_found(e, module, here) from None
        sys.path.append(here)  # (kept: the module's own imports of its neighbours need it too)
        try:
            found = importlib.import_module(module)
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


def _not_found(e: ModuleNotFoundError, module: str, here: str) -> ImportNameError:
    if e.name and e.name != module and not module.startswith(e.name + "."):  # the module imports something missing
        return ImportNameError(f"importing module {module!r} failed: {e}")
    return ImportNameError(f"no module named {module!r} on sys.path or in the current folder {here} "
                           "(set PYTHONPATH, install it, or run from its folder)")
