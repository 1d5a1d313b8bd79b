"""The results directory: Parquet schema, atomic writes, manifest, reading back.

Layout of a run's output directory::

    scenario.toml           resolved scenario, every default filled in
    manifest.json           versions, seed, hash, games, chunks done, timings
    games/part-NNNNN.parquet  one row per game
    seats/part-NNNNN.parquet  one row per game and seat
    summary.json            metrics with confidence intervals (+ raw accumulator)

Every file is written to a temporary name in the same directory, fsynced and renamed,
so an interrupted run never leaves a truncated file under a final name.  The manifest
records each part's row count, size and SHA-256, and every reader checks them (and the
scenario hash and seed each part carries), so a damaged or foreign part is named, never
read.  A command writing a directory holds an exclusive lock on it (``.pirate-sim.lock``)
for its whole length, so two commands can never mix their files.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import platform
import shlex
import shutil
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from numba import njit

from . import seating
from .errors import UserError
from .games.base import N_STD_GAME_COLUMNS, Game

MANIFEST = "manifest.json"
SUMMARY = "summary.json"
SCENARIO = "scenario.toml"
LOCK = ".pirate-sim.lock"
FORMAT_VERSION = 2  # bump when the directory layout or schema changes (2: per-part rows and checksums)
TMP_SUFFIX = ".tmp"


class ResultsError(UserError, RuntimeError):
    """A results or output directory that cannot be used: locked, damaged, mixed or unwritable."""


def _umask() -> int:
    mask = os.umask(0)  # the only way to read it is to set it
    os.umask(mask)
    return mask


def _file_mode() -> int:
    """Permissions a plain ``open()`` would give a new file: 0666 less the user's umask."""
    return 0o666 & ~_umask()


def _new_tmp(path: Path) -> str:
    """A temporary file beside ``path``, with the permissions a plain ``open()`` would give."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TMP_SUFFIX, dir=path.parent)
    os.close(fd)
    os.chmod(tmp, _file_mode())  # mkstemp makes 0600; results are shared like any file
    return tmp


def _commit(tmp: str, path: Path) -> None:
    """Sync ``tmp`` to disk and rename it over ``path``."""
    with open(tmp, "rb") as fh:
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def _discard(tmp: str) -> None:
    if os.path.exists(tmp):
        os.unlink(tmp)


@contextmanager
def atomic_path(path: Path) -> Iterator[str]:
    """A temporary file beside ``path`` to write; on success it is synced to disk and renamed
    over ``path`` (readers see the old file or the new one, never a half-written one); on
    any error it is removed."""
    path = Path(path)
    tmp = None
    try:
        with stops_held():  # a stop signal cannot come between making the file and knowing its name
            tmp = _new_tmp(path)
        yield tmp
        _commit(tmp, path)
    except BaseException:
        if tmp is not None:
            _discard(tmp)
        raise


def atomic_write_bytes(path: Path, data: bytes) -> None:
    with atomic_path(path) as tmp, open(tmp, "wb") as fh:
        fh.write(data)


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_json(path: Path, obj: Any) -> None:
    atomic_write_text(path, json.dumps(obj, indent=2, sort_keys=False, default=_json_default) + "\n")


def _json_default(o):
    if isinstance(o, (np.integer,)):
        return int(o)
    if isinstance(o, (np.floating,)):
        return float(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    raise TypeError(type(o))


def part_name(chunk: int) -> str:
    return f"part-{chunk:05d}.parquet"


# The Parquet columns of a part are gathered from the kernel's row-major int32 output
# into one contiguous array per column, in the column's final dtype, by one compiled
# pass per dtype (no strided per-column casts); Arrow wraps those arrays without a copy.
_BUFFER_DTYPE = {"bool": np.int8, "int8": np.int8, "int16": np.int16, "int32": np.int32}
TURNS_INT16_BELOW = 32_000  # a part whose longest game is shorter stores turns as int16


@njit(cache=True, nogil=True)
def gather_columns_nb(src, cols, dst, offset):
    """``dst[k, offset + r] = src[r, cols[k]]``: columns of a row-major block, narrowed."""
    for r in range(src.shape[0]):
        for k in range(cols.size):
            dst[k, offset + r] = src[r, cols[k]]


class _Columns:
    """Columns of one table (games or seats) of a part, grouped by buffer dtype."""

    def __init__(self, specs: list[tuple[str, str, int]], rows: int):
        # specs: (name, dtype, source column); a group per buffer dtype, in first-seen order
        self.where: dict[str, tuple[type, int, str]] = {}
        groups: dict[type, list[int]] = {}
        for name, dtype, src in specs:
            bd = _BUFFER_DTYPE[dtype]
            self.where[name] = (bd, len(groups.setdefault(bd, [])), dtype)
            groups[bd].append(src)
        self.cols = {bd: np.array(src, np.int64) for bd, src in groups.items()}
        self.buf = {bd: np.empty((len(src), rows), bd) for bd, src in groups.items()}

    def add(self, block: np.ndarray, offset: int) -> None:
        block = np.ascontiguousarray(block)
        for bd, cols in self.cols.items():
            gather_columns_nb(block, cols, self.buf[bd], offset)

    def get(self, name: str, rows: int, first: int = 0) -> np.ndarray:
        """Rows ``first .. rows - 1`` of column ``name``."""
        bd, k, dtype = self.where[name]
        v = self.buf[bd][k, first:rows]
        return v.astype(bool) if dtype == "bool" else v


# Arrow arrays are made from buffers, not with pa.array: that one imports pandas (half a
# second of every run's start-up) to check whether its argument is a pandas object.
def _arrow(values: np.ndarray, valid: np.ndarray | None = None) -> pa.Array:
    """An Arrow array over a 1-D numpy array (numbers: no copy); ``valid`` False marks nulls."""
    bitmap = None if valid is None else pa.py_buffer(np.packbits(valid, bitorder="little"))
    if values.dtype == np.bool_:
        return pa.Array.from_buffers(pa.bool_(), values.size, [bitmap, pa.py_buffer(np.packbits(values, bitorder="little"))])
    return pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), values.size,
                                 [bitmap, pa.py_buffer(np.ascontiguousarray(values))])


def _strings(labels: tuple[str, ...]) -> pa.Array:
    encoded = [x.encode() for x in labels]
    offsets = np.cumsum([0] + [len(x) for x in encoded], dtype=np.int32)
    return pa.Array.from_buffers(pa.string(), len(labels), [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(encoded))])


def _dict_array(codes: np.ndarray, labels: tuple[str, ...]) -> pa.Array:
    return pa.DictionaryArray.from_arrays(_arrow(codes.astype(np.int8, copy=False)), _strings(labels))


class PartBuilder:
    """A part's two tables, filled from the kernel's output piece by piece, in game order.

    ``add`` narrows each piece into the part's column arrays as it arrives, so the part
    never holds the kernel's int32 blocks; ``tables`` wraps the arrays as Arrow tables.
    """

    def __init__(self, game: Game, n_seats: int, first_game: int, n: int):
        self.game, self.n_seats, self.first_game, self.n = game, n_seats, first_game, n
        self.rows = 0
        std = [("winner", "int8", 0), ("turns", "int32", 1), ("end_reason", "int8", 2),
               ("truncated", "bool", 3), ("first_seat", "int8", 4)]
        own = [(c.name, "int8" if c.labels else c.dtype, N_STD_GAME_COLUMNS + j) for j, c in enumerate(game.game_columns)]
        self.games = _Columns(std + own, n)
        self.seats = _Columns([(c.name, "int8" if c.labels else c.dtype, j) for j, c in enumerate(game.seat_columns)],
                              n * n_seats)

    def add(self, out_games: np.ndarray, out_seats: np.ndarray) -> None:
        m = out_games.shape[0]
        if self.rows + m > self.n:
            raise ValueError(f"part of {self.n} games given {self.rows + m}")
        self.games.add(out_games, self.rows)
        self.seats.add(out_seats.reshape(m * self.n_seats, -1), self.rows * self.n_seats)
        self.rows += m

    def games_table(self, meta: dict[str, str]) -> pa.Table:
        """One row per game: index, winner (null: nobody), turns, how it ended, truncated, ..."""
        n, col = self.rows, self.games.get
        winner, turns = col("winner", n), col("turns", n)
        cols = {
            "game": _arrow(np.arange(self.first_game, self.first_game + n, dtype=np.int64)),
            "winner": _arrow(winner, valid=winner >= 0),
            "turns": _arrow(turns if turns.max(initial=0) >= TURNS_INT16_BELOW else turns.astype(np.int16)),
            "end_reason": _dict_array(col("end_reason", n), self.game.end_reasons),
            "truncated": _arrow(col("truncated", n)),
            "first_seat": _arrow(col("first_seat", n)),
        }
        for c in self.game.game_columns:
            v = col(c.name, n)
            cols[c.name] = _dict_array(v, c.labels) if c.labels else _arrow(v)
        return pa.table(cols).replace_schema_metadata(meta)

    def seats_table(self, strategy_names: tuple[str, ...], meta: dict[str, str], rotate: bool = False,
                    first: int = 0, stop: int | None = None) -> pa.Table:
        """One row per game and seat: seat, strategy (of the entry playing it), won, then the seat columns.

        Games ``first .. stop - 1`` of the part (default: all it holds)."""
        stop, s = self.rows if stop is None else stop, self.n_seats
        n = stop - first
        games = np.arange(self.first_game + first, self.first_game + stop, dtype=np.int64)
        strat_labels = tuple(dict.fromkeys(strategy_names))
        strat_codes = np.array([strat_labels.index(x) for x in strategy_names], dtype=np.int8)
        if rotate:
            strat = strat_codes[seating.entries_of_seats(games, s, True)].reshape(-1)
        else:
            strat = np.tile(strat_codes, n)
        won = (self.games.get("winner", stop, first)[:, None] == np.arange(s, dtype=np.int8)[None, :]).reshape(-1)
        cols = {
            "game": _arrow(np.repeat(games, s)),
            "seat": _arrow(np.tile(np.arange(s, dtype=np.int8), n)),
            "strategy": _dict_array(strat, strat_labels),
            "won": _arrow(won),
        }
        for c in self.game.seat_columns:
            v = self.seats.get(c.name, stop * s, first * s)
            cols[c.name] = _dict_array(v, c.labels) if c.labels else _arrow(v)
        return pa.table(cols).replace_schema_metadata(meta)


def games_table(game: Game, first_game: int, out_games: np.ndarray, meta: dict[str, str]) -> pa.Table:
    """One row per game: index, winner (null: nobody), turns, how it ended, truncated, ..."""
    part = PartBuilder(game, 0, first_game, out_games.shape[0])
    part.games.add(out_games, 0)
    part.rows = out_games.shape[0]
    return part.games_table(meta)


def seats_table(game: Game, first_game: int, out_games: np.ndarray, out_seats: np.ndarray,
                strategy_names: tuple[str, ...], meta: dict[str, str], rotate: bool = False) -> pa.Table:
    """One row per game and seat: seat, strategy, won, then the game's seat columns.

    With ``rotate`` the strategy is that of the ``[[seats]]`` entry playing the seat in
    that game (see :mod:`pirate_sim.seating`), not the entry of the seat's index.
    """
    part = PartBuilder(game, out_seats.shape[1], first_game, out_games.shape[0])
    part.add(out_games, out_seats)
    return part.seats_table(strategy_names, meta, rotate)


# Parquet settings, chosen by measurement on 100,000-game Pirate's Peak parts (CPU time of
# the writer against file size; docs/performance.md). Writing, not compressing, is the
# cost, and most of it was dictionary-encoding integer columns (a hash lookup per value):
# delta encoding (bit-packed differences) writes them in 43% less time, for parts 24%
# larger than dictionary encoding and still 4% smaller than the writer's defaults. zstd
# level 1 makes parts 12% smaller than lz4 and 20% smaller than none for 10-20% more time.
# Statistics (min/max) only where a reader can use them to skip parts, game and seat (the
# others cost 10% of the time and span their whole range in every part). A games part is
# one row group (up to a million rows); a seats part is written in groups of
# SEATS_ROW_GROUP_GAMES games (below), so that a run's end does not wait for a whole part.
PARQUET_COMPRESSION = "zstd"
PARQUET_COMPRESSION_LEVEL = 1
PARQUET_ROW_GROUP_ROWS = 1 << 20
PARQUET_STATISTICS_COLUMNS = ["game", "seat"]


def _parquet_options(schema: pa.Schema) -> dict:
    ints = [f.name for f in schema if pa.types.is_integer(f.type)]
    return dict(compression=PARQUET_COMPRESSION, compression_level=PARQUET_COMPRESSION_LEVEL,
                use_dictionary=[c for c in schema.names if c not in ints],
                column_encoding=dict.fromkeys(ints, "DELTA_BINARY_PACKED"),
                write_statistics=PARQUET_STATISTICS_COLUMNS)


def _record(path: str, rows: int) -> dict:
    """The manifest's record of a written file: rows, bytes, sha256."""
    data = Path(path).read_bytes()
    return {"rows": rows, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def write_table(path: Path, table: pa.Table) -> dict:
    """Write a Parquet file atomically; returns its record for the manifest (rows, bytes, sha256)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, row_group_size=PARQUET_ROW_GROUP_ROWS, **_parquet_options(table.schema))
        rec = _record(tmp, table.num_rows)
    return rec


def write_chunk(out_dir: Path, chunk: int, games: pa.Table, seats: pa.Table) -> dict:
    """Write one chunk's two parts; returns the manifest's record of the chunk."""
    out_dir = Path(out_dir)
    return {kind: write_table(out_dir / kind / part_name(chunk), table)
            for kind, table in (("games", games), ("seats", seats))}


# A seats part is written a row group at a time as its games arrive, so that the end of a
# run waits for one row group, not a whole part (a 100,000-game Pirate's Peak part's
# seats took 55 ms to write after the kernel's last game: 9% of a 200,000-game run on 2
# threads).  Boundaries are fixed multiples of the part's first game, so the same games
# make the same file whatever the kernel's pieces were.  Writing CPU against one group per
# part: +2% at 50,000 games per group, +9% at 25,000, +12% at 10,000 (and the Python work
# per group), +34% at 5,000; files 1% larger at 10,000.  So large groups, and small ones
# only in a run's last part, where what is left after the last game is one group.
SEATS_ROW_GROUP_GAMES = 50_000
LAST_PART_ROW_GROUP_GAMES = 10_000  # about 5 ms to write at a run's end


class PartWriter:
    """A chunk's two Parquet parts, written while the chunk's games arrive in order.

    ``add`` gathers each piece of kernel output (:class:`PartBuilder`) and writes every
    completed row group of seats at once; ``finish`` writes the games part and the last
    row group, commits both files (synced, renamed) and returns the manifest's record of
    the chunk.  ``abort`` removes what was started: an interrupted chunk leaves no file.
    """

    def __init__(self, out_dir: Path, chunk: int, game: Game, n_seats: int, first_game: int, n: int,
                 meta: dict[str, str], strategy_names: tuple[str, ...], rotate: bool = False,
                 group_games: int | None = None):
        self.part = PartBuilder(game, n_seats, first_game, n)
        self.group = group_games or SEATS_ROW_GROUP_GAMES  # games per row group of seats
        self.meta, self.strategy_names, self.rotate = meta, strategy_names, rotate
        self.paths = {kind: Path(out_dir) / kind / part_name(chunk) for kind in ("games", "seats")}
        self._done = 0  # games of the part whose seats rows are written
        self._writer: pq.ParquetWriter | None = None
        self._tmp: str | None = None
        self.seconds = 0.0  # time spent writing (the runner's timings)

    def add(self, out_games: np.ndarray, out_seats: np.ndarray) -> None:
        self.part.add(out_games, out_seats)
        while self.part.rows - self._done >= self.group:
            self._write_seats(self._done + self.group)

    def _write_seats(self, stop: int) -> None:
        t = time.perf_counter()
        table = self.part.seats_table(self.strategy_names, self.meta, self.rotate, self._done, stop)
        path = self.paths["seats"]
        try:
            if self._writer is None:
                path.parent.mkdir(parents=True, exist_ok=True)
                with stops_held():  # the file and its name together (abort removes it)
                    self._tmp = _new_tmp(path)
                self._writer = pq.ParquetWriter(self._tmp, table.schema, **_parquet_options(table.schema))
            self._writer.write_table(table, row_group_size=max(1, table.num_rows))
        except OSError as exc:  # Arrow's own errors name neither the file nor, always, the cause
            raise OSError(exc.errno or errno.EIO, exc.strerror or str(exc), str(path)) from None
        self._done = stop
        self.seconds += time.perf_counter() - t

    def finish(self) -> dict:
        """Write what is left, commit both files; returns ``{"games": record, "seats": record}``.

        The games part is written in a second thread while the last row group of seats is
        written here: at a run's end the kernel's cores are free, and this is all it waits for."""
        t = time.perf_counter()
        games = self.part.games_table(self.meta)
        box: dict[str, Any] = {}

        def write_games() -> None:
            try:
                box["rec"] = write_table(self.paths["games"], games)
            except BaseException as exc:  # raised in the caller's thread below
                box["exc"] = exc

        other = threading.Thread(target=write_games, name="pirate-sim-games-part")
        try:
            with stops_held():  # a CLI stop signal waits for the two writes, then undoes them below
                try:
                    other.start()
                    if self._writer is None or self._done < self.part.rows:
                        self._write_seats(self.part.rows)
                    self._writer.close()
                    self._writer = None
                finally:
                    stop = _join_through_stop(other)
                if stop is not None:
                    raise stop
            if "exc" in box:
                raise box["exc"]
            rec = {"games": box["rec"], "seats": _record(self._tmp, self.part.rows * self.part.n_seats)}
            _commit(self._tmp, self.paths["seats"])
        except BaseException:
            self.abort()
            if "rec" in box:  # the games part went in, its chunk will not: no stray part for resume
                self.paths["games"].unlink(missing_ok=True)
            raise
        self._tmp = None
        self.seconds += time.perf_counter() - t
        return rec

    def abort(self) -> None:
        """Remove the unfinished seats file (safe to call twice)."""
        if self._writer is not None:
            try:
                self._writer.close()
            except Exception:  # a writer that failed may fail again on close; the file goes anyway
                pass
            self._writer = None
        if self._tmp is not None:
            _discard(self._tmp)
            self._tmp = None


_held = [0]  # depth of stops_held blocks (the main thread's: signal handlers run there)
_deferred: list[BaseException] = []  # a stop signal that came inside one, raised at its end


@contextmanager
def stops_held() -> Iterator[None]:
    """Hold a stop signal (the CLI's SIGINT/SIGTERM handler asks :func:`defer_stop`) until the
    block ends, then raise it: what the block writes is finished, and undone by its caller,
    instead of cut at any line (a temporary made but not yet named, a thread not yet joined)."""
    _held[0] += 1
    try:
        yield
    except BaseException:
        _held[0] -= 1
        if not _held[0]:
            _deferred.clear()  # the block's own error goes on; the stop was recorded by its handler
        raise
    _held[0] -= 1
    if not _held[0] and _deferred:
        stop = _deferred[0]
        _deferred.clear()
        raise stop


def defer_stop(exc: BaseException) -> bool:
    """Called by a signal handler: True if a :func:`stops_held` block holds ``exc`` for later."""
    if _held[0] and threading.current_thread() is threading.main_thread():
        _deferred.append(exc)
        return True
    return False


def _join_through_stop(thread: threading.Thread) -> BaseException | None:
    """Wait for ``thread`` even through a stop signal; returns the stop to raise afterwards.

    A Ctrl-C or SIGTERM raises in the main thread wherever it is, here in ``join``: leaving
    then would let the command exit (``os._exit`` while a kernel still runs) with the
    games part half-written beside its final name.  Its write is bounded, so wait for it."""
    stop = None
    while thread.is_alive():
        try:
            thread.join()
        except BaseException as exc:  # noqa: BLE001 - a stop signal: the first is kept and re-raised
            stop = stop or exc
    return stop


def library_versions() -> dict[str, str]:
    """Versions of what made the results (pandas and matplotlib read from their metadata:
    importing them would cost a run a second and a half).  Read once per process: a run
    saves its manifest after every chunk, and each metadata read parses package files."""
    if not _VERSIONS:
        _VERSIONS.update(_read_library_versions())
    return dict(_VERSIONS)


_VERSIONS: dict[str, str] = {}


def _read_library_versions() -> dict[str, str]:
    from importlib.metadata import version

    import numba

    from ._version import __version__

    return {
        "pirate_sim": __version__,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "pyarrow": pa.__version__,
        "pandas": version("pandas"),
        "matplotlib": version("matplotlib"),
        "click": version("click"),
        "machine": platform.machine(),
    }


def _read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (ValueError, UnicodeDecodeError) as exc:
        raise ResultsError(f"{path}: unreadable ({str(exc).splitlines()[0]})") from None


def read_manifest(out_dir: Path) -> dict:
    return _read_json(Path(out_dir) / MANIFEST)


def read_summary(out_dir: Path) -> dict:
    return _read_json(Path(out_dir) / SUMMARY)


def is_results_dir(path: Path) -> bool:
    return (Path(path) / MANIFEST).exists()


def iter_parts(out_dir: Path, columns_games=None, columns_seats=None) -> Iterator[tuple[pa.Table, pa.Table]]:
    """Yield (games, seats) tables chunk by chunk, in game order: memory stays one chunk."""
    yield from zip(iter_table(out_dir, "games", columns_games), iter_table(out_dir, "seats", columns_seats))


def iter_table(out_dir: Path, kind: str, columns=None) -> Iterator[pa.Table]:
    """Yield one table's parts (``kind``: "games" or "seats") in game order, reading only ``columns``.

    Each part is checked against the manifest before it is parsed (ResultsError names a
    damaged or foreign part).  Nothing here keeps a part once it is yielded, so a reader
    that drops each part before asking for the next holds one part at a time.
    """
    out_dir = Path(out_dir)
    man = read_manifest(out_dir)
    for c in range(man["chunks_done"]):
        yield read_part(out_dir, man, kind, c, columns)


def read_games(out_dir: Path, columns=None):
    """All games as a pandas DataFrame (use iter_parts for very large runs)."""
    return pa.concat_tables(iter_table(out_dir, "games", columns)).to_pandas()


def read_seats(out_dir: Path, columns=None):
    return pa.concat_tables(iter_table(out_dir, "seats", columns)).to_pandas()


# --------------------------------------------------------------------------- checking parts


def _expected_rows(man: dict, chunk: int) -> int:
    a = chunk * man["chunk_size"]
    return max(0, min(a + man["chunk_size"], man["games"]) - a)


def _part_record(man: dict, kind: str, chunk: int) -> dict | None:
    parts = man.get("parts")
    if parts is None or chunk >= len(parts) or parts[chunk] is None:
        return None
    return parts[chunk].get(kind)


def read_part(out_dir: Path, man: dict, kind: str, chunk: int, columns=None) -> pa.Table:
    """One part, checked against the manifest (size, SHA-256, rows, scenario hash and seed)."""
    path = Path(out_dir) / kind / part_name(chunk)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ResultsError(f"{path}: part missing") from None
    rec = _part_record(man, kind, chunk)
    if rec is not None and (len(data) != rec["bytes"] or hashlib.sha256(data).hexdigest() != rec["sha256"]):
        raise ResultsError(f"{path}: damaged part ({len(data):,} bytes, the manifest records "
                           f"{rec['bytes']:,} with another checksum)")
    try:
        table = pq.read_table(pa.BufferReader(data), columns=columns)
        meta = {k.decode(): v.decode() for k, v in (pq.read_schema(pa.BufferReader(data)).metadata or {}).items()}
    except (pa.ArrowException, OSError) as exc:
        raise ResultsError(f"{path}: damaged part (not readable Parquet: {str(exc).splitlines()[0]})") from None
    rows = _expected_rows(man, chunk) * (1 if kind == "games" else len(man.get("seats", [])) or 1)
    if kind == "games" or man.get("seats"):
        if table.num_rows != rows:
            raise ResultsError(f"{path}: damaged part ({table.num_rows:,} rows, expected {rows:,})")
    if meta.get("pirate_sim.scenario_hash") != man["scenario_hash"] or meta.get("pirate_sim.seed") != str(man["seed"]):
        raise ResultsError(f"{path}: part of another run (scenario hash {meta.get('pirate_sim.scenario_hash')}, "
                           f"seed {meta.get('pirate_sim.seed')}; the manifest says {man['scenario_hash']}, "
                           f"seed {man['seed']})")
    return table


def damaged_chunks(out_dir: Path, man: dict) -> list[int]:
    """Chunks below ``chunks_done`` whose games or seats part fails its check."""
    bad = []
    for c in range(man["chunks_done"]):
        for kind in ("games", "seats"):
            try:
                read_part(out_dir, man, kind, c, columns=[])
            except ResultsError:
                bad.append(c)
                break
    return bad


def verify(out_dir: Path) -> list[str]:
    """Every problem of a results directory, one line each (empty: the run is intact)."""
    out_dir = Path(out_dir)
    if not is_results_dir(out_dir):
        return [f"{out_dir}: not a pirate-sim results directory (no {MANIFEST})"]
    try:
        man = read_manifest(out_dir)
    except ResultsError as exc:
        return [str(exc)]
    from .user_strategy import changed_files

    problems = changed_files(man.get("strategy_files", []))
    if man.get("failed"):
        problems.append(f"{out_dir}: the run failed after {man['chunks_done']}/{man['chunks_total']} chunks: "
                        f"{man['failed']}")
    for c in range(man["chunks_done"]):
        for kind in ("games", "seats"):
            try:
                read_part(out_dir, man, kind, c, columns=[])
            except ResultsError as exc:
                problems.append(str(exc))
    for extra in unlisted_files(out_dir, man):
        problems.append(f"{extra}: a file the manifest does not list (readers of {extra.parent} such as "
                        f"pd.read_parquet would count its rows; --resume moves it aside)")
    if man.get("complete") and (out_dir / SUMMARY).exists():
        try:
            n = read_summary(out_dir)["games"]
        except (ResultsError, KeyError) as exc:
            problems.append(f"{out_dir / SUMMARY}: unreadable ({exc})")
        else:
            if n != man["games"]:
                problems.append(f"{out_dir / SUMMARY}: {n:,} games, the manifest says {man['games']:,}")
    return problems


STRAY = ".stray"  # where --resume moves files the manifest does not list (hidden: datasets skip it)


def unlisted_files(out_dir: Path, man: dict, upcoming: bool = False) -> list[Path]:
    """Everything under games/ and seats/ that is not a part the manifest lists: a copy of a
    part under another name, a file dropped there, a folder.  Temporary files of a writer
    (hidden, ``.tmp``) are not counted: Parquet datasets skip hidden names.  With ``upcoming``
    the parts of chunks still to play are not counted either (an interrupted run may hold
    the part of a chunk whose manifest entry it never wrote; playing it again replaces it)."""
    out_dir = Path(out_dir)
    limit = int(man.get("chunks_total", man["chunks_done"])) if upcoming else int(man["chunks_done"])
    found = []
    for kind in ("games", "seats"):
        folder = out_dir / kind
        if not folder.is_dir():
            continue
        for p in sorted(folder.iterdir()):
            if p.name.startswith("."):
                continue
            stem = p.name[len("part-"):-len(".parquet")] if p.name.startswith("part-") and p.name.endswith(".parquet") \
                else ""
            if p.is_file() and stem.isdigit() and p.name == part_name(int(stem)) and int(stem) < limit:
                continue
            found.append(p)
    return found


def move_unlisted(out_dir: Path, man: dict) -> list[Path]:
    """Move what :func:`unlisted_files` finds to ``out_dir/.stray/<kind>/`` (nothing is
    deleted: it may be someone's copy); returns the new paths."""
    moved = []
    for p in unlisted_files(out_dir, man, upcoming=True):
        dest_dir = Path(out_dir) / STRAY / p.parent.name
        dest_dir.mkdir(parents=True, exist_ok=True)
        dest = dest_dir / p.name
        n = 1
        while dest.exists():
            dest = dest_dir / f"{p.name}.{n}"
            n += 1
        os.replace(p, dest)
        moved.append(dest)
    return moved


def check_run(out_dir: Path) -> dict:
    """The manifest of an intact, complete run; ResultsError (first problem) otherwise."""
    out_dir = Path(out_dir)
    if not is_results_dir(out_dir):
        raise ResultsError(f"{out_dir}: not a pirate-sim results directory (no {MANIFEST})")
    man = read_manifest(out_dir)
    if not man.get("complete"):
        raise ResultsError(f"{out_dir}: the run is unfinished ({man['chunks_done']}/{man['chunks_total']} chunks); "
                           f"finish it with: {resume_command(out_dir, man)}")
    problems = verify(out_dir)
    if problems:
        more = f" and {len(problems) - 1} more problems" if len(problems) > 1 else ""
        raise ResultsError(f"{problems[0]}{more}; replay the damaged chunks with: {resume_command(out_dir, man)}")
    return man


def resume_command(out_dir: Path, man: dict) -> str:
    """The command that finishes or repairs this run, quoted to work when pasted."""
    words = ["pirate-sim", "run", man.get("scenario_source") or "SCENARIO.toml", "-o", str(out_dir), "--resume"]
    return " ".join(shlex.quote(w) for w in words)


# --------------------------------------------------------------------------- locks and output directories


def has_content(path: Path) -> bool:
    """True if ``path`` is a directory holding anything but our lock file."""
    path = Path(path)
    return path.is_dir() and any(p.name != LOCK for p in path.iterdir())


def clear_dir(path: Path) -> None:
    """Remove everything in ``path`` but the lock file (the lock stays held while replacing)."""
    for p in Path(path).iterdir():
        if p.name == LOCK:
            continue
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p)
        else:
            p.unlink()


def remove_tmp(out_dir: Path) -> int:
    """Delete temporary files a killed writer left behind; returns how many."""
    n = 0
    for p in list(Path(out_dir).rglob(f".*{TMP_SUFFIX}")):
        p.unlink(missing_ok=True)
        n += 1
    return n


def os_error_text(exc: OSError, path: Path | str | None = None) -> str:
    """One line naming the path and the cause of an OS error (no errno numbers, no traceback)."""
    where = exc.filename if exc.filename is not None else path
    why = exc.strerror or str(exc)
    if exc.errno == errno.ENOTDIR:
        why = "a part of this path is a file, not a directory"
    elif exc.errno == errno.ENOSPC:
        why = "no space left on the device"
    return f"{where}: {why}" if where is not None else why


# What a run's directory is made of: a command writing inside a run it reads may not touch these.
RUN_ENTRIES = (MANIFEST, SUMMARY, SCENARIO, "summary.txt", "games", "seats", "strategies", LOCK)


def _real(path: Path | str) -> Path:
    return Path(os.path.abspath(Path(path).expanduser())).resolve()


def refuse_overlap(out: Path | str, inputs, runs=(), what: str = "-o") -> None:
    """ResultsError if writing (or, with --force, replacing) ``out`` could delete or overwrite
    what the command reads, whatever --force says: an input file or run that is ``out`` or
    lies inside it, or ``out`` inside a run it reads (``runs``) on one of the run's own files
    (``report R -o R/games``; ``R/report`` is fine)."""
    o = _real(out)
    for inp in [*inputs, *runs]:
        if inp is None:
            continue
        i = _real(inp)
        if i == o or o in i.parents:
            raise ResultsError(f"{out}: {what} would overwrite {inp}, which this command reads; "
                               f"write somewhere else (nothing was written)")
    for run in runs:
        r = _real(run)
        if r in o.parents and o.relative_to(r).parts[0] in RUN_ENTRIES:
            raise ResultsError(f"{out}: {what} is part of the run {run}, which this command reads; "
                               f"write somewhere else, e.g. {Path(run) / 'report'} (nothing was written)")


def check_writable(path: Path) -> None:
    """Fail now (ResultsError naming the path) if a file cannot be written at ``path`` later.

    Nothing is created: the nearest existing folder on the way must be writable (a refusal
    later must not leave empty directories behind)."""
    path = Path(path)
    if path.is_dir():
        raise ResultsError(f"{path}: is a directory, not a file")
    parent = path.parent
    while not parent.exists():
        if parent.parent == parent:
            break
        parent = parent.parent
    if not parent.is_dir():
        raise ResultsError(f"{parent}: a part of this path is a file, not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ResultsError(f"{parent}: not writable (permission denied)")


@contextmanager
def lock_dir(path: Path, reader: bool = False) -> Iterator[Path]:
    """Create ``path`` if needed and hold an exclusive lock on it until the block ends.

    A second command on the same directory gets ResultsError at once (never waits); any
    OS problem (read-only, a path through a file, no permission) is a ResultsError naming
    the path, raised before any work.  A ``reader`` of a directory it cannot write (an
    archived run) goes ahead unlocked: no pirate-sim command can be writing there.
    """
    path = Path(path)
    created = [] if reader else _missing_dirs(path)
    try:
        if not reader:
            path.mkdir(parents=True, exist_ok=True)
        fd = os.open(path / LOCK, os.O_RDWR | os.O_CREAT, _file_mode())
    except OSError as exc:
        if reader and exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            yield path
            return
        _remove_if_empty(created)
        raise ResultsError(os_error_text(exc, path)) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ResultsError(f"{path}: in use by another pirate-sim command; wait for it to finish "
                               f"or use another directory") from None
        yield path
    except BaseException:
        # a refusal, an error or Ctrl-C before anything was written: leave no empty directory
        if created and not has_content(path):
            (path / LOCK).unlink(missing_ok=True)
            _remove_if_empty(created)
        raise
    finally:
        os.close(fd)  # closing releases the lock


def _missing_dirs(path: Path) -> list[Path]:
    """``path`` and its ancestors that do not exist yet, deepest first."""
    out = []
    p = Path(os.path.abspath(path))
    while not p.exists() and p.parent != p:
        out.append(p)
        p = p.parent
    return out


def _remove_if_empty(dirs: list[Path]) -> None:
    """Remove the directories a command created (deepest first) while they are empty."""
    for d in dirs:
        try:
            d.rmdir()
        except OSError:
            return


@contextmanager
def staged_dir(out: Path, force: bool) -> Iterator[Path]:
    """Write a whole output directory aside, then put it in place of ``out`` in one step.

    Checks first (before the caller's work): ``out`` holds files and no ``force`` ->
    ResultsError; a parent that cannot be written -> ResultsError naming it.  On success
    the old directory is swapped out and removed; on any error the old one is untouched
    and the staged one removed.  Two writers never mix: each stages its own.
    """
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ResultsError(f"{out}: is a file, not a directory")
    if has_content(out) and not force:
        raise ResultsError(f"{out}: already exists; add --force to replace it")
    created = _missing_dirs(out.parent)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        stage = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".new", dir=out.parent))
        os.chmod(stage, 0o777 & ~_umask())  # mkdtemp makes 0700
    except OSError as exc:
        _remove_if_empty(created)
        raise ResultsError(os_error_text(exc, out.parent)) from None
    try:
        yield stage
        if out.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".old", dir=out.parent))
            os.replace(out, old / "d")
            os.replace(stage, out)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(stage, out)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        _remove_if_empty(created)
        raise


def arrays_from_tables(game: Game, n_seats: int, g: pa.Table, s: pa.Table) -> tuple[np.ndarray, np.ndarray]:
    """Rebuild the kernel's (out_games, out_seats) arrays from a part's tables."""
    n = g.num_rows
    out_games = np.empty((n, N_STD_GAME_COLUMNS + len(game.game_columns)), dtype=np.int32)
    out_games[:, 0] = g.column("winner").fill_null(-1).to_numpy()
    out_games[:, 1] = g.column("turns").to_numpy()
    out_games[:, 2] = _codes(g.column("end_reason"))
    out_games[:, 3] = g.column("truncated").to_numpy()
    out_games[:, 4] = g.column("first_seat").to_numpy()
    for j, c in enumerate(game.game_columns):
        out_games[:, N_STD_GAME_COLUMNS + j] = _codes(g.column(c.name)) if c.labels else g.column(c.name).to_numpy()
    out_seats = np.empty((n, n_seats, len(game.seat_columns)), dtype=np.int32)
    for j, c in enumerate(game.seat_columns):
        col = _codes(s.column(c.name)) if c.labels else s.column(c.name).to_numpy()
        out_seats[:, :, j] = np.asarray(col).reshape(n, n_seats)
    return out_games, out_seats


def _codes(col: pa.ChunkedArray) -> np.ndarray:
    """Integer codes of a dictionary column (the labels are the game's, in its order)."""
    parts = [np.asarray(chunk.indices.to_numpy(zero_copy_only=False)) for chunk in col.chunks]
    return np.concatenate(parts) if parts else np.empty(0, dtype=np.int8)
