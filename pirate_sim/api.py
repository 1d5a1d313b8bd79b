"""The Python API: what a designer uses from a notebook, and what every CLI command calls.

    >>> import pirate_sim as ps
    >>> s = ps.load("scenarios/pirates_peak/default.toml")
    >>> s.set("rules.squid.escape_total", 11)           # exactly `--set rules.squid.escape_total=11`
    >>> r = ps.run(s, games=10_000, seed=7)              # in memory: no files
    >>> r.metrics.head()                                 # tidy: metric, value, lo, hi (95%), n, method
    >>> ps.compare(s, set={"rules.ship.life_points": 4}, games=20_000).table

A :class:`Scenario` keeps its file and the ``--set`` overrides applied to it, so the same
(scenario, seed) plays the same games here and on the command line.  Errors are the
CLI's: a :class:`~pirate_sim.errors.UserError` (ScenarioError names the file and key)
whose message is the one line the CLI prints.  Nothing here compiles a kernel until a
game is played.
"""

from __future__ import annotations

import atexit
import contextlib
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, Sequence, Union

from . import validate as valid
from .errors import UserError
from .scenario import ScenarioError  # the games' registry and numpy; numba only once a game is played
from .validate import APIError  # a bad argument: the one line the CLI's option prints for it

if TYPE_CHECKING:  # the heavy imports stay out of `import pirate_sim`
    import pandas as pd
    import pyarrow as pa

    from . import learned
    from . import scenario as _scen
    from .metrics import Accumulator

__all__ = ["Scenario", "Results", "Comparison", "Sweep", "Check", "Sensitivity", "Tuning", "APIError",
           "ScenarioError", "UserError",
           "load", "scenario", "run", "open", "trace", "write_report", "compare", "sweep", "check", "sensitivity", "tune",
           "list_games", "skill", "tournament", "MetaGame", "learn"]

PathLike = Union[str, Path]
Progress = Union[bool, Callable[..., None]]

# Defaults of the commands (the CLI shows these in its --help).
COMPARE_GAMES = 100_000  # paired games: a few seconds, CI half-widths near 0.1 point
# An in-memory run keeps its tables (Arrow, then pandas on demand) in memory; beyond this
# estimate of their size it is refused (play it with out=DIR, read it back in parts).
MAX_MEMORY_BYTES = 2 << 30


# ------------------------------------------------------------------------------------------ scenarios


def _toml_text(value: Any) -> str:
    """A Python value as the text of ``--set KEY=TEXT`` (TOML: 11, 0.5, true, "racer", [1, 2])."""
    from .scenario import _toml_value

    try:
        return _toml_value(value)
    except TypeError:
        raise APIError(f"{value!r}: not a scenario value (numbers, booleans, strings and lists of them)") from None


class Scenario:
    """A validated scenario: a game, its rules, the seats and the run settings.

    Made by :func:`load` (a TOML file) or :func:`scenario` (a game's defaults); changed by
    :meth:`set`, which behaves exactly as the CLI's ``--set`` (same parsing, validation and
    one-line errors, raised as :class:`~pirate_sim.scenario.ScenarioError` naming the key).

    Example:
        >>> s = ps.load("scenarios/pirates_peak/default.toml")
        >>> s.set("rules.squid.escape_total", 11).set("seats.1.strategy", "racer")
        >>> s["rules.squid.escape_total"]
        11
    """

    def __init__(self, raw: dict, source: str, overrides: Sequence[str] = (), path: Path | None = None):
        from . import scenario as scen

        self._raw = raw  # the file's tables, before overrides
        self._path = path  # the file it came from (None: made in memory)
        self._source = source
        s = scen.from_dict(raw, source=source, overrides=list(overrides))
        s.compile()  # every error surfaces now, as the CLI's loading does
        self._s = s

    # -- what it is --------------------------------------------------------------------------
    @property
    def engine(self) -> "_scen.Scenario":
        """The library's resolved :class:`pirate_sim.scenario.Scenario` (what the engine plays)."""
        return self._s

    @property
    def game(self) -> str:
        """The game's name, e.g. ``"pirates_peak"``."""
        return self._s.game.name

    @property
    def title(self) -> str:
        return self._s.title

    @property
    def source(self) -> str:
        """The file it was loaded from (or ``<game defaults>``)."""
        return self._s.source

    @property
    def path(self) -> Path | None:
        """The scenario file, or None for a scenario made by :func:`scenario`."""
        return self._path

    @property
    def overrides(self) -> list[str]:
        """The ``KEY=VALUE`` changes applied to the file, in order (as ``--set`` would take them)."""
        return list(self._s.overrides)

    @property
    def rules(self) -> dict[str, Any]:
        """Every rule parameter, resolved (dotted key -> value); a copy: change rules with :meth:`set`."""
        import copy

        return copy.deepcopy(self._s.rules)

    @property
    def seats(self) -> list[dict[str, Any]]:
        """One dict per seat: its strategy and the strategy's parameters (a copy)."""
        import copy

        return copy.deepcopy(self._s.seats)

    @property
    def seed(self) -> int:
        return self._s.seed

    @property
    def games(self) -> int:
        """The scenario's ``run.games``."""
        return self._s.run["games"]

    def hash(self) -> str:
        """Identity of the games: equal hashes mean game k is the same game."""
        return self._s.hash()

    def get(self, key: str) -> Any:
        """The resolved value of ``rules.X``, ``seats.N.X``, ``run.X``, ``title`` or ``game``.

        Example:
            >>> s.get("rules.squid.escape_total")
            12
        """
        from .scenario import ScenarioError

        head, _, rest = key.partition(".")
        try:
            if head == "rules" and rest in self._s.rules:
                return self._s.rules[rest]
            if head == "run" and rest in self._s.run:
                return self._s.run[rest]
            if head == "seats":
                i, _, name = rest.partition(".")
                return self._s.seats[int(i)][name]
            if key in ("title", "description"):
                return getattr(self._s, key)
            if key == "game":
                return self.game
        except (ValueError, IndexError, KeyError):
            pass
        raise ScenarioError(self.source, key, "no such parameter in this scenario")

    __getitem__ = get

    # -- changing it -------------------------------------------------------------------------
    def set(self, key: str, value: Any = None, /) -> "Scenario":
        """Change one value, exactly as ``--set KEY=VALUE``; returns the scenario (calls chain).

        ``value`` is a Python value (``11``, ``0.5``, ``True``, ``"racer"``, ``[1, 2]``), or
        give one ``"KEY=VALUE"`` string as the CLI takes it.  A bad key or value raises
        :class:`~pirate_sim.scenario.ScenarioError` naming the key, and leaves the scenario
        unchanged.

        Example:
            >>> s.set("rules.squid.escape_total", 11)
            >>> s.set("seats.1.strategy=racer")
        """
        item = key if value is None and "=" in key else f"{key}={_toml_text(value)}"
        self._apply([item])
        return self

    def update(self, values: Mapping[str, Any] | Iterable[str] = (), /, **rules: Any) -> "Scenario":
        """Several :meth:`set` at once (all or none): a ``{key: value}`` dict, ``"KEY=VALUE"``
        strings, or rules as keywords with ``__`` for the dots.

        Example:
            >>> s.update({"rules.ship.life_points": 4}, squid__escape_total=11)
        """
        self._apply(_override_items(values, rules))
        return self

    def _apply(self, items: list[str]) -> None:
        new = Scenario(self._raw, self._source, self.overrides + items, self._path)
        self._s = new._s

    def copy(self) -> "Scenario":
        """An independent copy (change it without changing this one)."""
        return Scenario(self._raw, self._source, self.overrides, self._path)

    def with_(self, values: Mapping[str, Any] | Iterable[str] = (), /, **rules: Any) -> "Scenario":
        """A changed copy: ``s.with_({"rules.squid.escape_total": 11})``; ``s`` stays as it is."""
        return self.copy().update(values, **rules)

    # -- writing it --------------------------------------------------------------------------
    def to_toml(self, path: PathLike | None = None, *, docs: bool = True, force: bool = False) -> str | Path:
        """The resolved scenario as TOML (every parameter, commented); written to ``path`` if given.

        Returns the text, or the path written.  An existing file is kept unless ``force``.

        Example:
            >>> s.to_toml("my_squid.toml")
        """
        p, force = valid.path(path, "path"), valid.flag(force, "force")
        text = self._s.to_toml(with_docs=docs)
        if p is None:
            return text
        from .results import atomic_write_text, check_writable

        if p.exists() and not force:
            raise APIError(f"{p}: already exists; pass force=True to overwrite it")
        check_writable(p)
        atomic_write_text(p, text)
        return p

    def _base(self) -> tuple[str, list[str]]:
        """(file, overrides) the file-based commands (sweep, sensitivity, tune) reload it from:
        its own file where it has one (so a point is the CLI's), else a temporary copy."""
        if self._path is not None:
            return str(self._path), self.overrides
        d = _session_dir()
        p = d / f"{self.game}-{self.hash()}.toml"
        if not p.exists():  # strategy files are copied beside it (user_strategy.results_copy)
            from .user_strategy import results_copy

            p.write_text(results_copy(self._s, d).to_toml(), encoding="utf-8")
        return str(p), []

    def __repr__(self) -> str:
        changes = f", set {' '.join(self.overrides)}" if self.overrides else ""
        return f"<Scenario {self.game} {self.source!r}{changes}: {len(self._s.seats)} seats, seed {self.seed}>"


def _override_items(values: Mapping[str, Any] | Iterable[str] | None, rules: Mapping[str, Any] | None = None) -> list[str]:
    """``KEY=VALUE`` strings from a dict, strings, and ``rule__name=value`` keywords."""
    items: list[str] = []
    if isinstance(values, Mapping):
        items += [f"{k}={_toml_text(v)}" for k, v in values.items()]
    elif isinstance(values, str):
        items.append(values)
    elif values is not None:
        items += [str(v) for v in values]
    for k, v in (rules or {}).items():
        items.append(f"rules.{k.replace('__', '.')}={_toml_text(v)}")
    return items


def load(path: PathLike, *overrides: str, **sets: Any) -> Scenario:
    """Read and validate a scenario file (TOML), applying ``--set`` style overrides.

    Errors (file missing, malformed TOML, unknown key, bad value) raise
    :class:`~pirate_sim.scenario.ScenarioError` whose message names the file and key.

    Example:
        >>> s = ps.load("scenarios/pirates_peak/default.toml")
        >>> s = ps.load("scenarios/pirates_peak/default.toml", "rules.squid.escape_total=11")
    """
    from . import scenario as scen

    path = valid.path(path, "path", optional=False)
    raw = scen.read_toml(path)
    return Scenario(raw, str(path), _override_items(list(overrides), sets), path)


def scenario(game: str, rules: Mapping[str, Any] | None = None, /, *, seats: Sequence[str | Mapping] | None = None,
             games: int | None = None, seed: int | None = None, title: str | None = None, **rule_values: Any) -> Scenario:
    """A scenario of ``game`` with every rule at its default, then the given changes.

    ``rules`` is a ``{"squid.escape_total": 11}`` dict (``rules.`` prefix optional) and/or
    keywords with ``__`` for the dots (``squid__escape_total=11``); ``seats`` a list of
    strategy names or ``{"strategy": ..., param: ...}`` tables (default: the game's line-up).

    Example:
        >>> s = ps.scenario("pirates_peak", squid__escape_total=11, seats=["treasure_digger", "racer"])
        >>> s = ps.scenario("pirateer", {"ships_per_player": 2}, games=20_000)
    """
    from .games import GAME_MODULES, get_game
    from .scenario import ScenarioError, _suggest

    games, seed = valid.GAMES(games, "games"), valid.SEED(seed, "seed")
    if game not in GAME_MODULES:
        raise ScenarioError("ps.scenario", "game", f"unknown game {game!r}" + _suggest(str(game), GAME_MODULES)
                            + f"; one of {', '.join(GAME_MODULES)}")
    g = get_game(game)
    raw: dict[str, Any] = {"game": game}
    if title is not None:
        raw["title"] = title
    seat_list = list(seats) if seats is not None else list(g.default_seats)
    raw["seats"] = [{"strategy": x} if isinstance(x, str) else dict(x) for x in seat_list]
    items = [f"{k if k.startswith('rules.') else 'rules.' + k}={_toml_text(v)}" for k, v in (rules or {}).items()]
    items += _override_items(None, rule_values)
    if seed is not None:
        items.append(f"run.seed={seed}")
    if games is not None:
        items.append(f"run.games={games}")
    return Scenario(raw, f"<{game} defaults>", items)


def _as_scenario(s: Scenario | PathLike | "_scen.Scenario") -> Scenario:
    if isinstance(s, Scenario):
        return s
    if isinstance(s, (str, Path)):
        return load(s)
    from . import scenario as scen

    if isinstance(s, scen.Scenario):
        if s.source and not s.source.startswith("<") and Path(s.source).is_file():
            return Scenario(scen.read_toml(s.source), s.source, s.overrides, Path(s.source))
        import tomllib

        return Scenario(tomllib.loads(s.to_toml(with_docs=False)), s.source)
    raise APIError(f"expected a ps.Scenario or a scenario file, got {type(s).__name__}")


def _variant(s: Scenario, seed: int | None, games: int | None) -> Scenario:
    """``s`` with ``--seed`` / ``--games`` applied as the CLI applies them (run.seed, run.games);
    both checked by the caller (validate.SEED, validate.GAMES)."""
    items = ([f"run.seed={seed}"] if seed is not None else []) + ([f"run.games={games}"] if games is not None else [])
    return Scenario(s._raw, s._source, s.overrides + items, s._path) if items else s


_SESSION: list[Path] = []


def _session_dir() -> Path:
    """A temporary directory for this Python session (removed at exit)."""
    if not _SESSION:
        d = Path(tempfile.mkdtemp(prefix="pirate-sim-"))
        _SESSION.append(d)
        atexit.register(shutil.rmtree, d, True)
    return _SESSION[0]


def _out_dir(out: PathLike | None, what: str) -> Path:
    """``out``, or a fresh directory of this session (a notebook's sweep needs no name)."""
    if out is not None:
        return Path(out)
    return Path(tempfile.mkdtemp(prefix=f"{what}-", dir=_session_dir()))


# ------------------------------------------------------------------------------------------ progress


class _Bar:
    """One progress bar: tqdm's notebook widget in Jupyter (with ipywidgets), tqdm's text
    bar on stderr elsewhere, rich's where tqdm is missing; or a caller's callback."""

    def __init__(self, progress: Progress, desc: str, total: int | None, unit: str = "games"):
        self.callback = progress if callable(progress) else None
        self.bar = None
        self._rich = None
        if progress is True:
            try:
                self.bar = _tqdm()(total=total, desc=desc, unit=unit, leave=False, dynamic_ncols=True)
            except ImportError:
                from rich.progress import BarColumn, MofNCompleteColumn, Progress as RichProgress, TextColumn

                self._rich = RichProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                          transient=True)
                self._rich.start()
                self._task = self._rich.add_task(desc, total=total)

    def __call__(self, done: int, total: int | None = None, desc: str | None = None) -> None:
        if self.callback is not None:
            self.callback(done, total)
        elif self.bar is not None:
            if total is not None and total != self.bar.total:
                self.bar.total = total
            if desc is not None:
                self.bar.set_description(desc, refresh=False)
            self.bar.update(done - self.bar.n)
            if self.bar.total and self.bar.n >= self.bar.total:
                self.bar.refresh()  # tqdm skips an update within mininterval of the last: the end must show
        elif self._rich is not None:
            self._rich.update(self._task, completed=done, total=total, description=desc)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        if self._rich is not None:
            self._rich.stop()


def _tqdm():
    """tqdm's notebook bar inside a Jupyter kernel (when ipywidgets is there), else its text bar."""
    from tqdm import std

    if "ipykernel" in sys.modules:
        try:
            import ipywidgets  # noqa: F401
            from tqdm.notebook import tqdm as nb_tqdm

            return nb_tqdm
        except ImportError:
            pass
    return std.tqdm


@contextlib.contextmanager
def _progress(progress: Progress, desc: str, total: int | None, unit: str = "games") -> Iterator[_Bar]:
    bar = _Bar(progress, desc, total, unit)
    try:
        yield bar
    finally:
        bar.close()


def _callback(progress: Progress, bar: _Bar, to_bar: Callable[..., None]) -> Callable[..., None] | None:
    """The progress callback a library function gets: the caller's own (``progress`` is
    callable: it receives the library's arguments), else one that moves ``bar`` through
    ``to_bar(bar, *the library's arguments)`` (``progress`` True), else None."""
    if callable(progress):
        return progress
    if progress:
        return lambda *args: to_bar(bar, *args)
    return None


@contextlib.contextmanager
def _cluster(cluster, scenarios=()):
    """The connected, warmed cluster for ``cluster`` (an address, $PIRATE_SIM_CLUSTER, or a
    Cluster already connected); None: this process's threads, Dask not imported."""
    from .cluster import Cluster, connect, resolve_address

    if isinstance(cluster, Cluster):
        yield cluster
        return
    resolved = resolve_address(cluster)
    if resolved is None:
        yield None
        return
    cl = connect(resolved)
    try:
        cl.prepare([_engine(s) for s in scenarios])
    except BaseException:
        cl.close()
        raise
    with cl:
        yield cl


def _engine(s):
    return s.engine if isinstance(s, Scenario) else s


# ------------------------------------------------------------------------------------------ results


class _Text(str):
    """Text that a notebook shows as text (not as a quoted string with ``\\n``)."""

    def __repr__(self) -> str:
        return str(self)

    def _repr_pretty_(self, p, cycle) -> None:
        p.text(str(self))


class Results:
    """The games of a run: tables, metrics with 95% intervals, summary, report, traces.

    ``games`` / ``seats`` are pandas DataFrames (one row per game / per game and seat,
    the columns of the Parquet parts); :meth:`arrow` and :meth:`polars` give the same
    tables without a pandas copy.  Made by :func:`run` (in memory or into a directory) or
    :func:`open` (a results directory).

    Example:
        >>> r = ps.run(s, games=10_000)
        >>> r.games.groupby("winner").size()
        >>> r.metrics.query("metric.str.startswith('win_rate')")
        >>> print(r.trace(41))
    """

    def __init__(self, scenario: Scenario, accumulator: "Accumulator", n_games: int, *, out: Path | None = None,
                 tables: dict[str, list["pa.Table"]] | None = None, seconds: float = 0.0, run=None):
        self.scenario = scenario
        self.accumulator = accumulator
        self.n_games = n_games  # games played (a precision target may stop a run early)
        self.out = out  # the results directory (None: in memory)
        self.seconds = seconds
        self.run_result = run  # the runner's RunResult (None for ps.open)
        self._parts = tables  # in memory: per chunk, {"games": [...], "seats": [...]}
        self._arrow: dict[str, "pa.Table"] = {}
        self._pandas: dict[str, "pd.DataFrame"] = {}

    def arrow(self, kind: str = "games") -> "pa.Table":
        """The ``"games"`` or ``"seats"`` table as a pyarrow Table (no copy of an in-memory run)."""
        import pyarrow as pa

        from . import results

        if kind not in ("games", "seats"):
            raise APIError(f"kind {kind!r}: expected 'games' or 'seats'")
        if kind not in self._arrow:
            if self._parts is not None:
                tables = self._parts[kind]
            else:
                tables = list(results.iter_table(self.out, kind))
            self._arrow[kind] = pa.concat_tables(tables) if tables else pa.table({})
        return self._arrow[kind]

    def polars(self, kind: str = "games"):
        """The table as a polars DataFrame (shares the Arrow buffers where polars can). polars is
        not a dependency of pirate-sim (``make test`` installs it)."""
        try:
            import polars as pl
        except ImportError:
            raise APIError("polars is not installed (pip install polars); the same table is .arrow(kind) "
                           "as Arrow and .games / .seats as pandas") from None

        return pl.from_arrow(self.arrow(kind), rechunk=False)

    def _df(self, kind: str) -> "pd.DataFrame":
        if kind not in self._pandas:
            self._pandas[kind] = self.arrow(kind).to_pandas()
        return self._pandas[kind]

    @property
    def games(self) -> "pd.DataFrame":
        """One row per game: game, winner (<NA>: nobody), turns, end_reason, truncated, first_seat, game columns."""
        return self._df("games")

    @property
    def seats(self) -> "pd.DataFrame":
        """One row per game and seat: game, seat, strategy, won, the game's per-seat columns."""
        return self._df("seats")

    @property
    def metrics(self) -> "pd.DataFrame":
        """Every metric some game measured, tidy: metric, value, lo, hi (95% interval), n, method
        (see docs/metrics.md); one no game measured (n 0) is left out, ``metric(name)`` still gives it."""
        import pandas as pd

        from . import metrics

        rows = [{"metric": k, **e.as_dict()} for k, e in metrics.observed(metrics.compute(self.accumulator)).items()]
        return pd.DataFrame(rows, columns=["metric", "value", "lo", "hi", "n", "method"])

    def metric(self, name: str):
        """One metric's :class:`~pirate_sim.stats.Estimate` (value, lo, hi, n, method)."""
        from . import metrics

        if not isinstance(name, str):
            raise APIError(f"metric: expected a metric's name, got {name!r}")
        est = metrics.compute(self.accumulator)
        if name not in est:
            try:
                metrics.resolve([name], list(est))
            except KeyError as exc:
                raise APIError(f"metric: {exc.args[0]}") from None
            raise APIError(f"metric {name!r}: one metric's name, not a pattern (r.metrics lists them all)")
        return est[name]

    def summary(self) -> _Text:
        """The summary `pirate-sim run` prints (and writes as summary.txt), as text."""
        from .summary import run_title, summary_text

        return _Text(summary_text(self.accumulator, run_title(self.scenario.engine, self.n_games)))

    def trace(self, k: int) -> _Text:
        """Game ``k`` turn by turn (the very game ``k`` of the run: same seed, same dice)."""
        k = valid.GAME_INDEX(k, "k")
        if not k < self.n_games:
            raise APIError(f"game {k}: the run has games 0..{self.n_games - 1}")
        return trace(self.scenario, k)

    def save(self, out: PathLike, *, force: bool = False) -> Path:
        """Write an in-memory run as a results directory (what `pirate-sim run -o` writes:
        parts, manifest, summary), readable by :func:`open`, `report` and `verify`."""
        out, force = valid.path(out, "out", optional=False), valid.flag(force, "force")
        if self._parts is None:
            raise APIError(f"these results are already in {self.out}")
        from . import results, runner
        from .metrics import summary_dict
        from .summary import run_title, summary_text

        s = self.scenario.engine
        with results.staged_dir(out, force) as stage, results.lock_dir(stage):
            (stage / "games").mkdir()
            (stage / "seats").mkdir()
            from .user_strategy import results_copy

            results.atomic_write_text(stage / results.SCENARIO, results_copy(s, stage).to_toml())
            parts = [results.write_chunk(stage, c, g, st)
                     for c, (g, st) in enumerate(zip(self._parts["games"], self._parts["seats"]))]
            size = s.run["chunk_size"]
            man = runner._manifest(s, self.n_games, len(parts), len(parts), {"play_seconds": self.seconds,
                                   "write_seconds": 0.0}, 0, parts, {})
            man.update(games=self.n_games, chunks_total=len(parts), complete=True, chunk_size=size)
            results.atomic_write_json(stage / results.MANIFEST, man)
            results.atomic_write_json(stage / results.SUMMARY, summary_dict(self.accumulator))
            results.atomic_write_text(stage / "summary.txt", summary_text(self.accumulator,
                                                                          run_title(s, self.n_games)))
        return out

    def report(self, out: PathLike, *, force: bool = False, progress: Progress = False) -> list[Path]:
        """Render the report (PNG charts and report.pdf) into ``out``; returns [pdf, png, ...].

        The directory is written aside and put in place whole; an existing one is kept
        unless ``force``.  An in-memory run is saved to a temporary results directory first.
        """
        out, (force, progress) = valid.path(out, "out", optional=False), valid.checked(force=force, progress=progress)
        if self._parts is not None:
            with tempfile.TemporaryDirectory(prefix="pirate-sim-report-") as tmp:
                return write_report(self.save(Path(tmp) / "run"), out, force=force, progress=progress)
        return write_report(self.out, out, force=force, progress=progress)

    def __repr__(self) -> str:
        where = "in memory" if self.out is None else str(self.out)
        return f"<Results {self.scenario.game}: {self.n_games:,} games, seed {self.scenario.seed}, {where}>"

    def _repr_html_(self) -> str:
        from html import escape

        return f"<p>{escape(repr(self))}</p><pre>{escape(str(self.summary()))}</pre>"


def _memory_estimate(s, games: int) -> int:
    """Bytes an in-memory run's tables take, about (a bound: 4 bytes a column, 8 for game)."""
    g = s.game
    per_game = 8 + 4 * (5 + len(g.game_columns)) + s.n_seats * (8 + 4 * (3 + len(g.seat_columns)))
    return per_game * games


def run(scenario: Scenario | PathLike, *, games: int | None = None, seed: int | None = None,
        out: PathLike | None = None, threads: int | None = None, cluster=None, progress: Progress = True,
        resume: bool = False, force: bool = False, precision: float | None = None,
        max_memory: int = MAX_MEMORY_BYTES, on_estimate: Callable[[float, int, int], None] | None = None) -> Results:
    """Play the scenario: in memory (``out=None``) or into the results directory ``out``.

    The same (scenario, seed) plays the same games as `pirate-sim run` (game k depends only
    on the seed and k), in memory or not, on any thread count or ``cluster`` ('local:N', a
    scheduler address).  ``games`` / ``seed`` default to the scenario's run.games / run.seed.
    ``precision`` stops once every win rate's 95% CI half-width is below it.  An in-memory
    run whose tables would exceed ``max_memory`` bytes is refused (use ``out=``).
    ``progress``: a bar (notebook or terminal), False for none, or ``f(done, total)``.
    ``resume`` / ``force`` are the CLI's (finish an interrupted run, replace a directory).

    Example:
        >>> r = ps.run(s, games=10_000, seed=7)                   # in memory
        >>> r = ps.run(s, games=1_000_000, out="results/big")     # Parquet parts, summary, manifest
    """
    from . import results, runner
    from .metrics import precision_reached
    from .summary import run_title, summary_text

    games = valid.GAMES(games, "games")
    seed, out, threads, resume, force, precision, max_memory, progress, on_estimate = valid.checked(
        seed=seed, out=out, threads=threads, resume=resume, force=force, precision=precision, max_memory=max_memory,
        progress=progress, on_estimate=on_estimate)
    sc = _variant(_as_scenario(scenario), seed, games)
    if out is not None and resume and results.is_results_dir(Path(out)):
        # a resumed run keeps its game count and chunk size (the CLI's --resume takes them from the run)
        got = runner.resume_settings(Path(out))
        keep = {"run.games": got["games"] if games is None else sc.games, "run.chunk_size": got["chunk_size"]}
        changed = {k: v for k, v in keep.items() if sc.get(k) != v}
        sc = sc.with_(changed) if changed else sc
    s = sc.engine
    total = s.run["games"]
    stop = precision_reached(precision) if precision else None
    if out is None:
        if resume:
            raise APIError("resume=True needs out=DIR (the run to finish)")
        need = _memory_estimate(s, total)
        if need > max_memory:
            raise APIError(f"{total:,} games of {s.game.title} take about {runner.human_bytes(need)} in memory "
                           f"(max_memory {runner.human_bytes(max_memory)}); play them with out=DIR, or fewer games")
    with _cluster(cluster, [s]) as cl, _progress(progress, s.game.title, total) as bar:
        cb = bar if progress is not False else None
        if out is not None:
            res = runner.run(s, Path(out), threads=threads, resume=resume, force=force, progress=cb, stop_when=stop,
                             options={"precision": precision} if precision else {}, on_estimate=on_estimate,
                             cluster=cl)
            results.atomic_write_text(Path(out) / "summary.txt", summary_text(res.accumulator, run_title(s, res.games)))
            return Results(sc, res.accumulator, res.games, out=Path(out), seconds=res.seconds, run=res)
        return _run_in_memory(sc, threads, cb, stop, cl)


def _run_in_memory(sc: Scenario, threads, progress, stop, cluster) -> Results:
    """The runner's loop without files: the kernel's pieces accumulated and gathered into
    the same Arrow tables the Parquet parts hold (results.PartBuilder), chunk by chunk."""
    from . import results, runner, seating
    from .metrics import Accumulator

    s = sc.engine
    compiled = s.compile()
    games, size = s.run["games"], s.run["chunk_size"]
    if cluster is None:
        runner.set_threads(threads)
    rotate = seating.rotates(s.rules)
    acc = Accumulator(s.game, compiled.strategy_names, rotate)
    meta = runner._meta(s)
    tables: dict[str, list] = {"games": [], "seats": []}
    part = None
    played = 0
    t0 = time.perf_counter()

    def close_part() -> None:
        tables["games"].append(part.games_table(meta))
        tables["seats"].append(part.seats_table(compiled.strategy_names, meta, rotate))

    if progress:
        progress(0, games)
    with runner.chunk_source(s, compiled, 0, runner.n_chunks(games, size), games, threads, cluster) as pieces:
        for piece in pieces:
            g, st = piece.result
            used, stopped = runner._accumulate(acc, piece.start, g, st, stop)
            stopped = stopped and piece.start + used < games
            if part is None:
                a, b = runner.chunk_span(piece.chunk, games, size)
                part = results.PartBuilder(s.game, s.n_seats, a, b - a)
            part.add(g[:used], st[:used])
            played = piece.start + used
            if piece.last or stopped:
                close_part()
                part = None
            if progress:
                progress(played, games)
            if stopped:
                break
    return Results(sc, acc, played, tables=tables, seconds=time.perf_counter() - t0)


def trace(scenario: Scenario | PathLike, k: int, *, seed: int | None = None) -> _Text:
    """Game ``k`` of the scenario turn by turn: the very game ``k`` of a run with that seed
    (`pirate-sim trace --game k`), without playing the others.

    Example:
        >>> print(ps.trace(s, 41, seed=7))
    """
    k, (seed,) = valid.GAME_INDEX(k, "k"), valid.checked(seed=seed)
    sc = _variant(_as_scenario(scenario), seed, None)
    s = sc.engine
    return _Text("\n".join(s.game.trace(s.compile(), s.seed, k)))


def open(path: PathLike) -> Results:  # noqa: A001 - ps.open(dir) reads as open a results directory
    """The Results of a results directory, checked first as `pirate-sim verify` does
    (every part against the manifest); a damaged or unfinished run raises ResultsError
    naming the part and the command that repairs it.

    Example:
        >>> r = ps.open("results/pp")
        >>> r.seats.groupby("strategy")["won"].mean()
    """
    from . import results, runner

    rd = valid.path(path, "path", optional=False)
    with results.lock_dir(rd, reader=True):
        man = results.check_run(rd)
        acc = runner.load_accumulator(rd)
    sc = load(rd / results.SCENARIO)
    return Results(sc, acc, int(man["games"]), out=rd)


def write_report(results_dir: PathLike | Results, out: PathLike | None = None, *, force: bool = False,
                 progress: Progress = False, tournament: PathLike | None = None) -> list[Path]:
    """The report of a results directory (or Results): PNG charts and report.pdf in ``out``
    (default: RESULTS_DIR/report); returns [report.pdf, png, ...].  The run is checked
    first; the report is written aside and put in place whole (existing kept unless ``force``).
    ``tournament``: a tournament directory (``pirate-sim tournament``) the cover points to.

    Example:
        >>> ps.write_report("results/pp", "reports/pp")
    """
    out, force, progress, tournament = valid.checked(out=out, force=force, progress=progress, tournament=tournament)
    if isinstance(results_dir, Results):
        return results_dir.report(out if out is not None else _out_dir(None, "report"), force=force,
                                  progress=progress)
    from . import results
    from .meta.plan import is_meta_dir

    rd = valid.path(results_dir, "results_dir", optional=False)
    meta = is_meta_dir(rd)
    if meta:  # a skill ladder or tournament directory: its own pages (report/meta.py)
        from .report.meta import build_report
    else:
        from .report import build_report
    dest = out if out is not None else rd / "report"
    say = progress if callable(progress) else None
    results.refuse_overlap(dest, [], runs=[rd])  # never over the run it reads, whatever force says
    with results.lock_dir(rd, reader=True):
        if not meta:
            results.check_run(rd)
        with results.staged_dir(dest, force) as stage:
            pdf, pngs = (build_report(rd, stage, progress=say) if meta else
                         build_report(rd, stage, progress=say, tournament=Path(tournament) if tournament else None))
    return [dest / pdf.relative_to(stage)] + [dest / p.relative_to(stage) for p in pngs]


# ------------------------------------------------------------------------------------------ analyses


@dataclass
class Comparison:
    """B - A for every metric, on common random numbers (see docs/metrics.md, `compare`).

    ``table``: one row per metric (value_a, value_b, diff, lo, hi, p_value, p_holm,
    significant_holm, half_width, indep_half_width, ...); ``files``: what was written.
    """

    table: "pd.DataFrame"
    files: list[Path]
    result: Any  # pirate_sim.analysis.compare.CompareResult
    a: Scenario
    b: Scenario

    @property
    def significant(self) -> list[str]:
        """Metrics whose difference stays significant after Holm's adjustment."""
        return [r["metric"] for r in self.result.rows if r["significant_holm"]]

    def __repr__(self) -> str:
        return (f"<Comparison {self.a.game}: {self.result.games:,} paired games, seed {self.result.seed}; "
                f"{len(self.significant)} of {len(self.table)} metrics significant after Holm>")


def compare(a: Scenario | PathLike, b: Scenario | PathLike | None = None, *,
            set: Mapping[str, Any] | Iterable[str] | None = None,  # noqa: A002 - the CLI's --set
            games: int | None = None, seed: int | None = None, threads: int | None = None,
            metrics: Sequence[str] | None = None, out: PathLike | None = None, force: bool = False,
            cluster=None, progress: Progress = True,
            chart_progress: Callable[[str], None] | None = None,
            decide: tuple[str, float] | str | None = None) -> Comparison:
    """Paired comparison: B minus A for every metric, both played on A's seed (game k of
    both uses the same dice), so intervals are far narrower than for independent runs.

    ``decide=("win_rate.seat0", 0.02)`` (or ``"win_rate.seat0=0.02"``) asks a sequential
    test whether B - A on that proportion is 0 or 0.02 and stops playing once it decides
    (``games`` is then the cap); its answer is ``result.decision``.

    Give ``b``, or ``set`` (B = A with these changes).  ``games`` defaults to 100,000 (or A's
    run.games if fewer); ``metrics`` are names or globs; ``out`` writes compare.json,
    compare.parquet/.csv, charts and compare.pdf.

    Example:
        >>> c = ps.compare(s, set={"rules.squid.escape_total": 11}, games=50_000)
        >>> c.table.query("significant_holm")[["metric", "diff", "lo", "hi"]]
    """
    from contextlib import nullcontext

    from . import results
    from .analysis import compare as cmp

    games, metrics = valid.PAIRED_GAMES(games, "games"), valid.names(metrics, "metrics")
    decide = valid.decide(decide)
    seed, threads, out, force, progress, chart_progress = valid.checked(
        seed=seed, threads=threads, out=out, force=force, progress=progress, chart_progress=chart_progress)
    if b is None and not set:
        raise APIError("compare needs a second scenario b or at least one change in set=")
    if b is not None and set:
        raise APIError("give either a second scenario b or set= changes, not both")
    sa = _variant(_as_scenario(a), seed, games)
    if b is None:
        sb = sa.copy()
        sb._apply(_override_items(set))
    else:
        sb = _variant(_as_scenario(b), seed if seed is not None else sa.seed, games)
    n = games if games is not None else min(sa.games, COMPARE_GAMES)
    files: list[Path] = []
    with results.staged_dir(out, force) if out is not None else nullcontext() as stage:
        with _cluster(cluster, [sa, sb]) as cl, _progress(progress, "compare", n) as bar:
            res = cmp.compare(sa.engine, sb.engine, n, threads, metrics or None,
                              progress=bar if progress is not False else None, cluster=cl, decide=decide)
        if out is not None:
            written = cmp.write_outputs(res, stage, force=True, progress=chart_progress)
            files = [out / f.relative_to(stage) for f in written]
    import pandas as pd

    return Comparison(pd.DataFrame(res.rows), files, res, sa, sb)


def _vary_items(vary: Mapping[str, Any] | Sequence[str] | str, ranges: bool) -> list[str]:
    """``--vary`` strings from ``{key: values}``: a list of values (``v1,v2``), a ``(lo, hi)``
    tuple (a range; sweep: ``(a, b, step)``), or the CLI's text (``"9:13:1"``)."""
    from .analysis.sweep import value_text

    if isinstance(vary, str):
        return [vary]
    if not isinstance(vary, Mapping):
        return [str(v) for v in vary]
    items = []
    for key, v in vary.items():
        if isinstance(v, str):
            items.append(f"{key}={v}")
        elif isinstance(v, tuple) and 2 <= len(v) <= (2 if ranges else 3):
            items.append(f"{key}=" + ":".join(value_text(x) for x in v))
        elif isinstance(v, (list, tuple, range)):
            texts = [value_text(x) for x in v]
            sep = ";" if any(isinstance(x, (list, dict)) for x in v) else ","
            items.append(f"{key}={sep.join(texts)}")
        else:
            raise APIError(f"vary {key}: expected a list of values, a (lo, hi) tuple or the CLI's text, got {v!r}")
    return items


@dataclass
class Sweep:
    """A grid of variants: ``metrics`` is tidy (point, one column per varied key, metric,
    value, lo, hi, n, method); every point is a results directory under ``out/points``."""

    metrics: "pd.DataFrame"
    points: "pd.DataFrame"  # point id and the values of the varied keys
    files: list[Path]
    out: Path
    result: Any  # pirate_sim.analysis.sweep.SweepResult

    def pivot(self, metric: str) -> "pd.DataFrame":
        """One metric over the grid: indexed by the varied key(s), columns value, lo, hi.

        Example:
            >>> sw.pivot("first_player_win_rate").plot(y="value", yerr=...)
        """
        keys = [c for c in self.points.columns if c != "point"]
        sub = self.metrics[self.metrics["metric"] == metric]
        if sub.empty:
            raise APIError(f"metric {metric!r} is not in the sweep's metrics")
        return sub.set_index(keys)[["value", "lo", "hi", "n"]]

    def open(self, point: str) -> Results:
        """The Results of one grid point (e.g. ``"p000"``)."""
        if not isinstance(point, str) or point not in set(self.points["point"]):
            raise APIError(f"point {point!r}: the sweep's points are {', '.join(self.points['point'])}")
        return open(self.out / "points" / point)

    def __repr__(self) -> str:
        return f"<Sweep {len(self.points)} points in {self.out}>"


def sweep(scenario: Scenario | PathLike, vary: Mapping[str, Any] | Sequence[str] | str, *,
          games: int | None = None, seed: int | None = None, out: PathLike | None = None,
          threads: int | None = None, metrics: Sequence[str] | None = None, resume: bool = False,
          force: bool = False, cluster=None, progress: Progress = True,
          chart_progress: Callable[[str], None] | None = None) -> Sweep:
    """Play a grid of variants (the product of the ``vary`` axes), every point on the same
    seed; tidy metrics per point, charts with CI bands (a heatmap for two keys).

    ``vary``: ``{key: [v1, v2, ...]}``, ``{key: (a, b, step)}`` (inclusive) or the CLI's
    ``"KEY=VALUES"`` strings.  ``games`` per point (default run.games); ``metrics``: which
    to chart; ``out`` (default: a directory of this session) holds every point's results.
    ``progress`` may be ``f(point_id, point_index, n_points, done, total)``.

    Example:
        >>> sw = ps.sweep(s, {"rules.squid.escape_total": [10, 11, 12, 13]}, games=20_000)
        >>> sw.pivot("first_player_win_rate")
    """
    import pandas as pd

    from . import metrics as met
    from .analysis import sweep as sw
    from .analysis.check import available_metrics

    games, metrics = valid.GAMES(games, "games"), valid.names(metrics, "metrics")
    seed, out, threads, resume, force, progress, chart_progress = valid.checked(
        seed=seed, out=out, threads=threads, resume=resume, force=force, progress=progress,
        chart_progress=chart_progress)
    sc = _as_scenario(scenario)
    base_path, base_overrides = sc._base()
    axes = [sw.parse_vary(v) for v in _vary_items(vary, ranges=False)]
    points = sw.build_grid(base_path, base_overrides, axes, seed, games)
    chart_metrics = None
    if metrics:
        try:
            chart_metrics = list(dict.fromkeys(met.resolve(metrics, available_metrics(points[0].scenario))))
        except KeyError as exc:
            raise sw.GridError(f"--metrics: {exc.args[0]}") from None
    dest = _out_dir(out, "sweep")
    s0 = points[0].scenario
    total = len(points) * s0.run["games"]
    with _cluster(cluster, [p.scenario for p in points]) as cl, _progress(progress, "sweep", total) as bar:
        cb = _callback(progress, bar, lambda b, pid, i, n_points, done, tot:
                       b(i * s0.run["games"] + done, total, f"sweep {pid} ({i + 1}/{n_points})"))
        res = sw.sweep(points, axes, dest, threads=threads, resume=resume, force=force, chart_metrics=chart_metrics,
                       progress=cb, base_source=str(sc.source), base_overrides=list(sc.overrides),
                       chart_progress=chart_progress, cluster=cl)
    keys = [k for k, _ in axes]
    pts = pd.DataFrame([{"point": p.id, **{k: sw.table_value(p.values[k]) for k in keys}} for p in points])
    return Sweep(res.tidy, pts, list(res.files), dest, res)


@dataclass
class Check:
    """A balance gate's verdicts: ``bounds`` one row per bound (scenario, metric, bound,
    verdict, value, lo, hi, games); ``exit_code`` 0 holds, 1 violated, 3 undecided."""

    bounds: "pd.DataFrame"
    exit_code: int
    status: str
    files: list[Path]
    result: Any  # pirate_sim.analysis.check.CheckResult, or the baseline dict written
    baseline: dict | None = None

    @property
    def passed(self) -> bool:
        return self.exit_code == 0

    def __repr__(self) -> str:
        return f"<Check {self.status} (exit {self.exit_code}): {len(self.bounds)} bounds>"


def check(spec: PathLike, *, baseline: PathLike | None = None, update_baseline: bool = False,
          max_games: int | None = None, seed: int | None = None, threads: int | None = None,
          out: PathLike | None = None, junit: PathLike | None = None, json: PathLike | None = None,
          cluster=None, progress: Progress = True) -> Check:
    """The balance gate of a spec (docs/balance-gate.md): play each scenario in growing
    looks until every bound is decided; verdicts as a DataFrame.

    ``out`` writes verdict.json and junit.xml there (``json`` / ``junit`` name the files
    themselves); nothing is written without them.  With ``baseline`` the spec's [baseline]
    metrics are checked against that file; ``update_baseline=True`` (re)writes it instead.
    ``progress`` may be ``f(scenario_name, done, total)``.

    Example:
        >>> v = ps.check("scenarios/checks/pirates_peak_balance.toml", max_games=50_000)
        >>> v.bounds[["bound", "verdict", "value", "lo", "hi"]]
    """
    import math

    import pandas as pd

    from . import results
    from .analysis import check as ck

    spec, max_games = valid.path(spec, "spec", optional=False), valid.GAMES(max_games, "max_games")
    baseline, update_baseline, seed, threads, out, junit, json, progress = valid.checked(
        baseline=baseline, update_baseline=update_baseline, seed=seed, threads=threads, out=out, junit=junit,
        json=json, progress=progress)
    sp = ck.load_spec(spec, seed)
    if update_baseline and baseline is None:
        raise APIError("update_baseline=True needs baseline=FILE (where to write it)")
    jp = json or (out / "verdict.json" if out else None)
    xp = junit or (out / "junit.xml" if out else None)
    targets = [baseline] if update_baseline else [p for p in (jp, xp) if p is not None]
    for t in targets:
        results.check_writable(t)  # before any game is played
    extra = [] if update_baseline or baseline is None else ck.baseline_bounds(sp, Path(baseline))
    with _cluster(cluster, [x.scenario for x in sp.scenarios]) as cl, _progress(progress, "check", None) as bar:
        cb = _callback(progress, bar, lambda b, name, done, tot: b(done, tot, f"check {name}"))
        if update_baseline:
            data = ck.update_baseline(sp, Path(baseline), threads, max_games, progress=cb, cluster=cl)
            return Check(pd.DataFrame(columns=["scenario", "metric", "bound", "verdict"]), 0, "baseline written",
                         [Path(baseline)], data, data)
        res = ck.run_check(sp, extra, max_games, threads, progress=cb, cluster=cl)
    files = []
    if jp is not None or xp is not None:
        ck.write_outputs(res, jp or Path(tempfile.mkdtemp(dir=_session_dir())) / "verdict.json",
                         xp or Path(tempfile.mkdtemp(dir=_session_dir())) / "junit.xml")
        files = [p for p in (jp, xp) if p is not None]
    rows = []
    for b in res.bounds:
        e = b.estimate or {}
        rows.append({"id": b.id, "scenario": b.scenario, "metric": b.metric, "bound": b.label,
                     "min": None if b.lo == -math.inf else b.lo, "max": None if b.hi == math.inf else b.hi,
                     "verdict": b.verdict, "value": e.get("value", math.nan), "lo": e.get("lo", math.nan),
                     "hi": e.get("hi", math.nan), "games": b.games})
    return Check(pd.DataFrame(rows), res.exit_code, res.status, files, res)


def _factors(sc: Scenario, vary, seed: int | None):
    from .analysis import space

    base_path, base_overrides = sc._base()
    extra = list(base_overrides) + ([f"run.seed={int(seed)}"] if seed is not None else [])
    base, factors = space.parse_factors(_vary_items(vary, ranges=True), base_path, extra)
    return base, factors, base_path, extra


@dataclass
class Sensitivity:
    """Which parameters move which metrics: ``indices`` (metric, parameter, rank, mu*/sigma
    for Morris or S1/ST for Sobol, with 95% intervals), ``noise`` (Monte Carlo share of each
    metric's spread), ``point_metrics`` (every design point's metrics), ``files``."""

    indices: "pd.DataFrame"
    noise: "pd.DataFrame"
    point_metrics: "pd.DataFrame"
    files: list[Path]
    out: Path
    result: Any  # pirate_sim.analysis.sensitivity.SensitivityResult

    def __repr__(self) -> str:
        r = self.result
        return (f"<Sensitivity {r.design.method}: {len(r.factors)} parameters, {r.design.rows} design points x "
                f"{r.games_per_point:,} games, in {self.out}>")


def sensitivity(scenario: Scenario | PathLike, vary: Mapping[str, Any] | Sequence[str] | str, *,
                metrics: Sequence[str] | None = None, method: str = "morris", points: int | None = None,
                games: int = 2000, seed: int | None = None, threads: int | None = None,
                out: PathLike | None = None, resume: bool = False, force: bool = False, cluster=None,
                progress: Progress = True) -> Sensitivity:
    """Screen parameters (Morris: mu*, sigma) or apportion variance (Sobol: S1, ST with 95%
    CIs) over ranges, every design point on the same seed (docs/sensitivity.md).

    ``vary``: ``{key: (lo, hi)}`` ranges, ``{key: [v1, v2]}`` sets, or the CLI's strings;
    ``games`` per design point; ``points`` Morris trajectories / Sobol base samples.
    ``progress`` may be ``f(config_id, index, n_configs, done, total)``.

    Example:
        >>> sa = ps.sensitivity(s, {"rules.ship.life_points": (3, 7), "rules.start.gold": (6, 14)},
        ...                     metrics=["first_player_win_rate"], games=2000)
        >>> sa.indices.sort_values("rank")
    """
    from .analysis import sensitivity as sa
    from .analysis import space

    games, points, metrics = (valid.POINT_GAMES(games, "games"), valid.POINTS(points, "points"),
                              valid.names(metrics, "metrics"))
    seed, threads, out, resume, force, progress = valid.checked(seed=seed, threads=threads, out=out, resume=resume,
                                                                force=force, progress=progress)
    sc = _as_scenario(scenario)
    base, factors, base_path, extra = _factors(sc, vary, seed)
    if method not in sa.METHODS:
        raise APIError(f"method {method!r}: expected one of {', '.join(sa.METHODS)}")
    names = space.resolve_metrics(metrics or list(sa.DEFAULT_METRICS), base)
    n_points = points or sa.DEFAULT_POINTS[method]
    rows = sa.design_rows(factors, method, n_points)
    if rows > sa.MAX_DESIGN:
        raise APIError(f"points {n_points}: {rows:,} design points, more than {sa.MAX_DESIGN:,}")
    dest = _out_dir(out, "sensitivity")
    with _cluster(cluster, [base]) as cl, _progress(progress, "sensitivity", None) as bar:
        cb = _callback(progress, bar, lambda b, cid, i, n_cfg, done, tot:
                       b(i * games + done, n_cfg * games, f"sensitivity {cid} ({i + 1}/{n_cfg})"))
        res = sa.sensitivity(base, base_path, extra, factors, names, method, n_points, games, dest, threads=threads,
                             resume=resume, force=force, progress=cb, cluster=cl)
    return Sensitivity(res.indices, res.noise, res.point_metrics, list(res.files), dest, res)


@dataclass
class Tuning:
    """A tuning search: ``trials`` (every trial's values and metrics), ``best`` (the
    winner's values, None if no trial met the constraints), ``recheck`` (winner vs the
    untuned scenario on fresh seeds, 95% CIs), ``pareto`` (two objectives), ``files``."""

    trials: "pd.DataFrame"
    best: dict[str, Any] | None
    recheck: "pd.DataFrame"
    pareto: "pd.DataFrame | None"
    files: list[Path]
    out: Path
    result: Any  # pirate_sim.analysis.tune.TuneResult

    @property
    def best_scenario(self) -> Scenario | None:
        """best.toml as a Scenario (ready for :func:`run`), or None."""
        p = self.out / "best.toml"
        return load(p) if self.best is not None and p.exists() else None

    def __repr__(self) -> str:
        return f"<Tuning {len(self.trials)} trials, best {self.best}, in {self.out}>"


def tune(scenario: Scenario | PathLike, vary: Mapping[str, Any] | Sequence[str] | str,
         objective: str | Sequence[str] | Mapping[str, Any], *, constraints: Sequence[str] = (),
         trials: int = 40, games: int = 5000, recheck_games: int | None = None, seed: int | None = None,
         threads: int | None = None, out: PathLike | None = None, force: bool = False, resume: bool = False,
         cluster=None, progress: Progress = True) -> Tuning:
    """Search the ranges for the values that optimise ``objective`` (optuna TPE; NSGA-II and
    a Pareto front for two), promising trials get more games, the winner is re-checked on
    fresh seeds and written as best.toml (docs/sensitivity.md).

    ``objective``: ``"METRIC=min|max|VALUE"``, a list of two, or ``{metric: goal}``;
    ``constraints``: ``"METRIC<=X"`` / ``"METRIC>=X"``.  ``resume`` finishes an interrupted
    tuning in ``out`` where the library supports it.  ``progress`` may be ``f(what, done, total)``.

    Example:
        >>> t = ps.tune(s, {"rules.ship.life_points": (1, 12)}, "first_player_win_rate=0.5",
        ...             constraints=["length.mean>=120"], trials=16, games=5000)
        >>> t.best, t.recheck
    """
    from .analysis import space
    from .analysis import tune as tn
    from .analysis.sweep import GridError

    trials, games, recheck_games = (valid.TRIALS(trials, "trials"), valid.POINT_GAMES(games, "games"),
                                    valid.POINT_GAMES(recheck_games, "recheck_games"))
    seed, threads, out, force, resume, progress = valid.checked(seed=seed, threads=threads, out=out, force=force,
                                                                resume=resume, progress=progress)
    sc = _as_scenario(scenario)
    base, factors, base_path, extra = _factors(sc, vary, seed)
    available = space.metric_names(base)
    if isinstance(objective, Mapping):
        objective = [f"{k}={v}" for k, v in objective.items()]
    elif isinstance(objective, str):
        objective = [objective]
    objs = [tn.parse_objective(o, available) for o in objective]
    cons = [tn.parse_constraint(c, available) for c in ([constraints] if isinstance(constraints, str) else constraints)]
    if len(objs) > 2:
        raise GridError("--objective: give one (TPE) or two (NSGA-II, Pareto front)")
    dest = _out_dir(out, "tune")
    with _cluster(cluster, [base]) as cl, _progress(progress, "tune", trials, unit="trials") as bar:
        cb = _callback(progress, bar, lambda b, what, done, tot: b(done, tot, f"tune: {what}"))
        res = tn.tune(base, base_path, extra, factors, objs, cons, trials, games, dest, threads=threads, force=force,
                      recheck_games=recheck_games, progress=cb, cluster=cl, resume=resume)
    return Tuning(res.history, res.best_values, res.recheck, res.pareto, list(res.files), dest, res)


@dataclass
class MetaGame:
    """A skill ladder or a tournament (docs/meta.md): ``summary`` (what summary.json holds:
    every figure with its 95% interval and the verdict), ``table`` (the ladder's steps or the
    win-rate matrix as a DataFrame), ``verdict`` (one line), ``out`` (the directory)."""

    kind: str
    summary: dict
    out: Path

    @property
    def verdict(self) -> str:
        return self.summary["verdict"]

    @property
    def table(self) -> "pd.DataFrame":
        import pandas as pd

        if self.kind == "skill":
            return pd.DataFrame([{"step": st["step"], "strong_budget": st["strong_budget"],
                                  "weak_budget": st["weak_budget"], "games": st["games"],
                                  "win_rate": st["win_rate"]["value"], "lo": st["win_rate"]["lo"],
                                  "hi": st["win_rate"]["hi"], "beats": st["beats"],
                                  "may_beat": st.get("may_beat", st["beats"])} for st in self.summary["steps"]])
        names = self.summary["strategies"]
        rows = []
        for i, a in enumerate(names):
            for j, b in enumerate(names):
                e = self.summary["matrix_ci"][i][j]
                if e is not None:
                    rows.append({"strategy": a, "against": b, "win_rate": e["value"], "lo": e["lo"], "hi": e["hi"]})
        return pd.DataFrame(rows)

    def report(self, out: PathLike | None = None, force: bool = False) -> list[Path]:
        """The ladder or tournament pages (PNG and report.pdf), as `pirate-sim report DIR`."""
        return write_report(self.out, out, force=force)


def _meta_game(kind: str, scenario, out, settings, seed, threads, resume, force, cluster, progress, on_estimate,
               estimate_only):
    from .meta import plan
    from .meta import skill as sk
    from .meta import tournament as tr

    mod = sk if kind == "skill" else tr
    out, seed, threads, resume, force, progress, on_estimate, estimate_only = valid.checked(
        out=out, seed=seed, threads=threads, resume=resume, force=force, progress=progress, on_estimate=on_estimate,
        estimate_only=estimate_only)
    dest = _out_dir(out, kind)
    if resume:
        if not plan.is_meta_dir(dest):
            raise APIError(f"{dest}: no {kind} to resume (no {plan.META}); start it without resume")
        meta = plan.read_meta(dest)
        if meta["kind"] != kind:
            raise APIError(f"{dest}: holds a {meta['kind']}, not a {kind}")
        sc = _as_scenario(scenario)
        base = Scenario(sc._raw, sc._source, list(meta["overrides"]), sc._path).engine
        settings = meta["settings"]
    else:
        base = _engine(_variant(_as_scenario(scenario), seed, None))
    matches, st = mod.build(base, settings)
    if estimate_only:
        est = plan.estimate([plan.match_scenario(base, m) for m in matches], threads, dest)
        est.notes = mod.explain(est, matches, st)
        return est
    total = sum(m.games for m in matches)
    with _cluster(cluster, [plan.match_scenario(base, m) for m in matches]) as cl, \
            _progress(progress, kind, total) as bar:
        cb = _callback(progress, bar, lambda b, done, tot, label: b(done, tot, f"{kind}: {label}"))
        summary = plan.execute(dest, kind, base, matches, st, mod.analyse, threads=threads, resume=resume,
                               force=force, cluster=cl, on_estimate=on_estimate, progress=cb, explain=mod.explain,
                               skip=getattr(mod, "skip", None))
    return MetaGame(kind, summary, dest)


def skill(scenario: Scenario | PathLike, out: PathLike | None = None, *, base_budget: int | None = None,
          steps: int | None = None, games: int | None = None, place_games: int | None = None,
          place: Sequence[str] | None = None, beat: float | None = None, bootstrap: int | None = None,
          sequential: bool = True, seed: int | None = None, threads: int | None = None, resume: bool = False,
          force: bool = False, cluster=None, progress: Progress = True, on_estimate: Callable | None = None,
          estimate_only: bool = False):
    """The skill ladder (`pirate-sim skill`): `search` at B*2^i against B*2^(i-1), i = 1..K,
    then the scripted strategies placed on it; returns a :class:`MetaGame` (or, with
    ``estimate_only``, the time and disk estimate, writing nothing; its ``notes`` say why it
    takes that long and, over 15 minutes, what fits).  Needs a game with a `search`
    strategy.  Settings default as the command's (docs/meta.md); ``seed`` replaces
    run.seed; ``resume`` finishes an interrupted ladder in ``out`` with its stored settings.
    ``progress``: a bar, False, or ``f(done, total, match_label)``; ``on_estimate(est)`` is
    called before the first game.  ``sequential`` (the default): each step and placement
    stops once its sequential test decides (``games`` and ``place_games`` are caps) and the
    ladder stops climbing at the first step decided not to beat its weaker level whose
    strong level no scripted strategy was decided to beat (plan.ladder_skip); False
    plays every game of every step (docs/metrics.md, "Sequential tests").

    Example:
        >>> lad = ps.skill("scenarios/pirates_peak/default.toml", "results/pp-skill", steps=3, games=200)
        >>> lad.table, lad.summary["skill_trace"], lad.verdict
    """
    from .meta import skill as sk

    d = sk.settings()
    st = sk.settings(valid.BUDGET(base_budget, "base_budget", d["base_budget"]), valid.STEPS(steps, "steps", d["steps"]),
                     valid.GAMES(games, "games", d["games"]), valid.GAMES(place_games, "place_games", d["place_games"]),
                     valid.names(place, "place", none_word="none"), valid.BEAT(beat, "beat", d["beat"]),
                     valid.BOOTSTRAP(bootstrap, "bootstrap", d["bootstrap"]),
                     valid.flag(sequential, "sequential"))
    return _meta_game("skill", scenario, out, st, seed, threads, resume, force, cluster, progress, on_estimate,
                      estimate_only)


def tournament(scenario: Scenario | PathLike, out: PathLike | None = None, *, strategies: Sequence[str] | None = None,
               games: int | None = None, bootstrap: int | None = None, sequential: bool = True, seed: int | None = None,
               threads: int | None = None, resume: bool = False, force: bool = False, cluster=None, progress: Progress = True,
               on_estimate: Callable | None = None, estimate_only: bool = False):
    """The strategy tournament (`pirate-sim tournament`): round robin of ``strategies``
    (default every registered one), win-rate matrix, ratings, the meta-game's equilibrium
    and a verdict, all with intervals; returns a :class:`MetaGame` (or the estimate).
    ``sequential`` (the default): a pair's match stops once its dominance tests decide
    (``games`` is a cap; mirrors play every game); False plays every game.

    Example:
        >>> t = ps.tournament("scenarios/pirates_peak/default.toml", "results/pp-meta", games=400)
        >>> t.verdict, t.table
    """
    from .meta import tournament as tr

    d = tr.settings()
    st = tr.settings(valid.names(strategies, "strategies"), valid.GAMES(games, "games", d["games"]),
                     valid.BOOTSTRAP(bootstrap, "bootstrap", d["bootstrap"]), valid.flag(sequential, "sequential"))
    return _meta_game("tournament", scenario, out, st, seed, threads, resume, force, cluster, progress, on_estimate,
                      estimate_only)


def list_games() -> "pd.DataFrame":
    """The games: name, title, rules version, players, strategies (what `pirate-sim games` lists).

    Example:
        >>> ps.list_games()
    """
    import pandas as pd

    from .games import available_games, get_game

    rows = []
    for name in available_games():
        g = get_game(name)
        rows.append({"game": g.name, "title": g.title, "rules_version": g.version,
                     "players": f"{g.min_seats}" if g.min_seats == g.max_seats else f"{g.min_seats}-{g.max_seats}",
                     "strategies": ", ".join(s.name for s in g.strategies), "rules": len(g.params)})
    return pd.DataFrame(rows)


def learn(scenario: Scenario | PathLike, out: PathLike | None = None, *, generations: int | None = None,
          population: int | None = None, elite: int | None = None, games: int | None = None,
          held_out: int | None = None, final_games: int | None = None,
          against: Sequence[str] | None = None, seed: int | None = None, threads: int | None = None,
          resume: bool = False, force: bool = False, progress: Progress = True, method: str = "cem",
          distill: dict | None = None) -> "learned.LearnResult":
    """Train the game's learned player for the scenario's rules by self-play against ``against``
    (default: ``expert`` in every other seat) and write ``out``/weights.npz, the learning curve
    (curve.csv, learning_curve.png) and the final held-out table (final.json); docs/learned.md.

    Each of ``generations`` plays ``population`` weight vectors on the same ``games`` games
    (cross-entropy method, ``elite`` kept) and measures the new mean on ``held_out`` games
    training never plays; the final table plays ``final_games`` fresh ones (Wilson 95%).
    Settings left None are the game's (``pirate_sim.learned.training_defaults``).
    ``resume`` continues a stopped training identically; same seed, same weights.
    ``method="distill"`` fits the player's choices to search's rollout values instead
    (pirate_sim/distill.py; 3 generations by default; ``distill`` overrides its settings,
    ``pirate_sim.distill.DEFAULTS``), in games whose player has ``option_features``.

    Example:
        >>> r = ps.learn("scenarios/pirates_peak_default.toml", "players/peak", generations=20)
        >>> r.final["share"], r.final["lo"]          # against expert, held-out games
        >>> ps.run(ps.scenario("pirates_peak", seats=[{"strategy": "learned",
        ...        "weights": "players/peak/weights.npz"}, "expert"]), games=10_000)
    """
    from . import learned, runner

    generations, population, elite = (valid.GAMES(generations, "generations"), valid.GAMES(population, "population"),
                                      valid.GAMES(elite, "elite"))
    games, held_out, final_games = (valid.POINT_GAMES(games, "games"), valid.POINT_GAMES(held_out, "held_out"),
                                    valid.POINT_GAMES(final_games, "final_games"))
    seed, threads, out, force, resume, progress = valid.checked(seed=seed, threads=threads, out=out, force=force,
                                                                resume=resume, progress=progress)
    sc = _as_scenario(scenario).engine
    if generations is None:
        generations = learned.default_generations(sc.game.name, method)
    dest = _out_dir(out, "learn")
    runner.set_threads(threads)
    with _progress(progress, "learn", generations, unit="generations") as bar:
        cb = _callback(progress, bar, lambda b, g, n, row: b(g, n, f"learn: generation {g}, {row['share']:.3f} "
                                                            f"[{row['lo']:.3f}, {row['hi']:.3f}] held out"))
        return learned.learn(sc, dest, generations=generations, population=population, elite=elite, games=games,
                             held_out=held_out, final_games=final_games,
                             against=list(against) if against is not None else None, seed=seed, resume=resume,
                             force=force, progress=cb, method=method, distill_settings=distill)
