"""`pirate-sim warm` (pirate_sim/warm.py): every kernel compiled up front, so that the next
command compiles nothing.  Pirateer is the game used (its kernels compile fastest)."""

from __future__ import annotations

import os
import subprocess
import sys

from click.testing import CliRunner

from pirate_sim.cli import main
from pirate_sim.games import get_game
from pirate_sim.warm import jobs_for


def test_jobs_cover_every_kernel_family_biggest_first():
    jobs = jobs_for(["pirateer", "pirates_peak", "ice_pirates"])
    # Pirateer is on the decision protocol: one kernel for every seat, one job that plays all four
    assert [(j.game, j.what) for j in jobs if j.game == "pirateer"] == [("pirateer", "engine")]
    # Pirate's Peak and Ice Pirates too (one engine plays their strategy files and search seats)
    assert [(j.game, j.what) for j in jobs if j.game == "pirates_peak"] == [("pirates_peak", "engine")]
    assert [(j.game, j.what) for j in jobs if j.game == "ice_pirates"] == [("ice_pirates", "engine")]
    assert get_game("ice_pirates").takes_strategy_files and get_game("pirates_peak").takes_strategy_files
    # the longest cold compile first (warm._ENGINE_SECONDS), so that a short one ends the pool
    assert [j.game for j in jobs] == ["pirates_peak", "ice_pirates", "pirateer"]


def test_after_warm_a_fresh_process_compiles_nothing():
    """warm, then a new process runs a default game, a search seat, a strategy file and a strategy
    file beside a search seat (another version of the user kernel) with the compile notes on:
    not one 'compiling' line (a kernel warm missed would announce itself)."""
    res = CliRunner().invoke(main, ["warm", "pirateer", "--jobs", "1"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert "pirateer: engine: " in res.output  # one job: play, search, strategy file, file and search
    assert "every kernel compiled or loaded in" in res.output
    code = ("from pirate_sim.warm import Job, run_job\n"
            "for w in ('play', 'search', 'strategy file', 'file and search'):\n"
            "    run_job(Job('pirateer', w))\n")
    env = dict(os.environ, PIRATE_SIM_COMPILE_NOTES="1")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "compiling" not in out.stderr, out.stderr


def test_an_unknown_game_is_one_line_and_exit_2():
    res = CliRunner().invoke(main, ["warm", "pirateeer"])
    assert res.exit_code == 2
    assert "unknown game 'pirateeer'" in res.output and "pirateer" in res.output


def test_a_job_that_fails_is_reported_and_the_others_still_run():
    """An unknown game's job fails alone: warm returns its error beside the other jobs'."""
    from pirate_sim.warm import Job, run_job

    w = run_job(Job("no_such_game", "play"))
    assert w.error and "no_such_game" in w.error
    assert run_job(Job("pirateer", "play")).error == ""
