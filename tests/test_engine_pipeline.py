"""The run pipeline: overlapped kernel, compiled accumulator, fine-grained progress and stop
rule, rotated seating labels, lazy CLI imports."""

import json
import subprocess
import sys
import threading
import time

import numpy as np
import pandas as pd
import pytest

from pathlib import Path

from pirate_sim import metrics, pipeline, results, runner, scenario, stats

ROOT = Path(__file__).resolve().parents[1]

DUEL = {"game": "dice_duel", "run": {"games": 3000, "seed": 9, "chunk_size": 1000}}


def _scen(rules=None, seats=None, **run):
    raw = {**DUEL, "run": {**DUEL["run"], **run}, "rules": rules or {}}
    if seats:
        raw["seats"] = [{"strategy": x} for x in seats]
    return scenario.from_dict(raw)


# ------------------------------------------------------------------ the producer/consumer executor


def test_pieces_cover_the_chunks_in_order_and_adapt_their_size():
    bounds = runner.chunk_bounds(10_000, 3_000)
    got = list(pipeline.pieces(bounds, lambda a, b: (a, b), min_piece=100, piece_seconds=1e-9))
    assert [(p.start, p.stop) for p in got] == [(p.result[0], p.result[1]) for p in got]
    assert got[0].start == 0 and got[-1].stop == 10_000
    assert all(x.stop == y.start for x, y in zip(got, got[1:]))
    for c, (a, b) in enumerate(bounds):
        mine = [p for p in got if p.chunk == c]
        assert mine[0].start == a and mine[-1].stop == b and mine[-1].last and not any(p.last for p in mine[:-1])


def test_producer_error_reaches_the_consumer():
    def produce(a, b):
        if a >= 2000:
            raise ValueError("kernel failed")
        return a

    with pytest.raises(ValueError, match="kernel failed"):
        for _ in pipeline.pieces([(0, 10_000)], produce, min_piece=1000, piece_seconds=1e-9):
            pass


def test_closing_early_stops_the_producer_with_memory_bounded():
    made = []

    def produce(a, b):
        made.append(a)
        return a

    it = pipeline.pieces([(0, 1_000_000)], produce, depth=2, min_piece=10, piece_seconds=1e-9)
    next(it)
    time.sleep(0.2)
    assert len(made) <= 4  # one consumed, two queued, one waiting to be queued
    it.close()
    assert not any(t.name == "pirate-sim-kernel" for t in threading.enumerate())


def test_kernel_and_consumer_overlap():
    """While the consumer works on one piece the producer plays the next."""

    def produce(a, b):
        time.sleep(0.1)
        return a

    t0 = time.perf_counter()
    for _ in pipeline.pieces([(0, 4000)], produce, min_piece=1000, piece_seconds=1e-9):
        time.sleep(0.1)
    # 4 pieces of 0.1 s each on both sides: about 0.5 s overlapped, 0.8 s in series
    assert time.perf_counter() - t0 < 0.7


# ------------------------------------------------------------------ runner


def test_progress_moves_within_a_chunk(monkeypatch):
    monkeypatch.setattr(pipeline, "PIECE_SECONDS", 1e-9)  # every piece the smallest, whatever the speed
    seen = []
    runner.run(_scen(games=20_000, chunk_size=20_000), None, progress=lambda d, t: seen.append(d))
    assert seen == list(range(0, 20_001, pipeline.MIN_PIECE))


@pytest.mark.parametrize("chunk", [100_000, 2_000, 1_700])
def test_precision_stop_is_fine_grained_and_independent_of_chunks(tmp_path, chunk):
    target = 0.02
    res = runner.run(_scen(games=100_000, chunk_size=chunk), tmp_path / "p", stop_when=metrics.precision_reached(target))
    assert res.games % runner.STOP_STEP == 0 and res.games < 100_000
    assert max(metrics.win_rate_half_widths(res.accumulator).values()) < target
    before = metrics.Accumulator(res.accumulator.game, res.accumulator.strategy_names)
    before.update(*runner.play_arrays(_scen(), 0, res.games - runner.STOP_STEP))
    assert max(metrics.win_rate_half_widths(before).values()) >= target  # one step earlier: not yet
    man = results.read_manifest(tmp_path / "p")
    assert man["complete"] and man["games"] == res.games
    games = pd.read_parquet(tmp_path / "p" / "games")
    assert sorted(games["game"]) == list(range(res.games))  # the last part is cut where the run stopped
    # a rule of thumb the precision predicts: ±2% needs about 0.25 * (1.96 / 0.02)^2 = 2401 games
    assert res.games <= 2401 + 2 * runner.STOP_STEP


def test_accumulator_matches_numpy_reductions():
    s = _scen()
    g, st = runner.play_arrays(s, 0, 5000)
    acc = metrics.Accumulator(s.game, ("roller", "roller"))
    for a in range(0, 5000, 1300):
        acc.update(g[a:a + 1300], st[a:a + 1300])
    winner = g[:, 0]
    assert acc.n == 5000 and acc.wins_seat.tolist() == [int((winner == k).sum()) for k in range(2)]
    assert acc.turns_sum == g[:, 1].sum() and acc.turns_sumsq == (g[:, 1].astype(float) ** 2).sum()
    assert np.array_equal(acc.seat_sum, st.sum(axis=0)) and np.array_equal(acc.seat_sumsq, (st.astype(float) ** 2).sum(0))
    per_game = st.sum(axis=1).astype(float)
    assert np.array_equal(acc.game_sum, per_game.sum(0)) and np.array_equal(acc.game_sumsq, (per_game ** 2).sum(0))
    score = st[:, :, 0]
    margin = score[np.arange(5000), winner] - score[np.arange(5000), 1 - winner]
    assert acc.margin_n == 5000 and acc.margin_sum == margin.sum() and acc.margin_sumsq == (margin ** 2).sum()
    assert acc.first_wins == int((winner == g[:, 4]).sum())
    assert acc.turns_hist.sum() == 5000 and acc.turns_hist[g[:, 1].max()] == (g[:, 1] == g[:, 1].max()).sum()


# ------------------------------------------------------------------ rotated seating


def test_rotated_seating_labels_and_strategy_win_rates(tmp_path):
    """target 6, seat 0 always moves first: a sixer moving first always wins; a roller moving
    first wins only with a six. Rotated, the sixer moves first in even games: it wins 11/12
    of its games, seat 0 wins 1/2 + 1/2 * 1/6 = 7/12."""
    n = 12_000
    rules = {"target": 6, "first_player_cutoff": 6, "strategy_seating": "rotate"}
    s = _scen(rules, ["sixer", "roller"], games=n, chunk_size=5000)
    res = runner.run(s, tmp_path / "r", threads=1)
    est = metrics.compute(res.accumulator)
    games = pd.read_parquet(tmp_path / "r" / "games").sort_values("game")
    seats = pd.read_parquet(tmp_path / "r" / "seats")
    # exact: the sixer moves first exactly in even games, and then it wins
    first = seats[seats["seat"] == 0].set_index("game")["strategy"].sort_index()
    assert (first.astype(str).values == np.where(np.arange(n) % 2 == 0, "sixer", "roller")).all()
    assert (games["winner"].values[::2] == 0).all()
    won = seats[seats["won"]]
    by_label = won["strategy"].astype(str).value_counts()
    assert by_label["sixer"] == est["win_rate.sixer"].value * n
    assert res.accumulator.wins_of_entries().tolist() == [by_label["sixer"], by_label.get("roller", 0)]
    for name, p in (("win_rate.sixer", 11 / 12), ("win_rate.roller", 1 / 12), ("win_rate.seat0", 7 / 12)):
        e = stats.wilson(est[name].value * n, n, 0.9999)  # 99.99%: a false alarm 1 run in 10,000
        assert e.lo <= p <= e.hi, (name, est[name], p)
    # the summary round-trips with the rotation
    back = runner.load_accumulator(tmp_path / "r")
    assert back.rotate and metrics.compute(back)["win_rate.sixer"] == est["win_rate.sixer"]


def test_fixed_seating_strategy_is_the_seat_entry(tmp_path):
    s = _scen({"target": 6, "first_player_cutoff": 6}, ["sixer", "roller"], games=2000)
    res = runner.run(s, tmp_path / "r")
    est = metrics.compute(res.accumulator)
    assert est["win_rate.sixer"].value == 1.0 and est["win_rate.seat0"].value == 1.0
    assert "entry_wins" not in results.read_summary(tmp_path / "r")["accumulator"]


def test_rotation_survives_resume(tmp_path, monkeypatch):
    rules = {"target": 6, "first_player_cutoff": 6, "strategy_seating": "rotate"}
    s = _scen(rules, ["sixer", "roller"], games=3001, chunk_size=1000)
    full = runner.run(s, tmp_path / "full")
    real, calls = results.write_table, {"n": 0}

    def crash(path, table):
        calls["n"] += 1
        if calls["n"] == 2:  # the 2nd chunk's games part (seats parts are streamed, not write_table)
            raise KeyboardInterrupt
        return real(path, table)

    monkeypatch.setattr(results, "write_table", crash)
    with pytest.raises(KeyboardInterrupt):
        runner.run(s, tmp_path / "part")
    monkeypatch.setattr(results, "write_table", real)
    res = runner.run(s, tmp_path / "part", resume=True)
    assert res.resumed_from == 1000
    assert metrics.compute(res.accumulator) == metrics.compute(full.accumulator)


def test_compare_vectors_follow_rotation():
    from pirate_sim.analysis import compare as cmp

    s = _scen({"target": 6, "first_player_cutoff": 6, "strategy_seating": "rotate"}, ["sixer", "roller"])
    g, st = runner.play_arrays(s, 0, 3001)
    acc = metrics.Accumulator(s.game, ("sixer", "roller"), rotate=True)
    acc.update(g[:1001], st[:1001])
    acc.update(g[1001:], st[1001:])
    est = metrics.compute(acc)
    v = [cmp.per_game_vectors(acc, g[:1001], st[:1001], 0), cmp.per_game_vectors(acc, g[1001:], st[1001:], 1001)]
    for name in ("win_rate.sixer", "win_rate.roller", "win_rate.seat0"):
        assert np.concatenate([x[name][0] for x in v]).mean() == pytest.approx(est[name].value, abs=1e-12)
    assert est["win_rate.sixer"].value > 0.85


# ------------------------------------------------------------------ lazy imports


def _modules_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys, json; print(json.dumps(sorted(sys.modules)))"],
                         capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_help_imports_no_heavy_library():
    mods = _modules_after("from click.testing import CliRunner\nfrom pirate_sim.cli import main\n"
                          "assert CliRunner().invoke(main, ['--help']).exit_code == 0")
    assert not mods & {"numpy", "numba", "pyarrow", "pandas", "matplotlib", "scipy"}


def test_run_imports_neither_plotting_nor_pandas(tmp_path):
    mods = _modules_after(
        "from click.testing import CliRunner\nfrom pirate_sim.cli import main\n"
        f"r = CliRunner().invoke(main, ['run', r'{ROOT / 'scenarios/pirates_peak/default.toml'}', '-n', '200', '-o', "
        f"r'{tmp_path / 'r'}', '-q'])\nassert r.exit_code == 0, r.output")
    assert "pirate_sim.runner" in mods
    assert not mods & {"matplotlib", "pandas", "pirate_sim.report"}


def test_pieces_halve_at_the_run_end_only():
    """Big pieces (a fast kernel) in the middle; the run's last chunk ends in halving pieces,
    so that little is left to write after the last game."""
    got = list(pipeline.pieces([(0, 10_000), (10_000, 20_000)], lambda a, b: None, min_piece=100,
                               piece_seconds=1e9))  # every piece as large as allowed
    sizes = [(p.chunk, p.stop - p.start) for p in got]
    assert sizes[0] == (0, 100) and (0, 9_900) in sizes  # the first chunk: one big piece after the first
    last = [n for c, n in sizes if c == 1]
    assert last == [5_000, 2_500, 1_250, 625, 312, 156, 100, 57]
    assert got[-1].stop == 20_000 and sum(last) == 10_000
