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
    from matplotlib.text import Text

    from .checks import PNG_DPI

    # measured at the PNG's resolution, where hinting widens small type the most (the PDF's is exact)
    dpi = fig.dpi
    fig.set_dpi(PNG_DPI)
    renderer = fig.canvas.get_renderer()
    limit = width * fig.bbox.width
    probe = Text(0, 0, "", figure=fig, **props)

    def wide(s: str) -> float:
        probe.set_text(s)
        return probe.get_window_extent(renderer).width

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
    fig.set_dpi(dpi)
    return out
