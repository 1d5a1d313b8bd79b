"""The scripted players of Ice Pirates and their parameters (policies live in policies.py).

Every strategy's parameters are written into one float64 row per seat; ``SLOTS`` maps a
parameter key to its column.  Unset slots take ``SLOT_DEFAULTS``.
"""

from __future__ import annotations

import numpy as np

from ...search import search_params
from ..base import Param, Strategy, seat_tables as base_seat_tables
from .state import (N_SP, SP_ABANDON_AFTER, SP_ABANDON_PROB, SP_AGGRESSION, SP_CREW_RESERVE,
                     SP_DECIDE_PROB, SP_MAX_UPGRADE_COST, SP_PATIENCE, SP_BUDGET, SP_HORIZON, SP_REWARD, SP_ROLLOUT, SP_SEARCH, SP_TOP_K, SP_OPPONENTS, SP_RAID_WORTHLESS, SP_ABANDON_IDLE, SP_CANNON_FIRST, SP_CHASE, SP_ABANDON_STALLED, SP_SWASH_RESERVE, SP_UPGRADES_WANTED,
                     ST_EXPERT, ST_MAP_HUNTER, ST_RAIDER, ST_RANDOM, ST_SEARCH, ST_UPGRADER)

SLOTS = {
    "aggression": SP_AGGRESSION,
    "crew_reserve": SP_CREW_RESERVE,
    "max_upgrade_cost": SP_MAX_UPGRADE_COST,
    "swash_reserve": SP_SWASH_RESERVE,
    "upgrades_wanted": SP_UPGRADES_WANTED,
    "abandon_after": SP_ABANDON_AFTER,
    "abandon_prob": SP_ABANDON_PROB,
    "decide_prob": SP_DECIDE_PROB,
    "patience": SP_PATIENCE,
    "raid_worthless_maps": SP_RAID_WORTHLESS,
    "abandon_idle": SP_ABANDON_IDLE,
    "abandon_stalled": SP_ABANDON_STALLED,
    "budget": SP_BUDGET,
    "rollout": SP_ROLLOUT,
    "top_k": SP_TOP_K,
    "reward": SP_REWARD,
    "horizon": SP_HORIZON,
    "cannon_first": SP_CANNON_FIRST,
    "chase": SP_CHASE,
    "opponents": SP_OPPONENTS,
}
SLOT_DEFAULTS = np.array([0.0, 1.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.5, 12.0, 0.0, 1e9, 1e9,
                          0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
# a search entry's own slots; every other slot of its row is its rollout strategy's (seat_tables)
SEARCH_SLOTS = (SP_SEARCH, SP_BUDGET, SP_ROLLOUT, SP_TOP_K, SP_REWARD, SP_HORIZON, SP_OPPONENTS)
assert SLOT_DEFAULTS.shape[0] == N_SP

_PLANNER = ("Moves by a wind-aware shortest path (reverse Dijkstra over the 37 cells, "
            "costs: with the wind 1, tack 2 (1 with Jib), row 2.5, unknown card +0.25, "
            "storm +1.5) to its current goal; stops when no legal move gets closer; past its patience it rows freely and makes every other move at random. ")

_RESERVE = Param("crew_reserve", 1, "int", "crew chips kept back: rows only with more chips, "
                 "fights the waves only with more, heads for Bell Island with fewer", 0, 7)
_ABANDON = Param("abandon_after", 3, "int", "abandons ship after this many turns in a row "
                 "without a legal move", 1, 1000)
_PATIENCE = Param("patience", 12, "int", "turns without gaining anything or flipping a card after "
                  "which it rows freely and makes every other move at random (breaks cycles of "
                  "ships blocking each other under a steady wind)", 1, 10000)
_ABANDON_IDLE = Param("abandon_idle", 60, "int", "abandons ship after this many turns in a row without "
                      "gaining anything (a deadlock its patience did not break)", 1, 100000)
_ABANDON_STALLED = Param("abandon_stalled", 300, "int", "abandons ship after this many turns without "
                         "raising its best progress (more map colours at once, or the treasure)", 1, 100000)
_WORTHLESS = Param("raid_worthless_maps", 0, "int", "1: raids for map cards also while another ship "
                   "holds the treasure (the maps are worthless then: a spoiler's raid); 0: never", 0, 1)

STRATEGIES = (
    Strategy("random", ST_RANDOM,
             "Uniformly random legal player: each move picks uniformly among the legal "
             "directions (and stopping, when allowed); every yes/no decision (upgrade, fight "
             "the waves, raid, swashbuckle, Telescope) is yes with probability decide_prob; "
             "abandons ship at the start of a turn with probability abandon_prob.",
             (Param("decide_prob", 0.5, "float", "chance of yes for each yes/no decision", 0.0, 1.0),
              Param("abandon_prob", 0.005, "float", "chance of abandoning ship at a turn's start",
                    0.0, 1.0))),
    Strategy("map_hunter", ST_MAP_HUNTER,
             _PLANNER + "Goal: the Lost Islands of the colours it lacks and the unknown cards, "
             "then Kelly's Island, then Harbour Grace or open water; chases the treasure "
             "holder.  Takes Port upgrades costing at most max_upgrade_cost when it ends there; "
             "raids a passed ship holding the treasure or maps it lacks; swashbuckles while it "
             "has more than swash_reserve chips.",
             (_RESERVE, Param("max_upgrade_cost", 0, "int", "most crew it pays for an upgrade", 0, 10),
              Param("swash_reserve", 1, "int", "chips kept back when swashbuckling", 0, 7),
              _ABANDON, _PATIENCE, _WORTHLESS, _ABANDON_IDLE, _ABANDON_STALLED)),
    Strategy("raider", ST_RAIDER,
             _PLANNER + "Goal: first the Cannon (pays any cost it can), then chases the ship "
             "holding the most maps it lacks (at least 3 - 2 * aggression of them), else hunts "
             "maps like map_hunter; always chases the treasure holder.  Swashbuckles to its "
             "last chip above swash_reserve.",
             (_RESERVE, Param("aggression", 0.5, "float", "0: chase only full map sets, "
                              "1: chase any ship with a map it lacks", 0.0, 1.0),
              Param("max_upgrade_cost", 1, "int", "most crew it pays for other upgrades", 0, 10),
              Param("swash_reserve", 0, "int", "chips kept back when swashbuckling", 0, 7),
              _ABANDON, _PATIENCE, _WORTHLESS, _ABANDON_IDLE, _ABANDON_STALLED)),
    Strategy("upgrader", ST_UPGRADER,
             _PLANNER + "Goal: the nearest Ports whose upgrade it lacks and can pay (at most "
             "max_upgrade_cost) until it owns upgrades_wanted of them, then hunts maps like "
             "map_hunter.",
             (_RESERVE, Param("upgrades_wanted", 3, "int", "Port upgrades to collect first", 0, 6),
              Param("max_upgrade_cost", 1, "int", "most crew it pays for an upgrade", 0, 10),
              Param("swash_reserve", 1, "int", "chips kept back when swashbuckling", 0, 7),
              _ABANDON, _PATIENCE, _WORTHLESS, _ABANDON_IDLE, _ABANDON_STALLED)),
)
# the expert's parameters, found by docs/ice_pirates_expert_search.py (search seed 20261204,
# held-out table on seed 20261205: docs/rules/ice_pirates.md, "Strategies")
EXPERT_DEFAULTS = {"crew_reserve": 1, "upgrades_wanted": 6, "max_upgrade_cost": 0, "cannon_first": 0,
                   "chase": 1, "aggression": 0.5, "swash_reserve": 0, "patience": 16,
                   "raid_worthless_maps": 0}
STRATEGIES = STRATEGIES + (
    Strategy("expert", ST_EXPERT,
             _PLANNER + "The upgrader's and the raider's goals in one policy, each switched by a "
             "parameter, with the setting found by search (docs/ice_pirates_expert_search.py): "
             "first the Cannon at any cost it can pay (cannon_first) and the nearest Ports it lacks "
             "costing at most max_upgrade_cost until it owns upgrades_wanted, then chases the ship "
             "holding the most maps it lacks (chase; at least 3 - 2 * aggression of them), else hunts "
             "maps like map_hunter.",
             (Param("crew_reserve", EXPERT_DEFAULTS["crew_reserve"], "int", _RESERVE.doc, 0, 7),
              Param("upgrades_wanted", EXPERT_DEFAULTS["upgrades_wanted"], "int",
                    "Port upgrades to collect first", 0, 6),
              Param("max_upgrade_cost", EXPERT_DEFAULTS["max_upgrade_cost"], "int",
                    "most crew it pays for an upgrade (the Cannon: any, with cannon_first)", 0, 10),
              Param("cannon_first", EXPERT_DEFAULTS["cannon_first"], "int",
                    "1: heads for the Cannon first and pays any cost it can for it; 0: a Port like any", 0, 1),
              Param("chase", EXPERT_DEFAULTS["chase"], "int",
                    "1: chases the ship holding the most maps it lacks (the raider's rule); 0: never", 0, 1),
              Param("aggression", EXPERT_DEFAULTS["aggression"], "float", "with chase: 0 chases only "
                    "full map sets, 1 any ship with a map it lacks", 0.0, 1.0),
              Param("swash_reserve", EXPERT_DEFAULTS["swash_reserve"], "int",
                    "chips kept back when swashbuckling", 0, 7),
              _ABANDON,
              Param("patience", EXPERT_DEFAULTS["patience"], "int", _PATIENCE.doc, 1, 10000),
              Param("raid_worthless_maps", EXPERT_DEFAULTS["raid_worthless_maps"], "int", _WORTHLESS.doc, 0, 1),
              _ABANDON_IDLE, _ABANDON_STALLED)),
)
# the rollout strategies, listed as search.search_params asks; a ``search`` entry's rollout
# choice index is its row among the default rows seat_tables appends (the strategy's code
# is read from that row: the expert's is 5, after search's 4)
SCRIPTED = tuple(s.name for s in STRATEGIES)
assert [s.code for s in STRATEGIES] == [0, 1, 2, 3, ST_EXPERT]
# the expert: rolling out with it beats the expert (2 players, budget 64: 0.680 [0.633, 0.724] against
# 0.407 [0.360, 0.456] rolling out with the upgrader, 400 games, seed 30,000,001), and budget 128 keeps
# search ahead of the upgrader too (0.570 [0.521, 0.618]; at 64 it was 0.480: the rollouts model the
# other seats as experts); docs/search_strength.py, docs/search.md "Strength"
SEARCH_DEFAULT_ROLLOUT = "expert"
SEARCH_DEFAULT_BUDGET = 128
# the other seats in a rollout: a mix of the four scripted players, not the rollout strategy (2 players,
# budget 128, 400 games, seed 30,000,001: against expert / upgrader / raider / map_hunter 0.620 / 0.733 /
# 0.760 / 0.807 with the mix, 0.780 / 0.568 / 0.630 / 0.665 modelling every seat as the expert)
SEARCH_DEFAULT_OPPONENTS = "mix"
STRATEGIES = STRATEGIES + (
    Strategy("search", ST_SEARCH,
             "Flat Monte Carlo search (pirate_sim/search.py): at each choice of a move's direction "
             "(stopping included), of fighting the waves and of a raid (whom, or none) it keeps the "
             "top_k options by the rollout strategy's prior, spends budget rollouts on them by "
             "sequential halving and takes the best mean reward.  A rollout re-deals the face-down "
             "Bay cards it has not seen, replays its turn with the option forced and plays every seat "
             "with the rollout strategy to the end.  Every other choice (abandoning ship, upgrades, "
             "the Telescope, swashbuckling) is the rollout strategy's, with its default parameters.",
             search_params(SCRIPTED, SEARCH_DEFAULT_ROLLOUT, SEARCH_DEFAULT_BUDGET, default_top_k=4)
             + (Param("opponents", SEARCH_DEFAULT_OPPONENTS, "choice", "how a rollout plays the other seats: "
                      "rollout (the rollout strategy, as this seat does) or mix (rollout j as map_hunter, raider, "
                      "upgrader and expert in turn, the same for every option)", choices=("rollout", "mix")),)),
)
STRATEGY_BY_NAME = {s.name: s for s in STRATEGIES}


def seat_tables(seats: list[dict]) -> tuple[np.ndarray, np.ndarray]:
    """(codes int32[n + 5], params float64[n + 5, N_SP]) for the kernel: one row per [[seats]]
    entry, then the default rows of the scripted strategies in the order of ``SCRIPTED``
    (what rollouts play).  A ``search`` entry plays its rollout strategy's code and defaults
    for the choices it does not search, its own parameters in the search slots and
    SP_SEARCH = 1."""
    codes, sp = base_seat_tables(seats, STRATEGY_BY_NAME, SLOTS, SLOT_DEFAULTS)
    d_codes, d_sp = base_seat_tables([{"strategy": n} for n in SCRIPTED], STRATEGY_BY_NAME, SLOTS, SLOT_DEFAULTS)
    n = len(seats)
    codes = np.concatenate([codes, d_codes]).astype(np.int32)
    sp = np.concatenate([sp, d_sp])
    for i in range(n):
        if codes[i] == ST_SEARCH:
            rc = int(sp[i, SP_ROLLOUT])
            own = [c for c in range(N_SP) if c not in SEARCH_SLOTS]
            sp[i, own] = sp[n + rc, own]  # the rollout strategy's parameters, the expert's chase included
            sp[i, SP_SEARCH] = 1.0
            codes[i] = codes[n + rc]
    return codes, sp
