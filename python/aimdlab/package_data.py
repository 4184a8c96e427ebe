"""The data that ships inside the package: the papers' definitions (`experiments/`) and the
example scenarios and sweeps (`examples/`), found wherever aimdlab is installed, and copied
out for a researcher to read and change (`aimdlab examples --copy DIR`).

In the source tree the folders `experiments/` and `examples/` at the top are links to these.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import List, Tuple, Union

from .errors import CopyError

__all__ = ["package_folder", "examples", "copy_examples", "CopyError"]


def package_folder(name: str) -> Path:
    """A folder of data inside the installed package (`experiments`, `examples`)."""
    from importlib.resources import files

    return Path(str(files("aimdlab") / name))


def _example_files() -> List[Tuple[Path, Path]]:
    """Each example file, sweeps included: (its path under `examples/`, where it is), in order."""
    root = package_folder("examples")
    return [(path.relative_to(root), path) for path in sorted(root.rglob("*.toml"))]


def examples() -> List[Tuple[str, str]]:
    """Each example file as (its path under `examples/`, the first sentence of its comment)."""
    return [(name.as_posix(), _first_sentence(path)) for name, path in _example_files()]


def _first_sentence(path: Path, width: int = 72) -> str:
    """The first sentence of a file's leading comment, cut at `width` characters."""
    words = []
    for line in path.read_text(encoding="utf-8").splitlines():
        text = line.lstrip("#").strip()
        if not line.startswith("#") or not text:
            break
        words.append(text)
    paragraph = " ".join(words)
    sentence = paragraph.split(". ")[0].rstrip(".")
    return sentence if len(sentence) <= width else sentence[: width - 1].rstrip() + "…"


def copy_examples(dest: Union[str, Path]) -> List[Path]:
    """Copies every example (sweeps included, their relative paths kept) into folder `dest`,
    created if missing, and returns the files written. Nothing there is overwritten or written
    through: a name already taken (a dangling symlink included) refuses the copy before
    anything is written, and a copy that fails half-way (a full disk) removes what it wrote."""
    from .errors import OutputError
    from .out_path import resolve_out

    spelled = str(dest)
    try:
        root = resolve_out(dest, flag="--copy", own_folder=False)
    except OutputError as e:
        raise CopyError(str(e)) from None
    if root.exists() and not root.is_dir():
        raise CopyError(f"--copy {spelled}: is a file; expected a folder to copy the examples into")
    files = _example_files()
    for name, _ in files:
        target = root / name
        inside = Path(os.path.realpath(target.parent))
        if inside != root and root not in inside.parents:
            raise CopyError(f"--copy {spelled}: {target.parent} leads outside the folder (a symlink); choose another folder")
    clashes = [name for name, _ in files if os.path.lexists(root / name)]
    if clashes:
        more = f" (and {len(clashes) - 1} more)" if len(clashes) > 1 else ""
        raise CopyError(f"--copy {spelled}: {Path(spelled) / clashes[0]} exists{more}; choose an empty folder, or remove what is there first")
    written: List[Path] = []
    made: List[Path] = []
    try:
        for name, path in files:
            target = root / name
            for folder in reversed([root / p for p in name.parents if str(p) != "."] + [root]):
                if not folder.exists():
                    folder.mkdir()
                    made.append(folder)
            data = path.read_bytes()
            # O_EXCL: never through a symlink made since the check, never over a file.
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            written.append(target)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
    except OSError as e:
        for target in written:
            target.unlink(missing_ok=True)
        for folder in reversed(made):
            try:
                folder.rmdir()
            except OSError:
                pass
        where = Path(spelled) / name
        raise CopyError(f"--copy {spelled}: cannot write {where}: {e.strerror or e}; nothing was copied") from None
    return written
