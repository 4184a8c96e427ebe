"""Python code a scenario names (`cc = "module:Class"`, a measure, a paper's model): nothing is
run that does not define the name, and whatever that code raises — a bad window, an exception,
`SystemExit` — ends aimdlab with its own exit status and one line naming the controller, the
hook and the value."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import aimdlab
import pytest
from conftest import dumbbell

SCENARIO = '''duration = "1s"
[topology.dumbbell]
bottleneck = { rate = "10Mbps", delay = "10ms", queue = { limit = "10pkt" } }
access = { rate = "100Mbps", delay = "1ms" }
[[flows]]
count = 1
cc = "%s"
'''

CONTROLLERS = textwrap.dedent('''
    import aimdlab

    class Exits(aimdlab.Controller):
        def on_ack(self, ack):
            raise SystemExit(7)

    class ExitsInInit(aimdlab.Controller):
        def __init__(self):
            raise SystemExit(9)

    class Raises(aimdlab.Controller):
        def on_ack(self, ack):
            self.cwnd += 1  # (to a loss)

        def on_congestion(self, event):
            raise ZeroDivisionError("no luck")

    class SetsWindow(aimdlab.Controller):
        value = 1.0

        def on_ack(self, ack):
            self.cwnd = self.value

    class NaN(SetsWindow):
        value = float("nan")

    class Inf(SetsWindow):
        value = float("inf")

    class Zero(SetsWindow):
        value = 0.0

    class Negative(SetsWindow):
        value = -5.0
''')


def _run(tmp_path, cc: str, *extra: str) -> subprocess.CompletedProcess:
    (tmp_path / "s.toml").write_text(SCENARIO % cc)
    return subprocess.run([sys.executable, "-m", "aimdlab", "run", "s.toml", "--no-figure", "-q", "--out", "o", *extra],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("cc, why", [
    ("venv.__main__:X", "module 'venv.__main__' is a program's entry point"),
    ("unittest.__main__:X", "module 'unittest.__main__' is a program's entry point"),
    ("this:X", "module 'this' ("),
    ("antigravity:X", "module 'antigravity' ("),
])
def test_a_module_that_does_not_define_the_name_is_not_run(tmp_path, cc, why):
    # python_cc_imports_any_module.sh: venv.__main__ made a virtualenv, unittest took over the
    # command line, this printed the Zen of Python on stdout (before any JSON).
    r = _run(tmp_path, cc, "--json")
    assert r.returncode == 1, r.stderr
    assert r.stderr.strip().splitlines() == [r.stderr.strip()] and why in r.stderr
    assert json.loads(r.stdout)["ok"] is False, "stdout holds the JSON object and nothing else"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.toml"], "nothing was created"


@pytest.mark.parametrize("cls, line", [
    ("Exits", "Error: s.toml: controller Exits of flow 0: on_ack raised SystemExit: 7"),
    ("ExitsInInit", "Error: s.toml: flows[0].cc: ctl:ExitsInInit() raised SystemExit: 9"),
    ("Raises", "Error: s.toml: controller Raises of flow 0: on_congestion raised ZeroDivisionError: no luck"),
    ("NaN", "Error: s.toml: controller NaN of flow 0: after on_ack: cwnd = NaN is not a positive finite number of packets"),
    ("Inf", "Error: s.toml: controller Inf of flow 0: after on_ack: cwnd = inf is not a positive finite number of packets"),
    ("Zero", "Error: s.toml: controller Zero of flow 0: after on_ack: cwnd = 0 is not a positive finite number of packets"),
    ("Negative", "Error: s.toml: controller Negative of flow 0: after on_ack: cwnd = -5 is not a positive finite number of packets"),
])
def test_whatever_a_controller_raises_is_one_line_and_exit_1(tmp_path, cls, line):
    # named_code_sysexit_escapes.sh: SystemExit(7) ended aimdlab with exit 7 and no message;
    # python_cc_bad_values_traceback.sh: a NaN window was a 37-line traceback.
    (tmp_path / "ctl.py").write_text(CONTROLLERS)
    r = _run(tmp_path, f"ctl:{cls}")
    assert r.returncode == 1
    assert r.stderr.strip().splitlines() == [line]


def test_the_api_raises_controller_error_with_the_hooks_exception_as_cause():
    class Exits(aimdlab.Controller):
        def on_ack(self, ack):
            raise SystemExit(3)

    with pytest.raises(aimdlab.ControllerError, match="controller Exits of flow 0: on_ack raised SystemExit: 3") as e:
        aimdlab.run(dumbbell(duration="1s", flow={"cc": Exits()}))
    assert isinstance(e.value.__cause__, SystemExit) and isinstance(e.value, aimdlab.ScenarioError)


def test_a_paper_model_that_exits_fails_the_reproduction(tmp_path):
    # named_code_sysexit_escapes.sh: `model = "sys:exit"` made `reproduce` exit 0 having written nothing.
    (tmp_path / "experiments" / "m").mkdir(parents=True)
    (tmp_path / "experiments" / "m" / "paper.toml").write_text(
        'id = "m"\ntitle = "t"\npaper = "p.txt"\n[[items]]\nid = "model"\ntitle = "the model"\nwhere = "eq. 2"\n'
        'model = "sys:exit"\nx = "beta"\nclaim = { kind = "increasing" }\nat_x = [3, 4, 5]\nthreshold_from = "t"\n')
    r = subprocess.run([sys.executable, "-m", "aimdlab", "reproduce", "m", "--experiments", "experiments", "--out", "out_m",
                        "--quick", "--jobs", "1", "--json"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 1
    outcome = json.loads(r.stdout)
    assert outcome["ok"] is False and "model sys:exit failed: SystemExit" in outcome["error"]
    assert not (tmp_path / "out_m").exists()


def test_a_null_count_is_an_absent_count():
    # run_count_none_typeerror.py: validate accepted it, run raised TypeError.
    class Aimd(aimdlab.Controller):
        pass

    sc = dumbbell(duration="1s", flow={"count": None})
    aimdlab.validate(sc)
    assert len(aimdlab.run(sc).flows) == 1
    sc = dumbbell(duration="1s", flow={"count": None, "cc": Aimd()})
    assert len(aimdlab.run(sc).flows) == 1


def test_what_a_named_module_prints_while_loading_goes_to_stderr(tmp_path):
    # json_stdout_empty_on_error.sh: a controller module's import-time prints landed on
    # stdout before the JSON object.
    (tmp_path / "chatty.py").write_text("import aimdlab\nprint('loading chatty')\n\nclass Cc(aimdlab.Controller):\n    pass\n")
    r = _run(tmp_path, "chatty:Cc", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["ok"] is True and "loading chatty" in r.stderr
