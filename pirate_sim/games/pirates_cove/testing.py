"""Helpers to set up and inspect Pirate's Cove states by hand (tests, notebooks).

A state is the int32 vector of ``rules.py``; these helpers write its named words so a
test can set ships, face-up cards and black ships, script every seat's decisions and
the dice, then run the kernel's own round (``play_round``) and look at the result.
"""

from __future__ import annotations

import numpy as np

from ...rng import RNG_WORDS, new_rng
from ..base import Compiled
from . import rounds as RND
from . import rules as R
from .game import GAME
from .actions import WK_SIZE
from .policies import FS_SIZE, ST_SCRIPTED
from .ship import sb_nb
from .whole_game import setup_nb


def compile_game(n: int = 3, strategy: str = "treasure_hunter", **rules) -> Compiled:
    """Compile ``n`` seats of one strategy with rules overridden by keyword (dots as '__')."""
    seats = [{"strategy": strategy, **{p.key: p.default for p in GAME.strategy(strategy).params}}
             for _ in range(n)]
    return GAME.compile(GAME.full_rules({k.replace("__", "."): v for k, v in rules.items()}), seats)


def use_scripted(c: Compiled, seats) -> None:
    """Make these [[seats]] entries follow the state's script words (rules.SC_*)."""
    for s in seats:
        c.arrays[5][s] = ST_SCRIPTED


def new_state(c: Compiled, seed: int = 0, game_index: int = 0, dice: list[int] | None = None,
              events: int = 5000, scripted: bool = True):
    """(st, ev, rng) right after set-up of game ``game_index``; every seat scripted (no
    set-up spending) unless ``scripted`` is False; ``dice`` scripts the next dice."""
    tr, cards, ncards, tavern, legends, strat, sp = c.arrays
    if scripted:
        use_scripted(c, range(c.n_seats))
    st = np.zeros(R.STATE_WORDS, np.int32)
    ev = np.zeros((events, R.EVENT_WIDTH), np.int32)
    rng = new_rng(seed, game_index)
    setup_nb(st, ev, rng, c.params, tr, ncards, tavern, legends, strat, sp, game_index)
    if dice:
        rng = scripted_dice(rng, dice)
    return st, ev, rng


def scripted_dice(rng, dice: list[int]):
    """The same stream with ``dice`` as its next die rolls (then pseudo-random again)."""
    out = np.concatenate([rng[:RNG_WORDS].copy(), np.asarray(dice, np.uint64)])
    out[5] = len(dice)
    out[6] = 0
    return out


def seat_base(s: int) -> int:
    return int(sb_nb(s))


def seat(st, s: int, field: int) -> int:
    return int(st[seat_base(s) + field])


def set_ship(st, s: int, hull=None, sails=None, cannons=None, crew=None, gold=None, chests=None,
             fame=None) -> None:
    """Set a ship's sections and purse; gold and chests come from / go to the bank."""
    b = seat_base(s)
    for k, v in enumerate((hull, sails, cannons, crew)):
        if v is not None:
            st[b + R.S_SEC + k] = v
    if gold is not None:
        st[R.G_SUPPLY_GOLD] -= gold - st[b + R.S_GOLD]
        st[b + R.S_GOLD] = gold
    if chests is not None:
        st[R.G_SUPPLY_CHESTS] -= chests - st[b + R.S_CHESTS]
        st[b + R.S_CHESTS] = chests
    if fame is not None:
        st[b + R.S_FAME] = fame


def give_card(st, s: int, t: int, value: int = 0) -> None:
    """Move one card of type ``t`` from the Tavern deck into seat ``s``'s hand."""
    n = int(st[R.G_DECK_N])
    for i in range(n):
        code = int(st[R.G_TDECK + i])
        if code % 16 == t and (t != R.FAME or code // 16 == value):
            st[R.G_TDECK + i:R.G_TDECK + n - 1] = st[R.G_TDECK + i + 1:R.G_TDECK + n].copy()
            st[R.G_DECK_N] = n - 1
            b = seat_base(s)
            st[b + R.S_HAND + t] += 1
            if t == R.FAME:
                st[b + R.S_FAME_CARDS] += code // 16
                st[b + R.S_FAMEV + code // 16] += 1
            return
    raise ValueError(f"no card of type {t} left in the deck")


def empty_hands(st, n_seats: int) -> None:
    """Every held card goes back on top of the deck (a clean start for card tests)."""
    for s in range(n_seats):
        b = seat_base(s)
        for t in range(R.FAME):
            while st[b + R.S_HAND + t] > 0:
                st[b + R.S_HAND + t] -= 1
                st[R.G_TDECK + st[R.G_DECK_N]] = t
                st[R.G_DECK_N] += 1
        for v in range(R.MAX_FAME_VALUE + 1):  # Fame cards go back with their values
            while st[b + R.S_FAMEV + v] > 0:
                st[b + R.S_FAMEV + v] -= 1
                st[R.G_TDECK + st[R.G_DECK_N]] = R.FAME + 16 * v
                st[R.G_DECK_N] += 1
        st[b + R.S_HAND + R.FAME] = 0
        st[b + R.S_FAME_CARDS] = 0


def put_on_top(st, code: int) -> None:
    """Put the card ``code`` (from anywhere in the deck) on top of the draw pile."""
    n = int(st[R.G_DECK_N])
    deck = [int(x) for x in st[R.G_TDECK:R.G_TDECK + n]]
    deck.remove(code)
    deck.append(code)
    st[R.G_TDECK:R.G_TDECK + n] = deck


def script(st, s: int, islands=None, setup=None, upgrade=None, buys=None, flee=None, section=None,
           bury_gold=None, cove_card=None, play=None, ti_section=None) -> None:
    """Script seat ``s``'s decisions (islands: one per round from the current one)."""
    g = R.G_SCRIPT
    if islands is not None:
        r0 = int(st[R.G_ROUND])
        for j, i in enumerate(islands):
            st[g + R.SC_ISLANDS + s * R.MAX_ROUNDS + r0 + j] = i
    if setup is not None:
        st[g + R.SC_SETUP + s * 4:g + R.SC_SETUP + s * 4 + 4] = setup
    for slot, v in ((R.SC_UPGRADE, upgrade), (R.SC_BUYS, buys), (R.SC_FLEE, flee), (R.SC_SECTION, section),
                    (R.SC_BURY_GOLD, bury_gold), (R.SC_COVE_CARD, cove_card), (R.SC_PLAY, play),
                    (R.SC_TI_SECTION, None if ti_section is None else ti_section + 1)):
        if v is not None:
            st[g + slot + s] = v


def set_card(st, island: int, gold=0, chests=0, fame=0, tavern=0) -> None:
    """The face-up Treasure card of ``island`` (1..5)."""
    base = R.G_CARD + (island - 1) * 4
    st[base:base + 4] = (gold, chests, fame, tavern)
    st[R.G_CARD_LIVE + island - 1] = 1


def set_black(st, b: int, island: int) -> None:
    st[R.BLACK_BASE + b * R.B_WORDS + R.B_ISLAND] = island


def no_black(st) -> None:
    st[R.G_N_BLACK] = 0


def begin_round(c: Compiled, st, ev) -> None:
    tr, cards, ncards, tavern, legends, strat, sp = c.arrays
    RND.begin_round_nb(st, ev, c.params, cards, legends)


def rest_of_round(c: Compiled, st, ev, rng) -> None:
    tr, cards, ncards, tavern, legends, strat, sp = c.arrays
    RND.rest_of_round_nb(st, ev, rng, c.params, tr, legends, strat, sp, np.zeros(FS_SIZE),
                       np.zeros(WK_SIZE, np.int64))


def play_round(c: Compiled, st, ev, rng, cards: dict | None = None) -> None:
    """One round as a bulk run plays it; ``cards`` {island: (g, c, f, t)} replaces face-up cards."""
    begin_round(c, st, ev)
    for i, v in (cards or {}).items():
        set_card(st, i, *v)
    rest_of_round(c, st, ev, rng)


def finish(c: Compiled, st, ev, rng) -> None:
    tr, cards, ncards, tavern, legends, strat, sp = c.arrays
    RND.finish_nb(st, ev, rng, c.params, strat, sp, np.zeros(WK_SIZE, np.int64))


def gold_total(st, n_seats: int) -> int:
    """Gold in the bank, aboard and buried (must stay constant)."""
    return int(st[R.G_SUPPLY_GOLD] + st[R.G_BURIED_GOLD] + sum(seat(st, s, R.S_GOLD) for s in range(n_seats)))


def chests_total(st, n_seats: int) -> int:
    return int(st[R.G_SUPPLY_CHESTS] + st[R.G_BURIED_CHESTS]
               + sum(seat(st, s, R.S_CHESTS) for s in range(n_seats)))


def tavern_total(st, n_seats: int) -> int:
    """Tavern cards in the deck, the discards and every hand (must stay constant)."""
    return int(st[R.G_DECK_N] + st[R.G_DISC_N]
               + sum(seat(st, s, R.S_HAND + t) for s in range(n_seats) for t in range(R.N_CARD_TYPES)))


def events(st, ev) -> list[tuple[int, ...]]:
    return [tuple(int(x) for x in row) for row in ev[:st[R.G_EVENTS]]]


def kinds(st, ev) -> list[int]:
    return [e[2] for e in events(st, ev)]


# ------------------------------------------------------------------ the search (the protocol's engine)
def searched_decisions(c: Compiled, n: int, seed: int = 3):
    """(states int32[m, STATE_WORDS], rngs uint64[m, RNG_WORDS]): the first ``m <= n`` decisions
    the table's search seats searched (more than one option) in games 0, 1, ... of ``seed``, as
    the engine recorded them (engine_template.collect_nb: the bulk run's games)."""
    from ...contract import collect_engine

    eng = GAME.engine()
    rec = collect_engine(eng, GAME, c, GAME.engine_tables(c), GAME.engine_files(c), seed, n)
    m = int(rec[0, 0])
    rngs = rec[1:m + 1, eng.REC_RNG:eng.REC_RNG + RNG_WORDS].astype(np.uint64)
    return rec[1:m + 1, eng.REC_RNG + RNG_WORDS:].astype(np.int32), rngs


def search(c: Compiled, st, rng):
    """(option, rollout sums by option index) of the engine's search at state ``st`` (a pending
    decision of a search seat) with the game's stream ``rng``; neither is changed."""
    from .protocol import MAX_OPTIONS, options_nb, thread_tables_nb

    eng = GAME.engine()
    T, codes, prm, rprm, rotate = GAME.engine_tables(c)
    TT = thread_tables_nb(c.params, T)
    fi, urows, calls, _ = GAME.engine_files(c)
    s = int(st[R.G_DEC_SEAT])
    e = int(st[sb_nb(s) + R.S_ENTRY])
    opts = np.zeros(MAX_OPTIONS, np.int64)
    n = options_nb(st, c.params, TT, opts)
    scr = eng.new_scratch_nb(c.params)
    err = np.zeros(4, np.int64)
    i = eng.search_nb(st, rng, c.params, TT, prm[e], rprm[e], s, opts, n, 0, scr, fi[c.n_seats + e],
                      urows[c.n_seats + e], calls, err)
    assert err[0] == 0, err
    return int(opts[i]), scr[6][:n].copy()
