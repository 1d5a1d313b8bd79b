"""examples/designer.ipynb runs on a real Jupyter kernel and shows what it says it shows."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "examples" / "designer.ipynb"
CELL_TIMEOUT_S = 600  # a cold numba cache compiles Pirate's Peak's kernels in the first run cell

# Appended (never saved): the notebook's variables, for checks its displayed outputs round off.
PROBE = """import json
print("PROBE " + json.dumps({
    "games": r.n_games,
    "z": [float(x) for x in esc["z"]],
    "points": [int(x) for x in esc.index],
    "escape_diff": float(c.table.set_index("metric").loc["ratio.squid_escape_rate", "diff"]),
    "escape_half_width": float(c.table.set_index("metric").loc["ratio.squid_escape_rate", "half_width"]),
    "figures": len(plt.get_fignums()),
}))"""


def _text(cell) -> str:
    parts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream" and out.get("name") == "stdout":
            parts.append(out["text"])
        elif "data" in out:
            parts.append(out["data"].get("text/plain", ""))
            parts.append(out["data"].get("text/html", ""))
    return "".join(parts)


@pytest.fixture(scope="module")
def executed():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code"), "commit the notebook without outputs"
    nb.cells.append(nbformat.v4.new_code_cell(PROBE))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    client = nbclient.NotebookClient(nb, timeout=CELL_TIMEOUT_S, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    client.execute(env=env)  # the kernel imports this checkout, not an installed copy
    return nb


def test_the_designers_notebook_runs_and_shows_its_results(executed):
    code = [c for c in executed.cells if c.cell_type == "code"]
    assert not [o for c in code for o in c.get("outputs", []) if o.get("output_type") == "error"]
    by_source = {c.source.splitlines()[0]: c for c in code}
    run_cell = by_source['s = ps.load("../scenarios/pirates_peak/default.toml")']
    assert "5,000 games" in _text(run_cell) and "win rate, seat 0" in _text(run_cell)
    table = _text(by_source["r.metrics.query(\"metric.str.startswith('win_rate') or metric == 'length.mean'\")"])
    assert "win_rate.seat0" in table and "NaN" not in table  # a metric no game measured is no NaN row
    err = _text(by_source["try:"])
    assert "rules.squid.escape_totl: unknown Pirate's Peak rule (did you mean 'rules.squid.escape_total'?)" in err
    assert "ratio.squid_escape_rate" in _text(by_source["c = ps.compare(s, easy, games=20_000, progress=False)"])
    assert "ratio.squid_escape_rate" in _text(by_source['print("significant after Holm:", ", ".join(c.significant))'])
    chart = by_source["fig, axes = plt.subplots(1, 2, figsize=(10, 3.5))"]
    assert any("image/png" in o.get("data", {}) for o in chart.get("outputs", [])), "the chart is not shown inline"
    probe = json.loads(_text(code[-1]).split("PROBE ", 1)[1])
    assert probe["games"] == 5000 and probe["points"] == [10, 11, 12, 13, 14]
    # the sweep's escape rates against the exact P(3d6 >= total): 4 standard errors (a false alarm ~3e-4)
    assert all(abs(z) < 4 for z in probe["z"]), probe["z"]
    # escape_total 12 -> 11 raises the exact escape rate from 81/216 to 108/216 (+0.125)
    se = probe["escape_half_width"] / 1.96
    assert abs(probe["escape_diff"] - 0.125) < 4 * se, probe
