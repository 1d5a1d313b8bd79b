"""Pirate's Cove: a strategy file's island choice (pirate_sim.user_strategy; docs/strategies.md).

The one call of a user function every kernel with strategy files makes: the real game's
(user_kernel.py) and the rollouts of a search that rolls out a strategy file or a learned
player (search_player.rollout_nb).  A kernel without strategy files passes None for their
arguments, and numba prunes every branch that could call one.  User functions are called by address
(pirate_sim/user_abi.py).

May import ``rules`` and ``user_view`` of this game, pirate_sim.rng, pirate_sim.search and
pirate_sim.user_abi; search_player.py and user_kernel.py import it.
"""

from __future__ import annotations

from numba import njit

from ...search import derive_stream_nb
from ...user_abi import call_user_nb
from .rules import G_ROUND, MAX_SEATS
from .user_view import USER_STREAM, fill_view_nb

MAX_OPTIONS = 16  # search_player.MAX_OPT: the options of one decision (a user scratch holds twice this)
ROLLOUT_ERR = 1 << 20  # pirate_sim.user_strategy.ROLLOUT_ERR: err[0] above it, the answer came in a rollout


@njit(cache=True)
def user_island_nb(st, rng, P, s, f, params, calls, view, opts, n, urng):
    """User function ``f``'s answer (an index, unchecked) to seat ``s``'s island choice among
    ``opts[:n]``: from a fresh view, its own copy of the options (``opts[n:2n]``), its
    parameter row and a private stream derived from ``rng`` (not advanced), one per round
    and seat, so two seats choosing in a row get different streams."""
    fill_view_nb(st, P, s, view)
    derive_stream_nb(urng, rng, st[G_ROUND] * MAX_SEATS + s, USER_STREAM)
    for i in range(n):
        opts[n + i] = opts[i]
    return call_user_nb(calls, f, view, opts[n:2 * n], params, urng)
