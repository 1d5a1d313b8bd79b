"""Global sensitivity analysis: which rule parameters move which metrics.

Two methods, both from SALib (designs and estimators are the library's, not ours):

* **Morris** screening (elementary effects): ``--points`` trajectories of D+1 points each.
  ``mu_star`` is the mean absolute change of the metric when one parameter moves across
  its *whole range* (every factor lives on the unit interval, so the parameters are
  comparable); ``sigma`` spreads it: large when the effect depends on the other
  parameters (interactions, curvature).  Cheap: ranks D parameters in (D+1) x points runs.
* **Sobol** indices (Saltelli's design, ``--points`` base samples, N x (D+2) points): the
  first-order index S1 is the share of the metric's variance over the ranges that one
  parameter explains alone, the total index ST adds its interactions; 95% intervals by
  SALib's bootstrap over the design.

Every design point is the base scenario with the point's ``--set`` values, played on the
**same seed** (common random numbers): game k of every point draws from the stream
(seed, k), so differences between points come from the rules, not from the dice.  Points
with identical values (discrete parameters repeat) are played once.

What is left of the dice is reported: for each metric the Monte Carlo noise variance (mean
squared standard error of the points, from their 95% intervals) against the variance of the
metric over the design.  The noise share is an upper bound (common random numbers make the
noise of the points move together, and part of it cancels in the differences the indices
are made of); when it passes :data:`NOISE_WARN` the indices of that metric mostly measure
dice, and the summary says to raise ``--games-per-point``.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

from .. import metrics, stats
from ..metrics import Accumulator
from ..results import atomic_write_json, atomic_write_text, clear_dir, has_content, lock_dir, refuse_overlap
from ..scenario import Scenario
from .space import Factor, PointSpec, config_key, evaluate_point, overrides_of
from .sweep import table_value

STATE_JSON = "sensitivity.json"
METHODS = ("morris", "sobol")
DEFAULT_POINTS = {"morris": 10, "sobol": 64}  # Morris trajectories / Sobol base samples
MORRIS_LEVELS = 4  # grid levels per factor (SALib's default; p/(2(p-1)) = 2/3 of the range per step)
BOOTSTRAP = 200  # SALib resamples for the 95% intervals of mu* and of S1/ST
NOISE_WARN = 0.5  # noise share above which a metric's indices mostly measure dice
DEFAULT_METRICS = ("first_player_win_rate", "seat_balance", "length.mean")
MAX_DESIGN = 200_000  # design rows; beyond this the budget is a mistake


class SensitivityError(RuntimeError):
    """An analysis that cannot start or continue (existing output, mismatched resume)."""


@dataclass
class Design:
    """The design matrix on the unit cube, each row's values and its configuration id."""

    method: str
    points: int  # trajectories (Morris) or base samples (Sobol)
    seed: int
    unit: np.ndarray  # (rows, D) in [0, 1]
    values: list[dict]  # per row: key -> value
    config: list[str]  # per row: configuration id (c0000...)
    configs: dict[str, dict]  # configuration id -> values (played once each)

    @property
    def rows(self) -> int:
        return self.unit.shape[0]


def problem(factors: list[Factor]) -> dict:
    """SALib's problem: every factor on [0, 1] (mapped to values by Factor.value)."""
    return {"num_vars": len(factors), "names": [f.key for f in factors], "bounds": [[0.0, 1.0]] * len(factors)}


def make_design(factors: list[Factor], method: str, points: int, seed: int) -> Design:
    """SALib's Morris trajectories or Saltelli/Sobol' sample, mapped to parameter values."""
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}")
    prob = problem(factors)
    if method == "morris":
        from SALib.sample import morris as sample

        unit = sample.sample(prob, points, num_levels=MORRIS_LEVELS, seed=seed)
    else:
        from SALib.sample import sobol as sample

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # its note on N not a power of two: the CLI says it once
            unit = sample.sample(prob, points, calc_second_order=False, scramble=True, seed=seed)
    values = [{f.key: f.value(float(u)) for f, u in zip(factors, row)} for row in unit]
    ids: dict[str, str] = {}
    configs: dict[str, dict] = {}
    config = []
    width = max(4, len(str(len(values))))
    for v in values:
        k = config_key(v)
        if k not in ids:
            ids[k] = f"c{len(ids):0{width}d}"
            configs[ids[k]] = v
        config.append(ids[k])
    return Design(method, points, seed, unit, values, config, configs)


def design_rows(factors: list[Factor], method: str, points: int) -> int:
    d = len(factors)
    return points * (d + 1) if method == "morris" else points * (d + 2)


@dataclass
class SensitivityResult:
    out_dir: Path
    factors: list[Factor]
    design: Design
    metric_names: list[str]
    point_metrics: pd.DataFrame  # tidy: config, metric, value, lo, hi, n
    indices: pd.DataFrame  # metric, parameter, rank and the method's statistics
    noise: pd.DataFrame  # metric, design_variance, noise_variance, noise_share, noise_dominates
    games_per_point: int
    seconds: float
    played: list[str]
    skipped: list[str]
    files: list[Path]

    @property
    def games(self) -> int:
        return len(self.played) * self.games_per_point


def _signature(base: Scenario, factors: list[Factor], design: Design, games: int) -> str:
    blob = json.dumps([base.hash(), [f.to_json() for f in factors], design.method, design.points, design.seed, games],
                      sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _prepare(out_dir: Path, sig: str, resume: bool, force: bool, base_path: str = "") -> None:
    if not (resume and (out_dir / STATE_JSON).exists()):  # resuming removes nothing
        refuse_overlap(out_dir, [base_path] if base_path else [])
    if has_content(out_dir):
        state_file = out_dir / STATE_JSON
        if resume and state_file.exists():
            old = json.loads(state_file.read_text())
            if old.get("signature") != sig:
                raise SensitivityError(f"{out_dir}: holds an analysis of other parameters, ranges, method, points, "
                                       f"scenario, seed or games; resume with the same arguments, or use another "
                                       f"-o DIR or --force")
            return
        if not force:
            what = "an analysis (add --resume to finish it)" if state_file.exists() else "files"
            raise SensitivityError(f"{out_dir}: already holds {what}; refusing to overwrite without --force")
        clear_dir(out_dir)  # not the held lock


def tidy_metrics(config_id: str, acc: Accumulator) -> pd.DataFrame:
    rows = [{"config": config_id, "metric": name, "value": e.value, "lo": e.lo, "hi": e.hi, "n": e.n}
            for name, e in metrics.compute(acc).items()]
    return pd.DataFrame(rows)


def run_points(base_path: str, base_overrides: list[str], seed: int, games: int, design: Design, out_dir: Path,
               threads: int | None, progress: Callable[[str, int, int, int, int], None] | None,
               cluster=None) -> tuple[dict[str, pd.DataFrame], list[str], list[str]]:
    """Play every configuration not already stored under ``out_dir/points``; tidy metrics per configuration."""
    (out_dir / "points").mkdir(parents=True, exist_ok=True)
    frames: dict[str, pd.DataFrame] = {}
    played, skipped = [], []
    ids = list(design.configs)
    for i, cid in enumerate(ids):
        spec = PointSpec(base_path, tuple(base_overrides) + tuple(overrides_of(design.configs[cid])), seed, games)
        path = out_dir / "points" / f"{cid}.parquet"
        if path.exists():
            frames[cid] = pd.read_parquet(path)
            skipped.append(cid)
            continue
        cb = (lambda d, t, _i=i, _c=cid: progress(_c, _i, len(ids), d, t)) if progress else None
        acc = evaluate_point(spec, threads, cb, cluster)
        df = tidy_metrics(cid, acc)
        tmp = path.with_suffix(".parquet.tmp")
        df.to_parquet(tmp, index=False)
        tmp.replace(path)  # a point is stored whole or not at all
        frames[cid] = df
        played.append(cid)
    return frames, played, skipped


def is_constant(y: np.ndarray) -> bool:
    """No parameter moves the metric (equal up to rounding at every point: with common random
    numbers a rule that does not matter gives the very same games)."""
    return bool(np.nanmax(y) - np.nanmin(y) <= 1e-12 * max(1.0, float(np.nanmax(np.abs(y)))))


def noise_table(y: np.ndarray, lo: np.ndarray, hi: np.ndarray, metric: str) -> dict:
    """Monte Carlo noise variance (mean squared standard error) against the design variance of one metric."""
    z = stats.z_value(stats.CONFIDENCE)
    se2 = ((hi - lo) / (2 * z)) ** 2
    noise = float(np.nanmean(se2)) if np.isfinite(se2).any() else math.nan
    total = float(np.nanvar(y, ddof=1)) if np.isfinite(y).sum() > 1 else math.nan
    constant = bool(np.isfinite(y).all() and is_constant(y))
    if constant:
        total, share = 0.0, 0.0
    elif total > 0:
        share = min(noise / total, 1.0)
    else:
        share = math.nan
    return {"metric": metric, "design_variance": total, "noise_variance": noise, "noise_share": share,
            "explained_variance": max(total - noise, 0.0) if total == total else math.nan,
            "noise_dominates": bool(share > NOISE_WARN), "constant": constant}


def analyse(factors: list[Factor], design: Design, y: np.ndarray, metric: str) -> list[dict]:
    """SALib's estimators for one metric: one row per parameter."""
    prob = problem(factors)
    rows = []
    undefined = not np.isfinite(y).all()
    if undefined or is_constant(y):
        # nothing to apportion: a constant metric (every parameter explains nothing) or one that
        # some points cannot define (e.g. a rate among decided games where none was decided)
        fill = math.nan if undefined else 0.0
        for f in factors:
            base = {"metric": metric, "parameter": f.key}
            if design.method == "morris":
                base.update(mu=fill, mu_star=fill, mu_star_conf=fill, sigma=fill)
            else:
                base.update(S1=fill, S1_conf=fill, ST=fill, ST_conf=fill)
            base.update(constant=not undefined, undefined=undefined, rank=len(rows) + 1)
            rows.append(base)
        return rows
    if design.method == "morris":
        from SALib.analyze import morris

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SALib's notes on repeated values: constant metrics are handled above
            r = morris.analyze(prob, design.unit, y, num_resamples=BOOTSTRAP, conf_level=stats.CONFIDENCE,
                               num_levels=MORRIS_LEVELS, seed=design.seed)
        for i, f in enumerate(factors):
            rows.append({"metric": metric, "parameter": f.key, "mu": float(r["mu"][i]),
                         "mu_star": float(r["mu_star"][i]), "mu_star_conf": float(r["mu_star_conf"][i]),
                         "sigma": float(r["sigma"][i]), "constant": False, "undefined": False})
    else:
        from SALib.analyze import sobol

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SALib's notes on repeated values (a parameter with no effect)
            r = sobol.analyze(prob, y, calc_second_order=False, num_resamples=BOOTSTRAP,
                              conf_level=stats.CONFIDENCE, seed=design.seed)
        for i, f in enumerate(factors):
            rows.append({"metric": metric, "parameter": f.key, "S1": float(r["S1"][i]),
                         "S1_conf": float(r["S1_conf"][i]), "ST": float(r["ST"][i]),
                         "ST_conf": float(r["ST_conf"][i]), "constant": False, "undefined": False})
    key = "mu_star" if design.method == "morris" else "ST"
    order = sorted(range(len(rows)), key=lambda j: -rows[j][key])
    for rank, j in enumerate(order, 1):
        rows[j]["rank"] = rank
    return rows


def sensitivity(base: Scenario, base_path: str, base_overrides: list[str], factors: list[Factor],
                metric_names: list[str], method: str, points: int, games: int, out_dir: Path,
                threads: int | None = None, resume: bool = False, force: bool = False,
                progress: Callable[[str, int, int, int, int], None] | None = None,
                design_seed: int | None = None, cluster=None) -> SensitivityResult:
    """Design, play every configuration on the base seed, estimate indices, write the output directory.

    ``progress(config_id, index, n_configs, games_done, games_total)``.
    """
    out_dir = Path(out_dir)
    seed = base.seed
    design = make_design(factors, method, points, seed if design_seed is None else design_seed)
    sig = _signature(base, factors, design, games)
    with lock_dir(out_dir):  # one command per directory: two could mix their points
        _prepare(out_dir, sig, resume, force, base_path)
        out_dir.mkdir(parents=True, exist_ok=True)
        state = {
            "format_version": 1, "command": "sensitivity", "game": base.game.name, "rules_version": base.game.version,
            "base": base_path, "base_overrides": list(base_overrides), "method": method, "points": points,
            "design_seed": design.seed, "seed": seed, "games_per_point": games,
            "factors": [f.to_json() for f in factors], "metrics": metric_names, "signature": sig,
            "design_rows": design.rows, "configurations": len(design.configs), "complete": False,
        }
        atomic_write_json(out_dir / STATE_JSON, state)
        design_df = design_table(factors, design)
        design_df.to_parquet(out_dir / "design.parquet", index=False)
        t0 = time.perf_counter()
        frames, played, skipped = run_points(base_path, base_overrides, seed, games, design, out_dir, threads, progress,
                                             cluster)
        tidy = pd.concat([frames[c] for c in design.configs], ignore_index=True)
        wide = {c: f.set_index("metric") for c, f in frames.items()}
        index_rows, noise_rows = [], []
        for m in metric_names:
            y = np.array([wide[c].at[m, "value"] for c in design.config], dtype=float)
            lo = np.array([wide[c].at[m, "lo"] for c in design.config], dtype=float)
            hi = np.array([wide[c].at[m, "hi"] for c in design.config], dtype=float)
            index_rows += analyse(factors, design, y, m)
            noise_rows.append(noise_table(y, lo, hi, m))
        indices = pd.DataFrame(index_rows)
        noise = pd.DataFrame(noise_rows)
        seconds = time.perf_counter() - t0
        per_point = design_df.merge(tidy[tidy["metric"].isin(metric_names)], on="config")
        per_point.to_parquet(out_dir / "point_metrics.parquet", index=False)
        tidy.to_parquet(out_dir / "config_metrics.parquet", index=False)
        indices.to_parquet(out_dir / "indices.parquet", index=False)
        noise.to_parquet(out_dir / "noise.parquet", index=False)
        res = SensitivityResult(out_dir, factors, design, metric_names, tidy, indices, noise, games, seconds, played,
                                skipped, [])
        atomic_write_text(out_dir / "summary.txt", summary_text(res, base))
        from . import explore_charts

        res.files = [out_dir / n for n in (STATE_JSON, "design.parquet", "point_metrics.parquet", "config_metrics.parquet",
                                           "indices.parquet", "noise.parquet", "summary.txt")]
        res.files += explore_charts.sensitivity_report(res, per_point, base)
        state.update(complete=True, seconds=seconds, games_played=res.games)
        atomic_write_json(out_dir / STATE_JSON, state)
        return res


def design_table(factors: list[Factor], design: Design) -> pd.DataFrame:
    """One row per design row: its configuration, unit coordinates and values (sets by name)."""
    rows = []
    for i, (u, v, c) in enumerate(zip(design.unit, design.values, design.config)):
        row = {"row": i, "config": c}
        for f, x in zip(factors, u):
            row[f"u.{f.key}"] = float(x)
        for f in factors:
            row[f.key] = table_value(f.label(v[f.key]))
        rows.append(row)
    return pd.DataFrame(rows)


def ranking(res: SensitivityResult, metric: str) -> pd.DataFrame:
    sub = res.indices[res.indices["metric"] == metric]
    return sub.sort_values("rank") if "rank" in sub else sub


def summary_text(res: SensitivityResult, base: Scenario) -> str:
    """The plain-text summary: setup, cost, noise, and each metric's ranking with intervals."""
    d = res.design
    lines = [
        f"pirate-sim sensitivity: {base.title} ({base.game.name} rules {base.game.version})",
        f"method: {d.method} ({'trajectories' if d.method == 'morris' else 'base samples'} {d.points}), "
        f"{d.rows} design points, {len(d.configs)} distinct configurations",
        f"games per point: {res.games_per_point:,}, all on seed {base.seed} (common random numbers); "
        f"played {len(res.played)} configurations ({res.games:,} games) in {res.seconds:.1f} s"
        + (f", {len(res.skipped)} taken from an earlier run" if res.skipped else ""),
        "parameters:",
    ]
    lines += [f"  {f.describe()}" for f in res.factors]
    lines += ["", "Monte Carlo noise vs variance over the design (noise = mean squared standard error of a point; "
                  "an upper bound, common random numbers cancel part of it):"]
    for r in res.noise.itertuples():
        flag = ("  <-- NOISE DOMINATES: raise --games-per-point" if r.noise_dominates else
                "  (the same at every point: no parameter moves it)" if r.constant else "")
        lines.append(f"  {r.metric:28s} design var {r.design_variance:.4g}, noise var {r.noise_variance:.4g}, "
                     f"noise share {100 * r.noise_share:.1f}%{flag}")
    for m in res.metric_names:
        sub = ranking(res, m)
        lines += ["", f"{m}:"]
        if bool(sub["constant"].any()):
            lines.append("  constant over the design: no parameter moves it")
            continue
        if bool(sub["undefined"].any()):
            lines.append("  undefined at some design points (e.g. no decided games there): no indices")
            continue
        if d.method == "morris":
            lines.append(f"  {'rank':>4}  {'parameter':34s} {'mu*':>10} {'±95%':>9} {'sigma':>10} {'mu':>10}")
            for r in sub.itertuples():
                lines.append(f"  {r.rank:>4}  {r.parameter:34s} {r.mu_star:10.4g} {r.mu_star_conf:9.3g} "
                             f"{r.sigma:10.4g} {r.mu:10.4g}")
            lines.append("  (mu*: mean |change of the metric| when the parameter crosses its whole range)")
        else:
            lines.append(f"  {'rank':>4}  {'parameter':34s} {'S1':>7} {'±95%':>7} {'ST':>7} {'±95%':>7}")
            for r in sub.itertuples():
                lines.append(f"  {r.rank:>4}  {r.parameter:34s} {r.S1:7.3f} {r.S1_conf:7.3f} {r.ST:7.3f} "
                             f"{r.ST_conf:7.3f}")
            lines.append("  (S1: share of the variance explained alone; ST: with interactions)")
    return "\n".join(lines) + "\n"
