"""A skill ladder or tournament as a plan of matches, each match an ordinary run.

A *match* is a scenario whose ``[[seats]]`` entries are the players being compared
(entry 0 the focal player, the others its opponents) with ``rules.strategy_seating =
"rotate"``: entry 0 plays seat ``k mod n`` in game k, so every player sits in every seat
equally often.  Every match plays games ``0 .. games - 1`` of the scenario's seed, so
game k of every match draws from the same stream (common random numbers across steps
and pairings).

A meta-game directory::

    meta.json              the plan (every match, its seats and games), what is done, timings
    matches/<id>/          one run directory per match (scenario.toml, manifest.json, parts)
    summary.json           the analysis (written when every match is done)

The directory is locked for the whole command (results.lock_dir); each match is played
by :func:`pirate_sim.runner.run`, so chunks, resume after Ctrl-C or ``kill -9``, the
manifest with checksums, ``verify`` and ``--cluster`` are the run's own; a match that was
done is recorded in ``meta.json`` with its manifest's SHA-256.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import shutil
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .. import results, runner
from . import sequential
from .. import scenario as scen
from ..errors import UserError
from ..results import atomic_write_json
from ..scenario import Scenario

META = "meta.json"
META_FORMAT = "pirate-sim-meta/1"
MATCHES = "matches"
SUMMARY = "summary.json"
PROBE_GAMES = 4  # games of each match first timed before the start (the estimate) ...
PROBE_SECONDS = 0.05  # ... doubled until a timing is this long, then twice as many timed (fixed and per-game cost)
PROBE_REPEATS = 3  # a short timing is repeated and the fastest kept
SLOW_PROBE = 1.0  # a probe this long is not split into fixed and per-game cost (the fixed cost is ms)
PARTS_PER_MATCH = 8  # a match's games in up to this many chunks: a kill -9 costs at most one ...
MIN_CHUNK = 1000  # ... of at least this many games (each part costs a few fsyncs: 0.1 s of a 0.5 s match)


class MetaError(UserError, RuntimeError):
    """A meta-game that cannot start or continue (a bad plan, a mismatched resume)."""


@dataclass
class Match:
    id: str  # directory name under matches/
    role: str  # "step" (ladder), "place" (a scripted strategy against a ladder level), "pair" (tournament)
    label: str  # what a reader calls it: "search 16 vs 8"
    seats: list[dict]  # the [[seats]] entries, focal player first
    games: int  # the games it plays, or with ``test`` at most
    info: dict = field(default_factory=dict)
    # sequential tests that stop the match once all have decided: [s0, s1, flipped] each
    # (meta.sequential.MatchStop); None plays every game
    test: list | None = None


def seat_of(base: Scenario, strategy: str, **params) -> dict:
    """The ``[[seats]]`` entry of ``strategy`` with the scenario's own settings for it (its
    first seat playing that strategy), then ``params``."""
    for seat in base.seats:
        if seat["strategy"] == strategy:
            return {**seat, **params}
    return {"strategy": strategy, **params}


def chunk_size(games: int) -> int:
    return max(1, min(games, max(MIN_CHUNK, math.ceil(games / PARTS_PER_MATCH))))


def match_scenario(base: Scenario, m: Match) -> Scenario:
    """The match as a scenario: the base rules with rotating seats, the match's seats."""
    if "strategy_seating" not in base.rules:
        raise MetaError(f"{base.source}: {base.game.title} has no rules.strategy_seating (seating.seating_params): "
                        "a match needs rotating seats")
    rules = dict(base.rules)
    rules["strategy_seating"] = "rotate"
    raw = {"game": base.game.name, "title": f"{base.title}: {m.label}",
           "run": {"games": m.games, "seed": base.seed, "chunk_size": chunk_size(m.games)},
           "rules": scen.nest(rules), "seats": m.seats}
    return scen.from_dict(raw, source=f"{base.source}#{m.id}")


def plan_hash(kind: str, base: Scenario, matches: list[Match], settings: dict) -> str:
    blob = json.dumps({"kind": kind, "scenario": base.hash(), "settings": settings,
                       "matches": [(m.id, m.seats, m.games) + ((m.test,) if m.test else ()) for m in matches]},
                      sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _sha(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


# ----------------------------------------------------------------------- estimate


@dataclass
class Estimate:
    seconds: float  # to play what is left, on this process's threads
    bytes: int  # Parquet still to write
    games: int  # games still to play
    matches: int
    free: int | None = None  # bytes free where the directory goes
    per_match: list = field(default_factory=list)  # (match scenario's title, seconds, games), costliest first
    costs: list = field(default_factory=list)  # seconds of each scenario estimated, in the order given
    notes: list = field(default_factory=list)  # why it takes that long, what fits (skill.explain, tournament.explain)
    basis: str = ""  # what the time rests on (probe games, the fit by budget)

    def why(self, top: int = 3) -> str:
        """Where the time goes: the costliest matches, their shares of it and their cost per game."""
        if not self.per_match or self.seconds <= 0:
            return ""
        return "most of it: " + ", ".join(f"{m[0].rpartition(': ')[2]} {100 * m[1] / self.seconds:.0f}%"
                                          + (f" ({per_game_text(m[1] / m[2])}/game)" if len(m) > 2 and m[2] else "")
                                          for m in self.per_match[:top])


def per_game_text(seconds: float) -> str:
    return f"{1000 * seconds:.1f} ms" if seconds < 1 else f"{seconds:.1f} s"


SEARCH = "search"
SPLIT_MIN_GAMES = 64  # a probe of fewer games is not split into fixed and per-game cost (differences of noise)


def search_family(s: Scenario) -> tuple[tuple, int]:
    """(what a match is apart from its search budgets, the rollouts per decision of all its
    search seats together): matches of one family differ only in budget, and their cost per
    game grows with it (a search decision's cost is its rollouts)."""
    key = tuple(tuple(sorted((k, str(v)) for k, v in seat.items() if not (seat["strategy"] == SEARCH and k == "budget")))
                for seat in s.seats)
    return key, int(sum(seat.get("budget", 0) for seat in s.seats if seat["strategy"] == SEARCH))


def fit_per_game(x: np.ndarray, y: np.ndarray, n: np.ndarray) -> tuple[float, float]:
    """a, b >= 0 of time per game = a + b * x over probes (x rollouts, y seconds a game, n
    games), least squares in relative error (a probe's spread grows with its cost), so a
    family's cost never falls as its budget rises."""
    w = n / np.maximum(y, 1e-12) ** 2
    a = b = 0.0
    for _ in range(5):  # reweighted by the fitted cost
        sw, sx, sy, sxx, sxy = w.sum(), (w * x).sum(), (w * y).sum(), (w * x * x).sum(), (w * x * y).sum()
        det = sw * sxx - sx * sx
        b = (sw * sxy - sx * sy) / det if det > 0 else 0.0
        a = (sy - b * sx) / sw
        if b < 0:
            a, b = sy / sw, 0.0
        elif a < 0:
            a, b = 0.0, sxy / sxx
        w = n / np.maximum(a + b * x, 1e-12) ** 2
    return float(a), float(b)


def estimate(scenarios: list[Scenario], threads: int | None = None, out: Path | None = None) -> Estimate:
    """Time and disk of playing every scenario in full, from a probe of each (after one game
    of each kind of match, search or not, at budget 1, to load its kernels): as many games
    as threads (so the threads all play, as in the run), doubled until they take
    ``PROBE_SECONDS``.  A probe of ``SPLIT_MIN_GAMES`` or more games is timed again at twice
    the games: a fixed cost per kernel call (one per chunk) apart from the cost per game;
    a smaller one is the cost per game as it is (split, a 1-game difference of noisy timings
    put the whole cost in the fixed part: "0.2 ms" a search game).  Matches that differ only
    in their search budgets (the ladder's steps, each strategy's placements) take their cost
    per game from a fit a + b * rollouts over all their probes (``fit_per_game``): more
    budget never costs less, and the few games of each probe pool.  Match i probes games
    from ``i * PROBE_GAMES`` on.  Parquet bytes: a fixed cost per part plus a cost per game."""
    if not scenarios:
        return Estimate(0.0, 0, 0, 0, _free(out))
    import dataclasses

    import numba

    runner.set_threads(threads)
    width = numba.get_num_threads()
    warmed = set()
    per, sizes, probes = [], [], []
    per_game_bytes = part_bytes = None
    for idx, s in enumerate(scenarios):
        compiled = s.compile()
        family, x = search_family(s)
        if (s.game.name, x > 0) not in warmed:
            cheap = dataclasses.replace(s, seats=[{**seat, "budget": 1} if seat["strategy"] == SEARCH else seat
                                                  for seat in s.seats])
            s.game.play(cheap.compile(), s.seed, 0, 1)
            warmed.add((s.game.name, x > 0))
        games, parts = s.run["games"], runner.n_chunks(s.run["games"], s.run["chunk_size"])
        start = idx * PROBE_GAMES
        n = min(width, games)
        while True:
            out_g, out_s, took = _timed(s, compiled, n, start)
            if took >= PROBE_SECONDS or n >= games:
                break
            n = min(2 * n, games)
        fixed = 0.0
        per_game = took / n
        if SPLIT_MIN_GAMES <= n < games and took < SLOW_PROBE:
            m = min(2 * n, games)  # the fastest of PROBE_REPEATS timings of each where they are short (load spikes)
            reps = PROBE_REPEATS if took < 4 * PROBE_SECONDS else 1
            took = min([took] + [_timed(s, compiled, n, start)[2] for _ in range(reps - 1)])
            took_m = min(_timed(s, compiled, m, start)[2] for _ in range(reps))
            split = (took_m - took) / (m - n)
            if split > 0:
                per_game, fixed = split, max(took - n * split, 0.0)
        probes.append((family, x, per_game, n, fixed, parts, games))
        per.append((s.title, 0.0, games))
        if part_bytes is None:
            part_bytes = _parquet_bytes(s, compiled, out_g[:1], out_s[:1])
        if per_game_bytes is None and n > 1:
            per_game_bytes = max((_parquet_bytes(s, compiled, out_g, out_s) - part_bytes) / (n - 1), 0.0)
        sizes.append((parts, games))
    fits = {}
    for family in {p[0] for p in probes}:
        mine = [p for p in probes if p[0] == family]
        if len({p[1] for p in mine}) > 1:
            fits[family] = fit_per_game(*(np.array([p[k] for p in mine], np.float64) for k in (1, 2, 3)))
    costs = []
    for family, x, per_game, _n, fixed, parts, games in probes:
        if family in fits:
            a, b = fits[family]
            per_game = a + b * x
        costs.append(parts * fixed + games * per_game)
    per = [(title, c, g) for (title, _c, g), c in zip(per, costs)]
    if per_game_bytes is None:  # every probe was one game: a part of one game per game (an upper bound)
        per_game_bytes = part_bytes
    nbytes = sum(parts * part_bytes + games * per_game_bytes for parts, games in sizes)
    fitted = sum(p[0] in fits for p in probes)
    basis = (f"the time rests on {sum(p[3] for p in probes):,} probe games timed on {width} "
             f"thread{'s' if width != 1 else ''}" + (f"; {fitted} matches that differ only in their search budget "
                                                     "priced by a fit time per game = a + b x rollouts per decision "
                                                     "over their probes (more budget never costs less)"
                                                     if fitted else ""))
    return Estimate(sum(costs), int(nbytes), sum(s.run["games"] for s in scenarios), len(scenarios), _free(out),
                    sorted(per, key=lambda t: -t[1]), costs, basis=basis)


def _timed(s: Scenario, compiled, n: int, start: int = 0):
    t0 = time.perf_counter()
    out_g, out_s = s.game.play(compiled, s.seed, start, n)
    return out_g, out_s, time.perf_counter() - t0


def _free(out: Path | None) -> int | None:
    if out is None:
        return None
    p = Path(out)
    while not p.exists() and p != p.parent:
        p = p.parent
    return shutil.disk_usage(p).free


def _parquet_bytes(s: Scenario, compiled, out_g: np.ndarray, out_s: np.ndarray) -> int:
    part = results.PartBuilder(s.game, s.n_seats, 0, out_g.shape[0])
    part.add(out_g, out_s)
    total = 0
    for table in (part.games_table({}), part.seats_table(compiled.strategy_names, {}, True)):
        sink = io.BytesIO()
        pq.write_table(table, sink, **results._parquet_options(table.schema))
        total += sink.tell()
    return total


# ----------------------------------------------------------------------- the directory


def is_meta_dir(path: Path) -> bool:
    return (Path(path) / META).exists()


def read_meta(out: Path) -> dict:
    try:
        meta = json.loads((Path(out) / META).read_text())
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise MetaError(f"{Path(out) / META}: unreadable ({str(exc).splitlines()[0]})") from None
    if meta.get("format") != META_FORMAT:
        raise MetaError(f"{Path(out) / META}: not a pirate-sim meta-game plan (format {meta.get('format')!r})")
    return meta


def _new_meta(kind: str, base: Scenario, matches: list[Match], scenarios: list[Scenario], settings: dict) -> dict:
    return {
        "format": META_FORMAT,
        "kind": kind,
        "game": base.game.name,
        "rules_version": base.game.version,
        "title": base.title,
        "scenario_source": base.source,
        "overrides": base.overrides,
        "scenario_hash": base.hash(),
        "seed": base.seed,
        "n_seats": base.n_seats,
        "settings": settings,
        "plan_hash": plan_hash(kind, base, matches, settings),
        "versions": results.library_versions(),
        "complete": False,
        "matches": [{**asdict(m), "scenario_hash": s.hash(), "done": False} for m, s in zip(matches, scenarios)],
    }


def prepare(out: Path, kind: str, base: Scenario, matches: list[Match], scenarios: list[Scenario], settings: dict,
            resume: bool, force: bool) -> dict:
    """Create or check the (locked) directory; returns its plan with what is done."""
    out = Path(out)
    fresh = _new_meta(kind, base, matches, scenarios, settings)
    if results.has_content(out):
        if resume and is_meta_dir(out):
            meta = read_meta(out)
            if meta.get("plan_hash") != fresh["plan_hash"]:
                raise MetaError(f"{out}: holds another {meta.get('kind', 'meta-game')} (plan {meta.get('plan_hash')}, "
                                f"this one is {fresh['plan_hash']}); resume with the same scenario and options, "
                                "or use another -o DIR or --force")
            results.remove_tmp(out)
            return meta
        if not force:
            if is_meta_dir(out):
                meta = read_meta(out)
                done = sum(m["done"] for m in meta["matches"])
                what = ("a complete " + meta["kind"] if meta.get("complete") else
                        f"an unfinished {meta['kind']} ({done}/{len(meta['matches'])} matches; add --resume to finish it)")
            else:
                what = "files"
            raise MetaError(f"{out}: already holds {what}; refusing to overwrite without --force")
        results.clear_dir(out)
    (out / MATCHES).mkdir(parents=True, exist_ok=True)
    atomic_write_json(out / META, fresh)
    return fresh


def ladder_skip(meta: dict, rec: dict) -> str | None:
    """The climbing skill ladder (sequential settings).  A step decided not to beat its
    weaker level stops the climb only once the ladder has reached the strongest scripted
    player: at that step's strong level no placed scripted strategy was decided to beat
    ``search`` (with no placements, at once).  Below that, a flat step is the bottom of the
    ladder, not its top, and the climb goes on.  Not played after the stop: the steps above
    it and the placements at levels above it.  A scripted strategy decided to lose to one
    level is not placed at the levels above it (search at more budget is taken to be no
    weaker).  The skill plan orders its matches level by level (skill.build) so that each
    level's placements are decided before the step above it is asked."""
    if not meta["settings"].get("sequential"):
        return None
    recs = meta["matches"]
    if rec["role"] == "place":
        name, level = rec["info"]["strategy"], rec["info"]["level"]
        below = [m["info"]["level"] for m in recs if m["role"] == "place" and m["info"]["strategy"] == name
                 and m["info"]["level"] < level and m.get("decision") == "accepted s0"]
        if below:
            return (f"{name} was decided to lose to search at level {min(below)}; it is not placed at the "
                    f"levels above")
    top = climb_top(meta)
    if top is None:
        return None
    if rec["role"] == "step" and rec["info"]["step"] > top:
        return f"the ladder stopped climbing: step {top} was decided not to beat its weaker level"
    if rec["role"] == "place" and rec["info"]["level"] > top:
        return f"level {rec['info']['level']} is above the ladder's top (step {top} did not beat its weaker level)"
    return None


def climb_top(meta: dict) -> int | None:
    """The step the climbing ladder stopped at (None: it has not stopped): the first step
    decided not to beat its weaker level whose strong level no scripted strategy was
    decided to beat (skill.analyse and ladder_skip read the same rule)."""
    above = levels_beaten_by_scripted(meta)
    flat = sorted(m["info"]["step"] for m in meta["matches"]
                  if m["role"] == "step" and m.get("decision") == "accepted s0")
    return next((i for i in flat if i not in above), None)


def levels_beaten_by_scripted(meta: dict) -> list[int]:
    """The ladder's levels some placed scripted strategy was decided to beat (placement accepted s1)."""
    return sorted({m["info"]["level"] for m in meta["matches"]
                   if m["role"] == "place" and m.get("decision") == "accepted s1"})


def execute(out: Path, kind: str, base: Scenario, matches: list[Match], settings: dict, analyse: Callable,
            threads: int | None = None, resume: bool = False, force: bool = False, cluster=None,
            progress: Callable[[int, int, str], None] | None = None,
            on_estimate: Callable[[Estimate], None] | None = None,
            explain: Callable[[Estimate, list, dict], list] | None = None,
            skip: Callable[[dict, dict], str | None] | None = None) -> dict:
    """Play every match not yet done (estimate first, its notes from ``explain(estimate,
    matches left, settings)``), then write ``summary.json`` from ``analyse(meta,
    outcomes)``; returns the summary.  A match with a ``test`` stops when its sequential
    tests have decided (its record's ``played`` says after how many games); ``skip(meta,
    record)``, asked before each match, may leave one out (the reason is recorded, and the
    match has no outcomes); a skill ladder's default is ladder_skip (it climbs)."""
    out = Path(out)
    if skip is None and kind == "skill":  # the ladder climbs whoever calls it
        skip = ladder_skip
    scenarios = [match_scenario(base, m) for m in matches]
    for s in scenarios:
        s.compile()  # every scenario problem surfaces before anything is written
    with results.lock_dir(out):
        meta = prepare(out, kind, base, matches, scenarios, settings, resume, force)
        todo = [i for i, m in enumerate(meta["matches"]) if not m["done"]]
        est = estimate([scenarios[i] for i in todo], threads, out)
        if explain:
            est.notes = explain(est, [matches[i] for i in todo], settings)
        if on_estimate:
            on_estimate(est)
        if est.free is not None and est.bytes > est.free:
            raise MetaError(f"{out}: the matches left need about {runner.human_bytes(est.bytes)} on disk and only "
                            f"{runner.human_bytes(est.free)} is free; fewer games or another -o DIR")
        total = sum(m["games"] for m in meta["matches"])
        done = sum(m["games"] for m in meta["matches"] if m["done"])
        meta.setdefault("timings", {"play_seconds": 0.0})
        for i in todo:
            rec, s = meta["matches"][i], scenarios[i]
            why = skip(meta, rec) if skip else None
            if why:
                rec.update(done=True, skipped=why, played=0)
                done += rec["games"]
                atomic_write_json(out / META, meta)
                continue
            sub = out / MATCHES / rec["id"]
            has = results.is_results_dir(sub)
            start = done

            def tick(d, _t, start=start, label=rec["label"]):
                if progress:
                    progress(start + d, total, label)

            stop = sequential.MatchStop(base.n_seats, rec["test"], settings.get("alpha", sequential.ALPHA),
                                        settings.get("beta", sequential.BETA)) if rec.get("test") else None
            res = runner.run(s, sub, games=rec["games"], threads=threads, resume=has, force=not has, progress=tick,
                             cluster=cluster, decide=stop)
            rec["done"] = True
            rec["played"] = int(res.games)
            if stop is not None:  # what stopped it (the analysis recomputes the tests from the games)
                rec["decisions"] = [sequential.OUTCOMES[t.code] for t in stop.tests]
                rec["decision"] = rec["decisions"][0]
            rec["manifest_sha256"] = _sha(sub / results.MANIFEST)
            rec["seconds"] = rec.get("seconds", 0.0) + res.seconds
            meta["timings"]["play_seconds"] += res.seconds
            done += rec["games"]
            atomic_write_json(out / META, meta)
        t0 = time.perf_counter()
        summary = analyse(meta, {m["id"]: read_outcomes(out, m) for m in meta["matches"] if not m.get("skipped")})
        meta["timings"]["analysis_seconds"] = time.perf_counter() - t0
        atomic_write_json(out / SUMMARY, summary)
        meta["complete"] = True
        atomic_write_json(out / META, meta)
    return summary


# ----------------------------------------------------------------------- outcomes


@dataclass
class Outcomes:
    """Per game of a match, in game order: its index, the winning seat (-1: none) and the first seat."""

    game: np.ndarray
    winner: np.ndarray
    first_seat: np.ndarray


def read_outcomes(out: Path, rec: dict) -> Outcomes:
    sub = Path(out) / MATCHES / rec["id"]
    tables = list(results.iter_table(sub, "games", ["game", "winner", "first_seat"]))
    t = pa.concat_tables(tables)
    return Outcomes(t.column("game").to_numpy().astype(np.int64),
                    t.column("winner").fill_null(-1).to_numpy().astype(np.int64),
                    t.column("first_seat").to_numpy().astype(np.int64))


def play_outcomes(s: Scenario, threads: int | None = None, cluster=None) -> Outcomes:
    """A match's outcomes played in memory (nothing written; the balance gate): the same
    games as a run of the scenario, chunk by chunk, on ``cluster`` if given."""
    games, size = s.run["games"], s.run["chunk_size"]
    spans = [(c, a, b - a) for c, (a, b) in enumerate(runner.chunk_bounds(games, size))]
    if cluster is None:
        runner.set_threads(threads)
        compiled = s.compile()
        outs = [s.game.play(compiled, s.seed, a, n)[0] for _c, a, n in spans]
    else:
        outs = [g for _c, g, _s in cluster.play_chunks(s, spans)]
    g = np.concatenate(outs) if outs else np.zeros((0, 5), np.int32)
    return Outcomes(np.arange(g.shape[0], dtype=np.int64), g[:, 0].astype(np.int64), g[:, 4].astype(np.int64))


# ----------------------------------------------------------------------- verify


def verify(out: Path) -> list[str]:
    """Every problem of a meta-game directory, one line each (empty: intact)."""
    out = Path(out)
    try:
        meta = read_meta(out)
    except MetaError as exc:
        return [str(exc)]
    problems = []
    ids = set()
    for m in meta["matches"]:
        ids.add(m["id"])
        sub = out / MATCHES / m["id"]
        if not m["done"] or m.get("skipped"):
            continue
        if not results.is_results_dir(sub):
            problems.append(f"{sub}: match recorded as done but its run is missing")
            continue
        problems += results.verify(sub)
        man = results.read_manifest(sub)
        if _sha(sub / results.MANIFEST) != m.get("manifest_sha256"):
            problems.append(f"{sub / results.MANIFEST}: differs from the manifest recorded in {META}")
        if man.get("scenario_hash") != m["scenario_hash"] or not man.get("complete"):
            problems.append(f"{sub}: not the complete run of the planned match {m['label']!r}")
    if (out / MATCHES).is_dir():
        for p in sorted((out / MATCHES).iterdir()):
            if p.name not in ids:
                problems.append(f"{p}: a match the plan does not list")
    if meta.get("complete") and not (out / SUMMARY).exists():
        problems.append(f"{out / SUMMARY}: missing (the plan says complete)")
    return problems


def check_complete(out: Path) -> dict:
    """The plan of an intact, complete meta-game directory; MetaError otherwise."""
    meta = read_meta(out)
    problems = verify(out)
    if problems:
        raise MetaError(problems[0] + (f" and {len(problems) - 1} more problems" if len(problems) > 1 else ""))
    if not meta.get("complete"):
        done = sum(m["done"] for m in meta["matches"])
        raise MetaError(f"{out}: unfinished ({done}/{len(meta['matches'])} matches); finish it with --resume")
    return meta
