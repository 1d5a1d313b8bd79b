"""A helper the strategy-file tests of several games share: ``pirate-sim run`` of a table whose
strategy file answers an illegal index, as a user runs it (the real CLI, kernel and file)."""

from __future__ import annotations

from click.testing import CliRunner

from pirate_sim.cli import main


def run_illegal_index(tmp_path, toml_text: str, games: int = 10) -> str:
    """Exit 2, no Parquet part written, and exactly one line naming the illegal answer: that line."""
    (tmp_path / "s.toml").write_text(toml_text)
    res = CliRunner().invoke(main, ["run", str(tmp_path / "s.toml"), "-o", str(tmp_path / "out"), "--games",
                                    str(games)], catch_exceptions=False)
    assert res.exit_code == 2, res.output
    assert not list((tmp_path / "out").glob("**/*.parquet"))
    lines = [ln for ln in res.output.splitlines() if "returned" in ln]
    assert len(lines) == 1, res.output
    return lines[0]
