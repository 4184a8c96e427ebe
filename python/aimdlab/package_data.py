"""The data that ships inside the package: the papers' definitions (`experiments/`) and the
example scenarios and sweeps (`examples/`), found wherever aimdlab is installed, and copied
out for a researcher to read and change (`aimdlab examples --copy DIR`).

In the source tree the folders `experiments/` and `examples/` at the top are links to these.
"""

from __future__ import annotations

import shutil
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
    created if missing, and returns the files written. A file already there is never
    overwritten: the copy is refused before anything is written, naming it."""
    dest = Path(dest)
    if dest.exists() and not dest.is_dir():
        raise CopyError(f"--copy {dest}: is a file; expected a folder to copy the examples into")
    files = _example_files()
    clashes = [dest / name for name, _ in files if (dest / name).exists()]
    if clashes:
        more = f" (and {len(clashes) - 1} more)" if len(clashes) > 1 else ""
        raise CopyError(f"--copy {dest}: {clashes[0]} exists{more}; choose an empty folder, or remove what is there first")
    written = []
    for name, path in files:
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        written.append(target)
    return written
