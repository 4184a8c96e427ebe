"""The `aimdlab` command line: run a scenario, print the schema, validate files."""

from __future__ import annotations

import contextlib
import errno
import functools
import json
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any, Dict, Optional, Tuple

import click

from . import __version__, cli_output
from .cli_output import emit_json, json_option, note, progress_bar_wanted, quiet, quiet_option, stdout_console, steps
from .errors import EngineError, ScenarioError
from .units import format_bytes

EXAMPLES = """
\b
Examples:
  aimdlab examples --copy examples        the example scenarios, to run and change
  aimdlab run examples/utilization.toml
  aimdlab run examples/utilization.toml --out results/u4 --set flows[0].count=4
  aimdlab run examples/long-delay.toml --seed 7 --format pdf
  aimdlab run examples/utilization.toml --pcap 'r1->r2'    # then: tshark -r results/utilization/r1-r2.pcap
  aimdlab validate examples/*.toml
  aimdlab validate gaimd --quick
  aimdlab sweep examples/sweeps/utilization-flows.toml --quick
  aimdlab report results/sweeps/utilization-flows-quick
  aimdlab reproduce new-aimd-utilization --quick
  aimdlab schema > scenario.schema.json
"""


class _Main(click.Group):
    """The top-level command. It owns the process's exit: Ctrl-C at any moment (loading,
    simulating, saving) exits 130 after the engine has stopped and nothing half-written is
    left; an operating-system error (a folder that cannot be written, a full disk) is one
    line and exit 1, never a traceback."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):  # type: ignore[override]
        cli_output.reset()
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except (KeyboardInterrupt, click.exceptions.Abort):
            if _written:
                _interrupted(f"interrupted after the results were written to {_written[-1]}")
            if "run" in (sys.argv[1:] if args is None else list(args))[:1]:
                _interrupted("interrupted: the run was stopped; no results were written or replaced")
            _interrupted()
        except click.ClickException as e:
            e.show()
            sys.exit(e.exit_code)
        except click.exceptions.Exit as e:
            sys.exit(e.exit_code)
        except OSError as e:
            if e.errno == errno.EPIPE:
                sys.exit(1)
            click.echo(f"Error: {_os_error_text(e)}", err=True)
            sys.exit(1)
        except Exception as e:
            # Ctrl-C landing inside library code can surface as another exception raised
            # while handling it (seen: matplotlib's import, "Error calling __set_name__",
            # whose cause is the KeyboardInterrupt). It is still an interrupt.
            if _caused_by_interrupt(e):
                _interrupted()
            raise
        sys.exit(code if isinstance(code, int) else 0)


def _caused_by_interrupt(e: BaseException) -> bool:
    """Whether a KeyboardInterrupt is in the exception's chain of causes and contexts."""
    seen = set()
    link: Optional[BaseException] = e
    while link is not None and id(link) not in seen:
        if isinstance(link, KeyboardInterrupt):
            return True
        seen.add(id(link))
        link = link.__cause__ or link.__context__
    return False


_written: list = []
"""Results folders this process has committed (for the message after a late Ctrl-C)."""


def _interrupted(message: str = "interrupted: stopped; nothing half-written was left") -> None:
    """Exits 130 (Ctrl-C)."""
    try:
        click.echo(message, err=True)
    except OSError:
        pass
    sys.exit(130)


def _os_error_text(e: OSError) -> str:
    """One line for an operating-system error: the file and the reason."""
    if e.filename is not None and e.strerror:
        return f"{e.filename}: {e.strerror}"
    return str(e) or type(e).__name__


@click.group(cls=_Main, epilog=EXAMPLES, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="aimdlab")
@quiet_option
def main() -> None:
    """aimdlab: a congestion-control laboratory (packet-level simulator for AIMD-family
    congestion control)."""


def _fmt_rate(bps) -> str:
    if bps is None or bps != bps:
        return "—"
    if bps >= 1e9:
        return f"{bps / 1e9:.3f} Gbit/s"
    if bps >= 1e6:
        return f"{bps / 1e6:.3f} Mbit/s"
    return f"{bps / 1e3:.1f} kbit/s"


def _fmt(x, spec: str = ".2f") -> str:
    if x is None or (isinstance(x, float) and x != x):
        return "—"
    return format(x, spec)


def _print_summary(result, out_dir: Path, wall_s: float, figure: Optional[Path]) -> None:
    from rich.table import Table

    from .result import pcap_file_name

    console = stdout_console()
    s = result.summary
    b = s.get("bottleneck") or {}
    head = Table(title=f"{s.get('name') or 'scenario'}: seed {s['seed']}, {s['duration_s']:g} s simulated, "
                 f"warm-up {s['warmup_s']:g} s", show_header=False, box=None, title_justify="left")
    head.add_column(style="bold")
    head.add_column()
    if b:
        head.add_row("bottleneck", f"{b['link']} at {_fmt_rate(b['rate_bps'])}")
        head.add_row("utilization", f"{100 * b['utilization']:.2f} %" if b.get("utilization") is not None else "—")
        head.add_row("queue mean / max", f"{_fmt(b.get('queue_mean_pkts'), '.1f')} / {b.get('queue_max_pkts')} packets")
        head.add_row("queuing delay mean / p99", f"{_fmt(b.get('qdelay_mean_ms'))} / {_fmt(b.get('qdelay_p99_ms'))} ms")
        head.add_row("drops", str(b["drops"]))
    head.add_row("goodput total", _fmt_rate(s["goodput_total_bps"]))
    head.add_row("Jain index", _fmt(s.get("jain_index"), ".4f"))
    head.add_row("retransmitted / timeouts", f"{s['retransmitted_pkts']} / {s['timeouts']}")
    head.add_row("events / wall time", f"{s['events']:,} in {wall_s:.2f} s")
    console.print(head)

    t = Table(title="flows (rates in Mbit/s, times in ms unless marked; cuts: window cuts on loss, TO: timeouts)", title_justify="left")
    for col in ("flow", "cc", "start s", "goodput", "thruput", "retx", "cuts", "TO", "RTT", "delay p99", "done s"):
        t.add_column(col, justify="right")
    limit = 20
    for r in result.flows.slice(0, limit).to_pylist():  # (Arrow rows: no pandas to import)
        t.add_row(
            str(r["flow"]), r["cc"], _fmt(r["start_s"], ".2f"), _fmt(r["goodput_bps"] / 1e6, ".3f"),
            _fmt(r["throughput_bps"] / 1e6, ".3f"), str(r["retransmitted_pkts"]), str(r["loss_events"] - r["timeouts"]),
            str(r["timeouts"]), _fmt(r["rtt_mean_ms"], ".1f"), _fmt(r["delay_p99_ms"], ".1f"), _fmt(r["completion_time_s"], ".2f"),
        )
    console.print(t)
    if result.flows.num_rows > limit:
        console.print(f"… {result.flows.num_rows - limit} more flows in {out_dir / 'flows.parquet'}")
    traces = ", cwnd_trace.parquet" * bool(result.cwnd_trace.num_rows) + "".join(f", {pcap_file_name(link)}" for link in result.pcaps)
    console.print(f"results: {out_dir}/ (summary.json, flows/links/timeseries Parquet{traces})")
    if figure:
        console.print(f"figure:  {figure}")


#: A memory limit no run reaches: the file is checked before `--set`, the result after it.
_NO_LIMIT_BYTES = 1 << 62

MAX_MEMORY_HELP = ("Refuse a run whose estimated memory is above SIZE, e.g. 4GB. Default: 80 % of the memory "
                   "this process may use (or AIMDLAB_MAX_MEMORY).")


@main.command(epilog=EXAMPLES)
@click.argument("scenario", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", "out_dir", type=str, default=None, metavar="DIR",
              help="Results folder, replaced as a whole when the run completes. Default: results/<scenario file name>.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=None, help="Override the scenario's seed.")
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
              help="Override a scenario field, e.g. --set topology.dumbbell.bottleneck.rate=10Mbps (repeatable).")
@click.option("--format", "fig_format", type=click.Choice(["png", "pdf", "svg"]), default="png", show_default=True,
              help="Figure format.")
@click.option("--no-figure", is_flag=True, help="Do not draw the overview figure.")
@json_option
@click.option("--force", is_flag=True, help="Replace --out even if it holds a run of another scenario or seed.")
@quiet_option
@click.option("--max-memory", metavar="SIZE", default=None, help=MAX_MEMORY_HELP)
@click.option("--pcap", "pcap_links", multiple=True, metavar="LINK",
              help="Write a libpcap trace of LINK (e.g. r1->r2, quoted in a shell) into the results folder as "
                   "r1-r2.pcap, for tshark or Wireshark (repeatable; adds to the scenario's pcap list).")
def run(scenario: Path, out_dir: Optional[str], seed: Optional[int], overrides: Tuple[str, ...], fig_format: str,
        no_figure: bool, as_json: bool, force: bool, max_memory: Optional[str], pcap_links: Tuple[str, ...]) -> None:
    """Run SCENARIO (a TOML file), print a summary and write results and a figure.

    The results folder is written as one unit: until the run completes it keeps its previous
    contents, and Ctrl-C (exit 130) leaves it as it was. A folder holding a run of another
    scenario or seed is not replaced without --force (a run of the same one is: it is the
    same run again)."""
    from . import run as run_scenario
    from .memory import limit_bytes
    from .run_folder import OutputError, RunFolder
    from .scenario import apply_overrides, load, validate

    try:
        limit = limit_bytes(max_memory)
    except ScenarioError as e:
        raise click.ClickException(_memory_error(e)) from None
    try:
        # The memory limit applies to the scenario that runs: with --set or --pcap it is
        # checked after them (a --set may shrink a scenario too big as written).
        sc = load(scenario, max_memory=_NO_LIMIT_BYTES if (overrides or pcap_links) else max_memory)
        if overrides:
            sc = apply_overrides(sc, overrides)
        if pcap_links:
            sc = {**sc, "pcap": list(dict.fromkeys([*sc.get("pcap", []), *pcap_links]))}
        if overrides or pcap_links:
            validate(sc, max_memory=max_memory)
    except (ScenarioError, FileNotFoundError) as e:
        raise click.ClickException(str(e)) from None
    if out_dir is None:
        out_dir = str(Path("results") / scenario.stem)
    try:
        folder = RunFolder(out_dir)
    except OutputError as e:
        raise click.ClickException(f"--out {e}") from None
    if not force:
        try:
            _refuse_to_lose(Path(out_dir), sc, seed)
        except BaseException:
            folder.discard()
            raise
    # matplotlib takes about 0.6 s to import: it is imported beside the simulation (the engine
    # runs without the GIL), so the figure costs only its drawing.
    preload = None if no_figure else threading.Thread(target=_import_matplotlib, name="aimdlab-import-matplotlib")
    if preload is not None:
        preload.start()
    try:
        t0 = time.perf_counter()
        result = _simulate(run_scenario, sc, scenario.name, seed, limit)
        wall = time.perf_counter() - t0
        with _interrupts_between_steps() as check:
            result.write_files(folder.staging)
            check()
            figure = None
            if not no_figure:
                from .plots import overview, save_figure

                if preload is not None:
                    preload.join()
                check()
                save_figure(overview(result), folder.staging / f"overview.{fig_format}")
                figure = Path(out_dir) / f"overview.{fig_format}"
            check()
            folder.commit()
            _written.append(out_dir)
    except BaseException:
        folder.discard()
        raise
    if as_json:
        emit_json({"command": "run", "scenario_file": str(scenario), "out_dir": out_dir,
                   "files": sorted(p.name for p in Path(out_dir).iterdir() if not p.name.startswith(".")),
                   "figure": figure, "wall_s": wall, "provenance": result.provenance, "summary": result.summary})
    elif not quiet():
        _print_summary(result, Path(out_dir), wall, figure)


def _refuse_to_lose(out: Path, sc: Dict[str, Any], seed: Optional[int]) -> None:
    """Refuses (a one-line error) to replace a results folder that holds a run of another
    scenario or seed: a previous run is never lost silently. The same scenario and seed is
    the same run again, and replaces it."""
    from . import schema
    from .scenario import plain

    recorded = out / "scenario.json"
    if not recorded.is_file():
        return
    try:
        before = json.loads(recorded.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return  # (not a readable record: the folder's own checks decide)
    if not isinstance(before, dict):
        return
    planned = dict(plain(sc))
    planned["seed"] = seed if seed is not None else planned.get("seed", schema()["properties"]["seed"].get("default"))
    changed = _differences(before, planned)
    if changed:
        shown = "; ".join(changed[:3]) + (f"; and {len(changed) - 3} more" if len(changed) > 3 else "")
        raise click.ClickException(f"--out {out}: holds a run of another scenario ({shown}); replace it with --force, "
                                   "or give another --out")


def _differences(a: Any, b: Any, path: str = "") -> list:
    """The fields where two scenarios differ, as `field: there → here`."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in list(a) + [k for k in b if k not in a]:
            where = f"{path}.{k}" if path else str(k)
            if k not in b:
                out.append(f"{where}: {json.dumps(a[k])} there, absent here")
            elif k not in a:
                out.append(f"{where}: absent there, {json.dumps(b[k])} here")
            else:
                out.extend(_differences(a[k], b[k], where))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in _differences(x, y, f"{path}[{i}]")]
    numbers = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b))
    same = a == b and (type(a) is type(b) or numbers)
    return [] if same else [f"{path}: {json.dumps(a)} there, {json.dumps(b)} here"]


def _import_matplotlib() -> None:
    """Imports matplotlib (in a thread, while the engine runs); a failure shows when drawing."""
    try:
        from .plots import _matplotlib

        _matplotlib()
    except Exception:  # (the drawing imports it again and reports the error there)
        pass


@contextlib.contextmanager
def _interrupts_between_steps():
    """While results are saved, Ctrl-C is recorded and raised as KeyboardInterrupt only where
    `check()` is called (between steps) or when saving ends — never inside an import or a
    library callback, where Python can only print it ("Exception ignored in ...") and lose it.
    Only in the main thread, and only over Python's default handler."""
    pressed = []

    def check() -> None:
        if pressed:
            raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield check
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: pressed.append(signum))
    try:
        yield check
    finally:
        signal.signal(signal.SIGINT, previous)
    check()


def _simulate(run_scenario, sc, label: str, seed: Optional[int], limit: int):
    """Runs `sc`, with a progress bar on a terminal, a line per tenth of the simulated time
    otherwise (neither with -q); engine errors become one-line CLI errors."""
    try:
        if progress_bar_wanted():
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            from .scenario import duration_s as scenario_duration_s

            columns = (TextColumn("simulating {task.description}"), BarColumn(),
                       TextColumn("{task.completed:.1f} / {task.total:g} s simulated"), TimeElapsedColumn())
            with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
                task = bar.add_task(label, total=scenario_duration_s(sc))

                def report(now_s: float, duration_s: float) -> None:
                    bar.update(task, completed=now_s, total=duration_s)

                return run_scenario(sc, seed=seed, progress=report, max_memory=limit)
        note(f"simulating {label} ...")
        return run_scenario(sc, seed=seed, progress=steps("simulated"), max_memory=limit)
    except (ScenarioError, EngineError) as e:
        raise click.ClickException(str(e)) from None


@main.command()
@click.option("--experiment", is_flag=True, help="The schema of experiment files (aimdlab sweep) instead.")
def schema(experiment: bool) -> None:
    """Print the JSON Schema of scenario files (or of experiment files)."""
    if experiment:
        import json

        from .sweep import EXPERIMENT_SCHEMA

        click.echo(json.dumps(EXPERIMENT_SCHEMA, indent=2))
        return
    from . import _core

    click.echo(_core.schema())


def _dask_options(command):
    """`--dask` and `--scheduler`, the executor choices every command that runs many
    scenarios takes (with `--jobs`, whose range is the command's own)."""
    command = click.option("--scheduler", metavar="ADDRESS", default=None,
                           help="Run on the Dask cluster whose scheduler is at ADDRESS (tcp://HOST:PORT).")(command)
    return click.option("--dask", "use_dask", is_flag=True,
                        help="Run on a Dask LocalCluster of --jobs workers (pip install 'aimdlab[dask]').")(command)


def _check_dask_options(use_dask: bool, scheduler: Optional[str]) -> None:
    """One executor at a time: --dask and --scheduler exclude each other."""
    if use_dask and scheduler:
        raise click.UsageError("--dask starts a cluster and --scheduler uses one; give one of them")


SWEEP_EXAMPLES = """
\b
Examples:
  aimdlab sweep examples/sweeps/utilization-flows.toml
  aimdlab sweep examples/sweeps/utilization-flows.toml --quick --jobs 2
  aimdlab sweep EXP.toml --dask                         a Dask LocalCluster on this machine
  aimdlab sweep EXP.toml --scheduler tcp://HOST:8786    an existing Dask cluster
  aimdlab schema --experiment                           what an experiment file may say

\b
Run it again with the same --out to resume: only the runs missing from the folder execute.
Results: DIR/catalog.parquet (one row per run), DIR/aggregate.parquet and .csv (mean, std and
95 % confidence interval per axis point), DIR/runs/<run_id>/ (each run's files).
"""


@main.command(epilog=SWEEP_EXAMPLES)
@click.argument("experiment", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", "out_dir", type=str, default=None, metavar="DIR",
              help="The sweep's folder (reused to resume). Default: results/sweeps/<name> (<name>-quick with --quick).")
@click.option("--jobs", type=click.IntRange(1, 4096), default=None, help="Parallel runs (default: one per core).")
@_dask_options
@click.option("--quick", is_flag=True, help="Apply the experiment's [quick] table (default: 1 seed) for a fast look.")
@click.option("--max-memory", metavar="SIZE", default=None,
              help="Refuse a run whose estimated memory is above SIZE (default: 80 % of this process's memory, divided by --jobs).")
@json_option
@quiet_option
def sweep(experiment: Path, out_dir: Optional[str], jobs: Optional[int], use_dask: bool, scheduler: Optional[str], quick: bool,
          max_memory: Optional[str], as_json: bool) -> None:
    """Run a sweep: every point of EXPERIMENT's axes × its seeds, into a resumable result
    store, with the measures aggregated over seeds (mean, std, 95 % CI)."""
    import os

    from .memory import limit_bytes
    from .sweep import StoreError, default_out, load_experiment, run_sweep

    _check_dask_options(use_dask, scheduler)
    try:
        exp = load_experiment(experiment, quick=quick)
    except (ScenarioError, FileNotFoundError) as e:
        raise click.ClickException(str(e)) from None
    try:
        limit = limit_bytes(max_memory)
    except ScenarioError as e:
        raise click.ClickException(_memory_error(e)) from None
    workers = jobs or os.cpu_count() or 1
    if max_memory is None and not scheduler:
        limit = max(1, limit // workers)
    out = Path(out_dir) if out_dir is not None else default_out(exp)
    n_runs = len(exp.axis_points()) * len(exp.seeds)
    note(f"sweep {exp.name}: {len(exp.axis_points())} points x {len(exp.seeds)} seeds = {n_runs} runs"
         f"{' (quick)' if quick else ''} -> {out}")
    t0 = time.perf_counter()
    bar = _SweepBar()
    try:
        with bar:
            result = run_sweep(exp, out, jobs=jobs, dask=use_dask, scheduler=scheduler, progress=bar.update, max_memory=limit)
    except StoreError as e:
        raise click.ClickException(str(e)) from None
    except KeyboardInterrupt:
        _interrupted(f"interrupted: {bar.state.done if bar.state else 0} runs finished and kept in {out}; "
                     "run the same command again to resume")
    except RuntimeError as e:
        raise click.ClickException(str(e)) from None
    wall = time.perf_counter() - t0
    failed = result.catalog.column("status").to_pylist().count("failed")
    if as_json:
        state = bar.state
        emit_json({"command": "sweep", "experiment_file": str(experiment), "out_dir": result.root,
                   "files": {"catalog": result.root / "catalog.parquet", "aggregate": result.root / "aggregate.parquet",
                             "aggregate_csv": result.root / "aggregate.csv", "runs": result.root / "runs"},
                   "runs": {"points": len(exp.axis_points()), "seeds": len(exp.seeds), "total": result.catalog.num_rows,
                            "executed": state.total if state else 0, "reused": state.reused if state else 0, "failed": failed},
                   "wall_s": wall, "provenance": {"engine": result.experiment.get("engine"), **(result.sessions[-1] if result.sessions else {})},
                   "axes": result.axes, "measures": result.measures, "aggregate": result.aggregate.to_pylist()})
    elif not quiet():
        _print_sweep_summary(result, bar.state, wall)
    if failed:
        click.echo(f"{failed} of {result.catalog.num_rows} runs failed: their errors are in the catalog's error column "
                   f"and each one's scenario in {out / 'failed'}/", err=True)
        sys.exit(1)


class _SweepBar:
    """The sweep's progress: a bar with done/failed counts and the time left on a terminal,
    a line every 10 % otherwise. Started at the first update, after the workers exist."""

    def __init__(self) -> None:
        self.state: Any = None
        self._progress: Any = None  # a rich Progress on a terminal
        self._task: Any = None
        self._last_decile = -1

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def stop(self) -> None:
        """Takes the bar off the terminal (if one is shown)."""
        if self._progress is not None:
            self._progress.stop()
            self._progress = None

    def update(self, state) -> None:
        self.state = state
        if self._progress is None and self._last_decile < 0:
            if state.damaged:
                click.echo(f"warning: {state.damaged} run folder(s) in the store were damaged (files missing or changed); "
                           "they run again", err=True)
            if state.total:
                note(f"executing {state.total} runs {state.executor}"
                     + (f" ({state.reused} found complete in the store)" if state.reused else ""))
            else:
                note(f"nothing to run: all {state.reused} runs are complete in the store")
            if progress_bar_wanted() and state.total:
                from rich.console import Console
                from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

                self._progress = Progress(TextColumn("runs"), BarColumn(), MofNCompleteColumn(),
                                          TextColumn("[red]{task.fields[failed]} failed"), TimeElapsedColumn(),
                                          TextColumn("left"), TimeRemainingColumn(), console=Console(stderr=True), transient=True)
                self._progress.start()
                self._task = self._progress.add_task("sweep", total=state.total, failed=0)
            self._last_decile = 0
        if self._progress is not None:
            self._progress.update(self._task, completed=state.done, failed=state.failed)
        elif state.total:
            decile = state.done * 10 // state.total
            if decile > self._last_decile:
                self._last_decile = decile
                note(f"  {state.done} of {state.total} runs done, {state.failed} failed")


def _memory_error(e: ScenarioError) -> str:
    """A memory-limit error for the terminal: a bad --max-memory names the option; a default
    too small names where it came from (its own message)."""
    from .memory import MemoryLimitError

    return str(e) if isinstance(e, MemoryLimitError) else f"--max-memory: {str(e).split(': ', 1)[-1]}"


def _print_sweep_summary(result, state, wall_s: float) -> None:
    from rich.table import Table

    # Not a terminal (a log, a pipe): wide lines rather than columns squeezed to 80 characters.
    console = stdout_console()
    agg = result.aggregate.to_pandas()
    t = Table(title=f"{result.experiment['name']}: mean [95 % CI] over seeds", title_justify="left")
    for a in result.axes:
        t.add_column(a, justify="right")
    t.add_column("runs", justify="right")
    for m in result.measures:
        t.add_column(m, justify="right")
    for _, r in agg.head(40).iterrows():
        cells = [str(r[a]) for a in result.axes] + [f"{int(r['runs_ok'])}" + (f" ({int(r['runs_failed'])} failed)" if r["runs_failed"] else "")]
        for m in result.measures:
            mean, lo, hi = r[f"{m}_mean"], r[f"{m}_ci95_low"], r[f"{m}_ci95_high"]
            cells.append(_fmt(mean, ".4g") + ("" if hi != hi else f" [{_fmt(lo, '.4g')}, {_fmt(hi, '.4g')}]"))
        t.add_row(*cells)
    console.print(t)
    if len(agg) > 40:
        console.print(f"… {len(agg) - 40} more points in {result.root / 'aggregate.csv'}")
    engine = result.catalog.column("engine_wall_s").to_pandas().sum()
    ran = state.total if state else 0
    console.print(f"{ran} runs executed ({state.reused if state else 0} reused) in {wall_s:.1f} s; engine time of all runs "
                  f"{engine:.1f} s; results: {result.root}/ (catalog.parquet, aggregate.parquet, aggregate.csv, runs/)")


REPRODUCE_EXAMPLES = """
\b
Examples:
  aimdlab reproduce new-aimd-utilization --quick
  aimdlab reproduce all --quick --jobs 2
  aimdlab reproduce new-aimd-utilization --out results/reproduce --dask

\b
Each paper's definition is experiments/<paper>/paper.toml: its figures, tables and claims, the
sweeps that reproduce them, the published numbers and the tolerance that counts as reproduced.
Runs resume from the store (results/reproduce/<paper>/sweeps/); the report is
results/reproduce/<paper>/index.html, with an index of the papers in results/reproduce/.
A verdict follows aimdlab's 95 % interval over the seeds: reproduced, differs, inconclusive
(across the tolerance's edge) or cannot be reproduced. Only the paper's own results are
counted; calibrated, sensitivity and context items are shown beside them.
"""


@main.command(epilog=REPRODUCE_EXAMPLES)
@click.argument("paper")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("results/reproduce"), show_default=True,
              help="Where the sweeps and the reports go (reused to resume).")
@click.option("--quick", is_flag=True, help="Fewer seeds and shorter runs (each sweep's [quick] table); the report says so.")
@click.option("--jobs", type=click.IntRange(1, 4096), default=None, help="Parallel runs (default: one per core).")
@_dask_options
@click.option("--experiments", "experiments_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="The folder of paper definitions (default: ./experiments if it holds any, else those inside the package).")
@click.option("--sweep-reports", is_flag=True,
              help="Also write each sweep's own report (its aggregate figures; about half again the time of a quick run). "
                   "Without it, `aimdlab report FOLDER` writes one when wanted.")
@json_option
@quiet_option
def reproduce(paper: str, out_dir: Path, quick: bool, jobs: Optional[int], use_dask: bool, scheduler: Optional[str],
              experiments_dir: Optional[Path], sweep_reports: bool, as_json: bool) -> None:
    """Reproduce PAPER (or all): run its figures and tables, set aimdlab's numbers beside the
    published ones with a verdict each, and write an HTML report."""
    from .reproduce import available_papers, find_experiments, load_paper, reproduce_papers, total_tally
    from .reproduce.report import submit_figures, write_index, write_paper_report
    from .sweep.executor import stop_pool, submit
    from .sweep.report import write_report

    _check_dask_options(use_dask, scheduler)
    try:
        root = find_experiments(experiments_dir)
        names = available_papers(root)
        chosen = names if paper == "all" else [paper]
        for name in chosen:
            if name not in names:
                raise ScenarioError(f"{name!r} is not a paper aimdlab can reproduce yet; expected one of {', '.join(names)} or all")
        papers = [load_paper(root / name) for name in chosen]
    except (ScenarioError, FileNotFoundError) as e:
        raise click.ClickException(str(e)) from None
    t0 = time.perf_counter()
    for p in papers:
        n = len(p.sweeps())
        note(f"{p.id}: {len(p.items)} figures, tables and claims; {n} sweep{'' if n == 1 else 's'}{' (quick)' if quick else ''}")
    figures: Dict[str, Dict] = {}  # each paper's figures, drawn on the workers as soon as it is evaluated

    def evaluated(result) -> None:
        figures[result.paper.id] = submit_figures(result, jobs)

    try:
        with _SweepBar() as bar:
            results = reproduce_papers([(p, out_dir / p.id) for p in papers], quick=quick, jobs=jobs, dask=use_dask,
                                       scheduler=scheduler, progress=bar.update, evaluated=evaluated)
        if sweep_reports:  # (drawn on the workers beside the pages' figures; before the pages, which link them)
            reports = [submit(functools.partial(write_report, run_figures=False), store, jobs)
                       for result in results for store in result.sweeps.values()]
            for report in reports:
                report.result()
        note(f"drawing {sum(len(f) for f in figures.values())} figures")
        pages = [write_paper_report(r, out_dir / r.paper.id, jobs=jobs, figures=figures.get(r.paper.id)) for r in results]
    except KeyboardInterrupt:
        stop_pool()
        _interrupted(f"interrupted: the runs finished so far are kept in {out_dir}; run the same command again to resume")
    except (ScenarioError, RuntimeError, OSError) as e:
        stop_pool()
        raise click.ClickException(str(e)) from None
    index = write_index(results, out_dir) if results else None
    wall = time.perf_counter() - t0
    if as_json:
        from .result import provenance_of_this_session

        emit_json({"command": "reproduce", "out_dir": out_dir, "index": index, "quick": quick, "wall_s": wall,
                   "provenance": provenance_of_this_session(),
                   "papers": [{"paper": r.paper.id, "page": page, "counts": r.counts(),
                               "items": [{"id": i.item.id, "title": i.item.title, "kind": i.item.kind, "verdict": i.verdict.verdict,
                                          "detail": i.verdict.detail} for i in r.items]} for r, page in zip(results, pages)],
                   "totals": total_tally(results) if results else {}})
        return
    if quiet():
        return
    for result, page in zip(results, pages):
        click.echo(f"{result.paper.id}:")
        for r in result.items:
            kind = "" if r.item.kind == "result" else f"[{r.item.kind}] "
            click.echo(f"  {r.verdict.verdict:<21} {kind}{r.item.title} — {r.verdict.detail}")
            for value, other in r.sensitivity:
                shown = value if isinstance(value, str) else json.dumps(value)
                click.echo(f"    {other.verdict.verdict:<19} at {r.item.sensitivity} = {shown}: {other.verdict.detail}")
        click.echo(f"  paper results: {_count_words(result.counts())}; report: {page}")
    if results:
        totals = total_tally(results)
        verdicts = {k: totals[k] for k in results[0].counts()}
        click.echo(f"{len(results)} paper(s) in {wall:.1f} s; paper results: {_count_words(verdicts)} "
                   f"(calibrations, sensitivity rows and context are shown in the reports, not counted); index: {index}")


def _count_words(counts: Dict[str, int]) -> str:
    """Verdict counts in words: `3 reproduced, 2 differs, ...`."""
    return ", ".join(f"{v} {k}" for k, v in counts.items())


REPORT_EXAMPLES = """
\b
Examples:
  aimdlab report results/sweeps/utilization-flows     a sweep: writes its report.html
  aimdlab report results/utilization                  one run's folder
"""


@main.command(epilog=REPORT_EXAMPLES)
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@click.option("--out", "out_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The HTML file to write (default: FOLDER/report.html).")
@click.option("--run-figures/--no-run-figures", default=None,
              help="For a sweep: also draw each run's overview figure, linked from the runs table (off by default: "
                   "minutes for a 1,000-run sweep). For one run's folder: --no-run-figures leaves its figure out.")
@json_option
@quiet_option
def report(folder: Path, out_file: Optional[Path], run_figures: Optional[bool], as_json: bool) -> None:
    """Write a self-contained HTML report (works offline) of a sweep or of one run."""
    from .sweep.report import ReportError, write_report

    try:
        path = write_report(folder, out_file, run_figures=run_figures, progress=_report_progress())
    except ReportError as e:
        raise click.ClickException(str(e)) from None
    if as_json:
        emit_json({"command": "report", "folder": folder, "report": path, "kind": "sweep" if (folder / "sweep.json").is_file() else "run"})
    elif not quiet():
        click.echo(f"report: {path}")


def _report_progress():
    """A callback for drawing each run's figure: a bar on a terminal, a line per tenth
    otherwise, nothing with -q."""
    if not progress_bar_wanted():
        return steps("run figures")
    state = {}

    def update(done: int, total: int) -> None:
        if "bar" not in state:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

            state["bar"] = Progress(TextColumn("run figures"), BarColumn(), MofNCompleteColumn(), console=Console(stderr=True), transient=True)
            state["bar"].start()
            state["task"] = state["bar"].add_task("figures", total=total)
        state["bar"].update(state["task"], completed=done)
        if done >= total:
            state["bar"].stop()

    return update


EXAMPLES_EXAMPLES = """
\b
Examples:
  aimdlab examples                       list the examples that ship with aimdlab
  aimdlab examples --copy examples       copy them into ./examples, then:
  aimdlab run examples/utilization.toml
  aimdlab sweep examples/sweeps/utilization-flows.toml --quick
"""


@main.command(epilog=EXAMPLES_EXAMPLES)
@click.option("--copy", "copy_to", type=click.Path(path_type=Path), default=None, metavar="DIR",
              help="Copy every example into DIR (created if missing; a file already there is never overwritten).")
@json_option
@quiet_option
def examples(copy_to: Optional[Path], as_json: bool) -> None:
    """List the example scenarios and sweeps that ship with aimdlab, or copy them out to run
    and change."""
    from .package_data import CopyError, copy_examples
    from .package_data import examples as listed

    if copy_to is None:
        entries = listed()
        if as_json:
            emit_json({"command": "examples", "examples": [{"file": f"examples/{name}", "what": what} for name, what in entries]})
            return
        width = max(len(name) for name, _ in entries)
        for name, what in entries:
            click.echo(f"examples/{name:<{width}}  {what}")
        click.echo("\naimdlab examples --copy DIR copies them out; aimdlab run DIR/utilization.toml runs one.")
        return
    try:
        written = copy_examples(copy_to)
    except (CopyError, OSError) as e:
        raise click.ClickException(str(e) if isinstance(e, CopyError) else _os_error_text(e)) from None
    if as_json:
        emit_json({"command": "examples", "copied_to": copy_to, "files": written})
    elif not quiet():
        click.echo(f"copied {len(written)} examples into {copy_to}; try: aimdlab run {copy_to / 'utilization.toml'}")


@main.command()
@click.argument("table", required=False, type=click.Choice(["flows", "links", "timeseries", "link_timeseries", "cwnd_trace"]))
@json_option
def columns(table: Optional[str], as_json: bool) -> None:
    """Print what each column of the result tables means, with its unit.

    \b
    Examples:
      aimdlab columns
      aimdlab columns flows
      aimdlab columns timeseries
    """
    from rich.table import Table

    from . import _core

    rows = [c for c in _core.columns() if table is None or c[0] == table]
    if as_json:
        emit_json({"command": "columns", "columns": [{"table": t, "column": n, "unit": u, "description": d} for t, n, u, d in rows]})
        return
    out = Table(show_header=True, header_style="bold")
    for head in ("table", "column", "unit", "what it is"):
        out.add_column(head)
    for t, name, unit, doc in rows:
        out.add_row(t, name, unit, doc)
    stdout_console().print(out)


class _ValidateGroup(click.Group):
    """`aimdlab validate` takes a validation name (`gaimd`) or, for anything else, scenario
    files to check: `aimdlab validate a.toml b.toml` is `aimdlab validate files a.toml b.toml`."""

    def resolve_command(self, ctx, args):
        if args and args[0] not in self.commands and not args[0].startswith("-"):
            args = ["files", *args]
        return super().resolve_command(ctx, args)


VALIDATE_EXAMPLES = """
\b
Examples:
  aimdlab validate examples/*.toml            check scenario files without running them
  aimdlab validate gaimd --quick              GAIMD's formula against simulation (~10 s)
  aimdlab validate gaimd --out results/gaimd  the full grid of gaimd.txt Fig. 2-4
"""


@main.group(cls=_ValidateGroup, epilog=VALIDATE_EXAMPLES)
def validate() -> None:
    """Check scenario files, or compare an analytic model with packet-level simulation."""


@validate.command("files", short_help="Check scenario files without running them (the default).")
@click.argument("scenarios", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--max-memory", metavar="SIZE", default=None, help=MAX_MEMORY_HELP)
@json_option
@quiet_option
def validate_files(scenarios: Tuple[Path, ...], max_memory: Optional[str], as_json: bool) -> None:
    """Check scenario files without running them; print each one's estimated memory."""
    from .memory import limit_bytes
    from .scenario import load, memory_estimate

    try:
        limit_bytes(max_memory)  # a bad --max-memory, or a default too small, is said once, up front
    except ScenarioError as e:
        raise click.ClickException(_memory_error(e)) from None
    bad = 0
    checked = []
    for path in scenarios:
        try:
            sc = load(path, max_memory=max_memory)
            need = memory_estimate(sc)["total_bytes"]
            checked.append({"file": path, "valid": True, "error": None, "memory_bytes": need})
            if not as_json and not quiet():
                click.echo(f"ok      {path} (needs about {format_bytes(need)} of memory)")
        except (ScenarioError, FileNotFoundError) as e:
            bad += 1
            checked.append({"file": path, "valid": False, "error": str(e), "memory_bytes": None})
            if not as_json:
                click.echo(f"invalid {e}", err=True)
    if as_json:
        emit_json({"command": "validate", "files": checked})
    if bad:
        sys.exit(1)



GAIMD_EXAMPLES = """
\b
Examples:
  aimdlab validate gaimd --quick
  aimdlab validate gaimd --mode onoff --newreno --out results/gaimd-newreno
  aimdlab validate gaimd --quick --mode onoff --queue red --out results/gaimd-red     # Fig. 5
"""


@validate.command("gaimd", epilog=GAIMD_EXAMPLES, short_help="GAIMD's formula (gaimd.txt eq. 2) against simulation.")
@click.option("--quick", is_flag=True, help="3 values of α and fewer loss levels (about 50 runs) instead of about 500.")
@click.option("--mode", type=click.Choice(["onoff", "loss", "both"]), default="both", show_default=True,
              help="Loss from Pareto ON/OFF background traffic (the paper's), independent random loss, or both.")
@click.option("--newreno", is_flag=True, help="NewReno loss recovery instead of SACK for every TCP-like flow.")
@click.option("--queue", type=click.Choice(["droptail", "red"]), default="droptail", show_default=True,
              help="The bottleneck's queue: drop-tail (Fig. 2-4) or RED with ns-2's automatic thresholds (Fig. 5).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=1, show_default=True, help="Seed of every run.")
@click.option("--jobs", type=click.IntRange(1, 512), default=None, help="Parallel simulations (default: one per core).")
@_dask_options
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("results/validate-gaimd"),
              show_default=True, help="Where the table (CSV) and the figure (PNG) go.")
@json_option
@quiet_option
def validate_gaimd(quick: bool, mode: str, newreno: bool, queue: str, seed: int, jobs: Optional[int], use_dask: bool, scheduler: Optional[str],
                   out_dir: Path, as_json: bool) -> None:
    """GAIMD's sending-rate formula (gaimd.txt eq. 2) against packet-level simulation, as in
    the paper's §2.4 and Fig. 2-5: 16 GAIMD(α, β) flows on a 15 Mbps / 50 ms DropTail (or
    RED) bottleneck, for β in {0.5, 0.75, 0.875} and α from 0.1 to 1.0. The loss rate is measured
    as the paper does, window reductions / packets sent; the prediction uses the GAIMD flows'
    mean loss rate, RTT and T0. Prints the prediction/measurement ratio of every run and
    where it lies outside 0.8-1.25."""
    from .models.figures import gaimd_accuracy
    from .plots import save_figure
    from .result import write_atomic
    from .validation import gaimd as v

    _check_dask_options(use_dask, scheduler)
    modes = ("onoff", "loss") if mode == "both" else (mode,)
    points = v.grid(quick=quick, modes=modes, seed=seed, sack=not newreno, queue=queue)
    t0 = time.perf_counter()
    try:
        if progress_bar_wanted():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            columns = (TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
            with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
                task = bar.add_task("gaimd", total=len(points))
                table = v.run(points, jobs=jobs, progress=lambda done, total: bar.update(task, completed=done), dask=use_dask,
                              scheduler=scheduler)
        else:
            note(f"simulating {len(points)} GAIMD runs ...")
            table = v.run(points, jobs=jobs, progress=steps("runs"), dask=use_dask, scheduler=scheduler)
    except KeyboardInterrupt:
        _interrupted("interrupted: nothing was written")
    except RuntimeError as e:
        raise click.ClickException(str(e)) from None
    wall = time.perf_counter() - t0
    out_dir.mkdir(parents=True, exist_ok=True)
    csv_path = out_dir / "gaimd-validation.csv"
    write_atomic(csv_path, table.to_csv(index=False, float_format="%.6g").encode())
    fig_path = save_figure(gaimd_accuracy(table), out_dir / "gaimd-accuracy.png")
    if as_json:
        from .result import provenance_of_this_session

        emit_json({"command": "validate gaimd", "out_dir": out_dir, "csv": csv_path, "figure": fig_path, "wall_s": wall,
                   "provenance": provenance_of_this_session(),
                   "verdicts": {f"loss_at_most_{m:g}": {k: val for k, val in v.verdict(table, m).items() if k != "outside"}
                                for m in (0.05, 0.10, 0.20)},
                   "rows": table.to_dict("records")})
    elif not quiet():
        _print_gaimd_table(table, v)
        click.echo(f"{len(points)} simulations in {wall:.1f} s; wrote {csv_path} and {fig_path}")


def _print_gaimd_table(table, v) -> None:
    from rich.table import Table

    console = stdout_console()
    t = Table(title="GAIMD: eq. (2) prediction / measured sending rate (loss rate = window reductions / packets sent)",
              title_justify="left")
    for name in ("mode", "level", "β", "α", "loss %", "RTT ms", "TO share", "pred/meas", "eq. 55"):
        t.add_column(name, justify="right")
    lo, hi = v.ACCURATE
    for r in table.itertuples():
        ok = lo <= r.ratio <= hi
        level = f"{int(r.level)} src" if r.mode == "onoff" else f"p={r.level:g}"
        t.add_row(r.mode, level, f"{r.beta:g}", f"{r.alpha:g}", f"{r.loss_rate * 100:.2f}", f"{r.rtt_s * 1e3:.0f}",
                  f"{r.timeout_fraction:.2f}", f"[{'green' if ok else 'red'}]{r.ratio:.2f}[/]", f"{r.ratio_full:.2f}")
    console.print(t)
    for max_loss in (0.05, 0.10, 0.20):
        vd = v.verdict(table, max_loss)
        console.print(f"loss rate <= {max_loss:.0%}: {vd['accurate']} of {vd['points']} runs within {lo}-{hi}")
    out = v.verdict(table, 0.10)["outside"]
    if len(out):
        worst = out.reindex(out["ratio"].sub(1).abs().sort_values(ascending=False).index).head(8)
        console.print("outside the band at loss <= 10% (worst first): " + "; ".join(
            f"β={r.beta:g} α={r.alpha:g} {r.mode} p={r.loss_rate * 100:.1f}% -> {r.ratio:.2f}" for r in worst.itertuples()))


def entry() -> None:
    """The `aimdlab` console command: `main`, and once it has finished (results written, or
    an error reported) Ctrl-C is ignored for the interpreter's shutdown, instead of killing
    the process. (SIG_IGN, which the interpreter keeps through its shutdown, is set only
    here, in the command's own process, about to exit and to start no program.)"""
    try:
        main()
    except SystemExit:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        raise
    except KeyboardInterrupt:  # a second Ctrl-C while the first one was being reported
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        sys.exit(130)


if __name__ == "__main__":  # pragma: no cover
    entry()
