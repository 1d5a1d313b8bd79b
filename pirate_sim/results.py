"""The results directory: Parquet schema, atomic writes, manifest, reading back.

Layout of a run's output directory::

    scenario.toml           resolved scenario, every default filled in
    manifest.json           versions, seed, hash, games, chunks done, timings
    games/part-NNNNN.parquet  one row per game
    seats/part-NNNNN.parquet  one row per game and seat
    summary.json            metrics with confidence intervals (+ raw accumulator)

Every file is written to a temporary name in the same directory, fsynced and renamed,
so an interrupted run never leaves a truncated file under a final name.
"""

from __future__ import annotations

import json
import os
import platform
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .games.base import N_STD_GAME_COLUMNS, Game

MANIFEST = "manifest.json"
SUMMARY = "summary.json"
SCENARIO = "scenario.toml"
FORMAT_VERSION = 1  # bump when the directory layout or schema changes incompatibly


@contextmanager
def atomic_path(path: Path) -> Iterator[str]:
    """A temporary file beside ``path`` to write; on success it is synced to disk and renamed
    over ``path`` (readers see the old file or the new one, never a half-written one); on
    any error it is removed."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        yield tmp
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
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


def _int_array(values: np.ndarray, dtype: str) -> pa.Array:
    if dtype == "bool":
        return pa.array(values.astype(bool))
    return pa.array(values.astype(dtype))


def _dict_array(codes: np.ndarray, labels: tuple[str, ...]) -> pa.Array:
    return pa.DictionaryArray.from_arrays(pa.array(codes.astype(np.int8)), pa.array(list(labels), pa.string()))


def games_table(game: Game, first_game: int, out_games: np.ndarray, meta: dict[str, str]) -> pa.Table:
    """One row per game: index, winner (null: nobody), turns, how it ended, truncated, ..."""
    n = out_games.shape[0]
    winner = out_games[:, 0]
    cols = {
        "game": pa.array(np.arange(first_game, first_game + n, dtype=np.int64)),
        "winner": pa.array(winner.astype(np.int8), mask=winner < 0),
        "turns": _int_array(out_games[:, 1], "int32" if out_games[:, 1].max(initial=0) >= 32_000 else "int16"),
        "end_reason": _dict_array(out_games[:, 2], game.end_reasons),
        "truncated": _int_array(out_games[:, 3], "bool"),
        "first_seat": _int_array(out_games[:, 4], "int8"),
    }
    for j, c in enumerate(game.game_columns):
        v = out_games[:, N_STD_GAME_COLUMNS + j]
        cols[c.name] = _dict_array(v, c.labels) if c.labels else _int_array(v, c.dtype)
    return pa.table(cols).replace_schema_metadata(meta)


def seats_table(game: Game, first_game: int, out_games: np.ndarray, out_seats: np.ndarray,
                strategy_names: tuple[str, ...], meta: dict[str, str]) -> pa.Table:
    """One row per game and seat: seat, strategy, won, then the game's seat columns."""
    n, s, _ = out_seats.shape
    seat_idx = np.tile(np.arange(s, dtype=np.int8), n)
    game_idx = np.repeat(np.arange(first_game, first_game + n, dtype=np.int64), s)
    strat_labels = tuple(dict.fromkeys(strategy_names))
    strat_codes = np.array([strat_labels.index(x) for x in strategy_names], dtype=np.int8)
    won = (out_games[:, 0][:, None] == np.arange(s)[None, :]).reshape(-1)
    cols = {
        "game": pa.array(game_idx),
        "seat": pa.array(seat_idx),
        "strategy": _dict_array(np.tile(strat_codes, n), strat_labels),
        "won": pa.array(won),
    }
    flat = out_seats.reshape(n * s, -1)
    for j, c in enumerate(game.seat_columns):
        v = flat[:, j]
        cols[c.name] = _dict_array(v, c.labels) if c.labels else _int_array(v, c.dtype)
    return pa.table(cols).replace_schema_metadata(meta)


def write_table(path: Path, table: pa.Table) -> None:
    """Write a Parquet file atomically (temporary file in the same folder, then rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, compression="zstd")


def library_versions() -> dict[str, str]:
    from importlib.metadata import version

    import matplotlib
    import numba
    import pandas

    from . import __version__

    return {
        "pirate_sim": __version__,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "pyarrow": pa.__version__,
        "pandas": pandas.__version__,
        "matplotlib": matplotlib.__version__,
        "click": version("click"),
        "machine": platform.machine(),
    }


def read_manifest(out_dir: Path) -> dict:
    return json.loads((Path(out_dir) / MANIFEST).read_text())


def read_summary(out_dir: Path) -> dict:
    return json.loads((Path(out_dir) / SUMMARY).read_text())


def is_results_dir(path: Path) -> bool:
    return (Path(path) / MANIFEST).exists()


def iter_parts(out_dir: Path, columns_games=None, columns_seats=None) -> Iterator[tuple[pa.Table, pa.Table]]:
    """Yield (games, seats) tables chunk by chunk, in game order: memory stays one chunk."""
    yield from zip(iter_table(out_dir, "games", columns_games), iter_table(out_dir, "seats", columns_seats))


def iter_table(out_dir: Path, kind: str, columns=None) -> Iterator[pa.Table]:
    """Yield one table's parts (``kind``: "games" or "seats") in game order, reading only ``columns``.

    Nothing here keeps a part once it is yielded, so a reader that drops each part before
    asking for the next holds one part at a time, whatever the number of games.
    """
    out_dir = Path(out_dir)
    for c in range(read_manifest(out_dir)["chunks_done"]):
        yield pq.read_table(out_dir / kind / part_name(c), columns=columns)


def read_games(out_dir: Path, columns=None):
    """All games as a pandas DataFrame (use iter_parts for very large runs)."""
    return pq.read_table(Path(out_dir) / "games", columns=columns).to_pandas()


def read_seats(out_dir: Path, columns=None):
    return pq.read_table(Path(out_dir) / "seats", columns=columns).to_pandas()


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
