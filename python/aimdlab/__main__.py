"""`python -m aimdlab`: the `aimdlab` command."""

from .cli import entry

if __name__ == "__main__":
    entry()
