"""report: charts and the PDF from a results directory; verify: is a results directory intact."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .common import console, err_console, esc


@click.command("report")
@click.argument("results_dir", type=click.Path(exists=True, file_okay=False))
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False),
              help="Where to write the PNGs and the PDF (default: RESULTS_DIR/report).")
@click.option("--force", is_flag=True, help="Replace an existing report directory (whole, or not at all).")
@click.option("--tournament", "tournament_dir", type=click.Path(file_okay=False),
              help="A tournament directory (pirate-sim tournament) the cover points to (default: the one named "
                   "in RESULTS_DIR/tournament.txt, if any).")
def report_cmd(results_dir, out_dir, force, tournament_dir):
    """Render PNG charts and one PDF from a results directory.

    The run is checked first (every part against the manifest); a damaged or unfinished
    run is refused, naming the part.  The report is written aside and put in place whole.

    \b
    Example:
      pirate-sim report results/pp -o reports/pp
      pirate-sim report results/pp -o reports/pp --tournament results/pp-tournament
    """
    from .. import api

    rd = Path(results_dir)
    out = Path(out_dir) if out_dir else rd / "report"
    with err_console.status("report: reading the run", spinner="dots") as status:
        _pdf, *pngs = api.write_report(rd, out, force=force, tournament=tournament_dir,
                                         progress=lambda text: status.update(f"report: {esc(text)}"))
    console.print(f"wrote {esc(out / 'report.pdf')}")
    console.print(f"and {len(pngs)} charts: {esc(', '.join(p.name for p in pngs))} in {esc(out)}", soft_wrap=True)


@click.command("verify")
@click.argument("results_dir", type=click.Path(exists=True, file_okay=False))
def verify_cmd(results_dir):
    """Check a results directory: every part against the manifest's rows and checksums, the
    scenario hash and seed each part carries, no stray parts.  Exit 0 intact, 1 damaged.

    \b
    Example:
      pirate-sim verify results/pp
    """
    from .. import results

    rd = Path(results_dir)
    from ..meta import plan

    if plan.is_meta_dir(rd):  # a skill ladder or tournament: its plan, then every match's run
        with results.lock_dir(rd, reader=True):
            problems = plan.verify(rd)
        for p in problems:
            click.echo(f"damaged: {p}", err=True)
        if problems:
            click.echo(f"{rd}: {len(problems)} problems; finish or repair it with its command and --resume", err=True)
            sys.exit(1)
        meta = plan.read_meta(rd)
        done = sum(m["done"] for m in meta["matches"])
        console.print(f"ok: {esc(rd)}: {meta['kind']}, {done}/{len(meta['matches'])} matches intact"
                      + ("" if meta.get("complete") else " (unfinished)"))
        return
    if not results.is_results_dir(rd):
        raise results.ResultsError(f"{rd}: not a pirate-sim results directory (no {results.MANIFEST})")
    with results.lock_dir(rd, reader=True):
        problems = results.verify(rd)
        man = results.read_manifest(rd) if not problems else None
    if problems:
        for p in problems:
            click.echo(f"damaged: {p}", err=True)
        try:
            hint = (f"; repair with (damaged chunks are played again, unlisted files moved aside): "
                    f"{results.resume_command(rd, results.read_manifest(rd))}")
        except results.ResultsError:
            hint = "; the manifest itself is unreadable: start the run again with --force"
        click.echo(f"{rd}: {len(problems)} problems{hint}", err=True)
        sys.exit(1)
    if man.get("complete"):
        console.print(f"ok: {esc(rd)}: {man['chunks_done']} chunks intact, complete, {man['games']:,} games")
    else:
        played = min(man["chunks_done"] * man["chunk_size"], man["games"])
        console.print(f"ok: {esc(rd)}: {man['chunks_done']} chunks intact, unfinished: {played:,} of {man['games']:,} "
                      f"games played ({man['chunks_done']}/{man['chunks_total']} chunks); finish with: "
                      f"{esc(results.resume_command(rd, man))}", soft_wrap=True)


COMMANDS = (report_cmd, verify_cmd)
