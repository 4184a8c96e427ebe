#!/usr/bin/env bash
# Makes the release files in dist/: an abi3 wheel for x86_64 Linux with the manylinux2014 tag
# (glibc 2.17: RHEL/CentOS 7 and later, Ubuntu 14.04 and later; linked with zig, which installs
# with pip, so no old distribution is needed to build it), checked with auditwheel, and the
# source distribution, which records the commit it was cut from (crates/aimdlab-py/COMMIT).
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
auditwheel show dist/*.whl
git rev-parse HEAD > crates/aimdlab-py/COMMIT
trap 'rm -f crates/aimdlab-py/COMMIT' EXIT
maturin sdist -o dist
tar -xzOf dist/*.tar.gz --wildcards '*/crates/aimdlab-py/COMMIT' > /dev/null \
  || { echo "release.sh: the sdist lacks crates/aimdlab-py/COMMIT" >&2; exit 1; }
ls -l dist
