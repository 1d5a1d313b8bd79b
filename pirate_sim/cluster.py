"""Play chunks of games on a Dask cluster: one chunk of games is one task.

A task is (resolved scenario as TOML text, first game, number of games): game k depends
only on (seed, k), so a chunk's output is the same on any worker, and the client writes
the Parquet parts exactly as a local run does.  Workers need no shared filesystem: the
kernel's output arrays come back to the client, which alone writes the output directory
(atomic parts, manifest, lock).  That keeps every guarantee of a local run (resume,
verification, one writer) and works on Kubernetes pods without a shared volume; the
price is that the client's Parquet writing bounds the cluster's throughput (see
docs/cluster.md for the measured write rate).

Dask is imported only when a cluster is asked for; without ``--cluster`` nothing here
runs.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from . import _cache
from .errors import UserError

ENV_VAR = "PIRATE_SIM_CLUSTER"
CONNECT_TIMEOUT_S = 10  # how long to wait for a scheduler before calling it unreachable
# Chunks in flight per worker: enough to keep every worker busy while the client writes,
# few enough that memory stays flat (each finished chunk waits on the client until written).
IN_FLIGHT_PER_WORKER = 2
# Memory a local worker process needs: a warmed one (Python, numba, Dask, one game's
# kernels) measured 180 MB resident, plus its chunks in flight; `local:N` starts no more
# workers than the free memory holds at this size, nor more than the usable cores.
WORKER_MEMORY_BYTES = 300 * 10**6


class ClusterError(UserError, RuntimeError):
    """The cluster cannot be reached, lost, or runs other code than the client."""


def resolve_address(option: str | None) -> str | None:
    """The ``--cluster`` value, else $PIRATE_SIM_CLUSTER, else None (no cluster)."""
    source = "--cluster" if option else f"${ENV_VAR}"
    value = option if option else os.environ.get(ENV_VAR, "").strip() or None
    if value is None:
        return None
    if value.startswith("local"):
        if value == "local" or re.fullmatch(r"local:[1-9][0-9]*", value):
            return value
    elif "://" in value or re.fullmatch(r"[A-Za-z0-9_.\-]+:[0-9]+", value):
        return value
    raise ClusterError(f"{source} {value!r}: expected 'local', 'local:N' (N worker processes) "
                       "or a scheduler address such as tcp://host:8786")


def _usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _free_memory() -> int | None:
    """Bytes of memory available to new processes (None: unknown)."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def local_workers(asked: int, cores: int | None = None, free: int | None = None) -> tuple[int, str | None]:
    """How many local worker processes to start for ``local:asked``: at most one per usable
    core and what the free memory holds at WORKER_MEMORY_BYTES each.  Returns (workers, the
    line saying why fewer than asked, or None).  Results do not depend on the count."""
    cores = _usable_cores() if cores is None else cores
    free = _free_memory() if free is None else free
    cap = cores
    why = f"{cores} usable cores"
    if free is not None:
        by_memory = max(1, free // WORKER_MEMORY_BYTES)
        why += f", {free / 1e9:.1f} GB free at {WORKER_MEMORY_BYTES / 1e6:.0f} MB a worker"
        cap = min(cap, by_memory)
    cap = max(1, cap)
    if asked <= cap:
        return asked, None
    return cap, (f"--cluster local:{asked}: this machine holds {cap} local workers ({why}); starting {cap} "
                 f"(more processes than cores only add memory; results are identical)")


def code_identity(game: str | None = None) -> dict[str, str]:
    """What must be equal on client and workers: the package version and sources, and
    the rules VERSION of the game being played."""
    from ._version import __version__

    ident = {"pirate_sim": __version__, "sources": _cache.source_digest()}
    if game is not None:
        from .games import get_game

        ident[game] = get_game(game).version
    return ident


# ------------------------------------------------------------------ worker side
_SCENARIOS: dict[str, tuple] = {}  # scenario hash -> (Scenario, Compiled), per worker process


def _worker_scenario(toml_text: str, expect_hash: str, user_sources: dict | None = None):
    """The compiled scenario of a task, built once per worker process and hash-checked.
    ``user_sources`` (spec -> (text, SHA-256)): the client's strategy files, which the
    worker checks against their SHA-256 (and the scenario hash counts) like the package's."""
    hit = _SCENARIOS.get(expect_hash)
    if hit is None:
        import tomllib

        from . import scenario as scen

        s = scen.from_dict(tomllib.loads(toml_text), source="<cluster task>", user_sources=user_sources)
        if s.hash() != expect_hash:
            raise ClusterError(f"worker rebuilt scenario hash {s.hash()}, client has {expect_hash}")
        hit = (s, s.compile())
        if len(_SCENARIOS) > 64:  # a long sweep: keep the cache bounded
            _SCENARIOS.clear()
        _SCENARIOS[expect_hash] = hit
    return hit


def play_task(toml_text: str, scenario_hash: str, first_game: int, n_games: int, user_sources: dict | None = None):
    """One task: games first_game .. first_game + n_games - 1 of the scenario."""
    import numba

    numba.set_num_threads(1)  # a worker runs one task per thread: no oversubscription
    s, compiled = _worker_scenario(toml_text, scenario_hash, user_sources)
    return s.game.play(compiled, s.seed, first_game, n_games)


def strategy_identity(s) -> dict[str, str]:
    """The strategy files' SHA-256 by seat spec (what client and workers must agree on)."""
    return {f"strategy {spec}": u.sha256 for spec, u in s.user.items()}


def warm_task(toml_text: str, scenario_hash: str, user_sources: dict | None = None) -> dict[str, str]:
    """Compile (or load from cache) the scenario's kernel once, before any real work."""
    s, compiled = _worker_scenario(toml_text, scenario_hash, user_sources)
    s.game.play(compiled, s.seed, 0, 1)
    return {**code_identity(s.game.name), **strategy_identity(s)}


# ------------------------------------------------------------------ client side
@dataclass
class Cluster:
    """A connected Dask client (and the LocalCluster it owns, for ``local:N``)."""

    address: str
    client: object
    local: object | None = None
    note: str | None = None  # what connecting decided for the user (local:N capped), one line

    @property
    def n_workers(self) -> int:
        return max(1, len(self.client.scheduler_info().get("workers", {})))

    @property
    def n_slots(self) -> int:
        """Tasks that can run at once: the sum of the workers' threads."""
        workers = self.client.scheduler_info().get("workers", {})
        return max(1, sum(int(w.get("nthreads", 1)) for w in workers.values()))

    def close(self) -> None:
        try:
            self.client.close()
        finally:
            if self.local is not None:
                self.local.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- work ------------------------------------------------------------------
    def prepare(self, scenarios) -> None:
        """Check workers run the client's code, and warm each scenario's kernel on every
        worker (one compile or cache load per process, not a cache stampede mid-run)."""
        for s in scenarios:
            want = {**code_identity(s.game.name), **strategy_identity(s)}
            text, h = s.to_toml(with_docs=False), s.hash()
            try:
                got = self.client.run(warm_task, text, h, s.user_sources() or None)
            except Exception as exc:  # noqa: BLE001 - a worker's import or compile error
                raise ClusterError(f"cluster {self.address}: warming the kernels failed on a worker: {exc}") from None
            for worker, ident in got.items():
                if ident != want:
                    diff = {k: (want.get(k), ident.get(k)) for k in set(want) | set(ident) if want.get(k) != ident.get(k)}
                    raise ClusterError(f"cluster {self.address}: worker {worker} runs other code than this client "
                                       f"({', '.join(f'{k}: client {a}, worker {b}' for k, (a, b) in sorted(diff.items()))}); "
                                       "install the same pirate-sim on every worker")

    def play_chunks(self, s, chunks: Iterable[tuple[int, int, int]]) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
        """Yield ``(chunk, out_games, out_seats)`` in chunk order for ``(chunk, first, n)``.

        At most ``IN_FLIGHT_PER_WORKER`` chunks per worker slot are submitted ahead of the
        one being yielded, so memory stays flat however many chunks there are.  A worker
        that dies costs only its tasks: Dask runs them again elsewhere.
        """
        for c, _first, _n, out, _seconds in self._results(s, chunks):
            yield c, out[0], out[1]

    def pieces(self, s, spans: Iterable[tuple[int, int]], first_chunk: int = 0):
        """The runner's chunk source on the cluster: pipeline pieces, one whole chunk each,
        for the chunks ``first_chunk, first_chunk + 1, ...`` whose games are ``spans``."""
        from contextlib import closing

        from .pipeline import Piece

        def gen():
            chunks = ((c, a, b - a) for c, (a, b) in enumerate(spans, start=first_chunk))
            for c, a, n, out, seconds in self._results(s, chunks):
                yield Piece(c, a, a + n, True, out, seconds)

        return closing(gen())

    def _results(self, s, chunks):
        from distributed import wait

        text, h = s.to_toml(with_docs=False), s.hash()
        sources = s.user_sources() or None
        window = IN_FLIGHT_PER_WORKER * self.n_slots
        pending: dict[int, tuple] = {}
        order: list[int] = []
        it = iter(chunks)

        def submit_more():
            while len(pending) < window:
                try:
                    c, first, n = next(it)
                except StopIteration:
                    return
                fut = self.client.submit(play_task, text, h, int(first), int(n), sources, pure=False,
                                         key=f"pirate-sim-{h}-{c}-{first}-{n}", retries=2)
                pending[c] = (fut, int(first), int(n), time.perf_counter())
                order.append(c)

        try:
            submit_more()
            while order:
                c = order.pop(0)
                fut, first, n, t_sub = pending.pop(c)
                try:
                    wait(fut)
                    out = fut.result()
                except Exception as exc:  # noqa: BLE001
                    self._raise_lost(exc)
                submit_more()
                yield c, first, n, out, time.perf_counter() - t_sub
        finally:  # stopped early (a precision target, Ctrl-C): drop the chunks still queued
            for fut, *_ in pending.values():
                fut.cancel()

    def _raise_lost(self, exc: BaseException):
        if self.client.status in ("closed", "closing") or isinstance(exc, (OSError, TimeoutError)):
            raise ClusterError(f"lost the cluster at {self.address}: {exc}") from None
        raise ClusterError(f"a task failed on the cluster at {self.address}: {type(exc).__name__}: {exc}") from None


def connect(address: str, n_local_default: int | None = None) -> Cluster:
    """Connect to ``address`` ('local', 'local:N' or a scheduler address)."""
    try:
        import dask  # noqa: F401
        from distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError("--cluster needs Dask: pip install 'dask[distributed]'") from None
    import dask.config

    # a killed worker's tasks are retried, but a task that kills every worker is a bug
    dask.config.set({"distributed.scheduler.allowed-failures": 3})
    if address.startswith("local"):
        n = int(address.split(":", 1)[1]) if ":" in address else (n_local_default or _usable_cores())
        n, note = local_workers(n)
        try:
            local = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                                 silence_logs=40)
            client = Client(local)
        except Exception as exc:  # noqa: BLE001
            raise ClusterError(f"could not start a local cluster of {n} workers: {exc}") from None
        return Cluster(address, client, local, note=note)
    try:
        client = Client(address, timeout=f"{CONNECT_TIMEOUT_S}s")
    except Exception as exc:  # noqa: BLE001 - OSError, TimeoutError, ValueError for a bad address
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    return Cluster(address, client)
