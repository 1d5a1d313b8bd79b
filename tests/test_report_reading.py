"""The report's cover and generic pages read right (issue 20, "Report pages a designer reads right").

On the toy game (fast): the cover's lines are whole (wrapped, never cut), differences of
shares are in points, each headline number gets a sentence with its interval, the cover
names the players and points to a tournament when one is given, text the user typed is
drawn as typed; every page is landscape US Letter.  Fixed lengths, impossible truncation
and mirror counters are read from synthetic accumulators and tables, checked exactly.
"""

from __future__ import annotations

import re
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from pirate_sim import report, results, runner, scenario
from pirate_sim.games import get_game
from pirate_sim.report import reading
from pirate_sim.report.parts import Parts
from pirate_sim.stats import Estimate

TITLE = "Duel :skull: $5 bounty"  # an emoji code and a dollar sign: drawn as typed


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("reading") / "run"
    s = scenario.from_dict({"game": "dice_duel", "title": TITLE, "run": {"games": 3000, "seed": 3},
                            "rules": {"first_player_cutoff": 5},  # seat 0 starts 5/6 of the time: a clear edge
                            "seats": [{"strategy": "roller"}, {"strategy": "roller"}]})
    runner.run(s, out)
    return out


def cover_text(ctx) -> list[str]:
    fig = report._cover(ctx)
    try:
        return [t.get_text() for t in fig.texts]
    finally:
        plt.close(fig)


def test_cover_lines_are_whole_and_the_positions_line_is_not_cut(run_dir):
    ctx = report.report_context(run_dir, quick=True)
    texts = cover_text(ctx)
    joined = " ".join(t.strip() for t in texts)
    words = " ".join(report.positions_note(ctx).split())
    assert words in " ".join(joined.split())  # every word of it, wrapped over lines
    assert not [t for t in texts if t.rstrip().endswith("...")]


def test_first_player_advantage_is_in_points_with_a_verdict(run_dir):
    ctx = report.report_context(run_dir, quick=True)
    texts = cover_text(ctx)
    row = next(t for t in texts if t.startswith("first-player advantage"))
    assert "pts" in row and "%" not in row
    adv = ctx.est["first_player_advantage"]
    assert adv.lo > 0.05  # the cutoff makes the first player (mostly seat 0) the favourite
    sentences = " ".join(" ".join(texts).split()).split(" - ")  # the verdicts, each whole again
    first = next(s for s in sentences if s.startswith("First player:"))
    assert f"{100 * adv.value:+.1f} points [{100 * adv.lo:+.1f}, {100 * adv.hi:+.1f}]" in first
    assert "first-mover edge" in first
    for head in ("First player:", "Seats:", "Length:", "Decisive:"):  # one sentence per headline number
        s = next((s for s in sentences if s.startswith(head)), "")
        assert s and "[" in s, head


def test_cover_names_the_players_and_points_to_a_tournament(run_dir, tmp_path):
    ctx = report.report_context(run_dir, quick=True)
    text = " ".join(" ".join(cover_text(ctx)).split())
    assert "0: roller, 1: roller" in text and "No tournament was run" in text
    tour = tmp_path / "tour"
    tour.mkdir()
    ctx = report.report_context(run_dir, quick=True, tournament=tour)
    assert "".join(str(tour).split()) in "".join("".join(cover_text(ctx)).split())  # wrapped over lines
    pointer = run_dir / report.TOURNAMENT_FILE  # the documented file: the run points to its tournament
    try:
        pointer.write_text(str(tour) + "\n")
        assert report.report_context(run_dir, quick=True).tournament == tour
        pointer.write_text("no/such/dir\n")
        with pytest.raises(results.ResultsError, match="tournament.txt: tournament directory .* does not exist"):
            report.report_context(run_dir, quick=True)
    finally:
        pointer.unlink()


def test_user_text_is_drawn_as_typed(run_dir):
    texts = cover_text(report.report_context(run_dir, quick=True))
    assert any(TITLE in t for t in texts)


def test_every_pdf_page_is_landscape_letter(run_dir, tmp_path):
    pdf, _ = report.build_report(run_dir, tmp_path / "rep", quick=True)
    boxes = re.findall(rb"/MediaBox \[ *([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) *\]", pdf.read_bytes())
    assert boxes and {tuple(float(x) for x in b) for b in boxes} == {(0, 0, 792, 612)}


# ------------------------------------------------------------------ what cannot vary


class FakeAcc:
    def __init__(self, game, hist, sums, sumsq, n=10):
        self.game, self.turns_hist, self.n = game, np.array(hist), n
        self.game_sum, self.game_sumsq = np.array(sums, float), np.array(sumsq, float)


def test_fixed_length_only_when_every_game_lasts_the_same():
    g = get_game("dice_duel")
    assert reading.fixed_length(FakeAcc(g, [0] * 48 + [10], [0, 0], [0, 0])) == 48
    assert reading.fixed_length(FakeAcc(g, [0] * 47 + [1, 9], [0, 0], [0, 0])) is None
    assert reading.can_truncate(g)  # the toy game has a turn cap
    assert not reading.can_truncate(get_game("pirates_cove"))  # 12 rounds: nothing to cut short


def test_mirror_pairs_are_merged_only_when_equal_in_every_game():
    g = get_game("ice_pirates")
    names = [c.name for c in g.seat_columns if c.counter and not c.labels]
    j = {c.name: i for i, c in enumerate(g.seat_columns)}
    sums, sumsq = np.zeros(len(g.seat_columns)), np.zeros(len(g.seat_columns))
    sums[np.arange(len(sums))] = np.arange(len(sums)) + 100.0  # every counter distinct ...
    sumsq[:] = sums * 7
    for a, b in (("raids_made", "raids_suffered"), ("swashbuckles", "crew_spent_swashbuckling")):
        sums[j[b]], sumsq[j[b]] = sums[j[a]], sumsq[j[a]]  # ... but these pairs look equal
    acc = FakeAcc(g, [0, 10], sums, sumsq)
    assert reading.mirror_candidates(acc) == [("raids_made", "raids_suffered"),
                                              ("swashbuckles", "crew_spent_swashbuckling")]
    assert set(names) >= {"raids_made", "raids_suffered"}
    # per game: raids equal in both games; swashbuckles 1+2 vs 2+1 over two games: equal sums, not equal
    seats = pd.DataFrame({"game": [0, 0, 1, 1], "raids_made": [1, 0, 2, 0], "raids_suffered": [0, 1, 0, 2],
                          "swashbuckles": [1, 0, 2, 0], "crew_spent_swashbuckling": [2, 0, 1, 0]})
    assert reading.mirror_pairs(acc, Parts.of(seats)) == [("raids_made", "raids_suffered")]


def test_margin_text_gives_digits_until_the_interval_shows():
    assert report.margin_text(Estimate(0.8, 0.79, 0.81, 100, "normal")) == "0.80 [0.79..0.81]"
    assert report.margin_text(Estimate(2.0, 1.5, 2.5, 100, "normal")) == "2.0 [1.5..2.5]"


def test_verdicts_say_when_the_first_seat_never_changes():
    g = get_game("dice_duel")
    acc = FakeAcc(g, [0] * 5 + [10], [0, 0], [0, 0])
    acc.n_seats, acc.strategy_names = 2, ("roller", "roller")
    e = Estimate(0.1, 0.05, 0.15, 10, "x")
    est = {"first_player_advantage": e, "seat_balance": Estimate(0.1, 0.0, 0.2, 10, "x"),
           "length.mean": Estimate(5, 5, 5, 10, "x"), "decisiveness": Estimate(1, 0.7, 1, 10, "x")}
    out = reading.verdicts(g, acc, est, {}, first_varies=False)
    assert "no first-player advantage can be measured" in out[0]
    assert any("every one of the 10 games lasted 5 turns" in s for s in out)
    assert any("no gap can be told from zero" in s for s in out)
