"""Compile ahead (pirate_sim/ahead.py): a kernel the helper process has started compiling is
loaded from numba's cache once the helper saved it, not compiled a second time here; a helper
that dies ends the wait; only a table that asks a seat, in a game with a scripted kernel of its
own, starts one.  Real processes, real numba caches, a real claims file."""

import importlib.util
import os
import subprocess
import sys
import time

import pytest
from numba.core import caching, event

from pirate_sim import ahead, contract
from pirate_sim import scenario as scen

KERNEL = """
from numba import njit


@njit(cache=True)
def triple(x):
    return 3 * x
"""

# The helper's side, as `python -m pirate_sim.warm GAME --what play` runs it (ahead.record_claims),
# on a toy kernel whose machine code reaches the cache 2 s after its compile starts (or never:
# argv[2] == "die", a helper that fails mid-compile).
HELPER = """
import importlib.util, os, sys, time
import pirate_sim  # numba's cache where the package keeps it
from numba.core import caching
from pirate_sim import ahead

ahead.record_claims()
save = caching.Cache.save_overload


def slow_save(cache, sig, data):
    if sys.argv[2] == "die":
        os._exit(3)
    time.sleep(2.0)
    save(cache, sig, data)


caching.Cache.save_overload = slow_save
name = os.path.basename(sys.argv[1])[:-3]
spec = importlib.util.spec_from_file_location(name, sys.argv[1])
m = sys.modules[name] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
m.triple(2)
"""


def _load_toy(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)  # importable by name, as numba's cache wants
    m = sys.modules[path.stem] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


class _Compiles(event.Listener):
    def __init__(self):
        self.names = []

    def on_start(self, ev):
        self.names.append(ev.data["dispatcher"].py_func.__name__)

    def on_end(self, ev):
        pass


def _helper(tmp_path, how):
    kernel = tmp_path / f"ahead_toy_{how}.py"  # a file of its own: a cache of its own
    kernel.write_text(KERNEL, encoding="utf-8")
    script = tmp_path / "helper.py"
    script.write_text(HELPER, encoding="utf-8")
    claims = tmp_path / "claims.txt"
    claims.write_text("", encoding="utf-8")
    proc = subprocess.Popen([sys.executable, str(script), str(kernel), how],
                            env=dict(os.environ, **{ahead.CLAIMS_ENV: str(claims)}))
    h = ahead.Helper(proc, claims)
    t = time.monotonic()
    while "start " not in claims.read_text(encoding="utf-8"):  # the helper is compiling the toy now
        assert proc.poll() is None and time.monotonic() - t < 120, "the helper never started its compile"
        time.sleep(0.02)
    return h, kernel


@pytest.mark.parametrize("how", ["saves", "die"])
def test_a_kernel_the_helper_compiles_is_loaded_here_not_compiled_again(tmp_path, how):
    original = caching.Cache.load_overload
    h, kernel = _helper(tmp_path, how)
    seen = _Compiles()
    event.register("numba:compile", seen)
    try:
        m = _load_toy(kernel)
        assert m.triple(7) == 21
        claims = h.claims.read_text(encoding="utf-8")
    finally:
        event.unregister("numba:compile", seen)
        h.end()
    if how == "saves":  # waited for the helper's machine code, then loaded it
        assert "triple" not in seen.names and "saved " in claims
    else:  # the helper died before saving: the wait ended and this process compiled it
        assert h.proc.returncode == 3 and "triple" in seen.names and "saved " not in claims
    assert h.proc.poll() is not None, "the helper outlived the compile"
    assert not h.claims.exists() and caching.Cache.load_overload is original


def _idle_helper(tmp_path, claims_text):
    """A helper process that claims what ``claims_text`` says and then only sleeps."""
    claims = tmp_path / "claims.txt"
    claims.write_text(claims_text, encoding="utf-8")
    return ahead.Helper(subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"]), claims)


@pytest.mark.parametrize("claimed, limit, least, most", [
    ("/somewhere/else.nbi", 600.0, 0.0, 1.0),  # a kernel the helper never started: no wait at all
    ("/the/kernel.nbi", 0.5, 0.5, 10.0),  # claimed, never saved, the helper alive (stuck): the limit
], ids=["never started", "stuck helper"])
def test_no_wait_for_a_kernel_the_helper_never_started_nor_past_the_limit(tmp_path, monkeypatch, claimed, limit,
                                                                         least, most):
    monkeypatch.setattr(ahead, "_MAX_WAIT", limit)
    h = _idle_helper(tmp_path, f"start {claimed}\n")
    t = time.monotonic()
    try:
        assert h.wait_for("/the/kernel.nbi") is False
        waited = time.monotonic() - t
    finally:
        h.end()
    assert least <= waited < most and h.proc.poll() is not None  # and the helper stopped, not waited out


@pytest.mark.parametrize("game, seat, starts", [
    ("pirates_peak", "expert", False),  # every seat scripted: the scripted kernel itself
    ("ice_pirates", "search", False),  # no scripted kernel of its own (no play_unasked_nb)
])
def test_only_a_table_that_asks_a_seat_in_a_game_with_a_scripted_kernel_starts_a_helper(game, seat, starts):
    s = scen.load(f"scenarios/{game}/default.toml", [f"seats.0.strategy={seat}"])
    c = s.compile()
    g = s.game
    helper = contract.compile_ahead(g.engine(), g, g.engine_tables(c), g.engine_files(c))
    assert (helper is not None) == starts


def test_a_command_that_leaves_at_once_ends_its_helpers_first(tmp_path):
    """cli/common.py leaves with os._exit while a kernel thread still compiles (a ``finally``
    there never runs): end_all is what stops the helper then."""
    h = _idle_helper(tmp_path, "")
    assert h in ahead._live
    ahead.end_all()
    assert h.proc.poll() is not None and h not in ahead._live and not h.claims.exists()


def _enabled_here() -> bool:
    return ahead.ENABLED


def test_warms_pool_workers_start_no_helper_and_the_caller_still_may():
    """warm's pool keeps every core busy (a helper would be a third process); its initializer
    turns helpers off in the workers only, never in the process that called warm."""
    import concurrent.futures as cf
    import multiprocessing

    from pirate_sim import warm

    ctx = multiprocessing.get_context("spawn")
    with cf.ProcessPoolExecutor(max_workers=1, mp_context=ctx, initializer=warm._pool_worker) as pool:
        assert pool.submit(_enabled_here).result() is False
    assert ahead.ENABLED is True
