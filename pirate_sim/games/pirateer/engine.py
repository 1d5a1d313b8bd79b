"""Pirateer's way to the decision protocol's engine (``pirate_sim/engine_template.py``): the
engine module of ``protocol.py`` and a compiled table's arguments for it.  The plug-in
(``game.py``) and the test helpers (``testing.py``) call the engine through these.

May import ``state`` and ``protocol`` of this game, and ``pirate_sim.contract``.
"""

from __future__ import annotations

import numpy as np

from ..base import Compiled
from . import state as S

PROTOCOL = "pirate_sim.games.pirateer.protocol"  # the game on the decision protocol (bulk runs, traces)


def engine():
    """The decision protocol's engine of Pirateer (pirate_sim/contract.py: compiled once)."""
    from ...contract import engine as protocol_engine

    return protocol_engine(PROTOCOL)


def engine_tables(compiled: Compiled) -> tuple:
    """The engine's (T, codes, prm, rprm, rotate) of a compiled table (protocol.py documents T),
    built at each call (a test may change the table's codes): a search entry's row holds the
    engine's search slots and its prior's row, its rollout row the rollout strategy's default
    weights."""
    from ...contract import SEARCH, SEARCH_SLOTS
    from .protocol import SP_PRIOR

    a = compiled.arrays
    strat, sp = a[10], a[11]
    n = compiled.n_seats
    base = len(strat) - S.N_ROLLOUT_ROWS
    codes = strat[:n].astype(np.int64)
    prm = np.array(sp[:n], np.float64)
    rprm = np.zeros_like(prm)
    for e in range(n):
        if strat[e] == S.ST_SEARCH:
            w = sp[e]
            roll = int(w[S.SP_ROLLOUT])
            codes[e] = SEARCH
            prm[e] = 0.0
            # engine_template.SP_*: budget, top_k, reward, horizon, rollout code
            prm[e, :SEARCH_SLOTS] = (w[S.SP_BUDGET], w[S.SP_TOP_K], w[S.SP_REWARD], w[S.SP_HORIZON],
                                     strat[base + roll])
            prm[e, SP_PRIOR] = w[S.SP_PRIOR]
            rprm[e] = sp[base + roll]
    T = (*a[:10], np.ascontiguousarray(strat[base:]), np.ascontiguousarray(sp[base:]))
    return T, codes, prm, rprm, bool(compiled.params.rotate)
