"""`pirate-sim`: a thin click layer over the library (parse, call, print).

One module per command family; what they share (consoles, the error exit, shared
options, scenario loading, number formatting) is in ``common``.
"""

from __future__ import annotations

import click

from .._version import __version__
from .common import CommandGroup


@click.group(cls=CommandGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="pirate-sim")
def main():
    """Monte Carlo balance analytics for pirate board games.

    \b
    Example:
      pirate-sim scenario new pirates_peak my.toml
      pirate-sim run my.toml --games 100000 -o results/my
      pirate-sim report results/my
    """


def _register() -> None:
    from . import analysis, bench, catalog, learning, meta, play, report, tuning

    for module in (catalog, play, report, bench, analysis, tuning, meta, learning):
        for command in module.COMMANDS:
            main.add_command(command)


_register()

if __name__ == "__main__":
    main()
