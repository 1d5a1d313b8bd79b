"""Learned players: learn (train one for a scenario's rules by self-play)."""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table

from ..validate import GAMES, POINT_GAMES, SEED, click_type, split_names
from .common import (EXIT_INTERRUPTED, console, esc, fail, load_scenario, progress, quiet_option, set_option,
                     shell_command, threads_option)


@click.command("learn")
@click.argument("scenario_path", metavar="SCENARIO", type=click.Path(dir_okay=False))
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False), required=True,
              help="Output directory: weights.npz, curve.csv, learning_curve.png, final.json, checkpoint.npz.")
@click.option("--generations", "-g", type=click_type(GAMES), default=None,
              help="Training generations (default 30; each: a population of weight vectors on the same games).")
@click.option("--population", type=click_type(GAMES), default=None,
              help="Weight vectors tried per generation (default 24).")
@click.option("--elite", type=click_type(GAMES), default=None,
              help="The best vectors of a generation that the next is drawn around (default 6).")
@click.option("--games", "-n", type=click_type(POINT_GAMES), default=None,
              help="Training games per weight vector (every vector of a generation plays the same games; default: the game's, 4000 in Pirate's Peak).")
@click.option("--held-out", type=click_type(POINT_GAMES), default=None,
              help="Held-out games measuring each generation (the learning curve; never trained on; default: the game's, 20000 in Pirate's Peak).")
@click.option("--final-games", type=click_type(POINT_GAMES), default=None,
              help="Fresh games of the final table against the pool (default: the game's, 40000 in Pirate's Peak).")
@click.option("--method", type=click.Choice(["cem", "distill"]), default="cem", show_default=True,
              help="cem: the cross-entropy method on the measured result; distill: fit the choices to search's "
                   "rollout values at the positions a search seat reaches (docs/learned.md; Pirate's Peak and "
                   "Pirate's Cove).")
@click.option("--decisions", type=click_type(GAMES), default=None,
              help="distill: positions each generation adds (default 20000).")
@click.option("--rollouts", type=click_type(GAMES), default=None,
              help="distill: rollouts per option at each position (default 32).")
@click.option("--distill-rollout", type=click.Choice(["game", "learned"]), default=None,
              help="distill: what the rollouts play: the game's rollout strategy (default), or from generation 2 "
                   "the learned player of the generation before.")
@click.option("--against", default=None, metavar="A,B,...",
              help="The pool's strategies, one per other seat (default: expert in each).")
@click.option("--seed", type=click_type(SEED), help="Master seed (default: the scenario's run.seed).")
@set_option
@click.option("--resume", is_flag=True, help="Continue a stopped training in -o DIR (identically).")
@click.option("--force", is_flag=True, help="Replace an existing output directory.")
@threads_option
@quiet_option
def learn_cmd(scenario_path, out_dir, generations, population, elite, games, held_out, final_games, method, decisions,
              rollouts, distill_rollout, against, seed, overrides, resume, force, threads, quiet):
    """Train SCENARIO's game's learned player for SCENARIO's rules, by self-play against a pool.

    The player values each option by a linear function of features of its own view (never
    hidden information); the weights are fitted by the cross-entropy method on common
    random numbers (--method cem), or to search's rollout values (--method distill), and
    every generation is measured on held-out games with a Wilson 95% interval.  A scenario
    seat then plays it: strategy = "learned", weights = "DIR/weights.npz".

    \b
    Example:
      pirate-sim learn scenarios/pirates_peak/default.toml -o players/peak
      pirate-sim learn scenarios/pirates_peak/default.toml -o players/peak-fast -g 10 --set rules.ship.life_points=3
      pirate-sim learn scenarios/pirates_peak/default.toml -o players/peak --resume
      pirate-sim learn scenarios/pirates_peak/default.toml -o players/peak-distilled --method distill
    """
    from .. import api

    s = load_scenario(scenario_path, overrides, seed)
    pool = split_names(against) if against else None
    out = Path(out_dir)
    with progress(quiet) as prog:
        task = prog.add_task("learn", total=generations)

        def on_generation(g, n, row):
            prog.update(task, completed=g, total=n, description=esc(
                f"learn: generation {g}, {row['share']:.3f} [{row['lo']:.3f}, {row['hi']:.3f}] held out"))

        try:
            res = api.learn(s, out, generations=generations, population=population, elite=elite, games=games,
                            held_out=held_out, final_games=final_games, against=pool, seed=seed, threads=threads,
                            resume=resume, force=force, progress=on_generation, method=method,
                            distill={k: v for k, v in (("decisions", decisions), ("rollouts", rollouts),
                                                       ("rollout", distill_rollout)) if v is not None} or None)
        except KeyboardInterrupt:  # learn stops itself on the signal; a second one lands here
            res = None
        if res is None or res.stopped:
            prog.stop()
            fail(f"interrupted; the finished generations are saved in {out}. Continue with: "
                 + _resume_command(click.get_current_context(), scenario_path, out), code=EXIT_INTERRUPTED)
    t = Table(title=f"{s.game.title}: the learned player on held-out games (Wilson 95%)")
    for col in ("generation", "share", "95% CI", "games", "s"):
        t.add_column(col, justify="right")
    rows = res.curve.to_dict("records")
    shown = rows if len(rows) <= 12 else rows[:3] + rows[-8:]
    for r in shown:
        t.add_row(str(r["generation"]), f"{r['share']:.3f}", f"{r['lo']:.3f} .. {r['hi']:.3f}", f"{r['games']:,}",
                  f"{r['seconds']:.0f}")
    console.print(t)
    f = res.final
    verdict = ("beats" if f["lo"] > f["fair"] else "loses to" if f["hi"] < f["fair"] else "cannot be told from")
    console.print(f"final: learned against {esc(', '.join(f['against']))}: {f['share']:.3f} "
                  f"[{f['lo']:.3f}, {f['hi']:.3f}] of the points over {f['games']:,} fresh games (fair share "
                  f"{f['fair']:.3f}): it {verdict} the pool. Trained in {res.seconds:.0f} s.", soft_wrap=True)
    console.print(f"weights: {res.weights.path} (SHA-256 {res.weights.sha256[:16]}); play it with "
                  f"strategy = \"learned\", weights = \"{res.weights.path}\"", soft_wrap=True, markup=False)


def _resume_command(ctx: click.Context, scenario_path: str, out: Path) -> str:
    """The command that continues this training: the options it was given (a resume with other
    settings is refused), then --resume."""
    words: list = ["pirate-sim", "learn", scenario_path, "-o", out]
    for p in ctx.command.params:
        v = ctx.params.get(p.name)
        if not isinstance(p, click.Option) or p.name in ("out_dir", "resume", "force") or v in (None, (), p.default):
            continue
        flag = max(p.opts, key=len)
        words += [flag] if p.is_flag else [w for x in (v if p.multiple else [v]) for w in (flag, x)]
    return shell_command(*words, "--resume")


COMMANDS = [learn_cmd]
