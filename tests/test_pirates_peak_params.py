"""Pirate's Peak rule numbers as parameters: each one moved off its rulebook value changes
exactly the outcome it names (scripted dice; helpers and track layout as in
test_pirates_peak_rules.py)."""

from __future__ import annotations

import pytest
from test_pirates_peak_rules import OPEN8, cnt, make, play, ship, table

from pirate_sim.games.pirates_peak import kernel as K
from pirate_sim.games.pirates_peak import rules as r


def test_gold_per_crewman_in_a_search():
    st = table([". X . . . . . ."], search__gold_per_crewman=2)
    K.set_ship(st, 0, pos=2, crew=3)
    play(st, 0, [2, 5])  # lands on the X and searches: 2 x 5 + 2 x 3
    assert ship(st, 0, "gold") == 10 + 16


def test_life_points_lost_per_cannon_hit():
    st = table([OPEN8, OPEN8], seats=("gunner", "racer"), cannon__hit_life_loss=2)
    K.set_ship(st, 0, pos=4, balls=2)
    K.set_ship(st, 1, pos=12)
    play(st, 0, [5, 3])
    assert ship(st, 1, "life") == 3 and cnt(st, 1, "life_lost") == 2


def test_life_points_lost_per_full_interrupt():
    st = table(
        [". X . . . . . .", OPEN8], seats=("treasure_digger", "gunner"), cannon__interrupt_life_loss=3
    )
    K.set_ship(st, 0, pos=4, crew=2)
    K.set_ship(st, 1, pos=6, balls=1)
    play(st, 0, [4, 5])  # attacker higher: a full interrupt
    assert ship(st, 0, "life") == 2 and ship(st, 0, "gold") == 10


@pytest.mark.parametrize("loss, life", [(0, 5), (2, 3)])
def test_life_points_lost_when_spat_out_of_a_whirlpool(loss, life):
    st = table([". . W . . . . .", OPEN8], whirlpool__spit_life_loss=loss)
    K.set_ship(st, 0, pos=5, trap=r.TRAP_WHIRLPOOL, trap_count=4)
    play(st, 0, [1])
    assert ship(st, 0, "pos") == 6 and ship(st, 0, "life") == life
    assert cnt(st, 0, "whirlpool_spits") == 1


def test_life_points_lost_per_squid_low_roll():
    st = table([". . Q . . . . .", OPEN8], squid__low_roll_life_loss=2)
    K.set_ship(st, 0, pos=5, trap=r.TRAP_SQUID)
    play(st, 0, [1, 2, 3])
    assert ship(st, 0, "life") == 3 and cnt(st, 0, "squid_life_losses") == 2
    K.set_ship(st, 0, life=1)  # the last point: the counter counts what was lost
    play(st, 0, [1, 1, 1])
    assert cnt(st, 0, "squid_life_losses") == 3 and st.st[r.G_END] == r.END_SUNK


def test_crewmen_lost_to_the_mermaids():
    st = table([". . M . . . . ."], mermaids__crew_lost=2)
    K.set_ship(st, 0, pos=2, crew=3)
    play(st, 0, [3])
    assert ship(st, 0, "crew") == 1 and cnt(st, 0, "mermaid_losses") == 2
    K.set_ship(st, 0, pos=2)
    play(st, 0, [3])  # only one left to lose
    assert ship(st, 0, "crew") == 0 and cnt(st, 0, "mermaid_losses") == 3


def test_crewmen_gained_from_a_castaway_up_to_the_room():
    st = table([". . C . . . . ."], castaway__crew_gained=2)
    K.set_ship(st, 0, pos=2, crew=1)
    play(st, 0, [5])
    assert ship(st, 0, "crew") == 3 and cnt(st, 0, "castaways") == 1
    K.set_ship(st, 0, pos=2)
    play(st, 0, [3])
    assert ship(st, 0, "crew") == 4


@pytest.mark.parametrize("crew, freed", [(1, False), (2, True)])
def test_crewmen_sacrificed_to_the_squid(crew, freed):
    st = table([". . Q . . . . .", OPEN8], squid__sacrifice_crew=2)
    K.set_ship(st, 0, pos=5, trap=r.TRAP_SQUID, trap_count=2, crew=crew)
    play(st, 0, [2, 3, 3])
    assert (ship(st, 0, "trap") == r.TRAP_NONE) == freed
    assert ship(st, 0, "crew") == (0 if freed else crew)


def test_summon_without_the_second_roll():
    st = table([OPEN8, OPEN8], ghost__summon_needs_second=False)
    K.set_ship(st, 0, pos=5)
    play(st, 0, [1, 3])  # the 1 summons at once; the next roll moves
    assert st.st[r.G_GHOST_X] == 5 and ship(st, 0, "pos") == 8
    assert cnt(st, 0, "ghost_summons") == 1


def test_ghost_crew_fixed_smaller_than_the_attackers():
    st = table([OPEN8, OPEN8], ghost__crew=1)
    st.st[r.G_GHOST_X] = 5
    K.set_ship(st, 1, pos=3, crew=2)
    # stops at 4; crewman 1 rolls 2 against the ghost's 6 (-4, to the Sea Bank); crewman 2
    # is unmatched and takes its roll, 6 (4 from the Sea Bank, 2 from the supply)
    play(st, 1, [4, 2, 6])
    assert ship(st, 1, "gold") == 12 and st.st[r.G_SEA_BANK] == 0
    assert ship(st, 1, "pos") == 5  # came out ahead: advances onto the ghost's space


def test_ghost_crew_fixed_larger_than_the_attackers():
    st = table([OPEN8, OPEN8], ghost__crew=3)
    st.st[r.G_GHOST_X] = 5
    K.set_ship(st, 1, pos=3, crew=1)
    play(st, 1, [4, 6])  # a tie, then two unmatched ghosts take 6 each (capped by the stash)
    assert ship(st, 1, "gold") == 0 and st.st[r.G_SEA_BANK] == 10 and ship(st, 1, "pos") == 4


def test_peak_with_one_treasure():
    st = table([OPEN8], seats=("racer", "racer"), peak__treasures=["steel_cannon"])
    K.set_ship(st, 0, pos=9)
    K.set_ship(st, 1, pos=10)
    play(st, 0, [2])
    play(st, 1, [1])
    assert ship(st, 0, "treasure") == r.STEEL_CANNON and ship(st, 1, "treasure") == r.NO_TREASURE
    assert cnt(st, 1, "peak_order") == 2


def test_peak_treasures_are_checked():
    with pytest.raises(ValueError, match="peak.treasures: unknown treasure 'gold_chest'"):
        make([OPEN8], peak__treasures=["gold_chest"])
    with pytest.raises(ValueError, match="peak.treasures: a treasure is listed twice"):
        make([OPEN8], peak__treasures=["mighty_sail", "mighty_sail"])


def test_steel_cannon_range_parameter():
    st = table(
        [". X . . . . . .", OPEN8, OPEN8],
        seats=("treasure_digger", "gunner"),
        treasure__steel_cannon_range=1,
    )
    K.set_ship(st, 0, pos=4, crew=2)
    K.set_ship(st, 1, pos=20, balls=1, treasure=r.STEEL_CANNON)  # two cards away
    play(st, 0, [3])
    assert ship(st, 1, "balls") == 1 and ship(st, 0, "gold") == 10 + 8


def test_docking_without_the_exact_roll():
    st = table([OPEN8], dock__exact_roll=False)  # the dock is progress 22
    K.set_ship(st, 0, pos=20, crew=3)
    play(st, 0, [5])
    assert ship(st, 0, "docked") == 1 and st.st[r.G_OVER] == 1 and cnt(st, 0, "overshoots") == 0


@pytest.mark.parametrize(
    "dice, pos, trap, attempts",
    [
        ([3, 4, 4, 4], 5, r.TRAP_NONE, 1),  # caught, escapes at once, sails next turn
        ([3, 6, 6, 6], 11, r.TRAP_NONE, 1),  # caught, the instant total moves it on now
        ([3, 2, 3, 3], 5, r.TRAP_SQUID, 1),  # caught and held
    ],
)
def test_squid_first_attempt_on_arrival(dice, pos, trap, attempts):
    st = table([". . Q . . . . .", OPEN8], squid__first_attempt="arrival")
    K.set_ship(st, 0, pos=2)
    play(st, 0, dice)
    assert (ship(st, 0, "pos"), ship(st, 0, "trap")) == (pos, trap)
    assert cnt(st, 0, "squid_attempts") == attempts


def test_squid_first_attempt_next_turn_by_default():
    st = table([". . Q . . . . .", OPEN8])
    K.set_ship(st, 0, pos=2)
    play(st, 0, [3])
    assert ship(st, 0, "trap") == r.TRAP_SQUID and cnt(st, 0, "squid_attempts") == 0


@pytest.mark.parametrize("allowed", [False, True])
def test_cannon_fire_into_a_whirlpool(allowed):
    st = table([". . W . . . . .", OPEN8], seats=("gunner", "racer"), cannon__whirlpool_fire=allowed)
    K.set_ship(st, 0, pos=9, balls=2)
    K.set_ship(st, 1, pos=5, trap=r.TRAP_WHIRLPOOL)
    play(st, 0, [5, 3] if allowed else [2])
    assert ship(st, 0, "balls") == (1 if allowed else 2)
    assert ship(st, 1, "life") == (4 if allowed else 5)



def test_an_empty_supply_pays_what_it_has_left():
    st = table([". X . . . . . .", OPEN8], gold__supply=30)  # 10 in the box after starting gold
    K.set_ship(st, 0, pos=2, crew=2)
    st.st[r.G_SEA_BANK] = 3
    st.st[r.G_TURNS] = 40
    play(st, 0, [2, 6])  # finds 2 x 6 + 2 = 14: 3 from the Sea Bank, the box's 10, 1 unpaid
    assert ship(st, 0, "gold") == 10 + 13 and st.st[r.G_SEA_BANK] == 0
    assert cnt(st, 0, "unpaid_gold") == 1 and cnt(st, 0, "search_gold") == 13
    assert st.st[r.G_SUPPLY] == -10 and st.st[r.G_SUPPLY_DRY] == 41
    K.set_ship(st, 1, pos=36, crew=3)  # the Peak is space 19, the dock progress 38
    play(st, 1, [2])  # docks: its crewmen sell for nothing, the box is empty
    assert ship(st, 1, "gold") == 10 and cnt(st, 1, "unpaid_gold") == 3
    assert st.st[r.G_SUPPLY_DRY] == 41  # the turn it first ran dry


def test_purchases_refill_the_supply():
    st = table([". I . X . . . .", OPEN8], seats=("treasure_digger", "racer"), gold__supply=20)
    K.set_ship(st, 0, pos=2, crew=1)
    play(st, 0, [5])  # stops at the island: 2 crewmen for 6 gold go into the empty box
    assert st.st[r.G_SUPPLY] == 6
    play(st, 0, [2, 3])  # lands on the X and searches: 2 x 3 + 3 = 9, the box pays 6
    assert ship(st, 0, "gold") == 4 + 6 and cnt(st, 0, "unpaid_gold") == 3


def test_gold_supply_must_hold_the_starting_gold():
    with pytest.raises(ValueError, match="^gold.supply: 15 is less than"):
        make([OPEN8], gold__supply=15)


def test_unlimited_supply_never_runs_dry():
    st = table([". X . . . . . ."], gold__supply=-1)
    K.set_ship(st, 0, pos=2, crew=4)
    st.st[r.G_SUPPLY] = -10_000
    play(st, 0, [2, 6])
    assert ship(st, 0, "gold") == 10 + 16 and st.st[r.G_SUPPLY_DRY] == 0
