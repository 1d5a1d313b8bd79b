"""Helpers to set up and inspect Ice Pirates states by hand (tests, notebooks).

A state is the int32 vector of ``rules.py``; these helpers write its named words so a
test can place ships, lay face-up cards, force the wind and script a seat's moves, then
run the kernel's own turn (``step``) and look at the result.
"""

from __future__ import annotations

import numpy as np

from ...rng import new_rng
from ..base import Compiled
from . import board as KB
from . import play as KG
from . import state as KS
from . import rules as R

DIR = {n: i for i, n in enumerate(R.DIR_NAMES)}


def seat_base(s: int) -> int:
    return R.SEATS_BASE + s * R.SEAT_WORDS


def new_state(c: Compiled, seed: int = 0, game_index: int = 0, dice: list[int] | None = None,
              events: int = 10_000):
    """(st, ev, rng) right after setup of game ``game_index``; ``dice`` scripts later dice."""
    geo, rel, cum_w, costs, deck, port_upg, strat, sp = c.arrays
    st = np.zeros(R.STATE_WORDS, np.int32)
    ev = np.zeros((events, R.EVENT_WIDTH), np.int32)
    rng = new_rng(seed, game_index)
    perm = np.zeros(R.N_BAY, np.int64)
    KG.setup_nb(st, ev, rng, c.params, geo, cum_w, deck, port_upg, perm, game_index)
    if dice:
        rng = np.concatenate([rng, np.asarray(dice, np.uint64)])
        rng[5] = len(dice)
        rng[6] = 0
    return st, ev, rng


def use_scripted(c: Compiled, seats: list[int]) -> None:
    """Make ``seats`` follow the state's direction script (strategy code ST_SCRIPTED)."""
    for s in seats:
        c.arrays[6][s] = KS.ST_SCRIPTED


def step(c: Compiled, st, ev, rng) -> None:
    """Play one turn exactly as a bulk run does (play.turn_nb: the run's own cached play_on_nb, one turn)."""
    geo, rel, cum_w, costs, deck, port_upg, strat, sp = c.arrays
    fs = np.zeros(KS.FS_SIZE, np.int64)
    KB.refresh_all_nb(st, geo)  # cards laid by hand: passage masks follow
    KG.turn_nb(st, ev, rng, c.params, geo, rel, cum_w, costs, strat, sp, fs)


def script(st, dirs: list, fight: int = 1, upgrade: int = 1, raid: int = -1, swash_reserve: int = 100,
           telescope: int = 0) -> None:
    """Queue directions ('N'.. or index; 'stop' = -1, 'abandon' = -2) and fix the decisions."""
    codes = [(-1 if d == "stop" else -2 if d == "abandon" else DIR[d] if isinstance(d, str) else d)
             for d in dirs]
    st[R.G_DIR_SCR_LEN] = len(codes)
    st[R.G_DIR_SCR_POS] = 0
    st[R.G_DIR_SCR:R.G_DIR_SCR + len(codes)] = codes
    st[R.G_SCR_FIGHT] = fight
    st[R.G_SCR_UPGRADE] = upgrade
    st[R.G_SCR_RAID] = raid
    st[R.G_SCR_SWASH] = swash_reserve
    st[R.G_SCR_TELESCOPE] = telescope


def set_wind(st, port: int) -> None:
    """The wind now blows from Port ``port`` (1..6)."""
    st[R.G_WIND] = port - 1


def force_winds(st, ports: list[int]) -> None:
    """The next wind rolls give these Ports (1..6), then the weighted draw resumes."""
    st[R.G_WIND_SCR_LEN] = len(ports)
    st[R.G_WIND_SCR_POS] = 0
    st[R.G_WIND_SCR:R.G_WIND_SCR + len(ports)] = [p - 1 for p in ports]


def lay(st, cell: int, card: int = R.OPEN, blocked: tuple[str, ...] = (), colour: int = -1,
        face_up: bool = True) -> None:
    """Put a given Bay card at ``cell`` (face up unless told otherwise)."""
    st[R.C_CARD + cell] = card
    st[R.C_MASK + cell] = sum(1 << DIR[d] for d in blocked)
    st[R.C_COLOUR + cell] = colour
    st[R.C_WRECK + cell] = -1 if card == R.WRECK else -2
    st[R.C_REVEALED + cell] = 1 if face_up else 0
    st[R.C_WALLED + cell] = 0


def clear_bay(st, face_up: bool = True) -> None:
    """Every Bay card becomes clear open sea (a blank board for hand-made situations)."""
    for cell in range(R.N_CELLS):
        if st[R.C_CARD + cell] not in (R.BELL, R.PORT):
            lay(st, cell, R.OPEN, face_up=face_up)


def place(st, seat: int, cell: int, crew: int | None = None, upgrades: tuple[str, ...] | None = None,
          maps: int | None = None) -> None:
    b = seat_base(seat)
    st[b + R.S_POS] = cell
    if crew is not None:
        # keep the chips conserved: the difference comes from / goes to the box
        st[R.G_UNUSED] -= crew - st[b + R.S_CREW]
        st[b + R.S_CREW] = crew
    if upgrades is not None:
        st[b + R.S_UPG] = sum(1 << R.UPGRADE_NAMES.index(u) for u in upgrades)
    if maps is not None:
        for col in range(3):
            st[R.G_MAPS_LEFT + col] += ((st[b + R.S_MAPS] >> col) & 1) - ((maps >> col) & 1)
        st[b + R.S_MAPS] = maps


def seat(st, s: int, field: int) -> int:
    return int(st[seat_base(s) + field])


def pos(st, s: int) -> int:
    return seat(st, s, R.S_POS)


def crew_chips(st, n_seats: int) -> int:
    """Chips on ships, on Bell Island, beside the board and in the box (must stay constant)."""
    return int(sum(st[seat_base(s) + R.S_CREW] for s in range(n_seats)) + st[R.G_BELL_POOL]
               + st[R.G_SUPPLY] + st[R.G_UNUSED])


def legal_dirs(c: Compiled, st, s: int, k: int = 0, start: int | None = None, esc_ok: bool = False) -> set[str]:
    geo, rel = c.arrays[0], c.arrays[1]
    p = pos(st, s)
    KB.refresh_all_nb(st, geo)
    mask = KB.legal_mask_nb(st, c.params, geo, rel, s, p, k, p if start is None else start, esc_ok)
    return {R.DIR_NAMES[d] for d in range(6) if (mask >> d) & 1}


def events(st, ev) -> list[tuple[int, ...]]:
    return [tuple(int(x) for x in row) for row in ev[:st[R.G_EVENTS]]]


def kinds(st, ev) -> list[int]:
    return [e[2] for e in events(st, ev)]


def pause_for_search(c: Compiled, st, rng, fs=None, nf: int = 0):
    """Play the turn of the seat to move (a ``search`` seat) up to its searched choice number
    ``nf`` (the first ``nf`` forced from st[T_FORCED:]), as the protocol's replay does:
    returns (truth, st0, rng0): the paused state, the turn's start and the game's stream
    there; truth[T_PEND] == 0 if the turn had no such choice to search."""
    geo, rel, cum_w, costs, deck, port_upg, strat, sp = c.arrays
    st0, rng0 = st.copy(), rng.copy()
    truth = st.copy()
    truth[R.T_FSEAT] = truth[R.G_SEAT]
    truth[R.T_NF] = nf
    truth[R.T_FPOS] = 0
    truth[R.T_PAUSE] = 1
    truth[R.T_PEND] = 0
    fs = np.zeros(KS.FS_SIZE, np.int64) if fs is None else fs
    fs[KS.FS_KEY_TURN] = -1
    ev = np.zeros((0, R.EVENT_WIDTH), np.int32)
    KG.turn_nb(truth, ev, rng.copy(), c.params, geo, rel, cum_w, costs, strat, sp, fs)
    return truth, st0, rng0


def protocol_state(truth, st0, nf: int = 0):
    """The decision protocol's state (protocol.py) of the pause in ``truth``: the turn began in
    ``st0`` (its T_FORCED words the choices before), this is its choice number ``nf``."""
    from .protocol import PROTO_WORDS, STEP_PAUSED, W, X_NF, X_START, X_STEP

    st = np.zeros(PROTO_WORDS, np.int32)
    st[:W] = truth
    st[X_START:X_START + W] = st0
    st[X_NF] = nf
    st[X_STEP] = STEP_PAUSED
    return st


def _engine_args(c: Compiled):
    """(engine, its thread's tables, codes, prm, rprm, rotate, (fi, urows, calls)) of a table."""
    from .game import GAME

    T, codes, prm, rprm, rotate = GAME.engine_tables(c)
    fi, urows, calls, _ = GAME.engine_files(c)
    eng = GAME.engine()
    return eng, eng.G.thread_tables_nb(c.params, T), codes, prm, rprm, rotate, (fi, urows, calls)


def search_choice(c: Compiled, truth, st0, rng0, nf: int = 0, sums_out=None) -> tuple[int, int]:
    """(option chosen, rollouts played) by the engine's search (engine_template.search_nb) at
    the pause in ``truth`` (the turn's searched choice number ``nf``, its start ``st0``, the
    game's stream ``rng0`` at that start); ``sums_out`` receives each option's reward sum."""
    eng, TT, codes, prm, rprm, rotate, (fi, urows, calls) = _engine_args(c)
    G = eng.G
    st = protocol_state(truth, st0, nf)
    s = int(truth[R.G_SEAT])
    e = int(truth[R.G_ENTRY + s])
    opts = np.zeros(G.MAX_OPTIONS, np.int64)
    n = G.options_nb(st, c.params, TT, opts)
    if sums_out is not None:
        sums_out[:] = 0.0
    if n == 1:
        return int(opts[0]), 0
    scr = eng.new_scratch_nb(c.params)
    err = np.zeros(4, np.int64)
    i = eng.search_nb(st, rng0.copy(), c.params, TT, prm[e], rprm[e], s, opts, n, 0, scr, fi[c.n_seats + e],
                      urows[c.n_seats + e], calls, err)
    assert err[0] == 0, err
    if sums_out is not None:
        sums_out[:n] = scr[6][:n]
    return int(opts[i]), int(scr[9][eng.CNT_ROLLOUTS])


def play_through_protocol(c: Compiled, seed: int, game_index: int):
    """(final state, out_games row, out_seats rows) of one game driven from Python through the
    protocol's functions one decision at a time (a ``search`` seat's choices by the engine's
    search_nb): an independent driver of the engine's game loop, which must play the same game."""
    from .game import GAME

    eng, TT, codes, prm, rprm, rotate, (fi, urows, calls) = _engine_args(c)
    G, P, n_seats = eng.G, c.params, c.n_seats
    st = G.new_state_nb(P)
    rng = new_rng(seed, game_index)
    ev = np.zeros((0, R.EVENT_WIDTH), np.int32)
    opts = np.zeros(G.MAX_OPTIONS, np.int64)
    scr = eng.new_scratch_nb(P)
    err = np.zeros(4, np.int64)
    G.setup_nb(st, ev, rng, P, TT, game_index)
    decision = 0
    while (s := G.next_decision_nb(st, ev, rng, P, TT)) >= 0:
        n = G.options_nb(st, P, TT, opts)
        e = int(st[R.G_ENTRY + s])
        i = 0
        if n > 1 and codes[e] == eng.SEARCH:
            i = eng.search_nb(st, rng, P, TT, prm[e], rprm[e], s, opts, n, decision, scr, fi[n_seats + e],
                              urows[n_seats + e], calls, err)
        assert fi[e] < 0 and err[0] == 0  # (no strategy files here)
        decision += 1
        G.apply_nb(st, ev, rng, P, TT, opts[i])
    out_g, out_s = GAME.one_game_outputs(n_seats)
    G.outputs_nb(st, rng, P, TT, out_g, out_s)
    return st, out_g, out_s


def scramble_hidden(c: Compiled, states, rng: np.random.Generator) -> int:
    """Re-deal, identically in every state of ``states``, the Bay cards face down in the
    first: a permutation of them among those cells and new iceberg sides (as many as before,
    the shape rule kept).  Everything a seat could know stays; returns the cells touched."""
    geo = c.arrays[0]
    first = states[0]
    cells = [x for x in range(R.N_CELLS) if geo[x, 7] == 1 and first[R.C_REVEALED + x] == 0]
    order = rng.permutation(len(cells))
    cards = [(int(first[R.C_CARD + x]), int(first[R.C_COLOUR + x]), bin(int(first[R.C_MASK + x])).count("1"))
             for x in cells]
    masks = []
    for _card, _col, sides in (cards[i] for i in order):
        a = int(rng.integers(6))
        masks.append(0 if sides == 0 else (1 << a) if sides == 1 else (1 << a) | (1 << ((a + 1) % 6)))
    for st in states:
        for x, (card, col, _sides), m in zip(cells, (cards[i] for i in order), masks):
            st[R.C_CARD + x] = card
            st[R.C_COLOUR + x] = col
            st[R.C_MASK + x] = m
            st[R.C_WRECK + x] = -1 if card == R.WRECK else -2
        KB.refresh_all_nb(st, geo)
    return len(cells)
