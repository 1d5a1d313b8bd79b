"""Pirate's Peak kernels, part 5: what the search player (strategy "search", docs/search.md) knows
of the game: the re-deal of what no seat has seen, the rollouts' seat rows, the reward and the
prior.  The search itself (rollouts, sequential halving, common random numbers) is the engine's
(``pirate_sim/engine_template.py``), through ``protocol.py``.

Arguments ``sd`` (static table), ``rng`` (the game's stream) and ``w`` (work array), the
``_nrt=False`` and the plain-Python run: see kernel.py's docstring.

May import ``rules``, ``strategies``, ``board``, ``mechanics``, ``sea`` and ``turn`` (and
``pirate_sim/search.py``).
"""

from __future__ import annotations

from numba import njit

from ...rng import rand_below_nb
from ...search import REWARD_MARGIN
from .rules import (ACT_FIRE, ACT_SEARCH, G_DECK_PTR, G_OVER, G_PEAK_MASK, G_PEAK_X, G_PEND_CODE, G_WINNER,
                    N_SCRIPTED, PEND_DECLARE, PEND_STOP, ROW_DECK, ROW_SHIP, ROW_ST, RU_N_JOURNEY, SD_CODES, SD_RULES,
                    SD_SP, SH_GOLD, SP_ROLLOUT)
from .strategies import policy_declare_nb, policy_stop_early_nb, policy_treasure_nb
from .turn import threat_nb


# ================================================================ the search player's knowledge
# At a searching seat's declaration, stop-early question or Peak treasure pick the game waits
# (G_PEND, the move's progress in G_MV_*; protocol.py), the engine runs rollouts from copies of
# the work array with the unflipped Sea cards re-shuffled (resample_nb), and the game goes on
# with the option of the best mean reward.

# The rollout index of the prior's own stream (a random rollout strategy's choice): no
# rollout index reaches it (budgets stop at 2**20 rollouts per decision).
PRIOR_STREAM = 0x7FFFFFFF
# reward "margin": the win (1 / 0.5 / 0) plus this share of the gold lead over the total
# gold, (lead / (total + 1)): at most 0.1, a tie-breaker between options that win as often
MARGIN_WEIGHT = 0.1


@njit(cache=True, _nrt=False)
def resample_nb(sd, rng, w):
    """Re-deal what no seat has seen, the order of the unflipped Sea cards: sorted, then
    shuffled on ``rng`` (so the result depends on which cards are left, not their order).
    Nothing once the Peak is laid (no card is flipped after it)."""
    if w[ROW_ST, G_PEAK_X] >= 0:
        return
    n_deck = sd[SD_RULES, RU_N_JOURNEY] + 1
    lo = w[ROW_ST, G_DECK_PTR]
    for i in range(lo + 1, n_deck):
        v = w[ROW_DECK, i]
        j = i - 1
        while j >= lo and w[ROW_DECK, j] > v:
            w[ROW_DECK, j + 1] = w[ROW_DECK, j]
            j -= 1
        w[ROW_DECK, j + 1] = v
    for i in range(n_deck - 1, lo, -1):
        j = lo + rand_below_nb(rng, i - lo + 1)
        tmp = w[ROW_DECK, i]
        w[ROW_DECK, i] = w[ROW_DECK, j]
        w[ROW_DECK, j] = tmp


@njit(cache=True, _nrt=False)
def rollout_table_nb(sd, sd_roll, s):
    """Fill the seat rows of ``sd_roll`` (otherwise a copy of ``sd``) with seat s's rollout
    strategy at its default parameters, for both seats."""
    code = sd[SD_SP + s, SP_ROLLOUT]
    row = sd.shape[0] - N_SCRIPTED + code
    for seat in range(2):
        sd_roll[SD_CODES, seat] = code
        for i in range(sd.shape[1]):
            sd_roll[SD_SP + seat, i] = sd[row, i]


@njit(cache=True, _nrt=False)
def reward_nb(w, s, kind):
    """What the position is worth to seat s: 1 win, 0.5 tie or truncated, 0 loss (a game
    stopped at the horizon: by gold); ``kind`` REWARD_MARGIN adds MARGIN_WEIGHT x the gold
    lead / (total gold + 1).  With two seats the reward "rank" equals "win"."""
    gs = w[ROW_SHIP + s, SH_GOLD]
    go = w[ROW_SHIP + 1 - s, SH_GOLD]
    if w[ROW_ST, G_OVER] != 0:
        win = w[ROW_ST, G_WINNER]
        v = 1.0 if win == s else (0.0 if win == 1 - s else 0.5)
    else:
        v = 1.0 if gs > go else (0.0 if gs < go else 0.5)
    if kind == REWARD_MARGIN:
        v += MARGIN_WEIGHT * (gs - go) / (gs + go + 1.0)
    return v


@njit(cache=True, _nrt=False)
def prior_nb(sd_roll, rng, w, s, kind, n, opts):
    """The index in ``opts`` of the rollout strategy's own choice (0 if it is not there)."""
    c = 0
    if kind == PEND_DECLARE:
        can_search = 0
        can_fire = 0
        for i in range(n):
            if opts[i] == ACT_SEARCH:
                can_search = 1
            elif opts[i] == ACT_FIRE:
                can_fire = 1
        c = policy_declare_nb(sd_roll, rng, w, s, can_search, can_fire,
                              threat_nb(sd_roll, w, s, can_search))
    elif kind == PEND_STOP:
        c = 1 if policy_stop_early_nb(sd_roll, rng, w, s, w[ROW_ST, G_PEND_CODE]) else 0
    else:
        c = policy_treasure_nb(sd_roll, rng, w, s, w[ROW_ST, G_PEAK_MASK])
    for i in range(n):
        if opts[i] == c:
            return i
    return 0


