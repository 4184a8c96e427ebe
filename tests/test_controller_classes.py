"""Controllers written in Python, named by their class in a scenario
(`cc = { python = "module:Class", ... }`): they run as the instance would, in TOML, dicts and
sweeps (across worker processes and Dask workers, which import the module themselves), the
flows table names the class, and every mistake is one line naming the field."""

from __future__ import annotations

import sys
import textwrap

import aimdlab
import pytest
from aimdlab.sweep import load_experiment, run_sweep
from conftest import dumbbell

MODULE = textwrap.dedent('''
    import aimdlab

    class ScaledAimd(aimdlab.Controller):
        """AIMD(alpha, beta): alpha packets per RTT, window times beta on a loss."""

        def __init__(self, alpha=1.0, beta=0.5):
            super().__init__()
            if not 0 < beta < 1:
                raise ValueError(f"beta must be in (0, 1), not {beta}")
            self.alpha, self.beta = alpha, beta

        def on_ack(self, ack):
            if ack.in_recovery or ack.newly_acked_pkts == 0:
                return
            if self.cwnd < self.ssthresh:
                self.cwnd += min(ack.newly_acked_pkts, 1)
            else:
                self.cwnd += self.alpha / self.cwnd

        def on_congestion(self, event):
            self.ssthresh = max(self.beta * self.cwnd, 2.0)
            self.cwnd = 1.0 if event.kind == "timeout" else self.ssthresh

    class NotAController:
        pass

    def helper():
        pass
''')


@pytest.fixture
def module_here(tmp_path, monkeypatch):
    """`labcc.py` in the current folder (not on sys.path: the lookup finds it there)."""
    (tmp_path / "labcc.py").write_text(MODULE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.delitem(sys.modules, "labcc", raising=False)
    yield tmp_path
    sys.modules.pop("labcc", None)


def _per_flow(result):
    return result.flows.to_pandas().drop(columns=["cc"]).fillna(-1.0).to_dict("list")  # (NaN != NaN)


def _scenario(cc):
    return dumbbell(flows=2, buffer="20pkt", duration="10s", flow={"cc": cc, "start_jitter": "500ms"})


def test_a_class_named_with_parameters_runs_as_its_instance_and_the_flows_table_names_it(module_here):
    named = aimdlab.run(_scenario({"python": "labcc:ScaledAimd", "alpha": 0.31, "beta": 0.875}), seed=3)
    import labcc

    instance = aimdlab.run(_scenario(labcc.ScaledAimd(alpha=0.31, beta=0.875)), seed=3)
    assert named.summary == instance.summary
    assert _per_flow(named) == _per_flow(instance)
    assert named.flows.column("cc").to_pylist() == ["labcc:ScaledAimd"] * 2
    assert instance.flows.column("cc").to_pylist() == ["labcc:ScaledAimd"] * 2
    # The record is the class and its parameters, so the run can be repeated from its files.
    assert named.scenario["flows"][0]["cc"] == {"python": "labcc:ScaledAimd", "alpha": 0.31, "beta": 0.875}
    again = aimdlab.run(named.scenario)
    assert again.summary == named.summary
    # A different parameter is a different controller.
    other = aimdlab.run(_scenario({"python": "labcc:ScaledAimd", "alpha": 2.0, "beta": 0.5}), seed=3)
    assert other.summary["goodput_total_bps"] != named.summary["goodput_total_bps"]


def test_a_toml_file_names_the_class_and_set_changes_its_parameter(module_here):
    (module_here / "s.toml").write_text(textwrap.dedent('''
        duration = "5s"
        [topology.dumbbell]
        bottleneck = { rate = "10Mbps", delay = "20ms", queue = { limit = "30pkt" } }
        access = { rate = "100Mbps", delay = "1ms" }
        [[flows]]
        count = 2
        cc = { python = "labcc:ScaledAimd", alpha = 0.31, beta = 0.875 }
    '''))
    sc = aimdlab.apply_overrides(aimdlab.load(module_here / "s.toml"), ["flows[0].cc.alpha=2"])
    assert sc["flows"][0]["cc"]["alpha"] == 2
    result = aimdlab.run(sc)
    assert result.flows.column("cc").to_pylist() == ["labcc:ScaledAimd"] * 2
    short = aimdlab.run({**sc, "flows": [{**sc["flows"][0], "cc": "labcc:ScaledAimd"}]})  # the class alone: its defaults
    assert short.flows.column("cc").to_pylist() == ["labcc:ScaledAimd"] * 2


@pytest.mark.parametrize("cc, message", [
    ({"python": "nosuchmodule:X"}, r"^flows\[0\]\.cc\.python: no module named 'nosuchmodule' on sys\.path or in the current folder"),
    ({"python": "labcc:Missing"}, r"^flows\[0\]\.cc\.python: module 'labcc' \(.*labcc\.py\) defines no 'Missing' at its top level; nothing of it was run$"),
    ({"python": "labcc:NotAController"}, r"^flows\[0\]\.cc\.python: 'labcc:NotAController' is a class that is not a subclass of aimdlab\.Controller"),
    ({"python": "labcc:helper"}, r"^flows\[0\]\.cc\.python: 'labcc:helper' is a function that is not a subclass of aimdlab\.Controller"),
    ({"python": "labcc ScaledAimd"}, r"^flows\[0\]\.cc\.python: 'labcc ScaledAimd' is not of the form module:name"),
    ({"python": 7}, r"^flows\[0\]\.cc\.python: 7 is not a name; expected text module:name"),
    ({"python": "labcc:ScaledAimd", "gamma": 1}, r"^flows\[0\]\.cc\.gamma: is not a parameter of labcc:ScaledAimd; it takes alpha, beta$"),
    ({"python": "labcc:ScaledAimd", "alpah": 1}, r"^flows\[0\]\.cc\.alpah: is not a parameter of labcc:ScaledAimd; it takes alpha, beta \(did you mean alpha\?\)$"),
    ({"python": "labcc:ScaledAimd", "beta": 1.5},
     r"^flows\[0\]\.cc: labcc:ScaledAimd\(beta=1\.5\) raised ValueError: beta must be in \(0, 1\), not 1\.5$"),
    ("labcc:Missing", r"^flows\[0\]\.cc: module 'labcc' .* defines no 'Missing' at its top level; nothing of it was run$"),
])
def test_a_bad_class_or_parameter_is_one_line_naming_the_field(module_here, cc, message):
    for check in (aimdlab.validate, aimdlab.run):
        with pytest.raises(aimdlab.ScenarioError, match=message):
            check(_scenario(cc))


def test_a_module_that_fails_to_import_says_why(module_here):
    (module_here / "brokencc.py").write_text("import nosuchdependency\n\nX = None\n")
    with pytest.raises(aimdlab.ScenarioError, match=r"^flows\[0\]\.cc\.python: importing module 'brokencc' failed: No module named 'nosuchdependency'"):
        aimdlab.validate(_scenario({"python": "brokencc:X"}))


EXPERIMENT = '''
name = "alpha"
measures = ["bottleneck.utilization", "flows.goodput_bps.mean"]
seeds = 2
[scenario]
duration = "3s"
sample_interval = "100ms"
[scenario.topology.dumbbell]
bottleneck = { rate = "10Mbps", delay = "10ms", queue = { limit = "30pkt" } }
access = { rate = "100Mbps", delay = "1ms" }
[[scenario.flows]]
count = 2
start_jitter = "200ms"
cc = { python = "labcc:ScaledAimd", beta = 0.875 }
[axes]
"flows[0].cc.alpha" = [0.31, 1.0]
'''


def _run_files(root):
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted((root / "runs").rglob("*")) if p.is_file()}


def test_a_sweep_over_a_parameter_of_a_class_gives_the_same_bytes_on_every_executor(module_here):
    pytest.importorskip("dask.distributed")
    (module_here / "alpha.toml").write_text(EXPERIMENT)
    exp = load_experiment(module_here / "alpha.toml")
    inline = run_sweep(exp, module_here / "inline", jobs=1)
    pool = run_sweep(exp, module_here / "pool", jobs=2)
    cluster = run_sweep(exp, module_here / "cluster", jobs=2, dask=True)
    reference = _run_files(inline.root)
    assert len([k for k in reference if k.endswith("flows.parquet")]) == 4
    assert _run_files(pool.root) == reference
    assert _run_files(cluster.root) == reference
    import pyarrow.parquet as pq

    for name in reference:
        if name.endswith("flows.parquet"):
            assert set(pq.read_table(inline.root / name).column("cc").to_pylist()) == {"labcc:ScaledAimd"}
    agg = inline.aggregate.to_pandas()
    assert sorted(agg["flows[0].cc.alpha"].astype(float)) == [0.31, 1.0]
    assert inline.catalog.num_rows == 4 and set(inline.catalog.column("status").to_pylist()) == {"ok"}


def test_a_sweep_given_a_controller_object_says_to_name_its_class(module_here, tmp_path):
    from aimdlab.imports import import_name
    from aimdlab.sweep import parse_experiment

    data = {"scenario": _scenario(import_name("labcc:ScaledAimd")(alpha=0.5)), "seeds": 1, "measures": ["bottleneck.utilization"], "axes": {}}
    with pytest.raises(aimdlab.ScenarioError, match=r'flows\[0\]\.cc: a ScaledAimd object is not data; name its class with its '
                                                    r'parameters, \{"python": "labcc:ScaledAimd", \.\.\.\}'):
        parse_experiment(data, tmp_path, "x")
