"""Every report page of every registered game, and of compare and sweep, passes the page checks.

The checks (pirate_sim.report.checks.page_problems): the page fits a printable size, every
axis is labelled, no two texts overlap, no panel is empty without saying why, and every
exact-versus-simulated comparison a page declares agrees within sampling error.  Games are
taken from GAME_MODULES, so a new game inherits the checks with its first bundled scenario.
"""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib.pyplot as plt
import pytest

from pirate_sim import runner, scenario
from pirate_sim.games import GAME_MODULES, get_game
from pirate_sim.report import PAGE, report_context, report_pages
from pirate_sim.report.checks import EXACT_Z_LIMIT, comparisons, page_problems
from pirate_sim.report.strength import measured

GAMES = 2000  # small runs: the exact comparisons' intervals widen to match
OTHER_GAMES = 1000  # the other bundled scenarios: only their exact comparisons are checked
SCENARIOS = Path(__file__).parent.parent / "scenarios"


def bundled(game: str) -> list[Path]:
    """The game's bundled scenarios (its default first), or none for a game without a folder."""
    found = sorted((SCENARIOS / game).glob("*.toml"), key=lambda p: (p.stem != "default", p.stem))
    return found


def play(game: str, path: Path | None, out: Path, games: int = GAMES):
    if path is None:
        s = scenario.from_dict({"game": game, "run": {"games": games, "seed": 5},
                                "seats": [{"strategy": x} for x in get_game(game).default_seats]})
    else:
        s = scenario.load(path, [f"run.games={games}"])
    runner.run(s, out)
    return out


def check_pages(pages, pdf_path: Path | None = None) -> tuple[list[str], int]:
    """Every page's problems; with ``pdf_path``, the pages are also written to that PDF and
    each must be landscape US Letter there (792 x 612 points), the report's one page size."""
    from matplotlib.backends.backend_pdf import PdfPages

    problems, n_exact = [], 0
    pdf = PdfPages(pdf_path) if pdf_path else None
    try:
        for name, fig in pages:
            try:
                problems += [f"{name}: {p}" for p in page_problems(fig)]
                n_exact += len(comparisons(fig))
                if pdf is not None:
                    pdf.savefig(fig)
                    if tuple(fig.get_size_inches()) != PAGE:
                        problems.append(f"{name}: page is {tuple(fig.get_size_inches())} in, not {PAGE}")
            finally:
                plt.close(fig)
    finally:
        if pdf is not None:
            pdf.close()
    if pdf_path:
        boxes = re.findall(rb"/MediaBox \[ *([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) *\]", pdf_path.read_bytes())
        sizes = {tuple(float(x) for x in b) for b in boxes}
        if sizes != {(0.0, 0.0, 792.0, 612.0)}:
            problems.append(f"PDF page sizes {sorted(sizes)}, not only landscape US Letter (0, 0, 792, 612)")
    return problems, n_exact


@pytest.mark.parametrize("game", sorted(GAME_MODULES))
def test_every_page_of_the_default_scenario_passes(game, tmp_path):
    paths = bundled(game)
    run_dir = play(game, paths[0] if paths else None, tmp_path / "run")
    ctx = report_context(run_dir, quick=True)
    names = []

    def pages():
        for name, fig in report_pages(ctx):
            names.append(name)
            yield name, fig

    problems, _ = check_pages(pages(), tmp_path / "report.pdf")
    assert names and names[0] == "00_cover" and "08_players_strength" in names
    assert ("09_search_strength" in names) == bool(measured(game))  # the measured table, where there is one
    assert not problems, "\n".join(problems)


def _seating_games():
    return [g for g in sorted(GAME_MODULES) if {"first_player", "strategy_seating"} <= {p.key for p in get_game(g).params}]


@pytest.mark.parametrize("game", _seating_games())
def test_pages_of_a_rotated_seating_pass(game, tmp_path):
    """Strategies and the first move rotate over the seats: no page may claim a seat's strategy."""
    paths = bundled(game)
    rotate = [f"run.games={GAMES}", "rules.first_player=rotate", "rules.strategy_seating=rotate"]
    if paths:
        mixed = next((p for p in paths if len({str(x["strategy"]) for x in scenario.load(p).seats}) > 1), paths[0])
        s = scenario.load(mixed, rotate)
    else:  # a game without bundled scenarios (the toy game): its default seats
        s = scenario.from_dict({"game": game}, overrides=rotate)
    runner.run(s, tmp_path / "run")
    # the page checks only: the PDF's pages are checked on the default scenario's report above
    problems, _ = check_pages(report_pages(report_context(tmp_path / "run", quick=True)))
    assert not problems, "\n".join(problems)


def _other_scenarios():
    return [(g, p) for g in sorted(GAME_MODULES) for p in bundled(g)[1:]]


@pytest.mark.parametrize("game, path", _other_scenarios(), ids=lambda x: getattr(x, "stem", x))
def test_exact_comparisons_agree_on_every_bundled_scenario(game, path, tmp_path):
    """The game's own pages of every other bundled scenario: their exact comparisons agree."""
    run_dir = play(game, path, tmp_path / "run", OTHER_GAMES)
    ctx = report_context(run_dir, quick=True)
    bad = []
    for name, fig in ctx.game.report_figures(ctx):
        bad += [f"{name}: {c.label} z = {c.z:+.1f}" for c in comparisons(fig) if not abs(c.z) <= EXACT_Z_LIMIT]
        plt.close(fig)
    assert not bad, "\n".join(bad)


def test_compare_and_sweep_pages_pass(toy_scenario_file, tmp_path):
    from pirate_sim.analysis import charts
    from pirate_sim.analysis import compare as cmp
    from pirate_sim.analysis import sweep as sw

    a = scenario.load(toy_scenario_file)
    b = scenario.load(toy_scenario_file, ["rules.target=11"])
    res = cmp.compare(a, b, games=GAMES)
    pages = charts.compare_figures(res)
    assert pages and pages[0][0].startswith("compare_rates")
    problems, _ = check_pages(pages)
    axes = [sw.parse_vary("rules.target=8:12:2"), sw.parse_vary("rules.first_player_cutoff=2,4")]
    for varies in (axes[:1], [sw.parse_vary("rules.target=8,12"), axes[1]]):
        points = sw.build_grid(toy_scenario_file, [], varies, games=500)
        out = sw.sweep(points, varies, tmp_path / f"sweep{len(varies)}")
        keys = [k for k, _ in varies]
        chosen = [m for m in dict.fromkeys(out.tidy["metric"]) if m.startswith(("win_rate.seat", "length.mean",
                                                                               "truncation_rate"))]
        figs = charts.sweep_figures(out.tidy, keys, dict(varies), chosen, "toy sweep")
        if len(varies) == 1:  # one varied parameter: the seats' win rates share one chart
            assert "sweep_win_rate.seats" in [n for n, _f in figs]
        more, _ = check_pages(figs)
        problems += more
    assert not problems, "\n".join(problems)
