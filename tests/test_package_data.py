"""aimdlab on its own: the papers' definitions and the examples ship inside the package, so the
commands work from any folder, not only from the source tree."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from aimdlab.package_data import copy_examples, package_folder

ROOT = Path(__file__).resolve().parent.parent


def aimdlab(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "aimdlab", *args], cwd=cwd, capture_output=True, text=True, timeout=600)


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="a git checkout's layout (an sdist has no links)")
def test_the_source_tree_keeps_one_copy_of_each_file():
    # experiments/ and examples/ at the top of the source tree are the package's own folders.
    for name in ("experiments", "examples"):
        assert (ROOT / name).resolve() == (ROOT / "python" / "aimdlab" / name).resolve()
        assert (ROOT / name).is_symlink()


def test_examples_lists_and_copies_every_example_and_never_overwrites(tmp_path):
    shipped = sorted(p.relative_to(package_folder("examples")).as_posix() for p in package_folder("examples").rglob("*.toml"))
    assert "utilization.toml" in shipped and "sweeps/utilization-flows.toml" in shipped
    listed = aimdlab("examples", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert [line.split()[0] for line in listed.stdout.splitlines() if line.startswith("examples/")] == [f"examples/{n}" for n in shipped]
    copied = aimdlab("examples", "--copy", "mine", cwd=tmp_path)
    assert copied.returncode == 0, copied.stderr
    for name in shipped:
        assert (tmp_path / "mine" / name).read_bytes() == (package_folder("examples") / name).read_bytes()
    # A second copy is refused before anything is written, naming a file that is there.
    (tmp_path / "mine" / "utilization.toml").write_text("# mine\n")
    again = aimdlab("examples", "--copy", "mine", cwd=tmp_path)
    assert again.returncode == 1 and f"mine/{shipped[0]} exists (and {len(shipped) - 1} more)" in again.stderr, again.stderr
    assert (tmp_path / "mine" / "utilization.toml").read_text() == "# mine\n"


def test_a_copied_example_and_its_sweep_run_from_their_new_folder(tmp_path):
    copy_examples(tmp_path / "ex")
    run = aimdlab("run", "ex/utilization.toml", "--set", "duration=10s", "--no-figure", "--out", "r", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "r" / "summary.json").is_file()
    # The sweep names its scenario relative to itself ("../utilization.toml"): still found.
    sweep = aimdlab("sweep", "ex/sweeps/utilization-flows.toml", "--quick", "--jobs", "1", "--out", "s", cwd=tmp_path)
    assert sweep.returncode == 0, sweep.stderr
    assert (tmp_path / "s" / "catalog.parquet").is_file()


def test_reproduce_finds_the_papers_inside_the_package_from_any_folder(tmp_path):
    # An experiments/ folder without paper definitions (a researcher's own) is not taken for them.
    (tmp_path / "experiments").mkdir()
    out = aimdlab("reproduce", "new-aimd-utilization", "--quick", "--out", "rep", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "rep" / "new-aimd-utilization" / "index.html").is_file()
    missing = aimdlab("reproduce", "all", "--experiments", "nowhere", cwd=tmp_path)
    assert missing.returncode == 1 and "--experiments nowhere: is not a folder" in missing.stderr, missing.stderr


def test_the_parking_lot_overview_draws_every_monitored_hop_and_the_max_min_share():
    # Its three hops are monitored: the queue panel names each. The fair share is max-min from
    # the routes: 5 Mbit/s for every flow (each hop is shared by two of the four flows), not a
    # dumbbell's rate / 4.
    import aimdlab
    from aimdlab.plots import overview

    result = aimdlab.run(aimdlab.load(package_folder("examples") / "parking-lot.toml"))
    cwnd, queue, goodput = overview(result).axes
    assert queue.get_legend_handles_labels()[1] == ["r1->r2", "r2->r3", "r3->r4"]
    assert [line.get_label() for line in queue.get_lines()] == ["r1->r2", "r2->r3", "r3->r4"]
    shares = [line for line in goodput.get_lines() if line.get_label().startswith("max-min fair share")]
    assert [line.get_label() for line in shares] == ["max-min fair share 5 Mbit/s"] and shares[0].get_ydata()[0] == 5.0
    # and a dumbbell's, where all four flows cross the 5 Mbit/s bottleneck, is rate / 4
    dumbbell = overview(aimdlab.run(aimdlab.load(package_folder("examples") / "utilization.toml"))).axes[2]
    assert "max-min fair share 1.25 Mbit/s" in dumbbell.get_legend_handles_labels()[1]
