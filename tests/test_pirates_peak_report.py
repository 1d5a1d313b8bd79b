"""Pirate's Peak report pages: the three PNGs are written and their data functions add up."""

import math
from fractions import Fraction

import numpy as np
import pytest

from pirate_sim import report, runner, scenario
from pirate_sim.games.pirates_peak import GAME
from pirate_sim.games.pirates_peak import report as PR
from pirate_sim.results import SCENARIO, read_manifest
from pirate_sim.stats import Estimate, mean_ci, z_value

PAGES = ("pirates_peak_squid", "pirates_peak_traps", "pirates_peak_treasure")
GAMES = 3000
CHUNK = 500  # six parts: the pages must add them up to the whole-column figures
COLS = [
    "game",
    "seat",
    "strategy",
    "won",
    "peak_treasure",
    "peak_order",
    *PR.SQUID_COLS,
    *PR.TRAP_COLS,
]


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("pp_report") / "run"
    s = scenario.load(
        "scenarios/pirates_peak/digger_vs_racer.toml", [f"run.games={GAMES}", f"run.chunk_size={CHUNK}"]
    )
    runner.run(s, out)
    return out


@pytest.fixture(scope="module")
def frame(run_dir):
    ctx = report.ReportContext(run_dir, {}, GAME, None, {}, {})
    seats = list(scenario.load(run_dir / SCENARIO).seats)
    return ctx.seats(COLS), scenario.load(run_dir / SCENARIO).rules, seats


def test_report_writes_the_three_pages(run_dir):
    _pdf, pngs = report.build_report(run_dir, run_dir / "report")
    names = {p.stem for p in pngs}
    for page in PAGES:
        png = run_dir / "report" / f"10_{page}.png"
        assert f"10_{page}" in names and png.exists()
        assert png.stat().st_size > 30_000, page  # a drawn chart, not an empty canvas


def test_squid_exact_values():
    ex = PR.squid_exact({})
    assert ex["p_escape_frac"] == Fraction(81, 216)  # P(3d6 >= 12) = 81/216
    assert ex["p_instant"] == pytest.approx(1 / 216)
    assert ex["p_life"] == pytest.approx(20 / 216)  # 3d6 <= 6
    assert ex["attempts_no_sacrifice"] == pytest.approx(216 / 81)
    q = 1 - 81 / 216
    assert ex["attempts_sacrifice_asap"] == pytest.approx((1 - q**3) / (81 / 216))
    # instant below the escape total: the instant total is what lets a ship pass
    assert PR.squid_exact({"squid.escape_total": 13, "squid.instant_total": 11})["p_escape"] == (
        pytest.approx(
            sum(1 for a in range(1, 7) for b in range(1, 7) for c in range(1, 7) if a + b + c >= 11)
            / 216
        )
    )


def test_squid_data_matches_exact(frame):
    df, rules, seats = frame
    d = PR.squid_data(df, rules, seats)
    t, ex = d["totals"], d["exact"]
    n = t["squid_attempts"]
    assert n > 1000 and d["n_seat_games"] == 2 * GAMES
    for key, p in (
        ("escape", ex["p_escape"]),
        ("life", ex["p_life"]),
        ("instant", ex["p_instant"]),
    ):
        se = math.sqrt(p * (1 - p) / n)
        assert abs(d[key].value - p) < 4.5 * se, key
        assert d[key].lo <= d[key].value <= d[key].hi
    # encounters end by an escape, a sacrifice or the end of the game
    assert 0 <= t["unresolved"] <= 0.1 * t["squid_encounters"]
    assert t["squid_instant"] <= t["squid_escapes"] <= t["squid_attempts"]
    assert sum(s["encounters"] for s in d["per_seat"]) == t["squid_encounters"]
    assert sum(s["attempts"] for s in d["per_seat"]) == n
    for s in d["per_seat"]:
        assert s["sacrifice"] == ("yes" if seats[s["seat"]]["sacrifice_crew"] else "no")
    digger, racer = d["per_seat"]
    assert digger["sacrifices"] == 0 and racer["sacrifices"] > 0
    # sacrificing shortens encounters; never sacrificing stays near 1/p (cut-short ones aside)
    assert racer["attempts_per_encounter"].hi < digger["attempts_per_encounter"].lo
    assert digger["attempts_per_encounter"].value < ex["attempts_no_sacrifice"] * 1.05
    assert d["attempts_per_encounter"].value == pytest.approx(n / t["squid_encounters"])


def test_traps_data_matches_exact(frame):
    df, rules, seats = frame
    d = PR.traps_data(df, rules, seats)
    t, ex = d["totals"], d["exact"]
    assert ex["whirlpool_escape"] == pytest.approx(1 / 6)
    assert ex["whirlpool_spit"] == pytest.approx((5 / 6) ** 5)
    e, p = d["whirlpool_escape"], ex["whirlpool_escape"]
    assert abs(e.value - p) < 4.5 * math.sqrt(p * (1 - p) / e.n)
    # censoring-aware spit-outs and rolls: exact within their intervals widened to 4.5 sd
    for key, exact in (("whirlpool_spit_censored", "whirlpool_spit"), ("whirlpool_attempts_censored",
                                                                      "whirlpool_attempts")):
        e = d[key]
        assert abs(e.value - ex[exact]) < 4.5 / 1.96 * max(e.hi - e.value, e.value - e.lo), key
    assert 0 <= t["whirlpool_unresolved"] <= 0.1 * t["whirlpool_encounters"]
    assert t["whirlpool_escapes"] + t["whirlpool_spits"] <= t["whirlpool_encounters"]
    assert d["n_games"] == GAMES
    for s in d["per_seat"]:
        assert s["fog_p_exact"] == pytest.approx(0.5)  # both call 3, tolerance 1
        e = s["fog_success"]
        assert abs(e.value - 0.5) < 4.5 * math.sqrt(0.25 / e.n)
    per_game = sum(s["ghost_summons"].value for s in d["per_seat"])
    assert per_game == pytest.approx(d["ghost_summons_per_game"].value)
    assert (
        d["ghost_fights_per_game"].value <= d["ghost_summons_per_game"].value
    )  # fought at most once


def test_treasure_data_counts_add_up(frame):
    df, _rules, seats = frame
    d = PR.treasure_data(df, seats)
    assert sum(d["arrivals"].values()) == len(df)
    for (i, o), row in d["picks"].items():
        k = sum(d["counts"][(i, o, t)] for t in PR.TREASURES)
        assert k == row["n"]  # every arrival first or second takes a treasure
    # one first and at most one second arrival per game
    assert d["arrivals"][1] == GAMES - (df.groupby("game")["peak_order"].max() == 0).sum()
    assert d["arrivals"][2] <= d["arrivals"][1]
    assert sum(e.n for e in d["win"].values()) == len(df)
    wins = sum(round(e.value * e.n) for e in d["win"].values() if e.n)
    assert wins == int(df["won"].sum())
    # the digger prefers the Golden Cutlass, the racer the Mighty Sail
    assert d["counts"][(0, 2, "golden_cutlass")] == d["picks"][(0, 2)]["n"]
    assert d["counts"][(1, 1, "mighty_sail")] == d["picks"][(1, 1)]["n"]


def _same(a, b, path=""):
    """Equal to the last bit: nested dicts, lists, Estimates, arrays, numbers."""
    if isinstance(a, dict):
        assert a.keys() == b.keys(), path
        for k in a:
            _same(a[k], b[k], f"{path}/{k}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            _same(x, y, f"{path}[{i}]")
    elif isinstance(a, np.ndarray):
        assert np.array_equal(a, b), path
    elif isinstance(a, Estimate):
        _same(a.as_dict(), b.as_dict(), path)
    elif isinstance(a, float):
        assert a == b or (math.isnan(a) and math.isnan(b)), path
    else:
        assert a == b, path


def test_pages_over_parts_equal_the_pages_over_the_whole_columns(run_dir, frame):
    df, rules, seats = frame
    assert read_manifest(run_dir)["chunks_done"] == GAMES // CHUNK
    parts = report.ReportContext(run_dir, {}, GAME, None, {}, {}).parts("seats")
    _same(PR.squid_data(parts, rules, seats), PR.squid_data(df, rules, seats))
    _same(PR.traps_data(parts, rules, seats), PR.traps_data(df, rules, seats))
    _same(PR.treasure_data(parts, seats), PR.treasure_data(df, seats))


def _ratio_ref(num, den) -> Estimate:
    """The whole-column delta-method ratio interval the pages used to compute."""
    num, den = np.asarray(num, float), np.asarray(den, float)
    r = num.sum() / den.sum()
    se = math.sqrt(num.size * float(np.var(num - r * den, ddof=1))) / den.sum()
    return Estimate(r, r - z_value() * se, r + z_value() * se, int(den.sum()), "ratio")


def _close(e: Estimate, ref: Estimate):
    assert e.value == ref.value and e.n == ref.n
    assert e.lo == pytest.approx(ref.lo, rel=1e-12) and e.hi == pytest.approx(ref.hi, rel=1e-12)


def test_streamed_figures_equal_whole_column_formulas(run_dir, frame):
    """Against the old whole-column formulas: ratio CIs, histograms, per-game means, cross-tabs."""
    df, rules, seats = frame
    parts = report.ReportContext(run_dir, {}, GAME, None, {}, {}).parts("seats")
    sq, tr, te = PR.squid_data(parts, rules, seats), PR.traps_data(parts, rules, seats), PR.treasure_data(parts, seats)
    _close(sq["attempts_per_encounter"], _ratio_ref(df["squid_attempts"], df["squid_encounters"]))
    _close(tr["whirlpool_attempts"], _ratio_ref(df["whirlpool_attempts"], df["whirlpool_encounters"]))
    for s, t in zip(sq["per_seat"], tr["per_seat"]):
        d = df[df["seat"] == s["seat"]]
        _close(s["attempts_per_encounter"], _ratio_ref(d["squid_attempts"], d["squid_encounters"]))
        _close(t["fog_turns_per_stay"], _ratio_ref(d["fog_turns"], d["fog_escapes"]))
        _close(s["attempts_per_ended"], _ratio_ref(d["squid_attempts"], d["squid_escapes"] + d["squid_sacrifices"]))
        for c in PR.PER_SEAT_MEANS:
            v = d[c].to_numpy(dtype=float)
            assert t[c] == mean_ci(v.sum(), (v * v).sum(), v.size)
    g = df.groupby("game")[["ghost_summons", "ghost_fights"]].sum()
    for c in ("ghost_summons", "ghost_fights"):
        v = g[c].to_numpy(dtype=float)
        assert tr[f"{c}_per_game"] == mean_ci(v.sum(), (v * v).sum(), v.size)
    tab = df.groupby(["seat", "peak_order", "peak_treasure"], observed=True).size()
    for (i, o, t), k in te["counts"].items():
        assert k == tab.get((i, o, t), 0)
    wins = df.groupby(["peak_order", "peak_treasure"], observed=True)["won"].agg(["sum", "size"])
    for (t, o), e in te["win"].items():
        if e.n:
            assert (round(e.value * e.n), e.n) == tuple(wins.loc[(o, t)])


def test_whirlpool_censoring_aware_estimates_map_the_per_roll_interval():
    p = Estimate(1 / 6, 0.15, 0.18, 1000, "wilson")
    spit, rolls = PR.whirlpool_censoring_aware(p, 5)
    assert spit.value == pytest.approx((5 / 6) ** 5) and rolls.value == pytest.approx((1 - (5 / 6) ** 5) * 6)
    assert spit.lo == pytest.approx(0.82**5) and spit.hi == pytest.approx(0.85**5)
    assert rolls.lo == pytest.approx((1 - 0.82**5) / 0.18) and rolls.hi == pytest.approx((1 - 0.85**5) / 0.15)


@pytest.fixture(scope="module")
def mirror_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("pp_default") / "run"
    runner.run(scenario.load("scenarios/pirates_peak/default.toml", ["run.games=400", "run.chunk_size=100"]), out)
    return out


def test_fixed_treasure_choice_is_one_panel_not_half_an_empty_frame(mirror_run):
    import matplotlib.pyplot as plt

    ctx = report.report_context(mirror_run, quick=True)
    data = PR.treasure_data(ctx.parts("seats"), list(scenario.load(mirror_run / SCENARIO).seats))
    assert PR.fixed_picks(data)  # the digger always takes the same treasure in each Peak order
    fig = PR.draw_treasure(data)
    try:
        assert len(fig.axes) == 1 and tuple(fig.get_size_inches()) == PR.PAGE
        title = fig._suptitle.get_text().replace("\n", " ")
        assert "fixed choice" in title and "always golden cutlass" in title
    finally:
        plt.close(fig)


def test_unpaid_gold_says_the_box_ran_dry(mirror_run):
    ctx = report.report_context(mirror_run, quick=True)
    games = ctx.games(["supply_dry_turn"])
    note = report.event_notes(ctx)["unpaid_gold"]
    dry = (games["supply_dry_turn"] > 0).mean()
    assert "ran dry in" in note and f"{100 * dry:.1f}%" in note
    vals = np.sort(games.loc[games["supply_dry_turn"] > 0, "supply_dry_turn"].to_numpy())
    d = PR.supply_dry_data(ctx.parts("games"))
    assert d["median_turn"] == vals[(len(vals) - 1) // 2]  # the lower middle value of an even count


def test_the_score_chart_of_games_nobody_won_draws_no_winners_and_no_nan(tmp_path):
    """A real run where every game is cut at the lowest turn cap, 10 (nobody wins): the winners' curve
    is named "none in these games", not drawn as a histogram of nothing ("mean nan" and numpy's
    divide warning)."""
    import warnings

    import matplotlib.pyplot as plt

    s = scenario.load("scenarios/pirates_peak/default.toml", ["run.games=200", "rules.turn_cap=10"])
    runner.run(s, tmp_path / "run")
    ctx = report.report_context(tmp_path / "run", quick=True)
    assert not ctx.seats(["won"])["won"].to_numpy(bool).any()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the NaN density was a RuntimeWarning
        fig = report._scores(ctx)
    try:
        labels = [t.get_text() for t in fig.axes[1].get_legend().get_texts()]
        assert labels[0] == "winners: none in these games" and labels[1].startswith("others, mean ")
        assert not any("nan" in x for x in labels), labels
    finally:
        plt.close(fig)
