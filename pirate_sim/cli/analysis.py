"""Analysis commands: compare, sweep, check."""

from __future__ import annotations

import math
from pathlib import Path

import click
from rich import box
from rich.table import Table

from ..validate import GAMES, PAIRED_GAMES, SEED, click_type

from .common import (EXIT_INTERRUPTED, cluster_option, console, err_console, esc, fail, fmt_metric, load_scenario,
                     open_cluster, out_console, progress, quiet_option, say_notes, set_option, threads_option)

COMPARE_GAMES = 100_000  # default paired games: a few seconds, CI half-widths near 0.1 point
FORMATS = ("table", "markdown", "csv", "json")


# ------------------------------------------------------------------ compare
class DecideType(click.ParamType):
    """--decide METRIC=DIFF, checked by the rule the API's ``decide=`` uses."""

    name = "METRIC=DIFF"

    def convert(self, value, param, ctx):
        from ..validate import Bad, decide_question

        if isinstance(value, tuple):
            return value
        try:
            return decide_question(value)
        except Bad as exc:
            self.fail(str(exc), param, ctx)


@click.command("compare")
@click.argument("scenario_a", metavar="A.toml", type=click.Path(dir_okay=False))
@click.argument("scenario_b", metavar="[B.toml]", required=False, type=click.Path(dir_okay=False))
@set_option
@click.option("--games", "-n", type=click_type(PAIRED_GAMES),
              help=f"Paired games (default: {COMPARE_GAMES:,}, or A's run.games if fewer).")
@click.option("--seed", type=click_type(SEED), help="Master seed of both variants (default: A's run.seed).")
@threads_option
@click.option("--metrics", "metric_patterns", multiple=True, metavar="PATTERN",
              help="Only these metrics (names or globs such as 'win_rate.*'; repeatable).")
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False),
              help="Write compare.json, compare.parquet/.csv, PNG charts and compare.pdf here.")
@click.option("--force", is_flag=True, help="Replace an existing output directory.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
              help="How to print the differences: a table, or markdown / csv / json with every digit.")
@click.option("--decide", "decide", metavar="METRIC=DIFF", type=DecideType(),
              help="Stop once a sequential test decides whether B - A on this proportion is 0 or DIFF "
                   "(e.g. win_rate.seat0=0.02); --games is then the cap.")
@quiet_option
@cluster_option
def compare_cmd(scenario_a, scenario_b, overrides, games, seed, threads, metric_patterns, out_dir, force, fmt,
                decide, quiet, cluster_address):
    """Paired comparison of two variants with common random numbers: B minus A for every metric.

    Give two scenarios, or one scenario and --set values (B = A with the --set values), so a
    difference reads as the effect of the change.  Game k of both variants uses the same
    random stream, so the paired 95% CI of each difference is far narrower than that of two
    independent runs; both are shown.  Many metrics are tested at once: the p-values are
    Holm-adjusted and the output says how many differences to expect by chance.

    \b
    Example:
      pirate-sim compare scenarios/pirates_peak/default.toml --set rules.squid.escape_total=11
      pirate-sim compare a.toml b.toml --games 200000 --metrics 'win_rate.*' -o results/a-vs-b
      pirate-sim compare scenarios/pirates_peak/default.toml --set rules.squid.escape_total=11 \\
          --decide win_rate.seat0=-0.02 --games 1000000
    """
    from .. import api, results

    if scenario_b is None and not overrides:
        fail("compare needs a second scenario B.toml or at least one --set KEY=VALUE for the variant")
    if scenario_b is not None and overrides:
        fail("give either a second scenario B.toml or --set values, not both")
    a = load_scenario(scenario_a, (), seed, games)
    if scenario_b is None:
        b = load_scenario(scenario_a, overrides, seed if seed is not None else a.seed, games)
    else:
        b = load_scenario(scenario_b, (), seed if seed is not None else a.seed, games)
    n = int(games or min(a.run["games"], COMPARE_GAMES))
    if out_dir:
        results.refuse_overlap(out_dir, [scenario_a, scenario_b])  # whatever --force says
    # the output is checked (and staged) before any game is played, and put in place whole at the end
    with open_cluster(cluster_address, [a, b]) as cl, progress(quiet) as prog:
        task = prog.add_task("compare", total=n)
        done = api.compare(a, b, games=n, threads=threads, metrics=list(metric_patterns) or None, out=out_dir,
                           force=force, cluster=cl, progress=lambda d, t: prog.update(task, completed=d, total=t),
                           chart_progress=lambda text: prog.update(task, description=f"compare: {esc(text)}"),
                           decide=decide)
    label_b = " ".join(overrides) if scenario_b is None else b.source
    print_compare(done.result, a.source, label_b, fmt)
    warn_truncated([("A", done.result.acc_a), ("B", done.result.acc_b)])
    if out_dir:
        print_written(done.files, out_dir)


def warn_truncated(named_accumulators) -> None:
    """A warning line (stderr) for each variant or point whose games were mostly cut off."""
    from ..metrics import truncation_warning

    for name, acc in named_accumulators:
        line = truncation_warning(acc)
        if line:
            err_console.print(f"[bold yellow]warning:[/] {esc(name)}: {esc(line)}", soft_wrap=True)


COMPARE_COLUMNS = ("metric", "A", "B", "B - A", "±pair", "±indep", "ratio", "p (Holm)")


def print_written(files, out_dir) -> None:
    """The closing lines of a command that wrote files: where, and which."""
    out = out_console()
    out.print(f"wrote {len(files)} files in {esc(out_dir)}:", soft_wrap=True)
    for f in files:
        out.print(f"  {esc(f)}", soft_wrap=True)


def _compare_cells(r: dict) -> list[str]:
    m = r["metric"]
    ratio = r["half_width_ratio"]
    return [m, fmt_metric(r["value_a"], m), fmt_metric(r["value_b"], m), fmt_metric(r["diff"], m, True),
            fmt_metric(r["half_width"], m).lstrip("+") if r["paired"] else "-",
            fmt_metric(r["indep_half_width"], m).lstrip("+"),
            "-" if (not r["paired"] or ratio != ratio) else f"{ratio:.2f}",
            "-" if r["p_holm"] != r["p_holm"] else f"{r['p_holm']:.3g}"]


def print_compare(res, label_a: str, label_b: str, fmt: str) -> None:
    """The differences as a table (terminal), markdown, csv or json (every digit: for files and CI)."""
    import csv
    import io
    import json

    from ..analysis.compare import ADJUSTMENT, chance_differences

    out = out_console()
    if fmt == "json":
        click.echo(json.dumps({"a": label_a, "b": label_b, "games": res.games, "seed": res.seed,
                               "difference": "B - A", "adjustment": ADJUSTMENT,
                               "expected_by_chance": chance_differences(res.rows), "rows": res.rows,
                               "sequential_test": res.decision},
                              indent=1, default=float))
        return
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=list(res.rows[0]) if res.rows else ["metric"])
        w.writeheader()
        w.writerows(res.rows)
        click.echo(buf.getvalue(), nl=False)
        return
    raw_title = (f"A = {label_a}  vs  B = {label_b}: {res.games:,} paired games, seed {res.seed}; "
             f"B - A with 95% CI half-widths (paired: common random numbers; indep.: as if independent runs)")
    n = sum(1 for r in res.rows if r["p_value"] == r["p_value"])
    chance = (f"{n} metrics tested: about {chance_differences(res.rows):.1f} would show a 95% CI excluding 0 "
              f"by chance alone were nothing changed; p (Holm) = {ADJUSTMENT}-adjusted p-value over all {n}")
    if fmt == "markdown":
        click.echo(f"**{raw_title}**\n")
        click.echo("| " + " | ".join(COMPARE_COLUMNS) + " |")
        click.echo("|" + "|".join(["---"] + ["---:"] * (len(COMPARE_COLUMNS) - 1)) + "|")
        for r in res.rows:
            cells = _compare_cells(r)
            cells[3] += " *" if r["significant_holm"] else (" ." if r["significant"] else "")
            click.echo("| " + " | ".join(cells) + " |")
        click.echo(f"\n{chance}. `*` significant after {ADJUSTMENT}; `.` only before adjustment.")
        return
    t = Table(title=esc(raw_title), title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    for col in COMPARE_COLUMNS:
        t.add_column(col, justify="left" if col == "metric" else "right", no_wrap=True)
    for r in res.rows:
        cells = _compare_cells(r)
        cells[0] = esc(cells[0])
        few = r["paired"] and 0 <= r["discordant"] < 30 and r["half_width"] > 0
        cells[3] += (("[bold red]*[/]" if r["significant_holm"] else "[red].[/]" if r["significant"] else " ")
                     + ("[dim]~[/]" if few else " "))
        t.add_row(*cells)
    out.print(t)
    ps = res.pairing_summary()
    if ps.get("metrics"):
        out.print(f"pairing: paired CI half-width / independent = {ps['median_ratio']:.2f} (median over "
                  f"{ps['metrics']} metrics; range {ps['min_ratio']:.2f}..{ps['max_ratio']:.2f}), i.e. "
                  f"independent runs would need about {ps['equivalent_games_factor_median']:.1f}x the games")
    out.print(f"[dim]* significant after {ADJUSTMENT}'s adjustment; . 95% CI excludes 0 but not after adjustment; "
              "~ fewer than 30 games differ, paired CI approximate; ratio = paired / independent half-width[/]")
    out.print(chance)
    sig = [r["metric"] for r in res.rows if r["significant_holm"]]
    out.print(f"significant after {ADJUSTMENT}: {esc(', '.join(sig)) if sig else 'none'}")
    if res.decision:
        out.print(decision_line(res.decision, res.games), soft_wrap=True)


def decision_line(d: dict, played: int) -> str:
    """compare --decide's answer in one line, with its confidence sequence."""
    e = d["difference"]
    where = (f"decided after {d['games']:,} paired games" if d["outcome"] != "undecided" else
             f"undecided after {d['games']:,} paired games (the cap): more --games decide it")
    return (f"sequential test on {esc(d['metric'])} (B - A = 0 or {d['h1']:+g}; alpha {d['alpha']:g}, beta "
            f"{d['beta']:g}): {esc(d['said'])}, {where}; B - A = {e['value']:+.4f} [{e['lo']:+.4f}, {e['hi']:+.4f}] "
            f"(95% confidence sequence; the other rows are fixed-sample intervals at the {played:,} games played)")


# -------------------------------------------------------------------- sweep
@click.command("sweep")
@click.argument("scenario_path", metavar="SCENARIO", type=click.Path(dir_okay=False))
@click.option("--vary", "varies", multiple=True, required=True, metavar="KEY=VALUES",
              help="A grid axis: KEY=v1,v2,... | KEY=a:b:step (inclusive) | list values "
                   "KEY='[1,1];[3,1]' (repeatable; the grid is the product).")
@set_option
@click.option("--games", "-n", type=click_type(GAMES), help="Games per grid point (default: run.games).")
@click.option("--seed", type=click_type(SEED), help="Master seed of every point (default: run.seed).")
@threads_option
@click.option("--metrics", "metric_patterns", multiple=True, metavar="PATTERN",
              help="Metrics to chart (names or globs; default: win rates, seat_balance, "
                   "first_player_win_rate, length.mean, truncation_rate).")
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False),
              help="Output directory (default: results/<scenario>-sweep).")
@click.option("--resume", is_flag=True, help="Finish an interrupted sweep: finished points are skipped.")
@click.option("--force", is_flag=True, help="Replace an existing output directory.")
@quiet_option
@cluster_option
def sweep_cmd(scenario_path, varies, overrides, games, seed, threads, metric_patterns, out_dir, resume, force,
              quiet, cluster_address):
    """Run a grid of variants of SCENARIO; tidy metrics per point, charts with CI bands, heatmaps.

    Every grid point is a normal results directory under OUT/points/<id>, played with the
    same seed (equal to a plain `run` with the point's --set values). Values of one axis are
    separated by commas (not inside [...] or quotes) or by semicolons.

    \b
    Example:
      pirate-sim sweep scenarios/pirates_peak/default.toml --vary rules.squid.escape_total=9:13:1 -n 50000
      pirate-sim sweep my.toml --vary rules.a=1,2,3 --vary rules.b=0.1:0.5:0.2 -o results/grid
      pirate-sim sweep my.toml --vary 'rules.wind.weights=[1,1,1,1,1,1];[3,1,1,1,1,1]' -o results/wind
      pirate-sim sweep my.toml --vary rules.a=1,2,3 -o results/grid --resume
    """
    from .. import api, metrics
    from .. import scenario as scen
    from ..analysis import sweep as sw
    from ..runner import RunError

    try:
        axes = [sw.parse_vary(v) for v in varies]
        points = sw.build_grid(scenario_path, list(overrides), axes, seed, games)
    except sw.GridError as exc:
        fail(str(exc))
    except scen.ScenarioError as exc:
        fail(str(exc))
    say_notes(n for p in points for n in p.scenario.notes)
    chart_metrics = None
    if metric_patterns:
        from ..analysis.check import available_metrics

        try:
            chart_metrics = list(dict.fromkeys(metrics.resolve(list(metric_patterns),
                                                               available_metrics(points[0].scenario))))
        except KeyError as exc:
            fail(f"--metrics: {exc.args[0]}")
    s0 = points[0].scenario
    out = Path(out_dir) if out_dir else Path("results") / f"{Path(scenario_path).stem}-sweep"
    total = len(points) * s0.run["games"]
    try:
        with open_cluster(cluster_address, [p.scenario for p in points]) as cl, progress(quiet) as prog:
            task = prog.add_task("sweep", total=total)

            def cb(pid, i, n_points, done, tot):
                prog.update(task, completed=i * s0.run["games"] + done, total=total,
                            description=f"sweep {pid} ({i + 1}/{n_points})")

            def charts_cb(text):
                prog.update(task, description=f"sweep charts: {text}")

            res = api.sweep(api.load(scenario_path, *overrides), list(varies), games=games, seed=seed, out=out,
                            threads=threads, metrics=chart_metrics, resume=resume, force=force, cluster=cl,
                            progress=cb, chart_progress=charts_cb).result
    except (sw.SweepError, RunError) as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        if not out.exists():
            fail("interrupted; nothing was written", code=EXIT_INTERRUPTED)
        fail(f"interrupted; finished points are kept in {out}. Finish with the same command plus --resume",
             code=EXIT_INTERRUPTED)
    keys = [k for k, _ in axes]
    shown = chart_metrics or [m for m in ("win_rate.seat0", "seat_balance", "length.mean")
                              if m in set(res.tidy["metric"])]
    t = Table(title=f"{esc(s0.title)}: {len(points)} grid points x {s0.run['games']:,} games, seed {s0.seed}",
              title_justify="left")
    t.add_column("point")
    for k in keys:
        t.add_column(esc(k))
    for m in shown[:6]:
        t.add_column(esc(m), justify="right")
    for p in points:
        sub = res.tidy[res.tidy["point"] == p.id].set_index("metric")
        cells = []
        for m in shown[:6]:
            r = sub.loc[m]
            cells.append(f"{fmt_metric(r['value'], m)} ±{fmt_metric((r['hi'] - r['lo']) / 2, m).lstrip('+')}")
        t.add_row(esc(p.id), *[esc(sw.value_text(p.values[k])) for k in keys], *cells)
    out_console().print(t)
    warn_truncated([(f"point {p.id}", res.accumulators[p.id]) for p in points])
    extra = ""
    if res.skipped:
        extra += f"; {len(res.skipped)} finished points skipped"
    if res.resumed:
        extra += f"; resumed {', '.join(res.resumed)}"
    if res.not_charted:
        out_console().print(f"not charted (0 at every point): {esc(', '.join(res.not_charted))}")
    out_console().print(f"results: {esc(out)} (every point's run under points/<id>/){esc(extra)}")
    print_written(res.files, out)

# -------------------------------------------------------------------- check
@click.command("check")
@click.argument("spec_path", metavar="SPEC.toml", type=click.Path(dir_okay=False))
@click.option("--baseline", "baseline_path", type=click.Path(dir_okay=False),
              help="Also check the spec's [baseline] metrics against this stored baseline (JSON).")
@click.option("--update-baseline", is_flag=True,
              help="Play the scenarios and (re)write the --baseline file instead of checking.")
@click.option("--max-games", type=click_type(GAMES), help="Game budget per scenario (default: spec max_games).")
@click.option("--seed", type=click_type(SEED), help="Master seed of every scenario (default: each scenario's).")
@threads_option
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False),
              help="Where to write verdict.json and junit.xml (default: results/check-<spec>).")
@click.option("--junit", "junit_path", type=click.Path(dir_okay=False), help="JUnit XML path (overrides -o).")
@click.option("--json", "json_path", type=click.Path(dir_okay=False), help="JSON verdict path (overrides -o).")
@quiet_option
@cluster_option
def check_cmd(spec_path, baseline_path, update_baseline, max_games, seed, threads, out_dir, junit_path, json_path,
              quiet, cluster_address):
    """Gate on balance: play until every bound of SPEC.toml is decided, then exit 0/1/3.

    Games are played in looks at geometrically growing sample sizes; each bound is decided
    once its interval lies entirely inside (holds) or outside (violated) its limits.  The
    error budget 1 - confidence is split over bounds x looks (Bonferroni), so the chance of
    any wrong verdict stays below it.  Exit codes: 0 all bounds hold, 1 a bound is violated,
    3 undecided within the game budget, 2 a bad spec or option.  Writes a JSON verdict and
    JUnit XML (one testcase per bound) for CI.

    \b
    Example:
      pirate-sim check scenarios/checks/pirates_peak_balance.toml
      pirate-sim check spec.toml --junit reports/balance.xml --max-games 500000
      pirate-sim check spec.toml --baseline balance-baseline.json --update-baseline
      pirate-sim check spec.toml --baseline balance-baseline.json
    """
    from .. import api, results
    from .. import scenario as scen
    from ..analysis import check as ck

    try:
        spec = ck.load_spec(spec_path, seed)
    except scen.ScenarioError as exc:
        fail(str(exc))
    if update_baseline and not baseline_path:
        fail("--update-baseline needs --baseline FILE (where to write it)")
    out = Path(out_dir) if out_dir else Path("results") / f"check-{Path(spec_path).stem}"
    jp = Path(json_path) if json_path else out / "verdict.json"
    xp = Path(junit_path) if junit_path else out / "junit.xml"
    reads = [spec_path, *(sc.scenario.source for sc in spec.scenarios), None if update_baseline else baseline_path]
    for target, what in (((Path(baseline_path), "--baseline"),) if update_baseline else ((jp, "--json"), (xp, "--junit"))):
        results.refuse_overlap(target, [r for r in reads if r and not str(r).startswith("<")], what=what)
        results.check_writable(target)  # before any game is played

    with open_cluster(cluster_address, [sc.scenario for sc in spec.scenarios]) as cl, progress(quiet) as prog:
        task = prog.add_task("check", total=None)

        def cb(name, done, tot):
            prog.update(task, completed=done, total=tot, description=f"check {name}")

        if update_baseline:
            data = api.check(spec_path, baseline=baseline_path, update_baseline=True, max_games=max_games, seed=seed,
                             threads=threads, cluster=cl, progress=cb).result
            prog.stop()
            for name, d in data["scenarios"].items():
                console.print(f"baseline {esc(name)}: {d['games']:,} games, {len(d['metrics'])} metrics, hash {d['hash']}")
            console.print(f"wrote {esc(baseline_path)}")
            return
        res = api.check(spec_path, baseline=baseline_path, max_games=max_games, seed=seed, threads=threads,
                        json=jp, junit=xp, cluster=cl, progress=cb).result  # writes the verdict files
    t = Table(title=f"{esc(spec.title)}: per-interval confidence {100 * res.per_interval_confidence:.4g}% "
                    f"({100 * spec.confidence:g}% overall), looks at {', '.join(f'{x:,}' for x in res.looks)} games",
              title_justify="left")
    for col, j in (("scenario", "left"), ("bound", "left"), ("estimate", "right"), ("interval", "right"),
                   ("games", "right"), ("verdict", "left")):
        # a metric name is never cut: cells wrap (a long name folds) in a terminal, widen in a pipe or file
        t.add_column(col, justify=j, overflow="fold")
    style = {"holds": "[green]holds[/]", "violated": "[bold red]VIOLATED[/]", "undecided": "[yellow]undecided[/]"}
    for b in res.bounds:
        e = b.estimate or {}
        v = e.get("value", math.nan)
        t.add_row(esc(b.scenario), esc(b.label), f"{v:.5g}", f"{e.get('lo', math.nan):.5g} .. {e.get('hi', math.nan):.5g}",
                  f"{b.games:,}", style[b.verdict])
    out_console().print(t)
    word = {0: "[green]PASS[/]: every bound holds", 1: "[bold red]FAIL[/]: a bound is violated",
            3: "[yellow]UNDECIDED[/]: some bounds were not decided within the budget "
               "(raise max_games or loosen the bound)"}[res.exit_code]
    console.print(f"{word}  (exit {res.exit_code}; {esc(jp)}, {esc(xp)})")
    raise SystemExit(res.exit_code)


COMMANDS = (compare_cmd, sweep_cmd, check_cmd)
