"""The Python API's metrics table, as a designer reads it in a notebook: no NaN row with n 0."""

from pathlib import Path

import pirate_sim as ps

ROOT = Path(__file__).resolve().parents[1]


def test_a_metric_no_game_measured_is_no_nan_row_of_the_table():
    # before: win_rate.peak_treasure=mighty_sail (no seat ever showed it) stood in r.metrics as NaN, n 0
    r = ps.run(ps.load(ROOT / "scenarios/pirates_peak/default.toml"), games=2000, seed=1, progress=False)
    m = r.metrics
    assert len(m) > 50 and not (m["n"] == 0).any() and not m["value"].isna().any()
    assert "win_rate.peak_treasure=mighty_sail" not in set(m["metric"])
    assert r.metric("win_rate.peak_treasure=mighty_sail").n == 0  # asked by name: still there, plainly n 0
