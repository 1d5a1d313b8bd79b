"""The meta-game: skill (the skill ladder) and tournament (which strategy dominates)."""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table

from ..validate import BEAT, BOOTSTRAP, BUDGET, GAMES, SEED, STEPS, click_type, split_names

from .common import (EXIT_INTERRUPTED, cluster_option, console, esc, fail, load_scenario, open_cluster, out_console,
                     progress, quiet_option, set_option, shell_command, threads_option)


def _pct(e: dict) -> tuple[str, str]:
    return f"{100 * e['value']:.1f}%", f"{100 * e['lo']:.1f} .. {100 * e['hi']:.1f}"


def _duration(seconds: float) -> str:
    from .play import _duration as d

    return "under a second" if seconds < 1 else "about " + d(seconds)


def _common(f):
    for deco in reversed((
        click.argument("scenario_path", metavar="SCENARIO", type=click.Path(dir_okay=False)),
        click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False), required=True,
                     help="Output directory (a plan, one run directory per match, the summary)."),
        click.option("--seed", type=click_type(SEED), help="Master seed (default: the scenario's run.seed)."),
        set_option,
        click.option("--bootstrap", type=click_type(BOOTSTRAP), default=None,
                     help="Bootstrap replicates behind the intervals of derived figures (default 500)."),
        click.option("--resume", is_flag=True, help="Finish an interrupted run of the same plan in -o DIR (settings "
                     "come from its meta.json)."),
        click.option("--force", is_flag=True, help="Replace an existing output directory."),
        click.option("--estimate", "estimate_only", is_flag=True,
                     help="Print the time and disk estimate and stop (nothing is written)."),
        threads_option, quiet_option, cluster_option,
    )):
        f = deco(f)
    return f


def _stored(out_dir, resume, kind):
    """--resume: the plan's own settings and --set values (meta.json)."""
    from ..meta import plan

    if not resume:
        return None
    out = Path(out_dir)
    if not plan.is_meta_dir(out):
        fail(f"{out}: no {kind} to resume (no {plan.META}); start it without --resume")
    meta = plan.read_meta(out)
    if meta["kind"] != kind:
        fail(f"{out}: holds a {meta['kind']}, not a {kind}")
    return meta


def _print_estimate(kind: str, est, threads) -> None:
    """--estimate: time, disk, where the time goes and, over 15 minutes, what fits."""
    from .. import runner

    console.print(f"{kind}: {est.matches} matches, {est.games:,} games: {_duration(est.seconds)} on "
                  f"{'this machine' if threads is None else f'{threads} threads'} and "
                  f"{runner.human_bytes(est.bytes)} of disk ({runner.human_bytes(est.free or 0)} free); {est.why()}",
                  soft_wrap=True, markup=False)
    for line in est.notes:
        console.print(f"  {line}", soft_wrap=True, markup=False)


def _play(kind, scenario_path, out_dir, base, matches, st, threads, resume, force, quiet, cluster_address,
          estimate_only):
    """Play the plan through the API (ps.skill / ps.tournament), with the command's progress bar."""
    from .. import api, runner
    from ..meta import plan

    out = Path(out_dir)
    call = api.skill if kind == "skill" else api.tournament
    kw = (dict(base_budget=st["base_budget"], steps=st["steps"], games=st["games"], place_games=st["place_games"],
               place=st["place"], beat=st["beat"], bootstrap=st["bootstrap"]) if kind == "skill" else
          dict(strategies=st["strategies"], games=st["games"], bootstrap=st["bootstrap"]))
    kw["sequential"] = st.get("sequential", False)  # a plan stored before sequential stops played every game
    if estimate_only:
        _print_estimate(kind, call(base, out, threads=threads, resume=resume, estimate_only=True, **kw), threads)
        return None
    scenarios = [plan.match_scenario(base, m) for m in matches]
    with open_cluster(cluster_address, scenarios) as cl:
        with progress(quiet) as prog:
            task = prog.add_task(kind, total=sum(m.games for m in matches))

            def on_estimate(est):
                prog.console.print(f"estimate: {est.matches} matches left, {est.games:,} games: "
                                   f"{_duration(est.seconds)} (timed on this machine's threads) and "
                                   f"{runner.human_bytes(est.bytes)} of disk ({runner.human_bytes(est.free or 0)} "
                                   f"free); {est.why()}; Ctrl-C stops, --resume continues", soft_wrap=True,
                                   markup=False)
                for line in est.notes:
                    prog.console.print(f"  {line}", soft_wrap=True, markup=False)

            try:
                return call(base, out, threads=threads, resume=resume, force=force, cluster=cl,
                            on_estimate=on_estimate,
                            progress=lambda d, t, label: prog.update(task, completed=d, total=t,
                                                                     description=esc(label)), **kw).summary
            except KeyboardInterrupt:
                prog.stop()
                fail(f"interrupted; finished matches and chunks are saved in {out}. Finish with: "
                     + shell_command("pirate-sim", kind, scenario_path, "-o", out, "--resume"),
                     code=EXIT_INTERRUPTED)


@click.command("skill")
@_common
@click.option("--base-budget", "-b", type=click_type(BUDGET), default=None,
              help="B: rollouts per decision of the weakest level (default 8).")
@click.option("--steps", "-k", type=click_type(STEPS), default=None,
              help="K: doublings; step i plays search at B*2^i against B*2^(i-1) (default 6).")
@click.option("--games", "-n", type=click_type(GAMES), default=None,
              help="Games per step, rounded up to a multiple of the seats (default 1068: +-3 points at 50%); "
                   "a cap: a step stops once its sequential test decides.")
@click.option("--place-games", type=click_type(GAMES), default=None,
              help="Games of each scripted strategy against each level (default 268: +-6 points).")
@click.option("--place", default=None, metavar="A,B,...",
              help="Scripted strategies to place on the ladder (default: every one; 'none' for none).")
@click.option("--beat", type=click_type(BEAT), default=None,
              help="Two-seat win rate that counts as the stronger level beating the weaker (default 0.6).")
@click.option("--every-game", is_flag=True,
              help="Play every game of every step (-n, --place-games); by default a match stops once its "
                   "sequential test decides, and the ladder stops climbing at the first step decided not to beat "
                   "that no scripted strategy beats (flat steps below the scripts do not stop it).")
def skill_cmd(scenario_path, out_dir, seed, overrides, bootstrap, resume, force, estimate_only, threads, quiet,
              cluster_address, base_budget, steps, games, place_games, place, beat, every_game):
    """The skill ladder: does playing better win more, or is the game a dice-fest?

    Step i plays `search` at B*2^i rollouts per decision against `search` at B*2^(i-1)
    (one strong seat among weak ones in games of three or more), seats rotating, every step
    on the same games' dice; then each scripted strategy plays one seat among `search` at
    every level, which says what budget it is worth.  Prints every step's win rate with its
    95% interval, the skill trace (Ludii's), the skill depth and the verdict; time and disk
    are estimated before it starts.  Definitions: docs/metrics.md; reading: docs/meta.md.

    \b
    Example:
      pirate-sim skill scenarios/pirateer/two_players.toml -o results/skill --estimate
      pirate-sim skill scenarios/pirateer/two_players.toml -o results/skill
      pirate-sim skill scenarios/pirateer/two_players.toml -o results/skill --resume
      pirate-sim skill scenarios/pirates_peak/default.toml -b 4 -k 4 -n 400 -o results/pp-skill --cluster local:2
      pirate-sim report results/skill
    """
    from ..meta import skill

    meta = _stored(out_dir, resume, "skill")
    if meta is not None:
        base = load_scenario(scenario_path, meta["overrides"])
        st = meta["settings"]
    else:
        base = load_scenario(scenario_path, overrides, seed)
        places = split_names(place, none_word="none")
        d = skill.settings()
        st = skill.settings(base_budget or d["base_budget"], steps or d["steps"], games or d["games"],
                            place_games or d["place_games"], places, beat or d["beat"], bootstrap or d["bootstrap"],
                            sequential=not every_game)
    matches, st = skill.build(base, st)
    summary = _play("skill", scenario_path, out_dir, base, matches, st, threads, resume, force, quiet,
                    cluster_address, estimate_only)
    if summary is not None:
        print_skill(summary, out_dir)


def _test_cell(test: dict | None) -> str:
    """A sequential test in a table: what it decided and after how many games."""
    if not test:
        return ""
    if test["outcome"] == "undecided":
        return f"undecided ({test['games']:,} games)"
    return f"{'beats' if test['outcome'] == 'accepted s1' else 'does not beat'} ({test['games']:,} games)"


def _games_note(summary: dict) -> str:
    """The games behind a tournament's cells: a fixed number, or a cap the sequential tests stop under."""
    if not summary["settings"].get("sequential"):
        return f", {summary['games_per_match']:,} games each"
    return (f", up to {summary['games_per_match']:,} games a pair (each stops once its sequential tests decide; "
            f"{summary['games_played']:,} games played in all)")


def print_skill(summary: dict, out_dir) -> None:
    con = out_console()
    t = Table(title=f"skill ladder: the stronger search's win rate (fair share {100 * summary['fair_share']:.0f}%, "
                    f"'beats' at {100 * summary['beat_threshold']:.0f}%)", title_justify="left")
    for col in ("step", "budgets", "games", "win rate", "95% CI", "beats", "sequential test"):
        t.add_column(col, justify="right")
    for s in summary["steps"]:
        v, ci = _pct(s["win_rate"])
        t.add_row(str(s["step"]), f"{s['strong_budget']} vs {s['weak_budget']}", f"{s['games']:,}", v, ci,
                  "yes" if s["beats"] else "maybe" if s.get("may_beat") else "no", _test_cell(s.get("test")))
    con.print(t)
    tr, dp = summary["skill_trace"], summary["skill_depth"]
    n_steps = len(summary["steps"])
    con.print(f"skill trace (Ludii) {tr['value']:.3f} [{tr['lo']:.3f}, {tr['hi']:.3f}]: near 0 when doubling the "
              f"budget wins no more games, higher the more the stronger level keeps winning")
    con.print(f"skill depth (steps whose stronger level beats the weaker): {dp['certain']} of {n_steps} certainly "
              f"(interval above the line), {dp['possible']} possibly (interval reaches it); bootstrap "
              f"{dp['value']:.0f} [{dp['lo']:.0f}, {dp['hi']:.0f}]")
    if summary.get("climb", {}).get("stopped"):
        c = summary["climb"]
        con.print(f"the ladder climbed {c['played_steps']} of {c['planned_steps']} steps: {esc(c['reason'])}")
    past = summary.get("climb", {}).get("flat_below_scripted")
    if past:
        con.print(f"flat steps below the scripted players (the climb went past them): {', '.join(map(str, past))}")
    for p in summary["placements"]:
        con.print(f"{esc(p['strategy'])}: {esc(p['text'])}")
    con.print(f"verdict: {esc(summary['verdict'])}")
    con.print(f"results: {esc(out_dir)}  (report: pirate-sim report {esc(out_dir)})")


@click.command("tournament")
@_common
@click.option("--strategies", "-s", default=None, metavar="A,B,...",
              help="Strategies of the round robin (default: every registered one, search included), each with "
                   "the scenario's settings for it.")
@click.option("--games", "-n", type=click_type(GAMES), default=None,
              help="Games per match, rounded up to a multiple of the seats (default 1068: +-3 points at 50%); "
                   "a cap: a pair's match stops once its dominance tests decide.")
@click.option("--every-game", is_flag=True,
              help="Play every game of every match (-n) instead of stopping each once its tests decide.")
def tournament_cmd(scenario_path, out_dir, seed, overrides, bootstrap, resume, force, estimate_only, threads, quiet,
                   cluster_address, strategies, games, every_game):
    """Round robin of strategies: is there one strategy everyone should play?

    Two seats: every pair and mirror; more seats: one strategy among a field of another,
    for every ordered pair (and mirrors); seats rotate, every match on the same games'
    dice.  Prints the win-rate matrix, Bradley-Terry ratings (Elo scale), the meta-game's
    equilibrium mix (Nash by linear programming for two seats, replicator dynamics for
    more) with bootstrap intervals, balance when every seat plays that mix, and a verdict.

    \b
    Example:
      pirate-sim tournament scenarios/pirates_peak/default.toml -o results/pp-meta
      pirate-sim tournament scenarios/pirates_peak/default.toml -s digger,racer,gunner -n 4000 -o results/pp-meta
      pirate-sim tournament scenarios/pirates_cove/default.toml -o results/cove-meta --estimate
      pirate-sim report results/pp-meta
    """
    from ..meta import tournament

    meta = _stored(out_dir, resume, "tournament")
    if meta is not None:
        base = load_scenario(scenario_path, meta["overrides"])
        st = meta["settings"]
    else:
        base = load_scenario(scenario_path, overrides, seed)
        names = split_names(strategies)
        d = tournament.settings()
        st = tournament.settings(names, games or d["games"], bootstrap or d["bootstrap"], sequential=not every_game)
    matches, st = tournament.build(base, st)
    summary = _play("tournament", scenario_path, out_dir, base, matches, st, threads, resume, force, quiet,
                    cluster_address, estimate_only)
    if summary is not None:
        print_tournament(summary, out_dir)


def print_tournament(summary: dict, out_dir) -> None:
    con = out_console()
    names = summary["strategies"]
    two = summary["n_seats"] == 2
    t = Table(title=("win rate of the row strategy against the column one" if two else
                     f"win rate of one row strategy among a field of the column one (fair share "
                     f"{100 * summary['fair_share']:.0f}%)") + _games_note(summary),
              title_justify="left")
    t.add_column("")
    for n in names:
        t.add_column(esc(n), justify="right")
    for i, a in enumerate(names):
        row = []
        for j in range(len(names)):
            e = summary["matrix_ci"][i][j]
            row.append("mirror" if e is None else f"{100 * e['value']:.0f}% [{100 * e['lo']:.0f}, {100 * e['hi']:.0f}]")
        t.add_row(esc(a), *row)
    con.print(t)
    eq = summary["equilibrium"]
    mix = ", ".join(f"{esc(n)} {100 * e['value']:.0f}% [{100 * e['lo']:.0f}, {100 * e['hi']:.0f}]"
                    for n, e in zip(names, eq["mix"]) if e["hi"] > 0.005)
    con.print(f"equilibrium ({esc(eq['method'])}): {mix}; support {eq['support']['value']:.0f} "
                  f"[{eq['support']['lo']:.0f}, {eq['support']['hi']:.0f}]", soft_wrap=True)
    elo = sorted(zip(names, summary["ratings"]["elo"]), key=lambda x: -x[1]["value"])
    con.print("ratings (Elo scale): " + ", ".join(f"{esc(n)} {e['value']:+.0f} [{e['lo']:+.0f}, {e['hi']:+.0f}]"
                                                      for n, e in elo), soft_wrap=True)
    b = summary["balance"]
    fp, sb = b["first_player_win_rate"], b["seat_balance"]
    con.print(f"at the equilibrium mix ({esc(b['method'])}): first player wins {100 * fp['value']:.1f}% "
                  f"[{100 * fp['lo']:.1f}, {100 * fp['hi']:.1f}] of decided games, seat balance "
                  f"{100 * sb['value']:.1f} points [{100 * sb['lo']:.1f}, {100 * sb['hi']:.1f}]")
    dt = summary.get("dominance_tests")
    if dt:
        said = {"yes": "beats every other", "no": "does not", "undecided": "undecided"}
        con.print("beats every other strategy (sequential tests, fair share against "
                  f"{100 * dt['s1']:.0f}%): " + ", ".join(f"{esc(k)} {said[v]}" for k, v in dt["status"].items()),
                  soft_wrap=True)
    con.print(f"verdict: {esc(summary['verdict'])}")
    con.print(f"results: {esc(out_dir)}  (report: pirate-sim report {esc(out_dir)})")


COMMANDS = (skill_cmd, tournament_cmd)
