"""pirate-sim: Monte Carlo game-balance analytics for pirate board games.

The Python API (``import pirate_sim as ps``; docs/api.md)::

    s = ps.load("scenarios/pirates_peak/default.toml")
    s.set("rules.squid.escape_total", 11)
    r = ps.run(s, games=10_000)          # r.games, r.seats, r.metrics, r.summary(), r.trace(k)
    ps.compare(s, set={"rules.ship.life_points": 4}).table

The API is imported on first use of one of its names, so ``import pirate_sim`` stays
fast; numba kernels compile (or load from the cache) when a game is first played.
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING

from . import _cache
from ._version import __version__

_cache.configure()  # numba's cache folder keyed by the sources' digest, before any kernel loads

_API = ("Scenario", "Results", "Comparison", "Sweep", "Check", "Sensitivity", "Tuning", "APIError",
        "ScenarioError", "UserError",
        "load", "run", "open", "trace", "write_report", "compare", "sweep", "check", "sensitivity", "tune", "list_games",
        "skill", "tournament", "MetaGame", "learn")

if TYPE_CHECKING:  # what type checkers and IDEs see; at run time __getattr__ imports it
    from .api import (APIError, Check, Comparison, Results, Scenario, ScenarioError, Sensitivity, Sweep, Tuning,
                      UserError, check, compare, list_games, load, open, run, sensitivity, sweep, trace, tune,
                      write_report, skill, tournament, MetaGame, learn)
    from .api import scenario  # noqa: F811 - at run time the module pirate_sim.scenario, callable as this

__all__ = ["__version__", "Scenario", "Results", "Comparison", "Sweep", "Check", "Sensitivity", "Tuning", "APIError",
           "ScenarioError", "UserError", "load", "scenario", "run", "open", "trace", "write_report", "compare", "sweep", "check",
           "sensitivity", "tune", "list_games", "skill", "tournament", "MetaGame", "learn"]


def __getattr__(name: str):
    if name in _API:
        from . import api

        value = getattr(api, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'pirate_sim' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_API) | {"scenario"})


class _ScenarioModule(types.ModuleType):
    """The module ``pirate_sim.scenario``, callable as :func:`pirate_sim.api.scenario`.

    ``ps.scenario`` names both the library's scenario module (``from pirate_sim import
    scenario as scen`` in the package) and the API's ``ps.scenario(game, **rules)``: a
    package attribute cannot be two objects, so the module itself answers the call.
    """

    def __call__(self, *args, **kwargs):
        from .api import scenario as make

        return make(*args, **kwargs)


class _Package(types.ModuleType):
    """``pirate_sim`` itself: binding its ``scenario`` submodule makes that module callable."""

    @property
    def scenario(self):
        import importlib

        return importlib.import_module(f"{__name__}.scenario")

    @scenario.setter
    def scenario(self, module):  # the import system binds the submodule here once it is loaded
        if isinstance(module, types.ModuleType) and type(module) is types.ModuleType:
            module.__class__ = _ScenarioModule
            module.__doc__ = ("Called, ``ps.scenario(game, rules=None, *, seats=None, games=None, seed=None, "
                              "**rules)`` makes a ps.Scenario of the game's defaults (help(pirate_sim.api.scenario))."
                              "\n\n" + (module.__doc__ or ""))


sys.modules[__name__].__class__ = _Package
