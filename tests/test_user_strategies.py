"""Strategies of one's own (pirate_sim.user_strategy, docs/strategies.md).

The first test of a game compiles its user kernel once per package version (Pirateer 85 s,
Pirate's Peak 220 s cold on 2 busy cores; then a cache load) and each strategy file's small
wrapper (1-3 s); every test after that reuses them.  Files: examples/strategies/*.py (the
documented examples) and tests/user_strategies/probe.py (one function whose ``mode``
parameter picks a misbehaviour).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from pirate_sim import scenario as scen
from pirate_sim import user_strategy as U
from pirate_sim.cli import main
from pirate_sim.stats import wilson

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "strategies"
PROBE = "tests/user_strategies/probe.py:probe"


def _invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def _pirateer(seat0: dict, seat1: dict | None = None, **rules) -> scen.Scenario:
    raw = {"game": "pirateer", "rules": rules, "seats": [seat0, seat1 or {"strategy": "random"}]}
    return scen.from_dict(raw, source=str(ROOT / "scenario.toml"))


def _probe(mode: float, **rules) -> scen.Scenario:
    return _pirateer({"strategy": PROBE, "mode": mode}, **rules)


def _raider(**rules) -> scen.Scenario:
    return _pirateer({"strategy": "examples/strategies/pirateer_players.py:careful_raider"},
                     strategy_seating="rotate", **rules)


# ------------------------------------------------------------------ strength, reproducibility
def test_user_strategy_beats_random_in_pirateer():
    """careful_raider against random, seats rotating, on a seed held out from every example
    and the docs (7_340_001): the 95% Wilson interval of its win rate lies above 1/2."""
    s = _raider()
    c = s.compile()
    n = 400
    g, _ = s.game.play(c, 7_340_001, 0, n)
    # entry 0 (the user seat) plays seat (k mod 2) in game k when seats rotate
    won = sum(int(g[k, 0] == k % 2) for k in range(n))
    est = wilson(won, n)
    assert est.lo > 0.5, est


def test_same_games_whatever_threads_and_chunks():
    import numba

    s = _raider()
    c = s.compile()
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        g1, s1 = s.game.play(c, 99, 0, 300)
        numba.set_num_threads(max(2, old) if numba.config.NUMBA_NUM_THREADS > 1 else 1)
        parts = [s.game.play(c, 99, a, b - a) for a, b in ((0, 7), (7, 150), (150, 300))]
    finally:
        numba.set_num_threads(old)
    assert np.array_equal(g1, np.concatenate([p[0] for p in parts]))
    assert np.array_equal(s1, np.concatenate([p[1] for p in parts]))


def test_scribbling_on_its_copies_changes_nothing():
    """The view and the options are the function's own copies: a function that overwrites
    both before taking the first play plays exactly the games of one that only takes it."""
    s0, s2 = _probe(0.0), _probe(2.0)
    g0, st0 = s0.game.play(s0.compile(), 5, 0, 200)
    g2, st2 = s2.game.play(s2.compile(), 5, 0, 200)
    assert np.array_equal(g0, g2) and np.array_equal(st0, st2)
    assert (g0[:, 0] >= -1).all() and (g0[:, 1] > 0).all()


# ------------------------------------------------------------------ what the function sees
def test_pirateer_view_is_a_copy_of_public_fields_only():
    """fill_view_nb reads the position only: scrambling everything else of the state (event
    count, dice counter, test script words, hold bookkeeping) leaves the view unchanged, and
    the view is a fresh array (writing to it leaves the state alone)."""
    from pirate_sim.games.pirateer import rules as R
    from pirate_sim.games.pirateer.turn import begin_turn_nb
    from pirate_sim.games.pirateer.user_view import V_SHIPS, V_TREASURE, VIEW_LEN, fill_view_nb
    from pirate_sim.games.pirateer.whole_game import setup_nb
    from pirate_sim.rng import new_rng

    s = _pirateer({"strategy": "random"})
    c = s.compile()
    P, a = c.params, c.arrays
    st = np.zeros(P.state_words, np.int32)
    ev = np.zeros((0, 6), np.int32)
    rng = new_rng(3, 0)
    setup_nb(st, ev, rng, P, a[7], a[8], a[9], 0)
    st[R.G_TURN] += 1
    begin_turn_nb(st, ev, rng, P, *a[:3], a[6], np.zeros((R.MAX_PLAYS, R.PLAY_WIDTH), np.int32))
    view = np.zeros(VIEW_LEN, np.int32)
    fill_view_nb(st, P, view)
    before = st.copy()
    scrambled = st.copy()
    hidden = [R.G_EVENTS, R.G_DICE, R.G_SCR_LEN, R.G_SCR_POS, R.G_SCR_FAIL, R.G_HOLD_TURNS, R.G_PLAYS, R.G_GAME]
    scrambled[hidden] = 12345
    scrambled[R.G_SCR:R.G_SCR + R.MAX_SCRIPT * R.PLAY_WIDTH] = -99
    view2 = np.zeros(VIEW_LEN, np.int32)
    fill_view_nb(scrambled, P, view2)
    assert np.array_equal(view, view2)
    view[:] = -1
    assert np.array_equal(st, before)
    assert view2[V_TREASURE] == -1 and (view2[V_SHIPS:V_SHIPS + 6] >= 0).all()


def test_peak_view_hides_the_deck_order():
    """Pirate's Peak's hidden state is the order of the unflipped Sea cards: two tables that
    differ only there give the same view."""
    from pirate_sim.games.pirates_peak import GAME as PEAK
    from pirate_sim.games.pirates_peak import rules as R
    from pirate_sim.games.pirates_peak.kernel import new_state, setup
    from pirate_sim.games.pirates_peak.user_view import V_TRACK, fill_view_nb, view_len
    from pirate_sim.rng import new_rng

    s = scen.from_dict({"game": "pirates_peak"})
    c = s.compile()
    st = new_state(c)
    setup(st, new_rng(1, 0))
    n = view_len(c.params.max_track)
    v1 = np.zeros(n, np.int32)
    fill_view_nb(st.w, 0, 1, 0, v1)
    w2 = st.w.copy()
    lo = w2[R.ROW_ST, R.G_DECK_PTR]
    w2[R.ROW_DECK, lo:lo + c.params.n_journey] = w2[R.ROW_DECK, lo:lo + c.params.n_journey][::-1]
    assert not np.array_equal(w2[R.ROW_DECK], st.w[R.ROW_DECK])
    v2 = np.zeros(n, np.int32)
    fill_view_nb(w2, 0, 1, 0, v2)
    assert np.array_equal(v1, v2)
    assert (v1[V_TRACK + c.params.dock_spaces:] == -1).all()  # nothing past the laid dock
    assert PEAK.takes_strategy_files


def test_reading_beyond_the_view_raises_one_line():
    s = _probe(3.0)
    with pytest.raises(U.UserStrategyError, match=r"probe.py: probe: raised an exception at game 0 turn \d+ \(an index outside"):
        s.game.play(s.compile(), 1, 0, 20)


def test_an_illegal_index_stops_the_run_with_the_game_named():
    s = _probe(1.0)
    with pytest.raises(U.UserStrategyError, match=r"probe: returned (\d+) at game 0 turn \d+, where the legal "
                                                  r"options are 0\.\.\d+; the game was not recorded"):
        s.game.play(s.compile(), 1, 0, 20)


# ------------------------------------------------------------------ bad files: one line, exit 2
BAD = {
    "missing.py": None,
    "nofunc.py": "def other(view, plays, params):\n    return 0\n",
    "signature.py": "def f(view, plays):\n    return 0\n",
    "untyped.py": "def f(view, plays, params):\n    return view.no_such_attribute\n",
    "floaty.py": "def f(view, plays, params):\n    return 0.5\n",
    "booly.py": "def f(view, plays, params):\n    return view[0] > 0\n",
    "writes_board.py": "def f(view, plays, params, rng, board):\n    board.dist[0, 0] = 1\n    return 0\n",
    "writes_params.py": "def f(view, plays, params):\n    params[0] = 1.0\n    return 0\n",
    "syntax.py": "def f(view, plays, params)\n    return 0\n",
    "badparams.py": "PARAMS = {'f': {'x': 'high'}}\ndef f(view, plays, params):\n    return 0\n",
}
WHY = {
    "missing.py": "strategy file not found",
    "nofunc.py": "no such function in the file; it has other",
    "signature.py": r"wrong signature f\(view, plays\)",
    "untyped.py": "numba cannot compile it",
    "floaty.py": "returns float64, expected the index",
    "booly.py": "returns bool, expected the index",
    "writes_board.py": "numba cannot compile it",
    "writes_params.py": "numba cannot compile it",
    "syntax.py": "syntax error at line 1",
    "badparams.py": "parameter 'x' default must be a finite number",
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_strategy_file_is_one_line(tmp_path, name):
    if BAD[name] is not None:
        (tmp_path / name).write_text(BAD[name])
    (tmp_path / "s.toml").write_text(f'game = "pirateer"\n[[seats]]\nstrategy = "{name}:f"\n'
                                     '[[seats]]\nstrategy = "random"\n')
    with pytest.raises(Exception) as info:
        scen.load(tmp_path / "s.toml").compile()
    msg = str(info.value)
    assert isinstance(info.value, U.UserStrategyError | scen.ScenarioError)
    assert "\n" not in msg and name in msg and ": f: " in msg
    assert __import__("re").search(WHY[name], msg), msg


def test_cli_bad_file_exits_2_and_writes_nothing(tmp_path):
    (tmp_path / "p.py").write_text(BAD["untyped.py"])
    (tmp_path / "s.toml").write_text('game = "pirateer"\n[[seats]]\nstrategy = "p.py:f"\n[[seats]]\nstrategy = "random"\n')
    res = _invoke("run", tmp_path / "s.toml", "-o", tmp_path / "out", "--games", 10)
    assert res.exit_code == 2
    assert "p.py: f: numba cannot compile it" in res.output
    assert not (tmp_path / "out").exists()


# ------------------------------------------------------------------ what a strategy file may hold
MARKER_FILE = '''"""Creates a file when imported: it must never run."""
import os

os.close(os.open({marker!r}, os.O_CREAT | os.O_WRONLY))


def f(view, plays, params):
    return 0
'''
CLI = "from pirate_sim.cli import main; main(prog_name='pirate-sim')"


def test_a_file_whose_top_level_runs_code_is_refused_before_any_of_it_runs(tmp_path):
    marker, out, cache = tmp_path / "marker", tmp_path / "out", tmp_path / "cache"
    (tmp_path / "p.py").write_text(MARKER_FILE.format(marker=str(marker)))
    s = tmp_path / "s.toml"
    s.write_text('game = "pirateer"\n[[seats]]\nstrategy = "p.py:f"\n[[seats]]\nstrategy = "random"\n')
    env = {**os.environ, "PIRATE_SIM_CACHE": str(cache),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    for args in (["scenario", "check", s], ["run", s, "-n", 10, "-o", out]):
        res = subprocess.run([sys.executable, "-c", CLI, *map(str, args)], capture_output=True, text=True, env=env)
        assert res.returncode == 2, res.stdout + res.stderr
        assert res.stdout == "" and res.stderr.strip() == (
            f"error: {s}: seats.0.strategy: {tmp_path / 'p.py'}: f: line 2: import of os is not allowed; "
            "a strategy file may import only numpy, math, numba, pirate_sim")
        assert not marker.exists()
    assert not out.exists() and not list(cache.glob("*.py"))  # not even the cache's copy of the file


F = "def f(view, plays, params):\n    return 0\n"
NOT_ALLOWED = {  # file: (source, what the one line says after "file: f: ")
    "from_os.py": ("from os import path\n" + F, "line 1: import of os is not allowed; a strategy file may import "
                   "only numpy, math, numba, pirate_sim"),
    "two_imports.py": ("import numpy.random, subprocess\n" + F, "line 1: import of subprocess is not allowed"),
    "import_inside.py": ("def f(view, plays, params):\n    import sys\n    return 0\n",
                         "line 2: import of sys is not allowed"),
    "relative.py": ("from . import neighbour\n" + F, "line 1: a relative import is not allowed"),
    "call.py": ('print("loaded")\n' + F, "line 1: a top-level expression is not allowed; the top level holds "
                "only imports, PARAMS = {...}, constants (NAME = a literal), function definitions and docstrings"),
    "loop.py": ("for i in range(3):\n    pass\n" + F, "line 1: a top-level for loop is not allowed"),
    "klass.py": ("class C:\n    pass\n" + F, "line 1: a top-level class definition is not allowed"),
    "main.py": ('import math\nif __name__ == "__main__":\n    pass\n' + F,
                "line 2: a top-level if statement is not allowed"),
    "computed.py": ("LIMIT = len('abc')\n" + F, "line 1: LIMIT = len('abc') is not allowed; a top-level value is a "
                    "literal"),
    "params_call.py": ("PARAMS = dict(f={})\n" + F, "line 1: PARAMS = dict(f={}) is not allowed"),
    "decorator.py": ("@print\n" + F, "line 1: decorator print of f is not allowed; a decorator is numba's"),
    "decorator_numpy.py": ("import numpy as np\n@np.vectorize\n" + F, "line 2: decorator np.vectorize of f is not allowed"),
    "decorator_args.py": ("import numba\n@numba.njit(cache=print())\n" + F,
                          "line 2: decorator numba.njit(cache=print()) of f is not allowed"),
    "default.py": ("def f(view, plays, params, x=__import__('os')):\n    return 0\n",
                   "line 1: default value __import__('os') of f is not allowed; only literals"),
    "annotation.py": ("def f(view: print(), plays, params):\n    return 0\n",
                      "line 1: annotation print() of f is not allowed (it calls)"),
}


@pytest.mark.parametrize("name", sorted(NOT_ALLOWED))
def test_what_a_strategy_file_may_not_hold_is_one_line_naming_file_and_line(tmp_path, name):
    source, why = NOT_ALLOWED[name]
    (tmp_path / name).write_text(source)
    (tmp_path / "s.toml").write_text(f'game = "pirateer"\n[[seats]]\nstrategy = "{name}:f"\n'
                                     '[[seats]]\nstrategy = "random"\n')
    with pytest.raises(scen.ScenarioError) as info:
        scen.load(tmp_path / "s.toml")
    msg = str(info.value)
    assert "\n" not in msg and msg.startswith(f"{tmp_path / 's.toml'}: seats.0.strategy: {tmp_path / name}: f: {why}")


OWN_DECORATORS = '''"""A strategy with numba decorators of its own, a constant and docstrings."""
from __future__ import annotations

import math

import numba
import numpy as np
from numba import njit

LAST = -1
PARAMS = {"f": {"k": 0.0}}


@njit(cache=True)
def helper(n):
    return max(0, n + LAST)


@numba.njit
def f(view, plays, params):
    """Takes the first play."""
    return helper(1) + int(math.floor(0.5)) + np.int64(0)
'''


def test_numba_decorators_constants_and_docstrings_are_allowed(tmp_path):
    (tmp_path / "own.py").write_text(OWN_DECORATORS)
    (tmp_path / "s.toml").write_text('game = "pirateer"\n[[seats]]\nstrategy = "own.py:f"\nk = 2\n'
                                     '[[seats]]\nstrategy = "random"\n')
    s = scen.load(tmp_path / "s.toml")
    s.compile()  # the function compiles for Pirateer's arguments
    assert s.seats[0] == {"strategy": "own.py:f", "k": 2.0}


RECURSIVE = '''
def depth(n):
    if n <= 0:
        return 0
    return 1 + depth(n - 1)


def ping(n):
    if n <= 0:
        return 0
    return pong(n - 1)


def pong(n):
    if n <= 0:
        return 0
    return ping(n - 1)


def first(plays):
    return 0 * plays.shape[0]


def f(view, plays, params):
    """The first play, through a plain helper and three that call themselves."""
    return first(plays) + depth(2) - 2 + 0 * ping(3)
'''


def test_helpers_are_inlined_except_where_a_function_can_call_itself(tmp_path):
    """The loader compiles a file's functions inline="always" (an out-of-line call costs its arrays
    each time), except those that can call themselves, directly or through another; the file
    compiles for the game and plays, in this process and in the next: a module with recursion
    is not cached (numba's cached recursion aborted the next process: LLVM "Symbol not found")."""
    import uuid

    # a file no earlier run compiled (its copy and cache are keyed by its SHA-256)
    (tmp_path / "rec.py").write_text(RECURSIVE + f"\n# run {uuid.uuid4().hex}\n")
    (tmp_path / "s.toml").write_text('game = "pirates_peak"\n[[seats]]\nstrategy = "rec.py:f"\n'
                                     '[[seats]]\nstrategy = "expert"\n')
    s = scen.load(tmp_path / "s.toml")
    mod = sys.modules[s.user["rec.py:f"].module_name]
    inline = {n: getattr(mod, n).targetoptions["inline"] for n in ("depth", "ping", "pong", "first", "f")}
    assert inline == {"depth": "never", "ping": "never", "pong": "never", "first": "always", "f": "always"}
    assert getattr(mod, U.CACHEABLE) is False
    c = s.compile()
    out_g, _ = s.game.play(c, 5, 0, 4)
    assert len(out_g) == 4 and (out_g[:, 1] > 0).all()  # whole games: turns played
    again = subprocess.run([sys.executable, "-c", "import sys; from pirate_sim import scenario as scen; "
                            "s = scen.load(sys.argv[1]); print(len(s.game.play(s.compile(), 5, 0, 4)[0]))",
                            str(tmp_path / "s.toml")], capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and again.stdout.split()[-1] == "4", again.stderr[-2000:]


TRYING = '''
def risky(view, k):
    if k > 0:
        return view[view.shape[0] + k]
    return 0


def f(view, plays, params):
    """Reads past its view inside a try, and catches it: the first play."""
    try:
        return risky(view, plays.shape[0])
    except Exception:
        return 0
'''


def test_a_file_with_a_try_is_compiled_out_of_line_and_catches_its_own_errors(tmp_path):
    """Inlined into a try, an exception can escape its except (numba): a file with a try is compiled
    with nothing inlined, so its except catches what its helper raises and the games play."""
    (tmp_path / "trying.py").write_text(TRYING)
    (tmp_path / "s.toml").write_text('game = "pirates_peak"\n[[seats]]\nstrategy = "trying.py:f"\n'
                                     '[[seats]]\nstrategy = "expert"\n')
    s = scen.load(tmp_path / "s.toml")
    mod = sys.modules[s.user["trying.py:f"].module_name]
    assert {getattr(mod, n).targetoptions["inline"] for n in ("risky", "f")} == {"never"}
    assert getattr(mod, U.CACHEABLE) is True
    out_g, _ = s.game.play(s.compile(), 5, 0, 4)
    assert len(out_g) == 4 and (out_g[:, 1] > 0).all()


def _python_blocks(md: Path) -> list[str]:
    import re

    return re.findall(r"```python\n(.*?)```", md.read_text(), re.S)


def test_every_strategy_file_of_the_docs_and_tests_passes_the_check():
    import ast

    files = sorted(EXAMPLES.glob("*.py")) + sorted((ROOT / "tests" / "user_strategies").glob("*.py"))
    assert len(files) >= 4
    for f in files:
        tree = ast.parse(f.read_text())
        assert U.source_problem(tree) is None, f
        players = [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and 3 <= len(n.args.args) <= 5]
        assert players and all(U.load(f"{f}:{name}").func_name == name for name in players)
    blocks = _python_blocks(ROOT / "docs" / "strategies.md")
    assert len(blocks) >= 2
    for text in blocks:
        assert U.source_problem(ast.parse(text)) is None, text


def test_unknown_seat_parameter_is_named(tmp_path):
    with pytest.raises(scen.ScenarioError, match=r"seats\.0\.chase_hard: unknown parameter .* it has capture"):
        _pirateer({"strategy": "examples/strategies/pirateer_players.py:careful_raider", "chase_hard": 1})


# ------------------------------------------------------------------ runs: CLI, API, hash refusal
def _copy_example(tmp_path: Path) -> Path:
    shutil.copy(EXAMPLES / "pirateer_players.py", tmp_path / "pirateer_players.py")
    shutil.copy(EXAMPLES / "pirateer_raider.toml", tmp_path / "raider.toml")
    return tmp_path / "raider.toml"


def test_cli_run_api_run_and_the_changed_file_refusal(tmp_path):
    import pirate_sim as ps

    path = _copy_example(tmp_path)
    out = tmp_path / "out"
    res = _invoke("run", path, "-o", out, "--games", 300, "--set", "run.chunk_size=100")
    assert res.exit_code == 0, res.output
    man = json.loads((out / "manifest.json").read_text())
    sha = U.sha256_text((tmp_path / "pirateer_players.py").read_text())
    assert man["strategy_files"] == [{"strategy": "pirateer_players.py:careful_raider",
                                      "path": str(tmp_path / "pirateer_players.py"), "sha256": sha}]
    copies = list((out / "strategies").glob("*.py"))
    assert [p.read_text() for p in copies] == [(tmp_path / "pirateer_players.py").read_text()]
    assert _invoke("verify", out).exit_code == 0
    # the API plays the same games in memory, and opens the directory on its own copy
    from pandas.testing import assert_frame_equal

    r = ps.run(ps.load(path), games=300, progress=False)
    opened = ps.open(out)
    assert_frame_equal(r.games, opened.games)
    assert_frame_equal(r.seats, opened.seats)
    # a changed strategy file: verify reports it, --resume refuses
    with open(tmp_path / "pirateer_players.py", "a") as fh:
        fh.write("\n# edited\n")
    res = _invoke("verify", out)
    assert res.exit_code != 0 and "strategy file changed since the run" in res.output
    res = _invoke("run", path, "-o", out, "--resume")
    assert res.exit_code == 2 and "strategy file changed since the run" in res.output


def test_scenario_hash_counts_content_not_location(tmp_path):
    a = _raider()
    _copy_example(tmp_path)
    b = scen.from_dict({"game": "pirateer", "rules": {"strategy_seating": "rotate"},
                        "seats": [{"strategy": "pirateer_players.py:careful_raider"}, {"strategy": "random"}]},
                       source=str(tmp_path / "raider.toml"))
    assert a.hash() == b.hash()
    with open(tmp_path / "pirateer_players.py", "a") as fh:
        fh.write("\n# edited\n")
    c = scen.from_dict({"game": "pirateer", "rules": {"strategy_seating": "rotate"},
                        "seats": [{"strategy": "pirateer_players.py:careful_raider"}, {"strategy": "random"}]},
                       source=str(tmp_path / "raider.toml"))
    assert c.hash() != a.hash()


def test_cluster_worker_checks_the_source_hash():
    """A worker builds the scenario from the client's copy of the file; a copy that does not
    match its SHA-256 is refused (the tasks' own check, without starting Dask)."""
    import numba

    from pirate_sim import cluster

    s = _raider()
    text, h = s.to_toml(with_docs=False), s.hash()
    sources = s.user_sources()
    threads = numba.get_num_threads()
    try:
        g_task, _ = cluster.play_task(text, h, 0, 20, sources)  # sets one thread, as on a worker
    finally:
        numba.set_num_threads(threads)
    g_here, _ = s.game.play(s.compile(), s.seed, 0, 20)
    assert np.array_equal(g_task, g_here)
    spec = next(iter(sources))
    bad = {spec: (sources[spec][0] + "\n# other\n", sources[spec][1])}
    cluster._SCENARIOS.clear()
    with pytest.raises(scen.ScenarioError, match="the source received has SHA-256"):
        cluster.play_task(text, h, 0, 20, bad)


# ------------------------------------------------------------------ the documented examples
def test_peak_example_plays_and_traces():
    s = scen.load(EXAMPLES / "peak_bold.toml")
    c = s.compile()
    g, st = s.game.play(c, 11, 0, 300)
    assert (g[:, 0] >= -1).all() and (g[:, 1] > 0).all()
    searches = st[:, 0, s.game.seat_column_index("searches")]
    assert searches.sum() > 0  # bold_digger searches whenever it may
    lines = s.game.trace(c, 11, 4)
    assert any("peak_players.py:bold_digger" in ln for ln in lines)
    g2, _ = s.game.play(c, 11, 4, 1)
    assert np.array_equal(g2[0], g[4])


def test_peak_file_and_search_at_one_table():
    """A strategy file and ``search`` at one Pirate's Peak table (the protocol's engine):
    the file's seat declares only what the file answers (always_sail: sail), the search seat
    declares by its search (not only sail), in traces (the engine's play_traced_nb), and the
    games do not depend on chunks."""
    raw = {"game": "pirates_peak", "rules": {"strategy_seating": "rotate"},
           "seats": [{"strategy": "peak_players.py:always_sail"}, {"strategy": "search", "budget": 8}]}
    s = scen.from_dict(raw, source=str(EXAMPLES / "scenario.toml"))
    c = s.compile()
    g, st = s.game.play(c, 5, 0, 12)
    g2, st2 = s.game.play(c, 5, 7, 5)
    assert np.array_equal(g2, g[7:]) and np.array_equal(st2, st[7:])
    declared: dict[str, set] = {"always_sail": set(), "search": set()}
    for k in range(6):
        for line in s.game.trace(c, 5, k):
            if "declares" in line:
                who = "always_sail" if "always_sail" in line else "search"
                declared[who].add(line.rsplit(" ", 1)[-1])
    assert declared["always_sail"] == {"SAIL"}
    assert declared["search"] - {"SAIL"}, declared


def test_pirateer_trace_equals_the_run():
    s = _raider()
    c = s.compile()
    g, _ = s.game.play(c, 3, 0, 5)
    _ev, out_g, _ = s.game.trace_events(c, 3, 2)
    assert np.array_equal(out_g, g[2])
    assert "careful_raider" in s.game.trace(c, 3, 2)[0]


def test_tournament_takes_a_strategy_file(tmp_path):
    path = _copy_example(tmp_path)
    res = _invoke("tournament", path, "-s", "random,pirateer_players.py:careful_raider", "-n", 40,
                  "--bootstrap", 20, "-o", tmp_path / "t")
    assert res.exit_code == 0, res.output
    assert "pirateer_players.py:careful_raider" in res.output


@pytest.mark.slow
def test_cluster_run_equals_the_local_one(tmp_path):
    """--cluster local:1: the worker receives the strategy file's source, rebuilds and
    checks it, and the Parquet content equals a run on this process's threads."""
    pytest.importorskip("distributed")
    from pandas.testing import assert_frame_equal

    from pirate_sim import results

    path = _copy_example(tmp_path)
    for out, extra in (("local", ()), ("cluster", ("--cluster", "local:1"))):
        res = _invoke("run", path, "-o", tmp_path / out, "--games", 200, *extra)
        assert res.exit_code == 0, res.output
    assert_frame_equal(results.read_games(tmp_path / "local"), results.read_games(tmp_path / "cluster"))
    assert_frame_equal(results.read_seats(tmp_path / "local"), results.read_seats(tmp_path / "cluster"))


def test_api_sweep_of_an_in_memory_scenario(monkeypatch):
    """A scenario made in memory names its file against the working directory; the
    file-based commands (sweep) reload it from a temporary copy that keeps the file beside it."""
    import pirate_sim as ps

    monkeypatch.chdir(ROOT)
    s = ps.scenario("pirateer", seats=[{"strategy": "examples/strategies/pirateer_players.py:careful_raider"},
                                       "random"])
    sw = ps.sweep(s, {"rules.turn_cap": [300, 2000]}, games=100, progress=False)
    assert len(sw.points) == 2
    assert (sw.metrics["n"] > 0).all()
