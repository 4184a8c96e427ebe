"""The `aimdlab` command: its top-level group (`main`), which owns the process's exit — Ctrl-C
exits 130, an operating-system error is one line — and the entry point. The commands live
beside it, one module each (`run`, `sweep`, `reproduce`, `report`, `info`, `validate`)."""

from __future__ import annotations

import errno
import signal
import sys
from typing import List, Optional

import click

from .. import __version__
from . import output
from .output import quiet_option

EXAMPLES = """
\b
Examples:
  aimdlab examples --copy examples        the example scenarios, to run and change
  aimdlab run examples/utilization.toml
  aimdlab run examples/utilization.toml --out results/u4 --set flows[0].count=4
  aimdlab run examples/long-delay.toml --seed 7 --format pdf
  aimdlab run examples/utilization.toml --pcap 'r1->r2'    # then: tshark -r results/utilization/r1-r2.pcap
  aimdlab validate examples/*.toml
  aimdlab validate gaimd --quick
  aimdlab sweep examples/sweeps/utilization-flows.toml --quick
  aimdlab report results/sweeps/utilization-flows-quick
  aimdlab reproduce new-aimd-utilization --quick
  aimdlab schema > scenario.schema.json
"""


class _Main(click.Group):
    """The top-level command. It owns the process's exit: Ctrl-C at any moment (loading,
    simulating, saving) exits 130 after the engine has stopped and nothing half-written is
    left; an operating-system error (a folder that cannot be written, a full disk) is one
    line and exit 1, never a traceback."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):  # type: ignore[override]
        output.reset()
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except (KeyboardInterrupt, click.exceptions.Abort):
            if written:
                interrupted(f"interrupted after the results were written to {written[-1]}")
            if "run" in (sys.argv[1:] if args is None else list(args))[:1]:
                interrupted("interrupted: the run was stopped; no results were written or replaced")
            interrupted()
        except click.ClickException as e:
            e.show()
            _json_error(args, e.format_message(), e.exit_code)
            sys.exit(e.exit_code)
        except click.exceptions.Exit as e:
            sys.exit(e.exit_code)
        except OSError as e:
            if e.errno == errno.EPIPE:
                sys.exit(1)
            click.echo(f"Error: {os_error_text(e)}", err=True)
            _json_error(args, os_error_text(e), 1)
            sys.exit(1)
        except Exception as e:
            # Ctrl-C landing inside library code can surface as another exception raised
            # while handling it (seen: matplotlib's import, "Error calling __set_name__",
            # whose cause is the KeyboardInterrupt). It is still an interrupt.
            if _caused_by_interrupt(e):
                interrupted()
            raise
        sys.exit(code if isinstance(code, int) else 0)


def _json_error(args: Optional[List[str]], message: str, exit_code: int) -> None:
    """With `--json`, a failed command still prints one JSON object on standard output."""
    if output.json_wanted_and_unsaid():
        words = [a for a in (sys.argv[1:] if args is None else list(args)) if not a.startswith("-")]
        output.emit_error_json(words[0] if words else "aimdlab", message, exit_code)


def _caused_by_interrupt(e: BaseException) -> bool:
    """Whether a KeyboardInterrupt is in the exception's chain of causes and contexts."""
    seen = set()
    link: Optional[BaseException] = e
    while link is not None and id(link) not in seen:
        if isinstance(link, KeyboardInterrupt):
            return True
        seen.add(id(link))
        link = link.__cause__ or link.__context__
    return False


written: list = []
"""Results folders this process has committed (for the message after a late Ctrl-C)."""


def interrupted(message: str = "interrupted: stopped; nothing half-written was left") -> None:
    """Exits 130 (Ctrl-C)."""
    try:
        click.echo(message, err=True)
    except OSError:
        pass
    sys.exit(130)


def os_error_text(e: OSError) -> str:
    """One line for an operating-system error: the file and the reason."""
    if e.filename is not None and e.strerror:
        return f"{e.filename}: {e.strerror}"
    return str(e) or type(e).__name__


@click.group(cls=_Main, epilog=EXAMPLES, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="aimdlab")
@quiet_option
def main() -> None:
    """aimdlab: a congestion-control laboratory (packet-level simulator for AIMD-family
    congestion control)."""


def entry() -> None:
    """The `aimdlab` console command: `main`, and once it has finished (results written, or
    an error reported) Ctrl-C is ignored for the interpreter's shutdown, instead of killing
    the process. (SIG_IGN, which the interpreter keeps through its shutdown, is set only
    here, in the command's own process, about to exit and to start no program.)"""
    from .._startup import release

    release()  # (Ctrl-C while importing was `_startup`'s; from here it is `main`'s)
    try:
        main()
    except SystemExit:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        raise
    except KeyboardInterrupt:  # a second Ctrl-C while the first one was being reported
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        sys.exit(130)
