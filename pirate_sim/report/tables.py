"""Which metrics the terminal summary and the report's first page show, with designer labels."""

from __future__ import annotations

from ..games.base import Game
from ..stats import Estimate

# How many event counters the terminal summary lists (the report shows them all).
SUMMARY_EVENT_ROWS = 12


def summary_rows(game: Game, est: dict[str, Estimate]) -> list[tuple[str, str]]:
    """(metric name, label) pairs in reading order, only those present in ``est``."""
    rows: list[tuple[str, str]] = []
    seat_rates = sorted(k for k in est if k.startswith("win_rate.seat"))
    rows += [(k, f"win rate, seat {k[len('win_rate.seat'):]}") for k in seat_rates]
    strat = [k for k in est if k.startswith("win_rate.") and k not in seat_rates and "=" not in k]
    rows += [(k, f"win rate, {k[len('win_rate.'):]}") for k in strat]
    for k, label in (("seat_balance", "seat balance (largest gap)"),
                     ("first_player_advantage", "first-player advantage"),
                     ("decisiveness", "decisive games"), ("truncation_rate", "truncated by turn cap"),
                     ("length.mean", "game length, mean turns"), ("length.median", "game length, median"),
                     ("winning_margin", f"winning margin ({game.score_column})")):
        if k in est:
            rows.append((k, label))
    rows += [(k, f"ended: {k[4:]}") for k in est if k.startswith("end.") and est[k].value > 0]
    events = [k for k in est if k.startswith("events.")]
    rows += [(k, f"per game: {k[7:]}") for k in events[:SUMMARY_EVENT_ROWS]]
    return rows
