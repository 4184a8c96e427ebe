"""A run's results folder, written as one unit.

Every file of a run (summary, scenario, Parquet tables, figure) is written into a hidden
sibling folder, `.NAME.partial-PID-XXXX`, which then takes the place of `NAME` in one step
(Linux: `renameat2(RENAME_EXCHANGE)`, which swaps two folders atomically; elsewhere two
renames). A reader of `NAME` sees the previous complete results or the new complete results,
never a mix, whenever the writer is interrupted or killed. Partial folders left by a killed
writer are removed the next time results are saved beside them.

An existing `NAME` is replaced only if it holds nothing but aimdlab results, so a mistyped
`--out` never deletes a folder of other files.
"""

from __future__ import annotations

import ctypes
import errno
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Callable, Optional, Union

from .errors import OutputError

__all__ = ["OutputError", "RunFolder", "RESULT_FILES"]

RESULT_FILES = frozenset(
    {
        "summary.json",
        "scenario.json",
        "provenance.json",
        "flows.parquet",
        "links.parquet",
        "timeseries.parquet",
        "link_timeseries.parquet",
        "cwnd_trace.parquet",
        "overview.png",
        "overview.pdf",
        "overview.svg",
    }
)
"""The files a run folder may hold (what an existing folder may hold to be replaced), besides
the link traces `*.pcap`."""


def is_result_file(name: str) -> bool:
    """Whether a file of this name may be part of a run folder."""
    return name in RESULT_FILES or name.endswith(".pcap")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def pid_alive(pid: int) -> bool:
    """Whether process `pid` exists (one of another user counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _exchange(a: Path, b: Path) -> bool:
    """Swaps folders `a` and `b` atomically; False where the system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OutputError(err, os.strerror(err), str(b))


def _fsync(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _is_debris(name: str) -> bool:
    """Temporary files an earlier aimdlab version left inside a results folder."""
    return name.startswith(".") and name.endswith(".tmp")


class RunFolder:
    """Checks `out` up front, then collects a run's files in `staging` until `commit`.

    Use it as a context manager: the files are committed when the block ends normally and
    discarded when it raises (Ctrl-C included)::

        with RunFolder("results/u4") as staging:
            (staging / "summary.json").write_text(...)
    """

    def __init__(self, out: Union[str, Path], owned: Optional[Callable[[Path], bool]] = None, what: str = "aimdlab results"):
        """`owned`: what an existing `out` may hold to be replaced (default: a run's files,
        `is_result_file`); `what` names it in the refusal."""
        from .out_path import refuse_foreign, resolve_out

        spelled = str(out)
        # Resolved before any check (`missing/../x` is `x`; a symlink is its target): the checks
        # and the writes see the same folder.
        self.out = resolve_out(out, flag="")
        absolute = self.out
        try:
            if self.out.exists() and not self.out.is_dir():
                raise OutputError(f"{spelled}: is a file; expected a folder")
            owns = owned or (lambda p: is_result_file(p.name))
            refuse_foreign(self.out, spelled, lambda p: owns(p) or _is_debris(p.name), what, flag="")
            self._parent = absolute.parent
            self._parent.mkdir(parents=True, exist_ok=True)
            self._remove_stale()
            self.staging = Path(tempfile.mkdtemp(dir=self._parent, prefix=f".{self.out.name}.partial-{os.getpid()}-"))
            os.chmod(self.staging, 0o777 & ~_umask())
        except OutputError:
            raise
        except OSError as e:
            try:
                blocking = next((p for p in [absolute, *absolute.parents] if p.exists() and not p.is_dir()), None)
            except OSError:  # (a name too long to look at)
                blocking = None
            if blocking is not None:  # (mkdir says "File exists" or "Not a directory")
                raise OutputError(f"{out}: {blocking} is a file, not a folder; expected a folder path") from None
            raise OutputError(f"{out}: cannot write results there: {e.strerror or e}") from None
        self._done = False

    def _remove_stale(self) -> None:
        """Removes partial folders of writers that no longer run (and this process's own)."""
        for prefix in (f".{self.out.name}.partial-", f".{self.out.name}.old-"):
            for p in self._parent.glob(prefix + "*"):
                pid = p.name[len(prefix):].split("-", 1)[0]
                if pid.isdigit() and (int(pid) == os.getpid() or not pid_alive(int(pid))):
                    shutil.rmtree(p, ignore_errors=True)

    def commit(self) -> Path:
        """Puts the staged files in place of `out` in one step; returns `out`."""
        if self._done:
            raise RuntimeError("this run folder was already committed or discarded")
        for f in self.staging.iterdir():
            _fsync(f)
        _fsync(self.staging)
        try:
            if self.out.is_dir():
                if _exchange(self.staging, self.out):
                    self._done = True
                    shutil.rmtree(self.staging, ignore_errors=True)  # now the previous results
                else:
                    old = Path(tempfile.mkdtemp(dir=self._parent, prefix=f".{self.out.name}.old-{os.getpid()}-"))
                    os.rename(self.out, old / "previous")
                    os.rename(self.staging, self.out)
                    self._done = True
                    shutil.rmtree(old, ignore_errors=True)
            else:
                os.rename(self.staging, self.out)
                self._done = True
        except OSError as e:
            raise OutputError(f"{self.out}: cannot write results there: {e.strerror or e}") from None
        _fsync(self._parent)
        return self.out

    def discard(self) -> None:
        """Removes the staged files; `out` keeps what it held."""
        if not self._done:
            self._done = True
            shutil.rmtree(self.staging, ignore_errors=True)

    def __enter__(self) -> Path:
        return self.staging

    def __exit__(self, kind: Optional[type], value, tb) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()
