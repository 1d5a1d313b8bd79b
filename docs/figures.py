"""The balance figures quoted in README.md and docs/*.md, computed: none can go stale.

A figure in the text sits between two markers, ``<!-- fig:NAME -->53.7%<!-- /fig -->``
(a block: the same markers on lines of their own).  This script plays what each figure
needs, on documented game counts and seeds (:data:`RUNS`), and writes the figures between
their markers; ``--check`` writes nothing and fails (exit 1), naming each stale figure, when
the text differs.  ``tests/test_docs_figures.py`` runs ``--check`` (marked slow).

    .venv/bin/python docs/figures.py            # rewrite the figures in place
    .venv/bin/python docs/figures.py --check    # exit 1 if any figure in the text is stale

Figures that cannot be re-measured by a test (benchmark timings, the long sensitivity and
tuning runs) are not generated here: the text labels them as measured figures with their
date, machine and rules version.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent
FILES = ("README.md", "docs/sensitivity.md", "docs/rules/pirates_cove.md")  # where figures are quoted (relative to the repository)
MARKER = re.compile(r"<!-- fig:([a-z0-9_.]+) -->(.*?)<!-- /fig -->", re.S)
CHUNK = 50_000  # games per play call (memory stays small)


@dataclass(frozen=True)
class Run:
    """One documented run: a bundled scenario, its games and seed."""

    scenario: str
    games: int
    seed: int


# the documented runs every figure comes from (the seed is each scenario's own)
RUNS = {
    "peak": Run("scenarios/pirates_peak/default.toml", 200_000, 20261129),
    "cove": Run("scenarios/pirates_cove/default.toml", 20_000, 20261129),
    "pirateer": Run("scenarios/pirateer/default.toml", 10_000, 20261130),
    "ice": Run("scenarios/ice_pirates/default.toml", 40_000, 20261129),
}


def play(run: Run):
    """Metrics of ``run`` (every metric with its 95% interval) and the scenario."""
    from pirate_sim import metrics, scenario
    from pirate_sim.seating import rotates

    s = scenario.load(ROOT / run.scenario)
    compiled = s.compile()
    acc = metrics.Accumulator(s.game, compiled.strategy_names, rotates(s.rules))
    for first in range(0, run.games, CHUNK):
        n = min(CHUNK, run.games - first)
        out_g, out_s = s.game.play(compiled, run.seed, first, n)
        acc.update(out_g, out_s, first)
    return metrics.compute(acc), s


def pct(e, digits=1) -> str:
    return f"{100 * e.value:.{digits}f}%"


def ci(e, digits=1) -> str:
    return f"{100 * e.lo:.{digits}f}..{100 * e.hi:.{digits}f}%"


def headline_table(results: dict) -> str:
    """The default scenarios' headline figures, one row per game."""
    rows = ["| default scenario | games (seed) | first player wins (decided games) | strongest strategy | "
            "game length (turns) |", "|---|---|---|---|---|"]
    for key, (est, s) in results.items():
        run = RUNS[key]
        fp = est["first_player_win_rate"]
        strat = [k for k in est if k.startswith("win_rate.") and not k.startswith("win_rate.seat") and "=" not in k]
        best = max(strat, key=lambda k: est[k].value)
        fair = 1 / len(s.seats)
        strongest = (f"{best[9:]} {pct(est[best])} ({ci(est[best])}; fair {100 * fair:.0f}%)"
                     if len(strat) > 1 else "one strategy in every seat")
        length = est["length.mean"]
        rows.append(f"| {s.title} (`{run.scenario}`) | "
                    f"{run.games:,} ({run.seed}) | {pct(fp)} ({ci(fp)}; fair {100 * fair:.0f}%) | {strongest} | "
                    f"{length.value:.1f} |")
    return "\n".join(rows)


FIGURE_NAMES = ("peak.first_player", "peak.first_player_ci", "peak.length", "peak.games", "defaults.table",
                "cove.games", "cove.fighter", "cove.crowd_avoider", "cove.treasure_hunter", "cove.random",
                "cove.tie_combat", "cove.fame", "cove.hunter_flights")


def figures() -> dict[str, str]:
    """Every figure, by marker name (:data:`FIGURE_NAMES`)."""
    results = {key: play(run) for key, run in RUNS.items()}
    peak = results["peak"][0]
    fp = peak["first_player_win_rate"]
    out = {
        "peak.first_player": pct(fp),
        "peak.first_player_ci": f"{pct(fp, 2)}, {ci(fp, 2)}",
        "peak.length": f"{peak['length.mean'].value:.0f}",
        "peak.games": f"{RUNS['peak'].games:,}",
        "defaults.table": "\n" + headline_table(results) + "\n",
    }
    cove = results["cove"][0]
    f = cove["win_rate.fighter"]
    out.update({
        "cove.games": f"{RUNS['cove'].games:,}",
        "cove.fighter": f"{100 * f.value:.0f}% (95% CI {100 * f.lo:.1f}-{100 * f.hi:.1f}%)",
        "cove.crowd_avoider": f"{100 * cove['win_rate.crowd_avoider'].value:.0f}%",
        "cove.treasure_hunter": f"{100 * cove['win_rate.treasure_hunter'].value:.0f}%",
        "cove.random": f"{100 * cove['win_rate.random'].value:.1f}%",
        "cove.tie_combat": f"{100 * cove['end.tie_combat'].value:.1f}%",
        "cove.fame": ", ".join(f"{label} {cove[f'events.{k}'].value:.1f}" for k, label in (
            ("fame_combat", "combat +1s"), ("fame_treasure", "Treasure cards"), ("fame_cards", "Fame cards"),
            ("fame_chests", "buried chests"), ("fame_gold", "buried gold"), ("fame_black", "black ships")))
        + f", mutinies -{cove['events.fame_lost_mutiny'].value:.1f}",
        "cove.hunter_flights": f"{cove['seat0.flights'].value:.1f} flights in {cove['seat0.fights'].value:.1f} fights",
    })
    assert tuple(out) == FIGURE_NAMES
    return out


def apply(text: str, values: dict[str, str]) -> tuple[str, list[str]]:
    """``text`` with every marked figure replaced, and the names whose text changed.

    A marker naming no known figure is an error (a typo would otherwise stay stale for ever)."""
    changed = []

    def sub(m):
        name, old = m.group(1), m.group(2)
        if name not in values:
            raise KeyError(f"unknown figure {name!r}")
        if old != values[name]:
            changed.append(f"{name}: {old.strip()!r} -> {values[name].strip()!r}")
        return f"<!-- fig:{name} -->{values[name]}<!-- /fig -->"

    return MARKER.sub(sub, text), changed


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if a figure in the text is stale")
    args = ap.parse_args(argv)
    values = figures()
    stale = []
    for rel in FILES:
        path = ROOT / rel
        text = path.read_text()
        try:
            new, changed = apply(text, values)
        except KeyError as exc:
            print(f"{rel}: {exc.args[0]}", file=sys.stderr)
            return 2
        stale += [f"{rel}: {c}" for c in changed]
        if changed and not args.check:
            path.write_text(new)
    for line in stale:
        print(("stale " if args.check else "updated ") + line)
    return 1 if (stale and args.check) else 0


if __name__ == "__main__":
    raise SystemExit(main())
