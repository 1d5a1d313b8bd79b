"""The Python API (pirate_sim.api): the same games, files and numbers as the CLI, errors as
exceptions naming the key, in-memory runs no slower than the CLI's."""

from __future__ import annotations

import importlib
import inspect
import json
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from pandas.testing import assert_frame_equal

import pirate_sim as ps
from pirate_sim import results
from pirate_sim.cli import main
from pirate_sim.errors import UserError
from pirate_sim.scenario import ScenarioError

ROOT = Path(__file__).resolve().parents[1]
PP = ROOT / "scenarios" / "pirates_peak" / "default.toml"
CHECK_SPEC = ROOT / "scenarios" / "checks" / "pirates_peak_balance.toml"


def _cli(*args) -> str:
    res = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return res.output


def _cli_error(*args) -> str:
    res = CliRunner().invoke(main, [str(a) for a in args])
    assert res.exit_code == 2, res.output
    return " ".join(res.output.split())


# ------------------------------------------------------------------ the import


def test_import_is_lazy_and_every_name_is_documented_with_an_example():
    code = ("import sys, pirate_sim as ps; assert 'pirate_sim.api' not in sys.modules; "
            "assert 'numba' not in sys.modules and 'pandas' not in sys.modules; ps.run; "
            "assert 'pirate_sim.api' in sys.modules and 'numba' not in sys.modules; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ok"
    assert set(ps.__all__) == set(ps._API) | {"__version__", "scenario"} == set(importlib.import_module("pirate_sim.api").__all__) | {"__version__"}
    for name in ps.__all__:
        if name == "__version__":
            continue
        obj = getattr(ps, name)
        doc = inspect.getdoc(obj.__call__ if name == "scenario" else obj) or ""
        assert doc, f"ps.{name} has no docstring"
        if inspect.isfunction(obj):
            assert "Example" in doc, f"ps.{name}'s docstring has no example"


def test_ps_scenario_is_callable_and_still_the_scenario_module():
    from pirate_sim import scenario as scen

    assert scen is ps.scenario and callable(scen.load)  # the library's module, as its code imports it
    s = ps.scenario("pirates_peak")
    assert isinstance(s, ps.Scenario)
    assert s.hash() == ps.load(PP).hash()  # default.toml is the game's defaults
    assert "ps.scenario(game" in ps.scenario.__doc__


# ------------------------------------------------------------------ scenarios


def test_set_is_the_clis_set_and_errors_name_the_key(tmp_path):
    s = ps.load(PP)
    assert s.set("rules.squid.escape_total", 11) is s
    assert s["rules.squid.escape_total"] == 11 and s.overrides == ["rules.squid.escape_total=11"]
    assert s.hash() == ps.load(PP, "rules.squid.escape_total=11").hash()
    s.set("seats.1.strategy=racer")
    assert s.get("seats.1.strategy") == "racer"
    before = s.hash()
    for key, value in (("rules.squid.escape_totl", 11), ("rules.squid.escape_total", "x"),
                       ("rules.squid.escape_total", 99), ("seats.5.strategy", "racer"),
                       ("seats.1.strategy", "rcer")):
        with pytest.raises(ScenarioError) as exc:
            s.set(key, value)
        assert exc.value.key == key
        msg = str(exc.value)
        assert "\n" not in msg and key in msg and str(PP) in msg
        assert msg in _cli_error("scenario", "check", PP, "--set", f"{key}={value}")  # the CLI's very line
    assert s.hash() == before  # a failed set changes nothing
    with pytest.raises(ScenarioError) as exc:
        ps.load(tmp_path / "missing.toml")
    assert "file not found" in str(exc.value)
    with pytest.raises(ScenarioError) as exc:
        ps.scenario("pirates_pek")
    assert exc.value.key == "game" and "pirates_peak" in str(exc.value)
    with pytest.raises(ScenarioError) as exc:
        ps.scenario("pirates_peak", squid__escape_total=2.5)
    assert exc.value.key == "rules.squid.escape_total"


def test_copies_variants_and_to_toml_round_trip(tmp_path):
    a = ps.load(PP)
    b = a.with_({"rules.squid.escape_total": 11}, ship__life_points=4)
    assert a.overrides == [] and b["rules.ship.life_points"] == 4 and b["rules.squid.escape_total"] == 11
    c = b.copy().set("rules.ship.life_points", 5)
    assert b["rules.ship.life_points"] == 4 and c["rules.ship.life_points"] == 5
    p = b.to_toml(tmp_path / "b.toml")
    assert ps.load(p).hash() == b.hash()
    with pytest.raises(UserError, match="already exists"):
        b.to_toml(p)
    assert "escape_total = 11" in b.to_toml()
    s = ps.scenario("pirateer", {"ships_per_player": 2}, seats=["runner", "hunter"], games=300, seed=3)
    assert s.seats[1]["strategy"] == "hunter" and s.games == 300 and s.seed == 3
    assert s.rules["ships_per_player"] == 2


# ------------------------------------------------------------------ run: the CLI's games


@pytest.fixture(scope="module")
def cli_run(tmp_path_factory):
    """A CLI run in three chunks, with a --set value: the reference the API must equal."""
    out = tmp_path_factory.mktemp("cli") / "run"
    _cli("run", PP, "--games", 2500, "--seed", 5, "--set", "rules.squid.escape_total=11",
         "--set", "run.chunk_size=1000", "-o", out, "--quiet")
    return out


def _scenario():
    return ps.load(PP).update(["rules.squid.escape_total=11", "run.chunk_size=1000"])


def test_in_memory_run_equals_the_clis_parquet_and_metrics(cli_run):
    r = ps.run(_scenario(), games=2500, seed=5, progress=False)
    assert r.out is None and r.n_games == 2500
    assert_frame_equal(r.games, results.read_games(cli_run))
    assert_frame_equal(r.seats, results.read_seats(cli_run))
    from results_hash import table_hash  # the engine's identity harness: values, types, metadata

    for kind in ("games", "seats"):
        assert table_hash(r.arrow(kind)) == table_hash(pq.read_table(cli_run / kind)), kind
    stored = results.read_summary(cli_run)["metrics"]
    got = r.metrics.set_index("metric")
    measured = {name: e for name, e in stored.items() if e["n"] > 0}  # the table leaves out metrics with n 0
    assert list(got.index) == list(measured)
    for name in set(stored) - set(measured):
        assert r.metric(name).n == 0, name
    for name, e in measured.items():
        row = got.loc[name]
        for k in ("value", "lo", "hi"):
            assert row[k] == pytest.approx(e[k], nan_ok=True, rel=1e-12, abs=0), (name, k)
        assert row["n"] == e["n"] and row["method"] == e["method"]
    assert str(r.summary()) == (cli_run / "summary.txt").read_text()
    assert r.arrow("seats").num_rows == 5000 and r.polars("games").height == 2500
    assert r.trace(41) == "\n".join(_cli("trace", PP, "--game", 41, "--seed", 5, "--set",
                                         "rules.squid.escape_total=11").splitlines()[1:])


def test_run_to_a_directory_and_open_equal_the_cli(cli_run, tmp_path):
    r = ps.run(_scenario(), games=2500, seed=5, out=tmp_path / "api", progress=False)
    man, ref = results.read_manifest(tmp_path / "api"), results.read_manifest(cli_run)
    for key in ("scenario_hash", "seed", "games", "chunk_size", "chunks_done", "complete", "overrides", "seats"):
        assert man[key] == ref[key], key
    for kind in ("games", "seats"):  # the same Parquet bytes, part by part
        assert [p[kind]["sha256"] for p in man["parts"]] == [p[kind]["sha256"] for p in ref["parts"]]
        for c in range(man["chunks_done"]):
            name = results.part_name(c)
            assert (tmp_path / "api" / kind / name).read_bytes() == (cli_run / kind / name).read_bytes()
    assert (tmp_path / "api" / "summary.txt").read_text() == (cli_run / "summary.txt").read_text()
    assert (tmp_path / "api" / "summary.json").read_text() == (cli_run / "summary.json").read_text()
    opened = ps.open(cli_run)
    assert_frame_equal(opened.games, r.games)
    assert_frame_equal(opened.metrics, r.metrics)
    assert opened.scenario.hash() == r.scenario.hash()


def test_polars_missing_is_one_clear_error(cli_run, monkeypatch):
    """polars is a test tool, not a dependency (a `make demo` venv lacks it): asking for a polars
    table without it names the package and the tables that need nothing more."""
    monkeypatch.setitem(sys.modules, "polars", None)  # what an import of an absent package raises
    with pytest.raises(ps.APIError, match=r"polars is not installed \(pip install polars\).*\.arrow\(kind\)"):
        ps.open(cli_run).polars("games")


def test_saved_in_memory_run_verifies_and_reads_back(tmp_path):
    r = ps.run(_scenario(), games=2500, seed=5, progress=False)
    d = r.save(tmp_path / "saved")
    assert results.verify(d) == []
    back = ps.open(d)
    assert_frame_equal(back.seats, r.seats)
    assert_frame_equal(back.metrics, r.metrics)
    with pytest.raises(UserError, match="already exists"):
        r.save(d)


def test_precision_target_in_memory_stops_where_the_cli_stops(tmp_path):
    mem = ps.run(_scenario(), games=20_000, seed=5, precision=0.02, progress=False)
    disk = ps.run(_scenario(), games=20_000, seed=5, precision=0.02, out=tmp_path / "p", progress=False)
    assert mem.n_games == disk.n_games < 20_000
    assert_frame_equal(mem.games, disk.games)


def test_open_refuses_a_damaged_run_naming_the_part(cli_run, tmp_path):
    import shutil

    bad = tmp_path / "bad"
    shutil.copytree(cli_run, bad)
    part = bad / "seats" / results.part_name(1)
    part.write_bytes(part.read_bytes()[:-10])
    with pytest.raises(UserError) as exc:
        ps.open(bad)
    assert str(part) in str(exc.value) and "--resume" in str(exc.value)
    with pytest.raises(UserError, match="not a pirate-sim results directory"):
        ps.open(tmp_path)


def test_in_memory_size_guard_and_argument_errors():
    with pytest.raises(ps.APIError, match="out=DIR"):
        ps.run(ps.load(PP), games=10**9, progress=False)
    with pytest.raises(ps.APIError, match="max_memory"):
        ps.run(ps.load(PP), games=10_000, max_memory=1000, progress=False)
    with pytest.raises(ps.APIError, match="set="):
        ps.compare(ps.load(PP))
    with pytest.raises(ps.APIError, match="game 10"):
        ps.run(ps.load(PP), games=10, progress=False).trace(10)


# ------------------------------------------------------------------ analyses: the CLI's numbers


def test_compare_equals_the_clis(tmp_path):
    out = _cli("compare", PP, "--set", "rules.squid.escape_total=11", "--games", 3000, "--seed", 2,
               "--format", "json", "--quiet")
    ref = json.loads(out)
    c = ps.compare(PP, set={"rules.squid.escape_total": 11}, games=3000, seed=2, progress=False)
    assert c.result.games == ref["games"] == 3000
    got = c.table.set_index("metric")
    for row in ref["rows"]:
        for k in ("value_a", "value_b", "diff", "lo", "hi", "p_holm"):
            assert got.loc[row["metric"], k] == pytest.approx(row[k], nan_ok=True, rel=1e-9), (row["metric"], k)
    assert c.files == []
    few = ps.compare(PP, set={"rules.squid.escape_total": 11}, games=3000, seed=2, progress=False,
                     metrics=["win_rate.seat*", "length.mean"], out=tmp_path / "cmp")  # a few charts: fast
    assert list(few.table["metric"]) == ["win_rate.seat0", "win_rate.seat1", "length.mean"]
    assert {p.name for p in few.files} >= {"compare.json", "compare.parquet", "compare.pdf"}
    assert all(p.exists() for p in few.files)
    assert json.loads((tmp_path / "cmp" / "compare.json").read_text())["games"] == 3000
    assert c.significant == [r["metric"] for r in ref["rows"] if r["significant_holm"]]
    assert "rules.squid.escape_total=11" in c.b.overrides


def test_sweep_equals_the_clis(tmp_path):
    _cli("sweep", PP, "--vary", "rules.squid.escape_total=10,12", "-n", 1500, "--seed", 4,
         "-o", tmp_path / "cli", "--quiet")
    sw = ps.sweep(PP, {"rules.squid.escape_total": [10, 12]}, games=1500, seed=4, out=tmp_path / "api",
                  progress=False)
    assert_frame_equal(sw.metrics, pd.read_parquet(tmp_path / "cli" / "sweep.parquet"))
    assert list(sw.points["rules.squid.escape_total"]) == [10, 12]
    piv = sw.pivot("length.mean")
    assert list(piv.index) == [10, 12] and (piv["lo"] <= piv["value"]).all()
    assert_frame_equal(sw.open("p001").games, ps.run(ps.load(PP, "rules.squid.escape_total=12"), games=1500, seed=4,
                                                     progress=False).games)
    assert all(p.exists() for p in sw.files)


def test_sweep_of_an_in_memory_scenario_and_bad_axes():
    s = ps.scenario("pirates_peak", squid__escape_total=11)
    sw = ps.sweep(s, {"rules.ship.life_points": (4, 5, 1)}, games=500, progress=False)
    assert sorted(sw.points["rules.ship.life_points"]) == [4, 5]
    assert sw.open("p000").scenario.get("rules.squid.escape_total") == 11
    with pytest.raises(UserError, match="unknown"):
        ps.sweep(s, {"rules.ship.life_pints": [4, 5]}, games=500, progress=False)


def test_check_equals_the_clis(tmp_path):
    res = CliRunner().invoke(main, ["check", str(CHECK_SPEC), "--max-games", "20000", "-o", str(tmp_path / "cli"),
                                    "--quiet"])
    v = ps.check(CHECK_SPEC, max_games=20_000, out=tmp_path / "api", progress=False)
    assert v.exit_code == res.exit_code
    ref = json.loads((tmp_path / "cli" / "verdict.json").read_text())
    assert list(v.bounds["verdict"]) == [b["verdict"] for b in ref["bounds"]]
    assert list(v.bounds["value"]) == pytest.approx([b["estimate"]["value"] for b in ref["bounds"]])
    assert sorted(p.name for p in v.files) == ["junit.xml", "verdict.json"]
    assert ps.check(CHECK_SPEC, max_games=20_000, progress=False).files == []  # nothing written without out


def test_sensitivity_and_tune_equal_the_clis(tmp_path):
    vary = ["rules.ship.life_points=3:6", "rules.squid.escape_total=10:13"]
    _cli("sensitivity", PP, *sum((["--vary", v] for v in vary), []), "--points", 2, "-n", 300,
         "--metric", "length.mean", "-o", tmp_path / "cli-sa", "--quiet")
    sa = ps.sensitivity(PP, {"rules.ship.life_points": (3, 6), "rules.squid.escape_total": (10, 13)}, points=2,
                        games=300, metrics=["length.mean"], out=tmp_path / "api-sa", progress=False)
    assert_frame_equal(sa.indices, pd.read_parquet(tmp_path / "cli-sa" / "indices.parquet"))
    assert set(sa.indices["parameter"]) == {"rules.ship.life_points", "rules.squid.escape_total"}
    _cli("tune", PP, "--vary", "rules.ship.life_points=2:6", "--objective", "first_player_win_rate=0.5",
         "--trials", 3, "-n", 300, "-o", tmp_path / "cli-tune", "--quiet")
    t = ps.tune(PP, {"rules.ship.life_points": (2, 6)}, "first_player_win_rate=0.5", trials=3, games=300,
                out=tmp_path / "api-tune", progress=False)
    ref = pd.read_parquet(tmp_path / "cli-tune" / "trials.parquet")
    assert list(t.trials["rules.ship.life_points"]) == list(ref["rules.ship.life_points"])
    assert t.best_scenario is not None and t.best_scenario.get("rules.ship.life_points") == t.best[
        "rules.ship.life_points"]


# ------------------------------------------------------------------ speed


def test_in_memory_run_is_not_slower_than_the_run_to_parquet(tmp_path):
    """10,000 Pirate's Peak games: ps.run in memory against the CLI's run (the runner writing
    Parquet, in this process, warm), best of 3 each.  Measured on the 2-core machine: see
    docs/api.md; the bound here is generous (1.5x) so a loaded machine does not fail it."""
    s = ps.load(PP)
    ps.run(s, games=10_000, progress=False)  # warm: kernels loaded, first-call costs paid
    mem, disk = [], []
    for i in range(3):
        t = time.perf_counter()
        ps.run(s, games=10_000, progress=False)
        mem.append(time.perf_counter() - t)
        t = time.perf_counter()
        _cli("run", PP, "--games", 10_000, "-o", tmp_path / f"d{i}", "--quiet")
        disk.append(time.perf_counter() - t)
    assert min(mem) <= 1.5 * min(disk), (mem, disk)


def test_an_interrupted_run_resumes_to_the_uninterrupted_games(tmp_path):
    s = _scenario()

    def stop_after_first_chunk(done, total):
        if done >= 1000:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        ps.run(s, games=2500, seed=5, out=tmp_path / "r", progress=stop_after_first_chunk)
    assert 0 < results.read_manifest(tmp_path / "r")["chunks_done"] < 3
    resumed = ps.run(ps.load(PP, "rules.squid.escape_total=11"), seed=5, out=tmp_path / "r", resume=True,
                     progress=False)  # games and chunk size from the run, as --resume takes them
    assert resumed.n_games == 2500 and results.verify(tmp_path / "r") == []
    assert_frame_equal(ps.open(tmp_path / "r").seats, ps.run(s, games=2500, seed=5, progress=False).seats)


def test_trace_without_a_run_is_game_k_of_the_run():
    s = ps.load(PP)
    assert ps.trace(s, 7, seed=3) == ps.run(s, games=10, seed=3, progress=False).trace(7)
    assert ps.trace(s, 7, seed=3) != ps.trace(s, 7, seed=4)


def test_progress_bar_by_default_and_none_with_false(capsys):
    s = ps.load(PP)
    ps.run(s, games=3000, progress=False)
    assert capsys.readouterr().err == ""
    ps.run(s, games=3000)
    err = capsys.readouterr().err  # tqdm's bar on stderr (a widget in Jupyter), cleared at the end
    assert "Pirate's Peak" in err and "/3000" in err and "games/s" in err
    seen = []
    ps.run(s, games=3000, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (3000, 3000) and seen == sorted(seen)


def test_in_memory_run_on_a_local_cluster_plays_the_same_games():
    pytest.importorskip("distributed")
    s = ps.load(PP)
    on_cluster = ps.run(s, games=3000, seed=9, cluster="local:2", progress=False)
    assert_frame_equal(on_cluster.seats, ps.run(s, games=3000, seed=9, progress=False).seats)


def test_one_metric_by_name():
    r = ps.run(ps.load(PP), games=2000, progress=False)
    e = r.metric("length.mean")
    assert e.lo <= e.value <= e.hi and e.n == 2000
    with pytest.raises(ps.APIError, match="did you mean"):
        r.metric("length.maen")
    with pytest.raises(ps.APIError, match="not a pattern"):
        r.metric("win_rate.*")
