"""The meta-game's statistics: scores of a focal seat, skill trace and depth, the
equilibrium of the strategy meta-game, ratings, dominance, and the bootstrap behind
their intervals.

Everything here is plain numpy (and scipy's linear programming): the games were played
and stored by the runner; these functions only read per-game outcomes.
"""

from __future__ import annotations

import math

import numpy as np

from .. import stats
from ..stats import Estimate

BOOTSTRAP = 500  # default bootstrap replicates (percentile intervals: +-1 point at the 2.5% tail)
SUPPORT_MIN_WEIGHT = 0.01  # an equilibrium weight below this counts as outside the support
BEAT_TWO_SEATS = 0.6  # "the stronger level beats the weaker at least 60% of the time" (two seats)
REPLICATOR_STEPS = 4000  # steps of the discrete replicator dynamics (multi-seat meta-games)
REPLICATOR_RATE = 2.0  # its learning rate on win rates relative to the fair share
BT_ITERATIONS = 500  # Bradley-Terry / Luce minorise-maximise iterations


def focal_scores(winner: np.ndarray, game: np.ndarray, n_seats: int) -> np.ndarray:
    """Per game, the score of ``[[seats]]`` entry 0 under rotating seats (it plays seat
    ``k mod n`` in game k, see seating.entry_of_seat_nb): 1 win, 1/n no winner, 0 loss."""
    focal = np.asarray(game, np.int64) % n_seats
    w = np.asarray(winner, np.int64)
    return np.where(w == focal, 1.0, np.where(w < 0, 1.0 / n_seats, 0.0))


def utility(score, n_seats: int):
    """Ludii's utility (RankUtils.agentUtilities) of a mean score: 1 for a win, -1/(n-1)
    for a loss (the mean utility of ranks 2..n, which are not recorded), 0 for no winner;
    linear in the score, 0 at the fair share 1/n."""
    return (n_seats * np.asarray(score, np.float64) - 1.0) / (n_seats - 1)


def beat_threshold(n_seats: int, two_seat: float = BEAT_TWO_SEATS) -> float:
    """Win rate at which the strong seat "beats" the weak ones: it wins at least
    ``two_seat / (1 - two_seat)`` times as often as each weak seat (60% of two-seat games:
    1.5 times as often); for n seats ``o / (o + n - 1)`` with o those odds."""
    odds = two_seat / (1.0 - two_seat)
    return odds / (odds + n_seats - 1)


def win_rate(scores: np.ndarray, confidence: float = stats.CONFIDENCE) -> Estimate:
    """Mean score with a Wilson interval (the scores' sum as successes: exact for 0/1
    scores, conservative when no-winner games score 1/n)."""
    return stats.wilson(float(np.sum(scores)), len(scores), confidence)


def skill_trace(r: np.ndarray) -> float:
    """Ludii's skill trace (Evaluation/src/metrics/designer/SkillTrace.java) of the strong
    side's mean utilities ``r[i]`` in matches i = 0..K-1: a least-squares line through
    (i, r_i) predicted at x = K + 1 (the code's ``predict(numMatches + 1)``) and clipped to
    [0, 1], ``yhat``; the area estimate A = sum of max(r_i, 0)^2 (a sum of squares in the
    code, not a mean); trace = yhat + (1 - yhat) * A."""
    r = np.asarray(r, np.float64)
    k = r.size
    if k == 0:
        return float("nan")
    if k == 1:
        yhat = r[0]
    else:
        x = np.arange(k, dtype=np.float64)
        slope, intercept = np.polyfit(x, r, 1)
        yhat = intercept + slope * (k + 1)
    yhat = min(max(float(yhat), 0.0), 1.0)
    area = float(np.sum(np.maximum(r, 0.0) ** 2))
    return yhat + (1.0 - yhat) * area


def bootstrap_counts(n: int, replicates: int, seed: int) -> np.ndarray:
    """``[replicates, n]`` resampling counts of games 0..n-1 (each row a multinomial draw).
    The same rows serve every match of equal length: the matches share their dice (common
    random numbers), so resampling game k in all of them at once keeps that pairing."""
    rng = np.random.default_rng(seed)
    out = np.empty((replicates, n), np.float64)
    for b in range(replicates):
        out[b] = np.bincount(rng.integers(0, n, n), minlength=n)
    return out


def bootstrap_means(scores: list, replicates: int, seed: int) -> np.ndarray:
    """``[replicates, matches]`` bootstrap means of each match's per-game scores.  Matches
    of one length share their resampling rows (common random numbers: game k resampled in
    all at once); matches a sequential test stopped at different lengths are resampled
    each on its own (seed + match index), which drops that pairing: wider, not narrower."""
    lengths = {len(sc) for sc in scores}
    if len(lengths) <= 1:
        g = max(lengths, default=0)
        if g == 0:
            return np.zeros((replicates, len(scores)))
        w = bootstrap_counts(g, replicates, seed % 2**32)
        return w @ np.stack(scores).T / g
    return np.stack([bootstrap_counts(len(sc), replicates, (seed + k) % 2**32) @ sc / len(sc)
                     for k, sc in enumerate(scores)], axis=1)


def percentile_ci(values: np.ndarray, point: float, confidence: float = stats.CONFIDENCE, n: int = 0,
                  method: str = "bootstrap percentile") -> Estimate:
    v = np.asarray(values, np.float64)
    v = v[np.isfinite(v)]
    if v.size == 0:
        return Estimate(point, float("nan"), float("nan"), n, method)
    a = (1 - confidence) / 2
    lo, hi = np.quantile(v, [a, 1 - a])
    return Estimate(point, min(lo, point), max(hi, point), n, method)


# ----------------------------------------------------------------------- equilibria


def nash_symmetric_zero_sum(a: np.ndarray) -> np.ndarray:
    """A Nash mix of the symmetric zero-sum game with antisymmetric payoff ``a[i, j]`` (row
    i's expected utility against j), by linear programming: maximise v subject to
    sum_i x_i a[i, j] >= v for every j, x in the simplex (scipy's HiGHS)."""
    from scipy.optimize import linprog

    m = a.shape[0]
    if m == 1:
        return np.ones(1)
    c = np.zeros(m + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-a.T, np.ones((m, 1))])
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(m), A_eq=np.hstack([np.ones((1, m)), np.zeros((1, 1))]), b_eq=[1.0],
                  bounds=[(0, None)] * m + [(None, None)], method="highs")
    if not res.success:  # cannot happen for a finite matrix; keep the uniform mix rather than fail
        return np.full(m, 1.0 / m)
    x = np.maximum(res.x[:m], 0.0)
    return x / x.sum()


def replicator(payoff: np.ndarray, fair: float, steps: int = REPLICATOR_STEPS, rate: float = REPLICATOR_RATE) -> np.ndarray:
    """Time-averaged discrete replicator dynamics (multiplicative weights) of the population
    game whose payoff to strategy i in a population mix x is sum_j x_j payoff[..., i, j]
    (a seat's win rate against a field drawn from x, linearised over the one-among-a-field
    match-ups), from the uniform mix, averaged over the second half of the steps; payoffs
    measured relative to the fair share.  Works
    on a stack ``[..., m, m]`` of matrices at once (the bootstrap)."""
    p = (np.asarray(payoff, np.float64) - fair) / max(fair, 1e-9)
    m = p.shape[-1]
    x = np.full(p.shape[:-1], 1.0 / m)
    avg = np.zeros_like(x)
    for t in range(steps):
        f = np.einsum("...ij,...j->...i", p, x)
        f -= np.einsum("...i,...i->...", x, f)[..., None]
        x = x * np.exp(rate * f / math.sqrt(steps))
        x /= x.sum(axis=-1, keepdims=True)
        if 2 * t >= steps:  # the second half only: the way from the uniform start is not the rest point
            avg += x
    return avg / (steps - (steps + 1) // 2)


# ----------------------------------------------------------------------- ratings


def luce_ratings(compositions: np.ndarray, wins: np.ndarray, decided: np.ndarray,
                 iterations: int = BT_ITERATIONS) -> np.ndarray:
    """Bradley-Terry (Luce's choice model for more seats) strengths by Hunter's (2004)
    minorise-maximise iterations: in a game of match m, whose seats hold
    ``compositions[..., m, s]`` copies of strategy s, strategy s wins with probability
    c_s pi_s / sum_t c_t pi_t.  ``wins[..., m, s]``: games of match m won by strategy s;
    ``decided[..., m]``: games with a winner.  Returned on the Elo scale (400 log10 pi,
    mean 0).  Stacks of matches (the bootstrap) are solved at once."""
    c = np.asarray(compositions, np.float64)
    w = np.asarray(wins, np.float64)
    d = np.asarray(decided, np.float64)
    m_shape = w.shape[:-2]
    pi = np.ones(m_shape + (c.shape[-1],))
    total_wins = w.sum(axis=-2) + 0.5  # half a win each: strengths stay finite when a strategy never wins
    for _ in range(iterations):
        denom = np.einsum("ms,...s->...m", c, pi)
        pi_new = total_wins / np.maximum(np.einsum("...m,ms->...s", d / np.maximum(denom, 1e-300), c), 1e-300)
        pi = pi_new / np.exp(np.mean(np.log(pi_new), axis=-1, keepdims=True))
    elo = 400.0 * np.log10(pi)
    return elo - elo.mean(axis=-1, keepdims=True)


# ----------------------------------------------------------------------- dominance


def simultaneous_wilson(successes: np.ndarray, n: np.ndarray, cells: int, confidence: float = stats.CONFIDENCE):
    """Wilson intervals at level 1 - (1 - confidence) / cells for every cell (Bonferroni):
    all of them hold at once with probability at least ``confidence``."""
    conf = 1 - (1 - confidence) / max(cells, 1)
    lo = np.zeros_like(successes, dtype=np.float64)
    hi = np.ones_like(successes, dtype=np.float64)
    for idx in np.ndindex(successes.shape):
        if n[idx] > 0:
            e = stats.wilson(float(successes[idx]), float(n[idx]), conf)
            lo[idx], hi[idx] = e.lo, e.hi
    return lo, hi
