"""Where a command may write: the one guard every writing command uses.

`run --out`, `sweep --out`, `reproduce --out`, `report --out` and `examples --copy` take a
path from the user. Each resolves it with `resolve_out` before looking at anything, then checks
and writes only the resolved path. Resolving first matters: `missing/../victim` does not exist
while `missing` is missing, so a check on the path as spelled finds nothing there; once the
command creates `missing`, the same spelling names `victim`. Resolved, it is `victim` from the
start and is checked as `victim` (symlinks are followed the same way: `link` is checked, and
written, as its target).

A folder is written into only when everything in it is aimdlab's own (`foreign_entries` lists
what is not); messages name the path as the user spelled it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, List, Union

from .errors import OutputError

__all__ = ["resolve_out", "foreign_entries", "refuse_foreign", "is_aimdlab_page", "shown_path", "make_folder", "refuse_blocked"]


def _named(flag: str, spelled: Union[str, Path]) -> str:
    """How a message names the path: `--out x`, or `x` where the caller adds the flag."""
    return " ".join(part for part in (flag, str(spelled)) if part)


def resolve_out(path: Union[str, Path], flag: str = "--out", own_folder: bool = True) -> Path:
    """The absolute path `path` names once every folder on the way exists: symlinks followed,
    `..` applied as the system applies it. Refuses empty text, a dangling symlink on the way
    (the command would create a folder wherever it points) and, with `own_folder` (output
    that replaces a folder's contents needs a folder of its own), the current, home or root
    folder."""
    spelled = str(path)
    if spelled.strip() == "":
        raise OutputError(f"{flag + ': ' if flag else ''}the path is empty text; expected one such as results/NAME")
    resolved = _resolve(spelled, flag)
    special = {Path(os.path.realpath(p)) for p in (os.getcwd(), os.path.expanduser("~"), os.sep)}
    if own_folder and resolved in special:
        raise OutputError(f"{_named(flag, spelled)}: is the current, home or root folder; expected a folder of its own such as results/NAME")
    return resolved


def foreign_entries(folder: Path, owned: Callable[[Path], bool]) -> List[str]:
    """The names in `folder` (resolved) that `owned` does not claim, sorted; none if `folder`
    does not exist."""
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if not owned(p))


def refuse_foreign(folder: Path, spelled: Union[str, Path], owned: Callable[[Path], bool], what: str, flag: str = "--out") -> None:
    """Raises `OutputError` naming up to three entries of `folder` that are not aimdlab's
    (`what` says what the folder should hold, e.g. "aimdlab results")."""
    others = foreign_entries(folder, owned)
    if others:
        shown = ", ".join(others[:3]) + (", ..." if len(others) > 3 else "")
        raise OutputError(f"{_named(flag, spelled)}: the folder holds files that are not {what} ({shown}); choose another folder or empty it")


def is_aimdlab_page(path: Path) -> bool:
    """Whether `path` is an HTML page aimdlab wrote (its pages carry the generator mark)."""
    from .html_parts import GENERATOR

    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    return GENERATOR.encode() in head or "— aimdlab ".encode() in head  # (or a page from before the mark)


def _resolve(spelled: str, flag: str) -> Path:
    """`spelled` made absolute one component at a time, as the system will read it once the
    missing folders exist: `..` takes the parent of what is resolved so far, a symlink is
    replaced by its target, and a dangling symlink anywhere on the way is refused."""
    current = os.sep
    for part in os.path.join(os.getcwd(), spelled).split(os.sep):
        if part in ("", "."):
            continue
        if part == "..":
            current = os.path.dirname(current)
            continue
        step = os.path.join(current, part)
        if os.path.islink(step):
            if not os.path.exists(step):
                raise OutputError(f"{_named(flag, spelled)}: {part} is a symlink to {os.readlink(step)}, which does not exist; "
                                  "create it first or choose another path")
            step = os.path.realpath(step)
        current = step
    return Path(current)


def shown_path(path: Path) -> Path:
    """A resolved path as a message shows it: relative to the current folder when inside it."""
    try:
        return path.relative_to(Path(os.path.realpath(os.getcwd())))
    except ValueError:
        return path


def refuse_blocked(folder: Path, spelled: Union[str, Path], flag: str = "--out") -> None:
    """Raises `OutputError` if a file stands where `folder` (resolved) or a parent would be."""
    blocking = next((p for p in [folder, *folder.parents] if p.exists() and not p.is_dir()), None)
    if blocking is not None:
        raise OutputError(f"{_named(flag, spelled)}: {blocking} is a file, not a folder; expected a folder path")


def make_folder(folder: Path, spelled: Union[str, Path], flag: str = "--out") -> None:
    """Creates `folder` (resolved) and its parents; a file in the way or a system refusal is an
    `OutputError` naming it."""
    refuse_blocked(folder, spelled, flag)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise OutputError(f"{_named(flag, spelled)}: cannot write there: {e.strerror or e}") from None
