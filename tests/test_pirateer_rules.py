"""Hand-played Pirateer situations: scripted dice, scripted plays, exact outcomes.

Coordinates are (x, y) on the bundled board (docs/rules/pirateer.md has the drawing).
Two players sit at harbor 1 (seat 0, home -x, anchor (0,9)) and harbor 3 (seat 1, home
+x, anchor (19,10)); ships 0-2 are seat 0's, 3-5 seat 1's.
"""

import random

import numpy as np
import pytest

from pirate_sim.games.pirateer import GAME
from pirate_sim.games.pirateer import state as KS
from pirate_sim.games.pirateer import rules as R
from pirate_sim.games.pirateer.reference import Position, legal_plays
from pirate_sim.games.pirateer.whole_game import setup_nb
from pirate_sim.games.pirateer.testing import (events, kernel_plays, new_state, position, script, set_position,
                                               step, use_scripted)
from pirate_sim.rng import new_rng, script_remaining

E, W, S, N, NE, SW = (1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)
FAR = (17, 5)  # an open-sea square far from everything below


def compile_game(n=2, strategy="runner", **rules):
    seats = [{"strategy": strategy} for _ in range(n)]
    r = {p.key: p.default for p in GAME.params}
    r.update(rules)
    return GAME.compile(r, seats)


def setup(ships: dict, treasure=-1, dice=None, n=2, seat=0, **rules):
    """Scripted seats; only the ships named in ``ships`` (index -> square) afloat."""
    c = compile_game(n, **rules)
    use_scripted(c, range(n))
    st, ev, rng = new_state(c, dice=dice)
    sps = c.params.ships_per_seat
    pos = Position([None] * (n * sps), treasure, tuple(c.extra["harbors"]))
    for i, sq in ships.items():
        pos.ships[i] = (i // sps, sq)
    set_position(c, st, pos)
    st[R.G_SEAT] = seat
    st[R.G_EVENTS] = 0
    return c, st, ev, rng


def firsts(plays):
    return {p[0][:3] for p in plays}


def node(c, sq):
    return c.extra["geometry"].node_of[sq]


def where(c, st, ship):
    return position(c, st).ships[ship]


def seat_word(st, s, w):
    return int(st[R.SEATS_BASE + s * R.SEAT_WORDS + w])


# ------------------------------------------------------------------ setup
def test_setup_ships_next_to_the_anchor_and_treasure_on_skull_island():
    c = compile_game(4)
    st, _ev, _rng = new_state(c)
    pos = position(c, st)
    assert [sh[1] for sh in pos.ships[:3]] == [(0, 10), (0, 11), (0, 12)]
    assert [sh[1] for sh in pos.ships[3:6]] == [(10, 0), (11, 0), (12, 0)]
    assert pos.treasure == -1 and st[R.G_END] == -1


def test_two_ships_each_start_nearest_the_anchor():
    c = compile_game(2, ships_per_player=2)
    pos = position(c, new_state(c)[0])
    assert [sh[1] for sh in pos.ships] == [(0, 10), (0, 11), (19, 9), (19, 8)]


def test_first_player_is_the_highest_of_two_dice_ties_reroll():
    c = compile_game(4)
    a = c.arrays
    # seats roll 6, 12, 12, 2; seats 1 and 2 re-roll 4 and 6: seat 2 starts
    rng = new_rng(0, 0, [3, 3, 6, 6, 6, 6, 1, 1, 2, 2, 5, 1])
    st = np.zeros(c.params.state_words, np.int32)
    ev = np.zeros((10, 6), np.int32)
    setup_nb(st, ev, rng, c.params, a[7], a[8], a[9], 0)
    assert st[R.G_SEAT] == 2 and st[R.G_FIRST_SEAT] == 2 and script_remaining(rng) == 0
    assert st[R.G_DICE] == 12


def test_first_player_rotate_and_turn_order_clockwise():
    c = compile_game(3, first_player="rotate")
    for k in range(3):
        st, ev, rng = new_state(c, game_index=k)
        assert st[R.G_SEAT] == k % 3
    c = compile_game(3, strategy="random")
    st, ev, rng = new_state(c)
    first = int(st[R.G_SEAT])
    step(c, st, ev, rng)
    assert st[R.G_SEAT] == (first + 1) % 3


# ------------------------------------------------------------------ open sea
def test_open_sea_moves_run_with_the_lines_never_diagonally():
    c, st, _ev, _rng = setup({0: (5, 13), 3: FAR})
    plays = kernel_plays(c, st, 0, 2, 3)
    assert all(p[0][1] in (E, W, S, N) for p in plays)
    # a diagonal second move only after the first ended on the band
    assert all(p[0][:3] == (0, N, 3) for p in plays if p[1][1] in (NE, SW))
    assert (0, E, 2) in firsts(plays) and (0, N, 3) in firsts(plays)  # (5,10) is a tradewind: may end there


def test_no_jump_across_the_tradewinds_with_one_die():
    c, st, _ev, _rng = setup({0: (5, 13), 3: FAR})
    plays = kernel_plays(c, st, 0, 4, 1)
    assert (0, N, 4) not in firsts(plays)  # would pass over (5,10)
    assert (0, N, 1) in firsts(plays)


def test_ships_never_cross_capture_by_landing_and_never_land_on_their_own():
    c, st, _ev, _rng = setup({0: (2, 13), 1: (0, 13), 3: (5, 13), 4: FAR})
    f = firsts(kernel_plays(c, st, 0, 3, 4))
    assert (0, E, 3) in f and (0, E, 4) not in f  # lands on ship 3 / would cross it
    assert (1, E, 3) not in f  # (0,13) E 2 is ship 0: cannot cross own ship either
    c, st, ev, rng = setup({0: (2, 13), 1: (0, 14), 3: (5, 13), 4: FAR}, dice=[3, 4])
    script(st, [((0, E, 3, 0), (1, E, 4, 0))])
    step(c, st, ev, rng)
    assert st[R.G_SCR_FAIL] == 0
    pos = position(c, st)
    assert pos.ships[3] is None and pos.ships[0][1] == (5, 13) and pos.ships[1][1] == (4, 14)
    assert seat_word(st, 0, R.S_CAPTURES) == 1 and seat_word(st, 1, R.S_LOST) == 1
    assert seat_word(st, 1, R.S_SHIPS) == 1 and seat_word(st, 0, R.S_SAILED) == 7
    c, st, _ev, _rng = setup({0: (2, 13), 1: (5, 13), 3: FAR})
    assert (0, E, 3) not in firsts(kernel_plays(c, st, 0, 3, 4))


# ------------------------------------------------------------------ tradewinds
def test_tradewinds_diagonal_along_the_band_only():
    c, st, _ev, _rng = setup({0: (7, 8), 3: FAR})
    f = firsts(kernel_plays(c, st, 0, 2, 1))
    assert (0, NE, 2) in f and (0, SW, 2) in f  # (9,6) and (5,10), along x+y = 15
    assert (0, E, 1) in f and (0, S, 2) in f  # with the lines of the board off the band
    c, st, _ev, _rng = setup({0: (11, 4), 3: FAR})
    f = firsts(kernel_plays(c, st, 0, 1, 2))
    assert (0, NE, 1) in f and (0, NE, 2) not in f  # (13,2) is open sea: no diagonal off the band


def test_no_diagonal_move_from_open_sea():
    c, st, _ev, _rng = setup({0: (8, 8), 3: FAR})  # beside the band, not on it
    assert all(p[0][1] not in (NE, SW) for p in kernel_plays(c, st, 0, 1, 1))


# ------------------------------------------------------------------ straits
def test_straits_stop_the_die_and_lead_out_through_the_seam():
    c, st, ev, rng = setup({0: (3, 7), 3: FAR}, dice=[3, 1])
    f = firsts(kernel_plays(c, st, 0, 4, 3))
    assert (0, N, 3) in f and (0, N, 4) not in f  # onto the strait (3,4); no jumping across it
    script(st, [((0, N, 3, 0), (0, N, 1, 0))])
    step(c, st, ev, rng)
    assert st[R.G_SCR_FAIL] == 0 and where(c, st, 0)[1] == (15, 15)  # (3,4) N -> seam -> (15,15)


def test_a_ship_on_one_strait_half_occupies_the_other():
    c, st, ev, rng = setup({0: (3, 7), 3: (15, 16), 4: FAR}, dice=[3, 2])
    script(st, [((0, N, 3, 0), (0, E, 2, 0))])
    step(c, st, ev, rng)
    assert st[R.G_SCR_FAIL] == 0 and position(c, st).ships[3] is None  # captured on the other half
    # and a ship cannot move through an occupied strait: (14,16) E 1 lands on it, never past
    c, st, _ev, _rng = setup({0: (14, 16), 3: (3, 4), 4: FAR})
    f = firsts(kernel_plays(c, st, 0, 1, 2))
    assert (0, E, 1) in f and (0, E, 2) not in f


# ------------------------------------------------------------------ both dice
def test_a_first_move_that_leaves_the_second_die_unusable_is_not_allowed():
    # alone in harbor 1's channel: S1 then 5 is impossible, S5 then 1 works
    c, st, _ev, _rng = setup({0: (0, 9), 3: FAR})
    plays = kernel_plays(c, st, 0, 5, 1)
    assert plays and all(len(p) == 2 for p in plays)
    assert (0, S, 1) not in firsts(plays) and (0, S, 5) in firsts(plays)


def test_one_die_alone_when_no_play_uses_both():
    # S5 to (0,14); a 6 has nowhere to go (opponents block the way east, land north)
    c, st, ev, rng = setup({0: (0, 9), 3: (1, 14), 4: (1, 13)}, dice=[5, 6])
    assert set(kernel_plays(c, st, 0, 5, 6)) == {((0, S, 5, 0),)}
    script(st, [((0, S, 5, 0),)])
    step(c, st, ev, rng)
    assert st[R.G_SCR_FAIL] == 0 and where(c, st, 0)[1] == (0, 14)


def test_when_no_play_uses_both_dice_every_one_die_move_is_legal_not_only_the_winning_one():
    # the treasure ship at (0,14) rolls 5+2: N5 lands on the anchor (0,9) and wins; N2 to
    # (0,12) leaves the 5 nowhere to go (land beyond the anchor), and no other play uses
    # both dice.  "If it is not possible to move with both dice, one die may be used": N2
    # is as legal as N5 (issue 20: the generator offered the winning move alone).
    win, other = ((0, N, 5, 0),), ((0, N, 2, 0),)
    c, st, ev, rng = setup({0: (0, 14), 3: (14, 5), 4: (12, 7)}, treasure=0, dice=[5, 2])
    board = c.extra["board"]
    pos = position(c, st)
    assert legal_plays(board, pos, 0, 5, 2) == {win, other}
    assert set(kernel_plays(c, st, 0, 5, 2)) == {win, other}
    script(st, [other])
    step(c, st, ev, rng)
    assert st[R.G_SCR_FAIL] == 0 and where(c, st, 0)[1] == (0, 12) and st[R.G_END] == -1
    assert st[R.G_SEAT] == 1 and script_remaining(rng) == 0
    # the larger die alone when it can move (the variant): the winning 5 only
    c, st, ev, rng = setup({0: (0, 14), 3: (14, 5), 4: (12, 7)}, treasure=0, single_die="larger")
    assert set(kernel_plays(c, st, 0, 5, 2)) == {win} == legal_plays(board, pos, 0, 5, 2, "larger")
    # beside plays that use both dice, a winning first move stays a whole play
    c, st, ev, rng = setup({0: (0, 13), 3: FAR}, treasure=0)
    plays = set(kernel_plays(c, st, 0, 4, 1))
    assert ((0, N, 4, 0),) in plays and any(len(p) == 2 for p in plays)
    assert plays == legal_plays(board, position(c, st), 0, 4, 1)


@pytest.mark.parametrize("single", ["either", "larger"])
def test_single_die_rule_matches_the_reference_where_it_matters(single):
    """Scattered positions where no play uses both dice yet each die can move alone: a lone
    treasure ship (it cannot sail back the way it came) among three opponents."""
    c = compile_game(2, single_die=single)
    board = c.extra["board"]
    sea = board.squares(".sA1234~T")
    rnd = random.Random(7)
    found = 0
    for _ in range(4000):
        st, _ev, _rng = new_state(c)
        q = rnd.sample(sea, 4)
        pos = Position([(0, q[0]), None, None, (1, q[1]), (1, q[2]), (1, q[3])], 0, tuple(c.extra["harbors"]))
        set_position(c, st, pos)
        d1, d2 = rnd.randint(1, 6), rnd.randint(1, 6)
        want = legal_plays(board, pos, 0, d1, d2, single)
        if d1 == d2 or not want or any(len(p) == 2 for p in want):
            continue
        assert set(kernel_plays(c, st, 0, d1, d2)) == want
        if {p[0][2] for p in want} == {d1, d2}:
            found += 1
    if single == "either":
        assert found >= 3  # positions where both dice could move alone really were checked


def test_no_legal_move_passes_the_turn():
    c, st, ev, rng = setup({0: (0, 9), 3: FAR}, dice=[6, 6])
    step(c, st, ev, rng)
    assert seat_word(st, 0, R.S_PASSED) == 1 and st[R.G_SEAT] == 1
    assert [e[2] for e in events(ev, st)] == [R.EV_ROLL, R.EV_PASS]


# ------------------------------------------------------------------ treasure
def test_taking_the_treasure_is_optional_and_only_by_landing():
    c, st, _ev, _rng = setup({0: (13, 8), 3: FAR})
    plays = kernel_plays(c, st, 0, 3, 2)
    takes = {p for p in plays if any(m[3] for m in p)}
    assert ((0, W, 3, 1), (0, W, 2, 0)) in takes and ((0, W, 3, 0), (0, W, 2, 0)) in plays
    assert all(p[0][:3] == (0, W, 3) for p in takes)  # (10,8) is the only anchor square in reach
    # passing over the anchor squares (10,8) and (9,8) to (8,8) takes nothing
    plays = kernel_plays(c, st, 0, 5, 1)
    assert any(p[0] == (0, W, 5, 0) for p in plays) and not any(p[0][3] for p in plays if p[0][2] == 5)


def test_a_treasure_ship_never_moves_directly_away_from_home():
    # seat 0's home is -x: after taking the treasure at (10,8) it may not sail E
    c, st, _ev, _rng = setup({0: (13, 8), 3: FAR})
    plays = kernel_plays(c, st, 0, 3, 2)
    assert not any(p[0] == (0, W, 3, 1) and p[1][:2] == (0, E) for p in plays)
    assert any(p[0] == (0, W, 3, 1) and p[1][:2] == (0, W) for p in plays)
    assert any(p[0] == (0, W, 3, 0) and p[1][:2] == (0, E) for p in plays)
    # on a tradewind: toward home (SW, -x) yes, away (NE) no
    c, st, _ev, _rng = setup({0: (7, 8), 3: FAR}, treasure=0)
    f = firsts(kernel_plays(c, st, 0, 1, 2))
    assert (0, SW, 1) in f and (0, NE, 1) not in f and (0, N, 1) in f and (0, E, 1) not in f


def test_taking_the_treasure_and_the_bookkeeping():
    c, st, ev, rng = setup({0: (13, 8), 3: FAR}, dice=[3, 2])
    st[R.G_TURN] = 4
    script(st, [((0, W, 3, 1), (0, W, 2, 0))])
    step(c, st, ev, rng)
    assert st[R.G_SCR_FAIL] == 0 and st[R.G_TREASURE] == 0 and where(c, st, 0)[1] == (8, 8)
    assert st[R.G_FIRST_PICKUP] == 5 and seat_word(st, 0, R.S_PICKUPS) == 1


def test_capturing_the_treasure_ship_takes_the_treasure():
    c, st, ev, rng = setup({0: (2, 13), 3: (5, 13), 4: FAR}, treasure=3, dice=[3, 1])
    st[R.G_HOLD_END] = KS.HOLD_OPEN
    script(st, [((0, E, 3, 0), (0, W, 1, 0))])
    step(c, st, ev, rng)
    assert st[R.G_SCR_FAIL] == 0 and st[R.G_TREASURE] == 0 and st[R.G_CHANGES] == 1
    assert seat_word(st, 1, R.S_LOSSES) == 1 and seat_word(st, 0, R.S_PICKUPS) == 1
    assert st[R.G_HOLD_END] == KS.HOLD_CAPTURED


def test_treasure_home_wins_at_once_with_either_die():
    # (0,13) N 4 is the anchor (0,9): the first die wins, the second is never played
    c, st, ev, rng = setup({0: (0, 13), 3: FAR}, treasure=0, dice=[4, 6])
    plays = kernel_plays(c, st, 0, 4, 6)
    assert ((0, N, 4, 0),) in plays
    script(st, [((0, N, 4, 0),)])
    step(c, st, ev, rng)
    assert st[R.G_SCR_FAIL] == 0 and st[R.G_END] == R.END_HOME and st[R.G_WINNER] == 0
    assert script_remaining(rng) == 0 and events(ev, st)[-1][2] == R.EV_WIN


def test_capturing_the_last_opposing_ship_wins():
    c, st, ev, rng = setup({0: (2, 13), 3: (5, 13)}, dice=[3, 1])
    script(st, [((0, E, 3, 0),)])
    step(c, st, ev, rng)
    assert st[R.G_SCR_FAIL] == 0 and st[R.G_END] == R.END_CAPTURE and st[R.G_WINNER] == 0


def test_a_player_without_ships_is_skipped():
    c, st, ev, rng = setup({0: (2, 13), 6: FAR, 3: (15, 3)}, n=3, dice=[1, 1, 1, 1])
    script(st, [((0, E, 1, 0), (0, E, 1, 0)), ((6, W, 1, 0), (6, W, 1, 0))])
    step(c, st, ev, rng)
    assert st[R.G_SEAT] == 1  # seat 1 still has ship 3
    c, st, ev, rng = setup({0: (2, 13), 6: FAR}, n=3, dice=[1, 1])
    script(st, [((0, E, 1, 0), (0, E, 1, 0))])
    step(c, st, ev, rng)
    assert st[R.G_SEAT] == 2  # seat 1 has none left


# ------------------------------------------------------------------ variants and the cap
def test_doubles_give_an_extra_roll_only_in_the_variant():
    for variant, seat_after in ((False, 1), (True, 0)):
        c, st, ev, rng = setup({0: (2, 13), 3: FAR}, dice=[1, 1], doubles_extra_roll=variant)
        script(st, [((0, E, 1, 0), (0, E, 1, 0))])
        step(c, st, ev, rng)
        assert st[R.G_SEAT] == seat_after


def test_turn_cap_truncates():
    c = compile_game(2, strategy="random", turn_cap=10)
    out_g, _ = GAME.play(c, 3, 0, 50)
    t = out_g[:, 3] == 1
    assert t.any() and (out_g[t, 1] == 10).all() and (out_g[t, 0] == -1).all()
    assert (out_g[t, 2] == R.END_TRUNCATED).all()
