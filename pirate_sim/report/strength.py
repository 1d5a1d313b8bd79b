"""The "how strong is search" page: the measured head-to-head table of the game's ``search`` at its
default settings against every scripted player (issue 30).

The games behind it are too many to play when a report is made (Pirateer's search takes seconds a
game), so the page shows the table measured by ``docs/search_strength.py --write`` and kept in
:mod:`.strength_tables`, and says what it was measured on: the default scenario's rules at a rules
version, a held-out seed, search's settings.  Where the run differs (other rules, another version,
search's defaults changed since), the page names the difference rather than pass the table off as
this run's; the players page beside it has this run's own (small) search cells.
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


# how the run seats its own strategies: the table seats its players itself
IGNORED = frozenset({"strategy_seating"})


def strength_page(ctx):
    """The page for :func:`pirate_sim.report.report_pages`; None where no table was measured."""
    tables = measured(ctx.game.name)
    if not tables or not any(s.name == "search" for s in ctx.game.strategies):
        return None
    return draw_strength(tables, differences(ctx.game, tables[0], ctx.rules))


def draw_strength(tables: list[dict], diffs: list[str]):
    """One panel per measured seat count: search's share against each scripted player."""
    import matplotlib.pyplot as plt

    from .style import PAGE, footnote

    fig, axes = plt.subplots(len(tables), 1, figsize=PAGE, squeeze=False)
    for ax, table in zip(axes[:, 0], tables):
        _panel(ax, table)
    fig.suptitle("How strong is search: measured, not played for this report", fontsize=11)
    t = tables[0]
    note = [f"Measured by docs/search_strength.py on the default scenario's rules (version {t['version']}), "
            f"held-out seed {t['seed']:,}, search in each seat in turn on the same seeds.  Edge over expert: "
            "the same games with expert in search's seat, paired (mean difference, normal 95%).",
            ("Differs from this run: " + "; ".join(diffs) + ".  The players page has this run's own search cells."
             if diffs else "Measured on this run's rules and search's current defaults.")]
    footnote(fig, "\n".join(note))
    fig.tight_layout(rect=(0, 0.05, 1, 0.95))
    return fig


def _panel(ax, table: dict) -> None:
    from .style import COLOURS

    n = table["seats"]
    rows = table["rows"]
    y = range(len(rows))
    for i, r in enumerate(rows):
        s = r["search"]
        ax.errorbar([100 * s["share"]], [i], xerr=[[100 * (s["share"] - s["lo"])], [100 * (s["hi"] - s["share"])]],
                    fmt="o", color=COLOURS[0], capsize=4, ms=6, label="search" if i == 0 else None)
        b = r.get("expert")
        if b is not None and r["opponent"] != "expert":
            ax.errorbar([100 * b["share"]], [i + 0.2], xerr=[[100 * (b["share"] - b["lo"])],
                                                            [100 * (b["hi"] - b["share"])]],
                        fmt="s", color=COLOURS[1], capsize=3, ms=4, label="expert in that seat" if i == 0 else None)
        edge = r.get("edge")
        text = (f" {100 * s['share']:.1f}% [{100 * s['lo']:.1f}, {100 * s['hi']:.1f}], {s['games']:,} games, "
                f"{s['cpu_s_per_game']:.3g} CPU s/game"
                + (f"; edge over expert {100 * edge['diff']:+.1f} [{100 * edge['lo']:+.1f}, {100 * edge['hi']:+.1f}]"
                   if edge else ""))
        ax.text(100 * s["hi"] + 1, i, text, va="center", fontsize=8)
    fair = 100 / n
    ax.axvline(fair, color="grey", ls="--", lw=1)
    ax.set_yticks(list(y), [f"against {r['opponent']}" for r in rows])
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    p = table["search"]
    ax.set(xlabel=f"share of the points (a win 1, no winner 1/{n}; %, Wilson 95%); dashed: fair share {fair:.0f}%",
           title=f"{n} seats: search (budget {p['budget']}, rollout {p['rollout']}, top_k {p['top_k']}) alone "
                 f"among {n - 1} of each scripted player, {table['games_per_seating']:,} games per seating")
    ax.title.set_fontsize(9.5)
