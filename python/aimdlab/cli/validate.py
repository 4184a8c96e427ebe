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
from .output import SweepBar, emit_json, json_option, note, quiet, quiet_option, stdout_console


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
  aimdlab validate gaimd --out results/gaimd  the reproduction's sweep of gaimd.txt Fig. 2-5
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
        emit_json({"command": "validate", "ok": bad == 0, "files": checked})
    if bad:
        sys.exit(1)


GAIMD_EXAMPLES = """
\b
Examples:
  aimdlab validate gaimd --quick                              Fig. 2-5 in seconds (1 seed, 60 s runs, 36 runs)
  aimdlab validate gaimd                                      the sweep as the reproduction runs it (5 seeds, 720 runs)
  aimdlab validate gaimd --background random-loss --quick     §2.4.2: independent losses instead

\b
It runs the sweep experiments/gaimd/accuracy.toml (or accuracy-random-loss.toml) into --out,
as `aimdlab reproduce gaimd` does, resuming from what is there; then it writes the table
(gaimd-validation.csv) and the figures (gaimd-accuracy.png, and gaimd-accuracy-red.png for the
RED points). Another stack, another grid: copy the sweep file and run `aimdlab sweep`.
"""


@validate.command("gaimd", epilog=GAIMD_EXAMPLES, short_help="GAIMD's formula (gaimd.txt eq. 2) against simulation.")
@click.option("--quick", is_flag=True, help="The sweep's [quick] table: 1 seed, 60 s runs, fewer points.")
@click.option("--background", type=click.Choice(["onoff", "random-loss"]), default="onoff", show_default=True,
              help="Loss from Pareto ON/OFF background traffic (the paper's Fig. 2-5), or independent random loss (§2.4.2).")
@click.option("--jobs", type=click.IntRange(1, 512), default=None, help="Parallel simulations (default: one per core).")
@dask_options
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="The sweep's folder, where the table and figures go too (reused to resume). "
                   "Default: results/validate-gaimd, with -random-loss and -quick appended as they apply.")
@json_option
@quiet_option
def validate_gaimd(quick: bool, background: str, jobs: Optional[int], use_dask: bool, scheduler: Optional[str],
                   out_dir: Optional[Path], as_json: bool) -> None:
    """GAIMD's sending-rate formula (gaimd.txt eq. 2) against packet-level simulation, as in
    the paper's §2.4 and Fig. 2-5: the reproduction's sweep (16 GAIMD(α, β) and 16 Reno flows
    on ns-2's stack, a 15 Mbps / 50 ms drop-tail or RED bottleneck, β in {0.5, 0.75, 0.875}).
    The loss rate is measured as the paper does, window reductions / packets sent; the
    prediction uses the GAIMD flows' mean loss rate, RTT and T0. Prints the mean
    prediction/measurement ratio of every point and where it lies outside 0.8-1.25."""
    from ..papers.gaimd import accuracy as v
    from ..plots import save_figure
    from ..result import write_atomic
    from ..sweep import StoreError, run_sweep

    check_dask_options(use_dask, scheduler)
    exp = v.experiment(background, quick=quick)
    if out_dir is None:
        out_dir = Path("results") / ("validate-gaimd" + ("-random-loss" if background == "random-loss" else "") + ("-quick" if quick else ""))
    n_runs = len(exp.axis_points()) * len(exp.seeds)
    note(f"validate gaimd: the sweep {exp.source}: {n_runs} runs{' (quick)' if quick else ''} -> {out_dir}")
    t0 = time.perf_counter()
    bar = SweepBar()
    try:
        with bar:
            result = run_sweep(exp, out_dir, jobs=jobs, dask=use_dask, scheduler=scheduler, progress=bar.update)
    except StoreError as e:
        raise click.ClickException(str(e)) from None
    except KeyboardInterrupt:
        interrupted(f"interrupted: {bar.state.done if bar.state else 0} runs finished and kept in {out_dir}; "
                    "run the same command again to resume")
    except RuntimeError as e:
        raise click.ClickException(str(e)) from None
    wall = time.perf_counter() - t0
    table = v.table(result.aggregate.to_pandas(), background)
    csv_path = out_dir / "gaimd-validation.csv"
    write_atomic(csv_path, table.to_csv(index=False, float_format="%.6g").encode())
    figures = []
    for queue, sel in table.groupby("queue", sort=False):
        name = "gaimd-accuracy-red.png" if queue == "RED" else "gaimd-accuracy.png"
        what = "independent random loss, §2.4.2" if background == "random-loss" else ("RED, Fig. 5" if queue == "RED" else "drop-tail, Fig. 2-4")
        title = f"GAIMD's sending-rate formula (eq. 2) against simulation ({what})"
        figures.append(save_figure(v.figure(sel.reset_index(drop=True), title=title), out_dir / name))
    if as_json:
        from ..result import provenance_of_this_session

        emit_json({"command": "validate gaimd", "out_dir": out_dir, "sweep": exp.source, "csv": csv_path, "figures": figures,
                   "wall_s": wall, "provenance": provenance_of_this_session(),
                   "verdicts": {f"loss_at_most_{m:g}": {k: val for k, val in v.verdict(table, m).items() if k != "outside"}
                                for m in (0.05, 0.10, 0.20)},
                   "rows": table.to_dict("records")})
    elif not quiet():
        _print_gaimd_table(table, v)
        click.echo(f"{n_runs} runs ({bar.state.total if bar.state else 0} executed) in {wall:.1f} s; wrote {csv_path} and "
                   + ", ".join(str(f) for f in figures))


def _print_gaimd_table(table, v) -> None:
    from rich.table import Table

    console = stdout_console()
    t = Table(title="GAIMD: eq. (2) prediction / measured sending rate, mean [95 % CI] over seeds "
                    "(loss rate = window reductions / packets sent)", title_justify="left")
    for name in ("queue", "level", "β", "α", "loss %", "pred/meas", "runs"):
        t.add_column(name, justify="right")
    lo, hi = v.ACCURATE
    for r in table.itertuples():
        ok = lo <= r.ratio <= hi
        level = f"{int(r.level)} src" if r.mode == "onoff" else f"p={r.level:g}"
        ci = "" if r.ratio_ci95_high != r.ratio_ci95_high else f" [{r.ratio_ci95_low:.2f}, {r.ratio_ci95_high:.2f}]"
        t.add_row(str(r.queue), level, f"{r.beta:g}", f"{r.alpha:g}", f"{r.loss_rate * 100:.2f}",
                  f"[{'green' if ok else 'red'}]{r.ratio:.2f}[/]{ci}", f"{int(r.runs)}")
    console.print(t)
    for max_loss in (0.05, 0.10, 0.20):
        vd = v.verdict(table, max_loss)
        console.print(f"loss rate <= {max_loss:.0%}: {vd['accurate']} of {vd['points']} points within {lo}-{hi} (by the mean)")
    out = v.verdict(table, 0.10)["outside"]
    if len(out):
        worst = out.reindex(out["ratio"].sub(1).abs().sort_values(ascending=False).index).head(8)
        console.print("outside the band at loss <= 10% (worst first): " + "; ".join(
            f"{r.queue} β={r.beta:g} α={r.alpha:g} p={r.loss_rate * 100:.1f}% -> {r.ratio:.2f}" for r in worst.itertuples()))
