"""The Pirate's Peak plug-in: compile a scenario, play, trace, odds, dice per game."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...rng import new_rng
from ...seating import first_player_code, rotates
from ..base import Compiled, Game, OddsRow, Param, Ratio
from ..kernel_base import search_switch
from . import columns as cols
from . import rules as r
from .kernel import play_chunk, play_one
from .odds import MECHANICS, odds_rows
from .search_player import searching
from .strategies import STRATEGIES, default_rows, seat_row

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


class PiratesPeak(Game):
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

    # ------------------------------------------------------------------ strategies of one's own
    takes_strategy_files = True
    user_seat_params = {"base": Param("base", "expert", "choice", "the built-in strategy (default parameters) "
                                      "that takes the seat's choices other than its declaration",
                                      choices=tuple(s.name for s in STRATEGIES if s.name != "search"))}

    user_rollout = True  # a search seat's ``rollout`` may name a strategy file or "learned" (user_turn.py)
    user_rollout_placeholder = "expert"  # the search's tables' rollout then: every choice but the declaration

    def user_placeholder(self, seat: dict) -> dict:
        return {"strategy": seat.get("base", "expert")}

    def user_compile(self, compiled: Compiled, users: list, fi: np.ndarray, rows: np.ndarray) -> None:
        from numba import typeof

        from ... import user_strategy as U
        from .user_view import Board, view_len

        sd = compiled.extra["sd"]
        board = Board(rules=U.readonly(sd[r.SD_RULES]))
        vlen = view_len(compiled.params.max_track)
        types_ = (typeof(np.zeros(vlen, np.int32)), typeof(np.zeros(3, np.int32)), typeof(rows[0]),
                  typeof(np.zeros(8, np.uint64)), typeof(board))
        from . import user_kernel as mod

        calls = U.compile_calls(self.name, users, types_[:4], board)
        compiled.extra["user"] = {"module": mod, "users": users, "fi": fi, "rows": rows, "board": calls,
                                  "view_len": vlen}

    def play(self, compiled: Compiled, seed: int, first_game: int, n_games: int):
        n = int(n_games)
        out_games, out_seats = self.new_outputs(n, 2)
        if n == 0:
            return out_games, out_seats
        if "user" in compiled.extra:
            from ... import user_strategy as U

            x = compiled.extra["user"]
            err = np.zeros((n, 4), np.int64)
            x["module"].user_play_chunk(compiled.extra["sd"], np.uint64(seed % 2**64), np.int64(first_game),
                                        x["fi"], x["rows"], x["board"], np.int64(x["view_len"]), err, out_games,
                                        out_seats, search_switch(searching(compiled.extra["sd"])))
            U.raise_errors(err, first_game, x["users"])
            return out_games, out_seats
        play_chunk(compiled.extra["sd"], np.uint64(seed % 2**64), np.int64(first_game), out_games, out_seats)
        return out_games, out_seats

    def trace(self, compiled: Compiled, seed: int, game_index: int) -> list[str]:
        from .trace import format_events

        if "user" in compiled.extra:
            from ... import user_strategy as U
            from .kernel import State
            from .whole_game import seat_strategies_nb

            x = compiled.extra["user"]
            state = State(compiled, TRACE_EVENTS)
            state.sd = state.sd.copy()
            seat_strategies_nb(compiled.extra["sd"], state.sd, game_index)
            err = np.zeros(4, np.int64)
            x["module"].user_play_one_nb(state.sd, new_rng(seed, game_index), state.w, state.deck_order,
                                         state.out_games, state.out_seats, np.int64(game_index), x["fi"], x["rows"],
                                         x["board"], np.int64(x["view_len"]), err,
                                         search_switch(searching(state.sd)))
            U.raise_errors(err[None, :], game_index, x["users"])
            return format_events(state, compiled, game_index)
        state = play_one(compiled, new_rng(seed, game_index), ev_capacity=TRACE_EVENTS, game_index=game_index)
        return format_events(state, compiled, game_index)

    def odds(self, mechanic: str, rules: dict[str, Any], samples: int, seed: int) -> list[OddsRow]:
        R, _, _ = compile_rules(rules)
        return odds_rows(mechanic, R, samples, seed)

    def dice_per_game(self, compiled: Compiled, seed: int, n_games: int) -> float:
        out_games, _ = self.play(compiled, seed, 0, n_games)
        return float(out_games[:, cols.GC_DICE].mean())

    def search_table(self, compiled: Compiled) -> np.ndarray:
        """The static table with both seats searching: the scenario's search seat settings
        where it has one, else the search player's defaults."""
        sd = compiled.extra["sd"].copy()
        rows = [i for i in range(2) if sd[r.SD_SP + i, r.SP_SEARCH] > 0]
        if rows:
            row = sd[r.SD_SP + rows[0]].copy()
        else:
            _, sp = seat_row({"strategy": "search"})
            row = np.zeros(sd.shape[1], np.int32)
            row[: r.N_SP] = sp.astype(np.int32)
        for i in range(2):
            sd[r.SD_SP + i] = row
            sd[r.SD_CODES, i] = row[r.SP_ROLLOUT]
        return sd

    def search_bench(self, compiled: Compiled, seed: int, n_decisions: int) -> dict:
        """The search player's cost on 1 thread (see base.Game.search_bench): its decisions
        at the first ``n_decisions`` searched points of games with search in both seats,
        searched again (timed), against plain playouts of the very same rollouts (the option,
        then the rollout strategy to the end) from copies prepared untimed.  Timed in the
        calling thread's CPU time (the kernels run in it): wall clock on a shared machine
        swung the same figures by 2x."""
        import time

        from .search_player import decide_all_nb, playouts_nb, prepare_playouts_nb, search_collect_nb

        sd = self.search_table(compiled)
        snap_w, snap_rng, snap_i, games = search_collect_nb(sd, np.uint64(seed % 2**64), int(n_decisions), 100_000)
        budget = int(sd[r.SD_SP, r.SP_BUDGET])
        n_rec = len(snap_i) * (budget + 8)  # halving rounds at least one rollout per option: a few above budget
        best_search = float("inf")
        for _ in range(3):
            t = time.thread_time()
            chosen, rec, rec_snap, n_roll = decide_all_nb(sd, snap_w, snap_rng, snap_i, n_rec)
            best_search = min(best_search, time.thread_time() - t)
        n_roll = int(n_roll)
        batch = 64  # prepared copies that stay in cache (the search reuses one hot copy)
        big_w = np.zeros((batch,) + snap_w.shape[1:], np.int32)
        big_rng = np.zeros((batch, snap_rng.shape[1]), np.uint64)
        best_play, total = float("inf"), 0.0
        for _ in range(3):
            dt, total = 0.0, 0.0
            for lo in range(0, len(rec), batch):
                hi = min(lo + batch, len(rec))
                prepare_playouts_nb(sd, snap_w, snap_rng, rec, rec_snap, lo, hi, big_w, big_rng)
                t = time.thread_time()
                total += playouts_nb(sd, snap_i, rec, rec_snap, lo, hi, big_w, big_rng)
                dt += time.thread_time() - t
            best_play = min(best_play, dt)
        s_roll = best_search / max(n_roll, 1)
        s_play = best_play / max(len(rec), 1)
        return {
            "decisions": int(len(snap_i)),
            "games": int(games),
            "budget": budget,
            "rollouts": n_roll,
            "rollouts_per_s": n_roll / best_search,
            "s_per_rollout": s_roll,
            "s_per_playout": s_play,
            "overhead": s_roll / s_play - 1.0,
            # the plain playouts are the search's own rollouts, replayed: the same rewards
            "reward_sum_search": float(rec[:, 2].sum()),
            "reward_sum_playouts": float(total),
        }

    def report_figures(self, ctx) -> list:
        """Squid, traps (whirlpool, fog, Ghost Ship) and Peak treasure pages (see report.py)."""
        from .report import report_figures

        return report_figures(self, ctx)


GAME = PiratesPeak()
