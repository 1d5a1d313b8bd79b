"""Worked examples of the meta-game for the four games: writes docs/meta_examples.md.

For each game's default scenario: the ``--estimate`` of the full default skill ladder
(K = 6, B = 8, 1,068 games a step, every scripted strategy placed), then the tournament
of every registered strategy (``search`` included; an ``expert`` registered later joins
on the next run) and the skill ladder at the setting this machine affords (``SETTINGS``:
the full default where it fits, smaller K, games or search budget elsewhere, stated on
the page), each with its wall-clock time and the estimate it printed first.  Run from
the repository root::

    python docs/meta_examples.py                           # the SETTINGS below (about 40 CPU-minutes)
    python docs/meta_examples.py --only pirates_peak       # one game
    python docs/meta_examples.py --full                    # the commands' defaults everywhere (hours)
    python docs/meta_examples.py --games 200 --skill-games 100 --steps 3   # the same settings for every game

Every figure is reproducible: the scenario's seed and the settings are printed beside
it, and the same numbers come from ``pirate-sim tournament`` / ``skill`` with the options
shown (``--set seats.N.budget=...`` on a search seat for a tournament's cheaper search).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pirate_sim import scenario as scen  # noqa: E402
from pirate_sim.meta import plan, skill, tournament  # noqa: E402

GAMES = ("pirates_peak", "ice_pirates", "pirates_cove", "pirateer")

# What this 2-core machine affords of each default scenario (measured with --estimate, see the
# page): the full default ladder for Pirate's Peak; fewer steps and games where search's cost
# per game (linear in its budget, times the seats it plays) makes the default take hours.
# "search_budget": the tournament's search at this budget instead of its default (None: default).
# Matches stop once their sequential tests decide, so the games are caps: the commands' defaults
# everywhere; only the tournament's search budget is lowered where its cost per game would
# still take the tournament past the machine.
SETTINGS = {
    "pirates_peak": {"games": 1068, "search_budget": None,
                     "base_budget": 8, "steps": 6, "skill_games": 1068, "place_games": 268},
    "ice_pirates": {"games": 1068, "search_budget": 16,
                    "base_budget": 8, "steps": 6, "skill_games": 1068, "place_games": 268},
    "pirates_cove": {"games": 1068, "search_budget": 16,
                     "base_budget": 8, "steps": 6, "skill_games": 1068, "place_games": 268},
    "pirateer": {"games": 1068, "search_budget": 8,
                 "base_budget": 8, "steps": 6, "skill_games": 1068, "place_games": 268},
}
FULL = {"games": tournament.GAMES, "search_budget": None, "base_budget": skill.BASE_BUDGET, "steps": skill.STEPS,
        "skill_games": skill.GAMES, "place_games": skill.PLACE_GAMES}


def pct(e: dict) -> str:
    return f"{100 * e['value']:.1f}% [{100 * e['lo']:.1f}, {100 * e['hi']:.1f}]"


def dur(seconds: float) -> str:
    return skill.duration(seconds)


def estimate_md(kind: str, cmd: str, est: plan.Estimate) -> list[str]:
    from pirate_sim import runner

    return ["```", f"$ {cmd} --estimate",
            f"{kind}: {est.matches} matches, {est.games:,} games: {dur(est.seconds)} on this machine and "
            f"{runner.human_bytes(est.bytes)} of disk; {est.why()}"] + [f"  {x}" for x in est.notes] + ["```", ""]


def timing(seconds: float, play: float, est: float) -> str:
    if est != est:  # NaN: reused from an earlier run (--reuse)
        return (f"{dur(play)} playing the games, in an earlier run into the same results directory (`--resume`; "
                "its wall-clock and estimate are not in this run)")
    return (f"{dur(seconds)} wall-clock: {dur(play)} playing the games, the rest compiling and timing a few games of "
            f"each match first (the estimate, which said {dur(est)})")


def tournament_md(s: dict, seconds: float, play: float, est: float, cmd: str) -> list[str]:
    names = s["strategies"]
    two = s["n_seats"] == 2
    seq = s["settings"].get("sequential")
    games = (f"up to {s['games_per_match']:,} games a match, each pair's match stopped once its sequential tests "
             f"decided (mirrors play every game): {s['games_played']:,} games played in all, against "
             f"{s['games_per_match'] * len(s['games']):,} at a fixed {s['games_per_match']:,} a match"
             if seq else f"{s['games_per_match']:,} games per match")
    out = [f"**Tournament** (`{cmd}`): {s['design']}, {games}; {timing(seconds, play, est)}.", "",
           f"Verdict: **{s['verdict']}**.", "",
           ("Win rate of the row strategy against the column one:" if two else
            f"Win rate of one row strategy among a field of the column one (fair share "
            f"{100 * s['fair_share']:.0f}%):"), "",
           "| | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    for i, a in enumerate(names):
        cells = ["mirror" if e is None else f"{100 * e['value']:.0f}% [{100 * e['lo']:.0f}, {100 * e['hi']:.0f}]"
                 for e in s["matrix_ci"][i]]
        out.append(f"| {a} | " + " | ".join(cells) + " |")
    if seq:
        out += ["", "Sequential dominance tests (does the row strategy score the beat threshold "
                f"{100 * s['dominance_tests']['s1']:.0f}% rather than the fair share "
                f"{100 * s['dominance_tests']['s0']:.0f}%?), cells: the decision and the games it took:", "",
                "| | " + " | ".join(names) + " | status |", "|---" * (len(names) + 2) + "|"]
        dec = {(t["strategy"], t["against"]): t for t in s["dominance_tests"]["tests"]}
        short = {"accepted s1": "beats", "accepted s0": "does not", "undecided": "undecided"}
        for a in names:
            cells = ["" if a == b else f"{short[dec[a, b]['outcome']]} ({dec[a, b]['games']:,})" for b in names]
            out.append(f"| {a} | " + " | ".join(cells) + f" | {s['dominance_tests']['status'][a]} |")
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


def skill_md(s: dict, seconds: float, play: float, est: float, cmd: str) -> list[str]:
    fair = s["fair_share"]
    tr, dp = s["skill_trace"], s["skill_depth"]
    seq = s["settings"].get("sequential")
    short = {"accepted s1": "beats", "accepted s0": "does not beat", "undecided": "undecided"}
    out = [f"**Skill ladder** (`{cmd}`): {timing(seconds, play, est)}.", "",
           f"Verdict: **{s['verdict']}**.", ""]
    if seq:
        c = s["climb"]
        out += [f"Each step stopped once its sequential test decided (cap {s['settings']['games']:,} games); the "
                f"ladder climbed {c['played_steps']} of {c['planned_steps']} steps"
                + (f" ({c['reason']})" if c["stopped"] else "") + f"; {s['games_played']:,} games played on the "
                "steps. Intervals: betting confidence sequences (they keep their coverage at a sequential stop).",
                ""]
    out += [f"| step | budgets | games | win rate of the stronger [95% CI] | fair share | beats (>= "
            f"{100 * s['beat_threshold']:.0f}%) |" + (" sequential test |" if seq else ""),
            "|---|---|---|---|---|---|" + ("---|" if seq else "")]
    for x in s["steps"]:
        out.append(f"| {x['step']} | {x['strong_budget']} vs {x['weak_budget']} | {x['games']:,} | "
                   f"{pct(x['win_rate'])} | {100 * fair:.0f}% | {'yes' if x['beats'] else 'no'} |"
                   + (f" {short[x['decided']]} |" if seq else ""))
    out += ["", f"Skill trace (Ludii) {tr['value']:.3f} [{tr['lo']:.3f}, {tr['hi']:.3f}]; skill depth "
            f"{dp['value']:.0f} [{dp['lo']:.0f}, {dp['hi']:.0f}] of {len(s['steps'])} steps (certain {dp['certain']}, "
            f"possible {dp['possible']}; intervals: bootstrap over games).", ""]
    if s["placements"]:
        levels = sorted({b for p in s["placements"] for b in p["levels"]})  # not placed above a level it lost to
        per = (f"up to {s['settings']['place_games']:,} games a level, stopped once a sequential test decided "
               "whether it scores above or below its fair share" if seq else
               f"{s['settings']['place_games']:,} games a level")
        out += ["The scripted strategies on the ladder (one seat of the strategy among `search` at each budget, "
                f"{per}; its win rate, fair share {100 * fair:.0f}%):", "",
                "| strategy | worth | " + " | ".join(f"vs {b}" for b in levels) + " |",
                "|---|---|" + "---|" * len(levels)]
        for p in s["placements"]:
            cell = {b: f"{100 * e['value']:.0f}% [{100 * e['lo']:.0f}, {100 * e['hi']:.0f}]" + (f" ({n:,})" if seq else "")
                    for b, e, n in zip(p["levels"], p["win_rates"], p.get("games", p["levels"]))}
            out.append(f"| {p['strategy']} | {p['text'].removeprefix('worth ')} | "
                       + " | ".join(cell.get(b, "lost below" if b > max(p["levels"]) else "") for b in levels) + " |")
        if any(len(p["levels"]) < len(levels) for p in s["placements"]):
            out += ["", "(lost below: decided to lose to a lower level, so not placed at this one.)"]
        out.append("")
    return out


def _play_seconds(out: Path) -> float:
    return float(plan.read_meta(out)["timings"]["play_seconds"])


def _again(args, out: Path) -> bool:
    """--reuse and a plan already in ``out``: finish it (plan.execute refuses another plan)."""
    return bool(args.reuse) and plan.is_meta_dir(out)


def _wall(out: Path, t0: float, seen: list, again: bool) -> tuple:
    """(wall-clock, playing, estimate) of a plan just executed; a reused one was played in an
    earlier run: its wall-clock is its playing time (NaN for the estimate: not printed again)."""
    play = _play_seconds(out)
    if again:
        return play, play, float("nan")
    return time.perf_counter() - t0, play, seen[0].seconds


def _search_budget(base, budget):
    """The tournament's search budget as run: `budget`, else the scenario's search seat's, else the default."""
    if budget:
        return budget
    return plan.seat_of(base, skill.SEARCH).get("budget", next(
        p.default for p in base.game.strategy(skill.SEARCH).params if p.key == "budget"))


def _sections(lines: list[str]) -> tuple[list[str], dict]:
    """The page's head and its game sections, by scenario source (the `...` of each '## ' line)."""
    head, secs, key = [], {}, None
    for line in lines:
        if line.startswith("## ") and "(`" in line:
            key = line.split("(`", 1)[1].split("`", 1)[0]
            secs[key] = []
        (secs[key] if key else head).append(line)
    return head, secs


def _merged(old_text: str, new_lines: list[str], sources: list[str]) -> list[str]:
    """The new page with the old page's sections of the games not run now, in the order of GAMES."""
    _h, old = _sections(old_text.rstrip().split("\n"))
    head, new = _sections(new_lines)
    secs = {k: v + ([""] if v and v[-1] else []) for k, v in {
        **{k: v for k, v in old.items() if k not in sources}, **new}.items()}
    order = [f"scenarios/{g}/default.toml" for g in GAMES]
    keys = sorted(secs, key=lambda k: order.index(k) if k in order else len(order))
    return head + [x for k in keys for x in secs[k]]


def _every_game(kind: str, out: Path, base, ms, st: dict, mod, seq: dict, reuse: bool = False) -> list[str]:
    """The same plan with every game: its wall-clock time and games beside the sequential one's."""
    every = [plan.Match(m.id, m.role, m.label, m.seats, m.games, m.info, None) for m in ms]
    st = {**st, "sequential": False}
    t0 = time.perf_counter()
    again = reuse and plan.is_meta_dir(out)
    s = plan.execute(out, kind, base, every, st, mod.analyse, force=not again, resume=again)
    wall = _play_seconds(out) if again else time.perf_counter() - t0
    played_seq = seq["games_played"] if kind == "tournament" else sum(x["games"] for x in seq["steps"]) + sum(
        sum(p["games"]) for p in seq["placements"])
    played = sum(m.games for m in every)
    print(f"  every game: {wall:.1f} s: {s['verdict']}", flush=True)
    return [f"The same {kind} with every game (`--every-game`, same run): {dur(wall)} wall-clock "
            f"({dur(_play_seconds(out))} playing) for {played:,} games, against {dur(_play_seconds(out.parent / out.name.removesuffix('-every')))} "
            f"playing for the {played_seq:,} games above; its verdict: *{s['verdict']}*.", ""]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--full", action="store_true", help="the commands' defaults for every game (hours)")
    ap.add_argument("--games", type=int, default=None, help="games per tournament match (every game)")
    ap.add_argument("--skill-games", type=int, default=None, help="games per ladder step")
    ap.add_argument("--place-games", type=int, default=None, help="games per placement level")
    ap.add_argument("--base-budget", type=int, default=None)
    ap.add_argument("--steps", type=int, default=None)
    ap.add_argument("--search-budget", type=int, default=None,
                    help="the tournament's `search` at this budget (what --set seats.N.budget gives)")
    ap.add_argument("--bootstrap", type=int, default=500)
    ap.add_argument("--also-every-game", action="store_true",
                    help="play each tournament and ladder a second time with every game (--every-game), for the "
                         "time and games a sequential stop saves, measured in the same run")
    ap.add_argument("--no-full-estimate", action="store_true",
                    help="skip the estimate of the full default ladder (it times a few games of every match)")
    ap.add_argument("--only", default=",".join(GAMES), help="games to run, comma-separated (their default scenario)")
    ap.add_argument("--scenarios", default=None, help="scenario files to run instead, comma-separated")
    ap.add_argument("--results", default=None, help="where the directories go (default: a temporary folder)")
    ap.add_argument("--not-run", action="append", default=[], metavar="GAME=WHY",
                    help="a section for GAME saying why it was not played (with --only of the others)")
    ap.add_argument("--keep-others", action="store_true",
                    help="keep the sections of the games not run from the existing page (a page built game by game)")
    ap.add_argument("--reuse", action="store_true",
                    help="finish, rather than replay, a tournament or ladder already in --results with the same plan "
                         "(its playing time then comes from its meta.json; wall-clock is not measured again)")
    ap.add_argument("--doc", default=str(ROOT / "docs" / "meta_examples.md"), help="the Markdown file to write")
    args = ap.parse_args(argv)
    res_root = Path(args.results or tempfile.mkdtemp(prefix="meta-examples-"))
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d")
    lines = ["# Meta-game worked examples", "",
             "Generated by `python docs/meta_examples.py` (do not edit by hand); how to read them: "
             "[meta.md](meta.md), definitions: [metrics.md](metrics.md). Run on "
             f"{when} on a {os.cpu_count()}-core {platform.machine()} machine shared with other work; timings are "
             f"wall-clock on both cores (load average {os.getloadavg()[1]:.1f} over the 5 minutes before the page was "
             "written), split into "
             "playing the games and the rest (compiling the kernels, the estimate's timing).", "",
             "Each game's section starts with the `--estimate` of the full default ladder (K = 6 doublings from "
             "B = 8, 1,068 games a step, every scripted strategy placed at 268 games a level): what "
             "`pirate-sim skill` says before it starts, how long and why. Where that is beyond this machine, "
             "the ladder and tournament below are played at a smaller setting, stated with each.", ""]
    sources = ([x.strip() for x in args.scenarios.split(",") if x.strip()] if args.scenarios else
               [f"scenarios/{g.strip()}/default.toml" for g in args.only.split(",") if g.strip()])
    for source in sources:
        base = scen.load(ROOT / source if not Path(source).is_absolute() else source)
        base.source = source
        g = base.game.name
        cfg = dict(FULL if args.full else SETTINGS.get(g, FULL))
        for k in ("games", "skill_games", "place_games", "base_budget", "steps", "search_budget"):
            if getattr(args, k) is not None:
                cfg[k] = getattr(args, k)
        names = [x.name for x in base.game.strategies]
        lines += [f"## {base.game.title} (`{source}`, rules {base.game.version}, {base.n_seats} seats, "
                  f"seed {base.seed})", "",
                  f"Played {datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M')} UTC. Strategies registered: "
                  f"{', '.join(names)}.", ""]
        has_search = skill.SEARCH in names
        if has_search and not args.no_full_estimate:
            ms, st = skill.build(base, skill.settings())
            cache = res_root / f"{g}-full-estimate-{plan.plan_hash('skill', base, ms, st)}.json"
            if cache.exists():  # a rerun of the page into the same --results reuses it
                block = json.loads(cache.read_text())
            else:
                t0 = time.perf_counter()
                est = plan.estimate([plan.match_scenario(base, m) for m in ms], None, None)
                est.notes = skill.explain(est, ms, st)
                block = [f"The full default ladder (the estimate took {dur(time.perf_counter() - t0)}, compilation "
                         f"included, {datetime.now(timezone.utc).strftime('%H:%M')} UTC):", ""]
                block += estimate_md("skill", f"pirate-sim skill {source} -o DIR", est)
                res_root.mkdir(parents=True, exist_ok=True)
                cache.write_text(json.dumps(block))
            lines += block
            print(f"{g}: full ladder estimate:\n" + "\n".join(block), flush=True)
        # the tournament
        ms, st = tournament.build(base, tournament.settings(None, cfg["games"], args.bootstrap))
        cmd = f"pirate-sim tournament {source} -n {cfg['games']}"
        if has_search and cfg["search_budget"]:
            for m in ms:  # what `--set seats.N.budget=...` on a search seat of the scenario gives
                m.seats = [{**x, "budget": cfg["search_budget"]} if x["strategy"] == skill.SEARCH else x
                           for x in m.seats]
        seen = []
        t0 = time.perf_counter()
        out, again = res_root / f"{g}-tournament", _again(args, res_root / f"{g}-tournament")
        s = plan.execute(out, "tournament", base, ms, st, tournament.analyse, force=not again, resume=again,
                         on_estimate=seen.append)
        lines += tournament_md(s, *_wall(out, t0, seen, again), cmd)
        if has_search:
            lines += [f"(`search` plays at budget {_search_budget(base, cfg['search_budget'])} in this tournament"
                      + (f", not its default, to fit the machine: `--set seats.N.budget={cfg['search_budget']}` on a "
                         "search seat gives the same" if cfg["search_budget"] else "") + ".)", ""]
        print(f"{g}: tournament {time.perf_counter() - t0:.1f} s: {s['verdict']}", flush=True)
        if args.also_every_game:
            lines += _every_game("tournament", res_root / f"{g}-tournament-every", base, ms, st, tournament, s,
                                 args.reuse)
        if has_search:
            ms, st = skill.build(base, skill.settings(cfg["base_budget"], cfg["steps"], cfg["skill_games"],
                                                      cfg["place_games"], None, bootstrap=args.bootstrap))
            cmd = (f"pirate-sim skill {source} -b {cfg['base_budget']} -k {cfg['steps']} -n {cfg['skill_games']} "
                   f"--place-games {cfg['place_games']}")
            seen = []
            t0 = time.perf_counter()
            out, again = res_root / f"{g}-skill", _again(args, res_root / f"{g}-skill")
            s = plan.execute(out, "skill", base, ms, st, skill.analyse, force=not again, resume=again,
                             on_estimate=seen.append, explain=skill.explain)
            lines += skill_md(s, *_wall(out, t0, seen, again), cmd)
            print(f"{g}: skill {time.perf_counter() - t0:.1f} s: {s['verdict']}", flush=True)
            if args.also_every_game:
                lines += _every_game("skill", res_root / f"{g}-skill-every", base, ms, st, skill, s, args.reuse)
        else:
            lines += [f"**Skill ladder**: {base.game.title} has no `search` strategy registered; this script "
                      "runs it as soon as one is.", ""]
    for item in args.not_run:  # a section saying why a game is missing from this page
        g, _, why = item.partition("=")
        source = f"scenarios/{g}/default.toml"
        base = scen.load(ROOT / source)
        lines += [f"## {base.game.title} (`{source}`, rules {base.game.version}, {base.n_seats} seats, "
                  f"seed {base.seed})", "", f"Not played for this page ({when}): {why}. "
                  f"`python docs/meta_examples.py --only {g} --keep-others` adds it.", ""]
        sources.append(source)
    doc = Path(args.doc)
    if args.keep_others and doc.exists():
        lines = _merged(doc.read_text(), lines, sources)
    doc.write_text("\n".join(lines).rstrip() + "\n")
    print(f"wrote {args.doc} (results in {res_root})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
