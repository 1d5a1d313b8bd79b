"""Distillation (pirate_sim/distill.py, `pirate-sim learn --method distill`): the rollout values
the engine records are search's, the player's option features give exactly the values its
``learned`` function plays, training has a signal and resumes identically.  Pirate's Peak's
player, real kernels, real files."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from click.testing import CliRunner

from pirate_sim import distill, learned
from pirate_sim import scenario as scen
from pirate_sim.cli import main

SMALL = dict(generations=2, held_out=2000, final_games=2000, method="distill",
             distill_settings={"decisions": 1500, "rollouts": 8})


def _peak():
    return scen.from_dict({"game": "pirates_peak"})


@pytest.fixture(scope="module")
def positions():
    """Rollout values at 300 positions a search seat of Pirate's Peak reaches (expert rollouts)."""
    sc = _peak()
    c = distill.positions_table(sc, ["expert"], None, 8).compile()
    return sc.game.rollout_values(c, 11, 300, 16), c


def test_the_rollout_values_are_win_chances_of_the_legal_options(positions):
    """A recorded decision a strategy file is asked (a declaration: sail first) has 2+ options
    (search records only those) and a value in [0, 1] (the win reward's mean) for each, none past
    them; the others (stop, treasures: the base strategy's) are skipped (0 options); the values
    differ between options somewhere (the rollouts after different options are different games)."""
    data, _ = positions
    n, q = data["n"], data["q"]
    asked = n > 0
    assert len(n) == 300 and asked.sum() > 100 and (n[asked] >= 2).all() and (q[~asked] == 0).all()
    assert (data["options"][asked, 0] == 0).all()  # ACT_SAIL first
    for d in np.flatnonzero(asked):
        assert ((q[d, :n[d]] >= 0) & (q[d, :n[d]] <= 1)).all() and (q[d, n[d]:] == 0).all()
    assert np.mean([np.ptp(q[d, :n[d]]) > 0 for d in np.flatnonzero(asked)]) > 0.5


def test_the_rollout_values_are_the_same_on_one_thread_or_two(positions):
    """The values are computed in blocks on the run's threads: one thread gives every value,
    view and option of two threads (each row depends only on its recorded state and stream)."""
    from pirate_sim import runner

    data, c = positions
    try:
        runner.set_threads(1)
        one = _peak().game.rollout_values(c, 11, 300, 16)
    finally:
        runner.set_threads(None)
    for k in ("q", "n", "views", "options", "seat"):
        assert np.array_equal(one[k], data[k]), k


def test_the_option_features_give_the_values_the_player_plays(positions):
    """For random weights, the option of the best ``w . psi`` (ties to the earlier option) is the
    one the player file's ``learned`` takes, at every recorded position (its own compiled code)."""
    data, c = positions
    u = learned.player("pirates_peak")
    mod = sys.modules[u.module_name]
    psis = distill.option_psi(u, _peak().game.file_board(c), data["views"],
                              data["options"], data["n"])
    rng = np.random.default_rng(5)
    for _ in range(5):
        w = rng.normal(size=len(u.params))
        for d, psi in enumerate(psis):
            if data["n"][d] < 2:
                continue
            opts = data["options"][d, :data["n"][d]]
            v = psi @ w
            assert psi.shape == (len(opts), len(u.params))
            assert mod.learned(data["views"][d], opts, w) == int(np.argmax(v)), (d, v)


def test_distillation_has_a_signal_and_resumes_identically(tmp_path):
    """Two small generations beat the always-sail start (about 5% of the points) by far on
    held-out games; a stop after generation 1 resumes to the same weights (the positions of
    generation 1 come back from distill_data.npz); settings that differ are refused."""
    done = learned.learn(_peak(), tmp_path / "a", **SMALL)
    assert done.curve["share"].iloc[-1] > 0.4 and done.weights.info["method"] == "distill"
    assert done.final["lo"] < done.final["share"] < done.final["hi"]

    def stop_after_one(g, n, row):
        if g == 1:
            raise KeyboardInterrupt

    out = tmp_path / "b"
    r = learned.learn(_peak(), out, progress=stop_after_one, **SMALL)
    assert r.stopped and len(r.curve) == 1 and (out / "distill_data.npz").is_file()
    with pytest.raises(learned.LearnError, match="other settings \\(distill\\)"):
        learned.learn(_peak(), out, resume=True, **{**SMALL, "distill_settings": {"decisions": 1501, "rollouts": 8}})
    again = learned.learn(_peak(), out, resume=True, **SMALL)
    assert np.array_equal(again.weights.values, done.weights.values)


def test_a_player_without_option_features_is_refused_in_one_line(tmp_path):
    """Ice Pirates' player has no ``option_features``: the API and the CLI say so (exit 2),
    nothing written; an unknown setting and an unknown method are refused too."""
    ice = scen.from_dict({"game": "ice_pirates"})
    with pytest.raises(learned.LearnError, match="has no option_features"):
        learned.learn(ice, tmp_path / "ice", method="distill")
    with pytest.raises(learned.LearnError, match="not a training method"):
        learned.learn(_peak(), tmp_path / "x", method="td")
    with pytest.raises(learned.LearnError, match="horizon: not a setting"):
        learned.learn(_peak(), tmp_path / "x", method="distill", distill_settings={"horizon": 3})
    for bad, why in (({"rollouts": 0}, "rollouts: expected a whole number"), ({"tau": 0}, "tau: expected a number"),
                     ({"rollout": "mine"}, "rollout: 'mine' is not one of game, learned")):
        with pytest.raises(learned.LearnError, match=why):
            learned.learn(_peak(), tmp_path / "x", method="distill", distill_settings=bad)
    with pytest.raises(learned.LearnError, match="settings of --method distill, not of cem"):
        learned.learn(_peak(), tmp_path / "x", distill_settings={"rollouts": 4})
    res = CliRunner().invoke(main, ["learn", "scenarios/ice_pirates/default.toml", "-o", str(tmp_path / "c"),
                                    "--method", "distill"])
    assert res.exit_code == 2 and "has no option_features" in res.output, res.output
    assert not any((tmp_path / d).exists() for d in ("ice", "c", "x"))


def test_learn_cli_distills_and_its_curve_page_names_the_method(tmp_path):
    """`pirate-sim learn --method distill` with its own settings: the weights file records them,
    and the learning-curve page says how the player was trained (not the cross-entropy method's
    population, which it never drew)."""
    from pirate_sim.report.checks import page_problems

    out = tmp_path / "d"
    res = CliRunner().invoke(main, ["learn", "scenarios/pirates_peak/default.toml", "-o", str(out), "--method",
                                    "distill", "--decisions", "400", "--rollouts", "4", "-g", "1", "--held-out", "500",
                                    "--final-games", "500", "-q"])
    assert res.exit_code == 0, res.output
    w = learned.read_weights(out / "weights.npz")
    assert w.info["method"] == "distill" and w.info["distill"]["decisions"] == 400 and w.info["distill"]["rollouts"] == 4
    fig = learned.curve_figure([("distilled", w)])
    text = " ".join(t.get_text() for t in fig.findobj(lambda o: hasattr(o, "get_text")))
    assert "distilled from search: 1 generations x 400 positions x 4 rollouts an option" in text
    assert "weight vectors" not in text and page_problems(fig) == []

