"""SIGINT and SIGTERM stop every command the same way (pirate_sim.cli.common.stop_signals).

The real CLI in a subprocess, started the way scripts, CI steps and pytest-xdist workers
start it: with SIGINT inherited as ignored (Python keeps an inherited SIG_IGN, so before
the fix `run`, `check` and `compare` played to the end) - and SIGTERM, which used to kill
without the clean stop.  Exit 130 / 143 within seconds, no unfinished file, `run --resume`
then completes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
LAUNCH = (f"import sys; sys.path.insert(0, {str(TESTS)!r}); "
          "from pirate_sim.games import GAME_MODULES; GAME_MODULES['dice_duel'] = 'toy_game'; "
          "from pirate_sim.cli import main; sys.argv[0] = 'pirate-sim'; main()")
BIG = 100_000_000  # games: no run of this size ends before the signal
STOP_S = 5.0  # a stop takes at most this long


def _ignore_sigint():
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _cli(*args, ignore_sigint=True) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-c", LAUNCH, *map(str, args)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_ignore_sigint if ignore_sigint else None)


def _stop(proc: subprocess.Popen, sig: int, started) -> tuple[int, float, str]:
    """Wait until ``started()``, send ``sig``; (exit code, seconds to stop, stderr)."""
    t_end = time.monotonic() + 900  # a cold compile of a strategy file's kernel: minutes
    while not started():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < t_end, "never started"
        time.sleep(0.1)
    time.sleep(1.0)  # well into the games
    assert proc.poll() is None, proc.communicate()
    t = time.monotonic()
    proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
        pytest.fail(f"did not stop on signal {sig}: {err}")
    return proc.returncode, time.monotonic() - t, err


def _after(seconds: float):
    t = time.monotonic() + seconds
    return lambda: time.monotonic() > t


@pytest.fixture
def big_scenario(toy_scenario_file):
    """The toy scenario with 100,000-game chunks, its kernel compiled by a small run first."""
    path = toy_scenario_file.parent / "big.toml"
    path.write_text(toy_scenario_file.read_text().replace("chunk_size = 1000", "chunk_size = 100000"))
    warm = _cli("run", path, "-n", 1000, "-o", path.parent / "warm", "-q")
    assert warm.wait(timeout=600) == 0, warm.communicate()
    return path


CODES = {signal.SIGINT: 130, signal.SIGTERM: 143}


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("ignored", [True, False], ids=["inherited-ignore", "default"])
def test_run_stops_cleanly_and_resumes(tmp_path, big_scenario, sig, ignored):
    out = tmp_path / "r"
    proc = _cli("run", big_scenario, "-n", BIG, "-o", out, "-q", ignore_sigint=ignored)
    code, took, err = _stop(proc, sig, lambda: (out / "manifest.json").exists())
    assert code == CODES[sig], err
    assert took < STOP_S, took
    assert "--resume" in err and "Traceback" not in err, err
    assert not list(out.rglob("*.tmp*")), list(out.rglob("*"))
    man = json.loads((out / "manifest.json").read_text())
    assert not man["complete"]
    # the stopped run finishes with --resume (a smaller copy of it: same games, fewer of them)
    man.update(games=man["chunk_size"] * (man["chunks_done"] + 1), chunks_total=man["chunks_done"] + 1)
    (out / "manifest.json").write_text(json.dumps(man))
    done = _cli("run", big_scenario, "-o", out, "--resume", "-q")
    assert done.wait(timeout=300) == 0, done.communicate()
    assert json.loads((out / "manifest.json").read_text())["complete"]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_compare_stops_cleanly(big_scenario, sig):
    proc = _cli("compare", big_scenario, "--set", "rules.target=12", "-n", BIG, "-q")
    code, took, err = _stop(proc, sig, _after(3.0))
    assert code == CODES[sig], err
    assert took < STOP_S, took
    assert err.strip().startswith("error: interrupted"), err


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_check_stops_cleanly_and_writes_nothing(tmp_path, big_scenario, sig):
    spec = tmp_path / "spec.toml"
    spec.write_text(f'min_games = {BIG}\nmax_games = {BIG}\n[[scenario]]\nname = "d"\npath = "big.toml"\n'
                    '[[bound]]\nmetric = "decisiveness"\nmin = 0.5\n')
    proc = _cli("check", spec, "-o", tmp_path / "gate", "-q")
    code, took, err = _stop(proc, sig, _after(3.0))
    assert code == CODES[sig], err
    assert took < STOP_S, took
    assert not (tmp_path / "gate").exists()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_strategy_file_in_a_loop_is_stopped(tmp_path, sig):
    """The kernel never returns: the main thread still hears the signal, stops cleanly (no
    unfinished part, the run resumable) and leaves the kernel thread behind (os._exit)."""
    scen = tmp_path / "loop.toml"
    scen.write_text(f'game = "pirateer"\n[run]\ngames = 1000\nseed = 3\nchunk_size = 1000\n[[seats]]\n'
                    f'strategy = "{TESTS / "user_strategies" / "forever.py"}:forever"\n[[seats]]\nstrategy = "random"\n')
    out = tmp_path / "r"
    proc = _cli("run", scen, "-o", out, "-q")
    code, took, err = _stop(proc, sig, lambda: (out / "manifest.json").exists())  # compiled, playing
    assert code == CODES[sig], err
    assert took < STOP_S, took
    assert "--resume" in err, err
    assert json.loads((out / "manifest.json").read_text())["chunks_done"] == 0
    assert not list((out / "games").iterdir())
