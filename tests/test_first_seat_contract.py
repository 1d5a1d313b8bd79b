"""Every game's ``first_seat`` column names the seat that moved first in its trace, for
every ``rules.first_player`` mode (issue 20: Ice Pirates wrote 0 for every game although
play rotated, so every Ice Pirates first-player figure was measured against seat 0).

The first mover is read off each game's own trace, the record a designer checks by hand:
Ice Pirates' first turn event, Pirate's Peak's "Turn 1 - seat N" line, Pirate's Cove's
first action of round 1 after its "first player" line, Pirateer's first roll.
"""

import re

import numpy as np
import pytest

from pirate_sim import scenario as scen
from pirate_sim.games import get_game
from pirate_sim.games.base import G_FIRST_SEAT
from pirate_sim.seating import FIRST_PLAYER_MODES

GAMES = ("ice_pirates", "pirates_peak", "pirates_cove", "pirateer")
N_GAMES = 6  # per mode: enough to see every seat of a rotation (at most 4 seats here)


def _scenario(name, mode):
    g = get_game(name)
    return scen.from_dict({"game": name, "run": {"seed": 77}, "rules": {},
                           "seats": [{"strategy": s} for s in g.default_seats]},
                          overrides=[f"rules.first_player={mode}"])


def _first_mover(name, game, compiled, seed, k):
    """The seat that makes the first move of game ``k``, read from its trace."""
    if name == "pirates_peak":
        for line in game.trace(compiled, seed, k):
            m = re.match(r"Turn 1 - seat (\d+)", line)
            if m:
                return int(m.group(1))
        raise AssertionError("no first turn in the trace")
    ev, _, _ = game.trace_events(compiled, seed, k)
    if name == "ice_pirates":
        from pirate_sim.games.ice_pirates.rules import EV_TURN
        rows = ev[ev[:, 2] == EV_TURN]
    elif name == "pirates_cove":
        from pirate_sim.games.pirates_cove.rules import EV_FIRST
        rows = ev[(ev[:, 1] >= 0) & (ev[:, 2] != EV_FIRST)]
    else:
        from pirate_sim.games.pirateer.rules import EV_ROLL
        rows = ev[ev[:, 2] == EV_ROLL]
    assert len(rows), "no first move in the trace"
    return int(rows[0, 1])


@pytest.mark.parametrize("mode", FIRST_PLAYER_MODES)
@pytest.mark.parametrize("name", GAMES)
def test_first_seat_is_the_seat_that_moved_first(name, mode):
    s = _scenario(name, mode)
    c = s.compile()
    out_g, _ = s.game.play(c, s.seed, 0, N_GAMES)
    traced = [_first_mover(name, s.game, c, s.seed, k) for k in range(N_GAMES)]
    assert out_g[:, G_FIRST_SEAT].tolist() == traced
    if mode == "rotate":
        assert traced == [k % s.n_seats for k in range(N_GAMES)]


def test_ice_pirates_first_seat_varies_as_play_does():
    """The default (first_player = random) spreads first moves over every seat, and the
    column follows: the bug wrote 0 for all of them."""
    s = _scenario("ice_pirates", "random")
    out_g, _ = s.game.play(s.compile(), s.seed, 0, 400)
    counts = np.bincount(out_g[:, G_FIRST_SEAT], minlength=s.n_seats)
    assert len(counts) == s.n_seats and (counts > 60).all()  # 100 expected each, sd 8.7
