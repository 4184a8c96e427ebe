"""Long runs report progress and can be stopped."""

from __future__ import annotations

import threading

import aimdlab
import pytest
from aimdlab import _core
from conftest import dumbbell


def long_scenario():
    return dumbbell(rate="1Gbps", access_rate="10Gbps", buffer="2000pkt", flows=20, duration="200s")


def test_progress_reports_simulated_time_in_order():
    seen = []
    sc = dumbbell(rate="1Gbps", access_rate="10Gbps", buffer="2000pkt", flows=10, duration="8s")
    aimdlab.run(sc, progress=lambda now, total: seen.append((now, total)))
    assert seen, "a run of several hundred ms reports progress"
    assert all(total == 8.0 for _, total in seen)
    times = [now for now, _ in seen]
    assert times == sorted(times) and 0 <= times[0] and times[-1] <= 8.0


def test_cancel_stops_a_run_early():
    control = _core.RunControl()
    outcome = {}

    def work():
        try:
            outcome["raw"] = _core.run(aimdlab.to_json(long_scenario()), None, control)
        except BaseException as e:
            outcome["error"] = e

    t = threading.Thread(target=work)
    t.start()
    while control.now_s() == 0.0 and t.is_alive():
        t.join(0.01)
    control.cancel()
    t.join(30)
    assert not t.is_alive()
    assert isinstance(outcome.get("error"), aimdlab.RunCancelled)
    assert control.now_s() < 200.0


def test_engine_errors_are_runtime_errors_not_crashes():
    assert issubclass(aimdlab.EngineError, RuntimeError)
    assert issubclass(aimdlab.RunCancelled, RuntimeError)
    with pytest.raises(aimdlab.ScenarioError):
        aimdlab.run({"duration": "1s"})
