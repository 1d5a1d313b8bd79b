"""Ice Pirates' way to the decision protocol's engine (``pirate_sim/engine_template.py``): the
engine module of ``protocol.py`` and a compiled table's arguments for it.  The plug-in
(``game.py``), the tests and the scripts call the engine through these.

May import ``state`` and ``protocol`` of this game, and ``pirate_sim.contract``.
"""

from __future__ import annotations

import numpy as np

from ..base import Compiled

PROTOCOL = "pirate_sim.games.ice_pirates.protocol"  # the game on the decision protocol


def engine():
    """The decision protocol's engine of Ice Pirates (pirate_sim/contract.py: compiled once)."""
    from ...contract import engine as protocol_engine

    return protocol_engine(PROTOCOL)


def engine_tables(compiled: Compiled) -> tuple:
    """The engine's (T, codes, prm, rprm, rotate) of a compiled table (protocol.py documents T),
    built at each call (a test may change the table's codes).  An entry is asked (SP_SEARCH set
    in its row) where it searches or plays a strategy file; a search entry's rollout row is its
    rollout strategy's default row, asked where the search rolls out a file.  A search entry's
    engine row: budget, top_k, reward, horizon and its rollout's code."""
    from ...contract import SEARCH, SEARCH_SLOTS
    from .state import SP_BUDGET, SP_HORIZON, SP_REWARD, SP_ROLLOUT, SP_SEARCH, SP_TOP_K

    geo, rel, cum_w, costs, deck, port_upg, strat, sp = compiled.arrays
    n = compiled.n_seats
    x = compiled.extra.get("user")
    fi = np.asarray(x["fi"]) if x is not None else np.full(2 * n, -1)
    sp2 = np.array(sp, np.float64)
    rstrat = np.zeros(n, np.int32)
    rsp = np.zeros((n, sp.shape[1]), np.float64)
    codes = strat[:n].astype(np.int64)
    prm = np.zeros((n, SEARCH_SLOTS))
    for e in range(n):
        if fi[e] >= 0:
            sp2[e, SP_SEARCH] = 1.0
        elif sp[e, SP_SEARCH] > 0:
            rc = n + int(sp[e, SP_ROLLOUT])
            codes[e] = SEARCH
            prm[e] = (sp[e, SP_BUDGET], sp[e, SP_TOP_K], sp[e, SP_REWARD], sp[e, SP_HORIZON], strat[rc])
            rstrat[e] = strat[rc]
            rsp[e] = sp[rc]
            rsp[e, SP_SEARCH] = 1.0 if fi[n + e] >= 0 else 0.0
    T = tuple(np.array(a) for a in (geo, rel, cum_w, costs, deck, port_upg)) + (
        np.array(strat, np.int32), sp2, rstrat, rsp)
    return T, codes, prm, np.zeros_like(prm), bool(compiled.params.rotate_seats)
