"""The page check sees cut and overlapping text, and the pages it found wrong now pass it.

page_problems (pirate_sim/report/checks.py) renders a page and compares every text's window
extent with the page, its declared column, its panel's clip box and every other text; the
report pages of every game run through it in tests/test_report_pages.py.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import pytest

from pirate_sim import runner, scenario
from pirate_sim.report import PAGE, _cover, _first_player, cover_rows, decimals, report_context
from pirate_sim.report.checks import keep_within, page_problems
from pirate_sim.report.style import footnote


@pytest.fixture
def page():
    fig = plt.figure(figsize=PAGE)
    yield fig
    plt.close(fig)


def test_a_column_that_runs_into_the_next_is_reported(page):
    keep_within(page.text(0.04, 0.5, "a line far too long for the left column " * 3, family="monospace"), 0.04, 0.52)
    assert any("leaves its column" in p for p in page_problems(page))


def test_text_cut_by_its_panel_is_reported(page):
    ax = page.add_subplot(xlabel="x", ylabel="y")
    ax.plot([0, 1], [0, 1])
    ax.text(0.95, 0.5, "a label past the right edge", clip_on=True)
    assert any("cut by its panel's edge" in p for p in page_problems(page))


def test_a_figure_legend_over_a_footnote_is_reported(page):
    ax = page.add_subplot(xlabel="x", ylabel="y")
    ax.plot([0, 1], [0, 1], label="a line")
    page.legend(loc="lower center", bbox_to_anchor=(0.5, 0.0))
    page.text(0.5, 0.01, "a footnote under the legend", ha="center")
    assert any("figure legend" in p for p in page_problems(page))


def test_a_footnote_too_long_for_the_page_is_wrapped_not_cut(page):
    footnote(page, "a note that goes on " * 40)
    assert page.texts[0].get_text().count("\n") >= 2 and not page_problems(page)


def test_small_values_keep_significant_digits():
    assert decimals(0.0004, 0.0001, 0.0012) == 5 and f"{0.0004:.{decimals(0.0004, 0.0001)}f}" == "0.00040"
    assert decimals(2.84, 2.79, 2.88) == 2 and decimals(0.0, 0.0, 0.0) == 2


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("run") / "run"
    runner.run(scenario.from_dict({"game": "dice_duel", "run": {"games": 2000, "seed": 3},
                                   "seats": [{"strategy": "roller"}, {"strategy": "sixer"}]}), out)
    return out


def test_the_cover_keeps_its_columns_and_every_label_whole(run_dir):
    ctx = report_context(run_dir, quick=True)
    fig = _cover(ctx)
    try:
        assert not page_problems(fig)
        columns = [t for t in fig.texts if getattr(t, "_column", None)]
        assert len(columns) > 10  # every line of both columns is declared and checked
        shown = " ".join(t.get_text() for t in fig.texts)
        assert "..." not in shown.replace(" ...", "")  # no label clipped with an ellipsis
        for label, _v, _ci in cover_rows(ctx):
            assert label[:38] in shown
    finally:
        plt.close(fig)


def test_the_fair_share_is_a_reference_line_not_a_bar(run_dir):
    fig = _first_player(report_context(run_dir, quick=True))
    if fig is None:
        pytest.skip("one seat always moved first")
    try:
        ax = fig.axes[0]
        assert [t.get_text() for t in ax.get_xticklabels()] == ["moved first"]
        assert len([p for p in ax.patches if p.get_height() > 0]) == 1
        assert any(list(line.get_ydata()) == [50.0, 50.0] for line in ax.lines)
        assert not page_problems(fig)
    finally:
        plt.close(fig)
