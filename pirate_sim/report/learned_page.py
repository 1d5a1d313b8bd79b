"""The "learned players" page: how each learned seat's player was trained, from its weights
file (pirate_sim.learned.curve_figure: the learning curve on held-out games with Wilson 95%
bands, the final table on fresh games, what it was trained for).  Nothing is played: the
weights file carries its curve."""

from __future__ import annotations

from pathlib import Path


def learned_page(ctx):
    """The page, or None when no seat plays a learned player (or its file has no curve)."""
    from ..learned import LEARNED, curve_figure, read_weights
    from ..user_strategy import ROLLOUT_PLAYER

    seen, players = set(), []
    for e, seat in enumerate(ctx.scenario_seats or []):
        for p, who in ((seat, f"seat entry {e}"), (seat.get(ROLLOUT_PLAYER), f"seat entry {e}'s rollouts")):
            if not p or p.get("strategy") != LEARNED or p["weights_sha256"] in seen:
                continue
            seen.add(p["weights_sha256"])
            w = read_weights(Path(p["weights_file"]))
            if w.info.get("curve"):
                players.append((who, w))
    return curve_figure(players) if players else None
