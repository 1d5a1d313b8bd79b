"""The skill-ladder and tournament report pages claim only what their intervals show, and
say in one plain sentence what their terms mean (toy games: tests/toy_meta.py)."""

from __future__ import annotations

import matplotlib.pyplot as plt
from test_meta_cli import cli, write

from pirate_sim.report.checks import page_problems
from pirate_sim.report.meta import placement_claim, report_pages


def _rate(v, lo, hi):
    return {"value": v, "lo": lo, "hi": hi, "n": 100, "method": "wilson"}


def placed(below=False, above=False, first=(0.5, 0.4, 0.6), last=(0.5, 0.4, 0.6)):
    return {"levels": [8, 16, 32], "win_rates": [_rate(*first), _rate(0.5, 0.4, 0.6), _rate(*last)],
            "below": below, "above": above, "text": "worth about 16 rollouts [8, 32]"}


def test_no_loss_is_claimed_where_the_interval_holds_the_fair_share():
    held = placement_claim(placed(below=True, first=(0.45, 0.36, 0.55)), 0.5)
    assert "loses" not in held and "no loss is shown" in held and "45% [36, 55]" in held
    lost = placement_claim(placed(below=True, first=(0.30, 0.22, 0.39)), 0.5)
    assert lost.startswith("worth less than 8 rollouts (loses to the weakest level: 30% [22, 39])")
    held = placement_claim(placed(above=True, last=(0.30, 0.22, 0.39)), 0.25)
    assert "no win is shown" in held and "beats" not in held
    assert placement_claim(placed(), 0.5) == "worth about 16 rollouts [8, 32]"


def _pages(out):
    pages = report_pages(out)
    try:
        for name, fig in pages:
            assert page_problems(fig) == [], name
        return [" ".join(t.get_text() for t in fig.texts) for _n, fig in pages]
    finally:
        for _n, fig in pages:
            plt.close(fig)


def test_skill_cover_explains_trace_and_depth_and_each_step(tmp_path):
    s = write(tmp_path, "best_move", ["random", "random"])
    out = tmp_path / "sk"
    r = cli("skill", s, "-o", out, "-b", "16", "-k", "3", "-n", "200", "--place-games", "40", "--place", "first",
            "--bootstrap", "50", "-q")
    assert r.exit_code == 0, r.output
    cover = _pages(out)[0]
    assert "Skill trace: near 0 when doubling" in cover and "Skill depth: the steps" in cover
    assert "certainly" in cover and "possibly" in cover and "(certain " not in cover
    assert any(w in cover for w in (" beats", "may beat", "does not beat"))


def test_tournament_cover_gives_search_budget_and_explains_its_terms(tmp_path):
    s = write(tmp_path, "best_move", ["random", "first", "search"])
    out = tmp_path / "cup"
    r = cli("tournament", s, "-o", out, "-n", "100", "--bootstrap", "30", "-q")
    assert r.exit_code == 0, r.output
    cover = _pages(out)[0]
    assert "search played at a budget of" in cover and "rollouts per decision" in cover
    assert "The equilibrium (Nash) mix:" in cover and "Support: how many strategies" in cover
