"""The report aggregates part by part: exact against whole-column computations, one part in memory at a time."""

import weakref
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pirate_sim import report, results, runner, scenario
from pirate_sim.games import get_game
from pirate_sim.report.parts import Counts, Parts

CHUNK = 250  # games per part: small, so every run here has several parts


def split(df: pd.DataFrame, k: int) -> Parts:
    """``df`` as ``k`` parts, like a run's chunks."""
    cuts = np.linspace(0, len(df), k + 1).astype(int)
    return Parts(lambda columns: (df.iloc[a:b][columns] for a, b in zip(cuts[:-1], cuts[1:])))


def as_dict(t: pd.DataFrame) -> dict:
    """A tally or groupby result as {key strings: row ints}, whatever the index dtypes."""
    keys = [k if isinstance(k, tuple) else (k,) for k in t.index]
    return {tuple(str(v) for v in k): tuple(int(v) for v in row) for k, row in zip(keys, t.to_numpy())}


@pytest.fixture(scope="module")
def frame():
    rng = np.random.default_rng(5)
    n = 4001
    return pd.DataFrame({
        "seat": rng.integers(0, 3, n).astype(np.int8),
        "won": rng.random(n) < 0.4,
        "kind": pd.Categorical(rng.choice(["a", "b", "c"], n), categories=["c", "b", "a"]),
        "x": rng.integers(-50, 50, n).astype(np.int16),
        "y": rng.integers(0, 1000, n).astype(np.int32),
        "game": np.repeat(np.arange(10**6, 10**6 + (n + 1) // 2), 2)[:n],
    })


def test_tally_over_parts_equals_groupby_over_the_whole_frame(frame):
    by, values = ["seat", "won", "kind"], ["x", "y", "x*x", "x*y"]
    t = split(frame, 7).tally(by, values)
    x, y = frame["x"].astype(np.int64), frame["y"].astype(np.int64)
    ref = (frame.assign(**{"x*x": x * x, "x*y": x * y}).groupby(by, observed=True)
           .agg(n=("x", "size"), **{v: (v, "sum") for v in values}))
    assert as_dict(t) == as_dict(ref)
    assert list(t.columns) == ["n", *values] and all(d == np.int64 for d in t.dtypes)
    # totals (no keys) and sparse keys (one group per game) merge exactly too
    tot = split(frame, 3).tally(values=["x", "x*x"]).iloc[0]
    assert (int(tot["n"]), int(tot["x"]), int(tot["x*x"])) == (len(frame), int(x.sum()), int((x * x).sum()))
    per_game = split(frame, 5).tally(["game"], ["y"])
    assert as_dict(per_game) == as_dict(frame.groupby("game").agg(n=("y", "size"), y=("y", "sum")))


def test_tally_sums_stay_exact_beyond_float_precision():
    big = pd.DataFrame({"k": [0, 1, 1], "v": np.array([2**62, 2**62, 5], np.int64)})
    assert as_dict(Parts.of(big).tally(["k"], ["v"])) == {("0",): (1, 2**62), ("1",): (2, 2**62 + 5)}


@pytest.mark.parametrize("n", [1, 2, 3, 10, 199, 20_001])
def test_counts_give_numpys_percentiles_mean_and_histogram_bars(n):
    rng = np.random.default_rng(n)
    rows = (rng.geometric(0.03, n) - 20).astype(np.int32)  # skewed, negative values included
    c = Counts(*np.unique(rows, return_counts=True))
    assert c.n == n and c.mean() == rows.mean()
    for q in (0, 0.5, 10, 50, 90, 99.5, 100):
        assert c.percentile(q) == np.percentile(rows, q), q
    for bins in (60, np.arange(rows.min() - 0.5, rows.max() + 1.5)):
        want, want_edges = np.histogram(rows, bins=bins, density=True)
        got, got_edges = np.histogram(c.values, bins=bins, weights=c.counts, density=True)
        assert np.array_equal(want_edges, got_edges) and np.array_equal(want, got)


def test_counts_from_a_tally_select_groups(frame):
    t = split(frame, 4).tally(["seat", "won", "x"])
    for seat in range(3):
        h = Counts.from_tally(t, "x", seat=seat, won=True)
        rows = frame.loc[(frame["seat"] == seat) & frame["won"], "x"]
        assert h.n == len(rows) and h.mean() == rows.mean()
    assert Counts.from_tally(t, "x", seat=9).n == 0  # no such group: an empty histogram


def _run(tmp_path_factory, game: str, games: int) -> Path:
    out = tmp_path_factory.mktemp(game) / "run"
    s = scenario.from_dict({"game": game, "run": {"games": games, "seed": 3, "chunk_size": CHUNK}})
    runner.run(s, out)
    assert results.read_manifest(out)["chunks_done"] == -(-games // CHUNK)
    return out


@pytest.fixture(scope="module")
def peak_run(tmp_path_factory):
    return _run(tmp_path_factory, "pirates_peak", 8 * CHUNK - 70)  # 8 parts, the last one short


def test_scores_page_over_parts_equals_the_whole_columns(peak_run):
    ctx = report.ReportContext(peak_run, {}, get_game("pirates_peak"), None, {}, {})
    col = "final_gold"
    d = report.scores_data(ctx.parts("seats"), col, 2)
    df = ctx.seats(["seat", "won", col])
    lo, hi = np.percentile(df[col], [0.5, 99.5])  # what the page computed from whole columns
    bins = report.integer_bins(lo, hi)
    assert np.array_equal(np.asarray(d["bins"]), bins)
    groups = [(d["seat"][i], df["seat"] == i) for i in range(2)] + [(d["won"][w], df["won"] == w) for w in (True, False)]
    for h, rows in groups:
        v = df.loc[rows, col]
        assert h.mean() == v.mean()
        want = np.histogram(v, bins=bins, density=True)
        got = np.histogram(h.values, bins=bins, weights=h.counts, density=True)
        assert all(np.array_equal(a, b) for a, b in zip(want, got))


def test_report_reads_the_parts_one_at_a_time(peak_run, monkeypatch):
    """build_report never reads a whole table, and each fold frees a part before reading the next."""
    chunks = results.read_manifest(peak_run)["chunks_done"]
    real_read_parts, real_read_table = report.read_parts, pq.read_table
    live: list[weakref.ref] = []
    rows: list[tuple[str, int]] = []

    def read_parts(results_dir, kind, columns):
        parts = real_read_parts(results_dir, kind, columns)
        while True:
            assert all(r() is None for r in live), "a part was still held when the next one was read"
            part = next(parts, None)
            if part is None:
                return
            live.append(weakref.ref(part))
            rows.append((kind, len(part)))
            yield part
            del part

    def read_table(source, *args, **kwargs):  # a part's path, or its checked bytes (results.read_part)
        assert isinstance(source, pa.BufferReader) or Path(source).name.startswith("part-"), \
            f"read a whole table: {source}"
        return real_read_table(source, *args, **kwargs)

    def whole_columns(*_args, **_kwargs):
        raise AssertionError("a report page loaded whole columns")

    monkeypatch.setattr(report, "read_parts", read_parts)
    monkeypatch.setattr(pq, "read_table", read_table)
    monkeypatch.setattr(report.ReportContext, "games", whole_columns)
    monkeypatch.setattr(report.ReportContext, "seats", whole_columns)
    _pdf, pngs = report.build_report(peak_run, peak_run / "report")
    assert len(pngs) >= 10
    seat_reads = [n for kind, n in rows if kind == "seats"]
    assert seat_reads and len(seat_reads) % chunks == 0  # every fold reads every part once
    assert max(seat_reads) == 2 * CHUNK  # one part at a time, never more rows than a chunk's


@pytest.mark.parametrize("lo,hi", [(0, 0), (3, 17), (0, 119), (0, 120), (-40.5, 377.0), (12, 5000)])
def test_integer_bins_hold_the_same_number_of_whole_values(lo, hi):
    """Edges sit halfway between integers, every bin covers the same count of values, the
    range [lo, hi] is covered and the bar count stays readable (no comb pattern)."""
    edges = report.integer_bins(lo, hi)
    assert np.all(edges % 1 == 0.5)
    assert len(set(np.diff(edges))) == 1
    assert edges[0] <= lo and edges[-1] >= hi
    assert len(edges) - 1 <= report.MAX_BINS + 1
    values = np.arange(int(np.floor(lo)), int(np.ceil(hi)) + 1)
    counts, _ = np.histogram(values, edges)
    width = int(np.diff(edges)[0])
    assert np.all(counts[:-1] == width) and 1 <= counts[-1] <= width  # the last bin may pass hi
