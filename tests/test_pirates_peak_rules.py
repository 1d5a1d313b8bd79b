"""Pirate's Peak, hand-played situations: every rule with scripted dice.

Each test builds a table from its own small deck (cards in a fixed flip order, the Peak
card last), places the ships, loads the dice with ``scripted_rng`` and checks the exact
outcome and that every scripted die was rolled.  Track: the Starting Dock is spaces 0-2,
journey card 1 starts at space 3.
"""

from __future__ import annotations

import numpy as np
import pytest

from pirate_sim.games.pirates_peak import GAME
from pirate_sim.games.pirates_peak import kernel as K
from pirate_sim.games.pirates_peak.board import phys_nb
from pirate_sim.games.pirates_peak import rules as r
from pirate_sim.rng import new_rng, rand_below_nb, script_remaining, scripted_rng

OPEN8 = ". . . . . . . ."


def make(cards, seats=("racer", "racer"), params=(None, None), **rules):
    rr = r.defaults()
    rr["deck.cards"] = list(cards)
    rr["deck.peak_earliest_flip"] = 1
    for k, v in rules.items():
        rr[k.replace("__", ".")] = v
    # the racer always races here (lead_to_race -1000): it never stops early, as a neutral
    # mover for the rules under test
    ss = [
        dict({"strategy": n}, **({"lead_to_race": -1000} if n == "racer" else {}), **(p or {}))
        for n, p in zip(seats, params)
    ]
    return GAME.compile(rr, ss)


def table(cards, **kw):
    """A laid table: the cards in order, then the Peak card; ships on the dock."""
    c = make(cards, **kw)
    st = K.new_state(c, deck_order=list(range(len(cards) + 1)), ev_capacity=2000)
    K.lay_cards(st, new_rng(0, 0), 10**6)
    return st


def ship(st, s, field):
    return int(st.w[r.ROW_SHIP + s, getattr(r, "SH_" + field.upper())])


def cnt(st, s, col):
    return int(st.w[r.ROW_CNT + s, GAME.seat_column_index(col)])


def play(st, seat, dice):
    rng = scripted_rng(dice)
    K.turn(st, seat, rng)
    assert script_remaining(rng) == 0
    return rng


# ------------------------------------------------------------------ setup


def test_setup_purchases_and_first_player_reroll_ties():
    st = table([OPEN8], seats=("treasure_digger", "gunner"))
    rng = scripted_rng([4, 4, 2, 5])  # tie, then seat 1 higher
    first = K.setup(st, rng)
    assert script_remaining(rng) == 0
    assert first == 1
    # digger: 3 crewmen (9 gold); gunner: 1 crewman and 3 cannonballs (9 gold)
    assert (ship(st, 0, "crew"), ship(st, 0, "balls"), ship(st, 0, "gold")) == (3, 0, 1)
    assert (ship(st, 1, "crew"), ship(st, 1, "balls"), ship(st, 1, "gold")) == (1, 3, 1)
    assert st.st[r.G_SUPPLY] == 18


def test_purchase_caps_respected():
    st = table(
        [OPEN8],
        seats=("treasure_digger", "gunner"),
        params=({"buy_crew": 9}, {"buy_cannonballs": 9, "buy_crew": 0}),
        start__gold=100,
        gold__supply=-1,  # the box holds 100: not enough for two such purses
    )
    K.setup(st, scripted_rng([6, 1]))
    assert ship(st, 0, "crew") == 4 and ship(st, 1, "balls") == 3


# ------------------------------------------------------------------ sailing and the deck


def test_sail_moves_the_die_and_flips_cards_lazily():
    c = make([OPEN8, OPEN8])
    st = K.new_state(c, deck_order=[0, 1, 2])
    assert st.st[r.G_N_LAID] == 3
    play(st, 0, [5])
    assert ship(st, 0, "pos") == 5
    assert st.st[r.G_FLIPPED] == 1 and st.st[r.G_N_LAID] == 11


def test_peak_card_never_among_first_five_flips():
    c = make(list(r.DEFAULT_DECK), deck__peak_earliest_flip=6)
    for seed in range(20):
        st = K.new_state(c, deck_order=[10] + list(range(10)))
        K.lay_cards(st, new_rng(seed, 0), 10**6)
        assert st.st[r.G_RESHUFFLES] >= 1
        assert 5 <= st.st[r.G_OUT_CARDS] <= 10
        assert st.st[r.G_PEAK_X] == 3 + 8 * st.st[r.G_OUT_CARDS]


def test_stop_early_on_x_then_search_next_turn():
    st = table([". X . . . . . ."], seats=("treasure_digger", "racer"))
    K.set_ship(st, 0, pos=2, crew=2)
    play(st, 0, [5])  # passes the X at 4: the digger stops there, no search yet
    assert ship(st, 0, "pos") == 4 and cnt(st, 0, "searches") == 0
    play(st, 0, [3])  # declares SEARCH: 2 x 3 + 2 crewmen
    assert ship(st, 0, "gold") == 10 + 8 and cnt(st, 0, "search_gold") == 8


def test_racer_passes_x_without_stopping():
    st = table([". X . . . . . ."])
    K.set_ship(st, 0, pos=2)
    play(st, 0, [5])
    assert ship(st, 0, "pos") == 7


def test_landing_exactly_on_x_searches_at_once():
    st = table([". X . . . . . ."])
    K.set_ship(st, 0, pos=2, crew=1)
    play(st, 0, [2, 6])
    assert ship(st, 0, "pos") == 4 and ship(st, 0, "gold") == 10 + 13


def test_search_multiplier_parameter():
    st = table([". X . . . . . ."], search__multiplier=3)
    K.set_ship(st, 0, pos=2, crew=4)
    play(st, 0, [2, 5])
    assert ship(st, 0, "gold") == 10 + 15 + 4


def test_no_search_on_same_spot_two_turns_in_a_row():
    st = table([". X . . . . . ."], seats=("treasure_digger", "racer"))
    K.set_ship(st, 0, pos=4, last_search=4, dig_x=4, digs=1)
    play(st, 0, [3])  # cannot search: sails
    assert cnt(st, 0, "searches") == 0 and ship(st, 0, "pos") == 7


# ------------------------------------------------------------------ cannons


def _interrupt_table(**kw):
    st = table([". X . . . . . .", OPEN8, OPEN8], seats=("treasure_digger", "gunner"), **kw)
    K.set_ship(st, 0, pos=4, crew=2)
    K.set_ship(st, 1, pos=6, balls=1)
    return st


@pytest.mark.parametrize(
    "searcher, attacker, gold, life", [(4, 4, 0, 5), (4, 5, 0, 4), (4, 2, 4, 5), (6, 1, 10, 5)]
)
def test_interrupting_a_search(searcher, attacker, gold, life):
    st = _interrupt_table()
    play(st, 0, [searcher, attacker])
    assert ship(st, 0, "gold") == 10 + gold
    assert ship(st, 0, "life") == life
    assert ship(st, 1, "balls") == 0 and ship(st, 1, "skip") == 1
    assert cnt(st, 0, "searches_interrupted") == 1 and cnt(st, 1, "interrupts_fired") == 1
    play(st, 1, [])  # firing counted as the gunner's turn
    assert cnt(st, 1, "turns_skipped") == 1


def test_interrupt_out_of_range_is_not_possible():
    st = _interrupt_table()
    K.set_ship(st, 1, pos=20)  # card 3: two cards away
    play(st, 0, [3])
    assert ship(st, 0, "gold") == 10 + 8 and ship(st, 1, "balls") == 1


def test_steel_cannon_has_no_range_limit():
    st = _interrupt_table()
    K.set_ship(st, 1, pos=20, treasure=r.STEEL_CANNON)
    play(st, 0, [3, 3])
    assert ship(st, 0, "gold") == 10 and ship(st, 1, "balls") == 0


def test_cannon_range_parameter():
    st = _interrupt_table(cannon__range=2)
    K.set_ship(st, 1, pos=20)
    play(st, 0, [3, 3])
    assert ship(st, 1, "balls") == 0


def test_starting_dock_protects_both_ways():
    st = _interrupt_table()
    K.set_ship(st, 1, pos=2)
    play(st, 0, [3])
    assert ship(st, 1, "balls") == 1 and ship(st, 0, "gold") == 18


@pytest.mark.parametrize("a, d, life", [(5, 3, 4), (3, 3, 5), (2, 6, 5)])
def test_firing_at_the_ship(a, d, life):
    st = table([OPEN8, OPEN8], seats=("gunner", "racer"))
    K.set_ship(st, 0, pos=4, balls=2)
    K.set_ship(st, 1, pos=12)
    play(st, 0, [a, d])
    assert ship(st, 1, "life") == life and ship(st, 0, "balls") == 1
    assert ship(st, 0, "pos") == 4  # firing is the whole turn
    assert cnt(st, 0, "cannon_shots") == 1 and cnt(st, 0, "cannon_hits") == (1 if life == 4 else 0)


def test_no_cannon_fire_into_fog_or_at_islands():
    st = table([". . F I . . . .", OPEN8], seats=("gunner", "racer"))
    K.set_ship(st, 0, pos=9, balls=2)
    K.set_ship(st, 1, pos=5, trap=r.TRAP_FOG)
    play(st, 0, [2])  # cannot fire: sails
    assert ship(st, 0, "balls") == 2 and ship(st, 0, "pos") == 11
    K.set_ship(st, 1, pos=6, trap=r.TRAP_NONE)  # on the island
    K.set_ship(st, 0, pos=9)
    play(st, 0, [2])
    assert ship(st, 0, "balls") == 2


# ------------------------------------------------------------------ Pirate's Peak


def test_peak_treasures_first_picks_from_three_second_from_two():
    st = table([OPEN8], seats=("racer", "gunner"))
    assert st.st[r.G_PEAK_X] == 11
    K.set_ship(st, 0, pos=9)
    play(st, 0, [5])  # must stop at the Peak
    assert ship(st, 0, "pos") == 11 and ship(st, 0, "treasure") == r.MIGHTY_SAIL
    assert cnt(st, 0, "peak_order") == 1
    K.set_ship(st, 1, pos=8)
    play(st, 1, [6])
    assert ship(st, 1, "treasure") == r.STEEL_CANNON and cnt(st, 1, "peak_order") == 2


def test_second_ship_cannot_take_the_first_ships_treasure():
    st = table([OPEN8], seats=("racer", "racer"))
    K.set_ship(st, 0, pos=9)
    K.set_ship(st, 1, pos=10)
    play(st, 0, [2])
    play(st, 1, [1])
    assert ship(st, 0, "treasure") == r.MIGHTY_SAIL and ship(st, 1, "treasure") == r.GOLDEN_CUTLASS


def test_mighty_sail_adds_a_space_but_not_from_the_dock():
    st = table([OPEN8, OPEN8])
    K.set_ship(st, 0, pos=12, treasure=r.MIGHTY_SAIL)
    play(st, 0, [3])
    assert ship(st, 0, "pos") == 16
    K.set_ship(st, 0, pos=0)
    play(st, 0, [3])
    assert ship(st, 0, "pos") == 3


def test_way_back_retraces_the_cards():
    st = table([". . . . . X . .", OPEN8])
    p = int(st.st[r.G_PEAK_X])
    K.set_ship(st, 0, pos=p, crew=0)
    play(st, 0, [3])  # homeward: physical space p - 3
    assert ship(st, 0, "pos") == p + 3
    assert phys_nb(st.w, p + 3) == p - 3


# ------------------------------------------------------------------ collisions


def test_head_on_collision_fight_and_winner_advances():
    st = table([OPEN8])  # Peak at 11: progress 15 is space 7 on the way back
    K.set_ship(st, 0, pos=4, crew=2)
    K.set_ship(st, 1, pos=15, crew=1)
    # roll 5 would cross space 7: stop at 6; pair 6 vs 2 (+4), unmatched crewman rolls 3 (+3)
    play(st, 0, [5, 6, 2, 3])
    assert ship(st, 0, "gold") == 17 and ship(st, 1, "gold") == 3
    assert ship(st, 0, "pos") == 8  # next open spot beyond the other ship
    assert cnt(st, 0, "ship_fights") == 1 and cnt(st, 0, "fight_gold_won") == 7


def test_collision_loser_mover_defender_advances_and_gold_never_negative():
    st = table([OPEN8])
    K.set_ship(st, 0, pos=4, crew=1, gold=1)
    K.set_ship(st, 1, pos=15, crew=2)
    play(st, 0, [5, 1, 6, 4])  # pair: -5 capped at 1 gold; unmatched steals nothing left
    assert ship(st, 0, "gold") == 0 and ship(st, 1, "gold") == 11
    assert ship(st, 0, "pos") == 6 and ship(st, 1, "pos") == 17  # jumps over the mover


def test_golden_cutlass_adds_one_to_each_crewman():
    st = table([OPEN8])
    K.set_ship(st, 0, pos=4, crew=1, treasure=r.GOLDEN_CUTLASS)
    K.set_ship(st, 1, pos=15, crew=1)
    play(st, 0, [5, 3, 4])  # 3+1 vs 4: a tie, no gold
    assert ship(st, 0, "gold") == 10 and ship(st, 1, "gold") == 10


def test_same_leg_collision_only_when_landing_on_the_spot():
    st = table([OPEN8])
    K.set_ship(st, 0, pos=4)
    K.set_ship(st, 1, pos=6)
    play(st, 0, [4])  # passes: no fight by default
    assert ship(st, 0, "pos") == 8 and cnt(st, 0, "ship_fights") == 0
    K.set_ship(st, 0, pos=4)
    K.set_ship(st, 1, pos=8)
    play(st, 0, [4])  # would land on it: stop before, fight (no crew: draw, mover advances)
    assert cnt(st, 0, "ship_fights") == 1 and ship(st, 0, "pos") == 9


def test_stopping_early_on_the_other_ships_x_is_a_collision():
    """Stopping early lands on the spot too: a digger that would stop on the X where the
    other ship lies stops on the space before and fights (no crew: a draw, the mover
    advances past the other ship)."""
    st = table([". . . X . . . ."], seats=("treasure_digger", "racer"))
    K.set_ship(st, 0, pos=4)
    K.set_ship(st, 1, pos=6)  # on the X
    play(st, 0, [4])
    assert cnt(st, 0, "ship_fights") == 1 and ship(st, 0, "pos") == 7
    # with the X free, the same move stops early on it without a fight
    st = table([". . . X . . . ."], seats=("treasure_digger", "racer"))
    K.set_ship(st, 0, pos=4)
    K.set_ship(st, 1, pos=9)
    play(st, 0, [4])
    assert cnt(st, 0, "ship_fights") == 0 and ship(st, 0, "pos") == 6


@pytest.mark.parametrize("card", [". . Q . . . . .", ". . F . . . . ."])
def test_entering_the_squid_or_fog_space_of_the_other_ship_is_a_collision(card):
    """The Giant Squid and the fog stop every ship, so a move into the space where the
    other ship lies would end there: a collision before it (no crew: a draw, the mover
    advances, onto the trap's space: a trap is never jumped, it catches the mover too)."""
    trap = r.TRAP_SQUID if "Q" in card else r.TRAP_FOG
    st = table([card])
    K.set_ship(st, 0, pos=4)
    K.set_ship(st, 1, pos=5, trap=trap)
    play(st, 0, [3])
    assert cnt(st, 0, "ship_fights") == 1 and ship(st, 0, "pos") == 5
    assert ship(st, 0, "trap") == trap and ship(st, 1, "trap") == trap


def test_held_ship_that_wins_a_fight_stays_held():
    """The squid holds seat 1 at 5; seat 0 sails in and loses.  The winner would advance,
    but the squid holds it until it rolls its way out: it stays, still caught."""
    st = table([". . Q . . . . ."])
    K.set_ship(st, 0, pos=4, crew=0)
    K.set_ship(st, 1, pos=5, crew=2, trap=r.TRAP_SQUID, trap_count=2)
    play(st, 0, [3, 3, 3])  # move 3; seat 1's two unmatched crewmen steal 3 + 3
    assert ship(st, 1, "pos") == 5 and ship(st, 1, "trap") == r.TRAP_SQUID
    assert ship(st, 1, "trap_count") == 2 and ship(st, 0, "pos") == 4
    assert ship(st, 1, "gold") == 16 and ship(st, 0, "gold") == 4


def test_fight_winner_does_not_advance_onto_or_past_the_ghost_ship():
    """The Ghost Ship lies just beyond the other ship: the winner may not land on it nor
    jump to it; it stays where it fought and meets the ghost on its next move."""
    for ghost in (6, 5):  # beyond the other ship's spot, and the other ship's next spot
        st = table([OPEN8])
        K.set_ship(st, 0, pos=3, crew=1)
        K.set_ship(st, 1, pos=ghost - 1 if ghost == 6 else 4, crew=0)
        st.st[r.G_GHOST_X] = ghost
        pos1 = ship(st, 1, "pos")
        play(st, 0, [pos1 - 3, 2])  # land on seat 1's spot; the unmatched crewman steals 2
        assert cnt(st, 0, "ship_fights") == 1 and cnt(st, 0, "ghost_fights") == 0
        assert ship(st, 0, "pos") == pos1 - 1 and st.st[r.G_GHOST_X] == ghost


def test_fight_winner_never_jumps_a_trap_it_is_caught_there():
    """Seat 1 is held by the squid at 5: seat 0 wins the fight and must advance, but the
    squid's space is never passed: it advances onto it and the squid catches it too."""
    st = table([". . Q . . . . ."])
    K.set_ship(st, 0, pos=4, crew=1)
    K.set_ship(st, 1, pos=5, crew=0, trap=r.TRAP_SQUID)
    play(st, 0, [3, 2])  # move 3; the unmatched crewman steals 2
    assert ship(st, 0, "pos") == 5 and ship(st, 0, "trap") == r.TRAP_SQUID
    assert cnt(st, 0, "squid_encounters") == 1 and ship(st, 1, "trap") == r.TRAP_SQUID


def test_fight_winner_advanced_onto_a_whirlpool_is_sucked_in():
    """The next open spot beyond the other ship is a whirlpool: the winner lands in it."""
    st = table([". . . W . . . ."])  # whirlpool at 6
    K.set_ship(st, 0, pos=4, crew=1)
    K.set_ship(st, 1, pos=5, crew=0)
    play(st, 0, [1, 4])  # lands on seat 1's spot: fight; the unmatched crewman steals 4
    assert ship(st, 0, "pos") == 6 and ship(st, 0, "trap") == r.TRAP_WHIRLPOOL
    assert cnt(st, 0, "whirlpool_encounters") == 1


def test_trace_names_the_other_seat_caught_by_its_advance():
    """Seat 1 wins seat 0's collision and its advance lands in a whirlpool during seat 0's
    turn: the trace line says which seat is caught."""
    from pirate_sim.games.pirates_peak.trace import format_events

    st = table([". . . W . . . ."])  # whirlpool at 6
    K.set_ship(st, 0, pos=4, crew=0)
    K.set_ship(st, 1, pos=5, crew=1)
    play(st, 0, [1, 4])  # lands on seat 1's spot; seat 1's unmatched crewman steals 4
    lines = format_events(st.events(), st.out_seats[0], st.compiled)
    assert any(line.endswith("seat 1 caught by the whirlpool at 6") for line in lines), lines
    assert ship(st, 1, "trap") == r.TRAP_WHIRLPOOL


def test_fight_winner_advance_skips_a_bypassed_island():
    """Ship paths do not cross islands: the winner's next open spot is past the island."""
    st = table([". . . I . . . ."])  # island at 6
    K.set_ship(st, 0, pos=4, crew=1)
    K.set_ship(st, 1, pos=5, crew=0)
    play(st, 0, [1, 4])
    assert ship(st, 0, "pos") == 7 and cnt(st, 0, "ship_fights") == 1


def test_collision_stops_a_ship_before_a_bypassed_island_not_on_it():
    """The racer bypasses the island at 4 and would land on seat 1 at 5: it stops on the
    last space of its path, 3, and fights from there (no crew: a draw; it advances past
    the island and seat 1 to 6)."""
    st = table([". I . . . . . ."])  # island at 4
    K.set_ship(st, 0, pos=3)
    K.set_ship(st, 1, pos=5)
    play(st, 0, [1])  # the bypassed island is not a step: 5 is the move's last step
    moves = [e for e in st.events() if e[0] == r.EV_MOVE and e[1] == 0]
    assert moves[-1][3] == 3  # stopped (and fought) on 3, not on the island
    assert cnt(st, 0, "ship_fights") == 1 and ship(st, 0, "pos") == 6


def test_no_collision_from_an_island_the_ships_pass():
    """A ship on an island can not attack or be attacked: moving off it onto the other
    ship's spot is no collision (nor a deadlock); the ships share the spot."""
    st = table([". I . . . . . ."])
    K.set_ship(st, 0, pos=4)  # stopped on the island earlier
    K.set_ship(st, 1, pos=5)
    play(st, 0, [1])
    assert cnt(st, 0, "ship_fights") == 0 and ship(st, 0, "pos") == 5


def test_no_collision_when_spat_out_of_a_whirlpool_onto_the_other_ship():
    """No fighting occurs in a whirlpool: the ship spat out one space onto the other ship's
    spot does not fight from the whirlpool, it moves on."""
    st = table([". . . W . . . ."])  # whirlpool at 6
    K.set_ship(st, 0, pos=6, trap=r.TRAP_WHIRLPOOL, trap_count=4)
    K.set_ship(st, 1, pos=7)
    play(st, 0, [2])  # fifth failure: a life point, spat out one space
    assert cnt(st, 0, "ship_fights") == 0 and ship(st, 0, "pos") == 7
    assert ship(st, 0, "life") == 4 and ship(st, 0, "trap") == r.TRAP_NONE


def test_random_player_decides_a_stop_once_per_space():
    """The random player's stop-early choice on the other ship's X is one draw, made
    before the collision test and kept for the stop: a stop means a fight (stopped on the
    space before, then advanced past the other ship), sailing on means no fight."""
    c = make([". . . X . . . ."], seats=("random", "racer"))
    outcomes = set()
    for seed in range(20):
        st = K.new_state(c, deck_order=[0, 1], ev_capacity=2000)
        K.lay_cards(st, new_rng(0, 0), 10**6)
        K.set_ship(st, 0, pos=4)
        K.set_ship(st, 1, pos=6)  # on the X
        rng, expected = new_rng(seed, 0), new_rng(seed, 0)
        stops = rand_below_nb(expected, 2) == 1  # the one draw the choice may take
        K.sail(st, 0, rng, 4)
        assert np.array_equal(rng, expected)  # exactly that draw, nothing else
        fought = cnt(st, 0, "ship_fights") == 1
        assert fought == stops
        assert ship(st, 0, "pos") == (7 if stops else 8)
        outcomes.add(stops)
    assert outcomes == {True, False}


def test_overtake_parameter_makes_passing_a_collision():
    st = table([OPEN8], fight__overtake=True)
    K.set_ship(st, 0, pos=4)
    K.set_ship(st, 1, pos=6)
    play(st, 0, [4])
    assert cnt(st, 0, "ship_fights") == 1 and ship(st, 0, "pos") == 7


# ------------------------------------------------------------------ the Ghost Ship


def test_summon_ghost_on_two_ones_then_move_third_roll():
    st = table([OPEN8, OPEN8])
    K.set_ship(st, 0, pos=5)
    play(st, 0, [1, 1, 3])
    assert st.st[r.G_GHOST_X] == 5 and ship(st, 0, "pos") == 8
    assert cnt(st, 0, "ghost_summons") == 1


def test_summon_attempt_failing_moves_the_second_roll():
    st = table([OPEN8, OPEN8])
    K.set_ship(st, 0, pos=5)
    play(st, 0, [1, 4])
    assert st.st[r.G_GHOST_X] == -1 and ship(st, 0, "pos") == 9


def test_no_summoning_from_an_island():
    st = table([". I . . . . . ."])
    K.set_ship(st, 0, pos=4)
    play(st, 0, [1])
    assert ship(st, 0, "pos") == 5 and cnt(st, 0, "ghost_summons") == 0


def test_ghost_fight_rolls_six_gold_to_sea_bank_and_ghost_removed():
    st = table([OPEN8, OPEN8])
    st.st[r.G_GHOST_X] = 5
    K.set_ship(st, 1, pos=3, crew=2)
    play(st, 1, [4, 2, 6])  # stops at 4: crew roll 2 (-4) and 6 (tie)
    assert ship(st, 1, "pos") == 4 and ship(st, 1, "gold") == 6
    assert st.st[r.G_SEA_BANK] == 4 and st.st[r.G_GHOST_X] == -1
    assert cnt(st, 1, "gold_to_sea_bank") == 4 and cnt(st, 1, "ghost_fights") == 1


def test_ghost_beaten_with_cutlass_pays_from_sea_bank():
    st = table([OPEN8, OPEN8])
    st.st[r.G_GHOST_X] = 5
    st.st[r.G_SEA_BANK] = 3
    K.set_ship(st, 1, pos=3, crew=1, treasure=r.GOLDEN_CUTLASS)
    play(st, 1, [4, 6])  # 6 + 1 beats 6: +1 gold from the Sea Bank, winner advances
    assert ship(st, 1, "gold") == 11 and st.st[r.G_SEA_BANK] == 2 and ship(st, 1, "pos") == 5


# ------------------------------------------------------------------ islands


def test_island_stop_counts_as_a_space_and_buys():
    st = table([". I . . . . . ."], seats=("treasure_digger", "racer"))
    K.set_ship(st, 0, pos=2, crew=1)
    play(st, 0, [5])
    # gold reserve 4: two crewmen for 6 gold
    assert ship(st, 0, "pos") == 4 and ship(st, 0, "crew") == 3 and ship(st, 0, "gold") == 4
    assert cnt(st, 0, "island_stops") == 1 and cnt(st, 0, "crew_bought") == 2


def test_bypassed_island_does_not_count():
    st = table([". I . . . . . ."])
    K.set_ship(st, 0, pos=2)
    play(st, 0, [3])
    assert ship(st, 0, "pos") == 6


def test_no_collision_with_a_ship_on_an_island():
    st = table([". I . . . . . ."])
    K.set_ship(st, 0, pos=2)
    K.set_ship(st, 1, pos=4)
    play(st, 0, [4])
    assert cnt(st, 0, "ship_fights") == 0 and ship(st, 0, "pos") == 7


# ------------------------------------------------------------------ traps and bonuses


def test_whirlpool_sucks_in_and_a_six_escapes_six_spaces():
    st = table([". . W . . . . .", OPEN8])
    K.set_ship(st, 0, pos=2)
    play(st, 0, [6])
    assert ship(st, 0, "pos") == 5 and ship(st, 0, "trap") == r.TRAP_WHIRLPOOL
    play(st, 0, [6])
    assert ship(st, 0, "pos") == 11 and ship(st, 0, "trap") == r.TRAP_NONE
    assert cnt(st, 0, "whirlpool_escapes") == 1


def test_whirlpool_spits_out_after_five_failures_with_a_life_point():
    st = table([". . W . . . . .", OPEN8])
    K.set_ship(st, 0, pos=5, trap=r.TRAP_WHIRLPOOL)
    for die in (1, 2, 3, 4):
        play(st, 0, [die])
        assert ship(st, 0, "pos") == 5
    play(st, 0, [5])
    assert ship(st, 0, "pos") == 6 and ship(st, 0, "life") == 4
    assert cnt(st, 0, "whirlpool_attempts") == 5 and cnt(st, 0, "whirlpool_spits") == 1


def test_mermaids_take_a_crewman_only_when_landing_exactly():
    st = table([". . M . . . . ."])
    K.set_ship(st, 0, pos=2, crew=2)
    play(st, 0, [3])
    assert ship(st, 0, "crew") == 1 and cnt(st, 0, "mermaid_losses") == 1
    K.set_ship(st, 0, pos=2)
    play(st, 0, [4])
    assert ship(st, 0, "crew") == 1


def test_squid_stops_the_ship():
    st = table([". . Q . . . . ."])
    K.set_ship(st, 0, pos=2)
    play(st, 0, [5])
    assert ship(st, 0, "pos") == 5 and ship(st, 0, "trap") == r.TRAP_SQUID
    assert cnt(st, 0, "squid_encounters") == 1


@pytest.mark.parametrize(
    "dice, pos, trap, life",
    [
        ([4, 4, 4], 5, r.TRAP_NONE, 5),  # 12: escapes, sails next turn
        ([6, 6, 6], 11, r.TRAP_NONE, 5),  # 18: moves 6 at once
        ([1, 2, 3], 5, r.TRAP_SQUID, 4),  # 6: low total costs a life point
        ([2, 3, 3], 5, r.TRAP_SQUID, 5),  # 8: nothing
    ],
)
def test_squid_attempt(dice, pos, trap, life):
    st = table([". . Q . . . . .", OPEN8])
    K.set_ship(st, 0, pos=5, trap=r.TRAP_SQUID)
    play(st, 0, dice)
    assert (ship(st, 0, "pos"), ship(st, 0, "trap"), ship(st, 0, "life")) == (pos, trap, life)


def test_squid_escape_total_parameter():
    st = table([". . Q . . . . ."], squid__escape_total=13)
    K.set_ship(st, 0, pos=5, trap=r.TRAP_SQUID)
    play(st, 0, [4, 4, 4])
    assert ship(st, 0, "trap") == r.TRAP_SQUID


def test_squid_sacrifice_after_three_failed_attempts():
    st = table([". . Q . . . . .", OPEN8], seats=("racer", "treasure_digger"))
    K.set_ship(st, 0, pos=5, trap=r.TRAP_SQUID, crew=1)
    K.set_ship(st, 1, pos=5, trap=r.TRAP_SQUID, crew=1)
    for _ in range(2):
        play(st, 0, [2, 3, 3])
        assert ship(st, 0, "trap") == r.TRAP_SQUID
    play(st, 0, [2, 3, 3])
    assert ship(st, 0, "trap") == r.TRAP_NONE and ship(st, 0, "crew") == 0
    play(st, 0, [2])  # moves on next turn
    assert ship(st, 0, "pos") == 7 and cnt(st, 0, "squid_sacrifices") == 1
    for _ in range(3):  # the digger keeps its crew and keeps rolling
        play(st, 1, [2, 3, 3])
    assert ship(st, 1, "trap") == r.TRAP_SQUID and ship(st, 1, "crew") == 1


@pytest.mark.parametrize("die, pos", [(4, 9), (2, 7), (3, 8), (6, 5), (1, 5)])
def test_fog_guess_within_one(die, pos):
    st = table([". . F . . . . .", OPEN8])  # racer calls 3
    K.set_ship(st, 0, pos=2)
    play(st, 0, [6])  # must stop in the fog
    assert ship(st, 0, "pos") == 5 and ship(st, 0, "trap") == r.TRAP_FOG
    play(st, 0, [die])
    assert ship(st, 0, "pos") == pos and cnt(st, 0, "fog_turns") == 1


def test_castaway_adds_a_crewman_if_room():
    st = table([". . C . . . . ."])
    K.set_ship(st, 0, pos=2, crew=1)
    play(st, 0, [5])  # stops early
    assert ship(st, 0, "pos") == 5 and ship(st, 0, "crew") == 2
    K.set_ship(st, 0, pos=2, crew=4)
    play(st, 0, [5])  # no room: sails on
    assert ship(st, 0, "pos") == 7 and ship(st, 0, "crew") == 4


def test_gust_of_wind_doubles_next_move():
    st = table([". . G . . . . .", OPEN8])
    K.set_ship(st, 0, pos=2)
    play(st, 0, [3])
    assert ship(st, 0, "gust") == 1
    play(st, 0, [2])
    assert ship(st, 0, "pos") == 9 and ship(st, 0, "gust") == 0


def test_shortcut_saves_spaces_next_turn():
    st = table([". . K . . . . .", OPEN8])
    K.set_ship(st, 0, pos=2)
    play(st, 0, [3])
    play(st, 0, [2])
    assert ship(st, 0, "pos") == 9 and cnt(st, 0, "shortcuts_taken") == 1


# ------------------------------------------------------------------ the end


def test_docking_needs_the_exact_roll_and_sells_crew():
    st = table([OPEN8])  # Peak 11: the dock is progress 22
    K.set_ship(st, 0, pos=20, crew=3)
    K.set_ship(st, 1, pos=12, gold=12)
    play(st, 0, [3])
    assert ship(st, 0, "pos") == 20 and cnt(st, 0, "overshoots") == 1 and st.st[r.G_OVER] == 0
    play(st, 0, [2])
    assert ship(st, 0, "docked") == 1 and ship(st, 0, "gold") == 13 and ship(st, 0, "crew") == 0
    assert st.st[r.G_OVER] == 1 and st.st[r.G_WINNER] == 0 and st.st[r.G_END] == r.END_MOST_GOLD


def test_docking_tie_on_gold():
    st = table([OPEN8])
    K.set_ship(st, 0, pos=20, crew=2)
    K.set_ship(st, 1, pos=12, gold=12)
    play(st, 0, [2])
    assert st.st[r.G_END] == r.END_TIE and st.st[r.G_WINNER] == -1


def test_losing_the_fifth_life_point_loses_at_once():
    st = table([". . Q . . . . ."])
    K.set_ship(st, 0, pos=5, trap=r.TRAP_SQUID, life=1, gold=50)
    play(st, 0, [1, 1, 1])
    assert st.st[r.G_OVER] == 1 and st.st[r.G_END] == r.END_SUNK and st.st[r.G_WINNER] == 1


def test_turn_cap_truncates():
    c = make(list(r.DEFAULT_DECK), turn_cap=10, deck__peak_earliest_flip=6)
    s = K.play_one(c, new_rng(5, 0))
    row = s.out_games[0]
    assert row[1] == 10 and row[3] == 1 and row[2] == r.END_TRUNCATED and row[0] == -1


def test_trace_lines_readable():
    c = make(list(r.DEFAULT_DECK), seats=("treasure_digger", "gunner"), deck__peak_earliest_flip=6)
    lines = GAME.trace(c, 7, 3)
    assert lines[0].startswith("Setup")
    assert any(line.startswith("Turn 1 - seat") for line in lines)
    assert lines[-1].startswith("End (")
