"""The contract between the engine and a game plug-in.

A game is a package under ``pirate_sim/games/<name>/`` whose ``__init__`` exposes
``GAME``, an instance of a :class:`Game` subclass.  The engine (scenario, runner,
results, metrics, report, CLI) only ever talks to games through this class, so adding
a game never touches engine code.

Kernel output convention (filled by :meth:`Game.play`):

* ``out_games``: ``int32[n_games, N_STD_GAME_COLUMNS + len(game_columns)]``; the first
  columns are the standard ones below, then the game's own ``game_columns`` in order.
* ``out_seats``: ``int32[n_games, n_seats, len(seat_columns)]`` in ``seat_columns`` order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

# Standard per-game columns every kernel fills, in this order.
G_WINNER = 0  # -1: nobody (draw or truncated), else the winning seat 0..n_seats-1
G_TURNS = 1  # turns played (one turn = one seat's move; a round is n_seats turns)
G_END = 2  # index into Game.end_reasons
G_TRUNCATED = 3  # 1 if the turn cap ended the game
G_FIRST_SEAT = 4  # the seat that moved first
N_STD_GAME_COLUMNS = 5
STD_GAME_COLUMNS = ("winner", "turns", "end_reason", "truncated", "first_seat")


@dataclass(frozen=True)
class Param:
    """One scenario parameter: its dotted key, default, type and documentation.

    ``kind`` is one of ``int``, ``float``, ``bool``, ``str``, ``choice``, ``int_list``,
    ``float_list``, ``str_list``.  ``min``/``max`` bound numbers (and list items);
    ``length`` fixes a list's length (``min_length`` bounds it from below).
    """

    key: str
    default: Any
    kind: str
    doc: str
    min: float | None = None
    max: float | None = None
    choices: tuple[str, ...] = ()
    length: int | None = None
    min_length: int | None = None


@dataclass(frozen=True)
class Strategy:
    """A scripted player: a stable integer ``code`` for the kernel and its own parameters."""

    name: str
    code: int
    doc: str
    params: tuple[Param, ...] = ()


@dataclass(frozen=True)
class Column:
    """An output column. ``labels`` makes an integer column categorical (code -> label)."""

    name: str
    dtype: str  # numpy dtype name used in Parquet: int8, int16, int32, bool
    doc: str
    labels: tuple[str, ...] = ()
    counter: bool = True  # a non-negative event counter: its per-game rate is a standard metric


def column_code(columns, name: str, first: int = 0) -> int:
    """Where the column ``name`` of ``columns`` (a tuple of :class:`Column`) sits in a kernel's
    output row: ``first`` + its position.  A kernel writes its outputs through constants made by
    this (``SC_MAPS = column_code(SEAT_COLUMNS, "maps")``), so a column is declared once and
    written by name: reordering the declaration moves the writes with it."""
    names = [c.name for c in columns]
    if name not in names:
        raise KeyError(f"no output column {name!r} (declared: {', '.join(names)})")
    return first + names.index(name)


def check_column_codes(namespace: dict, prefix: str, columns, first: int = 0,
                       spans: dict[str, int] | None = None) -> None:
    """Every column of ``columns`` is named by exactly one constant ``prefix*`` of ``namespace``
    (a kernel module's globals) and every such constant is a column: no column is left unwritten
    by name, none is written twice.  ``spans`` names the constants that start a run of columns
    written in a loop (``{"SG_VISITS": N_CELLS}``: the code of the first cell's column).  Called at
    import by each game, so a column without a constant fails at once."""
    spans = spans or {}
    codes = []
    for k, v in namespace.items():
        if k.startswith(prefix) and isinstance(v, int) and not isinstance(v, bool):
            codes += range(v, v + spans.get(k, 1))
    codes.sort()
    want = list(range(first, first + len(columns)))
    if codes != want:
        missing = [columns[i - first].name for i in want if i not in codes]
        raise AssertionError(f"{prefix}* constants {codes} do not name each column once; missing {missing}")


@dataclass(frozen=True)
class Ratio:
    """A rate a designer asks about: total of one seat column over the total of another.

    E.g. the squid escape rate per attempt = squid_escapes / squid_attempts, pooled over
    every seat and game; it becomes the metric ``ratio.<name>`` with a delta-method CI.
    """

    name: str
    numerator: str  # seat column
    denominator: str  # seat column
    doc: str


@dataclass(frozen=True)
class OddsRow:
    """One line of ``pirate-sim odds``: an exact probability beside a Monte Carlo estimate."""

    case: str  # what is being asked, e.g. "escape within 3 attempts"
    exact: float
    estimate: float
    samples: int
    sd: float | None = None  # per-sample standard deviation when the row is an expectation, not a probability

    @property
    def stderr(self) -> float:
        if self.sd is not None:
            return float(self.sd / np.sqrt(max(self.samples, 1)))
        p = min(max(self.exact, 0.0), 1.0)
        return float(np.sqrt(p * (1 - p) / max(self.samples, 1)))

    @property
    def z(self) -> float:
        se = self.stderr
        return 0.0 if se == 0 else (self.estimate - self.exact) / se


@dataclass
class Compiled:
    """Everything a kernel needs for one scenario: a NamedTuple of scalars plus arrays.

    ``params`` is the game's NamedTuple of scalar rules; ``arrays`` holds decks, boards
    and per-seat strategy tables; ``n_seats`` and ``strategy_names`` are per seat.
    """

    params: Any
    arrays: tuple
    n_seats: int
    strategy_names: tuple[str, ...]
    extra: dict = field(default_factory=dict)


class Game:
    """Base class of a game plug-in; subclasses fill the attributes and methods."""

    name: str = ""  # identifier used in scenarios: "pirates_peak"
    title: str = ""  # what a designer calls it: "Pirate's Peak"
    version: str = "0"  # rules VERSION: bump whenever a rule's behaviour changes
    min_seats: int = 2
    max_seats: int = 2
    params: tuple[Param, ...] = ()  # keys relative to the scenario's [rules] table
    strategies: tuple[Strategy, ...] = ()
    default_seats: tuple[str, ...] = ()  # strategy name per seat of the default scenario
    end_reasons: tuple[str, ...] = ()  # must contain "truncated"
    game_columns: tuple[Column, ...] = ()  # game-specific per-game columns
    seat_columns: tuple[Column, ...] = ()  # per-seat columns
    score_column: str | None = None  # seat column used for the winning margin
    ratios: tuple[Ratio, ...] = ()  # pooled rates (metric ratio.<name>)
    odds_mechanics: dict[str, str] = {}  # mechanic name -> one-line description
    rules_doc: str = ""  # path of the rules page, e.g. docs/rules/pirates_peak.md
    # whether a seat may play a strategy file (pirate_sim.user_strategy): the game then has the
    # user_compile / user_placeholder methods (contract.EngineGame's, for a game on the protocol)
    takes_strategy_files = False
    # True where one compiled kernel plays every kind of seat (the decision protocol's engine:
    # scripted, search and strategy-file seats): `pirate-sim warm` then compiles it in one job
    one_engine = False

    # -- the four things a game does -------------------------------------------------
    def compile(self, rules: dict[str, Any], seats: list[dict[str, Any]]) -> Compiled:
        """Turn validated rules (dotted key -> value) and seats into kernel inputs.

        ``seats`` is a list of ``{"strategy": name, <strategy param>: value, ...}`` with
        every strategy parameter filled in.  Raise ``ValueError("key: message")`` for
        cross-parameter problems (the engine reports it against the scenario file).
        """
        raise NotImplementedError

    def play(self, compiled: Compiled, seed: int, first_game: int, n_games: int) -> tuple[np.ndarray, np.ndarray]:
        """Play games ``first_game .. first_game + n_games - 1`` (parallel over games).

        Returns ``(out_games, out_seats)`` as described in the module docstring.  Game
        ``k`` must depend only on ``(seed, k)`` and the compiled scenario.  The runner
        calls it from a worker thread while it writes the previous games: compile the
        kernel with ``nogil=True`` so that both run at once.
        """
        raise NotImplementedError

    def trace(self, compiled: Compiled, seed: int, game_index: int) -> list[str]:
        """A readable turn-by-turn account of game ``game_index`` (identical to the run's)."""
        raise NotImplementedError

    def odds(self, mechanic: str, rules: dict[str, Any], samples: int, seed: int) -> list[OddsRow]:
        """Exact probabilities of a sub-mechanic beside the kernel's own Monte Carlo."""
        raise NotImplementedError

    def dice_per_game(self, compiled: Compiled, seed: int, n_games: int) -> float:
        """Mean dice rolled per game (for the benchmark's efficiency ratio): by default the
        mean of the game column ``dice_rolled``, for games that count their dice there."""
        out_g, _ = self.play(compiled, seed, 0, n_games)
        return float(out_g[:, self.game_column_index("dice_rolled")].mean())

    def search_bench(self, compiled: Compiled, seed: int, n_decisions: int) -> dict:
        """The ``search`` player's cost, for ``bench`` (games that have one): a dict with
        ``rollouts_per_s`` (1 thread), ``s_per_rollout``, ``s_per_playout`` (a game of the
        rollout strategy played from the same points, no search machinery) and
        ``overhead`` (``s_per_rollout / s_per_playout - 1``: copying, re-sampling, choosing)."""
        raise NotImplementedError

    def user_placeholder(self, seat: dict) -> dict:
        """The built-in seat that stands in the kernel's tables for a seat playing a strategy
        file (its choices outside the user function's decisions, if any)."""
        raise NotImplementedError

    def user_compile(self, compiled: Compiled, users: list, fi: np.ndarray, rows: np.ndarray) -> None:
        """Check the user functions against the game's argument types and store the generated
        kernel in ``compiled.extra["user"]`` (``fi``: dispatch index per seat entry, -1 built-in;
        ``rows``: read-only parameter rows per entry); :meth:`play` then plays it."""
        raise NotImplementedError

    def report_figures(self, ctx) -> list:
        """Game-specific report pages: ``[(file stem, matplotlib Figure), ...]``.

        ``ctx`` is a :class:`pirate_sim.report.ReportContext` (results, metrics,
        scenario, ``ctx.parts("games" | "seats")`` to aggregate the tables one part at a
        time).  Optional: the engine's generic pages come first.
        """
        return []

    # -- helpers for plug-ins --------------------------------------------------------
    def full_rules(self, rules: dict[str, Any] | None = None) -> dict[str, Any]:
        """Every rules parameter: the defaults, overridden by ``rules`` (dotted keys)."""
        full = {p.key: p.default for p in self.params}
        full.update(rules or {})
        return full

    def new_outputs(self, n_games: int, n_seats: int) -> tuple[np.ndarray, np.ndarray]:
        """Zeroed ``(out_games, out_seats)`` for ``n_games`` games (layout: module docstring)."""
        return (np.zeros((n_games, N_STD_GAME_COLUMNS + len(self.game_columns)), np.int32),
                np.zeros((n_games, n_seats, len(self.seat_columns)), np.int32))

    def one_game_outputs(self, n_seats: int) -> tuple[np.ndarray, np.ndarray]:
        """One game's zeroed output row and seat rows (what a traced kernel fills)."""
        out_g, out_s = self.new_outputs(1, n_seats)
        return out_g[0], out_s[0]

    def traced_game(self, traced_nb, compiled: Compiled, seed: int, game_index: int, capacity: int,
                    width: int, *extra) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(events int32[n, width], out_games row, out_seats rows) of game ``game_index``, from
        a kernel ``traced_nb(seed, k, params, *arrays, events, *extra, out_game, out_seats)``
        that returns the number of events it logged (the multi-seat games' signature)."""
        ev = np.zeros((capacity, width), np.int32)
        out_g, out_s = self.one_game_outputs(compiled.n_seats)
        n = traced_nb(np.uint64(seed % 2**64), np.int64(game_index), compiled.params, *compiled.arrays, ev, *extra,
                      out_g, out_s)
        return ev[:n], out_g, out_s

    def result_line(self, out_g: np.ndarray) -> str:
        """A trace's last line: who won, how the game ended, after how many turns."""
        w = int(out_g[0])
        return (f"Result: {'seat %d wins' % w if w >= 0 else 'no winner'} "
                f"({self.end_reasons[int(out_g[2])]}) after {int(out_g[1])} turns")

    def play_chunk(self, chunk_nb, compiled: Compiled, seed: int, first_game: int, n_games: int, *extra):
        """:meth:`play` for a kernel ``chunk_nb(seed, first_game, n_games, params, *arrays, *extra,
        out_games, out_seats)``, the signature the multi-seat games share."""
        out_g, out_s = self.new_outputs(int(n_games), compiled.n_seats)
        if n_games > 0:
            chunk_nb(np.uint64(seed % 2**64), np.int64(first_game), np.int64(n_games), compiled.params,
                     *compiled.arrays, *extra, out_g, out_s)
        return out_g, out_s

    # -- helpers the engine uses -----------------------------------------------------
    def strategy(self, name: str) -> Strategy:
        for s in self.strategies:
            if s.name == name:
                return s
        raise KeyError(name)

    def seat_column_index(self, name: str) -> int:
        return [c.name for c in self.seat_columns].index(name)

    def game_column_index(self, name: str) -> int:
        """Column of the game column ``name`` in the kernel's ``out_games`` (after the standard ones)."""
        return N_STD_GAME_COLUMNS + [c.name for c in self.game_columns].index(name)


def seat_tables(seats: list[dict], by_name: dict[str, Strategy], slots: dict[str, int],
                defaults: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Kernel inputs of the ``[[seats]]`` entries: (strategy codes int32[n], parameters
    float64[n, len(defaults)]), one row per entry; a strategy's parameter ``key`` goes to
    column ``slots[key]``, and slots a strategy does not use keep ``defaults``."""
    codes = np.zeros(len(seats), np.int32)
    sp = np.tile(defaults, (len(seats), 1))
    for i, seat in enumerate(seats):
        strat = by_name[seat["strategy"]]
        codes[i] = strat.code
        for p in strat.params:
            v = seat.get(p.key, p.default)
            # a choice is stored as its index in ``choices`` (``search.search_params`` lists the
            # rollout strategies in code order, so the index is the strategy code)
            sp[i, slots[p.key]] = float(p.choices.index(v) if p.kind == "choice" else v)
    return codes, sp
