"""Pirate's Peak's own report pages (``PiratesPeak.report_figures``); work in progress."""

from __future__ import annotations


def report_figures(game, ctx) -> list:
    return []
