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
import math
from dataclasses import dataclass
from typing import Callable

import functools
from typing import NamedTuple

import numpy as np
from numba import njit

from . import stats
from .games.base import G_END, G_FIRST_SEAT, G_TRUNCATED, G_TURNS, G_WINNER, Game
from .stats import Estimate


class Accumulator:
    """Mergeable sufficient statistics of a set of games of one scenario."""

    def __init__(self, game: Game, strategy_names: tuple[str, ...] | list[str], rotate: bool = False):
        """``strategy_names`` are the ``[[seats]]`` entries' strategies; with ``rotate``
        (``rules.strategy_seating = "rotate"``) entry j plays seat (j + k) mod n in game k."""
        self.game = game
        self.strategy_names = tuple(strategy_names)
        s, c = len(self.strategy_names), len(game.seat_columns)
        self.n = 0
        self.wins_seat = np.zeros(s, np.int64)
        if rotate:  # only then: a fixed-seating summary keeps its exact former content
            self.entry_wins = np.zeros(s, np.int64)  # games won by entry j, whichever seat it sat in
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

    @property
    def rotate(self) -> bool:
        return hasattr(self, "entry_wins")

    def update(self, out_games: np.ndarray, out_seats: np.ndarray, first_game: int | None = None) -> None:
        """Add a chunk of kernel output (see games/base.py for the layout): one compiled pass.

        ``first_game`` is the index of the chunk's first game (default: the games counted
        so far, i.e. chunks added in game order); rotated seating needs it to know which
        ``[[seats]]`` entry played each seat.
        """
        n, s = out_games.shape[0], self.n_seats
        if n == 0:
            return
        first = self.n if first_game is None else int(first_game)
        tmax = int(out_games[:, G_TURNS].max())
        if tmax >= self.turns_hist.size:
            self.turns_hist = np.pad(self.turns_hist, (0, tmax + 1 - self.turns_hist.size))
        game = self.game
        plan = _plan(game)
        cat_counts = np.zeros((len(plan.cat_cols), plan.cat_width), np.int64)
        cat_wins = np.zeros_like(cat_counts)
        ints = np.zeros(_N_INTS, np.int64)
        floats = np.zeros(_N_FLOATS, np.float64)
        wins_entry = np.zeros(s, np.int64)
        ratio_sums = np.zeros((len(plan.ratio_cols), 5), np.float64)
        accumulate_nb(np.ascontiguousarray(out_games), np.ascontiguousarray(out_seats), first,
                      self.rotate, plan.score_col if s > 1 else -1, plan.cat_cols, plan.ratio_cols,
                      self.wins_seat, wins_entry, self.end_counts, self.turns_hist, self.seat_sum,
                      self.seat_sumsq, self.game_sum, self.game_sumsq, cat_counts, cat_wins, ratio_sums, ints, floats)
        self.n += n
        self.nobody += int(ints[_NOBODY])
        self.truncated += int(ints[_TRUNCATED])
        self.first_wins += int(ints[_FIRST_WINS])
        self.turns_sum += float(floats[_TURNS_SUM])
        self.turns_sumsq += float(floats[_TURNS_SUMSQ])
        if game.score_column and ints[_MARGIN_N]:
            self.margin_sum += float(floats[_MARGIN_SUM])
            self.margin_sumsq += float(floats[_MARGIN_SUMSQ])
            self.margin_n += int(ints[_MARGIN_N])
        if self.rotate:
            self.entry_wins += wins_entry
        for k, r in enumerate(game.ratios):
            self.ratio_sums[r.name] += ratio_sums[k]
        for k, name in enumerate(self.cat_counts):
            L = self.cat_counts[name].size
            self.cat_counts[name] += cat_counts[k, :L]
            self.cat_wins[name] += cat_wins[k, :L]

    def wins_of_entries(self) -> np.ndarray:
        """Games won by each ``[[seats]]`` entry (its strategy), whichever seat it sat in."""
        return self.entry_wins if self.rotate else self.wins_seat

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
        acc = cls(game, data["strategy_names"], rotate="entry_wins" in data)
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


# ------------------------------------------------------------------ the compiled pass

# slots of accumulate_nb's scalar outputs
_NOBODY, _TRUNCATED, _FIRST_WINS, _MARGIN_N, _N_INTS = 0, 1, 2, 3, 4
_TURNS_SUM, _TURNS_SUMSQ, _MARGIN_SUM, _MARGIN_SUMSQ, _N_FLOATS = 0, 1, 2, 3, 4


class _Plan(NamedTuple):
    """Which seat columns the compiled pass treats specially, as index arrays."""

    score_col: int  # -1: the game has no score column
    cat_cols: np.ndarray  # categorical seat columns
    cat_width: int  # most labels of any of them
    ratio_cols: np.ndarray  # [n_ratios, 2]: numerator and denominator seat columns


@functools.cache
def _plan(game: Game) -> _Plan:
    cats = [col for col in game.seat_columns if col.labels]
    return _Plan(game.seat_column_index(game.score_column) if game.score_column else -1,
                 np.array([game.seat_column_index(c.name) for c in cats], np.int64),
                 max((len(c.labels) for c in cats), default=0),
                 np.array([[game.seat_column_index(r.numerator), game.seat_column_index(r.denominator)]
                           for r in game.ratios], np.int64).reshape(-1, 2))


@njit(cache=True, nogil=True)
def accumulate_nb(g, st, first_game, rotate, score_col, cat_cols, ratio_cols, wins_seat, wins_entry, end_counts,
                  turns_hist, seat_sum, seat_sumsq, game_sum, game_sumsq, cat_counts, cat_wins, ratio_sums,
                  ints, floats):
    """Every sufficient statistic of a chunk in one pass over the kernel's output.

    Sums are taken in int64 then added to the float64 totals: the values are integers,
    so the totals are exact (and independent of chunking) below 2**53.
    """
    n, s, c = st.shape
    n_end, n_hist = end_counts.size, turns_hist.size
    col_sum = np.zeros((s, c), np.int64)
    col_sumsq = np.zeros((s, c), np.int64)
    gsum = np.zeros(c, np.int64)
    gsumsq = np.zeros(c, np.int64)
    rsum = np.zeros((ratio_cols.shape[0], 5), np.int64)
    per_game = np.zeros(c, np.int64)
    turns_sum = 0
    turns_sumsq = 0
    margin_sum = 0
    margin_sumsq = 0
    for i in range(n):
        w = g[i, G_WINNER]
        if w < 0:
            ints[_NOBODY] += 1
        elif w < s:
            wins_seat[w] += 1
            if rotate:
                wins_entry[(w - (first_game + i) % s + s) % s] += 1
        ints[_TRUNCATED] += g[i, G_TRUNCATED]
        if w == g[i, G_FIRST_SEAT]:
            ints[_FIRST_WINS] += 1
        e = g[i, G_END]
        if 0 <= e < n_end:
            end_counts[e] += 1
        t = np.int64(g[i, G_TURNS])
        if 0 <= t < n_hist:
            turns_hist[t] += 1
        turns_sum += t
        turns_sumsq += t * t
        per_game[:] = 0
        for a in range(s):
            for j in range(c):
                v = np.int64(st[i, a, j])
                col_sum[a, j] += v
                col_sumsq[a, j] += v * v
                per_game[j] += v
        for j in range(c):
            gsum[j] += per_game[j]
            gsumsq[j] += per_game[j] * per_game[j]
        for k in range(ratio_cols.shape[0]):
            num = per_game[ratio_cols[k, 0]]
            den = per_game[ratio_cols[k, 1]]
            rsum[k, 0] += num
            rsum[k, 1] += den
            rsum[k, 2] += num * num
            rsum[k, 3] += den * den
            rsum[k, 4] += num * den
        if score_col >= 0 and w >= 0:
            best = np.iinfo(np.int64).min
            for a in range(s):
                if a != w and st[i, a, score_col] > best:
                    best = np.int64(st[i, a, score_col])
            m = np.int64(st[i, w, score_col]) - best
            margin_sum += m
            margin_sumsq += m * m
            ints[_MARGIN_N] += 1
        for k in range(cat_cols.size):
            width = cat_counts.shape[1]
            for a in range(s):
                code = st[i, a, cat_cols[k]]
                if 0 <= code < width:
                    cat_counts[k, code] += 1
                    if a == w:
                        cat_wins[k, code] += 1
    for a in range(s):
        for j in range(c):
            seat_sum[a, j] += col_sum[a, j]
            seat_sumsq[a, j] += col_sumsq[a, j]
    for j in range(c):
        game_sum[j] += gsum[j]
        game_sumsq[j] += gsumsq[j]
    for k in range(rsum.shape[0]):
        for m in range(5):
            ratio_sums[k, m] += rsum[k, m]
    floats[_TURNS_SUM] += turns_sum
    floats[_TURNS_SUMSQ] += turns_sumsq
    floats[_MARGIN_SUM] += margin_sum
    floats[_MARGIN_SUMSQ] += margin_sumsq


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
        seats = [i for i, s in enumerate(a.strategy_names) if s == name]  # the entries playing it
        out[f"win_rate.{name}"] = stats.wilson(a.wins_of_entries()[seats].sum(), a.n * len(seats), conf)
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


def observed(est: dict[str, Estimate]) -> dict[str, Estimate]:
    """The metrics some game measured: a table a designer reads holds no NaN row with n 0
    (the win rate of a label no seat showed); ``compute`` keeps them (check names them)."""
    return {k: e for k, e in est.items() if e.n > 0 or e.value == e.value}


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


# How many event counters the terminal summary lists (the report shows them all).
SUMMARY_EVENT_ROWS = 12


def summary_rows(game: Game, est: dict[str, Estimate]) -> list[tuple[str, str]]:
    """Which metrics the terminal summary and the report's first page show: (metric name,
    label) pairs in reading order, only those present in ``est``."""
    rows: list[tuple[str, str]] = []
    seat_rates = sorted(k for k in est if k.startswith("win_rate.seat"))
    rows += [(k, f"win rate, seat {k[len('win_rate.seat'):]}") for k in seat_rates]
    strat = [k for k in est if k.startswith("win_rate.") and k not in seat_rates and "=" not in k]
    rows += [(k, f"win rate, {k[len('win_rate.'):]}") for k in strat]
    for k, label in (("seat_balance", "seat balance (largest gap)"),
                     ("first_player_advantage", "first-player advantage"),
                     ("decisiveness", "decisive games"), ("truncation_rate", "truncated by turn cap"),
                     ("length.mean", "game length, mean turns"), ("length.median", "game length, median"),
                     ("winning_margin", f"winning margin ({game.score_column})")):
        if k in est:
            rows.append((k, label))
    rows += [(k, f"ended: {k[4:]}") for k in est if k.startswith("end.") and est[k].value > 0]
    never = set(never_happened(est))
    events = [k for k in est if k.startswith("events.") and k[7:] not in never]
    rows += [(k, f"per game: {k[7:]}") for k in events[:SUMMARY_EVENT_ROWS]]
    return rows


def never_happened(est: dict[str, Estimate]) -> list[str]:
    """Events (names without ``events.``) that happened in no game of the run: said in one
    line, not shown as rows or bars of zeros."""
    return [k[7:] for k in est if k.startswith("events.") and est[k].value == 0 and est[k].hi == 0]


def markdown_reference() -> str:
    """docs/metrics.md body: the registry as a table."""
    lines = ["| metric | definition | 95% interval |", "|---|---|---|"]
    for f in METRICS:
        lines.append(f"| `{f.pattern}` | {f.definition} | {f.ci} |")
    return "\n".join(lines)


# ------------------------------------------------------------------ precision targets


def ended_games(acc: Accumulator) -> int:
    """Games that ended by the rules (not cut off by the turn cap)."""
    return int(acc.n - acc.truncated)


def win_rate_half_widths(acc: Accumulator, ended_only: bool = False) -> dict[str, float]:
    """CI half-width of every win rate (per seat and per strategy).

    ``ended_only``: of the win rates among games that ended (not truncated).  A run whose
    games are all cut off has win rates of 0 with tiny intervals, which say nothing about
    who wins; precision is measured on the games that ended."""
    if not ended_only or not acc.truncated:
        est = {**_win_rates_seat(acc), **_win_rates_strategy(acc)}
        return {k: v.half_width for k, v in est.items()}
    n = ended_games(acc)
    if n <= 0:
        return {f"win_rate.seat{i}": math.inf for i in range(acc.n_seats)}
    out = {f"win_rate.seat{i}": stats.wilson(acc.wins_seat[i], n).half_width for i in range(acc.n_seats)}
    for name in dict.fromkeys(acc.strategy_names):
        seats = [i for i, s in enumerate(acc.strategy_names) if s == name]
        out[f"win_rate.{name}"] = stats.wilson(acc.wins_of_entries()[seats].sum(), n * len(seats)).half_width
    return out


def precision_reached(target: float) -> Callable[[Accumulator], bool]:
    """A stop rule for ``runner.run``: every win rate's 95% half-width below ``target``,
    among the games that ended (a run of only truncated games never reaches it)."""

    def stop(acc: Accumulator) -> bool:
        return acc.n > 0 and max(win_rate_half_widths(acc, ended_only=True).values()) < target

    return stop


def games_needed(acc: Accumulator, half_width: float) -> int | None:
    """Games needed for every per-seat win rate among the games that end to reach a 95%
    half-width of ``half_width``, at the run's share of games that end (None: none ended)."""
    if acc.n == 0:
        return 0
    ended = ended_games(acc)
    if ended <= 0:
        return None
    p = acc.wins_seat / ended
    need = stats.games_for_half_width(float(p[np.argmax(p * (1 - p))]), half_width)
    return int(math.ceil(need * acc.n / ended))


# Share of truncated games above which a summary warns that its figures describe games the
# turn cap cut off, not games played to their end.
MOSTLY_TRUNCATED = 0.5


def truncation_warning(acc: Accumulator) -> str | None:
    """One line when most games were cut off by the turn cap (None otherwise)."""
    if acc.n == 0 or acc.truncated <= MOSTLY_TRUNCATED * acc.n:
        return None
    share = 100 * acc.truncated / acc.n
    return (f"{share:.1f}% of the {acc.n:,} games were cut off by the turn cap: win rates, lengths and every "
            f"other figure describe unfinished games; raise the game's turn cap")


def games_needed_note(acc: Accumulator) -> str:
    """One line for the summary: how many games given precisions would need (win rates among
    the games that ended)."""
    if acc.n and not ended_games(acc):
        return "win-rate precision unknown: no game ended before the turn cap"
    parts = [f"±{h:g}: {games_needed(acc, h):,}" for h in (0.01, 0.005, 0.001)]
    widest = max(win_rate_half_widths(acc, ended_only=True).values()) if acc.n else float("nan")
    among = f" among the {ended_games(acc):,} games that ended" if acc.truncated else ""
    return (f"win-rate precision now ±{widest:.4f} (95%){among}; games needed for " + ", ".join(parts))
