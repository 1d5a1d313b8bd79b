"""Parameter spaces and the point evaluation shared by ``sensitivity`` and ``tune``.

A :class:`Factor` is one varied parameter, parsed from ``--vary``:

* ``KEY=lo:hi``: a numeric range within the parameter's documented bounds; an ``int``
  parameter takes every whole number lo..hi with equal weight, a ``float`` the interval.
* ``KEY=v1,v2,...`` (or ``;``-separated, as in ``sweep``): a named set of values, for
  list-valued, choice, boolean and string parameters (and numbers when only some values
  matter).  Each value may carry a name, ``NAME=VALUE``, used in tables and charts:
  ``--vary 'rules.deck.cards=classic=[...];short=[...]'``.

Designs (SALib, optuna) work on the unit interval; :meth:`Factor.value` maps ``u`` in
[0, 1] to the parameter's value (discrete values each get an equal share of [0, 1]).

:func:`evaluate_point` is the unit of work: base scenario + ``--set`` overrides + seed +
games -> an :class:`~pirate_sim.metrics.Accumulator`.  It reads and writes no files and
depends on nothing but its arguments, so it can be shipped to other processes or hosts.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from .. import metrics, runner
from .. import scenario as scen
from ..metrics import Accumulator
from ..scenario import Scenario
from ..seating import rotates
from .sweep import FORBIDDEN_KEYS, GridError, _num, split_values, value_text

_RANGE = re.compile(r"^\s*(-?[\d_.eE+-]+)\s*:\s*(-?[\d_.eE+-]+)\s*$")
_NAMED = re.compile(r"^([A-Za-z_][A-Za-z0-9_\-]*)\s*=(.*)$", re.S)
MAX_LABEL = 24  # longest value text shown as its own label; longer (lists) become v0, v1, ...


@dataclass
class Factor:
    """One varied parameter: a numeric range (``int``/``float``) or a named set of values."""

    key: str
    kind: str  # "int" | "float" | "set"
    lo: float = 0.0
    hi: float = 0.0
    values: list[Any] = field(default_factory=list)  # kind "set"
    labels: list[str] = field(default_factory=list)  # kind "set"

    @property
    def levels(self) -> int:
        """Number of distinct values (0 for a float range)."""
        if self.kind == "set":
            return len(self.values)
        return int(self.hi - self.lo) + 1 if self.kind == "int" else 0

    def index(self, u: float) -> int:
        """Which of the discrete values ``u`` in [0, 1] stands for (equal shares)."""
        return min(int(math.floor(u * self.levels)), self.levels - 1)

    def value(self, u: float) -> Any:
        if self.kind == "float":
            return float(self.lo + u * (self.hi - self.lo))
        if self.kind == "int":
            return int(self.lo) + self.index(u)
        return self.values[self.index(u)]

    def label(self, v: Any) -> Any:
        """The value as shown in tables and charts: a set's name, else the number."""
        if self.kind == "set":
            return self.labels[[value_text(x) for x in self.values].index(value_text(v))]
        return v

    def describe(self) -> str:
        if self.kind == "set":
            return f"{self.key} in {{{', '.join(self.labels)}}}"
        return f"{self.key} in {self.lo:g}..{self.hi:g}" + (" (whole numbers)" if self.kind == "int" else "")

    def to_json(self) -> dict:
        return {"key": self.key, "kind": self.kind, "lo": self.lo, "hi": self.hi, "values": self.values,
                "labels": self.labels}


def find_param(s: Scenario, key: str):
    """The Param behind ``rules.X`` or ``seats.N.X`` (None for seats.N.strategy and unknown keys)."""
    if key.startswith("rules."):
        return next((p for p in s.game.params if p.key == key[len("rules."):]), None)
    parts = key.split(".")
    if len(parts) == 3 and parts[0] == "seats" and parts[1].isdigit() and int(parts[1]) < s.n_seats:
        strat = s.game.strategy(s.seats[int(parts[1])]["strategy"])
        return next((p for p in strat.params if p.key == parts[2]), None)
    return None


def _check(base_path: str, base_overrides: list[str], key: str, v: Any) -> None:
    """Validate one value of KEY through the scenario loader (ScenarioError names file and key)."""
    s = scen.load(base_path, list(base_overrides) + [f"{key}={value_text(v)}"])
    s.compile()


def parse_factor(item: str, base_path: str, base_overrides: list[str], base: Scenario) -> Factor:
    """``KEY=lo:hi`` or ``KEY=[name=]v1,[name=]v2,...`` -> Factor; GridError / ScenarioError on bad input."""
    if "=" not in item:
        raise GridError(f"--vary {item!r}: expected KEY=lo:hi or KEY=v1,v2,...")
    key, _, text = item.partition("=")
    key, text = key.strip(), text.strip()
    where = f"--vary {key}"
    if not key or not re.fullmatch(r"[A-Za-z0-9_.\-]+", key):
        raise GridError(f"--vary {item!r}: bad parameter name {key!r}")
    if key in FORBIDDEN_KEYS or key.startswith("run."):
        raise GridError(f"{where}: run settings are options of the command (--games-per-point, --seed), "
                        f"not parameters to vary")
    if not key.startswith(("rules.", "seats.")):
        raise GridError(f"{where}: only rules.* and seats.N.* parameters can be varied")
    if not text:
        raise GridError(f"{where}: no values")
    param = find_param(base, key)
    m = _RANGE.match(text)
    if m and "[" not in text:
        if param is None:
            _check(base_path, base_overrides, key, scen.parse_value(m.group(1)))  # unknown key: the loader's message
        if param is None or param.kind not in ("int", "float"):
            kind = "a strategy name" if param is None else f"a {param.kind} parameter"
            raise GridError(f"{where}={text}: {key} is {kind}; give a set of values KEY=v1,v2,... "
                            f"(optionally named: NAME=VALUE)")
        try:
            lo, hi = _num(m.group(1)), _num(m.group(2))
        except ValueError as exc:
            raise GridError(f"{where}={text}: bad range ({exc}); expected lo:hi") from None
        if param.kind == "int" and not (float(lo).is_integer() and float(hi).is_integer()):
            raise GridError(f"{where}={text}: {key} is a whole-number parameter; give whole-number ends")
        if not hi > lo:
            raise GridError(f"{where}={text}: the range end {hi} must be above its start {lo}")
        for v in (lo, hi):
            _check(base_path, base_overrides, key, int(v) if param.kind == "int" else float(v))
        return Factor(key, param.kind, float(lo), float(hi))
    parts = split_values(where, text)
    values, labels = [], []
    for i, part in enumerate(parts):
        nm = _NAMED.match(part)
        name, vtext = (nm.group(1), nm.group(2).strip()) if nm else (None, part)
        v = scen.parse_value(vtext)
        _check(base_path, base_overrides, key, v)
        t = value_text(v)
        values.append(v)
        labels.append(name or (t if len(t) <= MAX_LABEL and "\n" not in t else f"v{i}"))
    if len(values) < 2:
        raise GridError(f"{where}={text}: give at least two values (or a range lo:hi)")
    texts = [value_text(v) for v in values]
    for seen in (texts, labels):
        dup = {x for x in seen if seen.count(x) > 1}
        if dup:
            raise GridError(f"{where}={text}: {sorted(dup)[0]} is listed twice")
    return Factor(key, "set", values=values, labels=labels)


def parse_factors(items: list[str], base_path: str, base_overrides: list[str]) -> tuple[Scenario, list[Factor]]:
    """The base scenario (compiled, validated) and one Factor per ``--vary``."""
    base = scen.load(base_path, list(base_overrides))
    base.compile()
    factors = [parse_factor(it, base_path, base_overrides, base) for it in items]
    keys = [f.key for f in factors]
    dup = {k for k in keys if keys.count(k) > 1}
    if dup:
        raise GridError(f"--vary {sorted(dup)[0]}: given more than once")
    if not factors:
        raise GridError("give at least one --vary KEY=lo:hi")
    return base, factors


def overrides_of(values: dict[str, Any]) -> list[str]:
    return [f"{k}={value_text(v)}" for k, v in values.items()]


def config_key(values: dict[str, Any]) -> str:
    """Identity of a design point's values (equal keys are played once)."""
    return json.dumps([[k, value_text(v)] for k, v in values.items()])


@dataclass(frozen=True)
class PointSpec:
    """Everything one evaluation needs, as plain data: base file, ``--set`` overrides, seed, games."""

    base_path: str
    overrides: tuple[str, ...]
    seed: int
    games: int
    first_game: int = 0  # play games first_game .. first_game+games-1 (extending a point keeps its streams)

    def scenario(self) -> Scenario:
        s = scen.load(self.base_path, list(self.overrides) + [f"run.seed={self.seed}"])
        s.compile()
        return s


def evaluate_point(spec: PointSpec, threads: int | None = None,
                   progress: Callable[[int, int], None] | None = None, cluster=None) -> Accumulator:
    """Play one design point: game k uses stream (seed, k), whatever the point (common random numbers).

    With ``cluster`` (pirate_sim.cluster.Cluster) the point's chunks are Dask tasks."""
    s = spec.scenario()
    if spec.first_game == 0:
        return runner.run(s, None, games=spec.games, threads=threads, progress=progress, cluster=cluster).accumulator
    compiled = s.compile()
    acc = Accumulator(s.game, compiled.strategy_names, rotates(s.rules))
    size = s.run["chunk_size"]
    spans = [(spec.first_game + a, b - a) for a, b in runner.chunk_bounds(spec.games, size)]
    if cluster is None:
        runner.set_threads(threads)
        outputs = ((first, s.game.play(compiled, s.seed, first, n)) for first, n in spans)
    else:
        outputs = ((first, (g, st)) for (_c, g, st), (first, _n) in
                   zip(cluster.play_chunks(s, ((i, first, n) for i, (first, n) in enumerate(spans))), spans))
    for first, out in outputs:
        acc.update(*out, first)
        if progress:
            progress(first + out[0].shape[0] - spec.first_game, spec.games)
    return acc


def metric_names(base: Scenario) -> list[str]:
    """Every metric name this scenario's results have."""
    return metrics.metric_names(Accumulator(base.game, base.compile().strategy_names))


def resolve_metrics(patterns: list[str], base: Scenario, option: str = "--metric") -> list[str]:
    """Names or globs -> metric names; GridError ``--metric: unknown metric 'x' (did you mean ...)``."""
    try:
        return list(dict.fromkeys(metrics.resolve(list(patterns), metric_names(base))))
    except KeyError as exc:
        raise GridError(f"{option}: {exc.args[0]}") from None

