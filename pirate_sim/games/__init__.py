"""Registry of game plug-ins: each entry is a package exposing ``GAME`` (see base.py)."""

from __future__ import annotations

import importlib

from .base import Game


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
    _announce_compiles()
    return importlib.import_module(GAME_MODULES[name]).GAME


def _announce_compiles() -> None:
    """Every kernel is reached through a game: from the first game on, say what numba compiles
    (not at import, so that ``import pirate_sim`` and the API's names load no numba)."""
    from .. import compiling

    compiling.install(GAME_MODULES)


def available_games() -> list[str]:
    """Names of the games whose package is present."""
    out = []
    _announce_compiles()
    for name, mod in GAME_MODULES.items():
        try:
            importlib.import_module(mod)
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.startswith(mod):
                continue
            raise
        out.append(name)
    return out
