"""How the report reads its numbers to a designer: verdicts, and what not to show as an estimate.

* :func:`fixed_length`: every game of the run lasted the same number of turns (Pirate's
  Cove: 12 rounds x the players), so its length is a fact of the rules, not an estimate
  with an interval, and it gets no distribution page.
* :func:`can_truncate`: a game without a ``turn_cap`` rule cannot be cut short, so its
  "truncated by turn cap" share is not shown.
* :func:`mirror_pairs`: two event counters whose per-game totals are equal in every game
  of the run (a raid made by one seat is a raid suffered by another) are one bar,
  labelled "a = b".  Candidates come from the summary's sums; each one is then checked
  game by game over the seats table, so a pair is merged only when it is exactly equal.
* :func:`verdicts`: one sentence per headline number, with its 95% interval.
"""

from __future__ import annotations

import numpy as np

from ..stats import Estimate

SUMMARY_SEP = " = "  # how a merged mirror pair is labelled: "raids_made = raids_suffered"


def points(e: Estimate, digits: int = 1) -> str:
    """A difference of shares in percentage points, signed, with its interval."""
    f = f"{{:+.{digits}f}}"
    return f"{f.format(100 * e.value)} points [{f.format(100 * e.lo)}, {f.format(100 * e.hi)}]"


def pct(e: Estimate, digits: int = 1) -> str:
    f = f"{{:.{digits}f}}"
    return f"{f.format(100 * e.value)}% [{f.format(100 * e.lo)}, {f.format(100 * e.hi)}]"


def fixed_length(acc) -> int | None:
    """The one length every game of the run had, or None when lengths varied (or no games)."""
    used = np.flatnonzero(np.asarray(acc.turns_hist))
    return int(used[0]) if acc.n and used.size == 1 else None


def can_truncate(game) -> bool:
    """Whether the game has a turn cap at all (else no game can be cut short by one)."""
    return "turn_cap" in {p.key for p in game.params}


def _event_columns(game) -> list[tuple[int, str]]:
    """(index among the seat columns, name) of the event counters (the ``events.`` metrics)."""
    return [(j, c.name) for j, c in enumerate(game.seat_columns) if c.counter and not c.labels]


def mirror_candidates(acc) -> list[tuple[str, str]]:
    """Event pairs whose per-game totals have the same sum and sum of squares over the run."""
    cols = _event_columns(acc.game)
    out, used = [], set()
    for i, (j, a) in enumerate(cols):
        if a in used or acc.game_sum[j] == 0:
            continue
        for k, b in cols[i + 1:]:
            if b not in used and acc.game_sum[j] == acc.game_sum[k] and acc.game_sumsq[j] == acc.game_sumsq[k]:
                out.append((a, b))
                used.update((a, b))
                break
    return out


def mirror_pairs(acc, seats_parts) -> list[tuple[str, str]]:
    """Event pairs equal in every game of the run (checked game by game over the seats table)."""
    from .parts import tally

    cands = mirror_candidates(acc)
    if not cands:
        return []

    def part(d):  # per game: the two totals' absolute difference, summed (0 iff equal in every game)
        g = tally(d, ["game"], sorted({c for p in cands for c in p}))
        return np.array([int(np.abs(g[a].to_numpy() - g[b].to_numpy()).sum()) for a, b in cands], np.int64)

    diff = seats_parts.fold(part, ["game", *{c for p in cands for c in p}])
    return [p for p, d in zip(cands, diff) if d == 0]


def verdicts(game, acc, est: dict[str, Estimate], rules: dict, first_varies: bool) -> list[str]:
    """One sentence per headline number, each with its 95% interval."""
    out = []
    n_seats = acc.n_seats
    fair = 1 / n_seats
    adv = est.get("first_player_advantage")
    if adv is not None:
        if not first_varies:
            out.append("First player: the same seat moved first in every game, so no first-player "
                       "advantage can be measured here.")
        elif adv.lo > 0 or adv.hi < 0:
            out.append(f"First player: the seat that moves first wins {points(adv)} "
                       f"{'more' if adv.value > 0 else 'less'} often than the fair share of {100 * fair:.1f}% "
                       f"of decided games: a {'first' if adv.value > 0 else 'second'}-mover edge.")
        else:
            out.append(f"First player: no advantage can be told from zero ({points(adv)} against the fair "
                       f"share of {100 * fair:.1f}%).")
    gap = est.get("seat_balance")
    names = acc.strategy_names
    rotate = rules.get("strategy_seating") == "rotate"
    if gap is not None:
        mixed = len(set(names)) > 1 and not rotate
        what = (" (each strategy keeps its seat, so this gap is mostly the strategies')" if mixed else "")
        if mixed:
            verdict = "read the strategies, not the seats"
        elif gap.lo <= 0.0005:
            verdict = f"no gap can be told from zero at this sample size (up to {100 * gap.hi:.1f} points is possible)"
        else:
            verdict = "the seats are unbalanced"
        out.append(f"Seats: the largest gap between two seats' win rates is {points(gap)}{what}: {verdict}.")
    strat = [k for k in est if k.startswith("win_rate.") and not k.startswith("win_rate.seat") and "=" not in k]
    if len(strat) > 1:
        best = max(strat, key=lambda k: est[k].value)
        e = est[best]
        side = "above" if e.lo > fair else ("within" if e.hi >= fair else "below")
        out.append(f"Strongest strategy: {best[9:]} wins {pct(e)} of its seat-games, {side} the fair share "
                   f"of {100 * fair:.1f}%.")
    fixed = fixed_length(acc)
    if fixed is not None:
        out.append(f"Length: every one of the {acc.n:,} games lasted {fixed} turns (fixed by the rules: "
                   "no interval to give).")
    elif "length.mean" in est:
        m, p10, p90 = est["length.mean"], est.get("length.p10"), est.get("length.p90")
        spread = f"; the middle 80% last {p10.value:.0f} to {p90.value:.0f} turns" if p10 and p90 else ""
        out.append(f"Length: games last {m.value:.1f} turns on average [{m.lo:.1f}, {m.hi:.1f}]{spread}.")
    dec = est.get("decisiveness")
    tr = est.get("truncation_rate")
    if dec is not None:
        if dec.value == 1:
            out.append(f"Decisive: every game had a winner ({pct(dec, 2)} of games in general).")
        else:
            cut = (f"; {pct(tr, 2)} cut short by the turn cap" if tr is not None and can_truncate(game)
                   and tr.value > 0 else "")
            out.append(f"Decisive: {pct(dec, 2)} of games had a winner{cut}.")
    return out
