"""The players of Pirate's Cove: every decision a seat makes (numba).

Information set (all policies): the public table - every ship's section levels, gold,
chests aboard and fame track, how many Tavern cards each holds and its active Parrots,
the face-up Treasure cards, the black ships' islands and printed sections, the round,
the islands revealed in earlier rounds, and the seat's own hand.  Never read: the order
of the Tavern deck or of the Treasure stacks (``G_TDECK``, ``G_TPERM``), another seat's
hand by type, and - the secret island choice - any seat's choice of the current round:
``choose_island_nb`` is called for every seat before any choice is revealed
(``rounds.play_round_nb``).  Only the fight scratch of the current fight and the island
being resolved are read during combat, as a player at the table would see them.

Strategy codes and parameter slots are defined here; ``strategies.py`` documents them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...rng import rand_below_nb, rand_float_nb
from .rules import (B_FAME, BATTLE, CANNONS, CREW, EVENT, F_ACTIVE, F_N, F_UNITS,
                    G_CARD, G_FIGHT, G_ROUND, G_SCRIPT, HULL, MASTERCRAFT, MAX_SEATS,
                    MAX_ROUNDS, N_SECTIONS, S_CHESTS, S_ENTRY, S_FAME, S_GOLD, S_HAND, S_SEC, SAILS,
                    SC_BURY_GOLD, SC_BUYS, SC_COVE_CARD, SC_FLEE, SC_ISLANDS, SC_PLAY, SC_SECTION,
                    SC_SETUP, SC_TI_SECTION, SC_UPGRADE, TAVERN, TREASURE_ISLAND, VOLLEY)
from .ship import (bb_nb, black_at_nb, level_cost_nb, level_nb, power_nb, room_nb, sb_nb, set_level_nb,
                   toughness_nb)

ST_RANDOM = 0
ST_HUNTER = 1
ST_FIGHTER = 2
ST_AVOIDER = 3
ST_SEARCH = 4  # the search player's registered code; its [[seats]] entry is stored with its
# rollout strategy's code and default parameters (so every choice it does not search is the
# rollout strategy's) and SP_SEARCH = 1 (see strategies.seat_tables)
N_SCRIPTED = 4  # scripted strategies 0..3, the search's rollout choices in code order
ST_SCRIPTED = 9  # tests only: decisions from the state's script words (rules.SC_*)

SP_DECIDE_PROB = 0  # random: chance of yes for each yes/no decision
SP_FLEE_BELOW = 1  # flees when its estimated chance of winning a one-on-one fight is below this
# (scaled to the fair share in a crowd: flee_below x 2 / ships, see flee_line_nb)
SP_FLEE_PROB = 2  # random: chance of fleeing on each own turn of a fight
SP_GOLD_RESERVE = 3  # gold kept back from buying and burying (for upgrades)
SP_BURY_FROM = 4  # from this round (1..12) it buries all its gold
SP_TEMPERATURE = 5  # how spread its prediction of the other seats' islands is (fame units)
SP_FIGHT_MIN = 6  # fighter: least estimated win chance to sail for a black ship
SP_MAX_BUYS = 7  # Tavern cards bought per Tavern visit
SP_COVE_CARD = 8  # 1 takes a Tavern card at Pirate's Cove, 0 the gold
SP_SEARCH = 9  # 1: a search entry (its searched decisions go to the search, see rounds.advance_nb)
SP_BUDGET = 10  # search: rollouts per decision
SP_ROLLOUT = 11  # search: rollout strategy code
SP_TOP_K = 12  # search: options kept by the rollout strategy's prior
SP_REWARD = 13  # search: pirate_sim.search.REWARD_*
SP_HORIZON = 14  # search: rounds a rollout plays before it is scored (0: to the end)
SP_TARGET = 15  # [4] target levels: hull, sails, cannons, crew (set-up spending and upgrades stop there)
SP_GROWTH = 19  # levels every target grows by over the game after set-up (target + growth x round / rounds)
SP_AIM = 20  # AIM_* below: which of a target's equally weakest sections it shoots
SP_BARGE = 21  # weight of the treasure barge's fame when it values an island (0: ignores the barge)
SP_FIGHT_WEIGHT = 22  # crowd avoider / fighter: weight of a fight's fame when it values an island
SP_LOSS_WEIGHT = 23  # crowd avoider / fighter: weight of a lost fight when it values an island
N_SP = 24
ST_EXPERT = 5  # the expert's registered code: its entry is stored as the fighter with its own parameters
# (strategies.seat_tables), so it plays the fighter's code with weights found by search

AIM_THREAT, AIM_RANDOM, AIM_CANNONS = range(3)  # the `aim` choice's indices (strategies.AIM_CHOICES)
BLACK_AIM = AIM_THREAT  # black ships aim like the "threat" player (not a rule: the rulebook has them fire, not aim)

# The public model (every seat seen as a greedy treasure hunter) wants any level up to this
# one: a seat's own targets are its parameters (SP_TARGET), which the others do not know.
PUBLIC_TARGET = 6
# Tie order when two sections are equally far below target (first = preferred).
PRIORITY = np.array([
    [0, 1, 2, 3],
    [HULL, CREW, CANNONS, SAILS],
    [CREW, CANNONS, SAILS, HULL],
    [CREW, CANNONS, HULL, SAILS],
], dtype=np.int64)
SHOOT_ORDER = np.array([CANNONS, CREW, HULL, SAILS], dtype=np.int64)  # aim = "cannons": the 1.2.0 fixed order

# What things are worth to a policy, in fame: a chest becomes 1 fame when buried, gold 1/3
# when buried but it also buys upgrades, a Tavern card averages about one fame (Fame cards
# 14 of 42 at 1.6, the rest help fights and upgrades).
VALUE_GOLD = 0.4
VALUE_CHEST = 0.8
VALUE_CARD = 0.8
VALUE_LEVEL = 0.6  # an upgrade it wants and can pay for on the island
LOSS_BASE = 1.0  # losing a fight: fame to the others, a repair, the lost round
BARGE_AVOID = 0.3  # the public model: others weigh an island with a fighting black ship this much


@njit(cache=True, inline="always")
def code_nb(st, strat, s):
    return strat[st[sb_nb(s) + S_ENTRY]]


@njit(cache=True, inline="always")
def par_nb(st, sp, s, slot):
    return sp[st[sb_nb(s) + S_ENTRY], slot]


@njit(cache=True, inline="always")
def yes_nb(rng, p):
    return rand_float_nb(rng) < p


@njit(cache=True, inline="always")
def script_nb(st, slot, s):
    return st[G_SCRIPT + slot + s]


@njit(cache=True)
def target_nb(st, P, tr, sp, s, code, k):
    """Level of section ``k`` seat ``s`` aims for now: its target, grown by SP_GROWTH levels over
    the game after set-up (round 0 is set-up's), never above the track's top (``tr[k, 1]``)."""
    if code == ST_RANDOM:
        return PUBLIC_TARGET
    t = int(par_nb(st, sp, s, SP_TARGET + k)) + int(par_nb(st, sp, s, SP_GROWTH) * st[G_ROUND] / P.rounds)
    return t if t < tr[k, 1] else tr[k, 1]


# ------------------------------------------------------------------ valuation
@njit(cache=True)
def alone_value_nb(st, P, tr, sp, s, island, code):
    """Fame-equivalent of ending the round alone on ``island`` for seat ``s``, from
    public information only (``code`` ST_RANDOM: the public model's wanted levels, else
    the seat's own targets)."""
    b = sb_nb(s)
    gold = st[b + S_GOLD]
    last = st[G_ROUND] >= P.rounds - 1
    if island == TREASURE_ISLAND:
        v = float(st[b + S_CHESTS] * P.chest_fame)
        g = gold if last else gold - int(0.5 * gold)
        return v + float(g // P.gold_per_fame)
    c = G_CARD + (island - 1) * 4
    g, ch, f, t = st[c], st[c + 1], st[c + 2], st[c + 3]
    room = room_nb(st, P, s)
    v = float(f) + VALUE_CARD * t
    if not last:  # in the last round gold and chests can no longer be buried
        v += VALUE_GOLD * g + VALUE_CHEST * (ch if ch < room else room)
    if island == TAVERN:
        if gold + g >= P.price and not last:
            v += 0.5 * VALUE_CARD
        return v
    k = island - 2
    lvl = st[b + S_SEC + k]
    cost = level_cost_nb(tr, k, lvl)
    if cost >= 0 and lvl < target_nb(st, P, tr, sp, s, code, k) and gold + g >= cost and not last:
        v += VALUE_LEVEL
    return v


@njit(cache=True, inline="always")
def win_chance_nb(pm, others):
    """Rough chance of outlasting opponents of summed power ``others``."""
    if pm <= 0.0:
        return 0.0
    return pm / (pm + others)


# Scratch ``fs`` (float64[FS_SIZE]) of the island choice.  The public model (values of
# every island to every seat, powers, black ships) depends on public information only, so
# it is computed once per round (FS_READY) and shared by every seat's prediction.
FS_PROB = 0  # [5 x 6] the predicting seat's chances that seat o sails to island i
FS_VAL = 30  # [5 x 6] value of island i to seat o in the public model
FS_POW = 60  # [5] power of each seat
FS_BPOW = 65  # [6] power of the fighting black ship on island i, -1 none
FS_BFAME = 71  # [6] its fame
FS_BARGE = 77  # [6] fame of a barge on island i, 0 none
FS_READY = 83  # 1 once the public model of this round is computed
FS_SIZE = 96


@njit(cache=True)
def public_model_nb(st, P, tr, sp, fs):
    """Fill the shared public model: each seat as a greedy treasure hunter who shuns black ships."""
    for i in range(1, 7):
        bk = black_at_nb(st, i, True) if i != TREASURE_ISLAND else -1
        fs[FS_BPOW + i - 1] = power_nb(st, P, MAX_SEATS + bk) if bk >= 0 else -1.0
        fs[FS_BFAME + i - 1] = float(st[bb_nb(bk) + B_FAME]) if bk >= 0 else 0.0
        barge = black_at_nb(st, i, False)
        fs[FS_BARGE + i - 1] = float(st[bb_nb(barge) + B_FAME]) if barge >= 0 else 0.0
    for o in range(P.n_seats):
        fs[FS_POW + o] = power_nb(st, P, o)
        for i in range(1, 7):
            v = alone_value_nb(st, P, tr, sp, o, i, ST_RANDOM)
            if fs[FS_BPOW + i - 1] >= 0.0:
                v *= BARGE_AVOID
            fs[FS_VAL + o * 6 + i - 1] = v
    fs[FS_READY] = 1.0


@njit(cache=True)
def predict_nb(st, P, tr, sp, s, temperature, fs):
    """fs[FS_PROB + o * 6 + i - 1] = the chance that seat ``o`` sails to island ``i``, for
    each other seat: a softmax of the island's value to ``o`` in the public model."""
    if fs[FS_READY] != 1.0:
        public_model_nb(st, P, tr, sp, fs)
    t = temperature if temperature > 1e-6 else 1e-6
    for o in range(P.n_seats):
        if o == s:
            continue
        mx = -1e18
        for i in range(6):
            if fs[FS_VAL + o * 6 + i] > mx:
                mx = fs[FS_VAL + o * 6 + i]
        tot = 0.0
        for i in range(6):
            e = np.exp((fs[FS_VAL + o * 6 + i] - mx) / t)
            fs[FS_PROB + o * 6 + i] = e
            tot += e
        for i in range(6):
            fs[FS_PROB + o * 6 + i] /= tot


@njit(cache=True)
def expected_value_nb(st, P, tr, sp, s, island, code, fs, fight_weight, loss_weight, flee_below):
    """Expected fame of sailing to ``island`` given the predicted other seats (fs)."""
    v = alone_value_nb(st, P, tr, sp, s, island, code)
    if island == TREASURE_ISLAND:
        return v
    pm = fs[FS_POW + s]
    alone = 1.0
    crowd = 0.0
    opp = 0.0
    for o in range(P.n_seats):
        if o == s:
            continue
        q = fs[FS_PROB + o * 6 + island - 1]
        alone *= 1.0 - q
        crowd += q
        opp += q * fs[FS_POW + o]
    black = fs[FS_BPOW + island - 1] >= 0.0
    bonus = 0.0
    if black:
        alone = 0.0
        opp += fs[FS_BPOW + island - 1]
        bonus = fs[FS_BFAME + island - 1]
    v += par_nb(st, sp, s, SP_BARGE) * fs[FS_BARGE + island - 1]
    if alone >= 1.0:
        return v
    # a contest: the expected number of others present, given at least one is
    p = win_chance_nb(pm, opp if black else opp / (1.0 - alone))
    fame = fight_weight * (P.fame_per_loser * crowd / (1.0 - alone + 1e-9) + bonus)
    loss = loss_weight * (LOSS_BASE + VALUE_CHEST * st[sb_nb(s) + S_CHESTS])
    ships = 1.0 + (1.0 if black else 0.0) + (crowd / (1.0 - alone + 1e-9) if alone < 1.0 else 0.0)
    if p < flee_line_nb(flee_below, ships):
        return alone * v - (1.0 - alone) * loss  # it would flee that fight: a loss, never the card
    return alone * v + (1.0 - alone) * (p * (v + fame) - (1.0 - p) * loss)


@njit(cache=True)
def choose_island_nb(st, rng, P, tr, strat, sp, fs, s):
    """The secret island choice of seat ``s`` (1..6), from public information only."""
    code = code_nb(st, strat, s)
    if code == ST_SCRIPTED:
        i = st[G_SCRIPT + SC_ISLANDS + s * MAX_ROUNDS + st[G_ROUND]]
        if i >= 1:
            return i
        code = ST_RANDOM
    if code == ST_RANDOM:
        return 1 + rand_below_nb(rng, 6)
    best = -1e18
    pick = TREASURE_ISLAND
    if code == ST_HUNTER:
        # goes where the card is richest for it; a fighting black ship counts as a fight,
        # the other players are ignored
        pm = power_nb(st, P, s)
        for i in range(1, 7):
            v = alone_value_nb(st, P, tr, sp, s, i, code)
            bk = black_at_nb(st, i, True)
            if bk >= 0 and i != TREASURE_ISLAND:
                p = win_chance_nb(pm, power_nb(st, P, MAX_SEATS + bk))
                loss = LOSS_BASE + VALUE_CHEST * st[sb_nb(s) + S_CHESTS]
                if p < par_nb(st, sp, s, SP_FLEE_BELOW):
                    v = -loss  # it would flee after the first volley: a loss, never the card
                else:
                    v = p * (v + st[bb_nb(bk) + B_FAME]) - (1.0 - p) * loss
            barge = black_at_nb(st, i, False)
            if barge >= 0:
                v += par_nb(st, sp, s, SP_BARGE) * float(st[bb_nb(barge) + B_FAME])
            if v > best:
                best = v
                pick = i
        return pick
    predict_nb(st, P, tr, sp, s, par_nb(st, sp, s, SP_TEMPERATURE), fs)
    fw, lw = par_nb(st, sp, s, SP_FIGHT_WEIGHT), par_nb(st, sp, s, SP_LOSS_WEIGHT)
    pm = fs[FS_POW + s]
    fight_min = par_nb(st, sp, s, SP_FIGHT_MIN)
    for i in range(1, 7):
        v = expected_value_nb(st, P, tr, sp, s, i, code, fs, fw, lw, par_nb(st, sp, s, SP_FLEE_BELOW))
        if code == ST_FIGHTER:
            bp = fs[FS_BPOW + i - 1]
            if bp >= 0.0 and win_chance_nb(pm, bp) < fight_min:
                v -= 2.0  # too strong to take on
        if v > best:
            best = v
            pick = i
    return pick


# ------------------------------------------------------------------ spending
@njit(cache=True)
def setup_section_nb(st, rng, P, tr, strat, sp, s, bought):
    """Next section to raise one level with set-up gold, -1 to stop (``bought``: levels
    bought so far, the scripted player's counter)."""
    code = code_nb(st, strat, s)
    b = sb_nb(s)
    gold = st[b + S_GOLD]
    if code == ST_SCRIPTED:
        done = 0
        for k in range(N_SECTIONS):
            want = st[G_SCRIPT + SC_SETUP + s * N_SECTIONS + k]
            if bought < done + want:
                c = level_cost_nb(tr, k, st[b + S_SEC + k])
                return k if 0 <= c <= gold else -1
            done += want
        return -1
    if code == ST_RANDOM:
        n = 0
        for k in range(N_SECTIONS):
            c = level_cost_nb(tr, k, st[b + S_SEC + k])
            if 0 <= c <= gold:
                n += 1
        r = rand_below_nb(rng, n + 1)  # n sections or stop
        for k in range(N_SECTIONS):
            c = level_cost_nb(tr, k, st[b + S_SEC + k])
            if 0 <= c <= gold:
                if r == 0:
                    return k
                r -= 1
        return -1
    best = -1
    gap_best = 0
    for j in range(N_SECTIONS):
        k = PRIORITY[code, j]
        lvl = st[b + S_SEC + k]
        c = level_cost_nb(tr, k, lvl)
        gap = target_nb(st, P, tr, sp, s, code, k) - lvl
        if gap > gap_best and 0 <= c <= gold:
            gap_best = gap
            best = k
    return best


@njit(cache=True)
def upgrade_levels_nb(st, rng, P, tr, strat, sp, s, k, free):
    """Levels of section ``k`` to buy when alone on its island (``free`` levels cost nothing)."""
    code = code_nb(st, strat, s)
    b = sb_nb(s)
    gold = st[b + S_GOLD]
    lvl = st[b + S_SEC + k]
    if code == ST_SCRIPTED:
        return script_nb(st, SC_UPGRADE, s)
    reserve = 0 if code == ST_RANDOM else int(par_nb(st, sp, s, SP_GOLD_RESERVE))
    target = tr[k, 1] if code == ST_RANDOM else target_nb(st, P, tr, sp, s, code, k)
    n = 0
    spent = 0
    while lvl + n < target:
        c = level_cost_nb(tr, k, lvl + n)
        if c < 0:
            break
        if n < free:
            c = 0
        if gold - spent - c < reserve and c > 0:
            break
        spent += c
        n += 1
    if code == ST_RANDOM:
        return rand_below_nb(rng, n + 1)
    return n


@njit(cache=True, inline="always")
def card_rule_nb(st, rng, strat, sp, s, t):
    """Whether to play a card of type ``t`` when nothing but the strategy decides:
    1 play, 0 do not (none held, or the scripted or random choice), -1 the planned policy decides."""
    if st[sb_nb(s) + S_HAND + t] == 0:
        return 0
    code = code_nb(st, strat, s)
    if code == ST_SCRIPTED:
        return 1 if script_nb(st, SC_PLAY, s) == 1 else 0
    if code == ST_RANDOM:
        return 1 if yes_nb(rng, par_nb(st, sp, s, SP_DECIDE_PROB)) else 0
    return -1


@njit(cache=True)
def play_mastercraft_nb(st, rng, P, tr, strat, sp, s, k):
    """Play a Mastercraft card on this upgrade?  Planned policies: when they want the level."""
    r = card_rule_nb(st, rng, strat, sp, s, MASTERCRAFT)
    if r >= 0:
        return r == 1
    lvl = st[sb_nb(s) + S_SEC + k]
    return lvl < target_nb(st, P, tr, sp, s, code_nb(st, strat, s), k) and level_cost_nb(tr, k, lvl) > 0


@njit(cache=True)
def tavern_buys_nb(st, rng, P, strat, sp, s):
    """Tavern cards to buy when alone on the Tavern."""
    code = code_nb(st, strat, s)
    gold = st[sb_nb(s) + S_GOLD]
    if code == ST_SCRIPTED:
        return script_nb(st, SC_BUYS, s)
    afford = P.max_buys
    if P.price > 0 and gold // P.price < afford:
        afford = gold // P.price
    if code == ST_RANDOM:
        return rand_below_nb(rng, afford + 1)
    if st[G_ROUND] >= P.rounds - 1:
        return 0  # nothing left to play them in (Fame cards are in every deck but rare)
    want = int(par_nb(st, sp, s, SP_MAX_BUYS))
    reserve = int(par_nb(st, sp, s, SP_GOLD_RESERVE))
    n = 0
    while n < want and n < afford and gold - (n + 1) * P.price >= reserve:
        n += 1
    return n


@njit(cache=True)
def bury_gold_nb(st, rng, P, strat, sp, s):
    """Gold to bury on Treasure Island (chests are always buried: they score nothing aboard)."""
    code = code_nb(st, strat, s)
    gold = st[sb_nb(s) + S_GOLD]
    g = P.gold_per_fame
    if code == ST_SCRIPTED:
        return (gold // g) * g if script_nb(st, SC_BURY_GOLD, s) == 1 else 0
    if code == ST_RANDOM:
        return rand_below_nb(rng, gold // g + 1) * g
    if st[G_ROUND] + 1 >= par_nb(st, sp, s, SP_BURY_FROM):
        return (gold // g) * g
    keep = int(par_nb(st, sp, s, SP_GOLD_RESERVE))
    spare = gold - keep
    return (spare // g) * g if spare > 0 else 0


@njit(cache=True)
def treasure_upgrade_nb(st, rng, P, tr, strat, sp, s):
    """Section to raise one level at Treasure Island's double price, -1 none."""
    code = code_nb(st, strat, s)
    b = sb_nb(s)
    gold = st[b + S_GOLD]
    if code == ST_SCRIPTED:
        return script_nb(st, SC_TI_SECTION, s) - 1
    best = -1
    gap_best = 0
    reserve = 0 if code == ST_RANDOM else int(par_nb(st, sp, s, SP_GOLD_RESERVE))
    if code == ST_RANDOM and not yes_nb(rng, par_nb(st, sp, s, SP_DECIDE_PROB)):
        return -1
    if code != ST_RANDOM and st[G_ROUND] >= P.rounds - 1:
        return -1  # the last round: levels no longer pay
    for j in range(N_SECTIONS):
        k = PRIORITY[code, j]
        lvl = st[b + S_SEC + k]
        c = level_cost_nb(tr, k, lvl)
        if c < 0 or c * P.ti_factor > gold - reserve:
            continue
        gap = (tr[k, 1] if code == ST_RANDOM else target_nb(st, P, tr, sp, s, code, k)) - lvl
        if code == ST_RANDOM:
            gap = 1 + rand_below_nb(rng, 4)
        if gap > gap_best:
            gap_best = gap
            best = k
    return best


@njit(cache=True)
def cove_card_nb(st, rng, P, strat, sp, s):
    """At Pirate's Cove: a Tavern card (True) or the consolation gold?"""
    code = code_nb(st, strat, s)
    if code == ST_SCRIPTED:
        return script_nb(st, SC_COVE_CARD, s) == 1
    if code == ST_RANDOM:
        return yes_nb(rng, par_nb(st, sp, s, SP_DECIDE_PROB))
    return par_nb(st, sp, s, SP_COVE_CARD) >= 0.5


# ------------------------------------------------------------------ combat
@njit(cache=True, inline="always")
def flee_line_nb(flee_below, ships):
    """The win chance below which a planned player flees a fight of ``ships`` ships:
    ``flee_below`` one-on-one, scaled to the fair share 1 / ships in a crowd (an equal
    ship's own power / all powers is 1 / ships: fleeing below 0.5 there is fleeing always)."""
    return flee_below * 2.0 / ships if ships > 2 else flee_below


@njit(cache=True)
def active_ships_nb(st):
    base = G_FIGHT
    m = 0
    for j in range(st[base + F_N]):
        m += st[base + F_ACTIVE + j]
    return m


@njit(cache=True)
def fight_odds_nb(st, P, s):
    """Estimated chance that seat ``s`` outlasts the other ships still in the fight."""
    base = G_FIGHT
    opp = 0.0
    for j in range(st[base + F_N]):
        u = st[base + F_UNITS + j]
        if u != s and st[base + F_ACTIVE + j] == 1:
            opp += power_nb(st, P, u)
    return win_chance_nb(power_nb(st, P, s), opp)


@njit(cache=True)
def decide_flee_nb(st, rng, P, strat, sp, s, own_turns):
    """Flee to Pirate's Cove instead of firing (``own_turns``: this seat's turns so far, this one included)?"""
    code = code_nb(st, strat, s)
    if code == ST_SCRIPTED:
        f = script_nb(st, SC_FLEE, s)
        return f > 0 and own_turns >= f
    if code == ST_RANDOM:
        return yes_nb(rng, par_nb(st, sp, s, SP_FLEE_PROB))
    return fight_odds_nb(st, P, s) < flee_line_nb(par_nb(st, sp, s, SP_FLEE_BELOW), active_ships_nb(st))


@njit(cache=True)
def choose_target_nb(st, rng, P, strat, sp, u):
    """(target unit, section) for unit ``u``'s volley.  Black ships and the planned
    policies shoot the ship easiest to cripple (its weakest section; ties: a black ship
    for its fame, then the most fame) at its weakest section."""
    base = G_FIGHT
    n = st[base + F_N]
    code = -1 if u >= MAX_SEATS else code_nb(st, strat, u)
    if code == ST_RANDOM:
        m = 0
        for j in range(n):
            if st[base + F_UNITS + j] != u and st[base + F_ACTIVE + j] == 1:
                m += 1
        r = rand_below_nb(rng, m)
        t = -1
        for j in range(n):
            if st[base + F_UNITS + j] != u and st[base + F_ACTIVE + j] == 1:
                if r == 0:
                    t = st[base + F_UNITS + j]
                    break
                r -= 1
        return t, rand_below_nb(rng, N_SECTIONS)
    t = -1
    best = 1 << 30
    best_fame = -1
    for j in range(n):
        v = st[base + F_UNITS + j]
        if v == u or st[base + F_ACTIVE + j] == 0:
            continue
        if code == ST_SCRIPTED:
            t = v
            break
        tough = toughness_nb(st, v)
        fame = 1000 if v >= MAX_SEATS else st[sb_nb(v) + S_FAME]
        if u >= MAX_SEATS:
            fame = 0 if v >= MAX_SEATS else fame
        if tough < best or (tough == best and fame > best_fame):
            best = tough
            best_fame = fame
            t = v
    if code == ST_SCRIPTED:
        return t, script_nb(st, SC_SECTION, u)
    aim = BLACK_AIM if u >= MAX_SEATS else int(par_nb(st, sp, u, SP_AIM))
    return t, aim_section_nb(st, rng, P, t, aim)


@njit(cache=True)
def threat_after_hit_nb(st, P, t, k):
    """The target's power (dice x weakest section) once a hit takes section ``k`` down one
    level, a crippled section counted at the level Pirate's Cove repairs it to."""
    lv = level_nb(st, t, k)
    set_level_nb(st, t, k, lv - 1 if lv > 1 else P.repair_to)
    p = power_nb(st, P, t)
    set_level_nb(st, t, k, lv)
    return p


@njit(cache=True)
def aim_section_nb(st, rng, P, t, aim):
    """Which of target ``t``'s weakest sections to shoot (a hit there is the one that can
    cripple).  AIM_CANNONS: the fixed order Cannons, Crew, Hull, Sails; AIM_RANDOM: uniform
    among the weakest; AIM_THREAT: the weakest whose loss leaves the target least power,
    ties uniform.  A draw from the game's stream is made only when two or more are left."""
    lv = toughness_nb(st, t)
    if aim == AIM_CANNONS:
        for j in range(N_SECTIONS):
            if level_nb(st, t, SHOOT_ORDER[j]) == lv:
                return SHOOT_ORDER[j]
    low = 1e18
    n = 0
    for k in range(N_SECTIONS):
        if level_nb(st, t, k) != lv:
            continue
        v = threat_after_hit_nb(st, P, t, k) if aim == AIM_THREAT else 0.0
        if v < low - 1e-9:
            low = v
            n = 1
        elif v < low + 1e-9:
            n += 1
    r = rand_below_nb(rng, n) if n > 1 else 0
    for k in range(N_SECTIONS):
        if level_nb(st, t, k) != lv:
            continue
        v = threat_after_hit_nb(st, P, t, k) if aim == AIM_THREAT else 0.0
        if v < low + 1e-9:
            if r == 0:
                return k
            r -= 1
    return SHOOT_ORDER[0]


@njit(cache=True)
def play_battle_nb(st, rng, P, strat, sp, s):
    """Play a Battle card at the start of this fight?  Planned policies: if they mean to fight."""
    r = card_rule_nb(st, rng, strat, sp, s, BATTLE)
    if r >= 0:
        return r == 1
    return fight_odds_nb(st, P, s) >= flee_line_nb(par_nb(st, sp, s, SP_FLEE_BELOW), active_ships_nb(st))


@njit(cache=True)
def play_volley_nb(st, rng, P, strat, sp, s, dice, target_level):
    """Play a Volley card before this volley?  Planned policies: when it turns an
    unlikely cripple into a likely one, or when they hold more than one."""
    r = card_rule_nb(st, rng, strat, sp, s, VOLLEY)
    if r >= 0:
        return r == 1
    p_hit = (7 - P.hit_min) / 6.0
    now = dice * p_hit
    more = (dice + P.volley_dice) * p_hit
    return st[sb_nb(s) + S_HAND + VOLLEY] > 1 or (now < target_level <= more + 0.5)


@njit(cache=True)
def play_fog_nb(st, rng, P, strat, sp, s):
    """Play an Event (Fog Bank) to cancel a volley that would cripple the ship?  Planned policies: always."""
    r = card_rule_nb(st, rng, strat, sp, s, EVENT)
    return r != 0
