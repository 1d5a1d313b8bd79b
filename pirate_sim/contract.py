"""The decision protocol: what a game writes so that everything above its rules comes written once.

A game that implements these functions in one numba module (its *protocol module*) gets the
chunk driver, the traced game, the ``search`` player (determinised rollouts, sequential halving,
common random numbers: ``pirate_sim/search.py``), strategy files (``strategy = "file.py:fn"``,
called by address on the seat's view; a search may roll one out) and the bench from
``pirate_sim/engine_template.py``, and ``play``, ``trace``, ``search_bench``, ``tournament`` and
``skill`` from :class:`ProtocolGame`.  ``docs/adding-a-game.md`` walks through a complete one
(``tests/toy_race.py``).

The protocol module defines (``st``: the game's state array, ``ev``: int32[rows, 6] event log,
``rng``: the game's stream, ``P``: a NamedTuple of the rules' scalars, ``T``: a tuple of the
rules' arrays, possibly empty)::

    MAX_OPTIONS                                   # most legal options at any decision
    new_state_nb(P) -> st                         # a zeroed state array
    setup_nb(st, ev, rng, P, T, k)                # set up game k (k: its index, for seating)
    next_decision_nb(st, ev, rng, P, T) -> seat   # play on to the next choice: the seat to
                                                  # choose, or -1 once the game is over
    options_nb(st, P, T, opts) -> n               # the pending decision's legal options: codes
    apply_nb(st, ev, rng, P, T, option)           # the deciding seat takes one
    policy_nb(st, rng, P, T, seat, code, prm, opts, n, scores) -> i
                                                  # scripted strategy ``code`` (parameters
                                                  # prm) picks opts[i]; scores[:n] its liking
                                                  # of each (search's prior)
    determinise_nb(st, truth, rng, P, T, seat)    # st = truth with all the seat cannot know
                                                  # re-sampled from rng, consistently with
                                                  # what it has seen
    reward_nb(st, P, T, seat, kind) -> float      # search.REWARD_* of a finished or cut-off game
    turn_nb(st) -> int                            # turns played (search's horizon)
    n_events_nb(st) -> int                        # event rows logged (the trace)
    outputs_nb(st, rng, P, T, out_g, out_s)       # the output row (base.py's layout)
    VIEW_LEN                                      # words of a seat's view
    view_nb(st, P, T, seat, view)                 # what ``seat`` can know, into int32[VIEW_LEN]
                                                  # (zeroed first): a strategy file's only input
                                                  # besides its options (the game documents
                                                  # the layout)

Optional hooks (``OPTIONAL``; ``engine_template.std_*`` where a game leaves one out, so the
toys need none): ``thread_tables_nb(P, T)`` (``T`` plus one thread's work areas),
``stream_key_nb(st, decision)`` (the index a search's and a file's streams derive at),
``user_stream_key_nb(st, decision)`` (a file's own, where it differs from the search's),
``search_prepare_nb(truth, rng, P, T, seat, sp, rp, opts, n, key, prng, scores, alive) -> (taken,
m)`` (the work before the rollouts), ``refresh_nb(st, P, T)`` (work areas rebuilt after a search
or a restored state), ``playout_seats_nb(st, P, T, seat)`` (the bench's plain playout: the seats
as a rollout of ``seat`` plays them), ``determinise_at_nb(st, truth, rng, P, T, seat, j)``
(``determinise_nb`` of rollout j, where the rollouts model the other seats by j),
``new_file_options_nb(m)`` and ``file_options_nb(st, P, T, opts, n, out)`` (what a strategy file
gets as its options), ``file_asks_nb(st, P, T)`` (False at a decision a strategy file's seat
leaves to its base strategy: distillation's positions skip it), ``view_len_nb(P)`` (a view whose
length the rules set),
``trace_state_nb(P, ev)`` (a traced game's state, for a game whose log lives in its state) and
``play_unasked_nb(st, ev, rng, P, T)`` (the whole game where no seat is asked, for a game whose
scripted games run in calls of its own rules: a table of scripted seats then compiles no decision
code; no default: without it every table plays ``play_block_nb``).
Pirateer (``games/pirateer/protocol.py``), Pirate's Cove
(``games/pirates_cove/protocol.py``), Ice Pirates (``games/ice_pirates/protocol.py``) and Pirate's
Peak (``games/pirates_peak/protocol.py``) use them; docs/adding-a-game.md section 5 says why each
exists.  Those four compile their own tables; :class:`EngineGame` gives their plug-ins the engine's calls (:class:`ProtocolGame` is one).

Information: ``policy_nb`` and ``options_nb`` must read only what the deciding seat can know
(the engine gives them the true state, as a game's own players get it); ``determinise_nb`` is
the one place that hides the rest from search, ``view_nb`` from a strategy file, and a test
scrambles each (``docs/adding-a-game.md``).  A game whose strategy files should see public
tables (a board) returns them from :meth:`ProtocolGame.board`.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
from collections import namedtuple
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from . import _cache
from .blocks import run_blocks
from .games.base import Compiled, Game, Strategy
from .rng import RNG_WORDS
from .search import REWARDS, search_params
from .seating import rotates

TEMPLATE = Path(__file__).with_name("engine_template.py")
PLACEHOLDER = "G = None  # PROTOCOL: the rendered copy imports the game's protocol module here"
SEARCH = -1  # engine_template.SEARCH: the code of a searching entry
SEARCH_SLOTS = 5  # engine_template.SP_*: budget, top_k, reward, horizon, rollout
REQUIRED = ("MAX_OPTIONS", "new_state_nb", "setup_nb", "next_decision_nb", "options_nb", "apply_nb", "policy_nb",
            "determinise_nb", "reward_nb", "turn_nb", "n_events_nb", "outputs_nb", "VIEW_LEN", "view_nb")
# hooks a game may leave out (engine_template's defaults: std_*)
OPTIONAL = ("thread_tables_nb", "stream_key_nb", "user_stream_key_nb", "search_prepare_nb", "refresh_nb",
            "playout_seats_nb", "new_file_options_nb", "file_options_nb", "determinise_at_nb", "view_len_nb",
            "trace_state_nb", "play_unasked_nb", "file_asks_nb")
# the board a strategy file gets in a game without public tables (the call needs one array)
NoBoard = namedtuple("NoBoard", ["empty"])
_engines: dict[str, Any] = {}


def engine_source(protocol: str, mod) -> tuple[str, str]:
    """(module name, text) of the engine of protocol module ``mod``: the template with ``G``
    bound to it, named by the SHA-256 of that text, of the source of the protocol and of every
    module one of its functions comes from (a toy may take some from another; numba's cache
    of the engine checks only the engine's own file), and of the package modules they import."""
    template = TEMPLATE.read_text(encoding="utf-8")
    assert PLACEHOLDER in template, "engine_template.py lost its protocol line"
    text = template.replace(PLACEHOLDER, f"import {protocol} as G  # the game's protocol module")
    h = hashlib.sha256(text.encode())
    files = {Path(inspect.getfile(mod))}
    for n in REQUIRED + OPTIONAL:
        f = getattr(getattr(mod, n, None), "py_func", None)
        if f is not None:
            files.add(Path(inspect.getfile(f)))
    for f in sorted(files):
        h.update(f.read_bytes())
    # what the engine and the protocol import from the package: the import closures of the template
    # and of a package game's protocol module (_cache.module_digest, as the package's own kernels
    # are keyed), so an edit elsewhere in the package compiles no engine again; a protocol module
    # outside the package (the tests' toys) keeps the whole package's digest
    h.update(_cache.module_digest(TEMPLATE.resolve()).encode())
    proto = Path(inspect.getfile(mod)).resolve()
    inside = _cache.PACKAGE in proto.parents
    h.update((_cache.module_digest(proto) if inside else _cache.source_digest()).encode())
    parts = protocol.split(".")
    game = parts[-2] if parts[-1] == "protocol" and len(parts) > 1 else parts[-1]  # games/<name>/protocol.py
    return f"pirate_sim_engine_{game}_{h.hexdigest()[:16]}", text


def engine(protocol: str):
    """The engine module of the protocol module named ``protocol`` (dotted):
    :func:`engine_source` written to the user cache and imported (once a process)."""
    if protocol in _engines:
        return _engines[protocol]
    mod = importlib.import_module(protocol)
    missing = [n for n in REQUIRED if not hasattr(mod, n)]
    if missing:
        raise TypeError(f"{protocol} lacks the protocol's {', '.join(missing)} (pirate_sim/contract.py)")
    from .user_strategy import _import_file, _write_if_changed  # the strategy files' way to a module

    name, text = engine_source(protocol, mod)
    folder = _cache.root() / "engines"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.py"
    _write_if_changed(path, text)
    _engines[protocol] = _import_file(name, path)
    return _engines[protocol]


def no_files(n_entries: int, board=None) -> tuple:
    """The engine's (fi, urows, calls, users) of a table without strategy files: stand-ins that
    call nothing, of the types a table with files passes (one compiled engine serves both)."""
    from .user_abi import user_calls
    from .user_strategy import readonly

    n = 2 * n_entries
    addrs = readonly(np.zeros(1, np.int64))
    board = NoBoard(readonly(np.zeros(0, np.int64))) if board is None else board
    return np.full(n, -1, np.int32), readonly(np.zeros((n, 1))), user_calls(addrs, board), []


def table_files(compiled: Compiled, n_entries: int, board) -> tuple:
    """(fi, urows, calls, users) for the engine: the table's strategy files (``user_compile``
    stored them; row e: entry e's own, row n + e: the file search entry e rolls out; -1 none),
    or :func:`no_files` of the same types (one compiled engine serves both)."""
    x = compiled.extra.get("user")
    if x is not None:
        return x["fi"], x["rows"], x["calls"], x["users"]
    return no_files(n_entries, board)


NO_EV = np.zeros((0, 6), np.int32)  # a run's event log: no rows (engine_template.block_work_nb)


def block_work(eng, P, T, ev=NO_EV, rec=None):
    """One thread's work areas (engine_template.block_work_nb): a run's (no event log, a record
    of one row) unless a trace's log ``ev`` or the bench's record ``rec`` is given."""
    return eng.block_work_nb(P, T, ev, np.zeros((1, 1), np.int64) if rec is None else rec)


def unasked(eng, args: tuple, files: tuple) -> bool:
    """Does ``eng`` play this table in ``play_unasked_block_nb``?  Where the game has
    ``play_unasked_nb`` and every entry is scripted: no search seat, no strategy file."""
    codes, fi = args[1], files[0]
    return bool(eng.UNASKED) and bool((np.asarray(codes) >= 0).all()) and bool((fi[:len(codes)] < 0).all())


def compile_ahead(eng, game: Game, args: tuple, files: tuple):
    """Before a table that asks a seat (a ``search`` seat, a strategy file) compiles its block
    kernel for the first time: where the game plays its scripted games in a kernel of their own
    (``play_unasked_nb``) that this block calls too (the search's rollouts), and neither block
    is compiled or cached yet, a second process compiles the scripted table meanwhile
    (pirate_sim/ahead.py); the block then loads that half from numba's cache.  Returns the
    helper (its ``end`` stops it once the block has run) or None.  Results never depend on it."""
    if not getattr(eng, "UNASKED", False) or unasked(eng, args, files):
        return None
    from . import ahead, compiling

    blocks = (eng.play_block_nb, eng.play_unasked_block_nb)
    if any(d.signatures for d in blocks) or any(ahead.on_disk(d) for d in blocks):
        return None

    helper = ahead.start(game.name)
    if helper is not None:
        compiling._say(f"compiling {game.title}'s scripted game in a second process at the same time "
                       "(the search's rollouts play it; once, then cached)")
    return helper


@contextmanager
def _compiled_ahead(eng, game: Game, args: tuple, files: tuple):
    """:func:`compile_ahead` around the first play of a block; its process ends with it."""
    helper = compile_ahead(eng, game, args, files)
    try:
        yield
    finally:
        if helper is not None:
            helper.end()


def _block(eng, args: tuple, files: tuple, P, seed, first, out_g, out_s, counters, err, work):
    """Play rows ``lo .. hi`` of one block (a callable for run_blocks): the table's block kernel."""
    s, k = np.uint64(seed % 2**64), np.int64(first)
    if unasked(eng, args, files):
        return lambda lo, hi: eng.play_unasked_block_nb(s, k, np.int64(lo), np.int64(hi), P, out_g, out_s, work())
    fi, urows, calls, _ = files
    return lambda lo, hi: eng.play_block_nb(s, k, np.int64(lo), np.int64(hi), P, *args[1:], fi, urows, calls, out_g,
                                            out_s, counters, err, work())


def play_engine(eng, game: Game, compiled: Compiled, args: tuple, files: tuple, seed: int, first_game: int,
                n_games: int):
    """(out_games, out_seats, counters int64[n, 3]) of games ``first_game ..`` on engine ``eng``
    with its table arguments ``args`` (T, codes, prm, rprm, rotate) and ``files``
    (:func:`table_files`); a strategy file's illegal answer raises, nothing returned."""
    from .user_strategy import raise_errors

    out_g, out_s = game.new_outputs(int(n_games), compiled.n_seats)
    counters = np.zeros((int(n_games), 3), np.int64)
    err = np.zeros((int(n_games), 4), np.int64)
    P = game.engine_params(compiled)
    with _compiled_ahead(eng, game, args, files):
        run_blocks(_block(eng, args, files, P, seed, first_game, out_g, out_s, counters, err,
                          lambda: block_work(eng, P, args[0])), int(n_games))
    raise_errors(err, first_game, files[3])
    return out_g, out_s, counters


def trace_engine(eng, game: Game, compiled: Compiled, args: tuple, files: tuple, seed: int, game_index: int,
                 capacity: int):
    """(events int32[n, 6], out_games row, out_seats rows) of game ``game_index`` on engine
    ``eng``: the bulk run's block kernel, one game, the event log on (:func:`play_engine`'s
    arguments)."""
    from .user_strategy import raise_errors

    err = np.zeros((1, 4), np.int64)
    ev = np.zeros((capacity, 6), np.int32)
    out_g, out_s = game.new_outputs(1, compiled.n_seats)
    P = game.engine_params(compiled)
    work = block_work(eng, P, args[0], ev)
    with _compiled_ahead(eng, game, args, files):
        _block(eng, args, files, P, seed, game_index, out_g, out_s, np.zeros((1, 3), np.int64), err, lambda: work)(0, 1)
    raise_errors(err, game_index, files[3])
    return ev[:eng.G.n_events_nb(work[0])], out_g[0], out_s[0]


def collect_engine(eng, game: Game, compiled: Compiled, args: tuple, files: tuple, seed: int,
                   n_decisions: int) -> np.ndarray:
    """The engine's record (``engine_template.record_nb``'s layout) of the first ``n_decisions``
    decisions the table's search seats searched (more than one option) in games 0, 1, ... of
    ``seed``, played as a run plays them (the run's block kernel, one thread, blocks of 1, 2, 4
    ... games until the record is full: :func:`play_engine`'s arguments)."""
    from .user_strategy import raise_errors

    P = game.engine_params(compiled)
    rec = np.zeros((n_decisions + 1, eng.REC_RNG + RNG_WORDS + eng.G.new_state_nb(P).size), np.int64)
    work = block_work(eng, P, args[0], rec=rec)
    first, size = 0, 1
    while rec[0, 0] < n_decisions and first < eng.BENCH_MAX_GAMES:
        out_g, out_s = game.new_outputs(size, compiled.n_seats)
        err = np.zeros((size, 4), np.int64)
        played = _block(eng, args, files, P, seed, first, out_g, out_s, np.zeros((size, 3), np.int64), err,
                        lambda: work)(0, size)
        raise_errors(err[:played], first, files[3])
        first += played
        size = min(2 * size, 1024)  # a table that never searches: at most BENCH_MAX_GAMES in big blocks
    return rec


def bench_engine(eng, game: Game, compiled: Compiled, args: tuple, files: tuple, seed: int, n_decisions: int) -> dict:
    """:func:`time_recorded` at :func:`collect_engine`'s decisions (``decisions``: how many)."""
    from .user_strategy import raise_errors

    rec = collect_engine(eng, game, compiled, args, files, seed, n_decisions)
    n = int(rec[0, 0])
    if n == 0:
        raise ValueError("search_bench: no seat searched a decision (no search seat, or one option everywhere)")
    err = np.zeros(4, np.int64)
    b = time_recorded(eng, rec, game.engine_params(compiled), *args[:4], *files[:3], err)
    raise_errors(err[None, :], 0, files[3])
    return {**b, "decisions": n}


def rollout_values_engine(eng, game: Game, compiled: Compiled, args: tuple, files: tuple, seed: int,
                          n_decisions: int, per_option: int) -> dict:
    """The first ``n_decisions`` decisions the table's search seats face in games 0, 1, ... of
    ``seed`` (:func:`collect_engine`), and at each every option's value by ``per_option``
    rollouts of the search seat's rollout strategy (``engine_template.option_values_nb``, in
    blocks on the run's threads: the same values on any count): ``q`` float[d, MAX_OPTIONS]
    (the mean reward), ``n`` the options (0 where no strategy file is asked), ``views`` the
    deciding seat's view, ``options`` what a strategy file is handed there, ``seat``."""
    from .user_strategy import raise_errors

    rec = collect_engine(eng, game, compiled, args, files, seed, n_decisions)
    d = int(rec[0, 0])
    P = game.engine_params(compiled)
    T, _codes, prm, rprm = args[:4]
    m = eng.G.MAX_OPTIONS
    fo = eng.new_file_options_nb(m)
    views = np.zeros((d, eng.view_len_nb(P)), np.int32)
    vopts = np.zeros((d, *fo.shape), fo.dtype)
    nopts = np.zeros(d, np.int64)
    q = np.zeros((d, m))
    errs = np.zeros((d, 4), np.int64)  # a block's error in its first row (rows are independent)

    def block(lo, hi):
        eng.option_values_nb(rec, np.int64(lo), np.int64(hi), P, T, prm, rprm, int(per_option), *files[:3],
                             errs[lo], views, vopts, nopts, q)

    run_blocks(block, d)
    raise_errors(errs, 0, files[3])
    return {"q": q, "n": nopts, "views": views, "options": vopts, "seat": rec[1:d + 1, eng.REC_SEAT].copy()}


def time_recorded(eng, rec, P, T, codes, prm, rprm, fi, urows, calls, err) -> dict:
    """The search's cost at the decisions recorded in ``rec`` (the engine's record layout; one
    thread): each searched again (rollouts/s), then as many plain playouts of its rollout
    strategy from the same decisions (``s_per_playout``); ``overhead``: the search's machinery
    per rollout against a plain playout.  Both kernels compile before the clock."""
    import time

    n = int(rec[0, 0])
    u = (fi, urows, calls, err)
    none = np.zeros((1, rec.shape[1]), np.int64)  # no decisions
    eng.search_points_nb(none, P, T, codes, prm, rprm, *u)
    eng.playout_points_nb(none, P, T, prm, rprm, 1, *u)
    t = time.thread_time()
    rollouts = int(eng.search_points_nb(rec, P, T, codes, prm, rprm, *u))
    t_search = time.thread_time() - t
    t = time.thread_time()
    playouts = int(eng.playout_points_nb(rec, P, T, prm, rprm, max(1, rollouts // max(n, 1)), *u))
    t_play = time.thread_time() - t
    s_roll, s_play = t_search / max(rollouts, 1), t_play / max(playouts, 1)
    return {"rollouts_per_s": rollouts / t_search if t_search > 0 else 0.0, "s_per_rollout": s_roll,
            "s_per_playout": s_play, "overhead": s_roll / s_play - 1 if s_play > 0 else float("nan"),
            "rollouts": rollouts, "s_per_decision": t_search / max(n, 1)}


class EngineGame(Game):
    """A bundled game on the decision protocol whose plug-in compiles its own tables (Pirateer,
    Pirate's Cove, Ice Pirates): it names its ``protocol`` module and writes
    :meth:`engine_tables` (the engine's (T, codes, prm, rprm, rotate) of a compiled table) and
    :meth:`file_board` (the public tables a strategy file gets); ``play`` and its counters,
    traces, strategy files and the search bench's engine calls come from here, written once."""

    protocol: str = ""  # dotted name of the game's protocol module
    takes_strategy_files = True
    one_engine = True  # the decision protocol's engine plays every table (warm.py: one job)
    user_rollout = True  # a search seat's ``rollout`` may name a strategy file (engine_template.playout_nb's rf)
    bench_user_rollout = True  # search_bench times a file rollout as it is (engine_template.playout_points_nb)
    trace_capacity = 200_000  # event rows :meth:`trace_events` keeps by default

    def engine(self):
        return engine(self.protocol)

    def engine_params(self, compiled: Compiled):
        """The ``P`` the engine hands the protocol's functions: the compiled rules tuple (a game
        whose kernels read their rules elsewhere may hand a smaller one: each field of it is a
        machine argument of every call the engine makes out of line)."""
        return compiled.params

    def engine_tables(self, compiled: Compiled) -> tuple:
        raise NotImplementedError

    def file_board(self, compiled: Compiled):
        raise NotImplementedError

    def engine_files(self, compiled: Compiled) -> tuple:
        """The engine's (fi, urows, calls, users) of the table (:func:`table_files`)."""
        return table_files(compiled, compiled.n_seats, self.file_board(compiled))

    def user_compile(self, compiled: Compiled, users: list, fi: np.ndarray, rows: np.ndarray) -> None:
        """Check each function against the engine's argument types (its options:
        ``new_file_options_nb``'s) and compile its call; :meth:`engine_tables` reads ``fi``
        (which entries ask a file, which search rolls one out: a second row per entry)."""
        from numba import typeof

        from . import user_strategy as U

        eng = self.engine()
        types_ = (typeof(np.zeros(1, np.int32)), typeof(eng.new_file_options_nb(2)), typeof(rows[0]),
                  typeof(np.zeros(RNG_WORDS, np.uint64)))
        calls = U.compile_calls(self.name, users, types_, self.file_board(compiled))
        compiled.extra["user"] = {"users": users, "fi": fi, "rows": rows, "calls": calls}

    def play_counted(self, compiled: Compiled, seed: int, first_game: int, n_games: int):
        """:meth:`play` and each game's counters, int64[n, 3]: rollouts its search seats played,
        searched decisions, decisions (one-option ones included)."""
        return play_engine(self.engine(), self, compiled, self.engine_tables(compiled), self.engine_files(compiled),
                           seed, first_game, n_games)

    def play(self, compiled: Compiled, seed: int, first_game: int, n_games: int):
        return self.play_counted(compiled, seed, first_game, n_games)[:2]

    def trace_events(self, compiled: Compiled, seed: int, game_index: int, capacity: int | None = None):
        """(events int32[n, 6], out_games row, out_seats rows) of one game (the bulk run's code path)."""
        return trace_engine(self.engine(), self, compiled, self.engine_tables(compiled), self.engine_files(compiled),
                            seed, game_index, self.trace_capacity if capacity is None else capacity)

    def engine_bench(self, compiled: Compiled, seed: int, n_decisions: int, files: tuple | None = None) -> dict:
        """:func:`bench_engine` of the table (``files``: :meth:`engine_files`, when the caller has them)."""
        return bench_engine(self.engine(), self, compiled, self.engine_tables(compiled),
                            self.engine_files(compiled) if files is None else files, seed, n_decisions)

    def rollout_values(self, compiled: Compiled, seed: int, n_decisions: int, per_option: int) -> dict:
        """:func:`rollout_values_engine` of the table: what ``search`` would learn from, kept."""
        return rollout_values_engine(self.engine(), self, compiled, self.engine_tables(compiled),
                                     self.engine_files(compiled), seed, n_decisions, per_option)


class ProtocolGame(EngineGame):
    """A game on the decision protocol: subclasses name their ``protocol`` module, set the usual
    :class:`~pirate_sim.games.base.Game` attributes (scripted ``strategies`` with codes >= 0,
    columns, end reasons) and write :meth:`rules_tuple` (and :meth:`tables`, :meth:`event_text`
    where they have them).  ``search`` is added to the strategies with ``search_defaults``
    unless ``searchable`` is False."""

    protocol: str = ""  # dotted name of the game's protocol module
    search_defaults: dict = {}  # search_params' keyword arguments (default_rollout, default_budget, ...)
    searchable = True  # False: no ``search`` strategy (a game with nothing to search, as one-shot throws)
    trace_capacity = 4096  # event rows a trace keeps (a longer game's trace says it was cut)
    user_rollout_placeholder = ""  # the search's tables' rollout then (its prior): set per game below

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        scripted = tuple(s for s in cls.strategies if s.name != "search")
        # parameter slots per [[seats]] entry: the most any strategy declares, search's included
        cls.prm_width = max([SEARCH_SLOTS, *(len(s.params) for s in scripted)])
        if cls.protocol and cls.searchable and len(scripted) == len(cls.strategies):
            names = tuple(s.name for s in sorted(scripted, key=lambda s: s.code))
            cls.user_rollout_placeholder = cls.search_defaults.get("default_rollout", names[0])
            cls.strategies = scripted + (Strategy(
                "search", SEARCH, "searches each decision: determinised rollouts of the rollout strategy, "
                "sequential halving (pirate_sim/search.py)", search_params(names, **cls.search_defaults)),)

    # -- what a game writes ------------------------------------------------------------
    def rules_tuple(self, rules: dict[str, Any], n_seats: int):
        """The NamedTuple ``P`` of the rules' scalars the protocol functions read."""
        raise NotImplementedError

    def tables(self, rules: dict[str, Any]) -> tuple:
        """The tuple ``T`` of the rules' arrays (decks, boards); none by default."""
        return ()

    def event_text(self, row: np.ndarray) -> str:
        """One event row of the log as a line of the trace."""
        return " ".join(str(int(x)) for x in row)

    def board(self, rules: dict[str, Any], T: tuple):
        """The public tables a strategy file gets (a NamedTuple of arrays, read-only copies: never
        a deck or anything a seat cannot see); none by default."""
        from .user_strategy import readonly

        return NoBoard(readonly(np.zeros(0, np.int64)))

    # -- what the contract gives -------------------------------------------------------
    def engine_tables(self, compiled: Compiled) -> tuple:
        """The compiled table's arrays are the engine's (T, codes, prm, rprm, rotate)."""
        return compiled.arrays

    def file_board(self, compiled: Compiled):
        return compiled.extra["board"]

    def _row(self, strat: Strategy, seat: dict) -> np.ndarray:
        row = np.zeros(self.prm_width)
        for i, p in enumerate(strat.params):
            v = seat.get(p.key, p.default)
            row[i] = float(p.choices.index(v) if p.kind == "choice" else v)
        return row

    def compile(self, rules, seats):
        by_name = {s.name: s for s in self.strategies}
        codes = np.zeros(len(seats), np.int64)
        prm = np.zeros((len(seats), self.prm_width))
        rprm = np.zeros((len(seats), self.prm_width))
        for e, seat in enumerate(seats):
            strat = by_name[seat["strategy"]]
            codes[e] = strat.code
            if strat.code == SEARCH:
                v = {p.key: seat.get(p.key, p.default) for p in strat.params}  # a seat may omit any
                rollout = by_name[v["rollout"]]
                prm[e, :SEARCH_SLOTS] = (v["budget"], v["top_k"], REWARDS.index(v["reward"]), v["horizon"],
                                         rollout.code)
                rprm[e] = self._row(rollout, {})
            else:
                prm[e] = self._row(strat, seat)
        T = self.tables(rules)
        return Compiled(self.rules_tuple(rules, len(seats)), (T, codes, prm, rprm, bool(rotates(rules))),
                        len(seats), tuple(s["strategy"] for s in seats), extra={"board": self.board(rules, T)})

    # -- strategy files (pirate_sim/user_strategy.py): one engine, whatever the files ---------
    def user_placeholder(self, seat: dict) -> dict:
        """The table's row of a strategy-file seat: never asked (the file takes every decision)."""
        return {"strategy": min(self.strategies, key=lambda s: s.code if s.code >= 0 else 1 << 30).name}

    def trace(self, compiled, seed, game_index):
        cap = self.trace_capacity
        ev, out_g, out_s = self.trace_events(compiled, seed, game_index, cap)
        cut = [f"(the trace stops at {cap:,} events; the game went on)"] if len(ev) == cap else []
        return [self.event_text(row) for row in ev] + cut + [self.result_line(out_g)]

    def search_bench(self, compiled, seed, n_decisions):
        """The search player's cost on one thread (the bench's kernels are not parallel):
        ``n_decisions`` searched decisions of the compiled table's search seats, searched again
        (rollouts/s), and as many plain playouts of the rollout strategy from the same decisions
        (``s_per_playout``): the difference is the machinery's (determinising, deriving streams,
        halving)."""
        b = self.engine_bench(compiled, seed, n_decisions)
        return {**b, "searched_decisions": b["decisions"]}
