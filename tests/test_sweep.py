"""Sweeps (`aimdlab sweep`, `aimdlab.sweep`): experiment files name their mistakes, the store
resumes after a kill with nothing lost or duplicated, a failing run is recorded while the
others finish, every executor writes the same bytes, and the aggregate's intervals are the
Student-t ones."""

from __future__ import annotations

import json
import math
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import aimdlab
import pyarrow.parquet as pq
import pytest
from aimdlab import ScenarioError
from aimdlab.package_data import package_folder
from aimdlab.sweep import execute_run, load_experiment, open_sweep, parse_experiment, run_sweep
from aimdlab.sweep.experiment import parse_range
from aimdlab.sweep.stats import mean_std_ci95, t_quantile_975

ROOT = Path(__file__).resolve().parent.parent

# A small dumbbell: 2 s runs of a few flows, so a sweep of a dozen runs takes a second.
BASE = {
    "name": "small", "duration": "2s", "sample_interval": "100ms",
    "topology": {"dumbbell": {"bottleneck": {"rate": "5Mbps", "delay": "10ms", "queue": {"limit": "30pkt"}},
                              "access": {"rate": "50Mbps", "delay": "1ms"}}},
    "flows": [{"name": "reno", "count": 2, "cc": "reno", "start_jitter": "100ms"}],
}


def experiment(**fields) -> dict:
    return {"scenario": BASE, "seeds": 2, "axes": {"flows[0].count": [1, 3]},
            "measures": ["bottleneck.utilization", "groups.reno.goodput_bps.mean", "flows.retransmitted_pkts.sum"], **fields}


def parse(data: dict, quick: bool = False):
    return parse_experiment(data, ROOT, "test", quick=quick)


def without_wall(catalog):
    """A catalog without its engine wall time (a measurement of the machine, not of the run)."""
    return catalog.drop(["engine_wall_s"])


# --- experiment files name their mistakes ------------------------------------------------


@pytest.mark.parametrize("data, message", [
    ({"axes": {}, "bogus": 1}, "bogus: unknown field"),
    ({"axes": {"flows[0].count": []}}, 'axes."flows[0].count": is empty'),
    ({"axes": {"flows[0].cc.alpah": [0.1]}, "scenario": {**BASE, "flows": [{"count": 1, "cc": {"name": "gaimd"}}]}},
     "flows[0].cc.alpah"),
    ({"axes": {"flows[3].count": [1]}}, "flows[3]"),
    ({"axes": {"topology.dumbbell.bottleneck.rtae": ["5Mbps"]}}, "topology.dumbbell.bottleneck.rtae: is not a parameter of the bottleneck table"),
    ({"axes": {"topology.dumbbell.bottleneck.delay": "10ms..5ms step 1ms"}}, "expected FROM <= TO"),
    ({"axes": {"topology.dumbbell.bottleneck.delay": "10ms..50s step 1ms"}}, "mixes units"),
    ({"axes": {"topology.dumbbell.bottleneck.delay": "10 to 20"}}, "neither a list nor a range"),
    ({"axes": {"flows[0].count": [1, 2], "flows[0].start_jitter": ["1ms"]}, "combine": "zip"}, 'combine = "zip" takes axes of one length'),
    ({"axes": {"seed": [1, 2]}}, 'axes."seed": the seed is not an axis'),
    ({"axes": {"flows[0].count, seed": [[1, 1]]}}, 'axes."flows[0].count, seed": the seed is not an axis'),
    ({"name": "../../escaped"}, "name: '../../escaped' is not a plain name"),
    ({"name": "/tmp/abs"}, "name: '/tmp/abs' is not a plain name"),
    ({"name": "\u0000"}, "name: '\\x00' is not a plain name"),
    ({"combine": "cross"}, 'combine: "cross" is not a way'),
    ({"seeds": 0}, "seeds: 0 replications is out of range"),
    ({"seeds": [1, 1]}, "seeds: lists a seed twice"),
    ({"measures": []}, "measures: expected a non-empty list"),
    ({"quick": {"sede": 1}}, "quick.sede: unknown field"),
])
def test_a_bad_experiment_is_an_error_naming_the_field(data, message):
    with pytest.raises(ScenarioError) as e:
        parse(experiment(**data))
    assert message in str(e.value)


def test_a_measure_that_names_nothing_is_an_error_naming_it(tmp_path):
    for measure, message in [("bottlenek.utilization", 'measures[0]: "bottlenek.utilization" is not a number of the run summary'),
                             ("groups.cubic.goodput_bps.mean", "names no flow group; the groups are 'reno'"),
                             ("flows.goodput.mean", "names no column of the flows table"),
                             ("flows.goodput_bps.average", "takes the statistic 'average'"),
                             ("timeseries.cwnd.mean", "names no column of the time series ('cwnd'); its columns are time_s, flow, cwnd_pkts"),
                             ("timeseries.cwnd_pkts", "is not timeseries.[GROUP.]COLUMN.STAT"),
                             ("timeseries.cubic.cwnd_pkts.mean", "names no flow group; the groups are 'reno'"),
                             ("test_sweep:no_such_function", "is not an importable function module:function"),
                             ("no_such_module:f", "is not an importable function module:function")]:
        with pytest.raises(ScenarioError) as e:
            run_sweep(parse(experiment(measures=[measure], seeds=1, axes={})), tmp_path / "s", jobs=1)
        assert message in str(e.value)


def test_an_experiment_file_error_names_the_file_and_the_field(tmp_path):
    path = tmp_path / "e.toml"
    path.write_text('scenario = "../nowhere.toml"\n')
    with pytest.raises(ScenarioError, match=r"e\.toml: scenario: .*nowhere\.toml: no such file"):
        load_experiment(path)
    path.write_text(f'scenario = "{package_folder("examples") / "utilization.toml"}"\n[axes]\n"flows[0].cuont" = [1]\n')
    with pytest.raises(ScenarioError, match=r"e\.toml: axes \(flows\[0\]\.cuont = 1\): flows\[0\]\.cuont: is not a parameter of the flows table; .*\(did you mean count\?\)"):
        load_experiment(path)


def test_ranges_expand_with_their_unit_and_both_ends():
    assert parse_range("10ms..50ms step 10ms", "a") == ["10ms", "20ms", "30ms", "40ms", "50ms"]
    assert parse_range("0.1..0.5 step 0.1", "a") == [0.1, 0.2, 0.3, 0.4, 0.5]
    assert parse_range("1..4 step 1", "a") == [1, 2, 3, 4]
    assert parse_range("0.5Mbps..2Mbps step 0.5Mbps", "a") == ["0.5Mbps", "1.0Mbps", "1.5Mbps", "2.0Mbps"]
    assert parse_range("1..10 step 4", "a") == [1, 5, 9]


def test_zip_pairs_values_and_product_crosses_them():
    axes = {"flows[0].count": [1, 2], "topology.dumbbell.bottleneck.delay": ["10ms", "20ms"]}
    assert parse(experiment(axes=axes, combine="zip")).axis_points() == [(1, "10ms"), (2, "20ms")]
    assert len(parse(experiment(axes=axes)).axis_points()) == 4


def test_a_linked_axis_sets_its_fields_together_and_values_may_be_tables():
    exp = parse(experiment(axes={"flows[0].cc, tcp.ecn": [["reno", True], [{"name": "gaimd", "alpha": 0.2}, False]]}, seeds=1))
    first, second = (p.scenario for p in exp.points())
    assert (first["flows"][0]["cc"], first["tcp"]["ecn"]) == ("reno", True)
    assert (second["flows"][0]["cc"], second["tcp"]["ecn"]) == ({"name": "gaimd", "alpha": 0.2}, False)
    with pytest.raises(ScenarioError, match=r'axes\."flows\[0\]\.cc, tcp\.ecn"\[1\]: .* is not a list of 2 values'):
        parse(experiment(axes={"flows[0].cc, tcp.ecn": [["reno", True], ["reno"]]}))
    with pytest.raises(ScenarioError, match=r"axes \(flows\[0\]\.cc, tcp\.ecn = \['reno', 3\]\): tcp\.ecn"):
        parse(experiment(axes={"flows[0].cc, tcp.ecn": [["reno", 3]]}))


def test_quick_applies_its_seeds_and_fields():
    exp = parse(experiment(quick={"seeds": 1, "set": {"duration": "1s"}, "axes": {"flows[0].count": [2]}}), quick=True)
    assert exp.seeds == [1] and exp.axes["flows[0].count"] == [2] and exp.scenario["duration"] == "1s"


# --- statistics ---------------------------------------------------------------------------


def test_the_t_quantiles_are_students():
    # Published values of t(0.975, ν).
    for df, t in [(1, 12.706205), (2, 4.302653), (10, 2.228139), (30, 2.042272), (31, 2.039513), (40, 2.021075),
                  (60, 2.000298), (120, 1.979930), (1000, 1.962339)]:
        assert abs(t_quantile_975(df) - t) < 2e-5, df
    n, mean, std, half = mean_std_ci95([1.0, 2.0, 3.0, 4.0, float("nan")])
    assert (n, mean) == (4, 2.5) and abs(std - 1.2909944) < 1e-6 and abs(half - 3.182446 * std / 2) < 1e-9
    assert math.isnan(mean_std_ci95([5.0])[3])


# --- the store ----------------------------------------------------------------------------


def test_a_sweep_aggregates_over_seeds_and_resumes_with_nothing_to_run(tmp_path):
    exp = parse(experiment())
    calls = []
    sweep = run_sweep(exp, tmp_path / "s", jobs=1, progress=lambda p: calls.append((p.total, p.done)))
    cat = sweep.catalog.to_pandas()
    assert len(cat) == 4 and set(cat["status"]) == {"ok"} and calls[-1] == (4, 4)
    assert list(cat["flows[0].count"]) == [1, 1, 3, 3] and list(cat["seed"]) == [1, 2, 1, 2]
    agg = sweep.aggregate.to_pandas()
    for point, rows in cat.groupby("point"):
        x = rows["bottleneck.utilization"].tolist()
        n, mean, std, half = mean_std_ci95(x)
        row = agg[agg["point"] == point].iloc[0]
        assert row["bottleneck.utilization_mean"] == mean and row["bottleneck.utilization_ci95_high"] == min(1.0, mean + half)  # (clipped at 1)
    # A group measure is the mean of that group's flows in the run's own table.
    rid = cat["run_id"][2]
    flows = pq.read_table(tmp_path / "s" / "runs" / rid / "flows.parquet").to_pandas()
    assert cat["groups.reno.goodput_bps.mean"][2] == flows["goodput_bps"].mean()
    # Provenance in every summary.json.
    prov = json.loads((tmp_path / "s" / "runs" / rid / "summary.json").read_text())["provenance"]
    assert prov["seed"] == 1 and prov["aimdlab_version"] == aimdlab.__version__ and len(prov["scenario_sha256"]) == 64
    # Again: every run is found, none executes, the catalog is the same.
    again = []
    second = run_sweep(exp, tmp_path / "s", jobs=1, progress=lambda p: again.append(p.total))
    assert again == [0] and second.catalog.equals(sweep.catalog)
    assert open_sweep(tmp_path / "s").aggregate.equals(sweep.aggregate)


def test_the_tables_keep_full_precision_and_their_types(tmp_path):
    # aggregate.csv wrote 6 significant digits; the catalog's error column was typed null when
    # nothing failed (so two catalogs of one sweep could differ in schema).
    import pandas as pd

    sweep = run_sweep(parse(experiment(seeds=2)), tmp_path / "s", jobs=1)
    csv = pd.read_csv(tmp_path / "s" / "aggregate.csv")
    parquet = sweep.aggregate.to_pandas()
    column = "groups.reno.goodput_bps.mean_mean"
    assert csv[column].tolist() == parquet[column].tolist()  # the same floats, bit for bit
    assert sweep.catalog.schema.field("error").type == "string"
    assert set(sweep.catalog.column("status").to_pylist()) == {"ok"}


def flows_sent(result) -> int:
    """A Python measure for the test below: data packets sent by every flow."""
    return int(result.flows.to_pandas()["data_pkts_sent"].sum())


def test_a_time_series_measure_is_a_statistic_over_the_samples_after_the_warm_up(tmp_path):
    # MR-AIMD publishes its additive increase `a` as a time-series column of its own.
    base = {**BASE, "warmup": "1s", "flows": [{"name": "mr", "count": 2, "cc": "mr_aimd"}]}
    exp = parse({"scenario": base, "seeds": 1, "measures": ["timeseries.a.mean", "timeseries.cwnd_pkts.max / timeseries.cwnd_pkts.min",
                                                                "timeseries.mr.cwnd_pkts.cv", "test_sweep:flows_sent"]})
    sweep = run_sweep(exp, tmp_path / "s", jobs=1)
    cat = sweep.catalog.to_pandas()
    ts = pq.read_table(tmp_path / "s" / "runs" / cat["run_id"][0] / "timeseries.parquet").to_pandas()
    after = ts[ts["time_s"] > 1.0]
    assert len(after) < len(ts)  # the warm-up's samples are left out
    # Each flow's statistic, averaged over the flows.
    per_flow = after.groupby("flow")
    assert cat["timeseries.a.mean"][0] == pytest.approx(per_flow["a"].mean().mean(), rel=1e-12)
    assert cat["timeseries.cwnd_pkts.max / timeseries.cwnd_pkts.min"][0] == pytest.approx(
        per_flow["cwnd_pkts"].max().mean() / per_flow["cwnd_pkts"].min().mean())
    cv = per_flow["cwnd_pkts"].std(ddof=1) / per_flow["cwnd_pkts"].mean()
    assert cat["timeseries.mr.cwnd_pkts.cv"][0] == pytest.approx(cv.mean())
    # A Python measure is a function of the run's Result.
    assert cat["test_sweep:flows_sent"][0] == sum(pq.read_table(tmp_path / "s" / "runs" / cat["run_id"][0] / "flows.parquet")
                                                  .column("data_pkts_sent").to_pylist())


def test_measures_computed_where_the_runs_ran_are_what_their_folders_give(tmp_path):
    # The workers compute each run's measures from its tables in memory; a catalog made again
    # from the run folders alone (as when it is damaged) must hold the same values, bit for bit,
    # for every kind of measure: summary, flows table, group, time series, ratio and Python.
    base = {**BASE, "warmup": "1s", "flows": [{"name": "mr", "count": 2, "cc": "mr_aimd"}]}
    exp = parse({"scenario": base, "seeds": 2, "axes": {"flows[0].count": [1, 2]},
                 "measures": ["bottleneck.utilization", "flows.goodput_bps.mean", "groups.mr.retransmitted_pkts.sum",
                              "timeseries.cwnd_pkts.max / timeseries.cwnd_pkts.min", "timeseries.mr.cwnd_pkts.cv",
                              "test_sweep:flows_sent"]})
    sweep = run_sweep(exp, tmp_path / "s", jobs=2)
    assert set(sweep.catalog.column("status").to_pylist()) == {"ok"}
    (tmp_path / "s" / "catalog.parquet").write_bytes(b"damaged")
    again = open_sweep(tmp_path / "s")
    assert again.catalog.equals(sweep.catalog) and again.aggregate.equals(sweep.aggregate)
    # (and they were computed where the run ran: the run's outcome carries them)
    outcome = execute_run({"run_id": "r", "scenario": exp.points()[0].scenario, "measures": exp.measures})
    first = sweep.catalog.slice(0, 1).to_pylist()[0]
    assert outcome["measures"] == {m: first[m] for m in exp.measures}


def test_a_failing_run_is_recorded_with_its_scenario_and_the_others_finish(tmp_path):
    # A 1 µs sample interval over 2 s of 3 flows needs far more memory than 100 MB allows: that
    # run is refused when it starts; the other point runs.
    exp = parse(experiment(axes={"sample_interval": ["100ms", "1us"]}, seeds=1))
    sweep = run_sweep(exp, tmp_path / "s", jobs=2, max_memory=100 << 20)
    cat = sweep.catalog.to_pandas()
    assert list(cat["status"]) == ["ok", "failed"]
    assert "memory" in cat["error"][1] and math.isnan(cat["bottleneck.utilization"][1])
    record = json.loads((tmp_path / "s" / "failed" / f"{cat['run_id'][1]}.json").read_text())
    assert record["scenario"]["sample_interval"] == "1us" and record["axes"] == {"sample_interval": "1us"}
    assert sweep.aggregate.to_pandas()["runs_failed"].tolist() == [0, 1]


def test_the_cli_reports_a_failure_and_exits_1(tmp_path):
    path = tmp_path / "e.toml"
    path.write_text(json_to_toml(experiment(axes={"sample_interval": ["100ms", "1us"]}, seeds=1)))
    out = subprocess.run([sys.executable, "-m", "aimdlab.cli", "sweep", str(path), "--out", str(tmp_path / "s"), "--jobs", "1",
                          "--max-memory", "100MB"], capture_output=True, text=True)
    assert out.returncode == 1, out.stderr
    assert "1 of 2 runs failed" in out.stderr and "failed/" in out.stderr


def json_to_toml(data: dict) -> str:
    """An experiment dict as TOML (inline tables; enough for these tests)."""
    def value(v):
        if isinstance(v, dict):
            return "{ " + ", ".join(f'"{k}" = {value(x)}' for k, x in v.items()) + " }"
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return json.dumps(v)
    return "".join(f'"{k}" = {value(v)}\n' for k, v in data.items())


def run_files(root: Path) -> dict:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted((root / "runs").rglob("*")) if p.is_file()}


@pytest.mark.slow
def test_a_sweep_killed_at_any_moment_resumes_to_the_same_catalog(tmp_path):
    exp_path = tmp_path / "e.toml"
    # 48 runs of about 0.2 s (200 Mbit/s, 20 s): several seconds in all, killed every 0.5-2.5 s.
    base = {**BASE, "duration": "20s", "topology": {"dumbbell": {**BASE["topology"]["dumbbell"],
                                                                 "bottleneck": {"rate": "200Mbps", "delay": "10ms", "queue": {"limit": "300pkt"}},
                                                                 "access": {"rate": "1Gbps", "delay": "1ms"}}}}
    data = experiment(scenario=base, axes={"flows[0].count": [1, 2, 3, 4], "topology.dumbbell.bottleneck.delay": ["5ms", "10ms", "20ms"]}, seeds=4)
    exp_path.write_text(json_to_toml(data))
    whole = run_sweep(load_experiment(exp_path), tmp_path / "whole", jobs=2)
    cmd = [sys.executable, "-m", "aimdlab.cli", "sweep", str(exp_path), "--out", str(tmp_path / "killed"), "--jobs", "2"]
    runs_dir = tmp_path / "killed" / "runs"

    def saved_runs() -> int:
        return len(list(runs_dir.glob("[!.]*"))) if runs_dir.is_dir() else 0

    # Killed at moments the sweep itself marks (events, not wall-clock guesses): as soon as its
    # workers run (nothing saved yet), and as soon as the 1st, 16th and 32nd of its 48 run
    # folders are in place (the other worker in the middle of a run each time).
    t0 = time.perf_counter()
    saved = []
    for target in (0, 1, 16, 32):
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
        if target == 0:
            for line in proc.stderr:
                if line.startswith("executing"):
                    break
        else:
            while saved_runs() < target and proc.poll() is None:
                time.sleep(0.01)
        assert proc.poll() is None, f"the sweep finished before {target} runs were saved"
        os.killpg(proc.pid, signal.SIGKILL)  # the sweep and its workers, at once
        proc.wait()
        proc.stderr.close()
        saved.append(saved_runs())
    assert saved[0] < saved[1] < saved[2] < saved[3] < 48, saved
    kills = len(saved)
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    print(f"{kills} kills in {time.perf_counter() - t0:.1f} s, with {saved} runs saved")
    resumed = open_sweep(tmp_path / "killed")
    assert without_wall(resumed.catalog).equals(without_wall(whole.catalog))
    assert resumed.aggregate.equals(whole.aggregate)
    assert run_files(tmp_path / "killed") == run_files(tmp_path / "whole")
    assert not list((tmp_path / "killed" / "runs").glob(".*")), "no half-written run folder is left"


def test_every_executor_writes_the_same_bytes(tmp_path):
    pytest.importorskip("dask.distributed")
    exp = parse(experiment(axes={"flows[0].count": [1, 2, 3]}, seeds=2))
    local = run_sweep(exp, tmp_path / "local", jobs=2)
    inline = run_sweep(exp, tmp_path / "inline", jobs=1)
    cluster = run_sweep(exp, tmp_path / "cluster", jobs=2, dask=True)
    # A real scheduler and two worker processes on loopback.
    sched_file = tmp_path / "scheduler.json"
    env = {**os.environ, "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                               "--no-dashboard", "--scheduler-file", str(sched_file)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        deadline = time.monotonic() + 60
        while not sched_file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        address = json.loads(sched_file.read_text())["address"]
        for _ in range(2):
            procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                                           "--nworkers", "1", "--no-dashboard", "--host", "127.0.0.1"], env=env,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        remote = run_sweep(exp, tmp_path / "remote", scheduler=address)
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(timeout=30)
    reference = run_files(tmp_path / "local")
    assert len(reference) >= 6 * 6
    for other in (inline, cluster, remote):
        assert run_files(other.root) == reference, other.root.name
        assert without_wall(other.catalog).equals(without_wall(local.catalog)), other.root.name
        assert other.aggregate.equals(local.aggregate)


def test_a_store_refuses_a_folder_of_other_files(tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "thesis.tex").write_text("x")
    with pytest.raises(OSError, match="is not a sweep's folder"):
        run_sweep(parse(experiment(seeds=1, axes={})), tmp_path / "mine", jobs=1)
    assert (tmp_path / "mine" / "thesis.tex").exists()


def test_experiment_example_runs_quick_from_the_cli(tmp_path):
    out = subprocess.run([sys.executable, "-m", "aimdlab.cli", "sweep", str(package_folder("examples") / "sweeps/utilization-flows.toml"),
                          "--quick", "--jobs", "2", "--out", str(tmp_path / "s")], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "8 runs" in out.stdout and (tmp_path / "s" / "aggregate.csv").is_file()
    shutil.rmtree(tmp_path / "s")


def test_an_axis_of_controllers_with_parameters_gets_a_report(tmp_path):
    # A table value on an axis (a controller and its parameters) once ended the report in a
    # pandas "unhashable type: 'dict'" while grouping the lines of a figure.
    from aimdlab.sweep.report import write_report

    cc = [{"name": "gaimd", "alpha": 0.31, "beta": 0.875}, {"name": "gaimd", "alpha": 0.58, "beta": 0.75}]
    exp = parse_experiment({"scenario": BASE, "seeds": 1, "axes": {"flows[0].count": [1, 3], "flows[0].cc": cc},
                            "measures": ["goodput_total_bps"]}, ROOT, "pairs")
    run_sweep(exp, tmp_path / "s", jobs=1)
    page = Path(write_report(tmp_path / "s", run_figures=False)).read_text()
    assert page.count("data:image/png;base64,") >= 1 and '&quot;alpha&quot;: 0.58' in page


def test_an_interval_stops_at_the_measures_physical_bounds():
    import pyarrow as pa
    from aimdlab.sweep.bounds import clip_interval, measure_bounds
    from aimdlab.sweep.store import aggregate

    assert measure_bounds("bottleneck.utilization") == (0.0, 1.0)
    assert measure_bounds("jain_index") == (0.0, 1.0)
    assert measure_bounds("groups.reno.goodput_bps.mean") == (0.0, math.inf)
    assert measure_bounds("flows.retransmitted_pkts.sum") == (0.0, math.inf)
    assert measure_bounds("timeseries.cwnd_pkts.cv") == (0.0, math.inf)
    assert measure_bounds("groups.a.goodput_bps.mean / groups.b.goodput_bps.mean") == (0.0, math.inf)
    assert measure_bounds("mymod:f") == (-math.inf, math.inf)
    # From the engine's declarations, not the name: a count of marks is at least 0 (its name
    # has no unit suffix), a controller's own state variable is not declared.
    assert measure_bounds("bottleneck.ecn_marks") == (0.0, math.inf)
    assert measure_bounds("timeseries.a.mean") == (-math.inf, math.inf)
    assert measure_bounds("flows.no_such_column.mean") == (-math.inf, math.inf)
    assert clip_interval("jain_index", 0.95, 1.049) == (0.95, 1.0)
    # The cases the issue saw: utilization 1.01, Jain 1.049, retransmissions -149.
    catalog = pa.table({"point": [0] * 3, "status": ["ok"] * 3,
                        "bottleneck.utilization": [0.999, 0.997, 1.0], "jain_index": [0.99, 0.93, 1.0],
                        "retransmitted_pkts": [0.0, 0.0, 90.0]})
    agg = aggregate(catalog, [], ["bottleneck.utilization", "jain_index", "retransmitted_pkts"]).to_pylist()[0]
    assert agg["bottleneck.utilization_ci95_high"] == 1.0 and agg["bottleneck.utilization_ci95_low"] < 0.999
    assert agg["jain_index_ci95_high"] == 1.0
    assert agg["retransmitted_pkts_ci95_low"] == 0.0 and agg["retransmitted_pkts_ci95_high"] > 90.0
    n, mean, _, half = mean_std_ci95([0.0, 0.0, 90.0])
    assert agg["retransmitted_pkts_ci95_high"] == pytest.approx(mean + half), "the other end is Student's"


def test_dask_starts_with_port_8787_taken_and_warnings_as_errors(tmp_path):
    # Dask's dashboard wants port 8787; aimdlab's LocalCluster starts none, so a taken port
    # (another cluster, a notebook) is no reason to fail or to warn.
    pytest.importorskip("dask.distributed")
    import socket

    exp_path = tmp_path / "e.toml"
    exp_path.write_text(json_to_toml(experiment(axes={"flows[0].count": [1, 2]}, seeds=1)))
    with socket.socket() as taken:
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            taken.bind(("", 8787))
            taken.listen()
        except OSError:
            pass  # already taken by something else: the same situation
        done = subprocess.run([sys.executable, "-m", "aimdlab", "sweep", str(exp_path), "--out", str(tmp_path / "s"), "--dask",
                               "--jobs", "2"], capture_output=True, text=True, timeout=300,
                              env={**os.environ, "PYTHONWARNINGS": "error"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "Warning" not in done.stderr, done.stderr[-2000:]
