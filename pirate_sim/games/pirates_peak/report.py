"""Pirate's Peak's own report pages (``PiratesPeak.report_figures``).

Each page is a pure *data* function (tested on its own) and a *drawing* function:

* ``pirates_peak_squid``: attempts per Giant Squid encounter (distribution and mean per
  seat) beside the exact geometric expectation, and the per-attempt escape, instant-move
  and life-loss rates (Wilson intervals) beside their exact values for the run's rules.
* ``pirates_peak_traps``: whirlpool escape per roll and spit-out per encounter vs exact,
  whirlpool rolls per encounter, fog success per turn and turns per fog stay vs exact,
  Ghost Ship summons and fights per seat-game.
* ``pirates_peak_treasure``: which Peak treasure each seat takes when first / second to
  the Peak, and the win rate by treasure x Peak order.

"How strong are the players" is the generic page of every report
(:mod:`pirate_sim.report.players`, which generalises ``pairings.py``).

What the squid counters mean (kernel ``turn_steps_nb``): every attempt rolls
``squid.dice`` dice; ``squid_escapes`` counts attempts whose total reaches
``squid.escape_total`` *or* ``squid.instant_total`` (the instant move is an escape too,
also counted in ``squid_instant``); ``squid_life_losses`` counts failed attempts whose
total is at most ``squid.life_loss_total``.  A sacrifice is *not* an attempt and not an
escape: it ends the encounter after a failed attempt (``squid.sacrifice_after`` failed
attempts or more, a crewman aboard, the seat's policy).  So escapes / attempts estimates
P(total >= min(escape_total, instant_total)) exactly, whatever the sacrifice policy.
"""

from __future__ import annotations

import math
import textwrap
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from ...report import footnote
from ...seating import rotates
from ...report.parts import Parts, tally
from ...stats import Estimate, mean_ci, wilson
from ...stats import ratio_ci as delta_ratio_ci
from . import rules as R
from .odds import dice_totals, fog_exact, whirlpool_exact

SQUID_COLS = (
    "squid_encounters",
    "squid_attempts",
    "squid_escapes",
    "squid_instant",
    "squid_life_losses",
    "squid_sacrifices",
)
TRAP_COLS = (
    "whirlpool_encounters",
    "whirlpool_attempts",
    "whirlpool_escapes",
    "whirlpool_spits",
    "fog_turns",
    "fog_escapes",
    "ghost_summons",
    "ghost_fights",
    "gold_to_sea_bank",
)
TREASURES = R.TREASURE_LABELS[1:]  # the three Peak treasures (not "none")
ORDERS = ((1, "first"), (2, "second"), (0, "never"))


def _full_rules(rules: dict) -> dict:
    full = R.defaults()
    full.update(rules or {})
    return full


def ratio_moments(num: str, den: str) -> list[str]:
    """The tally values :func:`ratio_ci` needs: both sums, both sums of squares, the cross product."""
    return [num, den, f"{num}*{num}", f"{den}*{den}", f"{num}*{den}"]


def ratio_ci(t, num: str, den: str) -> Estimate:
    """sum(num) / sum(den) over independent units (seat-games), delta-method 95% interval.

    ``t`` is one row of a tally (``n`` seat-games and the sums of :func:`ratio_moments`);
    ``Estimate.n`` is the denominator's total (e.g. encounters).
    """
    s = int(t[den])
    if s <= 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0, "ratio")
    r = int(t[num]) / s
    if t["n"] < 2:
        return Estimate(r, r, r, s, "ratio")
    e = delta_ratio_ci(*(int(t[v]) for v in ratio_moments(num, den)), int(t["n"]))
    return Estimate(r, e.lo, e.hi, s, "ratio")


def _seat_labels(t, seats: list[dict] | None) -> list[tuple[int, str]]:
    """(seat, strategy) in seat order; ``t`` is a tally grouped by ``seat`` and ``strategy``."""
    names: dict[int, list[str]] = {}
    for seat, strategy in zip(t.index.get_level_values("seat"), t.index.get_level_values("strategy")):
        names.setdefault(int(seat), []).append(str(strategy))
    out = []
    for i in sorted(names):
        if seats and i < len(seats) and seats[i]:
            name = str(seats[i]["strategy"])
        else:  # strategies rotate over the seats: every one that sat here
            name = "/".join(dict.fromkeys(names[i]))
        out.append((i, name))
    return out


def _per_seat(t):
    """A seat x strategy tally summed per seat (a seat plays one strategy all run)."""
    return t.groupby(level="seat").sum()


def _z(obs: Estimate, p: float) -> float:
    """(observed - exact) in binomial standard errors of the exact value."""
    if obs.n <= 0 or not np.isfinite(obs.value):
        return float("nan")
    sd = math.sqrt(max(p * (1 - p), 1e-300) / obs.n)
    return (obs.value - p) / sd


# ------------------------------------------------------------------ 1. squid


def squid_exact(rules: dict) -> dict[str, Any]:
    """Exact per-attempt odds and attempts per encounter for the rules (Fractions and floats)."""
    full = _full_rules(rules)
    n_dice = int(full["squid.dice"])
    esc, inst = int(full["squid.escape_total"]), int(full["squid.instant_total"])
    life, k = int(full["squid.life_loss_total"]), int(full["squid.sacrifice_after"])
    dist = dice_totals(n_dice)
    passes = min(esc, inst)
    p = sum((q for t, q in dist.items() if t >= passes), Fraction(0))
    p_inst = sum((q for t, q in dist.items() if t >= inst), Fraction(0))
    p_life = sum((q for t, q in dist.items() if t < passes and t <= life), Fraction(0))
    q = 1 - p
    e_nosac = float(1 / p) if p > 0 else float("inf")
    e_sac = float((1 - q**k) / p) if p > 0 else float(k)
    return {
        "dice": n_dice,
        "escape_total": esc,
        "instant_total": inst,
        "life_total": life,
        "sacrifice_after": k,
        "p_escape": float(p),
        "p_instant": float(p_inst),
        "p_life": float(p_life),
        "p_escape_frac": p,
        "attempts_no_sacrifice": e_nosac,
        "attempts_sacrifice_asap": e_sac,
    }


def resolve_seats(seats: list[dict] | None) -> list[dict] | None:
    """Each seat's parameters with its strategy's defaults filled in (a scenario names only
    what it changes, e.g. a gunner sacrifices crew by default)."""
    if seats is None:
        return None
    from .strategies import STRATEGIES

    by_name = {st.name: st for st in STRATEGIES}
    out = []
    for seat in seats:
        if seat is None:  # a seat without one strategy (they rotate): nothing to fill
            out.append(None)
            continue
        full = {p.key: p.default for p in getattr(by_name.get(seat.get("strategy")), "params", ())}
        full.update(seat)
        out.append(full)
    return out


def _sacrifice_policy(seat: dict | None) -> str:
    if not seat:
        return "?"
    if seat.get("strategy") == "random":
        return "half the time"
    return "yes" if seat.get("sacrifice_crew") else "no"


ENDED = "squid_ended"  # a virtual tally value: encounters ended by an escape or a sacrifice
_ENDED_MOMENTS = ["squid_escapes", "squid_sacrifices", "squid_escapes*squid_escapes",
                  "squid_sacrifices*squid_sacrifices", "squid_escapes*squid_sacrifices",
                  "squid_attempts*squid_escapes", "squid_attempts*squid_sacrifices"]


def _with_ended(t):
    """Add the moments of ended = escapes + sacrifices (per seat-game) to a tally row, from
    those of its two terms: the tally adds columns and products, not sums of columns."""
    t = t.copy()
    e, s = "squid_escapes", "squid_sacrifices"
    t[ENDED] = t[e] + t[s]
    t[f"{ENDED}*{ENDED}"] = t[f"{e}*{e}"] + 2 * t[f"{e}*{s}"] + t[f"{s}*{s}"]
    t[f"squid_attempts*{ENDED}"] = t[f"squid_attempts*{e}"] + t[f"squid_attempts*{s}"]
    return t


def squid_exact_per_seat(ex: dict, policy: str) -> float:
    """Exact attempts per encounter of a seat that never sacrifices; nan for the others (a
    sacrifice needs a crewman aboard, so their length depends on the game, not just the dice)."""
    return ex["attempts_no_sacrifice"] if policy == "no" else float("nan")


def squid_data(seats_df, rules: dict, seats: list[dict] | None = None) -> dict[str, Any]:
    """Observed squid figures (all seats and per seat) beside :func:`squid_exact`.

    ``seats_df``: :class:`Parts` (or a DataFrame) with ``seat``, ``strategy`` and
    :data:`SQUID_COLS`.  Keys: ``exact``,
    ``totals`` (column sums, ``unresolved`` = encounters not ended by an escape or a
    sacrifice, i.e. cut short by the end of the game), ``escape``/``instant``/``life``
    (Wilson per attempt), ``z_*`` (observed - exact in standard errors), ``per_seat``
    (label, sacrifice policy, attempts per encounter).

    Attempts per encounter, censoring-aware (``attempts_per_ended``): every attempt over
    the encounters that *ended* (escape or sacrifice).  The plain attempts / encounters
    (``attempts_per_encounter``) runs low: the encounters the game's end cuts off are the
    long ones, counted with the attempts they had so far.  Counting their attempts but not
    the encounters is the usual estimate for lengths cut off by an independent end; it is
    exact in expectation when the chance per attempt is constant (no sacrifices).
    """
    seats = resolve_seats(seats)
    parts = Parts.of(seats_df)
    ex = squid_exact(rules)
    ratio = ratio_moments("squid_attempts", "squid_encounters")
    t = parts.tally(["seat", "strategy"], [*SQUID_COLS, *ratio, *_ENDED_MOMENTS])
    by_seat = _with_ended(_per_seat(t))
    all_seats = _with_ended(_per_seat(t).sum())
    tot = {c: int(all_seats[c]) for c in SQUID_COLS}
    tot["unresolved"] = tot["squid_encounters"] - tot["squid_escapes"] - tot["squid_sacrifices"]
    att = tot["squid_attempts"]
    out: dict[str, Any] = {
        "exact": ex,
        "totals": tot,
        "n_seat_games": int(all_seats["n"]),
        "escape": wilson(tot["squid_escapes"], att),
        "instant": wilson(tot["squid_instant"], att),
        "life": wilson(tot["squid_life_losses"], att),
        "attempts_per_encounter": ratio_ci(all_seats, "squid_attempts", "squid_encounters"),
        "attempts_per_ended": ratio_ci(all_seats, "squid_attempts", ENDED),
    }
    out["z_escape"] = _z(out["escape"], ex["p_escape"])
    out["z_instant"] = _z(out["instant"], ex["p_instant"])
    out["z_life"] = _z(out["life"], ex["p_life"])
    per = []
    for i, name in _seat_labels(t, seats):
        d = by_seat.loc[i]
        policy = _sacrifice_policy(seats[i] if seats and i < len(seats) else None)
        per.append(
            {
                "seat": i,
                "strategy": name,
                "sacrifice": policy,
                "encounters": int(d["squid_encounters"]),
                "attempts": int(d["squid_attempts"]),
                "sacrifices": int(d["squid_sacrifices"]),
                "unresolved": int(d["squid_encounters"] - d["squid_escapes"] - d["squid_sacrifices"]),
                "attempts_per_encounter": ratio_ci(d, "squid_attempts", "squid_encounters"),
                "attempts_per_ended": ratio_ci(d, "squid_attempts", ENDED),
                # a seat that did sacrifice is no geometric case, whatever its parameters say
                "attempts_exact": squid_exact_per_seat(ex, policy) if d["squid_sacrifices"] == 0 else float("nan"),
            }
        )
    out["per_seat"] = per
    return out


def _pair_bars(ax, labels, obs: list[Estimate], exact: list[float], colour, pct=True, fmt="{:.1f}"):
    """Observed bars with 95% CI whiskers beside hatched exact bars."""
    k = 100.0 if pct else 1.0
    pos = np.arange(len(labels))
    w = 0.38
    vals = np.array([e.value for e in obs]) * k
    err = np.clip(
        np.array([[e.value - e.lo for e in obs], [e.hi - e.value for e in obs]]) * k, 0, None
    )
    ax.bar(pos - w / 2, vals, w, yerr=err, color=colour, alpha=0.85, capsize=4, label="observed (95% CI)")
    ex = np.array(exact, dtype=float) * k
    ax.bar(pos + w / 2, np.nan_to_num(ex), w, color="white", edgecolor="dimgrey", hatch="//", label="exact")
    unit = "%" if pct else ""
    for p_, v, h in zip(pos, vals, err[1]):
        if np.isfinite(v):
            ax.text(p_ - w / 2, v + h, fmt.format(v) + unit, ha="center", va="bottom", fontsize=7.5)
    for p_, v in zip(pos, ex):
        ax.text(p_ + w / 2, v if np.isfinite(v) else 0, fmt.format(v) + unit if np.isfinite(v) else "no exact\nvalue",
                ha="center", va="bottom", fontsize=7.5, color="dimgrey")
    ax.set_xticks(pos, labels, fontsize=8)
    both = np.concatenate([vals + err[1], ex])
    both = both[np.isfinite(both)]
    top = both.max() if both.size else 1.0
    if np.isfinite(top) and top > 0:
        ax.set_ylim(0, top * 1.3)
    ax.legend(fontsize=7.5, loc="upper right")


PAGE = (11.0, 8.5)  # a landscape Letter page


def draw_squid(data: dict):
    import matplotlib.pyplot as plt

    from ...report import COLOURS
    from ...report.checks import declare_exact

    ex = data["exact"]
    fig, (a2, a3) = plt.subplots(2, 1, figsize=PAGE, gridspec_kw={"hspace": 0.55})
    per = data["per_seat"]

    # (a) attempts per encounter, censoring-aware, per seat vs the exact expectation of its policy
    labels = [
        f"seat {s['seat']} {s['strategy']}\nsacrifices: {s['sacrifice']}; "
        f"{s['encounters']:,} enc., {s['unresolved']:,} cut short"
        for s in per
    ]
    _pair_bars(a2, labels, [s["attempts_per_ended"] for s in per], [s["attempts_exact"] for s in per],
               COLOURS[0], pct=False, fmt="{:.2f}")
    for s, lab in zip(per, labels):
        if np.isfinite(s["attempts_exact"]):
            declare_exact(fig, f"squid attempts per encounter, {lab.splitlines()[0]}", s["attempts_per_ended"],
                          s["attempts_exact"])
    a2.set(
        title="Attempts per squid encounter: every attempt / encounters that ended (95% CI)\n"
        f"exact, never sacrificing: 1/p = {ex['attempts_no_sacrifice']:.2f} (sacrificing after "
        f"{ex['sacrifice_after']} fails with a crewman always aboard would give "
        f"{ex['attempts_sacrifice_asap']:.2f})",
        ylabel="attempts per encounter",
        xlabel="seat, strategy and its sacrifice policy",
    )
    a2.title.set_fontsize(9.5)

    # (b) per-attempt rates vs exact
    t = data["totals"]
    lab = [
        (
            f"escape (total >= {min(ex['escape_total'], ex['instant_total'])})\n"
            f"{t['squid_escapes']:,} of {t['squid_attempts']:,}; z = {data['z_escape']:+.1f}"
        ),
        (
            f"instant move (total >= {ex['instant_total']})\n"
            f"{t['squid_instant']:,} of {t['squid_attempts']:,}; z = {data['z_instant']:+.1f}"
        ),
        (
            f"life point lost (fail, total <= {ex['life_total']})\n"
            f"{t['squid_life_losses']:,} of {t['squid_attempts']:,}; z = {data['z_life']:+.1f}"
        ),
    ]
    obs = [data["escape"], data["instant"], data["life"]]
    exact = [ex["p_escape"], ex["p_instant"], ex["p_life"]]
    _pair_bars(a3, lab, obs, exact, COLOURS[0], fmt="{:.2f}")
    for text, o, e in zip(lab, obs, exact):
        declare_exact(fig, f"squid per attempt: {text.splitlines()[0]}", o, e)
    a3.set(
        title=f"Per attempt ({ex['dice']} dice): observed (Wilson 95% CI) beside the exact value",
        ylabel="attempts (%)",
        xlabel="outcome of one attempt",
    )
    fig.suptitle(
        f"Giant Squid: {t['squid_encounters']:,} encounters, {t['squid_attempts']:,} attempts, "
        f"{t['squid_sacrifices']:,} sacrifices, {t['unresolved']:,} cut short by the game's end "
        f"({data['n_seat_games']:,} seat-games)",
        fontsize=11,
    )
    plain = data["attempts_per_encounter"]
    footnote(
        fig,
        "Escapes include the instant move; a sacrifice is neither an attempt nor an escape. "
        "z = (observed - exact) / binomial standard error.\n"
        "Encounters still on when the game ends are the long ones: attempts / all encounters "
        f"({plain.value:.2f}) would read low against the exact value, so the top panel counts their attempts "
        "but only the encounters that ended.",
    )
    fig.subplots_adjust(left=0.08, right=0.98, top=0.9, bottom=0.16)
    return fig


# ------------------------------------------------------------------ 2. traps


def _fog_p(seat: dict | None, tolerance: int) -> float:
    """Exact fog success per turn for the seat's guess (random strategy: a uniform guess;
    no seat parameters, e.g. strategies rotating over the seats: none)."""
    ex = fog_exact(tolerance)
    if seat is None:
        return float("nan")
    if seat.get("strategy") == "random" or "fog_guess" not in seat:
        return float(sum(ex) / 6)
    g = int(seat["fog_guess"])
    return float(ex[g - 1]) if 1 <= g <= 6 else float("nan")


GHOST_COLS = ("ghost_summons", "ghost_fights")
PER_SEAT_MEANS = (*GHOST_COLS, "gold_to_sea_bank")  # means per seat-game, normal 95% CI


def _ghost_per_game(d):
    """Sums and sums of squares of per-game Ghost Ship totals (both seats): a part holds whole games."""
    g = tally(d, ["game"], GHOST_COLS)
    return tally(g, values=[*GHOST_COLS, *(f"{c}*{c}" for c in GHOST_COLS)])


def whirlpool_censoring_aware(escape: Estimate, max_attempts: int) -> tuple[Estimate, Estimate]:
    """Spit-out share and rolls per encounter from the escape chance per roll.

    Every roll counts, those of encounters the game's end cut short included, so the end of
    the game does not bias them; a plain share among finished encounters does (the long
    stays, the ones that end in a spit-out, are the ones cut off).  Both are monotone in the
    escape chance, so its Wilson interval maps to theirs.
    """
    L = max_attempts

    def spit(p):
        return (1 - p) ** L

    def rolls(p):
        return (1 - (1 - p) ** L) / p if p > 0 else float(L)

    n = escape.n
    return (Estimate(spit(escape.value), spit(escape.hi), spit(escape.lo), n, "from the per-roll Wilson interval"),
            Estimate(rolls(escape.value), rolls(escape.hi), rolls(escape.lo), n, "from the per-roll Wilson interval"))


def traps_data(seats_df, rules: dict, seats: list[dict] | None = None) -> dict[str, Any]:
    """Whirlpool, fog and Ghost Ship figures beside their exact values.

    ``seats_df``: :class:`Parts` (or a DataFrame) with ``game``, ``seat``, ``strategy`` and
    :data:`TRAP_COLS`.
    Whirlpool: escape per roll vs P(die >= escape_roll); spit-outs per *resolved*
    encounter (escaped or spat out) vs (1-p)^max_attempts; rolls per encounter vs
    (1-(1-p)^L)/p.  Fog (encounters are not counted, so a stay = a successful guess):
    success per turn vs the seat's guess, turns per stay vs 1/p.  Ghost Ship: means per
    seat-game and per game.
    """
    seats = resolve_seats(seats)
    parts = Parts.of(seats_df)
    full = _full_rules(rules)
    L = int(full["whirlpool.max_attempts"])
    p_w = float(whirlpool_exact(int(full["whirlpool.escape_roll"]), 1)[0])
    q_w = 1 - p_w
    values = [
        *TRAP_COLS,
        *ratio_moments("whirlpool_attempts", "whirlpool_encounters"),
        *ratio_moments("fog_turns", "fog_escapes"),
        *(f"{c}*{c}" for c in PER_SEAT_MEANS),
    ]
    t = parts.tally(["seat", "strategy"], values)
    by_seat = _per_seat(t)
    all_seats = by_seat.sum()
    tot = {c: int(all_seats[c]) for c in TRAP_COLS}
    resolved = tot["whirlpool_escapes"] + tot["whirlpool_spits"]
    tot["whirlpool_unresolved"] = tot["whirlpool_encounters"] - resolved
    ex = {
        "whirlpool_escape": p_w,
        "whirlpool_spit": q_w**L,
        "whirlpool_attempts": (1 - q_w**L) / p_w if p_w > 0 else float(L),
        "max_attempts": L,
        "escape_roll": int(full["whirlpool.escape_roll"]),
        "fog_tolerance": int(full["fog.tolerance"]),
    }
    out: dict[str, Any] = {
        "exact": ex,
        "totals": tot,
        "n_seat_games": int(all_seats["n"]),
        "whirlpool_escape": wilson(tot["whirlpool_escapes"], tot["whirlpool_attempts"]),
        "whirlpool_spit": wilson(tot["whirlpool_spits"], resolved),
        "whirlpool_attempts": ratio_ci(all_seats, "whirlpool_attempts", "whirlpool_encounters"),
    }
    out["whirlpool_spit_censored"], out["whirlpool_attempts_censored"] = whirlpool_censoring_aware(
        out["whirlpool_escape"], L)
    out["z_whirlpool_escape"] = _z(out["whirlpool_escape"], p_w)
    out["z_whirlpool_spit"] = _z(out["whirlpool_spit"], q_w**L)
    per = []
    for i, name in _seat_labels(t, seats):
        d = by_seat.loc[i]
        seat = seats[i] if seats and i < len(seats) else None
        p_f = _fog_p(seat, ex["fog_tolerance"])
        row = {
            "seat": i,
            "strategy": name,
            "n": int(d["n"]),
            "fog_guess": "mixed" if seat is None
            else "random" if seat.get("strategy") == "random"
            else seat.get("fog_guess", "?"),
            "fog_p_exact": p_f,
            "fog_turns_exact": 1 / p_f if p_f > 0 else float("nan"),  # no exact value without a guess
            "fog_success": wilson(int(d["fog_escapes"]), int(d["fog_turns"])),
            "fog_turns_per_stay": ratio_ci(d, "fog_turns", "fog_escapes"),
        }
        for c in PER_SEAT_MEANS:
            row[c] = mean_ci(float(d[c]), float(d[f"{c}*{c}"]), int(d["n"]))
        per.append(row)
    out["per_seat"] = per
    g = parts.fold(_ghost_per_game, ["game", *GHOST_COLS]).iloc[0]
    for c in GHOST_COLS:
        out[f"{c}_per_game"] = mean_ci(float(g[c]), float(g[f"{c}*{c}"]), int(g["n"]))
    out["n_games"] = int(g["n"])
    return out


def draw_traps(data: dict):
    import matplotlib.pyplot as plt

    from ...report import COLOURS
    from ...report.checks import declare_exact, explain_empty

    ex, t, per = data["exact"], data["totals"], data["per_seat"]
    fig, axes = plt.subplots(2, 2, figsize=PAGE)
    (a1, a2), (a3, a4) = axes
    L = ex["max_attempts"]
    resolved = t["whirlpool_escapes"] + t["whirlpool_spits"]
    esc, spit, rolls = data["whirlpool_escape"], data["whirlpool_spit_censored"], data["whirlpool_attempts_censored"]
    labels1 = [
        f"escape per roll (die >= {ex['escape_roll']})\n{t['whirlpool_escapes']:,} of "
        f"{t['whirlpool_attempts']:,} rolls",
        f"spat out per encounter\n(1 - escape per roll)^{L}",
    ]
    _pair_bars(a1, labels1, [esc, spit], [ex["whirlpool_escape"], ex["whirlpool_spit"]], COLOURS[4])
    declare_exact(fig, "whirlpool escape per roll", esc, ex["whirlpool_escape"])
    declare_exact(fig, "whirlpool spat out per encounter", spit, ex["whirlpool_spit"])
    declare_exact(fig, "whirlpool rolls per encounter", rolls, ex["whirlpool_attempts"])
    a1.set(
        title=f"Whirlpool: {t['whirlpool_encounters']:,} encounters; rolls per encounter "
        f"{rolls.value:.2f} [{rolls.lo:.2f}..{rolls.hi:.2f}],\nexact (1-(1-p)^{L})/p = "
        f"{ex['whirlpool_attempts']:.2f}; {t['whirlpool_unresolved']:,} encounters cut short by the end",
        ylabel="share (%)",
        xlabel="whirlpool outcome",
    )
    a1.title.set_fontsize(8.5)

    labels = [f"seat {s['seat']} {s['strategy']}\ncalls {s['fog_guess']}" for s in per]
    _pair_bars(a2, labels, [s["fog_success"] for s in per], [s["fog_p_exact"] for s in per], COLOURS[3])
    for s, lab in zip(per, labels):
        declare_exact(fig, f"fog success per turn, {lab.splitlines()[0]}", s["fog_success"], s["fog_p_exact"])
    a2.set(title=f"Fog: success per turn (guess within {ex['fog_tolerance']} of the die)",
           ylabel="fog turns escaped (%)", xlabel="seat, strategy and its fog guess")
    a2.title.set_fontsize(9.5)

    _pair_bars(a3, labels, [s["fog_turns_per_stay"] for s in per], [s["fog_turns_exact"] for s in per],
               COLOURS[3], pct=False, fmt="{:.2f}")
    for s, lab in zip(per, labels):
        declare_exact(fig, f"fog turns per stay, {lab.splitlines()[0]}", s["fog_turns_per_stay"],
                      s["fog_turns_exact"])
    a3.set(title="Fog: turns per fog stay (every fog turn / successful guesses; exact 1/p)",
           ylabel="turns in the fog per stay", xlabel="seat, strategy and its fog guess")
    a3.title.set_fontsize(9.5)

    gs, gf = data["ghost_summons_per_game"], data["ghost_fights_per_game"]
    a4.set(title=f"Ghost Ship per seat-game (95% CI)\nper game: {gs.value:.3f} summoned, {gf.value:.3f} fought",
           ylabel="per seat-game", xlabel="seat and strategy")
    a4.title.set_fontsize(9.5)
    if t["ghost_summons"] == 0 and t["ghost_fights"] == 0:
        a4.set_xticks([])
        a4.set_yticks([])
        a4.set(xlabel="", ylabel="")
        explain_empty(a4, f"No Ghost Ship was summoned in these {data['n_games']:,} games\n"
                          "(the seats' strategies never took the offer),\nso none was fought and no gold was lost to it.")
    else:
        _ghost_bars(a4, per)
    fig.suptitle(
        f"Traps: whirlpool, fog and the Ghost Ship ({data['n_seat_games']:,} seat-games; "
        "observed with 95% CI beside the exact value)",
        fontsize=11,
    )
    naive = data["whirlpool_spit"]
    footnote(
        fig,
        "Whirlpool figures come from every roll, including those of encounters still on when the game ended. "
        f"The plain share spat out among the {resolved:,} finished encounters\n({100 * naive.value:.1f}%) reads low: "
        "the long stays, the ones that end in a spit-out, are the ones the end of the game cuts off. "
        "Fog: every fog turn over the successful guesses, the same reasoning.",
    )
    fig.tight_layout(rect=(0, 0.05, 1, 0.95))
    return fig


def _ghost_bars(ax, per):
    from ...report import COLOURS

    pos = np.arange(len(per))
    w = 0.38
    for k, (col, lab, c) in enumerate((("ghost_summons", "summoned by this seat", COLOURS[1]),
                                       ("ghost_fights", "fought by this seat", COLOURS[5]))):
        ests = [s[col] for s in per]
        vals = np.array([x.value for x in ests])
        err = np.clip(np.array([[x.value - x.lo for x in ests], [x.hi - x.value for x in ests]]), 0, None)
        ax.bar(pos + (k - 0.5) * w, vals, w, yerr=err, capsize=4, color=c, alpha=0.85, label=lab)
        for p_, v, h in zip(pos, vals, err[1]):
            ax.text(p_ + (k - 0.5) * w, v + h, f"{v:.3f}", ha="center", va="bottom", fontsize=7.5)
    ax.set_xticks(pos, [f"seat {s['seat']} {s['strategy']}\ngold lost to the ghost "
                        f"{s['gold_to_sea_bank'].value:.2f}/game" for s in per], fontsize=8)
    ax.set_ylim(0, ax.get_ylim()[1] * 1.25)
    ax.legend(fontsize=7.5, loc="upper right")


# ------------------------------------------------------------------ 3. treasure


def treasure_data(seats_df, seats: list[dict] | None = None) -> dict[str, Any]:
    """Treasure picks per seat x Peak order, and win rate by treasure x Peak order.

    ``seats_df``: :class:`Parts` (or a DataFrame) with ``seat``, ``strategy``, ``won``,
    ``peak_treasure`` (labels or codes) and ``peak_order``.
    ``picks[(seat, order)] = {"n": arrivals, treasure: Wilson share}``;
    ``win[(treasure, order)] = Wilson win rate`` (order 0: never reached the Peak).
    """
    t = Parts.of(seats_df).tally(["seat", "strategy", "peak_order", "peak_treasure", "won"])
    labels = _seat_labels(t, seats)
    tre = t.index.get_level_values("peak_treasure")
    if pd.api.types.is_integer_dtype(tre.dtype):  # codes, not labels
        tre = tre.map(lambda c: R.TREASURE_LABELS[int(c)])
    rows = pd.DataFrame(
        {
            "seat": t.index.get_level_values("seat").astype(int),
            "order": t.index.get_level_values("peak_order").astype(int),
            "treasure": np.asarray(tre.astype(str)),
            "won": t.index.get_level_values("won").astype(bool),
            "n": t["n"].to_numpy(),
        }
    )

    def count(**where) -> int:
        m = np.ones(len(rows), bool)
        for k, v in where.items():
            m &= (rows[k] == v).to_numpy()
        return int(rows.loc[m, "n"].sum())

    picks = {}
    counts = {}
    for i, _name in labels:
        for o, _ in ORDERS[:2]:
            n = count(seat=i, order=o)
            row: dict[str, Any] = {"n": n}
            for tr in TREASURES:
                k = count(seat=i, order=o, treasure=tr)
                counts[(i, o, tr)] = k
                row[tr] = wilson(k, n)
            picks[(i, o)] = row
    win = {}
    for o, _ in ORDERS:
        for tr in TREASURES if o else ("none",):
            win[(tr, o)] = wilson(count(order=o, treasure=tr, won=True), count(order=o, treasure=tr))
    return {
        "seats": labels,
        "picks": picks,
        "counts": counts,
        "win": win,
        "n_seat_games": int(rows["n"].sum()),
        "arrivals": {o: count(order=o) for o, _ in ORDERS},
    }


def draw_treasure(data: dict):
    import matplotlib.pyplot as plt

    from ...report import COLOURS

    groups = [(i, name, o, oname) for i, name in data["seats"] for o, oname in ORDERS[:2]]
    fixed = fixed_picks(data)
    if len(fixed) == len([g for g in groups if data["picks"][(g[0], g[2])]["n"]]):
        # every seat always takes the same treasure in each Peak order: a strategy's fixed choice,
        # which bars of 100% (or a panel of text) would only restate: one panel, the choice said above it
        fig, a2 = plt.subplots(figsize=PAGE)
        choices = {}
        for i, name, o, oname in groups:
            if (i, o) in fixed:
                choices.setdefault((name, oname), set()).add(fixed[(i, o)].replace("_", " "))
        said = "; ".join(f"{name} {oname} to the Peak: always {', '.join(sorted(v))}"
                         for (name, oname), v in choices.items())
        _treasure_wins(fig, a2, data, subtitle="Which treasure is taken is each strategy's fixed choice: "
                       + said)
        return fig
    fig, (a1, a2) = plt.subplots(1, 2, figsize=PAGE, gridspec_kw={"width_ratios": [1.25, 1]})
    pos = np.arange(len(groups))
    w = 0.8 / len(TREASURES)
    for k, t in enumerate(TREASURES):
        ests = [data["picks"][(i, o)][t] for i, _n, o, _on in groups]
        vals = np.array([e.value if np.isfinite(e.value) else 0.0 for e in ests]) * 100
        err = np.clip(
            np.array([[e.value - e.lo for e in ests], [e.hi - e.value for e in ests]]) * 100,
            0,
            None,
        )
        err = np.nan_to_num(err)
        x = pos + (k - 1) * w
        a1.bar(
            x, vals, w, yerr=err, capsize=3, color=COLOURS[k], alpha=0.85, label=t.replace("_", " ")
        )
        for xx, v in zip(x, vals):
            if v >= 0.5:
                a1.text(xx, v + 1, f"{v:.0f}", ha="center", va="bottom", fontsize=7)
    a1.set_xticks(
        pos,
        [
            # strategies rotating over the seats ("a/b") get a line each, so ticks stay narrow
            f"seat {i} {name}".replace("/", "/\n") + f"\n{oname} to the Peak\n(n={data['picks'][(i, o)]['n']:,})"
            for i, name, o, oname in groups
        ],
        fontsize=7.5,
    )
    a1.set_ylim(0, 115)
    a1.set(title="Which treasure is taken (share of arrivals, 95% CI)", ylabel="arrivals (%)",
           xlabel="seat, strategy and Peak order")
    a1.legend(fontsize=8, loc="upper right")
    _treasure_wins(fig, a2, data)
    return fig


def fixed_picks(data: dict) -> dict[tuple[int, int], str]:
    """(seat, order) -> the one treasure taken on every arrival, where the choice never varies."""
    out = {}
    for (i, o), row in data["picks"].items():
        n = row["n"]
        for tr in TREASURES:
            if n and data["counts"][(i, o, tr)] == n:
                out[(i, o)] = tr
    return out


def _treasure_wins(fig, a2, data, subtitle: str = ""):
    """The win rate by treasure x Peak order panel, the page's title and note."""
    from ...report import COLOURS

    cases = [(t, o) for t in TREASURES for o, _ in ORDERS[:2]] + [("none", 0)]
    keep = [c for c in cases if data["win"][c].n > 0]
    oname = dict(ORDERS)
    ests = [data["win"][c] for c in keep]
    vals = np.array([e.value for e in ests]) * 100
    err = np.clip(
        np.array([[e.value - e.lo for e in ests], [e.hi - e.value for e in ests]]) * 100, 0, None
    )
    p2 = np.arange(len(keep))
    cols = [COLOURS[TREASURES.index(t)] if t in TREASURES else "grey" for t, _o in keep]
    a2.bar(p2, vals, yerr=err, capsize=4, color=cols, alpha=0.85)
    for p_, v, h in zip(p2, vals, err[1]):
        a2.text(p_, v + h + 1, f"{v:.1f}%", ha="center", va="bottom", fontsize=7.5)
    a2.axhline(50, color="grey", ls="--", lw=1, label="fair share (2 seats)")
    a2.set_xticks(
        p2,
        [
            (f"{t.replace('_', ' ')}\n{oname[o]}" if o else "never reached\nthe Peak")
            + f"\n(n={data['win'][(t, o)].n:,})"
            for t, o in keep
        ],
        fontsize=7.5,
    )
    a2.set_ylim(0, 115)
    a2.set(title="Win rate by treasure x Peak order (95% CI)", ylabel="seat-games won (%)",
           xlabel="treasure taken and Peak order")
    a2.legend(fontsize=8, loc="upper right")
    ar = data["arrivals"]
    fig.suptitle(
        f"Pirate's Peak treasures ({data['n_seat_games']:,} seat-games: {ar[1]:,} first arrivals, "
        f"{ar[2]:,} second, {ar[0]:,} never reached the Peak)"
        + ("\n" + "\n".join(textwrap.wrap(subtitle, 140)) if subtitle else ""),
        fontsize=11,
    )
    footnote(
        fig,
        "Association, not causation: who gets to the Peak first and what they take depend "
        "on the strategy.",
    )
    fig.tight_layout(rect=(0, 0.03, 1, 0.95 - (0.035 if subtitle else 0)))


# ------------------------------------------------------------------ the hook


def _scenario_seats(ctx) -> list[dict] | None:
    from ...results import SCENARIO
    from ...scenario import load

    try:
        return list(load(ctx.results_dir / SCENARIO).seats)
    except Exception:  # noqa: BLE001 - pages still draw without the seat parameters
        return None


def report_figures(game, ctx) -> list:
    """The three Pirate's Peak pages for :meth:`PiratesPeak.report_figures`."""
    seats = _scenario_seats(ctx)
    if seats and rotates(ctx.rules) and any(x != resolve_seats(seats)[0] for x in resolve_seats(seats)[1:]):
        seats = [None] * len(seats)  # every seat plays each entry in turn: no one seat's parameters
    parts = ctx.parts("seats")  # each page folds over the parts, reading only its columns
    return [
        ("pirates_peak_squid", draw_squid(squid_data(parts, ctx.rules, seats))),
        ("pirates_peak_traps", draw_traps(traps_data(parts, ctx.rules, seats))),
        ("pirates_peak_treasure", draw_treasure(treasure_data(parts, seats))),
    ]  # how strong are the players: the generic page of every report (pirate_sim/report/players.py)


# ------------------------------------------------------------------ notes for the generic pages


def supply_dry_data(games) -> dict[str, Any]:
    """Games whose box of gold ran dry (``supply_dry_turn`` > 0) and the median turn it first did
    (the lower middle one of an even count)."""
    t = Parts.of(games).tally(["supply_dry_turn"])
    dry = t[t.index > 0]
    n, k = int(t["n"].sum()), int(dry["n"].sum())
    median = None
    if k:
        c = np.cumsum(dry["n"].to_numpy())
        median = int(dry.index[np.searchsorted(c, (k + 1) // 2 if k % 2 else k // 2)])
    return {"games": n, "dry": wilson(k, n), "dry_games": k, "median_turn": median}


def event_notes(ctx) -> dict[str, str]:
    """What the generic event page says beside ``unpaid_gold``: the box ran dry, how often, when."""
    if "events.unpaid_gold" not in ctx.est or ctx.est["events.unpaid_gold"].value == 0:
        return {}
    d = supply_dry_data(ctx.parts("games"))
    e = d["dry"]
    full = _full_rules(ctx.rules)
    when = f", first at turn {d['median_turn']} (median)" if d["median_turn"] is not None else ""
    return {"unpaid_gold": (
        f"gold owed to the players that the box could not pay: its {full.get('gold.supply', '?')} gold "
        f"(gold.supply) ran dry in {100 * e.value:.1f}% [{100 * e.lo:.1f}, {100 * e.hi:.1f}] of games{when}, "
        "so searches and sales paid less than their value from then on")}
