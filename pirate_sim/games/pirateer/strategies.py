"""Pirateer's players and their parameters (the policies live in players.py, the search in search_player.py).

Every player only picks one of the legal plays the generator lists.  The scored players
value the position after each play (whole information: the board is open) and take the
best, ties broken uniformly at random from the game's own stream:

    value = capture x captures  (a winning play is always taken)
          + 1000 - home x (treasure-ship steps home)        if it holds the treasure
          - chase x (steps from its nearest ship to it)     if an opponent holds it
          - island x (steps from its nearest ship to a treasure anchor square) otherwise
          - hunt x (steps from its nearest ship to the nearest opponent ship)
          - risk x (ships the opponents' 36 next rolls could capture, expected;
                    the treasure ship counts three times)

Steps are single squares along the board's lines and tradewind bands, ships ignored.
``expert`` is the same policy with weights found by search (docs/pirateer_expert_search.py).
``search`` plays rollouts (``search_player.search_nb``; docs/rules/pirateer.md).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ...search import search_params
from ..base import Param, Strategy, seat_tables as base_seat_tables
from .state import (N_ROLLOUT_ROWS, N_SP, SP_BUDGET, SP_CAPTURE, SP_CHASE, SP_HOME, SP_HORIZON, SP_HUNT, SP_ISLAND,
                    SP_PRIOR, SP_REWARD, SP_RISK, SP_ROLLOUT, SP_TOP_K, ST_CAUTIOUS, ST_EXPERT, ST_HUNTER, ST_RANDOM,
                    ST_RUNNER, ST_SEARCH)

SLOTS = {"capture": SP_CAPTURE, "chase": SP_CHASE, "hunt": SP_HUNT, "risk": SP_RISK, "home": SP_HOME,
         "island": SP_ISLAND, "budget": SP_BUDGET, "rollout": SP_ROLLOUT, "top_k": SP_TOP_K, "reward": SP_REWARD,
         "horizon": SP_HORIZON, "prior": SP_PRIOR}
SLOT_DEFAULTS = np.zeros(N_SP)


def _weights(capture, chase, hunt, risk, home=10.0, island=1.0) -> tuple[Param, ...]:
    return (
        Param("capture", capture, "float", "value of capturing a ship", 0.0, 10000.0),
        Param("chase", chase, "float", "cost per step between its nearest ship and an opponent's treasure ship",
              0.0, 1000.0),
        Param("hunt", hunt, "float", "cost per step between its nearest ship and the nearest opponent ship",
              0.0, 1000.0),
        Param("risk", risk, "float", "cost per ship the opponents could capture with their next roll "
              "(expected over their 36 rolls; the treasure ship counts three times)", 0.0, 10000.0),
        Param("home", home, "float", "cost per step its treasure ship is from home", 0.0, 1000.0),
        Param("island", island, "float", "cost per step its nearest ship is from a treasure anchor square "
              "while the treasure lies on Skull Island", 0.0, 1000.0),
    )


_SCORED = "Scores each legal play by the position it leaves (see the strategies module) and takes the best. "

STRATEGIES = (
    Strategy("random", ST_RANDOM, "Uniformly random legal play: every play the generator lists is equally "
             "likely (takes the treasure only when a random play does)."),
    Strategy("runner", ST_RUNNER, _SCORED + "Treasure runner: races to Skull Island and home; captures "
             "only in passing.", _weights(capture=5.0, chase=1.0, hunt=0.0, risk=0.0)),
    Strategy("hunter", ST_HUNTER, _SCORED + "Hunter: captures whenever it can, chases the treasure ship "
             "and otherwise closes on the nearest opponent ship.", _weights(capture=60.0, chase=3.0, hunt=0.5,
                                                                         risk=0.0)),
    Strategy("cautious", ST_CAUTIOUS, _SCORED + "Cautious: like the runner, but counts for every play how many "
             "of each opponent's 36 next rolls could capture its ships (blocking as it stands before its "
             "move) and avoids exposure.", _weights(capture=20.0, chase=1.0, hunt=0.0, risk=30.0)),
)
EXPERT_WEIGHTS = dict(capture=80.0, chase=2.0, hunt=0.5, risk=80.0, home=5.0, island=0.5)
STRATEGIES += (
    Strategy("expert", ST_EXPERT, _SCORED + "Expert: the weights found by search (docs/pirateer_expert_search.py: "
             "random search and successive halving against runner, hunter and cautious on common dice, "
             "held-out table on the rules page).", _weights(**EXPERT_WEIGHTS)),
)
# the search's rollout and prior choices: one table row each (seat_tables), the choice index is the row
SCRIPTED = tuple(s.name for s in STRATEGIES)
assert len(SCRIPTED) == N_ROLLOUT_ROWS
DEFAULT_BUDGET = 256  # beats cautious head to head (68% [60, 75], 150 games); 64 does not (50%)

STRATEGIES += (
    Strategy("search", ST_SEARCH, "Searches every play: plays leaving the same position merged, a winning play "
             "taken at once, the prior strategy's best-scored top_k kept, then sequential halving of budget "
             "rollouts over them (the same derived dice streams for every play), each rollout played to the end "
             "by the rollout strategy in every seat; the best mean reward wins. The board is open: only future "
             "dice vary. It never draws from the game's own stream.",
             tuple(replace(p, doc=p.doc + "; or a strategy file (file.py:function, docs/strategies.md), or "
                           "learned with weights = DIR/weights.npz (docs/learned.md)") if p.key == "rollout" else p
                   for p in search_params(SCRIPTED, "runner", DEFAULT_BUDGET, default_top_k=8))
             + (Param("prior", "cautious", "choice", "the scored strategy (default weights) whose score ranks the "
                      "plays for top_k (random: the listing order)", choices=SCRIPTED),)),
)
STRATEGY_BY_NAME = {s.name: s for s in STRATEGIES}


def seat_tables(seats: list[dict]) -> tuple[np.ndarray, np.ndarray]:
    """(codes int32[n + N_ROLLOUT_ROWS], params float64[n + N_ROLLOUT_ROWS, N_SP]) for the kernel:
    one row per [[seats]] entry, then one row per scripted strategy with its default weights
    (in the order of ``SCRIPTED``), which the search's rollouts and prior read."""
    rows = seats + [{"strategy": name} for name in SCRIPTED]
    return base_seat_tables(rows, STRATEGY_BY_NAME, SLOTS, SLOT_DEFAULTS)
