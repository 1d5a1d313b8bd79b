"""report.style.break_lines breaks a text where a word-by-word scan breaks it, with far fewer
measurements: checked against that scan (the code it replaced), with matplotlib's real text
widths on a real figure, over generated texts (runs of spaces, empty lines, words wider than
the line) and widths."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from pirate_sim.report.checks import PNG_DPI  # noqa: E402
from pirate_sim.report.style import PAGE, break_lines, fit_lines, text_width  # noqa: E402


def scan_lines(text: str, wide, limit: float) -> list[str]:
    """The word-by-word scan: each word joins the line while the line still fits."""
    out = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            trial = f"{line} {word}" if line else word
            if line and wide(trial) > limit:
                out.append(line)
                line = word
            else:
                line = trial
        out.append(line)
    return out


@pytest.fixture(scope="module")
def fig():
    f = plt.figure(figsize=PAGE, dpi=PNG_DPI)
    yield f
    plt.close(f)


WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyzWM0123456789.,%()", min_size=0, max_size=14)
TEXT = st.lists(st.one_of(WORD, st.just("\n"), st.just("")), max_size=60).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(text=TEXT, width=st.sampled_from([0.02, 0.1, 0.3, 0.96]), size=st.sampled_from([7.5, 8.5, 11.0]))
def test_the_same_lines_as_the_word_by_word_scan(fig, text, width, size):
    measure = text_width(fig, fontsize=size, style="italic")
    limit = width * fig.bbox.width
    assert break_lines(text, measure, limit) == scan_lines(text, measure, limit)


def test_a_footnote_wraps_at_the_pages_width(fig):
    text = ("How to read it: each bar is the share of games a seat won, with its 95% Wilson interval; "
            "the dashed line is the fair share. A seat's share is not its skill: seats rotate. ") * 3
    lines = fit_lines(fig, text, 0.5, fontsize=7.5)
    assert len(lines) > 2 and " ".join(lines).split() == text.split()
    measure = text_width(fig, fontsize=7.5)
    counted = {"bisect": 0, "scan": 0}

    def counter(key):
        def wide(s):
            counted[key] += 1
            return measure(s)
        return wide

    limit = 0.5 * fig.bbox.width
    assert lines == break_lines(text, counter("bisect"), limit) == scan_lines(text, counter("scan"), limit)
    # a few measurements a line, not one a word (105 words on 5 lines here)
    assert counted["bisect"] * 3 < counted["scan"], counted
