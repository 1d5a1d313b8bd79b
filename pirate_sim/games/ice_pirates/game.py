"""The Ice Pirates plug-in: compile a scenario; play, trace and search on the decision protocol's
engine (protocol.py, engine.py); odds."""

from __future__ import annotations

from collections import namedtuple
from typing import Any

import numpy as np

from ...seating import entries_of_seats, first_player_code, rotates
from ...contract import EngineGame
from ..base import Compiled, OddsRow, Param, Ratio
from . import state as KS
from . import rules as R
from .columns import GAME_COLUMNS, SEAT_COLUMNS
from .engine import PROTOCOL, engine_tables
from .odds import raid_rows, wind_rows
from .strategies import STRATEGIES, seat_tables

IceParams = namedtuple("IceParams", [
    "n_seats", "crew_per_ship", "crew_total", "crew_supply", "upg_copies", "ties_raider",
    "swash_ties_swash", "max_score", "cannon_dice", "turn_cap", "wind_moves", "sail_moves",
    "maps_per_colour", "two_adjacent", "hg_cell", "esc_mask", "bell_cell",
    "corner0", "corner1", "corner2", "corner3", "corner4", "corner5",
    "hg_raid_wins", "defender_cannon", "first_player", "rotate_seats",
])


def _cell_name(c: int) -> str:
    if c == R.BELL_CELL:
        return "Bell Island"
    if c in R.CORNER_CELLS:
        k = R.CORNER_CELLS.index(c)
        return f"{R.PORT_NAMES[k]} ({k + 1} {R.DIR_NAMES[k]})"
    return f"Bay {c:02d}"


class IcePirates(EngineGame):
    name = "ice_pirates"
    protocol = PROTOCOL  # engine.py: the game on the decision protocol (contract.EngineGame plays it)
    engine_tables = staticmethod(engine_tables)
    title = "Ice Pirates of Harbour Grace"
    version = R.VERSION
    min_seats = 2
    max_seats = 6
    params = R.PARAMS
    strategies = STRATEGIES
    default_seats = ("map_hunter", "raider", "upgrader", "map_hunter")
    end_reasons = R.END_REASONS
    game_columns = GAME_COLUMNS
    seat_columns = SEAT_COLUMNS
    score_column = "progress"  # the winner has 4: margin = how close the runner-up came
    ratios = (
        Ratio("raid_win_rate", "raids_won", "raids_made", "share of raids the raider wins"),
        Ratio("storms_per_move", "storms_hit", "moves", "storms entered per move"),
    )
    odds_mechanics = {
        "raid": "P(raider wins) for crews 1..7 each side, with/without Cannon, single exchange "
                "and with swashbuckling while chips last",
        "wind": "the wind's distribution and the chance a heading is with the wind or a tack",
    }
    rules_doc = "docs/rules/ice_pirates.md"
    # (cell index, q, r, name) for a hex heat map of the visits_cell_NN columns
    hex_cells = tuple((i, q, r, _cell_name(i)) for i, (q, r) in enumerate(R.CELLS))

    # ------------------------------------------------------------------ compile
    def compile(self, rules: dict[str, Any], seats: list[dict[str, Any]]) -> Compiled:
        n = len(seats)
        if not self.min_seats <= n <= self.max_seats:
            raise ValueError(f"seats: {self.name} takes {self.min_seats}..{self.max_seats} seats, got {n}")
        r = self.full_rules(rules)
        per_ship, total, supply = int(r["crew.per_ship"]), int(r["crew.total"]), int(r["crew.supply"])
        if n * per_ship + supply > total:
            raise ValueError(f"crew.total: {n} ships x {per_ship} crew + {supply} supply exceeds "
                             f"{total} chips")
        copies = int(r["upgrades.copies"])
        costs = [int(x) for x in r["upgrades.costs"]]
        if len(costs) != copies:  # a cost the game can never charge is a scenario mistake
            raise ValueError(f"upgrades.costs: needs exactly one cost per copy (upgrades.copies = {copies}), "
                             f"got {len(costs)}")
        weights = [float(x) for x in r["wind.weights"]]
        if len(weights) != 6 or min(weights) < 0 or sum(weights) <= 0:
            raise ValueError("wind.weights: six non-negative weights with a positive sum")
        counts = {k: int(r[f"deck.{k}"]) for k in ("clear", "one_iceberg", "two_icebergs", "storms",
                                                   "shipwrecks")}
        fixed = R.N_COLOURS + 1  # Lost Islands and Kelly's Island
        if sum(counts.values()) + fixed != R.N_BAY:
            raise ValueError(f"deck.clear: the Bay deck must have {R.N_BAY} cards: clear + one_iceberg + "
                             f"two_icebergs + storms + shipwrecks = {R.N_BAY - fixed} (got "
                             f"{sum(counts.values())}), plus 3 Lost Islands and Kelly's Island")
        ports = list(r["map.ports"])
        if sorted(ports) != sorted(R.UPGRADE_NAMES):
            raise ValueError(f"map.ports: must name each of {', '.join(R.UPGRADE_NAMES)} once")
        esc = [int(x) for x in r["map.escape_corners"]]
        if (esc[1] - esc[0]) % 6 not in (1, 5):
            raise ValueError("map.escape_corners: the two corners must be adjacent")
        if int(r["moves.main_sail"]) < int(r["moves.with_wind"]):
            raise ValueError("moves.main_sail: must be at least moves.with_wind")
        esc_mask = 0
        for d in r["map.escape_directions"]:
            esc_mask |= 1 << (int(d) - 1)
        nb = R.neighbour_table()
        geo = np.zeros((R.N_CELLS, 8), np.int32)
        geo[:, :6] = nb
        edge = R.edge_cells(esc[0] - 1, esc[1] - 1)
        for c in edge:
            geo[c, 6] = 1
        for c in range(R.N_CELLS):
            geo[c, 7] = 0 if (c == R.BELL_CELL or c in R.CORNER_CELLS) else 1
        deck = []
        deck += [(R.OPEN, 0, -1)] * counts["clear"]
        deck += [(R.OPEN, 1, -1)] * counts["one_iceberg"]
        deck += [(R.OPEN, 2, -1)] * counts["two_icebergs"]
        deck += [(R.STORM, 0, -1)] * counts["storms"]
        deck += [(R.WRECK, 0, -1)] * counts["shipwrecks"]
        deck += [(R.LOST_ISLAND, 0, c) for c in range(R.N_COLOURS)]
        deck += [(R.KELLY, 0, -1)]
        deck = np.array(deck, np.int32)
        port_upg = np.array([R.UPGRADE_NAMES.index(p) for p in ports], np.int32)
        strat, sp = seat_tables(seats)
        corners = R.CORNER_CELLS
        P = IceParams(
            n_seats=n, crew_per_ship=per_ship, crew_total=total, crew_supply=supply, upg_copies=copies,
            ties_raider=int(r["raid.ties_to"] == "raider"),
            swash_ties_swash=int(r["raid.swashbuckle_ties_to"] == "swashbuckler"),
            max_score=int(r["raid.max_score"]), cannon_dice=int(r["raid.cannon_dice"]),
            turn_cap=int(r["turn_cap"]), wind_moves=int(r["moves.with_wind"]),
            sail_moves=int(r["moves.main_sail"]), maps_per_colour=int(r["maps.per_colour"]),
            two_adjacent=int(r["deck.two_iceberg_sides"] == "adjacent"),
            hg_cell=corners[int(r["map.harbour_grace"]) - 1], esc_mask=esc_mask, bell_cell=R.BELL_CELL,
            corner0=corners[0], corner1=corners[1], corner2=corners[2], corner3=corners[3],
            corner4=corners[4], corner5=corners[5],
            hg_raid_wins=int(r["win.raid_at_harbour_grace"] == "wins"),
            defender_cannon=int(r["raid.defender_cannon"] == "counts"),
            first_player=first_player_code(r), rotate_seats=int(rotates(r)))
        arrays = (geo, R.relation_table(), np.cumsum(np.asarray(weights, np.float64)),
                  np.asarray(costs, np.int32), deck, port_upg, strat, sp)
        return Compiled(P, arrays, n, tuple(s["strategy"] for s in seats),
                        extra={"rules": dict(r), "ports": ports})

    # ------------------------------------------------------------------ strategies of one's own
    user_seat_params = {"base": Param("base", "expert", "choice", "the built-in strategy (default parameters) "
                                      "that takes the seat's choices other than headings, fighting the waves "
                                      "and raids", choices=tuple(s.name for s in STRATEGIES if s.name != "search"))}

    def user_placeholder(self, seat: dict) -> dict:
        return {"strategy": seat.get("base", "expert")}

    user_rollout_placeholder = "expert"  # the search's tables' rollout then: the choices a file does not take

    def file_board(self, compiled: Compiled):
        from .user_view import board_of

        return board_of(compiled.params, compiled.arrays)

    # ------------------------------------------------------------------ search
    def search_bench(self, compiled: Compiled, seed: int, n_decisions: int) -> dict:
        """The search player's cost on one thread (engine_template's bench): ``n_decisions``
        searched choices of the table's games (more than one option), searched again
        (rollouts/s), then as many plain playouts from the same choices (``s_per_playout``: the
        turn played again from its start, every seat the rollout strategy, nothing re-dealt);
        ``overhead`` is the search's machinery per rollout."""
        if not _searching(compiled):
            raise ValueError("seats: search_bench needs a seat playing 'search'")
        b = self.engine_bench(compiled, seed, max(int(n_decisions), 1))
        return {**b, "searched_decisions": b["decisions"]}

    # ------------------------------------------------------------------ trace
    def trace(self, compiled: Compiled, seed: int, game_index: int) -> list[str]:
        ev, out_g, out_s = self.trace_events(compiled, seed, game_index)
        ports = compiled.extra["ports"]
        entries = entries_of_seats(np.array([game_index]), compiled.n_seats, bool(compiled.params.rotate_seats))[0]
        names = [compiled.strategy_names[e] for e in entries]  # who sits where in this game
        lines = [f"Ice Pirates game {game_index} (seed {seed}), {compiled.n_seats} ships: "
                 + ", ".join(f"seat {i} {n}" for i, n in enumerate(names))]
        for t, s, kind, a, b, c in ev.tolist():
            who = f"seat {s}" if s >= 0 else "setup"
            lines.append(f"T{t:4d} {who}: " + _describe(kind, a, b, c, ports))
        lines.append(self.result_line(out_g))
        return lines

    # ------------------------------------------------------------------ report
    def report_figures(self, ctx) -> list:
        """Bay visits map, upgrade value, raid odds matrix, 2-6 players (see report.py)."""
        from .report import report_figures

        return report_figures(self, ctx)

    # ------------------------------------------------------------------ odds
    def odds(self, mechanic: str, rules: dict[str, Any], samples: int, seed: int) -> list[OddsRow]:
        r = self.full_rules(rules)
        if mechanic == "raid":
            return raid_rows(r, samples, seed)
        if mechanic == "wind":
            return wind_rows(r, samples, seed)
        raise KeyError(mechanic)


def _searching(compiled: Compiled) -> bool:
    """Does a seat of this scenario play ``search`` (the kernel's SP_SEARCH flag)?"""
    sp = compiled.arrays[7]
    return bool((sp[:compiled.n_seats, KS.SP_SEARCH] > 0).any())


def _describe(kind: int, a: int, b: int, c: int, ports: list[str]) -> str:
    cn = _cell_name
    if kind == R.EV_TURN:
        where = cn(b) if b >= 0 else "off the board"
        return f"turn starts at {where}, wind from {a + 1} {R.DIR_NAMES[a]}, crew {c}"
    if kind == R.EV_MOVE:
        d, rl = divmod(c, 4)
        return f"moves {R.DIR_NAMES[d]} ({R.REL_NAMES[rl]}) {cn(a)} -> {cn(b)}"
    if kind == R.EV_FLIP:
        sides = "".join(R.DIR_NAMES[d] + " " for d in range(6) if (c >> d) & 1).strip()
        return f"flips {cn(a)}: {R.CARD_NAMES[b]}" + (f", iceberg blocking {sides}" if c else "")
    if kind == R.EV_RAM:
        return f"rams the iceberg of {cn(c)} sailing {R.DIR_NAMES[b]} (no move spent)"
    if kind == R.EV_WALLED:
        return f"{cn(a)} would enclose part of the bay: played without its iceberg"
    if kind == R.EV_STORM:
        return f"ends the turn in the storm at {cn(a)}"
    if kind == R.EV_FIGHT:
        return f"fights the waves at {cn(a)}" + (" for a crew chip" if b else " (Ice Breaker, free)")
    if kind == R.EV_WIND:
        return f"wind now blows from {a + 1} {R.DIR_NAMES[a]} ({R.PORT_NAMES[a]})"
    if kind == R.EV_NO_MOVE:
        return f"has no legal move at {cn(a)}: turn lost, wind rolled"
    if kind == R.EV_ABANDON:
        return "abandons ship"
    if kind == R.EV_REENTER:
        return f"new ship on Bell Island with {a} crew"
    if kind == R.EV_UPGRADE:
        return f"takes the {R.UPGRADE_NAMES[a].replace('_', ' ')} at {cn(c)} for {b} crew"
    if kind == R.EV_BELL:
        return f"restores {a} crew at Bell Island (now {b})"
    if kind == R.EV_MAP:
        return f"copies the {R.MAP_COLOUR_NAMES[a]} map (holds {bin(b).count('1')})"
    if kind == R.EV_TREASURE:
        return f"digs up the treasure on Kelly's Island ({cn(a)})"
    if kind == R.EV_VOID:
        return "all map cards are now worthless and go back to their stacks"
    if kind == R.EV_WRECK:
        return f"takes the Extra Crew at the shipwreck {cn(a)}" + (" and a crew chip" if b else "")
    if kind == R.EV_RAID:
        rs, ds = divmod(c, 16)
        return (f"raids seat {a}: {'wins' if b else 'loses'} (chips swashbuckled: raider {rs}, "
                f"defender {ds})")
    if kind == R.EV_WIN:
        return f"WINS: {R.END_REASONS[a]} from {cn(b)}"
    if kind == R.EV_TELESCOPE:
        return "looks through the Telescope"
    if kind == R.EV_STOP:
        return f"stops at {cn(a)}"
    if kind == R.EV_TRUNC:
        return "turn cap reached: game truncated"
    return f"event {kind} {a} {b} {c}"


GAME = IcePirates()
