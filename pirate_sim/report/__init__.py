"""Run report: PNG charts and one PDF, read from a results directory only.

Generic pages first (every game gets them), then the game's own pages from
``Game.report_figures(ctx)``.  Every chart has a title, labelled axes and, where the
number is an estimate, its 95% confidence interval.

Pages read the run's Parquet parts one at a time through ``ctx.parts(...)`` and keep
only exact aggregates (see :mod:`pirate_sim.report.parts`), so the report's memory stays
flat however many games the run played.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from pathlib import Path

from ..plotting import setup as _setup_matplotlib

_setup_matplotlib()
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402
from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402

from .. import metrics, results  # noqa: E402
from ..games import get_game  # noqa: E402
from ..games.base import Game  # noqa: E402
from ..metrics import Accumulator  # noqa: E402
from ..stats import Estimate  # noqa: E402
from .parts import Counts, Parts  # noqa: E402
from .tables import summary_rows  # noqa: E402

FIGSIZE = (8.5, 5.5)  # inches: readable on a screen and on a PDF page
COLOURS = ("#1f4e79", "#c0504d", "#9bbb59", "#8064a2", "#4bacc6", "#f79646")


@dataclass
class ReportContext:
    """What a report page may use: the run's metadata, metrics and its tables, part by part."""

    results_dir: Path
    manifest: dict
    game: Game
    acc: Accumulator
    est: dict[str, Estimate]
    rules: dict

    def parts(self, kind: str) -> Parts:
        """The ``"games"`` or ``"seats"`` table to aggregate part by part (what pages use)."""
        return Parts(lambda columns: read_parts(self.results_dir, kind, columns))

    def games(self, columns=None):
        """Whole games columns in memory: grows with the run, so pages use :meth:`parts`."""
        return pq.read_table(self.results_dir / "games", columns=columns).to_pandas()

    def seats(self, columns=None):
        """Whole seats columns in memory: grows with the run, so pages use :meth:`parts`."""
        return pq.read_table(self.results_dir / "seats", columns=columns).to_pandas()


def read_parts(results_dir: Path, kind: str, columns: list[str]):
    """The table's parts as DataFrames of ``columns``; ``map`` keeps no part once it is handed on."""
    return map(pa.Table.to_pandas, results.iter_table(results_dir, kind, columns))


def footnote(fig, text: str) -> None:
    """A page's small italic note along its bottom edge (how to read it, what it is not)."""
    fig.text(0.5, 0.01, text, ha="center", fontsize=7.5, style="italic")


def ci_bars(ax, labels, ests: list[Estimate], colour=COLOURS[0], horizontal=False, pct=True):
    """Bars with 95% CI whiskers; values printed at the bar ends."""
    k = 100.0 if pct else 1.0
    vals = np.array([e.value for e in ests]) * k
    err = np.clip(np.array([[e.value - e.lo for e in ests], [e.hi - e.value for e in ests]]) * k, 0, None)
    pos = np.arange(len(labels))
    if horizontal:
        ax.barh(pos, vals, xerr=err, color=colour, capsize=3, alpha=0.85)
        ax.set_yticks(pos, labels)
        ax.invert_yaxis()
        for p, v in zip(pos, vals):
            ax.text(v, p, f" {v:.1f}{'%' if pct else ''}", va="center", fontsize=8)
    else:
        ax.bar(pos, vals, yerr=err, color=colour, capsize=4, alpha=0.85)
        ax.set_xticks(pos, labels, rotation=20 if len(labels) > 4 else 0, ha="right" if len(labels) > 4 else "center")
        for p, v in zip(pos, vals):
            ax.text(p, v, f"{v:.1f}{'%' if pct else ''}\n", ha="center", va="bottom", fontsize=8)


def _cover(ctx: ReportContext):
    m = ctx.manifest
    fig = plt.figure(figsize=(8.5, 11))
    fig.text(0.06, 0.95, f"{ctx.game.title}: balance report", fontsize=18, weight="bold")
    v = m.get("versions", {})
    lines = [
        f"Scenario: {m.get('title', '')}  ({m.get('scenario_source', '')})",
        f"Overrides: {', '.join(m.get('overrides') or []) or 'none'}",
        f"Seed {m['seed']}   games {m['games']:,}   scenario hash {m['scenario_hash']}",
        f"Rules version {m['rules_version']}   pirate-sim {v.get('pirate_sim', '?')}   "
        f"numba {v.get('numba', '?')}   numpy {v.get('numpy', '?')}   Python {v.get('python', '?')}",
        "Seats: " + ", ".join(f"{i}: {s}" for i, s in enumerate(m.get("seats", []))),
        f"Generated {_dt.datetime.now().strftime('%Y-%m-%d %H:%M')}",
    ]
    for i, line in enumerate(lines):
        fig.text(0.06, 0.91 - 0.022 * i, line, fontsize=9, family="monospace")
    rows = summary_rows(ctx.game, ctx.est)
    y = 0.76
    fig.text(0.06, y + 0.02, "Key figures (95% confidence intervals)", fontsize=12, weight="bold")
    for name, label in rows[:34]:
        e = ctx.est[name]
        pct = metrics.is_proportion(name)
        f = (lambda x: f"{100 * x:6.2f}%") if pct else (lambda x: f"{x:8.2f}")
        fig.text(0.06, y, f"{label:<44s} {f(e.value)}   [{f(e.lo)} .. {f(e.hi)}]", fontsize=8.5, family="monospace")
        y -= 0.0205
    return fig


def _win_rates(ctx: ReportContext):
    fig, (a1, a2) = plt.subplots(1, 2, figsize=FIGSIZE)
    seats = [k for k in ctx.est if k.startswith("win_rate.seat")]
    names = ctx.acc.strategy_names
    ci_bars(a1, [f"seat {k[13:]}\n{names[int(k[13:])]}" for k in seats], [ctx.est[k] for k in seats])
    a1.axhline(100 / ctx.acc.n_seats, ls="--", color="grey", lw=1, label="fair share")
    a1.set(title="Win rate by seat", ylabel="games won (%)", xlabel="seat and strategy")
    a1.legend(fontsize=8)
    strat = [f"win_rate.{s}" for s in dict.fromkeys(names)]
    ci_bars(a2, [k[9:] for k in strat], [ctx.est[k] for k in strat], colour=COLOURS[1])
    a2.set(title="Win rate by strategy", ylabel="seat-games won (%)", xlabel="strategy")
    fig.suptitle(f"Who wins? ({ctx.acc.n:,} games, bars = 95% CI)")
    fig.tight_layout()
    return fig


def _first_player(ctx: ReportContext):
    fig, ax = plt.subplots(figsize=FIGSIZE)
    e = ctx.est["first_player_win_rate"]
    ci_bars(ax, ["moved first", "fair share"], [e, Estimate(1 / ctx.acc.n_seats, 1 / ctx.acc.n_seats,
                                                                 1 / ctx.acc.n_seats, 0, "exact")])
    adv = ctx.est["first_player_advantage"]
    ax.set(title=f"First-player advantage: {100 * adv.value:+.2f} points "
                 f"[{100 * adv.lo:+.2f} .. {100 * adv.hi:+.2f}]",
           ylabel="decided games won (%)", xlabel="")
    return fig


def _length(ctx: ReportContext):
    fig, ax = plt.subplots(figsize=FIGSIZE)
    h = ctx.acc.turns_hist
    x = np.arange(h.size)
    ax.bar(x, h / max(h.sum(), 1) * 100, width=1.0, color=COLOURS[0], alpha=0.8)
    for key, ls in (("length.mean", "-"), ("length.median", "--"), ("length.p10", ":"), ("length.p90", ":")):
        e = ctx.est[key]
        ax.axvline(e.value, color=COLOURS[1], ls=ls, lw=1.2, label=f"{key[7:]} {e.value:.1f} [{e.lo:.1f}..{e.hi:.1f}]")
    nz = np.nonzero(h)[0]
    if nz.size:
        ax.set_xlim(max(nz[0] - 2, 0), nz[-1] + 2)
    ax.set(title="Game length distribution", xlabel="turns (one turn = one seat's move)", ylabel="games (%)")
    ax.legend(fontsize=8)
    return fig


def _endings(ctx: ReportContext):
    fig, ax = plt.subplots(figsize=FIGSIZE)
    keys = [f"end.{r}" for r in ctx.game.end_reasons]
    ci_bars(ax, list(ctx.game.end_reasons), [ctx.est[k] for k in keys], colour=COLOURS[2])
    ax.set(title="How games end", ylabel="games (%)", xlabel="ending")
    return fig


def _events(ctx: ReportContext):
    keys = [k for k in ctx.est if k.startswith("events.")]
    fig, ax = plt.subplots(figsize=(8.5, max(4.0, 0.28 * len(keys) + 1.5)))
    if keys:
        ci_bars(ax, [k[7:] for k in keys], [ctx.est[k] for k in keys], horizontal=True, pct=False, colour=COLOURS[3])
    ax.set(title="Event rates: mean count per game (both seats together, 95% CI)", xlabel="events per game",
           ylabel="event")
    fig.tight_layout()
    return fig


MAX_BINS = 120  # most histogram bars that stay readable on a half-page chart


def integer_bins(lo: float, hi: float) -> np.ndarray:
    """Bin edges for an integer score from ``lo`` to ``hi``: every bin holds the same number
    of whole values (edges at k + 0.5), so no bar gets one value more than its neighbours
    (equal-width bins over integers draw a comb); at most about MAX_BINS bins."""
    first, last = int(np.floor(lo)), int(np.ceil(hi))
    width = max(1, -(-(last - first + 1) // MAX_BINS))  # ceil((values) / MAX_BINS)
    return np.arange(first, last + width + 1, width) - 0.5


def scores_data(seats, col: str, n_seats: int) -> dict:
    """Exact histograms of the score column per seat and for winners vs others, and their shared bins.

    ``seats``: :class:`Parts` (or a DataFrame) with ``seat``, ``won`` and ``col``.
    """
    t = Parts.of(seats).tally(["seat", "won", col])
    allv = Counts.from_tally(t, col)
    lo, hi = allv.percentile(0.5), allv.percentile(99.5)  # the middle 99% sets the x range
    return {
        "bins": integer_bins(lo, hi),
        "seat": [Counts.from_tally(t, col, seat=i) for i in range(n_seats)],
        "won": {won: Counts.from_tally(t, col, won=won) for won in (True, False)},
    }


def _scores(ctx: ReportContext):
    col = ctx.game.score_column
    if not col:
        return None
    d = scores_data(ctx.parts("seats"), col, ctx.acc.n_seats)
    fig, (a1, a2) = plt.subplots(1, 2, figsize=FIGSIZE)
    for i, h in enumerate(d["seat"]):
        h.hist(a1, d["bins"], histtype="step", lw=1.5, color=COLOURS[i % len(COLOURS)], density=True,
               label=f"seat {i} ({ctx.acc.strategy_names[i]}), mean {h.mean():.1f}")
    name = col.replace("_", " ")
    title = (name if name.startswith("final") else f"final {name}").capitalize() + " by seat"
    xlabel = f"{name} (middle 99% of seat-games shown)"
    a1.set(title=title, xlabel=xlabel, ylabel="share of games")
    a1.legend(fontsize=7)
    for won, c in ((True, COLOURS[2]), (False, COLOURS[1])):
        h = d["won"][won]
        h.hist(a2, d["bins"], histtype="step", lw=1.5, color=c, density=True,
               label=f"{'winners' if won else 'others'}, mean {h.mean():.1f}")
    m = ctx.est.get("winning_margin")
    a2.set(title="Winners vs others" + (f" (margin {m.value:.1f} [{m.lo:.1f}..{m.hi:.1f}])" if m else ""),
           xlabel=xlabel, ylabel="share of seat-games")
    a2.legend(fontsize=7)
    fig.tight_layout()
    return fig


def _categoricals(ctx: ReportContext):
    figs = []
    for col in ctx.game.seat_columns:
        if not col.labels:
            continue
        keys = [f"win_rate.{col.name}={lab}" for lab in col.labels]
        keep = [k for k in keys if ctx.est[k].n > 0]
        if not keep:
            continue
        fig, ax = plt.subplots(figsize=FIGSIZE)
        ci_bars(ax, [f"{k.split('=')[1]}\n(n={ctx.est[k].n:,})" for k in keep], [ctx.est[k] for k in keep],
                colour=COLOURS[4])
        ax.set(title=f"Win rate by {col.name.replace('_', ' ')}", ylabel="seat-games won (%)",
               xlabel=col.name.replace("_", " "))
        figs.append((f"win_rate_by_{col.name}", fig))
    return figs


def build_report(results_dir: Path, out_dir: Path) -> tuple[Path, list[Path]]:
    """Write every chart as PNG and all of them, cover first, into report.pdf."""
    results_dir, out_dir = Path(results_dir), Path(out_dir)
    man = results.read_manifest(results_dir)
    game = get_game(man["game"])
    acc = Accumulator.from_json(game, results.read_summary(results_dir)["accumulator"])
    from ..scenario import load

    s = load(results_dir / results.SCENARIO)
    ctx = ReportContext(results_dir, man, game, acc, metrics.compute(acc), s.rules)
    pages: list[tuple[str, object]] = [
        ("00_cover", _cover(ctx)),
        ("01_win_rates", _win_rates(ctx)),
        ("02_first_player", _first_player(ctx)),
        ("03_game_length", _length(ctx)),
        ("04_endings", _endings(ctx)),
        ("05_event_rates", _events(ctx)),
    ]
    sc = _scores(ctx)
    if sc is not None:
        pages.append(("06_scores", sc))
    pages += [(f"07_{n}", f) for n, f in _categoricals(ctx)]
    pages += [(f"10_{n}", f) for n, f in game.report_figures(ctx)]
    out_dir.mkdir(parents=True, exist_ok=True)
    pngs = []
    pdf_path = out_dir / "report.pdf"
    tmp_pdf = out_dir / ".report.pdf.tmp"
    with PdfPages(tmp_pdf, metadata={"Title": f"{game.title} balance report", "Creator": "pirate-sim"}) as pdf:
        for name, fig in pages:
            png = out_dir / f"{name}.png"
            fig.savefig(png, dpi=110)
            pdf.savefig(fig)
            plt.close(fig)
            pngs.append(png)
    tmp_pdf.replace(pdf_path)
    return pdf_path, pngs
