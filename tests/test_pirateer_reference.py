"""The kernel's legal-play generator against the slow reference, over reachable positions.

A position is reached by playing the kernel from the start (random or scored players,
2-4 seats, 1-3 ships each) for a drawn number of turns, optionally handing the treasure
to a drawn ship; then for every one of the 36 rolls the kernel's plays and the
reference's plays must be the same set, with no duplicates.  The default suite checks a
few dozen positions; the slow test thousands.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pirate_sim.games.pirateer import GAME
from pirate_sim.games.pirateer import rules as R
from pirate_sim.games.pirateer.reference import legal_plays
from pirate_sim.games.pirateer.testing import kernel_plays, new_state, position, set_position, step

STRATS = ("random", "runner", "hunter", "cautious")
COVERED = {"positions": 0, "rolls": 0, "treasure_ship": 0, "single_die": 0, "straits": 0, "winning": 0}


def compile_game(n, ships, strategies, **rules):
    seats = [{"strategy": strategies[i % len(strategies)]} for i in range(n)]
    r = {p.key: p.default for p in GAME.params}
    r.update(ships_per_player=ships, **rules)
    return GAME.compile(r, seats)


def reach(data):
    n = data.draw(st.integers(2, 4), "seats")
    ships = data.draw(st.integers(1, 3), "ships")
    strategies = data.draw(st.lists(st.sampled_from(STRATS), min_size=1, max_size=4), "players")
    single = data.draw(st.sampled_from(("either", "larger")), "single_die")
    c = compile_game(n, ships, strategies, single_die=single)
    s, ev, rng = new_state(c, seed=data.draw(st.integers(0, 2**32), "seed"), game_index=0)
    for _ in range(data.draw(st.integers(0, 120), "turns")):
        step(c, s, ev, rng)
        if s[R.G_END] >= 0:
            break
    pos = position(c, s)
    if data.draw(st.booleans(), "scatter the ships"):
        scatter(data, c, pos)
        set_position(c, s, pos)
    alive = [i for i, sh in enumerate(pos.ships) if sh is not None]
    if pos.treasure < 0 and data.draw(st.booleans(), "hand the treasure to a ship"):
        pos.treasure = data.draw(st.sampled_from(alive), "holder")
        set_position(c, s, pos)
    seats = sorted({pos.ships[i][0] for i in alive})
    seat = data.draw(st.sampled_from(seats), "seat to move")
    return c, s, pos, seat, single


def scatter(data, c, pos):
    """Move every ship still afloat to a drawn square, half the time next to a strait or on a
    tradewind (where the generator is most likely to go wrong)."""
    board = c.extra["board"]
    geo = c.extra["geometry"]
    sea = board.squares(".sA1234~T")
    def near(chars, r):
        return [p for p in sea if any(board.at(p[0] + dx, p[1] + dy) in chars
                                      for dx in range(-r, r + 1) for dy in range(-r, r + 1))]

    pools = (sea, near("~", 1), near("T", 2), near("s", 1))
    used = set()
    for i, sh in enumerate(pos.ships):
        if sh is None:
            continue
        pool = data.draw(st.sampled_from(pools), "open sea / tradewinds / straits / Skull Island")
        sq = data.draw(st.sampled_from(pool), "square")
        if geo.node_of[sq] in used:
            sq = next(q for q in sea if geo.node_of[q] not in used)
        used.add(geo.node_of[sq])
        pos.ships[i] = (sh[0], sq)
    pos.treasure = -1 if pos.treasure < 0 or pos.ships[pos.treasure] is None else pos.treasure


def check_position(c, s, pos, seat, single):
    board = c.extra["board"]
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            got = kernel_plays(c, s, seat, d1, d2)
            want = legal_plays(board, pos, seat, d1, d2, single)
            assert len(got) == len(set(got)), "the generator lists a play twice"
            assert set(got) == want, (d1, d2, sorted(set(got) ^ want)[:5])
            COVERED["rolls"] += 1
            if any(len(p) == 1 for p in want):
                COVERED["single_die" if not any(len(p) == 2 for p in want) else "winning"] += 1
    COVERED["positions"] += 1
    if pos.treasure >= 0 and pos.ships[pos.treasure] is not None and pos.ships[pos.treasure][0] == seat:
        COVERED["treasure_ship"] += 1
    if any(sh is not None and any(board.at(sh[1][0] + dx, sh[1][1] + dy) == "T" for dx in (-1, 0, 1)
                                  for dy in (-1, 0, 1)) for sh in pos.ships):
        COVERED["straits"] += 1


def _run(examples):
    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(st.data())
    def one(data):
        check_position(*reach(data))

    one()


def test_generator_matches_reference():
    _run(40)
    assert COVERED["rolls"] >= 40 * 36
    print("covered:", COVERED)


@pytest.mark.slow
def test_generator_matches_reference_thousands():
    _run(2000)
    print("covered:", COVERED)
