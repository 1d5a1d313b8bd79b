"""Playing games: run (to Parquet, with a summary) and trace (one game turn by turn)."""

from __future__ import annotations

from pathlib import Path

import click

from ..validate import GAME_INDEX, GAMES, PRECISION, SEED, click_type

from .common import (EXIT_INTERRUPTED, cluster_option, console, default_out_dir, err_console, esc, fail, load_scenario, open_cluster, progress, quiet_option, set_option,
                     shell_command, threads_option)

LONG_RUN_S = 60  # print a time and disk estimate for runs whose rest takes longer than this


def print_summary(acc, title: str = "", save_to: Path | None = None) -> None:
    """The summary table on the terminal (and as plain text in ``save_to``)."""
    from ..summary import summary_table, summary_text
    from ..metrics import truncation_warning

    t, never_line = summary_table(acc, title)
    truncated = truncation_warning(acc)
    console.print(t)
    if never_line:
        console.print(esc(never_line), style="dim")
    if truncated:
        err_console.print(f"[bold yellow]warning:[/] {esc(truncated)}", soft_wrap=True)
    if save_to is not None:
        from ..results import atomic_write_text

        atomic_write_text(save_to, summary_text(acc, title))




@click.command("run")
@click.argument("scenario_path", metavar="SCENARIO", type=click.Path(dir_okay=False))
@click.option("--games", "-n", type=click_type(GAMES), help="Number of games (default: the scenario's run.games).")
@click.option("--seed", type=click_type(SEED), help="Master seed (default: the scenario's run.seed).")
@set_option
@threads_option
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False),
              help="Output directory (default: results/<scenario>-seed<seed>).")
@click.option("--resume", is_flag=True, help="Finish an interrupted run in the output directory.")
@click.option("--force", is_flag=True, help="Replace an existing output directory.")
@click.option("--precision", type=click_type(PRECISION),
              help="Stop once every win rate's 95% CI half-width is below this (games = upper limit).")
@quiet_option
@cluster_option
def run_cmd(scenario_path, games, seed, overrides, threads, out_dir, resume, force, precision, quiet, cluster_address):
    """Play SCENARIO, stream results to Parquet, print a summary with 95% confidence intervals.

    \b
    Example:
      pirate-sim run scenarios/pirates_peak/default.toml --games 100000 -o results/pp
      pirate-sim run scenarios/pirates_peak/default.toml --set rules.squid.escape_total=11 -o results/pp11
      pirate-sim run scenarios/pirates_peak/default.toml -o results/pp --resume
      pirate-sim run scenarios/pirates_peak/default.toml -n 10000000 -o results/big --cluster local:2
    """
    from .. import api, runner

    if resume:
        scenario_path, overrides, seed, games, precision = _resume_arguments(
            scenario_path, out_dir, overrides, seed, games, precision)
    s = load_scenario(scenario_path, overrides, seed, games)
    out = Path(out_dir) if out_dir else default_out_dir(s)
    stop = None
    if precision:
        from ..metrics import precision_reached

        stop = precision_reached(precision)
    total = s.run["games"]
    with open_cluster(cluster_address, [s]) as cl:
        with progress(quiet) as prog:
            task = prog.add_task(esc(s.game.title), total=total)

            def estimate(seconds: float, disk: int, free: int) -> None:
                if seconds > LONG_RUN_S:
                    prog.console.print(f"estimate: about {_duration(seconds)} and {runner.human_bytes(disk)} of disk "
                                       f"({runner.human_bytes(free)} free) for the remaining games; Ctrl-C stops, "
                                       f"--resume continues", soft_wrap=True, markup=False)

            try:
                res = api.run(s, out=out, threads=threads, resume=resume, force=force,
                              progress=lambda done, tot: prog.update(task, completed=done, total=tot),
                              precision=precision, on_estimate=estimate, cluster=cl).run_result
            except KeyboardInterrupt:
                prog.stop()
                fail(f"interrupted; completed chunks are saved in {out}. Finish with: "
                     + shell_command("pirate-sim", "run", scenario_path, "-o", out, "--resume"), code=EXIT_INTERRUPTED)
    print_summary(res.accumulator, f"{s.title}: {res.games:,} games, seed {s.seed}")  # api.run wrote summary.txt
    if precision:
        console.print(f"precision target {precision}: reached after {res.games:,} games"
                      if stop(res.accumulator) else f"precision target {precision} NOT reached in {res.games:,} games")
    from ..metrics import games_needed_note

    console.print(games_needed_note(res.accumulator))
    if res.moved_aside:
        where = res.moved_aside[0].parent.parent
        console.print(f"moved {len(res.moved_aside)} files the manifest does not list to {esc(where)}: "
                      + esc(", ".join(p.name for p in res.moved_aside)), soft_wrap=True)
    if res.already_complete:
        console.print(f"results: {esc(out)}  (already complete: nothing left to play)")
    else:
        rate = (res.games - res.resumed_from) / res.seconds if res.seconds > 0 else float("nan")
        replayed = f"; {res.replayed} damaged chunks replayed" if res.replayed else ""
        console.print(f"results: {esc(out)}  ({rate:,.0f} games/s{replayed})")


def _resume_arguments(scenario_path, out_dir, overrides, seed, games, precision):
    """--resume continues the run as it was started: games, seed, --set values and --precision
    come from its manifest (given again, they must agree)."""
    from .. import runner

    if not out_dir:
        fail("--resume needs -o DIR (the run to finish)")
    got = runner.resume_settings(Path(out_dir))
    if games is not None and games != got["games"]:
        fail(f"{out_dir}: was started with {got['games']:,} games; --resume takes the game count from the run "
             f"(leave out --games)")
    sets = [o for o in got["overrides"] if not o.startswith("run.")]  # run.* are the options above
    if overrides and list(overrides) != sets:
        fail(f"{out_dir}: was started with --set {' '.join(sets) or '(none)'}; --resume takes them "
             f"from the run (leave out --set)")
    extra = list(got["overrides"]) + [f"run.chunk_size={got['chunk_size']}"]
    return (scenario_path, extra, got["seed"] if seed is None else seed, got["games"],
            precision or got["options"].get("precision"))


def _duration(seconds: float) -> str:
    for unit, size in (("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= 2 * size:
            return f"{seconds / size:,.0f} {unit}"
    return f"{seconds:.0f} seconds"


@click.command("trace")
@click.argument("scenario_path", metavar="SCENARIO", type=click.Path(dir_okay=False))
@click.option("--game", "-k", "game_index", type=click_type(GAME_INDEX), required=True,
              help="Index of the game (the `game` column of the results).")
@click.option("--seed", type=click_type(SEED), help="Master seed (default: the scenario's).")
@set_option
def trace_cmd(scenario_path, game_index, seed, overrides):
    """Print a turn-by-turn account of game K: the very game K of a run with the same seed.

    \b
    Example:
      pirate-sim trace scenarios/pirates_peak/default.toml --game 41 --seed 7
    """
    s = load_scenario(scenario_path, overrides, seed)
    click.echo(f"{s.game.title} (rules v{s.game.version}): game {game_index} of seed {s.seed}, "
               f"scenario {s.source}" + (f" with {' '.join(overrides)}" if overrides else ""))
    from .. import api

    click.echo(api.trace(s, game_index))


COMMANDS = (run_cmd, trace_cmd)
