"""Pirate's Peak report pages: the three PNGs are written and their data functions add up."""

import math
from fractions import Fraction

import pytest

from pirate_sim import report, runner, scenario
from pirate_sim.games.pirates_peak import GAME
from pirate_sim.games.pirates_peak import report as PR
from pirate_sim.results import SCENARIO

PAGES = ("pirates_peak_squid", "pirates_peak_traps", "pirates_peak_treasure")
GAMES = 3000
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
        "scenarios/pirates_peak/digger_vs_racer.toml", [f"run.games={GAMES}", "run.chunk_size=1000"]
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
    assert sum(ex["pmf_no_sacrifice"]) == pytest.approx(1.0)
    assert sum(ex["pmf_sacrifice_asap"]) == pytest.approx(1.0)
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
        assert s["hist"].sum() == s["one_encounter_games"]
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
    for key in ("whirlpool_escape", "whirlpool_spit"):
        e, p = d[key], ex[key]
        assert abs(e.value - p) < 4.5 * math.sqrt(p * (1 - p) / e.n), key
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
