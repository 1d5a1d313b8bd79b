"""Property: whatever scenario file, --set expression or path a user gives, every command
either succeeds or exits 2 with one line, "error: ...": never a traceback."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pirate_sim.cli import main

# what users type and what breaks parsers: TOML, rich markup, mathtext, paths, dots, quotes
NASTY = "abcxyz019 _-.=[]/\\$\"',:{}#*?~海🏴"
KEYS = ["game", "title", "run", "rules", "seats", "run.games", "run.seed", "run.chunk_size", "rules.target",
        "rules.first_player_cutoff", "rules.turn_cap", "rules.squid", "seats.0.strategy", "seats.1.strategy",
        "seats.5.strategy", "seats.x", "", "rules.", ".target", "rules.target.deep"]

words = st.text(NASTY, max_size=12)
values = st.one_of(st.integers(-3, 2**65), st.floats(allow_nan=True), st.booleans(), words,
                   st.lists(st.integers(-2, 7), max_size=3))


def toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(str(v), repr(v))
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, list):
        return "[" + ", ".join(map(toml_value, v)) + "]"
    return str(v)


@st.composite
def scenario_text(draw) -> str:
    mode = draw(st.integers(0, 5))
    if mode == 0:
        return draw(st.text(NASTY + "\n", max_size=60))  # anything at all
    if mode <= 2:  # a valid scenario with a hostile title: the commands get to play and write
        return (f"game = 'dice_duel'\ntitle = {toml_value(draw(words))}\n[run]\ngames = 50\nchunk_size = 20\n"
                f"[rules]\ntarget = {draw(st.integers(1, 30))}\n")
    lines = [f"game = {toml_value(draw(st.sampled_from(['dice_duel', 'dice_duel', 'pirates_pk', 'x[red]'])))}"]
    if draw(st.booleans()):
        lines.append(f"title = {toml_value(draw(words))}")
    lines.append("[run]\ngames = 50\nchunk_size = 20")
    lines.append("[rules]")
    for key in draw(st.lists(st.sampled_from(["target", "first_player_cutoff", "turn_cap", "targte", "x.y"]),
                             max_size=3, unique=True)):
        v = draw(values)
        lines.append(f"{key} = {toml_value(v)}")
    for _ in range(draw(st.integers(0, 3))):
        lines.append(f"[[seats]]\nstrategy = {toml_value(draw(st.sampled_from(['roller', 'rolr', '[/]'])))}")
    return "\n".join(lines) + "\n"


set_expr = st.one_of(
    st.builds("rules.target={}".format, st.integers(1, 30)),
    st.builds(lambda k, v: f"{k}={toml_value(v) if not isinstance(v, str) else v}", st.sampled_from(KEYS), values),
    st.text(NASTY, max_size=20),
)
path_name = st.text(NASTY.replace("/", "").replace("\\", ""), min_size=1, max_size=12).filter(
    lambda s: s not in (".", ".."))


def _check(res, ok=(0,)):
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert "Traceback" not in res.output
    if res.exit_code in ok:
        return
    assert res.exit_code == 2, (res.exit_code, res.output)
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), res.output


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=scenario_text(), sets=st.lists(set_expr, max_size=2), name=path_name,
       out_in_file=st.integers(0, 3).map(lambda i: i == 0), k=st.integers(-1, 2**66))
def test_every_command_succeeds_or_fails_in_one_line(text, sets, name, out_in_file, k):
    root = Path(tempfile.mkdtemp())
    try:
        scen = root / f"{name}.toml"
        scen.write_text(text, encoding="utf-8")
        blocker = root / "afile"
        blocker.write_text("x")
        out = (blocker if out_in_file else root) / f"out {name}"
        set_args = [a for s in sets for a in ("--set", s)]
        runner = CliRunner()

        def invoke(*args):
            return runner.invoke(main, [str(a) for a in args])

        _check(invoke("scenario", "check", scen, *set_args))
        _check(invoke("run", scen, *set_args, "-n", 30, "-o", out, "-q"))
        _check(invoke("trace", scen, "-k", k, *set_args))
        _check(invoke("report", out, "-o", root / f"rep {name}"))
        _check(invoke("verify", out), ok=(0, 1))
        if sets:
            _check(invoke("compare", scen, *set_args, "-n", 20, "-o", out / "cmp", "-q"))
        _check(invoke("sweep", scen, "--vary", f"rules.target={name}", "-n", 10, "-o", root / "sw", "-q"))
        spec = root / "spec.toml"
        spec.write_text(f'[[scenario]]\npath = {toml_value(str(scen))}\nset = {toml_value(sets)}\n'
                        f'[[bound]]\nmetric = {toml_value(name)}\nmax = 0.5\n')
        _check(invoke("check", spec, "-o", out / "chk", "-q", "--max-games", 40), ok=(0, 1, 3))
    finally:
        shutil.rmtree(root, ignore_errors=True)
