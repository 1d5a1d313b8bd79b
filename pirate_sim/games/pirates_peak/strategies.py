"""Pirate's Peak players: njit policy functions and the Strategy definitions.

Every decision the rules offer goes through one policy function here, taking the
seat's strategy code and its row of policy parameters (``SP_*`` slots of rules.py):

* purchases (setup and islands)   -> policy_buy_nb
* declaration (sail/search/fire)  -> policy_declare_nb
* stopping early (X/island/castaway) -> policy_stop_early_nb
* searching at once on landing on an X -> policy_search_on_landing_nb
* interrupting the opponent's search -> policy_interrupt_nb
* Peak treasure pick               -> policy_treasure_nb
* summoning the Ghost Ship on a 1  -> policy_summon_nb
* squid sacrifice                  -> policy_sacrifice_nb
* fog guess                        -> policy_fog_guess_nb
* taking the shortcut              -> policy_shortcut_nb

The random baseline (code 0) draws each choice uniformly among the legal options from the
pseudo-random part of the game's stream (``rand_below_nb``), never from the scripted dice.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...rng import rand_below_nb
from ...search import REWARDS, search_params
from ..base import Param, Strategy
from .board import dock_progress_nb, phys_nb
from .rules import (
    ACT_FIRE,
    ACT_SAIL,
    ACT_SEARCH,
    CASTAWAY,
    G_PEAK_X,
    ISLAND,
    N_SCRIPTED,
    N_SP,
    NEVER,
    ROW_SHIP,
    ROW_ST,
    RU_CANNONBALL_PRICE,
    RU_CREWMAN_PRICE,
    RU_MAX_CANNONBALLS,
    RU_MAX_CREW,
    SD_CODES,
    SD_RULES,
    SD_SP,
    SH_BALLS,
    SH_CREW,
    SH_DIG_X,
    SH_DIGS,
    SH_GOLD,
    SH_LIFE,
    SH_POS,
    SP_BALL_RESERVE,
    SP_BUDGET,
    SP_BUY_BALLS,
    SP_BUY_CREW,
    SP_CAUTION_LIFE,
    SP_DIG_REPEATS,
    SP_FIRE_AT_SHIP,
    SP_FIRE_BEHIND,
    SP_FIRE_OPP_LIFE,
    SP_FOG_GUESS,
    SP_GOLD_RESERVE,
    SP_HOLD_BEHIND,
    SP_INTERRUPT,
    SP_ISLAND_BALLS,
    SP_ISLAND_CREW,
    SP_LEAD_TO_RACE,
    SP_RACE_LIFE,
    SP_REWARD,
    SP_ROLLOUT,
    SP_SACRIFICE,
    SP_SEARCH,
    SP_SEARCH_ON_LANDING,
    SP_SHORTCUT,
    SP_STOP_CASTAWAY,
    SP_STOP_ON_X,
    SP_SUMMON,
    SP_TOP_K,
    SP_HORIZON,
    SP_TREASURE_FIRST,
    STRAT_RANDOM,
    STRAT_SEARCH,
    TREASURE_LABELS,
    TREASURE_X,
)


@njit(cache=True, _nrt=False)
def policy_buy_nb(sd, rng, w, s, at_island):
    """How many crewmen and cannonballs to buy now: returns (crew, balls), already affordable."""
    code = sd[SD_CODES, s]
    gold = w[ROW_SHIP + s, SH_GOLD]
    crew = w[ROW_SHIP + s, SH_CREW]
    balls = w[ROW_SHIP + s, SH_BALLS]
    room_crew = sd[SD_RULES, RU_MAX_CREW] - crew
    room_balls = sd[SD_RULES, RU_MAX_CANNONBALLS] - balls
    if code == STRAT_RANDOM:
        # uniform number of crewmen the gold allows, then uniform cannonballs with the rest
        max_c = room_crew
        if sd[SD_RULES, RU_CREWMAN_PRICE] > 0:
            max_c = min(max_c, gold // sd[SD_RULES, RU_CREWMAN_PRICE])
        nc = rand_below_nb(rng, max_c + 1)
        left = gold - nc * sd[SD_RULES, RU_CREWMAN_PRICE]
        max_b = room_balls
        if sd[SD_RULES, RU_CANNONBALL_PRICE] > 0:
            max_b = min(max_b, left // sd[SD_RULES, RU_CANNONBALL_PRICE])
        nb = rand_below_nb(rng, max_b + 1)
        return nc, nb
    if at_island:
        want_c = int(sd[SD_SP + s, SP_ISLAND_CREW]) - crew
        want_b = int(sd[SD_SP + s, SP_ISLAND_BALLS]) - balls
        budget = gold - int(sd[SD_SP + s, SP_GOLD_RESERVE])
    else:
        want_c = int(sd[SD_SP + s, SP_BUY_CREW]) - crew
        want_b = int(sd[SD_SP + s, SP_BUY_BALLS]) - balls
        budget = gold
    nc = 0
    nb = 0
    # crew first, then cannonballs, one at a time while affordable
    while nc < want_c and nc < room_crew and budget >= sd[SD_RULES, RU_CREWMAN_PRICE]:
        nc += 1
        budget -= sd[SD_RULES, RU_CREWMAN_PRICE]
    while nb < want_b and nb < room_balls and budget >= sd[SD_RULES, RU_CANNONBALL_PRICE]:
        nb += 1
        budget -= sd[SD_RULES, RU_CANNONBALL_PRICE]
    return nc, nb


@njit(cache=True, inline="always", _nrt=False)
def policy_declare_nb(sd, rng, w, s, can_search, can_fire, threat):
    """Sail, search or fire (search/fire only offered when legal; ``threat``: the seat is
    at or below its caution life and the opponent's cannon could interrupt a search)."""
    code = sd[SD_CODES, s]
    if code == STRAT_RANDOM:
        n = 1 + can_search + can_fire
        k = rand_below_nb(rng, n)
        if k == 0:
            return ACT_SAIL
        if k == 1 and can_search:
            return ACT_SEARCH
        return ACT_FIRE
    o = 1 - s
    behind = w[ROW_SHIP + o, SH_GOLD] - w[ROW_SHIP + s, SH_GOLD]
    # declared shots spend only the cannonballs above the reserve kept for interrupts
    fire_ok = can_fire and w[ROW_SHIP + s, SH_BALLS] > sd[SD_SP + s, SP_BALL_RESERVE]
    if fire_ok and (
        sd[SD_SP + s, SP_FIRE_AT_SHIP] > 0
        or w[ROW_SHIP + o, SH_LIFE] <= sd[SD_SP + s, SP_FIRE_OPP_LIFE]
        or behind >= sd[SD_SP + s, SP_FIRE_BEHIND]
    ):
        return ACT_FIRE
    x = phys_nb(w, w[ROW_SHIP + s, SH_POS])
    digs = w[ROW_SHIP + s, SH_DIGS] if w[ROW_SHIP + s, SH_DIG_X] == x else 0
    dig_repeats = 0 if racing_nb(sd, w, s) else sd[SD_SP + s, SP_DIG_REPEATS]
    if (
        can_search
        and threat == 0
        and (digs < dig_repeats or (digs == 0 and sd[SD_SP + s, SP_SEARCH_ON_LANDING] > 0))
    ):
        return ACT_SEARCH
    # on a dig site searched last turn: fire to wait a turn, then dig again
    if fire_ok and (not can_search) and digs > 0 and digs < dig_repeats:
        return ACT_FIRE
    # trailing on the way home near the dock: docking first would lose, so dig or fire
    if behind >= sd[SD_SP + s, SP_HOLD_BEHIND] and near_dock_nb(w, s):
        if can_search and threat == 0:
            return ACT_SEARCH
        if fire_ok:
            return ACT_FIRE
    return ACT_SAIL


@njit(cache=True, inline="always", _nrt=False)
def near_dock_nb(w, s):
    """On the way home with the dock within one die roll."""
    p = w[ROW_ST, G_PEAK_X]
    d = w[ROW_SHIP + s, SH_POS]
    return p >= 0 and d > p and dock_progress_nb(w) - d <= 6


@njit(cache=True, inline="always", _nrt=False)
def racing_nb(sd, w, s):
    """Racing home: the gold lead over the opponent has reached ``lead_to_race`` (or the
    ship is ahead at all and down to ``race_life`` life points), so docking first (which
    ends the game) wins; no more stops to dig or shop."""
    lead = w[ROW_SHIP + s, SH_GOLD] - w[ROW_SHIP + 1 - s, SH_GOLD]
    return lead >= sd[SD_SP + s, SP_LEAD_TO_RACE] or (
        lead > 0 and w[ROW_SHIP + s, SH_LIFE] <= sd[SD_SP + s, SP_RACE_LIFE]
    )


@njit(cache=True, inline="always", _nrt=False)
def policy_stop_early_nb(sd, rng, w, s, space):
    """Stop early on an X, an island or the castaway space that the move passes?"""
    code = sd[SD_CODES, s]
    if code == STRAT_RANDOM:
        return rand_below_nb(rng, 2) == 1
    if space == TREASURE_X:
        return sd[SD_SP + s, SP_STOP_ON_X] > 0 and not racing_nb(sd, w, s)
    if space == ISLAND:
        if racing_nb(sd, w, s):
            return False
        nc, nb = policy_buy_nb(sd, rng, w, s, True)
        return nc + nb > 0
    if space == CASTAWAY:
        return (
            sd[SD_SP + s, SP_STOP_CASTAWAY] > 0
            and w[ROW_SHIP + s, SH_CREW] < sd[SD_RULES, RU_MAX_CREW]
        )
    return False


@njit(cache=True, inline="always", _nrt=False)
def coin_or_flag_nb(sd, rng, s, slot):
    """A yes/no choice: a coin flip for the random player, else the seat's policy flag."""
    if sd[SD_CODES, s] == STRAT_RANDOM:
        return rand_below_nb(rng, 2) == 1
    return sd[SD_SP + s, slot] > 0


@njit(cache=True, inline="always", _nrt=False)
def policy_search_on_landing_nb(sd, rng, w, s):
    """Search at once after landing exactly on an X?"""
    code = sd[SD_CODES, s]
    if code == STRAT_RANDOM:
        return rand_below_nb(rng, 2) == 1
    return sd[SD_SP + s, SP_SEARCH_ON_LANDING] > 0 or sd[SD_SP + s, SP_DIG_REPEATS] > 0


@njit(cache=True, inline="always", _nrt=False)
def policy_interrupt_nb(sd, rng, w, s):
    """Fire a cannonball to interrupt the opponent's declared search?"""
    return coin_or_flag_nb(sd, rng, s, SP_INTERRUPT)


@njit(cache=True, _nrt=False)
def policy_treasure_nb(sd, rng, w, s, taken_mask):
    """Pick a Peak treasure (1..3) among those not taken (bit t of taken_mask set: taken)."""
    code = sd[SD_CODES, s]
    if code == STRAT_RANDOM:
        n_free = 0
        for t in range(1, 4):
            if (taken_mask >> t) & 1 == 0:
                n_free += 1
        k = rand_below_nb(rng, n_free)
        for t in range(1, 4):
            if (taken_mask >> t) & 1 == 0:
                if k == 0:
                    return t
                k -= 1
        return 0
    first = int(sd[SD_SP + s, SP_TREASURE_FIRST])
    for i in range(3):
        t = (first - 1 + i) % 3 + 1
        if (taken_mask >> t) & 1 == 0:
            return t
    return 0


@njit(cache=True, inline="always", _nrt=False)
def policy_summon_nb(sd, rng, w, s):
    """After rolling the summon face: roll again to try to summon the Ghost Ship?"""
    code = sd[SD_CODES, s]
    if code == STRAT_RANDOM:
        return rand_below_nb(rng, 2) == 1
    mode = sd[SD_SP + s, SP_SUMMON]
    if mode >= 2:
        return True
    if mode >= 1:
        # leave the ghost behind only when the opponent still has to pass this spot
        return w[ROW_SHIP + (1 - s), SH_POS] < w[ROW_SHIP + s, SH_POS]
    return False


@njit(cache=True, inline="always", _nrt=False)
def policy_sacrifice_nb(sd, rng, w, s):
    """Sacrifice a crewman to the Giant Squid to pass next turn?"""
    return coin_or_flag_nb(sd, rng, s, SP_SACRIFICE)


@njit(cache=True, inline="always", _nrt=False)
def policy_fog_guess_nb(sd, rng, w, s):
    """The number called out in the fog, 1..6."""
    code = sd[SD_CODES, s]
    if code == STRAT_RANDOM:
        return rand_below_nb(rng, 6) + 1
    return int(sd[SD_SP + s, SP_FOG_GUESS])


@njit(cache=True, inline="always", _nrt=False)
def policy_shortcut_nb(sd, rng, w, s):
    """Take the short route this turn?"""
    return coin_or_flag_nb(sd, rng, s, SP_SHORTCUT)


# ----------------------------------------------------------------- definitions

_TREASURE_CHOICES = TREASURE_LABELS[1:]

# Slot values a strategy does not expose (its fixed behaviour), before its Params.
_BASE = {
    SP_BUY_CREW: 0,
    SP_BUY_BALLS: 0,
    SP_ISLAND_CREW: 0,
    SP_ISLAND_BALLS: 0,
    SP_GOLD_RESERVE: 0,
    SP_STOP_ON_X: 0,
    SP_DIG_REPEATS: 0,
    SP_SEARCH_ON_LANDING: 1,
    SP_FIRE_AT_SHIP: 0,
    SP_INTERRUPT: 0,
    SP_SUMMON: 0,
    SP_SACRIFICE: 1,
    SP_FOG_GUESS: 3,
    SP_TREASURE_FIRST: 1,
    SP_SHORTCUT: 1,
    SP_STOP_CASTAWAY: 1,
    SP_LEAD_TO_RACE: NEVER,  # never races
    SP_FIRE_OPP_LIFE: 0,
    SP_FIRE_BEHIND: NEVER,
    SP_BALL_RESERVE: 0,
    SP_CAUTION_LIFE: 0,
    SP_RACE_LIFE: 0,
    SP_HOLD_BEHIND: NEVER,
}

# strategy param key -> slot
_SLOT = {
    "buy_crew": SP_BUY_CREW,
    "buy_cannonballs": SP_BUY_BALLS,
    "island_crew": SP_ISLAND_CREW,
    "island_cannonballs": SP_ISLAND_BALLS,
    "gold_reserve": SP_GOLD_RESERVE,
    "stop_on_x": SP_STOP_ON_X,
    "dig_repeats": SP_DIG_REPEATS,
    "search_on_landing": SP_SEARCH_ON_LANDING,
    "fire_at_ship": SP_FIRE_AT_SHIP,
    "interrupt_searches": SP_INTERRUPT,
    "summon_ghost": SP_SUMMON,
    "sacrifice_crew": SP_SACRIFICE,
    "fog_guess": SP_FOG_GUESS,
    "treasure_first": SP_TREASURE_FIRST,
    "take_shortcut": SP_SHORTCUT,
    "stop_at_castaway": SP_STOP_CASTAWAY,
    "lead_to_race": SP_LEAD_TO_RACE,
    "fire_at_life": SP_FIRE_OPP_LIFE,
    "fire_when_behind": SP_FIRE_BEHIND,
    "cannonball_reserve": SP_BALL_RESERVE,
    "caution_life": SP_CAUTION_LIFE,
    "race_life": SP_RACE_LIFE,
    "hold_when_behind": SP_HOLD_BEHIND,
}
_SUMMON_CHOICES = ("never", "when_behind", "always")


def _p_fog(default):
    return Param(
        "fog_guess",
        default,
        "int",
        "Number called out in the fog (1..6; 2-5 cover three faces).",
        1,
        6,
    )


def _p_treasure(default):
    return Param(
        "treasure_first",
        default,
        "choice",
        "Preferred Peak treasure; then the next in order.",
        choices=_TREASURE_CHOICES,
    )


def _judgement(fire_at_life=0, fire_when_behind=0, cannonball_reserve=0, caution_life=0,
               race_life=0, hold_when_behind=0):
    """The judgement every scripted player has (off by default for the 1.2.0 players)."""
    return (
        Param(
            "fire_at_life",
            fire_at_life,
            "int",
            "Fire at the opponent in range once it has at most this many life points "
            "(sinking it wins; 0: never).",
            0,
            20,
        ),
        Param(
            "fire_when_behind",
            fire_when_behind,
            "int",
            "Fire at the opponent in range when trailing it by at least this much gold (0: never).",
            0,
            1000,
        ),
        Param(
            "cannonball_reserve",
            cannonball_reserve,
            "int",
            "Cannonballs kept for interrupting searches: declared shots only spend the ones above.",
            0,
            20,
        ),
        Param(
            "caution_life",
            caution_life,
            "int",
            "At or below this many life points, no search while the opponent's cannon could "
            "interrupt it (a full interrupt costs a life point); 0: never cautious.",
            0,
            20,
        ),
        Param(
            "race_life",
            race_life,
            "int",
            "At or below this many life points, race home whenever ahead in gold (0: never).",
            0,
            20,
        ),
        Param(
            "hold_when_behind",
            hold_when_behind,
            "int",
            "Trailing by at least this much gold within a roll of the dock on the way home "
            "(docking first would lose): search or fire rather than sail (0: never).",
            0,
            1000,
        ),
    )


def _p_interrupt(default):
    return Param("interrupt_searches", default, "bool", "Fire to interrupt the opponent's searches.")


# thresholds whose 0 means "never": slot value NEVER
_ZERO_IS_NEVER = ("fire_when_behind", "hold_when_behind")

LEAD_TO_RACE = 10  # the racer's default lead (see docs: tuned against the digger)

RANDOM = Strategy(
    "random",
    0,
    "Uniformly random legal player (baseline): every choice uniform among the legal options.",
)
TREASURE_DIGGER = Strategy(
    "treasure_digger",
    1,
    "Buys crew (each adds a gold to every search), stops on every X and digs it repeatedly, "
    "firing a cannonball to wait out the no-same-spot-twice rule; restocks crew at islands.",
    (
        Param("buy_crew", 3, "int", "Crewmen to own after setup purchases.", 0, 20),
        Param("buy_cannonballs", 0, "int", "Cannonballs to own after setup purchases.", 0, 20),
        Param("dig_repeats", 2, "int", "Searches at one X before sailing on.", 1, 10),
        Param("stop_on_x", True, "bool", "Stop early on an X the move passes."),
        Param("island_crew", 4, "int", "Crewmen to own after an island stop.", 0, 20),
        Param("island_cannonballs", 1, "int", "Cannonballs to own after an island stop.", 0, 20),
        Param("gold_reserve", 4, "int", "Gold never spent at islands.", 0, 1000),
        Param("sacrifice_crew", False, "bool", "Sacrifice a crewman to the squid when allowed."),
        _p_fog(3),
        _p_treasure("golden_cutlass"),
        _p_interrupt(False),
        *_judgement(),
    ),
)
RACER = Strategy(
    "racer",
    2,
    "Digs while the gold race is open, then races home: stops on an X and digs it "
    "`dig_repeats` times and buys crew at islands until it leads the opponent by "
    "`lead_to_race` gold; from then on it never stops early and searches only when landing "
    "exactly on an X, so docking first ends the game while it is ahead.  Takes every "
    "shortcut, leaves Ghost Ships behind for the opponent, sacrifices crew to the squid.",
    (
        Param("buy_crew", 3, "int", "Crewmen to own after setup purchases.", 0, 20),
        Param("buy_cannonballs", 0, "int", "Cannonballs to own after setup purchases.", 0, 20),
        Param(
            "lead_to_race",
            LEAD_TO_RACE,
            "int",
            "Gold lead over the opponent from which it races home without digging "
            "(0: whenever level or ahead; negative: always).",
            -1000,
            1000,
        ),
        Param(
            "dig_repeats", 1, "int", "Searches at one X before sailing on (while digging).", 1, 10
        ),
        Param("stop_on_x", True, "bool", "Stop early on an X the move passes (while digging)."),
        Param(
            "island_crew", 4, "int", "Crewmen to own after an island stop (while digging).", 0, 20
        ),
        Param("island_cannonballs", 0, "int", "Cannonballs to own after an island stop.", 0, 20),
        Param("gold_reserve", 4, "int", "Gold never spent at islands.", 0, 1000),
        Param("search_on_landing", True, "bool", "Search at once when landing exactly on an X."),
        Param(
            "summon_ghost",
            "when_behind",
            "choice",
            "Try to summon the Ghost Ship on a 1.",
            choices=_SUMMON_CHOICES,
        ),
        Param("take_shortcut", True, "bool", "Take the short route after landing on a shortcut."),
        Param("sacrifice_crew", True, "bool", "Sacrifice a crewman to the squid when allowed."),
        _p_fog(3),
        _p_treasure("mighty_sail"),
        _p_interrupt(False),
        *_judgement(),
    ),
)
GUNNER = Strategy(
    "gunner",
    3,
    "Fills the hold with cannonballs, fires at the opponent whenever in range, interrupts every "
    "search it can, restocks cannonballs at islands; searches when landing on an X.",
    (
        Param("buy_crew", 1, "int", "Crewmen to own after setup purchases.", 0, 20),
        Param("buy_cannonballs", 3, "int", "Cannonballs to own after setup purchases.", 0, 20),
        Param("fire_at_ship", True, "bool", "Fire at the opponent's ship whenever in range."),
        _p_interrupt(True),
        Param("island_cannonballs", 3, "int", "Cannonballs to own after an island stop.", 0, 20),
        Param("island_crew", 2, "int", "Crewmen to own after an island stop.", 0, 20),
        Param("gold_reserve", 2, "int", "Gold never spent at islands.", 0, 1000),
        _p_fog(4),
        _p_treasure("steel_cannon"),
        *_judgement(),
    ),
)
# The expert's defaults: the best settings found by docs/expert_search.py (random search
# and successive halving on common random numbers against the other bundled players).
EXPERT_DEFAULTS = {
    "buy_crew": 3,
    "buy_cannonballs": 2,
    "dig_repeats": 3,
    "stop_on_x": True,
    "island_crew": 4,
    "island_cannonballs": 3,
    "gold_reserve": 0,
    "search_on_landing": True,
    "interrupt_searches": True,
    "fire_at_ship": False,
    "lead_to_race": 1000,
    "summon_ghost": "always",
    "sacrifice_crew": True,
    "take_shortcut": True,
    "stop_at_castaway": True,
    "fog_guess": 3,
    "treasure_first": "golden_cutlass",
    "fire_at_life": 1,
    "fire_when_behind": 0,
    "cannonball_reserve": 1,
    "caution_life": 0,
    "race_life": 0,
    "hold_when_behind": 5,
}


def _expert_params(d):
    return (
        Param("buy_crew", d["buy_crew"], "int", "Crewmen to own after setup purchases.", 0, 20),
        Param("buy_cannonballs", d["buy_cannonballs"], "int", "Cannonballs to own after setup purchases.", 0, 20),
        Param("dig_repeats", d["dig_repeats"], "int", "Searches at one X before sailing on (while digging).", 1, 10),
        Param("stop_on_x", d["stop_on_x"], "bool", "Stop early on an X the move passes (while digging)."),
        Param("island_crew", d["island_crew"], "int", "Crewmen to own after an island stop.", 0, 20),
        Param("island_cannonballs", d["island_cannonballs"], "int", "Cannonballs to own after an island stop.",
              0, 20),
        Param("gold_reserve", d["gold_reserve"], "int", "Gold never spent at islands.", 0, 1000),
        Param("search_on_landing", d["search_on_landing"], "bool", "Search at once when landing exactly on an X."),
        _p_interrupt(d["interrupt_searches"]),
        Param("fire_at_ship", d["fire_at_ship"], "bool", "Fire at the opponent's ship whenever in range."),
        Param("lead_to_race", d["lead_to_race"], "int",
              "Gold lead over the opponent from which it races home without digging.", -1000, 1000),
        Param("summon_ghost", d["summon_ghost"], "choice", "Try to summon the Ghost Ship on a 1.",
              choices=_SUMMON_CHOICES),
        Param("sacrifice_crew", d["sacrifice_crew"], "bool", "Sacrifice a crewman to the squid when allowed."),
        Param("take_shortcut", d["take_shortcut"], "bool", "Take the short route after landing on a shortcut."),
        Param("stop_at_castaway", d["stop_at_castaway"], "bool", "Stop early at a castaway when there is room."),
        _p_fog(d["fog_guess"]),
        _p_treasure(d["treasure_first"]),
        *_judgement(**{k: d[k] for k in ("fire_at_life", "fire_when_behind", "cannonball_reserve",
                                         "caution_life", "race_life", "hold_when_behind")}),
    )


EXPERT = Strategy(
    "expert",
    4,
    "The strongest settings found by search (docs/expert_search.py) over every policy "
    "parameter: digs like the digger, interrupts the opponent's searches, and uses the "
    "judgement parameters as tuned.",
    _expert_params(EXPERT_DEFAULTS),
)
SCRIPTED = (RANDOM, TREASURE_DIGGER, RACER, GUNNER, EXPERT)
assert [s.code for s in SCRIPTED] == list(range(N_SCRIPTED))
# The search player's default budget: rollouts per searched decision (docs/search.md has
# the measured budget -> win rate and seconds per game table it was chosen from).
SEARCH_BUDGET = 128
SEARCH = Strategy(
    "search",
    STRAT_SEARCH,
    "Searches each turn's declaration (sail / search / fire), every stop-early question and "
    "the Peak treasure: sequential halving over the legal options, each rollout from a copy of "
    "the game with the unflipped Sea cards re-shuffled (what the seat cannot know), every seat "
    "then playing the rollout strategy with its default parameters to the end; its other "
    "choices (purchases, interrupts, summons, shortcuts, sacrifices, fog guesses, searching on "
    "landing) are the rollout strategy's.",
    search_params(tuple(s.name for s in SCRIPTED), "expert", SEARCH_BUDGET, default_top_k=8),
)
STRATEGIES = (*SCRIPTED, SEARCH)
_SEARCH_SLOT = {"budget": SP_BUDGET, "top_k": SP_TOP_K, "horizon": SP_HORIZON}


def default_rows() -> np.ndarray:
    """float64[N_SCRIPTED, N_SP]: each scripted strategy's policy row with its default
    parameters (row = code), the rows every seat plays inside the search player's rollouts."""
    return np.vstack([seat_row({"strategy": s.name})[1] for s in SCRIPTED])


def seat_row(seat: dict) -> tuple[int, np.ndarray]:
    """(strategy code, float64[N_SP] policy row) for one seat dict of the scenario."""
    name = seat["strategy"]
    strat = next((s for s in STRATEGIES if s.name == name), None)
    if strat is None:
        raise ValueError(
            f"seats: unknown strategy {name!r} (known: {', '.join(s.name for s in STRATEGIES)})"
        )
    if strat.code == STRAT_SEARCH:
        # its smaller choices are the rollout strategy's (default parameters), plus the search
        rollout = seat.get("rollout", "expert")
        _, row = seat_row({"strategy": rollout})
        row[SP_SEARCH] = 1
        row[SP_ROLLOUT] = next(s.code for s in SCRIPTED if s.name == rollout)
        row[SP_REWARD] = REWARDS.index(seat.get("reward", "win"))
        for p in strat.params:
            if p.key in _SEARCH_SLOT:
                row[_SEARCH_SLOT[p.key]] = float(seat.get(p.key, p.default))
        return strat.code, row
    row = np.zeros(N_SP, dtype=np.float64)
    for slot, v in _BASE.items():
        row[slot] = v
    for p in strat.params:
        v = seat.get(p.key, p.default)
        if p.key in _ZERO_IS_NEVER and v <= 0:
            v = NEVER
        elif p.key == "treasure_first":
            v = _TREASURE_CHOICES.index(v) + 1
        elif p.key == "summon_ghost":
            v = _SUMMON_CHOICES.index(v)
        row[_SLOT[p.key]] = float(v)
    return strat.code, row
