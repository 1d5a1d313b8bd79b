"""The Pirate's Cove plug-in: compile a scenario; play, trace and search on the decision protocol's
engine (protocol.py, engine.py); odds."""

from __future__ import annotations

from collections import namedtuple
from typing import Any

import numpy as np

from ...seating import first_player_code, rotates
from ...contract import EngineGame
from ..base import Compiled, OddsRow, Param, Ratio
from . import rules as R
# FAME_SOURCES, decode_round: report.py reads them from columns, tests and scripts from here
from .columns import FAME_SOURCES, GAME_COLUMNS, SEAT_COLUMNS, SECTIONS, decode_round  # noqa: F401
from .engine import PROTOCOL, engine_tables
from .strategies import STRATEGIES, seat_tables

CoveParams = namedtuple("CoveParams", [
    "n_seats", "setup_gold", "setup_cards", "chests_per_level", "supply_gold", "supply_chests", "hit_min",
    "fame_per_loser", "mutiny_max", "mutiny_fame", "crippled_loses", "max_volleys", "chest_fame",
    "gold_per_fame", "ti_factor", "price", "max_buys", "mc_levels", "battle_dice", "volley_dice",
    "silver_dice", "trelawney_speed", "parrot_game", "cove_gold", "repair_to", "n_black", "black_start0",
    "black_start1", "black_start2", "navy_hull", "navy_sails", "navy_cannons", "navy_crew",
    "navy_fame", "first_player", "rotate", "rounds",
])

def _section_table(r: dict) -> np.ndarray:
    tr = np.zeros((R.N_SECTIONS, 2 + R.MAX_LEVEL), np.int32)
    for k, name in enumerate(SECTIONS):
        start, top = int(r[f"sections.{name}.start"]), int(r[f"sections.{name}.max"])
        costs = [int(x) for x in r[f"sections.{name}.costs"]]
        if start > top:
            raise ValueError(f"sections.{name}.start: {start} is above sections.{name}.max {top}")
        if len(costs) < top - 1:
            raise ValueError(f"sections.{name}.costs: needs {top - 1} costs (levels 1..{top}), got {len(costs)}")
        tr[k, 0], tr[k, 1] = start, top
        for lvl in range(1, top):
            tr[k, 2 + lvl] = costs[lvl - 1]
    return tr


class PiratesCove(EngineGame):
    name = "pirates_cove"
    protocol = PROTOCOL  # engine.py: the game on the decision protocol (contract.EngineGame plays it)
    engine_tables = staticmethod(engine_tables)
    trace_capacity = 20_000
    title = "Pirate's Cove"
    version = R.VERSION
    min_seats = 3
    max_seats = 5
    params = R.PARAMS
    strategies = STRATEGIES
    default_seats = ("treasure_hunter", "fighter", "crowd_avoider", "random")
    end_reasons = R.END_REASONS
    game_columns = GAME_COLUMNS
    seat_columns = SEAT_COLUMNS
    score_column = "fame"
    ratios = (
        Ratio("hits_per_volley", "hits", "volleys", "hits per volley fired"),
        Ratio("mutiny_rate", "mutinies", "flights", "share of flights that end in a mutiny"),
        Ratio("navy_win_rate", "navy_wins", "navy_fights", "Royal Navy crippled per fight it is in"),
        Ratio("flight_rate", "flights", "fights", "flights per fight"),
    )
    odds_mechanics = {
        "combat": "hits of n dice, crippling a section of level k in one volley and within v volleys, "
                  "and a duel's win chance, exact beside the kernel's own Monte Carlo",
    }
    rules_doc = "docs/rules/pirates_cove.md"

    # ------------------------------------------------------------------ compile
    def compile(self, rules: dict[str, Any], seats: list[dict[str, Any]]) -> Compiled:
        n = len(seats)
        if not self.min_seats <= n <= self.max_seats:
            raise ValueError(f"seats: {self.name} takes {self.min_seats}..{self.max_seats} seats, got {n}")
        r = self.full_rules(rules)
        tr = _section_table(r)
        if int(r["cove.repair_to"]) > int(tr[:, 1].min()):
            raise ValueError(f"cove.repair_to: {r['cove.repair_to']} is above a section's highest level "
                             f"({int(tr[:, 1].min())})")
        rounds = int(r["rounds"])
        cards = np.zeros((R.N_CARD_ISLANDS, R.MAX_TREASURE, 4), np.int32)
        ncards = np.zeros(R.N_CARD_ISLANDS, np.int32)
        for i in range(1, 6):
            key = f"treasure.island{i}"
            stack = list(r[key])
            if not rounds <= len(stack) <= R.MAX_TREASURE:
                raise ValueError(f"{key}: needs {rounds}..{R.MAX_TREASURE} cards (rounds = {rounds}), "
                                 f"got {len(stack)}")
            for j, text in enumerate(stack):
                try:
                    cards[i - 1, j] = R.parse_reward(str(text))
                except ValueError as exc:
                    raise ValueError(f"{key}: {exc}") from None
            ncards[i - 1] = len(stack)
        fame_values = [int(v) for v in r["tavern.fame"]]
        deck = [t for t in (R.FLINT, R.SILVER, R.BONES, R.TRELAWNEY) for _ in range(int(r["tavern.parrots"]))]
        for t, key in ((R.MASTERCRAFT, "mastercraft"), (R.BATTLE, "battle"), (R.VOLLEY, "volley"),
                       (R.EVENT, "event")):
            deck += [t] * int(r[f"tavern.{key}"])
        deck += [R.FAME + 16 * v for v in fame_values]
        if not 1 <= len(deck) <= R.MAX_TAVERN:
            raise ValueError(f"tavern.battle: the Tavern deck must have 1..{R.MAX_TAVERN} cards, got {len(deck)}")
        legends = []
        for text in r["legendary.cards"]:
            try:
                legends.append(R.parse_legend(str(text))[1])
            except ValueError as exc:
                raise ValueError(f"legendary.cards: {exc}") from None
        n_black = int(r["black.ships"][n - 3])
        if n_black - 1 > len(legends):
            raise ValueError(f"black.ships: {n_black} black ships need {n_black - 1} Legendary Pirate cards, "
                             f"legendary.cards has {len(legends)}")
        if len(legends) > 30:
            raise ValueError("legendary.cards: at most 30 cards")
        starts = [int(x) for x in r["black.start_islands"]]
        navy = [int(x) for x in r["royal_navy.sections"]]
        strat, sp = seat_tables(seats)
        P = CoveParams(
            n_seats=n, setup_gold=int(r["setup.gold"]), setup_cards=int(r["setup.tavern_cards"]),
            chests_per_level=int(r["hull.chests_per_level"]), supply_gold=int(r["supply.gold"]),
            supply_chests=int(r["supply.chests"]), hit_min=int(r["combat.hit_min"]),
            fame_per_loser=int(r["combat.fame_per_loser"]), mutiny_max=int(r["combat.mutiny_max"]),
            mutiny_fame=int(r["combat.mutiny_fame"]),
            crippled_loses=("nothing", "chests", "all").index(r["combat.crippled_loses"]),
            max_volleys=int(r["combat.max_volleys"]), chest_fame=int(r["bury.chest_fame"]),
            gold_per_fame=int(r["bury.gold_per_fame"]), ti_factor=int(r["treasure_island.cost_factor"]),
            price=int(r["tavern.price"]), max_buys=int(r["tavern.max_buys"]),
            mc_levels=int(r["tavern.mastercraft_levels"]), battle_dice=int(r["tavern.battle_dice"]),
            volley_dice=int(r["tavern.volley_dice"]), silver_dice=int(r["tavern.silver_dice"]),
            trelawney_speed=int(r["tavern.trelawney_speed"]), parrot_game=int(r["tavern.parrot_lasts"] == "game"),
            cove_gold=int(r["cove.gold"]), repair_to=int(r["cove.repair_to"]), n_black=n_black,
            black_start0=starts[0], black_start1=starts[1], black_start2=starts[2],
            navy_hull=navy[0], navy_sails=navy[1], navy_cannons=navy[2], navy_crew=navy[3],
            navy_fame=int(r["royal_navy.fame"]), first_player=first_player_code(r), rotate=rotates(r),
            rounds=rounds)
        arrays = (tr, cards, ncards, np.asarray(deck, np.int32), np.asarray(legends, np.int32).reshape(-1, 5),
                  strat, sp)
        return Compiled(P, arrays, n, tuple(s["strategy"] for s in seats),
                        extra={"rules": dict(r), "legend_names": [R.parse_legend(str(t))[0]
                                                                  for t in r["legendary.cards"]]})

    # ------------------------------------------------------------------ strategies of one's own
    user_seat_params = {"base": Param("base", "expert", "choice", "the built-in strategy (default parameters) "
                                      "that takes the seat's choices other than its island",
                                      choices=tuple(s.name for s in STRATEGIES if s.name != "search"))}

    user_rollout_placeholder = "expert"  # the search's tables' rollout then: every decision but the island

    def user_placeholder(self, seat: dict) -> dict:
        return {"strategy": seat.get("base", "expert")}

    def file_board(self, compiled: Compiled):
        from .user_view import board_of

        return board_of(compiled)

    # ------------------------------------------------------------------ the search player's cost
    def search_bench(self, compiled: Compiled, seed: int, n_decisions: int) -> dict:
        """The search player's cost on 1 thread (engine_template's bench): ``n_decisions`` searched
        decisions of the table's games (more than one option), searched again (rollouts/s), then
        as many plain playouts from the same decisions (``s_per_playout``; ``overhead`` the
        search's machinery per rollout).  Without a ``search`` entry, the first entry without a
        strategy file searches with the default budget, its strategy as rollout."""
        from ...search import REWARD_WIN
        from .policies import SP_BUDGET, SP_HORIZON, SP_REWARD, SP_SEARCH, SP_TOP_K
        from .strategies import DEFAULT_BUDGET

        sp = compiled.arrays[6]
        n = compiled.n_seats
        files = self.engine_files(compiled)
        if not (sp[:n, SP_SEARCH] >= 0.5).any():
            e = next((e for e in range(n) if files[0][e] < 0), None)
            if e is None:
                raise ValueError("search_bench: every seat plays a strategy file; none can search")
            sp = sp.copy()
            sp[e, SP_SEARCH], sp[e, SP_BUDGET], sp[e, SP_TOP_K] = 1.0, DEFAULT_BUDGET, 8
            sp[e, SP_REWARD], sp[e, SP_HORIZON] = REWARD_WIN, 0
            compiled = Compiled(compiled.params, (*compiled.arrays[:6], sp), n, compiled.strategy_names,
                                extra=compiled.extra)
        return self.engine_bench(compiled, seed, n_decisions, files)

    # ------------------------------------------------------------------ trace
    def trace(self, compiled: Compiled, seed: int, game_index: int) -> list[str]:
        from .trace import describe

        ev, out_g, out_s = self.trace_events(compiled, seed, game_index)
        names = compiled.strategy_names
        lines = [f"Pirate's Cove game {game_index} (seed {seed}), {compiled.n_seats} ships: "
                 + ", ".join(f"seat {i} {n}" for i, n in enumerate(names))]
        for rnd, s, kind, a, b, c in ev.tolist():
            who = f"seat {s}" if s >= 0 else "table"
            lines.append(f"R{rnd:2d} {who}: " + describe(kind, a, b, c, compiled))
        w = int(out_g[0])
        fame = ", ".join(f"seat {i} {int(out_s[i, 0])}" for i in range(compiled.n_seats))
        lines.append(f"Result: {'seat %d wins' % w if w >= 0 else 'no winner'} "
                     f"({self.end_reasons[int(out_g[2])].replace('_', ' ')}) after {int(out_g[1])} turns; "
                     f"fame {fame}")
        return lines

    # ------------------------------------------------------------------ report
    def report_figures(self, ctx) -> list:
        """Fame sources, island x round heat map, section values, Tavern cards, Royal Navy, players."""
        from .report import report_figures

        return report_figures(self, ctx)

    # ------------------------------------------------------------------ odds
    def odds(self, mechanic: str, rules: dict[str, Any], samples: int, seed: int) -> list[OddsRow]:
        from .odds import combat_rows

        r = self.full_rules(rules)
        if mechanic == "combat":
            return combat_rows(self, r, samples, seed)
        raise KeyError(mechanic)


GAME = PiratesCove()
