"""What keeps a report page honest and readable, checked on the rendered figure.

Every page of every report (run, compare, sweep) must pass :func:`page_problems`:

* it fits a printable page (US Letter, either orientation);
* every axis that shows tick labels has a label saying what it measures;
* no two pieces of text overlap and none runs off the page (rendered extents);
* no panel is empty: a panel without data says why with :func:`explain_empty`;
* every exact-versus-simulated comparison the page shows agrees within sampling error.

A page declares its comparisons with :func:`declare_exact` (the observed estimate with its
95% interval and the exact value it is drawn beside); the checks read them back from the
figure, so a new game's ``report_figures`` inherits the checks by declaring what it compares.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..stats import Estimate

PAGE_INCHES = (8.5, 11.0)  # US Letter; a page may be portrait or landscape
EXACT_Z_LIMIT = 4.0  # |observed - exact| in standard errors beyond which a page disagrees
OVERLAP_PX = 1.0  # rendered boxes may touch by this many pixels (antialiasing)
_Z95 = 1.959963984540054  # the 95% normal quantile the page intervals use


@dataclass(frozen=True)
class ExactComparison:
    """One observed estimate drawn beside its exact value."""

    label: str
    observed: float
    lo: float
    hi: float
    exact: float

    @property
    def z(self) -> float:
        """(observed - exact) in standard errors, the standard error read off the 95% interval."""
        se = (self.hi - self.lo) / (2 * _Z95)
        if not (np.isfinite(self.observed) and np.isfinite(self.exact)):
            return math.nan
        if se <= 0:
            return 0.0 if self.observed == self.exact else math.inf
        return (self.observed - self.exact) / se


def declare_exact(fig, label: str, est: Estimate, exact: float) -> ExactComparison | None:
    """Record on ``fig`` that it draws ``est`` beside the exact value ``exact`` (an exact value
    that is not a number, e.g. none for a seat whose strategy varies, records nothing)."""
    if not np.isfinite(exact):
        return None
    c = ExactComparison(label, float(est.value), float(est.lo), float(est.hi), float(exact))
    comparisons(fig).append(c)
    return c


def comparisons(fig) -> list[ExactComparison]:
    """The exact comparisons a page declared (a list kept on the figure)."""
    if not hasattr(fig, "_exact_comparisons"):
        fig._exact_comparisons = []
    return fig._exact_comparisons


def explain_empty(ax, text: str) -> None:
    """Say in the panel why it holds no data (e.g. "no Ghost Ship was summoned in this run")."""
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, fontsize=9, style="italic",
            wrap=True)
    ax._explained_empty = True


def _has_data(ax) -> bool:
    from matplotlib.patches import Rectangle

    for p in ax.patches:  # a bar of height 0 draws nothing
        if p.get_visible() and (not isinstance(p, Rectangle) or p.get_width() * p.get_height() != 0):
            return True
    for line in ax.lines:
        x, y = (np.asarray(v, dtype=float) for v in line.get_data())
        if line.get_visible() and x.size and np.isfinite(x).any() and np.isfinite(y).any():
            return True
    return any(c.get_visible() for c in ax.collections) or bool(ax.images)


def _is_colorbar(ax) -> bool:
    return hasattr(ax, "_colorbar")


def _texts(fig, renderer):
    """(label, rendered box) of every visible, non-empty piece of text; a legend counts as one box."""
    out = []

    def add(t, what):
        if t.get_visible() and t.get_text().strip():
            out.append((f"{what}: {t.get_text().strip()[:40]!r}", t.get_window_extent(renderer)))

    for t in fig.texts:  # the suptitle is one of them
        add(t, "figure text")
    for leg in fig.legends:  # a figure-wide legend (e.g. below every panel)
        if leg.get_visible():
            out.append(("figure legend", leg.get_window_extent(renderer)))
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        for t in (ax.title, ax._left_title, ax._right_title):
            add(t, "title")
        for t in ax.texts:
            add(t, "text")
        for axis, name in ((ax.xaxis, "x"), (ax.yaxis, "y")):
            add(axis.label, f"{name} label")
            for tick in drawn_ticks(axis):
                if tick.label1.get_visible():
                    add(tick.label1, f"{name} tick")
                if tick.label2.get_visible():
                    add(tick.label2, f"{name} tick")
        leg = ax.get_legend()
        if leg is not None and leg.get_visible():
            out.append(("legend", leg.get_window_extent(renderer)))
    return out


def drawn_ticks(axis) -> list:
    """The axis' major ticks inside its view limits (matplotlib keeps others that it does not draw)."""
    lo, hi = sorted(axis.get_view_interval())
    eps = (hi - lo) * 1e-9
    return [t for t in axis.get_major_ticks() if lo - eps <= t.get_loc() <= hi + eps]


def keep_within(text, x0: float, x1: float) -> None:
    """Declare that ``text`` must stay between figure fractions ``x0`` and ``x1`` (a column of a
    page laid out in columns, e.g. the cover's): :func:`page_problems` reports it otherwise."""
    text._column = (x0, x1)


def _cut(fig, renderer) -> list[str]:
    """Texts that leave their declared column, or that their axes clip (a clipped text is cut)."""
    out = []
    texts = list(fig.texts) + [t for ax in fig.axes if ax.get_visible() for t in ax.texts]
    for t in texts:
        if not (t.get_visible() and t.get_text().strip()):
            continue
        b = t.get_window_extent(renderer)
        col = getattr(t, "_column", None)
        if col is not None:
            lo, hi = (fig.bbox.x0 + c * fig.bbox.width for c in col)
            if b.x0 < lo - OVERLAP_PX or b.x1 > hi + OVERLAP_PX:
                out.append(f"text {t.get_text().strip()[:40]!r} leaves its column")
        clip = t.get_clip_box() if t.get_clip_on() else None
        if clip is not None and (b.x0 < clip.x0 - OVERLAP_PX or b.x1 > clip.x1 + OVERLAP_PX
                                 or b.y0 < clip.y0 - OVERLAP_PX or b.y1 > clip.y1 + OVERLAP_PX):
            out.append(f"text {t.get_text().strip()[:40]!r} is cut by its panel's edge")
    return out


PNG_DPI = 110  # the report's PNG resolution: text extents depend a little on it (font hinting)


def page_problems(fig, dpi: float = PNG_DPI) -> list[str]:
    """Everything wrong with one page rendered at ``dpi``, one line each (empty: the page passes)."""
    problems = []
    fig.set_dpi(dpi)
    w, h = sorted(fig.get_size_inches())
    if w > PAGE_INCHES[0] + 1e-6 or h > PAGE_INCHES[1] + 1e-6:
        problems.append(f"page is {w:.1f} x {h:.1f} in, larger than {PAGE_INCHES[0]} x {PAGE_INCHES[1]} in")
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for i, ax in enumerate(fig.axes):
        if not ax.get_visible() or not ax.axison:
            continue
        name = f"panel {i} ({ax.get_title()[:40]!r})"
        for axis, which in ((ax.xaxis, "x"), (ax.yaxis, "y")):
            shown = [t.label1 for t in drawn_ticks(axis) if t.label1.get_visible() and t.label1.get_text().strip()]
            if shown and not axis.label.get_text().strip():
                problems.append(f"{name}: the {which} axis has tick labels but no label")
        if not _is_colorbar(ax) and not _has_data(ax) and not getattr(ax, "_explained_empty", False):
            problems.append(f"{name}: no data drawn and no note saying why")
    page = fig.bbox
    boxes = _texts(fig, renderer)
    for label, b in boxes:
        if b.x0 < page.x0 - OVERLAP_PX or b.y0 < page.y0 - OVERLAP_PX or b.x1 > page.x1 + OVERLAP_PX \
                or b.y1 > page.y1 + OVERLAP_PX:
            problems.append(f"{label} runs off the page")
    for i in range(len(boxes)):
        li, bi = boxes[i]
        for j in range(i + 1, len(boxes)):
            lj, bj = boxes[j]
            dx = min(bi.x1, bj.x1) - max(bi.x0, bj.x0)
            dy = min(bi.y1, bj.y1) - max(bi.y0, bj.y0)
            if dx > OVERLAP_PX and dy > OVERLAP_PX:
                problems.append(f"{li} overlaps {lj}")
    problems += _cut(fig, renderer)
    for c in comparisons(fig):
        if not abs(c.z) <= EXACT_Z_LIMIT:
            problems.append(f"exact comparison {c.label!r}: observed {c.observed:.5g} "
                            f"[{c.lo:.5g}, {c.hi:.5g}] vs exact {c.exact:.5g}, z = {c.z:+.1f}")
    return problems
