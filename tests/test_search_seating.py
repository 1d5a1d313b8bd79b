"""A search seat's model of the table follows the players, not the seat numbers.

With ``strategy_seating = "rotate"`` game k seats entry j at seat (j + k) mod n.  Game k of a
rotated table must then be exactly game k of the fixed table that seats the same players at
the same seats: the same rules, stream and choices, only the entries' labels differ.  Ice
Pirates' search once broke this (its ``mix`` opponent model was written into the rows of the
seats' numbers, but the kernel reads a seat's row by its entry, so under rotation the
searching seat's own future turns were modelled as an opponent's).  Real kernels, small
budgets, every game with a ``search`` player.
"""

from __future__ import annotations

import numpy as np
import pytest

from pirate_sim import scenario as scen

TABLES = {  # game: the rotated table's seats (a search seat among scripted ones), games k to compare
    "ice_pirates": ([{"strategy": "search", "budget": 12}, {"strategy": "expert"}, {"strategy": "raider"}], (1, 2)),
    "pirates_cove": ([{"strategy": "search", "budget": 8}, {"strategy": "expert"}, {"strategy": "fighter"}], (1, 2)),
    "pirates_peak": ([{"strategy": "search", "budget": 16}, {"strategy": "expert"}], (1, 3)),
    "pirateer": ([{"strategy": "search", "budget": 4}, {"strategy": "expert"}, {"strategy": "cautious"},
                  {"strategy": "runner"}], (1, 2)),
}


def _play(game: str, seats: list[dict], seating: str, k: int):
    s = scen.from_dict({"game": game, "rules": {"strategy_seating": seating}, "seats": seats})
    g, _ = s.game.play(s.compile(), 5, k, 1)
    return g[0]


@pytest.mark.parametrize("game", sorted(TABLES))
def test_a_rotated_table_plays_the_fixed_table_of_the_same_seating(game):
    seats, games = TABLES[game]
    n = len(seats)
    for k in games:
        fixed = [seats[(s - k) % n] for s in range(n)]  # seat s plays entry (s - k) mod n in game k
        assert np.array_equal(_play(game, seats, "rotate", k), _play(game, fixed, "fixed", k)), (game, k)
