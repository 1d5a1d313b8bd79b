"""Ice Pirates' own report pages (``IcePirates.report_figures``).

Each page is a pure *data* function (tested on its own) and a *drawing* function:

* ``ice_pirates_bay_visits``: hex map of the bay coloured by mean ship entries per game.
* ``ice_pirates_upgrade_value``: win rate of seat-games that took each upgrade vs those
  that did not (Wilson intervals) and the difference (Newcombe interval).  Association,
  not causation.
* ``ice_pirates_raid_odds``: exact P(raider wins), raider crew 1..7 x defender crew 1..7,
  single exchange / with swashbuckling, without / with a raider's Cannon, under the
  run's rules.
* ``ice_pirates_players``: game length and per-seat win rates for 2..6 players, from a
  small side simulation (``SIDE_GAMES`` games per player count, the run's rules and
  seed, seats filled by cycling the run's strategy line-up).
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import pandas as pd

from ... import metrics
from ...games.base import G_FIRST_SEAT
from ...report.parts import Parts, tally
from ...stats import Estimate, proportion_diff, wilson
from . import rules as R

PAGE = (11.0, 8.5)  # inches: every report page is landscape US Letter

SIDE_GAMES = 4000  # games per player count in the players page's side simulation
QUICK_SIDE_GAMES = 200  # the same in tests' quick reports (ReportContext.quick)
SIDE_PLAYERS = (2, 3, 4, 5, 6)
RAID_SAMPLES = 2000  # Monte Carlo samples per raid case (only the exact column is drawn)
QUICK_RAID_SAMPLES = 100  # the same in tests' quick reports
UPGRADES = tuple(f"upg_{u}" for u in R.UPGRADE_NAMES) + ("extra_crew",)
NOTE_ASSOC = ("Association, not causation: ships that take upgrades differ in strategy and "
              "situation (strong players take more upgrades).")

_SQ3 = math.sqrt(3.0)


# ------------------------------------------------------------------ 1. bay visits

def hex_xy(q: int, r: int) -> tuple[float, float]:
    """Centre of a flat-topped hex (circumradius 1) at axial (q, r); north (r small) up."""
    return 1.5 * q, -_SQ3 * (r + q / 2.0)


def bay_visits_data(games_df, hex_cells) -> dict[str, Any]:
    """Mean ship entries per game of each cell: ``{"cells": [(i, q, r, name)], "mean": [...], "n": games}``.

    ``games_df``: :class:`Parts` (or a DataFrame) with the ``visits_cell_NN`` columns.
    """
    cols = [f"visits_cell_{i:02d}" for i, _q, _r, _name in hex_cells]
    t = Parts.of(games_df).tally(values=cols).iloc[0]
    n = int(t["n"])
    mean = np.array([int(t[c]) / n if n else float("nan") for c in cols])
    return {"cells": list(hex_cells), "mean": mean, "n": n}


def _port_label(k: int, rules: dict) -> str:
    ports = rules.get("map.ports", R.DEFAULT_PORTS)
    upg = str(ports[k]).replace("_", " ") if k < len(ports) else "?"
    hg = int(rules.get("map.harbour_grace", 6)) - 1
    return f"Port {k + 1} ({R.DIR_NAMES[k]})\n{R.PORT_NAMES[k]}\n{upg}" + ("\n(finish here)" if k == hg else "")


def draw_bay_visits(data: dict, rules: dict):
    import matplotlib.pyplot as plt
    from matplotlib import cm, colors
    from matplotlib.patches import RegularPolygon

    fig, ax = plt.subplots(figsize=PAGE)
    vals = data["mean"]
    finite = vals[np.isfinite(vals)]
    vmax = float(finite.max()) if finite.size and finite.max() > 0 else 1.0
    norm = colors.Normalize(vmin=0.0, vmax=vmax)
    cmap = plt.get_cmap("YlGnBu")
    hg = int(rules.get("map.harbour_grace", 6)) - 1
    for (i, q, r, _name), v in zip(data["cells"], vals):
        x, y = hex_xy(q, r)
        special = i == R.BELL_CELL or i in R.CORNER_CELLS
        ax.add_patch(RegularPolygon((x, y), numVertices=6, radius=0.97, orientation=math.pi / 6,
                                    facecolor=cmap(norm(v)) if np.isfinite(v) else "white",
                                    edgecolor="black" if special else "grey", lw=2.0 if special else 0.6))
        dark = np.isfinite(v) and norm(v) > 0.6
        tc = "white" if dark else "black"
        name = "Bell Island" if i == R.BELL_CELL else (f"Port {R.CORNER_CELLS.index(i) + 1}" if special else f"{i:02d}")
        ax.text(x, y + 0.25, name, ha="center", va="center", fontsize=7 if special else 6, color=tc,
                weight="bold" if special else "normal", alpha=1.0 if special else 0.7)
        ax.text(x, y - 0.18, f"{v:.2f}", ha="center", va="center", fontsize=7.5, color=tc)
        if i in R.CORNER_CELLS:  # the Port's name and upgrade outside the map, beside its corner
            k = R.CORNER_CELLS.index(i)
            if k in (0, 3):  # north and south corners: above / below
                pos = {"x": x, "y": y + (1.0 if k == 0 else -1.0), "ha": "center",
                       "va": "bottom" if k == 0 else "top"}
            else:  # the four side corners: beside, away from the map
                pos = {"x": x + (1.05 if x > 0 else -1.05), "y": y, "ha": "left" if x > 0 else "right",
                       "va": "center"}
            ax.text(s=_port_label(k, rules), fontsize=7.5, color="#7f0000" if k == hg else "black",
                    weight="bold" if k == hg else "normal", **pos)
    # open water lies beyond the escape edge (between two adjacent corners)
    a, b = (int(c) - 1 for c in rules.get("map.escape_corners", [1, 2]))
    if 0 <= a < 6 and 0 <= b < 6 and (a - b) % 6 in (1, 5):
        edge = R.edge_cells(a, b)
        ex = float(np.mean([hex_xy(*R.CELLS[c])[0] for c in edge]))
        ey = float(np.mean([hex_xy(*R.CELLS[c])[1] for c in edge]))
        f = 1.0 + 2.6 / math.hypot(ex, ey)  # clear of the edge cells' labels
        ax.text(ex * f, ey * f, "open water (escape edge)", rotation=math.degrees(math.atan2(-ex, ey)),
                ha="center", va="center", fontsize=9, style="italic", color="#1f4e79")
    ax.annotate("N", xy=(-8.0, 6.6), xytext=(-8.0, 5.3), ha="center", fontsize=11, weight="bold",
                arrowprops={"arrowstyle": "->", "lw": 1.5})
    ax.set_xlim(-9.2, 9.2)
    ax.set_ylim(-7.2, 7.2)
    ax.set_aspect("equal")
    ax.set_xlabel("west  <->  east (hex columns)")
    ax.set_ylabel("south  <->  north")
    ax.set_xticks([])
    ax.set_yticks([])
    sm = cm.ScalarMappable(norm=norm, cmap=cmap)
    cb = fig.colorbar(sm, ax=ax, shrink=0.75, pad=0.02)
    cb.set_label("mean ship entries into the cell per game (all ships)")
    ax.set_title(f"Where the ships sail: visits per cell, mean of {data['n']:,} games\n"
                 "(entries by moving in or being placed on Bell Island; bold outline = Ports and Bell Island;\n"
                 "small numbers = cell index of the visits_cell_NN columns)",
                 fontsize=10)
    fig.tight_layout()
    return fig


# ------------------------------------------------------------------ 2. upgrade value

def upgrade_value_data(seats_df, columns=UPGRADES) -> list[dict[str, Any]]:
    """Per upgrade column: counts and win rates of seat-games that took it (>= 1) vs not.

    ``seats_df``: :class:`Parts` (or a DataFrame) with ``won`` and ``columns``.
    Each row: ``name, k_took, n_took, k_not, n_not, took (Estimate), not_took (Estimate),
    diff (Estimate: took minus not, Newcombe)``; ``n_took + n_not`` is the seat-game count.
    """
    columns = list(columns)

    def took(d):  # per part: seat-games and those that took each upgrade, won or not
        flags = pd.DataFrame({c: d[c].to_numpy() >= 1 for c in columns}, index=d.index)
        return tally(flags.assign(won=d["won"].astype(bool)), ["won"], columns)

    t = Parts.of(seats_df).fold(took, ["won", *columns]).reindex([False, True], fill_value=0)
    rows = []
    for col in columns:
        n1, k1 = int(t[col].sum()), int(t.loc[True, col])
        n2, k2 = int(t["n"].sum()) - n1, int(t.loc[True, "n"]) - k1
        rows.append({
            "name": col, "k_took": k1, "n_took": n1, "k_not": k2, "n_not": n2,
            "took": wilson(k1, n1), "not_took": wilson(k2, n2),
            "diff": proportion_diff(k1, n1, k2, n2) if n1 and n2 else Estimate(float("nan"), float("nan"),
                                                                                   float("nan"), 0, "newcombe"),
        })
    return rows


def _upg_label(col: str) -> str:
    return "Extra Crew (>= 1)" if col == "extra_crew" else col[4:].replace("_", " ").title()


def draw_upgrade_value(rows: list[dict], n_seats: int):
    import matplotlib.pyplot as plt

    from ...report import COLOURS

    fig, (a1, a2) = plt.subplots(1, 2, figsize=PAGE, gridspec_kw={"width_ratios": [1.6, 1]})
    pos = np.arange(len(rows))
    w = 0.38
    for off, key, nkey, colour, lab in ((-w / 2, "took", "n_took", COLOURS[0], "took it"),
                                        (w / 2, "not_took", "n_not", COLOURS[1], "did not")):
        ests = [r[key] for r in rows]
        v = np.array([e.value if r[nkey] else 0.0 for e, r in zip(ests, rows)]) * 100
        err = np.array([[e.value - e.lo if r[nkey] else 0.0 for e, r in zip(ests, rows)],
                        [e.hi - e.value if r[nkey] else 0.0 for e, r in zip(ests, rows)]]) * 100
        a1.bar(pos + off, v, w, yerr=np.clip(err, 0, None), color=colour, alpha=0.85, capsize=3, label=lab)
        for p, val, e, r in zip(pos + off, v, ests, rows):
            txt = f"{val:.1f}%  n={r[nkey]:,}" if r[nkey] else "n=0"
            a1.text(p, (e.hi * 100 if r[nkey] else 0) + 0.8, txt, ha="center", va="bottom", fontsize=6.5,
                    rotation=90)
    a1.axhline(100 / n_seats, ls="--", color="grey", lw=1, label=f"fair share 1/{n_seats}")
    a1.set_xticks(pos, [_upg_label(r["name"]).replace(" ", "\n", 1) for r in rows], fontsize=8)
    top = max([r["took"].hi for r in rows if r["n_took"]] + [r["not_took"].hi for r in rows if r["n_not"]] + [0.1])
    a1.set_ylim(0, min(100, top * 100 * 1.55 + 8))
    a1.set(title="Win rate of seat-games that took the upgrade vs not", ylabel="seat-games won (%)",
           xlabel="upgrade (taken at least once during the game)")
    a1.legend(fontsize=8, loc="upper left")
    diffs = [r["diff"] for r in rows]
    dv = np.array([d.value if np.isfinite(d.value) else 0.0 for d in diffs]) * 100
    derr = np.array([[d.value - d.lo if np.isfinite(d.value) else 0.0 for d in diffs],
                     [d.hi - d.value if np.isfinite(d.value) else 0.0 for d in diffs]]) * 100
    a2.barh(pos, dv, xerr=np.clip(derr, 0, None), color=[COLOURS[2] if x >= 0 else COLOURS[1] for x in dv],
            alpha=0.85, capsize=3)
    a2.axvline(0, color="black", lw=0.8)
    a2.set_yticks(pos, [f"{_upg_label(r['name'])}\n(took {r['n_took']:,} / not {r['n_not']:,})" for r in rows],
                  fontsize=7.5)
    a2.invert_yaxis()
    for p, d, x in zip(pos, diffs, dv):
        if np.isfinite(d.value):
            end = 100 * (d.hi if x >= 0 else d.lo)
            a2.text(end, p, f" {x:+.1f} [{100 * d.lo:+.1f}, {100 * d.hi:+.1f}] ", va="center", fontsize=7,
                    ha="left" if x >= 0 else "right")
        else:
            a2.text(0, p, " never taken" if not rows[p]["n_took"] else " always taken", va="center", fontsize=7)
    span = [100 * d.lo for d in diffs if np.isfinite(d.lo)] + [100 * d.hi for d in diffs if np.isfinite(d.hi)] + [0.0]
    lo_x, hi_x = min(span), max(span)
    pad = max(hi_x - lo_x, 1.0) * 0.55
    a2.set_xlim(min(lo_x, 0) - (pad if lo_x < 0 else 0.5), max(hi_x, 0) + (pad if hi_x > 0 else 0.5))
    a2.set(title="Difference: took minus did not", xlabel="percentage points (95% Newcombe CI)",
           ylabel="upgrade (seat-games that took it / did not)")
    total = rows[0]["n_took"] + rows[0]["n_not"] if rows else 0
    fig.suptitle(f"Value of each upgrade ({total:,} seat-games, bars = 95% Wilson CI)")
    fig.text(0.5, 0.01, NOTE_ASSOC, ha="center", fontsize=8.5, style="italic", color="#7f0000")
    fig.tight_layout(rect=(0, 0.03, 1, 0.97))
    return fig


# ------------------------------------------------------------------ 3. raid odds

_CASE = re.compile(r"raider (\d+) vs defender (\d+), (no cannon|raider cannon|defender cannon), (.+)$")
RAID_MODES = ("single exchange", "swashbuckling while chips last")
RAID_CANNONS = ("no cannon", "raider cannon", "defender cannon")


def raid_odds_data(game, rules: dict, samples: int = RAID_SAMPLES, seed: int = 0) -> dict[tuple[str, str], np.ndarray]:
    """Exact P(raider wins) as 7x7 arrays [raider crew - 1, defender crew - 1] keyed (mode, cannon)."""
    out = {(m, c): np.full((7, 7), np.nan) for m in RAID_MODES for c in RAID_CANNONS}
    for row in game.odds("raid", rules, samples, seed):
        m = _CASE.match(row.case)
        if not m:
            continue
        rc, dc, cannon, mode = int(m[1]), int(m[2]), m[3], m[4]
        if (mode, cannon) in out and 1 <= rc <= 7 and 1 <= dc <= 7:
            out[(mode, cannon)][rc - 1, dc - 1] = row.exact
    return out


def draw_raid_odds(data: dict, rules: dict):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 2, figsize=PAGE, constrained_layout=True)
    im = None
    for i, mode in enumerate(RAID_MODES):
        for j, (cannon, ctitle) in enumerate((("no cannon", "no Cannon"),
                                              ("raider cannon", "raider has the Cannon"))):
            ax = axes[i, j]
            m = data[(mode, cannon)]
            im = ax.imshow(m * 100, cmap="RdBu", vmin=0, vmax=100, origin="upper")
            for r in range(7):
                for d in range(7):
                    v = m[r, d] * 100
                    txt = "<1" if 0 < v < 0.5 else (">99" if 99.5 <= v < 100 else f"{v:.0f}")
                    ax.text(d, r, txt, ha="center", va="center", fontsize=8,
                            color="white" if abs(v - 50) > 30 else "black")
            ax.set_xticks(range(7), range(1, 8))
            ax.set_yticks(range(7), range(1, 8))
            ax.set(xlabel="defender crew (captain + chips)", ylabel="raider crew (captain + chips)",
                   title=f"{'Single exchange' if i == 0 else 'With swashbuckling'}, {ctitle}")
    cb = fig.colorbar(im, ax=axes, shrink=0.6)
    cb.set_label("P(raider wins) (%)")
    fig.suptitle("Raid odds: exact chance that the raider wins (%)\n"
                 f"rules: ties to the {rules.get('raid.ties_to', 'raider')}, swashbuckle ties to the "
                 f"{rules.get('raid.swashbuckle_ties_to', 'swashbuckler')}, max score "
                 f"{rules.get('raid.max_score', 6)},\nthe Cannon keeps the best of {rules.get('raid.cannon_dice', 2)} "
                 "dice; swashbuckling: the losing side swashbuckles while it has a chip;\n"
                 "a crew of 6 already scores the maximum in a single exchange", fontsize=9.5)
    return fig


# ------------------------------------------------------------------ 4. players

def players_data(rules: dict, seats: list[dict], seed: int, n_games: int = SIDE_GAMES,
                 counts=SIDE_PLAYERS) -> list[dict[str, Any]]:
    """Side simulation: for each player count, length and per-seat win rates.

    Seats are filled by cycling ``seats`` (resolved seat dicts, parameters included).
    Each row: ``players, strategies, length (Estimate), win (list of Estimate),
    truncation (Estimate), games`` or ``players, error`` when the rules do not allow
    that many ships (e.g. not enough crew chips).
    """
    from ...scenario import ScenarioError, from_dict, nest

    rows = []
    nested = nest(rules)
    for n in counts:
        line_up = [dict(seats[i % len(seats)]) for i in range(n)]
        try:
            s = from_dict({"game": "ice_pirates", "run": {"seed": int(seed), "games": int(n_games)},
                           "rules": nested, "seats": line_up}, source="<report side simulation>")
            compiled = s.compile()
        except (ScenarioError, ValueError) as exc:
            rows.append({"players": n, "error": str(exc)})
            continue
        out_g, out_s = s.game.play(compiled, s.seed, 0, int(n_games))
        acc = metrics.Accumulator(s.game, compiled.strategy_names)
        acc.update(out_g, out_s)
        est = metrics.compute(acc)
        first = np.bincount(out_g[:, G_FIRST_SEAT].astype(np.int64), minlength=n)[:n]
        rows.append({"players": n, "strategies": compiled.strategy_names, "games": acc.n,
                     "length": est["length.mean"], "win": [est[f"win_rate.seat{i}"] for i in range(n)],
                     "truncation": est["truncation_rate"], "first_seats": first})
    return rows


def players_positions(rows: list[dict], rules: dict) -> str:
    """How the side simulation assigned positions, as measured: who moved first."""
    ok = [r for r in rows if "error" not in r and "first_seats" in r]
    mode = rules.get("first_player")
    how = f"first player '{mode}'" if mode else "first player by the game's rule"
    if ok and all(int((r["first_seats"] > 0).sum()) == 1 and r["first_seats"][0] > 0 for r in ok):
        return f"{how}: seat 0 always moved first, so a seat's bar mixes its position and its strategy"
    if ok and all(int((r["first_seats"] > 0).sum()) == r["players"] for r in ok):
        seating = rules.get("strategy_seating", "fixed")
        return (f"{how}: every seat moved first in some games; "
                + ("strategies rotate over seats" if seating == "rotate" else "each strategy keeps its seat"))
    return how


def draw_players(rows: list[dict], n_games: int = SIDE_GAMES, rules: dict | None = None):
    import matplotlib.pyplot as plt

    from ...report import COLOURS

    fig, (a1, a2) = plt.subplots(1, 2, figsize=PAGE, gridspec_kw={"width_ratios": [1, 1.7]})
    ok = [r for r in rows if "error" not in r]
    xs = [r["players"] for r in ok]
    lens = [r["length"] for r in ok]
    a1.errorbar(xs, [e.value for e in lens], yerr=[[e.value - e.lo for e in lens], [e.hi - e.value for e in lens]],
                fmt="o-", color=COLOURS[0], capsize=4)
    for x, e in zip(xs, lens):
        a1.annotate(f"{e.value:.1f}\n({e.value / x:.1f} rounds)", (x, e.value), textcoords="offset points",
                    xytext=(0, 9), ha="center", fontsize=7.5)
    if lens:
        lo_y, hi_y = min(e.lo for e in lens), max(e.hi for e in lens)
        a1.set_ylim(lo_y - 0.1 * (hi_y - lo_y + 1), hi_y + 0.25 * (hi_y - lo_y + 1))
    a1.set_xticks(list(SIDE_PLAYERS))
    a1.set_xlim(SIDE_PLAYERS[0] - 0.6, SIDE_PLAYERS[-1] + 0.6)
    a1.set(title="Mean game length", xlabel="players", ylabel="turns per game (one turn = one ship's move)")
    a1.grid(alpha=0.3)
    max_n = max(xs) if xs else 2
    width = 0.8 / max_n
    strategies = {}
    for r in ok:
        n = r["players"]
        for k, e in enumerate(r["win"]):
            x = n + (k - (n - 1) / 2) * width
            a2.bar(x, e.value * 100, width * 0.95, yerr=[[100 * (e.value - e.lo)], [100 * (e.hi - e.value)]],
                   color=COLOURS[k % len(COLOURS)], alpha=0.85, capsize=2,
                   label=f"seat {k} ({r['strategies'][k]})" if k not in strategies else None)
            strategies.setdefault(k, r["strategies"][k])
        a2.hlines(100 / n, n - 0.45, n + 0.45, colors="black", linestyles="--", lw=1,
                  label="fair share 1/n" if n == xs[0] else None)
    for r in rows:
        if "error" in r:
            a2.text(r["players"], 2, "not playable\nwith these rules", ha="center", fontsize=7, rotation=90)
    a2.set_xticks(list(SIDE_PLAYERS))
    a2.set(title="Win rate by seat", xlabel="players (bars: seat 0, 1, ... left to right)",
           ylabel="games won (%)")
    a2.legend(fontsize=7.5, ncol=2)
    fig.suptitle(f"2 to 6 players: side simulation, {n_games:,} games per player count, same rules and seed "
                 f"(95% CI)\nseats filled by cycling the run's strategy line-up; {players_positions(rows, rules or {})}",
                 fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.93))
    return fig


# ------------------------------------------------------------------ the hook

def report_figures(game, ctx) -> list:
    """The four Ice Pirates pages for :meth:`IcePirates.report_figures`."""
    from ...results import SCENARIO
    from ...scenario import load

    figs = []  # the run's pages fold over its parts: memory stays one part
    figs.append(("ice_pirates_bay_visits", draw_bay_visits(bay_visits_data(ctx.parts("games"), game.hex_cells),
                                                          ctx.rules)))
    figs.append(("ice_pirates_upgrade_value",
                 draw_upgrade_value(upgrade_value_data(ctx.parts("seats")), ctx.acc.n_seats)))
    seed = int(ctx.manifest.get("seed", 0))
    quick = getattr(ctx, "quick", False)
    samples = QUICK_RAID_SAMPLES if quick else RAID_SAMPLES
    figs.append(("ice_pirates_raid_odds", draw_raid_odds(raid_odds_data(game, ctx.rules, samples, seed),
                                                        ctx.rules)))
    seats = load(ctx.results_dir / SCENARIO).seats
    side = QUICK_SIDE_GAMES if quick else SIDE_GAMES
    figs.append(("ice_pirates_players", draw_players(players_data(ctx.rules, seats, seed, side), side, ctx.rules)))
    return figs
