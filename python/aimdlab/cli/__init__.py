"""The `aimdlab` command line (`aimdlab --help`): `main` is the click group, `entry` the
console script. Each command is a module of this package and registers itself on `main`."""

from __future__ import annotations

from . import crosscheck, info, report, reproduce, run, sweep, validate  # noqa: F401  (each registers its commands)
from .app import entry, main

__all__ = ["entry", "main"]
