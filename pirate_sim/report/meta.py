"""Report of a skill ladder or a tournament directory: US Letter pages from its summary.

Skill: a cover with the figures and the verdict; the ladder (the stronger level's win
rate at every step, 95% intervals, the fair-share line and the "beats" line); the
scripted strategies against every level with the budget each is worth.  Tournament: a
cover; the win-rate matrix as a heat map with its values; the equilibrium mix and the
ratings with their intervals.  Win-rate axes run over 0-100% (honest axes).
"""

from __future__ import annotations

import datetime as _dt
import textwrap
from pathlib import Path

from ..plotting import setup as _setup_matplotlib

_setup_matplotlib()
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402

from ..meta import plan  # noqa: E402
from ..results import _read_json  # noqa: E402
from .style import SHARE_CMAP  # noqa: E402
from ..stats import Estimate  # noqa: E402
from . import COLOURS, ci_bars, footnote  # noqa: E402
from .checks import PNG_DPI  # noqa: E402

LETTER = (8.5, 11.0)
COVER_LINE = 92  # characters of 9-point monospace across the page
TITLE_LINE = 60  # characters of the 16-point bold title across the page


def _est(d: dict) -> Estimate:
    return Estimate(d["value"], d["lo"], d["hi"], d.get("n", 0), d.get("method", ""))


def _text_page(title: str, lines: list[str]):
    fig = plt.figure(figsize=LETTER)
    heads = textwrap.wrap(title, TITLE_LINE)
    for i, head in enumerate(heads):
        fig.text(0.06, 0.95 - 0.03 * i, head, fontsize=16, weight="bold")
    y = 0.91 - 0.03 * (len(heads) - 1)
    for line in lines:
        for part in textwrap.wrap(line, COVER_LINE) or [""]:
            fig.text(0.06, y, part, fontsize=9, family="monospace")
            y -= 0.021
            if y < 0.04:
                return fig
    return fig


def _header(meta: dict) -> list[str]:
    v = meta.get("versions", {})
    return [f"Scenario: {meta.get('title', '')}", f"File: {meta.get('scenario_source', '')}",
            f"Overrides: {', '.join(meta.get('overrides') or []) or 'none'}",
            f"Seed {meta['seed']}   seats {meta['n_seats']}   rules version {meta['rules_version']}   "
            f"pirate-sim {v.get('pirate_sim', '?')}",
            f"{len(meta['matches'])} matches, {_played(meta):,} games, "
            f"{meta.get('timings', {}).get('play_seconds', 0):.0f} s of play; common random numbers: game k of every "
            "match plays the same dice stream",
            f"Generated {_dt.datetime.now().strftime('%Y-%m-%d %H:%M')}", ""]


# ----------------------------------------------------------------------- skill


def placement_claim(p: dict, fair: float) -> str:
    """What a placed strategy's win rates show, claiming only what their intervals do: a loss to
    the weakest level only when its interval there lies below the fair share, a win over the
    strongest only when its interval there lies above."""
    ends = [_est(d) for d in p["win_rates"]]
    lv = p["levels"]
    if p["below"]:
        return (f"worth less than {lv[0]} rollouts (loses to the weakest level: {_pct(ends[0])})" if ends[0].hi < fair
                else f"below {lv[0]} rollouts at its point estimate, but its interval against the weakest level "
                     f"({_pct(ends[0])}) holds the fair share: no loss is shown")
    if p["above"]:
        return (f"worth more than {lv[-1]} rollouts (beats the strongest level: {_pct(ends[-1])})" if ends[-1].lo > fair
                else f"above {lv[-1]} rollouts at its point estimate, but its interval against the strongest level "
                     f"({_pct(ends[-1])}) holds the fair share: no win is shown")
    return p["text"]


def _pct(e) -> str:
    return f"{100 * e.value:.0f}% [{100 * e.lo:.0f}, {100 * e.hi:.0f}]"


def _skill_cover(meta, s):
    tr, dp = s["skill_trace"], s["skill_depth"]
    thr = 100 * s["beat_threshold"]
    lines = _header(meta) + [
        "Verdict: " + s["verdict"], "",
        "Figures (95% intervals):",
        f"  skill trace (Ludii's definition)    {tr['value']:.3f}  [{tr['lo']:.3f}, {tr['hi']:.3f}]",
        f"  skill depth: {dp['value']:.0f} of {len(s['steps'])} steps beaten at >= {thr:.0f}% (point estimates); "
        f"certainly {dp['certain']}, possibly {dp['possible']}",
        f"  fair share of one seat              {100 * s['fair_share']:.1f}%", "",
        "Skill trace: near 0 when doubling the search budget wins no more games (luck decides), higher the "
        f"more the stronger level keeps winning; {tr['value']:.2f} is to be compared with the same game's trace "
        "under other rules, not with other games.",
        f"Skill depth: the steps whose stronger level wins at least {thr:.0f}% of its games; 'certainly' counts "
        "the steps whose whole 95% interval lies above that line, 'possibly' those whose interval reaches it, so "
        "the true depth lies between the two.", "",
        "Steps: the stronger search's win rate against the weaker one",
    ]
    for st in s["steps"]:
        e = _est(st["win_rate"])
        said = ("beats" if e.lo >= s["beat_threshold"] else "may beat" if e.hi >= s["beat_threshold"]
                else "does not beat")
        test = {"accepted s1": "test: beats", "accepted s0": "test: does not beat"}.get(st.get("decided"),
                                                                                       "test: undecided")
        lines.append(f"  step {st['step']}: {st['strong_budget']:>6} vs {st['weak_budget']:<6} "
                     f"{100 * e.value:5.1f}%  [{100 * e.lo:.1f}, {100 * e.hi:.1f}]  {st['games']:,} games  {said}; "
                     f"{test}")
    climb = s.get("climb", {})
    if climb.get("stopped"):
        lines.append(f"  the ladder climbed {climb['played_steps']} of {climb['planned_steps']} steps: "
                     f"{climb['reason']}")
    if s["placements"]:
        lines += ["", "Scripted strategies on the ladder (the search budget each one is worth):"]
        lines += [f"  {p['strategy']}: {placement_claim(p, s['fair_share'])}" for p in s["placements"]]
    lines += ["", "How to read this report: docs/meta.md; definitions: docs/metrics.md."]
    return _text_page(f"{meta['title']}: skill ladder", lines)


def _played(meta: dict) -> int:
    """Games the plan played: each match's own count where a sequential test stopped it (none where skipped)."""
    return sum(m.get("played", m["games"]) for m in meta["matches"])


def _per_match(s: dict) -> str:
    if not s["settings"].get("sequential"):
        return f"{s['games_per_match']:,} games per match"
    return (f"up to {s['games_per_match']:,} games per match, each pair stopped once its sequential tests decided "
            f"({s['games_played']:,} played; mirrors play every game)")


def _ladder(meta, s):
    fig, (ax, ax2) = plt.subplots(2, 1, figsize=LETTER)
    steps = s["steps"]
    x = np.arange(len(steps))
    ests = [_est(st["win_rate"]) for st in steps]
    v = np.array([e.value for e in ests]) * 100
    err = np.clip(np.array([[e.value - e.lo for e in ests], [e.hi - e.value for e in ests]]) * 100, 0, None)
    ax.errorbar(x, v, yerr=err, fmt="o-", color=COLOURS[0], capsize=4, label="stronger level's win rate (95% CI)")
    ax.axhline(100 * s["fair_share"], color="black", lw=1, ls="-", label=f"fair share {100 * s['fair_share']:.0f}%")
    ax.axhline(100 * s["beat_threshold"], color=COLOURS[1], lw=1, ls="--",
               label=f"'beats' line {100 * s['beat_threshold']:.0f}%")
    ax.set_xticks(x, [f"{st['strong_budget']} vs {st['weak_budget']}" for st in steps])
    ax.set_ylim(0, 100)
    ax.set_xlabel("step: rollouts per decision, stronger vs weaker search")
    ax.set_ylabel("stronger level's win rate (%)")
    ax.set_title("Skill ladder: does doubling the search budget win more?")
    ax.legend(loc="lower left", fontsize=8)
    places = s["placements"]
    if places:
        for k, p in enumerate(places):
            pe = [_est(d) for d in p["win_rates"]]
            lx = np.log2(np.array(p["levels"], float)) + (k - (len(places) - 1) / 2) * 0.06
            pv = np.array([e.value for e in pe]) * 100
            perr = np.clip(np.array([[e.value - e.lo for e in pe], [e.hi - e.value for e in pe]]) * 100, 0, None)
            ax2.errorbar(lx, pv, yerr=perr, fmt="o-", capsize=3, color=COLOURS[(k + 1) % len(COLOURS)],
                         label=f"{p['strategy']}: {placement_claim(p, s['fair_share'])}")
        ax2.axhline(100 * s["fair_share"], color="black", lw=1, label=f"fair share {100 * s['fair_share']:.0f}%")
        lv = sorted({b for p in places for b in p["levels"]})  # a strategy lost at one level is not placed above
        ax2.set_xticks(np.log2(np.array(lv, float)), [str(b) for b in lv])
        ax2.set_ylim(0, 100)
        ax2.set_xlabel("search budget of the other seats (rollouts per decision, log scale)")
        ax2.set_ylabel("scripted strategy's win rate (%)")
        ax2.set_title("Scripted strategies on the ladder: one seat against search at each level")
        ax2.legend(loc="upper right", fontsize=7)
    else:
        ax2.set_axis_off()
        ax2.text(0.5, 0.5, "no scripted strategy was placed on the ladder (--place none)", ha="center",
                 transform=ax2.transAxes)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    footnote(fig, "Every step and level plays the same games' dice; seats rotate. A scripted strategy is worth "
                  "the budget where its line crosses the fair share.")
    return fig


# ----------------------------------------------------------------------- tournament


def _search_budget(meta) -> list[str]:
    """The budget each ``search`` entrant played at (its seat's setting, else its default)."""
    from ..games import get_game

    found = {str(seat.get("budget", "default")) for m in meta.get("matches", []) for seat in m.get("seats", [])
             if seat.get("strategy") == "search"}
    if not found:
        return []
    try:
        default = next(p.default for p in get_game(meta["game"]).strategy("search").params if p.key == "budget")
    except (KeyError, StopIteration):
        default = "?"
    said = ", ".join(f"{default} (its default)" if b == "default" else b for b in sorted(found))
    return [f"search played at a budget of {said} rollouts per decision."]


def _tournament_cover(meta, s):
    names = s["strategies"]
    eq, b = s["equilibrium"], s["balance"]
    lines = _header(meta) + ["Verdict: " + s["verdict"], "", f"Design: {s['design']}; "
                             f"{_per_match(s)}.", *_search_budget(meta), "",
                             f"Equilibrium ({eq['method']}), 95% bootstrap intervals:"]
    for n, e in zip(names, eq["mix"]):
        lines.append(f"  {n:<20s} {100 * e['value']:5.1f}%  [{100 * e['lo']:.1f}, {100 * e['hi']:.1f}]")
    sp = eq["support"]
    lines.append(f"  support (weights >= {100 * eq['support_min_weight']:.0f}%): {sp['value']:.0f} "
                 f"[{sp['lo']:.0f}, {sp['hi']:.0f}]")
    lines += ["The equilibrium (Nash) mix: the way of choosing among the strategies at random that no "
              "single strategy beats on average; linear programming is how it is solved for.",
              "Support: how many strategies the mix plays at all (weight at least "
              f"{100 * eq['support_min_weight']:.0f}%)."]
    lines += ["", f"Ratings ({s['ratings']['method']}, {s['ratings']['scale']}):"]
    for n, e in sorted(zip(names, s["ratings"]["elo"]), key=lambda t: -t[1]["value"]):
        lines.append(f"  {n:<20s} {e['value']:+6.0f}  [{e['lo']:+.0f}, {e['hi']:+.0f}]")
    if "Luce" in s["ratings"]["method"]:
        lines.append("Luce's model: each strategy has a strength, and the chance that it wins a game is its "
                     "strength over the sum of the strengths at the table.")
    lines += ["", f"Balance when every seat plays the equilibrium mix ({b['method']}):"]
    for key in ("first_player_win_rate", "first_player_advantage", "seat_balance"):
        e = b[key]
        v = f"{100 * e['value']:6.1f}%" if "rate" in key else f"{100 * e['value']:+6.1f} points"
        lines.append(f"  {key:<24s} {v}  [{100 * e['lo']:.1f}, {100 * e['hi']:.1f}]")
    lines += ["", "How to read this report: docs/meta.md; definitions: docs/metrics.md."]
    return _text_page(f"{meta['title']}: strategy tournament", lines)


def _heatmap(meta, s):
    names = s["strategies"]
    m = len(names)
    mat = np.array(s["matrix"]) * 100
    fig = plt.figure(figsize=LETTER)
    ax = fig.add_axes((0.2, 0.35, 0.68, 0.55))
    fair = 100 * s["fair_share"]
    from matplotlib.colors import TwoSlopeNorm

    # the colour scale is the win rate's own range, 0-100%, white at the fair share
    im = ax.imshow(mat, cmap=SHARE_CMAP, norm=TwoSlopeNorm(vcenter=fair, vmin=0, vmax=100))
    size = 8 if m <= 6 else (6 if m <= 9 else 5)
    for i in range(m):
        for j in range(m):
            e = s["matrix_ci"][i][j]
            text = "mirror" if e is None else f"{100 * e['value']:.0f}%\n[{100 * e['lo']:.0f}, {100 * e['hi']:.0f}]"
            shade = (mat[i, j] - fair) / (100 - fair if mat[i, j] > fair else fair) > 0.6 or \
                (fair - mat[i, j]) / fair > 0.6
            ax.text(j, i, text, ha="center", va="center", fontsize=size, color="white" if shade else "black")
    ax.set_xticks(range(m), names, rotation=30, ha="right")
    ax.set_yticks(range(m), names)
    ax.set_xlabel("opponent strategy" if s["n_seats"] == 2 else "strategy of the field (the other seats)")
    ax.set_ylabel("strategy whose win rate is shown" if s["n_seats"] == 2 else "strategy of the one seat")
    ax.set_title("Win rate of the row strategy against the column one (95% CI)" if s["n_seats"] == 2 else
                 f"Win rate of one row seat among a field of the column (fair {fair:.0f}%)", fontsize=11)
    cax = fig.add_axes((0.9, 0.35, 0.025, 0.55))
    bar = fig.colorbar(im, cax=cax)
    bar.set_label(f"win rate (%); white: the fair share {fair:.0f}%")
    bar.set_ticks(sorted({0, 20, 40, 60, 80, 100, round(fair)}))
    fig.text(0.06, 0.25, textwrap.fill("Verdict: " + s["verdict"], 100), fontsize=9)
    footnote(fig, f"{_per_match(s)}, seats rotating, every match on the same games' dice. "
                  "The diagonal is the mirror match (fair share by symmetry).")
    return fig


def _mix_and_ratings(meta, s):
    names = s["strategies"]
    fig, (a1, a2) = plt.subplots(2, 1, figsize=LETTER)
    ci_bars(a1, names, [_est(d) for d in s["equilibrium"]["mix"]], colour=COLOURS[0])
    a1.set_ylim(0, max(a1.get_ylim()[1], 100))
    a1.set_ylabel("weight in the equilibrium mix (%)")
    a1.set_xlabel("strategy")
    a1.set_title(textwrap.fill(f"Equilibrium mix: {s['equilibrium']['method']} (95% bootstrap CI)", 90), fontsize=10)
    ci_bars(a2, names, [_est(d) for d in s["ratings"]["elo"]], colour=COLOURS[2], pct=False, fmt="{:+.0f}")
    a2.axhline(0, color="black", lw=0.8)
    lo = min(e["lo"] for e in s["ratings"]["elo"])
    a2.set_ylim(bottom=min(lo * 1.15, -10), top=max(a2.get_ylim()[1], 10))
    a2.set_ylabel("rating (Elo points, mean 0)")
    a2.set_xlabel("strategy")
    a2.set_title(f"Ratings: {s['ratings']['method']} (95% bootstrap CI)", fontsize=10)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    footnote(fig, "A weight of 0 means the strategy is never played at equilibrium; 400 Elo points = 10:1 odds.")
    return fig


def report_pages(out: Path):
    """``(file stem, figure)`` of every page of a meta-game directory's report."""
    meta = plan.read_meta(out)
    s = _read_json(Path(out) / plan.SUMMARY)
    if meta["kind"] == "skill":
        return [("01_cover", _skill_cover(meta, s)), ("02_ladder", _ladder(meta, s))]
    return [("01_cover", _tournament_cover(meta, s)), ("02_matrix", _heatmap(meta, s)),
            ("03_equilibrium", _mix_and_ratings(meta, s))]


def build_report(out: Path, out_dir: Path, progress=None) -> tuple[Path, list[Path]]:
    """Every page as PNG and all of them in report.pdf (the meta-game's own pages)."""
    out, out_dir = Path(out), Path(out_dir)
    plan.check_complete(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    pngs = []
    pdf_path = out_dir / "report.pdf"
    tmp = out_dir / ".report.pdf.tmp"
    with PdfPages(tmp, metadata={"Title": "pirate-sim meta-game report", "Creator": "pirate-sim"}) as pdf:
        for name, fig in report_pages(out):
            if progress:
                progress(f"drawing {name[3:]}")
            png = out_dir / f"{name}.png"
            fig.savefig(png, dpi=PNG_DPI)
            pdf.savefig(fig)
            plt.close(fig)
            pngs.append(png)
    tmp.replace(pdf_path)
    return pdf_path, pngs
