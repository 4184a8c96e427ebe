"""`aimdlab validate`: check scenario files, or an analytic model against simulation."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Optional, Tuple

import click

from ..errors import ScenarioError
from ..units import format_bytes
from .app import interrupted, main
from .options import MAX_MEMORY_HELP, check_dask_options, dask_options, memory_error
from .output import emit_json, json_option, note, progress_bar_wanted, quiet, quiet_option, stdout_console, steps


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
    from ..memory import limit_bytes
    from ..scenario import load, memory_estimate

    try:
        limit_bytes(max_memory)  # a bad --max-memory, or a default too small, is said once, up front
    except ScenarioError as e:
        raise click.ClickException(memory_error(e)) from None
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
@dask_options
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
    from ..models.figures import gaimd_accuracy
    from ..plots import save_figure
    from ..result import write_atomic
    from ..validation import gaimd as v

    check_dask_options(use_dask, scheduler)
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
        interrupted("interrupted: nothing was written")
    except RuntimeError as e:
        raise click.ClickException(str(e)) from None
    wall = time.perf_counter() - t0
    out_dir.mkdir(parents=True, exist_ok=True)
    csv_path = out_dir / "gaimd-validation.csv"
    write_atomic(csv_path, table.to_csv(index=False, float_format="%.6g").encode())
    fig_path = save_figure(gaimd_accuracy(table), out_dir / "gaimd-accuracy.png")
    if as_json:
        from ..result import provenance_of_this_session

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
