"""Worked examples of the meta-game for the four games: writes docs/meta_examples.md.

For each game's default scenario: the tournament of every registered strategy (``search``
included once a game registers it) and, where ``search`` is registered, the skill ladder,
each with its timing.  Run from the repository root::

    python docs/meta_examples.py                       # defaults of the commands (minutes)
    python docs/meta_examples.py --games 200 --skill-games 100 --steps 3   # a quick look

Every figure is reproducible: the scenario's seed, the settings and the games per match
are printed beside it, and the same numbers come from ``pirate-sim tournament`` / ``skill``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pirate_sim import scenario as scen  # noqa: E402
from pirate_sim.meta import plan, skill, tournament  # noqa: E402

GAMES = ("pirates_peak", "ice_pirates", "pirates_cove", "pirateer")


def pct(e: dict) -> str:
    return f"{100 * e['value']:.1f}% [{100 * e['lo']:.1f}, {100 * e['hi']:.1f}]"


def tournament_md(s: dict, seconds: float, source: str) -> list[str]:
    names = s["strategies"]
    two = s["n_seats"] == 2
    out = [f"**Tournament** (`pirate-sim tournament {source} -n {s['settings']['games']}`): {s['design']}, "
           f"{s['games_per_match']:,} games per match, {seconds:.1f} s.", "",
           f"Verdict: **{s['verdict']}**.", "",
           ("Win rate of the row strategy against the column one:" if two else
            f"Win rate of one row strategy among a field of the column one (fair share "
            f"{100 * s['fair_share']:.0f}%):"), "",
           "| | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for i, a in enumerate(names):
        cells = ["mirror" if e is None else f"{100 * e['value']:.0f}% [{100 * e['lo']:.0f}, {100 * e['hi']:.0f}]"
                 for e in s["matrix_ci"][i]]
        out.append(f"| {a} | " + " | ".join(cells) + " |")
    eq = s["equilibrium"]
    out += ["", f"Equilibrium ({eq['method']}): " + ", ".join(
        f"{n} {pct(e)}" for n, e in zip(names, eq["mix"]) if e["hi"] > 0.005) +
        f"; support {eq['support']['value']:.0f} [{eq['support']['lo']:.0f}, {eq['support']['hi']:.0f}].", ""]
    out.append("Ratings (Elo scale, mean 0): " + ", ".join(
        f"{n} {e['value']:+.0f} [{e['lo']:+.0f}, {e['hi']:+.0f}]"
        for n, e in sorted(zip(names, s["ratings"]["elo"]), key=lambda t: -t[1]["value"])) + ".")
    b = s["balance"]
    out += ["", f"At the equilibrium mix ({b['method']}): the first player wins {pct(b['first_player_win_rate'])} "
            f"of decided games; seat balance {100 * b['seat_balance']['value']:.1f} points "
            f"[{100 * b['seat_balance']['lo']:.1f}, {100 * b['seat_balance']['hi']:.1f}].", ""]
    return out


def skill_md(s: dict, seconds: float, source: str) -> list[str]:
    st = s["settings"]
    out = [f"**Skill ladder** (`pirate-sim skill {source} -b {st['base_budget']} -k {st['steps']} -n {st['games']}`): "
           f"{seconds:.1f} s.", "", f"Verdict: **{s['verdict']}**.", "",
           "| step | budgets | win rate of the stronger | beats |", "|---|---|---|---|"]
    for x in s["steps"]:
        out.append(f"| {x['step']} | {x['strong_budget']} vs {x['weak_budget']} | {pct(x['win_rate'])} | "
                   f"{'yes' if x['beats'] else 'no'} |")
    out += [""] + [f"- {p['strategy']}: {p['text']}" for p in s["placements"]] + [""]
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=tournament.GAMES, help="games per tournament match")
    ap.add_argument("--skill-games", type=int, default=skill.GAMES, help="games per ladder step")
    ap.add_argument("--place-games", type=int, default=skill.PLACE_GAMES, help="games per placement level")
    ap.add_argument("--base-budget", type=int, default=skill.BASE_BUDGET)
    ap.add_argument("--steps", type=int, default=skill.STEPS)
    ap.add_argument("--bootstrap", type=int, default=500)
    ap.add_argument("--search-budget", type=int, default=None,
                    help="the tournament's `search` at this budget (default: the scenario's, else search's default)")
    ap.add_argument("--only", default=",".join(GAMES), help="games to run, comma-separated (their default scenario)")
    ap.add_argument("--scenarios", default=None, help="scenario files to run instead, comma-separated")
    ap.add_argument("--results", default=None, help="where the directories go (default: a temporary folder)")
    ap.add_argument("--doc", default=str(ROOT / "docs" / "meta_examples.md"), help="the Markdown file to write")
    args = ap.parse_args(argv)
    res_root = Path(args.results or tempfile.mkdtemp(prefix="meta-examples-"))
    lines = ["# Meta-game worked examples", "",
             "Generated by `python docs/meta_examples.py` (do not edit by hand); how to read them: "
             "[meta.md](meta.md), definitions: [metrics.md](metrics.md). Timings are wall-clock seconds on the "
             "machine that ran the script, compilation included.", ""]
    sources = ([x.strip() for x in args.scenarios.split(",") if x.strip()] if args.scenarios else
               [f"scenarios/{g.strip()}/default.toml" for g in args.only.split(",") if g.strip()])
    for source in sources:
        base = scen.load(ROOT / source)
        base.source = source
        g = base.game.name
        lines += [f"## {base.game.title} (`{source}`, {base.n_seats} seats, seed {base.seed})", ""]
        t0 = time.perf_counter()
        ms, st = tournament.build(base, tournament.settings(None, args.games, args.bootstrap))
        if args.search_budget:  # what `--set` on a search seat of the scenario would give
            for m in ms:
                m.seats = [{**x, "budget": args.search_budget} if x["strategy"] == skill.SEARCH else x
                           for x in m.seats]
        s = plan.execute(res_root / f"{g}-tournament", "tournament", base, ms, st, tournament.analyse, force=True)
        lines += tournament_md(s, time.perf_counter() - t0, source)
        if args.search_budget and skill.SEARCH in st["strategies"]:
            lines += [f"(`search` plays at budget {args.search_budget} in this tournament: "
                      f"`--set seats.N.budget={args.search_budget}` on a search seat gives the same.)", ""]
        print(f"{g}: tournament {time.perf_counter() - t0:.1f} s: {s['verdict']}", flush=True)
        if skill.SEARCH in [x.name for x in base.game.strategies]:
            t0 = time.perf_counter()
            ms, st = skill.build(base, skill.settings(args.base_budget, args.steps, args.skill_games, args.place_games,
                                                      None, bootstrap=args.bootstrap))
            s = plan.execute(res_root / f"{g}-skill", "skill", base, ms, st, skill.analyse, force=True)
            lines += skill_md(s, time.perf_counter() - t0, source)
            print(f"{g}: skill {time.perf_counter() - t0:.1f} s: {s['verdict']}", flush=True)
        else:
            lines += [f"**Skill ladder**: not yet: {base.game.title} has no `search` strategy registered "
                      "(issue 24); this script runs it as soon as one is.", ""]
    Path(args.doc).write_text("\n".join(lines).rstrip() + "\n")
    print(f"wrote {args.doc} (results in {res_root})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
