"""Sequential tests of "does A beat B": decided with the fewest games, claimed only when decided.

The unit is a *round*: the ``n`` games ``n*i .. n*i + n - 1`` of a match whose seats rotate
(``[[seats]]`` entry 0, the focal player, sits at seat ``k mod n`` in game k), so that every
round holds each seating once.  A round's score is the focal player's mean score over its
games (1 a win, 1/n no winner, 0 a loss), a multiple of 1/n^2: for two seats the five values
0, 1/4, 1/2, 3/4, 1 of the pentanomial model of chess engine testing (fishtest), for more
seats its generalisation.  Scoring rounds rather than games takes the seat advantage out of
the variance: a round is one game from every seat.

**The test** (:func:`sprt`) is Wald's sequential probability ratio test of "the focal player
scores ``s0``" against "it scores ``s1``" on the rounds in their order, with the generalised
(multinomial) likelihood ratio of fishtest: the rounds' scores are multinomial on the values
k/n^2; each hypothesis is the maximum-likelihood distribution whose mean is ``s0`` (``s1``);
the log-likelihood ratio is checked after every round against Wald's bounds
``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)``.  It stops when it accepts either
hypothesis or when the rounds run out ("undecided after N rounds", said as such).

**The interval** (:func:`confidence_sequence`) after a sequential stop is a confidence
*sequence* (the hedged-capital betting sequence of Waudby-Smith and Ramdas, 2023, JRSS B):
it holds with probability ``confidence`` at every number of rounds at once, so also at the
round a test chose to stop at.  A fixed-sample interval there undercovers (the test stops
when the data look extreme); tests/test_meta_sequential.py measures both.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np
from numba import njit

from .. import stats
from .stats import focal_scores

ALPHA = 0.05  # false "A beats B" (accepting s1 when A scores s0)
BETA = 0.05  # missed "A beats B" (accepting s0 when A scores s1)
PRIOR_COUNT = 1e-3  # pseudo-rounds at every round score: the likelihood stays finite (fishtest's 1e-3)
GRID = 2001  # candidate means of the confidence sequence (a 0.0005 step)
BET_TRUNCATION = 0.5  # a bet stakes at most half the capital the worst outcome could take (WSR's c)
NEWTON_STEPS = 60  # safeguarded Newton/bisection steps for a constrained MLE (converges in under 10)

ACCEPT_H1, ACCEPT_H0, UNDECIDED = 1, 0, -1  # kernel codes of a test's end
OUTCOMES = {ACCEPT_H1: "accepted s1", ACCEPT_H0: "accepted s0", UNDECIDED: "undecided"}


def wald_bounds(alpha: float = ALPHA, beta: float = BETA) -> tuple[float, float]:
    """Wald's (lower, upper) bounds on the log-likelihood ratio: accept s0 at or below the
    lower one, s1 at or above the upper one (the error rates are then at most about alpha, beta)."""
    if not (0 < alpha < 0.5 and 0 < beta < 0.5):
        raise ValueError(f"alpha and beta must lie in (0, 0.5), got {alpha}, {beta}")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def round_scores(scores: np.ndarray, n_seats: int) -> np.ndarray:
    """The rounds' integer scores ``k`` (the round's mean score is ``k / n^2``) from the focal
    player's per-game scores in game order (meta.stats.focal_scores); an unfinished last round
    is left out."""
    s = np.asarray(scores, np.float64)
    if np.any(~((s >= 0.0) & (s <= 1.0))):
        raise ValueError("scores must lie in [0, 1]")
    r = s.size // n_seats
    return np.rint(s[: r * n_seats].reshape(r, n_seats).sum(axis=1) * n_seats).astype(np.int64)


@njit(cache=True)
def _lambda_nb(c, x, s):
    """The Lagrange multiplier of the multinomial MLE with mean ``s``: the root of
    sum_j c_j (x_j - s) / (1 + lam (x_j - s)) = 0 where every 1 + lam (x_j - s) > 0 (the root
    exists and is unique when min x < s < max x; the sum falls as lam rises)."""
    lo = -1.0 / (x[-1] - s) * (1.0 - 1e-12)
    hi = 1.0 / (s - x[0]) * (1.0 - 1e-12)
    lam = 0.0
    for _ in range(NEWTON_STEPS):
        g = 0.0
        dg = 0.0
        for j in range(x.size):
            d = x[j] - s
            q = 1.0 + lam * d
            g += c[j] * d / q
            dg -= c[j] * d * d / (q * q)
        if g > 0.0:
            lo = lam
        else:
            hi = lam
        step = lam - g / dg if dg < 0.0 else 0.5 * (lo + hi)
        nxt = step if lo < step < hi else 0.5 * (lo + hi)
        if abs(nxt - lam) < 1e-14:
            return nxt
        lam = nxt
    return lam


@njit(cache=True)
def llr_nb(c, x, s0, s1):
    """The generalised log-likelihood ratio of mean ``s1`` against mean ``s0`` for counts
    ``c[j]`` of the values ``x[j]`` (ascending): sum_j c_j log((1 + l0 (x_j - s0)) /
    (1 + l1 (x_j - s1))) with l0, l1 the two constrained MLEs' multipliers."""
    l0 = _lambda_nb(c, x, s0)
    l1 = _lambda_nb(c, x, s1)
    out = 0.0
    for j in range(x.size):
        out += c[j] * (math.log(1.0 + l0 * (x[j] - s0)) - math.log(1.0 + l1 * (x[j] - s1)))
    return out


@njit(cache=True)
def feed_nb(k, c, x, s0, s1, lower, upper):
    """Add the values ``x[k[i]]`` one at a time to the counts ``c`` (changed in place) until
    the log-likelihood ratio leaves (lower, upper): (values used, end code, ratio)."""
    llr = 0.0
    for i in range(k.size):
        c[k[i]] += 1.0
        llr = llr_nb(c, x, s0, s1)
        if llr >= upper:
            return i + 1, ACCEPT_H1, llr
        if llr <= lower:
            return i + 1, ACCEPT_H0, llr
    return k.size, UNDECIDED, llr


@njit(cache=True)
def sprt_nb(k, n_values, s0, s1, lower, upper, prior):
    """Wald's SPRT on the values ``k`` (0..n_values-1, each meaning k / (n_values - 1)) in
    order, from counts ``prior``: (values used, end code, final log-likelihood ratio)."""
    x = np.arange(n_values) / (n_values - 1.0)
    c = np.full(n_values, prior)
    return feed_nb(k, c, x, s0, s1, lower, upper)


class SequentialTest:
    """Wald's SPRT fed piece by piece (a run's chunks): it keeps the counts of the values and
    a confidence sequence's state, never the sequence, and takes no value after its decision.

    Values are integers ``k`` in 0..n_values-1 meaning ``k / (n_values - 1)`` in [0, 1]."""

    def __init__(self, n_values: int, s0: float, s1: float, alpha: float = ALPHA, beta: float = BETA,
                 confidence: float = stats.CONFIDENCE, interval: bool = True):
        if not (0.0 < s0 < 1.0 and 0.0 < s1 < 1.0) or s0 == s1:
            raise ValueError(f"expected s0 != s1, both in (0, 1), got s0={s0}, s1={s1}")
        self.n_values, self.s0, self.s1, self.alpha, self.beta = int(n_values), float(s0), float(s1), alpha, beta
        self.lower, self.upper = wald_bounds(alpha, beta)
        self.x = np.arange(self.n_values) / (self.n_values - 1.0)
        self.counts = np.full(self.n_values, PRIOR_COUNT)
        self.used, self.code, self.llr = 0, UNDECIDED, 0.0
        self.interval = ConfidenceSequence(confidence) if interval else None  # None: the test alone

    @property
    def decided(self) -> bool:
        return self.code != UNDECIDED

    def feed(self, k: np.ndarray) -> int:
        """Take values until the decision; returns how many of ``k`` were taken."""
        if self.decided or len(k) == 0:
            return 0
        k = np.ascontiguousarray(k, np.int64)
        if k.min() < 0 or k.max() >= self.n_values:  # the kernel indexes the counts unchecked
            raise ValueError(f"values must lie in 0..{self.n_values - 1}, got {k.min()}..{k.max()}")
        used, code, llr = feed_nb(k, self.counts, self.x, self.s0, self.s1, self.lower, self.upper)
        if self.interval is not None:
            self.interval.feed(k[:used] / (self.n_values - 1.0))
        self.used += int(used)
        self.code, self.llr = int(code), float(llr)
        return int(used)


@dataclass(frozen=True)
class Decision:
    """What a sequential test decided, on how many rounds, and the mean it holds to."""

    outcome: str  # "accepted s1", "accepted s0" or "undecided"
    s0: float
    s1: float
    rounds: int  # rounds the test used (all of them when undecided)
    games: int  # games in those rounds
    llr: float  # the log-likelihood ratio where it stopped
    lower: float  # Wald's bounds
    upper: float
    alpha: float
    beta: float
    score: stats.Estimate  # the focal player's mean score over those rounds, with a confidence sequence

    @property
    def decided(self) -> bool:
        return self.outcome != "undecided"

    def as_dict(self) -> dict:
        d = asdict(self)
        d["score"] = self.score.as_dict()
        return d

    def describe(self) -> str:
        """One line: "scores 60%, not 50% (decided after 212 rounds, 424 games)"."""
        if not self.decided:
            return (f"undecided after {self.rounds:,} rounds ({self.games:,} games): log-likelihood ratio "
                    f"{self.llr:+.2f}, between the bounds {self.lower:.2f} and {self.upper:.2f}")
        yes, no = (self.s1, self.s0) if self.outcome == "accepted s1" else (self.s0, self.s1)
        return (f"scores {100 * yes:.1f}%, not {100 * no:.1f}% (decided after {self.rounds:,} rounds, "
                f"{self.games:,} games)")


def sprt(scores: np.ndarray, n_seats: int, s0: float, s1: float, alpha: float = ALPHA, beta: float = BETA,
         confidence: float = stats.CONFIDENCE, interval: bool = True) -> Decision:
    """Wald's sequential test of "the focal player scores ``s0``" against "it scores ``s1``"
    (``s0 < s1``) on its per-game scores in game order, a round of ``n_seats`` games at a time.
    ``interval=False`` skips the confidence sequence (simulations of the test's error rates).

    >>> d = sprt(np.tile([1.0, 1.0, 0.0, 1.0], 200), 2, 0.5, 0.6)
    >>> d.outcome, d.rounds < 100
    ('accepted s1', True)
    """
    if not 0.0 < s0 < s1 < 1.0:
        raise ValueError(f"expected 0 < s0 < s1 < 1, got s0={s0}, s1={s1}")
    t = SequentialTest(n_seats * n_seats + 1, s0, s1, alpha, beta, confidence, interval)
    k = round_scores(scores, n_seats)
    t.feed(k)
    score = t.interval.estimate() if interval else stats.Estimate(
        float(k[:t.used].mean() / n_seats ** 2) if t.used else float("nan"), float("nan"), float("nan"), t.used,
        "none asked for")
    return decision(t, score, n_seats)


def decision(t: SequentialTest, score: stats.Estimate, per_value: int = 1) -> Decision:
    """The :class:`Decision` of a test; ``per_value`` games make one of its values (a round)."""
    return Decision(OUTCOMES[t.code], t.s0, t.s1, t.used, t.used * per_value, t.llr, t.lower, t.upper,
                    t.alpha, t.beta, score)


def confidence_sequence(x: np.ndarray, confidence: float = stats.CONFIDENCE, grid: int = GRID) -> stats.Estimate:
    """The mean of values ``x`` in [0, 1] (in order) with its :class:`ConfidenceSequence`."""
    cs = ConfidenceSequence(confidence, grid)
    cs.feed(np.asarray(x, np.float64))
    return cs.estimate()


class ConfidenceSequence:
    """The hedged-capital betting confidence sequence of Waudby-Smith and Ramdas (2023) for
    the mean of values in [0, 1], intersected over time and fed piece by piece: it covers
    the mean at every length at once with probability ``confidence``, so also at a length a
    sequential test chose.  A candidate mean m is out once the capital of a bettor staking
    half on each side, (prod(1 + lam_i (x_i - m)) + prod(1 - lam_i (x_i - m))) / 2, reaches
    1 / (1 - confidence) (a nonnegative martingale under m: Ville's inequality); ``lam_i`` is
    the predictable plug-in of the variance of the values before i, from a prior of one
    value 1/2 with variance 1/4, capped so that a bet risks at most half the capital."""

    METHOD = "betting confidence sequence (Waudby-Smith & Ramdas 2023)"

    def __init__(self, confidence: float = stats.CONFIDENCE, grid: int = GRID):
        a = 1.0 - confidence
        self.m = np.linspace(0.0, 1.0, grid)[1:-1]
        self.log_plus = np.zeros(self.m.size)
        self.log_minus = np.zeros(self.m.size)
        self.out = np.zeros(self.m.size, np.bool_)
        self.state = np.zeros(3)  # values so far, their sum, the sum of squared deviations
        self.span = np.array([0, self.m.size - 1], np.int64)  # the candidates not yet out lie in here
        self.bound, self.lam_scale = math.log(1.0 / a), 2.0 * math.log(2.0 / a)

    def feed(self, x: np.ndarray) -> None:
        _cs_feed_nb(np.ascontiguousarray(x, np.float64), self.m, self.log_plus, self.log_minus, self.out,
                    self.state, self.span, self.bound, self.lam_scale, BET_TRUNCATION)

    def estimate(self) -> stats.Estimate:
        n = int(self.state[0])
        if n == 0:
            return stats.Estimate(float("nan"), 0.0, 1.0, 0, self.METHOD)
        point = float(self.state[1] / n)
        kept = self.m[~self.out]
        if kept.size == 0:  # cannot happen at the mean itself for a sane confidence; keep the point
            return stats.Estimate(point, point, point, n, self.METHOD)
        step = self.m[1] - self.m[0]
        return stats.Estimate(point, max(0.0, min(point, kept[0] - step)), min(1.0, max(point, kept[-1] + step)),
                              n, self.METHOD)


@njit(cache=True)
def _cs_feed_nb(x, m, log_plus, log_minus, out, state, span, bound, lam_scale, c):
    """Add values ``x`` to a confidence sequence's state (arrays changed in place).  Only the
    candidates inside ``span`` are visited: those not yet out form an interval that shrinks."""
    half = math.log(0.5)
    for i in range(x.size):
        t = state[0] + 1.0  # this value's position, 1-based
        var = (0.25 + state[2]) / t  # the variance before it (the prior counts as one value)
        lam = math.sqrt(lam_scale / (var * t * math.log1p(t)))
        lo, hi = span[0], span[1]
        for g in range(lo, hi + 1):
            if out[g]:
                continue
            d = x[i] - m[g]
            log_plus[g] += math.log1p(min(lam, c / m[g]) * d)
            log_minus[g] += math.log1p(-min(lam, c / (1.0 - m[g])) * d)
            kp = log_plus[g]
            km = log_minus[g]
            top = kp if kp > km else km
            if top + math.log1p(math.exp(-abs(kp - km))) + half >= bound:
                out[g] = True
        while lo < hi and out[lo]:
            lo += 1
        while hi > lo and out[hi]:
            hi -= 1
        span[0], span[1] = lo, hi
        state[0] = t
        state[1] += x[i]
        mu = (0.5 + state[1]) / (t + 1.0)
        state[2] += (x[i] - mu) ** 2


def fixed_rounds(s0: float, s1: float, variance: float, alpha: float = ALPHA, beta: float = BETA) -> int:
    """Rounds a fixed-sample one-sided z-test needs for the same error rates (normal
    approximation, round-score ``variance``): the yardstick the sequential test saves against."""
    from scipy.stats import norm

    z = norm.ppf(1 - alpha) + norm.ppf(1 - beta)
    return math.ceil(variance * (z / (s1 - s0)) ** 2)


class MatchStop:
    """A match's sequential tests, told its games as a run plays them (runner.run's
    ``decide``): the run stops at the end of the round where every test has decided.

    ``tests`` are (s0, s1, flipped): flipped tests are fed the other side's round score,
    ``n^2 - k`` (two seats: the field's player), so that one match answers "does A beat B"
    and "does B beat A" on the same rounds.  Games arrive in pieces of any size; a round
    cut by a piece's end waits for the rest.  The stop is a function of the games alone:
    the same whatever the chunk size, the threads or where a run was resumed."""

    def __init__(self, n_seats: int, tests: list[tuple[float, float, bool]], alpha: float = ALPHA,
                 beta: float = BETA):
        if not tests:
            raise ValueError("a match stop needs at least one test")
        self.n = int(n_seats)
        self.tests = [SequentialTest(self.n * self.n + 1, s0, s1, alpha, beta, interval=False) for s0, s1, _f in tests]
        self.flipped = [bool(f) for _s0, _s1, f in tests]
        self.pending = np.zeros(0, np.float64)  # scores of the unfinished round
        self.next_game = 0
        self.min_piece = 4 * self.n  # the run's pieces start this small: a decision is seen within a few rounds

    @property
    def decided(self) -> bool:
        return all(t.decided for t in self.tests)

    def __call__(self, start: int, out_games: np.ndarray) -> int | None:
        if start != self.next_game:
            raise ValueError(f"games must arrive in order: expected game {self.next_game}, got {start}")
        winner = np.asarray(out_games[:, 0], np.int64)
        self.next_game = start + winner.size
        scores = np.concatenate([self.pending, focal_scores(winner, np.arange(start, self.next_game), self.n)])
        k = round_scores(scores, self.n)
        cut = k.size * self.n
        self.pending = scores[cut:]
        used = 0
        for t, flip in zip(self.tests, self.flipped):
            if not t.decided:
                t.feed(self.n * self.n - k if flip else k)
            used = max(used, t.used)
        if not self.decided:
            return None
        return used * self.n - start  # the games of this piece up to the end of the deciding round
