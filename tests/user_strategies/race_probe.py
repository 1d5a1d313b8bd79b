"""A sum race strategy file (tests/toy_race.py, a game on the decision protocol) for
tests/test_contract_strategy_files.py: the ``mode`` parameter picks the behaviour, so one
wrapper serves every test.  View layout: toy_race.V_* (seat, turn, turns, rule mode, own bonus,
both sums, options taken)."""

import numpy as np

from pirate_sim.rng import rand_below_nb

PARAMS = {"probe": {"mode": 0.0, "k": 0.0}}
V_MODE = 3  # toy_race.V_MODE: 1 where option 1 is strictly best


def probe(view, options, params, rng):
    mode = params[0]
    if mode == 1.0:  # an index past the legal options
        return options.shape[0]
    if mode == 2.0:  # read beyond the view: bounds-checked, so it raises instead of reading on
        return 0 * view[view.shape[0] + 3]
    if mode == 3.0:  # the best option where the rules make one best, else the first
        return 1 if view[V_MODE] == 1 else 0
    if mode == 4.0:  # its private stream: uniform over the options
        return rand_below_nb(rng, options.shape[0])
    if mode == 5.0:  # the option named by parameter k (it must arrive as the seat set it)
        return int(params[1])
    if mode == 6.0:  # scribble over its copies of the view and the options, then take the first
        view[:] = -7
        options[:] = np.int32(99)
        return 0
    return 0
