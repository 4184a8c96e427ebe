"""Options and helpers several commands share: the memory limit and the executor choice."""

from __future__ import annotations

from typing import Optional

import click

from ..errors import ScenarioError
from ..memory import NO_LIMIT

NO_LIMIT_BYTES = NO_LIMIT
"""A memory limit no run reaches: the file is checked before `--set`, the result after it."""

MAX_MEMORY_HELP = ("Refuse a run whose estimated memory is above SIZE, e.g. 4GB. Default: 80 % of the memory "
                   "this process may use (or AIMDLAB_MAX_MEMORY).")


def dask_options(command):
    """`--dask` and `--scheduler`, the executor choices every command that runs many
    scenarios takes (with `--jobs`, whose range is the command's own)."""
    command = click.option("--scheduler", metavar="ADDRESS", default=None,
                           help="Run on the Dask cluster whose scheduler is at ADDRESS (tcp://HOST:PORT).")(command)
    return click.option("--dask", "use_dask", is_flag=True,
                        help="Run on a Dask LocalCluster of --jobs workers (pip install 'aimdlab[dask]').")(command)


def check_dask_options(use_dask: bool, scheduler: Optional[str]) -> None:
    """One executor at a time: --dask and --scheduler exclude each other."""
    if use_dask and scheduler:
        raise click.UsageError("--dask starts a cluster and --scheduler uses one; give one of them")


def memory_error(e: ScenarioError) -> str:
    """A memory-limit error for the terminal: a bad --max-memory names the option; a default
    too small names where it came from (its own message)."""
    from ..memory import MemoryLimitError

    return str(e) if isinstance(e, MemoryLimitError) else f"--max-memory: {str(e).split(': ', 1)[-1]}"
