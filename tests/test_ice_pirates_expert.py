"""Ice Pirates' expert player (issue 22): one policy with the upgrader's and the raider's
goals switched by parameters (so it plays exactly as each of them with their settings),
its registered defaults, a search rollout of it, and the search that found it run on a
small budget."""

import importlib.util
from pathlib import Path

import numpy as np

from pirate_sim.games.ice_pirates import GAME
from pirate_sim.games.ice_pirates import state as KS
from pirate_sim.games.ice_pirates.strategies import EXPERT_DEFAULTS, SCRIPTED

PATH = Path(__file__).resolve().parent.parent / "docs" / "ice_pirates_expert_search.py"


def load_script():
    spec = importlib.util.spec_from_file_location("ice_pirates_expert_search", PATH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def play(seats, n=40, seed=17, **rules):
    r = {p.key: p.default for p in GAME.params}
    r.update(rules)
    return GAME.play(GAME.compile(r, seats), seed, 0, n)


def test_the_expert_with_a_scripted_players_setting_plays_as_that_player():
    """The kernel has one planner: the expert's switches reproduce the upgrader, the raider
    and the map hunter game for game (3 players, each against the other two)."""
    mod = load_script()
    for name, setting in mod.START.items():
        others = [mod.entry(o) for o in mod.OPPONENTS if o != name]
        a = play([mod.entry(name)] + others)
        b = play([mod.entry("expert", setting)] + others)
        np.testing.assert_array_equal(a[0], b[0])
        np.testing.assert_array_equal(a[1], b[1])
    # and a setting that is none of them plays other games
    a = play([mod.entry("upgrader"), mod.entry("raider")])
    b = play([mod.entry("expert", dict(mod.START["upgrader"], cannon_first=1, chase=1)), mod.entry("raider")])
    assert not np.array_equal(a[0], b[0])


def test_the_expert_is_registered_with_the_found_parameters():
    s = GAME.strategy("expert")
    assert s.code == KS.ST_EXPERT
    d = {p.key: p.default for p in s.params}
    assert {k: d[k] for k in EXPERT_DEFAULTS} == EXPERT_DEFAULTS
    assert set(load_script().KEYS) == set(EXPERT_DEFAULTS)
    assert "expert" in SCRIPTED and [p for p in GAME.strategy("search").params if p.key == "rollout"][0].choices == SCRIPTED


def test_search_can_roll_out_with_the_expert():
    """A rollout choice is a row of the appended defaults: the expert's is row 4, code 5."""
    c = GAME.compile({p.key: p.default for p in GAME.params},
                     [{"strategy": "search", "budget": 4, "rollout": "expert"}, {"strategy": "upgrader"}])
    strat, sp = c.arrays[6], c.arrays[7]
    assert strat[0] == KS.ST_EXPERT and int(sp[0, KS.SP_ROLLOUT]) == SCRIPTED.index("expert") == 4
    assert strat[2 + 4] == KS.ST_EXPERT
    np.testing.assert_array_equal(sp[0, :KS.SP_SEARCH], sp[2 + 4, :KS.SP_SEARCH])
    g, _ = GAME.play(c, 3, 0, 2)
    assert (g[:, 0] >= 0).all()


def test_the_expert_search_runs_on_a_small_budget():
    mod = load_script()
    lines = []
    best, final = mod.search(candidates=2, games=6, generations=1, seed=3, log=lines.append)
    assert set(best) == set(mod.KEYS) and all(best[k] in mod.SPACE[k] for k in best)
    assert lines[0].startswith("  5 candidates at 6 games/opponent/setting")
    assert len(final) == 4 and final[0][1] == best and final[0][0] >= final[-1][0]
    # the search only keeps what scored best on its own games
    assert final[0][0] == max(mod.fitness(c, 24) for _f, c in final)
    rows = mod.held_out_table(best, 8)
    assert [(r[0], r[1]) for r in rows] == [(n, o) for n in (2, 4) for o in ("random",) + mod.OPPONENTS]
    assert all(r[3] == 8 and 0 <= r[2] <= 8 and r[5].lo <= r[2] / 8 <= r[5].hi for r in rows)
    assert mod.ns_per_turn(mod.entry("expert", best), games=3) > 0
    assert mod.SEARCH_SEED != mod.HELD_OUT_SEED  # the search games and the held-out games never overlap


def test_the_expert_never_does_the_absurd_and_never_stalls(tmp_path):
    """The scripted players' bars (issue 22, 1.2.0) hold for the expert: no fight ended in
    the storm, no raid for worthless maps, no second Bell Island in a turn (six players,
    three experts), and no game near the 300-turn bar in its mirrors (measured: 20,000
    two-player mirror games on seeds 1 and 20261201, longest 86 and 143 turns)."""
    from test_ice_pirates_players import replay_counts

    seats = "".join(f'[[seats]]\nstrategy = "{n}"\n\n' for n in
                    ("expert", "raider", "expert", "upgrader", "expert", "map_hunter"))
    path = tmp_path / "experts.toml"
    path.write_text(f'game = "ice_pirates"\ntitle = "experts"\n\n[run]\ngames = 100\nseed = 20261131\n\n{seats}')
    assert replay_counts(path, 100) == (0, 0, 0)
    for n, games in ((2, 2000), (4, 500)):
        g, _ = play([{"strategy": "expert"}] * n, n=games, seed=1)
        assert g[:, 3].sum() == 0 and g[:, 1].max() < 300, n
