"""Results-identity harness: a hash of what a run *says*, to prove a change to the engine says the same.

For a set of fixed runs (every scenario file of every game, plus the toy game), each run
is made under several thread counts and chunk sizes; for each run the harness hashes

* the Parquet content: every column's logical values in game order (dictionary columns
  decoded to their labels, nulls marked), the schema's names and types and its metadata,
  but not the file bytes (compression, encodings and row groups may change freely);
* ``summary.json``: the metrics and the raw accumulator.

Usage::

    python tests/results_hash.py record hashes.json   # hashes of the current code
    python tests/results_hash.py check hashes.json    # same hashes now? (exit 1 if not)
    python tests/results_hash.py check hashes.json ice_pirates   # only these games' runs

Within one run the hash must not depend on threads or chunk size (checked every time);
``check`` compares with a recording made before a change.
"""

from __future__ import annotations

import hashlib
import json
import sys
import tempfile
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).parent))

from pirate_sim import results, runner, scenario  # noqa: E402
from pirate_sim.games import GAME_MODULES, available_games  # noqa: E402

GAME_MODULES.setdefault("dice_duel", "toy_game")

ROOT = Path(__file__).resolve().parent.parent
# (threads, chunk size) of the runs that must agree: one chunk, uneven chunks, small chunks
CONFIGS = ((1, 100_000), (2, 1_700), (1, 1_000))
GAMES = {"pirates_peak": 6_000, "ice_pirates": 3_000, "dice_duel": 6_000}  # games per run (seconds each)


def table_hash(table: pa.Table) -> str:
    """Hash of a table's logical content: schema names and types, metadata, values."""
    h = hashlib.sha256()
    meta = table.schema.metadata or {}
    h.update(json.dumps(sorted((k.decode(), v.decode()) for k, v in meta.items())).encode())
    for name in table.column_names:
        col = table.column(name)
        typ = col.type.value_type if pa.types.is_dictionary(col.type) else col.type
        h.update(f"{name}:{typ}\n".encode())
        arr = col.combine_chunks() if col.num_chunks else pa.array([], typ)
        if pa.types.is_dictionary(arr.type):
            arr = arr.dictionary_decode()
        valid = np.asarray(pc.is_valid(arr).to_numpy(zero_copy_only=False), dtype=np.uint8)
        h.update(valid.tobytes())
        if pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type):
            h.update("\0".join("" if x is None else x for x in arr.to_pylist()).encode())
        else:
            filled = arr.fill_null(0) if arr.null_count else arr
            h.update(np.ascontiguousarray(filled.to_numpy(zero_copy_only=False)).tobytes())
    return h.hexdigest()[:16]


def run_hashes(out_dir: Path) -> dict[str, str]:
    """Hashes of one results directory: games content, seats content, summary, run size."""
    man = results.read_manifest(out_dir)
    parts = {kind: [pq.read_table(out_dir / kind / results.part_name(c)) for c in range(man["chunks_done"])]
             for kind in ("games", "seats")}
    out = {kind: table_hash(pa.concat_tables(tabs)) for kind, tabs in parts.items()}
    summary = json.dumps(results.read_summary(out_dir), sort_keys=True)
    out["summary"] = hashlib.sha256(summary.encode()).hexdigest()[:16]
    out["size"] = f"{man['games']} games, complete={man['complete']}"
    return out


def scenarios() -> list[tuple[str, scenario.Scenario]]:
    """(label, scenario) of every fixed run: each game's scenario files and default."""
    out = []
    for name in available_games():
        files = sorted((ROOT / "scenarios" / name).glob("*.toml"))
        if files:
            out += [(f"{name}/{f.stem}", scenario.load(f)) for f in files]
        else:
            from pirate_sim.games import get_game

            out.append((f"{name}/default", scenario.default_scenario(get_game(name))))
    return out


def compute(log=print, games: list[str] | None = None) -> tuple[dict, list[str]]:
    """{label: hashes} and the list of thread/chunk disagreements (should be empty)."""
    table, problems = {}, []
    with tempfile.TemporaryDirectory() as tmp:
        for label, s in scenarios():
            if games and s.game.name not in games:
                continue
            n = GAMES.get(s.game.name, 2_000)
            seen = None
            for threads, chunk in CONFIGS:
                s.run["chunk_size"] = chunk
                d = Path(tmp) / f"{label.replace('/', '_')}-{threads}-{chunk}"
                runner.run(s, d, games=n, threads=threads)
                hashes = run_hashes(d)
                if seen is None:
                    seen = hashes
                elif hashes != seen:
                    problems.append(f"{label}: threads={threads} chunk={chunk} differs: {hashes} vs {seen}")
            table[label] = seen
            log(f"{label:40s} {seen}")
    return table, problems


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] not in ("record", "check"):
        print(__doc__)
        return 2
    table, problems = compute(games=argv[2:] or None)
    for p in problems:
        print("THREADS/CHUNKS DISAGREE:", p)
    path = Path(argv[1])
    if argv[0] == "record":
        path.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
        print(f"recorded {len(table)} runs x {len(CONFIGS)} configurations in {path}")
        return 1 if problems else 0
    ref = json.loads(path.read_text())
    keys = set(table) if len(argv) > 2 else set(ref) | set(table)
    diff = [k for k in sorted(keys) if ref.get(k) != table.get(k)]
    for k in diff:
        print(f"CHANGED {k}: {ref.get(k)} -> {table.get(k)}")
    n = sum(len(v) for v in table.values())
    print(f"{len(table)} runs, {n} hashes, {len(CONFIGS)} configurations each: "
          + ("identical" if not diff and not problems else f"{len(diff)} changed, {len(problems)} disagreements"))
    return 1 if diff or problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
