"""Play a scenario in chunks, stream each chunk to Parquet, resume interrupted runs.

Game ``k`` depends only on ``(seed, k)`` and the scenario, so chunk size and thread
count change nothing but speed.  Each chunk's two parts are written atomically, then
the manifest records the chunk as done; a crash between the two leaves at worst a part
that ``--resume`` rewrites with identical content.
"""

from __future__ import annotations

import contextlib
import functools
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numba
import numpy as np

from . import pipeline, results, seating
from .metrics import Accumulator, summary_dict
from .results import MANIFEST, SCENARIO, SUMMARY
from .scenario import Scenario

ProgressFn = Callable[[int, int], None]  # (games done, games total)
# A stop rule is asked after every multiple of this many games (whatever the chunk size,
# so where a run stops does not depend on it): a run stops at most this many games late.
STOP_STEP = 1_000


class RunError(RuntimeError):
    """A run that cannot start or continue (existing output, mismatched resume)."""


@dataclass
class RunResult:
    out_dir: Path | None
    accumulator: Accumulator
    games: int
    seconds: float
    resumed_from: int = 0


def set_threads(threads: int | None) -> int:
    """Use ``threads`` numba threads (None: all); returns the number in use."""
    n = numba.config.NUMBA_NUM_THREADS
    numba.set_num_threads(max(1, min(threads or n, n)))
    return numba.get_num_threads()


def chunk_bounds(total: int, chunk_size: int) -> list[tuple[int, int]]:
    return [(a, min(a + chunk_size, total)) for a in range(0, total, chunk_size)]


def _meta(s: Scenario) -> dict[str, str]:
    return {
        "pirate_sim.game": s.game.name,
        "pirate_sim.rules_version": s.game.version,
        "pirate_sim.seed": str(s.seed),
        "pirate_sim.scenario_hash": s.hash(),
    }


def prepare_output(out_dir: Path, s: Scenario, games: int, resume: bool, force: bool) -> int:
    """Create or check the output directory; returns the number of chunks already done."""
    out_dir = Path(out_dir)
    if out_dir.exists() and any(out_dir.iterdir()):
        if resume and (out_dir / MANIFEST).exists():
            man = results.read_manifest(out_dir)
            if man["scenario_hash"] != s.hash():
                raise RunError(f"{out_dir}: holds results of a different scenario or seed "
                               f"(hash {man['scenario_hash']} vs {s.hash()}); use another -o DIR or --force")
            if man["games"] != games or man["chunk_size"] != s.run["chunk_size"]:
                raise RunError(f"{out_dir}: was started with {man['games']} games in chunks of "
                               f"{man['chunk_size']}; resume with the same --games and chunk size")
            return int(man["chunks_done"])
        if not force:
            what = "an unfinished run (add --resume to finish it)" if (out_dir / MANIFEST).exists() else "files"
            raise RunError(f"{out_dir}: already holds {what}; refusing to overwrite without --force")
        shutil.rmtree(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "games").mkdir(exist_ok=True)
    (out_dir / "seats").mkdir(exist_ok=True)
    results.atomic_write_text(out_dir / SCENARIO, s.to_toml())
    return 0


@functools.cache
def _versions() -> dict[str, str]:
    return results.library_versions()


def _manifest(s: Scenario, games: int, chunks_done: int, n_chunks: int, timings: dict, threads: int) -> dict:
    return {
        "format_version": results.FORMAT_VERSION,
        "game": s.game.name,
        "rules_version": s.game.version,
        "title": s.title,
        "scenario_source": s.source,
        "overrides": s.overrides,
        "scenario_hash": s.hash(),
        "seed": s.seed,
        "games": games,
        "chunk_size": s.run["chunk_size"],
        "chunks_total": n_chunks,
        "chunks_done": chunks_done,
        "complete": chunks_done == n_chunks,
        "threads": threads,
        "timings": timings,
        "versions": _versions(),
        "seats": [seat["strategy"] for seat in s.seats],
    }


def run(s: Scenario, out_dir: Path | None, games: int | None = None, threads: int | None = None,
        resume: bool = False, force: bool = False, progress: ProgressFn | None = None,
        stop_when: Callable[[Accumulator], bool] | None = None) -> RunResult:
    """Play the scenario; with ``out_dir`` None nothing is written (used by check/compare).

    ``stop_when(acc)`` is asked every ``STOP_STEP`` games: a precision-targeted run stops
    as soon as it returns True (games then counts the games played; the last part is short).
    """
    games = int(games or s.run["games"])
    compiled = s.compile()
    used_threads = set_threads(threads)
    bounds = chunk_bounds(games, s.run["chunk_size"])
    rotate = seating.rotates(s.rules)
    acc = Accumulator(s.game, compiled.strategy_names, rotate)
    done = 0
    if out_dir is not None:
        out_dir = Path(out_dir)
        done = prepare_output(out_dir, s, games, resume, force)
        for g_tab, s_tab in results.iter_parts(out_dir) if done else ():
            acc.update(*results.arrays_from_tables(s.game, s.n_seats, g_tab, s_tab))
    meta = _meta(s)
    start = bounds[done - 1][1] if done else 0
    played_to = start
    timings = {"play_seconds": 0.0, "write_seconds": 0.0}
    if out_dir is not None:
        if done:
            timings = results.read_manifest(out_dir).get("timings", timings)
        results.atomic_write_json(out_dir / MANIFEST, _manifest(s, games, done, len(bounds), timings, used_threads))
    if progress:
        progress(start, games)
    t0 = time.perf_counter()
    # the kernel plays the next piece of games while this loop accumulates and writes the last
    play = functools.partial(_play, s, compiled)
    part = None  # the Parquet part being filled
    with contextlib.closing(pipeline.pieces(bounds[done:], play, first_chunk=done,
                                            setup=functools.partial(set_threads, threads))) as pieces:
        for piece in pieces:
            out_games, out_seats = piece.result
            timings["play_seconds"] += piece.seconds
            used, stopped = _accumulate(acc, piece.start, out_games, out_seats, stop_when)
            stopped = stopped and piece.start + used < games
            played_to = piece.start + used
            if out_dir is not None:
                if part is None:
                    a, b = bounds[piece.chunk]
                    part = results.PartBuilder(s.game, s.n_seats, a, b - a)
                part.add(out_games[:used], out_seats[:used])
                if piece.last or stopped:
                    tw = time.perf_counter()
                    c = piece.chunk
                    results.write_table(out_dir / "games" / results.part_name(c), part.games_table(meta))
                    results.write_table(out_dir / "seats" / results.part_name(c),
                                        part.seats_table(compiled.strategy_names, meta, rotate))
                    timings["write_seconds"] += time.perf_counter() - tw
                    results.atomic_write_json(out_dir / MANIFEST,
                                              _manifest(s, games, c + 1, len(bounds), timings, used_threads))
                    part = None
            if progress:
                progress(played_to, games)
            if stopped:
                break
    elapsed = time.perf_counter() - t0
    if out_dir is not None:
        man = results.read_manifest(out_dir)
        if played_to < games:  # stopped early by a precision target: the run is complete at this size
            man.update(games=played_to, chunks_total=man["chunks_done"], complete=True)
        results.atomic_write_json(out_dir / MANIFEST, man)
        results.atomic_write_json(out_dir / SUMMARY, summary_dict(acc))
    return RunResult(out_dir, acc, played_to, elapsed, resumed_from=start)


def _play(s: Scenario, compiled, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
    return s.game.play(compiled, s.seed, start, stop - start)


def _accumulate(acc: Accumulator, start: int, out_games: np.ndarray, out_seats: np.ndarray,
                stop_when: Callable[[Accumulator], bool] | None) -> tuple[int, bool]:
    """Add games ``start ..`` to ``acc``; with a stop rule, in steps ending on multiples of
    STOP_STEP, asking it after each such multiple.  Returns (games added, whether to stop)."""
    n = out_games.shape[0]
    if stop_when is None:
        acc.update(out_games, out_seats, start)
        return n, False
    cuts = list(range((start // STOP_STEP + 1) * STOP_STEP - start, n + 1, STOP_STEP))
    lo = 0
    for hi in cuts + ([n] if not cuts or cuts[-1] < n else []):
        acc.update(out_games[lo:hi], out_seats[lo:hi], start + lo)
        lo = hi
        if (start + hi) % STOP_STEP == 0 and stop_when(acc):
            return hi, True
    return n, False


def load_accumulator(out_dir: Path):
    """The accumulator stored in a finished run's summary, with its game."""
    from .games import get_game

    man = results.read_manifest(out_dir)
    game = get_game(man["game"])
    data = results.read_summary(out_dir)["accumulator"]
    return Accumulator.from_json(game, data)


def play_arrays(s: Scenario, first_game: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Kernel output for games first_game .. first_game+n-1 (no files)."""
    return s.game.play(s.compile(), s.seed, first_game, n)
