"""Hand-played Ice Pirates situations: scripted moves, forced winds, scripted dice."""

import pytest

from pirate_sim.games.ice_pirates import GAME
from pirate_sim.games.ice_pirates import rules as R
from pirate_sim.games.ice_pirates.testing import (clear_bay, crew_chips, force_winds, kinds, lay,
                                                  legal_dirs, new_state, place, pos, script, seat,
                                                  set_wind, step, use_scripted)
from pirate_sim.rng import script_remaining

NB = R.neighbour_table()
N, NE, SE, S, SW, NW = range(6)
BELL = R.BELL_CELL


def compile_game(n=2, **rules):
    seats = [{"strategy": "map_hunter", **{p.key: p.default for p in GAME.strategy("map_hunter").params}}
             for _ in range(n)]
    r = {p.key: p.default for p in GAME.params}
    r.update(rules)
    return GAME.compile(r, seats)


FAR = (13, 14, 20, 26, 27)


def board(n=2, wind=4, dice=None, **rules):
    """A blank face-up bay, every seat scripted, seat 0 on Bell Island to move."""
    c = compile_game(n, **rules)
    use_scripted(c, range(n))
    st, ev, rng = new_state(c, dice=dice)
    clear_bay(st)
    set_wind(st, wind)
    for s in range(1, n):
        place(st, s, FAR[s - 1])
    st[R.G_SEAT] = 0
    return c, st, ev, rng


def turn(c, st, ev, rng, dirs, seat_=0, **kw):
    st[R.G_SEAT] = seat_
    script(st, dirs, **kw)
    step(c, st, ev, rng)


def used(st):
    return int(st[R.G_DIR_SCR_POS])


# ---------------------------------------------------------------- geometry
def test_geometry():
    assert R.N_CELLS == 37 and BELL == 18
    assert R.CORNER_CELLS == (15, 33, 36, 21, 3, 0)
    for c in range(37):
        for d in range(6):
            v = NB[c, d]
            if v >= 0:
                assert NB[v, (d + 3) % 6] == c
    assert R.edge_cells(0, 1) == [15, 22, 28, 33]
    assert sum(1 for c in range(37) for d in range(6) if NB[c, d] < 0) == 42


def test_wind_relations():
    rel = R.relation_table()
    # wind from S (Port 4): rowing S, tacking SE and SW, with the wind N, NE, NW
    assert [rel[S, d] for d in range(6)] == [R.WITH, R.WITH, R.TACK, R.INTO, R.TACK, R.WITH]


# ---------------------------------------------------------------- moving
def test_with_the_wind_allows_a_second_move():
    c, st, ev, rng = board()
    turn(c, st, ev, rng, ["N", "N"])
    assert pos(st, 0) == 16 and used(st) == 2 and seat(st, 0, R.S_MOVES) == 2


def test_second_move_is_optional():
    c, st, ev, rng = board()
    turn(c, st, ev, rng, ["N", "stop"])
    assert pos(st, 0) == 17


def test_tack_ends_the_turn():
    c, st, ev, rng = board()
    turn(c, st, ev, rng, ["SE", "N"])
    assert pos(st, 0) == 25 and used(st) == 1


def test_jib_tacks_without_ending():
    c, st, ev, rng = board()
    place(st, 0, BELL, upgrades=("jib",))
    turn(c, st, ev, rng, ["SE", "N"])
    assert pos(st, 0) == NB[25, N]


def test_jib_and_main_sail_tack_twice_then_move_again():
    c, st, ev, rng = board()
    place(st, 0, BELL, upgrades=("jib", "main_sail"))
    turn(c, st, ev, rng, ["SE", "SE", "N"])
    assert pos(st, 0) == NB[NB[NB[BELL, SE], SE], N] and used(st) == 3


def test_main_sail_third_move_needs_two_with_the_wind():
    c, st, ev, rng = board()
    place(st, 0, BELL, upgrades=("main_sail",))
    turn(c, st, ev, rng, ["N", "N", "N"])
    assert pos(st, 0) == 15
    c, st, ev, rng = board()
    place(st, 0, BELL, upgrades=("main_sail",))
    turn(c, st, ev, rng, ["N", "SE", "N"])  # a tack without Jib ends the turn
    assert pos(st, 0) == NB[17, SE] and used(st) == 2


def test_without_main_sail_two_moves_at_most():
    c, st, ev, rng = board()
    turn(c, st, ev, rng, ["N", "N", "N"])
    assert pos(st, 0) == 16 and used(st) == 2


def test_rowing_costs_a_crew_chip_and_ends_the_turn():
    c, st, ev, rng = board()
    bell0 = st[R.G_BELL_POOL]
    turn(c, st, ev, rng, ["S", "N"])
    assert pos(st, 0) == 19 and seat(st, 0, R.S_CREW) == 2 and st[R.G_BELL_POOL] == bell0 + 1
    assert used(st) == 1 and seat(st, 0, R.S_CREW_ROW) == 1


def test_no_rowing_without_crew_nor_on_a_second_move():
    c, st, ev, rng = board()
    place(st, 0, BELL, crew=0)
    assert "S" not in legal_dirs(c, st, 0)
    place(st, 0, BELL, crew=3)
    assert "S" in legal_dirs(c, st, 0)
    assert "S" not in legal_dirs(c, st, 0, k=1, start=17)


def test_no_last_move_back_to_the_start():
    c, st, ev, rng = board()
    place(st, 0, 17)
    assert "S" not in legal_dirs(c, st, 0, k=1, start=BELL)  # back onto Bell Island
    assert "N" in legal_dirs(c, st, 0, k=1, start=BELL)


# ---------------------------------------------------------------- icebergs
def test_iceberg_blocks_entering_and_leaving():
    c, st, ev, rng = board()
    lay(st, 17, blocked=("S",))
    assert "N" not in legal_dirs(c, st, 0)
    place(st, 0, 24)
    lay(st, 24, blocked=("N",))
    assert "N" not in legal_dirs(c, st, 0)


def test_ice_breaker_ignores_small_icebergs_only():
    c, st, ev, rng = board()
    place(st, 0, BELL, upgrades=("ice_breaker",))
    lay(st, 17, blocked=("S",))
    assert "N" in legal_dirs(c, st, 0)
    lay(st, 17, blocked=("S", "SE"))
    assert "N" not in legal_dirs(c, st, 0)


def test_ramming_a_new_card_costs_no_move():
    c, st, ev, rng = board()
    lay(st, 17, blocked=("S",), face_up=False)
    turn(c, st, ev, rng, ["N", "NE", "N"])
    assert st[R.C_REVEALED + 17] == 1 and seat(st, 0, R.S_RAMS) == 1
    assert pos(st, 0) == NB[24, N] and seat(st, 0, R.S_MOVES) == 2


def test_enclosed_area_rule_plays_the_card_without_iceberg():
    c, st, ev, rng = board()
    lay(st, 9, blocked=("NE",))  # walls between Port De Verde and its neighbours
    lay(st, 22, blocked=("NW",))
    lay(st, 16, blocked=("N",), face_up=False)  # would shut Port De Verde off
    place(st, 0, 17)
    turn(c, st, ev, rng, ["N", "stop"])
    assert pos(st, 0) == 16 and st[R.C_WALLED + 16] == 1 and st[R.C_MASK + 16] == 0
    assert R.EV_WALLED in kinds(st, ev)
    # a flip that encloses nothing keeps its iceberg
    c, st, ev, rng = board()
    lay(st, 16, blocked=("N",), face_up=False)
    place(st, 0, 17)
    turn(c, st, ev, rng, ["N", "stop"])
    assert st[R.C_WALLED + 16] == 0 and st[R.C_MASK + 16] == 1


# ---------------------------------------------------------------- storms
def test_storm_ends_the_turn_and_rolls_the_wind():
    c, st, ev, rng = board()
    lay(st, 17, R.STORM)
    force_winds(st, [2])
    turn(c, st, ev, rng, ["N", "N"], fight=0)
    assert pos(st, 0) == 17 and st[R.G_WIND] == 1 and seat(st, 0, R.S_STORMS) == 1


def test_fighting_the_waves_costs_a_chip_unless_ice_breaker():
    c, st, ev, rng = board()
    lay(st, 17, R.STORM)
    turn(c, st, ev, rng, ["N", "N"], fight=1)
    assert pos(st, 0) == 16 and seat(st, 0, R.S_CREW) == 2 and st[R.G_WIND] == S  # no wind roll
    c, st, ev, rng = board()
    lay(st, 17, R.STORM)
    place(st, 0, BELL, upgrades=("ice_breaker",))
    turn(c, st, ev, rng, ["N", "N"], fight=1)
    assert pos(st, 0) == 16 and seat(st, 0, R.S_CREW) == 3


def test_no_fighting_the_waves_on_a_last_move():
    c, st, ev, rng = board()
    lay(st, 16, R.STORM)
    force_winds(st, [4])
    turn(c, st, ev, rng, ["N", "N"], fight=1)
    assert pos(st, 0) == 16 and seat(st, 0, R.S_CREW) == 3 and seat(st, 0, R.S_STORMS) == 1


# ---------------------------------------------------------------- other ships
def test_pass_through_but_never_end_on_an_occupied_space():
    c, st, ev, rng = board(wind=2)  # wind from NE: N is a tack (last move)
    place(st, 1, 17)
    assert "N" not in legal_dirs(c, st, 0)
    place(st, 0, BELL, upgrades=("grappling_hook",))
    assert "N" in legal_dirs(c, st, 0)
    c, st, ev, rng = board(wind=4)  # wind from S: N then a second move
    place(st, 1, 17)
    assert "N" in legal_dirs(c, st, 0)
    turn(c, st, ev, rng, ["N", "stop", "N"], raid=-2)  # cannot stop on seat 1
    assert pos(st, 0) == 16


def test_main_sail_may_not_pass_two_occupied_spaces_into_a_dead_end():
    """With a Main Sail, entering seat 1's space is legal only if the ship could leave it:
    the only way on is seat 2's space, which has no free exit, so the move is refused (it
    would have ended the turn on an occupied space).  Control: give seat 2's space a free
    exit and the move is legal again."""
    for way_out in (False, True):
        c, st, ev, rng = board(n=3, wind=4)  # wind from S: N is with the wind
        place(st, 0, BELL, upgrades=("main_sail",))
        place(st, 1, 17)
        place(st, 2, 16)
        lay(st, 17, blocked=("NE", "SE", "SW", "NW"))  # on from 17 only N, to seat 2
        lay(st, 16, blocked=("NE", "SE", "SW", "NW") + (() if way_out else ("N",)))
        assert ("N" in legal_dirs(c, st, 0)) == way_out


def test_leaving_an_occupied_space_through_unexplored_cards():
    c, st, ev, rng = board()
    place(st, 1, 17)
    lay(st, 17, blocked=("NE", "SE", "SW", "NW"))
    lay(st, 16, blocked=("S",), face_up=False)  # the only way out rams
    turn(c, st, ev, rng, ["N", "N"], raid=-2)
    assert pos(st, 0) == 17 and pos(st, 1) == 17 and seat(st, 0, R.S_RAMS) == 1


def test_grappling_hook_ends_on_and_raids_an_occupied_space():
    c, st, ev, rng = board(wind=2, dice=[4, 2])
    place(st, 0, BELL, crew=0, upgrades=("grappling_hook",))
    place(st, 1, 17, crew=0, maps=0b001)
    turn(c, st, ev, rng, ["N"], raid=1)
    assert pos(st, 0) == 17 and seat(st, 0, R.S_RAIDS_WON) == 1 and seat(st, 0, R.S_MAPS) == 1
    assert script_remaining(rng) == 0


def test_beginning_on_an_occupied_space_gives_no_raid():
    c, st, ev, rng = board(wind=4)
    place(st, 0, 17, upgrades=("grappling_hook",))
    place(st, 1, 17, maps=0b111)
    turn(c, st, ev, rng, ["N", "stop"], raid=1)
    assert seat(st, 0, R.S_RAIDS_MADE) == 0


# ---------------------------------------------------------------- ending
def test_open_water_with_the_treasure():
    c, st, ev, rng = board()
    place(st, 0, 22)
    assert "N" not in legal_dirs(c, st, 0)
    st[R.G_TREASURE] = 0
    assert "N" in legal_dirs(c, st, 0, esc_ok=True) and "N" not in legal_dirs(c, st, 0, esc_ok=False)
    turn(c, st, ev, rng, ["N"])
    assert st[R.G_END] == R.END_OPEN_WATER and st[R.G_WINNER] == 0


def test_open_water_needs_a_legal_wind_relation():
    c, st, ev, rng = board(wind=1)  # wind from N: N is rowing
    place(st, 0, 22, crew=0)
    st[R.G_TREASURE] = 0
    assert "N" not in legal_dirs(c, st, 0, esc_ok=True)
    assert "NE" in legal_dirs(c, st, 0, esc_ok=True)  # a tack off the board


def test_harbour_grace_with_the_treasure_wins():
    c, st, ev, rng = board()
    place(st, 0, 1)
    st[R.G_TREASURE] = 0
    turn(c, st, ev, rng, ["N", "N"])
    assert st[R.G_END] == R.END_HARBOUR_GRACE and st[R.G_WINNER] == 0 and pos(st, 0) == 0


def test_harbour_grace_without_the_treasure_does_not_win():
    c, st, ev, rng = board()
    place(st, 0, 1)
    turn(c, st, ev, rng, ["N", "stop"])
    assert st[R.G_END] == -1


# ---------------------------------------------------------------- ports and islands
@pytest.mark.parametrize("left,cost", [(3, 0), (2, 1), (1, 2)])
def test_port_upgrade_costs(left, cost):
    c, st, ev, rng = board()
    place(st, 0, 16)
    st[R.C_COPIES + 15] = left
    turn(c, st, ev, rng, ["N", "stop"])
    assert seat(st, 0, R.S_UPG) == 1 << R.JIB and seat(st, 0, R.S_CREW) == 3 - cost
    assert st[R.C_COPIES + 15] == left - 1 and seat(st, 0, R.S_CREW_UPG) == cost


def test_port_without_copies_or_crew_gives_nothing():
    c, st, ev, rng = board()
    place(st, 0, 16)
    st[R.C_COPIES + 15] = 0
    turn(c, st, ev, rng, ["N", "stop"])
    assert seat(st, 0, R.S_UPG) == 0
    c, st, ev, rng = board()
    place(st, 0, 16, crew=1)
    st[R.C_COPIES + 15] = 1  # costs two
    turn(c, st, ev, rng, ["N", "stop"])
    assert seat(st, 0, R.S_UPG) == 0


def test_port_upgrade_needs_the_turn_to_end_there():
    c, st, ev, rng = board()
    place(st, 0, 17)
    turn(c, st, ev, rng, ["N", "N"])  # 17 -> 16 -> 15
    assert seat(st, 0, R.S_UPG) == 1 << R.JIB
    c, st, ev, rng = board()
    place(st, 0, 16)
    turn(c, st, ev, rng, ["N", "SE"])  # passes through Port De Verde
    assert seat(st, 0, R.S_UPG) == 0 and pos(st, 0) == 22


def test_bell_island_restores_crew():
    c, st, ev, rng = board(wind=1)  # wind from N: S is with the wind
    place(st, 0, 17, crew=0)
    st[R.G_UNUSED] -= 5
    st[R.G_BELL_POOL] += 5
    total = crew_chips(st, 2)
    turn(c, st, ev, rng, ["S", "stop"])
    assert seat(st, 0, R.S_CREW) == 3 and st[R.G_BELL_POOL] == 2 and crew_chips(st, 2) == total


def test_bell_island_restores_extra_crew_and_only_what_lies_there():
    c, st, ev, rng = board(wind=1)
    place(st, 0, 17, crew=1)
    st[R.SEATS_BASE + R.S_EXTRA] = 1
    st[R.G_UNUSED] -= 2
    st[R.G_BELL_POOL] += 2
    turn(c, st, ev, rng, ["S", "stop"])
    assert seat(st, 0, R.S_CREW) == 3 and st[R.G_BELL_POOL] == 0  # wants 4, only 2 there


def test_lost_island_gives_a_map_of_its_colour():
    c, st, ev, rng = board()
    lay(st, 17, R.LOST_ISLAND, colour=1)
    turn(c, st, ev, rng, ["N", "stop"])
    assert seat(st, 0, R.S_MAPS) == 0b010 and st[R.G_MAPS_LEFT + 1] == 5
    assert seat(st, 0, R.S_T_FIRST_MAP) == 1


def test_kelly_island_with_three_maps_gives_the_treasure_and_voids_maps():
    c, st, ev, rng = board()
    lay(st, 17, R.KELLY)
    place(st, 0, BELL, maps=0b111)
    place(st, 1, FAR[0], maps=0b011)
    turn(c, st, ev, rng, ["N", "stop"])
    assert st[R.G_TREASURE] == 0
    assert seat(st, 0, R.S_MAPS) == 0 and seat(st, 1, R.S_MAPS) == 0
    assert [st[R.G_MAPS_LEFT + k] for k in range(3)] == [6, 6, 6]


def test_kelly_island_without_all_maps_gives_nothing():
    c, st, ev, rng = board()
    lay(st, 17, R.KELLY)
    place(st, 0, BELL, maps=0b011)
    turn(c, st, ev, rng, ["N", "stop"])
    assert st[R.G_TREASURE] == -1


def test_shipwreck_extra_crew_goes_to_the_first_ship_only():
    c, st, ev, rng = board()
    lay(st, 17, R.WRECK)
    turn(c, st, ev, rng, ["N", "stop"])
    assert seat(st, 0, R.S_EXTRA) == 1 and seat(st, 0, R.S_CREW) == 4 and st[R.G_SUPPLY] == 3
    assert st[R.C_WRECK + 17] == 0
    place(st, 0, 30)
    place(st, 1, BELL)
    turn(c, st, ev, rng, ["N", "stop"], seat_=1)
    assert seat(st, 1, R.S_EXTRA) == 0 and seat(st, 1, R.S_CREW) == 3


def test_telescope_reveals_all_neighbours_and_collects_on_entering():
    c, st, ev, rng = board()
    for d in range(6):
        lay(st, NB[BELL, d], face_up=False)
    lay(st, 17, R.LOST_ISLAND, colour=0, face_up=False)
    place(st, 0, BELL, upgrades=("telescope",))
    turn(c, st, ev, rng, ["N", "N"], telescope=1)
    assert all(st[R.C_REVEALED + NB[BELL, d]] == 1 for d in range(6))
    assert pos(st, 0) == 16 and seat(st, 0, R.S_MAPS) == 0b001


def test_without_telescope_passing_a_lost_island_gives_nothing():
    c, st, ev, rng = board()
    lay(st, 17, R.LOST_ISLAND, colour=0)
    turn(c, st, ev, rng, ["N", "N"])
    assert seat(st, 0, R.S_MAPS) == 0


# ---------------------------------------------------------------- raids
def raid_board(dice, r_crew=0, d_crew=0, r_upg=(), d_upg=(), **rules):
    c, st, ev, rng = board(dice=dice, **rules)
    place(st, 0, BELL, crew=r_crew, upgrades=r_upg, maps=0b001)
    place(st, 1, 17, crew=d_crew, upgrades=d_upg, maps=0b011)
    return c, st, ev, rng


def test_raid_tie_goes_to_the_raider_who_takes_the_maps():
    c, st, ev, rng = raid_board([3, 3])
    turn(c, st, ev, rng, ["N", "N"], raid=1)
    assert seat(st, 0, R.S_RAIDS_WON) == 1 and seat(st, 0, R.S_MAPS) == 0b011
    assert seat(st, 1, R.S_MAPS) == 0 and st[R.G_MAPS_LEFT + 0] == 6 - 1  # the duplicate went back
    assert script_remaining(rng) == 0


def test_raid_tie_to_defender_parameter():
    c, st, ev, rng = raid_board([3, 3], **{"raid.ties_to": "defender"})
    turn(c, st, ev, rng, ["N", "N"], raid=1)
    assert seat(st, 0, R.S_RAIDS_WON) == 0 and seat(st, 1, R.S_MAPS) == 0b011


def test_raid_score_is_crew_plus_captain_at_most():
    c, st, ev, rng = raid_board([1, 4], r_crew=3)  # raider scores 4 with a roll of 1
    turn(c, st, ev, rng, ["N", "N"], raid=1)
    assert seat(st, 0, R.S_RAIDS_WON) == 1


def test_cannon_keeps_the_higher_of_two_dice():
    c, st, ev, rng = raid_board([1, 5, 4], r_upg=("cannon",))
    turn(c, st, ev, rng, ["N", "N"], raid=1)
    assert seat(st, 0, R.S_RAIDS_WON) == 1 and script_remaining(rng) == 0


def test_swashbuckling_rerolls_and_wins_ties():
    # raider crew 1 scores max(1, 2) = 2 vs 5 and loses; swashbuckles (crew now 0), rolls 5:
    # 5 vs 5, the swashbuckler wins the tie.  The defender has no chip to answer.
    c, st, ev, rng = raid_board([1, 5, 5], r_crew=1)
    turn(c, st, ev, rng, ["N", "N"], raid=1, swash_reserve=0)
    assert seat(st, 0, R.S_RAIDS_WON) == 1 and seat(st, 0, R.S_CREW) == 0
    assert seat(st, 0, R.S_SWASH) == 1 and seat(st, 0, R.S_CREW_SWASH) == 1
    assert script_remaining(rng) == 0


def test_swashbuckling_back_and_forth():
    # raider 1 vs defender 4: loses; swashbuckles 5 (crew 0 -> score 5) vs 4 wins;
    # defender (crew 1) swashbuckles: rolls 2, score max(2, 1) = 2 < 5, out of chips.
    c, st, ev, rng = raid_board([1, 4, 5, 2], r_crew=1, d_crew=1)
    turn(c, st, ev, rng, ["N", "N"], raid=1, swash_reserve=0)
    assert seat(st, 0, R.S_RAIDS_WON) == 1 and seat(st, 1, R.S_SWASH) == 1
    assert script_remaining(rng) == 0


def test_raid_takes_the_treasure_and_comes_before_the_storm():
    c, st, ev, rng = raid_board([6, 1])
    st[R.G_TREASURE] = 1
    lay(st, 16, R.STORM)
    force_winds(st, [1])
    turn(c, st, ev, rng, ["N", "N"], raid=1)
    assert st[R.G_TREASURE] == 0 and seat(st, 0, R.S_T_TREASURE) == 1
    ks = kinds(st, ev)
    assert ks.index(R.EV_RAID) < ks.index(R.EV_STORM) < len(ks) - 1 - ks[::-1].index(R.EV_WIND) + 1


# ---------------------------------------------------------------- abandoning, lost turns
def test_abandon_ship_returns_everything_and_restarts_on_bell_island():
    c, st, ev, rng = board()
    place(st, 0, 17, crew=2, upgrades=("jib",), maps=0b100)
    st[R.C_COPIES + 15] = 2
    st[R.G_TREASURE] = 0
    total = crew_chips(st, 2)
    turn(c, st, ev, rng, ["abandon"])
    assert pos(st, 0) == -1 and st[R.C_COPIES + 15] == 3 and st[R.G_MAPS_LEFT + 2] == 6
    assert st[R.G_TREASURE] == -1 and crew_chips(st, 2) == total
    turn(c, st, ev, rng, [])
    assert pos(st, 0) == BELL and seat(st, 0, R.S_CREW) == 3 and crew_chips(st, 2) == total


def test_no_legal_move_loses_the_turn_and_rolls_the_wind():
    c, st, ev, rng = board()
    for d in range(6):
        lay(st, NB[BELL, d], blocked=(R.DIR_NAMES[(d + 3) % 6],))
    force_winds(st, [6])
    turn(c, st, ev, rng, ["N"])
    assert pos(st, 0) == BELL and seat(st, 0, R.S_LOST_TURNS) == 1 and st[R.G_WIND] == 5
