"""A Pirateer strategy file whose function never returns (tests/test_signals.py: Ctrl-C and
SIGTERM still stop the run)."""


def forever(view, plays, params):
    n = 0
    while n >= 0:  # always: n stays in 0..999
        n = (n + 1) % 1000
    return n
