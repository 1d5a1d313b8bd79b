"""Pirateer's report pages: data functions on small tables, drawing smoke tests."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from pirate_sim.games.pirateer import GAME  # noqa: E402
from pirate_sim.games.pirateer import report as rep  # noqa: E402


def _tables(n=300, seed=4):
    r = {p.key: p.default for p in GAME.params}
    c = GAME.compile(r, [{"strategy": s} for s in GAME.default_seats])
    out_g, out_s = GAME.play(c, seed, 0, n)
    games = pd.DataFrame({"winner": out_g[:, 0], "first_seat": out_g[:, 4],
                          "end_reason": pd.Categorical.from_codes(out_g[:, 2], GAME.end_reasons),
                          "first_hold_turns": out_g[:, 8],
                          "first_hold_end": pd.Categorical.from_codes(out_g[:, 9], GAME.game_columns[4].labels)})
    seats = pd.DataFrame({"harbor": out_s[:, :, 0].ravel(), "seat_won": out_s[:, :, 9].ravel()})
    return c, out_g, out_s, games, seats


def test_seats_and_endings_data_count_every_game():
    c, out_g, out_s, games, seats = _tables()
    d = rep.seats_data(games, seats, 4)
    assert sum(w for w, _n in d["harbor"].values()) == (out_g[:, 0] >= 0).sum()
    assert all(n == len(out_g) for _w, n in d["harbor"].values())
    assert sum(w for w, _n in d["order"].values()) == (out_g[:, 0] >= 0).sum()
    assert d["order"][0][0] == (out_g[:, 0] == out_g[:, 4]).sum()
    e = rep.endings_data(games)
    assert e["n"] == len(out_g) and sum(e["ends"].values()) == len(out_g)
    assert e["ends"]["treasure_home"] == (out_g[:, 2] == 0).sum()
    rep.draw_seats(d)
    fig = rep.draw_endings(e)
    # the generic "How games end" page draws the endings: this page only the treasure's fate
    assert [ax.get_title() for ax in fig.axes] == ["The first ship to take the treasure..."]


def test_survival_curves_add_up():
    _c, out_g, _s, games, _seats = _tables()
    s = rep.survival_data(games, horizon=400)
    cur = rep.survival_curves(s)
    taken = (out_g[:, 9] > 0).sum()
    assert cur["n"] == taken
    assert np.isclose(cur["held"][-1], 0) and (np.diff(cur["held"]) <= 1e-12).all()
    assert np.isclose(cur["home"][-1] * taken, (out_g[:, 9] == 2).sum())
    assert np.isclose(cur["captured"][-1] * taken, (out_g[:, 9] == 3).sum())
    rep.draw_survival(s)


def test_heat_counts_every_capture():
    c, *_ = _tables(n=1)
    d = rep.heat_data(GAME, c, 4, n_games=200)
    out_g, out_s = GAME.play(c, 4, 0, 200)
    assert np.isclose(np.nansum(d["grids"][0]) * 200, out_s[:, :, 2].sum())
    assert np.isclose(np.nansum(d["grids"][1]) * 200, out_s[:, :, 6].sum())
    rep.draw_heat(d)


def test_players_page_runs_for_2_3_4():
    rows = rep.players_data({}, [{"strategy": "runner"}, {"strategy": "hunter"}], 1, n_games=100)
    assert [r["players"] for r in rows] == [2, 3, 4] and all("error" not in r for r in rows)
    rep.draw_players(rows)


def test_players_page_without_any_player_count_says_why():
    import matplotlib.pyplot as plt

    from pirate_sim.report.checks import page_problems

    fig = rep.draw_players([{"players": n, "error": "rules.x: not a parameter"} for n in (2, 3, 4)])
    assert page_problems(fig) == []
    plt.close(fig)


def test_captures_made_and_suffered_are_one_counter(tmp_path):
    from pirate_sim import report, runner, scenario

    s = scenario.load("scenarios/pirateer/default.toml", ["run.games=200"])
    runner.run(s, tmp_path / "run")
    ctx = report.report_context(tmp_path / "run", quick=True)
    assert ("captures_made", "captures_suffered") in ctx.mirrors


def test_players_rules_drop_a_harbor_list_of_another_count():
    assert rep.players_rules({"harbors": [1, 2, 3, 4]}, 2)["harbors"] == []
    assert rep.players_rules({"harbors": [1, 3]}, 2)["harbors"] == [1, 3]
