"""`python -m aimdlab.cli`: the `aimdlab` command."""

from . import entry

entry()
