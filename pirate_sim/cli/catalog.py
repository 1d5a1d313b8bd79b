"""Catalogue commands: the games, scenario files, exact odds."""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.table import Table

from .common import console, esc, fail, load_scenario, set_option


@click.command("games")
def games_cmd():
    """List the games, their rules VERSION and their strategies.

    \b
    Example:
      pirate-sim games
    """
    from ..games import available_games, get_game

    for name in available_games():
        g = get_game(name)
        seats = f"{g.min_seats}" if g.min_seats == g.max_seats else f"{g.min_seats}-{g.max_seats}"
        console.print(f"[bold]{esc(g.name)}[/]  {esc(g.title)}  (rules version {g.version}, {seats} players)")
        t = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
        t.add_column("strategy")
        t.add_column("what it does")
        t.add_column("parameters")
        for s in g.strategies:
            t.add_row(esc(s.name), esc(s.doc.splitlines()[0]), esc(", ".join(p.key for p in s.params) or "-"))
        console.print(t)
        if g.odds_mechanics:
            console.print("  odds mechanics: " + esc(", ".join(g.odds_mechanics)))
        console.print()


# -------------------------------------------------------------------------- scenario


@click.group("scenario")
def scenario_grp():
    """Write and validate scenario files.

    \b
    Example:
      pirate-sim scenario new pirates_peak my.toml
      pirate-sim scenario check my.toml
    """


@scenario_grp.command("new")
@click.argument("game")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--force", is_flag=True, help="Overwrite PATH if it exists.")
def scenario_new(game, path, force):
    """Write a complete, commented scenario for GAME to PATH (every parameter at its default).

    \b
    Example:
      pirate-sim scenario new pirates_peak scenarios/pirates_peak/mine.toml
    """
    from .. import scenario as scen
    from ..games import available_games, get_game

    try:
        g = get_game(game)
    except KeyError:
        fail(f"unknown game {game!r}" + scen._suggest(game, available_games())
             + f"; games: {', '.join(available_games())}")
    p = Path(path)
    if p.exists() and not force:
        fail(f"{p}: already exists; add --force to overwrite it")
    text = scen.default_scenario(g).to_toml()
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    console.print(f"wrote {esc(p)} ({len(g.params)} rules, {len(g.default_seats)} seats)")


@scenario_grp.command("check")
@click.argument("path", type=click.Path(dir_okay=False))
@set_option
def scenario_check(path, overrides):
    """Validate a scenario and print every resolved parameter (defaults marked).

    \b
    Example:
      pirate-sim scenario check scenarios/pirates_peak/default.toml --set rules.squid.escape_total=11
    """
    from .. import scenario as scen

    s = load_scenario(path, overrides)
    title = s.title if s.title.startswith(s.game.title) else f"{s.title} ({s.game.title})"
    t = Table(title=f"{esc(title)}: rules v{s.game.version}, scenario hash {s.hash()}", title_justify="left")
    rows = list(scen.resolved_parameters(s))
    changed = [default is not None and value != default for _k, value, default, _d in rows]
    t.add_column("key")
    t.add_column("value")
    if any(changed):
        t.add_column("default", style="dim")  # filled only where the value differs from it
    t.add_column("meaning", style="dim")
    for (key, value, default, doc), ch in zip(rows, changed):
        cells = [key, scen._toml_value(value)] + ([scen._toml_value(default) if ch else ""] if any(changed) else [])
        t.add_row(*map(esc, cells), esc(doc))
    console.print(t)
    if any(changed):
        console.print(f"{sum(changed)} value(s) differ from the default (the 'default' column shows it)")
    else:
        console.print("every value at its default")
    console.print(f"[green]ok[/]: {esc(path)} is a valid {esc(s.game.title)} scenario with {s.n_seats} seats")



class _OddsCommand(click.Command):
    """``odds GAME --help`` ends with that game's mechanics (all games' without GAME)."""

    def parse_args(self, ctx, args):
        # --help is eager: remember the GAME typed before it, for the help's last section
        ctx.meta["odds_game"] = next((a for a in args if not a.startswith("-")), None)
        return super().parse_args(ctx, args)

    def format_epilog(self, ctx, formatter):
        super().format_epilog(ctx, formatter)
        from ..games import available_games, get_game

        game = ctx.meta.get("odds_game")
        names = [game] if game in available_games() else available_games()
        rows = [(f"{n} {m}", doc) for n in names for m, doc in get_game(n).odds_mechanics.items()]
        with formatter.section("Mechanics"):
            formatter.write_dl(rows)


def _list_mechanics(g) -> None:
    t = Table(title=f"{g.title}: odds mechanics", title_justify="left")
    t.add_column("mechanic")
    t.add_column("what it computes")
    for m, doc in g.odds_mechanics.items():
        t.add_row(m, doc)
    console.print(t)
    console.print(f"[dim]pirate-sim odds {g.name} MECHANIC: exact values beside the kernel's Monte Carlo[/]")


@click.command("odds", cls=_OddsCommand)
@click.argument("game")
@click.argument("mechanic", required=False)
@set_option
@click.option("--samples", type=click.IntRange(min=100), default=1_000_000, show_default=True,
              help="Monte Carlo samples per case.")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def odds_cmd(game, mechanic, overrides, samples, seed, as_json):
    """Exact probabilities of a sub-mechanic beside the game kernel's own Monte Carlo.

    \b
    Without MECHANIC it lists the game's mechanics.

    \b
    Example:
      pirate-sim odds pirates_peak
      pirate-sim odds pirates_peak squid --set rules.squid.escape_total=11
      pirate-sim odds ice_pirates raid --json
    """
    from .. import scenario as scen
    from ..games import available_games, get_game

    try:
        g = get_game(game)
    except KeyError:
        fail(f"unknown game {game!r}" + scen._suggest(game, available_games()))
    if mechanic is None:
        _list_mechanics(g)
        return
    if mechanic not in g.odds_mechanics:
        fail(f"unknown {g.title} mechanic {mechanic!r}" + scen._suggest(mechanic, g.odds_mechanics)
             + f"; one of {', '.join(g.odds_mechanics)}")
    try:
        s = scen.from_dict({"game": g.name}, source="--set", overrides=overrides)
    except scen.ScenarioError as exc:
        fail(str(exc))
    rows = g.odds(mechanic, s.rules, samples, seed)
    if as_json:
        click.echo(json.dumps([{"case": r.case, "exact": r.exact, "estimate": r.estimate, "samples": r.samples,
                                "stderr": r.stderr, "z": r.z} for r in rows], indent=2))
        return
    t = Table(title=esc(f"{g.title}: {mechanic} - {g.odds_mechanics[mechanic]}"), title_justify="left")
    for col, just in (("case", "left"), ("exact", "right"), ("Monte Carlo", "right"), ("z", "right")):
        t.add_column(col, justify=just)
    for r in rows:
        t.add_row(esc(r.case), f"{r.exact:.6f}", f"{r.estimate:.6f}", f"{r.z:+.2f}")
    console.print(t)
    console.print(f"[dim]{samples:,} samples per case; z = (Monte Carlo - exact) / standard error[/]")



COMMANDS = (games_cmd, scenario_grp, odds_cmd)
