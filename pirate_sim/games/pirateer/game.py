"""The Pirateer plug-in: compile a scenario, run the kernel, trace one game, odds."""

from __future__ import annotations

from collections import namedtuple
from functools import lru_cache
from typing import Any

import numpy as np

from ...seating import entries_of_seats, first_player_code, rotates
from ...rng import RNG_WORDS
from ..base import N_STD_GAME_COLUMNS, Compiled, Game, OddsRow, Ratio
from . import geometry
from . import kernel as K
from . import rules as R
from . import state as S
from .board import load_board
from .columns import GAME_COLUMNS, SEAT_COLUMNS
from .strategies import STRATEGIES, seat_tables

PirateerParams = namedtuple("PirateerParams", [
    "n_seats", "ships_per_seat", "n_nodes", "bit_words", "state_words", "turn_cap", "single_larger",
    "doubles_extra", "max_extra", "first_player", "rotate",
])


@lru_cache(maxsize=8)
def _geometry(path: str):
    board = load_board(path)
    return board, geometry.build(board)


def default_harbors(board, n: int) -> list[int]:
    """The rulebook's seating: everyone clockwise; two players face each other."""
    numbers = [h.number for h in board.harbors]
    if n == 2 and len(numbers) >= 3:
        return [numbers[0], numbers[len(numbers) // 2]]
    return numbers[:n]


def _play_chunk(seed, first, n, P, *rest) -> None:
    """``kernel.play_chunk_nb`` with base.Game.play_chunk's arguments (``search`` from the
    strategy codes, the last array but one)."""
    *arrays, out_g, out_s = rest
    K.play_chunk_nb(seed, first, n, P, *arrays, K.searches(arrays[-2]), out_g, out_s)


def _search(compiled: Compiled):
    """The drivers' ``search`` argument of a compiled table (``kernel.searches`` of its strategy codes)."""
    return K.searches(compiled.arrays[-2])


class Pirateer(Game):
    name = "pirateer"
    title = "Pirateer"
    version = R.VERSION
    min_seats = 2
    max_seats = R.MAX_SEATS
    params = R.PARAMS
    strategies = STRATEGIES
    default_seats = ("runner", "hunter", "cautious", "runner")
    end_reasons = R.END_REASONS
    game_columns = GAME_COLUMNS
    seat_columns = SEAT_COLUMNS
    score_column = "ships_left"
    ratios = (
        Ratio("treasure_loss_rate", "treasure_losses", "treasure_pickups",
              "share of treasure holdings that ended with the ship captured"),
        Ratio("pass_rate", "turns_passed", "treasure_turns", "turns passed per turn holding the treasure"),
    )
    odds_mechanics = {
        "capture": "P(a ship can be captured with the next roll) by the attacker's offset: straight, "
                   "right angle, through a strait, along a tradewind; exact (all 36 rolls through the "
                   "reference) beside the kernel's Monte Carlo",
    }
    rules_doc = "docs/rules/pirateer.md"
    takes_strategy_files = True
    user_rollout = True  # a search seat's ``rollout`` may name a strategy file (search_player.search_nb's ``usr``)
    user_rollout_placeholder = "runner"  # the built-in rollout in the search's tables; its rollouts never play it
    bench_user_rollout = True  # search_bench times a strategy-file rollout (_user_search_bench)

    # ------------------------------------------------------------------ compile
    def compile(self, rules: dict[str, Any], seats: list[dict[str, Any]]) -> Compiled:
        n = len(seats)
        if not self.min_seats <= n <= self.max_seats:
            raise ValueError(f"seats: {self.name} takes {self.min_seats}..{self.max_seats} seats, got {n}")
        r = self.full_rules(rules)
        board, geo = _geometry(str(r["board"] or ""))
        harbors = [int(h) for h in r["harbors"]] or default_harbors(board, n)
        numbers = [h.number for h in board.harbors]
        if len(harbors) != n:
            raise ValueError(f"harbors: one harbor per seat ({n}), got {len(harbors)}")
        if len(set(harbors)) != n or any(h not in numbers for h in harbors):
            raise ValueError(f"harbors: distinct harbors of the board ({numbers}), got {harbors}")
        sps = int(r["ships_per_player"])
        for h in harbors:
            if len(board.harbor(h).starts) < sps:
                raise ValueError(f"ships_per_player: harbor {h} has only {len(board.harbor(h).starts)} "
                                 "starting squares")
        seat_home = np.ascontiguousarray(geo.dist_home[harbors])
        seat_allowed = np.ascontiguousarray(geo.allowed[harbors])
        seat_anchor = np.asarray(geo.anchor_node[harbors], np.int32)
        seat_start = np.ascontiguousarray(geo.start_nodes[harbors])
        strat, sp = seat_tables(seats)
        P = PirateerParams(
            n_seats=n, ships_per_seat=sps, n_nodes=geo.n_nodes, bit_words=(geo.n_nodes + 63) // 64,
            state_words=R.OCC_BASE + geo.n_nodes, turn_cap=int(r["turn_cap"]),
            single_larger=int(r["single_die"] == "larger"), doubles_extra=int(bool(r["doubles_extra_roll"])),
            max_extra=int(r["max_extra_rolls"]), first_player=first_player_code(r), rotate=rotates(r))
        arrays = (geo.nb, geo.kind, geo.is_anchor, geo.dist, geo.dist_island, seat_home, seat_allowed,
                  np.asarray(harbors, np.int32), seat_anchor, seat_start, strat, sp)
        return Compiled(P, arrays, n, tuple(s["strategy"] for s in seats),
                        extra={"rules": dict(r), "board": board, "geometry": geo, "harbors": harbors})

    # ------------------------------------------------------------------ play
    def play(self, compiled: Compiled, seed: int, first_game: int, n_games: int):
        if "user" in compiled.extra:
            return self._user_play(compiled, seed, first_game, n_games)
        return self.play_chunk(_play_chunk, compiled, seed, first_game, n_games)

    # ------------------------------------------------------------------ strategies of one's own
    def user_placeholder(self, seat: dict) -> dict:
        return {"strategy": "random"}  # never asked: the user function takes every decision of the seat

    def user_compile(self, compiled: Compiled, users: list, fi: np.ndarray, rows: np.ndarray) -> None:
        from numba import typeof

        from ... import user_strategy as U
        from .user_view import VIEW_LEN, board_of

        board = board_of(compiled.arrays)
        urng = np.zeros(RNG_WORDS, np.uint64)
        types_ = (typeof(np.zeros(VIEW_LEN, np.int32)), typeof(np.zeros((2, R.PLAY_WIDTH), np.int32)),
                  typeof(rows[0]), typeof(urng), typeof(board))
        from . import user_kernel as mod

        calls = U.compile_calls(self.name, users, types_[:4], board)
        compiled.extra["user"] = {"module": mod, "users": users, "fi": fi, "rows": rows, "board": calls}

    def _user_play(self, compiled: Compiled, seed: int, first_game: int, n_games: int):
        from ... import user_strategy as U

        x = compiled.extra["user"]
        out_g, out_s = self.new_outputs(int(n_games), compiled.n_seats)
        err = np.zeros((int(n_games), 4), np.int64)
        if n_games > 0:
            x["module"].user_play_chunk_nb(np.uint64(seed % 2**64), np.int64(first_game), np.int64(n_games),
                          compiled.params, *compiled.arrays, _search(compiled), x["fi"], x["rows"],
                          x["board"], err, out_g, out_s)
        U.raise_errors(err, first_game, x["users"])
        return out_g, out_s

    def heat(self, compiled: Compiled, seed: int, n_games: int) -> np.ndarray:
        """int64[2, n_nodes]: captures and treasure-ship losses per square over games 0..n-1."""
        heat = np.zeros((2, compiled.params.n_nodes), np.int64)
        out_g = np.zeros((n_games, N_STD_GAME_COLUMNS + len(self.game_columns)), np.int32)
        out_s = np.zeros((n_games, compiled.n_seats, len(self.seat_columns)), np.int32)
        if "user" in compiled.extra:
            from ... import user_strategy as U

            x = compiled.extra["user"]
            err = np.zeros((n_games, 4), np.int64)
            x["module"].user_heat_chunk_nb(np.uint64(seed % 2**64), np.int64(0), np.int64(n_games), compiled.params,
                          *compiled.arrays, heat, _search(compiled), out_g, out_s, x["fi"], x["rows"],
                          x["board"], err)
            U.raise_errors(err, 0, x["users"])
            return heat
        K.heat_chunk_nb(np.uint64(seed % 2**64), np.int64(0), np.int64(n_games), compiled.params,
                        *compiled.arrays, heat, _search(compiled), out_g, out_s)
        return heat

    # ------------------------------------------------------------------ trace
    def trace_events(self, compiled: Compiled, seed: int, game_index: int, capacity: int = 200_000):
        """(events int32[n, 6], out_games row, out_seats rows) of one game."""
        no_heat = np.zeros((2, 0), np.int64)  # the heat map is counted by heat(), not here
        if "user" in compiled.extra:
            from ... import user_strategy as U

            x = compiled.extra["user"]
            ev = np.zeros((capacity, R.EVENT_WIDTH), np.int32)
            out_g, out_s = self.one_game_outputs(compiled.n_seats)
            err = np.zeros(4, np.int64)
            n = x["module"].user_play_traced_nb(np.uint64(seed % 2**64), np.int64(game_index), compiled.params,
                              *compiled.arrays, ev, no_heat, _search(compiled), out_g, out_s,
                              x["fi"], x["rows"], x["board"], err)
            U.raise_errors(err[None, :], game_index, x["users"])
            return ev[:n], out_g, out_s
        return self.traced_game(K.play_traced_nb, compiled, seed, game_index, capacity, R.EVENT_WIDTH, no_heat,
                                _search(compiled))

    def trace(self, compiled: Compiled, seed: int, game_index: int) -> list[str]:
        ev, out_g, _ = self.trace_events(compiled, seed, game_index)
        geo = compiled.extra["geometry"]
        harbors = compiled.extra["harbors"]
        sps = compiled.params.ships_per_seat
        entries = entries_of_seats(np.array([game_index]), compiled.n_seats, bool(compiled.params.rotate))[0]
        names = [compiled.strategy_names[e] for e in entries]
        lines = [f"Pirateer game {game_index} (seed {seed}), {compiled.n_seats} players: "
                 + ", ".join(f"seat {i} harbor {h} {nm}" for i, (h, nm) in enumerate(zip(harbors, names)))]

        def sq(node: int) -> str:
            x, y = geo.node_xy[node]
            return f"({x},{y})"

        def ship(i: int) -> str:
            return f"ship {i} (seat {i // sps})"

        for t, s, kind, a, b, c in ev.tolist():
            who = f"T{t:4d} seat {s}:" if s >= 0 else f"T{t:4d}"
            if kind == R.EV_FIRST:
                lines.append(f"seat {s} moves first" + (f" (rolled {a})" if a else ""))
            elif kind == R.EV_ROLL:
                lines.append(f"{who} rolls {a}+{b}, {c} legal plays")
            elif kind == R.EV_MOVE:
                die, d = divmod(c, 8)
                lines.append(f"{who} {ship(a)} sails {die} {R.DIR_NAMES[d]} to {sq(b)}")
            elif kind == R.EV_CAPTURE:
                lines.append(f"{who} {ship(a)} captures {ship(b)} at {sq(c)}")
            elif kind == R.EV_TAKE:
                lines.append(f"{who} {ship(a)} takes the treasure at {sq(b)}")
            elif kind == R.EV_PASS:
                lines.append(f"{who} no legal move, turn passes")
            elif kind == R.EV_EXTRA:
                lines.append(f"{who} doubles: rolls again (extra roll {a})")
            elif kind == R.EV_WIN:
                how = "treasure home" if a == R.END_HOME else "last ship captured"
                lines.append(f"{who} wins: {how}")
            elif kind == R.EV_TRUNC:
                lines.append(f"{who} turn cap reached: truncated")
        lines.append(self.result_line(out_g))
        return lines

    # ------------------------------------------------------------------ search
    def search_bench(self, compiled: Compiled, seed: int, n_decisions: int) -> dict:
        """The search player's cost at ``n_decisions`` points of games of its rollout strategy
        (every third turn with a choice), 1 thread: search decisions, then plain games of
        the rollout strategy from the same points, as many as the search rolled out there.
        The first ``search`` entry's parameters, else the defaults.  ``overhead`` compares
        the seconds per rollout turn (a forced play changes how long the game lasts)."""
        import time

        from .strategies import STRATEGY_BY_NAME
        from .strategies import seat_tables as tables

        strat, sp = compiled.arrays[10], compiled.arrays[11]
        n_entries = len(strat) - S.N_ROLLOUT_ROWS
        found = [e for e in range(n_entries) if strat[e] == S.ST_SEARCH]
        if found:
            entry = found[0]
        else:  # a search row with the defaults, before the rollout rows
            row_c, row_p = tables([{"strategy": "search"}])
            strat = np.concatenate([strat[:n_entries], row_c[:1], strat[n_entries:]])
            sp = np.concatenate([sp[:n_entries], row_p[:1], sp[n_entries:]])
            entry = n_entries
        code = int(sp[entry, S.SP_ROLLOUT])
        reward = int(sp[entry, S.SP_REWARD])
        a = compiled.arrays
        P = compiled.params
        pts = np.zeros((n_decisions + 1, P.state_words), np.int32)
        rngs = np.zeros((n_decisions + 1, RNG_WORDS), np.uint64)
        K.bench_points_nb(np.uint64(seed % 2**64), P, *a[:10], strat, sp, code, 3, pts, rngs)
        tables_ = (P, *a[:7], strat, sp)
        warm = np.zeros(1, np.int64)  # compile and warm on the extra point, then time the rest
        K.bench_search_nb(pts[-1:], rngs[-1:], *tables_, entry, warm, None)
        K.bench_playout_nb(pts[-1:], rngs[-1:], *tables_, code, reward, warm)
        pts, rngs = pts[:-1], rngs[:-1]
        rolls = np.zeros(n_decisions, np.int64)
        x = compiled.extra.get("user")
        if x is not None and found and x["fi"][len(x["fi"]) // 2 + entry] >= 0:
            return self._user_search_bench(compiled, x, entry, pts, rngs, rolls)
        t0 = time.perf_counter()
        turns_search = K.bench_search_nb(pts, rngs, *tables_, entry, rolls, None)
        t_search = time.perf_counter() - t0
        t0 = time.perf_counter()
        _reward, turns_play = K.bench_playout_nb(pts, rngs, *tables_, code, reward, rolls)
        t_play = time.perf_counter() - t0
        n = max(int(rolls.sum()), 1)
        s_roll, s_play = t_search / n, t_play / n
        # a forced play leads to other (shorter or longer) games than the rollout strategy's
        # own first play: the machinery's overhead is compared per turn played
        per_turn_search = t_search / max(int(turns_search), 1)
        per_turn_play = t_play / max(int(turns_play), 1)
        return {"decisions": n_decisions, "rollouts": int(rolls.sum()), "budget": int(sp[entry, S.SP_BUDGET]),
                "rollout": STRATEGY_BY_NAME["search"].params[1].choices[code],
                "rollouts_per_s": 1.0 / s_roll, "s_per_rollout": s_roll, "s_per_playout": s_play,
                "turns_per_rollout": int(turns_search) / n, "turns_per_playout": int(turns_play) / n,
                "s_per_turn_search": per_turn_search, "s_per_turn_playout": per_turn_play,
                "overhead": per_turn_search / per_turn_play - 1.0, "s_per_decision": t_search / n_decisions}

    def _user_search_bench(self, compiled: Compiled, x: dict, entry: int, pts, rngs, rolls) -> dict:
        """search_bench of a search entry whose rollouts play a strategy file (user_bench_search_nb),
        at the same decision points; no plain-playout comparison (the file has no stand-alone
        playout kernel): those fields are NaN."""
        import time

        from ... import user_strategy as U

        a, P = compiled.arrays, compiled.params
        strat, sp = a[10], a[11]
        args = (P, *a[:7], strat, sp, entry, x["fi"], x["rows"], x["board"])
        err = np.zeros(4, np.int64)
        x["module"].user_bench_search_nb(pts[:1], rngs[:1], *args, err,
                      np.zeros(1, np.int64))  # compile and warm
        t0 = time.perf_counter()
        turns = x["module"].user_bench_search_nb(pts, rngs, *args, err, rolls)
        t_search = time.perf_counter() - t0
        U.raise_errors(err[None, :], 0, x["users"])
        n = max(int(rolls.sum()), 1)
        u = x["users"][int(x["fi"][len(x["fi"]) // 2 + entry])]
        nan = float("nan")
        return {"decisions": len(pts), "rollouts": int(rolls.sum()), "budget": int(sp[entry, S.SP_BUDGET]),
                "rollout": u.label, "rollouts_per_s": n / t_search, "s_per_rollout": t_search / n,
                "s_per_playout": nan, "turns_per_rollout": int(turns) / n, "turns_per_playout": nan,
                "s_per_turn_search": t_search / max(int(turns), 1), "s_per_turn_playout": nan, "overhead": nan,
                "s_per_decision": t_search / len(pts)}

    # ------------------------------------------------------------------ report
    def report_figures(self, ctx) -> list:
        """Win rates by harbor and turn order, endings, heat map, treasure survival, 2-4 players."""
        from .report import report_figures

        return report_figures(self, ctx)

    # ------------------------------------------------------------------ odds
    def odds(self, mechanic: str, rules: dict[str, Any], samples: int, seed: int) -> list[OddsRow]:
        r = self.full_rules(rules)
        if mechanic == "capture":
            from .odds import capture_rows

            return capture_rows(self, r, samples, seed)
        raise KeyError(mechanic)


GAME = Pirateer()
