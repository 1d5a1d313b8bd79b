"""Exploration commands: sensitivity (which parameters matter) and tune (which values are best)."""

from __future__ import annotations

from pathlib import Path

import click

from ..validate import POINT_GAMES, POINTS, SEED, TRIALS, click_type
from rich.table import Table

from .common import (EXIT_INTERRUPTED, cluster_option, console, err_console, esc, fail, fmt_metric, open_cluster,
                     progress, quiet_option, say_notes, set_option, threads_option)

VARY_HELP = ("A parameter and its range: KEY=lo:hi (numbers; whole numbers for int parameters) or a set of "
             "values KEY=v1,v2 / KEY='name=[...];name2=[...]' (lists, choices, booleans) (repeatable).")


def _factors(scenario_path, varies, overrides, seed):
    """Base scenario and factors, or the one-line error exit (nothing written)."""
    from .. import scenario as scen
    from ..analysis import space
    from ..analysis.sweep import GridError

    extra = list(overrides) + ([f"run.seed={seed}"] if seed is not None else [])
    try:
        base, factors = space.parse_factors(list(varies), scenario_path, extra)
    except (GridError, scen.ScenarioError) as exc:
        fail(str(exc))
    say_notes(base.notes)
    say_notes(f"{f.key} varies: each strategy plays with its own default parameters (and --set ones); the "
              f"file's parameters of that seat apply only where its strategy is unchanged"
              for f in factors if f.key.startswith("seats.") and f.key.endswith(".strategy"))
    return base, factors, extra


# -------------------------------------------------------------- sensitivity
@click.command("sensitivity")
@click.argument("scenario_path", metavar="SCENARIO", type=click.Path(dir_okay=False))
@click.option("--vary", "varies", multiple=True, required=True, metavar="KEY=RANGE", help=VARY_HELP)
@click.option("--metric", "metric_patterns", multiple=True, metavar="M",
              help="Metric to explain (name or glob; repeatable; default: first_player_win_rate, seat_balance, "
                   "length.mean).")
@click.option("--method", type=click.Choice(["morris", "sobol"]), default="morris", show_default=True,
              help="morris: cheap screening (mu*, sigma); sobol: first-order and total indices with 95% CIs.")
@click.option("--points", "-p", type=click_type(POINTS),
              help="Morris trajectories (default 10; D+1 points each) or Sobol base samples (default 64; "
                   "D+2 points each; a power of two).")
@click.option("--games-per-point", "-n", "games", type=click_type(POINT_GAMES), default=2000, show_default=True,
              help="Games per design point (all on the same seed).")
@set_option
@click.option("--seed", type=click_type(SEED), help="Master seed of every point (default: run.seed).")
@threads_option
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False),
              help="Output directory (default: results/<scenario>-sensitivity).")
@click.option("--resume", is_flag=True, help="Finish an interrupted analysis: stored points are not played again.")
@click.option("--force", is_flag=True, help="Replace an existing output directory.")
@quiet_option
@cluster_option
def sensitivity_cmd(scenario_path, varies, metric_patterns, method, points, games, overrides, seed, threads, out_dir,
                    resume, force, quiet, cluster_address):
    """Which parameters move which metrics: Morris screening or Sobol indices over the ranges.

    Every design point is SCENARIO with the point's values, played on the same seed (common
    random numbers), so the indices measure the rules, not the dice; the summary reports how
    much of each metric's spread is Monte Carlo noise and warns when it dominates.  Writes
    the design and every point's metrics (Parquet), summary.txt, charts and sensitivity.pdf.

    \b
    Example:
      pirate-sim sensitivity scenarios/pirates_peak/default.toml \\
          --vary rules.squid.escape_total=9:14 --vary rules.search.multiplier=1:3 \\
          --vary rules.fight.overtake=false,true --metric first_player_win_rate --metric length.mean
      pirate-sim sensitivity my.toml --vary rules.a=0:1 --vary rules.b=1:6 --method sobol --points 128 -n 5000
      pirate-sim sensitivity my.toml --vary rules.a=0:1 --vary rules.b=1:6 -o results/sa --resume
    """
    from .. import api
    from ..analysis import sensitivity as sa
    from ..analysis import space
    from ..analysis.sweep import GridError

    base, factors, extra = _factors(scenario_path, varies, overrides, seed)
    try:
        names = space.resolve_metrics(list(metric_patterns) or list(sa.DEFAULT_METRICS), base)
    except GridError as exc:
        fail(str(exc))
    n_points = points or sa.DEFAULT_POINTS[method]
    rows = sa.design_rows(factors, method, n_points)
    if rows > sa.MAX_DESIGN:
        fail(f"--points {n_points}: {rows:,} design points, more than {sa.MAX_DESIGN:,}")
    if method == "sobol" and n_points & (n_points - 1):
        err_console.print(f"[bold yellow]warning:[/] --points {n_points} is not a power of two; Sobol' sequences "
                          f"keep their balance properties only for 2^m base samples")
    out = Path(out_dir) if out_dir else Path("results") / f"{Path(scenario_path).stem}-sensitivity"
    try:
        with open_cluster(cluster_address, [base]) as cl, progress(quiet) as prog:
            task = prog.add_task("sensitivity", total=None)

            def cb(cid, i, n_cfg, done, tot):
                prog.update(task, completed=i * games + done, total=n_cfg * games,
                            description=f"sensitivity {cid} ({i + 1}/{n_cfg})")

            res = api.sensitivity(api.load(scenario_path, *overrides), list(varies), metrics=names, method=method,
                                  points=n_points, games=games, seed=seed, threads=threads, out=out, resume=resume,
                                  force=force, cluster=cl, progress=cb).result
    except sa.SensitivityError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        if not out.exists():
            fail("interrupted; nothing was written", code=EXIT_INTERRUPTED)
        fail(f"interrupted; finished points are kept in {out}. Finish with the same command plus --resume",
             code=EXIT_INTERRUPTED)
    _print_indices(res)
    for r in res.noise.itertuples():
        if r.noise_dominates:
            err_console.print(f"[bold yellow]warning:[/] {esc(r.metric)}: Monte Carlo noise is "
                              f"{100 * r.noise_share:.0f}% of its variance over the design; its indices mostly "
                              f"measure dice (raise --games-per-point)")
    extra_note = f"; {len(res.skipped)} stored points reused" if res.skipped else ""
    console.print(f"{res.design.rows} design points ({len(res.design.configs)} configurations) x {games:,} games: "
                  f"played {res.games:,} games in {res.seconds:.1f} s{extra_note}")
    console.print(f"results: {esc(out)} (summary.txt, sensitivity.pdf, design.parquet, point_metrics.parquet, "
                  f"indices.parquet)")


def _print_indices(res) -> None:
    morris = res.design.method == "morris"
    for m in res.metric_names:
        sub = res.indices[res.indices["metric"] == m].sort_values("rank")
        noise = res.noise.set_index("metric").loc[m]
        t = Table(title=f"{esc(m)}: noise share {100 * noise['noise_share']:.1f}%"
                        + (" (constant over the design)" if noise["constant"] else ""), title_justify="left")
        t.add_column("rank", justify="right")
        t.add_column("parameter")
        cols = ("mu*", "±95%", "sigma") if morris else ("S1", "±95%", "ST", "±95% ")
        for c in cols:
            t.add_column(c, justify="right")
        for r in sub.itertuples():
            if morris:
                cells = (fmt_metric(r.mu_star, m), fmt_metric(r.mu_star_conf, m), fmt_metric(r.sigma, m))
            else:
                cells = (f"{r.S1:.3f}", f"{r.S1_conf:.3f}", f"{r.ST:.3f}", f"{r.ST_conf:.3f}")
            t.add_row(str(int(r.rank)), esc(r.parameter), *cells)
        console.print(t)


# --------------------------------------------------------------------- tune
@click.command("tune")
@click.argument("scenario_path", metavar="SCENARIO", type=click.Path(dir_okay=False))
@click.option("--vary", "varies", multiple=True, required=True, metavar="KEY=RANGE",
              help=VARY_HELP + " Strategy parameters too: seats.0.<param>=lo:hi.")
@click.option("--objective", "objectives", multiple=True, required=True, metavar="M=GOAL",
              help="METRIC=min | METRIC=max | METRIC=VALUE (as close as possible); twice for a Pareto front.")
@click.option("--constraint", "constraints", multiple=True, metavar="M<=X",
              help="METRIC<=VALUE or METRIC>=VALUE (repeatable).")
@click.option("--trials", type=click_type(TRIALS), default=40, show_default=True, help="Trials of the search.")
@click.option("--games", "-n", type=click_type(POINT_GAMES), default=5000, show_default=True,
              help="Screening games per trial (promising trials get 4x as many).")
@click.option("--recheck-games", type=click_type(POINT_GAMES),
              help="Games of the re-check on fresh seeds (default: 4x --games).")
@set_option
@click.option("--seed", type=click_type(SEED), help="Master seed of the trials (default: run.seed).")
@threads_option
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False),
              help="Output directory (default: results/<scenario>-tune).")
@click.option("--resume", is_flag=True, help="Finish an interrupted tuning: stored evaluations are not played again.")
@click.option("--force", is_flag=True, help="Replace an existing output directory.")
@quiet_option
@cluster_option
def tune_cmd(scenario_path, varies, objectives, constraints, trials, games, recheck_games, overrides, seed, threads,
             out_dir, resume, force, quiet, cluster_address):
    """Search the ranges for the values that optimise an objective (optuna TPE; NSGA-II for two).

    Trials play on common random numbers; promising ones get more games; the winner is
    re-checked on fresh seeds with 95% CIs beside the untuned scenario.  Writes best.toml
    (ready for `run`), trials.parquet, summary.txt, charts and tune.pdf.  With
    `win_rate.seat0=max` and --vary seats.0.<param> it is a best-response search.
    Exit codes: 0 a winner, 4 no trial met every constraint (no best.toml), 2 bad input,
    130 interrupted (finish with the same command plus --resume).

    \b
    Example:
      pirate-sim tune scenarios/pirates_peak/default.toml --vary rules.squid.escape_total=9:14 \\
          --objective first_player_win_rate=0.5 --constraint 'length.mean<=160' --trials 30
      pirate-sim tune my.toml --vary rules.a=1:6 --objective seat_balance=min --objective length.mean=min
      pirate-sim tune my.toml --vary seats.0.dig_repeats=1:4 --objective win_rate.seat0=max
      pirate-sim tune my.toml --vary rules.a=1:6 --objective seat_balance=min -o results/t --resume
    """
    from .. import api
    from ..analysis import space
    from ..analysis import tune as tn
    from ..analysis.sweep import GridError

    base, factors, extra = _factors(scenario_path, varies, overrides, seed)
    available = space.metric_names(base)
    try:
        objs = [tn.parse_objective(o, available) for o in objectives]
        for c in constraints:  # each checked before anything is written (api.tune parses them again)
            tn.parse_constraint(c, available)
        if len(objs) > 2:
            raise GridError("--objective: give one (TPE) or two (NSGA-II, Pareto front)")
    except GridError as exc:
        fail(str(exc))
    out = Path(out_dir) if out_dir else Path("results") / f"{Path(scenario_path).stem}-tune"
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with open_cluster(cluster_address, [base]) as cl, \
            Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                     console=err_console, disable=quiet, transient=True) as prog:
        task = prog.add_task("tune", total=trials)

        def cb(what, done, tot):
            prog.update(task, completed=done, total=tot, description=f"tune: {what}")

        try:
            res = api.tune(api.load(scenario_path, *overrides), list(varies), list(objectives),
                           constraints=list(constraints), trials=trials, games=games, recheck_games=recheck_games,
                           seed=seed, threads=threads, out=out, force=force, resume=resume, cluster=cl,
                           progress=cb).result
        except tn.TuneError as exc:
            prog.stop()
            fail(str(exc))
        except KeyboardInterrupt:
            prog.stop()
            kept = f"finished evaluations are kept in {out}. Finish with the same command plus --resume" \
                if (out / tn.STATE_JSON).exists() else "nothing was written"
            fail(f"interrupted; {kept}", code=EXIT_INTERRUPTED)
    console.print((out / "summary.txt").read_text().rstrip(), markup=False)
    what = "best.toml, " if res.best_values is not None else "no winner, "
    console.print(f"results: {esc(out)} ({what}trials.parquet, recheck.parquet, summary.txt, tune.pdf)")
    if res.best_values is None:
        err_console.print(f"no winner: no trial met every constraint (exit {tn.EXIT_NO_WINNER})")
        raise SystemExit(tn.EXIT_NO_WINNER)


COMMANDS = (sensitivity_cmd, tune_cmd)
