"""The contract every registered game must pass (pgx/OpenSpiel style).

Random legal play from fixed seeds never crashes, always ends or is marked truncated,
fills the standard columns consistently, and depends only on (seed, game index).
Property test: any valid scenario (parameters drawn within their documented bounds) runs.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pirate_sim import scenario as scen
from pirate_sim.games import GAME_MODULES, get_game
from pirate_sim.games.base import STD_GAME_COLUMNS as STD
from pirate_sim.games.base import G_END, G_FIRST_SEAT, G_TRUNCATED, G_TURNS, G_WINNER, N_STD_GAME_COLUMNS

# the package's own games: test toys registered by other test modules (dice_duel, the
# meta-game toys) are not plug-ins a designer plays and implement only what their tests need
GAMES = [g for g, mod in GAME_MODULES.items() if mod.startswith("pirate_sim.")]


def _default(name, **over):
    g = get_game(name)
    return scen.from_dict({"game": name, "run": {"seed": 123}, "rules": {}, "seats": [{"strategy": s} for s in g.default_seats]},
                          overrides=[f"{k}={v}" for k, v in over.items()])


@pytest.mark.parametrize("name", GAMES)
def test_game_declares_what_the_engine_needs(name):
    g = get_game(name)
    assert g.name == name and g.title and g.version
    assert "truncated" in g.end_reasons
    assert g.min_seats <= len(g.default_seats) <= g.max_seats
    assert len({s.code for s in g.strategies}) == len(g.strategies)
    keys = [p.key for p in g.params]
    assert len(keys) == len(set(keys))
    assert all(p.doc for p in g.params), "every parameter is documented"
    if g.score_column:
        g.seat_column_index(g.score_column)
    core = {"game", "seat", "strategy", "won"}  # columns the engine writes itself
    assert not core & {c.name for c in g.seat_columns}, "a seat column shadows an engine column"
    assert not {"game", *STD} & {c.name for c in g.game_columns}, "a game column shadows an engine column"
    for r in g.ratios:
        g.seat_column_index(r.numerator), g.seat_column_index(r.denominator)


@pytest.mark.parametrize("name", GAMES)
def test_random_play_keeps_the_contract(name):
    s = _default(name)
    c = s.compile()
    n = 400
    out_g, out_s = s.game.play(c, s.seed, 0, n)
    assert out_g.shape == (n, N_STD_GAME_COLUMNS + len(s.game.game_columns))
    assert out_s.shape == (n, s.n_seats, len(s.game.seat_columns))
    w = out_g[:, G_WINNER]
    assert ((w >= -1) & (w < s.n_seats)).all()
    trunc = out_g[:, G_TRUNCATED]
    assert set(np.unique(trunc)) <= {0, 1}
    truncated_code = s.game.end_reasons.index("truncated")
    assert ((out_g[:, G_END] == truncated_code) == (trunc == 1)).all()
    assert ((out_g[:, G_END] >= 0) & (out_g[:, G_END] < len(s.game.end_reasons))).all()
    assert (out_g[:, G_TURNS] >= 1).all()
    assert ((out_g[:, G_FIRST_SEAT] >= 0) & (out_g[:, G_FIRST_SEAT] < s.n_seats)).all()
    for j, col in enumerate(s.game.seat_columns):
        if col.labels:
            assert ((out_s[:, :, j] >= 0) & (out_s[:, :, j] < len(col.labels))).all(), col.name
        if col.counter:
            assert (out_s[:, :, j] >= 0).all(), col.name


@pytest.mark.parametrize("name", GAMES)
def test_games_depend_only_on_seed_and_index(name):
    s = _default(name)
    c = s.compile()
    whole = s.game.play(c, s.seed, 0, 300)
    a = s.game.play(c, s.seed, 0, 110)
    b = s.game.play(c, s.seed, 110, 190)
    np.testing.assert_array_equal(whole[0], np.concatenate([a[0], b[0]]))
    np.testing.assert_array_equal(whole[1], np.concatenate([a[1], b[1]]))
    other = s.game.play(c, s.seed + 1, 0, 300)
    assert not np.array_equal(whole[0], other[0])


@pytest.mark.parametrize("name", GAMES)
def test_trace_replays_the_same_game(name):
    s = _default(name)
    c = s.compile()
    out_g, _ = s.game.play(c, s.seed, 0, 8)
    lines = s.game.trace(c, s.seed, 7)
    assert len(lines) > 3
    text = "\n".join(lines).lower()
    assert s.game.end_reasons[out_g[7, G_END]].replace("_", " ") in text.replace("_", " ")


def _value_strategy(p):
    if p.kind == "int":
        lo = int(p.min) if p.min is not None else -5
        hi = int(p.max) if p.max is not None else lo + 50
        return st.integers(lo, min(hi, lo + 60))
    if p.kind == "float":
        lo = p.min if p.min is not None else 0.0
        hi = p.max if p.max is not None else lo + 10
        return st.floats(lo, hi, allow_nan=False)
    if p.kind == "bool":
        return st.booleans()
    if p.kind == "choice":
        return st.sampled_from(p.choices)
    return st.just(p.default)  # strings and lists (decks, weights) keep their defaults here


@pytest.mark.parametrize("name", GAMES)
def test_any_valid_scenario_runs(name):
    g = get_game(name)
    numeric = [p for p in g.params if p.kind in ("int", "float", "bool", "choice")]

    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def run_one(data):
        rules = {}
        for p in data.draw(st.lists(st.sampled_from(numeric), min_size=1, max_size=4, unique_by=lambda p: p.key)):
            rules[p.key] = data.draw(_value_strategy(p))
        n_seats = data.draw(st.integers(g.min_seats, g.max_seats))
        seats = [{"strategy": data.draw(st.sampled_from([x.name for x in g.strategies]))} for _ in range(n_seats)]
        for seat in seats:  # the contract is legal outputs, not strength: a search seat thinks little here
            if seat["strategy"] == "search":
                seat["budget"] = 2
        raw = {"game": name, "seats": seats, "rules": {}}
        for k, v in rules.items():
            node = raw["rules"]
            *heads, leaf = k.split(".")
            for h in heads:
                node = node.setdefault(h, {})
            node[leaf] = v
        s = scen.from_dict(raw)
        try:
            c = s.compile()
        except scen.ScenarioError:
            return  # a documented cross-parameter rejection is fine
        out_g, _ = s.game.play(c, 5, 0, 20)
        assert ((out_g[:, G_WINNER] >= -1) & (out_g[:, G_WINNER] < s.n_seats)).all()

    run_one()
