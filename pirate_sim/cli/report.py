"""report: charts and the PDF from a results directory."""

from __future__ import annotations

from pathlib import Path

import click

from .common import console, fail


@click.command("report")
@click.argument("results_dir", type=click.Path(exists=True, file_okay=False))
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False),
              help="Where to write the PNGs and the PDF (default: RESULTS_DIR/report).")
@click.option("--force", is_flag=True, help="Replace an existing report directory.")
def report_cmd(results_dir, out_dir, force):
    """Render PNG charts and one PDF from a results directory.

    \b
    Example:
      pirate-sim report results/pp -o reports/pp
    """
    from .. import results
    from ..report import build_report

    rd = Path(results_dir)
    if not results.is_results_dir(rd):
        fail(f"{rd}: not a pirate-sim results directory (no manifest.json)")
    man = results.read_manifest(rd)
    if not man.get("complete"):
        fail(f"{rd}: the run is unfinished ({man['chunks_done']}/{man['chunks_total']} chunks); finish it with --resume")
    out = Path(out_dir) if out_dir else rd / "report"
    if out.exists() and any(out.iterdir()) and not force:
        fail(f"{out}: already exists; add --force to replace it")
    from .common import err_console

    with err_console.status("report: reading the run", spinner="dots") as status:
        pdf, pngs = build_report(rd, out, progress=lambda text: status.update(f"report: {text}"))
    console.print(f"wrote {pdf}")
    console.print(f"and {len(pngs)} charts: {', '.join(p.name for p in pngs)} in {out}", soft_wrap=True)


COMMANDS = (report_cmd,)
