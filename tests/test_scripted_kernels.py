"""Pirate's Cove plays scripted tables and search tables with the same drivers; a
table where no seat searches passes ``search`` None, so that numba compiles those drivers
without the search player (a first scripted run compiles about a quarter faster).  Checked
here with the real kernels: the pruned and the full drivers play the same scripted games, the
plug-in picks the pruned one exactly when no seat searches, and the pruned one refuses a
search seat with one line instead of playing it as a scripted seat."""

import importlib

import numpy as np
import pytest

from pirate_sim import scenario as scen
from pirate_sim.games import get_game
from pirate_sim.warm import _seats_with

# game -> (its drivers module, the index in Compiled.arrays of what ``searches`` reads,
#          the traced driver's arguments between the event log and the outputs, before ``search``)
DRIVERS = {
    "pirates_cove": ("pirate_sim.games.pirates_cove.drivers", -1, ()),
}  # Pirateer: the protocol's engine (one kernel for every table: tests/test_pirateer_protocol.py)


def _compiled(game, search):
    g = get_game(game)
    first = {"strategy": "search", "budget": 2} if search else {"strategy": g.default_seats[0]}
    return g, scen.from_dict({"game": game, "seats": _seats_with(g, first)}, source="<test>").compile()


def _chunk(mod, game, c, search, n):
    g = get_game(game)
    out_g, out_s = g.new_outputs(n, c.n_seats)
    head = (np.uint64(7), np.int64(0), np.int64(n), c.params, *c.arrays)
    if game == "pirates_cove":
        mod.play_chunk_nb(*head, out_g, out_s, np.zeros(0, np.int64), search)
    else:
        mod.play_chunk_nb(*head, search, out_g, out_s)
    return out_g, out_s


@pytest.mark.parametrize("game", sorted(DRIVERS))
def test_pruned_and_full_drivers_play_the_same_scripted_games(game):
    name, at, _ = DRIVERS[game]
    mod = importlib.import_module(name)
    g, c = _compiled(game, False)
    assert mod.searches(c.arrays[at]) is None  # the plug-in plays the pruned drivers here
    pruned = _chunk(mod, game, c, None, 60)
    full = _chunk(mod, game, c, True, 60)
    np.testing.assert_array_equal(pruned[0], full[0])
    np.testing.assert_array_equal(pruned[1], full[1])
    np.testing.assert_array_equal(pruned[0], g.play(c, 7, 0, 60)[0])  # and Game.play is the same games


@pytest.mark.parametrize("game", sorted(DRIVERS))
def test_a_search_table_never_plays_the_pruned_drivers(game):
    name, at, extra = DRIVERS[game]
    mod = importlib.import_module(name)
    g, c = _compiled(game, True)
    assert mod.searches(c.arrays[at]) is True
    with pytest.raises(AssertionError, match="search"):
        width = importlib.import_module(f"pirate_sim.games.{game}.rules").EVENT_WIDTH
        g.traced_game(mod.play_traced_nb, c, 3, 0, 20_000, width, *extra, None)
