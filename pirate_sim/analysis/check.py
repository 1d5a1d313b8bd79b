"""Balance gate: play games sequentially until every bound of a spec is decided.

A spec (TOML) names scenarios and bounds on metrics of the vocabulary::

    title = "Pirate's Peak balance"
    confidence = 0.95        # family-wise: P(any verdict wrong) <= 1 - confidence
    min_games = 20_000       # first look
    max_games = 2_000_000    # budget per scenario
    growth = 2.0             # looks at min_games * growth^k (and at max_games)

    [[scenario]]
    name = "default"
    path = "../pirates_peak/default.toml"   # relative to the spec file
    set = ["rules.some.key=3"]              # optional --set overrides

    [[bound]]
    metric = "seat_balance"                 # a metric name or a glob (one bound per match)
    max = 0.05
    [[bound]]
    metric = "length.mean"
    min = 30
    max = 60
    [[bound]]
    metric = "first_player_win_rate"
    target = 0.375
    tolerance = 0.02

A bound is **decided** when its interval lies entirely inside the allowed range (holds)
or entirely outside it (violated).  Sequential looks inflate the error rate, so the
looks are fixed in advance at geometrically growing sample sizes and the error budget
``alpha = 1 - confidence`` is split Bonferroni-style over every interval that may be
looked at: each interval has confidence ``1 - alpha / (bounds * looks)``.  By the union
bound the chance that *any* verdict of the run is wrong is then at most ``alpha``
(up to the approximation of each interval method).  Exit codes: 0 all hold, 1 a bound is
violated, 3 undecided within the budget, 2 a bad spec.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .. import metrics
from .. import scenario as scen
from ..metrics import Accumulator
from ..results import atomic_write_json, atomic_write_text
from ..runner import set_threads
from ..scenario import Scenario, ScenarioError, _suggest, read_toml
from ..seating import rotates

EXIT_OK, EXIT_VIOLATED, EXIT_SPEC, EXIT_UNDECIDED = 0, 1, 2, 3
SPEC_KEYS = ("title", "description", "confidence", "min_games", "max_games", "growth", "scenario", "bound",
             "baseline")
SCENARIO_KEYS = ("name", "path", "set", "seed")
BOUND_KEYS = ("scenario", "metric", "min", "max", "target", "tolerance", "name")
BASELINE_KEYS = ("metrics", "tolerance", "relative_tolerance", "tolerances", "games")
DEFAULT_BASELINE_METRICS = ["win_rate.seat*", "first_player_win_rate", "length.mean"]
BASELINE_FORMAT = "pirate-sim-baseline/1"


class SpecError(ScenarioError):
    """A problem in a balance spec or baseline: ``file: key: message``."""


@dataclass
class Bound:
    id: str  # where it came from in the spec, e.g. bound[2] or baseline
    scenario: str
    metric: str
    lo: float  # -inf when no minimum
    hi: float  # +inf when no maximum
    label: str
    verdict: str = "undecided"  # holds | violated | undecided
    estimate: dict | None = None
    games: int = 0
    seconds: float = 0.0

    def describe(self) -> str:
        return self.label

    def decide(self, est) -> str:
        if est.lo != est.lo or est.hi != est.hi:
            return "undecided"
        if self.lo <= est.lo and est.hi <= self.hi:
            return "holds"
        if est.hi < self.lo or est.lo > self.hi:
            return "violated"
        return "undecided"


@dataclass
class SpecScenario:
    name: str
    scenario: Scenario
    key: str  # scenario[i]


@dataclass
class Spec:
    source: str
    title: str
    confidence: float
    min_games: int
    max_games: int
    growth: float
    scenarios: list[SpecScenario]
    bounds: list[Bound]
    baseline: dict = field(default_factory=dict)

    def looks(self, max_games: int | None = None) -> list[int]:
        """Sample sizes at which the bounds are examined (fixed in advance)."""
        top = int(max_games or self.max_games)
        out, n = [], float(min(self.min_games, top))
        while int(n) < top:
            out.append(int(n))
            n *= self.growth
        out.append(top)
        return sorted(set(out))


def _fmt(v: float) -> str:
    return f"{v:.6g}"


def _bound_label(metric: str, lo: float, hi: float, target=None, tol=None) -> str:
    if target is not None:
        return f"{metric} within {_fmt(tol)} of {_fmt(target)}"
    if lo > -math.inf and hi < math.inf:
        return f"{_fmt(lo)} <= {metric} <= {_fmt(hi)}"
    if hi < math.inf:
        return f"{metric} <= {_fmt(hi)}"
    return f"{metric} >= {_fmt(lo)}"


def _num(source: str, key: str, v: Any, positive: bool = False) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise SpecError(source, key, f"expected a number, got {v!r}")
    if positive and v <= 0:
        raise SpecError(source, key, f"must be positive, got {v!r}")
    return float(v)


def _int(source: str, key: str, v: Any, minimum: int = 1) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < minimum:
        raise SpecError(source, key, f"expected a whole number >= {minimum}, got {v!r}")
    return v


def _check_keys(source: str, where: str, table: dict, allowed) -> None:
    for k in table:
        if k not in allowed:
            raise SpecError(source, f"{where}.{k}" if where else k, "unknown key" + _suggest(k, allowed)
                            + f"; allowed: {', '.join(allowed)}")


def available_metrics(s: Scenario) -> list[str]:
    from ..meta import gate  # meta-game metrics (tournament, skill ladder): pirate_sim/meta/gate.py

    acc = Accumulator(s.game, s.compile().strategy_names)
    return metrics.metric_names(acc) + gate.metric_names(s)


def load_spec(path: str | Path, seed: int | None = None) -> Spec:
    """Read and validate a balance spec; SpecError('file: key: message') on any problem."""
    path = Path(path)
    src = str(path)
    raw = read_toml(path, SpecError)
    _check_keys(src, "", raw, SPEC_KEYS)
    title = raw.get("title", path.stem)
    confidence = _num(src, "confidence", raw.get("confidence", 0.95))
    if not 0.5 <= confidence < 1:
        raise SpecError(src, "confidence", f"expected a number in [0.5, 1), got {confidence!r}")
    max_games = _int(src, "max_games", raw.get("max_games", 1_000_000))
    min_games = _int(src, "min_games", raw.get("min_games", min(10_000, max_games)))
    growth = _num(src, "growth", raw.get("growth", 2.0))
    if growth <= 1:
        raise SpecError(src, "growth", f"must be above 1, got {growth!r}")
    scen_tables = raw.get("scenario")
    if not isinstance(scen_tables, list) or not scen_tables or not all(isinstance(t, dict) for t in scen_tables):
        raise SpecError(src, "scenario", "expected at least one [[scenario]] table with a path")
    scenarios: list[SpecScenario] = []
    for i, t in enumerate(scen_tables):
        key = f"scenario[{i}]"
        _check_keys(src, key, t, SCENARIO_KEYS)
        if "path" not in t or not isinstance(t["path"], str):
            raise SpecError(src, f"{key}.path", "missing; the scenario file, relative to the spec")
        name = t.get("name", Path(t["path"]).stem)
        if not isinstance(name, str) or not name:
            raise SpecError(src, f"{key}.name", f"expected a non-empty string, got {name!r}")
        if any(s.name == name for s in scenarios):
            raise SpecError(src, f"{key}.name", f"scenario name {name!r} used twice")
        sets = t.get("set", [])
        if isinstance(sets, str):
            sets = [sets]
        if not isinstance(sets, list) or not all(isinstance(x, str) for x in sets):
            raise SpecError(src, f"{key}.set", "expected a list of \"key=value\" strings")
        overrides = list(sets)
        sd = seed if seed is not None else t.get("seed")
        if sd is not None:
            overrides.append(f"run.seed={_int(src, f'{key}.seed', sd, 0)}")
        spath = Path(t["path"])
        if not spath.is_absolute():
            spath = path.parent / spath
        try:
            s = scen.load(spath, overrides)
            s.compile()
        except ScenarioError as exc:
            where = f"{key}.set" if exc.key and any(o.split("=")[0].strip() == exc.key for o in sets) else f"{key}.path"
            raise SpecError(src, where, str(exc)) from None
        scenarios.append(SpecScenario(name, s, key))
    names = [s.name for s in scenarios]
    avail = {s.name: available_metrics(s.scenario) for s in scenarios}
    bounds: list[Bound] = []
    btables = raw.get("bound", [])
    if not isinstance(btables, list) or not all(isinstance(t, dict) for t in btables):
        raise SpecError(src, "bound", "expected [[bound]] tables")
    for i, t in enumerate(btables):
        key = f"bound[{i}]"
        _check_keys(src, key, t, BOUND_KEYS)
        target_sc = t.get("scenario", "*" if len(names) > 1 else names[0])
        if target_sc != "*" and target_sc not in names:
            raise SpecError(src, f"{key}.scenario", f"unknown scenario {target_sc!r}" + _suggest(str(target_sc), names)
                            + f"; the spec has {', '.join(names)}")
        if "metric" not in t or not isinstance(t["metric"], str):
            raise SpecError(src, f"{key}.metric", "missing; a metric name such as seat_balance (see docs/metrics.md)")
        if "target" in t:
            if "min" in t or "max" in t:
                raise SpecError(src, key, "give either target and tolerance, or min and/or max, not both")
            if "tolerance" not in t:
                raise SpecError(src, f"{key}.tolerance", "missing; target needs a tolerance")
            target = _num(src, f"{key}.target", t["target"])
            tol = _num(src, f"{key}.tolerance", t["tolerance"])
            if tol < 0:
                raise SpecError(src, f"{key}.tolerance", f"must not be negative, got {tol!r}")
            lo, hi = target - tol, target + tol
        else:
            if "tolerance" in t:
                raise SpecError(src, f"{key}.tolerance", "a tolerance needs a target")
            if "min" not in t and "max" not in t:
                raise SpecError(src, key, "needs min, max, or target and tolerance")
            target = tol = None
            lo = _num(src, f"{key}.min", t["min"]) if "min" in t else -math.inf
            hi = _num(src, f"{key}.max", t["max"]) if "max" in t else math.inf
            if lo > hi:
                raise SpecError(src, key, f"min {lo:g} is above max {hi:g}")
        for sc_name in (names if target_sc == "*" else [target_sc]):
            try:
                ms = metrics.resolve([t["metric"]], avail[sc_name])
            except KeyError as exc:
                raise SpecError(src, f"{key}.metric", str(exc.args[0]) + f" for scenario {sc_name!r}") from None
            for m in ms:
                label = t.get("name") if isinstance(t.get("name"), str) and len(ms) == 1 else _bound_label(m, lo, hi, target, tol)
                bounds.append(Bound(key, sc_name, m, lo, hi, label))
    baseline = raw.get("baseline", {})
    if not isinstance(baseline, dict):
        raise SpecError(src, "baseline", "expected a [baseline] table")
    _check_keys(src, "baseline", baseline, BASELINE_KEYS)
    bl = {
        "metrics": baseline.get("metrics", DEFAULT_BASELINE_METRICS),
        "tolerance": _num(src, "baseline.tolerance", baseline.get("tolerance", 0.02), positive=True),
        "relative_tolerance": _num(src, "baseline.relative_tolerance", baseline.get("relative_tolerance", 0.05),
                                   positive=True),
        "tolerances": baseline.get("tolerances", {}),
        "games": _int(src, "baseline.games", baseline.get("games", max_games)),
    }
    if not isinstance(bl["metrics"], list) or not all(isinstance(x, str) for x in bl["metrics"]):
        raise SpecError(src, "baseline.metrics", "expected a list of metric names or globs")
    if not isinstance(bl["tolerances"], dict):
        raise SpecError(src, "baseline.tolerances", "expected a table metric = tolerance")
    for sc_name in names:
        try:
            bl.setdefault("resolved", {})[sc_name] = list(dict.fromkeys(metrics.resolve(bl["metrics"], avail[sc_name])))
        except KeyError as exc:
            raise SpecError(src, "baseline.metrics", str(exc.args[0])) from None
    for m, v in bl["tolerances"].items():
        _num(src, f"baseline.tolerances.{m}", v, positive=True)
        if not any(m in avail[n] for n in names):
            raise SpecError(src, f"baseline.tolerances.{m}", "unknown metric" + _suggest(m, avail[names[0]]))
    if not bounds and not baseline:
        raise SpecError(src, "bound", "the spec has no [[bound]] tables (and no [baseline])")
    return Spec(src, title, confidence, min_games, max_games, growth, scenarios, bounds, bl)


# ----------------------------------------------------------------------- baselines


def baseline_tolerance(spec: Spec, metric: str, value: float) -> float:
    from ..metrics import is_proportion

    tols = spec.baseline["tolerances"]
    if metric in tols:
        return float(tols[metric])
    if is_proportion(metric):
        return spec.baseline["tolerance"]
    return spec.baseline["relative_tolerance"] * max(abs(value), 1e-9)


def baseline_bounds(spec: Spec, path: Path) -> list[Bound]:
    """Bounds 'metric within tolerance of the stored value' for every baseline metric."""
    src = str(path)
    if not Path(path).exists():
        raise SpecError(src, "", "baseline file not found (create it with --update-baseline)")
    try:
        data = json.loads(Path(path).read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SpecError(src, "", f"not a baseline JSON file: {exc}") from None
    if data.get("format") != BASELINE_FORMAT:
        raise SpecError(src, "format", f"expected {BASELINE_FORMAT!r}, got {data.get('format')!r}")
    out = []
    for sc in spec.scenarios:
        stored = data.get("scenarios", {}).get(sc.name)
        if stored is None:
            raise SpecError(src, f"scenarios.{sc.name}", "no baseline for this scenario; run with --update-baseline")
        for m in spec.baseline["resolved"][sc.name]:
            if m not in stored["metrics"]:
                raise SpecError(src, f"scenarios.{sc.name}.metrics.{m}",
                                "metric missing from the baseline; run with --update-baseline")
            v = stored["metrics"][m]["value"]
            if v != v:
                continue
            tol = baseline_tolerance(spec, m, v)
            label = f"{m} within {_fmt(tol)} of baseline {_fmt(v)}"
            out.append(Bound("baseline", sc.name, m, v - tol, v + tol, label))
    return out


def update_baseline(spec: Spec, path: Path, threads: int | None = None, games: int | None = None,
                    progress: Callable | None = None, cluster=None) -> dict:
    """Play each scenario ``baseline.games`` games and store every metric (95% intervals)."""
    set_threads(threads)
    out = {"format": BASELINE_FORMAT, "spec": spec.source, "title": spec.title,
           "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"), "scenarios": {}}
    n_games = int(games or spec.baseline["games"])
    for sc in spec.scenarios:
        s = sc.scenario
        acc = _play(s, Accumulator(s.game, s.compile().strategy_names, rotates(s.rules)), s.compile(), 0, n_games,
                    progress, sc.name, cluster)
        out["scenarios"][sc.name] = {
            "source": s.source, "overrides": s.overrides, "hash": s.hash(), "seed": s.seed,
            "rules_version": s.game.version, "games": acc.n,
            "metrics": {k: e.as_dict() for k, e in metrics.compute(acc).items()},
        }
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    atomic_write_json(Path(path), out)
    return out


# --------------------------------------------------------------------------- check


def _play(s: Scenario, acc: Accumulator, compiled, start: int, stop: int, progress, name,
          cluster=None) -> Accumulator:
    """Add games ``start .. stop - 1`` to ``acc`` chunk by chunk (on ``cluster`` if given)."""
    chunk = s.run["chunk_size"]
    spans = ((a, min(a + chunk, stop)) for a in range(start, stop, chunk))
    if cluster is None:
        outputs = ((a, b, s.game.play(compiled, s.seed, a, b - a)) for a, b in spans)
    else:
        outputs = ((a, a + g.shape[0], (g, st))
                   for (_c, g, st), a in zip(cluster.play_chunks(s, ((a // chunk, a, b - a) for a, b in spans)),
                                             range(start, stop, chunk)))
    for a, b, out in outputs:
        acc.update(*out, a)
        if progress:
            progress(name, b, stop)
    return acc


@dataclass
class CheckResult:
    spec: Spec
    bounds: list[Bound]
    per_interval_confidence: float
    looks: list[int]
    games: dict[str, int]
    seconds: dict[str, float]
    max_games: int

    @property
    def exit_code(self) -> int:
        if any(b.verdict == "violated" for b in self.bounds):
            return EXIT_VIOLATED
        if any(b.verdict == "undecided" for b in self.bounds):
            return EXIT_UNDECIDED
        return EXIT_OK

    @property
    def status(self) -> str:
        return {EXIT_OK: "pass", EXIT_VIOLATED: "fail", EXIT_UNDECIDED: "undecided"}[self.exit_code]

    def to_json(self) -> dict:
        return {
            "spec": self.spec.source,
            "title": self.spec.title,
            "status": self.status,
            "exit_code": self.exit_code,
            "confidence": self.spec.confidence,
            "per_interval_confidence": self.per_interval_confidence,
            "looks": self.looks,
            "max_games": self.max_games,
            "method": "fixed geometric looks, Bonferroni split of 1 - confidence over bounds x looks",
            "scenarios": {sc.name: {"source": sc.scenario.source, "overrides": sc.scenario.overrides,
                                    "hash": sc.scenario.hash(), "seed": sc.scenario.seed,
                                    "games": self.games.get(sc.name, 0), "seconds": self.seconds.get(sc.name, 0.0)}
                          for sc in self.spec.scenarios},
            "bounds": [{"id": b.id, "scenario": b.scenario, "metric": b.metric, "bound": b.label,
                        "min": None if b.lo == -math.inf else b.lo, "max": None if b.hi == math.inf else b.hi,
                        "verdict": b.verdict, "games": b.games, "estimate": b.estimate} for b in self.bounds],
        }


def run_check(spec: Spec, extra_bounds: list[Bound] = (), max_games: int | None = None,
              threads: int | None = None, progress: Callable | None = None, cluster=None) -> CheckResult:
    """Play each scenario look by look until its bounds are decided or the budget is spent."""
    bounds = list(spec.bounds) + list(extra_bounds)
    top = int(max_games or spec.max_games)
    looks = spec.looks(top)
    alpha = 1.0 - spec.confidence
    conf_each = 1.0 - alpha / (max(len(bounds), 1) * len(looks))
    set_threads(threads)
    games, seconds = {}, {}
    for sc in spec.scenarios:
        mine = [b for b in bounds if b.scenario == sc.name]
        s = sc.scenario
        from ..meta import gate  # bounds on meta-game metrics are played by the meta-game's own looks

        t0 = time.perf_counter()
        meta_games = gate.decide(s, [b for b in mine if gate.is_meta_metric(b.metric)], looks, conf_each, threads,
                                 cluster, progress, sc.name)
        mine = [b for b in mine if not gate.is_meta_metric(b.metric)]
        compiled = s.compile()
        acc = Accumulator(s.game, compiled.strategy_names, rotates(s.rules))
        for n_look in looks:
            if not mine or all(b.verdict != "undecided" for b in mine):
                break
            _play(s, acc, compiled, acc.n, n_look, progress, sc.name, cluster)
            est = metrics.compute(acc, conf_each)
            if n_look == looks[0]:
                _reject_undefined(spec, sc.name, mine, est, acc.n)
            for b in mine:
                if b.verdict != "undecided":
                    continue
                e = est[b.metric]
                b.estimate = {**e.as_dict(), "confidence": conf_each}
                b.games = acc.n
                b.seconds = time.perf_counter() - t0
                b.verdict = b.decide(e)
        games[sc.name] = acc.n + meta_games  # the scenario's own games and the meta-games' behind its verdicts
        seconds[sc.name] = time.perf_counter() - t0
    return CheckResult(spec, bounds, conf_each, looks, games, seconds, top)


def _reject_undefined(spec: Spec, scenario: str, bounds: list[Bound], est, games: int) -> None:
    """A bound on a metric no game defines (e.g. the win rate of a label no seat ever shows)
    can never be decided: reject the spec at the first look instead of playing the budget."""
    for b in bounds:
        e = est[b.metric]
        if e.value != e.value:
            raise SpecError(spec.source, f"{b.id}.metric",
                            f"{b.metric} is undefined for scenario {scenario!r}: none of the first {games:,} games "
                            f"defines it (no game shows what it measures); remove the bound or change the scenario")


def bound_message(b: Bound) -> str:
    e = b.estimate
    if not e:
        return f"{b.label}: not evaluated"
    conf = 100 * e.get("confidence", 0.95)
    ci = f"{e['value']:.6g} [{e['lo']:.6g}, {e['hi']:.6g}] ({conf:.3g}% CI, {b.games:,} games)"
    if b.verdict == "holds":
        return f"{b.metric} = {ci}: inside {b.label}"
    if b.verdict == "violated":
        return f"{b.metric} = {ci}: outside {b.label}"
    return f"{b.metric} = {ci}: the interval straddles a limit of {b.label}; undecided within the budget"


def junit_xml(res: CheckResult) -> str:
    """JUnit XML: one testsuite per scenario, one testcase per bound (failure = violated, skipped = undecided)."""
    suites = ET.Element("testsuites", name=res.spec.title)
    tot = {"tests": 0, "failures": 0, "skipped": 0, "errors": 0}
    stem = Path(res.spec.source).stem
    for sc in res.spec.scenarios:
        mine = [b for b in res.bounds if b.scenario == sc.name]
        fails = sum(b.verdict == "violated" for b in mine)
        skips = sum(b.verdict == "undecided" for b in mine)
        suite = ET.SubElement(suites, "testsuite", name=f"{stem}.{sc.name}", tests=str(len(mine)),
                              failures=str(fails), errors="0", skipped=str(skips),
                              time=f"{res.seconds.get(sc.name, 0.0):.3f}",
                              timestamp=_dt.datetime.now().isoformat(timespec="seconds"))
        props = ET.SubElement(suite, "properties")
        for k, v in (("scenario", sc.scenario.source), ("overrides", " ".join(sc.scenario.overrides)),
                     ("seed", str(sc.scenario.seed)), ("games", str(res.games.get(sc.name, 0))),
                     ("per_interval_confidence", f"{res.per_interval_confidence:.6g}")):
            ET.SubElement(props, "property", name=k, value=v)
        for b in mine:
            case = ET.SubElement(suite, "testcase", classname=f"{stem}.{sc.name}", name=b.label,
                                 time=f"{b.seconds:.3f}")
            msg = bound_message(b)
            if b.verdict == "violated":
                el = ET.SubElement(case, "failure", message=msg, type="BoundViolated")
                el.text = msg
            elif b.verdict == "undecided":
                ET.SubElement(case, "skipped", message=msg)
            ET.SubElement(case, "system-out").text = msg
        tot["tests"] += len(mine)
        tot["failures"] += fails
        tot["skipped"] += skips
    for k, v in tot.items():
        suites.set(k, str(v))
    suites.set("time", f"{sum(res.seconds.values()):.3f}")
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def write_outputs(res: CheckResult, json_path: Path, junit_path: Path) -> None:
    for p in (json_path, junit_path):
        Path(p).parent.mkdir(parents=True, exist_ok=True)
    atomic_write_json(Path(json_path), res.to_json())
    atomic_write_text(Path(junit_path), junit_xml(res))
