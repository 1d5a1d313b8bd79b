"""The Pirateer plug-in: compile a scenario, run the kernel, trace one game, odds."""

from __future__ import annotations

from collections import namedtuple
from functools import lru_cache
from typing import Any

import numpy as np

from ...seating import entries_of_seats, first_player_code, rotates
from ...rng import RNG_WORDS
from ...contract import EngineGame
from ..base import Compiled, OddsRow, Ratio
from . import geometry
from . import kernel as K
from . import rules as R
from . import state as S
from .board import load_board
from .columns import GAME_COLUMNS, SEAT_COLUMNS
from .engine import PROTOCOL, engine_tables
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


BENCH_SPACING = 3  # search_bench's points: every third turn with a choice (consecutive turns are alike)
EVENTS_PER_TURN = 10  # most events one turn logs: roll, two moves, two captures, a take, extra roll, win, cap


def add_heat(heat: np.ndarray, ev: np.ndarray) -> None:
    """Add one game's captures (row 0) and captures of the ship carrying the treasure (row 1)
    per square to ``heat``, from its event log: the treasure's carrier is the ship that took it
    (EV_TAKE) and, after a capture of the carrier, the capturing ship (moves.do_step_nb)."""
    rows = ev[(ev[:, 2] == R.EV_CAPTURE) | (ev[:, 2] == R.EV_TAKE)]
    carrier = -1
    for _t, _s, kind, a, b, c in rows.tolist():
        if kind == R.EV_TAKE:
            carrier = a
            continue
        heat[0, c] += 1  # EV_CAPTURE: ship a captures ship b at square c
        if b == carrier:
            heat[1, c] += 1
            carrier = a


class Pirateer(EngineGame):
    name = "pirateer"
    protocol = PROTOCOL  # engine.py: the game on the decision protocol (contract.EngineGame plays it)
    engine_tables = staticmethod(engine_tables)
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
    user_rollout_placeholder = "runner"  # the built-in rollout in the search's tables; its rollouts never play it

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
    def file_board(self, compiled: Compiled):
        from .user_view import board_of

        return board_of(compiled.arrays)

    # ------------------------------------------------------------------ strategies of one's own
    def user_placeholder(self, seat: dict) -> dict:
        return {"strategy": "random"}  # never asked: the user function takes every decision of the seat

    def heat(self, compiled: Compiled, seed: int, n_games: int) -> np.ndarray:
        """int64[2, n_nodes]: captures and treasure-ship losses per square over games 0..n-1,
        read from each game's event log (the traced game: the bulk run's code path)."""
        from ...contract import trace_engine

        heat = np.zeros((2, compiled.params.n_nodes), np.int64)
        cap = EVENTS_PER_TURN * compiled.params.turn_cap + 16  # a whole game's log, set-up included
        eng, args, files = self.engine(), engine_tables(compiled), self.engine_files(compiled)  # once, not per game
        for k in range(int(n_games)):
            ev, _, _ = trace_engine(eng, self, compiled, args, files, seed, k, cap)
            assert len(ev) < cap, "a game's event log outgrew EVENTS_PER_TURN"
            add_heat(heat, ev)
        return heat

    # ------------------------------------------------------------------ trace
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
        (every third turn with a choice), 1 thread: the engine's search there (rollouts/s),
        then as many plain playouts of the rollout strategy (or the file it rolls out) from the
        same points (``s_per_playout``; ``overhead`` the search's machinery per rollout).  The
        first ``search`` entry's parameters, else the defaults."""
        from ...contract import time_recorded
        from ...user_strategy import raise_errors, readonly
        from .strategies import STRATEGY_BY_NAME
        from .strategies import seat_tables as tables

        strat, sp = compiled.arrays[10], compiled.arrays[11]
        n_entries = len(strat) - S.N_ROLLOUT_ROWS
        found = [e for e in range(n_entries) if strat[e] == S.ST_SEARCH]
        T, codes, prm, rprm, rotate = engine_tables(compiled)
        fi, urows, calls, users = self.engine_files(compiled)
        if found:
            entry = found[0]
            w = sp[entry]
        else:  # a search entry with the defaults after the table's own
            row_c, row_p = tables([{"strategy": "search"}])
            w = row_p[0]
            one = Compiled(compiled.params, (*compiled.arrays[:10], row_c, row_p), 1, ("search",), extra={})
            _, c1, p1, r1, _ = engine_tables(one)
            entry = n_entries
            codes, prm, rprm = np.concatenate([codes, c1]), np.concatenate([prm, p1]), np.concatenate([rprm, r1])
            fi = np.concatenate([fi[:n_entries], [-1], fi[n_entries:], [-1]]).astype(fi.dtype)
            # read-only as the table's own parameter rows are: numba types a read-only array apart,
            # so a writable copy compiled the bench's kernels a second time (24 s, measured)
            urows = readonly(np.concatenate([urows[:n_entries], urows[:1], urows[n_entries:], urows[:1]]))
        P = compiled.params
        eng = self.engine()
        pts = np.zeros((n_decisions, P.state_words), np.int32)
        rngs = np.zeros((n_decisions, RNG_WORDS), np.uint64)
        row = int(w[S.SP_ROLLOUT])  # the rollout strategy's default row (T[10], T[11])
        K.bench_points_nb(np.uint64(seed % 2**64), P, T, int(T[10][row]), T[11][row], BENCH_SPACING, pts, rngs)
        rec = np.zeros((n_decisions + 1, eng.REC_RNG + RNG_WORDS + P.state_words), np.int64)
        for i in range(n_decisions):  # the engine's own record of a searched decision (its bench reads these)
            eng.record_nb(rec, pts[i], rngs[i], int(pts[i, R.G_SEAT]), entry, int(pts[i, R.G_TURN]))
        err = np.zeros(4, np.int64)
        b = time_recorded(eng, rec, P, T, codes, prm, rprm, fi, urows, calls, err)
        raise_errors(err[None, :], 0, users)
        x = compiled.extra.get("user")
        rf = int(fi[len(fi) // 2 + entry]) if x is not None else -1
        label = x["users"][rf].label if rf >= 0 else STRATEGY_BY_NAME["search"].params[1].choices[int(w[S.SP_ROLLOUT])]
        return {**b, "decisions": n_decisions, "budget": int(w[S.SP_BUDGET]), "rollout": label}

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
