"""The `aimdlab` command line: run a scenario, print the schema, validate files."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Optional, Tuple

import click

from . import __version__
from ._core import EngineError, ScenarioError

EXAMPLES = """
\b
Examples:
  aimdlab run examples/utilization.toml
  aimdlab run examples/utilization.toml --out results/u4 --set flows[0].count=4
  aimdlab run examples/long-delay.toml --seed 7 --format pdf
  aimdlab validate examples/*.toml
  aimdlab schema > scenario.schema.json
"""


@click.group(epilog=EXAMPLES, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="aimdlab")
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
    from rich.console import Console
    from rich.table import Table

    console = Console()
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

    flows = result.flows.to_pandas()
    t = Table(title="flows (rates in Mbit/s, times in ms unless marked)", title_justify="left")
    for col in ("flow", "cc", "start s", "goodput", "thruput", "retx", "FR", "TO", "RTT", "delay p99", "done s"):
        t.add_column(col, justify="right")
    limit = 20
    for _, r in flows.head(limit).iterrows():
        t.add_row(
            str(r["flow"]), r["cc"], _fmt(r["start_s"], ".2f"), _fmt(r["goodput_bps"] / 1e6, ".3f"),
            _fmt(r["throughput_bps"] / 1e6, ".3f"), str(r["retransmitted_pkts"]), str(r["fast_retransmits"]),
            str(r["timeouts"]), _fmt(r["rtt_mean_ms"], ".1f"), _fmt(r["delay_p99_ms"], ".1f"), _fmt(r["completion_time_s"], ".2f"),
        )
    console.print(t)
    if len(flows) > limit:
        console.print(f"… {len(flows) - limit} more flows in {out_dir / 'flows.parquet'}")
    console.print(f"results: {out_dir}/ (summary.json, flows/links/timeseries Parquet)")
    if figure:
        console.print(f"figure:  {figure}")


@main.command(epilog=EXAMPLES)
@click.argument("scenario", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Results folder. Default: results/<scenario file name>.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=None, help="Override the scenario's seed.")
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
              help="Override a scenario field, e.g. --set topology.dumbbell.bottleneck.rate=10Mbps (repeatable).")
@click.option("--format", "fig_format", type=click.Choice(["png", "pdf", "svg"]), default="png", show_default=True,
              help="Figure format.")
@click.option("--no-figure", is_flag=True, help="Do not draw the overview figure.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON instead of tables.")
def run(scenario: Path, out_dir: Optional[Path], seed: Optional[int], overrides: Tuple[str, ...], fig_format: str,
        no_figure: bool, as_json: bool) -> None:
    """Run SCENARIO (a TOML file), print a summary and write results and a figure."""
    from . import run as run_scenario
    from .scenario import apply_overrides, load, validate

    try:
        sc = load(scenario)
        if overrides:
            sc = apply_overrides(sc, overrides)
            validate(sc)
    except (ScenarioError, FileNotFoundError) as e:
        raise click.ClickException(str(e)) from None
    out_dir = out_dir or Path("results") / scenario.stem
    t0 = time.perf_counter()
    try:
        if sys.stderr.isatty() and not as_json:
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            columns = (TextColumn("simulating {task.description}"), BarColumn(),
                       TextColumn("{task.completed:.1f} / {task.total:g} s simulated"), TimeElapsedColumn())
            with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
                from .scenario import duration_s as scenario_duration_s

                task = bar.add_task(scenario.name, total=scenario_duration_s(sc))

                def report(now_s: float, duration_s: float) -> None:
                    bar.update(task, completed=now_s, total=duration_s)

                result = run_scenario(sc, seed=seed, progress=report)
        else:
            result = run_scenario(sc, seed=seed)
    except ScenarioError as e:
        raise click.ClickException(str(e)) from None
    except EngineError as e:
        raise click.ClickException(str(e)) from None
    except KeyboardInterrupt:
        click.echo("interrupted: the run was stopped and nothing was written", err=True)
        sys.exit(130)
    wall = time.perf_counter() - t0
    result.save(out_dir)
    figure = None
    if not no_figure:
        from .plots import overview, save_figure

        figure = save_figure(overview(result), out_dir / f"overview.{fig_format}")
    if as_json:
        click.echo(result.summary_json(), nl=False)
    else:
        _print_summary(result, out_dir, wall, figure)


@main.command()
def schema() -> None:
    """Print the JSON Schema of scenario files."""
    from . import _core

    click.echo(_core.schema())


@main.command()
@click.argument("scenarios", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
def validate(scenarios: Tuple[Path, ...]) -> None:
    """Check scenario files without running them."""
    from .scenario import load

    bad = 0
    for path in scenarios:
        try:
            load(path)
            click.echo(f"ok      {path}")
        except (ScenarioError, FileNotFoundError) as e:
            bad += 1
            click.echo(f"invalid {e}", err=True)
    if bad:
        sys.exit(1)


if __name__ == "__main__":  # pragma: no cover
    main()
