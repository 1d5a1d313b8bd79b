"""What every report page shares in its look: the page size, the colours, the footnote.
A module of its own so that page modules use it without importing the report package."""

from __future__ import annotations

PAGE = (11.0, 8.5)  # inches: every report page is landscape US Letter (792 x 612 points)
FIGSIZE = PAGE
SHARE_CMAP = "RdBu"  # a share heat map (players page, tournament): blue where the row does better, white at fair
COLOURS = ("#1f4e79", "#c0504d", "#9bbb59", "#8064a2", "#4bacc6", "#f79646")


FOOTNOTE_WIDTH = 0.96  # share of the page's width a footnote line may take


def footnote(fig, text: str) -> None:
    """A page's small italic note along its bottom edge (how to read it, what it is not); a line
    too wide for the page is wrapped, never cut at the page's edges."""
    props = dict(fontsize=7.5, style="italic")
    fig.text(0.5, 0.01, "\n".join(fit_lines(fig, text, FOOTNOTE_WIDTH, **props)), ha="center", **props)


def fit_lines(fig, text: str, width: float, **props) -> list[str]:
    """``text`` wrapped at word breaks into lines no wider than ``width`` (a figure fraction) in
    the font ``props`` give, as rendered: counting characters of a proportional font misjudges it."""
    from .checks import PNG_DPI

    # measured at the PNG's resolution, where hinting widens small type the most (the PDF's is exact)
    dpi = fig.dpi
    fig.set_dpi(PNG_DPI)
    try:
        return break_lines(text, text_width(fig, **props), width * fig.bbox.width)
    finally:
        fig.set_dpi(dpi)


def text_width(fig, **props):
    """A function of a string: its width in pixels on ``fig`` at the figure's current dpi, in the
    font ``props`` give."""
    from matplotlib.text import Text

    renderer = fig.canvas.get_renderer()
    probe = Text(0, 0, "", figure=fig, **props)

    def wide(s: str) -> float:
        probe.set_text(s)
        return probe.get_window_extent(renderer).width

    return wide


def break_lines(text: str, wide, limit: float) -> list[str]:
    """``text`` broken at its spaces into lines whose ``wide`` is at most ``limit`` (a word wider
    than that keeps a line of its own); a run of spaces at a line's start is dropped."""
    out = []
    for para in text.split("\n"):
        words = para.split(" ")
        i, n = 0, len(words)
        while True:
            while i < n and not words[i]:
                i += 1
            if i == n:
                out.append("")
                break
            # the most words from words[i] that fit, at least one: a line only widens as words
            # join it, so a bisection finds the break a word-by-word scan finds, in a few
            # measurements (a scan measured the line at every word)
            if wide(" ".join(words[i:])) <= limit:
                j = n
            else:
                lo, hi = i + 1, n - 1  # words[i:lo] is kept; words[i:hi + 1] and longer are too wide
                while lo < hi:
                    mid = (lo + hi + 1) // 2
                    if wide(" ".join(words[i:mid])) <= limit:
                        lo = mid
                    else:
                        hi = mid - 1
                j = lo
            out.append(" ".join(words[i:j]))
            if j == n:
                break
            i = j
    return out
