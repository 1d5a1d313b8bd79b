"""Ice Pirates' report pages: the four PNGs are written, and their data functions add up."""

from fractions import Fraction

import matplotlib.pyplot as plt
import numpy as np
import pytest

from pirate_sim import report, runner, scenario
from pirate_sim.games.ice_pirates import GAME
from pirate_sim.games.ice_pirates import report as IR
from pirate_sim.games.ice_pirates import rules as R

PAGES = ("ice_pirates_bay_visits", "ice_pirates_upgrade_value", "ice_pirates_raid_odds", "ice_pirates_players")
GAMES = 300
CHUNK = 60  # five parts: the pages must add them up to the whole-column figures
SEATS = [{"strategy": "map_hunter"}, {"strategy": "raider", "aggression": 0.5}, {"strategy": "upgrader"},
         {"strategy": "map_hunter"}]


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("ice_report") / "run"
    s = scenario.from_dict({"game": "ice_pirates", "run": {"games": GAMES, "seed": 11, "chunk_size": CHUNK},
                            "seats": SEATS})
    runner.run(s, out)
    return out


@pytest.fixture(scope="module")
def built(run_dir):
    mp = pytest.MonkeyPatch()
    mp.setattr(IR, "SIDE_GAMES", 200)  # keep the side simulation small in tests
    try:
        _pdf, pngs = report.build_report(run_dir, run_dir / "report")
    finally:
        mp.undo()
    return pngs


def test_report_writes_the_four_pages(built, run_dir):
    names = {p.stem for p in built}
    for page in PAGES:
        png = run_dir / "report" / f"10_{page}.png"
        assert f"10_{page}" in names and png.exists()
        assert png.stat().st_size > 20_000, page  # a drawn chart, not an empty canvas
    assert (run_dir / "report" / "report.pdf").stat().st_size > 50_000


def test_hex_layout_is_north_up():
    xy = {i: IR.hex_xy(q, r) for i, q, r, _name in GAME.hex_cells}
    north, south = R.CORNER_CELLS[0], R.CORNER_CELLS[3]
    assert xy[north][1] == max(y for _x, y in xy.values())
    assert xy[south][1] == min(y for _x, y in xy.values())
    assert xy[R.BELL_CELL] == (0.0, 0.0)
    assert xy[R.CORNER_CELLS[1]][0] > 0 > xy[R.CORNER_CELLS[5]][0]  # NE east, NW west


def test_bay_visits_data(run_dir):
    ctx_games = report.ReportContext(run_dir, {}, GAME, None, {}, {}).games
    cols = [f"visits_cell_{i:02d}" for i in range(R.N_CELLS)]
    df = ctx_games(cols)
    d = IR.bay_visits_data(df, GAME.hex_cells)
    assert d["n"] == GAMES and len(d["mean"]) == R.N_CELLS == len(d["cells"])
    assert d["mean"][R.BELL_CELL] == pytest.approx(df["visits_cell_18"].mean())
    assert (d["mean"] >= 0).all() and d["mean"][R.BELL_CELL] > 0  # every ship starts on Bell Island


def test_upgrade_value_counts_add_up(run_dir):
    df = report.ReportContext(run_dir, {}, GAME, None, {}, {}).seats(["won", *IR.UPGRADES])
    rows = IR.upgrade_value_data(df)
    assert [r["name"] for r in rows] == list(IR.UPGRADES)
    wins = int(df["won"].astype(bool).sum())
    for r in rows:
        assert r["n_took"] + r["n_not"] == GAMES * len(SEATS) == len(df)
        assert r["k_took"] + r["k_not"] == wins
        assert r["took"].n == r["n_took"] and r["not_took"].n == r["n_not"]
        if r["n_took"] and r["n_not"]:
            d = r["diff"]
            assert d.value == pytest.approx(r["k_took"] / r["n_took"] - r["k_not"] / r["n_not"])
            assert d.lo <= d.value <= d.hi


def test_raid_odds_matrix():
    rules = {p.key: p.default for p in GAME.params}
    data = IR.raid_odds_data(GAME, rules, samples=20, seed=1)
    for mode in IR.RAID_MODES:
        for cannon in IR.RAID_CANNONS:
            m = data[(mode, cannon)]
            assert m.shape == (7, 7) and not np.isnan(m).any()  # every case filled, no NaN
            assert m[6, 0] == 1.0  # a crew of 7 always beats a lone captain (ties to the raider)
    # lone captains, single exchange, raider wins ties: 21/36
    assert data[("single exchange", "no cannon")][0, 0] == pytest.approx(float(Fraction(21, 36)))
    # the page follows the run's rules: defender wins ties
    d2 = IR.raid_odds_data(GAME, {**rules, "raid.ties_to": "defender"}, samples=20, seed=1)
    assert d2[("single exchange", "no cannon")][0, 0] == pytest.approx(float(Fraction(15, 36)))


def test_players_data_side_simulation():
    rules = {p.key: p.default for p in GAME.params}
    seats = scenario.from_dict({"game": "ice_pirates", "seats": SEATS}).seats
    rows = IR.players_data(rules, seats, seed=3, n_games=100, counts=(2, 6))
    assert [r["players"] for r in rows] == [2, 6]
    for r in rows:
        n = r["players"]
        assert r["games"] == 100 and len(r["win"]) == n
        assert r["strategies"] == tuple(seats[i % len(seats)]["strategy"] for i in range(n))
        assert r["length"].value > 0
        assert sum(e.value for e in r["win"]) <= 1.0 + 1e-9
    # rules that cannot seat six ships give an error row, not an exception
    tight = {**rules, "crew.per_ship": 5}
    rows = IR.players_data(tight, seats, seed=3, n_games=50, counts=(2, 6))
    assert "error" not in rows[0] and "crew.total" in rows[1]["error"]
    fig = IR.draw_players(rows, 50)  # draws with a missing player count
    plt.close(fig)


def test_pages_over_parts_equal_the_whole_columns(run_dir):
    ctx = report.ReportContext(run_dir, {}, GAME, None, {}, {})
    cols = [f"visits_cell_{i:02d}" for i in range(R.N_CELLS)]
    games = ctx.games(cols)
    d = IR.bay_visits_data(ctx.parts("games"), GAME.hex_cells)
    assert d["n"] == GAMES
    assert np.array_equal(d["mean"], np.array([games[c].mean() for c in cols]))
    seats = ctx.seats(["won", *IR.UPGRADES])
    won = seats["won"].to_numpy(bool)
    for r in IR.upgrade_value_data(ctx.parts("seats")):
        took = seats[r["name"]].to_numpy() >= 1
        assert (r["k_took"], r["n_took"]) == (int(won[took].sum()), int(took.sum()))
        assert (r["k_not"], r["n_not"]) == (int(won[~took].sum()), int((~took).sum()))


def test_mirror_counters_are_one_bar_and_progress_is_defined(run_dir):
    """A raid made is a raid suffered, a swashbuckle spends a chip: one bar each, named "a = b";
    the score page says what "progress" is and gives its margin with digits that differ."""
    ctx = report.report_context(run_dir, quick=True)
    assert ("raids_made", "raids_suffered") in ctx.mirrors
    assert ("swashbuckles", "crew_spent_swashbuckling") in ctx.mirrors
    groups, _ = report.event_groups(ctx.game, ctx.est, ctx.mirrors)
    shown = [k for _u, ks in groups for k in ks]
    assert "events.raids_made" in shown and "events.raids_suffered" not in shown
    assert "events.crew_spent_swashbuckling" not in shown
    labels = [lab for lab, _v, _c in report.cover_rows(ctx)]
    assert "events.raids_suffered" not in labels and not [x for x in labels if x.endswith(": raids_suffered")]
    fig = report._scores(ctx)
    try:
        texts = " ".join(t.get_text() for t in fig.texts).replace("\n", " ")
        doc = next(c.doc for c in GAME.seat_columns if c.name == "progress")
        assert " ".join(doc.split()) in " ".join(texts.split())
        assert "every winner has 4" in texts
        m = ctx.est["winning_margin"]
        title = fig.axes[1].get_title()
        assert report.margin_text(m) in title
        lo, hi = report.margin_text(m).split("[")[1].rstrip("]").split("..")
        assert lo != hi
    finally:
        plt.close(fig)
