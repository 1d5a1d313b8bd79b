"""Pirateer's own report pages (``Pirateer.report_figures``).

Each page is a *data* function (tested on its own) and a *drawing* function:

* ``pirateer_seats``: win rate by harbor and by turn order (0 = moved first), Wilson 95%.
* ``pirateer_treasure_fate``: how the first treasure holding ended (how games end: the generic page).
* ``pirateer_heat``: the board with captures and treasure-ship losses per square, from a
  side simulation (``HEAT_GAMES`` games, the run's rules, players and seed).
* ``pirateer_survival``: the first treasure ship: share still held, brought home and
  captured after t game turns.
* ``pirateer_players``: 2 vs 3 vs 4 players: game length, endings and the first player's
  win rate (side simulation, ``SIDE_GAMES`` games per count, the run's line-up cycled).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ...report.parts import Parts
from ...stats import mean_ci, wilson
from . import rules as R

PAGE = (11.0, 8.5)  # inches: a landscape US Letter page, as the other games' pages
# the generic players page leaves `search` out: a Pirateer search game takes about a second, so a
# cell worth reading (hundreds of games) would take minutes; `pirate-sim tournament` ranks it
PLAYERS_SEARCH_GAMES = 0
HEAT_GAMES = 3000  # side-simulation games for the heat map (serial; a few seconds)
SIDE_GAMES = 3000  # games per player count on the players page
QUICK_SIDE_GAMES = 300  # both side simulations in a quick report (tests): the pages' layout, not their figures
SIDE_PLAYERS = (2, 3, 4)
SURVIVAL_MAX = 120  # game turns shown on the survival page


def _codes(col: pd.Series, labels) -> np.ndarray:
    if isinstance(col.dtype, pd.CategoricalDtype):
        return np.array([list(labels).index(str(v)) for v in col.astype(str)], np.int64)
    return col.to_numpy().astype(np.int64)


# ------------------------------------------------------------------ 1. seats
def seats_data(games, seats, n_seats: int) -> dict[str, Any]:
    """Wins and games by harbor (seats table) and by turn order (games table)."""
    t = Parts.of(seats).tally(["harbor"], ["seat_won"])
    harbor = {int(h): (int(r["seat_won"]), int(r["n"])) for h, r in t.iterrows()}

    def order(d):
        w = d["winner"].to_numpy().astype(np.int64)
        f = d["first_seat"].to_numpy().astype(np.int64)
        k = (w - f) % n_seats
        return pd.Series(np.bincount(k[w >= 0], minlength=n_seats).tolist() + [len(d)],
                         index=[*range(n_seats), "n"])

    o = Parts.of(games).fold(order, ["winner", "first_seat"])
    n = int(o["n"])
    by_order = {k: (int(o[k]), n) for k in range(n_seats)}
    return {"harbor": harbor, "order": by_order, "n_seats": n_seats}


def draw_seats(data: dict):
    import matplotlib.pyplot as plt

    from ...report import COLOURS, ci_bars

    fig, (a1, a2) = plt.subplots(1, 2, figsize=PAGE)
    hs = sorted(data["harbor"])
    ci_bars(a1, [f"harbor {h}" for h in hs], [wilson(*data["harbor"][h]) for h in hs], colour=COLOURS[0])
    a1.axhline(100 / data["n_seats"], color="black", ls="--", lw=1, label="fair share 1/n")
    a1.set(title="Win rate by harbor", xlabel="the player's harbor (starting corner)", ylabel="games won (%)")
    a1.legend(fontsize=8, loc="lower right")
    ks = sorted(data["order"])
    ci_bars(a2, [("moved first" if k == 0 else f"{k} after") for k in ks], [wilson(*data["order"][k]) for k in ks],
            colour=COLOURS[1])
    a2.axhline(100 / data["n_seats"], color="black", ls="--", lw=1)
    a2.set(title="Win rate by turn order", xlabel="place in the turn order (clockwise from the first player)",
           ylabel="games won (%)")
    fig.suptitle("Who wins: harbor and turn order (95% Wilson intervals; dashed: the fair share 1/n)\n"
                 "Harbor and player are confounded unless the scenario rotates the players "
                 "(rules.strategy_seating = 'rotate').", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.93))
    return fig


# ------------------------------------------------------------------ 2. endings
def endings_data(games) -> dict[str, Any]:
    def count(d):
        e = _codes(d["end_reason"], R.END_REASONS)
        h = _codes(d["first_hold_end"], ("never_taken", "held_at_end", "home", "captured"))
        return pd.Series(np.concatenate([np.bincount(e, minlength=len(R.END_REASONS)), np.bincount(h, minlength=4)]))

    c = Parts.of(games).fold(count, ["end_reason", "first_hold_end"]).to_numpy()
    n = int(c[:len(R.END_REASONS)].sum())
    return {"ends": dict(zip(R.END_REASONS, c[:3].tolist())),
            "first_hold": dict(zip(("never_taken", "held_at_end", "home", "captured"), c[3:].tolist())), "n": n}


def draw_endings(data: dict):
    import matplotlib.pyplot as plt

    from ...report import COLOURS, ci_bars

    n = data["n"]
    # how games end is the generic endings page's chart: this page shows only the treasure's fate
    fig, a2 = plt.subplots(figsize=PAGE)
    fates = {"never_taken": "never taken", "held_at_end": "still held\nat the end", "home": "brought home",
             "captured": "captured"}
    ci_bars(a2, [fates.get(k, k.replace("_", " ")) for k in data["first_hold"]],
            [wilson(v, n) for v in data["first_hold"].values()], colour=COLOURS[3])
    a2.set(title="The first ship to take the treasure...", xlabel="what became of it", ylabel="games (%)")
    fig.suptitle(f"The treasure's first holder, {n:,} games (95% Wilson intervals)", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.93))
    return fig


# ------------------------------------------------------------------ 3. heat map
def heat_data(game, compiled, seed: int, n_games: int = HEAT_GAMES) -> dict[str, Any]:
    """Captures and treasure-ship losses per square and game, on a (height, width) grid."""
    heat = game.heat(compiled, seed, n_games)
    board = compiled.extra["board"]
    geo = compiled.extra["geometry"]
    grids = np.full((2, board.height, board.width), np.nan)
    for (x, y), node in geo.node_of.items():
        grids[:, y, x] = heat[:, node] / n_games
    return {"grids": grids, "board": board, "n": n_games}


def draw_heat(data: dict):
    import matplotlib.pyplot as plt
    from matplotlib import colors

    board = data["board"]
    fig, axes = plt.subplots(1, 2, figsize=PAGE)
    land = np.array([[1.0 if board.at(x, y) in "#K" else np.nan for x in range(board.width)]
                     for y in range(board.height)])
    titles = ("Captures of any ship", "Captures of a ship carrying treasure")
    units = ("captures per game on the square", "treasure ships captured per game on the square")
    for ax, grid, title, unit in zip(axes, data["grids"], titles, units):
        vmax = np.nanmax(grid) if np.isfinite(grid).any() and np.nanmax(grid) > 0 else 1.0
        im = ax.imshow(grid, cmap="OrRd", norm=colors.Normalize(0, vmax), origin="upper")
        ax.imshow(land, cmap=colors.ListedColormap(["#8c7b5a"]), origin="upper")
        for y in range(board.height):
            for x in range(board.width):
                c = board.at(x, y)
                if c in "~TsA1234K":
                    ax.text(x, y, c, ha="center", va="center", fontsize=6, color="#1f4e79")
        ax.set_xticks(range(0, board.width, 2))
        ax.set_yticks(range(0, board.height, 2))
        ax.set(title=title, xlabel="column (x)", ylabel="row (y)")
        fig.colorbar(im, ax=ax, orientation="horizontal", shrink=0.8, pad=0.09, label=unit)
    fig.suptitle(f"Where ships are captured: a side simulation of {data['n']:,} games (not this run's games),\n"
                 "with the run's rules, players and seed", fontsize=11)
    fig.text(0.5, 0.02, "Squares: ~ tradewind, T strait half, s treasure anchor, A harbor anchor, 1-4 starting "
             "squares, K Skull Island; brown = land.", ha="center", fontsize=8.5, style="italic")
    fig.tight_layout(rect=(0, 0.05, 1, 0.93))
    return fig


# ------------------------------------------------------------------ 4. survival
def survival_data(games, horizon: int = SURVIVAL_MAX) -> dict[str, Any]:
    """Histogram of the first holding's length (game turns) by how it ended."""
    labels = ("never_taken", "held_at_end", "home", "captured")

    def hist(d):
        h = _codes(d["first_hold_end"], labels)
        t = np.clip(d["first_hold_turns"].to_numpy().astype(np.int64), 0, horizon)
        out = np.zeros((4, horizon + 1), np.int64)
        for k in range(1, 4):
            out[k] = np.bincount(t[h == k], minlength=horizon + 1)
        return out

    H = Parts.of(games).fold(hist, ["first_hold_end", "first_hold_turns"])
    return {"held_at_end": H[1], "home": H[2], "captured": H[3], "horizon": horizon}


def survival_curves(data: dict) -> dict[str, np.ndarray]:
    """Share of first holdings still held / home / captured after t turns (t = 0..horizon)."""
    total = data["held_at_end"] + data["home"] + data["captured"]
    n = max(int(total.sum()), 1)
    ended = np.cumsum(total) / n
    return {"t": np.arange(data["horizon"] + 1), "held": 1 - ended, "home": np.cumsum(data["home"]) / n,
            "captured": np.cumsum(data["captured"]) / n, "n": n}


def draw_survival(data: dict):
    import matplotlib.pyplot as plt

    from ...report import COLOURS

    c = survival_curves(data)
    fig, ax = plt.subplots(figsize=PAGE)
    ax.step(c["t"], c["held"] * 100, where="post", color=COLOURS[0], label="still held")
    ax.step(c["t"], c["home"] * 100, where="post", color=COLOURS[2], label="brought home")
    ax.step(c["t"], c["captured"] * 100, where="post", color=COLOURS[1], label="captured")
    ax.set(xlabel="game turns since the first pick-up (all players' turns)", ylabel="first treasure ships (%)",
           title=f"Survival of the first treasure ship (this run: {c['n']:,} games where it was taken)")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.text(0.5, 0.015, "A holding also ends when the game ends otherwise (last ship captured): those are the "
             "gap between 100% and the three curves' sum.", ha="center", fontsize=8.5, style="italic")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return fig


# ------------------------------------------------------------------ 5. players
def players_data(rules: dict, seats: list[dict], seed: int, n_games: int = SIDE_GAMES,
                 counts=SIDE_PLAYERS) -> list[dict[str, Any]]:
    """Side simulation per player count: length, end shares, first player's win rate."""
    from ...scenario import ScenarioError, from_dict, nest

    rows = []
    nested = nest({k: v for k, v in rules.items() if k != "harbors"})  # default seating per count
    for n in counts:
        line_up = [dict(seats[i % len(seats)]) for i in range(n)]
        try:
            s = from_dict({"game": "pirateer", "run": {"seed": int(seed), "games": int(n_games)},
                           "rules": nested, "seats": line_up}, source="<report side simulation>")
            out_g, _ = s.game.play(s.compile(), s.seed, 0, int(n_games))
        except (ScenarioError, ValueError) as exc:
            rows.append({"players": n, "error": str(exc)})
            continue
        t = out_g[:, 1].astype(np.float64)
        ends = np.bincount(out_g[:, 2], minlength=3)
        first = int((out_g[:, 0] == out_g[:, 4]).sum())
        rows.append({"players": n, "games": n_games, "length": mean_ci(t.sum(), (t * t).sum(), n_games),
                     "home": wilson(ends[R.END_HOME], n_games), "capture": wilson(ends[R.END_CAPTURE], n_games),
                     "first_wins": wilson(first, n_games)})
    return rows


def draw_players(rows: list[dict]):
    import matplotlib.pyplot as plt

    from ...report import COLOURS

    ok = [r for r in rows if "error" not in r]
    fig, (a1, a2) = plt.subplots(1, 2, figsize=PAGE)
    xs = [r["players"] for r in ok]

    def err(es, k=1.0):
        return [[k * (e.value - e.lo) for e in es], [k * (e.hi - e.value) for e in es]]

    lens = [r["length"] for r in ok]
    a1.errorbar(xs, [e.value for e in lens], yerr=err(lens), fmt="o-", color=COLOURS[0], capsize=4)
    a1.set(title="Mean game length", xlabel="players", ylabel="turns per game", xticks=list(SIDE_PLAYERS))
    a1.grid(alpha=0.3)
    for key, lab, col in (("home", "treasure home", COLOURS[2]), ("capture", "last ship captured", COLOURS[1]),
                          ("first_wins", "first player wins", COLOURS[3])):
        es = [r[key] for r in ok]
        a2.errorbar(xs, [100 * e.value for e in es], yerr=err(es, 100), fmt="o-", color=col, capsize=4, label=lab)
    a2.plot(xs, [100 / x for x in xs], "k--", lw=1, label="fair share 1/n")
    a2.set(title="Endings and the first player's edge", xlabel="players", ylabel="games (%)",
           xticks=list(SIDE_PLAYERS))
    a2.legend(fontsize=8)
    a2.grid(alpha=0.3)
    if not ok:  # no player count could be set up with the run's rules
        from ...report.checks import explain_empty

        for ax in (a1, a2):
            explain_empty(ax, "No player count could be simulated:\n" + "\n".join(
                f"{r['players']} players: {r['error'][:60]}" for r in rows))
    n = ok[0]["games"] if ok else 0
    fig.suptitle(f"2, 3 and 4 players: a side simulation of {n:,} games per player count (not this run's games)\n"
                 "the run's rules and seed, the run's players cycled; default harbors (2 players face each other); "
                 "95% CI", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.92))
    return fig


def players_rules(rules: dict, n: int) -> dict:
    """The rules for the 'how strong are the players' page's ``n`` seats: a harbor list made
    for another player count gives way to the rulebook's seating for ``n``."""
    if len(rules.get("harbors") or []) not in (0, n):
        rules = dict(rules, harbors=[])
    return rules


# ------------------------------------------------------------------ the hook
def report_figures(game, ctx) -> list:
    from ...results import SCENARIO
    from ...scenario import load

    seed = int(ctx.manifest.get("seed", 0))
    side = QUICK_SIDE_GAMES if ctx.quick else None
    s = load(ctx.results_dir / SCENARIO)
    compiled = s.compile()
    figs = [
        ("pirateer_seats", draw_seats(seats_data(ctx.parts("games"), ctx.parts("seats"), ctx.acc.n_seats))),
        ("pirateer_treasure_fate", draw_endings(endings_data(ctx.parts("games")))),
        ("pirateer_heat", draw_heat(heat_data(game, compiled, seed, side or HEAT_GAMES))),
        ("pirateer_survival", draw_survival(survival_data(ctx.parts("games")))),
        ("pirateer_players", draw_players(players_data(ctx.rules, s.seats, seed, side or SIDE_GAMES))),
    ]
    return figs
