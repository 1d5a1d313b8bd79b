"""Results directories: nothing lost, nothing mixed (locks, checksums, replay, umask, estimates)."""

import os
import shutil
import stat
from pathlib import Path

import pandas as pd
import pytest

from pirate_sim import results, runner, scenario
from pirate_sim.results import ResultsError
from pirate_sim.runner import RunError


def _scen(seed=9, **run):
    return scenario.from_dict({"game": "dice_duel", "run": {"games": 3000, "seed": seed, "chunk_size": 1000, **run}})


def _games(d):
    return pd.read_parquet(d / "games").sort_values("game").reset_index(drop=True)


def _truncate(path, keep=0.5):
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)])


def test_a_locked_directory_refuses_a_second_writer(tmp_path):
    out = tmp_path / "r"
    with results.lock_dir(out):
        with pytest.raises(ResultsError, match="in use by another pirate-sim command"):
            runner.run(_scen(), out)
        with pytest.raises(ResultsError, match="in use"):
            runner.run(_scen(seed=10), out, force=True)
    assert not (out / results.MANIFEST).exists()
    runner.run(_scen(), out)  # the lock is released with the block
    assert results.verify(out) == []


def test_the_lock_is_held_for_the_whole_run(tmp_path):
    out = tmp_path / "r"
    seen = []

    def progress(done, total):
        try:
            with results.lock_dir(out):
                seen.append("free")
        except ResultsError:
            seen.append("held")

    runner.run(_scen(), out, progress=progress)
    assert seen and set(seen) == {"held"}


def test_manifest_records_rows_and_checksums(tmp_path):
    out = tmp_path / "r"
    runner.run(_scen(), out)
    man = results.read_manifest(out)
    assert len(man["parts"]) == 3
    assert [p["games"]["rows"] for p in man["parts"]] == [1000, 1000, 1000]
    assert [p["seats"]["rows"] for p in man["parts"]] == [2000, 2000, 2000]
    assert all(len(p[k]["sha256"]) == 64 for p in man["parts"] for k in ("games", "seats"))


def test_damaged_part_is_named_by_readers_and_replayed_on_resume(tmp_path):
    full, out = tmp_path / "full", tmp_path / "r"
    runner.run(_scen(), full)
    runner.run(_scen(), out)
    part = out / "games" / "part-00001.parquet"
    _truncate(part)
    problems = results.verify(out)
    assert len(problems) == 1 and "part-00001.parquet" in problems[0] and "damaged" in problems[0]
    with pytest.raises(ResultsError, match="part-00001.parquet"):
        results.check_run(out)
    with pytest.raises(ResultsError, match="part-00001.parquet"):
        list(results.iter_parts(out))
    with pytest.raises(ResultsError, match="part-00001.parquet"):
        results.read_games(out)
    res = runner.run(_scen(), out, resume=True)  # before: ArrowInvalid traceback
    assert res.replayed == 1 and res.games == 3000
    assert results.verify(out) == []
    pd.testing.assert_frame_equal(_games(full), _games(out))
    assert results.read_summary(full)["metrics"] == results.read_summary(out)["metrics"]


def test_a_part_with_intact_bytes_but_wrong_rows_is_refused(tmp_path):
    out = tmp_path / "r"
    runner.run(_scen(), out)
    man = results.read_manifest(out)
    man["parts"] = None  # an older manifest without checksums: rows and hashes still checked
    man["chunk_size"] = 1100
    results.atomic_write_json(out / results.MANIFEST, man)
    assert any("rows" in p for p in results.verify(out))


def test_parts_of_another_scenario_are_refused(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    runner.run(_scen(seed=9), a)
    runner.run(_scen(seed=10), b)
    for kind in ("games", "seats"):  # what two runs writing one directory used to leave
        (b / kind / "part-00002.parquet").replace(a / kind / "part-00002.parquet")
    man = results.read_manifest(a)
    man["parts"][2] = results.read_manifest(b)["parts"][2]  # even with matching checksums
    results.atomic_write_json(a / results.MANIFEST, man)
    problems = results.verify(a)
    assert problems and all("part of another run" in p for p in problems)
    with pytest.raises(ResultsError, match="another run"):
        results.read_seats(a)


def test_extra_parts_are_reported(tmp_path):
    out = tmp_path / "r"
    runner.run(_scen(), out)
    shutil.copy(out / "games" / "part-00000.parquet", out / "games" / "part-00007.parquet")
    assert any("part-00007" in p and "does not list" in p for p in results.verify(out))


def test_resume_removes_tmp_left_by_a_kill(tmp_path, monkeypatch):
    out = tmp_path / "r"
    calls = {"n": 0}
    real = results.write_table

    def killed(path, table):
        calls["n"] += 1
        if calls["n"] == 2:  # the 2nd chunk's games part
            raise KeyboardInterrupt
        return real(path, table)

    monkeypatch.setattr(results, "write_table", killed)
    with pytest.raises(KeyboardInterrupt):
        runner.run(_scen(), out)
    monkeypatch.setattr(results, "write_table", real)
    assert not list(out.rglob("*.tmp"))  # a stop cleans up; kill -9 cannot, and leaves:
    (out / "games" / f".part-00001.parquet.abc{results.TMP_SUFFIX}").write_bytes(b"half")
    runner.run(_scen(), out, resume=True)
    assert not list(out.rglob("*.tmp"))
    assert results.verify(out) == []


def test_complete_and_unfinished_are_told_apart(tmp_path, monkeypatch):
    out = tmp_path / "r"
    runner.run(_scen(), out)
    with pytest.raises(RunError, match="a complete run of 3,000 games"):
        runner.run(_scen(), out)
    res = runner.run(_scen(), out, resume=True)
    assert res.already_complete and res.games == 3000


def test_resume_settings_come_from_the_manifest(tmp_path):
    out = tmp_path / "r"
    s = scenario.from_dict({"game": "dice_duel", "run": {"games": 3000, "seed": 9, "chunk_size": 1000}},
                           overrides=["rules.target=12"])
    runner.run(s, out, options={"precision": 0.05})
    got = runner.resume_settings(out)
    assert got["games"] == 3000 and got["chunk_size"] == 1000 and got["seed"] == 9
    assert got["overrides"] == ["rules.target=12"] and got["options"] == {"precision": 0.05}
    with pytest.raises(RunError, match="no run to resume"):
        runner.resume_settings(tmp_path / "nothing")


def test_files_follow_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        runner.run(_scen(), tmp_path / "r")
    finally:
        os.umask(old)
    for p in (tmp_path / "r").rglob("*"):
        if p.is_file():
            assert stat.S_IMODE(p.stat().st_mode) == 0o644, p


def test_chunks_are_never_listed():
    assert runner.n_chunks(10**12, 1) == 10**12
    assert runner.chunk_span(10**12 - 1, 10**12, 1) == (10**12 - 1, 10**12)
    it = runner.chunk_bounds(10**12, 1)  # a generator: a list would need terabytes
    assert next(it) == (0, 1)


def test_estimate_and_disk_check_before_the_long_part(tmp_path, monkeypatch):
    seen = []
    out = tmp_path / "big"
    monkeypatch.setattr(shutil, "disk_usage", lambda p: shutil._ntuple_diskusage(10**9, 10**9 - 10**6, 10**6))
    with pytest.raises(RunError, match="need about .* on disk and only 1.0 MB is free"):
        runner.run(_scen(games=10**12), out, on_estimate=lambda *a: seen.append(a))
    (seconds, need, free), = seen
    assert need > 10**9 and free == 10**6 and seconds > 0
    assert not out.exists()  # refused: nothing left behind (it left 2 chunks of a 10^12-game run)
    runner.run(_scen(games=5000), out)
    man = results.read_manifest(out)
    man.update(games=10**12, chunks_total=10**9, complete=False)
    results.atomic_write_json(out / results.MANIFEST, man)  # a run being resumed keeps what it had
    with pytest.raises(RunError, match="--resume continues"):
        runner.run(_scen(games=10**12), out, resume=True, on_estimate=lambda *a: None)
    assert results.read_manifest(out)["chunks_done"] == 7


def test_unwritable_output_is_one_error_before_playing(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x")
    with pytest.raises(ResultsError, match="afile"):
        runner.run(_scen(), afile / "r")
    with pytest.raises(ResultsError, match="afile"):
        runner.run(_scen(), afile)


def test_staged_dir_replaces_whole_or_not_at_all(tmp_path):
    out = tmp_path / "rep"
    with results.staged_dir(out, force=False) as st:
        (st / "a.png").write_text("old")
        (st / "b.png").write_text("old")
    with pytest.raises(ResultsError, match="--force"):
        with results.staged_dir(out, force=False):
            pass
    with pytest.raises(RuntimeError):
        with results.staged_dir(out, force=True) as st:
            (st / "a.png").write_text("new")
            raise RuntimeError("failed half-way")
    assert sorted(p.name for p in out.iterdir()) == ["a.png", "b.png"]
    assert (out / "a.png").read_text() == "old"
    with results.staged_dir(out, force=True) as st:
        (st / "c.png").write_text("new")
    assert sorted(p.name for p in out.iterdir()) == ["c.png"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep"]  # nothing staged left behind


def test_two_processes_cannot_write_one_directory(tmp_path):
    import subprocess
    import sys

    out = tmp_path / "r"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from pirate_sim import results\n"
         f"with results.lock_dir({str(out)!r}):\n    print('locked', flush=True); time.sleep(60)"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(ResultsError, match="in use by another pirate-sim command"):
            runner.run(_scen(), out)  # before: both runs succeeded, parts of two scenarios mixed
    finally:
        holder.kill()
        holder.wait()
    runner.run(_scen(), out)  # the lock dies with its process


def test_seats_parts_in_row_groups_hold_the_same_rows(tmp_path, monkeypatch):
    """A seats part written a row group at a time, with pieces straddling the groups'
    boundaries, holds exactly the rows of one written whole."""
    import pyarrow.parquet as pq

    s = _scen()
    whole = runner.run(s, tmp_path / "whole").out_dir
    monkeypatch.setattr(results, "SEATS_ROW_GROUP_GAMES", 300)
    monkeypatch.setattr(results, "LAST_PART_ROW_GROUP_GAMES", 300)
    monkeypatch.setattr(runner.pipeline, "MIN_PIECE", 70)  # pieces of 70+ games: most straddle a boundary
    monkeypatch.setattr(runner.pipeline, "PIECE_SECONDS", 1e-6)
    grouped = runner.run(s, tmp_path / "grouped").out_dir
    meta = pq.ParquetFile(grouped / "seats" / "part-00000.parquet").metadata
    assert [meta.row_group(k).num_rows for k in range(meta.num_row_groups)] == [600, 600, 600, 200]  # 1000 games x 2 seats
    for kind in ("games", "seats"):
        for a, b in zip(sorted((whole / kind).glob("*.parquet")), sorted((grouped / kind).glob("*.parquet"))):
            assert pq.read_table(a).equals(pq.read_table(b), check_metadata=True)
    assert results.verify(grouped) == []


def test_a_chunk_stopped_while_its_seats_stream_leaves_no_file(tmp_path, monkeypatch):
    out = tmp_path / "r"
    monkeypatch.setattr(results, "SEATS_ROW_GROUP_GAMES", 300)
    monkeypatch.setattr(results, "LAST_PART_ROW_GROUP_GAMES", 300)
    real, calls = results.PartWriter._write_seats, {"n": 0}

    def stop_in_chunk_two(self, stop):
        calls["n"] += 1
        if calls["n"] == 6:  # chunk 0 wrote groups 1-4; this is chunk 1's second group
            raise KeyboardInterrupt
        return real(self, stop)

    monkeypatch.setattr(results.PartWriter, "_write_seats", stop_in_chunk_two)
    with pytest.raises(KeyboardInterrupt):
        runner.run(_scen(), out)
    assert not list(out.rglob("*.tmp")) and not (out / "seats" / "part-00001.parquet").exists()
    assert results.read_manifest(out)["chunks_done"] == 1
    monkeypatch.setattr(results.PartWriter, "_write_seats", real)
    assert runner.run(_scen(), out, resume=True).resumed_from == 1000
    assert results.verify(out) == []


def test_a_full_disk_while_seats_stream_names_the_part(tmp_path, monkeypatch):
    import errno

    class FullWriter(results.pq.ParquetWriter):
        def write_table(self, table, row_group_size=None):
            raise OSError(errno.ENOSPC, "Error writing bytes to file. Detail: [errno 28] No space left on device")

    monkeypatch.setattr(results.pq, "ParquetWriter", FullWriter)
    with pytest.raises(OSError) as info:
        runner.run(_scen(), tmp_path / "r")
    assert "no space left" in results.os_error_text(info.value)
    assert info.value.filename.endswith("seats/part-00000.parquet")
    assert not list((tmp_path / "r").rglob("*.tmp"))


@pytest.mark.parametrize("name", ["part-00000 (copy).parquet", "copy.parquet", "part-00001.parquet.bak",
                                  "part-0000.parquet", "part-00009.parquet"])
def test_a_stray_file_is_named_moved_aside_by_resume_and_never_read(tmp_path, name):
    """A copy of a real part under another name: pd.read_parquet(dir/games) counted its rows
    (60,000 for a 50,000-game run) while --resume said "already complete" and left it."""
    out = tmp_path / "r"
    runner.run(_scen(), out)
    shutil.copy(out / "games" / "part-00000.parquet", out / "games" / name)
    problems = results.verify(out)
    assert len(problems) == 1 and name in problems[0] and "does not list" in problems[0]
    assert len(results.read_games(out)) == 3000  # our readers go by the manifest
    res = runner.run(_scen(), out, resume=True)
    assert res.already_complete and [p.name for p in res.moved_aside] == [name]
    assert res.moved_aside[0] == out / results.STRAY / "games" / name and res.moved_aside[0].exists()
    assert results.verify(out) == [] and len(pd.read_parquet(out / "games")) == 3000


def test_resume_keeps_the_part_of_a_chunk_still_to_play(tmp_path):
    """A kill between a part's rename and the manifest leaves the part of chunk chunks_done: not a
    stray (playing the chunk again replaces it with the same bytes)."""
    out = tmp_path / "r"
    runner.run(_scen(), out)
    man = results.read_manifest(out)
    man.update(chunks_done=2, complete=False, parts=man["parts"][:2])
    results.atomic_write_json(out / results.MANIFEST, man)
    assert results.unlisted_files(out, man, upcoming=True) == []
    res = runner.run(_scen(), out, resume=True)
    assert res.moved_aside == [] and results.verify(out) == []


def test_verify_of_an_unfinished_run_says_how_many_games_are_there(tmp_path):
    from click.testing import CliRunner

    from pirate_sim.cli import main

    out = tmp_path / "r"
    runner.run(_scen(), out)
    man = results.read_manifest(out)
    man.update(chunks_done=1, complete=False, parts=man["parts"][:1])
    results.atomic_write_json(out / results.MANIFEST, man)
    for kind in ("games", "seats"):
        for c in (1, 2):
            (out / kind / results.part_name(c)).unlink()
    r = CliRunner().invoke(main, ["verify", str(out)])
    assert r.exit_code == 0, r.output
    assert "1,000 of 3,000 games played" in r.output and "3,000 games\n" not in r.output
    assert "--resume" in r.output


def test_a_run_stopped_by_an_illegal_strategy_answer_leaves_nothing(tmp_path):
    """A strategy file returning an index past the legal plays (tests/user_strategies/probe.py,
    mode 1) fails the run on its first chunk: no directory is left that verify would call
    intact and offer --resume for."""
    from click.testing import CliRunner

    from pirate_sim.cli import main

    probe = Path(__file__).resolve().parent / "user_strategies" / "probe.py"
    scen = tmp_path / "bad.toml"
    scen.write_text(f'game = "pirateer"\n[run]\ngames = 2000\nseed = 1\nchunk_size = 1000\n[[seats]]\n'
                    f'strategy = "{probe}:probe"\nmode = 1.0\n[[seats]]\nstrategy = "random"\n')
    out = tmp_path / "r"
    res = CliRunner().invoke(main, ["run", str(scen), "-o", str(out), "-q"])
    assert res.exit_code == 2, res.output
    assert "the game was not recorded" in res.output
    assert not out.exists(), list(out.rglob("*"))



@pytest.mark.parametrize("handler", ["cli", "python"])
def test_a_stop_signal_while_the_games_part_is_written_leaves_no_file(tmp_path, monkeypatch, handler):
    """A real SIGTERM reaches the main thread while a chunk's games file is written in its
    second thread: the stop waits for that write, removes both halves of the chunk and leaves
    no temporary (the CI failure: ``games/.part-00002.parquet.*.tmp`` after SIGTERM).  With
    the CLI's handler (``cli``) the stop is held to the end of the chunk's writes; with a
    plain handler raising KeyboardInterrupt anywhere (a notebook's) the join waits through it."""
    import contextlib
    import signal
    import time

    from pirate_sim.cli.common import stop_signals

    out = tmp_path / "r"
    real, calls = results.write_table, {"n": 0}

    def slow_games_part(path, table):
        calls["n"] += 1
        if calls["n"] == 2:  # chunk 1: signal the main thread, then write slowly while it stops
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.5)
        return real(path, table)

    def plain(signum, frame):
        raise KeyboardInterrupt

    monkeypatch.setattr(results, "write_table", slow_games_part)
    old = signal.signal(signal.SIGTERM, plain)
    try:
        with stop_signals() if handler == "cli" else contextlib.nullcontext():
            with pytest.raises(KeyboardInterrupt):
                runner.run(_scen(), out)
    finally:
        signal.signal(signal.SIGTERM, old)
    time.sleep(0.7)  # had the stop not waited, the games thread would write now
    assert calls["n"] == 2
    assert not list(out.rglob("*.tmp*")), sorted(out.rglob("*"))
    assert not (out / "games" / "part-00001.parquet").exists()
    assert not (out / "seats" / "part-00001.parquet").exists()
    assert results.read_manifest(out)["chunks_done"] == 1
    monkeypatch.setattr(results, "write_table", real)
    done = runner.run(_scen(), out, resume=True)
    assert done.resumed_from == 1000 and not done.moved_aside
    assert results.verify(out) == []


def test_a_held_stop_is_raised_when_the_block_ends():
    from pirate_sim.cli.common import Interrupted

    with pytest.raises(Interrupted):
        with results.stops_held():
            with results.stops_held():
                assert results.defer_stop(Interrupted(15))
            reached = True  # the inner end raises nothing: the outer block still holds
    assert reached and not results.defer_stop(Interrupted(15))
    with pytest.raises(ValueError):  # the block's own error goes on
        with results.stops_held():
            results.defer_stop(Interrupted(15))
            raise ValueError
    with results.stops_held():
        pass  # nothing held from before
