"""The "how strong is search" page: the measured head-to-head table of the game's ``search`` at its
default settings against every scripted player (issue 30).

The games behind it are too many to play when a report is made (Pirateer's search takes seconds a
game), so the page shows the table measured by ``docs/search_strength.py --write`` and kept in
:mod:`.strength_tables`, and says what it was measured on: the default scenario's rules at a rules
version, a held-out seed, search's settings.  Where the run differs (other rules, another version,
search's defaults changed since), the page names the difference rather than pass the table off as
this run's; the players page beside it then has this run's own (small) search cells.  Where the
table is this run's (:func:`applies`) and no learned player sits at the table, the players page
plays none: a first report of a default scenario never waits for the search kernel's compile for
cells this page already measured.
"""

from __future__ import annotations

from .strength_tables import TABLES


def measured(game_name: str) -> list[dict]:
    """The measured tables of ``game_name``, one per seat count (see :mod:`.strength_tables`)."""
    return list(TABLES.get(game_name, []))


def search_defaults(game) -> dict:
    """``search``'s default parameters in ``game`` now."""
    return {p.key: p.default for p in game.strategy("search").params}


def differences(game, table: dict, rules: dict) -> list[str]:
    """How the run (``rules``) and today's code differ from what ``table`` was measured on."""
    out = []
    if table["version"] != game.version:
        out.append(f"rules version {table['version']} (now {game.version})")
    now = search_defaults(game)
    changed = sorted(k for k in now if table["search"].get(k) != now[k])
    if changed:
        out.append("search's defaults changed since: " + ", ".join(f"{k} {table['search'].get(k)} -> {now[k]}"
                                                                 for k in changed))
    keys = sorted(k for k in set(table["rules"]) | set(rules)
                  if k not in IGNORED and table["rules"].get(k) != rules.get(k))
    if keys:
        out.append("this run's rules differ in " + ", ".join(keys[:6]) + (" ..." if len(keys) > 6 else ""))
    return out


def applies(game, rules: dict, n_seats: int) -> bool:
    """Whether a measured table of ``n_seats`` seats was played on exactly ``rules`` (the seating
    keys aside), this rules version and search's current defaults: then it is this run's table."""
    return any(t["seats"] == n_seats and not differences(game, t, rules) for t in measured(game.name))


# how the run seats its own strategies: the table seats its players itself
IGNORED = frozenset({"strategy_seating"})


def strength_page(ctx):
    """The page for :func:`pirate_sim.report.report_pages`; None where no table was measured."""
    tables = measured(ctx.game.name)
    if not tables:
        return None
    return draw_strength(tables, differences(ctx.game, tables[0], ctx.rules))


def draw_strength(tables: list[dict], diffs: list[str]):
    """One row of panels per measured seat count: search's share (and the expert's in that seat)
    against each scripted player on the left, the figures on the right."""
    import matplotlib.pyplot as plt

    from .style import PAGE, footnote

    fig, axes = plt.subplots(len(tables), 2, figsize=PAGE, squeeze=False, gridspec_kw={"width_ratios": [1, 1.1]})
    for (ax, tx), table in zip(axes, tables):
        _panel(ax, tx, table)
    p = tables[0]["search"]
    opp = f", opponents {p['opponents']}" if "opponents" in p else ""
    fig.suptitle(f"How strong is search (budget {p['budget']}, rollout {p['rollout']}, top_k {p['top_k']}{opp}): "
                 "measured, not played for this report", fontsize=11)
    t = tables[0]
    note = [f"Measured by docs/search_strength.py on the default scenario's rules (version {t['version']}), "
            f"held-out seed {t['seed']:,}, search in each seat in turn on the same seeds.  Edge: the same games with "
            "expert in search's seat, paired (mean difference, normal 95%).  CPU s: a game, 2-core machine.",
            ("Differs from this run: " + "; ".join(diffs) + ".  The players page has this run's own search cells."
             if diffs else "Measured on this run's rules and search's current defaults.")]
    footnote(fig, "\n".join(note))
    fig.tight_layout(rect=(0, 0.06, 1, 0.95))
    return fig


def _panel(ax, tx, table: dict) -> None:
    from .style import COLOURS

    n = table["seats"]
    rows = table["rows"]
    for i, r in enumerate(rows):
        for k, (key, mark, dy) in enumerate((("search", "o", 0.0), ("expert", "s", 0.22))):
            e = r.get(key)
            if e is None or (key == "expert" and r["opponent"] == "expert"):
                continue  # against expert, expert in that seat is a mirror: 1/n by construction
            ax.errorbar([100 * e["share"]], [i + dy], xerr=[[100 * (e["share"] - e["lo"])], [100 * (e["hi"] - e["share"])]],
                        fmt=mark, color=COLOURS[k], capsize=3, ms=5 if k == 0 else 4,
                        label=("search" if k == 0 else "expert in that seat") if i == 0 else None)
    fair = 100 / n
    ax.axvline(fair, color="grey", ls="--", lw=1)
    ax.set_yticks(range(len(rows)), [r["opponent"] for r in rows])
    ax.set_ylim(len(rows) - 0.5, -0.7)
    ax.set_xlim(0, 100)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(loc="lower left", fontsize=7.5, framealpha=0.9)
    ax.set(xlabel=f"share of the points (%, Wilson 95%; a win 1, no winner 1/{n}); dashed: fair {fair:.0f}%",
           ylabel=f"the other {n - 1} seat{'s' if n > 2 else ''} play",
           title=f"{n} seats: search alone among {n - 1} of each scripted player")
    ax.title.set_fontsize(9.5)
    tx.axis("off")
    tx.set_ylim(len(rows) - 0.5, -0.7)
    tx.set_xlim(0, 1)
    cols = ((0.0, "search [95%]"), (0.34, "expert there"), (0.54, "edge [95%]"), (0.83, "games, CPU s"))
    for x, head in cols:
        tx.text(x, -0.55, head, fontsize=8, weight="bold", va="center")
    for i, r in enumerate(rows):
        s, b, d = r["search"], r.get("expert"), r.get("edge")
        cells = (f"{100 * s['share']:.1f} [{100 * s['lo']:.1f}, {100 * s['hi']:.1f}]",
                 f"{100 * b['share']:.1f}" if b else "",
                 f"{100 * d['diff']:+.1f} [{100 * d['lo']:+.1f}, {100 * d['hi']:+.1f}]" if d else "",
                 f"{s['games']:,}, {s['cpu_s_per_game']:.2g}")
        for (x, _), text in zip(cols, cells):
            tx.text(x, i, text, fontsize=8, va="center")
