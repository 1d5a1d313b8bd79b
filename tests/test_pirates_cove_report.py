"""Pirate's Cove's report pages: the six PNGs are written, and their data functions add up."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from pirate_sim import report, runner, scenario
from pirate_sim.games.pirates_cove import GAME
from pirate_sim.games.pirates_cove import report as CR
from pirate_sim.games.pirates_cove.game import FAME_SOURCES

PAGES = ("pirates_cove_fame_sources", "pirates_cove_islands", "pirates_cove_sections", "pirates_cove_tavern",
         "pirates_cove_royal_navy", "pirates_cove_players")
GAMES = 300
CHUNK = 60  # five parts: the pages must add them up to the whole-column figures
SEATS = [{"strategy": "treasure_hunter"}, {"strategy": "fighter"}, {"strategy": "crowd_avoider"},
         {"strategy": "random"}]


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("cove_report") / "run"
    s = scenario.from_dict({"game": "pirates_cove", "run": {"games": GAMES, "seed": 11, "chunk_size": CHUNK},
                            "rules": {"strategy_seating": "rotate"}, "seats": SEATS})
    runner.run(s, out)
    return out


@pytest.fixture(scope="module")
def built(run_dir):
    mp = pytest.MonkeyPatch()
    mp.setattr(CR, "SIDE_GAMES", 150)  # keep the side simulation small in tests
    try:
        _pdf, pngs = report.build_report(run_dir, run_dir / "report")
    finally:
        mp.undo()
    return pngs


def test_report_writes_the_six_pages(built, run_dir):
    names = {p.stem for p in built}
    for page in PAGES:
        png = run_dir / "report" / f"10_{page}.png"
        assert f"10_{page}" in names and png.exists()
        assert png.stat().st_size > 20_000, page


def _ctx(run_dir):
    return report.ReportContext(run_dir, {}, GAME, None, {}, {})


def test_pages_over_parts_equal_the_whole_columns(run_dir):
    ctx = _ctx(run_dir)
    seats = ctx.seats(["strategy", "won", "fame", "fame_lost_mutiny", *FAME_SOURCES, "setup_crew",
                       "held_fame", "navy_fights"])
    d = CR.fame_sources_data(ctx.parts("seats"))
    for name, f in d["all"].iterrows():
        sub = seats[seats["strategy"] == name]
        assert f["n"] == len(sub) == GAMES  # strategies rotate: each plays every game once
        for src in FAME_SOURCES:
            assert f[src] == pytest.approx(sub[src].mean())
        assert sum(f[src] for src in FAME_SOURCES) - f["fame_lost_mutiny"] == pytest.approx(f["fame"])
    assert int(d["winners"]["n"].sum()) == int(seats["won"].astype(bool).sum())
    isl = CR.islands_data(ctx.parts("games"))
    assert isl["n"] == GAMES and isl["ships"].shape == (6, 12)
    assert np.allclose(isl["ships"].sum(axis=0), len(SEATS))  # every ship sails somewhere each round
    assert (isl["fights"][5] == 0).all() and (isl["fights"] <= 1).all()
    sec = CR.sections_data(ctx.parts("seats"))
    t = sec["crew"]
    assert int(t["n"].sum()) == len(seats)
    for (strategy, lv), row in t.iterrows():  # within one strategy: a level beside the same strategy's others
        m = (seats["setup_crew"] == lv) & (seats["strategy"] == strategy)
        assert (row["n"], row["wins"]) == (int(m.sum()), int(seats["won"][m].astype(bool).sum()))
    rows = CR.tavern_data(ctx.parts("seats"))
    fame_row = [r for r in rows if r["group"] == "fame"][0]
    assert fame_row["n_held"] == int((seats["held_fame"] >= 1).sum())
    assert all(r["n_held"] + r["n_not"] == len(seats) for r in rows)
    navy = CR.navy_data(ctx.parts("seats"))
    assert int(navy["navy_fights"].sum()) == int(seats["navy_fights"].sum())


def test_what_cannot_vary_is_not_shown_as_an_estimate(run_dir):
    """12 rounds: every game lasts 12 x 4 turns and none can be truncated (no turn cap)."""
    ctx = report.report_context(run_dir, quick=True)
    rows = {label: (value, ci) for label, value, ci in report.cover_rows(ctx)}
    assert rows["game length"] == ("48 turns", "every game (fixed)")
    assert not [k for k in rows if k.startswith(("game length,", "truncated"))]
    assert report._length(ctx) is None  # no one-bar length page


def test_royal_navy_other_is_said_in_numbers(run_dir):
    t = CR.navy_data(report.ReportContext(run_dir, {}, GAME, None, {}, {}).parts("seats"))
    fig = CR.draw_navy(t)
    try:
        texts = [x.get_text() for x in fig.axes[0].texts]
        other = (t["navy_fights"] - t["navy_wins"] - t["navy_losses"]).clip(lower=0)
        for o, f in zip(other, t["navy_fights"]):
            if f and o:
                assert any(x.startswith(f"other: {int(o):,} of {int(f):,}") for x in texts)
        assert not any(x.startswith("other: 0 of") for x in texts)  # a zero is not a label on every bar
    finally:
        plt.close(fig)


def test_royal_navy_without_other_endings_says_so_once():
    t = pd.DataFrame({"n": [100, 100], "navy_fights": [30, 20], "navy_wins": [10, 5], "navy_losses": [20, 15],
                      "fame_black": [0, 0], "legend_fights": [0, 0], "legend_wins": [0, 0]},
                     index=pd.Index(["fighter", "trader"], name="strategy"))
    fig = CR.draw_navy(t)
    try:
        assert not fig.axes[0].texts
        assert "no fight in this run was decided by another ship" in " ".join(x.get_text() for x in fig.texts)
    finally:
        plt.close(fig)


def test_players_data_side_simulation():
    rules = {p.key: p.default for p in GAME.params}
    seats = scenario.from_dict({"game": "pirates_cove", "seats": SEATS}).seats
    rows = CR.players_data(rules, seats, seed=3, n_games=60)
    assert [r["players"] for r in rows] == [3, 4, 5]
    for r in rows:
        assert r["games"] == 60 and r["fights"].value >= 0
        assert 0.0 <= sum(e.value * e.n for e in r["win"].values()) <= 60  # at most one winner a game
    assert set(rows[0]["win"]) == {"treasure_hunter", "fighter", "crowd_avoider"}
    fig = CR.draw_players(rows, 60)
    plt.close(fig)


def test_players_page_says_the_barge_share_where_a_barge_sails():
    """black.ships = [2, 1, 1]: a second black ship (a Legendary card, the barge 1 time in 6) only
    with 3 players; the page writes the barge's share of all fame over that bar and no other."""
    rules = {p.key: p.default for p in GAME.params}
    seats = scenario.from_dict({"game": "pirates_cove", "seats": SEATS}).seats
    rows = CR.players_data(rules, seats, seed=3, n_games=300, counts=(3, 4))
    assert 0.0 < rows[0]["barge_share"] < 1.0 and rows[1]["barge_share"] == 0.0
    fig = CR.draw_players(rows, 300)
    try:
        texts = [t.get_text() for ax in fig.axes for t in ax.texts]
        assert texts.count(f"barge {100 * rows[0]['barge_share']:.0f}%\nof all fame") == 1
        assert sum("barge" in t for t in texts) == 1
    finally:
        plt.close(fig)


def test_section_levels_are_read_within_one_strategy():
    """A strategy that always buys the same level is not drawn (it would only say which strategy
    sits at that level); the page is dropped when no strategy varies any section."""
    idx = pd.MultiIndex.from_tuples([("fighter", 4), ("random", 2), ("random", 3)], names=["strategy", "setup_hull"])
    t = pd.DataFrame({"n": [100, 50, 50], "wins": [80, 5, 10]}, index=idx)
    assert CR.varying_strategies(t) == (["random"], {"fighter": 4})
    fig = CR.draw_sections({"hull": t}, 4)
    try:
        ax = fig.axes[0]
        assert [t.get_text() for t in ax.get_legend().get_texts()] == ["random"]
        assert "fighter 4" in ax.get_title()
    finally:
        plt.close(fig)
    only_fixed = t.loc[["fighter"]]
    assert CR.draw_sections({"hull": only_fixed}, 4) is None


def test_section_axis_spans_the_drawn_rates_not_the_fair_share():
    """random at 0-1% in every level: the axis spans those rates (a 0-30% axis left the page empty)."""
    idx = pd.MultiIndex.from_tuples([("random", 2), ("random", 3)], names=["strategy", "setup_hull"])
    t = pd.DataFrame({"n": [2000, 2000], "wins": [4, 10]}, index=idx)
    fig = CR.draw_sections({"hull": t}, 4)
    try:
        lo, hi = fig.axes[0].get_ylim()
        assert hi < 5 and "above the axis" in fig._suptitle.get_text()
    finally:
        plt.close(fig)
