"""Scenario validation: every bad input is one clear line naming file and key."""

import pytest

from pirate_sim import scenario as scen

BASE = 'game = "dice_duel"\n[run]\ngames = 100\n[rules]\ntarget = 10\n[[seats]]\nstrategy = "roller"\n[[seats]]\nstrategy = "roller"\n'


def _load(tmp_path, text, overrides=()):
    p = tmp_path / "s.toml"
    p.write_text(text)
    return scen.load(p, overrides)


def _err(tmp_path, text, overrides=()):
    with pytest.raises(scen.ScenarioError) as e:
        _load(tmp_path, text, overrides)
    return e.value


def test_defaults_fill_in(tmp_path):
    s = _load(tmp_path, 'game = "dice_duel"\n')
    assert s.rules == {p.key: p.default for p in s.game.params}
    assert {k: s.rules[k] for k in ("target", "first_player_cutoff", "turn_cap")} == {"target": 10,
                                                                                     "first_player_cutoff": 3,
                                                                                     "turn_cap": 1000}
    assert [x["strategy"] for x in s.seats] == ["roller", "roller"]
    assert s.run["seed"] == scen.RUN_PARAMS["seed"][0]


def test_malformed_toml(tmp_path):
    e = _err(tmp_path, "game = \n")
    assert "malformed TOML" in str(e) and str(tmp_path / "s.toml") in str(e)


def test_unknown_key_suggests_nearest(tmp_path):
    e = _err(tmp_path, BASE.replace("target = 10", "targte = 10"))
    assert e.key == "rules.targte" and "did you mean 'rules.target'" in str(e)


def test_wrong_type(tmp_path):
    e = _err(tmp_path, BASE.replace("target = 10", 'target = "ten"'))
    assert e.key == "rules.target" and "whole number" in e.message


@pytest.mark.parametrize("where", ["file", "set"])
@pytest.mark.parametrize("table", ["{}", "{ a = 1 }"])
def test_a_rule_given_a_table_is_refused(tmp_path, where, table):
    """An empty table flattened to no value at all: the rule's default, with no word said."""
    if where == "file":
        e = _err(tmp_path, BASE.replace("target = 10", f"target = {table}"))
    else:
        e = _err(tmp_path, BASE, [f"rules.target={table}"])
    assert e.key == "rules.target" and "whole number" in e.message


def test_out_of_range(tmp_path):
    e = _err(tmp_path, BASE.replace("target = 10", "target = 0"))
    assert e.key == "rules.target" and "below the minimum" in e.message


def test_unknown_strategy_and_game(tmp_path):
    e = _err(tmp_path, BASE.replace('strategy = "roller"', 'strategy = "roler"', 1))
    assert e.key == "seats.0.strategy" and "did you mean 'roller'" in str(e)
    e = _err(tmp_path, BASE.replace("dice_duel", "dice_dual"))
    assert e.key == "game" and "did you mean 'dice_duel'" in str(e)


def test_seat_count_checked(tmp_path):
    e = _err(tmp_path, 'game = "dice_duel"\n[[seats]]\nstrategy = "roller"\n')
    assert e.key == "seats" and "2 players" in e.message


def test_overrides_apply_and_are_validated(tmp_path):
    s = _load(tmp_path, BASE, ["rules.target=20", "run.seed=5", "seats.1.strategy=roller"])
    assert s.rules["target"] == 20 and s.run["seed"] == 5
    e = _err(tmp_path, BASE, ["rules.target=-3"])
    assert e.key == "rules.target"
    e = _err(tmp_path, BASE, ["seats.7.strategy=roller"])
    assert "no seat 7" in e.message


def test_hash_ignores_game_count_but_not_rules(tmp_path):
    a = _load(tmp_path, BASE)
    b = _load(tmp_path, BASE, ["run.games=5000", "run.chunk_size=7"])
    c = _load(tmp_path, BASE, ["rules.target=11"])
    assert a.hash() == b.hash() != c.hash()


def test_rendered_toml_round_trips(tmp_path):
    s = _load(tmp_path, BASE, ["rules.target=12"])
    p = tmp_path / "r.toml"
    p.write_text(s.to_toml())
    s2 = scen.load(p)
    assert s2.rules == s.rules and s2.seats == s.seats and s2.run == s.run


def test_changing_a_seats_strategy_resets_its_parameters(tmp_path):
    """A `scenario new` file lists every strategy parameter; --set seats.0.strategy=expert ran the
    expert with the digger's values (the names overlap) - 57% against the digger instead of 77%."""
    from pirate_sim.games import get_game

    game = get_game("pirates_peak")
    path = tmp_path / "new.toml"
    path.write_text(scen.default_scenario(game).to_toml())
    digger = game.strategy("treasure_digger")
    assert {p.key for p in digger.params} & {p.key for p in game.strategy("expert").params}  # the overlap
    text = path.read_text().replace("dig_repeats = ", "dig_repeats = 5 #", 1)
    path.write_text(text)
    s = scen.load(path, ["seats.0.strategy=expert"])
    expert = {p.key: p.default for p in game.strategy("expert").params}
    assert s.seats[0] == {"strategy": "expert", **expert}
    assert len(s.notes) == 1 and "seats.0: strategy treasure_digger -> expert" in s.notes[0]
    assert "dig_repeats" in s.notes[0] and "reset to expert's defaults" in s.notes[0]
    assert s.seats[1]["strategy"] == "treasure_digger"  # the other seat is untouched
    # a parameter given by --set is the user's, in either order
    for order in (["seats.0.strategy=expert", "seats.0.dig_repeats=4"],
                  ["seats.0.dig_repeats=4", "seats.0.strategy=expert"]):
        assert scen.load(path, order).seats[0]["dig_repeats"] == 4
    # the same strategy again changes nothing, says nothing
    same = scen.load(path, ["seats.0.strategy=treasure_digger"])
    assert same.seats[0]["dig_repeats"] == 5 and same.notes == []


def test_a_strategy_without_the_old_parameters_is_not_refused_over_them(tmp_path):
    """roller -> sixer: the file's reroll_ones is not a sixer parameter; it was an error about a
    parameter the user never wrote."""
    text = BASE.replace('strategy = "roller"\n', 'strategy = "roller"\nreroll_ones = true\n', 1)
    s = _load(tmp_path, text, ["seats.0.strategy=sixer"])
    assert s.seats[0] == {"strategy": "sixer"} and "reroll_ones" in s.notes[0]
    err = _err(tmp_path, text, ["seats.0.reroll_ones=true", "seats.0.strategy=sixer"])  # the user's own: named
    assert err.key == "seats.0.reroll_ones"
