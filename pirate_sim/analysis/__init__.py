"""Balance analytics on top of the one metrics vocabulary: compare, sweep, check.

Nothing here is game-specific: every function works from a :class:`~pirate_sim.scenario.Scenario`
and the kernel output layout of :mod:`pirate_sim.games.base`.
"""

