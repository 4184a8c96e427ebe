"""SIGKILL of `aimdlab sweep` (or the OOM killer) leaves no process behind: the local pool's
workers die with the sweep (shared/repro/2026-11-26/sweep_sigkill_orphans_workers.sh: they
lived on, ~130 MB each, holding the sweep's output pipes)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")

LONG = """name = "long"
[scenario]
duration = "600s"  # minutes of work: every test stops it long before it ends
topology = { dumbbell = { bottleneck = { rate = "1Gbps", delay = "10ms", queue = { limit = "300pkt" } }, access = { rate = "10Gbps", delay = "1ms" } } }
flows = [{ count = 8 }]
[axes]
"topology.dumbbell.bottleneck.delay" = ["5ms", "20ms", "50ms", "80ms"]
"""


def _session(sid: int) -> list:
    """The live (not zombie) processes of session `sid`."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == sid and fields[0] != "Z":  # fields: state, ppid, pgrp, session, ...
            out.append(int(stat.parent.name))
    return out


@contextlib.contextmanager
def _in_own_session(cmd, **popen):
    """`cmd` started in a session of its own (as a terminal's job); on the way out, it and
    whatever of its session is still alive are killed."""
    proc = subprocess.Popen(cmd, start_new_session=True, **popen)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        if proc.stderr:
            proc.stderr.close()
        for pid in _session(proc.pid):
            os.kill(pid, signal.SIGKILL)


def _still_alive_after(sid: int, seconds: float) -> list:
    """The processes of session `sid` still alive once they are all gone or `seconds` passed."""
    deadline = time.monotonic() + seconds
    while _session(sid) and time.monotonic() < deadline:
        time.sleep(0.1)
    return _session(sid)


def _ctrl_c_once_executing(proc, settle_s: float) -> str:
    """Waits until `proc` says its workers run ("executing ..."), then `settle_s` more, then
    sends its whole process group SIGINT, as Ctrl-C in a terminal does; returns what it writes
    to stderr after that."""
    for line in proc.stderr:
        if line.startswith("executing"):
            break
    time.sleep(settle_s)
    os.killpg(proc.pid, signal.SIGINT)
    return proc.stderr.read()


def test_sigkill_of_a_two_job_sweep_leaves_no_process_alive_within_5_s(tmp_path):
    (tmp_path / "long.toml").write_text(LONG)
    with _in_own_session([sys.executable, "-m", "aimdlab.cli", "sweep", "long.toml", "--out", "st", "--jobs", "2"],
                         cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as sweep:
        deadline = time.monotonic() + 120
        while len(_session(sweep.pid)) < 3:  # the sweep and its two workers (at least)
            assert sweep.poll() is None and time.monotonic() < deadline, "the sweep's workers never started"
            time.sleep(0.1)
        time.sleep(1.0)  # the workers are inside their runs
        os.kill(sweep.pid, signal.SIGKILL)
        sweep.wait()
        assert _still_alive_after(sweep.pid, 5.0) == [], "processes of the killed sweep are still alive 5 s later"


@pytest.mark.slow
def test_ctrl_c_under_dask_is_one_line_and_exit_130(tmp_path):
    # sweep_dask_ctrl_c_tracebacks.sh: the LocalCluster's workers got the terminal's SIGINT too
    # and printed 4 tracebacks (about 74 lines).
    pytest.importorskip("dask.distributed")
    (tmp_path / "long.toml").write_text(LONG)
    with _in_own_session([sys.executable, "-m", "aimdlab.cli", "sweep", "long.toml", "--out", "st", "--jobs", "2", "--dask"],
                         cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) as sweep:
        rest = _ctrl_c_once_executing(sweep, 2.0)
        assert sweep.wait(timeout=120) == 130
        assert "Traceback" not in rest and "WARNING" not in rest, rest[-2000:]
        assert rest.strip().splitlines()[-1].startswith("interrupted: "), rest[-500:]


def test_ctrl_c_of_a_reproduction_is_one_line_exit_130_and_leaves_no_process(tmp_path):
    # A reproduction runs every paper's sweeps as one batch on the kept pool, evaluates papers in
    # a thread and draws their figures on the same pool as it goes: Ctrl-C must stop all of it.
    with _in_own_session([sys.executable, "-m", "aimdlab.cli", "reproduce", "gaimd", "--quick", "--out", str(tmp_path / "r"),
                          "--jobs", "2"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) as repro:
        rest = _ctrl_c_once_executing(repro, 1.0)
        assert repro.wait(timeout=120) == 130
        assert "Traceback" not in rest, rest[-2000:]
        assert rest.strip().splitlines()[-1].startswith("interrupted: "), rest[-500:]
        assert _still_alive_after(repro.pid, 5.0) == [], "processes of the interrupted reproduction are still alive 5 s later"


def test_workers_started_from_a_thread_outlive_it():
    # A reproduction evaluates papers in a thread that hands figures to the pool, and so may be
    # the thread that starts a worker. Tying the workers' lives to that thread (PR_SET_PDEATHSIG
    # does: it follows the parent *thread*) killed them when it ended: "A process in the process
    # pool was terminated abruptly" on a resumed reproduction.
    import threading

    from aimdlab.sweep import executor

    executor.stop_pool()
    starter = threading.Thread(target=lambda: executor.submit(abs, -1, 2).result())
    starter.start()
    starter.join()
    try:
        assert [executor.submit(abs, -i, 2).result(timeout=60) for i in range(6)] == [0, 1, 2, 3, 4, 5]
    finally:
        executor.stop_pool()


STOP_WITH_HALF_A_RESULT = """
import os, struct, sys
from aimdlab.sweep import executor

assert executor.submit(abs, -1, 2).result(timeout=60) == 1  # the kept pool, running
pool = executor._kept_pool[1]
# A worker stopped while it writes a result leaves this in the pipe: a message header that
# promises more bytes than follow.
os.write(pool._result_queue._writer.fileno(), struct.pack("!i", 1_000_000) + b"half")
executor.stop_pool()
print("stopped")
"""


def test_stopping_the_pool_returns_when_a_worker_died_writing_its_result():
    # Ctrl-C of a reproduction hung now and then: its pool's manager thread waited for the
    # rest of a result a stopped worker had begun to write, and shutdown waited for it.
    done = subprocess.run([sys.executable, "-c", STOP_WITH_HALF_A_RESULT], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "stopped", done.stderr[-2000:]
