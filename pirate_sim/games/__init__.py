"""Registry of game plug-ins: each entry is a package exposing ``GAME`` (see base.py)."""

from __future__ import annotations

import importlib

from .. import compiling
from .base import Game

compiling.install()  # every kernel is reached through a game: announce its compiles

# name -> module; adding a game is one line here plus its package.
GAME_MODULES: dict[str, str] = {
    "pirates_peak": "pirate_sim.games.pirates_peak",
    "ice_pirates": "pirate_sim.games.ice_pirates",
    "pirates_cove": "pirate_sim.games.pirates_cove",
    "pirateer": "pirate_sim.games.pirateer",
}


def get_game(name: str) -> Game:
    """The game plug-in called ``name``; KeyError if there is none."""
    if name not in GAME_MODULES:
        raise KeyError(name)
    return importlib.import_module(GAME_MODULES[name]).GAME


def available_games() -> list[str]:
    """Names of the games whose package is present."""
    out = []
    for name, mod in GAME_MODULES.items():
        try:
            importlib.import_module(mod)
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.startswith(mod):
                continue
            raise
        out.append(name)
    return out
