"""The Pirate's Cove plug-in: compile a scenario, run the kernel (user_kernel.py for strategy files), trace, odds."""

from __future__ import annotations

from collections import namedtuple
from typing import Any

import numpy as np

from ...rng import RNG_WORDS as SP_RNG_WORDS
from ...seating import first_player_code, rotates
from ..base import Compiled, Game, OddsRow, Param, Ratio
from . import drivers as D
from . import rules as R
# FAME_SOURCES, decode_round: report.py reads them from columns, tests and scripts from here
from .columns import FAME_SOURCES, GAME_COLUMNS, SEAT_COLUMNS, SECTIONS, decode_round  # noqa: F401
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


NO_PLAYED = np.zeros(0, np.int64)  # drivers.play_chunk_nb's rollout counts: not asked for


def _play_chunk(*args) -> None:
    """``drivers.play_chunk_nb`` with base.Game.play_chunk's arguments (no rollout counts;
    the seat tables ``sp`` are the last array, before the two outputs)."""
    D.play_chunk_nb(*args, NO_PLAYED, D.searches(args[-3]))


def _search(compiled: Compiled):
    """The drivers' ``search`` argument of a compiled table (``drivers.searches`` of its own seat
    tables: the user kernel's copy marks the user entries too)."""
    return D.searches(compiled.arrays[-1])


class PiratesCove(Game):
    name = "pirates_cove"
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
    takes_strategy_files = True
    user_seat_params = {"base": Param("base", "expert", "choice", "the built-in strategy (default parameters) "
                                      "that takes the seat's choices other than its island",
                                      choices=tuple(s.name for s in STRATEGIES if s.name != "search"))}

    user_rollout = True  # a search seat's ``rollout`` may name a strategy file or "learned" (user_turn.py)
    user_rollout_placeholder = "expert"  # the search's tables' rollout then: every decision but the island

    def user_placeholder(self, seat: dict) -> dict:
        return {"strategy": seat.get("base", "expert")}

    def user_compile(self, compiled: Compiled, users: list, fi: np.ndarray, rows: np.ndarray) -> None:
        """The user kernel's tables: the placeholders' rows with SP_SEARCH = 1 at user entries
        (rounds.advance_nb then stops at their decisions, user_kernel.py answers them); ``fi`` /
        ``rows`` have a second row per entry, the file a search entry's rollouts play (-1: none)."""
        from numba import typeof

        from ... import user_strategy as U
        from .policies import SP_SEARCH
        from .user_view import VIEW_LEN, board_of

        tr, cards, ncards, tavern, legends, strat, sp = compiled.arrays
        n = len(compiled.strategy_names)
        sp = sp.copy()
        sp[fi[:n] >= 0, SP_SEARCH] = 1.0
        board = board_of(compiled)
        types_ = (typeof(np.zeros(VIEW_LEN, np.int32)), typeof(np.zeros(6, np.int32)), typeof(rows[0]),
                  typeof(np.zeros(SP_RNG_WORDS, np.uint64)))
        from . import user_kernel as mod

        calls = U.compile_calls(self.name, users, types_, board)
        compiled.extra["user"] = {"module": mod, "users": users, "fi": fi, "rows": rows, "board": calls,
                                  "arrays": (tr, cards, ncards, tavern, legends, strat, sp)}

    def _user_args(self, compiled: Compiled) -> tuple:
        """(kernel arrays, tail arguments) of the user kernel (user_kernel.py)."""
        from .user_view import VIEW_LEN

        x = compiled.extra["user"]
        return x["arrays"], (x["fi"], x["rows"], x["board"], np.int64(VIEW_LEN), _search(compiled))

    # ------------------------------------------------------------------ play
    def play(self, compiled: Compiled, seed: int, first_game: int, n_games: int):
        if "user" not in compiled.extra:
            return self.play_chunk(_play_chunk, compiled, seed, first_game, n_games)
        from ... import user_strategy as U

        x = compiled.extra["user"]
        arrays, tail = self._user_args(compiled)
        n = int(n_games)
        out_g, out_s = self.new_outputs(n, compiled.n_seats)
        err = np.zeros((n, 4), np.int64)
        if n > 0:
            x["module"].user_play_chunk_nb(np.uint64(seed % 2**64), np.int64(first_game), np.int64(n),
                                           compiled.params, *arrays, *tail, err, out_g, out_s)
        U.raise_errors(err, first_game, x["users"])
        return out_g, out_s

    # ------------------------------------------------------------------ the search player's cost
    def search_bench(self, compiled: Compiled, seed: int, n_decisions: int) -> dict:
        """Rollouts/s of the ``search`` player on 1 thread and its machinery's cost: the same
        decisions searched, then as many plain playouts of the rollout strategy from the same
        points (the state copied, no re-dealing, no forced option, no choosing).  Without a
        ``search`` entry, entry 0 searches with the default budget, its strategy as rollout."""
        import time

        from ...search import REWARD_WIN
        from .policies import SP_BUDGET, SP_HORIZON, SP_REWARD, SP_SEARCH, SP_TOP_K
        from .strategies import DEFAULT_BUDGET

        tr, cards, ncards, tavern, legends, strat, sp = compiled.arrays
        if not (sp[:, SP_SEARCH] >= 0.5).any():
            sp = sp.copy()
            sp[0, SP_SEARCH], sp[0, SP_BUDGET], sp[0, SP_TOP_K] = 1.0, DEFAULT_BUDGET, 8
            sp[0, SP_REWARD], sp[0, SP_HORIZON] = REWARD_WIN, 0
        P = compiled.params
        states = np.zeros((n_decisions, R.STATE_WORDS), np.int32)
        rngs = np.zeros((n_decisions, SP_RNG_WORDS), np.uint64)
        m = D.collect_decisions_nb(np.uint64(seed % 2**64), 1_000_000, P, tr, cards, ncards, tavern, legends, strat,
                                   sp, states, rngs)
        # the same number of playouts from each point as its search played rollouts
        reps = np.zeros(m, np.int64)
        for d in range(m):
            reps[d] = D.bench_search_nb(states[d:d + 1], rngs[d:d + 1], 1, P, tr, cards, ncards, legends, strat, sp)
        played = int(reps.sum())
        D.bench_playout_nb(states[:1], rngs[:1], 1, reps[:1], P, tr, cards, legends, strat, sp)  # compile
        t_search = t_play = float("inf")
        for _ in range(3):  # alternately, the fastest of three each (a shared machine's load varies)
            t = time.perf_counter()
            D.bench_search_nb(states, rngs, m, P, tr, cards, ncards, legends, strat, sp)
            t_search = min(t_search, time.perf_counter() - t)
            t = time.perf_counter()
            D.bench_playout_nb(states, rngs, m, reps, P, tr, cards, legends, strat, sp)
            t_play = min(t_play, time.perf_counter() - t)
        per_rollout = t_search / max(played, 1)
        per_playout = t_play / max(played, 1)
        return {"decisions": int(m), "rollouts": int(played), "rollouts_per_s": played / t_search,
                "s_per_rollout": per_rollout, "s_per_playout": per_playout,
                "overhead": per_rollout / per_playout - 1.0}

    # ------------------------------------------------------------------ trace
    def trace_events(self, compiled: Compiled, seed: int, game_index: int, capacity: int = 20_000):
        """(events int32[n, 6], out_games row, out_seats rows) of one game."""
        if "user" not in compiled.extra:
            return self.traced_game(D.play_traced_nb, compiled, seed, game_index, capacity, R.EVENT_WIDTH,
                                    _search(compiled))
        from ... import user_strategy as U

        x = compiled.extra["user"]
        arrays, tail = self._user_args(compiled)
        ev = np.zeros((capacity, R.EVENT_WIDTH), np.int32)
        out_g, out_s = self.one_game_outputs(compiled.n_seats)
        err = np.zeros(4, np.int64)
        n = x["module"].user_play_traced_nb(np.uint64(seed % 2**64), np.int64(game_index), compiled.params, *arrays,
                                            ev, *tail, err, out_g, out_s)
        U.raise_errors(err[None, :], game_index, x["users"])
        return ev[:n], out_g, out_s

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
