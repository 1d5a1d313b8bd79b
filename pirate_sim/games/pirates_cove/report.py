"""Pirate's Cove's own report pages (``PiratesCove.report_figures``).

Each page is a pure *data* function (tested on its own, folding the run part by part)
and a *drawing* function:

* ``pirates_cove_fame_sources``: mean fame per seat-game by source, stacked, per strategy,
  for all seat-games and for winners.
* ``pirates_cove_islands``: island x round heat maps of player ships per game and of the
  share of games with a fight there (from the ``round_NN`` columns).
* ``pirates_cove_sections``: win rate against each section's level after set-up spending,
  within each strategy that varies it (Wilson intervals); no page when none does.
  Association, not causation.
* ``pirates_cove_tavern``: win rate of seat-games that ever held a card of each Tavern
  group against those that did not (Newcombe difference).  Association, not causation.
* ``pirates_cove_royal_navy``: Royal Navy fights per game, how they ended (crippled the
  Navy, fled or crippled, other) and the Navy's fame share, per strategy.
* ``pirates_cove_players``: 3 vs 4 vs 5 players, from a small side simulation
  (``SIDE_GAMES`` games per count, the run's rules and seed, seats filled by cycling the
  run's line-up): win rate per strategy, fame by source, fights per game.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ...report.checks import explain_empty
from ...report.parts import Parts, tally
from ...seating import entries_of_seats
from ...stats import Estimate, mean_ci, proportion_diff, wilson
from . import rules as R
from ..base import N_STD_GAME_COLUMNS
from .columns import FAME_SOURCES, SECTIONS, decode_round

PAGE = (11.0, 8.5)  # inches: a landscape US Letter page, like the other games' pages
SIDE_GAMES = 3000  # games per player count in the players page's side simulation
SIDE_PLAYERS = (3, 4, 5)
SOURCE_LABELS = {"fame_chests": "buried chests", "fame_gold": "buried gold", "fame_combat": "combat (+1s)",
                 "fame_black": "black ships", "fame_treasure": "Treasure cards", "fame_cards": "Fame cards"}
NOTE_ASSOC = ("Association, not causation: strategies and situations differ between the groups "
              "(a fighter both buys Cannons and wins more).")


def _colours():
    from ...report import COLOURS

    return COLOURS


# ------------------------------------------------------------------ 1. fame sources

def fame_sources_data(seats) -> dict[str, Any]:
    """``{"all": DataFrame, "winners": DataFrame}``: per strategy, n and mean fame per source
    (and ``fame_lost_mutiny``) over seat-games, all and won."""
    values = [*FAME_SOURCES, "fame_barge", "fame_lost_mutiny", "fame"]

    def part(d):
        return tally(d.assign(won=d["won"].astype(bool)), ["strategy", "won"], values)

    t = Parts.of(seats).fold(part, ["strategy", "won", *values])
    allg = t.groupby(level="strategy", observed=True).sum()
    won = t.xs(True, level="won") if True in t.index.get_level_values("won") else allg.iloc[0:0]
    won = won.reindex(allg.index, fill_value=0)  # the same strategies in the same order
    out = {}
    for key, frame in (("all", allg), ("winners", won)):
        f = frame[values].div(frame["n"].where(frame["n"] > 0, 1), axis=0)
        f["n"] = frame["n"]
        out[key] = f
    return out


def draw_fame_sources(data: dict):
    import matplotlib.pyplot as plt

    from ...report import footnote

    colours = _colours()
    fig, axes = plt.subplots(1, 2, figsize=PAGE, sharey=True)
    top = max([float(data[k]["fame"].max()) for k in ("all", "winners") if len(data[k])] + [1.0])
    for ax, key, title in ((axes[0], "all", "every seat-game"), (axes[1], "winners", "winners only")):
        f = data[key]
        names = [str(x) for x in f.index]
        pos = np.arange(len(names))
        bottom = np.zeros(len(names))
        for j, src in enumerate(FAME_SOURCES):
            v = f[src].to_numpy(float) if len(f) else np.zeros(0)
            ax.bar(pos, v, 0.6, bottom=bottom, color=colours[j % len(colours)], label=SOURCE_LABELS[src])
            bottom += v
        loss = f["fame_lost_mutiny"].to_numpy(float) if len(f) else np.zeros(0)
        ax.bar(pos, -loss, 0.6, color="black", alpha=0.6, label="lost to mutinies")
        for p, tot, n in zip(pos, f["fame"].to_numpy(float) if len(f) else [], f["n"] if len(f) else []):
            if n:
                ax.text(p, max(tot, 0) + 0.01 * top, f"{tot:.1f}", ha="center", va="bottom", fontsize=9)
        ax.set_xticks(pos, [f"{x}\n(n={int(n):,})" for x, n in zip(names, f["n"] if len(f) else [])])
        ax.axhline(0, color="black", lw=0.8)
        ax.set(title=f"Mean fame by source: {title}", xlabel="strategy (n = seat-games)")
        ax.grid(axis="y", alpha=0.3)
        if not len(f) or not f["n"].sum():
            explain_empty(ax, "no seat-game in this group")
    axes[0].set_ylim(top=top * 1.12)  # room for the totals above the bars
    axes[0].set_ylabel("fame per seat-game")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=7, fontsize=8.5, bbox_to_anchor=(0.5, 0.035))
    a = data["all"]
    barge = float((a["fame_barge"] * a["n"]).sum()) if len(a) else 0.0
    total = float((a["fame"] * a["n"]).sum()) if len(a) else 0.0
    note = (f"  Treasure barge (in 'black ships'): {100 * barge / total:.1f}% of all fame "
            f"({barge / max(float(a['n'].sum()), 1.0):.2f} per seat-game)." if barge > 0 and total > 0 else "")
    footnote(fig, "Bars stack the mean fame each source gave; the black bar below zero is fame lost to mutinies; "
                  "the number on top is the mean final fame." + note)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    return fig


# ------------------------------------------------------------------ 2. islands by round

def islands_data(games) -> dict[str, Any]:
    """Ships per game and fight share per (island 1-6, round 1-12), from the round columns."""
    cols = [f"round_{r:02d}" for r in range(1, R.ROUNDS + 1)]

    def part(d):  # additive: ship and fight counts per (round, island), then the games
        ships, contested = decode_round(d[cols].to_numpy())  # [games, rounds, islands]
        return np.concatenate([ships.sum(axis=0).ravel(), contested.sum(axis=0).ravel(), [len(d)]]).astype(np.int64)

    total = Parts.of(games).fold(part, cols)
    k = R.ROUNDS * 6
    if total is None:
        total = np.zeros(2 * k + 1, np.int64)
    n = int(total[-1])
    ships = total[:k].reshape(R.ROUNDS, 6).T / max(n, 1)
    fights = total[k:2 * k].reshape(R.ROUNDS, 6).T / max(n, 1)
    return {"ships": ships, "fights": fights, "n": n}


def draw_islands(data: dict):
    import matplotlib.pyplot as plt

    from ...report import footnote

    fig, axes = plt.subplots(2, 1, figsize=PAGE)
    labels = [f"{i} {R.ISLAND_NAMES[i]}" for i in range(1, 7)]
    for ax, key, title, cmap, fmt in ((axes[0], "ships", "player ships per game", "YlGnBu", "{:.2f}"),
                                      (axes[1], "fights", "share of games with a fight", "OrRd", "{:.0%}")):
        m = data[key]
        im = ax.imshow(m, aspect="auto", cmap=cmap, vmin=0)
        for i in range(m.shape[0]):
            for r in range(m.shape[1]):
                dark = m[i, r] > 0.6 * (m.max() if m.size and m.max() > 0 else 1)
                ax.text(r, i, fmt.format(m[i, r]), ha="center", va="center", fontsize=8,
                        color="white" if dark else "black")
        ax.set_yticks(range(6), labels)
        ax.set_xticks(range(R.ROUNDS), [str(r) for r in range(1, R.ROUNDS + 1)])
        ax.set(title=f"Visits and contests: {title}", xlabel="round", ylabel="island")
        fig.colorbar(im, ax=ax, shrink=0.9, pad=0.02).set_label(title)
    footnote(fig, f"Mean of {data['n']:,} games.  A fight: two or more ships on the island, black ships "
                  "included; Treasure Island never has one.")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return fig


# ------------------------------------------------------------------ 3. section levels

def sections_data(seats) -> dict[str, pd.DataFrame]:
    """Per section: seat-games and wins by (strategy, level after set-up spending).

    Within one strategy: across strategies the level mostly says which strategy sits there
    (a fighter buys Cannons and wins more), which is not the value of the level."""
    out = {}
    for k in SECTIONS:
        col = f"setup_{k}"
        t = Parts.of(seats).fold(
            lambda d, c=col: tally(d.assign(w=d["won"].astype(np.int64)), ["strategy", c], ["w"]),
            ["strategy", col, "won"])
        out[k] = t.rename(columns={"w": "wins"})
    return out


def varying_strategies(t: pd.DataFrame) -> tuple[list[str], dict[str, int]]:
    """Of a section's tally: the strategies that chose more than one level, and the fixed level of the others."""
    varied, fixed = [], {}
    for name in dict.fromkeys(str(x) for x in t.index.get_level_values("strategy")):
        lv = t[t.index.get_level_values("strategy") == name].index.get_level_values(1)
        if len(lv) > 1:
            varied.append(name)
        elif len(lv):
            fixed[name] = int(lv[0])
    return varied, fixed


def draw_sections(data: dict, n_seats: int):
    """Win rate by level within each strategy that varies it; None when no strategy varies any
    section (a strategy that always buys the same level says nothing about the level's value)."""
    import matplotlib.pyplot as plt

    from ...report import footnote

    if not any(varying_strategies(t)[0] for t in data.values()):
        return None
    colours = _colours()
    fig, axes = plt.subplots(2, 2, figsize=PAGE, sharey=True)
    names = list(dict.fromkeys(str(x) for t in data.values() for x in t.index.get_level_values("strategy")))
    top = 1.0  # the axis spans the drawn rates: a 0-1% strategy is not squashed under a 25% fair-share line
    for ax, (k, t) in zip(axes.ravel(), data.items()):
        varied, fixed = varying_strategies(t)
        levels = sorted({int(x) for x in t[t.index.get_level_values("strategy").isin(varied)].index
                         .get_level_values(1)})
        for j, name in enumerate(names):
            if name not in varied:
                continue
            sub = t[t.index.get_level_values("strategy") == name]
            lv = np.asarray(sub.index.get_level_values(1), float)
            ests = [wilson(int(w), int(n)) for w, n in zip(sub["wins"], sub["n"])]
            top = max([top] + [100 * e.hi for e in ests])
            off = (j - (len(names) - 1) / 2) * 0.06  # side by side: whiskers of one level do not hide each other
            ax.errorbar(lv + off, [100 * e.value for e in ests],
                        yerr=[[100 * (e.value - e.lo) for e in ests], [100 * (e.hi - e.value) for e in ests]],
                        fmt="o-", capsize=3, color=colours[j % len(colours)], label=name, ms=4)
        ax.grid(alpha=0.3)
        still = ", ".join(f"{nm} {lv}" for nm, lv in fixed.items())
        ax.set_title(f"{k.capitalize()}" + (f"\n(always the same level: {still})" if still else ""), fontsize=9.5)
        if varied:
            ax.set_xticks(levels, [str(x) for x in levels])
            ax.set_xlim(min(levels) - 0.5, max(levels) + 0.5)
            ax.set_xlabel("level after set-up spending")
            ax.legend(fontsize=7.5, loc="upper right")
        else:
            ax.set_xticks([])
            explain_empty(ax, "every strategy always buys the same level here:\nno level to compare with another")
    axes[0, 0].set_ylim(-0.03 * top, min(103.0, top * 1.25))  # shared: 0 to the highest whisker, 0% visible
    fair = 100 / n_seats
    for ax in axes.ravel():
        if fair <= top * 1.25:
            ax.axhline(fair, ls="--", color="grey", lw=1)
    for ax in axes[:, 0]:
        ax.set_ylabel("seat-games won (%)")
    fig.suptitle("Value of a section's level within each strategy: win rate by level after set-up (95% CI)"
                 + (f"\n(dashed: fair share {fair:.0f}%)" if fair <= top * 1.25 else
                    f"\n(every drawn rate is far below the fair share of {fair:.0f}%, which is above the axis)"))
    footnote(fig, "Only strategies whose level varies are drawn, each against its own other levels (across strategies "
                  "the level would say which strategy sits there).\n"
                  "Still association, not causation: a strategy's level follows "
                  "its situation.")
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    return fig


# ------------------------------------------------------------------ 4. Tavern cards

def tavern_data(seats) -> list[dict[str, Any]]:
    """Per card group: win rates of seat-games that ever held one vs not, and the difference."""
    cols = [f"held_{g}" for g in R.CARD_GROUPS]

    def part(d):
        flags = pd.DataFrame({c: d[c].to_numpy() >= 1 for c in cols}, index=d.index)
        return tally(flags.assign(won=d["won"].astype(bool)), ["won"], cols)

    t = Parts.of(seats).fold(part, ["won", *cols]).reindex([False, True], fill_value=0)
    rows = []
    for g, col in zip(R.CARD_GROUPS, cols):
        n1, k1 = int(t[col].sum()), int(t.loc[True, col])
        n2, k2 = int(t["n"].sum()) - n1, int(t.loc[True, "n"]) - k1
        nan = Estimate(float("nan"), float("nan"), float("nan"), 0, "newcombe")
        rows.append({"group": g, "n_held": n1, "n_not": n2, "held": wilson(k1, n1), "not_held": wilson(k2, n2),
                     "diff": proportion_diff(k1, n1, k2, n2) if n1 and n2 else nan})
    return rows


def draw_tavern(rows: list[dict], n_seats: int):
    import matplotlib.pyplot as plt

    from ...report import footnote

    colours = _colours()
    fig, (a1, a2) = plt.subplots(1, 2, figsize=PAGE, gridspec_kw={"width_ratios": [1.5, 1]})
    pos = np.arange(len(rows))
    w = 0.38
    for off, key, nkey, colour, lab in ((-w / 2, "held", "n_held", colours[0], "held one"),
                                        (w / 2, "not_held", "n_not", colours[1], "never held one")):
        ests = [r[key] for r in rows]
        v = np.array([e.value if r[nkey] else 0.0 for e, r in zip(ests, rows)]) * 100
        err = np.array([[e.value - e.lo if r[nkey] else 0 for e, r in zip(ests, rows)],
                        [e.hi - e.value if r[nkey] else 0 for e, r in zip(ests, rows)]]) * 100
        a1.bar(pos + off, v, w, yerr=np.clip(err, 0, None), color=colour, alpha=0.85, capsize=3, label=lab)
    a1.axhline(100 / n_seats, ls="--", color="grey", lw=1, label=f"fair share 1/{n_seats}")
    a1.set_xticks(pos, [f"{r['group']}\n(n={r['n_held']:,})" for r in rows], fontsize=8.5)
    a1.set(title="Win rate: held a Tavern card of the group or never (95% CI)", ylabel="seat-games won (%)",
           xlabel="Tavern card group (n = seat-games that held one)")
    a1.set_ylim(0, a1.get_ylim()[1] * 1.15)  # room for the legend above the whiskers
    a1.legend(fontsize=8, loc="upper center", ncol=3)
    diffs = [r["diff"] for r in rows]
    dv = np.array([d.value if np.isfinite(d.value) else 0.0 for d in diffs]) * 100
    derr = np.array([[d.value - d.lo if np.isfinite(d.value) else 0 for d in diffs],
                     [d.hi - d.value if np.isfinite(d.value) else 0 for d in diffs]]) * 100
    a2.barh(pos, dv, xerr=np.clip(derr, 0, None), color=[colours[2] if x >= 0 else colours[1] for x in dv],
            alpha=0.85, capsize=3)
    a2.axvline(0, color="black", lw=0.8)
    a2.set_yticks(pos, [r["group"] for r in rows])
    a2.invert_yaxis()
    a2.set(title="Held minus never held (95% CI)", xlabel="difference in win rate (points)",
           ylabel="Tavern card group")
    footnote(fig, NOTE_ASSOC + "  Parrots are counted together; Fame cards score at the end.")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return fig


# ------------------------------------------------------------------ 5. Royal Navy

NAVY_VALUES = ("navy_fights", "navy_wins", "navy_losses", "fame_black", "legend_fights", "legend_wins")


def navy_data(seats) -> pd.DataFrame:
    """Per strategy: seat-games and the sums of the Royal Navy and Legendary Pirate counters."""
    return Parts.of(seats).tally(["strategy"], list(NAVY_VALUES))


def draw_navy(t: pd.DataFrame):
    import matplotlib.pyplot as plt

    from ...report import footnote

    colours = _colours()
    fig, (a1, a2) = plt.subplots(1, 2, figsize=PAGE)
    names = [str(x) for x in t.index]
    pos = np.arange(len(names))
    n = t["n"].to_numpy(float)
    fights = t["navy_fights"].to_numpy(float)
    wins = t["navy_wins"].to_numpy(float)
    losses = t["navy_losses"].to_numpy(float)
    other = np.clip(fights - wins - losses, 0, None)
    b = np.zeros(len(names))
    for v, colour, lab in ((wins, colours[2], "crippled the Navy"), (losses, colours[1], "fled or crippled"),
                           (other, colours[4], "other (someone else ended it)")):
        a1.bar(pos, v / np.maximum(n, 1), 0.6, bottom=b, color=colour, label=lab)
        b += v / np.maximum(n, 1)
    for p, top, o, f in zip(pos, b, other, fights):  # the thin "other" segment, said in numbers where it is
        if f and o:
            a1.text(p, top, f"other: {int(o):,} of {int(f):,}\nfights ({100 * o / f:.1f}%)", ha="center",
                    va="bottom", fontsize=7.5, color=colours[4])
    a1.set_ylim(0, max(float(b.max()) if len(b) else 0.0, 0.1) * 1.3)  # room for the legend above the bars
    a1.set_xticks(pos, [f"{x}\n(n={int(k):,})" for x, k in zip(names, n)])
    a1.set(title="Royal Navy fights per seat-game and how they ended", ylabel="fights per seat-game",
           xlabel="strategy (n = seat-games)")
    a1.legend(fontsize=8)
    ests = [wilson(int(w), int(f)) for w, f in zip(wins, fights)]
    v = [100 * e.value if f else 0 for e, f in zip(ests, fights)]
    err = [[100 * (e.value - e.lo) if f else 0 for e, f in zip(ests, fights)],
           [100 * (e.hi - e.value) if f else 0 for e, f in zip(ests, fights)]]
    a2.bar(pos, v, 0.6, yerr=err, capsize=3, color=colours[0], alpha=0.85)
    for p, val, up, f in zip(pos, v, err[1], fights):
        if f:
            a2.text(p, val + up + 1, f"{val:.0f}%", ha="center", va="bottom", fontsize=9)
    a2.set_xticks(pos, [f"{x}\n({int(f):,} fights)" for x, f in zip(names, fights)])
    a2.set(title="Share of its Royal Navy fights a strategy won (95% CI)", ylabel="Navy crippled (%)",
           xlabel="strategy (Royal Navy fights fought)")
    a2.set_ylim(0, 112)  # room for the values above the whiskers
    if not fights.sum():
        for ax in (a1, a2):
            explain_empty(ax, "no Royal Navy fight in this run")
    footnote(fig, "A fight with the Navy ends when one ship is left: the Navy crippled, the player fled or was "
                  "crippled, or (with several players) another ship decided it"
                  + ("; no fight in this run was decided by another ship." if fights.sum() and not other.sum()
                     else "."))
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return fig


# ------------------------------------------------------------------ 6. 3, 4 and 5 players

def players_data(rules: dict, seats: list[dict], seed: int, n_games: int = SIDE_GAMES,
                 counts=SIDE_PLAYERS) -> list[dict[str, Any]]:
    """Side simulation per player count: win rate per strategy (pooled over its seats),
    mean fame by source and fights per game.  Strategies rotate over the seats."""
    from ...scenario import from_dict, nest

    rows = []
    nested = nest(dict(rules, strategy_seating="rotate"))
    for n in counts:
        line_up = [dict(seats[i % len(seats)]) for i in range(n)]
        s = from_dict({"game": "pirates_cove", "run": {"seed": int(seed), "games": int(n_games)},
                       "rules": nested, "seats": line_up}, source="<report side simulation>")
        compiled = s.compile()
        col = s.game.seat_column_index
        out_g, out_s = s.game.play(compiled, s.seed, 0, int(n_games))
        entry = entries_of_seats(np.arange(n_games), n, True)
        names = np.array(compiled.strategy_names)[entry]  # [games, seats]
        won = out_s[:, :, col("seat_won")]
        win = {name: wilson(int(won[names == name].sum()), int((names == name).sum()))
               for name in dict.fromkeys(compiled.strategy_names)}
        fame = {src: float(out_s[:, :, col(src)].mean()) for src in FAME_SOURCES}
        total = float(out_s[:, :, col("fame")].sum())
        barge = float(out_s[:, :, col("fame_barge")].sum())
        f = out_g[:, N_STD_GAME_COLUMNS + 1].astype(np.int64)  # the fights column
        rows.append({"players": n, "win": win, "fame": fame, "games": int(n_games),
                     "barge_share": barge / total if total > 0 else 0.0,
                     "fights": mean_ci(float(f.sum()), float((f * f).sum()), n_games)})
    return rows


def draw_players(rows: list[dict], n_games: int = SIDE_GAMES):
    import matplotlib.pyplot as plt

    from ...report import footnote

    colours = _colours()
    fig = plt.figure(figsize=PAGE)
    grid = fig.add_gridspec(2, 2, width_ratios=[1.3, 1])
    axes = [fig.add_subplot(grid[0, :]), fig.add_subplot(grid[1, 0]), fig.add_subplot(grid[1, 1])]
    names = list(dict.fromkeys(k for r in rows for k in r["win"]))
    w = 0.8 / max(len(names), 1)
    for j, name in enumerate(names):
        xs, vs, lo, hi = [], [], [], []
        for r in rows:
            if name in r["win"]:
                e = r["win"][name]
                xs.append(r["players"] + (j - (len(names) - 1) / 2) * w)
                vs.append(100 * e.value)
                lo.append(100 * (e.value - e.lo))
                hi.append(100 * (e.hi - e.value))
        axes[0].bar(xs, vs, w * 0.95, yerr=[lo, hi], capsize=2, color=colours[j % len(colours)], label=name)
    for r in rows:
        axes[0].hlines(100 / r["players"], r["players"] - 0.45, r["players"] + 0.45, colors="black",
                       linestyles="--", lw=1)
    axes[0].set_xticks([r["players"] for r in rows])
    axes[0].set(title="Win rate per seat-game of each strategy (95% CI)", xlabel="players",
                ylabel="seat-games won (%)")
    axes[0].legend(fontsize=8, title="strategy", title_fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
    b = np.zeros(len(rows))
    xs = np.arange(len(rows))
    for j, src in enumerate(FAME_SOURCES):
        v = np.array([r["fame"][src] for r in rows])
        axes[1].bar(xs, v, 0.6, bottom=b, color=colours[j % len(colours)], label=SOURCE_LABELS[src])
        b += v
    for x, r, top in zip(xs, rows, b):
        if r.get("barge_share", 0.0) > 0:  # only where a treasure barge was in play
            axes[1].text(x, top, f"barge {100 * r['barge_share']:.0f}%\nof all fame", ha="center", va="bottom",
                         fontsize=7.5)
    if any(r.get("barge_share", 0.0) > 0 for r in rows):  # room for the label under the title
        axes[1].set_ylim(0, 1.3 * float(b.max()))
    axes[1].set_xticks(xs, [str(r["players"]) for r in rows])
    axes[1].set(title="Mean fame per seat-game by source", xlabel="players", ylabel="fame per seat-game")
    axes[1].legend(fontsize=7.5, loc="upper left", bbox_to_anchor=(1.01, 1))
    f = [r["fights"] for r in rows]
    axes[2].errorbar([r["players"] for r in rows], [e.value for e in f],
                     yerr=[[e.value - e.lo for e in f], [e.hi - e.value for e in f]], fmt="o-", capsize=4,
                     color=colours[0])
    axes[2].set_xticks([r["players"] for r in rows])
    axes[2].set(title="Fights per game (95% CI)", xlabel="players", ylabel="fights per game")
    axes[2].grid(alpha=0.3)
    footnote(fig, f"Side simulation: {n_games:,} games per player count with the run's rules and seed; seats "
                  "filled by cycling the run's line-up, strategies rotating over seats; dashed = fair share 1/n.\n"
                  "'barge': the treasure barge's share of all fame (plundered by a ship ending a round alone "
                  "with it; part of 'black ships').")
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    return fig


# ------------------------------------------------------------------ the hook

def report_figures(game, ctx) -> list:
    """The six Pirate's Cove pages for :meth:`PiratesCove.report_figures`."""
    from ...results import SCENARIO
    from ...scenario import load

    seats_parts = ctx.parts("seats")
    n = ctx.acc.n_seats
    figs = [
        ("pirates_cove_fame_sources", draw_fame_sources(fame_sources_data(seats_parts))),
        ("pirates_cove_islands", draw_islands(islands_data(ctx.parts("games")))),
        ("pirates_cove_sections", draw_sections(sections_data(seats_parts), n)),
        ("pirates_cove_tavern", draw_tavern(tavern_data(seats_parts), n)),
        ("pirates_cove_royal_navy", draw_navy(navy_data(seats_parts))),
    ]
    figs = [(name, f) for name, f in figs if f is not None]  # sections: none when no strategy varies a level
    seed = int(ctx.manifest.get("seed", 0))
    seats = load(ctx.results_dir / SCENARIO).seats
    figs.append(("pirates_cove_players", draw_players(players_data(ctx.rules, seats, seed, SIDE_GAMES), SIDE_GAMES)))
    return figs
