"""`pirate-sim`: a thin click layer over the library (parse, call, print)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from . import __version__
from . import scenario as scen
from .games import available_games, get_game
from .runner import RunError

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)

EXIT_USAGE = 2  # bad input: scenario, option, metric or grid syntax


def fail(message: str, code: int = EXIT_USAGE):
    err_console.print(f"[bold red]error:[/] {message}", soft_wrap=True)
    sys.exit(code)


def set_option(f):
    return click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
                        help="Override a scenario value, e.g. --set rules.squid.escape_total=11 "
                             "or --set seats.1.strategy=racer (repeatable).")(f)


def load_scenario(path: str, overrides=(), seed: int | None = None, games: int | None = None):
    """Load and validate a scenario (and compile it, so every error surfaces before any write)."""
    extra = list(overrides)
    if seed is not None:
        extra.append(f"run.seed={seed}")
    if games is not None:
        extra.append(f"run.games={games}")
    try:
        s = scen.load(path, extra)
        s.compile()
        return s
    except scen.ScenarioError as exc:
        fail(str(exc))


def default_out_dir(s) -> Path:
    stem = Path(s.source).stem if s.source and not s.source.startswith("<") else s.game.name
    return Path("results") / f"{stem}-seed{s.seed}"


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="pirate-sim")
def main():
    """Monte Carlo balance analytics for pirate board games.

    \b
    Example:
      pirate-sim scenario new pirates_peak my.toml
      pirate-sim run my.toml --games 100000 -o results/my
      pirate-sim report results/my
    """


# ----------------------------------------------------------------------------- games


@main.command("games")
def games_cmd():
    """List the games, their rules VERSION and their strategies.

    \b
    Example:
      pirate-sim games
    """
    for name in available_games():
        g = get_game(name)
        seats = f"{g.min_seats}" if g.min_seats == g.max_seats else f"{g.min_seats}-{g.max_seats}"
        console.print(f"[bold]{g.name}[/]  {g.title}  (rules version {g.version}, {seats} players)")
        t = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
        t.add_column("strategy")
        t.add_column("what it does")
        t.add_column("parameters")
        for s in g.strategies:
            t.add_row(s.name, s.doc.splitlines()[0], ", ".join(p.key for p in s.params) or "-")
        console.print(t)
        if g.odds_mechanics:
            console.print("  odds mechanics: " + ", ".join(g.odds_mechanics))
        console.print()


# -------------------------------------------------------------------------- scenario


@main.group("scenario")
def scenario_grp():
    """Write and validate scenario files.

    \b
    Example:
      pirate-sim scenario new pirates_peak my.toml
      pirate-sim scenario check my.toml
    """


@scenario_grp.command("new")
@click.argument("game")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--force", is_flag=True, help="Overwrite PATH if it exists.")
def scenario_new(game, path, force):
    """Write a complete, commented scenario for GAME to PATH (every parameter at its default).

    \b
    Example:
      pirate-sim scenario new pirates_peak scenarios/pirates_peak/mine.toml
    """
    try:
        g = get_game(game)
    except KeyError:
        fail(f"unknown game {game!r}" + scen._suggest(game, available_games())
             + f"; games: {', '.join(available_games())}")
    p = Path(path)
    if p.exists() and not force:
        fail(f"{p}: already exists; add --force to overwrite it")
    text = scen.default_scenario(g).to_toml()
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    console.print(f"wrote {p} ({len(g.params)} rules, {len(g.default_seats)} seats)")


@scenario_grp.command("check")
@click.argument("path", type=click.Path(dir_okay=False))
@set_option
def scenario_check(path, overrides):
    """Validate a scenario and print every resolved parameter (defaults marked).

    \b
    Example:
      pirate-sim scenario check scenarios/pirates_peak/default.toml --set rules.squid.escape_total=11
    """
    s = load_scenario(path, overrides)
    t = Table(title=f"{s.title} - {s.game.title} rules v{s.game.version}, hash {s.hash()}", title_justify="left")
    t.add_column("key")
    t.add_column("value")
    t.add_column("", style="dim")
    t.add_column("meaning", style="dim")
    for key, value, default, doc in scen.resolved_parameters(s):
        mark = "" if default is None or value == default else f"default {scen._toml_value(default)}"
        t.add_row(key, scen._toml_value(value), mark, doc)
    console.print(t)
    console.print(f"[green]ok[/]: {path} is a valid {s.game.title} scenario with {s.n_seats} seats")


# ------------------------------------------------------------------------------- run


def print_summary(acc, title: str = "", save_to: Path | None = None) -> None:
    """The summary table on the terminal (and as plain text in ``save_to``)."""
    from . import metrics
    from .report.tables import summary_rows

    est = metrics.compute(acc)
    t = Table(title=title or None, title_justify="left")
    t.add_column("metric")
    t.add_column("value", justify="right")
    t.add_column("95% CI", justify="right")
    for name, label in summary_rows(acc.game, est):
        e = est[name]
        t.add_row(label, _fmt(e.value, name), f"{_fmt(e.lo, name)} .. {_fmt(e.hi, name)}")
    console.print(t)
    if save_to is not None:
        rec = Console(record=True, width=100, file=open(os.devnull, "w"))
        rec.print(t)
        rec.print(metrics.games_needed_note(acc))
        from .results import atomic_write_text

        atomic_write_text(save_to, rec.export_text())


def _fmt(v: float, name: str) -> str:
    if v != v:  # nan
        return "-"
    from .metrics import is_proportion

    if is_proportion(name):
        return f"{100 * v:.2f}%"
    return f"{v:.3f}" if abs(v) < 100 else f"{v:.1f}"


@main.command("run")
@click.argument("scenario_path", metavar="SCENARIO", type=click.Path(dir_okay=False))
@click.option("--games", "-n", type=click.IntRange(min=1), help="Number of games (default: the scenario's run.games).")
@click.option("--seed", type=click.IntRange(min=0), help="Master seed (default: the scenario's run.seed).")
@set_option
@click.option("--threads", "-t", type=click.IntRange(min=1), help="Worker threads (default: all cores).")
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False),
              help="Output directory (default: results/<scenario>-seed<seed>).")
@click.option("--resume", is_flag=True, help="Finish an interrupted run in the output directory.")
@click.option("--force", is_flag=True, help="Replace an existing output directory.")
@click.option("--precision", type=click.FloatRange(min=1e-5, max=0.5),
              help="Stop once every win rate's 95% CI half-width is below this (games = upper limit).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def run_cmd(scenario_path, games, seed, overrides, threads, out_dir, resume, force, precision, quiet):
    """Play SCENARIO, stream results to Parquet, print a summary with 95% confidence intervals.

    \b
    Example:
      pirate-sim run scenarios/pirates_peak/default.toml --games 100000 -o results/pp
      pirate-sim run scenarios/pirates_peak/default.toml --set rules.squid.escape_total=11 -o results/pp11
      pirate-sim run scenarios/pirates_peak/default.toml -o results/pp --resume
    """
    from . import runner

    s = load_scenario(scenario_path, overrides, seed, games)
    out = Path(out_dir) if out_dir else default_out_dir(s)
    stop = None
    if precision:
        from .metrics import precision_reached

        stop = precision_reached(precision)
    total = s.run["games"]
    with _progress(quiet) as prog:
        task = prog.add_task(f"{s.game.title}", total=total)
        try:
            res = runner.run(s, out, threads=threads, resume=resume, force=force,
                             progress=lambda done, tot: prog.update(task, completed=done, total=tot),
                             stop_when=stop)
        except RunError as exc:
            fail(str(exc))
        except KeyboardInterrupt:
            prog.stop()
            fail(f"interrupted; completed chunks are saved in {out}. Finish with: "
                 f"pirate-sim run {scenario_path} -o {out} --resume", code=130)
    rate = (res.games - res.resumed_from) / res.seconds if res.seconds > 0 else float("nan")
    print_summary(res.accumulator, f"{s.title}: {res.games:,} games, seed {s.seed}", save_to=out / "summary.txt")
    if precision:
        console.print(f"precision target {precision}: reached after {res.games:,} games"
                      if stop(res.accumulator) else f"precision target {precision} NOT reached in {res.games:,} games")
    from .metrics import games_needed_note

    console.print(games_needed_note(res.accumulator))
    console.print(f"results: {out}  ({rate:,.0f} games/s)")


def _progress(quiet: bool):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TextColumn("games"), TimeRemainingColumn(), console=err_console,
                    disable=quiet, transient=True)


# ----------------------------------------------------------------------------- trace


@main.command("trace")
@click.argument("scenario_path", metavar="SCENARIO", type=click.Path(dir_okay=False))
@click.option("--game", "-k", "game_index", type=click.IntRange(min=0), required=True,
              help="Index of the game (the `game` column of the results).")
@click.option("--seed", type=click.IntRange(min=0), help="Master seed (default: the scenario's).")
@set_option
def trace_cmd(scenario_path, game_index, seed, overrides):
    """Print a turn-by-turn account of game K: the very game K of a run with the same seed.

    \b
    Example:
      pirate-sim trace scenarios/pirates_peak/default.toml --game 41 --seed 7
    """
    s = load_scenario(scenario_path, overrides, seed)
    for line in s.game.trace(s.compile(), s.seed, game_index):
        click.echo(line)


# ---------------------------------------------------------------------------- report


@main.command("report")
@click.argument("results_dir", type=click.Path(exists=True, file_okay=False))
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False),
              help="Where to write the PNGs and the PDF (default: RESULTS_DIR/report).")
@click.option("--force", is_flag=True, help="Replace an existing report directory.")
def report_cmd(results_dir, out_dir, force):
    """Render PNG charts and one PDF from a results directory.

    \b
    Example:
      pirate-sim report results/pp -o reports/pp
    """
    from . import results
    from .report import build_report

    rd = Path(results_dir)
    if not results.is_results_dir(rd):
        fail(f"{rd}: not a pirate-sim results directory (no manifest.json)")
    man = results.read_manifest(rd)
    if not man.get("complete"):
        fail(f"{rd}: the run is unfinished ({man['chunks_done']}/{man['chunks_total']} chunks); finish it with --resume")
    out = Path(out_dir) if out_dir else rd / "report"
    if out.exists() and any(out.iterdir()) and not force:
        fail(f"{out}: already exists; add --force to replace it")
    pdf, pngs = build_report(rd, out)
    console.print(f"wrote {pdf} and {len(pngs)} charts in {out}")


# ------------------------------------------------------------------------------ odds


@main.command("odds")
@click.argument("game")
@click.argument("mechanic")
@set_option
@click.option("--samples", type=click.IntRange(min=100), default=1_000_000, show_default=True,
              help="Monte Carlo samples per case.")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def odds_cmd(game, mechanic, overrides, samples, seed, as_json):
    """Exact probabilities of a sub-mechanic beside the game kernel's own Monte Carlo.

    \b
    Example:
      pirate-sim odds pirates_peak squid --set rules.squid.escape_total=11
      pirate-sim odds ice_pirates raid --json
    """
    try:
        g = get_game(game)
    except KeyError:
        fail(f"unknown game {game!r}" + scen._suggest(game, available_games()))
    if mechanic not in g.odds_mechanics:
        fail(f"unknown {g.title} mechanic {mechanic!r}" + scen._suggest(mechanic, g.odds_mechanics)
             + f"; one of {', '.join(g.odds_mechanics)}")
    try:
        s = scen.from_dict({"game": g.name}, source="--set", overrides=overrides)
    except scen.ScenarioError as exc:
        fail(str(exc))
    rows = g.odds(mechanic, s.rules, samples, seed)
    if as_json:
        click.echo(json.dumps([{"case": r.case, "exact": r.exact, "estimate": r.estimate, "samples": r.samples,
                                "stderr": r.stderr, "z": r.z} for r in rows], indent=2))
        return
    t = Table(title=f"{g.title}: {mechanic} - {g.odds_mechanics[mechanic]}", title_justify="left")
    for col, just in (("case", "left"), ("exact", "right"), ("Monte Carlo", "right"), ("z", "right")):
        t.add_column(col, justify=just)
    for r in rows:
        t.add_row(r.case, f"{r.exact:.6f}", f"{r.estimate:.6f}", f"{r.z:+.2f}")
    console.print(t)
    console.print(f"[dim]{samples:,} samples per case; z = (Monte Carlo - exact) / standard error[/]")


# ----------------------------------------------------------------------------- bench


@main.command("bench")
@click.argument("game", required=False)
@click.option("--games", "-n", "n_games", type=click.IntRange(min=1000), default=200_000, show_default=True,
              help="Games per timing.")
@click.option("--nojit-games", type=click.IntRange(min=10), default=300, show_default=True,
              help="Games played with the JIT disabled (slow).")
@click.option("--scenario", "scenario_path", type=click.Path(dir_okay=False),
              help="Scenario to benchmark (default: the game's default scenario).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def bench_cmd(game, n_games, nojit_games, scenario_path, as_json):
    """Measure games/s (1 thread, all threads, JIT disabled), dice per game and the raw dice rate.

    \b
    Example:
      pirate-sim bench pirates_peak --games 500000
    """
    from .bench import REPEATS, bench_game

    names = [game] if game else available_games()
    out = []
    for name in names:
        try:
            get_game(name)
        except KeyError:
            fail(f"unknown game {name!r}" + scen._suggest(name, available_games()))
        s = load_scenario(scenario_path) if scenario_path else scen.default_scenario(get_game(name))
        out.append(bench_game(s, n_games, nojit_games, log=None if as_json else console.print))
    if as_json:
        click.echo(json.dumps(out, indent=2))
        return
    t = Table(title="pirate-sim bench", title_justify="left")
    t.add_column("measure")
    for r in out:
        t.add_column(r["game"], justify="right")
    rows = (("games/s, 1 thread", lambda r: f"{r['games_per_s_1']:,.0f}"),
            ("games/s, all threads", lambda r: f"{r['games_per_s_all']:,.0f} ({r['threads']} threads)"),
            ("thread scaling", lambda r: f"{r['thread_scaling']:.2f}x"),
            ("games/s, JIT disabled", lambda r: f"{r['games_per_s_nojit']:,.1f}"),
            ("JIT speed-up (1 thread)", lambda r: f"{r['jit_speedup']:,.0f}x"),
            ("dice rolled per game", lambda r: f"{r['dice_per_game']:.1f}"),
            ("raw dice/s (RNG alone)", lambda r: f"{r['raw_dice_per_s']:,.0f}"),
            ("efficiency ratio", lambda r: f"{r['efficiency']:.3g}"),
            ("first call, s (compile/cache load)", lambda r: f"{r['first_call_s']:.2f}"))
    for label, fmt in rows:
        t.add_row(label, *[fmt(r) for r in out])
    console.print(t)
    console.print("[dim]efficiency = games/s (1 thread) / (raw dice/s / dice per game): the share of time "
                  f"a game would take if rolling its dice were all it did; every rate is the best of up "
                  f"to {REPEATS} timings[/]")


# compare, sweep and check live in their own module; they attach to the same group
from . import analysis_cli  # noqa: E402

analysis_cli.register(main)

if __name__ == "__main__":
    main()
