"""How strong `search` is, in every game: at its default settings, alone in one seat among
copies of each scripted player, on held-out seeds (the tables of docs/search.md, "Strength",
and of the README; issue 30).

    python docs/search_strength.py                          # every game's table (an hour on 2 cores)
    python docs/search_strength.py --game ice_pirates --games 100 --json out.json
    python docs/search_strength.py --game pirates_cove --seats 4 --opponents expert \\
        --set rollout=fighter                               # one cell, another rollout strategy

What a cell is: the default scenario's rules with ``n`` seats (two where the game allows two
players, else the scenario's own count; ``--seats`` overrides), ``search`` alone in seat ``i``
among ``n - 1`` seats of the opponent, every ``i`` in turn on the same seeds (the players
page's pairing, :func:`pirate_sim.report.players._play_pairing`).  Its share: a win 1, a game
without a winner ``1/n``, else 0, so the fair share is ``1/n``.  The interval is Wilson 95% on
the points.  Beside it, ``expert`` (each game's strongest script) alone in the same seat among
the same field on the same seeds, and search's edge over it game by game (paired: the mean
difference of the two scores on the same seed and seating, normal 95% interval).  Against
``expert`` itself that baseline is a mirror, exactly ``1/n`` over every seating.  CPU seconds
per game are the process's CPU time (every thread) over the cell's games, the kernels
compiled beforehand.

Seeds are held out: 30,000,001 (search) was used by no development run or test.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED = 30_000_001  # held out: used by nothing else
BASELINE = "expert"  # every game's strongest scripted player: the baseline in the same seat
GAMES = {"pirates_peak": 1000, "ice_pirates": 400, "pirates_cove": 200, "pirateer": 60}  # per seating


def _seat(game, name: str, **over) -> dict:
    return {"strategy": name, **{p.key: p.default for p in game.strategy(name).params}, **over}


def default_rules(game) -> tuple[dict, int]:
    """The default scenario's rules (as a run of it reads them) and its seat count."""
    from pirate_sim.scenario import load

    s = load(ROOT / "scenarios" / game.name / "default.toml")
    return dict(s.rules), len(s.seats)


def _rules(game, base: dict, n: int) -> dict:
    """``base`` (the default scenario's rules) for ``n`` seats, every entry seated by the pairing."""
    from pirate_sim.report.players import seat_count_rules

    rules = dict(base)
    if "strategy_seating" in rules:
        rules["strategy_seating"] = "fixed"  # the pairing seats every entry itself
    return seat_count_rules(game, rules, n)


def cell(game, rules: dict, n: int, a: dict, b: dict, games: int, seed: int) -> dict:
    """``a`` alone among ``n - 1`` seats of ``b``, each seating ``games`` games on ``seed``."""
    from pirate_sim.report.players import Entry, _play_pairing
    from pirate_sim.stats import wilson

    ea, eb = Entry("a", a, "x"), Entry("b", b, "x")
    _play_pairing(game, rules, ea, eb, n, 1, seed + 1)  # compile or load the kernels outside the timing
    t, c = time.perf_counter(), time.process_time()
    score, _, decided = _play_pairing(game, rules, ea, eb, n, games, seed)
    cpu, wall = time.process_time() - c, time.perf_counter() - t
    e = wilson(float(score.sum()), len(score))
    return {"games": len(score), "share": e.value, "lo": e.lo, "hi": e.hi, "undecided": int((~decided).sum()),
            "cpu_s_per_game": cpu / len(score), "wall_s": wall, "scores": score.tolist()}


def paired(x: list, y: list) -> dict:
    """Mean of ``x - y`` over the same games (same seeds, same seatings) and its normal 95%
    interval: the search's edge over another strategy in the same seat."""
    import numpy as np

    from pirate_sim.stats import mean_ci

    d = np.asarray(x) - np.asarray(y)
    e = mean_ci(float(d.sum()), float((d * d).sum()), len(d))
    return {"diff": e.value, "lo": e.lo, "hi": e.hi}


def measure(game_name: str, games: int | None = None, seats: int | None = None, opponents=None,
            search_over: dict | None = None, seed: int = SEED, baseline: bool = True, say=print) -> dict:
    """One game's table: search (defaults, ``search_over`` changed) against each opponent."""
    from pirate_sim.games import get_game
    from pirate_sim.report.players import players_seat_count

    game = get_game(game_name)
    base, n_scenario = default_rules(game)
    n = seats or players_seat_count(game, n_scenario)
    rules = _rules(game, base, n)
    games = games or GAMES[game_name]
    names = [s.name for s in game.strategies if s.name != "search"]
    opponents = list(opponents or names)
    search = _seat(game, "search", **(search_over or {}))
    rows = []
    for o in opponents:
        r = {"opponent": o, "search": cell(game, rules, n, search, _seat(game, o), games, seed)}
        if baseline:
            r["expert"] = b = cell(game, rules, n, _seat(game, BASELINE), _seat(game, o), games, seed)
            r["edge"] = paired(r["search"]["scores"], b["scores"])
        rows.append(r)
        s = r["search"]
        say(f"{game_name} n={n} search vs {o}: {s['share']:.3f} [{s['lo']:.3f}, {s['hi']:.3f}] "
            f"{s['games']} games, {s['cpu_s_per_game']:.4f} CPU s/game")
    params = {k: v for k, v in search.items() if k != "strategy"}
    return {"game": game_name, "seats": n, "seed": seed, "games_per_seating": games, "search": params,
            "version": game.version, "rules": base, "rows": rows}


TABLES_MODULE = ROOT / "pirate_sim" / "report" / "strength_tables.py"
# what the report's page and its test read of a cell (not the games' scores, wall time or counts of draws)
KEPT = frozenset({"share", "lo", "hi", "games", "cpu_s_per_game", "diff"})


def write_tables(tables: list[dict], path: Path = TABLES_MODULE) -> None:
    """Keep ``tables`` in the report's module (per game, one table per seat count, the last
    measured wins), the games' scores left out: what the report's "how strong is search" page
    shows."""
    import pprint

    from pirate_sim.games import get_game
    from pirate_sim.report.strength_tables import TABLES

    keep = {g: {t["seats"]: t for t in ts} for g, ts in TABLES.items()}
    for t in tables:
        rows = [{k: ({x: y for x, y in v.items() if x in KEPT} if isinstance(v, dict) else v)
                 for k, v in r.items()} for r in t["rows"]]
        rules = t.get("rules") or default_rules(get_game(t["game"]))[0]
        keep.setdefault(t["game"], {})[t["seats"]] = {**t, "rules": rules, "rows": rows}
    keep = {g: [ts[n] for n in sorted(ts)] for g, ts in keep.items()}
    path.write_text('"""The measured strength of each game\'s ``search`` at its default settings: written by\n'
                    "``python docs/search_strength.py --write`` (do not edit by hand), shown by the report's\n"
                    '"how strong is search" page (:mod:`pirate_sim.report.strength`)."""\n\n'
                    f"TABLES = {pprint.pformat(keep, width=110, sort_dicts=True)}\n")


def markdown(t: dict) -> str:
    """One table of ``measure``'s result."""
    n = t["seats"]
    p = t["search"]
    from pirate_sim.games import get_game

    counts = {r["search"]["games"] for r in t["rows"]}
    games = f"{counts.pop():,} games a row" if len(counts) == 1 else "games as the table says"
    opp = f", opponents `{p['opponents']}`" if "opponents" in p else ""
    head = (f"**{get_game(t['game']).title}, {n} players**: `search` (budget {p['budget']}, rollout "
            f"`{p['rollout']}`, top_k {p['top_k']}{opp}) alone among {n - 1} of each, {games}, seed {t['seed']:,}, "
            f"rules {t['version']}; fair share {1 / n:.3f}\n\n")
    cols = ("| opponent | search's share [95%] | games | CPU s/game | `expert` in that seat [95%] | "
            "search's edge over it, paired [95%] |")
    lines = [cols, "|" + "---|" * (cols.count("|") - 1)]
    for r in t["rows"]:
        s = r["search"]
        line = (f"| {r['opponent']} | {s['share']:.3f} [{s['lo']:.3f}, {s['hi']:.3f}] | {s['games']:,} | "
                f"{s['cpu_s_per_game']:.3g} |")
        b, d = r.get("expert"), r.get("edge")
        line += (f" {b['share']:.3f} [{b['lo']:.3f}, {b['hi']:.3f}] | {d['diff']:+.3f} [{d['lo']:+.3f}, "
                 f"{d['hi']:+.3f}] |" if b else " | |")
        lines.append(line)
    return head + "\n".join(lines) + "\n"


DOCS = (ROOT / "README.md", ROOT / "docs" / "search.md")  # each holds the tables between these markers
BEGIN, END = "<!-- search-strength: begin (docs/search_strength.py --docs) -->", "<!-- search-strength: end -->"


def write_docs(tables: list[dict], paths=DOCS) -> None:
    """Put every game's tables (``tables``, in order) between the markers of each file."""
    block = "\n".join(markdown(t) for t in tables)
    for path in paths:
        text = path.read_text()
        i, j = text.index(BEGIN) + len(BEGIN), text.index(END)
        path.write_text(text[:i] + "\n" + block + text[j:])


def _value(v: str):
    for cast in (int, float):
        try:
            return cast(v)
        except ValueError:
            pass
    return v


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", nargs="+", default=list(GAMES))
    ap.add_argument("--games", type=int, default=None, help="games per seating (default: per game)")
    ap.add_argument("--seats", type=int, default=None)
    ap.add_argument("--opponents", nargs="+", default=None)
    ap.add_argument("--set", nargs="+", default=[], metavar="KEY=VALUE", help="search parameters")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--no-baseline", action="store_true")
    ap.add_argument("--json", type=Path, default=None, help="append each table to this JSON list")
    ap.add_argument("--write", action="store_true", help="keep each table for the report's page "
                    "(pirate_sim/report/strength_tables.py); with --from, the tables of that JSON")
    ap.add_argument("--from", dest="source", type=Path, default=None, help="a --json file: print (and --write) "
                    "its tables, playing nothing")
    ap.add_argument("--docs", action="store_true", help="with --from: the tables into README.md and docs/search.md")
    a = ap.parse_args(argv)
    if a.source:
        tables = json.loads(a.source.read_text())
        for t in tables:
            print(markdown(t))
        if a.write:
            write_tables(tables)
        if a.docs:
            write_docs(tables)
        return 0
    over = {k: _value(v) for k, v in (x.split("=", 1) for x in a.set)}
    for g in a.game:
        t = measure(g, a.games, a.seats, a.opponents, over, a.seed, not a.no_baseline)
        print(markdown(t))
        if a.json:
            old = json.loads(a.json.read_text()) if a.json.exists() else []
            a.json.write_text(json.dumps(old + [t], indent=1))
        if a.write:
            write_tables([t])
    return 0


if __name__ == "__main__":
    sys.exit(main())
