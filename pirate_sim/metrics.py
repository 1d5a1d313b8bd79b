"""One metrics vocabulary for every game: defined once, used by summary, report, compare, sweep, check.

Metrics are computed from an :class:`Accumulator` of sufficient statistics (counts,
sums, sums of squares, a histogram of game length) that is updated chunk by chunk, so
memory never grows with the number of games and a sequential ``check`` can stop as soon
as its bounds are decided.  The registry :data:`METRICS` names each family, says what it
means and how its 95% interval is made; ``docs/metrics.md`` is generated from it.
"""

from __future__ import annotations

import difflib
import fnmatch
from dataclasses import dataclass
from typing import Callable

import numpy as np

from . import stats
from .games.base import G_END, G_FIRST_SEAT, G_TRUNCATED, G_TURNS, G_WINNER, Game
from .stats import Estimate


class Accumulator:
    """Mergeable sufficient statistics of a set of games of one scenario."""

    def __init__(self, game: Game, strategy_names: tuple[str, ...] | list[str]):
        self.game = game
        self.strategy_names = tuple(strategy_names)
        s, c = len(self.strategy_names), len(game.seat_columns)
        self.n = 0
        self.wins_seat = np.zeros(s, np.int64)
        self.nobody = 0  # games with no winner (draws and truncated)
        self.truncated = 0
        self.first_wins = 0  # games won by the seat that moved first
        self.end_counts = np.zeros(len(game.end_reasons), np.int64)
        self.turns_hist = np.zeros(64, np.int64)
        self.turns_sum = 0.0
        self.turns_sumsq = 0.0
        self.seat_sum = np.zeros((s, c), np.float64)
        self.seat_sumsq = np.zeros((s, c), np.float64)
        self.game_sum = np.zeros(c, np.float64)  # per game, summed over seats
        self.game_sumsq = np.zeros(c, np.float64)
        self.margin_sum = 0.0
        self.margin_sumsq = 0.0
        self.margin_n = 0
        # categorical seat columns: label counts and wins among seats showing that label
        self.cat_counts = {col.name: np.zeros(len(col.labels), np.int64) for col in game.seat_columns if col.labels}
        self.cat_wins = {col.name: np.zeros(len(col.labels), np.int64) for col in game.seat_columns if col.labels}
        # declared ratios: per-game sums of (num, den, num^2, den^2, num*den) for the delta method
        self.ratio_sums = {r.name: np.zeros(5, np.float64) for r in game.ratios}

    @property
    def n_seats(self) -> int:
        return len(self.strategy_names)

    def update(self, out_games: np.ndarray, out_seats: np.ndarray) -> None:
        """Add a chunk of kernel output (see games/base.py for the layout)."""
        n, s = out_games.shape[0], self.n_seats
        if n == 0:
            return
        winner = out_games[:, G_WINNER].astype(np.int64)
        self.n += n
        self.wins_seat += np.bincount(winner[winner >= 0], minlength=s)[:s]
        self.nobody += int((winner < 0).sum())
        self.truncated += int(out_games[:, G_TRUNCATED].sum())
        self.first_wins += int((winner == out_games[:, G_FIRST_SEAT]).sum())
        self.end_counts += np.bincount(out_games[:, G_END], minlength=len(self.end_counts))[: len(self.end_counts)]
        turns = out_games[:, G_TURNS].astype(np.int64)
        tmax = int(turns.max())
        if tmax >= self.turns_hist.size:
            self.turns_hist = np.pad(self.turns_hist, (0, tmax + 1 - self.turns_hist.size))
        self.turns_hist += np.bincount(turns, minlength=self.turns_hist.size)
        self.turns_sum += float(turns.sum())
        self.turns_sumsq += float((turns.astype(np.float64) ** 2).sum())
        vals = out_seats.astype(np.float64)
        self.seat_sum += vals.sum(axis=0)
        self.seat_sumsq += (vals**2).sum(axis=0)
        per_game = vals.sum(axis=1)
        self.game_sum += per_game.sum(axis=0)
        self.game_sumsq += (per_game**2).sum(axis=0)
        if self.game.score_column:
            j = self.game.seat_column_index(self.game.score_column)
            has = winner >= 0
            if has.any() and s > 1:
                sc = vals[has, :, j]
                w = winner[has]
                win_score = sc[np.arange(sc.shape[0]), w]
                sc_other = sc.copy()
                sc_other[np.arange(sc.shape[0]), w] = -np.inf
                margin = win_score - sc_other.max(axis=1)
                self.margin_sum += float(margin.sum())
                self.margin_sumsq += float((margin**2).sum())
                self.margin_n += int(has.sum())
        for r in self.game.ratios:
            num = per_game[:, self.game.seat_column_index(r.numerator)]
            den = per_game[:, self.game.seat_column_index(r.denominator)]
            self.ratio_sums[r.name] += [num.sum(), den.sum(), (num**2).sum(), (den**2).sum(), (num * den).sum()]
        won = winner[:, None] == np.arange(s)[None, :]
        for name in self.cat_counts:
            j = self.game.seat_column_index(name)
            codes = out_seats[:, :, j].astype(np.int64)
            L = self.cat_counts[name].size
            self.cat_counts[name] += np.bincount(codes.ravel(), minlength=L)[:L]
            self.cat_wins[name] += np.bincount(codes[won], minlength=L)[:L]

    def merge(self, other: "Accumulator") -> None:
        for k, v in other.__dict__.items():
            if k in ("game", "strategy_names"):
                continue
            if k == "turns_hist":
                m = max(self.turns_hist.size, v.size)
                self.turns_hist = np.pad(self.turns_hist, (0, m - self.turns_hist.size)) + np.pad(v, (0, m - v.size))
            elif isinstance(v, dict):
                for name in v:
                    getattr(self, k)[name] += v[name]
            else:
                setattr(self, k, getattr(self, k) + v)

    def to_json(self) -> dict:
        out = {}
        for k, v in self.__dict__.items():
            if k == "game":
                continue
            if isinstance(v, np.ndarray):
                out[k] = v.tolist()
            elif isinstance(v, dict):
                out[k] = {a: b.tolist() for a, b in v.items()}
            else:
                out[k] = v
        return out

    @classmethod
    def from_json(cls, game: Game, data: dict) -> "Accumulator":
        acc = cls(game, data["strategy_names"])
        for k, v in data.items():
            cur = getattr(acc, k, None)
            if isinstance(cur, np.ndarray):
                setattr(acc, k, np.asarray(v, dtype=cur.dtype))
            elif isinstance(cur, dict):
                setattr(acc, k, {a: np.asarray(b, next(iter(cur.values())).dtype if cur else np.float64)
                                 for a, b in v.items()})
            elif k != "strategy_names":
                setattr(acc, k, v)
        return acc


@dataclass(frozen=True)
class MetricFamily:
    """A family of metrics: a name pattern, a definition, and its CI method."""

    pattern: str
    definition: str
    ci: str
    compute: Callable[..., dict[str, Estimate]]  # (accumulator, confidence) -> estimates
    higher_is: str = ""  # for readers: what a large value means


def _win_rates_seat(a: Accumulator, conf: float = stats.CONFIDENCE):
    return {f"win_rate.seat{i}": stats.wilson(a.wins_seat[i], a.n, conf) for i in range(a.n_seats)}


def _win_rates_strategy(a: Accumulator, conf: float = stats.CONFIDENCE):
    out = {}
    for name in dict.fromkeys(a.strategy_names):
        seats = [i for i, s in enumerate(a.strategy_names) if s == name]
        out[f"win_rate.{name}"] = stats.wilson(a.wins_seat[seats].sum(), a.n * len(seats), conf)
    return out


def _balance(a: Accumulator, conf: float = stats.CONFIDENCE):
    return {"seat_balance": stats.max_gap_simultaneous(a.wins_seat, a.n, conf)}


def _first(a: Accumulator, conf: float = stats.CONFIDENCE):
    decided = a.n - a.nobody
    e = stats.wilson(a.first_wins, decided, conf)
    share = 1.0 / a.n_seats
    adv = Estimate(e.value - share, e.lo - share, e.hi - share, e.n, "wilson (shifted)")
    return {"first_player_win_rate": e, "first_player_advantage": adv}


def _decisive(a: Accumulator, conf: float = stats.CONFIDENCE):
    return {
        "decisiveness": stats.wilson(a.n - a.nobody, a.n, conf),
        "truncation_rate": stats.wilson(a.truncated, a.n, conf),
        "draw_rate": stats.wilson(a.nobody - a.truncated, a.n, conf),
    }


def _ends(a: Accumulator, conf: float = stats.CONFIDENCE):
    return {f"end.{r}": stats.wilson(a.end_counts[i], a.n, conf) for i, r in enumerate(a.game.end_reasons)}


def _length(a: Accumulator, conf: float = stats.CONFIDENCE):
    return {
        "length.mean": stats.mean_ci(a.turns_sum, a.turns_sumsq, a.n, conf, floor=0.0),
        "length.median": stats.quantile_from_hist(a.turns_hist, 0.5, conf),
        "length.p10": stats.quantile_from_hist(a.turns_hist, 0.1, conf),
        "length.p90": stats.quantile_from_hist(a.turns_hist, 0.9, conf),
    }


def _margin(a: Accumulator, conf: float = stats.CONFIDENCE):
    if not a.game.score_column:
        return {}
    return {"winning_margin": stats.mean_ci(a.margin_sum, a.margin_sumsq, a.margin_n, conf)}


def _events(a: Accumulator, conf: float = stats.CONFIDENCE):
    out = {}
    for j, col in enumerate(a.game.seat_columns):
        if not col.counter or col.labels:
            continue
        out[f"events.{col.name}"] = stats.mean_ci(a.game_sum[j], a.game_sumsq[j], a.n, conf, floor=0.0)
    return out


def _events_seat(a: Accumulator, conf: float = stats.CONFIDENCE):
    out = {}
    for j, col in enumerate(a.game.seat_columns):
        if col.labels:
            continue
        for i in range(a.n_seats):
            out[f"seat{i}.{col.name}"] = stats.mean_ci(a.seat_sum[i, j], a.seat_sumsq[i, j], a.n, conf,
                                                       floor=0.0 if col.counter else -np.inf)
    return out


def _categorical(a: Accumulator, conf: float = stats.CONFIDENCE):
    out = {}
    for col in a.game.seat_columns:
        if not col.labels:
            continue
        for k, label in enumerate(col.labels):
            out[f"win_rate.{col.name}={label}"] = stats.wilson(a.cat_wins[col.name][k], a.cat_counts[col.name][k], conf)
    return out


def _ratios(a: Accumulator, conf: float = stats.CONFIDENCE):
    # declared ratios are of two counters: never negative
    return {f"ratio.{name}": stats.ratio_ci(*sums, a.n, conf, floor=0.0) for name, sums in a.ratio_sums.items()}


METRICS: tuple[MetricFamily, ...] = (
    MetricFamily("win_rate.seat<k>", "share of games won by seat k", "Wilson score", _win_rates_seat),
    MetricFamily("win_rate.<strategy>", "share of seat-games won by a strategy (pooled over its seats)",
                 "Wilson score", _win_rates_strategy),
    MetricFamily("seat_balance", "largest gap between two seats' win rates (0 = perfectly balanced)",
                 "simultaneous (Bonferroni) adjusted-Wald intervals of every pairwise win-rate difference",
                 _balance),
    MetricFamily("first_player_win_rate", "share of decided games won by the seat that moved first",
                 "Wilson score", _first),
    MetricFamily("first_player_advantage", "first_player_win_rate minus 1/seats (0 = no advantage)",
                 "Wilson score, shifted", lambda a, conf=stats.CONFIDENCE: {}),
    MetricFamily("decisiveness", "share of games with a winner (neither drawn nor truncated)",
                 "Wilson score", _decisive),
    MetricFamily("truncation_rate / draw_rate", "share of games cut by the turn cap / ending with no winner",
                 "Wilson score", lambda a, conf=stats.CONFIDENCE: {}),
    MetricFamily("end.<reason>", "share of games that ended that way (game-specific reasons)", "Wilson score", _ends),
    MetricFamily("length.mean", "mean game length in turns (one turn = one seat's move)", "normal", _length),
    MetricFamily("length.median / length.p10 / length.p90", "game length percentiles in turns",
                 "order statistics (distribution-free)", lambda a, conf=stats.CONFIDENCE: {}),
    MetricFamily("winning_margin", "winner's score minus the best other score (game's score column)",
                 "normal", _margin),
    MetricFamily("events.<counter>", "mean count of an event per game, all seats together", "normal", _events),
    MetricFamily("seat<k>.<column>", "mean of a seat column for seat k (counters and final values)",
                 "normal", _events_seat),
    MetricFamily("ratio.<name>", "a game's declared rate: total of one counter over the total of another, "
                 "pooled over seats and games (e.g. squid escapes per attempt)", "delta method (ratio estimator)",
                 _ratios),
    MetricFamily("win_rate.<column>=<label>", "win rate of seats whose categorical column shows that label "
                 "(e.g. win rate by Peak treasure)", "Wilson score", _categorical),
)


# Metric name prefixes whose values are shares in [0, 1] (printed as percentages).
PROPORTION_PREFIXES = ("win_rate", "end.", "decisiveness", "truncation_rate", "draw_rate", "first_player",
                       "seat_balance")


def is_proportion(metric: str) -> bool:
    """True for metrics that are shares (win rates, end reasons, ...), printed as percentages."""
    return metric.startswith(PROPORTION_PREFIXES)


def compute(acc: Accumulator, confidence: float = stats.CONFIDENCE) -> dict[str, Estimate]:
    """Every metric of the vocabulary for this accumulator, intervals at ``confidence``."""
    out: dict[str, Estimate] = {}
    for fam in METRICS:
        out.update(fam.compute(acc, confidence))
    return out


def metric_names(acc: Accumulator) -> list[str]:
    return list(compute(acc))


def resolve(names: list[str], available: list[str]) -> list[str]:
    """Expand glob patterns; raise KeyError('name (did you mean ...)') for unknown names."""
    out = []
    for name in names:
        if any(ch in name for ch in "*?["):
            hits = fnmatch.filter(available, name)
            if not hits:
                raise KeyError(f"{name!r} matches no metric")
            out += hits
        elif name in available:
            out.append(name)
        else:
            close = difflib.get_close_matches(name, available, n=1, cutoff=0.4)
            raise KeyError(f"unknown metric {name!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
    return out


def summary_dict(acc: Accumulator) -> dict:
    """The metrics as a JSON-ready dict, with the raw accumulator for later commands."""
    return {
        "games": acc.n,
        "metrics": {k: v.as_dict() for k, v in compute(acc).items()},
        "accumulator": acc.to_json(),
    }


def markdown_reference() -> str:
    """docs/metrics.md body: the registry as a table."""
    lines = ["| metric | definition | 95% interval |", "|---|---|---|"]
    for f in METRICS:
        lines.append(f"| `{f.pattern}` | {f.definition} | {f.ci} |")
    return "\n".join(lines)


# ------------------------------------------------------------------ precision targets


def win_rate_half_widths(acc: Accumulator) -> dict[str, float]:
    """CI half-width of every win rate (per seat and per strategy)."""
    est = {**_win_rates_seat(acc), **_win_rates_strategy(acc)}
    return {k: v.half_width for k, v in est.items()}


def precision_reached(target: float) -> Callable[[Accumulator], bool]:
    """A stop rule for ``runner.run``: every win rate's 95% half-width below ``target``."""

    def stop(acc: Accumulator) -> bool:
        return acc.n > 0 and max(win_rate_half_widths(acc).values()) < target

    return stop


def games_needed(acc: Accumulator, half_width: float) -> int:
    """Games needed for every per-seat win rate to reach a 95% half-width of ``half_width``."""
    if acc.n == 0:
        return 0
    p = acc.wins_seat / acc.n
    return stats.games_for_half_width(float(p[np.argmax(p * (1 - p))]), half_width)


def games_needed_note(acc: Accumulator) -> str:
    """One line for the summary: how many games given precisions would need."""
    parts = [f"±{h:g}: {games_needed(acc, h):,}" for h in (0.01, 0.005, 0.001)]
    widest = max(win_rate_half_widths(acc).values()) if acc.n else float("nan")
    return (f"win-rate precision now ±{widest:.4f} (95%); games needed for " + ", ".join(parts))
