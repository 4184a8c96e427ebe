"""`aimdlab report`: a self-contained HTML page of a sweep or a run, checked in a real headless
browser (Chromium): it renders, every image loads, nothing is logged as an error. CI installs
Chromium and sets AIMDLAB_REQUIRE_CHROMIUM=1, so these checks cannot skip there."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import aimdlab
import pytest
from aimdlab.package_data import package_folder
from aimdlab.sweep import open_sweep, parse_experiment, run_sweep
from aimdlab.sweep.report import ReportError, write_report

ROOT = Path(__file__).resolve().parent.parent

EXPERIMENT = {
    "name": "report-test", "description": "Two axes, two seeds, one failing point.",
    "scenario": {"duration": "3s", "sample_interval": "100ms",
                 "topology": {"dumbbell": {"bottleneck": {"rate": "5Mbps", "delay": "10ms", "queue": {"limit": "30pkt"}},
                                           "access": {"rate": "50Mbps", "delay": "1ms"}}},
                 "flows": [{"name": "reno", "count": 2, "cc": "reno"}]},
    "seeds": 2,
    "axes": {"topology.dumbbell.bottleneck.delay": ["5ms", "10ms", "20ms"], "sample_interval": ["100ms", "1us"]},
    "measures": ["bottleneck.utilization", "jain_index", "groups.reno.goodput_bps.mean"],
}


@pytest.fixture(scope="module")
def sweep_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("report") / "sweep"
    exp = parse_experiment(EXPERIMENT, ROOT, "report-test")
    run_sweep(exp, root, jobs=2, max_memory=100 << 20)  # the 1 µs points are refused: failed runs
    return root


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    if os.environ.get("AIMDLAB_REQUIRE_CHROMIUM"):
        pytest.fail("Chromium is required (AIMDLAB_REQUIRE_CHROMIUM=1) but not installed")
    pytest.skip("Chromium is not installed (apt-get install chromium)")


CHECK = """<script>
window.__errors = [];
window.addEventListener('error', e => window.__errors.push('error: ' + (e.message || (e.target && (e.target.src || e.target.href)))), true);
for (const level of ['error', 'warn']) {
  const orig = console[level];
  console[level] = function (...args) { window.__errors.push(level + ': ' + args.join(' ')); orig.apply(console, args); };
}
window.addEventListener('load', () => {
  const images = Array.from(document.images).map(i => ({src: i.src.slice(0, 60), ok: i.complete && i.naturalWidth > 0}));
  const pre = document.createElement('pre');
  pre.id = 'aimdlab-check';
  pre.textContent = JSON.stringify({images, errors: window.__errors, title: document.title,
                                    tables: document.querySelectorAll('table').length, height: document.body.scrollHeight});
  document.body.appendChild(pre);
});
</script>"""


def browse(report: Path, tmp_path: Path, browser: str) -> dict:
    """Opens a copy of `report` (with a checking script injected first in its head) in
    headless Chromium and returns what the script saw after the page loaded."""
    probe = report.parent / "probe.html"
    probe.write_text(report.read_text(encoding="utf-8").replace("<head>", "<head>" + CHECK, 1), encoding="utf-8")
    out = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
                          f"--user-data-dir={tmp_path / 'chromium-profile'}", "--virtual-time-budget=10000", "--dump-dom",
                          probe.as_uri()], capture_output=True, text=True, timeout=120)
    probe.unlink()
    m = re.search(r'<pre id="aimdlab-check">(.*?)</pre>', out.stdout, re.S)
    assert m, f"the page did not load in Chromium: {out.stderr[-2000:]}"
    return json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))


def test_a_sweep_report_is_self_contained_and_lists_its_parts(sweep_dir):
    assert "report-figures/" not in write_report(sweep_dir).read_text(encoding="utf-8")  # per-run figures on request
    path = write_report(sweep_dir, run_figures=True)
    text = path.read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)=['"]?(https?:)?//""", text), "no external asset"
    assert "<script" not in text
    assert text.count("data:image/png;base64,") == 3, "a figure per measure"
    for needle in ["report-test", "Two axes, two seeds", "topology.dumbbell.bottleneck.delay", "Failed runs", "memory",
                   "engine commit", "95 % Student-t"]:
        assert needle in text, needle
    sweep = open_sweep(sweep_dir)
    ok = sweep.catalog.to_pandas().query("status == 'ok'")["run_id"]
    for rid in ok:
        assert f"report-figures/{rid}.png" in text and (sweep_dir / "report-figures" / f"{rid}.png").is_file()


def test_a_sweep_report_renders_in_chromium_with_every_image_loaded(sweep_dir, tmp_path):
    browser = chromium()
    seen = browse(write_report(sweep_dir), tmp_path, browser)
    assert len(seen["images"]) == 3 and all(i["ok"] for i in seen["images"]), seen["images"]
    assert seen["errors"] == [], seen["errors"]
    assert seen["tables"] >= 4 and seen["height"] > 1500


def test_a_run_report_renders_in_chromium(tmp_path):
    browser = chromium()
    sc = aimdlab.load(package_folder("examples") / "utilization.toml")
    sc["duration"] = "10s"
    aimdlab.run(sc).save(tmp_path / "run")
    path = write_report(tmp_path / "run")
    seen = browse(path, tmp_path, browser)
    assert len(seen["images"]) == 1 and seen["images"][0]["ok"] and seen["errors"] == []
    # The links table names each link (escaped: "r1->r2"), not only its index.
    assert "<td class='text'>r1-&gt;r2</td>" in path.read_text()


def test_the_report_command_says_what_a_folder_is_not(tmp_path):
    (tmp_path / "empty").mkdir()
    out = subprocess.run([sys.executable, "-m", "aimdlab.cli", "report", str(tmp_path / "empty")], capture_output=True, text=True)
    assert out.returncode == 1 and "holds neither a sweep (sweep.json) nor a run (summary.json)" in out.stderr


def test_results_and_sweeps_render_in_jupyter(sweep_dir):
    sweep = open_sweep(sweep_dir)
    assert "<table>" in sweep._repr_html_() and "report-test" in sweep._repr_html_()
    rid = sweep.catalog.to_pandas().query("status == 'ok'")["run_id"].iloc[0]
    result = aimdlab.Result.load(sweep.run_dir(rid))
    html = result._repr_html_()
    assert "bottleneck utilization" in html and "goodput_bps" in html
    assert result.provenance["scenario_sha256"] and result.summary["flows"] == 2


def test_report_out_refuses_a_file_it_did_not_write(tmp_path):
    # report_out_overwrites_any_file.sh: `report r --out notes.txt` replaced the user's notes.
    import aimdlab
    from aimdlab.sweep.report import ReportError, write_report
    from conftest import dumbbell

    aimdlab.run(dumbbell(rate="10Mbps", delay="10ms", duration="1s")).save(tmp_path / "r")
    notes = tmp_path / "notes.txt"
    notes.write_text("my precious notes")
    with pytest.raises(ReportError) as e:
        write_report(tmp_path / "r", notes)
    assert str(e.value) == f"{notes}: exists and is not a report aimdlab wrote; choose another --out or remove the file"
    assert notes.read_text() == "my precious notes"
    page = write_report(tmp_path / "r", tmp_path / "mine.html")
    assert write_report(tmp_path / "r", page) == page  # its own report it replaces


def test_an_empty_figure_left_by_a_full_disk_is_drawn_again(tmp_path):
    # report_full_disk_empty_figures.sh: 0-byte PNGs were kept and linked for good.
    from aimdlab.sweep import parse_experiment, run_sweep
    from aimdlab.sweep.report import write_report

    data = {"name": "s", "scenario": {"duration": "0.5s", "flows": [{"count": 1}],
                                      "topology": {"dumbbell": {"bottleneck": {"rate": "5Mbps", "delay": "5ms"},
                                                                "access": {"rate": "50Mbps", "delay": "1ms"}}}},
            "axes": {"flows[0].count": [1, 2]}}
    sweep = run_sweep(parse_experiment(data, tmp_path, "s"), tmp_path / "st", jobs=1)
    write_report(sweep.root, run_figures=True, jobs=1)
    figures = sorted((sweep.root / "report-figures").iterdir())
    assert len(figures) == 2 and all(f.stat().st_size > 0 for f in figures)
    figures[0].write_bytes(b"")
    write_report(sweep.root, run_figures=True, jobs=1)
    assert figures[0].stat().st_size > 0
    assert not [p for p in (sweep.root / "report-figures").iterdir() if p.name.startswith(".")]  # no temporary left


def test_a_report_goes_into_a_folder_that_does_not_exist_yet(sweep_dir, tmp_path):
    # `aimdlab report DIR --out newdir/r.html` failed with "newdir/report-figures: No such file".
    path = write_report(sweep_dir, tmp_path / "new" / "deeper" / "r.html", run_figures=True)
    assert path.is_file() and any((tmp_path / "new" / "deeper" / "report-figures").glob("*.png"))
    (tmp_path / "a-file").write_text("")
    with pytest.raises(ReportError, match="a-file is a file, not a folder"):
        write_report(sweep_dir, tmp_path / "a-file" / "r.html")


CONTROLLERS = '''
name = "controllers"
seeds = 2
measures = ["bottleneck.utilization", "goodput_total_bps", "groups.main.goodput_bps.mean", "jain_index", "retransmitted_pkts", "timeouts"]
[scenario]
duration = "2s"
topology = { dumbbell = { bottleneck = { rate = "10Mbps", delay = "20ms", queue = { limit = "50pkt" } }, access = { rate = "100Mbps", delay = "1ms" } } }
flows = [{ name = "main", count = 2, start_jitter = "0.2s" }]
[axes]
"flows[0].cc" = ["reno", { name = "gaimd", beta = 0.875, alpha = "tcp-friendly" }, { name = "highspeed" }]
"topology.dumbbell.bottleneck.delay" = ["10ms", "40ms"]
'''


def test_a_controller_axis_reads_as_words_in_figures_tables_and_the_terminal(tmp_path):
    # Issue 46 item 8: the axis was drawn as a line through JSON strings whose labels
    # overlapped, the y axis said groups.reno.goodput_bps.mean, the tables held JSON to parse.
    from aimdlab.sweep.report import measure_figure

    (tmp_path / "cc.toml").write_text(CONTROLLERS)
    r = subprocess.run([sys.executable, "-m", "aimdlab", "sweep", "cc.toml", "--out", "st", "--jobs", "1"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert max(len(line) for line in lines) <= 100, "the terminal tables fit 100 columns"
    assert any("gaimd β=0.875 α=tcp-friendly" in line for line in lines) and not any('{"name"' in line for line in lines)
    assert any("goodput (Mbit/s)" in line or "(Mbit/s)" in line for line in lines) and "e+06" not in r.stdout
    sweep = open_sweep(tmp_path / "st")
    agg = sweep.aggregate.to_pandas()
    assert list(agg["flows[0].cc.name"].drop_duplicates()) == ["reno", "gaimd", "highspeed"]
    assert set(agg["flows[0].cc.beta"].dropna()) == {0.875}
    fig = measure_figure(agg, sweep.axes, "groups.main.goodput_bps.mean")
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["reno", "gaimd β=0.875 α=tcp-friendly", "highspeed"]
    assert ax.get_xlabel() == "controller" and ax.get_ylabel() == "goodput (Mbit/s)"
    assert all(line.get_linestyle() == "None" for line in ax.get_lines() if len(line.get_xdata()) > 1), "categories are not joined"
    html = (tmp_path / "st" / "report.html")
    write_report(tmp_path / "st")
    assert "flows[0].cc.beta" in html.read_text()
