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
import textwrap
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
from .checks import PNG_DPI  # noqa: E402
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
    quick: bool = False  # tests: pages keep their own side computations small (e.g. a side simulation)

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


CI_LABEL_HEADROOM = 0.12  # share of the tallest whisker left above it for the printed values


def ci_bars(ax, labels, ests: list[Estimate], colour=COLOURS[0], horizontal=False, pct=True, fmt="{:.1f}"):
    """Bars with 95% CI whiskers; values printed beyond the whiskers (horizontal) or above the bars."""
    k = 100.0 if pct else 1.0
    vals = np.array([e.value for e in ests]) * k
    err = np.clip(np.array([[e.value - e.lo for e in ests], [e.hi - e.value for e in ests]]) * k, 0, None)
    pos = np.arange(len(labels))
    if horizontal:
        ax.barh(pos, vals, xerr=err, color=colour, capsize=3, alpha=0.85)
        ax.set_yticks(pos, labels)
        ax.invert_yaxis()
        for p, v, hi in zip(pos, vals, vals + err[1]):
            ax.text(hi, p, f" {fmt.format(v)}{'%' if pct else ''}", va="center", fontsize=8)
    else:
        ax.bar(pos, vals, yerr=err, color=colour, capsize=4, alpha=0.85)
        ax.set_xticks(pos, labels, rotation=20 if len(labels) > 4 else 0, ha="right" if len(labels) > 4 else "center")
        for p, v, hi in zip(pos, vals, vals + err[1]):  # above the whisker, clear of its cap
            ax.annotate(f"{fmt.format(v)}{'%' if pct else ''}", (p, hi), xytext=(0, 3), textcoords="offset points",
                        ha="center", va="bottom", fontsize=8)
        top = float(np.nanmax(vals + err[1], initial=0.0))
        if top > 0:  # headroom for the values printed above the tallest whisker
            ax.set_ylim(top=max(ax.get_ylim()[1], top * (1 + CI_LABEL_HEADROOM)))


def _clip(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters (a monospace line that must stay on the page)."""
    return text if len(text) <= width else text[: width - 3] + "..."


COVER_LINE = 92  # characters of 9-point monospace that fit across the cover page


def _cover(ctx: ReportContext):
    m = ctx.manifest
    fig = plt.figure(figsize=(8.5, 11))
    fig.text(0.06, 0.95, f"{ctx.game.title}: balance report", fontsize=18, weight="bold")
    v = m.get("versions", {})
    lines = [
        f"Scenario: {m.get('title', '')}",
        f"File: {m.get('scenario_source', '')}",
        f"Overrides: {', '.join(m.get('overrides') or []) or 'none'}",
        f"Seed {m['seed']}   games {m['games']:,}   scenario hash {m['scenario_hash']}",
        f"Rules version {m['rules_version']}   pirate-sim {v.get('pirate_sim', '?')}   "
        f"numba {v.get('numba', '?')}   numpy {v.get('numpy', '?')}   Python {v.get('python', '?')}",
        "Seats: " + ", ".join(f"{i}: {s}" for i, s in enumerate(m.get("seats", []))),
        positions_note(ctx),
        f"Generated {_dt.datetime.now().strftime('%Y-%m-%d %H:%M')}",
    ]
    for i, line in enumerate(lines):
        fig.text(0.06, 0.91 - 0.022 * i, _clip(line, COVER_LINE), fontsize=9, family="monospace")
    rows, never = summary_rows(ctx.game, ctx.est), metrics.never_happened(ctx.est)
    y = 0.71
    fig.text(0.06, y + 0.02, "Key figures (95% confidence intervals)", fontsize=12, weight="bold")
    for name, label in rows[:COVER_ROWS]:
        e = ctx.est[name]
        pct = metrics.is_proportion(name)
        f = (lambda x: f"{100 * x:6.2f}%") if pct else (lambda x: f"{x:8.2f}")
        fig.text(0.06, y, f"{label:<44s} {f(e.value)}   [{f(e.lo)} .. {f(e.hi)}]", fontsize=8.5, family="monospace")
        y -= 0.0205
    if never:
        lines = textwrap.wrap("Never happened in this run: " + ", ".join(never), COVER_LINE)
        for i, line in enumerate(lines[:NEVER_LINES]):  # every name, not one clipped line
            last = i == NEVER_LINES - 1 and len(lines) > NEVER_LINES
            fig.text(0.06, y - 0.01 - 0.0205 * i, _clip(line + (" ..." if last else ""), COVER_LINE),
                     fontsize=8.5, family="monospace")
    return fig


COVER_ROWS = 30  # key-figure rows that fit under the cover's header
NEVER_LINES = 4  # lines for the events that never happened, below the key figures


def first_seats(ctx: ReportContext) -> np.ndarray:
    """Games in which each seat moved first (the games table's ``first_seat`` column)."""
    t = ctx.parts("games").tally(["first_seat"])
    out = np.zeros(ctx.acc.n_seats, np.int64)
    for seat, n in zip(t.index, t["n"]):
        if 0 <= int(seat) < out.size:
            out[int(seat)] = int(n)
    return out


def _param_choice_text(game: Game, key: str, value: str) -> str:
    """What choice ``value`` of the game's parameter ``key`` means, from its description."""
    for p in game.params:
        if p.key == key:
            for part in p.doc.split(";"):
                head, _, text = part.partition(f"'{value}' = ")
                if text:
                    return text.strip()
    return value


def positions_note(ctx: ReportContext) -> str:
    """How positions were assigned: who moved first and which strategy sat where."""
    fp = ctx.rules.get("first_player")
    counts = first_seats(ctx)
    share = ", ".join(f"seat {i} {100 * c / max(counts.sum(), 1):.0f}%" for i, c in enumerate(counts))
    if fp is None:
        how = "the game's own rule"
    else:
        how = f"'{fp}' ({_param_choice_text(ctx.game, 'first_player', fp)})"
    seating = ctx.rules.get("strategy_seating", "fixed")
    strat = ("strategies rotate over the seats game by game" if seating == "rotate"
             else "each strategy keeps its seat")
    return f"Positions: first player by {how}; moved first: {share}; {strat}."


def first_seat_varies(ctx: ReportContext) -> bool:
    """Whether more than one seat ever moved first (else no first-player effect can be measured)."""
    return int((first_seats(ctx) > 0).sum()) > 1


def _win_rates(ctx: ReportContext):
    names = ctx.acc.strategy_names
    mirror = len(set(names)) == 1  # one strategy in every seat: by strategy = all seat-games, no panel
    fig, axes = plt.subplots(1, 1 if mirror else 2, figsize=FIGSIZE, squeeze=False)
    a1 = axes[0, 0]
    seats = [k for k in ctx.est if k.startswith("win_rate.seat")]
    rotating = ctx.rules.get("strategy_seating") == "rotate"
    ci_bars(a1, [f"seat {k[13:]}" + ("" if rotating else f"\n{names[int(k[13:])]}") for k in seats],
            [ctx.est[k] for k in seats])
    # the dashed line is named in the title: a legend box would sit on some bar's value label
    a1.axhline(100 / ctx.acc.n_seats, ls="--", color="grey", lw=1)
    a1.set(title=f"Win rate by seat (dashed: fair share 1/{ctx.acc.n_seats})", ylabel="games won (%)",
           xlabel="seat (strategies rotate over the seats)" if rotating else "seat and strategy")
    a1.set_ylim(0, a1.get_ylim()[1] * 1.12)  # room for the value labels
    if not mirror:
        a2 = axes[0, 1]
        strat = [f"win_rate.{s}" for s in dict.fromkeys(names)]
        ci_bars(a2, [k[9:] for k in strat], [ctx.est[k] for k in strat], colour=COLOURS[1])
        a2.set(title="Win rate by strategy", ylabel="seat-games won (%)", xlabel="strategy")
        a2.set_ylim(0, a2.get_ylim()[1] * 1.12)
    fig.suptitle(f"Who wins? ({ctx.acc.n:,} games, bars = 95% CI)")
    note = positions_note(ctx)
    if not first_seat_varies(ctx):
        note += " The same seat always moved first: a seat's win rate mixes its position and its strategy."
    footnote(fig, _wrap(note, 150))
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    return fig


def _wrap(text: str, width: int) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(text, width))


def _first_player(ctx: ReportContext):
    if not first_seat_varies(ctx):
        return None  # the same seat always starts: no first-move effect to measure
    fig, ax = plt.subplots(figsize=FIGSIZE)
    e = ctx.est["first_player_win_rate"]
    fair = 1 / ctx.acc.n_seats
    ci_bars(ax, ["moved first", "fair share"], [e, Estimate(fair, fair, fair, 0, "exact")])
    adv = ctx.est["first_player_advantage"]
    ax.set(title=f"First-player advantage: {100 * adv.value:+.2f} points "
                 f"[{100 * adv.lo:+.2f} .. {100 * adv.hi:+.2f}]",
           ylabel="decided games won (%)", xlabel="the seat that moved first, whoever sat there")
    ax.set_ylim(0, ax.get_ylim()[1] * 1.12)
    footnote(fig, _wrap(positions_note(ctx), 150))
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    return fig


LENGTH_SHOWN = (0.1, 99.9)  # percentiles of game length the x axis spans (a few outliers would squash it)


def _length(ctx: ReportContext):
    fig, ax = plt.subplots(figsize=FIGSIZE)
    h = ctx.acc.turns_hist
    x = np.arange(h.size)
    ax.bar(x, h / max(h.sum(), 1) * 100, width=1.0, color=COLOURS[0], alpha=0.8)
    for key, ls in (("length.mean", "-"), ("length.median", "--"), ("length.p10", ":"), ("length.p90", ":")):
        e = ctx.est[key]
        ax.axvline(e.value, color=COLOURS[1], ls=ls, lw=1.2, label=f"{key[7:]} {e.value:.1f} [{e.lo:.1f}..{e.hi:.1f}]")
    counts = Counts(x[h > 0], h[h > 0])
    note = ""
    if counts.n:
        lo, hi = (counts.percentile(q) for q in LENGTH_SHOWN)
        ax.set_xlim(max(lo - 2, 0), hi + 2)
        beyond = int(h[int(np.floor(hi)) + 1:].sum()) + int(h[: max(int(np.ceil(lo)), 0)].sum())
        if beyond:
            note = (f"x axis: the middle {LENGTH_SHOWN[1] - LENGTH_SHOWN[0]:.1f}% of games; {beyond:,} games "
                    f"outside it (longest {counts.values[-1]:,} turns, shortest {counts.values[0]:,}) not drawn.")
    ax.set(title="Game length distribution", xlabel="turns (one turn = one seat's move)", ylabel="games (%)")
    ax.legend(fontsize=8)
    if note:
        footnote(fig, note)
    fig.tight_layout(rect=(0, 0.03 if note else 0, 1, 1))
    return fig


def _endings(ctx: ReportContext):
    fig, ax = plt.subplots(figsize=FIGSIZE)
    keys = [f"end.{r}" for r in ctx.game.end_reasons]
    never = [k[4:] for k in keys if ctx.est[k].value == 0]
    keys = [k for k in keys if ctx.est[k].value > 0]
    ci_bars(ax, [k[4:] for k in keys], [ctx.est[k] for k in keys], colour=COLOURS[2])
    ax.set(title="How games end", ylabel="games (%)", xlabel="ending")
    ax.set_ylim(0, ax.get_ylim()[1] * 1.12)
    if never:
        footnote(fig, "Never in this run: " + ", ".join(never) + ".")
    fig.tight_layout(rect=(0, 0.03 if never else 0, 1, 1))
    return fig


def seats_together(n_seats: int) -> str:
    """How a per-game total over every seat is said ("both seats", "all 4 seats")."""
    return "both seats together" if n_seats == 2 else f"all {n_seats} seats together"


# events per game that split the count panels: each panel spans about one decade, so a
# frequent event (moves, searches) does not squash the bars of a rare one
EVENT_TIERS = ((10.0, "frequent: 10 or more per game"), (1.0, "common: 1 to 10 per game"),
               (0.0, "rare: below 1 per game"))


def event_groups(game: Game, est: dict[str, Estimate]) -> tuple[list[tuple[str, list[str]]], list[str]]:
    """Event metrics split into panels of one kind each, and the events that never happened.

    Gold amounts are not counts; counts are split by :data:`EVENT_TIERS`, each with its
    own x scale.
    """
    never = metrics.never_happened(est)
    keys = [k for k in est if k.startswith("events.") and k[7:] not in never]
    gold = [k for k in keys if "gold" in k]
    counts = [k for k in keys if k not in gold]
    groups = [("gold per game", gold)]
    upper = np.inf
    for lo, label in EVENT_TIERS:
        groups.append((f"events per game ({label})", [k for k in counts if lo <= est[k].value < upper]))
        upper = lo
    return [(unit, ks) for unit, ks in groups if ks], never


def _events(ctx: ReportContext):
    groups, never = event_groups(ctx.game, ctx.est)
    if not groups:
        return None
    sizes = [len(ks) for _, ks in groups]
    fig, axes = plt.subplots(len(groups), 1, figsize=(8.5, 11), squeeze=False,
                             gridspec_kw={"height_ratios": [s + 1.5 for s in sizes]})
    for ax, (unit, ks) in zip(axes[:, 0], groups):
        ci_bars(ax, [k[7:] for k in ks], [ctx.est[k] for k in ks], horizontal=True, pct=False, colour=COLOURS[3],
                fmt="{:.3g}")
        ax.set(xlabel=unit, ylabel="gold moved" if unit.startswith("gold") else "event")
        ax.set_xlim(0, ax.get_xlim()[1] * 1.15)  # room for the value labels
        ax.tick_params(axis="y", labelsize=7.5 if len(ks) > 12 else 9)
    fig.suptitle(f"Event rates: mean per game ({seats_together(ctx.acc.n_seats)}, 95% CI)")
    if never:
        footnote(fig, _wrap("Never happened in this run: " + ", ".join(never) + ".", 150))
    fig.tight_layout(rect=(0, 0.03 if never else 0, 1, 1))
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
               label=f"seat {i}" + ("" if ctx.rules.get("strategy_seating") == "rotate"
                                    else f" ({ctx.acc.strategy_names[i]})") + f", mean {h.mean():.1f}")
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
    a2.set(title="Winners vs others" + (f"\n(margin {m.value:.1f} [{m.lo:.1f}..{m.hi:.1f}])" if m else ""),
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
        ax.set_ylim(0, ax.get_ylim()[1] * 1.12)
        fig.tight_layout()
        figs.append((f"win_rate_by_{col.name}", fig))
    return figs


def report_context(results_dir: Path, quick: bool = False) -> ReportContext:
    """Everything the pages read, from a finished results directory."""
    from ..scenario import load

    results_dir = Path(results_dir)
    man = results.read_manifest(results_dir)
    game = get_game(man["game"])
    acc = Accumulator.from_json(game, results.read_summary(results_dir)["accumulator"])
    s = load(results_dir / results.SCENARIO)
    return ReportContext(results_dir, man, game, acc, metrics.compute(acc), s.rules, quick)


GENERIC_PAGES = (("00_cover", _cover), ("01_win_rates", _win_rates), ("02_first_player", _first_player),
                 ("03_game_length", _length), ("04_endings", _endings), ("05_event_rates", _events),
                 ("06_scores", _scores))


def report_pages(ctx: ReportContext, progress=None):
    """Every page as ``(file stem, figure)``, generic pages first, then the game's own.

    ``progress(text)`` is told which page is being drawn.  A page function returns None
    where it has nothing to show (e.g. no first-player page when one seat always starts).
    """
    say = progress or (lambda text: None)
    for name, draw in GENERIC_PAGES:
        say(name[3:].replace("_", " "))
        fig = draw(ctx)
        if fig is not None:
            yield name, fig
    say("win rate by category")
    yield from ((f"07_{n}", f) for n, f in _categoricals(ctx))
    say(f"{ctx.game.title} pages")
    yield from ((f"10_{n}", f) for n, f in ctx.game.report_figures(ctx))


def build_report(results_dir: Path, out_dir: Path, progress=None) -> tuple[Path, list[Path]]:
    """Write every chart as PNG and all of them, cover first, into report.pdf.

    ``progress(text)`` (optional) hears each step: the page being drawn, then each file written.
    """
    results_dir, out_dir = Path(results_dir), Path(out_dir)
    ctx = report_context(results_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    say = progress or (lambda text: None)
    pngs = []
    pdf_path = out_dir / "report.pdf"
    tmp_pdf = out_dir / ".report.pdf.tmp"
    with PdfPages(tmp_pdf, metadata={"Title": f"{ctx.game.title} balance report", "Creator": "pirate-sim"}) as pdf:
        for name, fig in report_pages(ctx, lambda text: say(f"drawing {text}")):
            png = out_dir / f"{name}.png"
            fig.savefig(png, dpi=PNG_DPI)
            pdf.savefig(fig)
            plt.close(fig)
            pngs.append(png)
    tmp_pdf.replace(pdf_path)
    return pdf_path, pngs
