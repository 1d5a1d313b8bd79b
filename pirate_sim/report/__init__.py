"""Run report: PNG charts and one PDF, read from a results directory only.

Generic pages first (every game gets them), then the game's own pages from
``Game.report_figures(ctx)``.  Every chart has a title, labelled axes and, where the
number is an estimate, its 95% confidence interval.

Pages read the run's Parquet parts one at a time through ``ctx.parts(...)`` and keep
only exact aggregates (see :mod:`pirate_sim.report.parts`), so the report's memory stays
flat however many games the run played.

Every page is landscape US Letter (:data:`PAGE`, 11 x 8.5 in, 792 x 612 points in the PDF).
The cover names the players the numbers come from and one sentence per headline number
(:mod:`pirate_sim.report.reading`); it points to a tournament when one is given
(``build_report(..., tournament=DIR)``) or named in the run's :data:`TOURNAMENT_FILE`
(one line: the tournament directory, relative to the run or absolute).  Every report has
the "how strong are the players" page (:mod:`pirate_sim.report.players`), played when the
report is made (then cached for the same rules), ``search`` included once the game registers it.
"""

from __future__ import annotations

import datetime as _dt
import textwrap
from dataclasses import dataclass, field
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

from .style import COLOURS, FIGSIZE, PAGE, footnote  # noqa: E402,F401 - re-exported for the games' pages


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
    tournament: Path | None = None  # a tournament directory the cover points to (see tournament_dir)
    mirrors: list = field(default_factory=list)  # event pairs equal in every game (reading.mirror_pairs)
    scenario_seats: list | None = None  # the scenario's [[seats]] entries, parameters included

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


COVER_STEP = 0.0205  # figure height per 8-point line on the landscape cover
TOURNAMENT_FILE = "tournament.txt"  # in a results directory: one line, the tournament directory to cite


def tournament_dir(results_dir: Path, given: Path | None = None) -> Path | None:
    """The tournament directory the cover points to: ``given``, else the one named in the run's
    :data:`TOURNAMENT_FILE` (relative to the run), else None.  A named directory that does not
    exist is an error naming the file."""
    if given is not None:
        path, source = Path(given), "--tournament"
    else:
        f = Path(results_dir) / TOURNAMENT_FILE
        if not f.exists():
            return None
        text = f.read_text().strip()
        if not text:
            raise results.ResultsError(f"{f}: empty; write the tournament directory on its one line")
        path, source = (Path(results_dir) / text) if not Path(text).is_absolute() else Path(text), str(f)
    if not path.is_dir():
        raise results.ResultsError(f"{source}: tournament directory {path} does not exist")
    return path


def players_note(ctx: "ReportContext") -> str:
    """Which players the numbers come from, and where a tournament of them is."""
    m = ctx.manifest
    seats = ", ".join(f"{i}: {s}" for i, s in enumerate(m.get("seats", [])))
    how = ("strategies rotate over the seats game by game" if ctx.rules.get("strategy_seating") == "rotate"
           else "each strategy keeps its seat")
    line = (f"Players: every number below comes from these seats' strategies, with the scenario's settings "
            f"({how}): {seats}.  ")
    if ctx.tournament is not None:
        line += f"A tournament of the strategies was run: {ctx.tournament} (its report ranks them)."
    else:
        line += ("No tournament was run for this report; the 'how strong are the players' page plays "
                 "the strategies head to head.")
    return line


def decimals(*values: float, least: int = 2, most: int = 6) -> int:
    """Decimals that show ``values`` (a value and its interval's ends) as more than zeros: at
    least ``least``, more for small numbers (0.0004, not 0.00), two significant digits of the smallest."""
    small = [abs(v) for v in values if np.isfinite(v) and v != 0]
    if not small:
        return least
    return int(min(most, max(least, 1 - np.floor(np.log10(min(small))))))


def cover_rows(ctx: "ReportContext") -> list[tuple[str, str, str]]:
    """(label, value, interval) of the cover's key figures: shares in %, differences of shares in
    points, a fixed length once without an interval, mirror counters once ("a = b"); small values
    with the decimals that show them (:func:`decimals`)."""
    from . import reading

    fixed = reading.fixed_length(ctx.acc)
    mirrors = {b: a for a, b in ctx.mirrors}
    merged = {a: f"{a}{reading.SUMMARY_SEP}{b}" for a, b in ctx.mirrors}
    out = []
    for name, label in summary_rows(ctx.game, ctx.est):
        e = ctx.est[name]
        if name.startswith("length.") and fixed is not None:
            if name == "length.mean":
                out.append(("game length", f"{fixed} turns", "every game (fixed)"))
            continue
        if name == "truncation_rate" and not reading.can_truncate(ctx.game):
            continue
        if name.startswith("events.") and name[7:] in mirrors:
            continue
        if name.startswith("events.") and name[7:] in merged:
            label = f"per game: {merged[name[7:]]}"
        if name in ("first_player_advantage", "seat_balance"):
            out.append((label, f"{100 * e.value:+.2f} pts", f"[{100 * e.lo:+.2f} .. {100 * e.hi:+.2f}]"))
        elif metrics.is_proportion(name):
            d = decimals(100 * e.value, 100 * e.lo, 100 * e.hi)
            out.append((label, f"{100 * e.value:.{d}f}%", f"[{100 * e.lo:.{d}f}% .. {100 * e.hi:.{d}f}%]"))
        else:
            d = decimals(e.value, e.lo, e.hi)
            out.append((label, f"{e.value:.{d}f}", f"[{e.lo:.{d}f} .. {e.hi:.{d}f}]"))
    return out


LEFT = (0.04, 0.52)  # the cover's columns, figure fractions: the run and the verdicts ...
RIGHT = (0.55, 0.975)  # ... and the key figures


def _column_text(fig, x: float, y: float, text: str, column, **props):
    from .checks import keep_within

    keep_within(fig.text(x, y, text, **props), *column)


def _cover(ctx: ReportContext):
    from . import reading
    from .style import fit_lines

    m = ctx.manifest
    fig = plt.figure(figsize=PAGE)
    fig.text(0.04, 0.94, f"{ctx.game.title}: balance report", fontsize=18, weight="bold")
    v = m.get("versions", {})
    info = [
        f"Scenario: {m.get('title', '')}",
        f"File: {m.get('scenario_source', '')}",
        f"Overrides: {', '.join(m.get('overrides') or []) or 'none'}",
        f"Seed {m['seed']}   games {m['games']:,}   scenario hash {m['scenario_hash']}",
        f"Rules version {m['rules_version']}   pirate-sim {v.get('pirate_sim', '?')}   "
        f"numba {v.get('numba', '?')}   numpy {v.get('numpy', '?')}   Python {v.get('python', '?')}",
        players_note(ctx),
        positions_note(ctx),
        f"Generated {_dt.datetime.now().strftime('%Y-%m-%d %H:%M')}",
    ]
    mono = dict(fontsize=8, family="monospace")
    width = LEFT[1] - LEFT[0] - 0.02  # room for the continuation lines' indent
    lines = [("  " if i else "") + w for line in info for i, w in enumerate(fit_lines(fig, line, width, **mono))]
    y = 0.89
    for line in lines:  # every line whole: wrapped to the column as rendered, never cut
        _column_text(fig, LEFT[0], y, line, LEFT, **mono)
        y -= COVER_STEP
    y -= 0.015
    _column_text(fig, LEFT[0], y, "What the headline numbers say (95% intervals)", LEFT, fontsize=11, weight="bold")
    y -= 0.03
    first = first_seat_varies(ctx)
    for sentence in reading.verdicts(ctx.game, ctx.acc, ctx.est, ctx.rules, first):
        for i, line in enumerate(fit_lines(fig, "- " + sentence, LEFT[1] - LEFT[0] - 0.015, fontsize=8.5)):
            _column_text(fig, LEFT[0] + (0.012 if i else 0), y, line, LEFT, fontsize=8.5)
            y -= 0.024
        y -= 0.006
    rows = cover_rows(ctx)
    never = metrics.never_happened(ctx.est)
    x = RIGHT[0]
    y = 0.89
    _column_text(fig, x, y + 0.005, "Key figures (95% confidence intervals)", RIGHT, fontsize=11, weight="bold")
    y -= 0.03
    small = dict(fontsize=7.5, family="monospace")
    used = 0
    for label, value, ci in rows:
        row = ([label] if len(label) <= COVER_LABEL else
               [label[:COVER_LABEL], "  " + label[COVER_LABEL:2 * COVER_LABEL - 2]])
        if used + len(row) > COVER_ROWS:
            break
        for k, part in enumerate(row):  # a long label on two lines, its figures on the second
            last = k == len(row) - 1
            text = f"{part:<{COVER_LABEL}s} {value:>10s}  {ci}" if last else part
            _column_text(fig, x, y, text, RIGHT, **small)
            y -= 0.0195
        used += len(row)
    if never:
        lines = fit_lines(fig, "Never happened in this run: " + ", ".join(never), RIGHT[1] - RIGHT[0], **small)
        for i, line in enumerate(lines[:NEVER_LINES]):  # every name, not one clipped line
            last = i == NEVER_LINES - 1 and len(lines) > NEVER_LINES
            _column_text(fig, x, y - 0.01 - 0.0195 * i, line + (" ..." if last else ""), RIGHT, **small)
    return fig


COVER_LABEL = 38  # characters of a key figure's label on one line; a longer one takes two
COVER_ROWS = 36  # key-figure rows that fit in the cover's right column
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
    ci_bars(ax, ["moved first"], [e])
    # the fair share is exact, a reference: a line across the bar, not a second bar with a whisker
    ax.axhline(100 * fair, ls="--", color="grey", lw=1.2)
    ax.set_xlim(-1.5, 1.5)
    adv = ctx.est["first_player_advantage"]
    ax.set(title=f"First-player advantage: {100 * adv.value:+.2f} points "
                 f"[{100 * adv.lo:+.2f} .. {100 * adv.hi:+.2f}] (dashed: fair share {100 * fair:.0f}%)",
           ylabel="decided games won (%)", xlabel="the seat that moved first, whoever sat there")
    ax.set_ylim(0, ax.get_ylim()[1] * 1.12)
    footnote(fig, _wrap(positions_note(ctx), 150))
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    return fig


LENGTH_SHOWN = (0.1, 99.9)  # percentiles of game length the x axis spans (a few outliers would squash it)


def _length(ctx: ReportContext):
    from .reading import fixed_length

    if fixed_length(ctx.acc) is not None:
        return None  # every game lasted the same: the cover says so in one line, no one-bar page
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


def event_groups(game: Game, est: dict[str, Estimate],
                 mirrors: list[tuple[str, str]] = ()) -> tuple[list[tuple[str, list[str]]], list[str]]:
    """Event metrics split into panels of one kind each, and the events that never happened.

    Gold amounts are not counts; counts are split by :data:`EVENT_TIERS`, each with its
    own x scale.  Of a mirror pair (equal in every game) only the first is listed.
    """
    never = metrics.never_happened(est)
    second = {f"events.{b}" for _a, b in mirrors}
    keys = [k for k in est if k.startswith("events.") and k[7:] not in never and k not in second]
    gold = [k for k in keys if "gold" in k]
    counts = [k for k in keys if k not in gold]
    groups = [("gold per game", gold)]
    upper = np.inf
    for lo, label in EVENT_TIERS:
        groups.append((f"events per game ({label})", [k for k in counts if lo <= est[k].value < upper]))
        upper = lo
    return [(unit, ks) for unit, ks in groups if ks], never


def event_notes(ctx: ReportContext) -> dict[str, str]:
    """Event name -> what its number means, where a bar alone would mislead: the game's own
    notes (its report module's ``event_notes(ctx)``, e.g. Pirate's Peak's unpaid gold)."""
    from .players import game_report_module

    mod = game_report_module(ctx.game)
    out = dict(mod.event_notes(ctx)) if mod is not None and hasattr(mod, "event_notes") else {}
    return {k: v for k, v in out.items() if v}


EVENT_ROWS_PER_COLUMN = 16  # bars a landscape column of event panels holds at a readable size


def _events(ctx: ReportContext):
    from .reading import SUMMARY_SEP

    groups, never = event_groups(ctx.game, ctx.est, ctx.mirrors)
    if not groups:
        return None
    merged = {a: f"{a}{SUMMARY_SEP.rstrip()}\n{b}" for a, b in ctx.mirrors}  # two lines: the panel keeps its width
    notes = event_notes(ctx)
    sizes = [len(ks) for _, ks in groups]
    # one column of panels, or two when the bars would not fit: the largest panels first, each to
    # the shorter column (panels keep their order within a column), the shorter one padded at the bottom
    weight = [sz + 1.5 for sz in sizes]
    cols = [list(range(len(groups)))]
    if sum(weight) > EVENT_ROWS_PER_COLUMN + 4 and len(groups) > 1:
        cols = [[], []]
        for i in sorted(range(len(groups)), key=lambda i: -weight[i]):
            min(cols, key=lambda c: sum(weight[j] for j in c)).append(i)
        cols = [sorted(c) for c in cols]
    tallest = max(sum(weight[i] for i in c) for c in cols)
    fig = plt.figure(figsize=PAGE, layout="constrained")
    outer = fig.add_gridspec(1, len(cols))
    for c, idx in enumerate(cols):
        ratios = [weight[i] for i in idx]
        filler = tallest - sum(ratios)
        inner = outer[0, c].subgridspec(len(idx) + (filler > 0.5), 1,
                                        height_ratios=ratios + ([filler] if filler > 0.5 else []))
        for r, i in enumerate(idx):
            unit, ks = groups[i]
            ax = fig.add_subplot(inner[r, 0])
            labels = [merged.get(k[7:], k[7:]) for k in ks]
            ci_bars(ax, labels, [ctx.est[k] for k in ks], horizontal=True, pct=False, colour=COLOURS[3],
                    fmt="{:.3g}")
            ax.set(xlabel=unit, ylabel="gold moved" if unit.startswith("gold") else "event")
            ax.set_xlim(0, ax.get_xlim()[1] * 1.15)  # room for the value labels
            ax.tick_params(axis="y", labelsize=7 if len(ks) > 10 else 8.5)
    fig.suptitle(f"Event rates: mean per game ({seats_together(ctx.acc.n_seats)}, 95% CI)")
    lines = []
    if ctx.mirrors:
        lines.append("One bar for each pair of counters equal in every game of this run (by construction): "
                     + "; ".join(f"{a} = {b}" for a, b in ctx.mirrors) + ".")
    lines += [f"{k}: {v}." for k, v in notes.items() if f"events.{k}" in ctx.est and k not in never]
    if never:
        lines.append("Never happened in this run: " + ", ".join(never) + ".")
    text = "\n".join(textwrap.wrap(" ".join(lines), 190))
    if text:
        footnote(fig, text)
    n_lines = text.count("\n") + 1 if text else 0
    # the layout engine makes room for the labels, however long; the notes keep the bottom strip
    fig.get_layout_engine().set(rect=(0, 0.02 + 0.017 * n_lines, 1, 0.95), w_pad=0.08, h_pad=0.08)
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
    title = f"{name.capitalize()} by seat (defined below)"
    xlabel = f"{name} (middle 99% of seat-games shown)"
    a1.set(title=title, xlabel=xlabel, ylabel="share of games")
    a1.legend(fontsize=7)
    for won, c in ((True, COLOURS[2]), (False, COLOURS[1])):
        h = d["won"][won]
        who = "winners" if won else "others"
        if not h.n:  # no game had a winner (every game cut at the turn cap): no bars, no "mean nan"
            a2.plot([], [], lw=1.5, color=c, label=f"{who}: none in these games")
            continue
        h.hist(a2, d["bins"], histtype="step", lw=1.5, color=c, density=True, label=f"{who}, mean {h.mean():.2f}")
    m = ctx.est.get("winning_margin")
    a2.set(title="Winners vs others" + (f"\n(winning margin {margin_text(m)})" if m else ""),
           xlabel=xlabel, ylabel="share of seat-games")
    a2.legend(fontsize=7)
    doc = next((c.doc for c in ctx.game.seat_columns if c.name == col), "")
    note = f"{name}: {doc}." if doc else ""
    winners = d["won"][True]
    if m is not None:
        note += (" Winning margin: the winner's " + name + " minus the best other seat's, per game")
        if winners.n and len(winners.values) == 1:  # e.g. every Ice Pirates winner holds the treasure (4)
            v = int(winners.values[0])
            note += (f"; every winner has {v}, so the margin is {v} minus the runner-up's {name} "
                     f"(runner-up's mean {v - m.value:.2f})")
        note += "."
    wrapped = _wrap(note, 170)
    if wrapped:
        footnote(fig, wrapped)
    fig.tight_layout(rect=(0, 0.035 + 0.017 * wrapped.count("\n") if wrapped else 0, 1, 1))
    return fig


def margin_text(e: Estimate) -> str:
    """``value [lo..hi]`` with as many decimals as it takes for the interval's ends to differ."""
    for digits in range(1, 5):
        f = f"{{:.{digits}f}}"
        if f.format(e.lo) != f.format(e.hi) or e.lo == e.hi:
            return f"{f.format(e.value)} [{f.format(e.lo)}..{f.format(e.hi)}]"
    return f"{e.value:.4f} [{e.lo:.4f}..{e.hi:.4f}]"


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


def report_context(results_dir: Path, quick: bool = False, tournament: Path | None = None) -> ReportContext:
    """Everything the pages read, from a finished results directory."""
    from ..scenario import load

    results_dir = Path(results_dir)
    man = results.read_manifest(results_dir)
    game = get_game(man["game"])
    acc = Accumulator.from_json(game, results.read_summary(results_dir)["accumulator"])
    from .reading import mirror_pairs

    s = load(results_dir / results.SCENARIO)
    ctx = ReportContext(results_dir, man, game, acc, metrics.compute(acc), s.rules, quick,
                        tournament_dir(results_dir, tournament), scenario_seats=list(s.seats))
    ctx.mirrors = mirror_pairs(acc, ctx.parts("seats"))
    return ctx


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
    say("how strong are the players")
    from .players import players_page

    yield "08_players_strength", players_page(ctx, say)
    from .learned_page import learned_page

    fig = learned_page(ctx)
    if fig is not None:  # a seat plays a learned player: how it was trained
        say("learned players")
        yield "08_learned_players", fig
    from .strength import strength_page

    fig = strength_page(ctx)
    if fig is not None:  # a game whose search strength was measured (docs/search_strength.py)
        say("how strong is search")
        yield "09_search_strength", fig
    say(f"{ctx.game.title} pages")
    yield from ((f"10_{n}", f) for n, f in ctx.game.report_figures(ctx))


def build_report(results_dir: Path, out_dir: Path, progress=None, tournament: Path | None = None,
                 quick: bool = False) -> tuple[Path, list[Path]]:
    """Write every chart as PNG and all of them, cover first, into report.pdf.

    ``progress(text)`` (optional) hears each step: the page being drawn, then each file written.
    ``tournament``: a tournament directory for the cover to point to (default: the one named
    in the run's :data:`TOURNAMENT_FILE`, if any).  ``quick``: small side computations (tests).
    """
    results_dir, out_dir = Path(results_dir), Path(out_dir)
    ctx = report_context(results_dir, quick, tournament)
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
