"""A dice duel strategy file (tests/toy_game.py, on the decision protocol) for
tests/test_contract_strategy_files.py: it takes the option its ``option`` parameter names at
every turn (0 roll, 1 roll re-rolling a 1, 2 take six), as the scripted players do."""

PARAMS = {"move": {"option": 0.0}}


def move(view, options, params, rng):
    return int(params[0])
