"""Ctrl-C while the `aimdlab` command starts.

The command spends its first fraction of a second importing (numpy, pyarrow, the engine,
click); Python's own handler would turn Ctrl-C there into a traceback and an exit by signal.
When the process is the `aimdlab` console script, `guard` installs a handler that says one line
and exits 130 at once (nothing has been written yet), and the command hands Ctrl-C back to its
own handling (`release`) as soon as it runs. Imported from Python, aimdlab leaves Ctrl-C alone.
"""

from __future__ import annotations

import os
import signal
import sys
import threading

__all__ = ["guard", "release"]


def _stop(signum, frame) -> None:  # noqa: ARG001 - a signal handler's signature
    sys.stderr.write("interrupted: stopped while starting; nothing was written\n")
    sys.stderr.flush()
    os._exit(130)


def guard() -> None:
    """Ctrl-C exits 130 with one line, if this process is the `aimdlab` command."""
    if os.path.basename(sys.argv[0] if sys.argv else "") == "aimdlab" and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, _stop)


def release() -> None:
    """Python's own Ctrl-C handling again (the command's `main` turns it into exit 130)."""
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) is _stop:
        signal.signal(signal.SIGINT, signal.default_int_handler)
