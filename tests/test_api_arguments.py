"""Bad arguments to the Python API: one APIError line each, before anything is played or
written, in the words the CLI's option uses for the same mistake (pirate_sim/validate.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import pirate_sim as ps
import toy_meta  # noqa: F401 - registers the toy meta games (rps, best_move)
from pirate_sim.cli import main
from pirate_sim.errors import UserError

ROOT = Path(__file__).resolve().parents[1]
PP = ROOT / "scenarios" / "pirates_peak" / "default.toml"
SPEC = ROOT / "scenarios" / "checks" / "pirates_peak_balance.toml"

GAMES = "expected a whole number from 1 to 10**12, got"
SEED = "expected a whole number from 0 to 2**63 - 1, got"
THREADS = "expected a whole number >= 1, got"
PATH = "expected a path (a str or pathlib.Path), got"
NAMES = "expected names as a list of strings or one comma-separated string, got"
VARY = {"rules.target": [8, 10]}
RANGE = {"rules.target": (8, 12)}

# (function, its arguments, the message); "S" is the toy scenario's path, "OUT" tmp_path / "out"
BAD = [
    ("run", dict(games=0), f"games: {GAMES} 0"),
    ("run", dict(games=2.5), f"games: {GAMES} 2.5"),
    ("run", dict(games=True), f"games: {GAMES} True"),
    ("run", dict(games="100"), f"games: {GAMES} '100'"),
    ("run", dict(games=10**13), f"games: {GAMES} 10000000000000"),
    ("run", dict(seed="x"), f"seed: {SEED} 'x'"),
    ("run", dict(seed=-1), f"seed: {SEED} -1"),
    ("run", dict(seed=1.0), f"seed: {SEED} 1.0"),
    ("run", dict(threads="2"), f"threads: {THREADS} '2'"),
    ("run", dict(threads=0), f"threads: {THREADS} 0"),
    ("run", dict(threads=-1), f"threads: {THREADS} -1"),
    ("run", dict(precision=0), "precision: expected a number at least 1e-05 and at most 0.5, got 0"),
    ("run", dict(precision=2), "precision: expected a number at least 1e-05 and at most 0.5, got 2"),
    ("run", dict(precision=float("nan")), "precision: expected a number at least 1e-05 and at most 0.5, got nan"),
    ("run", dict(out=123), f"out: {PATH} 123"),
    ("run", dict(out=""), f"out: {PATH} ''"),
    ("run", dict(force="no"), "force: expected True or False, got 'no'"),
    ("run", dict(resume=1), "resume: expected True or False, got 1"),
    ("run", dict(max_memory=0), f"max_memory: {THREADS} 0"),
    ("run", dict(progress="bar"), "progress: expected True, False or a function, got 'bar'"),
    ("run", dict(on_estimate=5), "on_estimate: expected a function or None, got 5"),
    ("trace", dict(k=-1), f"k: {SEED} -1"),
    ("trace", dict(k=1.5), f"k: {SEED} 1.5"),
    ("trace", dict(k=1, seed="7"), f"seed: {SEED} '7'"),
    ("scenario", dict(games=0), f"games: {GAMES} 0"),
    ("scenario", dict(seed=2.5), f"seed: {SEED} 2.5"),
    ("compare", dict(games=1), "games: expected a whole number from 2 to 10**12, got 1"),
    ("compare", dict(seed=True), f"seed: {SEED} True"),
    ("compare", dict(threads=0), f"threads: {THREADS} 0"),
    ("compare", dict(metrics=5), f"metrics: {NAMES} 5"),
    ("compare", dict(out=123), f"out: {PATH} 123"),
    ("compare", dict(chart_progress="x"), "chart_progress: expected a function or None, got 'x'"),
    ("sweep", dict(games=0), f"games: {GAMES} 0"),
    ("sweep", dict(seed="x"), f"seed: {SEED} 'x'"),
    ("sweep", dict(threads=0), f"threads: {THREADS} 0"),
    ("sweep", dict(out=123), f"out: {PATH} 123"),
    ("sweep", dict(resume="no"), "resume: expected True or False, got 'no'"),
    ("sweep", dict(metrics=[1]), f"metrics: {NAMES} [1]"),
    ("check", dict(max_games=0), f"max_games: {GAMES} 0"),
    ("check", dict(seed=-1), f"seed: {SEED} -1"),
    ("check", dict(threads=0), f"threads: {THREADS} 0"),
    ("check", dict(junit=123), f"junit: {PATH} 123"),
    ("check", dict(update_baseline="yes"), "update_baseline: expected True or False, got 'yes'"),
    ("sensitivity", dict(games=5), "games: expected a whole number from 10 to 10**12, got 5"),
    ("sensitivity", dict(points=1), "points: expected a whole number >= 2, got 1"),
    ("sensitivity", dict(threads=0), f"threads: {THREADS} 0"),
    ("sensitivity", dict(metrics=("a", 2)), f"metrics: {NAMES} ('a', 2)"),
    ("sensitivity", dict(out=123), f"out: {PATH} 123"),
    ("tune", dict(trials=1), "trials: expected a whole number >= 2, got 1"),
    ("tune", dict(games=9), "games: expected a whole number from 10 to 10**12, got 9"),
    ("tune", dict(recheck_games=0), "recheck_games: expected a whole number from 10 to 10**12, got 0"),
    ("tune", dict(threads="2"), f"threads: {THREADS} '2'"),
    ("skill", dict(base_budget=0), f"base_budget: {THREADS} 0"),
    ("skill", dict(steps=21), "steps: expected a whole number from 1 to 20, got 21"),
    ("skill", dict(games=0), f"games: {GAMES} 0"),
    ("skill", dict(place_games=0.5), f"place_games: {GAMES} 0.5"),
    ("skill", dict(beat=0.5), "beat: expected a number above 0.5 and below 1, got 0.5"),
    ("skill", dict(bootstrap=10), "bootstrap: expected a whole number >= 20, got 10"),
    ("skill", dict(place=[1]), f"place: {NAMES} [1]"),
    ("skill", dict(estimate_only="yes"), "estimate_only: expected True or False, got 'yes'"),
    ("tournament", dict(games=0), f"games: {GAMES} 0"),
    ("tournament", dict(bootstrap=19), "bootstrap: expected a whole number >= 20, got 19"),
    ("tournament", dict(strategies=5), f"strategies: {NAMES} 5"),
    ("tournament", dict(threads=0), f"threads: {THREADS} 0"),
    ("tournament", dict(seed="x"), f"seed: {SEED} 'x'"),
    ("tournament", dict(out=123), f"out: {PATH} 123"),
    ("write_report", dict(out=123), f"out: {PATH} 123"),
    ("write_report", dict(results_dir=None), f"results_dir: {PATH} None"),
    ("open", dict(path=123), f"path: {PATH} 123"),
    ("load", dict(path=123), f"path: {PATH} 123"),
]


def _toy(tmp_path: Path) -> Path:
    p = tmp_path / "duel.toml"
    p.write_text('game = "dice_duel"\n[run]\ngames = 5000\nseed = 7\nchunk_size = 1000\n'
                 '[rules]\ntarget = 10\n[[seats]]\nstrategy = "roller"\n[[seats]]\nstrategy = "roller"\n')
    return p


def _meta(tmp_path: Path, game: str, seats: list[str]) -> Path:
    p = tmp_path / f"{game}.toml"
    p.write_text(f'game = "{game}"\n[run]\nseed = 5\n' + "".join(f'[[seats]]\nstrategy = "{s}"\n' for s in seats))
    return p


def _call(name: str, kwargs: dict, tmp_path: Path):
    """The API function called with its required arguments, writing (if it wrote) under OUT."""
    out = tmp_path / "out"
    toy = _toy(tmp_path)
    calls = {
        "run": lambda: ps.run(toy, **{"out": out, "progress": False, **kwargs}),
        "trace": lambda: ps.trace(toy, **kwargs),
        "scenario": lambda: ps.scenario("dice_duel", **kwargs),
        "compare": lambda: ps.compare(toy, set={"rules.target": 12}, **{"out": out, "progress": False, **kwargs}),
        "sweep": lambda: ps.sweep(toy, VARY, **{"out": out, "progress": False, **kwargs}),
        "check": lambda: ps.check(SPEC, **{"out": out, "progress": False, **kwargs}),
        "sensitivity": lambda: ps.sensitivity(toy, RANGE, **{"out": out, "progress": False, **kwargs}),
        "tune": lambda: ps.tune(toy, RANGE, "length.mean=max", **{"out": out, "progress": False, **kwargs}),
        "skill": lambda: ps.skill(_meta(tmp_path, "best_move", ["random", "random"]),
                                  **{"out": out, "progress": False, **kwargs}),
        "tournament": lambda: ps.tournament(_meta(tmp_path, "rps", ["rock", "paper"]),
                                            **{"out": out, "progress": False, **kwargs}),
        "write_report": lambda: ps.write_report(**{"results_dir": tmp_path, "out": out, **kwargs}),
        "open": lambda: ps.open(**kwargs),
        "load": lambda: ps.load(**kwargs),
    }
    return calls[name]()


@pytest.mark.parametrize("name, kwargs, message", BAD, ids=[f"{n}-{'-'.join(f'{k}={v!r}' for k, v in kw.items())}"
                                                              for n, kw, _m in BAD])
def test_a_bad_argument_is_one_line_and_nothing_is_played_or_written(tmp_path, name, kwargs, message):
    with pytest.raises(ps.APIError) as exc:
        _call(name, kwargs, tmp_path)
    assert isinstance(exc.value, UserError) and isinstance(exc.value, ValueError)
    assert str(exc.value) == message
    assert {p.name for p in tmp_path.iterdir()} <= {"best_move.toml", "duel.toml", "rps.toml"}


def test_strategies_as_one_comma_separated_string_are_the_names(tmp_path):
    s = _meta(tmp_path, "rps", ["rock", "paper"])
    by_text = ps.tournament(s, tmp_path / "a", strategies=" rock, paper,", games=10, estimate_only=True)
    by_list = ps.tournament(s, tmp_path / "b", strategies=("rock", "paper"), games=10, estimate_only=True)
    assert sorted(m[0] for m in by_text.per_match) == sorted(m[0] for m in by_list.per_match)
    assert by_text.matches == 3 and by_text.games == 30
    est = ps.skill(_meta(tmp_path, "best_move", ["random", "random"]), tmp_path / "c", steps=1, games=10,
                   place="none", estimate_only=True)
    assert all("search" in m[0] for m in est.per_match)  # no scripted strategy placed
    assert not any(p.exists() for p in (tmp_path / "a", tmp_path / "b", tmp_path / "c"))


# (CLI arguments, the option as click names it, the API call making the same mistake)
SAME = [
    (["run", PP, "-n", "0"], "'--games' / '-n'", lambda: ps.run(PP, games=0)),
    (["run", PP, "--precision", "2"], "'--precision'", lambda: ps.run(PP, precision=2)),
    (["run", PP, "-t", "0"], "'--threads' / '-t'", lambda: ps.run(PP, threads=0)),
    (["compare", PP, "--set", "rules.squid.escape_total=11", "-n", "1"], "'--games' / '-n'",
     lambda: ps.compare(PP, set={"rules.squid.escape_total": 11}, games=1)),
    (["sweep", PP, "--vary", "rules.squid.escape_total=10,11", "--seed", "-1"], "'--seed'",
     lambda: ps.sweep(PP, {"rules.squid.escape_total": [10, 11]}, seed=-1)),
    (["sensitivity", PP, "--vary", "rules.squid.escape_total=9:14", "-n", "5"], "'--games-per-point' / '-n'",
     lambda: ps.sensitivity(PP, {"rules.squid.escape_total": (9, 14)}, games=5)),
    (["tune", PP, "--vary", "rules.squid.escape_total=9:14", "--objective", "length.mean=max", "--trials", "1"],
     "'--trials'", lambda: ps.tune(PP, {"rules.squid.escape_total": (9, 14)}, "length.mean=max", trials=1)),
    (["check", SPEC, "--max-games", "0"], "'--max-games'", lambda: ps.check(SPEC, max_games=0)),
    (["skill", PP, "-o", "x", "--beat", "1"], "'--beat'", lambda: ps.skill(PP, "x", beat=1)),
    (["tournament", PP, "-o", "x", "--bootstrap", "19"], "'--bootstrap'", lambda: ps.tournament(PP, "x", bootstrap=19)),
    (["trace", PP, "--game", "-1"], "'--game' / '-k'", lambda: ps.trace(PP, -1)),
]


@pytest.mark.parametrize("args, option, call", SAME, ids=[" ".join(map(str, a[:1] + a[2:])) for a, _o, _c in SAME])
def test_the_cli_and_the_api_refuse_a_bad_value_in_the_same_words(tmp_path, monkeypatch, args, option, call):
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(main, [str(a) for a in args])
    assert res.exit_code == 2
    line, hint = res.output.strip().split(" (see `")
    head, problem = line.split(": ", 2)[1:]
    assert head == f"Invalid value for {option}" and problem.startswith("expected ") and hint.endswith(
        f" {args[0]} --help`)")
    with pytest.raises(ps.APIError) as exc:
        call()
    assert str(exc.value).split(": ", 1)[1] == problem
    assert list(tmp_path.iterdir()) == []


def test_run_n_0_in_a_shell_and_games_0_in_python_say_the_same(tmp_path):
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    res = subprocess.run([sys.executable, "-c", "from pirate_sim.cli import main; main(prog_name='pirate-sim')",
                          "run", str(PP), "-n", "0", "-o", str(out)], capture_output=True, text=True, env=env)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.strip() == (f"error: Invalid value for '--games' / '-n': {GAMES} 0 "
                                  "(see `pirate-sim run --help`)")
    with pytest.raises(ps.APIError) as exc:
        ps.run(PP, games=0, out=out)
    assert str(exc.value) == f"games: {GAMES} 0"
    assert not out.exists()


def test_the_methods_of_results_and_sweeps_check_their_arguments(tmp_path):
    r = ps.run(_toy(tmp_path), games=20, progress=False)
    for call, message in ((lambda: r.trace(2.5), f"k: {SEED} 2.5"), (lambda: r.trace(-1), f"k: {SEED} -1"),
                          (lambda: r.metric(5), "metric: expected a metric's name, got 5"),
                          (lambda: r.save(123), f"out: {PATH} 123"),
                          (lambda: r.save(tmp_path / "saved", force="yes"), "force: expected True or False, got 'yes'"),
                          (lambda: r.report(None), f"out: {PATH} None")):
        with pytest.raises(ps.APIError) as exc:
            call()
        assert str(exc.value) == message
    sw = ps.sweep(_toy(tmp_path), VARY, games=20, out=tmp_path / "sweep", progress=False)
    with pytest.raises(ps.APIError, match=r"^point 5: the sweep's points are p000, p001$"):
        sw.open(5)
    assert sw.open("p001").n_games == 20
    assert {p.name for p in tmp_path.iterdir()} == {"duel.toml", "sweep"}
