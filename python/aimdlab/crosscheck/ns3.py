"""ns-3 3.44 as a peer: a program of aimdlab's own (`ns3_dumbbell.cc`), compiled on first use
against the `ns3` wheel's headers and libraries into aimdlab's cache folder, run on a plan that
`scope.ns3_plan` writes, and what it measured read back.

Where the pieces come from:

- The wheel: `AIMDLAB_NS3_WHEEL` (a `.whl` file or the folder it unpacks to), else an installed
  `ns3` distribution (`pip install ns3==3.44.post0`), else a `ns3-3.44*.whl` in the cache folder,
  which the missing-wheel message says how to download (`pip download`, 69 MB, no cppyy).
- The cache folder: `AIMDLAB_CACHE`, else `$XDG_CACHE_HOME/aimdlab`, else `~/.cache/aimdlab`;
  the program is kept there as `ns3-3.44/ns3_dumbbell-<hash of its source>`, rebuilt when the
  source changes (about 6 s with g++).

Conventions of ns-3 3.44, each measured here (`tests/test_crosscheck.py` checks them when the
wheel and g++ are there):

- Every point-to-point device holds one packet in its own transmit queue (`TxQueue` `MaxSize
  1p`) under a traffic-control queue disc, the buffer: aimdlab's `ns3` profile models the same
  (`device_queue = "1pkt"`), so a FIFO `MaxSize` of L is aimdlab's `limit` of L, and the queue
  a link reports is the queue disc's (`PacketsInQueue`), as aimdlab's.
- A data packet on the wire is the segment plus 20 bytes of TCP, 12 of the timestamp option,
  20 of IP and 2 of PPP: the bottleneck's bytes (`PhyTxEnd`) count all of them, as aimdlab's
  utilization under the `ns3` profile does (`header` 40 B, `timestamps`, `framing` 2 B).
- The send buffer (`SndBufSize`, 128 KiB by default) limits a bulk sender as much as the
  receive window does; aimdlab has no send buffer, so the program gives both the scenario's
  receive window.
- The `CongestionWindow` trace of a flow sometimes reads 2³² − 1 bytes for a moment (an
  unsigned wrap, seen with `TcpBbr` in recovery); the cwnd series leaves such samples out and
  counts them (`wrapped_cwnd_samples`).
- The bottleneck's loss on data packets (a Bernoulli packet error rate) is a `RateErrorModel`
  (`ERROR_UNIT_PACKET`) as the `ReceiveErrorModel` of the bottleneck's receiving device: a
  packet is lost after its transmission, as in aimdlab; the queue disc does not see it.
- A retransmission timeout is counted when the RTO doubles (`TcpSocketBase::ReTxTimeout`), so
  each backoff counts, as aimdlab's `timeouts`; one at the 60 s cap is not seen.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import zipfile
from importlib import resources
from pathlib import Path
from typing import Any, Dict, List

__all__ = ["Ns3Error", "VERSION", "binary", "built", "cache_folder", "find_wheel", "measures", "plan_text", "run", "run_plan", "version"]

VERSION = "3.44"
WHEEL = "ns3==3.44.post0"
LIBRARIES = ["applications", "internet", "traffic-control", "point-to-point", "network", "core"]


class Ns3Error(RuntimeError):
    """ns-3, its wheel or a compiler is missing, or its run failed; the message says how to get
    what is missing, or what the program printed."""


def cache_folder() -> Path:
    """Where aimdlab keeps what it builds: `AIMDLAB_CACHE`, `$XDG_CACHE_HOME/aimdlab` or
    `~/.cache/aimdlab`."""
    if os.environ.get("AIMDLAB_CACHE"):
        return Path(os.environ["AIMDLAB_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "aimdlab"


def _missing_wheel() -> Ns3Error:
    where = cache_folder() / f"ns3-{VERSION}"
    return Ns3Error(f"ns-3 {VERSION} is not here; get its wheel (69 MB of headers and libraries) with: "
                    f"python -m pip download --no-deps -d {where} {WHEEL}")


def _unpacked(wheel: Path, into: Path) -> Path:
    """The folder `wheel` unpacks to under `into` (unpacked once, all or nothing)."""
    target = into / "wheel"
    if (target / "ns3" / "include").is_dir():
        return target / "ns3"
    partial = into / "wheel.partial"
    shutil.rmtree(partial, ignore_errors=True)
    try:
        with zipfile.ZipFile(wheel) as z:
            z.extractall(partial)
    except (zipfile.BadZipFile, OSError) as e:
        shutil.rmtree(partial, ignore_errors=True)
        raise Ns3Error(f"cannot unpack {wheel}: {e}") from None
    os.replace(partial, target)
    return target / "ns3"


def find_wheel() -> Path:
    """The folder holding ns-3's `include/` and `lib64/` (see the module's text for the order
    in which it is looked for)."""
    given = os.environ.get("AIMDLAB_NS3_WHEEL")
    folder = cache_folder() / f"ns3-{VERSION}"
    if given:
        p = Path(given)
        if p.is_file():
            folder.mkdir(parents=True, exist_ok=True)
            return _unpacked(p, folder)
        for candidate in (p / "ns3", p):
            if (candidate / "include" / "ns3").is_dir():
                return candidate
        raise Ns3Error(f"AIMDLAB_NS3_WHEEL={given}: neither a wheel file nor a folder with ns3/include")
    try:
        from importlib import metadata

        dist = metadata.distribution("ns3")
        if dist.version.startswith(VERSION):
            installed = Path(str(dist.locate_file("ns3")))
            if (installed / "include" / "ns3").is_dir():
                return installed
    except metadata.PackageNotFoundError:
        pass
    wheels = sorted(folder.glob(f"ns3-{VERSION}*.whl")) if folder.is_dir() else []
    if not wheels:
        raise _missing_wheel()
    return _unpacked(wheels[-1], folder)


def _source() -> bytes:
    return resources.files("aimdlab.crosscheck").joinpath("ns3_dumbbell.cc").read_bytes()


def _program_path() -> Path:
    source = _source()
    return cache_folder() / f"ns3-{VERSION}" / f"ns3_dumbbell-{hashlib.sha256(source).hexdigest()[:12]}"


def built() -> bool:
    """Whether the compiled peer is in the cache already (else `binary()` builds it)."""
    path = _program_path()
    return path.is_file() and os.access(path, os.X_OK)


def binary() -> Path:
    """The compiled peer, built now if it is not in the cache (a one-line error when g++ or the
    wheel is missing)."""
    path = _program_path()
    if built():
        return path
    folder, source = path.parent, _source()
    ns3 = find_wheel()
    compiler = shutil.which(os.environ.get("CXX", "g++"))
    if compiler is None:
        raise Ns3Error("no C++ compiler (g++) on PATH to build the ns-3 peer; on Debian or Ubuntu: sudo apt-get install g++")
    folder.mkdir(parents=True, exist_ok=True)
    src = folder / "ns3_dumbbell.cc"
    src.write_bytes(source)
    partial = path.with_name(path.name + ".partial")
    lib = ns3 / "lib64"
    command = [compiler, "-O2", "-std=c++20", "-DNS3_BUILD_PROFILE_RELEASE", "-DNS3_LOG_ENABLE", "-DNS3_ASSERT_ENABLE", "-D__LINUX__",
               f"-I{ns3 / 'include'}", str(src), "-o", str(partial), f"-L{lib}", f"-Wl,-rpath,{lib}",
               *[f"-lns{VERSION}-{name}" for name in LIBRARIES], "-lpthread"]
    done = subprocess.run(command, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        tail = " | ".join(done.stderr.strip().splitlines()[-3:])
        raise Ns3Error(f"building the ns-3 peer failed ({compiler}): {tail}")
    os.replace(partial, path)
    return path


def version() -> Dict[str, Any]:
    """Which ns-3 ran: its version, the wheel's folder and the program's path (None where missing)."""
    try:
        return {"version": VERSION, "wheel": WHEEL, "folder": str(find_wheel()), "program": str(binary())}
    except Ns3Error as e:
        return {"version": VERSION, "wheel": WHEEL, "missing": str(e)}


def plan_text(plan: Dict[str, Any], starts_s: List[float], seed: int) -> str:
    """The program's plan file of `plan` (what `scope.ns3_plan` gives), flow i starting at
    `starts_s[i]`, RNG run `seed`."""
    bn = plan["bottleneck"]
    lines = ["# Written by aimdlab crosscheck: the scenario in ns-3's own terms (see ns3_dumbbell.cc)."]
    lines += [f"default {name} {value}" for name, value in plan["defaults"].items()]
    lines += [f"run {seed}", f"times {plan['duration_s']!r} {plan['warmup_s']!r} {plan['sample_interval_s']!r}",
              f"bottleneck {bn['rate_bps']:.0f} {bn['delay_s']!r} {bn['qdisc']} {bn['limit_pkts']} {plan['reverse_limit_pkts']}"]
    if bn.get("loss_rate"):
        lines.append(f"loss {bn['loss_rate']!r}")
    for i, f in enumerate(plan["flows"]):
        a, r = f["access"], f["receiver_access"]
        stop = f["stop_s"] if f.get("stop_s") is not None else -1
        lines.append(f"flow {f['type_id']} {starts_s[i]!r} {stop!r} {a['rate_bps']:.0f} {a['delay_s']!r} {a['limit_pkts']} "
                     f"{r['rate_bps']:.0f} {r['delay_s']!r} {r['limit_pkts']} {f.get('max_bytes', 0)}")
    return "\n".join(lines) + "\n"


def parse_output(stdout: str) -> Dict[str, Any]:
    """The program's lines: `S` samples (cwnd in bytes) and the `W` and `E` snapshots."""
    snaps: Dict[str, Any] = {"series": []}
    for line in stdout.splitlines():
        parts = line.split()
        if parts and parts[0] == "S":
            snaps["series"].append(tuple(float(x) for x in parts[1:4]))
        elif parts and parts[0] in ("W", "E"):
            nums = [float(x) for x in parts[1:]]
            flows = [tuple(nums[k:k + 3]) for k in range(6, len(nums), 3)]
            snaps[parts[0]] = {"t": nums[0], "bytes": nums[1], "pkts": nums[2], "drops": nums[3], "marks": nums[4],
                               "queue_integral": nums[5], "flows": flows}
    return snaps


def run_plan(text: str, folder: str, name: str = "plan.txt", timeout_s: float = 3600) -> Dict[str, Any]:
    """Runs the program on `text` in `folder` (the plan and what the program printed are kept
    there) and returns the snapshots `W` and `E` and the `series` (time, queue, flow 0's cwnd
    in bytes)."""
    from .peer_run import run_program

    return run_program([str(binary())], text, folder, name, parse_output, Ns3Error, "ns-3", timeout_s)


def measures(plan: Dict[str, Any], snaps: Dict[str, Any]) -> Dict[str, Any]:
    """The crosscheck's figures of one ns-3 run, in aimdlab's definitions (`peer_run`), and
    the bottleneck queue disc's ECN marks."""
    from .peer_run import window_figures

    w, e = snaps["W"], snaps["E"]
    delta = [[b - a for a, b in zip(fw, fe)] for fw, fe in zip(w["flows"], e["flows"])]
    out = window_figures(plan, w, e, [d[0] for d in delta], [d[1] for d in delta], [d[2] for d in delta])
    out["ecn_marks"] = e["marks"] - w["marks"]
    return out


def run(plan: Dict[str, Any], starts_s: List[float], folder: str, seed: int) -> Dict[str, Any]:
    """One run of `plan` in ns-3 with flow i starting at `starts_s[i]` and RNG run `seed` (the
    plan kept in `folder` as `seed<seed>.txt`): its `measures`, and its `series` with flow 0's
    cwnd in segments — a sample of 2³² − 1 bytes or near it (an unsigned wrap) left out as NaN
    and counted in `wrapped_cwnd_samples`."""
    for f, start in zip(plan["flows"], starts_s):
        f["start_s"] = start
    snaps = run_plan(plan_text(plan, starts_s, seed), folder, name=f"seed{seed}.txt")
    mss = plan["defaults"]["ns3::TcpSocket::SegmentSize"]
    series = [(t, q, c / mss if c < 2**31 else float("nan")) for t, q, c in snaps["series"]]
    wrapped = sum(1 for _, _, c in snaps["series"] if c >= 2**31)
    return {**measures(plan, snaps), "series": series, "wrapped_cwnd_samples": wrapped}
