"""bench: throughput of every game; warm: compile every kernel now."""

from __future__ import annotations

import json
import math

import click
from rich.table import Table

from .common import console, esc, fail, load_scenario


@click.command("bench")
@click.argument("game", required=False)
@click.option("--games", "-n", "n_games", type=click.IntRange(min=1000), default=None,
              help="Games per timing (default: about 5 s of the kernel on one thread; a run's fixed "
                   "costs, lock, manifest and summary, weigh more in a shorter one).")
@click.option("--nojit-games", type=click.IntRange(min=10), default=300, show_default=True,
              help="Games played with the JIT disabled (slow).")
@click.option("--search-decisions", type=click.IntRange(min=10), default=None,
              help="Searched decisions the search player's cost is measured over (default: 200; "
                   "fewer give a quicker, noisier figure).")
@click.option("--scenario", "scenario_path", type=click.Path(dir_okay=False),
              help="Scenario to benchmark (default: the game's default scenario); it must be a scenario "
                   "of GAME, and without GAME its own game is benchmarked.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def bench_cmd(game, n_games, nojit_games, search_decisions, scenario_path, as_json):
    """Measure games/s (1 thread, all threads, JIT disabled), `run` end to end, dice per game, raw dice rate.

    \b
    Example:
      pirate-sim bench pirates_peak --games 500000
    """
    from .. import scenario as scen
    from ..bench import REPEATS, SEARCH_DECISIONS, bench_game
    from ..games import available_games, get_game

    if game is not None and game not in available_games():
        fail(f"unknown game {game!r}" + scen._suggest(game, available_games()))
    scenario = load_scenario(scenario_path) if scenario_path else None
    if scenario is not None and game is not None and scenario.game.name != game:
        # never benchmark another game than the one named (a silent substitution)
        fail(f"{scenario_path}: game: the scenario is a {scenario.game.name} scenario, not {game}")
    names = [game] if game else [scenario.game.name] if scenario is not None else available_games()
    out = []
    for name in names:
        s = scenario if scenario is not None else scen.default_scenario(get_game(name))
        out.append(bench_game(s, n_games, nojit_games, log=None if as_json else console.print,
                              search_decisions=search_decisions or SEARCH_DECISIONS))
    if as_json:
        click.echo(json.dumps(out, indent=2))
        return
    t = Table(title="pirate-sim bench", title_justify="left")
    t.add_column("measure")
    for r in out:
        t.add_column(r["game"], justify="right")
    rows = (("games/s, 1 thread", "games_per_s_1", "{:,.0f}"),
            ("games/s, all threads", "games_per_s_all", "{0:,.0f} ({r[threads]} threads)"),
            ("thread scaling", "thread_scaling", "{:.2f}x"),
            ("run end to end, games/s, 1 thread", "run_games_per_s_1", "{0:,.0f} ({r[run_ratio_1]:.0%} of the kernel)"),
            ("run end to end, games/s, all threads", "run_games_per_s_all",
             "{0:,.0f} ({r[run_ratio_all]:.0%} of the kernel)"),
            ("games/s, JIT disabled", "games_per_s_nojit", "{:,.1f}"),
            ("JIT speed-up (1 thread)", "jit_speedup", "{:,.0f}x"),
            ("dice rolled per game", "dice_per_game", "{:.1f}"),
            ("turns per game", "turns_per_game", "{:.1f}"),
            ("ns per turn, 1 thread", "ns_per_turn_1", "{:,.0f}"),
            ("raw dice/s (RNG alone)", "raw_dice_per_s", "{:,.0f}"),
            ("efficiency ratio", "efficiency", "{:.3g}"),
            ("first call, s (compile/cache load)", "first_call_s", "{:.2f}"),
            ("search: rollouts/s, 1 thread", "search_rollouts_per_s", "{:,.0f}"),
            ("search: s per rollout / per plain playout", "search_s_per_rollout",
             "{0:.2e} / {r[search_s_per_playout]:.2e}"),
            ("search: machinery overhead (target <= 30%)", "search_overhead", "{:.0%}"),
            ("search: measured on", "search_seat", "{}"))
    for label, key, fmt in rows:
        t.add_row(label, *[cell(r, key, fmt) for r in out])
    console.print(t)
    console.print("[dim]search: the search player's rollouts (copy, re-sample, play the option and the rollout "
                  "strategy to the end, choose) against plain playouts of the same rollouts from prepared copies, in "
                  "CPU time; overhead = per rollout / per playout - 1; '-' where a game has no search player[/]")
    console.print("[dim]efficiency = games/s (1 thread) / (raw dice/s / dice per game): the share of time "
                  f"a game would take if rolling its dice were all it did; every rate is the best of up "
                  f"to {REPEATS} timings[/]")


def cell(result: dict, key: str, fmt: str) -> str:
    """One table cell (``fmt`` formats the value and may name other figures as ``r[...]``);
    "-" where the result lacks a figure (an older result, or a game that cannot measure it)
    or it is not a finite number."""
    v = result.get(key)
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return "-"
    try:
        return fmt.format(v, r=result)
    except KeyError:
        return "-"



@click.command("warm")
@click.argument("games", nargs=-1)
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Processes compiling side by side (default: the cores).")
def warm_cmd(games, jobs):
    """Compile (or load) every kernel of the games now, one process per core, so that no later
    command waits for a compile: after an install or an upgrade, in a container build, before
    a test run.  On a warm cache it takes a second or two per job.

    \b
    Example:
      pirate-sim warm
      pirate-sim warm ice_pirates pirateer --jobs 2
    """
    import time

    from .. import scenario as scen
    from ..games import available_games
    from ..warm import warm

    for g in games:
        if g not in available_games():
            fail(f"unknown game {g!r}" + scen._suggest(g, available_games()))
    def said(w):
        console.print(f"{w.game}: {w.what}: {w.seconds:.1f} s" + (f"  [red]failed: {esc(w.error)}[/]" if w.error else ""),
                      markup=bool(w.error), highlight=False)

    t = time.perf_counter()
    done = warm(list(games) or None, jobs, on_done=said)
    bad = [w for w in done if w.error]
    if bad:
        fail(f"{len(bad)} of {len(done)} jobs failed: " + "; ".join(f"{w.game} {w.what}: {w.error}" for w in bad),
             code=1)
    console.print(f"every kernel compiled or loaded in {time.perf_counter() - t:.0f} s")

COMMANDS = (bench_cmd, warm_cmd)
