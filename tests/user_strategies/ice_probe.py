"""An Ice Pirates strategy file for tests/test_user_ice_pirates.py: one function, its
behaviour chosen by the ``mode`` parameter (one wrapper serves every test)."""

PARAMS = {"probe": {"mode": 0.0}}


def probe(view, options, params, rng, board):
    mode = params[0]
    if mode == 1.0:  # an index past the legal options
        return options.shape[0]
    if mode == 3.0:  # read beyond the view: bounds-checked, so it raises instead of reading on
        return 0 * view[view.shape[0] + 3]
    return 0
