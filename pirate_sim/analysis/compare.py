"""Paired comparison of two scenarios with common random numbers: B - A, the effect of the change.

Game ``k`` of both variants draws from the same random stream ``(seed, k)``, so most of
the luck is shared and the *difference* between variants is much less noisy than the
difference of two independent runs.  To turn that into a narrower interval the
difference must be estimated from per-game pairs, which an :class:`Accumulator` (per
variant) cannot do; :class:`PairedMoments` accumulates what is needed chunk by chunk.

Every metric of the vocabulary that is a ratio of per-game sums (proportions, means,
rates among decided games, win rate by label...) gets a **paired** interval: for
variant V the metric is ``R_V = sum(num_V) / sum(den_V)`` over games (``den = 1`` for a
plain per-game average), and the per-game 4-vector ``(num_A, den_A, num_B, den_B)``
has its sums and cross-product sums accumulated.  The delta method then gives
``Var(R_A - R_B) = g' S g / n`` with ``S`` the 4x4 covariance of the vector and
``g = (1/mean den_A, -R_A/mean den_A, -1/mean den_B, R_B/mean den_B)``; for a plain
average this is exactly the variance of the per-game differences ``d_i = x_i^A - x_i^B``.

Quantiles (length.median/p10/p90) and seat_balance are not per-game averages: their
difference gets the **independent** MOVER interval (Newcombe's method of recovering
variance estimates from the two variants' own intervals).  It ignores the positive
correlation that common random numbers create, so it is conservative (too wide), never
too narrow.  The paired interval is a normal (delta-method) one: it needs a few dozen
games in which the two variants differ for that metric (column ``discordant``); with
fewer it is approximate and the CLI marks the row.  For every metric the independent interval is reported as well, and the ratio
of half-widths paired/independent measures what pairing bought.

Rows report B - A (the variant minus the base).  With many metrics tested at once some
95% intervals exclude 0 by chance (about 5% of the metrics when nothing changed), so each
row also carries a two-sided p-value and Holm's adjusted p-value (``significant_holm``:
family-wise error 5% over all the metrics compared).
"""

from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from .. import metrics, pipeline, stats
from ..errors import UserError
from ..games.base import G_END, G_FIRST_SEAT, G_TRUNCATED, G_TURNS, G_WINNER
from ..meta import sequential
from ..metrics import Accumulator
from ..runner import chunk_bounds, set_threads
from ..scenario import Scenario
from ..seating import entries_of_seats, rotates
from ..stats import ADJUSTMENT, ALPHA, Estimate, adjust_holm, chance_differences  # noqa: F401 (re-exported)

PAIRED_METHOD = "paired delta method (common random numbers)"
INDEP_METHOD = "independent MOVER (Newcombe)"


class CompareError(UserError, ValueError):
    """A comparison that cannot be made (different games, unknown metric)."""


def per_game_vectors(acc: Accumulator, out_games: np.ndarray, out_seats: np.ndarray,
                     first_game: int = 0) -> dict[str, tuple]:
    """For each ratio-type metric: (numerator, denominator or None, offset) per game.

    The metric equals ``sum(num) / sum(den) + offset`` over all games, matching
    :func:`metrics.compute` exactly (checked by the tests).  ``first_game`` (the index of
    the first row's game) places the strategies when seating rotates.
    """
    game, names = acc.game, acc.strategy_names
    s = len(names)
    winner = out_games[:, G_WINNER].astype(np.int64)
    decided = (winner >= 0).astype(np.float64)
    won = (winner[:, None] == np.arange(s)[None, :]).astype(np.float64)  # (n, s)
    out: dict[str, tuple] = {}
    for i in range(s):
        out[f"win_rate.seat{i}"] = (won[:, i], None, 0.0)
    won_entry = won
    if acc.rotate:  # column j: the seat that entry j played in that game
        won_entry = np.zeros_like(won)
        rows = np.arange(won.shape[0])[:, None]
        won_entry[rows, entries_of_seats(first_game + rows[:, 0], s, True)] = won
    for name in dict.fromkeys(names):
        seats = [i for i, x in enumerate(names) if x == name]  # the entries playing it
        out[f"win_rate.{name}"] = (won_entry[:, seats].sum(axis=1) / len(seats), None, 0.0)
    first = (winner == out_games[:, G_FIRST_SEAT]).astype(np.float64)
    out["first_player_win_rate"] = (first, decided, 0.0)
    out["first_player_advantage"] = (first, decided, -1.0 / s)
    trunc = out_games[:, G_TRUNCATED].astype(np.float64)
    out["decisiveness"] = (decided, None, 0.0)
    out["truncation_rate"] = (trunc, None, 0.0)
    out["draw_rate"] = ((1.0 - decided) - trunc, None, 0.0)
    for k, r in enumerate(game.end_reasons):
        out[f"end.{r}"] = ((out_games[:, G_END] == k).astype(np.float64), None, 0.0)
    out["length.mean"] = (out_games[:, G_TURNS].astype(np.float64), None, 0.0)
    vals = out_seats.astype(np.float64)
    if game.score_column and s > 1:
        j = game.seat_column_index(game.score_column)
        sc = vals[:, :, j]
        w = np.where(winner >= 0, winner, 0)
        rows = np.arange(sc.shape[0])
        win_score = sc[rows, w]
        other = sc.copy()
        other[rows, w] = -np.inf
        margin = np.where(winner >= 0, win_score - other.max(axis=1), 0.0)
        out["winning_margin"] = (margin, decided, 0.0)
    for j, col in enumerate(game.seat_columns):
        if col.counter and not col.labels:
            out[f"events.{col.name}"] = (vals[:, :, j].sum(axis=1), None, 0.0)
    for j, col in enumerate(game.seat_columns):
        if col.labels:
            continue
        for i in range(s):
            out[f"seat{i}.{col.name}"] = (vals[:, i, j], None, 0.0)
    for r in game.ratios:
        out[f"ratio.{r.name}"] = (vals[:, :, game.seat_column_index(r.numerator)].sum(axis=1),
                                  vals[:, :, game.seat_column_index(r.denominator)].sum(axis=1), 0.0)
    for j, col in enumerate(game.seat_columns):
        if not col.labels:
            continue
        codes = out_seats[:, :, j].astype(np.int64)
        for k, label in enumerate(col.labels):
            has = codes == k
            out[f"win_rate.{col.name}={label}"] = ((has & (won > 0)).sum(axis=1).astype(np.float64),
                                                   has.sum(axis=1).astype(np.float64), 0.0)
    return out


@dataclass
class PairedMoments:
    """Sums and cross-product sums of (num_A, den_A, num_B, den_B) per metric."""

    names: list[str]
    n: int = 0
    s1: np.ndarray = field(default=None)  # (m, 4)
    s2: np.ndarray = field(default=None)  # (m, 4, 4)
    offsets: dict = field(default_factory=dict)  # name -> (offset_A, offset_B)
    discordant: np.ndarray = field(default=None)  # (m,) games whose vector differs between A and B

    def __post_init__(self):
        m = len(self.names)
        if self.discordant is None:
            self.discordant = np.zeros(m, np.int64)
        if self.s1 is None:
            self.s1 = np.zeros((m, 4))
        if self.s2 is None:
            self.s2 = np.zeros((m, 4, 4))

    def update(self, va: dict, vb: dict) -> None:
        n = None
        cols = []
        for name in self.names:
            na, da, oa = va[name]
            nb, db, ob = vb[name]
            n = na.shape[0]
            one = np.ones(n)
            cols.append(np.stack([na, one if da is None else da, nb, one if db is None else db], axis=1))
            self.offsets[name] = (oa, ob)
        if not cols or n == 0:
            return
        v = np.stack(cols, axis=1)  # (n, m, 4)
        self.n += n
        self.s1 += v.sum(axis=0)
        self.s2 += np.einsum("nmi,nmj->mij", v, v)
        self.discordant += ((v[:, :, 0] != v[:, :, 2]) | (v[:, :, 1] != v[:, :, 3])).sum(axis=0)

    def difference(self, name: str, confidence: float = stats.CONFIDENCE) -> tuple[Estimate, Estimate]:
        """(paired, independent-delta) estimates of R_A - R_B for one metric."""
        k = self.names.index(name)
        n = self.n
        nan = Estimate(math.nan, math.nan, math.nan, n, PAIRED_METHOD)
        if n < 2:
            return nan, nan
        mu = self.s1[k] / n
        if mu[1] <= 0 or mu[3] <= 0:
            return nan, nan
        cov = (self.s2[k] / n - np.outer(mu, mu)) * (n / (n - 1))
        ra, rb = mu[0] / mu[1], mu[2] / mu[3]
        oa, ob = self.offsets.get(name, (0.0, 0.0))
        g = np.array([1 / mu[1], -ra / mu[1], -1 / mu[3], rb / mu[3]])
        z = stats.z_value(confidence)
        d = (ra + oa) - (rb + ob)
        var_p = max(float(g @ cov @ g), 0.0) / n
        ind = cov.copy()
        ind[:2, 2:] = 0.0
        ind[2:, :2] = 0.0
        var_i = max(float(g @ ind @ g), 0.0) / n
        hp, hi_ = z * math.sqrt(var_p), z * math.sqrt(var_i)
        return (Estimate(d, d - hp, d + hp, n, PAIRED_METHOD),
                Estimate(d, d - hi_, d + hi_, n, "independent delta method"))


def mover_difference(a: Estimate, b: Estimate) -> Estimate:
    """Independent interval for a - b from each side's own interval (MOVER / Newcombe)."""
    d = a.value - b.value
    if any(math.isnan(x) for x in (a.value, a.lo, a.hi, b.value, b.lo, b.hi)):
        return Estimate(d, math.nan, math.nan, min(a.n, b.n), INDEP_METHOD)
    lo = d - math.sqrt((a.value - a.lo) ** 2 + (b.hi - b.value) ** 2)
    hi = d + math.sqrt((a.hi - a.value) ** 2 + (b.value - b.lo) ** 2)
    return Estimate(d, lo, hi, min(a.n, b.n), INDEP_METHOD)


@dataclass
class CompareResult:
    a: Scenario
    b: Scenario
    acc_a: Accumulator
    acc_b: Accumulator
    paired: PairedMoments
    rows: list[dict]
    games: int
    seed: int
    seconds: float
    decision: dict | None = None  # the sequential test's question and answer (``decide=``), else None

    @property
    def ratios(self) -> dict[str, float]:
        return {r["metric"]: r["half_width_ratio"] for r in self.rows
                if r["paired"] and r["half_width_ratio"] == r["half_width_ratio"]}

    def pairing_summary(self) -> dict:
        rs = self.ratios
        if not rs:
            return {"metrics": 0}
        v = np.array(list(rs.values()))
        best = min(rs, key=rs.get)
        return {"metrics": len(rs), "median_ratio": float(np.median(v)), "min_ratio": float(v.min()),
                "max_ratio": float(v.max()), "best_metric": best,
                "equivalent_games_factor_median": float(np.median(1 / v**2))}

    def to_json(self) -> dict:
        return {
            "game": self.a.game.name,
            "rules_version": self.a.game.version,
            "a": {"source": self.a.source, "overrides": self.a.overrides, "hash": self.a.hash(), "title": self.a.title},
            "b": {"source": self.b.source, "overrides": self.b.overrides, "hash": self.b.hash(), "title": self.b.title},
            "seed": self.seed,
            "games": self.games,
            "seconds": self.seconds,
            "confidence": stats.CONFIDENCE,
            "pairing": self.pairing_summary(),
            "differences": self.rows,
            "summary_a": metrics.summary_dict(self.acc_a),
            "summary_b": metrics.summary_dict(self.acc_b),
            "sequential_test": self.decision,
        }


def common_metrics(acc_a: Accumulator, acc_b: Accumulator) -> list[str]:
    nb = set(metrics.metric_names(acc_b))
    return [m for m in metrics.metric_names(acc_a) if m in nb]


def check_comparable(a: Scenario, b: Scenario) -> None:
    if a.game.name != b.game.name:
        raise CompareError(f"cannot compare a {a.game.title} scenario ({a.source}) with a "
                           f"{b.game.title} one ({b.source})")


def _paired_chunks(a: Scenario, ca, b: Scenario, cb, seed: int, games: int, cluster=None, threads=None):
    """``(first, stop, output of a, output of b)`` chunk by chunk, in game order."""
    size = a.run["chunk_size"]
    if cluster is None:
        # the kernels run in a producer thread, in pieces of a fraction of a second: the main
        # thread stays free to hear Ctrl-C (a 100,000-game chunk took 17 s to be interrupted)
        def both(lo: int, hi: int):
            return a.game.play(ca, seed, lo, hi - lo), b.game.play(cb, seed, lo, hi - lo)

        it = pipeline.pieces(chunk_bounds(games, size), both, setup=functools.partial(set_threads, threads))
        try:
            for piece in it:
                yield piece.start, piece.stop, *piece.result
        finally:
            it.close()
        return
    if b.seed != seed:
        raise CompareError(f"both variants must use seed {seed} (B has {b.seed})")
    def chunks():
        return ((c, lo, hi - lo) for c, (lo, hi) in enumerate(chunk_bounds(games, size)))

    for (c, ga, sa), (_, gb, sb) in zip(cluster.play_chunks(a, chunks()), cluster.play_chunks(b, chunks())):
        lo = c * size
        yield lo, min(lo + size, games), (ga, sa), (gb, sb)


def decidable(acc: Accumulator, metric: str) -> int:
    """``r`` such that the metric's per-game values are multiples of 1/r in [0, 1] (a
    proportion: a seat's or a strategy's win rate, decisiveness, truncation, draws, an end
    reason), the sequential test's grid; CompareError naming those that are, otherwise."""
    names = acc.strategy_names
    plain = [f"win_rate.seat{i}" for i in range(len(names))] + ["decisiveness", "truncation_rate", "draw_rate"]
    plain += [f"end.{r}" for r in acc.game.end_reasons]
    if metric in plain:
        return 1
    if metric.startswith("win_rate.") and metric[len("win_rate."):] in names:
        return names.count(metric[len("win_rate."):])  # the mean over the entries that play it
    raise CompareError(f"decide: {metric!r} is not a proportion of games a sequential test can decide; "
                       f"one of {', '.join(plain + sorted({f'win_rate.{n}' for n in names}))}")


def _decision_record(metric: str, diff: float, test: sequential.SequentialTest) -> dict:
    d = sequential.decision(test, test.interval.estimate())
    to_diff = {"value": 2 * d.score.value - 1, "lo": 2 * d.score.lo - 1, "hi": 2 * d.score.hi - 1}
    if d.outcome == "accepted s1":
        said = f"B - A = {diff:+g}, not 0"
    elif d.outcome == "accepted s0":
        said = f"B - A = 0, not {diff:+g}"
    else:
        said = "undecided"
    return {"metric": metric, "h0": 0.0, "h1": diff, "outcome": d.outcome, "said": said, "games": d.rounds,
            "llr": d.llr, "bounds": [d.lower, d.upper], "alpha": d.alpha, "beta": d.beta,
            "difference": {**to_diff, "n": d.rounds, "method": d.score.method}}


def compare(a: Scenario, b: Scenario, games: int | None = None, threads: int | None = None,
            metric_patterns: list[str] | None = None,
            progress: Callable[[int, int], None] | None = None, cluster=None,
            decide: tuple[str, float] | None = None) -> CompareResult:
    """Play both variants on the same random streams (seed of ``a``) and difference every metric.

    With ``cluster`` (pirate_sim.cluster.Cluster) the chunks of both variants are Dask
    tasks, submitted together; the numbers are identical to a local comparison.

    ``decide=(metric, d)`` asks "is B - A on this proportion 0 or d?" with Wald's sequential
    test on the per-game pairs (meta.sequential; a pair's difference, in [-1, 1], scaled to
    [0, 1]): play stops after the chunk in which it decides, ``games`` is the cap.  Its
    interval is a confidence sequence; the other rows' fixed-sample intervals at a length
    the test chose may cover less than 95% (they are shown as they are, the JSON says so)."""
    check_comparable(a, b)
    games = int(games or a.run["games"])
    seed = a.seed
    ca, cb = a.compile(), b.compile()
    acc_a = Accumulator(a.game, ca.strategy_names, rotates(a.rules))
    acc_b = Accumulator(b.game, cb.strategy_names, rotates(b.rules))
    test = None
    if decide is not None:
        r = decidable(acc_a, decide[0])
        if decidable(acc_b, decide[0]) != r:
            raise CompareError(f"decide: {decide[0]!r} is played by a different number of seats in A and B")
        test = sequential.SequentialTest(2 * r + 1, 0.5, 0.5 + decide[1] / 2)
    names = common_metrics(acc_a, acc_b)
    selected = names
    if metric_patterns:
        try:
            selected = list(dict.fromkeys(metrics.resolve(list(metric_patterns), names)))
        except KeyError as exc:
            raise CompareError(str(exc.args[0])) from None
    set_threads(threads)
    paired_names: list[str] | None = None
    pm = None
    t0 = time.perf_counter()
    for lo, hi, (ga, sa), (gb, sb) in _paired_chunks(a, ca, b, cb, seed, games, cluster, threads):
        acc_a.update(ga, sa)
        acc_b.update(gb, sb)
        va, vb = per_game_vectors(acc_a, ga, sa, lo), per_game_vectors(acc_b, gb, sb, lo)
        if pm is None:
            paired_names = [m for m in selected if m in va and m in vb]
            pm = PairedMoments(paired_names)
        pm.update(va, vb)
        if progress:
            progress(hi, games)
        if test is not None:
            d = vb[decide[0]][0] - va[decide[0]][0]  # B - A per game, a multiple of 1/r in [-1, 1]
            test.feed(np.rint((d + 1.0) * r).astype(np.int64))
            if test.decided:
                break
    seconds = time.perf_counter() - t0
    ea, eb = metrics.compute(acc_a), metrics.compute(acc_b)
    rows = []
    for m in selected:
        ind = mover_difference(eb[m], ea[m])  # B - A: the effect of the change
        is_paired = m in (paired_names or [])
        if is_paired:
            d_ab, _ind_delta = pm.difference(m)
            diff = Estimate(-d_ab.value, -d_ab.hi, -d_ab.lo, d_ab.n, d_ab.method)
        else:
            diff = ind
        sig = bool(diff.lo > 0 or diff.hi < 0) if diff.lo == diff.lo else False
        ih, ph = ind.half_width, diff.half_width
        rows.append({
            "metric": m,
            "value_a": ea[m].value, "lo_a": ea[m].lo, "hi_a": ea[m].hi,
            "value_b": eb[m].value, "lo_b": eb[m].lo, "hi_b": eb[m].hi,
            "diff": diff.value, "lo": diff.lo, "hi": diff.hi, "method": diff.method,
            "significant": sig, "paired": is_paired,
            "indep_lo": ind.lo, "indep_hi": ind.hi,
            "half_width": ph, "indep_half_width": ih,
            # NaN where the paired difference is degenerate (both sides constant or identical)
            "half_width_ratio": (ph / ih) if is_paired and ih > 0 and ph > 0 else (1.0 if not is_paired else math.nan),
            "n": acc_a.n,
            # games where the variants differ for this metric; below ~30 the paired normal
            # interval is approximate (few informative pairs)
            "discordant": int(pm.discordant[pm.names.index(m)]) if is_paired else -1,
            "p_value": p_value(diff),
        })
    adjust_holm(rows)
    decision = None if test is None else _decision_record(decide[0], decide[1], test)
    return CompareResult(a, b, acc_a, acc_b, pm, rows, acc_a.n, seed, seconds, decision)


def p_value(diff: Estimate) -> float:
    """Two-sided normal p-value of a difference, its standard error read off the 95% interval."""
    se = (diff.hi - diff.lo) / (2 * stats.z_value())
    if not (se == se and diff.value == diff.value):
        return math.nan
    if se <= 0:
        return 1.0 if diff.value == 0 else 0.0
    return math.erfc(abs(diff.value) / se / math.sqrt(2))


def write_outputs(res: CompareResult, out_dir: Path, force: bool = False,
                  progress: Callable[[str], None] | None = None) -> list[Path]:
    """compare.json, compare.parquet + compare.csv (tidy), PNG charts and compare.pdf."""
    import shutil

    import pandas as pd

    from ..results import atomic_write_json
    from . import charts

    from ..results import refuse_overlap

    out_dir = Path(out_dir)
    refuse_overlap(out_dir, [x.source for x in (res.a, res.b) if not x.source.startswith("<")])
    if out_dir.exists() and any(out_dir.iterdir()):
        if not force:
            raise CompareError(f"{out_dir}: already exists; add --force to replace it")
        shutil.rmtree(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    atomic_write_json(out_dir / "compare.json", res.to_json())
    df = pd.DataFrame(res.rows)
    df.to_parquet(out_dir / "compare.parquet", index=False)
    df.to_csv(out_dir / "compare.csv", index=False)
    files = [out_dir / "compare.json", out_dir / "compare.parquet", out_dir / "compare.csv"]
    files += charts.compare_report(res, out_dir, progress)
    return files
