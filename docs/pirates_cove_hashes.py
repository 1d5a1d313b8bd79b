"""Result hashes of Pirate's Cove: tests/results_hash.py's method on the six Cove scenario files only.

Run from the repository root::

    .venv/bin/python docs/pirates_cove_hashes.py record docs/pirates_cove_hashes.json
    .venv/bin/python docs/pirates_cove_hashes.py check docs/pirates_cove_hashes.json

Each scenario plays 2,000 games under three thread/chunk configurations that must agree;
``docs/pirates_cove_hashes.json`` holds the record of the current rules VERSION (in its
``version`` key), re-recorded whenever a change alters Cove games on purpose.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import results_hash as H  # noqa: E402

from pirate_sim.games.pirates_cove.rules import VERSION  # noqa: E402

_all = H.scenarios
H.scenarios = lambda: [(label, s) for label, s in _all() if label.startswith("pirates_cove/")]


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("record", "check"):
        print(__doc__)
        return 2
    table, problems = H.compute()
    for p in problems:
        print("THREADS/CHUNKS DISAGREE:", p)
    path = Path(argv[1])
    if argv[0] == "record":
        path.write_text(json.dumps({"version": VERSION, "runs": table}, indent=1, sort_keys=True) + "\n")
        print(f"recorded {len(table)} Cove runs x {len(H.CONFIGS)} configurations (rules {VERSION}) in {path}")
        return 1 if problems else 0
    ref = json.loads(path.read_text())["runs"]
    diff = [k for k in sorted(set(ref) | set(table)) if ref.get(k) != table.get(k)]
    for k in diff:
        print(f"CHANGED {k}: {ref.get(k)} -> {table.get(k)}")
    print(f"{len(table)} runs: " + ("identical" if not diff and not problems else
                                   f"{len(diff)} changed, {len(problems)} disagreements"))
    return 1 if diff or problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
