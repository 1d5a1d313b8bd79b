"""Play a scenario in chunks, stream each chunk to Parquet, resume interrupted runs.

Game ``k`` depends only on ``(seed, k)`` and the scenario, so chunk size and thread
count change nothing but speed.  Each chunk's two parts are written atomically, then
the manifest records the chunk as done with each part's rows and checksum; a crash
between the two leaves at worst a part that ``--resume`` rewrites with identical
content, and ``--resume`` replays any recorded chunk whose part is damaged.  The output
directory is locked for the whole run (see results.lock_dir).
"""

from __future__ import annotations

import contextlib
import functools
import shutil
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

import numba
import numpy as np

from . import pipeline, results, seating
from .errors import UserError
from .metrics import Accumulator, summary_dict
from .results import MANIFEST, SCENARIO, SUMMARY
from .scenario import Scenario

ProgressFn = Callable[[int, int], None]  # (games done, games total)
# A decision rule told every block of games in order, from game 0: ``decide(first game,
# the block's games rows)`` returns None to go on, or how many of the block's games the
# run keeps and stops after (a sequential test: meta.sequential.MatchStop).
DecideFn = Callable[[int, np.ndarray], "int | None"]
EstimateFn = Callable[[float, int, int], None]  # (seconds still to play, bytes still to write, bytes free)
# A stop rule is asked after every multiple of this many games (whatever the chunk size,
# so where a run stops does not depend on it): a run stops at most this many games late.
STOP_STEP = 1_000


class RunError(UserError, RuntimeError):
    """A run that cannot start or continue (existing output, mismatched resume)."""


@dataclass
class RunResult:
    out_dir: Path | None
    accumulator: Accumulator
    games: int
    seconds: float
    resumed_from: int = 0
    replayed: int = 0  # damaged chunks played again on resume
    moved_aside: list = field(default_factory=list)  # files the manifest did not list, moved by --resume
    already_complete: bool = False  # resumed a complete run: nothing was left to play


# numba's prange schedule: iterations handed to a thread at a time, dynamically (with numba's
# default static split a thread delayed by other work, the run's Parquet writing, held up the
# whole call at its end; measured 309k -> 340k games/s for the bare Pirate's Peak kernel on 2
# threads).  The games' kernels are serial blocks now, handed out as dynamically by
# pirate_sim/blocks.py; this stays for a game plug-in's own prange kernel (neither the package
# nor its tests' toys have one).
PARALLEL_CHUNK = 1


def set_threads(threads: int | None) -> int:
    """Use ``threads`` numba threads (None: all); returns the number in use."""
    n = numba.config.NUMBA_NUM_THREADS
    numba.set_num_threads(max(1, min(threads or n, n)))
    numba.set_parallel_chunksize(PARALLEL_CHUNK)
    return numba.get_num_threads()


def n_chunks(total: int, chunk_size: int) -> int:
    return -(-total // chunk_size)


def chunk_span(c: int, total: int, chunk_size: int) -> tuple[int, int]:
    """Games [a, b) of chunk ``c`` (computed, never listed: a run may have billions of chunks)."""
    a = c * chunk_size
    return a, min(a + chunk_size, total)


def chunk_bounds(total: int, chunk_size: int) -> Iterator[tuple[int, int]]:
    """Every chunk's games [a, b), one at a time."""
    return (chunk_span(c, total, chunk_size) for c in range(n_chunks(total, chunk_size)))


def _meta(s: Scenario) -> dict[str, str]:
    return {
        "pirate_sim.game": s.game.name,
        "pirate_sim.rules_version": s.game.version,
        "pirate_sim.seed": str(s.seed),
        "pirate_sim.scenario_hash": s.hash(),
    }


def resume_settings(out_dir: Path) -> dict:
    """What ``--resume`` takes from a run's manifest: games, chunk size, seed, --set values, options."""
    out_dir = Path(out_dir)
    if not results.is_results_dir(out_dir):
        raise RunError(f"{out_dir}: no run to resume (no {MANIFEST}); start it without --resume")
    man = results.read_manifest(out_dir)
    return {"games": man["games"], "chunk_size": man["chunk_size"], "seed": man["seed"],
            "overrides": list(man.get("overrides", [])), "options": dict(man.get("options", {})),
            "source": man.get("scenario_source", ""), "complete": bool(man.get("complete"))}


def prepare_output(out_dir: Path, s: Scenario, games: int, resume: bool, force: bool,
                   moved: list | None = None) -> tuple[int, list[int]]:
    """Create or check the (locked) output directory; returns (chunks already done, damaged chunks to replay).

    On resume, files under games/ and seats/ that the manifest does not list are moved to
    ``.stray/`` (their new paths appended to ``moved``): no reader may count their rows."""
    out_dir = Path(out_dir)
    if not (resume and (out_dir / MANIFEST).exists()):  # resuming a run removes nothing
        results.refuse_overlap(out_dir, [] if s.source.startswith("<") else [s.source])
    if results.has_content(out_dir):
        has_manifest = (out_dir / MANIFEST).exists()
        if resume and has_manifest:
            man = results.read_manifest(out_dir)
            if man["scenario_hash"] != s.hash():
                from .user_strategy import changed_files

                changed = changed_files(man.get("strategy_files", []))
                if changed:
                    raise RunError(f"{out_dir}: cannot resume: {changed[0]}; use another -o DIR or --force")
                raise RunError(f"{out_dir}: holds results of a different scenario or seed "
                               f"(hash {man['scenario_hash']} vs {s.hash()}); use another -o DIR or --force")
            stopped_at = man.get("planned_games") == games and man.get("complete")
            if (man["games"] != games and not stopped_at) or man["chunk_size"] != s.run["chunk_size"]:
                raise RunError(f"{out_dir}: was started with {man['games']:,} games in chunks of "
                               f"{man['chunk_size']:,}; resume without --games (--resume takes both from the run)")
            results.remove_tmp(out_dir)
            strays = results.move_unlisted(out_dir, man)
            if moved is not None:
                moved.extend(strays)
            return int(man["chunks_done"]), results.damaged_chunks(out_dir, man)
        if not force:
            if has_manifest:
                man = results.read_manifest(out_dir)
                what = (f"a complete run of {man['games']:,} games" if man.get("complete") else
                        f"an unfinished run ({man['chunks_done']}/{man['chunks_total']} chunks; add --resume "
                        f"to finish it)")
            else:
                what = "files"
            raise RunError(f"{out_dir}: already holds {what}; refusing to overwrite without --force")
        results.clear_dir(out_dir)
    (out_dir / "games").mkdir(parents=True, exist_ok=True)
    (out_dir / "seats").mkdir(exist_ok=True)
    from .user_strategy import results_copy

    results.atomic_write_text(out_dir / SCENARIO, results_copy(s, out_dir).to_toml())
    return 0, []


def _manifest(s: Scenario, games: int, chunks_done: int, n_chunks: int, timings: dict, threads: int,
              parts: list, options: dict) -> dict:
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
        "versions": results.library_versions(),
        "seats": [seat["strategy"] for seat in s.seats],
        **({"strategy_files": s.strategy_files()} if s.user else {}),
        "options": options,
        "parts": parts,  # per chunk: {"games"|"seats": {"rows", "bytes", "sha256"}}
    }


def run(s: Scenario, out_dir: Path | None, games: int | None = None, threads: int | None = None,
        resume: bool = False, force: bool = False, progress: ProgressFn | None = None,
        stop_when: Callable[[Accumulator], bool] | None = None, options: dict | None = None,
        on_estimate: EstimateFn | None = None, cluster=None, decide: DecideFn | None = None) -> RunResult:
    """Play the scenario; with ``out_dir`` None nothing is written (used by check/compare).

    ``stop_when(acc)`` is asked every ``STOP_STEP`` games: a precision-targeted run stops
    as soon as it returns True (games then counts the games played; the last part is short).
    ``options`` (e.g. the precision target) are stored in the manifest for ``--resume``.
    ``on_estimate`` is told, after the second chunk played, what the rest will cost;
    a run whose rest cannot fit on the disk stops there (RunError, resumable).
    ``cluster`` (a :class:`pirate_sim.cluster.Cluster`) plays the chunks on Dask workers
    instead of this process's threads; everything else, files included, is the same.
    ``decide`` (a :data:`DecideFn`) sees every game in order, the games of a resumed run's
    chunks included, and stops the run at the game it names, whatever the chunk size or
    threads (games then counts the games played; the last part is short).  Its pieces
    start at ``decide.min_piece`` games (if it has one): a decision is seen soon.
    """
    games = int(games or s.run["games"])
    compiled = s.compile()
    used_threads = set_threads(threads) if cluster is None else cluster.n_slots
    with results.lock_dir(out_dir) if out_dir is not None else nullcontext():
        return _run_locked(s, compiled, None if out_dir is None else Path(out_dir), games, threads, used_threads,
                           resume, force, progress, stop_when, dict(options or {}), on_estimate, cluster, decide)


def chunk_source(s: Scenario, compiled, first_chunk: int, stop_chunk: int, games: int, threads: int | None,
                 cluster=None, min_piece: int | None = None):
    """The kernel's output for chunks ``first_chunk .. stop_chunk - 1``, as pipeline pieces
    in game order (a context manager): on this process's threads, a piece at a time ahead
    of the consumer, or on a Dask cluster, one chunk per task."""
    size = s.run["chunk_size"]
    spans = (chunk_span(c, games, size) for c in range(first_chunk, stop_chunk))
    if cluster is not None:
        return cluster.pieces(s, spans, first_chunk)
    return contextlib.closing(pipeline.pieces(spans, functools.partial(_play, s, compiled), first_chunk=first_chunk,
                                              setup=functools.partial(set_threads, threads), min_piece=min_piece))


def _run_locked(s, compiled, out_dir, games, threads, used_threads, resume, force, progress, stop_when, options,
                on_estimate, cluster, decide=None) -> RunResult:
    size = s.run["chunk_size"]
    total_chunks = n_chunks(games, size)
    rotate = seating.rotates(s.rules)
    acc = Accumulator(s.game, compiled.strategy_names, rotate)
    done, damaged = 0, []
    decided = False  # the decision rule stopped the run inside the chunks already done
    planned = None  # a run stopped early: the games it was started with (kept in its manifest)
    parts: list = []
    timings = {"play_seconds": 0.0, "write_seconds": 0.0}
    moved: list = []
    if out_dir is not None:
        done, damaged = prepare_output(out_dir, s, games, resume, force, moved)
        if done:
            old = results.read_manifest(out_dir)
            if old.get("complete") and old.get("planned_games") == games:
                planned = games
                games = int(old["games"])  # a run its rule stopped early: complete at that size
                total_chunks = n_chunks(games, size)
            timings = old.get("timings", timings)
            parts = list(old.get("parts") or [None] * done)[:done]
            options = {**old.get("options", {}), **options}
            for c in range(done):
                if c not in damaged:
                    arrays = results.arrays_from_tables(s.game, s.n_seats, results.read_part(out_dir, old, "games", c),
                                                        results.read_part(out_dir, old, "seats", c))
                    acc.update(*arrays, chunk_span(c, games, size)[0])
                    if decide is not None and not decided:
                        decided = decide(chunk_span(c, games, size)[0], arrays[0]) is not None
    meta = _meta(s)
    start = chunk_span(done - 1, games, size)[1] if done else 0
    played_to = start
    if decided:  # a run stopped by its decision and cut off before its manifest said so: nothing left to play
        played_to = start = chunk_span(done - 1, games, size)[0] + int(parts[done - 1]["games"]["rows"])

    def save_manifest(chunks_done: int) -> None:
        man = _manifest(s, games, chunks_done, total_chunks, timings, used_threads, parts, options)
        if planned is not None:
            man["planned_games"] = planned
        results.atomic_write_json(out_dir / MANIFEST, man)

    def new_part(c: int) -> results.PartWriter:
        a, b = chunk_span(c, games, size)
        last = c == total_chunks - 1  # small row groups: little left to write after the last game
        return results.PartWriter(out_dir, c, s.game, s.n_seats, a, b - a, meta, compiled.strategy_names, rotate,
                                  results.LAST_PART_ROW_GROUP_GAMES if last else None)

    def finish_part(c: int, part: results.PartWriter) -> None:
        rec = part.finish()
        timings["write_seconds"] += part.seconds
        if c < len(parts):
            parts[c] = rec
        else:
            parts.append(rec)

    if out_dir is not None:
        save_manifest(done)
    if progress:
        progress(start, games)
    t0 = time.perf_counter()
    part = None  # the Parquet part being written (its unfinished file is removed if the run stops)
    try:
        for c in damaged:  # recorded chunks whose part is damaged: played again (identical by construction)
            part = new_part(c)
            with chunk_source(s, compiled, c, c + 1, games, threads, cluster) as pieces:
                for piece in pieces:
                    timings["play_seconds"] += piece.seconds
                    acc.update(*piece.result, piece.start)
                    part.add(*piece.result)
            finish_part(c, part)
            part = None
            save_manifest(done)
        # the kernel plays the next piece of games while this loop accumulates and writes the last
        tc = time.perf_counter()
        first = total_chunks if decided else done
        with chunk_source(s, compiled, first, total_chunks, games, threads, cluster,
                          getattr(decide, "min_piece", None)) as pieces:
            for piece in pieces:
                out_games, out_seats = piece.result
                timings["play_seconds"] += piece.seconds
                if decide is not None:
                    keep = decide(piece.start, out_games)
                    if keep is not None:
                        out_games, out_seats = out_games[:keep], out_seats[:keep]
                used, stopped = _accumulate(acc, piece.start, out_games, out_seats, stop_when)
                if decide is not None and keep is not None:
                    stopped = True  # even at the run's last game: nothing of the rest is played
                stopped = stopped and piece.start + used < games
                played_to = piece.start + used
                c = piece.chunk
                if out_dir is not None:
                    if part is None:
                        part = new_part(c)
                    part.add(out_games[:used], out_seats[:used])
                    if piece.last or stopped:
                        finish_part(c, part)
                        part = None
                        save_manifest(c + 1)
                        # the second chunk played measures speed without the first call's compile or cache load
                        if c == done + 1 and c + 1 < total_chunks and not stopped:
                            _estimate(out_dir, parts[c], games, played_to, played_to - chunk_span(c, games, size)[0],
                                      time.perf_counter() - tc, on_estimate, fresh=not done and not damaged)
                        tc = time.perf_counter()
                if progress:
                    progress(played_to, games)
                if stopped:
                    break
    except Exception as exc:
        if out_dir is not None:
            _failed(out_dir, exc, fresh=not done and not damaged)
        raise
    except BaseException:  # a stop signal: what it cut short (a manifest's or a part's temporary) goes
        if out_dir is not None:
            results.remove_tmp(out_dir)  # the run holds the directory's lock: every temporary is its own
        raise
    finally:
        if part is not None:
            part.abort()
    elapsed = time.perf_counter() - t0
    if out_dir is not None:
        man = results.read_manifest(out_dir)
        if played_to < games:  # stopped early by a precision target or a decision: complete at this size
            man.update(games=played_to, chunks_total=man["chunks_done"], complete=True)
            man["planned_games"] = games  # --resume with the same games then finds it complete
        results.atomic_write_json(out_dir / MANIFEST, man)
        results.atomic_write_json(out_dir / SUMMARY, summary_dict(acc))
    return RunResult(out_dir, acc, played_to, elapsed, resumed_from=start, replayed=len(damaged),
                     already_complete=bool(done) and done >= total_chunks and not damaged, moved_aside=moved)


def _failed(out_dir: Path, exc: Exception, fresh: bool) -> None:
    """A run that stopped on an error (a strategy file's illegal answer, say): a fresh run
    with no chunk finished leaves nothing; otherwise the manifest records the error, so that
    verify reports the run failed instead of calling it intact."""
    try:
        man = results.read_manifest(out_dir) if (out_dir / MANIFEST).exists() else None
        if man is None or (fresh and not man["chunks_done"]):
            if fresh:
                results.clear_dir(out_dir)
            return
        man["failed"] = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        results.atomic_write_json(out_dir / MANIFEST, man)
    except (OSError, UserError):  # never hide the error that stopped the run behind this one
        pass


def _estimate(out_dir: Path, rec: dict, games: int, played_to: int, n_played: int, seconds: float,
              on_estimate: EstimateFn | None, fresh: bool = False) -> None:
    """Tell what the rest of the run will cost, from the chunk just written; refuse a rest
    that cannot fit on the disk.  A ``fresh`` run refused here removes what it wrote (nothing
    is left of a refused run); a resumed one stays resumable."""
    left = games - played_to
    disk_left = sum(r["bytes"] for r in rec.values()) / n_played * left
    free = shutil.disk_usage(out_dir).free
    if on_estimate is not None:
        on_estimate(seconds / n_played * left, int(disk_left), free)
    if disk_left > free:
        if fresh:
            results.clear_dir(out_dir)
        kept = "nothing was kept" if fresh else "--resume continues from here"
        raise RunError(f"{out_dir}: the remaining {left:,} games need about "
                       f"{human_bytes(disk_left)} on disk and only {human_bytes(free)} is "
                       f"free; use fewer games or another -o DIR ({kept})")


def human_bytes(n: float) -> str:
    for unit in ("B", "kB", "MB", "GB", "TB", "PB"):
        if abs(n) < 1000 or unit == "PB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} PB"


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
