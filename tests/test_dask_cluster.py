"""A sweep of a Python controller on a real Dask cluster: a scheduler and two workers started as
processes of their own, in a folder that lacks the controller's module. The sweep sends the
module from the current folder to the workers, and every run completes."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("distributed")

MODULE = '''
import aimdlab

class ClusterAimd(aimdlab.Controller):
    def __init__(self, beta=0.5):
        super().__init__()
        self.beta = beta

    def on_ack(self, ack):
        if ack.newly_acked_pkts and not ack.in_recovery:
            self.cwnd += 1.0 if self.cwnd < self.ssthresh else 1.0 / self.cwnd

    def on_congestion(self, event):
        self.ssthresh = max(self.beta * self.cwnd, 2.0)
        self.cwnd = 1.0 if event.kind == "timeout" else self.ssthresh
'''

EXPERIMENT = '''
name = "cluster"
seeds = 2
[scenario]
duration = "2s"
topology = { dumbbell = { bottleneck = { rate = "10Mbps", delay = "10ms", queue = { limit = "30pkt" } }, access = { rate = "100Mbps", delay = "1ms" } } }
flows = [{ count = 2, cc = { python = "clustercc:ClusterAimd", beta = 0.5 }, start_jitter = "0.1s" }]
[axes]
"flows[0].cc.beta" = [0.4, 0.5, 0.6, 0.7, 0.8]
'''


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _dask(*args: str, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_" + args[0], *args[1:]], cwd=cwd,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


@pytest.mark.slow
def test_a_python_controller_runs_on_workers_that_lack_its_module(tmp_path):
    from distributed import Client

    elsewhere, here = tmp_path / "workers", tmp_path / "client"
    elsewhere.mkdir()
    here.mkdir()
    (here / "clustercc.py").write_text(MODULE)
    (here / "exp.toml").write_text(EXPERIMENT)
    address = f"tcp://127.0.0.1:{_free_port()}"
    procs = [_dask("scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1], "--dashboard-address", ":0", cwd=elsewhere)]
    try:
        procs += [_dask("worker", address, "--nthreads", "1", "--name", f"w{i}", "--no-dashboard", cwd=elsewhere) for i in (1, 2)]
        with Client(address, timeout="60s") as client:
            client.wait_for_workers(2, timeout=120)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        r = subprocess.run([sys.executable, "-m", "aimdlab", "sweep", "exp.toml", "--scheduler", address, "--out", "st", "-q"],
                           cwd=here, capture_output=True, text=True, timeout=600, env=env)
        assert r.returncode == 0, r.stderr
        import aimdlab

        catalog = aimdlab.open_sweep(here / "st").catalog.to_pandas()
        assert (catalog["status"] == "ok").sum() == 10
    finally:
        for p in procs:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait(timeout=30)
