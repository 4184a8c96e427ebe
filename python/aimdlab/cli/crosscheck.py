"""`aimdlab crosscheck`: a scenario in aimdlab and in ns-2.35 or ns-3 3.44 side by side."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Dict, Optional, Tuple

import click

from ..errors import OutputError, ScenarioError
from .app import main
from .output import emit_json, json_option, mean_pm, note, quiet, quiet_option, stdout_console, steps

if TYPE_CHECKING:
    from ..crosscheck import Bound

CROSSCHECK_EXAMPLES = """
\b
Examples:
  aimdlab crosscheck examples/long-delay.toml --with ns2 --set tcp.receive_window=1000pkt
  aimdlab crosscheck examples/red-ecn.toml --with ns3 --seeds 3
  aimdlab crosscheck s.toml --with ns2 --seeds 10 --set tcp.recovery=sack
  aimdlab crosscheck s.toml --with ns2 --bound retransmitted_pkts=ratio:1.2 --json

\b
ns-2.35 comes from Debian and Ubuntu: sudo apt-get install ns2 (the binary is `ns`).
ns-3 3.44: aimdlab builds a program of its own against the ns3 wheel on first use (g++;
the error says how to get the wheel). aimdlab runs the scenario with tcp.profile = "ns2"
or "ns3" (the peer's TCP, value by value); a field the peer cannot run is refused before
anything runs, naming it.
"""


@main.command(epilog=CROSSCHECK_EXAMPLES)
@click.argument("scenario", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--with", "peer", type=click.Choice(["ns2", "ns3"]), required=True,
              help="The peer simulator: ns2 (ns-2.35) or ns3 (ns-3 3.44).")
@click.option("--seeds", type=click.IntRange(1, 1000), default=5, show_default=True, help="Seeds 1..N on both sides.")
@click.option("--out", "out_dir", type=str, default=None, metavar="DIR",
              help="The crosscheck's folder (default: results/crosscheck/<scenario file name>).")
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE", help="Override a scenario field (repeatable).")
@click.option("--bound", "bounds", multiple=True, metavar="FIGURE=SPEC",
              help="Override a figure's bound: abs:X, rel:X or ratio:X (e.g. utilization=abs:0.01; repeatable).")
@json_option
@quiet_option
def crosscheck(scenario: Path, peer: str, seeds: int, out_dir: Optional[str], overrides: Tuple[str, ...],
               bounds: Tuple[str, ...], as_json: bool) -> None:
    """Run SCENARIO in aimdlab and in a peer simulator over the same seeds and set each figure
    beside the other: utilization, goodput, Jain's index, retransmissions, timeouts, drops,
    ECN marks (ns-3), mean queue, and each flow's goodput, with 95 % intervals and a verdict
    per figure."""
    from ..crosscheck import crosscheck as run_crosscheck
    from ..crosscheck import ns3
    from ..crosscheck.ns2 import Ns2Error
    from ..crosscheck.output import prepare, write
    from ..scenario import apply_overrides, load

    try:
        sc = load(scenario)
        if overrides:
            sc = apply_overrides(sc, overrides)
        chosen = _bounds(bounds)
    except (ScenarioError, FileNotFoundError) as e:
        raise click.ClickException(str(e)) from None
    try:
        out = prepare(out_dir or Path("results") / "crosscheck" / scenario.stem)  # (checked before anything runs)
    except OutputError as e:
        raise click.ClickException(f"--out {e}") from None
    tenths = None if quiet() else steps("seeds")

    def progress(done: int, total: int) -> None:
        if done == 0:  # (the scenario is checked: the runs begin)
            note(f"crosscheck {scenario.name} with {peer}: {seeds} seeds on each side")
            if peer == "ns3" and not ns3.built():
                note("building the ns-3 peer against the ns3 wheel (once; about 6 s)")
        elif tenths is not None:
            tenths(done, total)

    check = None
    try:
        check = run_crosscheck(sc, peer=peer, seeds=seeds, bounds=chosen, progress=progress)
        folder = write(check, out)
    except (ScenarioError, Ns2Error, ns3.Ns3Error, OutputError) as e:
        out.discard()
        if check is not None:
            check.discard()
        raise click.ClickException(str(e)) from None
    except BaseException:
        out.discard()
        if check is not None:
            check.discard()
        raise
    if as_json:
        emit_json({"command": "crosscheck", "scenario_file": str(scenario), "out_dir": folder, **check.to_dict()})
        return
    if not quiet():
        _print(check, folder)


def _bounds(specs: Tuple[str, ...]) -> Dict[str, "Bound"]:
    """`--bound FIGURE=abs:X` and the like, as `Bound`s."""
    from ..crosscheck import BOUNDS, Bound

    out: Dict[str, Bound] = {}
    for spec in specs:
        name, _, rule = spec.partition("=")
        kind, _, value = rule.partition(":")
        if name not in BOUNDS:
            raise ScenarioError(f"--bound {spec}: {name!r} is not a figure; expected one of {', '.join(BOUNDS)}")
        try:
            number = float(value)
        except ValueError:
            number = float("nan")
        if kind not in ("abs", "rel", "ratio") or not number == number or number < 0:
            raise ScenarioError(f"--bound {spec}: expected FIGURE=abs:X, rel:X or ratio:X with X a number ≥ 0")
        out[name] = Bound(**{kind: number})
    return out


def _print(check, folder: Path) -> None:
    from rich import box
    from rich.markup import escape
    from rich.table import Table

    from ..crosscheck import PEER_NAMES
    from ..out_path import shown_path
    from ..sweep.labels import display_scale, measure_header

    console = stdout_console(fit=100)
    peer = PEER_NAMES.get(check.peer, check.peer)
    t = Table(title=f"aimdlab and {peer}, {len(check.seeds)} seeds: mean ± half the 95 % interval", title_justify="left",
              box=box.SIMPLE_HEAD)
    for head in ("figure", "aimdlab", peer, "bound", "verdict"):
        t.add_column(head, justify="left" if head in ("figure", "bound", "verdict") else "right", overflow="fold")
    for r in check.rows + check.per_flow:
        key = "goodput_bps" if r.figure.startswith("flow ") else r.figure
        factor, unit = display_scale(key, r.ours + r.theirs)
        name = r.figure.replace(" goodput_bps", " goodput") if r.figure.startswith("flow ") else measure_header(key, unit or "1")
        if r.figure.startswith("flow "):
            name += f" ({unit})"
        cells = []
        for side in ("aimdlab", check.peer):
            mean, half = r.stats(side)
            cells.append(mean_pm(mean * factor, (mean - half) * factor, (mean + half) * factor))
        verdict = "[green]agrees[/]" if r.verdict == "agrees" else "[red]differs[/]"
        t.add_row(name, *cells, r.bound.words(factor), verdict)
    console.print(t)
    for text in check.notes:
        console.print(f"note: {escape(text)}")
    walls = check.wall_s
    console.print(f"wall time: aimdlab {walls.get('aimdlab', 0):.2f} s, {peer} {walls.get(check.peer, 0):.2f} s; "
                  f"results: {shown_path(folder)}/ (crosscheck.json, crosscheck.png, aimdlab/, {check.peer}/)")
