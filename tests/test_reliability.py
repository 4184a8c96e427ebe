"""Inputs that used to hang, abort, panic or give an error naming no field: each is now a
clean one-line error naming the field, or a completed run. (The smallest reproducers, kept
here as scenarios.)"""

from __future__ import annotations

import datetime
import decimal
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import aimdlab
import numpy as np
import pytest
from aimdlab import ScenarioError
from conftest import dumbbell


def _small(**kw):
    return dumbbell(**{"rate": "10Mbps", "delay": "10ms", "duration": "2s", **kw})


def _error(scenario) -> str:
    with pytest.raises(ScenarioError) as e:
        aimdlab.validate(scenario)
    return str(e.value)


# --- time always advances ---------------------------------------------------------------

@pytest.mark.parametrize("field", ["min_rto", "max_rto", "initial_rto", "delayed_ack_timeout"])
def test_a_zero_timer_is_refused_naming_it(field):
    msg = _error(_small(tcp={field: "0s", "send_jitter": "1ms"}))
    assert msg.startswith(f"tcp.{field}: 0s is too short; expected at least 1us"), msg


def test_a_source_whose_packets_would_be_zero_time_apart_is_refused():
    sc = _small(tcp={"mss": "1B", "header": "0B"}, flow={"app": {"kind": "onoff", "rate": "1000Tbps"}})
    msg = _error(sc)
    assert msg.startswith("flows[0].app.rate: 1000Tbps sends a 1-byte packet every 0.008ps"), msg
    assert "up to 8Gbps" in msg


def test_on_and_off_means_must_move_the_clock():
    msg = _error(_small(flow={"app": {"kind": "onoff", "on": "1ps"}}))
    assert msg.startswith("flows[0].app.on: 1ps is too short"), msg


# --- bad values name their field ---------------------------------------------------------

@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_nan_and_infinity_name_the_field(value):
    sc = _small()
    sc["topology"]["dumbbell"]["bottleneck"]["loss"] = {"model": "bernoulli", "rate": value}
    msg = _error(sc)
    assert msg.startswith("topology.dumbbell.bottleneck.loss.rate: "), msg
    assert "not a finite number" in msg


def test_numpy_scalars_are_numbers():
    sc = _small()
    sc["flows"][0]["count"] = np.int64(2)
    sc["seed"] = np.uint32(5)
    sc["topology"]["dumbbell"]["bottleneck"]["loss"] = {"model": "bernoulli", "rate": np.float32(0.01)}
    r = aimdlab.run(sc, seed=np.int64(3))
    assert r.summary["flows"] == 2 and r.summary["seed"] == 3
    assert r.scenario["flows"][0]["count"] == 2 and type(r.scenario["flows"][0]["count"]) is int
    assert r.scenario["seed"] == 3


@pytest.mark.parametrize("value,kind", [({1, 2}, "set"), (decimal.Decimal("0.1"), "Decimal"),
                                        (datetime.datetime(2020, 1, 1), "datetime"), (object(), "object")])
def test_values_of_other_types_name_the_field(value, kind):
    sc = _small()
    sc["flows"][0]["count"] = value
    msg = _error(sc)
    assert msg.startswith(f"flows[0].count: a value of type {kind} is not accepted"), msg


def test_a_key_that_is_not_a_string_names_its_table():
    sc = _small()
    sc["tcp"][3] = "x"
    assert _error(sc).startswith("tcp: the key 3 is not a string")


def test_deep_nesting_is_an_error_not_a_recursion_error():
    d: list = []
    for _ in range(10_000):
        d = [d]
    sc = _small()
    sc["description"] = d
    msg = _error(sc)
    assert msg.startswith("description" ) and "nested more than" in msg, msg[:200]
    # The same in a TOML file.
    with pytest.raises(ScenarioError, match="nested too deeply"):
        aimdlab.loads("a = " + "[" * 5000 + "]" * 5000)


def test_missing_top_level_keys_are_named():
    sc = _small()
    del sc["duration"]
    assert _error(sc).startswith("duration: is missing")
    sc = _small()
    del sc["topology"]["dumbbell"]["access"]
    assert _error(sc).startswith("topology.dumbbell.access: is missing")


def test_arrays_are_not_tables():
    sc = _small()
    sc["topology"]["dumbbell"]["bottleneck"] = ["10Mbps", "10ms"]
    msg = _error(sc)
    assert msg.startswith("topology.dumbbell.bottleneck: an array is not accepted here; expected a table"), msg


@pytest.mark.parametrize("text", ["5.s", "5\u00a0s", ".5s", "1e3ms", " 5s"])
def test_unit_strings_are_strict(text):
    assert _error(_small(warmup=text)).startswith("warmup: ")


def test_durations_above_100_days_are_refused():
    assert "at most 100 days" in _error(_small(duration="101000000s"))
    assert "at most 100 days" in _error(_small(duration="8640001s"))


def test_a_group_that_starts_at_or_after_the_end_is_an_error():
    sc = _small()
    sc["flows"].append({"count": 1, "start": "5s"})
    assert _error(sc).startswith("flows[1].start: 5s is not before the end of the run (2s)")


def test_non_utf8_file_is_one_line(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_bytes(b'\xff\xfeduration = "2s"\n')
    with pytest.raises(ScenarioError, match=r"not UTF-8 text \(byte 0xff at offset 0\)"):
        aimdlab.load(p)


def test_bad_run_arguments_are_one_line():
    with pytest.raises(ScenarioError, match="seed: True is not valid"):
        aimdlab.run(_small(), seed=True)
    with pytest.raises(ScenarioError, match="seed: 1.5 is not valid"):
        aimdlab.run(_small(), seed=1.5)
    with pytest.raises(ScenarioError, match="a str with line breaks is not a file name"):
        aimdlab.run('duration = "1s"\n' * 400)
    with pytest.raises(ScenarioError, match="cannot be read: File name too long"):
        aimdlab.run("x" * 4000)
    with pytest.raises(ScenarioError, match="scenario: a int is not a scenario"):
        aimdlab.run(5)
    with pytest.raises(ScenarioError, match="progress: 3 is not callable"):
        aimdlab.run(_small(), progress=3)


def test_scenario_json_records_the_seed_that_was_used(tmp_path):
    r = aimdlab.run(_small(), seed=42)
    r.save(tmp_path / "r")
    assert json.loads((tmp_path / "r" / "scenario.json").read_text())["seed"] == 42


# --- memory is bounded before it is spent ------------------------------------------------

def test_a_scenario_above_the_memory_limit_is_refused_naming_the_field():
    sc = _small(sample_interval="1us")
    sc["flows"][0]["count"] = 10
    with pytest.raises(ScenarioError) as e:
        aimdlab.validate(sc, max_memory="1GB")
    assert str(e.value).startswith("sample_interval: this run needs about"), str(e.value)
    sc = dumbbell(flows=100_000, duration="1s")  # 400,000 access links, each with its state
    with pytest.raises(ScenarioError) as e:
        aimdlab.validate(sc, max_memory="4GB")
    assert str(e.value).startswith("topology.dumbbell: this run needs about"), str(e.value)
    assert "per-link state" in str(e.value)


def test_the_limit_can_be_given_as_a_size_or_bytes(monkeypatch):
    from aimdlab.memory import limit_bytes

    assert limit_bytes("4GB") == 4_000_000_000 and limit_bytes(123) == 123
    monkeypatch.setenv("AIMDLAB_MAX_MEMORY", "2GiB")
    assert limit_bytes() == 2 << 30
    for bad in ("lots", 0, True, -5):
        with pytest.raises(ScenarioError, match="max_memory"):
            limit_bytes(bad)


REPRO = Path(__file__).resolve().parent / "scenarios"


def _capped(args, cap_bytes=4 << 30, timeout=300):
    """Runs the CLI with an address-space cap (like `prlimit --as`)."""
    def cap():
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (cap_bytes, cap_bytes))

    return subprocess.run([sys.executable, "-c", "from aimdlab.cli import entry; entry()", *args], preexec_fn=cap,
                          capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("name,field", [("validate_100k_flows.toml", "topology.dumbbell"),
                                        ("sample_interval_1us_10flows.toml", "sample_interval")])
def test_large_scenarios_under_a_4_gib_cap_are_refused_not_aborted(tmp_path, name, field):
    for verb in (["validate"], ["run", "--no-figure", "--out", str(tmp_path / "o")]):
        r = _capped([*verb[:1], str(REPRO / name), *verb[1:]])
        err = r.stderr.decode()
        assert r.returncode == 1, (r.returncode, err[-500:])
        assert f"{name}: {field}: this run needs about" in err, err
        assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err


def test_a_set_that_shrinks_a_too_big_scenario_lets_it_run(tmp_path):
    name = "sample_interval_1us_10flows.toml"
    r = _capped(["run", str(REPRO / name), "--set", "sample_interval=100ms", "--set", "duration=1s",
                 "--no-figure", "--json", "--out", str(tmp_path / "o")])
    assert r.returncode == 0, r.stderr.decode()[-500:]
    assert json.loads(r.stdout)["summary"]["packets"]["delivered"] > 0
    r = _capped(["run", str(REPRO / name), "--set", "duration=5s", "--no-figure", "--out", str(tmp_path / "o")])
    err = r.stderr.decode()
    assert r.returncode == 1 and "sample_interval: this run needs about" in err, err


def test_a_10000_flow_dumbbell_runs_under_a_4_gib_cap(tmp_path):
    r = _capped(["run", str(REPRO / "dumbbell_10000_flows.toml"), "--no-figure", "--json", "--out", str(tmp_path / "o")])
    assert r.returncode == 0, r.stderr.decode()[-500:]
    summary = json.loads(r.stdout)["summary"]
    assert summary["flows"] == 10_000 and summary["packets"]["delivered"] > 0


def test_under_a_1_5_gib_address_space_cap_a_10000_flow_dumbbell_runs(tmp_path):
    # address_space_cap_refuses_all.sh: the default limit came out as 0 and every run was refused.
    r = _capped(["run", str(REPRO / "dumbbell_10000_flows.toml"), "--no-figure", "--json", "--out", str(tmp_path / "o")], cap_bytes=3 << 29)
    assert r.returncode == 0, r.stderr.decode()[-500:]
    assert json.loads(r.stdout)["summary"]["flows"] == 10_000


def test_a_default_limit_too_small_for_any_run_names_where_it_came_from(tmp_path):
    r = _capped(["validate", str(REPRO / "dumbbell_10000_flows.toml")], cap_bytes=340 << 20)
    err = r.stderr.decode().strip()
    assert r.returncode == 1 and len(err.splitlines()) == 1, err
    assert err.startswith("Error: memory limit: ") and "the address-space limit (ulimit -v) of 340.0 MiB less" in err, err
    assert "is below the 64 MB every run takes" in err and "--max-memory:" not in err, err


SMALL_TOML = ('duration = "5s"\n[topology.dumbbell]\nbottleneck = { rate = "10Mbps", delay = "10ms" }\n'
              'access = { rate = "100Mbps", delay = "1ms" }\n[[flows]]\ncount = 1\n')


def test_under_a_512_mib_cap_the_default_limit_lets_a_small_run_run(tmp_path):
    # default_limit_refuses_all_at_512mib.sh: the default came out at 45 MiB and refused every
    # run, although they completed with --max-memory 1GB.
    (tmp_path / "s.toml").write_text(SMALL_TOML)
    r = _capped(["run", str(tmp_path / "s.toml"), "--no-figure", "-q", "--out", str(tmp_path / "o")], cap_bytes=512 << 20)
    assert r.returncode == 0, r.stderr.decode()[-500:]


def test_a_max_memory_above_the_cap_is_lowered_to_it_and_refuses_not_aborts(tmp_path):
    # max_memory_above_cap_aborts.sh: --max-memory 8GB under a 1 GiB cap let a 3 GB run start,
    # and it aborted (rc 134) when an allocation failed.
    big = tmp_path / "big.toml"
    big.write_text(SMALL_TOML.replace('duration = "5s"', 'duration = "20s"\nsample_interval = "1ms"').replace("count = 1", "count = 500"))
    r = _capped(["run", str(big), "--no-figure", "-q", "--out", str(tmp_path / "o"), "--max-memory", "8GB"], cap_bytes=1 << 30)
    err = r.stderr.decode().strip()
    assert r.returncode == 1 and len(err.splitlines()) == 1, err
    assert "above the memory limit of" in err and "set by max_memory / --max-memory, lowered to the address-space limit" in err, err


def test_a_scenario_above_the_default_limit_says_which_limit(tmp_path):
    r = _capped(["validate", str(REPRO / "validate_100k_flows.toml")], cap_bytes=3 << 29)
    err = r.stderr.decode()
    assert "above the memory limit of" in err and "(the default, 80 % of the address-space limit (ulimit -v) of 1.5 GiB" in err, err


def test_fq_codel_on_every_access_link_stays_small(tmp_path):
    r = _capped(["run", str(REPRO / "fq_codel_access_memory.toml"), "--no-figure", "--json", "--out", str(tmp_path / "o")], cap_bytes=3 << 30)
    assert r.returncode == 0, r.stderr.decode()[-500:]


def test_fq_codel_with_zero_byte_packets_runs():
    r = aimdlab.run(aimdlab.load(REPRO / "fq_codel_panic.toml"))
    assert r.summary["packets"]["sent"] > 0


# --- Python controllers -------------------------------------------------------------------

class _Setter(aimdlab.Controller):
    """Sets `attr` to `value` at the first ACK."""

    def __init__(self, attr, value):
        super().__init__()
        self.attr, self.value = attr, value

    def on_ack(self, ack):
        setattr(self, self.attr, self.value)


@pytest.mark.parametrize("attr,value,why", [
    ("cwnd", "ten", "is not a number"), ("cwnd", None, "is not a number"), ("cwnd", 10**400, "is too large for a float"),
    ("cwnd", float("nan"), "not a positive finite number"), ("cwnd", True, "is a bool"),
    ("ssthresh", float("nan"), "not a positive number"), ("ssthresh", -1.0, "not a positive number"),
])
def test_bad_controller_values_name_class_attribute_and_flow(attr, value, why):
    sc = _small()
    sc["flows"][0]["count"] = 2
    sc["flows"][0]["cc"] = _Setter(attr, value)
    with pytest.raises(ValueError) as e:
        aimdlab.run(sc)
    msg = str(e.value)
    assert msg.startswith("controller _Setter of flow ") and f": {attr} " in msg and why in msg, msg


def test_infinite_ssthresh_is_allowed():
    sc = _small()
    sc["flows"][0]["cc"] = _Setter("ssthresh", float("inf"))
    aimdlab.run(sc)


class _GrowingState(aimdlab.Controller):
    def __init__(self):
        super().__init__()
        self.n = 0

    def state(self):
        self.n += 1
        return {f"x{self.n}": 1.0}


def test_state_keys_are_fixed_by_the_first_sample():
    sc = _small()
    sc["flows"][0]["cc"] = _GrowingState()
    with pytest.raises(ValueError, match=r'state\(\) returned the keys \["x2"\], but the first sample had \["x1"\]'):
        aimdlab.run(sc)


class _Locked(aimdlab.Controller):
    def __init__(self):
        super().__init__()
        self.lock = threading.Lock()


def test_a_controller_that_cannot_be_copied_names_the_group():
    sc = _small()
    sc["flows"][0]["cc"] = _Locked()
    with pytest.raises(ScenarioError, match=r"flows\[0\].cc: the _Locked object cannot be copied"):
        aimdlab.run(sc)


class _Slow(aimdlab.Controller):
    def on_ack(self, ack):
        time.sleep(0.005)
        if ack.newly_acked_pkts:
            self.cwnd += 1.0 / self.cwnd


def test_an_exception_in_progress_stops_the_engine_before_run_returns(monkeypatch):
    sc = _small(duration="5000s")
    controls = []
    real_control = aimdlab._core.RunControl

    def recorded_control():
        controls.append(real_control())
        return controls[-1]

    monkeypatch.setattr(aimdlab._core, "RunControl", recorded_control)

    def progress(now_s, total_s):
        raise RuntimeError("bug in my progress bar")

    with pytest.raises(RuntimeError, match="bug in my progress bar"):
        aimdlab.run(sc, progress=progress)
    assert not [t for t in threading.enumerate() if t.name == "aimdlab-run" and t.is_alive()]
    # The run was cancelled, not simulated to its end, and its clock no longer moves:
    # nothing keeps simulating in the background.
    (control,) = controls
    stopped_at_s = control.now_s()
    assert stopped_at_s < 5000
    time.sleep(0.2)
    assert control.now_s() == stopped_at_s


CTRL_C_SCRIPT = """
import os, signal, sys, threading, time
import aimdlab
{controller}
sc = {{"duration": "5000s",
      "topology": {{"dumbbell": {{"bottleneck": {{"rate": "1Gbps", "delay": "10ms"}}, "access": {{"rate": "10Gbps", "delay": "1ms"}}}}}},
      "flows": [{{"count": 2, "cc": {cc}}}]}}
def press_ctrl_c_three_times():
    for _ in range(3):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.001)
ctrl_c = threading.Timer(0.5, press_ctrl_c_three_times)
ctrl_c.daemon = True
ctrl_c.start()
try:
    aimdlab.run(sc)
except KeyboardInterrupt:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    alive = [t for t in threading.enumerate() if t.name == "aimdlab-run" and t.is_alive()]
    print("interrupted; engine alive:", bool(alive), flush=True)
    time.sleep(0.2)
    sys.exit(130)
"""

SLOW = """
class Slow(aimdlab.Controller):
    def on_ack(self, ack):
        time.sleep(0.005)
        if ack.newly_acked_pkts:
            self.cwnd += 1.0 / self.cwnd
"""


@pytest.mark.parametrize("controller,cc", [("", '"reno"'), (SLOW, "Slow()")], ids=["builtin", "slow-python"])
def test_ctrl_c_in_a_script_stops_the_engine_and_exits_cleanly(controller, cc):
    r = subprocess.run([sys.executable, "-c", CTRL_C_SCRIPT.format(controller=controller, cc=cc)], capture_output=True, timeout=120)
    assert r.returncode == 130, (r.returncode, r.stderr.decode()[-800:])
    assert r.stdout.decode().strip() == "interrupted; engine alive: False"
    assert b"FATAL" not in r.stderr


# --- results folders -----------------------------------------------------------------------

def test_out_is_checked_before_simulating(tmp_path, examples_dir, monkeypatch):
    from aimdlab.cli import main
    from click.testing import CliRunner

    simulated = []
    monkeypatch.setattr(aimdlab._core, "run", lambda *args: simulated.append(args))

    afile = tmp_path / "file"
    afile.write_text("x")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "thesis.tex").write_text("x")
    cases = [
        (str(afile / "sub"), "file is a file, not a folder; expected a folder path"),
        (str(afile), "is a file; expected a folder"),
        ("", "the path is empty text"),
        (str(tmp_path / "notes"), "holds files that are not aimdlab results (thesis.tex)"),
        (str(tmp_path / ("x" * 300)), "cannot write results there: File name too long"),
    ]
    if os.geteuid() != 0:
        ro = tmp_path / "ro"
        ro.mkdir(mode=0o500)
        cases.append((str(ro / "o"), "Permission denied"))
    for out, why in cases:
        r = CliRunner().invoke(main, ["run", str(examples_dir / "utilization.toml"), "--out", out])
        assert r.exit_code == 1, (out, r.output)
        assert why in r.output and len(r.output.strip().splitlines()) == 1, (out, r.output)
        assert "simulating" not in r.output
        assert simulated == [], "it simulated first"
    assert (tmp_path / "notes" / "thesis.tex").exists()


def test_a_stale_temporary_file_is_cleaned_with_the_folder(tmp_path):
    r = aimdlab.run(_small())
    out = r.save(tmp_path / "r")
    (out / ".flows.parquet.abc.tmp").write_bytes(b"stale")
    r.save(out)
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["flows.parquet", "links.parquet", "timeseries.parquet", "link_timeseries.parquet", "scenario.json", "summary.json", "provenance.json"])


def test_ctrl_c_surfacing_as_another_exception_is_still_exit_130(tmp_path, monkeypatch, capsys):
    # Seen in CI: Ctrl-C during matplotlib's import became "RuntimeError: Error calling
    # __set_name__ ..." with the KeyboardInterrupt as its cause, and printed a traceback.
    import aimdlab.plots
    from aimdlab.cli import main

    def interrupted_import(result):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as e:
            raise RuntimeError("Error calling __set_name__") from e

    monkeypatch.setattr(aimdlab.plots, "overview", interrupted_import)
    scenario = tmp_path / "s.toml"
    scenario.write_text('name = "s"\nduration = "1s"\n[topology.dumbbell]\n'
                        'bottleneck = { rate = "1Mbps", delay = "5ms" }\naccess = { rate = "10Mbps", delay = "1ms" }\n'
                        '[[flows]]\ncount = 1\ncc = "reno"\n')
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as exit_:
        main(["run", str(scenario), "--out", str(out)])
    assert exit_.value.code == 130
    assert "interrupted" in capsys.readouterr().err
    assert not out.exists() and [p.name for p in tmp_path.iterdir()] == ["s.toml"]


def test_ctrl_c_while_saving_is_not_lost_inside_a_callback(tmp_path, monkeypatch, capsys):
    # Seen in CI: Ctrl-C landing inside importlib's module-lock callback was printed as
    # "Exception ignored in ..." and lost. Here it lands inside a __del__, where Python
    # likewise cannot raise it; it must still stop the save (exit 130, nothing written).
    import os
    import signal as signal_
    import time as time_

    import aimdlab.result
    from aimdlab.cli import main

    class _Interrupting:
        def __del__(self):
            os.kill(os.getpid(), signal_.SIGINT)
            time_.sleep(0.05)  # the handler runs here, inside __del__

    real = aimdlab.result.Result.write_files

    def write_files(self, folder):
        _Interrupting()  # collected at once: its __del__ runs now
        return real(self, folder)

    monkeypatch.setattr(aimdlab.result.Result, "write_files", write_files)
    scenario = tmp_path / "s.toml"
    scenario.write_text('name = "s"\nduration = "1s"\n[topology.dumbbell]\n'
                        'bottleneck = { rate = "1Mbps", delay = "5ms" }\naccess = { rate = "10Mbps", delay = "1ms" }\n'
                        '[[flows]]\ncount = 1\ncc = "reno"\n')
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as exit_:
        main(["run", str(scenario), "--out", str(out), "--no-figure"])
    assert exit_.value.code == 130
    err = capsys.readouterr().err
    assert "interrupted" in err and "Exception ignored" not in err, err
    assert not out.exists()


def test_start_jitter_reaching_past_the_end_is_refused_naming_it():
    # start_jitter_past_end.toml: 10 flows started after a 1 s run, NaN metrics, goodput -0.0.
    msg = _error(_small(duration="1s", flow={"count": 10, "start": "0.5s", "start_jitter": "10s"}))
    assert msg.startswith("flows[0].start_jitter: 10s lets flows start as late as 10.5s, past the end of the run (1s)"), msg
    aimdlab.validate(_small(duration="1s", flow={"start": "0.5s", "start_jitter": "0.5s"}))  # up to the end is fine


def test_two_links_whose_traces_would_share_a_file_are_refused():
    # pcap_file_name_collision.toml: "a-b->c" and "a->b-c" both saved as a-b-c.pcap.
    sc = {"duration": "1s", "pcap": ["a-b->c", "a->b-c"],
          "topology": {"explicit": {"nodes": ["a-b", "c", "a", "b-c"],
                                    "links": [{"from": "a-b", "to": "c", "rate": "10Mbps", "delay": "1ms"},
                                              {"from": "a", "to": "b-c", "rate": "10Mbps", "delay": "1ms"}]}},
          "flows": [{"src": "a-b", "dst": "c"}, {"src": "a", "dst": "b-c"}]}
    msg = _error(sc)
    assert msg.startswith('pcap[1]: "a->b-c" would be saved as a-b-c.pcap, like pcap[0] "a-b->c"'), msg


def test_a_control_character_in_a_node_name_is_refused_naming_it():
    # pcap_nul_in_node_name.toml: a NUL in a node name ended in "embedded null byte" when saving.
    sc = {"duration": "1s", "topology": {"explicit": {"nodes": ["h\x00x", "r"], "links": [{"from": "h\x00x", "to": "r", "rate": "10Mbps", "delay": "1ms"}]}},
          "flows": [{"src": "h\x00x", "dst": "r"}]}
    assert _error(sc).startswith('topology.explicit.nodes[0]: "h\\0x" holds a control character'), _error(sc)


LOOPING = """
class Looping(aimdlab.Controller):
    def on_ack(self, ack):
        while ack.now_s > 0.2:  # a bug: the hook never returns
            pass
        self.cwnd += 1.0 / self.cwnd
"""

BLOCKING_SCRIPT = """
import os, signal, sys, threading, time
import aimdlab
class Blocking(aimdlab.Controller):
    def on_ack(self, ack):
        if ack.now_s > 0.2:
            print("blocked", flush=True)
            time.sleep(3600)
sc = {"duration": "10s", "topology": {"dumbbell": {"bottleneck": {"rate": "10Mbps", "delay": "10ms"}, "access": {"rate": "100Mbps", "delay": "1ms"}}},
      "flows": [{"count": 1, "cc": Blocking()}]}
aimdlab.run(sc)
"""


def test_ctrl_c_stops_a_python_hook_that_loops():
    # controller_loop_ctrl_c_ignored.py: two Ctrl-C did nothing while a hook looped.
    r = subprocess.run([sys.executable, "-c", CTRL_C_SCRIPT.format(controller=LOOPING, cc="Looping()")], capture_output=True, timeout=120)
    assert r.returncode == 130, (r.returncode, r.stderr.decode()[-800:])
    assert r.stdout.decode().strip() == "interrupted; engine alive: False"


def test_ctrl_c_on_a_blocked_hook_says_so_and_a_third_exits():
    p = subprocess.Popen([sys.executable, "-c", BLOCKING_SCRIPT], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "blocked"
        # A few bytecodes lie between the print and the sleep: a Ctrl-C landing there stops the
        # hook at once (as it should). Half a second on, the hook is inside its sleep.
        time.sleep(0.5)
        p.send_signal(signal.SIGINT)  # raised in the hook at its next bytecode: after the sleep
        time.sleep(1.2)
        p.send_signal(signal.SIGINT)  # still blocked a second later: the user is told
        line = p.stderr.readline()
        assert line.startswith("aimdlab: the run stops when the Python controller's hook now running returns"), line
        time.sleep(0.3)  # the user reads it, and presses again
        p.send_signal(signal.SIGINT)
        assert p.wait(timeout=30) == 130
    finally:
        p.kill()
        p.communicate()


# --- trace files are bounded before the run ------------------------------------------------

def _trace_scenario(path) -> dict:
    return _small(flow={"app": {"kind": "trace", "file": str(path)}, "transport": "udp"})


def test_a_trace_whose_frames_share_one_time_is_refused_naming_the_file(tmp_path):
    # trace_same_timestamp_hang.sh: a 1 ps replay period, 2 s of simulated time in 9 days.
    (tmp_path / "frames.txt").write_text("0 0 I 1500\n1 0 P 1500\n")
    msg = _error(_trace_scenario(tmp_path / "frames.txt"))
    assert msg.startswith("flows[0].app.file: ") and "its 2 frames span 0s, a mean frame interval of 0s; expected at least 1us" in msg, msg
    (tmp_path / "ps.txt").write_text("0 0 I 1500\n1 0.000000001 P 1500\n")  # 1 ps apart
    assert "expected at least 1us" in _error(_trace_scenario(tmp_path / "ps.txt"))
    (tmp_path / "ok.txt").write_text("0 0 I 1500\n1 0 P 1500\n2 40 P 1500\n")  # two at once, then 40 ms on
    aimdlab.validate(_trace_scenario(tmp_path / "ok.txt"))


def test_a_trace_file_that_is_not_a_regular_file_is_refused_without_reading_it(tmp_path):
    # trace_file_read_unbounded.toml (/dev/zero grew to 4.3 GB) and trace_fifo_ctrl_c_ignored.sh.
    os.mkfifo(tmp_path / "fifo")
    for path in ("/dev/zero", tmp_path / "fifo", tmp_path):
        msg = _error(_trace_scenario(path))
        assert msg == f'flows[0].app.file: "{path}" is not a regular file (a folder, FIFO or device); expected a frame-size trace file', msg


def test_a_trace_file_above_64_mib_is_refused_before_it_is_read(tmp_path):
    big = tmp_path / "big.txt"
    with open(big, "wb") as f:
        f.truncate((64 << 20) + 1)  # sparse: nothing is written
    assert _error(_trace_scenario(big)).endswith("is larger than 64 MiB; expected a frame-size trace file up to that size")


def test_a_traces_frames_are_in_the_memory_estimate(tmp_path):
    (tmp_path / "t.txt").write_text("".join(f"{i} {40 * i} P 1000\n" for i in range(100_000)))
    parts = {what: size for what, _field, size in aimdlab.memory_estimate(_trace_scenario(tmp_path / "t.txt"))["parts"]}
    assert parts.get("trace files' frames") == 100_000 * 16, parts


def test_packets_held_by_send_jitter_are_in_the_memory_estimate():
    # send_jitter_cbr_abort.toml: validate said 64 MB, the run aborted under a 4 GiB cap.
    sc = _small(duration="2s", tcp={"mss": "40B", "send_jitter": "1s"},
                flow={"count": 4, "transport": "udp", "app": {"kind": "cbr", "rate": "100Gbps"}})
    sc["topology"]["dumbbell"]["access"]["rate"] = "1bps"
    msg = _error(sc)
    assert msg.startswith("tcp.send_jitter: this run needs about") and "packets held by send jitter" in msg, msg
    parts = {what: size for what, _f, size in aimdlab.memory_estimate(_small(tcp={"send_jitter": "10ms"},
                                                                            flow={"transport": "udp", "app": {"kind": "cbr", "rate": "8Mbps"}}))["parts"]}
    # 8 Mbit/s of 1460-byte payloads for 10 ms: 7 packets (and one more), two ring entries each.
    assert 8 * 64 <= parts["packets held by send jitter"] <= 8 * 2 * 256, parts


@pytest.mark.parametrize("field, value", [("cwnd_trace", 1.5), ("sampled_flows", {"a": 1}), ("cwnd_trace", "some")])
def test_a_bad_flow_choice_says_what_is_accepted(field, value):
    # cwnd_trace_serde_message.toml: "data did not match any variant of untagged enum SampledFlows".
    sc = _small()
    sc[field] = value
    msg = _error(sc)
    assert "untagged" not in msg and msg.startswith(f"{field}:"), msg
    assert msg.endswith('is not a choice of flows; expected "all", "none" or a list of flow indices such as [0, 3]') or "expected" in msg, msg


def test_a_lone_surrogate_in_a_name_names_the_field():
    # surrogate_name_no_field.py: "the scenario is not valid JSON: unexpected end of hex escape".
    sc = _small()
    sc["name"] = "\ud800"
    assert _error(sc) == "name: '\\ud800' is not valid text (a lone surrogate at 0); expected UTF-8 text"
    sc = _small()
    sc["flows"][0]["name"] = "ok\udcff"
    assert _error(sc).startswith("flows[0].name: 'ok\\udcff' is not valid text")


def test_a_device_is_not_a_scenario_and_a_file_in_the_out_path_is_named(tmp_path):
    # "/dev/null" was reported as "no such file"; "--out afile/sub" as "File exists".
    with pytest.raises(ScenarioError) as e:
        aimdlab.load("/dev/null")
    assert str(e.value) == "/dev/null: is not a regular file (a device or FIFO); expected a scenario file (.toml)"
    from aimdlab.run_folder import OutputError, RunFolder

    (tmp_path / "afile").write_text("x")
    with pytest.raises(OutputError) as e:
        RunFolder(tmp_path / "afile" / "sub")
    assert str(e.value).endswith(f"{tmp_path / 'afile'} is a file, not a folder; expected a folder path"), str(e.value)


def test_a_full_disk_names_the_file_it_could_not_write(tmp_path, monkeypatch):
    # "[Errno 28] No space left on device" named no file.
    import errno as errno_

    from aimdlab.result import write_atomic

    def full(fd):
        raise OSError(errno_.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError) as e:
        write_atomic(tmp_path / "report.html", b"x")
    assert e.value.filename == str(tmp_path / "report.html") and e.value.errno == errno_.ENOSPC
    assert not list(tmp_path.iterdir())  # no temporary left


def test_a_python_controller_group_is_validated_before_it_is_copied_per_flow():
    # python_controller_huge_count.py: 2^32 - 1 copies for 92 s and 3.5 GB, then "cannot be copied
    # (MemoryError)"; and validate refused the Controller instance that run accepts.
    class Reno(aimdlab.Controller):
        def on_ack(self, ack):
            self.cwnd += 1.0 / self.cwnd

    sc = _small(flow={"count": 2**32 - 1, "cc": Reno()})
    for check in (aimdlab.validate, aimdlab.run):
        with pytest.raises(ScenarioError) as e:
            check(sc)
        assert str(e.value) == "flows: 4294967295 flows in all; expected at most 100000"
    ok = _small(flow={"count": 2, "cc": Reno()})
    aimdlab.validate(ok)
    assert aimdlab.run(ok).summary["flows"] == 2
