"""A sum race strategy file that answers an index past the options (tests/test_contract_strategy_files.py:
a search that rolls it out stops with one line)."""


def bad(view, options, params):
    return options.shape[0]
