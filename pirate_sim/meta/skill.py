"""The skill ladder: ``search`` at budget B*2^i against ``search`` at B*2^(i-1), i = 1..K.

Each step is one match (plan.Match): the strong player in entry 0, the weak one in every
other seat (one strong seat among weak ones in games of three or more), seats rotating,
every step on the same games' dice.  Each scripted strategy plays one seat among
``search`` at every level B*2^j, j = 0..K, which places it on the ladder: the budget at
which it wins exactly its fair share.  The plan runs level by level (a level's placements,
then the step above it), so a sequential ladder knows, before each step, whether it has
reached the strongest scripted player (plan.ladder_skip).  Definitions: docs/metrics.md
("Skill ladder").
"""

from __future__ import annotations

import math

import numpy as np

from .. import stats
from ..scenario import Scenario
from . import plan, sequential
from . import stats as mstats
from .plan import Match, MetaError

BASE_BUDGET = 8  # B: the weakest level's rollouts per decision (issue 21's example, as in Ludii's doubling)
STEPS = 6  # K: doublings; the strongest level plays B * 2^K = 512 rollouts per decision
GAMES = 1068  # per step: a 95% interval of +-3 points at a 50% win rate (1.96^2 / 4 / 0.03^2)
PLACE_GAMES = 268  # per scripted strategy and level: +-6 points at 50%
SEARCH = "search"
TIME_LIMIT = 15 * 60  # seconds: issue 21's target for a whole default ladder on a 2-core machine


# what an estimate of a sequential plan times: every match to its cap (MATCH_CAP_NOTE: any plan's
# matches; CAP_NOTE: the ladder's, which also stops climbing)
MATCH_CAP_NOTE = ("these are the times at the caps: each match stops once its sequential test decides (near either "
                  "hypothesis about half the games of a fixed sample, docs/metrics.md)")
CAP_NOTE = (MATCH_CAP_NOTE + ", and the ladder stops climbing at the first step decided not to beat above the "
            "scripted players, so it usually takes less")


def round_up(games: int, n_seats: int) -> int:
    """Games rounded up to a multiple of the seats: every player in every seat equally often."""
    return int(math.ceil(games / n_seats) * n_seats)


def scripted(base: Scenario) -> list[str]:
    return [s.name for s in base.game.strategies if s.name != SEARCH]


def budgets(base_budget: int, steps: int) -> list[int]:
    return [base_budget * 2 ** i for i in range(steps + 1)]


def settings(base_budget: int = BASE_BUDGET, steps: int = STEPS, games: int = GAMES, place_games: int = PLACE_GAMES,
             place: list[str] | None = None, beat: float = mstats.BEAT_TWO_SEATS,
             bootstrap: int = mstats.BOOTSTRAP, sequential: bool = True) -> dict:
    """``sequential`` (the default): every match stops once its sequential test decides
    (``games`` and ``place_games`` are then caps) and the ladder stops climbing at the
    first step decided not to beat its weaker level at or above the strongest scripted
    player (plan.ladder_skip); False plays every game of every step."""
    return {"base_budget": int(base_budget), "steps": int(steps), "games": int(games), "place_games": int(place_games),
            "place": place, "beat": float(beat), "bootstrap": int(bootstrap), "sequential": bool(sequential)}


def step_test(n_seats: int, beat: float) -> list:
    """A step's test: the strong seat scores its fair share (s0) or the beat threshold (s1)."""
    return [[1.0 / n_seats, mstats.beat_threshold(n_seats, beat), False]]


def place_test(n_seats: int, beat: float) -> list:
    """A placement's test: the scripted seat scores as far below its fair share (s0) as the
    beat threshold lies above it, or the threshold (s1): is it above or below this level?"""
    fair, thr = 1.0 / n_seats, mstats.beat_threshold(n_seats, beat)
    return [[max(fair - (thr - fair), 0.5 / n_seats ** 2), thr, False]]


skip = plan.ladder_skip  # the climb (plan.execute's default for a skill plan)


def build(base: Scenario, st: dict) -> tuple[list[Match], dict]:
    """The ladder's matches; ``st`` from :func:`settings` (``place`` None: every scripted
    strategy).  MetaError when the game has no ``search`` strategy."""
    names = [s.name for s in base.game.strategies]
    if SEARCH not in names:
        raise MetaError(f"{base.source}: {base.game.title} has no '{SEARCH}' strategy; the skill ladder plays "
                        f"'{SEARCH}' at doubling budgets (its strategies: {', '.join(names)})")
    place = scripted(base) if st["place"] is None else list(st["place"])
    for p in place:
        if p not in names or p == SEARCH:
            raise MetaError(f"--place: unknown scripted strategy {p!r}; {base.game.title} has "
                            f"{', '.join(scripted(base))}")
    st = {**st, "place": place}
    check_budgets(base, st["base_budget"], st["steps"])
    n = base.n_seats
    b = budgets(st["base_budget"], st["steps"])
    steps, places = {}, {}
    for i in range(1, st["steps"] + 1):
        strong, weak = plan.seat_of(base, SEARCH, budget=b[i]), plan.seat_of(base, SEARCH, budget=b[i - 1])
        steps[i] = Match(f"step-{i:02d}", "step", f"search {b[i]} vs {b[i - 1]}", [strong] + [weak] * (n - 1),
                         round_up(st["games"], n), {"step": i, "strong": b[i], "weak": b[i - 1]},
                         step_test(n, st["beat"]) if st.get("sequential") else None)
    for j, bj in enumerate(b):
        places[j] = [Match(f"place-{name}-{j:02d}", "place", f"{name} vs search {bj}",
                           [plan.seat_of(base, name)] + [plan.seat_of(base, SEARCH, budget=bj)] * (n - 1),
                           round_up(st["place_games"], n), {"strategy": name, "level": j, "budget": bj},
                           place_test(n, st["beat"]) if st.get("sequential") else None) for name in place]
    # level by level: a level's placements are decided before the step above it is asked
    # whether the climb goes on (plan.ladder_skip)
    matches = [m for j in range(len(b)) for m in places[j] + ([steps[j + 1]] if j + 1 in steps else [])]
    return matches, st


def check_budgets(base: Scenario, base_budget: int, steps: int) -> None:
    """MetaError, before anything is played, when the top level B*2^K is above the search
    player's maximum budget; the message names the largest -k that fits."""
    top = next(p.max for p in base.game.strategy(SEARCH).params if p.key == "budget")
    if top is None or base_budget * 2 ** steps <= top:
        return
    if base_budget > top:
        raise MetaError(f"--base-budget: {base_budget:,} is above the search player's maximum budget {int(top):,}")
    k = int(math.floor(math.log2(top / base_budget)))
    fits = f"the largest -k with -b {base_budget} is {k}" if k >= 1 else f"no -k fits with -b {base_budget}"
    raise MetaError(f"--steps: -k {steps} plays budget {base_budget}*2^{steps} = {base_budget * 2 ** steps:,}, above "
                    f"the search player's maximum {int(top):,}; {fits}")


def half_width(games: int, p: float = 0.5, z: float = 1.96) -> float:
    """The 95% interval's half-width of a win rate p from ``games`` games (normal approximation)."""
    return z * math.sqrt(p * (1 - p) / max(games, 1))


def duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 2 * 3600:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


def explain(est: plan.Estimate, matches: list[Match], st: dict, limit: float = TIME_LIMIT) -> list[str]:
    """Why a ladder takes the time it does, line by line: the games behind each interval,
    the cost per game at every step (the search's cost grows with its budget, so the top
    steps dominate), the placements' share; and, over ``limit`` seconds, the settings that
    fit in it (fewer steps, fewer games, no placements).  ``est`` times ``matches`` in order."""
    if len(est.costs) != len(matches) or est.seconds <= 0:
        return []
    cost = {m.id: c for m, c in zip(matches, est.costs)}
    steps = [m for m in matches if m.role == "step"]
    places = [m for m in matches if m.role == "place"]
    lines = []
    if steps:
        g = steps[0].games
        lines.append(f"each step plays {g:,} games: a 95% interval of +-{100 * half_width(g):.1f} points at a 50% "
                     f"win rate" + (f"; each placement level {places[0].games:,} games "
                                    f"(+-{100 * half_width(places[0].games):.1f} points)" if places else ""))
        lines.append("time per game, by step: " + ", ".join(
            f"{m.info['strong']} vs {m.info['weak']} {plan.per_game_text(cost[m.id] / m.games)}"
            f" ({100 * cost[m.id] / est.seconds:.0f}%)" for m in steps))
    if places:
        total = sum(cost[m.id] for m in places)
        top = max(m.info["level"] for m in places)
        per_top = [cost[m.id] / m.games for m in places if m.info["level"] == top]
        lines.append(f"placements: {len({m.info['strategy'] for m in places})} scripted strategies x "
                     f"{top + 1} levels, {duration(total)} ({100 * total / est.seconds:.0f}%); against search "
                     f"{max(m.info['budget'] for m in places)} {plan.per_game_text(max(per_top))}/game")
    if est.basis:
        lines.append(est.basis)
    if st.get("sequential"):
        lines.append(CAP_NOTE)
    if est.seconds <= limit:
        return lines
    fits = []
    levels = sorted({m.info["step"] for m in steps})
    for k in reversed(levels[:-1]):
        c = sum(cost[m.id] for m in steps if m.info["step"] <= k) + sum(
            cost[m.id] for m in places if m.info["level"] <= k)
        if c <= limit:
            fits.append(f"-k {k} (budgets {st['base_budget']}..{st['base_budget'] * 2 ** k}: {duration(c)})")
            break
    f = limit / est.seconds
    if steps and steps[0].games * f >= 4 * len(steps[0].seats):
        n = max(1, int(steps[0].games * f))
        pg = max(1, int(places[0].games * f)) if places else 0
        fits.append(f"-n {n}" + (f" --place-games {pg}" if places else "") +
                    f" (K = {st['steps']}, +-{100 * half_width(n):.0f} points a step)")
    if places:
        c = sum(cost[m.id] for m in steps)
        if c <= limit:
            fits.append(f"--place none (the steps alone: {duration(c)})")
        else:
            for k in reversed(levels[:-1]):
                c = sum(cost[m.id] for m in steps if m.info["step"] <= k)
                if c <= limit:
                    fits.append(f"-k {k} --place none ({duration(c)})")
                    break
    lines.append(f"over {limit / 60:.0f} minutes on this machine ({duration(est.seconds)}); "
                 + (f"what fits in {limit / 60:.0f} minutes: " + "; ".join(fits) if fits else
                    "nothing smaller fits without going under a few games a step")
                 + f"; or --cluster: W workers play it about W times faster ({duration(est.seconds / 8)} on 8)")
    return lines


def _crossing(x: np.ndarray, p: np.ndarray, fair: float) -> tuple[float, str]:
    """Where the curve p(x) (a scripted strategy's win rate against search at log2 budget x)
    first falls to the fair share, linearly interpolated; ("below" / "above" the ladder)."""
    if p[0] <= fair:
        return x[0], "below"
    for j in range(1, len(p)):
        if p[j] <= fair:
            t = (p[j - 1] - fair) / (p[j - 1] - p[j])
            return x[j - 1] + t * (x[j] - x[j - 1]), ""
    return x[-1], "above"


def placement(levels: list[int], ests: list, fair: float) -> dict:
    """The budget a scripted strategy is worth, with the interval from its win rates' bounds."""
    x = np.log2(np.array(levels, np.float64))
    p = np.array([e.value for e in ests])
    lo_curve = np.array([e.lo for e in ests])
    hi_curve = np.array([e.hi for e in ests])
    v, where = _crossing(x, p, fair)
    lo, where_lo = _crossing(x, lo_curve, fair)
    hi, where_hi = _crossing(x, hi_curve, fair)
    if where == "below":
        text = f"worth less than {levels[0]} rollouts (loses to the weakest level)"
    elif where == "above":
        text = f"worth more than {levels[-1]} rollouts (beats the strongest level)"
    else:
        text = (f"worth about {2 ** v:.0f} rollouts [{'<' if where_lo == 'below' else ''}{2 ** lo:.0f}, "
                f"{'>' if where_hi == 'above' else ''}{2 ** hi:.0f}]")
    return {"budget": 2 ** v, "lo": 2 ** lo, "hi": 2 ** hi, "below": where == "below", "above": where == "above",
            "lo_open": where_lo == "below", "hi_open": where_hi == "above", "text": text}


def analyse(meta: dict, outcomes: dict, confidence: float = stats.CONFIDENCE) -> dict:
    """Summary figures of a played ladder (JSON-able): every step's win rate, the skill
    trace and depth with bootstrap intervals, the scripted strategies' places."""
    n = int(meta["n_seats"])
    st = meta["settings"]
    fair = 1.0 / n
    thr = mstats.beat_threshold(n, st["beat"])
    seq = bool(st.get("sequential"))
    steps = sorted((m for m in meta["matches"] if m["role"] == "step" and m["id"] in outcomes),
                   key=lambda m: m["info"]["step"])
    scores = [mstats.focal_scores(outcomes[m["id"]].winner, outcomes[m["id"]].game, n) for m in steps]
    lengths = [sc.size for sc in scores]
    g = min(lengths)
    # does the stronger level beat the weaker one?  A sequential test per step, decided or not
    tests = [sequential.sprt(sc, n, fair, thr, confidence=confidence) for sc in scores]
    # after a sequential stop only a confidence sequence keeps its coverage (the test's own interval)
    ests = [t.score for t in tests] if seq else [mstats.win_rate(sc, confidence) for sc in scores]
    rates = np.array([sc.mean() for sc in scores])
    util = mstats.utility(rates, n)
    rates_b = mstats.bootstrap_means(scores, st["bootstrap"], int(meta["seed"]))  # [replicates, steps]
    trace_b = np.array([mstats.skill_trace(mstats.utility(r, n)) for r in rates_b])
    depth_b = (rates_b >= thr).sum(axis=1)
    trace = mstats.percentile_ci(trace_b, mstats.skill_trace(util), confidence, g, "bootstrap percentile")
    depth_point = int((rates >= thr).sum())
    depth = mstats.percentile_ci(depth_b, depth_point, confidence, g, "bootstrap percentile")
    certain = int(sum(e.lo >= thr for e in ests))
    possible = int(sum(e.hi >= thr for e in ests))
    out_steps = [{"step": m["info"]["step"], "strong_budget": m["info"]["strong"], "weak_budget": m["info"]["weak"],
                  "games": int(gi), "cap": int(m["games"]), "win_rate": e.as_dict(), "utility": float(u),
                  # a step "beats" only where its whole interval clears the line, "may beat" where it reaches it
                  "beats": bool(e.lo >= thr), "may_beat": bool(e.hi >= thr),
                  "test": t.as_dict(), "decided": t.outcome}
                 for m, e, u, t, gi in zip(steps, ests, util, tests, lengths)]
    places = []
    for name in st["place"]:
        ms = sorted((m for m in meta["matches"] if m["role"] == "place" and m["info"]["strategy"] == name
                     and m["id"] in outcomes), key=lambda m: m["info"]["level"])
        if not ms:
            continue
        psc = [mstats.focal_scores(outcomes[m["id"]].winner, outcomes[m["id"]].game, n) for m in ms]
        if seq:
            lo_s, hi_s = place_test(n, st["beat"])[0][:2]
            pe = [sequential.sprt(sc, n, lo_s, hi_s, confidence=confidence).score for sc in psc]
        else:
            pe = [mstats.win_rate(sc, confidence) for sc in psc]
        lv = [m["info"]["budget"] for m in ms]
        places.append({"strategy": name, "levels": lv, "win_rates": [e.as_dict() for e in pe],
                       "games": [int(sc.size) for sc in psc], **placement(lv, pe, fair)})
    yes = [st for st, t in zip(out_steps, tests) if t.outcome == "accepted s1"]
    open_steps = [st for st, t in zip(out_steps, tests) if not t.decided]
    if not yes and not open_steps:
        verdict = (f"no step beats its weaker level {100 * thr:.0f}% of the time (every step's sequential test "
                   f"accepted the fair share): playing better barely wins more "
                   f"(skill trace {trace.value:.2f} [{trace.lo:.2f}, {trace.hi:.2f}])")
    elif not yes and open_steps:
        labels = ", ".join(str(st["step"]) for st in open_steps)
        verdict = (f"undecided: no step was decided to beat its weaker level {100 * thr:.0f}% of the time, and "
                   f"step{'s' if len(open_steps) != 1 else ''} {labels} {'were' if len(open_steps) != 1 else 'was'} "
                   f"not decided either way in {g:,} games; more games a step (-n) decide them "
                   f"(skill trace {trace.value:.2f} [{trace.lo:.2f}, {trace.hi:.2f}])")
    else:
        verdict = (f"skill depth {depth_point} of {len(steps)} steps [{depth.lo:.0f}, {depth.hi:.0f}]: the stronger "
                   f"level beats the weaker at least {100 * thr:.0f}% of the time at {depth_point} "
                   f"step{'s' if depth_point != 1 else ''}; skill trace "
                   f"{trace.value:.2f} [{trace.lo:.2f}, {trace.hi:.2f}]; sequential tests: {len(yes)} "
                   f"step{'s' if len(yes) != 1 else ''} decided to beat"
                   + (f", {len(open_steps)} undecided" if open_steps else ""))
    planned = int(st["steps"])
    skipped = [m for m in meta["matches"] if m["role"] == "step" and m.get("skipped")]
    # flat steps the climb went past: a scripted strategy was decided to beat their strong level
    beaten = plan.levels_beaten_by_scripted(meta)
    past = [x["step"] for x in out_steps if x["decided"] == "accepted s0" and x["step"] in beaten]
    climb = {"planned_steps": planned, "played_steps": len(steps), "stopped": bool(skipped),
             "reason": skipped[0]["skipped"] if skipped else "", "flat_below_scripted": past,
             "levels_beaten_by_scripted": beaten}
    if skipped:
        verdict += (f"; the ladder climbed {len(steps)} of {planned} steps and stopped: step {len(steps)} was "
                    f"decided not to beat its weaker level")
    if past:
        verdict += (f" (it climbed past the flat step{'s' if len(past) != 1 else ''} "
                    f"{', '.join(map(str, past))}: a scripted strategy was decided to beat search there)")
    return {
        "kind": "skill", "game": meta["game"], "n_seats": n, "fair_share": fair, "beat_threshold": thr,
        "climb": climb, "games_played": int(sum(lengths)),
        "confidence": confidence, "settings": st, "steps": out_steps,
        "skill_trace": trace.as_dict(), "skill_depth": {**depth.as_dict(), "certain": certain, "possible": possible,
                                                        "decided": len(yes), "undecided": len(open_steps)},
        "placements": places, "verdict": verdict,
        "metrics": {"skill.trace": trace.as_dict(), "skill.depth": depth.as_dict(),
                    **{f"skill.step{s['step']}.win_rate": s["win_rate"] for s in out_steps}},
    }
