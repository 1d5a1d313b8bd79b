"""A Pirateer strategy file for tests/test_user_strategies.py: one function, its behaviour
chosen by the ``mode`` parameter (one generated kernel serves every test)."""

PARAMS = {"probe": {"mode": 0.0}}


def probe(view, plays, params, rng, board):
    mode = params[0]
    if mode == 1.0:  # an index past the legal plays
        return plays.shape[0]
    if mode == 2.0:  # scribble over its copies of the view and of the plays, then take the first
        view[:] = -7
        plays[:, :] = 99
        return 0
    if mode == 3.0:  # read beyond the view: bounds-checked, so it raises instead of reading on
        return 0 * view[view.shape[0] + 3]
    return 0
