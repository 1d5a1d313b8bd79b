"""Matches that stop when their sequential tests decide (#31): the stop is a function of the
games alone (pieces, chunks, threads and resumes change nothing), and the climbing ladder
and the tournament built on it claim what the full-length ones claim, in fewer games."""

import numpy as np
import pandas as pd
import pytest

import toy_meta  # noqa: F401 - registers the toy games
from pirate_sim import results, runner
from pirate_sim import scenario as scen
from pirate_sim.meta import plan, sequential, skill, tournament
from pirate_sim.meta import stats as mstats


def _winners(p_focal: float, n: int, games: int, seed: int) -> np.ndarray:
    """Winning seats of a match whose focal player (seat k mod n in game k) wins with p_focal."""
    rng = np.random.default_rng(seed)
    k = np.arange(games)
    focal = k % n
    other = (focal + 1 + rng.integers(0, n - 1, games)) % n
    return np.where(rng.random(games) < p_focal, focal, other)


@pytest.mark.parametrize("n,p,tests", [(2, 0.65, [(0.5, 0.6, False)]), (2, 0.62, [(0.5, 0.6, False), (0.5, 0.6, True)]),
                                       (3, 0.25, [(1 / 3, 0.43, False)])])
def test_a_match_stop_fed_in_any_pieces_stops_where_the_whole_sequence_decides(n, p, tests):
    games = 6000
    w = _winners(p, n, games, seed=5)
    scores = mstats.focal_scores(w, np.arange(games), n)
    want = max(sequential.sprt(1.0 - scores if f else scores, n, s0, s1, interval=False).games for s0, s1, f in tests)
    assert want < games, "the test decides inside the sequence"
    rng = np.random.default_rng(1)
    for _ in range(20):
        stop = sequential.MatchStop(n, tests)
        at, start = None, 0
        while start < games and at is None:
            size = int(rng.integers(1, 40))
            block = np.zeros((min(size, games - start), 5), np.int32)
            block[:, 0] = w[start:start + block.shape[0]]
            keep = stop(start, block)
            if keep is not None:
                assert 1 <= keep <= block.shape[0]
                at = start + keep
            start += block.shape[0]
        assert at == want, (at, want)


def test_a_match_stop_refuses_games_out_of_order():
    stop = sequential.MatchStop(2, [(0.5, 0.6, False)])
    stop(0, np.zeros((4, 5), np.int32))
    with pytest.raises(ValueError, match="in order"):
        stop(10, np.zeros((4, 5), np.int32))


# ----------------------------------------------------------------------- a real game's runs

PEAK = "scenarios/pirates_peak/default.toml"
CAP = 4000


def _match(chunk: int) -> scen.Scenario:
    """Pirate's Peak, one treasure_digger seat against expert ones, seats rotating."""
    base = scen.load(PEAK)
    m = plan.Match("m", "pair", "t", [plan.seat_of(base, "treasure_digger")] + [plan.seat_of(base, "expert")] *
                   (base.n_seats - 1), CAP)
    s = plan.match_scenario(base, m)  # its rules, with rotating seats, and a chunk size of the test's
    rules = dict(s.rules)
    return scen.from_dict({"game": s.game.name, "run": {"games": CAP, "seed": s.seed, "chunk_size": chunk},
                           "rules": scen.nest(rules), "seats": m.seats}, source=f"{PEAK}#m")


def _stop(s):
    n = s.n_seats
    return sequential.MatchStop(n, [(1 / n, mstats.beat_threshold(n), False)])


def _games(out):
    return results.read_games(out)


def test_a_stopped_run_is_the_prefix_of_the_full_run_whatever_the_chunks_and_threads(tmp_path):
    full = _match(1000)
    ref = runner.run(full, tmp_path / "full", threads=1)
    scores = mstats.focal_scores(_games(tmp_path / "full")["winner"].fillna(-1).to_numpy(), np.arange(CAP),
                                 full.n_seats)
    want = sequential.sprt(scores, full.n_seats, 1 / full.n_seats, mstats.beat_threshold(full.n_seats)).games
    assert ref.games == CAP and 0 < want < CAP
    got = []
    for chunk, threads in ((1000, 1), (5, 2), (13, 1), (CAP, 2)):  # the decision falls in chunk 1, 7 or 3
        out = tmp_path / f"c{chunk}-t{threads}"
        res = runner.run(_match(chunk), out, threads=threads, decide=_stop(_match(chunk)))
        assert res.games == want, (chunk, threads)
        man = results.read_manifest(out)
        assert man["complete"] and man["games"] == want and not results.verify(out)
        got.append(_games(out))
    prefix = _games(tmp_path / "full").iloc[:want].reset_index(drop=True)
    for g in got:  # (the full run's winner column holds a null, so it reads as floats)
        pd.testing.assert_frame_equal(g.reset_index(drop=True), prefix, check_dtype=False)


def test_an_interrupted_stopping_run_resumes_to_the_same_games(tmp_path):
    s = _match(5)
    want = runner.run(s, tmp_path / "once", threads=1, decide=_stop(s)).games

    def cut(done, _total):
        if done >= 10:  # two chunks in: stop as a Ctrl-C would
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        runner.run(s, tmp_path / "twice", threads=1, decide=_stop(s), progress=cut)
    man = results.read_manifest(tmp_path / "twice")
    assert not man["complete"] and 0 < man["chunks_done"] * 5 < want
    res = runner.run(s, tmp_path / "twice", threads=1, resume=True, decide=_stop(s))
    assert res.games == want
    pd.testing.assert_frame_equal(_games(tmp_path / "twice"), _games(tmp_path / "once"))
    again = runner.run(s, tmp_path / "twice", threads=1, resume=True, decide=_stop(s))
    assert again.already_complete and again.games == want


# ----------------------------------------------------------------------- the meta-games on it


def base(game, n, seed=11, rules=None, seats=None):
    return scen.from_dict({"game": game, "run": {"seed": seed}, "rules": rules or {},
                           "seats": [{"strategy": s} for s in (seats or ["random"] * n)]})


def test_a_luck_ladder_stops_climbing_at_its_first_step_and_says_so(tmp_path):
    b = base("luck", 2)
    matches, st = skill.build(b, skill.settings(base_budget=2, steps=6, games=2000, place_games=400))
    s = plan.execute(tmp_path / "skill", "skill", b, matches, st, skill.analyse, skip=skill.skip)
    assert [x["step"] for x in s["steps"]] == [1] and s["steps"][0]["decided"] == "accepted s0"
    assert s["steps"][0]["games"] < 2000 and s["climb"] == {
        "planned_steps": 6, "played_steps": 1, "stopped": True,
        "reason": "the ladder stopped climbing: step 1 was decided not to beat its weaker level",
        "flat_below_scripted": [], "levels_beaten_by_scripted": []}
    assert "barely wins more" in s["verdict"] and "climbed 1 of 6 steps" in s["verdict"]
    assert s["steps"][0]["win_rate"]["method"] == sequential.ConfidenceSequence.METHOD
    meta = plan.read_meta(tmp_path / "skill")
    skipped = [m["id"] for m in meta["matches"] if m.get("skipped")]
    assert {f"place-random-{j:02d}" for j in range(2, 7)} | {f"step-{i:02d}" for i in range(2, 7)} <= set(skipped)
    assert not plan.verify(tmp_path / "skill")
    assert [p["levels"] for p in s["placements"]] in ([[2]], [[2, 4]])  # [2]: decided below at level 0
    assert s["games_played"] < 2000 + 2 * 400


# option 0, which ``first`` always takes, is the second best: at up to 24 rollouts search
# plays 1 rollout an option a halving round (8 options, 3 rounds), so its levels 2..16 play
# alike (flat steps) and ``first`` beats them; from 32 rollouts on each doubling finds 0.75
STRONG_FIRST = [0.70, 0.45, 0.20, 0.55, 0.10, 0.40, 0.75, 0.35]


def test_a_flat_bottom_below_the_strongest_scripted_player_does_not_stop_the_climb(tmp_path):
    b = base("best_move", 2, seed=13, rules={"quality": STRONG_FIRST})
    matches, st = skill.build(b, skill.settings(base_budget=2, steps=5, games=3000, place_games=600,
                                                place=["first"], beat=0.55))
    assert [m.id for m in matches[:4]] == ["place-first-00", "step-01", "place-first-01", "step-02"]
    s = plan.execute(tmp_path / "skill", "skill", b, matches, st, skill.analyse, skip=skill.skip)
    decided = [x["decided"] for x in s["steps"]]
    # the flat steps 1-3 lie below `first` (decided to beat levels 0-3): the climb goes on
    assert decided[:3] == ["accepted s0"] * 3 and s["climb"]["flat_below_scripted"] == [1, 2, 3]
    assert s["climb"]["levels_beaten_by_scripted"] == [0, 1, 2, 3]
    assert decided[3:] == ["accepted s1"] * 2 and s["skill_depth"]["decided"] == 2
    assert "climbed past the flat steps 1, 2, 3" in s["verdict"]
    # `first` lost to level 4 (32 rollouts): the levels above it are not placed
    meta = plan.read_meta(tmp_path / "skill")
    assert [m["id"] for m in meta["matches"] if m.get("skipped")] == ["place-first-05"]
    assert s["placements"][0]["levels"] == [2, 4, 8, 16, 32]
    # no scripted player to reach: the same ladder stops at its first flat step
    matches, st = skill.build(b, skill.settings(base_budget=2, steps=5, games=3000, place=[], beat=0.55))
    s = plan.execute(tmp_path / "bare", "skill", b, matches, st, skill.analyse, skip=skill.skip)
    assert [x["step"] for x in s["steps"]] == [1] and s["climb"]["stopped"]


def test_a_ladder_climbs_while_each_step_beats_the_one_below(tmp_path):
    b = base("best_move", 2, seed=12)
    # from 16 rollouts each doubling finds the best option more often, until both levels find it
    matches, st = skill.build(b, skill.settings(base_budget=16, steps=8, games=3000, place=[], beat=0.55))
    s = plan.execute(tmp_path / "skill", "skill", b, matches, st, skill.analyse, skip=skill.skip)
    dec = [x["decided"] for x in s["steps"]]
    assert dec[:-1] == ["accepted s1"] * (len(dec) - 1) and dec[-1] == "accepted s0", dec
    assert len(dec) >= 3 and s["skill_depth"]["decided"] == len(dec) - 1 and s["climb"]["stopped"]
    assert all(x["games"] < 3000 for x in s["steps"])


def test_a_sequential_tournament_decides_dominance_in_fewer_games_than_the_full_one(tmp_path):
    beats = [0.5, 0.7, 0.7, 0.7,
             0.3, 0.5, 0.5, 0.5,
             0.3, 0.5, 0.5, 0.5,
             0.3, 0.5, 0.5, 0.5]
    b = base("rps", 2, seats=["rock", "paper"], rules={"beats": beats})
    out = {}
    for seq in (True, False):
        matches, st = tournament.build(b, tournament.settings(games=1000, sequential=seq))
        out[seq] = plan.execute(tmp_path / str(seq), "tournament", b, matches, st, tournament.analyse)
    s, full = out[True], out[False]
    assert s["verdict"].startswith("rock beats every other strategy") and full["verdict"] == s["verdict"]
    pairs = {k: v for k, v in s["games"].items() if k[-5:-3] != k[-2:]}  # mirrors play every game
    assert all(v < 1000 for v in pairs.values()), pairs
    assert s["games_played"] < full["games_played"]
    mix = dict(zip(s["strategies"], s["equilibrium"]["mix"]))
    assert mix["rock"]["value"] == pytest.approx(1.0)


def test_a_real_sequential_tournament_gives_random_no_weight_in_pirates_peak(tmp_path):
    """Pirate's Peak's own kernel: random, treasure_digger and expert, each pair's match
    stopped once decided; random, beaten by both, gets under 5% of the equilibrium mix."""
    b = scen.load(PEAK)
    matches, st = tournament.build(b, tournament.settings(["random", "treasure_digger", "expert"], games=600,
                                                          bootstrap=100))
    s = plan.execute(tmp_path / "cup", "tournament", b, matches, st, tournament.analyse)
    mix = dict(zip(s["strategies"], s["equilibrium"]["mix"]))
    assert mix["random"]["value"] < 0.05 and mix["random"]["hi"] < 0.05, mix
    assert s["games_played"] < 600 * len(matches)  # the pairs stopped early (mirrors play every game)
