"""`aimdlab run`: one scenario, its summary, its results folder and its overview figure."""

from __future__ import annotations

import contextlib
import json
import signal
import threading
import time
from pathlib import Path
from typing import Any, Dict, Optional, Tuple

import click

from ..errors import ControllerError, EngineError, ScenarioError
from .app import EXAMPLES, main, written
from .options import MAX_MEMORY_HELP, NO_LIMIT_BYTES, memory_error
from .output import emit_json, fmt, json_option, note, progress_bar_wanted, quiet, quiet_option, stdout_console, steps


def _fmt_rate(bps) -> str:
    if bps is None or bps != bps:
        return "—"
    if bps >= 1e9:
        return f"{bps / 1e9:.3f} Gbit/s"
    if bps >= 1e6:
        return f"{bps / 1e6:.3f} Mbit/s"
    return f"{bps / 1e3:.1f} kbit/s"


def _print_summary(result, out_dir: Path, wall_s: float, figure: Optional[Path]) -> None:
    from rich import box
    from rich.table import Table

    from ..result import pcap_file_name

    console = stdout_console(fit=100)  # (every cell folds; nothing is cut)
    s = result.summary
    b = s.get("bottleneck") or {}
    head = Table(title=f"{s.get('name') or 'scenario'}: seed {s['seed']}, {s['duration_s']:g} s simulated, "
                 f"warm-up {s['warmup_s']:g} s", show_header=False, box=None, title_justify="left")
    head.add_column(style="bold")
    head.add_column()
    if b:
        head.add_row("bottleneck", f"{b['link']} at {_fmt_rate(b['rate_bps'])}")
        head.add_row("utilization", f"{100 * b['utilization']:.2f} %" if b.get("utilization") is not None else "—")
        head.add_row("queue mean / max", f"{fmt(b.get('queue_mean_pkts'), '.1f')} / {b.get('queue_max_pkts')} packets")
        head.add_row("queuing delay mean / p99", f"{fmt(b.get('qdelay_mean_ms'))} / {fmt(b.get('qdelay_p99_ms'))} ms")
        head.add_row("drops", str(b["drops"]))
    head.add_row("goodput total", _fmt_rate(s["goodput_total_bps"]))
    head.add_row("Jain index", fmt(s.get("jain_index"), ".4f"))
    head.add_row("retransmitted / timeouts", f"{s['retransmitted_pkts']} / {s['timeouts']}")
    head.add_row("events / wall time", f"{s['events']:,} in {wall_s:.2f} s")
    console.print(head)

    t = Table(title="flows (rates in Mbit/s, times in ms unless marked; cuts: window cuts on loss, ECN: on ECN echoes, TO: timeouts)",
              title_justify="left", box=box.SIMPLE_HEAD)
    for col in ("flow", "cc", "start s", "goodput", "thruput", "retx", "cuts", "ECN", "TO", "RTT", "delay p99", "done s"):
        t.add_column(col, justify="right", overflow="fold")
    limit = 20
    for r in result.flows.slice(0, limit).to_pylist():  # (Arrow rows: no pandas to import)
        t.add_row(
            str(r["flow"]), r["cc"], fmt(r["start_s"], ".2f"), fmt(r["goodput_bps"] / 1e6, ".3f"),
            fmt(r["throughput_bps"] / 1e6, ".3f"), str(r["retransmitted_pkts"]), str(r["loss_events"] - r["timeouts"]),
            str(r["ecn_reductions"]), str(r["timeouts"]), fmt(r["rtt_mean_ms"], ".1f"), fmt(r["delay_p99_ms"], ".1f"), fmt(r["completion_time_s"], ".2f"),
        )
    console.print(t)
    if result.flows.num_rows > limit:
        console.print(f"… {result.flows.num_rows - limit} more flows in {out_dir / 'flows.parquet'}")
    traces = ", cwnd_trace.parquet" * bool(result.cwnd_trace.num_rows) + "".join(f", {pcap_file_name(link)}" for link in result.pcaps)
    console.print(f"results: {out_dir}/ (summary.json, flows/links/timeseries Parquet{traces})")
    if figure:
        console.print(f"figure:  {figure}")


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
    from .. import run as run_scenario
    from ..memory import limit_bytes
    from ..out_path import shown_path
    from ..run_folder import OutputError, RunFolder
    from ..scenario import apply_overrides, load, validate

    try:
        limit = limit_bytes(max_memory)
    except ScenarioError as e:
        raise click.ClickException(memory_error(e)) from None
    try:
        # The memory limit applies to the scenario that runs: with --set or --pcap it is
        # checked after them (a --set may shrink a scenario too big as written).
        sc = load(scenario, max_memory=NO_LIMIT_BYTES if (overrides or pcap_links) else max_memory)
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
            _refuse_to_lose(folder.out, out_dir, sc, seed)
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
                from ..plots import overview, save_figure

                if preload is not None:
                    preload.join()
                check()
                save_figure(overview(result), folder.staging / f"overview.{fig_format}")
                figure = shown_path(folder.out) / f"overview.{fig_format}"
                # The import thread's object is let go while Ctrl-C is only recorded, as
                # `runner.run` lets the engine's go: its deallocation runs threading's
                # `_dangling` WeakSet callback, where a KeyboardInterrupt is printed
                # ("Exception ignored in ...") and lost. On return it would meet the default
                # handler.
                preload = None
            check()
            folder.commit()
            written.append(out_dir)
    except BaseException:
        folder.discard()
        raise
    if as_json:
        emit_json({"command": "run", "scenario_file": str(scenario), "out_dir": shown_path(folder.out),
                   "files": sorted(p.name for p in folder.out.iterdir() if not p.name.startswith(".")),
                   "figure": figure, "wall_s": wall, "provenance": result.provenance, "summary": result.summary})
    elif not quiet():
        _print_summary(result, shown_path(folder.out), wall, figure)


def _refuse_to_lose(out: Path, spelled: str, sc: Dict[str, Any], seed: Optional[int]) -> None:
    """Refuses (a one-line error) to replace a results folder that holds a run of another
    scenario or seed: a previous run is never lost silently. The same scenario and seed is
    the same run again, and replaces it."""
    from .. import schema
    from ..scenario import plain

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
        raise click.ClickException(f"--out {spelled}: holds a run of another scenario ({shown}); replace it with --force, "
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
        from ..plots import _matplotlib

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

            from ..scenario import duration_s as scenario_duration_s

            columns = (TextColumn("simulating {task.description}"), BarColumn(),
                       TextColumn("{task.completed:.1f} / {task.total:g} s simulated"), TimeElapsedColumn())
            with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
                task = bar.add_task(label, total=scenario_duration_s(sc))

                def report(now_s: float, duration_s: float) -> None:
                    bar.update(task, completed=now_s, total=duration_s)

                return run_scenario(sc, seed=seed, progress=report, max_memory=limit)
        note(f"simulating {label} ...")
        return run_scenario(sc, seed=seed, progress=steps("simulated"), max_memory=limit)
    except ControllerError as e:  # (the controller's own failure: named with the file that chose it)
        raise click.ClickException(f"{label}: {e}") from None
    except (ScenarioError, EngineError) as e:
        raise click.ClickException(str(e)) from None
