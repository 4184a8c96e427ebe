#!/usr/bin/env bash
# Makes the release files in dist/: abi3 wheels for x86_64 and aarch64 Linux with the
# manylinux2014 tag (glibc 2.17: RHEL/CentOS 7 and later, Ubuntu 14.04 and later; linked with
# zig, which installs with pip, so no old distribution is needed to build them), checked with
# auditwheel, and the source distribution, which records the commit it was cut from
# (crates/aimdlab-py/COMMIT). The aarch64 wheel needs Rust's aarch64 standard library
# (rustup target add aarch64-unknown-linux-gnu); without it, that wheel is left out, said so.
#
#   bash tools/release.sh        # from a clean checkout; needs a Rust toolchain and pip
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  echo "release.sh: the checkout has uncommitted changes; commit them first (the files name the commit)" >&2
  exit 1
fi
python3 -m pip install -q "maturin>=1.5,<2" ziglang auditwheel
rm -rf dist
maturin build --release --zig --compatibility manylinux2014 -o dist
if rustup target add aarch64-unknown-linux-gnu >/dev/null 2>&1; then
  maturin build --release --zig --target aarch64-unknown-linux-gnu --compatibility manylinux2014 -o dist
else
  echo "release.sh: no aarch64 standard library for Rust here; the aarch64 wheel is left out" >&2
fi
for wheel in dist/*.whl; do auditwheel show "$wheel"; done
git rev-parse HEAD > crates/aimdlab-py/COMMIT
trap 'rm -f crates/aimdlab-py/COMMIT' EXIT
maturin sdist -o dist
tar -xzOf dist/*.tar.gz --wildcards '*/crates/aimdlab-py/COMMIT' > /dev/null \
  || { echo "release.sh: the sdist lacks crates/aimdlab-py/COMMIT" >&2; exit 1; }
ls -l dist
