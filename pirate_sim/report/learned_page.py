"""The "learned players" page: how each learned seat's player was trained, from its weights
file (the learning curve on held-out games with Wilson 95% bands, the final table on fresh
games, what it was trained for).  Nothing is played: the weights file carries its curve."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt

from .style import COLOURS, FIGSIZE, footnote


def learned_page(ctx):
    """The page, or None when no seat plays a learned player (or its file has no curve)."""
    from ..learned import LEARNED, read_weights

    seen, players = set(), []
    for e, seat in enumerate(ctx.scenario_seats or []):
        if seat.get("strategy") != LEARNED or seat["weights_sha256"] in seen:
            continue
        seen.add(seat["weights_sha256"])
        w = read_weights(Path(seat["weights_file"]))
        if w.info.get("curve"):
            players.append((e, w))
    if not players:
        return None
    fig, ax = plt.subplots(figsize=FIGSIZE)
    notes = []
    for i, (e, w) in enumerate(players):
        c = COLOURS[i % len(COLOURS)]
        gen = [r["generation"] for r in w.info["curve"]]
        ax.plot(gen, [100 * r["share"] for r in w.info["curve"]], marker="o", ms=3, color=c,
                label=f"seat entry {e}: weights {w.sha256[:12]} (held-out games)")
        ax.fill_between(gen, [100 * r["lo"] for r in w.info["curve"]], [100 * r["hi"] for r in w.info["curve"]],
                        color=c, alpha=0.2)
        f = w.info.get("final")
        if f:
            ax.errorbar([gen[-1] + 0.4], [100 * f["share"]], yerr=[[100 * (f["share"] - f["lo"])],
                        [100 * (f["hi"] - f["share"])]], fmt="s", color=c, capsize=3,
                        label=f"final: {100 * f['share']:.1f}% [{100 * f['lo']:.1f}, {100 * f['hi']:.1f}], "
                              f"{f['games']:,} fresh games")
        notes.append(f"entry {e}: trained for rules hash {w.rules_hash} ({w.game} {w.rules_version}), seed "
                     f"{w.info.get('seed')}, {w.info.get('generations')} generations x {w.info.get('population')} "
                     f"weight vectors x {w.info.get('games'):,} games against {', '.join(w.info.get('against', []))}, "
                     f"{w.info.get('trained_seconds')} s")
    fair = players[0][1].info["curve"][0]["fair"]
    ax.axhline(100 * fair, ls="--", color="grey", lw=1.2, label=f"fair share {100 * fair:.0f}%")
    ax.set(title="Learned players: strength against the training pool as training went on (95% Wilson bands)",
           xlabel="training generation", ylabel="share of the points (%)")
    ax.legend(fontsize=8, loc="lower right")
    footnote(fig, "\n".join(notes) + "\nThe curve is measured on held-out games training never played, and the "
             "weights are the last generation's (no pick on the curve); docs/learned.md.")
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    return fig
