"""Parameter sweeps: a grid of runs, each a normal results directory, with tidy metrics.

Grid syntax (``--vary``, repeatable; the grid is the Cartesian product, in option order):

* ``KEY=v1,v2,v3``: a list of values, each parsed like a ``--set`` value (TOML: numbers,
  booleans, quoted or bare strings, ``[...]`` lists).  Commas inside ``[...]`` or quotes do
  not split, so list-valued parameters work directly:
  ``--vary 'rules.wind.weights=[1,1,1,1,1,1],[3,1,1,1,1,1]'``.
* ``KEY=v1;v2;v3``: the same with semicolons (handy for lists of lists); when a ``;``
  appears at the top level, only ``;`` separates values.
* ``KEY=a:b:step`` (or ``a:b`` with step 1): an inclusive numeric range a, a+step, ... <= b;
  integers if a, b and step are all integers.

Every grid point is played with the same seed, so points differ only by the rules
(common random numbers across the grid) and point ``p`` equals a plain ``pirate-sim run``
of the base scenario with the point's ``--set`` values and that seed.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import re
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pandas as pd

from .. import metrics, runner
from .. import scenario as scen
from ..errors import UserError
from .. import results
from ..results import atomic_write_json, read_manifest
from ..scenario import Scenario

SWEEP_JSON = "sweep.json"
MAX_POINTS = 10_000
FORBIDDEN_KEYS = ("run.games", "run.chunk_size")
DEFAULT_CHART_METRICS = ("win_rate.seat*", "seat_balance", "first_player_win_rate", "length.mean",
                         "truncation_rate")
_RANGE = re.compile(r"^\s*(-?[\d_.eE+-]+)\s*:\s*(-?[\d_.eE+-]+)\s*(?::\s*(-?[\d_.eE+-]+)\s*)?$")


class GridError(UserError, ValueError):
    """Bad --vary syntax: names the option text and what is wrong."""


class SweepError(UserError, RuntimeError):
    """A sweep that cannot start or continue (existing output, mismatched resume)."""


def _split_top(text: str, sep: str) -> list[str]:
    """Split on ``sep`` outside brackets and quotes."""
    out, depth, quote, cur = [], 0, "", []
    for ch in text:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = ""
            continue
        if ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == sep and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur))
    if depth != 0 or quote:
        raise ValueError("unbalanced brackets or quotes")
    return [x.strip() for x in out]


def split_values(where: str, text: str) -> list[str]:
    """The values of a ``--vary KEY=...`` list: separated by ';', else by ',' (outside
    brackets and quotes); an empty one is an error naming the option."""
    try:
        parts = _split_top(text, ";")
        if len(parts) == 1:
            parts = _split_top(text, ",")
    except ValueError as exc:
        raise GridError(f"{where}={text}: {exc}") from None
    if any(p == "" for p in parts):
        raise GridError(f"{where}={text}: an empty value (check the commas/semicolons)")
    return parts


def _num(text: str):
    v = scen.parse_value(text.strip())
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ValueError(f"{text.strip()!r} is not a number")
    return v


def parse_vary(item: str) -> tuple[str, list[Any]]:
    """``KEY=values`` -> (key, [value, ...]); GridError with a one-line reason."""
    if "=" not in item:
        raise GridError(f"--vary {item!r}: expected KEY=v1,v2,... or KEY=a:b:step")
    key, _, text = item.partition("=")
    key, text = key.strip(), text.strip()
    where = f"--vary {key}"
    if not key or not re.fullmatch(r"[A-Za-z0-9_.\-]+", key):
        raise GridError(f"--vary {item!r}: bad parameter name {key!r}")
    if key in FORBIDDEN_KEYS:
        raise GridError(f"{where}: the number of games and the chunk size are sweep options, not grid "
                        f"parameters (use --games)")
    if not text:
        raise GridError(f"{where}: no values")
    m = _RANGE.match(text)
    if m and "[" not in text:
        try:
            a, b = _num(m.group(1)), _num(m.group(2))
            step = _num(m.group(3)) if m.group(3) else 1
        except ValueError as exc:
            raise GridError(f"{where}={text}: bad range ({exc}); expected a:b:step") from None
        if step <= 0:
            raise GridError(f"{where}={text}: the step must be positive")
        if b < a:
            raise GridError(f"{where}={text}: the range end {b} is below its start {a}")
        count = int(math.floor((b - a) / step + 1e-9)) + 1
        if count > MAX_POINTS:
            raise GridError(f"{where}={text}: {count} values, more than {MAX_POINTS}")
        as_int = all(isinstance(x, int) for x in (a, b, step))
        values = [a + i * step if as_int else round(a + i * step, 12) for i in range(count)]
        return key, values
    parts = split_values(where, text)
    values = [scen.parse_value(p) for p in parts]
    seen = set()
    for v in values:
        t = scen._toml_value(v) if isinstance(v, (list, int, float, str, bool)) else repr(v)
        if t in seen:
            raise GridError(f"{where}={text}: value {t} is listed twice")
        seen.add(t)
    return key, values


def value_text(v: Any) -> str:
    """How a value is written on the command line / in the tidy tables."""
    return scen._toml_value(v)


def table_value(v: Any):
    """Parquet-friendly value of a varied parameter (lists become their TOML text)."""
    return value_text(v) if isinstance(v, (list, dict)) else v


@dataclass
class GridPoint:
    id: str
    values: dict[str, Any]
    scenario: Scenario

    @property
    def overrides(self) -> list[str]:
        return [f"{k}={value_text(v)}" for k, v in self.values.items()]


def build_grid(base_path: str | Path, base_overrides: list[str], varies: list[tuple[str, list]],
               seed: int | None = None, games: int | None = None) -> list[GridPoint]:
    """Every grid point as a validated, compiled scenario (ScenarioError names file and key)."""
    keys = [k for k, _ in varies]
    dup = {k for k in keys if keys.count(k) > 1}
    if dup:
        raise GridError(f"--vary {sorted(dup)[0]}: given more than once")
    extra = list(base_overrides)
    if seed is not None:
        extra.append(f"run.seed={seed}")
    if games is not None:
        extra.append(f"run.games={games}")
    combos = list(itertools.product(*[vals for _, vals in varies]))
    if len(combos) > MAX_POINTS:
        raise GridError(f"the grid has {len(combos)} points, more than {MAX_POINTS}")
    width = max(3, len(str(len(combos) - 1)))
    points = []
    for i, combo in enumerate(combos):
        values = dict(zip(keys, combo))
        ov = extra + [f"{k}={value_text(v)}" for k, v in values.items()]
        s = scen.load(base_path, ov)
        s.compile()
        points.append(GridPoint(f"p{i:0{width}d}", values, s))
    return points


@dataclass
class SweepResult:
    out_dir: Path
    points: list[GridPoint]
    accumulators: dict[str, metrics.Accumulator]
    tidy: pd.DataFrame
    files: list[Path]
    seconds: float
    skipped: list[str]
    resumed: list[str]
    not_charted: list[str] = field(default_factory=list)  # chart metrics at 0 at every point


def tidy_point(point: GridPoint, acc: metrics.Accumulator, keys: list[str]) -> pd.DataFrame:
    rows = []
    for name, e in metrics.compute(acc).items():
        row = {"point": point.id}
        for k in keys:
            row[k] = table_value(point.values[k])
        row.update(metric=name, value=e.value, lo=e.lo, hi=e.hi, n=e.n, method=e.method)
        rows.append(row)
    return pd.DataFrame(rows)


def _signature(points: list[GridPoint], games: int) -> str:
    blob = json.dumps([[p.id, p.scenario.hash()] for p in points] + [games])
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def sweep(points: list[GridPoint], varies: list[tuple[str, list]], out_dir: Path, threads: int | None = None,
          resume: bool = False, force: bool = False, chart_metrics: list[str] | None = None,
          progress: Callable[[str, int, int, int, int], None] | None = None,
          base_source: str = "", base_overrides: list[str] | None = None,
          chart_progress: Callable[[str], None] | None = None, cluster=None) -> SweepResult:
    """Run every grid point into ``out_dir/points/<id>`` (a normal results directory).

    ``progress(point_id, point_index, n_points, games_done, games_total)``;
    ``chart_progress(text)`` hears each chart file being written.  With ``cluster`` each
    point's chunks are Dask tasks (a point keeps every worker busy while it has chunks).
    """
    with results.lock_dir(Path(out_dir)):  # the whole sweep: no other command mixes files in
        return _sweep_locked(points, varies, Path(out_dir), threads, resume, force, chart_metrics, progress,
                             base_source, base_overrides, chart_progress, cluster)


def _sweep_locked(points, varies, out_dir, threads, resume, force, chart_metrics, progress, base_source,
                  base_overrides, chart_progress, cluster=None) -> SweepResult:
    keys = [k for k, _ in varies]
    games = points[0].scenario.run["games"]
    sig = _signature(points, games)
    if not (resume and (out_dir / SWEEP_JSON).exists()):  # resuming removes nothing
        results.refuse_overlap(out_dir, [base_source] if base_source else [])
    if results.has_content(out_dir):
        if resume and (out_dir / SWEEP_JSON).exists():
            old = json.loads((out_dir / SWEEP_JSON).read_text())
            if old.get("signature") != sig:
                raise SweepError(f"{out_dir}: holds a sweep of a different grid, scenario, seed or game count; "
                                 f"resume with the same arguments, or use another -o DIR or --force")
        elif force:
            results.clear_dir(out_dir)
        else:
            what = "a sweep (add --resume to finish it)" if (out_dir / SWEEP_JSON).exists() else "files"
            raise SweepError(f"{out_dir}: already holds {what}; refusing to overwrite without --force")
    (out_dir / "points").mkdir(parents=True, exist_ok=True)
    (out_dir / "metrics").mkdir(exist_ok=True)
    state = {
        "format_version": 1,
        "game": points[0].scenario.game.name,
        "rules_version": points[0].scenario.game.version,
        "base": base_source,
        "base_overrides": list(base_overrides or []),
        "vary": [{"key": k, "values": v} for k, v in varies],
        "games": games,
        "seed": points[0].scenario.seed,
        "signature": sig,
        "points": [{"id": p.id, "values": p.values, "overrides": p.overrides, "hash": p.scenario.hash(),
                    "dir": f"points/{p.id}", "complete": False} for p in points],
        "complete": False,
    }
    atomic_write_json(out_dir / SWEEP_JSON, state)
    accs: dict[str, metrics.Accumulator] = {}
    frames = []
    skipped, resumed = [], []
    t0 = time.perf_counter()
    for i, p in enumerate(points):
        pdir = out_dir / "points" / p.id
        man = read_manifest(pdir) if (pdir / "manifest.json").exists() else None
        if man is not None and man.get("complete") and man.get("scenario_hash") == p.scenario.hash():
            acc = runner.load_accumulator(pdir)
            skipped.append(p.id)
        else:
            if pdir.exists() and man is None:
                shutil.rmtree(pdir)  # started but never got a manifest: nothing worth keeping
            if man is not None:
                resumed.append(p.id)
            cb = (lambda d, t, _i=i, _id=p.id: progress(_id, _i, len(points), d, t)) if progress else None
            res = runner.run(p.scenario, pdir, threads=threads, resume=man is not None, progress=cb, cluster=cluster)
            acc = res.accumulator
        accs[p.id] = acc
        df = tidy_point(p, acc, keys)
        df.to_parquet(out_dir / "metrics" / f"{p.id}.parquet", index=False)
        frames.append(df)
        state["points"][i]["complete"] = True
        atomic_write_json(out_dir / SWEEP_JSON, state)
    tidy = pd.concat(frames, ignore_index=True)
    tidy.to_parquet(out_dir / "sweep.parquet", index=False)
    tidy.to_csv(out_dir / "sweep.csv", index=False)
    files = [out_dir / SWEEP_JSON, out_dir / "sweep.parquet", out_dir / "sweep.csv"]
    available = list(dict.fromkeys(tidy["metric"]))
    chosen = chart_metrics or [m for pat in DEFAULT_CHART_METRICS for m in metrics.resolve([pat], available)
                               if _has(pat, available)]
    from . import charts

    s0 = points[0].scenario
    files += charts.sweep_report(tidy, keys, {k: v for k, v in varies}, list(dict.fromkeys(chosen)), out_dir,
                                 f"{s0.title}: {games:,} games per point, seed {s0.seed}", chart_progress)
    state["complete"] = True
    state["seconds"] = time.perf_counter() - t0
    atomic_write_json(out_dir / SWEEP_JSON, state)
    zero = [m for m in dict.fromkeys(chosen) if charts.always_zero(tidy, m)]
    return SweepResult(out_dir, points, accs, tidy, files, time.perf_counter() - t0, skipped, resumed, zero)


def _has(pattern: str, available: list[str]) -> bool:
    try:
        metrics.resolve([pattern], available)
        return True
    except KeyError:
        return False
