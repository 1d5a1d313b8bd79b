"""Charts for compare and sweep (matplotlib Agg): PNGs plus one multi-page PDF each.

Every chart has a title, labelled axes and its 95% intervals drawn (bars for a compare,
bands or bars for a sweep, cell annotations for a heatmap).
"""

from __future__ import annotations

import math
import re
from pathlib import Path

from ..plotting import setup as _setup_matplotlib

_setup_matplotlib()
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402
from ..metrics import is_proportion  # noqa: E402
from ..stats import ADJUSTMENT, chance_differences  # noqa: E402

from ..report import footnote  # noqa: E402
from ..report.checks import PNG_DPI  # noqa: E402

PORTRAIT = (8.5, 11.0)  # a Letter page: every compare and sweep page fits one
LANDSCAPE = (11.0, 8.5)
FOREST_ROWS = 28  # metrics per forest-plot page (one line each, readable at 8 points)
PANEL_ROWS = 7  # rows of two small panels per "means" page


def _safe(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name)


def _layout(fig) -> None:
    """tight_layout above the footnote: about 0.14 in a line."""
    lines = getattr(fig, "_note_lines", 1)
    fig.tight_layout(rect=(0, max(0.04, (0.2 + 0.14 * lines) / fig.get_size_inches()[1]), 1, 1))


def _save(fig, path: Path, pdf: PdfPages, layout: bool = True) -> Path:
    if layout:
        _layout(fig)
    fig.savefig(path, dpi=PNG_DPI)
    pdf.savefig(fig)
    plt.close(fig)
    return path


def metric_label(name: str) -> str:
    """What a metric measures, in words, with its unit: the axis label of a chart."""
    unit = " (%)" if is_proportion(name) else ""
    fixed = {
        "seat_balance": "seat balance: largest gap between two seats' win rates",
        "first_player_win_rate": "win rate of the seat that moved first (decided games)",
        "first_player_advantage": "first-player advantage: its win rate minus the fair share",
        "decisiveness": "games with a winner",
        "truncation_rate": "games cut short by the turn cap",
        "draw_rate": "games ending without a winner",
        "length.mean": "mean game length (turns)",
        "length.median": "median game length (turns)",
        "length.p10": "game length, 10th percentile (turns)",
        "length.p90": "game length, 90th percentile (turns)",
        "winning_margin": "winning margin (score points)",
    }
    if name in fixed:
        return fixed[name] + unit
    head, _, rest = name.partition(".")
    if name.startswith("win_rate.seat") and rest[4:].isdigit():
        return f"win rate of seat {rest[4:]}{unit}"
    if head == "win_rate":
        return f"win rate: {rest.replace('=', ' = ').replace('_', ' ')}{unit}"
    if head == "end":
        return f"games ending by {rest.replace('_', ' ')}{unit}"
    if head == "events":
        return f"{rest.replace('_', ' ')} per game (all seats)"
    if head == "ratio":
        return rest.replace("_", " ")
    if head.startswith("seat") and head[4:].isdigit():
        return f"seat {head[4:]}: mean {rest.replace('_', ' ')} per game"
    return name + unit


def _series_key(name: str) -> str:
    """Metrics that differ only by a trailing seat number (win_rate.seat0, seat1, ...) share a chart."""
    return re.sub(r"\d+$", "#", name)


# ------------------------------------------------------------------------- compare


def _chunks(rows: list, size: int) -> list[list]:
    return [rows[i:i + size] for i in range(0, len(rows), size)] or [[]]


def _sig_colour(r) -> str:
    return "#c0392b" if r.get("significant_holm", r["significant"]) else "#2c3e50"


def _forest(rows: list[dict], title: str, xlabel: str, scale: float):
    n = len(rows)
    fig, ax = plt.subplots(figsize=(PORTRAIT[0], min(PORTRAIT[1], max(3.5, 0.3 * n + 2.2))))
    y = np.arange(n)[::-1]
    for yi, r in zip(y, rows):
        if r["indep_lo"] == r["indep_lo"]:
            ax.plot([r["indep_lo"] * scale, r["indep_hi"] * scale], [yi - 0.18] * 2, color="#bbbbbb", lw=4,
                    solid_capstyle="butt", label="independent 95% CI" if yi == y[0] else None)
        if r["lo"] == r["lo"]:
            ax.errorbar(r["diff"] * scale, yi + 0.05, xerr=[[max(0.0, (r["diff"] - r["lo"]) * scale)],
                                                         [max(0.0, (r["hi"] - r["diff"]) * scale)]],
                        fmt="o", color=_sig_colour(r), capsize=3, ms=4,
                        label=("paired 95% CI" if r["paired"] else "95% CI") if yi == y[0] else None)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(y)
    ax.set_yticklabels([r["metric"] + ("" if r["paired"] else " *") for r in rows], fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("metric")
    ax.set_ylim(-0.8, n + 0.8)  # a row of headroom for the legend
    ax.set_title(_wrap_lines(title, 85), fontsize=9)
    ax.legend(loc="upper right", fontsize=7)
    ax.grid(axis="x", alpha=0.3)
    return fig


def _wrap_lines(text: str, width: int) -> str:
    import textwrap

    return "\n".join(w for line in text.splitlines() for w in textwrap.wrap(line, width))


def compare_label(s) -> str:
    sets = [o for o in s.overrides if not o.startswith("run.")]
    return s.title + (" " + " ".join(sets) if sets else "")


def compare_note(res) -> str:
    """The multiple-comparison note every compare page carries."""
    n = sum(1 for r in res.rows if r["p_value"] == r["p_value"])
    raw = sum(1 for r in res.rows if r["significant"])
    adj = sum(1 for r in res.rows if r.get("significant_holm"))
    return (f"{n} metrics compared at once: about {chance_differences(res.rows):.1f} would show a 95% CI "
            f"excluding 0 by chance alone were nothing changed ({raw} do). Red: significant after {ADJUSTMENT}'s "
            f"adjustment (at most 5% chance of any false alarm over all {n}): {adj}. * not paired.")


def compare_figures(res) -> list[tuple[str, object]]:
    """The compare pages as (file stem, figure): B - A forest plots of rates and of the other
    metrics, one page per FOREST_ROWS / 2 x PANEL_ROWS metrics, and the pairing page."""
    import textwrap

    head = f"B - A: {compare_label(res.b)} minus {compare_label(res.a)}"
    head = head if len(head) < 100 else head[:97] + "..."
    # a metric that is 0 (or undefined) in both variants has no difference to draw: named, not drawn
    blank = [r for r in res.rows if all(v == 0 or v != v for v in (r["value_a"], r["value_b"]))]
    rows = [r for r in res.rows if r not in blank]
    text = compare_note(res)
    if blank:
        text += f" Zero or undefined in both, not drawn: {', '.join(r['metric'] for r in blank)}."
    note = "\n".join(textwrap.wrap(text, 140)[:4])
    rates = [r for r in rows if is_proportion(r["metric"])]
    others = [r for r in rows if not is_proportion(r["metric"])]
    pages = []
    chunks = _chunks(rates, FOREST_ROWS) if rates else []
    for k, chunk in enumerate(chunks):
        part = f" (page {k + 1} of {len(chunks)})" if len(chunks) > 1 else ""
        fig = _forest(chunk, f"{head}{part}\n{res.games:,} paired games, seed {res.seed}",
                      "difference B - A (percentage points)", 100.0)
        footnote(fig, note)
        fig._note_lines = note.count("\n") + 1
        _layout(fig)
        pages.append((f"compare_rates{'_' + str(k + 1) if len(chunks) > 1 else ''}", fig))
    chunks = _chunks(others, 2 * PANEL_ROWS) if others else []
    for k, chunk in enumerate(chunks):
        # one panel per metric: units differ (turns, points, counts)
        cols = 2 if len(chunk) > 1 else 1
        nrows = math.ceil(len(chunk) / cols)
        fig, axes = plt.subplots(nrows, cols, figsize=(PORTRAIT[0], min(PORTRAIT[1], 1.25 * nrows + 2.0)),
                                 squeeze=False)
        for ax, r in zip(axes.ravel(), chunk):
            ax.axvline(0, color="black", lw=0.8)
            if r["indep_lo"] == r["indep_lo"]:
                ax.plot([r["indep_lo"], r["indep_hi"]], [-0.15, -0.15], color="#bbbbbb", lw=4)
            if r["lo"] == r["lo"]:
                ax.errorbar(r["diff"], 0.1, xerr=[[max(0.0, r["diff"] - r["lo"])], [max(0.0, r["hi"] - r["diff"])]],
                            fmt="o", color=_sig_colour(r), capsize=3, ms=4)
            ax.set_ylim(-0.6, 0.6)
            ax.set_yticks([])
            ax.set_title(r["metric"] + ("" if r["paired"] else " *"), fontsize=8)
            ax.set_xlabel("B - A", fontsize=7)
            ax.tick_params(axis="x", labelsize=7)
            ax.xaxis.set_major_locator(plt.MaxNLocator(4))
        for ax in axes.ravel()[len(chunk):]:
            ax.axis("off")
        part = f" (page {k + 1} of {len(chunks)})" if len(chunks) > 1 else ""
        fig.suptitle(_wrap_lines(f"{head}{part}\nmeans and quantiles, B - A (dark: paired 95% CI, grey: "
                                 "independent 95% CI)", 100), fontsize=9)
        footnote(fig, note)
        fig._note_lines = note.count("\n") + 1
        _layout(fig)
        pages.append((f"compare_means{'_' + str(k + 1) if len(chunks) > 1 else ''}", fig))
    rs = res.ratios
    names = sorted(rs, key=rs.get)[:FOREST_ROWS]  # the metrics pairing helped most
    if names:
        fig, ax = plt.subplots(figsize=(PORTRAIT[0], min(PORTRAIT[1], max(3.5, 0.3 * len(names) + 2.0))))
        ax.barh(np.arange(len(names))[::-1], [rs[m] for m in names], color="#2980b9")
        ax.axvline(1.0, color="black", lw=0.8)
        ax.set_yticks(np.arange(len(names))[::-1])
        ax.set_yticklabels(names, fontsize=8)
        ax.set_xlabel("CI half-width, paired / independent (below 1: pairing helps)")
        ax.set_ylabel("metric")
        more = f" (the {len(names)} it helped most of {len(rs)})" if len(rs) > len(names) else ""
        ax.set_title(f"What common random numbers bought{more}", fontsize=10)
        _layout(fig)
        pages.append(("compare_pairing", fig))
    return pages


def compare_report(res, out_dir: Path, progress=None) -> list[Path]:
    """The compare pages as PNGs and compare.pdf (``progress(text)`` hears each file)."""
    out_dir = Path(out_dir)
    files = []
    with PdfPages(out_dir / "compare.pdf") as pdf:
        for name, fig in compare_figures(res):
            if progress:
                progress(f"writing {name}.png")
            files.append(_save(fig, out_dir / f"{name}.png", pdf, layout=False))
    files.append(out_dir / "compare.pdf")
    return files


# --------------------------------------------------------------------------- sweep


def value_label(v) -> str:
    """A varied value as the tidy table holds it (lists as their TOML text: ``["a", "b"]``,
    not Python's ``['a', 'b']``), so a chart finds each point's value among its ticks."""
    from ..scenario import _toml_value

    return _toml_value(v) if isinstance(v, (list, dict)) else str(v)


def _axis_values(values: list) -> tuple[np.ndarray, list[str], bool]:
    """x positions, tick labels, numeric? for a varied key's values."""
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
    labels = [value_label(v) for v in values]
    if numeric:
        return np.array(values, dtype=float), labels, True
    return np.arange(len(values), dtype=float), labels, False


MAX_TICKS = 15  # integer parameters with at most this many values get one tick per value


def _x_ticks(ax, values: list, xs: np.ndarray, labels: list[str], numeric: bool) -> None:
    from matplotlib.ticker import MaxNLocator

    if not numeric:
        ax.set_xticks(xs)
        ax.set_xticklabels(labels, rotation=20, ha="right", fontsize=7)
    elif all(isinstance(v, int) for v in values):
        if len(values) <= MAX_TICKS:
            ax.set_xticks(xs, labels)
        else:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))


def always_zero(df, metric: str) -> bool:
    """A metric observed 0 at every point (e.g. no game ever truncated): a flat line at 0 under
    a band that only shows how few games were played, so it is listed rather than charted."""
    sub = df[df["metric"] == metric]
    return bool(len(sub)) and bool((sub["value"] == 0).all())


def sweep_figures(df, keys: list[str], key_values: dict[str, list], metrics_to_plot: list[str],
                  title: str) -> list[tuple[str, object]]:
    """Sweep pages as (file stem, figure): each metric (seats' series together, one y range)
    against the first varied parameter, and a heatmap per metric when two parameters vary.
    Metrics that are 0 at every point are left out (the caller lists them)."""
    k0 = keys[0]
    xs_all, labels0, numeric0 = _axis_values(key_values[k0])
    pos0 = {lab: x for lab, x in zip(labels0, xs_all)}
    others = keys[1:]
    shown = [m for m in metrics_to_plot if not df[df["metric"] == m].empty and not always_zero(df, m)]
    groups: dict[str, list[str]] = {}
    for m in shown:
        groups.setdefault(_series_key(m), []).append(m)
    pages = []
    for gkey, members in groups.items():
        scale = 100.0 if is_proportion(members[0]) else 1.0
        sub_all = df[df["metric"].isin(members)]
        ylo, yhi = sub_all["lo"].min() * scale, sub_all["hi"].max() * scale
        pad = 0.08 * max(yhi - ylo, 1e-9)
        together = not others and len(members) > 1  # one chart, one line per seat
        for m in ([None] if together else members):
            fig, ax = plt.subplots(figsize=(LANDSCAPE[0], 6.0))
            for metric in (members if together else [m]):
                sub = df[df["metric"] == metric]
                groups_o = sub.groupby(list(others), sort=False) if others else [((), sub)]
                for okey, g in groups_o:
                    g = g.assign(_x=[pos0[value_label(v)] for v in g[k0]]).sort_values("_x")
                    x = g["_x"].to_numpy()
                    lab = ", ".join(f"{k}={v}" for k, v in zip(others, okey if isinstance(okey, tuple) else (okey,)))
                    lab = metric_label(metric) if together else (lab or metric_label(metric))
                    val, lo, hi = (g[c].to_numpy() * scale for c in ("value", "lo", "hi"))
                    if numeric0 and len(x) > 1:
                        line, = ax.plot(x, val, marker="o", ms=4, label=lab)
                        ax.fill_between(x, lo, hi, alpha=0.2, color=line.get_color())
                    else:
                        ax.errorbar(x, val, yerr=[np.maximum(val - lo, 0), np.maximum(hi - val, 0)], fmt="o-",
                                    capsize=3, ms=4, label=lab)
            _x_ticks(ax, key_values[k0], xs_all, labels0, numeric0)
            ax.set_ylim(ylo - pad, yhi + pad)  # one y range for every chart of the group
            ax.set_xlabel(k0)
            name = metric_label(members[0]).replace("seat 0", "each seat") if together else metric_label(m)
            ax.set_ylabel(name)
            ax.set_title(f"{title}\n{name} against {k0} (bands/bars: 95% CI)", fontsize=10)
            ax.grid(alpha=0.3)
            if others or together:
                ax.legend(fontsize=7, loc="upper right")
            stem = _safe(gkey.replace("#", "s")) if together else _safe(m)
            _layout(fig)
            pages.append((f"sweep_{stem}", fig))
    if len(keys) == 2:
        k1 = keys[1]
        labels1 = [value_label(v) for v in key_values[k1]]
        for m in shown:
            sub = df[df["metric"] == m]
            scale = 100.0 if is_proportion(m) else 1.0
            grid = np.full((len(labels1), len(labels0)), np.nan)
            half = np.full_like(grid, np.nan)
            for _, r in sub.iterrows():
                i, j = labels1.index(value_label(r[k1])), labels0.index(value_label(r[k0]))
                grid[i, j] = r["value"] * scale
                half[i, j] = (r["hi"] - r["lo"]) / 2 * scale
            fig, ax = plt.subplots(figsize=(LANDSCAPE[0], 7.0))
            im = ax.imshow(grid, origin="lower", aspect="auto", cmap="viridis")
            cb = fig.colorbar(im, ax=ax)
            cb.set_label(metric_label(m))
            if grid.size <= 120:
                for i in range(grid.shape[0]):
                    for j in range(grid.shape[1]):
                        if grid[i, j] == grid[i, j]:
                            ax.text(j, i, f"{grid[i, j]:.3g}\n±{half[i, j]:.2g}", ha="center", va="center",
                                    fontsize=6, color="white")
            ax.set_xticks(range(len(labels0)))
            ax.set_xticklabels(labels0, rotation=20, ha="right", fontsize=7)
            ax.set_yticks(range(len(labels1)))
            ax.set_yticklabels(labels1, fontsize=7)
            ax.set_xlabel(k0)
            ax.set_ylabel(k1)
            ax.set_title(f"{title}\n{metric_label(m)} over {k0} x {k1} (cells: value ± 95% half-width)", fontsize=10)
            _layout(fig)
            pages.append((f"heatmap_{_safe(m)}", fig))
    return pages


def sweep_report(df, keys: list[str], key_values: dict[str, list], metrics_to_plot: list[str],
                 out_dir: Path, title: str, progress=None) -> list[Path]:
    """The sweep pages (:func:`sweep_figures`) as PNGs and sweep.pdf."""
    out_dir = Path(out_dir)
    files = []
    with PdfPages(out_dir / "sweep.pdf") as pdf:
        for name, fig in sweep_figures(df, keys, key_values, metrics_to_plot, title):
            if progress:
                progress(f"writing {name}.png")
            files.append(_save(fig, out_dir / f"{name}.png", pdf, layout=False))
    files.append(out_dir / "sweep.pdf")
    return files
