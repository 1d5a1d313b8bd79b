"""The Pirate's Peak plug-in: compile a scenario, odds, dice per game; the decision protocol's engine
(``protocol.py``, ``pirate_sim/contract.py``) plays its runs, traces, strategy files and searches."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...contract import SEARCH, SEARCH_SLOTS, EngineGame
from ...seating import first_player_code, rotates
from ..base import Compiled, OddsRow, Param, Ratio
from . import columns as cols
from . import rules as r
from .odds import MECHANICS, odds_rows
from .strategies import STRATEGIES, default_rows, seat_row

PROTOCOL = "pirate_sim.games.pirates_peak.protocol"  # the game on the decision protocol

TRACE_EVENTS = 20000


def compile_rules(rules: dict[str, Any]):
    """(Rules NamedTuple, cards int8 matrix, card_len int32) from flat dotted-key rules."""
    full = r.defaults()
    full.update(rules)
    deck = full["deck.cards"]
    parsed = [r.parse_card(i + 1, text) for i, text in enumerate(deck)]
    n_journey = len(parsed)
    if n_journey < full["deck.peak_earliest_flip"] - 1:
        raise ValueError(
            f"deck.peak_earliest_flip: {full['deck.peak_earliest_flip']} needs at least "
            f"{full['deck.peak_earliest_flip'] - 1} journey cards before the Peak, "
            f"the deck has {n_journey}"
        )
    cards = np.zeros((n_journey + 1, r.MAX_CARD_SPACES), dtype=np.int8)
    card_len = np.zeros(n_journey + 1, dtype=np.int32)
    for i, codes in enumerate(parsed):
        cards[i, : len(codes)] = codes
        card_len[i] = len(codes)
    cards[n_journey, 0] = r.PEAK
    card_len[n_journey] = 1
    offered = list(full["peak.treasures"])
    for t in offered:
        if t not in r.TREASURE_LABELS[1:]:
            raise ValueError(
                f"peak.treasures: unknown treasure {t!r} "
                f"(known: {', '.join(r.TREASURE_LABELS[1:])})"
            )
    if len(set(offered)) != len(offered):
        raise ValueError(f"peak.treasures: a treasure is listed twice in {offered}")
    # the Peak starts with the treasures not offered marked as taken (bit t: treasure t)
    taken_mask = sum(1 << t for t in range(1, 4) if r.TREASURE_LABELS[t] not in offered)
    supply = int(full["gold.supply"])
    if supply >= 0:
        supply -= 2 * int(full["start.gold"])  # the players take their starting gold from it
        if supply < 0:
            raise ValueError(
                f"gold.supply: {full['gold.supply']} is less than the two players' starting "
                f"gold ({2 * int(full['start.gold'])})"
            )
    max_track = full["dock.spaces"] + int(card_len.sum()) + 4
    work_width = max(max_track, r.N_ST, r.N_SHIP, cols.N_SEAT_COLS, n_journey + 1, r.EV_WIDTH)
    R = r.Rules(
        turn_cap=int(full["turn_cap"]),
        start_gold=int(full["start.gold"]),
        cannonball_price=int(full["shop.cannonball_price"]),
        crewman_price=int(full["shop.crewman_price"]),
        max_cannonballs=int(full["ship.max_cannonballs"]),
        max_crew=int(full["ship.max_crew"]),
        life_points=int(full["ship.life_points"]),
        dock_spaces=int(full["dock.spaces"]),
        n_journey=n_journey,
        peak_card=n_journey,
        peak_earliest_flip=int(full["deck.peak_earliest_flip"]),
        max_track=max_track,
        work_width=work_width,
        search_multiplier=int(full["search.multiplier"]),
        cannon_range=int(full["cannon.range"]),
        partial_multiplier=int(full["cannon.partial_multiplier"]),
        interrupt_costs_turn=int(bool(full["cannon.interrupt_costs_turn"])),
        mighty_sail_bonus=int(full["treasure.mighty_sail_bonus"]),
        cutlass_bonus=int(full["treasure.cutlass_bonus"]),
        ghost_summon_face=int(full["ghost.summon_face"]),
        ghost_crew_roll=int(full["ghost.crew_roll"]),
        whirlpool_escape_roll=int(full["whirlpool.escape_roll"]),
        whirlpool_escape_move=int(full["whirlpool.escape_move"]),
        whirlpool_max_attempts=int(full["whirlpool.max_attempts"]),
        whirlpool_spit_spaces=int(full["whirlpool.spit_spaces"]),
        squid_dice=int(full["squid.dice"]),
        squid_escape_total=int(full["squid.escape_total"]),
        squid_instant_total=int(full["squid.instant_total"]),
        squid_instant_move=int(full["squid.instant_move"]),
        squid_life_loss_total=int(full["squid.life_loss_total"]),
        squid_sacrifice_after=int(full["squid.sacrifice_after"]),
        fog_tolerance=int(full["fog.tolerance"]),
        gust_multiplier=int(full["gust.multiplier"]),
        shortcut_spaces=int(full["shortcut.spaces"]),
        crew_sale_price=int(full["end.crew_sale_price"]),
        fight_overtake=int(bool(full["fight.overtake"])),
        search_gold_per_crewman=int(full["search.gold_per_crewman"]),
        hit_life_loss=int(full["cannon.hit_life_loss"]),
        interrupt_life_loss=int(full["cannon.interrupt_life_loss"]),
        spit_life_loss=int(full["whirlpool.spit_life_loss"]),
        squid_low_life_loss=int(full["squid.low_roll_life_loss"]),
        mermaid_crew_lost=int(full["mermaids.crew_lost"]),
        castaway_crew_gained=int(full["castaway.crew_gained"]),
        squid_sacrifice_crew=int(full["squid.sacrifice_crew"]),
        summon_needs_second=int(bool(full["ghost.summon_needs_second"])),
        ghost_crew=int(full["ghost.crew"]),
        peak_taken_mask=taken_mask,
        steel_cannon_range=int(full["treasure.steel_cannon_range"]),
        exact_docking=int(bool(full["dock.exact_roll"])),
        squid_on_arrival=int(full["squid.first_attempt"] == "arrival"),
        whirlpool_fire=int(bool(full["cannon.whirlpool_fire"])),
        gold_supply=supply,
        first_player=first_player_code(full),
        strategy_seating=int(rotates(full)),
    )
    return R, cards, card_len


class PiratesPeak(EngineGame):
    name = "pirates_peak"
    title = "Pirate's Peak"
    version = r.VERSION
    min_seats = 2
    max_seats = 2
    params = r.PARAMS
    strategies = STRATEGIES
    default_seats = ("treasure_digger", "treasure_digger")  # the fair mirror match
    end_reasons = r.END_REASONS
    game_columns = cols.GAME_COLUMNS  # declared once (columns.py), written by name by the kernel
    seat_columns = cols.SEAT_COLUMNS
    score_column = "final_gold"
    # pooled rates with exact counterparts in `pirate-sim odds` (metric ratio.<name>)
    ratios = (
        Ratio("squid_escape_rate", "squid_escapes", "squid_attempts",
              "Giant Squid escapes per attempt (exact: P(3 dice >= squid.escape_total) = 0.375)"),
        Ratio("whirlpool_escape_rate", "whirlpool_escapes", "whirlpool_attempts",
              "whirlpool escapes per roll (exact 1/6)"),
        Ratio("fog_escape_rate", "fog_escapes", "fog_turns", "successful fog guesses per turn in fog"),
        Ratio("cannon_hit_rate", "cannon_hits", "cannon_shots", "cannon shots that cost a life point"),
        Ratio("gold_per_search", "search_gold", "searches", "gold found per treasure search"),
    )
    odds_mechanics = MECHANICS
    rules_doc = "docs/rules/pirates_peak.md"

    def compile(self, rules: dict[str, Any], seats: list[dict[str, Any]]) -> Compiled:
        R, cards, card_len = compile_rules(rules)
        if not (self.min_seats <= len(seats) <= self.max_seats):
            raise ValueError(f"seats: Pirate's Peak is a 2-player game, got {len(seats)} seats")
        codes = []
        rows = []
        for seat in seats:
            code, row = seat_row(seat)
            codes.append(code)
            rows.append(row)
        strat = np.asarray(codes, dtype=np.int32)
        sp = np.ascontiguousarray(np.vstack(rows), dtype=np.float64)
        names = tuple(str(s["strategy"]) for s in seats)
        # a search seat plays its smaller choices as its rollout strategy: that is its kernel code
        kcodes = np.where(sp[:, r.SP_SEARCH] > 0, sp[:, r.SP_ROLLOUT], strat).astype(np.int32)
        sd = r.static_table(R, cards, card_len, kcodes, sp, default_rows())
        return Compiled(
            params=R,
            arrays=(cards, card_len, strat, sp),
            n_seats=2,
            strategy_names=names,
            extra={"sd": sd},
        )

    # ------------------------------------------------------------------ the decision protocol's engine
    protocol = PROTOCOL
    trace_capacity = TRACE_EVENTS

    def engine_params(self, compiled: Compiled):
        """protocol.PeakP: the work array's width and a file's view length (the rules: ``sd``)."""
        from .protocol import PeakP
        from .user_view import view_len

        R = compiled.params
        return PeakP(np.int64(R.work_width), np.int64(view_len(R.max_track)))

    def engine_tables(self, compiled: Compiled) -> tuple:
        """The engine's (T, codes, prm, rprm, rotate), built at each call (a test may change the
        table): T = (sd,), the static table with SP_ASK set in a strategy file's entry and
        SP_ROLL_FILE in a search entry that rolls one out; a search entry's engine row: budget,
        top_k, reward, horizon and its rollout's code (protocol.py documents the rest)."""
        _, _, strat, sp = compiled.arrays
        n = compiled.n_seats
        x = compiled.extra.get("user")
        fi = np.asarray(x["fi"]) if x is not None else np.full(2 * n, -1)
        sd = np.array(compiled.extra["sd"])
        codes = np.asarray(strat, np.int64).copy()
        prm = np.zeros((n, SEARCH_SLOTS))
        for e in range(n):
            if fi[e] >= 0:
                sd[r.SD_SP + e, r.SP_ASK] = 1
            elif sp[e, r.SP_SEARCH] > 0:
                codes[e] = SEARCH
                prm[e] = (sp[e, r.SP_BUDGET], sp[e, r.SP_TOP_K], sp[e, r.SP_REWARD], sp[e, r.SP_HORIZON],
                          sp[e, r.SP_ROLLOUT])
                sd[r.SD_SP + e, r.SP_ROLL_FILE] = 1 if fi[n + e] >= 0 else 0
        return (sd,), codes, prm, np.zeros_like(prm), bool(compiled.params.strategy_seating)

    # ------------------------------------------------------------------ strategies of one's own
    user_seat_params = {"base": Param("base", "expert", "choice", "the built-in strategy (default parameters) "
                                      "that takes the seat's choices other than its declaration",
                                      choices=tuple(s.name for s in STRATEGIES if s.name != "search"))}
    user_rollout_placeholder = "expert"  # the search's tables' rollout then: every choice but the declaration

    def user_placeholder(self, seat: dict) -> dict:
        return {"strategy": seat.get("base", "expert")}

    def file_board(self, compiled: Compiled):
        """The board a strategy file gets: a read-only copy of the rules row (user_view.py)."""
        from ...user_strategy import readonly
        from .user_view import Board

        return Board(rules=readonly(compiled.extra["sd"][r.SD_RULES]))

    def play(self, compiled: Compiled, seed: int, first_game: int, n_games: int):
        if int(n_games) == 0:
            return self.new_outputs(0, 2)
        return super().play(compiled, seed, first_game, n_games)

    def trace(self, compiled: Compiled, seed: int, game_index: int) -> list[str]:
        from .trace import format_events

        ev, out_g, out_s = self.trace_events(compiled, seed, game_index)
        return format_events(ev, out_s, compiled, game_index)

    def odds(self, mechanic: str, rules: dict[str, Any], samples: int, seed: int) -> list[OddsRow]:
        R, _, _ = compile_rules(rules)
        return odds_rows(mechanic, R, samples, seed)

    def dice_per_game(self, compiled: Compiled, seed: int, n_games: int) -> float:
        out_games, _ = self.play(compiled, seed, 0, n_games)
        return float(out_games[:, cols.GC_DICE].mean())

    def search_bench(self, compiled: Compiled, seed: int, n_decisions: int) -> dict:
        """The search player's cost on one thread (engine_template's bench): ``n_decisions``
        searched questions of the table's games (more than one option), searched again
        (rollouts/s), then as many plain playouts from the same questions (``s_per_playout``:
        every seat the rollout strategy, which also answers the question, nothing re-dealt);
        ``overhead`` is the search's machinery per rollout.  A table without a search seat is
        benched with both seats searching at the search player's defaults."""
        if not any(c == SEARCH for c in self.engine_tables(compiled)[1]):
            compiled = _both_searching(compiled)
        b = self.engine_bench(compiled, seed, max(int(n_decisions), 1))
        return {**b, "searched_decisions": b["decisions"]}

    def report_figures(self, ctx) -> list:
        """Squid, traps (whirlpool, fog, Ghost Ship) and Peak treasure pages (see report.py)."""
        from .report import report_figures

        return report_figures(self, ctx)


def _both_searching(compiled: Compiled) -> Compiled:
    """The table with both seats playing ``search`` at its defaults (the same rules)."""
    code, row = seat_row({"strategy": "search"})
    sd = compiled.extra["sd"].copy()
    for i in range(2):
        sd[r.SD_SP + i] = 0
        sd[r.SD_SP + i, : r.N_SP] = row.astype(np.int32)
        sd[r.SD_CODES, i] = int(row[r.SP_ROLLOUT])
    arrays = (*compiled.arrays[:2], np.array([code, code], np.int32), np.vstack([row, row]))
    return Compiled(compiled.params, arrays, 2, ("search", "search"), extra={"sd": sd})


GAME = PiratesPeak()
