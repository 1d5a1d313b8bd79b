"""The strategy tournament: a round robin of strategies, its win-rate matrix, ratings,
the meta-game's equilibrium, dominance, and balance when every seat plays that mix.

Two seats: one match per pair (and per mirror), seats rotating.  Three or more seats:
one match per ordered pair "one X among a field of Y" (and per mirror), seats rotating,
so every seating of that mix is played equally often; this is the documented sample of
the mixes the seat count allows (the one-mutant-among-residents match-up that the
meta-game analyses of TAG and OpenSpiel's alpha-rank are built on), not every mix.
Every match plays the same games' dice (common random numbers).  Definitions:
docs/metrics.md ("Strategy tournament").
"""

from __future__ import annotations

import math

import numpy as np

from .. import stats
from ..scenario import Scenario
from . import plan, sequential
from . import stats as mstats
from .plan import Match, MetaError
from .skill import GAMES, MATCH_CAP_NOTE, TIME_LIMIT, duration, half_width, round_up


def settings(strategies: list[str] | None = None, games: int = GAMES, bootstrap: int = mstats.BOOTSTRAP,
             sequential: bool = True) -> dict:
    """``sequential`` (the default): a pair's match stops once its dominance tests have
    decided (``games`` is then a cap; mirrors play every game); False plays every game."""
    return {"strategies": strategies, "games": int(games), "bootstrap": int(bootstrap),
            "sequential": bool(sequential)}


def pair_test(n_seats: int, flipped_too: bool) -> list:
    """A pair's dominance tests: the focal strategy scores its fair share (s0) or the beat
    threshold (s1); for two seats also the other side of the same games (flipped)."""
    fair, beat = 1.0 / n_seats, mstats.beat_threshold(n_seats)
    return [[fair, beat, False]] + ([[fair, beat, True]] if flipped_too else [])


def build(base: Scenario, st: dict) -> tuple[list[Match], dict]:
    # built-in, then the strategy files that play a seat (a file only a search rolls out is no entrant)
    seated = {seat["strategy"] for seat in base.seats}
    names = [s.name for s in base.game.strategies] + [spec for spec in base.user if spec in seated]
    chosen = names if st["strategies"] is None else list(st["strategies"])
    for c in chosen:
        if c not in names:
            raise MetaError(f"--strategies: unknown strategy {c!r}; {base.game.title} has {', '.join(names)}")
    if len(set(chosen)) != len(chosen):
        raise MetaError("--strategies: a strategy is listed twice")
    if len(chosen) < 2:
        raise MetaError("--strategies: a tournament needs at least two strategies")
    st = {**st, "strategies": chosen}
    n = base.n_seats
    g = round_up(st["games"], n)
    seat = {c: plan.seat_of(base, c) for c in chosen}
    matches = []
    for i, a in enumerate(chosen):
        for j, b in enumerate(chosen):
            if n == 2 and j < i:
                continue
            label = f"{a} mirror" if i == j else (f"{a} vs {b}" if n == 2 else f"one {a} among {b}")
            matches.append(Match(f"pair-{i:02d}-{j:02d}", "pair", label, [seat[a]] + [seat[b]] * (n - 1), g,
                                 {"focal": a, "field": b, "i": i, "j": j},
                                 pair_test(n, n == 2) if st.get("sequential") and i != j else None))
    return matches, st


def explain(est: plan.Estimate, matches: list[Match], st: dict, limit: float = TIME_LIMIT) -> list[str]:
    """Why a tournament takes the time it does: the games behind each cell's interval, the
    costliest matches' time per game (search's cost grows with its budget and with the
    seats it plays); over ``limit`` seconds, the games per match that fit."""
    if len(est.costs) != len(matches) or est.seconds <= 0 or not matches:
        return []
    g = matches[0].games
    order = sorted(zip(matches, est.costs), key=lambda t: -t[1])
    lines = [f"each match plays {g:,} games: a 95% interval of +-{100 * half_width(g):.1f} points at a 50% win rate",
             "time per game of the costliest matches: " + ", ".join(
                 f"{m.label} {plan.per_game_text(c / m.games)} ({100 * c / est.seconds:.0f}%)" for m, c in order[:3])]
    if est.basis:
        lines.append(est.basis)
    if st.get("sequential"):
        lines.append(MATCH_CAP_NOTE.replace("its sequential test decides",
                                            "its sequential tests decide (mirrors play every game)")
                     + ", so it usually takes less")
    if est.seconds > limit:
        n = int(g * limit / est.seconds)
        lines.append(f"over {limit / 60:.0f} minutes on this machine ({duration(est.seconds)}); "
                     + (f"-n {n} fits in {limit / 60:.0f} minutes (+-{100 * half_width(n):.0f} points a cell)"
                        if n >= 4 * len(matches[0].seats) else "fewer games alone will not fit it")
                     + "; or --strategies without the costliest, or a cheaper search (--set seats.N.budget=...)")
    return lines


def _cells(meta: dict, m: int, n: int) -> list[tuple[int, int, int, str]]:
    """(p, q, match index, which games) of each seating the balance figures weigh: two seats
    (p at seat 0, q at seat 1) from the even / odd games of a pair; more seats one cell per
    match, (focal, field)."""
    out = []
    for idx, rec in enumerate(meta["matches"]):
        i, j = rec["info"]["i"], rec["info"]["j"]
        if n == 2 and i != j:
            out += [(i, j, idx, "even"), (j, i, idx, "odd")]
        else:
            out.append((i, j, idx, "all"))
    return out


def _equilibria(mats: np.ndarray, n: int) -> np.ndarray:
    """The meta-game's equilibrium mix of each matrix of a stack ``[k, m, m]``."""
    if n == 2:
        return np.stack([mstats.nash_symmetric_zero_sum(2 * mt - 1) for mt in mats])
    return mstats.replicator(mats, 1.0 / n)


def analyse(meta: dict, outcomes: dict, confidence: float = stats.CONFIDENCE) -> dict:
    n = int(meta["n_seats"])
    st = meta["settings"]
    names = st["strategies"]
    m = len(names)
    fair = 1.0 / n
    recs = meta["matches"]
    seq = bool(st.get("sequential"))
    oc = [outcomes[r["id"]] for r in recs]
    scores = [mstats.focal_scores(o.winner, o.game, n) for o in oc]  # per match, its games in order
    lengths = np.array([sc.size for sc in scores])
    g = int(lengths.min())
    ws = _resampling(lengths, st["bootstrap"], int(meta["seed"]))
    means = np.vstack([np.array([sc.mean() for sc in scores])[None, :],
                       np.stack([wk @ sc / sc.size for wk, sc in zip(ws, scores)], axis=1)])  # row 0: the estimate

    def matrix(row: np.ndarray) -> np.ndarray:
        mat = np.full((m, m), fair)
        for idx, r in enumerate(recs):
            i, j = r["info"]["i"], r["info"]["j"]
            if i != j:
                mat[i, j] = row[idx]
                if n == 2:
                    mat[j, i] = 1 - row[idx]
        return mat

    mats = np.stack([matrix(row) for row in means])  # [1 + replicates, m, m]
    # win-rate matrix with Wilson intervals, and simultaneous ones for dominance
    succ = np.zeros((m, m))
    cnt = np.zeros((m, m))
    for idx, r in enumerate(recs):
        i, j = r["info"]["i"], r["info"]["j"]
        if i != j:
            gi = lengths[idx]
            succ[i, j], cnt[i, j] = scores[idx].sum(), gi
            if n == 2:
                succ[j, i], cnt[j, i] = gi - scores[idx].sum(), gi
    cells = m * (m - 1) // (2 if n == 2 else 1)
    lo_s, hi_s = mstats.simultaneous_wilson(succ, cnt, cells, confidence)
    cell_ests = [[None if i == j else stats.wilson(succ[i, j], cnt[i, j], confidence).as_dict() for j in range(m)]
                 for i in range(m)]
    sequential_tests = dominance_tests(recs, scores, names, n, confidence=confidence)
    if seq:  # after a sequential stop only a confidence sequence keeps its coverage: the tests' own
        for t in sequential_tests["tests"]:
            i, j = names.index(t["strategy"]), names.index(t["against"])
            cell_ests[i][j] = t["score"]
    off = ~np.eye(m, dtype=bool)
    worst = np.array([mats[0][i][off[i]].min() for i in range(m)])
    worst_lo = np.array([lo_s[i][off[i]].min() for i in range(m)])
    worst_hi = np.array([hi_s[i][off[i]].min() for i in range(m)])
    best = int(np.argmax(worst))
    max_win = stats.Estimate(worst[best], worst_lo.max(), worst_hi.max(), g, "simultaneous Wilson (Bonferroni)")
    dominant = [names[i] for i in range(m) if worst_lo[i] > fair]
    verdict = sequential_tests["verdict"]
    # equilibrium of the meta-game, and its bootstrap
    mixes = _equilibria(mats, n)
    support = (mixes > mstats.SUPPORT_MIN_WEIGHT).sum(axis=1)
    mix_est = [mstats.percentile_ci(mixes[1:, k], mixes[0, k], confidence, g) for k in range(m)]
    support_est = mstats.percentile_ci(support[1:], support[0], confidence, g)
    # ratings (Bradley-Terry; Luce's model for more seats)
    comp = np.zeros((len(recs), m))
    reps = len(ws[0]) if ws else 0
    wins = np.zeros((1 + reps, len(recs), m))
    dec = np.zeros((1 + reps, len(recs)))
    for idx, (r, o, wk) in enumerate(zip(recs, oc, ws)):
        i, j = r["info"]["i"], r["info"]["j"]
        comp[idx, i] += 1
        comp[idx, j] += n - 1
        focal_seat = o.game % n
        wg = np.zeros((m, o.game.size))
        wg[i] += o.winner == focal_seat
        wg[j] += (o.winner >= 0) & (o.winner != focal_seat)
        dg = (o.winner >= 0) * 1.0
        wins[0, idx], dec[0, idx] = wg.sum(axis=1), dg.sum()
        wins[1:, idx], dec[1:, idx] = wk @ wg.T, wk @ dg
    elo = mstats.luce_ratings(comp, wins, dec)
    elo_est = [mstats.percentile_ci(elo[1:, k], elo[0, k], confidence, g) for k in range(m)]
    balance = _balance(meta, oc, n, mixes, ws, g, confidence)
    return {
        "kind": "tournament", "game": meta["game"], "n_seats": n, "fair_share": fair, "confidence": confidence,
        "settings": st, "strategies": names, "games_per_match": int(recs[0]["games"]),  # with sequential tests: the cap
        "games": {r["id"]: int(k) for r, k in zip(recs, lengths)}, "games_played": int(lengths.sum()),
        "design": "pairs and mirrors, seats rotating" if n == 2 else
        "one strategy among a field of another (every ordered pair) and mirrors, seats rotating",
        "matrix": mats[0].tolist(), "matrix_ci": cell_ests,
        "matrix_simultaneous": {"lo": lo_s.tolist(), "hi": hi_s.tolist(), "cells": cells},
        "worst_case": [{"strategy": names[i], "value": float(worst[i]), "lo": float(worst_lo[i]),
                        "hi": float(worst_hi[i])} for i in range(m)],
        "dominant": dominant, "verdict": verdict, "dominance_tests": sequential_tests,
        "equilibrium": {"method": "Nash mix of the symmetric zero-sum meta-game (linear programming)" if n == 2 else
                        "time-averaged replicator dynamics of the one-among-a-field population game",
                        "mix": [e.as_dict() for e in mix_est], "support": support_est.as_dict(),
                        "support_min_weight": mstats.SUPPORT_MIN_WEIGHT},
        "ratings": {"method": "Bradley-Terry" if n == 2 else "Luce (Bradley-Terry for more seats)",
                    "scale": "Elo points (400 log10 strength), mean 0", "elo": [e.as_dict() for e in elo_est]},
        "balance": balance,
        "metrics": {
            "dominance.max_win_rate": max_win.as_dict(),
            "equilibrium.support": support_est.as_dict(),
            **{f"equilibrium.weight.{names[k]}": mix_est[k].as_dict() for k in range(m)},
            **{f"rating.{names[k]}": elo_est[k].as_dict() for k in range(m)},
            **{f"equilibrium.{k}": v for k, v in balance.items() if isinstance(v, dict) and "value" in v},
        },
    }


def dominance_tests(recs: list[dict], scores: list, names: list[str], n: int,
                    alpha: float = sequential.ALPHA, beta: float = sequential.BETA,
                    confidence: float = stats.CONFIDENCE) -> dict:
    """Does each strategy beat every other?  A sequential test per ordered pair on the
    match's rounds (meta.sequential.sprt): "scores the fair share" against "scores the beat
    threshold" (meta.stats.beat_threshold).  A strategy dominates when all its tests accept
    the threshold, does not when one accepts the fair share, and is undecided otherwise; the
    verdict claims only what was decided, and says how many games would decide the rest."""
    m = len(names)
    fair, beat = 1.0 / n, mstats.beat_threshold(n)
    lower, upper = sequential.wald_bounds(alpha, beta)
    tests: dict[tuple[int, int], sequential.Decision] = {}
    per_game: dict[tuple[int, int], float] = {}
    for idx, r in enumerate(recs):
        i, j = r["info"]["i"], r["info"]["j"]
        if i == j:
            continue
        spg = r.get("seconds", 0.0) / max(r.get("played", r["games"]), 1)
        tests[i, j] = sequential.sprt(scores[idx], n, fair, beat, alpha, beta, confidence)
        per_game[i, j] = spg
        if n == 2:  # the same games from the other side
            tests[j, i] = sequential.sprt(1.0 - scores[idx], n, fair, beat, alpha, beta, confidence)
            per_game[j, i] = spg
    status = []
    for i in range(m):
        mine = [tests[i, j] for j in range(m) if j != i]
        if any(t.outcome == "accepted s0" for t in mine):
            status.append("no")
        elif all(t.outcome == "accepted s1" for t in mine):
            status.append("yes")
        else:
            status.append("undecided")
    # rounds a test takes on average where it is hardest (the score halfway between the two
    # hypotheses, Wald's approximation -lower * upper * var / (s1 - s0)^2), at the worst variance seen
    var = max((float(np.var(sequential.round_scores(scores[k], n) / n ** 2)) for k in range(len(recs))), default=0.25)
    need_rounds = math.ceil(-lower * upper * max(var, 1e-3) / (beat - fair) ** 2)
    open_pairs = sorted({(min(i, j), max(i, j)) if n == 2 else (i, j) for (i, j), t in tests.items()
                         if not t.decided and status[i] == "undecided"})
    more_games = n * need_rounds
    more_seconds = sum(max(0, more_games - tests[p].games) * per_game[p] for p in open_pairs)
    yes = [names[i] for i in range(m) if status[i] == "yes"]
    if yes:
        verdict = (f"{yes[0]} beats every other strategy (each of its {m - 1} sequential tests accepted "
                   f"{100 * beat:.0f}% over the fair share {100 * fair:.0f}%)")
    elif all(st == "no" for st in status):
        verdict = (f"no strategy dominates: each was decided not to beat at least one other (it scores the "
                   f"fair share {100 * fair:.0f}%, not {100 * beat:.0f}%, in a sequential test)")
    else:
        maybe = [names[i] for i in range(m) if status[i] == "undecided"]
        more = f"; about {duration(more_seconds)} of play more" if more_seconds > 0 else ""
        verdict = (f"undecided: {', '.join(maybe)} may beat every other strategy ({len(open_pairs)} of the "
                   f"sequential tests left open by the games played; about {more_games:,} games a match, "
                   f"rounds of {n}, decide such a test on average{more})")
    return {
        "method": "Wald's SPRT on rounds of rotated seats (generalised likelihood ratio, fishtest's "
                  "pentanomial model for two seats); intervals: betting confidence sequences",
        "s0": fair, "s1": beat, "alpha": alpha, "beta": beta,
        "status": dict(zip(names, status)),
        "tests": [{"strategy": names[i], "against": names[j], **t.as_dict()} for (i, j), t in sorted(tests.items())],
        "undecided_pairs": len(open_pairs), "games_to_decide": more_games,
        "verdict": verdict,
    }


def _resampling(lengths: np.ndarray, replicates: int, seed: int) -> list:
    """Each match's bootstrap resampling counts: one shared set of rows when the matches are
    of one length (common random numbers, as meta.stats.bootstrap_means), else one per match."""
    if len(set(lengths.tolist())) <= 1:
        w = mstats.bootstrap_counts(int(lengths[0]), replicates, seed % 2**32)
        return [w] * len(lengths)
    return [mstats.bootstrap_counts(int(k), replicates, (seed + idx) % 2**32) for idx, k in enumerate(lengths)]


def _balance(meta: dict, oc: list, n: int, mixes: np.ndarray, ws: list, g: int, confidence: float) -> dict:
    """First-player advantage and seat balance when every seat plays the equilibrium mix:
    each seating weighed by the mix's chance of it (exact for two seats; for more, the
    one-among-a-field matches weighed by x_focal * x_field: an approximation)."""
    rows = 1 + len(ws[0])
    seat_rate = np.zeros((rows, n))
    fp_num = np.zeros(rows)
    fp_den = np.zeros(rows)
    for p, q, idx, which in _cells(meta, mixes.shape[1], n):
        o = oc[idx]
        reps = np.vstack([np.ones((1, o.game.size)), ws[idx]])  # row 0: every game once
        mask = np.ones(o.game.size) if which == "all" else ((o.game % 2 == 0) if which == "even" else (o.game % 2 == 1)) * 1.0
        rw = reps * mask[None, :]
        tot = np.maximum(rw.sum(axis=1), 1e-12)
        weight = mixes[:, p] * mixes[:, q]
        for s in range(n):
            seat_rate[:, s] += weight * (rw @ (o.winner == s)) / tot
        fp_num += weight * (rw @ (o.winner == o.first_seat)) / tot
        fp_den += weight * (rw @ (o.winner >= 0)) / tot
    fp = fp_num / np.maximum(fp_den, 1e-12)
    gap = seat_rate.max(axis=1) - seat_rate.min(axis=1)
    out = {"method": "exact mixture of the seatings" if n == 2 else "one-among-a-field approximation"}
    out["first_player_win_rate"] = mstats.percentile_ci(fp[1:], fp[0], confidence, g).as_dict()
    out["first_player_advantage"] = mstats.percentile_ci(fp[1:] - 1 / n, fp[0] - 1 / n, confidence, g).as_dict()
    out["seat_balance"] = mstats.percentile_ci(gap[1:], gap[0], confidence, g).as_dict()
    for s in range(n):
        out[f"win_rate.seat{s}"] = mstats.percentile_ci(seat_rate[1:, s], seat_rate[0, s], confidence, g).as_dict()
    return out
