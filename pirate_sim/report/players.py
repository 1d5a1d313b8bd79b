"""The "how strong are the players" page, for every game: each strategy against each other.

Played when the report is made, with the run's rules, so the table belongs to the rules it
sits beside.  Who plays:

* every registered strategy: with the scenario's own settings where one of its seats
  plays it (a strategy seated twice with different settings is two entries), with its
  defaults otherwise;
* each learned player the scenario seats (``strategy = "learned"``: its weights and base);
* ``search`` at its default budget, as soon as the game registers a strategy of that name
  (it is a registered strategy like the others: nothing here names a game), except where the
  report's measured search table (:mod:`.strength`) was played on these very rules and no
  learned player sits at the table: its cells are all in that table, with far more games.

How (the Pirate's Peak pairing table, generalised): in a game of ``n`` seats (2 where the
game allows two players, else the scenario's count), entry ``a`` sits alone in one seat
among ``n - 1`` seats of ``b``, in each seat in turn, every seating on the same seeds.
``a``'s share: a win 1, a game without a winner ``1/n``, other games 0, so the fair share
is ``1/n`` (for two seats: a's share of the points, a tie 1/2).  95% Wilson interval on
the points (never zero-wide).  The first player's win rate among decided games is given
per pairing (Wilson).

Cost is fixed, never timed: :data:`PLAYERS_GAMES` games per seating for scripted pairings and
:data:`SEARCH_GAMES` for pairings with ``search`` (a Pirateer search game takes about a
second, so a search cell holds few games: it is hatched and says ``n=``, with its interval).
Fixed counts make the page the same on every machine, so its games are cached
(:func:`cache_path`: keyed by the game, rules, seats, seed, counts, rules version and the
package's sources) and a second report of the same rules plays nothing.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..games.base import G_FIRST_SEAT, G_WINNER
from ..stats import Estimate, wilson
from ..user_strategy import LEARNED, ROLLOUT_PLAYER

PLAYERS_GAMES = 1000  # games per seating of a pairing of scripted strategies
# games per seating with `search`: about 1 s a game in Pirateer, so a cold page stays under a minute
# there and a few seconds elsewhere; the cells say n= and are hatched (see FEW_GAMES)
SEARCH_GAMES = 5
QUICK_GAMES = 24  # the same in a quick report (tests): the page's layout, not its figures
QUICK_SEARCH_GAMES = 2
FEW_GAMES = 200  # a cell resting on fewer games is hatched and prints n= (its interval is wide)
SEARCH = "search"  # the searching player's registered name (pirate_sim/search.py)
CACHE_FORMAT = 1  # bump when the cached record's layout changes


@dataclass(frozen=True)
class Entry:
    label: str  # what the page calls it
    seat: dict  # {"strategy": name, **params}
    source: str  # "scenario", "defaults" or "search defaults"


@dataclass(frozen=True)
class Pairing:
    a: str
    b: str
    share_a: Estimate  # a's share (a win 1, no winner 1/n), a alone among b's, every seating pooled
    first_wins: Estimate  # the first player's win rate among decided games
    games: int  # every seating together
    per_seating: int  # games in each seating


def players_seat_count(game, n_scenario: int) -> int:
    """Two where the game allows two players, else the scenario's player count."""
    return 2 if game.min_seats <= 2 else max(game.min_seats, n_scenario)


def entries(game, seats: list[dict] | None) -> list[Entry]:
    """The scenario's strategies with its settings, every other registered one with its defaults,
    ``search`` (when registered) last."""
    out: list[Entry] = []
    named: dict[str, list[dict]] = {}
    for seat in seats or []:
        if seat is None:
            continue
        d = {k: v for k, v in dict(seat).items() if k != "name"}
        same = named.setdefault(str(d["strategy"]), [])
        if d not in same:
            same.append(d)
    for st in game.strategies:
        if st.name == SEARCH:
            continue
        found = named.get(st.name)
        if not found:
            out.append(Entry(st.name, {"strategy": st.name}, "defaults"))
        for i, d in enumerate(found or []):
            out.append(Entry(st.name if len(found) == 1 else f"{st.name} ({i + 1})", d, "scenario"))
    players: list[dict] = []  # learned players the scenario seats (pirate_sim/learned.py), one entry per weights
    for d in named.get(LEARNED, []):
        if all((d["weights_sha256"], d.get("base")) != (p["weights_sha256"], p.get("base")) for p in players):
            players.append(d)
    for i, d in enumerate(players):
        out.append(Entry(LEARNED if len(players) == 1 else f"{LEARNED} ({i + 1})", d, "scenario"))
    if any(st.name == SEARCH for st in game.strategies):
        own = named.get(SEARCH)
        out.append(Entry(SEARCH, own[0] if own else {"strategy": SEARCH},
                         "scenario" if own else "search defaults"))
    return out


def measured_elsewhere(ents: list[Entry]) -> bool:
    """Whether every search cell of this page is in the measured search table: ``search`` at its
    defaults against registered scripted strategies only.  A learned player (or search with the
    scenario's own settings) is in no measured table, so its cells against search stay here."""
    return (any(e.seat["strategy"] == SEARCH and e.source == "search defaults" for e in ents)
            and not any(e.seat["strategy"] == LEARNED for e in ents))


def _compile(game, rules: dict, seats: list[dict]):
    """The table's kernel tables; a learned seat (or a search rolling one out) goes through the
    scenario, which plays the bundled player file with the seat's weights."""
    if not any(seat["strategy"] == LEARNED or ROLLOUT_PLAYER in seat for seat in seats):
        return game.compile(rules, seats)
    from ..learned import player
    from ..scenario import Scenario

    return Scenario(game, game.title, "", {}, dict(rules), seats, source="<players page>",
                    user={LEARNED: player(game.name)}).compile()


def game_report_module(game):
    """The game's own report module (``pirate_sim.games.<game>.report``), or None."""
    import importlib

    try:
        return importlib.import_module(type(game).__module__.rsplit(".", 1)[0] + ".report")
    except ImportError:
        return None


def seat_count_rules(game, rules: dict, n: int) -> dict:
    """The run's rules for ``n`` seats: the game's report module may drop what depends on the
    scenario's own count (its ``players_rules(rules, n)``, e.g. Pirateer's harbor list)."""
    mod = game_report_module(game)
    return mod.players_rules(dict(rules), n) if mod is not None and hasattr(mod, "players_rules") else dict(rules)


def search_games_for(game) -> int:
    """Games per seating with ``search``: :data:`SEARCH_GAMES`, or the game's report module's
    ``PLAYERS_SEARCH_GAMES`` (0: its search is too slow for this page, which leaves it out)."""
    mod = game_report_module(game)
    return int(getattr(mod, "PLAYERS_SEARCH_GAMES", SEARCH_GAMES)) if mod is not None else SEARCH_GAMES


def _play_pairing(game, rules: dict, a: Entry, b: Entry, n: int, games: int, seed: int, first: int = 0):
    """Arrays (a's score, winner == first seat, decided) over every seating of a alone among b's."""
    score, first_won, decided = [], [], []
    for i in range(n if a.label != b.label else 1):  # a mirror: one seating is all of them
        seats = [dict(b.seat) for _ in range(n)]
        seats[i] = dict(a.seat)
        g, _ = game.play(_compile(game, rules, seats), seed, first, games)
        w = g[:, G_WINNER]
        score.append(np.where(w == i, 1.0, np.where(w < 0, 1.0 / n, 0.0)))
        first_won.append(w == g[:, G_FIRST_SEAT])
        decided.append(w >= 0)
    return np.concatenate(score), np.concatenate(first_won), np.concatenate(decided)


def _pairing(a: Entry, b: Entry, part: tuple, per_seating: int) -> Pairing:
    s, fw, dec = part
    # Wilson on the points (a tie's fraction counts as a fraction of a success): never a zero-width
    # interval when a player never wins (the normal one would be) and exact for win-or-lose games
    return Pairing(a.label, b.label, wilson(float(s.sum()), len(s)),
                   wilson(int((fw & dec).sum()), int(dec.sum())), len(s), per_seating)


def cache_path(key: dict) -> Path:
    """Where the page's games for ``key`` are kept: the user cache directory
    (:func:`pirate_sim._cache.root`) under ``players/``, named by the key's hash."""
    from .. import _cache

    blob = json.dumps({**key, "package": _cache.source_digest(), "format": CACHE_FORMAT}, sort_keys=True,
                      default=str)
    d = _cache.root() / "players"
    d.mkdir(parents=True, exist_ok=True)
    return d / f"{hashlib.sha256(blob.encode()).hexdigest()[:24]}.json"


def _estimate(d: dict) -> Estimate:
    return Estimate(**d)


def _load(path: Path) -> list[Pairing] | None:
    """The cached pairings, or None when there are none (or the file is unreadable: played again)."""
    try:
        rows = json.loads(path.read_text())
        return [Pairing(**{**r, "share_a": _estimate(r["share_a"]), "first_wins": _estimate(r["first_wins"])})
                for r in rows]
    except (OSError, ValueError, TypeError, KeyError):
        return None


def _store(path: Path, table: list[Pairing]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps([asdict(p) for p in table]))
    tmp.replace(path)  # whole or not at all: a report killed mid-write leaves no half record


def players_data(game, rules: dict, seats: list[dict] | None, seed: int, n_scenario: int, quick: bool = False,
                 games: int | None = None, search_games: int | None = None, progress=None,
                 cache: bool = True, clock=time.perf_counter, search_measured: bool = False) -> dict[str, Any]:
    """Every ordered pairing of :func:`entries` (for two seats, every unordered one) and mirrors.

    ``progress(text)`` hears each pairing as it is played; with ``cache``, pairings played
    before for the same key are read back instead (``data["cached"]`` says so).
    ``search_measured``: the report's measured search table (:mod:`.strength`) was played on
    exactly these rules, seats and search settings, so ``search`` at its defaults gets no
    few-game cells here (nor its kernel a compile): the footnote points to that table.
    """
    games = games or (QUICK_GAMES if quick else PLAYERS_GAMES)
    if search_games is None:
        # a quick page has the real page's layout: where the game leaves search out, so does it
        search_games = min(QUICK_SEARCH_GAMES, search_games_for(game)) if quick else search_games_for(game)
    rules = dict(rules)
    if "strategy_seating" in rules:
        rules["strategy_seating"] = "fixed"  # the seatings below place every entry themselves
    n = players_seat_count(game, n_scenario)
    rules = seat_count_rules(game, rules, n)
    ents = entries(game, seats)
    left_out = search_games == 0 and any(e.seat["strategy"] == SEARCH for e in ents)
    measured = not left_out and search_measured and measured_elsewhere(ents)
    if left_out or measured:  # too slow for this page, or measured on the next: no cell of noise
        ents = [e for e in ents if e.seat["strategy"] != SEARCH]
    pairs = (list(itertools.combinations_with_replacement(ents, 2)) if n == 2
             else [(a, b) for a in ents for b in ents])
    key = {"game": game.name, "rules": rules, "seats": [e.seat for e in ents], "labels": [e.label for e in ents],
           "seed": seed, "n_seats": n, "games": games, "search_games": search_games, "rules_version": game.version}
    path = cache_path(key) if cache else None
    table = _load(path) if path is not None and path.exists() else None
    start = clock()
    cached = table is not None
    if table is None:
        table = []
        say = progress or (lambda text: None)
        for i, (a, b) in enumerate(pairs):
            per = search_games if SEARCH in (a.seat["strategy"], b.seat["strategy"]) else games
            say(f"players: {a.label} vs {b.label}, {per:,} games per seating ({i + 1} of {len(pairs)})")
            table.append(_pairing(a, b, _play_pairing(game, rules, a, b, n, per, seed), per))
        if path is not None:
            _store(path, table)
    return {"entries": ents, "table": table, "n_seats": n, "games": games, "search_games": search_games,
            "seconds": clock() - start, "seed": seed, "cached": cached, "search_left_out": left_out,
            "search_measured": measured}


def share(table: list[Pairing], row: str, col: str, n_seats: int) -> Estimate:
    """row's share against col (two seats: either order of the stored pair, complemented)."""
    for p in table:
        if (p.a, p.b) == (row, col):
            return p.share_a
        if n_seats == 2 and (p.a, p.b) == (col, row):
            e = p.share_a
            return Estimate(1 - e.value, 1 - e.hi, 1 - e.lo, e.n, e.method)
    raise KeyError((row, col))


def games_played(table: list[Pairing], row: str, col: str) -> int:
    for p in table:
        if {p.a, p.b} == {row, col} and (p.a, p.b) in ((row, col), (col, row)):
            return p.games
    return 0


def draw_players(data: dict):
    import matplotlib.pyplot as plt

    from matplotlib.patches import Rectangle

    from .style import COLOURS, PAGE, SHARE_CMAP, footnote

    names = [e.label for e in data["entries"]]
    n = data["n_seats"]
    fair = 100 / n
    table = data["table"]
    fig, (a1, a2) = plt.subplots(1, 2, figsize=PAGE, gridspec_kw={"width_ratios": [1.15, 1]})
    m = np.array([[fair / 100 if r == c else share(table, r, c, n).value for c in names] for r in names]) * 100
    from matplotlib.colors import TwoSlopeNorm

    a1.imshow(m, cmap=SHARE_CMAP, norm=TwoSlopeNorm(vcenter=fair, vmin=0, vmax=100))  # white at the fair share
    for i, r in enumerate(names):
        for j, c in enumerate(names):
            g = next(p for p in table if (p.a, p.b) in ((r, c), (c, r)))
            few = g.games < FEW_GAMES
            if i == j:  # a mirror: its share is the fair share by symmetry; its games give the first-player rate
                text = f"mirror\n{'n=' if few else ''}{g.games:,}{'' if few else ' g'}"
            else:
                e = share(table, r, c, n)
                text = (f"{100 * e.value:.0f}\n[{100 * e.lo:.0f}, {100 * e.hi:.0f}]\nn={g.games}" if few else
                        f"{100 * e.value:.1f}\n±{100 * (e.hi - e.value):.1f}\n{g.games:,} g")
            if few:  # few games: hatched, so its colour is not read like a 2,000-game cell's
                a1.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="///", edgecolor="0.45", lw=0))
            a1.text(j, i, text, ha="center", va="center", fontsize=7 if len(names) > 5 else 8,
                    bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none", alpha=0.85) if few else None,
                    color="white" if not few and abs(m[i, j] - fair) / (100 - fair if m[i, j] > fair else fair) > 0.6
                    else "black")
    labels = [x.replace("_", "\n") for x in names]
    a1.set_xticks(range(len(names)), labels, fontsize=8)
    a1.set_yticks(range(len(names)), labels, fontsize=8)
    who = ("Row's share of the points against column" if n == 2
           else f"Row's win share alone among {n - 1} column players")
    a1.set(title=f"{who}\n(%, ±95% CI, g = games; fair share {fair:.0f}%)", xlabel="opponent" if n == 2
           else "the other seats' strategy", ylabel="player")
    ests = [p.first_wins for p in table]
    pos = np.arange(len(table))
    vals = np.array([e.value for e in ests]) * 100
    err = np.clip(np.array([[e.value - e.lo for e in ests], [e.hi - e.value for e in ests]]) * 100, 0, None)
    # points, not bars: the axis spans the rates (a bar from an axis that does not start at 0 misleads)
    a2.errorbar(vals, pos, xerr=err, fmt="o", color=COLOURS[0], capsize=3, ms=4)
    for p_, v, hi_ in zip(pos, vals, vals + err[1]):
        if np.isfinite(v):
            a2.text(hi_, p_, f" {v:.1f}%", va="center", fontsize=7.5)
    a2.set_yticks(pos, [f"{p.a} vs {p.b}" for p in table])
    a2.invert_yaxis()
    a2.axvline(fair, color="grey", ls="--", lw=1)
    finite = [(e.lo, e.hi) for e in ests if np.isfinite(e.value)]
    lo = min([x[0] for x in finite] + [fair / 100]) * 100
    hi = max([x[1] for x in finite] + [fair / 100]) * 100
    pad = max(hi - lo, 2.0) * 0.08
    a2.set_xlim(max(lo - pad, 0), min(hi + pad * 4, 100))  # the rates' own range: 49-54% look different
    a2.tick_params(axis="y", labelsize=7 if len(table) > 12 else 8)
    a2.grid(axis="x", alpha=0.3)
    a2.set(title=f"First player's win rate by pairing\n(decided games, 95% CI; dashed: fair share {fair:.0f}%;\n"
                 "the axis spans the rates, not 0-100)",
           xlabel="won by the first player (%)", ylabel="pairing")
    a2.title.set_fontsize(9.5)
    fig.suptitle("How strong are the players: every strategy against every other"
                 + (f" ({n} seats)" if n > 2 else ""), fontsize=11)
    fig.text(0.5, 0.935, f"{sum(p.games for p in table):,} games, "
             + ("read from the cache (played for an earlier report of these rules)" if data.get("cached")
                else f"played when this report was made, in {data['seconds']:.0f} s"), ha="center", fontsize=9)
    src = "; ".join(f"{e.label}: {'the scenario' if e.source == 'scenario' else 'defaults'}"
                    for e in data["entries"])
    has_search = any(e.seat["strategy"] == SEARCH for e in data["entries"])
    few = any(p.games < FEW_GAMES for p in table)
    lines = [f"The run's rules and seed; {data['games']:,} games per seating of each scripted pairing"
             + (f", {data['search_games']:,} per seating with search (at its default budget; a search game is slow)"
                if has_search else "")
             + ("; every seating of the lone player, the same seeds in each." if n > 2
                else "; both seatings, the same seeds."),
             (f"Hatched cells rest on fewer than {FEW_GAMES} games (n= games, [95% CI]): read the interval, "
              "not the colour.  " if few else "")
             + f"Settings: {src}.  A win 1, a game without a winner 1/{n}."
             + ("  'search' is left out of this page: its games are too slow here for cells worth reading "
                "(pirate-sim tournament ranks it)." if data.get("search_left_out") else
                "  'search' at its defaults is on the 'how strong is search' page, measured on these same rules "
                "with far more games than this page plays." if data.get("search_measured") else
                "" if has_search else "  No 'search' player is registered for this game yet.")]
    footnote(fig, "\n".join(lines))
    fig.tight_layout(rect=(0, 0.05, 1, 0.93))
    return fig


def players_page(ctx, progress=None):
    """The page for :func:`pirate_sim.report.report_pages`; ``progress(text)`` hears each pairing."""
    from .strength import applies

    n = players_seat_count(ctx.game, ctx.acc.n_seats)
    data = players_data(ctx.game, ctx.rules, ctx.scenario_seats or [], int(ctx.manifest.get("seed", 0)), ctx.acc.n_seats,
                        quick=ctx.quick, progress=progress, search_measured=applies(ctx.game, ctx.rules, n))
    return draw_players(data)
