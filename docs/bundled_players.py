"""The learned players the package ships for ``weights = "auto"`` (pirate_sim/players/auto/).

A seat ``weights = "auto"`` gets the player trained for its scenario's rules; the package ships
those of the bundled scenarios that ask for one, so their first run does not wait for a training
(Pirate's Peak's self-play example: 25-45 s on 2 cores).  Each is named as the user cache names
it (``<game>-<key>``: the rules' hash, the seats, the player file's SHA-256, the training
settings and seed), so a player file or a training setting that changes makes it unused, never
wrong: ``auto`` then trains as before.

    python docs/bundled_players.py write    # train each one in a temporary cache, ship it
    python docs/bundled_players.py check    # train each one again: the same weights as shipped?

Both train (about 30 s a player on 2 cores) and never read the shipped copies while training.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def auto_scenarios() -> list[Path]:
    """The bundled scenario files with a seat ``weights = "auto"``."""
    out = []
    for folder in ("scenarios", "examples"):
        for f in sorted((ROOT / folder).rglob("*.toml")):
            if 'weights = "auto"' in f.read_text(encoding="utf-8"):
                out.append(f)
    return out


def train(cache: Path) -> dict[str, Path]:
    """Each auto player of the bundled scenarios trained in ``cache``: {its folder name: weights file}."""
    os.environ["PIRATE_SIM_CACHE"] = str(cache)
    sys.path.insert(0, str(ROOT))
    from pirate_sim import learned
    from pirate_sim import scenario as scen

    learned.BUNDLED = cache / "no-bundled-players"  # train: never read a shipped copy
    found = {}
    for f in auto_scenarios():
        s = scen.load(f)
        for seat in s.seats:
            if seat.get("weights") == learned.AUTO:
                p = Path(seat["weights_file"])
                found[p.parent.name] = p
    return found


def main(argv: list[str]) -> int:
    if argv not in (["write"], ["check"]):
        print(__doc__)
        return 2
    from pirate_sim import learned

    shipped = learned.BUNDLED
    with tempfile.TemporaryDirectory() as tmp:
        trained = train(Path(tmp))
        bad = 0
        for name, path in sorted(trained.items()):
            target = shipped / name / "weights.npz"
            if argv == ["write"]:
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, target)
                print(f"wrote {target.relative_to(ROOT)}")
                continue
            if not target.is_file():
                print(f"MISSING {name}: not shipped")
                bad += 1
                continue
            a, b = learned.read_weights(path), learned.read_weights(target)
            same = a.names == b.names and a.rules_hash == b.rules_hash and (a.values == b.values).all()
            print(f"{'same' if same else 'DIFFERENT'} {name}")
            bad += not same
        if argv == ["write"]:
            for old in shipped.glob("*/weights.npz"):
                if old.parent.name not in trained:
                    shutil.rmtree(old.parent)
                    print(f"removed {old.parent.relative_to(ROOT)} (no bundled scenario asks for it)")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
