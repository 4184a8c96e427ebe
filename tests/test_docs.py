"""The documentation site: its reference pages are the code's (a page that drifts from the code
fails here), it builds in strict mode (a broken link or reference fails), and its pages open in
a browser."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import aimdlab
import pytest
from test_report import browse, chromium

ROOT = Path(__file__).resolve().parent.parent


def reference_tool():
    spec = importlib.util.spec_from_file_location("docs_reference", ROOT / "tools" / "docs_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_reference_pages_are_what_the_code_gives():
    tool = reference_tool()
    for name, text in tool.pages().items():
        page = ROOT / "docs" / "reference" / name
        assert page.read_text(encoding="utf-8") == text, f"docs/reference/{name} is out of date: run python tools/docs_reference.py"
    # and they hold what a reader looks for there
    pages = tool.pages()
    assert "| `duration` | [Duration](#duration) | required |" in pages["scenario.md"]
    assert "## flows" in pages["columns.md"] and "`goodput_bps`" in pages["columns.md"]
    assert "## aimdlab reproduce" in pages["cli.md"] and "## aimdlab examples" in pages["cli.md"]
    for name in ("reno", "gaimd", "cubic", "red", "fq_codel", "voip"):
        assert f"### `{name}`" in pages["components.md"], name
    assert "RFC 9438" in pages["components.md"] and "Floyd and V. Jacobson" in pages["components.md"]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    pytest.importorskip("mkdocs")
    out = tmp_path_factory.mktemp("site")
    build = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"), "-d", str(out)],
                           capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert build.returncode == 0, build.stderr[-3000:]
    return out


@pytest.mark.parametrize("page, needles", [
    ("index.html", ["congestion-control laboratory", "Getting started"]),
    ("getting-started/index.html", ["A first run", "A first sweep", "A first reproduction"]),
    ("reference/scenario/index.html", ["Scenario files", "FlowGroup"]),
    ("reference/python/index.html", ["aimdlab.run", "Result"]),
])
def test_the_site_builds_strictly_and_its_pages_open(site, tmp_path, page, needles):
    html = (site / page).read_text(encoding="utf-8")
    for needle in needles:
        assert needle in html, needle
    seen = browse(site / page, tmp_path, chromium())
    assert all(image["ok"] for image in seen["images"]), seen["images"]
    assert seen["errors"] == [], seen["errors"]  # (nothing fetched from elsewhere: it reads offline)
    assert seen["title"].endswith("aimdlab") or seen["title"] == "aimdlab", seen["title"]


def test_the_tutorial_runs_as_written_and_says_what_it_shows(tmp_path, monkeypatch):
    # Its code blocks, in order, in one namespace (as a notebook runs them), in an empty folder.
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(tmp_path)
    blocks = runnable_blocks(ROOT / "docs" / "tutorial.md")
    assert len(blocks) == 5  # (the fourth is mycc.py, the same class again: see the next test)
    names: dict = {}
    for block in blocks:
        exec(compile(block, "docs/tutorial.md", "exec"), names)
    assert (tmp_path / "tutorial-friendliness.png").stat().st_size > 10_000
    ratio = {alpha: (mean, half) for alpha, mean, half in names["rows"]}
    # "the ratio crosses 1 between α = 0.1 and 0.2" and "eq. (7)'s 0.31 takes about 1.4 times"
    assert ratio[0.1][0] + ratio[0.1][1] < 1.0 < ratio[0.2][0] - ratio[0.2][1], ratio
    assert 1.35 <= ratio[0.31][0] < 1.5, ratio
    import matplotlib.pyplot as plt

    plt.close("all")


def test_the_tutorials_experiment_file_runs_from_its_folder_as_written(tmp_path):
    # Issue 46 item 10: the experiment-file step as whole files, and where mycc.py must sit.
    text = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
    module = next(b for b in runnable_blocks(ROOT / "docs" / "tutorial.md") if b.startswith("import aimdlab\n\n\nclass MyAimd"))
    experiment = re.findall(r"```toml\n(.*?)```", text, re.S)
    experiment = next(b for b in experiment if b.startswith('name = "friendliness"'))
    commands = re.findall(r"```sh\n(.*?)```", text, re.S)
    assert any("aimdlab sweep friendliness.toml" in c for c in commands)
    (tmp_path / "mycc.py").write_text(module)
    (tmp_path / "friendliness.toml").write_text(experiment)
    r = subprocess.run([sys.executable, "-m", "aimdlab", "sweep", "friendliness.toml", "--jobs", "2", "-q"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr
    import aimdlab

    agg = aimdlab.open_sweep(tmp_path / "results" / "sweeps" / "friendliness").aggregate.to_pandas()
    measure = "groups.mine.throughput_bps.mean / groups.reno.throughput_bps.mean"
    ratio = dict(zip(agg["flows[0].cc.alpha"], agg[f"{measure}_mean"]))
    assert len(ratio) == 5 and agg["runs_ok"].tolist() == [5] * 5
    assert 1.35 <= ratio[0.31] < 1.5, ratio  # the same runs as the Python loop above: the same ratio


def runnable_blocks(page: Path) -> list:
    """A page's Python blocks, but those that need a SLURM cluster (dask_jobqueue)."""
    return [b for b in re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S) if "dask_jobqueue" not in b]


HOW_TO_WITH_PYTHON = sorted(p.name for p in (ROOT / "docs" / "how-to").glob("*.md") if runnable_blocks(p))


@pytest.mark.parametrize("page", HOW_TO_WITH_PYTHON)
def test_the_python_of_each_how_to_runs_as_written(tmp_path, monkeypatch, page):
    # In a folder of the reader's own, with the examples copied out as the guides say.
    from aimdlab.package_data import copy_examples

    monkeypatch.chdir(tmp_path)
    copy_examples(tmp_path / "examples")
    runs = []
    real_run = aimdlab.run
    monkeypatch.setattr(aimdlab, "run", lambda *args, **kwargs: runs.append(args) or real_run(*args, **kwargs))
    names: dict = {}
    for block in runnable_blocks(ROOT / "docs" / "how-to" / page):
        exec(compile(block, f"docs/how-to/{page}", "exec"), names)
    assert runs, "the guide's code runs a scenario"


def test_the_readme_is_short_and_every_link_in_it_resolves():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    links = re.findall(r"\]\(([^)#]+)", text)
    assert len(links) >= 15
    assert [link for link in links if not (ROOT / link).exists()] == []
    # the two quickstart commands
    assert "    pip install . && aimdlab reproduce all --quick\n" in text
    assert "    pip install '.[test]' && python -m pytest && cargo test\n" in text


@pytest.mark.parametrize("name", ["first-run", "sweep"])
def test_the_notebooks_run_and_show_their_figures(tmp_path, name):
    # Executed as a reader's Jupyter would, in an empty folder (each copies the examples it needs).
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    notebook = nbformat.read(ROOT / "docs" / "notebooks" / f"{name}.ipynb", as_version=4)
    assert all(not cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code"), "kept without outputs"
    nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert all(cell.execution_count for cell in code)
    images = [o for cell in code for o in cell.outputs if "image/png" in o.get("data", {})]
    assert len(images) >= 1 if name == "sweep" else len(images) >= 2


def test_the_long_description_renders_outside_the_repository():
    # A package index shows DESCRIPTION.md: no link or image may point into the source tree.
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        import tomli as tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    text = (ROOT / project["readme"]).read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)]+)\)", text) + re.findall(r"<img[^>]+src=['\"]([^'\"]+)", text)
    assert all(t.startswith("https://") for t in targets), targets
    assert "aimdlab reproduce all --quick" in text


def test_the_same_study_in_aimdlab_is_an_experiment_that_loads(tmp_path):
    # docs/explanation/from-ns3-ns2.md shows a study as ns-3 with SEM and as an aimdlab file.
    from aimdlab.sweep import load_experiment

    text = (ROOT / "docs" / "explanation" / "from-ns3-ns2.md").read_text(encoding="utf-8")
    (tmp_path / "study.toml").write_text(re.findall(r"```toml\n(.*?)```", text, re.S)[-1])
    experiment = load_experiment(tmp_path / "study.toml")
    assert len(experiment.axis_points()) == 6 and len(experiment.seeds) == 5
