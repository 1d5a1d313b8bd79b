"""Search rule (and strategy) parameters for the values that optimise a metric: optuna.

* One objective: optuna's TPE sampler; two objectives: NSGA-II, and the result is the
  Pareto front (no trial on it can improve one objective without worsening the other).
* Objectives: ``METRIC=min``, ``METRIC=max`` or ``METRIC=VALUE`` (get the metric as close
  as possible to VALUE, e.g. ``first_player_win_rate=0.5``).  Constraints:
  ``METRIC<=X`` / ``METRIC>=X``; optuna's trial constraints steer the search to
  feasible values and a trial that violates one is never the winner.
* Noise is the enemy of optimisers.  Every trial plays the same games 0..G-1 of the base
  seed (common random numbers), so two trials differ by their rules, not by their dice.
  A *promising* trial (its screening score in the best quarter of the trials so far, or on
  the screening Pareto front) is extended to ``promote`` x G games (the same streams, more
  of them), and so are the best few at the end; the winner is chosen on the extended
  games and then **re-checked on fresh seeds** (never seen by the search), with 95%
  intervals, beside the untuned base scenario on the same fresh seeds.
* A configuration suggested twice (whole-number parameters) is played once.

Outputs: ``best.toml`` (the base scenario with the winning values, ready for ``run``),
``trials.parquet`` (the trial history), ``recheck.parquet``, ``summary.txt``, charts and
``tune.pdf``; with two objectives also ``pareto.parquet`` and ``pareto/<trial>.toml``.
"""

from __future__ import annotations

import math
import re
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pandas as pd

import hashlib
import json

from .. import metrics
from .. import scenario as scen
from ..metrics import Accumulator
from ..errors import UserError
from ..results import (atomic_write_json, atomic_write_text, clear_dir, has_content, lock_dir,
                       refuse_overlap)
from ..scenario import Scenario
from .space import Factor, PointSpec, config_key, evaluate_point, overrides_of
from .sweep import GridError, table_value, value_text

PROMOTE = 4  # a promising trial plays this many times the screening games
PROMOTE_QUANTILE = 0.25  # "promising": a screening score in this best share of the trials so far
MIN_SEEN = 4  # trials screened before any is promoted (a quantile of fewer means little)
FINAL_PROMOTE = 3  # best trials extended at the end if they were not yet
MAX_RECHECK = 5  # Pareto-front trials re-checked on fresh seeds
# Fresh seeds for the re-check: the base seed shifted by the 64-bit golden ratio (odd, so no
# cycle short of 2^63), i.e. unrelated streams that the search never saw.
RECHECK_SHIFT = 0x9E3779B97F4A7C15
SEED_MOD = 2**63
_OBJ = re.compile(r"^\s*([A-Za-z0-9_.*?\[\]=<>-]+?)\s*=\s*(min|max|minimize|maximize|[-+0-9.eE_]+)\s*$")
_CON = re.compile(r"^\s*([A-Za-z0-9_.*?\[\]=-]+?)\s*(<=|>=|<|>)\s*([-+0-9.eE_]+)\s*$")


EXIT_NO_WINNER = 4  # `tune` exit code when no trial met every constraint (0: a winner; 2: bad input; 130: Ctrl-C)
STATE_JSON = "tune-state.json"  # what the tuning is (its signature), written first: --resume checks it
PLAYS = "plays"  # every evaluation's accumulator, stored as played: --resume plays none twice


class TuneError(UserError, RuntimeError):
    """A tuning run that cannot start (existing output, a resume of another tuning)."""


@dataclass(frozen=True)
class Objective:
    metric: str
    goal: str  # "min" | "max" | "target"
    target: float = math.nan
    text: str = ""

    @property
    def direction(self) -> str:
        return "maximize" if self.goal == "max" else "minimize"

    @property
    def sign(self) -> float:
        """+1 where smaller scores are better (min, target), -1 for max."""
        return -1.0 if self.goal == "max" else 1.0

    def score(self, value: float) -> float:
        """What optuna sees: the metric, or its distance to the target."""
        return abs(value - self.target) if self.goal == "target" else value


@dataclass(frozen=True)
class Constraint:
    metric: str
    op: str  # "<=" | ">="
    bound: float
    text: str = ""

    def excess(self, value: float) -> float:
        """optuna's convention: <= 0 when the constraint holds (NaN counts as violated)."""
        if value != value:
            return math.inf
        return value - self.bound if self.op == "<=" else self.bound - value


def parse_objective(text: str, available: list[str]) -> Objective:
    m = _OBJ.match(text)
    if not m:
        raise GridError(f"--objective {text!r}: expected METRIC=min, METRIC=max or METRIC=VALUE")
    name, goal = m.group(1), m.group(2)
    metric = _one_metric(name, available, "--objective")
    if goal in ("min", "minimize"):
        return Objective(metric, "min", text=text)
    if goal in ("max", "maximize"):
        return Objective(metric, "max", text=text)
    try:
        return Objective(metric, "target", float(goal.replace("_", "")), text=text)
    except ValueError:
        raise GridError(f"--objective {text!r}: {goal!r} is not min, max or a number") from None


def parse_constraint(text: str, available: list[str]) -> Constraint:
    m = _CON.match(text)
    if not m:
        raise GridError(f"--constraint {text!r}: expected METRIC<=VALUE or METRIC>=VALUE")
    try:
        bound = float(m.group(3).replace("_", ""))
    except ValueError:
        raise GridError(f"--constraint {text!r}: {m.group(3)!r} is not a number") from None
    op = "<=" if m.group(2).startswith("<") else ">="
    return Constraint(_one_metric(m.group(1), available, "--constraint"), op, bound, text)


def _one_metric(name: str, available: list[str], option: str) -> str:
    try:
        hits = metrics.resolve([name], available)
    except KeyError as exc:
        raise GridError(f"{option}: {exc.args[0]}") from None
    if len(hits) != 1:
        raise GridError(f"{option}: {name!r} matches {len(hits)} metrics; name one")
    return hits[0]


@dataclass
class Point:
    """One configuration's games so far (screening, then maybe extended)."""

    values: dict[str, Any]
    acc: Accumulator
    games: int
    screening: dict[str, float]  # metric -> value on the screening games
    estimates: dict = field(default_factory=dict)  # metric -> Estimate on all its games

    def refresh(self) -> None:
        self.estimates = metrics.compute(self.acc)


@dataclass
class TuneResult:
    out_dir: Path
    factors: list[Factor]
    objectives: list[Objective]
    constraints: list[Constraint]
    history: pd.DataFrame
    best_values: dict[str, Any] | None
    best_trial: int | None
    recheck: pd.DataFrame
    pareto: pd.DataFrame | None
    importances: list[dict[str, float]]
    games_played: int
    seconds: float
    recheck_seed: int
    files: list[Path] = field(default_factory=list)
    games_reused: int = 0  # games of evaluations an interrupted run had stored (--resume)


def suggest(trial, f: Factor) -> Any:
    """optuna's suggestion for one factor (sets by name)."""
    if f.kind == "float":
        return trial.suggest_float(f.key, f.lo, f.hi)
    if f.kind == "int":
        return trial.suggest_int(f.key, int(f.lo), int(f.hi))
    label = trial.suggest_categorical(f.key, list(f.labels))
    return f.values[f.labels.index(label)]


def _dominates(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.all(a <= b) and np.any(a < b))


def tune(base: Scenario, base_path: str, base_overrides: list[str], factors: list[Factor],
         objectives: list[Objective], constraints: list[Constraint], trials: int, games: int, out_dir: Path,
         threads: int | None = None, force: bool = False, recheck_games: int | None = None,
         promote: int = PROMOTE, progress: Callable[[str, int, int], None] | None = None,
         cluster=None, resume: bool = False) -> TuneResult:
    """Run the search, extend the promising trials, re-check the winner on fresh seeds, write out_dir.

    ``progress(what, done, total)`` after every trial and re-check.  Every evaluation is
    stored under ``out_dir/plays`` as it finishes; with ``resume`` an interrupted tuning
    runs again from its start, the seeded sampler suggests the same trials, and each
    stored evaluation is read instead of played (results identical to an uninterrupted run).
    """
    import optuna

    if not 1 <= len(objectives) <= 2:
        raise GridError("give one --objective (TPE) or two (NSGA-II, Pareto front)")
    out_dir = Path(out_dir)
    recheck_games = int(recheck_games or games * promote)
    sig = signature(base, base_overrides, factors, objectives, constraints, trials, games, recheck_games, promote)
    with lock_dir(out_dir):  # one command per directory: two could mix their trials
        state = out_dir / STATE_JSON
        resuming = resume and state.exists()
        if not resuming:
            refuse_overlap(out_dir, [base_path])
        if has_content(out_dir):
            if resuming:
                if _json_or_empty(state).get("signature") != sig:
                    raise TuneError(f"{out_dir}: holds a tuning of other parameters, objectives, constraints, "
                                    f"trials, games, scenario or seed; resume with the same arguments, or use "
                                    f"another -o DIR or --force")
            elif not force:
                what = "a tuning (add --resume to finish it)" if state.exists() else "files"
                raise TuneError(f"{out_dir}: already holds {what}; refusing to overwrite without --force")
            else:
                clear_dir(out_dir)  # not the held lock
        if not resuming:
            atomic_write_json(state, {"format_version": 1, "command": "tune", "signature": sig,
                                      "base": base_path, "base_overrides": list(base_overrides)})
        return _tune(base, base_path, base_overrides, factors, objectives, constraints, trials, games, out_dir,
                     threads, recheck_games, promote, progress, cluster, optuna)


def signature(base, base_overrides, factors, objectives, constraints, trials, games, recheck_games, promote) -> str:
    """Identity of a tuning: a resume must be the same search on the same scenario."""
    blob = json.dumps([base.hash(), list(base_overrides), [f.to_json() for f in factors],
                       [o.text for o in objectives], [c.text for c in constraints], trials, games, recheck_games,
                       promote], default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _json_or_empty(path: Path) -> dict:
    """A state file as a dict ({} when unreadable: then it is another tuning)."""
    try:
        return json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return {}


class PlayStore:
    """Evaluations stored as they finish (``out_dir/plays/<key>.json``), read back on resume."""

    def __init__(self, out_dir: Path, game):
        self.dir, self.game = Path(out_dir) / PLAYS, game
        self.reused = 0

    def _path(self, spec: PointSpec) -> Path:
        blob = json.dumps([list(spec.overrides), spec.seed, spec.games, spec.first_game])
        return self.dir / f"{hashlib.sha256(blob.encode()).hexdigest()[:20]}.json"

    def get(self, spec: PointSpec) -> Accumulator | None:
        data = _json_or_empty(self._path(spec))
        if data.get("games") != spec.games or "accumulator" not in data:
            return None
        self.reused += spec.games
        return Accumulator.from_json(self.game, data["accumulator"])

    def put(self, spec: PointSpec, acc: Accumulator) -> None:
        self.dir.mkdir(exist_ok=True)
        atomic_write_json(self._path(spec), {"overrides": list(spec.overrides), "seed": spec.seed,
                                             "first_game": spec.first_game, "games": spec.games,
                                             "accumulator": acc.to_json()})


def _tune(base, base_path, base_overrides, factors, objectives, constraints, trials, games, out_dir, threads,
          recheck_games, promote, progress, cluster, optuna) -> TuneResult:
    seed = base.seed
    t0 = time.perf_counter()
    # ERROR: optuna logs a trial that Ctrl-C stopped as a warning with its traceback
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    if len(objectives) == 1:
        sampler = optuna.samplers.TPESampler(seed=seed % 2**32, n_startup_trials=max(2, min(10, trials // 4)))
    else:
        sampler = optuna.samplers.NSGAIISampler(seed=seed % 2**32, population_size=max(4, min(50, trials // 4)))
    study = optuna.create_study(directions=[o.direction for o in objectives], sampler=sampler)
    cache: dict[str, Point] = {}
    screen_scores: list[np.ndarray] = []  # per trial, oriented so that smaller is better
    played = [0]
    wanted = [o.metric for o in objectives] + [c.metric for c in constraints]
    store = PlayStore(out_dir, base.game)

    def play(values: dict, first: int, n: int, s: int) -> Accumulator:
        spec = PointSpec(base_path, tuple(base_overrides) + tuple(overrides_of(values)), s, n, first)
        acc = store.get(spec)
        if acc is None:
            acc = evaluate_point(spec, threads, cluster=cluster)
            store.put(spec, acc)
            played[0] += n
        return acc

    def oriented(vals: dict[str, float]) -> np.ndarray:
        return np.array([o.sign * o.score(vals[o.metric]) for o in objectives])

    def feasible(p: Point, vals: dict[str, float] | None = None) -> bool:
        vals = vals or {m: p.estimates[m].value for m in wanted}
        return all(c.excess(vals[c.metric]) <= 0 for c in constraints)

    def extend(p: Point) -> None:
        if p.games >= games * promote:
            return
        p.acc.merge(play(p.values, p.games, games * promote - p.games, seed))
        p.games = games * promote
        p.refresh()

    def promising(score: np.ndarray) -> bool:
        if len(screen_scores) < MIN_SEEN:
            return False
        past = np.array(screen_scores)
        if len(objectives) == 1:
            return bool(score[0] <= np.nanquantile(past[:, 0], PROMOTE_QUANTILE))
        return not any(_dominates(q, score) for q in past)

    def objective(trial):
        values = {f.key: suggest(trial, f) for f in factors}
        key = config_key(values)
        p = cache.get(key)
        if p is None:
            acc = play(values, 0, games, seed)
            est = metrics.compute(acc)
            p = Point(values, acc, games, {m: est[m].value for m in wanted}, est)
            cache[key] = p
            score = oriented(p.screening)
            if feasible(p, p.screening) and promising(score):
                extend(p)
            screen_scores.append(score)
        vals = {m: p.estimates[m].value for m in wanted}
        trial.set_user_attr("config", key)
        for c in constraints:  # optuna steers both samplers to trials whose constraint values are <= 0
            trial.set_constraint(c.text, c.excess(vals[c.metric]))
        if progress:
            progress("trial", trial.number + 1, trials)
        out = [o.score(vals[o.metric]) for o in objectives]
        return out[0] if len(out) == 1 else tuple(out)

    study.optimize(objective, n_trials=trials, catch=())
    # the best few by their current value get the extended games before the winner is chosen
    def final_key(p: Point) -> tuple:
        v = oriented({m: p.estimates[m].value for m in wanted})
        return (not feasible(p), float(v[0]) if v[0] == v[0] else math.inf)

    ranked = sorted(cache.values(), key=final_key)
    for p in ranked[:FINAL_PROMOTE]:
        extend(p)
    if len(objectives) == 1:
        best_point = min(cache.values(), key=final_key)
        best_points = [best_point] if feasible(best_point) else []
    else:
        best_points = pareto_points(list(cache.values()), oriented, feasible, wanted)
        for p in best_points:
            extend(p)
        best_points = pareto_points(list(cache.values()), oriented, feasible, wanted)
        best_point = knee(best_points, oriented, wanted) if best_points else None
    history = trial_table(study, cache, factors, objectives, constraints, wanted, games, promote,
                          {config_key(p.values) for p in best_points}, feasible)
    # re-check on fresh seeds: the winner(s) and the untuned base
    rseed = (seed + RECHECK_SHIFT) % SEED_MOD
    to_check = [("base", {})]
    if len(objectives) == 1 and best_point is not None and best_points:
        to_check.append(("best", best_point.values))
    elif best_points:
        pick = best_points if len(best_points) <= MAX_RECHECK else [
            best_points[i] for i in np.linspace(0, len(best_points) - 1, MAX_RECHECK).round().astype(int)]
        if best_point is not None and best_point not in pick:
            pick[-1] = best_point
        for p in pick:
            to_check.append(("best" if p is best_point else "pareto", p.values))
    rows = []
    for i, (role, values) in enumerate(to_check):
        est = metrics.compute(play(values, 0, recheck_games, rseed))
        trial_no = history.loc[history["config"] == config_key(values), "trial"].min() if values else None
        for m in dict.fromkeys(wanted):
            e = est[m]
            row = {"role": role, "trial": None if trial_no is None or trial_no != trial_no else int(trial_no),
                   "metric": m, "value": e.value, "lo": e.lo, "hi": e.hi, "n": e.n, "seed": rseed}
            shown = values or {f.key: current_value(base, f.key) for f in factors}
            for f in factors:
                row[f.key] = table_value(safe_label(f, shown[f.key]))
            rows.append(row)
        if progress:
            progress("re-check", i + 1, len(to_check))
    recheck = pd.DataFrame(rows)
    importances = []
    for k in range(len(objectives)):
        try:
            # optuna's default evaluator (PED-ANOVA) rates what makes the target *low*: orient it
            sign = objectives[k].sign
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # its note that it rates low targets: oriented above
                imp = optuna.importance.get_param_importances(
                    study, target=lambda t, _k=k, _s=sign: _s * t.values[_k])
            importances.append({name: float(v) for name, v in imp.items()})
        except (RuntimeError, ValueError, ZeroDivisionError):
            importances.append({})
    best_trial = None
    if best_point is not None and best_points:
        best_trial = int(history.loc[history["config"] == config_key(best_point.values), "trial"].min())
    res = TuneResult(out_dir, factors, objectives, constraints, history,
                     best_point.values if best_point is not None and best_points else None, best_trial, recheck,
                     history[history["pareto"]] if len(objectives) == 2 else None, importances, played[0],
                     time.perf_counter() - t0, rseed, games_reused=store.reused)
    write_outputs(res, base, base_path, base_overrides, games, promote, recheck_games, best_points)
    return res


def current_value(s: Scenario, key: str) -> Any:
    """The scenario's own value of ``rules.X`` or ``seats.N.X``."""
    if key.startswith("rules."):
        return s.rules[key[len("rules."):]]
    _, seat, name = key.split(".", 2)
    return s.seats[int(seat)][name]


def safe_label(f: Factor, v: Any) -> Any:
    """A set's name for the value, or its text when it is not one of the set (the untuned base)."""
    try:
        return f.label(v)
    except ValueError:
        return value_text(v)


def pareto_points(points: list[Point], oriented, feasible, wanted) -> list[Point]:
    """Feasible points that no other feasible point dominates (on their current games), by first objective."""
    ok = [p for p in points if feasible(p)]
    vecs = [oriented({m: p.estimates[m].value for m in wanted}) for p in ok]
    front = [p for p, v in zip(ok, vecs) if not any(_dominates(w, v) for w in vecs)]
    return sorted(front, key=lambda p: float(oriented({m: p.estimates[m].value for m in wanted})[0]))


def knee(front: list[Point], oriented, wanted) -> Point:
    """The front point closest to the ideal point, each objective scaled to the front's range."""
    v = np.array([oriented({m: p.estimates[m].value for m in wanted}) for p in front])
    span = np.where(np.ptp(v, axis=0) > 0, np.ptp(v, axis=0), 1.0)
    d = np.sqrt((((v - v.min(axis=0)) / span) ** 2).sum(axis=1))
    return front[int(np.argmin(d))]


def trial_table(study, cache, factors, objectives, constraints, wanted, games, promote, front_keys, feasible):
    rows = []
    for t in study.trials:
        key = t.user_attrs.get("config")
        p = cache.get(key)
        row = {"trial": t.number, "state": t.state.name, "config": key,
               "seconds": (t.datetime_complete - t.datetime_start).total_seconds()
               if t.datetime_complete and t.datetime_start else math.nan}
        for f in factors:
            row[f.key] = table_value(f.label(p.values[f.key])) if p else None
        if p is not None:
            row["games"] = p.games
            row["promoted"] = p.games >= games * promote
            for o in objectives:
                e = p.estimates[o.metric]
                row[f"objective.{o.metric}"] = e.value
                row[f"objective.{o.metric}.lo"] = e.lo
                row[f"objective.{o.metric}.hi"] = e.hi
                row[f"screening.{o.metric}"] = p.screening[o.metric]
            for c in constraints:
                row[f"constraint.{c.text}"] = p.estimates[c.metric].value
            row["feasible"] = feasible(p)
            row["pareto"] = key in front_keys
        rows.append(row)
    return pd.DataFrame(rows)


def best_scenario_toml(base_path: str, base_overrides: list[str], values: dict, note: str) -> str:
    """The base scenario with the winning values: a complete scenario file, ready for ``run``."""
    s = scen.load(base_path, list(base_overrides) + overrides_of(values)
                  + [f"description={value_text(note)}"])
    s.compile()
    return s.to_toml()


def write_outputs(res: TuneResult, base: Scenario, base_path: str, base_overrides: list[str], games: int,
                  promote: int, recheck_games: int, best_points: list[Point]) -> None:
    out = res.out_dir
    out.mkdir(parents=True, exist_ok=True)
    res.history.to_parquet(out / "trials.parquet", index=False)
    res.recheck.to_parquet(out / "recheck.parquet", index=False)
    files = [out / "trials.parquet", out / "recheck.parquet"]
    goal = "; ".join(o.text for o in res.objectives) + "".join(f"; {c.text}" for c in res.constraints)
    if res.best_values is not None:
        sets = " ".join(overrides_of(res.best_values))
        note = f"tuned by pirate-sim tune ({goal}) from {base_path}: {sets}"
        atomic_write_text(out / "best.toml", best_scenario_toml(base_path, base_overrides, res.best_values, note))
        files.append(out / "best.toml")
    if res.pareto is not None:
        res.pareto.to_parquet(out / "pareto.parquet", index=False)
        (out / "pareto").mkdir(exist_ok=True)
        for p in best_points:
            t = int(res.history.loc[res.history["config"] == config_key(p.values), "trial"].min())
            note = f"Pareto-front trial {t} of pirate-sim tune ({goal}) from {base_path}"
            atomic_write_text(out / "pareto" / f"trial{t:04d}.toml",
                              best_scenario_toml(base_path, base_overrides, p.values, note))
        files.append(out / "pareto.parquet")
    atomic_write_text(out / "summary.txt", summary_text(res, base, games, promote, recheck_games))
    atomic_write_json(out / "tune.json", {
        "format_version": 1, "command": "tune", "game": base.game.name, "rules_version": base.game.version,
        "base": base_path, "base_overrides": list(base_overrides), "seed": base.seed,
        "recheck_seed": res.recheck_seed, "games_per_trial": games, "promote": promote,
        "recheck_games": recheck_games, "factors": [f.to_json() for f in res.factors],
        "objectives": [o.text for o in res.objectives], "constraints": [c.text for c in res.constraints],
        "trials": len(res.history), "best_trial": res.best_trial,
        "best_values": {k: v for k, v in (res.best_values or {}).items()},
        "games_played": res.games_played, "seconds": res.seconds, "importances": res.importances})
    files += [out / "summary.txt", out / "tune.json"]
    from . import explore_charts

    files += explore_charts.tune_report(res, base)
    res.files = files


def summary_text(res: TuneResult, base: Scenario, games: int, promote: int, recheck_games: int) -> str:
    h = res.history
    done = h[h["state"] == "COMPLETE"]
    method = "TPE" if len(res.objectives) == 1 else "NSGA-II"
    extended = int(done.drop_duplicates("config")["promoted"].sum()) if "promoted" in done else 0
    lines = [
        f"pirate-sim tune: {base.title} ({base.game.name} rules {base.game.version})",
        f"objective{'s' if len(res.objectives) > 1 else ''}: {'; '.join(o.text for o in res.objectives)} ({method})",
        "constraints: " + ("; ".join(c.text for c in res.constraints) or "none"),
        "parameters:",
    ]
    lines += [f"  {f.describe()}" for f in res.factors]
    lines += [
        f"trials: {len(h)} ({done['config'].nunique()} distinct configurations), {games:,} games each on seed "
        f"{base.seed} (common random numbers); {extended} configurations extended to {games * promote:,} games "
        f"(promising ones during the search, the best {FINAL_PROMOTE} at the end)",
        f"cost: {res.games_played:,} games in {res.seconds:.1f} s (re-checks included)"
        + (f"; {res.games_reused:,} games' results reused from the interrupted run" if res.games_reused else ""),
        "",
    ]
    if res.best_values is None:
        lines.append("no trial met every constraint: no winner (loosen a constraint or widen the ranges)")
    else:
        lines.append(f"winner: trial {res.best_trial}: " + ", ".join(
            f"{k} = {value_text(f.label(v)) if f.kind == 'set' else value_text(v)}"
            for f, (k, v) in zip(res.factors, res.best_values.items())))
        row = h[h["trial"] == res.best_trial].iloc[0]
        for o in res.objectives:
            lines.append(f"  on the tuning seed ({int(row['games']):,} games): {o.metric} = "
                         f"{row[f'objective.{o.metric}']:.4g} "
                         f"(95% CI {row[f'objective.{o.metric}.lo']:.4g} .. {row[f'objective.{o.metric}.hi']:.4g})")
    rc = res.recheck
    lines += ["", f"re-check on fresh seeds (seed {res.recheck_seed}, {recheck_games:,} games, never seen by the "
                  f"search), 95% CI:"]
    for role in ("base", "best", "pareto"):
        for trial, g in rc[rc["role"] == role].groupby("trial", dropna=False, sort=False):
            label = "untuned base" if role == "base" else f"{role} (trial {int(trial)})"
            cells = [f"{r.metric} = {r.value:.4g} ({r.lo:.4g} .. {r.hi:.4g})" for r in g.itertuples()]
            lines.append(f"  {label:22s} " + "; ".join(cells))
    if res.constraints and res.best_values is not None:
        best = rc[rc["role"] == "best"].set_index("metric")
        for c in res.constraints:
            if c.metric in best.index:
                e = best.loc[c.metric]
                sure = (e["hi"] if c.op == "<=" else e["lo"]) - c.bound
                ok = sure <= 0 if c.op == "<=" else sure >= 0
                lines.append(f"  constraint {c.text}: {'holds with 95% confidence' if ok else 'NOT established on fresh seeds (the CI crosses or misses the bound)'}")
    if res.pareto is not None:
        lines += ["", f"Pareto front: {len(res.pareto)} trials (pareto.parquet, pareto/<trial>.toml); "
                      f"best.toml is its knee (closest to the ideal point)"]
    if res.importances and any(res.importances):
        for o, imp in zip(res.objectives, res.importances):
            if imp:
                lines.append(f"importance for {o.metric}: " + ", ".join(f"{k} {v:.2f}" for k, v in imp.items()))
    return "\n".join(lines) + "\n"

