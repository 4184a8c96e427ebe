#!/usr/bin/env bash
# The timings the README quotes, measured as a new user meets them: a fresh virtualenv, `pip
# install .` without pip's cache (the Rust core compiled from scratch, into a fresh target
# folder), then `aimdlab reproduce all --quick` twice — the first with matplotlib's font cache
# not yet built (as on a new machine), the second as every later run.
#
#   bash tools/readme_timings.sh            # prints three lines of seconds; takes a few minutes
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
# shellcheck disable=SC1091
. "$work/venv/bin/activate"
python -m pip install -q --upgrade pip
export CARGO_TARGET_DIR="$work/target" MPLCONFIGDIR="$work/mpl"
seconds() { local t0; t0=$(date +%s.%N); "$@" > /dev/null 2>&1; echo "$(date +%s.%N) - $t0" | bc; }
echo "cores: $(nproc)"
printf 'pip install . (no cache, fresh build): %.0f s\n' "$(seconds python -m pip install -q --no-cache-dir .)"
printf 'aimdlab reproduce all --quick, first run: %.0f s\n' "$(seconds aimdlab reproduce all --quick --out "$work/r1")"
printf 'aimdlab reproduce all --quick, again: %.0f s\n' "$(seconds aimdlab reproduce all --quick --out "$work/r2")"
