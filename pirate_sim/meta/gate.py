"""Meta-game metrics for ``pirate-sim check``: ``dominance.max_win_rate``,
``equilibrium.support``, ``equilibrium.weight.<strategy>``, ``equilibrium.seat_balance``,
``rating.<strategy>``, ``skill.trace``, ``skill.depth``...

A bound on one of them plays a tournament of every registered strategy (or the skill
ladder at its defaults, without the placements) in memory at each of the spec's looks:
a look of N games plays N / matches games per match (rounded up to the seats), from game
0 again (the looks' games are the same games, so a bound's verdict is that of the
largest look reached).  Intervals are at the look's Bonferroni confidence like every
other bound's; bootstrap intervals then use enough replicates for their tails.
"""

from __future__ import annotations

import math
import time

from ..scenario import Scenario
from ..stats import Estimate
from . import plan, skill, tournament
from . import stats as mstats

PREFIXES = ("skill.", "dominance.", "equilibrium.", "rating.")
MAX_REPLICATES = 5000


def is_meta_metric(name: str) -> bool:
    return name.startswith(PREFIXES)


def _strategies(s: Scenario) -> list[str]:
    return [x.name for x in s.game.strategies]


def metric_names(s: Scenario) -> list[str]:
    """The meta-game metrics a bound on this scenario may name (nothing is played)."""
    names = _strategies(s)
    out = ["dominance.max_win_rate", "equilibrium.support"]
    out += [f"equilibrium.weight.{x}" for x in names] + [f"rating.{x}" for x in names]
    out += ["equilibrium.first_player_win_rate", "equilibrium.first_player_advantage", "equilibrium.seat_balance"]
    out += [f"equilibrium.win_rate.seat{k}" for k in range(s.n_seats)]
    if skill.SEARCH in names:
        out += ["skill.trace", "skill.depth"] + [f"skill.step{i}.win_rate" for i in range(1, skill.STEPS + 1)]
    return out


def replicates(confidence: float) -> int:
    """Bootstrap replicates for percentile intervals at ``confidence``: ten in each tail."""
    return int(min(MAX_REPLICATES, max(mstats.BOOTSTRAP, math.ceil(20 / (1 - confidence)))))


def evaluate(s: Scenario, kind: str, games_per_match: int, confidence: float, threads=None, cluster=None) -> dict:
    """Metrics (name -> Estimate) of a tournament or ladder played in memory."""
    boot = replicates(confidence)
    if kind == "skill":
        # a gate compares fixed looks of every step: no sequential stop, no climbing
        st = skill.settings(games=games_per_match, place=[], bootstrap=boot, sequential=False)
        matches, st = skill.build(s, st)
        analyse = skill.analyse
    else:
        st = tournament.settings(None, games_per_match, boot, sequential=False)
        matches, st = tournament.build(s, st)
        analyse = tournament.analyse
    scenarios = [plan.match_scenario(s, m) for m in matches]
    meta = plan._new_meta(kind, s, matches, scenarios, st)
    outcomes = {m.id: plan.play_outcomes(ms, threads, cluster) for m, ms in zip(matches, scenarios)}
    summary = analyse(meta, outcomes, confidence)
    return {k: Estimate(v["value"], v["lo"], v["hi"], v["n"], v["method"]) for k, v in summary["metrics"].items()}, \
        sum(m.games for m in matches)


def decide(s: Scenario, bounds: list, looks: list[int], confidence: float, threads=None, cluster=None,
           progress=None, name: str = "") -> int:
    """Set the verdict of each meta-game bound look by look; returns the games behind the
    verdicts: each meta-game's last look (a look replays the earlier looks' games)."""
    played = 0
    t0 = time.perf_counter()
    for kind in ("tournament", "skill"):
        mine = [b for b in bounds if b.metric.startswith("skill.") == (kind == "skill")]
        if not mine:
            continue
        n_matches = len((skill.build(s, skill.settings(place=[])) if kind == "skill" else
                         tournament.build(s, tournament.settings()))[0])
        last = 0
        for n_look in looks:
            if all(b.verdict != "undecided" for b in mine):
                break
            per = skill.round_up(math.ceil(n_look / n_matches), s.n_seats)
            est, games = evaluate(s, kind, per, confidence, threads, cluster)
            last = games
            if progress:
                progress(f"{name} {kind}", n_look, looks[-1])
            for b in mine:
                if b.verdict != "undecided":
                    continue
                e = est[b.metric]
                b.estimate = {**e.as_dict(), "confidence": confidence}
                b.games = games
                b.seconds = time.perf_counter() - t0
                b.verdict = b.decide(e)
        played += last
    return played
