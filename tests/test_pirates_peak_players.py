"""Pirate's Peak players' judgement: each policy parameter changes the decision it names
(scripted dice; helpers and track layout as in test_pirates_peak_rules.py)."""

from __future__ import annotations

import numpy as np
import pytest
from test_pirates_peak_rules import OPEN8, cnt, play, ship, table

from pirate_sim.games.pirates_peak import GAME
from pirate_sim.games.pirates_peak import kernel as K
from pirate_sim.games.pirates_peak import rules as r

X_CARD = ". X . . . . . ."


@pytest.mark.parametrize("caution, searched", [(0, True), (1, False)])
def test_caution_on_the_last_life_point_keeps_out_of_reach(caution, searched):
    st = table(
        [X_CARD, OPEN8],
        seats=("treasure_digger", "gunner"),
        params=({"caution_life": caution}, None),
    )
    K.set_ship(st, 0, pos=4, crew=2, life=1)  # on an X, one life point left
    K.set_ship(st, 1, pos=6, balls=1)  # the gunner's cannon reaches it
    play(st, 0, [4, 5] if searched else [3])  # searched: interrupted and sunk
    assert (cnt(st, 0, "searches") == 1) == searched
    assert st.st[r.G_OVER] == (1 if searched else 0)
    assert ship(st, 0, "pos") == (4 if searched else 7)


def test_a_cautious_ship_digs_out_of_cannon_range():
    st = table(
        [X_CARD, OPEN8, OPEN8],
        seats=("treasure_digger", "gunner"),
        params=({"caution_life": 2}, None),
    )
    K.set_ship(st, 0, pos=4, crew=2, life=1)
    K.set_ship(st, 1, pos=20, balls=1)  # two cards away
    play(st, 0, [3])
    assert cnt(st, 0, "searches") == 1 and ship(st, 0, "gold") == 10 + 8


@pytest.mark.parametrize("reserve, fired", [(0, True), (1, False)])
def test_cannonball_reserve_is_kept_for_interrupts(reserve, fired):
    st = table([OPEN8, OPEN8], seats=("gunner", "racer"), params=({"cannonball_reserve": reserve}, None))
    K.set_ship(st, 0, pos=4, balls=1)
    K.set_ship(st, 1, pos=12)
    play(st, 0, [5, 3] if fired else [2])
    assert ship(st, 0, "balls") == (0 if fired else 1)
    assert ship(st, 1, "life") == (4 if fired else 5)


@pytest.mark.parametrize(
    "params, opp, fired",
    [
        ({"fire_at_life": 2}, {"life": 3}, False),
        ({"fire_at_life": 2}, {"life": 2}, True),  # sinking it wins
        ({"fire_when_behind": 5}, {"gold": 14}, False),
        ({"fire_when_behind": 5}, {"gold": 15}, True),  # trailing by 5
    ],
)
def test_fire_at_a_ship_low_on_life_or_when_trailing(params, opp, fired):
    st = table([OPEN8, OPEN8], seats=("treasure_digger", "racer"), params=(params, None))
    K.set_ship(st, 0, pos=4, balls=1)
    K.set_ship(st, 1, pos=12, **opp)
    play(st, 0, [5, 3] if fired else [2])
    assert cnt(st, 0, "cannon_shots") == (1 if fired else 0)


@pytest.mark.parametrize("gold, stops", [(10, True), (11, False)])
def test_race_home_on_low_life_when_ahead(gold, stops):
    st = table(
        [X_CARD],
        seats=("treasure_digger", "racer"),
        params=({"race_life": 2}, None),
    )
    K.set_ship(st, 0, pos=2, life=2, gold=gold)  # level: digs; ahead: races past the X
    play(st, 0, [4])
    assert ship(st, 0, "pos") == (4 if stops else 6)


def _near_dock(hold, **opp):
    st = table(
        [X_CARD],
        seats=("racer", "gunner"),
        params=({"search_on_landing": False, "hold_when_behind": hold}, None),
    )
    K.set_ship(st, 1, **opp)
    return st


@pytest.mark.parametrize("hold", [0, 5])
def test_hold_when_behind_digs_instead_of_docking(hold):
    st = _near_dock(hold, pos=14, gold=20)  # the dock is progress 22; seat 1 leads by 10
    K.set_ship(st, 0, pos=18, crew=1)  # on the X (space 4) on the way home
    play(st, 0, [4])
    if hold:  # searches (2 x 4 + 1) rather than dock and lose
        assert ship(st, 0, "gold") == 19 and st.st[r.G_OVER] == 0
    else:
        assert ship(st, 0, "docked") == 1 and st.st[r.G_WINNER] == 1


def test_hold_when_behind_fires_when_it_cannot_dig():
    st = _near_dock(5, pos=9, gold=20)
    K.set_ship(st, 0, pos=19, balls=1)  # space 3, no X; the opponent on the same card
    play(st, 0, [2, 4])
    assert cnt(st, 0, "cannon_shots") == 1 and ship(st, 0, "pos") == 19


def test_digger_interrupts_when_told():
    st = table(
        [X_CARD, OPEN8],
        seats=("treasure_digger", "treasure_digger"),
        params=(None, {"interrupt_searches": True}),
    )
    K.set_ship(st, 0, pos=4, crew=2)
    K.set_ship(st, 1, pos=6, balls=1)
    play(st, 0, [4, 5])
    assert cnt(st, 1, "interrupts_fired") == 1 and ship(st, 0, "life") == 4


def test_judgement_parameters_reach_the_kernel():
    c = GAME.compile(
        r.defaults(),
        [
            {"strategy": "treasure_digger", "fire_when_behind": 0, "caution_life": 2},
            {"strategy": "gunner", "hold_when_behind": 7, "cannonball_reserve": 1},
        ],
    )
    sp = c.arrays[3]
    assert sp[0, r.SP_FIRE_BEHIND] == r.NEVER and sp[0, r.SP_CAUTION_LIFE] == 2
    assert sp[1, r.SP_HOLD_BEHIND] == 7 and sp[1, r.SP_BALL_RESERVE] == 1
    assert np.all(sp[:, r.SP_HOLD_BEHIND] > 0)


def test_expert_is_bundled_with_the_searched_settings():
    from pirate_sim.games.pirates_peak.strategies import EXPERT, EXPERT_DEFAULTS

    assert EXPERT in GAME.strategies and EXPERT.code == r.STRAT_EXPERT
    assert {p.key: p.default for p in EXPERT.params} == EXPERT_DEFAULTS


def test_expert_beats_every_bundled_player():
    from pirate_sim.games.pirates_peak.pairings import play_pairing

    for other in ("random", "treasure_digger", "racer", "gunner"):
        p = play_pairing(GAME, r.defaults(), "expert", other, 1500, seed=5)
        assert p.share_a.lo > 0.55, (other, p.share_a)
