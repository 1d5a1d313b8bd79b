"""Pirate's Cove states at a seat's island choice, driven from Python, and the scramble of
everything that seat cannot know: what the strategy-file and learned-player tests share
(tests/ is on sys.path; a test module cannot import another under --import-mode=importlib)."""

from __future__ import annotations

import numpy as np


def island_states(c, seat: int, n_games: int = 3, seed: int = 17) -> list[np.ndarray]:
    """States at ``seat``'s island choices (its entry pauses the rules, as the engine's tables
    mark a strategy file's: engine.engine_tables), driven from Python; its other decisions take
    option 0 (no Treasure Island upgrade)."""
    from pirate_sim.games.pirates_cove import rounds as K
    from pirate_sim.games.pirates_cove.engine import engine_tables
    from pirate_sim.games.pirates_cove.actions import WK_SIZE
    from pirate_sim.games.pirates_cove.whole_game import setup_nb
    from pirate_sim.games.pirates_cove import rules as R
    from pirate_sim.games.pirates_cove.policies import FS_SIZE
    from pirate_sim.rng import new_rng

    tr, cards, ncards, tavern, legends, strat, sp = engine_tables(c)[0][:7]
    P = c.params
    out = []
    for game in range(n_games):
        st = np.zeros(R.STATE_WORDS, np.int32)
        ev = np.zeros((0, 6), np.int32)
        rng = new_rng(seed, game)
        fs = np.zeros(FS_SIZE)
        wk = np.zeros(WK_SIZE, np.int64)
        setup_nb(st, ev, rng, P, tr, ncards, tavern, legends, strat, sp, game)
        while K.advance_nb(st, ev, rng, P, tr, cards, legends, strat, sp, fs, wk, P.rounds + 1) != R.DEC_NONE:
            assert st[R.G_DEC_SEAT] == seat
            if st[R.G_DEC] == R.DEC_ISLAND:
                out.append(st.copy())
                st[R.G_FORCED] = 1 + (st[R.G_ROUND] + game) % 6 + R.FORCED_BIAS
            else:
                st[R.G_FORCED] = (-1 if st[R.G_DEC] == R.DEC_TI else 0) + R.FORCED_BIAS
    return out


def scramble(st: np.ndarray, s: int, n: int, g) -> np.ndarray:
    """Every word seat ``s`` cannot know, changed: the others' secret islands of the round,
    their hands by type (same counts, Parrots kept) and Fame cards' values, the Tavern pile's
    order and the Treasure stacks', and the bookkeeping (events, search counters, scripts,
    the fight scratch, the entries playing the other seats)."""
    from pirate_sim.games.pirates_cove import rules as R
    from pirate_sim.games.pirates_cove.ship import sb_nb

    st = st.copy()
    for o in range(n):
        if o == s:
            continue
        b = int(sb_nb(o))
        held = int(st[b + R.S_HAND + R.MASTERCRAFT:b + R.S_HAND + R.FAME + 1].sum())
        st[b + R.S_HAND + R.MASTERCRAFT:b + R.S_HAND + R.FAME + 1] = 0
        st[b + R.S_HAND + R.FAME] = held  # all Fame cards now, of value 3
        st[b + R.S_FAMEV:b + R.S_FAMEV + R.MAX_FAME_VALUE + 1] = 0
        st[b + R.S_FAMEV + 3] = held
        st[b + R.S_FAME_CARDS] = 3 * held
        st[b + R.S_ENTRY] = 7
        st[R.G_PEND + o] = g.integers(1, 7)
    nd = int(st[R.G_DECK_N])
    st[R.G_TDECK:R.G_TDECK + nd] = g.permutation(st[R.G_TDECK:R.G_TDECK + nd]) + 1
    r = int(st[R.G_ROUND])
    for i in range(R.N_CARD_ISLANDS):
        lo, hi = R.G_TPERM + i * R.MAX_TREASURE + r + 1, R.G_TPERM + (i + 1) * R.MAX_TREASURE
        st[lo:hi] = st[lo:hi][::-1]
    for w in (R.G_EVENTS, R.G_DECISIONS, R.G_GAME, R.G_FORCED, R.G_SUB):
        st[w] = 1234
    st[R.G_SCRIPT:R.G_SCRIPT + R.SC_WORDS] = 5
    st[R.G_FIGHT:R.G_FIGHT + R.F_WORDS] = 3
    return st
