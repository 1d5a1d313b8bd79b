"""The scripted players of Pirate's Cove and their parameters (the decisions live in policies.py).

Every strategy's parameters are written into one float64 row per ``[[seats]]`` entry;
``SLOTS`` maps a parameter key to its column, unset slots take ``SLOT_DEFAULTS``.
All policies see only public information (see policies.py): never the deck orders,
never another seat's island choice of the current round.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ...search import search_params
from ..base import Param, Strategy, seat_tables as base_seat_tables
from .policies import (N_SCRIPTED, N_SP, SP_AIM, SP_BARGE, SP_BUDGET, SP_BURY_FROM, SP_COVE_CARD,
                       SP_DECIDE_PROB, SP_FIGHT_MIN, SP_FIGHT_WEIGHT, SP_FLEE_BELOW, SP_FLEE_PROB,
                       SP_GOLD_RESERVE, SP_GROWTH, SP_HORIZON, SP_LOSS_WEIGHT, SP_MAX_BUYS, SP_REWARD,
                       SP_ROLLOUT, SP_SEARCH, SP_TARGET, SP_TEMPERATURE, SP_TOP_K, ST_AVOIDER, ST_EXPERT,
                       ST_FIGHTER, ST_HUNTER, ST_RANDOM, ST_SEARCH)

SLOTS = {
    "decide_prob": SP_DECIDE_PROB,
    "flee_below": SP_FLEE_BELOW,
    "flee_prob": SP_FLEE_PROB,
    "gold_reserve": SP_GOLD_RESERVE,
    "bury_from": SP_BURY_FROM,
    "temperature": SP_TEMPERATURE,
    "fight_min": SP_FIGHT_MIN,
    "max_buys": SP_MAX_BUYS,
    "cove_card": SP_COVE_CARD,
    "budget": SP_BUDGET,
    "rollout": SP_ROLLOUT,
    "top_k": SP_TOP_K,
    "reward": SP_REWARD,
    "horizon": SP_HORIZON,
    "target_hull": SP_TARGET,
    "target_sails": SP_TARGET + 1,
    "target_cannons": SP_TARGET + 2,
    "target_crew": SP_TARGET + 3,
    "target_growth": SP_GROWTH,
    "aim": SP_AIM,
    "barge_weight": SP_BARGE,
    "fight_weight": SP_FIGHT_WEIGHT,
    "loss_weight": SP_LOSS_WEIGHT,
}
HUNTER_GROWTH = 2.0  # measured: docs/pirates_cove_players.py spending (rules page)
AVOIDER_GROWTH = 0.0
SLOT_DEFAULTS = np.array([0.5, 0.4, 0.2, 2.0, 11.0, 1.0, 0.5, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                          6.0, 6.0, 6.0, 6.0, 0.0, 0.0, 1.0, 1.0, 1.5])
assert SLOT_DEFAULTS.shape[0] == N_SP


def _flee(v: float) -> Param:
    return Param("flee_below", v, "float", "flees (from its second turn in a fight) when its estimated chance "
                 "of outlasting the others, own power / (own + theirs) with power = dice x weakest section, "
                 "drops below this (one on one; x 2 / ships in a crowd); a fight it would flee is valued as a "
                 "loss when it chooses its island", 0.0, 1.0)


def _reserve(v: int) -> Param:
    return Param("gold_reserve", v, "int", "gold kept back from Tavern cards and burying (for upgrades)", 0, 50)


def _bury(v: int) -> Param:
    return Param("bury_from", v, "int", "from this round (1-12) it buries all its gold on Treasure Island; "
                 "before, only the gold above gold_reserve", 1, 13)


def _buys(v: int) -> Param:
    return Param("max_buys", v, "int", "Tavern cards it buys when alone on the Tavern", 0, 3)


def _cove(v: int) -> Param:
    return Param("cove_card", v, "int", "1: takes a Tavern card as consolation at Pirate's Cove, 0: the gold",
                 0, 1)


AIM_DEFAULT = "threat"
AIM_CHOICES = ("threat", "random", "cannons")  # the kernel's AIM_* indices, in this order


def _targets(h: int, sa: int, c: int, k: int, growth: float) -> tuple[Param, ...]:
    out = tuple(Param(f"target_{name}", v, "int", f"{name.capitalize()} level it spends set-up gold towards "
                      "and upgrades towards afterwards", 1, 12)
                for name, v in (("hull", h), ("sails", sa), ("cannons", c), ("crew", k)))
    return out + (Param("target_growth", growth, "float", "levels every target grows by over the game after "
                        "set-up: in round r (0 = set-up) the target is target + int(target_growth x r / rounds), "
                        "never above the track's top", 0.0, 12.0),)


def _aim(v: str = AIM_DEFAULT) -> Param:
    return Param("aim", v, "choice", "which of the target ship's equally weakest sections it shoots: threat = "
                 "the one whose loss leaves it least power (dice x weakest section; a crippled section counted "
                 "at cove.repair_to), ties drawn from the game's stream; random = uniform among them; cannons "
                 "= the fixed order Cannons, Crew, Hull, Sails (rules 1.2.0)", choices=AIM_CHOICES)


def _barge(v: float = 1.0) -> Param:
    return Param("barge_weight", v, "float", "weight of the treasure barge's fame (the fame a ship gets for "
                 "ending the round alone with it) when it values the barge's island: 0 ignores the barge, 1 "
                 "counts its fame at face value, above 1 goes for it before richer cards", 0.0, 10.0)


def _weights(fw: float, lw: float) -> tuple[Param, ...]:
    return (Param("fight_weight", fw, "float", "weight of a fight's fame (ships that flee or sink, a black "
                  "ship's fame) in its expected value of an island", 0.0, 10.0),
            Param("loss_weight", lw, "float", "weight of a lost fight (1 fame-equivalent plus its chests "
                  "aboard) in its expected value of an island", 0.0, 10.0))


_SHARED = ("Spends set-up gold one level at a time on the section furthest below its target levels "
           "(target_hull .. target_crew, = {t}); alone on islands 2-5 it raises that island's section towards "
           "the target, grown by target_growth over the game, while gold_reserve is left (plays Mastercraft "
           "when it does); shoots the opposing ship with the fewest hits to cripple, at its weakest section "
           "(ties by aim); plays Battle when it means to fight, Volley when it turns a likely miss into a "
           "likely cripple, Fog Bank against a crippling volley; buries every chest, and gold above "
           "gold_reserve (all of it from round bury_from); counts the treasure barge's fame x barge_weight. ")

STRATEGIES = (
    Strategy("random", ST_RANDOM,
             "Uniformly random player: island uniform over 1-6; set-up spending one random affordable "
             "level at a time (or stop, equally likely); random numbers of levels, Tavern cards and gold "
             "to bury; random targets and sections; flees with flee_prob on each own turn; every yes/no "
             "(card play, Treasure Island upgrade, Tavern card at Pirate's Cove) is yes with decide_prob.",
             (Param("decide_prob", 0.5, "float", "chance of yes for each yes/no decision", 0.0, 1.0),
              Param("flee_prob", 0.2, "float", "chance of fleeing on each own turn of a fight", 0.0, 1.0))),
    Strategy("treasure_hunter", ST_HUNTER,
             "Goes where the face-up card (and the island's upgrade or Tavern) is richest for it: gold 0.4, "
             "chest 0.8 (up to its hold), fame 1, Tavern card 0.8, a wanted affordable level 0.6, "
             "Treasure Island = chests + gold/3 it would bury; in the last round gold and chests count "
             "nothing off Treasure Island.  Ignores the other players; a fighting black ship turns the "
             "island into a fight valued by its win chance.  "
             + _SHARED.format(t="3, 3, 4, 4, growing by 2 levels over the game") + "Takes the gold at Pirate's Cove.",
             (_flee(0.5), _reserve(2), _bury(11), _buys(1), _cove(0), *_targets(3, 3, 4, 4, HUNTER_GROWTH), _aim(),
              _barge())),
    Strategy("fighter", ST_FIGHTER,
             "Predicts the others like crowd_avoider, but counts the fame of a fight double and a lost "
             "fight half (fight_weight 2, loss_weight 0.5), so it sails where it expects to win fights; takes "
             "on a black ship only if its estimated win chance is at least fight_min.  "
             + _SHARED.format(t="3, 3, 6, 6") + "Takes a Tavern card at Pirate's Cove.",
             (_flee(0.2), _reserve(1), _bury(11), _buys(3), _cove(1), *_targets(3, 3, 6, 6, 0.0), _aim(), _barge(),
              *_weights(2.0, 0.5),
              Param("temperature", 1.0, "float", "spread of its prediction of the others (fame units)", 0.01,
                    100.0),
              Param("fight_min", 0.5, "float", "least estimated win chance to sail for a black ship", 0.0,
                    1.0))),
    Strategy("crowd_avoider", ST_AVOIDER,
             "Predicts each other seat's island from the public table: a softmax (temperature) of the "
             "island's value to that seat as a greedy treasure hunter who shuns black ships; then picks "
             "the island with the best expected fame: value x P(alone) + P(contest) x (win chance x "
             "(value + fight_weight x fight fame) - loss_weight x loss), fight_weight 1, loss_weight 1.5.  "
             + _SHARED.format(t="4, 3, 4, 4") + "Takes a Tavern card at Pirate's Cove.",
             (_flee(0.4), _reserve(2), _bury(11), _buys(1), _cove(1), *_targets(4, 3, 4, 4, AVOIDER_GROWTH),
              _aim(), _barge(), *_weights(1.0, 1.5),
              Param("temperature", 1.0, "float", "spread of its prediction of the others (fame units)", 0.01,
                    100.0))),
)
SCRIPTED_NAMES = tuple(s.name for s in sorted(STRATEGIES, key=lambda s: s.code))
assert len(SCRIPTED_NAMES) == N_SCRIPTED
# The expert's parameters, found by docs/pirates_cove_expert_search.py (random search and successive
# halving over the fighter's parameters on common random numbers; its held-out table is in
# docs/rules/pirates_cove.md).
EXPERT = {"flee_below": 0.2, "gold_reserve": 0, "bury_from": 12, "max_buys": 2, "cove_card": 1,
          "temperature": 0.5, "fight_min": 0.5, "target_hull": 3, "target_sails": 4, "target_cannons": 4,
          "target_crew": 5, "target_growth": 0.0, "aim": "threat", "barge_weight": 1.0, "fight_weight": 2.0,
          "loss_weight": 0.5}


def _expert_params() -> tuple[Param, ...]:
    base = {p.key: p for p in next(s for s in STRATEGIES if s.name == "fighter").params}
    return tuple(dataclasses.replace(p, default=EXPERT[k]) for k, p in base.items())


EXPERT_STRATEGY = Strategy(
    "expert", ST_EXPERT,
    "The fighter's policy with parameters found by search (docs/pirates_cove_expert_search.py: random "
    "search and successive halving over its parameters on common random numbers, against the scripted "
    "players in the default mix and head-to-head; held-out seeds for its table).  Plays every decision "
    "exactly as the fighter would with these parameters.", _expert_params())
# the strategies a search may roll out with: the scripted ones in code order (the choice index is
# the code), then the expert (index N_SCRIPTED, stored as the fighter with the expert's parameters)
ROLLOUT_NAMES = SCRIPTED_NAMES + ("expert",)
# the expert: one search seat among three experts wins 0.338 [0.293, 0.385] rolling out with it, 0.240
# [0.201, 0.284] with the fighter (400 games, seed 30,000,001; docs/search_strength.py)
DEFAULT_ROLLOUT = "expert"
DEFAULT_BUDGET = 64
SEARCH = Strategy(
    "search", ST_SEARCH,
    "Searches its secret island choice, attack or flee at each of its turns in a fight, the Tavern cards it "
    "buys, the levels it buys alone on islands 2-5 and its Treasure Island upgrade: for each option kept "
    "(top_k by the rollout strategy's own choice first) it plays rollouts to the end of the game from a "
    "copy of the state whose hidden cards are re-dealt (the Tavern draw pile, the other seats' hands, the "
    "unrevealed Treasure cards), every seat playing the rollout strategy, with sequential halving over "
    "budget rollouts; the others' island choices in a rollout come from the rollout strategy on public "
    "information.  Every other choice (set-up spending, burying, Pirate's Cove, cards, targets) is the "
    "rollout strategy's.",
    search_params(ROLLOUT_NAMES, DEFAULT_ROLLOUT, DEFAULT_BUDGET))
STRATEGIES = STRATEGIES + (SEARCH, EXPERT_STRATEGY)
STRATEGY_BY_NAME = {s.name: s for s in STRATEGIES}


def seat_tables(seats: list[dict]) -> tuple[np.ndarray, np.ndarray]:
    """(codes int32[n], params float64[n, N_SP]) for the kernel, one row per [[seats]] entry.

    A ``search`` entry is stored as its rollout strategy (that code, that strategy's default
    parameters) with SP_SEARCH = 1 and its own search parameters: the kernel then plays every
    choice it does not search exactly as the rollout strategy, and a rollout, which zeroes
    SP_SEARCH, plays the seat as the rollout strategy."""
    codes, sp = base_seat_tables(seats, STRATEGY_BY_NAME, SLOTS, SLOT_DEFAULTS)
    for i, seat in enumerate(seats):
        if seat["strategy"] != "search":
            continue
        roll = STRATEGY_BY_NAME[ROLLOUT_NAMES[int(sp[i, SP_ROLLOUT])]]
        for p in roll.params:
            sp[i, SLOTS[p.key]] = float(p.choices.index(p.default) if p.kind == "choice" else p.default)
        codes[i] = roll.code
        sp[i, SP_SEARCH] = 1.0
    codes[codes == ST_EXPERT] = ST_FIGHTER  # the expert is the fighter's policy with its own parameters
    return codes, sp
