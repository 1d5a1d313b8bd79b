"""Dask execution: a chunk is one task, and the cluster changes nothing but speed.

One LocalCluster of two worker processes serves the module (starting one costs a few
seconds); the kernels are compiled in this process first so the workers load them from
numba's cache instead of compiling them twice at once.
"""

import os
import signal
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("distributed")

from pirate_sim import scenario as scen  # noqa: E402
from pirate_sim import cluster as cl  # noqa: E402

SCEN = "scenarios/pirates_peak/default.toml"


@pytest.fixture(scope="module")
def peak():
    s = scen.load(SCEN, ["run.games=24000", "run.chunk_size=2000"])
    s.game.play(s.compile(), s.seed, 0, 1)  # compile here: workers load the cache
    return s


@pytest.fixture(scope="module")
def local2(peak):
    with cl.connect("local:2") as c:
        c.prepare([peak])
        yield c


def _chunks(n_chunks, size):
    return [(c, c * size, size) for c in range(n_chunks)]


def test_addresses():
    assert cl.resolve_address(None) is None or os.environ.get(cl.ENV_VAR)
    for ok in ("local", "local:3", "tcp://10.0.0.1:8786", "scheduler:8786"):
        assert cl.resolve_address(ok) == ok
    for bad in ("local:0", "local:x", "nowhere"):
        with pytest.raises(cl.ClusterError, match="expected 'local'"):
            cl.resolve_address(bad)


def test_environment_variable(monkeypatch):
    monkeypatch.setenv(cl.ENV_VAR, "local:2")
    assert cl.resolve_address(None) == "local:2"
    assert cl.resolve_address("tcp://h:1") == "tcp://h:1", "the option wins over the environment"


def test_unreachable_scheduler_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(cl, "CONNECT_TIMEOUT_S", 2)
    with pytest.raises(cl.ClusterError, match=r"cannot reach the Dask scheduler at tcp://127\.0\.0\.1:9"):
        cl.connect("tcp://127.0.0.1:9")


def test_chunks_come_back_identical_and_in_order(peak, local2):
    compiled = peak.compile()
    got = list(local2.play_chunks(peak, _chunks(12, 2000)))
    assert [c for c, _, _ in got] == list(range(12))
    for c, g, s in got:
        g0, s0 = peak.game.play(compiled, peak.seed, c * 2000, 2000)
        assert np.array_equal(g, g0) and np.array_equal(s, s0)


def test_a_killed_worker_costs_only_its_chunk(peak, local2):
    compiled = peak.compile()
    pids = sorted(local2.client.run(os.getpid).values())
    assert len(pids) == 2
    out = {}
    for i, (c, g, s) in enumerate(local2.play_chunks(peak, _chunks(40, 3000))):
        out[c] = (g, s)
        if i == 1:
            os.kill(pids[0], signal.SIGKILL)  # mid-run: the nanny restarts it, Dask reruns its tasks
    assert sorted(out) == list(range(40))
    for c, (g, s) in out.items():
        g0, s0 = peak.game.play(compiled, peak.seed, c * 3000, 3000)
        assert np.array_equal(g, g0) and np.array_equal(s, s0)
    local2.client.wait_for_workers(2, timeout=60)


def test_workers_running_other_code_are_refused(peak, local2, monkeypatch):
    real = cl.code_identity("pirates_peak")
    monkeypatch.setattr(cl, "code_identity", lambda game=None: {**real, "pirates_peak": "0.0-other"})
    with pytest.raises(cl.ClusterError, match="runs other code than this client.*pirates_peak: client 0.0-other"):
        local2.prepare([peak])


# ------------------------------------------------------------------ the runner on the cluster
def _content(out_dir):
    """Every part's table content (not file bytes) and the summary's statistics."""
    import json

    import pyarrow.parquet as pq

    tables = {}
    for kind in ("games", "seats"):
        for f in sorted((out_dir / kind).glob("*.parquet")):
            tables[(kind, f.name)] = pq.read_table(f)
    summary = json.loads((out_dir / "summary.json").read_text())
    return tables, summary["accumulator"]


def test_a_run_on_the_cluster_equals_the_local_run(peak, local2, tmp_path):
    from pirate_sim import runner

    runner.run(peak, tmp_path / "local", threads=1)
    runner.run(peak, tmp_path / "cluster", cluster=local2)
    a, b = _content(tmp_path / "local"), _content(tmp_path / "cluster")
    assert a[1] == b[1], "summary statistics differ"
    assert a[0].keys() == b[0].keys() and len(a[0]) == 2 * 12
    for k in a[0]:
        assert a[0][k].equals(b[0][k]), k


def test_a_client_stopped_mid_run_is_finished_by_resume(peak, local2, tmp_path):
    from pirate_sim import runner

    runner.run(peak, tmp_path / "local", threads=1)

    def stop_after_some(done, total):
        if done >= 8000:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        runner.run(peak, tmp_path / "cut", cluster=local2, progress=stop_after_some)
    res = runner.run(peak, tmp_path / "cut", resume=True, cluster=local2)
    assert 0 < res.resumed_from < 24000
    a, b = _content(tmp_path / "local"), _content(tmp_path / "cut")
    assert a[1] == b[1]
    for k in a[0]:
        assert a[0][k].equals(b[0][k]), k


def test_cli_unreachable_cluster_is_one_line_and_writes_nothing(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from pirate_sim.cli import main

    monkeypatch.setattr(cl, "CONNECT_TIMEOUT_S", 2)
    out = tmp_path / "never"
    r = CliRunner().invoke(main, ["run", SCEN, "-n", "1000", "-o", str(out), "--cluster", "tcp://127.0.0.1:9"])
    assert r.exit_code == 2, r.output
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in r.output
    assert "Traceback" not in r.output and not out.exists()


# ------------------------------------------------------------------ compare, sweep, check
def test_compare_on_the_cluster_gives_the_same_numbers(peak, local2):
    from pirate_sim.analysis import compare as cmp

    b = scen.load(SCEN, ["run.games=24000", "run.chunk_size=2000", "rules.squid.escape_total=11"])
    here = cmp.compare(peak, b, 8000)
    there = cmp.compare(peak, b, 8000, cluster=local2)
    import pandas as pd

    assert pd.DataFrame(here.rows).equals(pd.DataFrame(there.rows))  # NaN-aware: undefined metrics agree too


def test_sweep_on_the_cluster_gives_the_same_table(peak, local2, tmp_path):
    from pirate_sim.analysis import sweep as sw

    axes = [sw.parse_vary("rules.squid.escape_total=11,13")]
    points = sw.build_grid(SCEN, ["run.chunk_size=2000"], axes, None, 6000)
    here = sw.sweep(points, axes, tmp_path / "here")
    there = sw.sweep(points, axes, tmp_path / "there", cluster=local2)
    assert here.tidy.equals(there.tidy)


def test_check_on_the_cluster_gives_the_same_verdict(local2, tmp_path):
    from pirate_sim.analysis import check as ck

    spec_path = tmp_path / "spec.toml"
    spec_path.write_text(f'title = "t"\nmax_games = 8000\nmin_games = 2000\n[[scenario]]\npath = "{Path(SCEN).resolve()}"\n'
                         '[[bound]]\nmetric = "truncation_rate"\nmax = 0.01\n'
                         '[[bound]]\nmetric = "length.mean"\nmin = 10\nmax = 100\n')
    here = ck.run_check(ck.load_spec(spec_path, None))
    there = ck.run_check(ck.load_spec(spec_path, None), cluster=local2)
    assert here.exit_code == there.exit_code
    assert [(b.verdict, b.games, b.estimate) for b in here.bounds] == [(b.verdict, b.games, b.estimate)
                                                                         for b in there.bounds]


def test_design_points_on_the_cluster_are_the_same(peak, local2):
    """sensitivity and tune evaluate points through space.evaluate_point, also at an offset (fresh seeds)."""
    from pirate_sim.analysis.space import PointSpec, evaluate_point

    for first in (0, 5000):
        spec = PointSpec(SCEN, ("run.chunk_size=2000", "rules.squid.escape_total=11"), peak.seed, 6000, first)
        here, there = evaluate_point(spec), evaluate_point(spec, cluster=local2)
        assert here.to_json() == there.to_json()


def test_local_workers_are_capped_at_cores_and_memory():
    assert cl.local_workers(2, cores=2, free=8 * 10**9) == (2, None)
    n, note = cl.local_workers(500, cores=2, free=8 * 10**9)
    assert n == 2 and "local:500" in note and "2 usable cores" in note and "starting 2" in note
    n, note = cl.local_workers(8, cores=16, free=3 * cl.WORKER_MEMORY_BYTES + 1)
    assert n == 3 and "MB a worker" in note
    assert cl.local_workers(4, cores=16, free=1)[0] == 1  # at least one
    assert cl.local_workers(4, cores=16, free=None) == (4, None)  # memory unknown: cores only


def test_local_500_starts_what_the_machine_holds(monkeypatch):
    """`--cluster local:500` on 2 cores started hundreds of processes (11 GB, load 76)."""
    import distributed

    started = {}

    class FakeLocal:
        def __init__(self, n_workers, **kw):
            started["n"] = n_workers

    monkeypatch.setattr(distributed, "LocalCluster", FakeLocal)
    monkeypatch.setattr(distributed, "Client", lambda local: object())
    monkeypatch.setattr(cl, "_usable_cores", lambda: 2)
    c = cl.connect("local:500")
    assert started["n"] == 2 and "starting 2" in c.note
