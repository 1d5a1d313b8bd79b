"""Ice Pirates 1.1.0: the scripted players never do the absurd, the settled rule readings,
seating, and no truncation with any mix of the scripted strategies."""

import itertools

import numpy as np
import pytest

from pirate_sim.games.ice_pirates import GAME
from pirate_sim.games.ice_pirates import rules as R
from pirate_sim.games.ice_pirates.testing import (clear_bay, lay, new_state, place, pos, script, seat,
                                                  set_wind, step, use_scripted)
from pirate_sim.scenario import load

HG_SOUTH = 1  # the cell south of Harbour Grace (cell 0)


def seats(names, **over):
    return [{"strategy": n, **{p.key: p.default for p in GAME.strategy(n).params}, **over} for n in names]


def compile_game(names=("map_hunter", "map_hunter"), **rules):
    r = {p.key: p.default for p in GAME.params}
    r.update(rules)
    return GAME.compile(r, seats(names))


def blank(c, wind, dice=None):
    st, ev, rng = new_state(c, dice=dice)
    clear_bay(st)
    set_wind(st, wind)
    st[R.G_SEAT] = 0
    return st, ev, rng


def test_a_winning_row_is_always_taken():
    c = compile_game()
    st, ev, rng = blank(c, wind=1)  # wind from N: north, into Harbour Grace, is a row
    place(st, 0, HG_SOUTH, crew=1)  # crew = its reserve: it rows for nothing else
    place(st, 1, 27)
    st[R.G_TREASURE] = 0
    step(c, st, ev, rng)
    assert st[R.G_END] == R.END_HARBOUR_GRACE and st[R.G_WINNER] == 0


def test_fighting_the_waves_needs_a_legal_onward_move():
    c = compile_game()
    use_scripted(c, [0, 1])
    st, ev, rng = blank(c, wind=4)  # wind from S: N is with the wind, a second move follows
    lay(st, 17, R.STORM, blocked=("N", "NE", "SE", "SW", "NW"))  # only back to the start
    place(st, 1, 27)
    script(st, ["N", "N"], fight=1)
    step(c, st, ev, rng)
    assert pos(st, 0) == 17 and seat(st, 0, R.S_CREW) == 3 and seat(st, 0, R.S_CREW_WAVES) == 0
    assert seat(st, 0, R.S_STORMS) == 1


@pytest.mark.parametrize("rule,wins", [("must_leave", False), ("wins", True)])
def test_treasure_raided_at_harbour_grace(rule, wins):
    c = compile_game(**{"win.raid_at_harbour_grace": rule})
    use_scripted(c, [0, 1])
    st, ev, rng = blank(c, wind=4, dice=[1, 1])  # tie 4 - 4: the raider wins
    place(st, 0, HG_SOUTH, upgrades=("grappling_hook",))
    place(st, 1, 0)
    st[R.G_TREASURE] = 1
    script(st, ["N", "stop"], raid=1)
    step(c, st, ev, rng)
    assert pos(st, 0) == 0 and st[R.G_TREASURE] == 0
    assert (st[R.G_END] == R.END_HARBOUR_GRACE) == wins


def test_defender_cannon_parameter():
    assert compile_game().params.defender_cannon == 1
    assert compile_game(**{"raid.defender_cannon": "ignored"}).params.defender_cannon == 0


def replay_counts(path, games):
    """(fights followed by stopping in that storm, raids for worthless maps, Bell Island
    collections twice in a turn) over the first ``games`` games of a scenario."""
    s = load(path)
    c = s.compile()
    fight_stop = worthless = bell_twice = 0
    for k in range(games):
        ev, _, _ = s.game.trace_events(c, s.seed, k)
        holder, fought, bell = -1, {}, set()
        for t, who, kind, a, b, _ in ev.tolist():
            if kind == R.EV_TREASURE:
                holder = who
            elif kind == R.EV_ABANDON and who == holder:
                holder = -1
            elif kind == R.EV_RAID:
                worthless += holder >= 0 and a != holder
                if b == 1 and a == holder:
                    holder = who
            elif kind == R.EV_FIGHT:
                fought[(t, who)] = a
            elif kind == R.EV_STORM:
                fight_stop += fought.get((t, who)) == a
            elif kind == R.EV_BELL:
                bell_twice += (t, who) in bell
                bell.add((t, who))
    return fight_stop, worthless, bell_twice


def test_scripted_players_never_do_the_absurd():
    # 1.0.1 had, per 1,000 six-player games, 281 fights ended in the storm, 473 raids for
    # worthless maps and Telescope ships restored at Bell Island twice in a turn
    assert replay_counts("scenarios/ice_pirates/six_players.toml", 150) == (0, 0, 0)


def test_raiding_worthless_maps_is_a_policy_parameter():
    s = load("scenarios/ice_pirates/six_players.toml")
    c = s.game.compile(s.rules, [dict(x, raid_worthless_maps=1) if x["strategy"] != "random" else x
                                 for x in s.seats])
    _, out_s = s.game.play(c, s.seed, 0, 200)
    base = load("scenarios/ice_pirates/six_players.toml")
    _, out_b = base.game.play(base.compile(), base.seed, 0, 200)
    col = GAME.seat_column_index("raids_made")
    assert out_s[:, :, col].sum() > out_b[:, :, col].sum()


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_no_truncation_with_scripted_players(n):
    names = ("map_hunter", "raider", "upgrader")
    for mix in itertools.islice(itertools.combinations_with_replacement(names, n), 4):
        c = compile_game(mix)
        g, _ = GAME.play(c, 20261129, 0, 300)
        assert g[:, 3].sum() == 0, mix


@pytest.mark.slow
def test_no_truncation_in_the_long_deadlocks_of_1_0_1():
    # 1.0.1 truncated game 11975 (raider pair, 700 raids), 13520 (upgrader, raider),
    # 6968 ran 784 turns (map_hunter, raider)
    for mix, k in ((("raider", "raider"), 11975), (("upgrader", "raider"), 13520),
                   (("map_hunter", "raider"), 9587), (("upgrader", "upgrader"), 4372)):
        g, _ = GAME.play(compile_game(mix), 20261129, k, 1)
        assert g[0, 3] == 0 and g[0, 1] < 1000, (mix, k)


def test_first_player_and_strategy_seating():
    c = compile_game(("map_hunter", "raider", "upgrader"), first_player="rotate", strategy_seating="rotate")
    for k in range(4):
        st, _, _ = new_state(c, game_index=k)
        assert st[R.G_SEAT] == k % 3
        assert [st[R.G_ENTRY + s] for s in range(3)] == [(s - k) % 3 for s in range(3)]
    c = compile_game(("map_hunter", "raider", "upgrader"), first_player="rule")
    assert {int(new_state(c, game_index=k)[0][R.G_SEAT]) for k in range(6)} == {0}
    c = compile_game(("map_hunter", "raider", "upgrader"))  # default: random
    assert {int(new_state(c, game_index=k)[0][R.G_SEAT]) for k in range(30)} == {0, 1, 2}
    assert {p.key: p.default for p in GAME.params}["first_player"] == "random"
    g, _ = GAME.play(c, 1, 0, 50)
    assert np.all(g[:, 3] == 0)


def _plan(c, st, s):
    """(chase target, distance of every cell) of seat ``s``'s plan, searched over the whole board."""
    from pirate_sim.games.ice_pirates import board as KB
    from pirate_sim.games.ice_pirates import policies as KP
    from pirate_sim.games.ice_pirates import state as KS

    geo, rel, _, costs, _, _, strat, sp = c.arrays
    fs = np.zeros(KS.FS_SIZE, np.int64)
    KB.refresh_all_nb(st, geo)
    target = KP.plan_nb(st, c.params, geo, rel, costs, strat, sp, s, False, fs)
    KP.search_nb(fs, KS.BB_ALL)
    return target, fs[KS.FS_DIST:KS.FS_DIST + R.N_CELLS]


def test_a_crewless_ship_restores_at_bell_island_before_chasing():
    # endless swapping (1.0.1): two crewless ships raided the treasure back and forth, each
    # chasing the other at once; a ship below its crew reserve now goes for crew first
    c = compile_game()
    st, _, _ = blank(c, wind=4)
    place(st, 0, 24, crew=0)
    place(st, 1, 29, crew=0)
    st[R.G_TREASURE] = 1
    st[R.G_BELL_POOL] = 3
    target, dist = _plan(c, st, 0)
    assert target == -1 and dist[R.BELL_CELL] == 0 and dist[29] > 0
    place(st, 0, 24, crew=3)  # at its reserve: it chases the holder
    target, dist = _plan(c, st, 0)
    assert target == 1 and dist[29] == 0
    st[R.G_BELL_POOL] = 0  # no crew to restore: it chases
    place(st, 0, 24, crew=0)
    assert _plan(c, st, 0)[0] == 1


@pytest.mark.parametrize("held_before,idle_after", [(0, 0), (1, 5)])
def test_winning_back_a_treasure_held_before_renews_no_patience(held_before, idle_after):
    # endless swapping (1.0.1): every won raid reset the raider's patience, so two ships
    # trading the treasure never gave up; only a real gain resets it now
    from pirate_sim.games.ice_pirates import turn as KT

    c = compile_game()
    use_scripted(c, [0, 1])
    st, ev, rng = blank(c, wind=4, dice=[6, 1])
    place(st, 0, 24, crew=3)
    place(st, 1, 24, crew=0)
    script(st, [], raid=1)
    st[R.G_TREASURE] = 1
    st[R.SEATS_BASE + R.S_HELD_TREASURE] = held_before
    st[R.SEATS_BASE + R.S_PROGRESS] = 4 if held_before else 0  # as play leaves them
    st[R.SEATS_BASE + R.S_IDLE] = 5
    strat, sp = c.arrays[6], c.arrays[7]
    KT.do_raid_nb(st, ev, rng, c.params, strat, sp, 0, 1)
    assert st[R.G_TREASURE] == 0
    assert seat(st, 0, R.S_IDLE) == idle_after


@pytest.mark.parametrize("best_before,theirs,idle_after", [(2, 0b011, 5), (2, 0b111, 0), (0, 0b001, 0)])
def test_winning_back_maps_renews_patience_only_beyond_the_best(best_before, theirs, idle_after):
    # 1.1.1: two raiders under a steady wind raided the same maps back and forth, every won
    # raid renewed the raider's patience, and a game ran 663 turns (mean 40); only raising
    # the best progress (most colours ever held at once) renews it now
    from pirate_sim.games.ice_pirates import turn as KT

    c = compile_game()
    use_scripted(c, [0, 1])
    st, ev, rng = blank(c, wind=4, dice=[6, 1])
    place(st, 0, 24, crew=3, maps=0)
    place(st, 1, 24, crew=0, maps=theirs)
    st[R.SEATS_BASE + R.S_PROGRESS] = best_before
    st[R.SEATS_BASE + R.S_IDLE] = 5
    KT.do_raid_nb(st, ev, rng, c.params, c.arrays[6], c.arrays[7], 0, 1)
    assert seat(st, 0, R.S_MAPS) == theirs
    assert seat(st, 0, R.S_IDLE) == idle_after


def test_no_long_game_in_a_raider_mirror():
    # issue 22: 20,000 two-player raider games had one of 663 turns (mean 40; seed 1,
    # rules 1.1.1); 1.2.0: at most 203 (seed 1) and 0 truncated
    c = compile_game(("raider", "raider"))
    g, _ = GAME.play(c, 1, 0, 20_000)
    assert g[:, 3].sum() == 0 and g[:, 1].max() <= 300
