"""Runner and results: determinism, resume, no overwrite, atomic parts, readable Parquet."""

import json
from pathlib import Path

import numba
import pandas as pd
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from pirate_sim import results, runner, scenario
from pirate_sim.runner import RunError


def _scen(**run):
    return scenario.from_dict({"game": "dice_duel", "run": {"games": 3000, "seed": 9, "chunk_size": 1000, **run}})


def _frames(d):
    g = pd.read_parquet(d / "games").sort_values("game").reset_index(drop=True)
    s = pd.read_parquet(d / "seats").sort_values(["game", "seat"]).reset_index(drop=True)
    return g, s


def test_same_results_whatever_chunk_size_and_threads(tmp_path):
    runner.run(_scen(chunk_size=1000), tmp_path / "a", threads=1)
    runner.run(_scen(chunk_size=700), tmp_path / "b", threads=numba.config.NUMBA_NUM_THREADS)
    ga, sa = _frames(tmp_path / "a")
    gb, sb = _frames(tmp_path / "b")
    pd.testing.assert_frame_equal(ga, gb)
    pd.testing.assert_frame_equal(sa, sb)
    assert results.read_summary(tmp_path / "a")["metrics"] == results.read_summary(tmp_path / "b")["metrics"]


def test_resume_equals_uninterrupted(tmp_path, monkeypatch):
    full = tmp_path / "full"
    runner.run(_scen(), full)
    part = tmp_path / "part"
    calls = {"n": 0}
    real = results.write_table

    def crash_on_second(path, table):  # the 2nd chunk's games part fails, its seats part half written
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        return real(path, table)

    monkeypatch.setattr(results, "write_table", crash_on_second)
    with pytest.raises(KeyboardInterrupt):
        runner.run(_scen(), part)
    monkeypatch.setattr(results, "write_table", real)
    man = results.read_manifest(part)
    assert man["chunks_done"] == 1 and not man["complete"]
    assert not list(part.rglob("*.tmp"))  # no half-written file left behind
    with pytest.raises(RunError, match="unfinished run"):
        runner.run(_scen(), part)
    res = runner.run(_scen(), part, resume=True)
    assert res.resumed_from == 1000
    for a, b in zip(_frames(full), _frames(part)):
        pd.testing.assert_frame_equal(a, b)
    assert results.read_summary(full)["metrics"] == results.read_summary(part)["metrics"]


def test_resume_refuses_a_different_scenario(tmp_path):
    runner.run(_scen(), tmp_path / "r")
    with pytest.raises(RunError, match="different scenario"):
        runner.run(scenario.from_dict({"game": "dice_duel", "run": {"games": 3000, "seed": 10, "chunk_size": 1000}}),
                   tmp_path / "r", resume=True)


def test_never_overwrites_without_force(tmp_path):
    out = tmp_path / "r"
    out.mkdir()
    (out / "precious.txt").write_text("keep")
    with pytest.raises(RunError, match="--force"):
        runner.run(_scen(), out)
    assert (out / "precious.txt").read_text() == "keep"
    runner.run(_scen(), out, force=True)
    assert not (out / "precious.txt").exists()


def test_parquet_schema_metadata_and_dataset(tmp_path):
    s = _scen()
    runner.run(s, tmp_path / "r")
    d = tmp_path / "r"
    t = pq.read_table(d / "games" / "part-00000.parquet")
    meta = {k.decode(): v.decode() for k, v in t.schema.metadata.items()}
    assert meta["pirate_sim.seed"] == "9" and meta["pirate_sim.scenario_hash"] == s.hash()
    assert str(t.schema.field("turns").type) == "int16"
    assert str(t.schema.field("end_reason").type).startswith("dictionary")
    dset = ds.dataset(d / "seats", format="parquet")
    assert dset.count_rows() == 6000
    seats = pd.read_parquet(d / "seats")
    games = pd.read_parquet(d / "games")
    # won agrees with winner, one row per (game, seat)
    merged = seats.merge(games[["game", "winner"]], on="game")
    assert ((merged["winner"] == merged["seat"]) == merged["won"]).all()
    assert seats.groupby("game").size().eq(2).all()
    man = json.loads((d / "manifest.json").read_text())
    assert man["complete"] and man["chunks_done"] == 3 and man["versions"]["numba"]


def test_precision_target_stops_early(tmp_path):
    from pirate_sim.metrics import precision_reached, win_rate_half_widths

    res = runner.run(_scen(games=200_000, chunk_size=2000), tmp_path / "p", stop_when=precision_reached(0.02))
    assert res.games < 200_000
    assert max(win_rate_half_widths(res.accumulator).values()) < 0.02
    man = results.read_manifest(tmp_path / "p")
    assert man["complete"] and man["games"] == res.games


@pytest.mark.parametrize("path", ["scenarios/pirates_peak/default.toml", "scenarios/ice_pirates/default.toml"])
def test_real_games_identical_parquet_across_threads_and_chunks(tmp_path, path):
    root = Path(__file__).resolve().parents[1]
    a = scenario.load(root / path, ["run.games=1500", "run.chunk_size=1500"])
    b = scenario.load(root / path, ["run.games=1500", "run.chunk_size=400"])
    runner.run(a, tmp_path / "a", threads=1)
    runner.run(b, tmp_path / "b", threads=numba.config.NUMBA_NUM_THREADS)
    for x, y in zip(_frames(tmp_path / "a"), _frames(tmp_path / "b")):
        pd.testing.assert_frame_equal(x, y)


def test_results_open_in_duckdb_and_polars(tmp_path):
    duckdb = pytest.importorskip("duckdb")
    pl = pytest.importorskip("polars")
    runner.run(_scen(), tmp_path / "r")
    glob = str(tmp_path / "r" / "seats" / "*.parquet")
    n, wins = duckdb.sql(f"select count(*), sum(won::int) from '{glob}'").fetchall()[0]
    assert n == 6000 and wins == 3000  # dice duel always has a winner
    df = pl.scan_parquet(glob).group_by("seat").agg(pl.col("won").mean()).collect()
    assert df.height == 2
    games = pl.read_parquet(str(tmp_path / "r" / "games" / "*.parquet"))
    assert games["game"].sort().to_list() == list(range(3000))
