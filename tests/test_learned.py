"""Learned players (pirate_sim.learned, docs/learned.md): training is reproducible and resumable,
a weights file is checked against the rules it was trained for, a seat plays its weights, and
training has a real signal.  Pirate's Peak's player, real kernels, real files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from pirate_sim import learned, runner
from pirate_sim import scenario as scen
from pirate_sim.cli import main

SMALL = dict(generations=3, population=6, elite=2, games=300, held_out=400, final_games=400)


def _peak(**rules):
    return scen.from_dict({"game": "pirates_peak", "rules": rules} if rules else {"game": "pirates_peak"})


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """Three small generations of Pirate's Peak's player, default rules."""
    return learned.learn(_peak(), tmp_path_factory.mktemp("learn") / "peak", **SMALL)


def test_training_has_a_signal(trained):
    """Weights at zero always sail (about 5% of the points against the expert); three small
    generations already take a large share of the held-out points, and the final table is
    on fresh games with a Wilson interval that contains its share."""
    zero = learned._points(_peak().game, learned._learner_table(
        _peak(), ["expert"], None, trained.weights.names, {"base": "expert"}), [np.zeros(len(trained.weights.names))],
        trained.weights.names, 7, 400)[0]
    assert zero.mean() < 0.15
    assert trained.curve["share"].iloc[-1] > zero.mean() + 0.2
    f = trained.final
    assert f["games"] == SMALL["final_games"] and f["lo"] < f["share"] < f["hi"] and f["fair"] == 0.5
    assert json.loads((trained.out / "final.json").read_text())["weights_sha256"] == trained.weights.sha256
    assert (trained.out / "learning_curve.png").stat().st_size > 1000


def test_same_seed_same_weights_on_any_thread_count(trained, tmp_path):
    old = runner.set_threads(1)
    try:
        again = learned.learn(_peak(), tmp_path / "one_thread", **SMALL)
    finally:
        runner.set_threads(None)
    assert old >= 1
    assert np.array_equal(again.weights.values, trained.weights.values)
    assert again.curve.drop(columns="seconds").equals(trained.curve.drop(columns="seconds"))
    other = learned.learn(_peak(), tmp_path / "other_seed", seed=99, **SMALL)
    assert not np.array_equal(other.weights.values, trained.weights.values)


def test_a_stopped_training_resumes_identically(trained, tmp_path):
    """A stop (the KeyboardInterrupt a SIGINT raises) after generation 2 keeps generation 2's
    checkpoint and weights; --resume finishes with the uninterrupted run's weights."""
    out = tmp_path / "stopped"

    def stop_after_two(g, n, row):
        if g == 2:
            raise KeyboardInterrupt

    r = learned.learn(_peak(), out, progress=stop_after_two, **SMALL)
    assert r.stopped and len(r.curve) == 2 and not (out / "final.json").exists()
    assert learned.read_weights(out / "weights.npz").info["generations"] == 2
    with pytest.raises(learned.LearnError, match="is not empty; use --resume"):
        learned.learn(_peak(), out, **SMALL)
    with pytest.raises(learned.LearnError, match="other settings \\(games\\)"):
        learned.learn(_peak(), out, resume=True, **{**SMALL, "games": 301})
    done = learned.learn(_peak(), out, resume=True, **SMALL)
    assert np.array_equal(done.weights.values, trained.weights.values)
    assert done.final["share"] == trained.final["share"]


def _seat_scenario(tmp_path, weights, rules="", extra=""):
    p = tmp_path / "vs.toml"
    p.write_text(f'game = "pirates_peak"\n[run]\ngames = 500\n{rules}\n[[seats]]\nstrategy = "learned"\n'
                 f'weights = "{weights}"\n{extra}\n[[seats]]\nstrategy = "expert"\n')
    return p


def test_a_seat_plays_its_weights(trained, tmp_path):
    """The seat's weights change its games and the scenario's hash; the manifest records the
    weights file's SHA-256; the rendered scenario names the file, not 32 numbers."""
    w = trained.weights.path
    s = scen.load(_seat_scenario(tmp_path, w))
    assert s.seats[0]["weights_sha256"] == trained.weights.sha256
    g1, _ = s.game.play(s.compile(), 1, 0, 500)
    zero = learned.Weights(**{**trained.weights.__dict__, "values": np.zeros(len(trained.weights.names)),
                              "path": None, "sha256": ""})
    learned.write_weights(tmp_path / "zero.npz", zero)
    s0 = scen.load(_seat_scenario(tmp_path, tmp_path / "zero.npz"))
    g0, _ = s0.game.play(s0.compile(), 1, 0, 500)
    assert s0.hash() != s.hash() and not np.array_equal(g0, g1)
    assert "weights = " in s.to_toml() and "search_bias" not in s.to_toml()
    out = tmp_path / "run"
    res = CliRunner().invoke(main, ["run", str(_seat_scenario(tmp_path, w)), "-o", str(out), "-q"])
    assert res.exit_code == 0, res.output
    man = json.loads((out / "manifest.json").read_text())
    assert {"strategy": "learned", "weights": str(w), "sha256": trained.weights.sha256} in man["strategy_files"]


def test_weights_for_other_rules_are_refused(trained, tmp_path):
    """One line naming the file, the key and the two rules hashes, exit 2, nothing written;
    allow_other_rules = true plays them."""
    p = _seat_scenario(tmp_path, trained.weights.path, rules="[rules.ship]\nlife_points = 3")
    with pytest.raises(scen.ScenarioError, match=r"seats\.0\.weights: .*trained for other rules"):
        scen.load(p)
    out = tmp_path / "never"
    res = CliRunner().invoke(main, ["run", str(p), "-o", str(out)])
    assert res.exit_code == 2 and "trained for other rules" in res.output
    assert len(res.output.strip().splitlines()) == 1, res.output
    assert not out.exists()
    ok = scen.load(_seat_scenario(tmp_path, trained.weights.path, rules="[rules.ship]\nlife_points = 3",
                                  extra="allow_other_rules = true"))
    assert ok.seats[0]["allow_other_rules"] is True


@pytest.mark.parametrize("content, message", [
    (None, "weights file not found"),
    (b"not numpy", "not a weights file"),
])
def test_bad_weights_files(tmp_path, content, message):
    f = tmp_path / "w.npz"
    if content is not None:
        f.write_bytes(content)
    with pytest.raises(scen.ScenarioError, match=f"seats.0.weights: .*{message}"):
        scen.load(_seat_scenario(tmp_path, f))


def test_a_seat_without_weights_or_with_unknown_keys(tmp_path):
    p = tmp_path / "s.toml"
    p.write_text('game = "pirates_peak"\n[[seats]]\nstrategy = "learned"\n[[seats]]\nstrategy = "expert"\n')
    with pytest.raises(scen.ScenarioError, match="seats.0.weights: missing"):
        scen.load(p)
    p.write_text('game = "pirates_peak"\n[[seats]]\nstrategy = "learned"\nweights = "w.npz"\nbudget = 3\n'
                 '[[seats]]\nstrategy = "expert"\n')
    with pytest.raises(scen.ScenarioError, match="seats.0.budget: unknown parameter of strategy 'learned'"):
        scen.load(p)


def test_weights_of_another_game_are_refused(trained):
    with pytest.raises(scen.ScenarioError, match="seats.0.weights: .*weights for pirates_peak, not pirates_cove"):
        scen.from_dict({"game": "pirates_cove", "seats": [{"strategy": "learned", "weights": str(trained.weights.path)},
                                                           *[{"strategy": "expert"}] * 3]})


def test_learn_cli_stops_on_sigint_and_resumes(tmp_path):
    """A real SIGINT to a real `pirate-sim learn`: exit 130 with the resume command, the finished
    generations kept; --resume ends with the weights of an uninterrupted training."""
    import os
    import signal
    import subprocess
    import sys
    import time

    args = ["learn", "scenarios/pirates_peak/default.toml", "-g", "40", "--population", "6", "--elite", "2",
            "-n", "300", "--held-out", "300", "--final-games", "300", "-q"]
    root = Path(__file__).resolve().parents[1]
    cli = [sys.executable, "-c", "from pirate_sim.cli import main; main()"]
    out = tmp_path / "stopped"
    p = subprocess.Popen([*cli, *args, "-o", str(out)], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=dict(os.environ, PYTHONUNBUFFERED="1"))
    deadline = time.time() + 300
    while not (out / "checkpoint.npz").exists() and time.time() < deadline and p.poll() is None:
        time.sleep(0.05)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=120)
    assert p.returncode == 130, err
    assert "interrupted" in err and "--resume" in err
    stopped_at = len(learned._load_checkpoint(out / "checkpoint.npz")[2])
    assert 1 <= stopped_at < 40 and not (out / "final.json").exists()
    import shlex

    hint = shlex.split(err.split("Continue with: ", 1)[1].strip())  # the command as printed, run as it is
    assert hint[:2] == ["pirate-sim", "learn"] and hint[-1] == "--resume"
    done = subprocess.run([*cli, *hint[1:]], cwd=root, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    whole = subprocess.run([*cli, *args, "-o", str(tmp_path / "whole")], cwd=root, capture_output=True, text=True)
    assert whole.returncode == 0, whole.stderr
    assert np.array_equal(learned.read_weights(out / "weights.npz").values,
                          learned.read_weights(tmp_path / "whole" / "weights.npz").values)
    assert "it beats the pool" in whole.stdout or "cannot be told" in whole.stdout or "loses to" in whole.stdout


def test_learn_help_has_an_example():
    r = CliRunner().invoke(main, ["learn", "--help"])
    assert r.exit_code == 0 and "pirate-sim learn scenarios/pirates_peak/default.toml -o" in r.output


@pytest.mark.slow
def test_auto_weights_train_once_per_rules_variant(tmp_path, monkeypatch):
    """weights = "auto": the first load trains the player for the scenario's rules (one stderr
    line says so) and caches it; the second load reads the cache; another rules variant gets
    its own player."""
    from pirate_sim import contract
    from pirate_sim.games import get_game

    # the game's engine is a module generated in the user cache: loaded first from where it is, so
    # that only the player cache below is cold (else the engine would be written and compiled anew)
    contract.engine(get_game("pirates_peak").protocol)
    monkeypatch.setenv("PIRATE_SIM_CACHE", str(tmp_path))  # a cold player cache
    raw = {"game": "pirates_peak", "rules": {"ship": {"life_points": 2}},
           "seats": [{"strategy": "learned", "weights": "auto"}, {"strategy": "expert"}]}
    s = scen.from_dict(raw)
    trained_for = learned.read_weights(Path(s.seats[0]["weights_file"]))
    assert trained_for.rules_hash == learned.rules_hash(s.game, s.rules) and s.seats[0]["weights"] == "auto"
    assert str(tmp_path) in s.seats[0]["weights_file"]
    again = scen.from_dict(raw)
    assert again.seats[0]["weights_sha256"] == s.seats[0]["weights_sha256"] and again.hash() == s.hash()
    assert trained_for.info["curve"][-1]["lo"] > 0.5  # it beats the expert on held-out games


def test_a_bundled_scenarios_auto_player_ships_with_the_package(tmp_path, monkeypatch, capsys):
    """Pirate's Peak's self-play example (weights = "auto", default rules) reads the player the
    package ships (docs/bundled_players.py: trained as auto trains it, same key), not a training:
    nothing trains in an empty user cache, and the shipped file is that training's (seed,
    settings, rules).  A rules variant still trains (the test above)."""
    monkeypatch.setenv("PIRATE_SIM_CACHE", str(tmp_path))  # an empty user cache
    s = scen.load(Path(__file__).resolve().parent.parent / "examples" / "learned" / "peak_self_play.toml")
    assert "training" not in capsys.readouterr().err
    for seat in s.seats:
        path = Path(seat["weights_file"])
        assert path.parent.parent == learned.BUNDLED and not str(path).startswith(str(tmp_path))
        w = learned.read_weights(path)
        settings = learned.training_defaults("pirates_peak")
        assert w.rules_hash == learned.rules_hash(s.game, s.rules) and w.info["seed"] == learned.AUTO_SEED
        assert {k: w.info[k] for k in ("generations", "population", "elite", "games")} == \
            {k: settings[k] for k in ("generations", "population", "elite", "games")}
        assert w.info["curve"][-1]["lo"] > 0.5  # it beats the expert on held-out games


def test_the_report_shows_how_a_learned_seat_was_trained(trained, tmp_path):
    """A run with a learned seat: its results directory keeps a copy of the weights (the
    scenario.toml there loads on its own, same hash) and the report draws the training curve
    the weights file carries, a page without layout problems."""
    from pirate_sim.report import build_report
    from pirate_sim.report.checks import page_problems
    from pirate_sim.report.learned_page import learned_page

    out = tmp_path / "run"
    s = scen.load(_seat_scenario(tmp_path, trained.weights.path))
    runner.run(s, out)
    kept = scen.load(out / "scenario.toml")
    assert kept.hash() == s.hash() and Path(kept.seats[0]["weights"]).parent == out / "strategies"
    pdf, charts = build_report(out, tmp_path / "report", quick=True)
    assert any(p.name == "08_learned_players.png" for p in charts)
    from pirate_sim.report import report_context

    fig = learned_page(report_context(out, quick=True))
    assert page_problems(fig) == []


def test_learn_never_clears_what_it_reads_nor_shares_a_directory(tmp_path):
    """-o over the scenario's own folder is refused even with --force, and nothing is deleted;
    a second training on a directory in use is refused at once; --resume without a
    checkpoint says so."""
    from pirate_sim.results import ResultsError, lock_dir

    folder = tmp_path / "mine"
    folder.mkdir()
    src = folder / "peak.toml"
    src.write_text('game = "pirates_peak"\n')
    with pytest.raises(ResultsError, match="would overwrite .*peak.toml, which this command reads"):
        learned.learn(scen.load(src), folder, force=True, **SMALL)
    assert src.read_text() == 'game = "pirates_peak"\n'
    busy = tmp_path / "busy"
    with lock_dir(busy):
        with pytest.raises(ResultsError, match="in use by another pirate-sim command"):
            learned.learn(_peak(), busy, **SMALL)
    (busy / "x.txt").write_text("mine")
    with pytest.raises(learned.LearnError, match="holds no training to resume"):
        learned.learn(_peak(), busy, resume=True, **SMALL)
    assert (busy / "x.txt").read_text() == "mine"


def test_the_players_page_seats_the_learned_player_against_search(trained, tmp_path):
    """The report's players page has the scenario's learned player as an entry, against every
    strategy and ``search`` (Pirate's Peak: the protocol's engine, as every game); its cells are the
    games a run of the same table plays (the weights, not the base strategy, are played)."""
    from pirate_sim.games.base import G_WINNER
    from pirate_sim.report.players import players_data

    s = scen.load(_seat_scenario(tmp_path, trained.weights.path))
    # search_measured: as where the report's measured search table fits the rules; it has no learned
    # player, so the learned player's cells against search are still played here
    data = players_data(s.game, s.rules, s.seats, 7, 2, quick=True, cache=False, search_measured=True)
    assert not data["search_measured"]
    labels = [e.label for e in data["entries"]]
    assert "learned" in labels and labels[-1] == "search"
    cells = {(p.a, p.b): p for p in data["table"]}
    assert cells.get(("learned", "search"), cells.get(("search", "learned"))).games == 2 * 2  # quick: 2 a seating
    p = cells.get(("expert", "learned")) or cells[("learned", "expert")]
    points = 0.0
    for i in range(2):  # the page's seatings: the lone entry in seat i, the same seeds
        seats = [{"strategy": "expert"}, {"strategy": "expert"}]
        seats[i] = {"strategy": "learned", "weights": str(trained.weights.path)}
        t = scen.from_dict({"game": "pirates_peak", "rules": {"strategy_seating": "fixed"}, "seats": seats},
                           source=str(tmp_path / "t.toml"))
        w = t.game.play(t.compile(), 7, 0, p.per_seating)[0][:, G_WINNER]
        points += float(np.where(w == i, 1.0, np.where(w < 0, 0.5, 0.0)).sum())
    learned_points = points / (2 * p.per_seating)
    assert (p.share_a.value if p.a == "learned" else 1 - p.share_a.value) == pytest.approx(learned_points)


def test_peak_search_rolls_out_the_learned_player(trained, tmp_path):
    """``rollout = "learned"`` in Pirate's Peak: zero weights play the same games as the
    player file (zero PARAMS defaults) as a file rollout, the trained weights other games; the
    manifest names the rollout's weights."""
    zero = learned.Weights(**{**trained.weights.__dict__, "values": np.zeros(len(trained.weights.names)),
                              "path": None, "sha256": ""})
    learned.write_weights(tmp_path / "zero.npz", zero)

    def table(**search):
        return scen.from_dict({"game": "pirates_peak", "rules": {"strategy_seating": "rotate"},
                               "seats": [{"strategy": "search", "budget": 8, **search}, {"strategy": "expert"}]},
                              source=str(tmp_path / "s.toml"))

    as_file = table(rollout=f"{Path(learned.__file__).parent / 'players' / 'pirates_peak.py'}:learned")
    z = table(rollout="learned", weights=str(tmp_path / "zero.npz"))
    t = table(rollout="learned", weights=str(trained.weights.path))
    out = [x.game.play(x.compile(), 9, 0, 40) for x in (as_file, z, t)]
    assert np.array_equal(out[0][0], out[1][0]) and np.array_equal(out[0][1], out[1][1])
    assert not np.array_equal(out[1][1], out[2][1])
    assert {"strategy": "learned", "weights": str(trained.weights.path), "sha256": trained.weights.sha256} \
        in t.strategy_files()


# the other seats and games of each game's table for the next test (budget 4)
ROLLOUT_TABLES = {"pirateer": ([{"strategy": "expert"}], 2),  # a Pirateer search game: seconds
                  "pirates_cove": ([{"strategy": "expert"}] * 2, 6),
                  "ice_pirates": ([{"strategy": "expert"}], 4)}


@pytest.mark.parametrize("game", sorted(ROLLOUT_TABLES))
def test_search_rolls_out_the_learned_player_with_its_weights(tmp_path, game):
    """``rollout = "learned"`` in Pirateer, Pirate's Cove and Ice Pirates: zero weights play the
    same games as the player file with its (zero) PARAMS defaults as a file rollout, the
    bundled example's trained weights play other games, and the weights count in the
    scenario's hash.  Real kernels, real files, budget 4."""
    others, n = ROLLOUT_TABLES[game]
    root = Path(__file__).resolve().parent.parent
    u = learned.player(game)
    learned.write_weights(tmp_path / "zero.npz", learned.Weights(game, "x", "0" * 16, tuple(u.params),
                                                                 np.zeros(len(u.params))))

    def table(**search):
        return scen.from_dict({"game": game, "rules": {"strategy_seating": "rotate"},
                               "seats": [{"strategy": "search", "budget": 4, **search}, *others]},
                              source=str(tmp_path / "s.toml"))

    zero = table(rollout="learned", weights=str(tmp_path / "zero.npz"), allow_other_rules=True)
    as_file = table(rollout=f"{root / 'pirate_sim' / 'players' / game}.py:learned")
    trained = table(rollout="learned", weights=str(root / "examples" / "learned" / game / "weights.npz"),
                    allow_other_rules=True)  # (trained for the default seats)
    g0, s0 = zero.game.play(zero.compile(), 31, 0, n)
    g1, s1 = as_file.game.play(as_file.compile(), 31, 0, n)
    g2, s2 = trained.game.play(trained.compile(), 31, 0, n)
    assert np.array_equal(g0, g1) and np.array_equal(s0, s1)
    assert not (np.array_equal(g0, g2) and np.array_equal(s0, s2))
    assert zero.hash() != trained.hash()


def test_every_example_scenario_loads_and_the_search_models_play():
    """Every bundled example scenario passes the scenario check (its weights, strategy files
    and keys), and the two "search models the table" examples play (two games of Pirate's
    Cove's, one of Ice Pirates')."""
    root = Path(__file__).resolve().parent.parent
    files = sorted((root / "examples").rglob("*.toml"))
    assert len(files) >= 12
    loaded = {f.name: scen.load(f) for f in files}
    for name, n in (("pirates_cove_search_models_learned.toml", 2), ("ice_pirates_search_models_learned.toml", 1)):
        s = loaded[name]
        g, _ = s.game.play(s.compile(), s.seed, 0, n)
        assert g.shape[0] == n and (g[:, 0] >= -1).all()
