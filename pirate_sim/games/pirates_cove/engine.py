"""Pirate's Cove's way to the decision protocol's engine (``pirate_sim/engine_template.py``): the
engine module of ``protocol.py`` and a compiled table's arguments for it.  The plug-in
(``game.py``) and the scripts that count rollouts call the engine through these.

May import ``policies`` and ``protocol`` of this game, and ``pirate_sim.contract``.
"""

from __future__ import annotations

import numpy as np

from ..base import Compiled

PROTOCOL = "pirate_sim.games.pirates_cove.protocol"  # the game on the decision protocol


def engine():
    """The decision protocol's engine of Pirate's Cove (pirate_sim/contract.py: compiled once)."""
    from ...contract import engine as protocol_engine

    return protocol_engine(PROTOCOL)


def engine_tables(compiled: Compiled) -> tuple:
    """The engine's (T, codes, prm, rprm, rotate) of a compiled table (protocol.py documents T),
    built at each call (a test may change the table's codes).  Entry rows 0..n-1 pause where the
    entry is asked (SP_SEARCH: a search entry, or a strategy file's); rollout rows n..2n-1 are
    the same rows, pausing only where the search rolls out a file (its island choices).  A search
    entry's engine row: budget, top_k, reward, horizon and its rollout code."""
    from ...contract import SEARCH, SEARCH_SLOTS
    from .policies import SP_BUDGET, SP_HORIZON, SP_REWARD, SP_SEARCH, SP_TOP_K
    from .protocol import K_FILE, K_SEARCH

    tr, cards, ncards, tavern, legends, strat, sp = compiled.arrays
    n = compiled.n_seats
    x = compiled.extra.get("user")
    fi = np.asarray(x["fi"]) if x is not None else np.full(2 * n, -1)
    strat2 = np.concatenate([strat[:n], strat[:n]]).astype(np.int32)
    sp2 = np.concatenate([sp[:n], sp[:n]]).astype(np.float64)
    kind = np.zeros(n, np.int32)
    codes = strat[:n].astype(np.int64)
    prm = np.zeros((n, SEARCH_SLOTS))
    for e in range(n):
        if fi[e] >= 0:
            kind[e] = K_FILE
            sp2[e, SP_SEARCH] = 1.0
        elif sp[e, SP_SEARCH] >= 0.5:
            kind[e] = K_SEARCH
            codes[e] = SEARCH
            prm[e] = (sp[e, SP_BUDGET], sp[e, SP_TOP_K], sp[e, SP_REWARD], sp[e, SP_HORIZON], strat[e])
        sp2[n + e, SP_SEARCH] = 1.0 if fi[n + e] >= 0 else 0.0
    T = tuple(np.array(a) for a in (tr, cards, ncards, tavern, legends)) + (strat2, sp2, kind)
    return T, codes, prm, np.zeros_like(prm), bool(compiled.params.rotate)
