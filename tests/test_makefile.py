"""make clean-cache really removes numba's cache files (and nothing in the virtual environment)."""

import shutil
import subprocess
from pathlib import Path

import pytest

MAKEFILE = Path(__file__).resolve().parents[1] / "Makefile"


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_clean_cache_removes_kernels_but_not_the_venv(tmp_path):
    stale = [tmp_path / "pirate_sim/games/__pycache__/kernel.play_nb-12.py311.nbi",
             tmp_path / "pirate_sim/games/__pycache__/kernel.play_nb-12.py311.1.nbc",
             tmp_path / "tests/__pycache__/toy_game.play_one_nb-20.py311.nbi"]
    keep = [tmp_path / ".venv/lib/site/__pycache__/lib.f-1.py311.nbi", tmp_path / "pirate_sim/games/kernel.py"]
    for p in stale + keep:
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("x")
    res = subprocess.run(["make", "-s", "-f", str(MAKEFILE), "-C", str(tmp_path), "clean-cache"],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert "removed 3 numba cache files" in res.stdout
    assert not any(p.exists() for p in stale)  # before: GNU find refused -prune with -delete, 0 removed
    assert all(p.exists() for p in keep)
