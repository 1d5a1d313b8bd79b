"""What every command shares: consoles, the one error exit, shared options, scenario loading.

Every command runs inside :class:`CommandGroup`, whose ``main`` is the single error
handler: a :class:`~pirate_sim.errors.UserError` (bad scenario, spec, grid, option,
unusable or damaged results), an OS error (read-only, a path through a file, full disk,
no permission), running out of memory, or a click usage error becomes one escaped line
on stderr and exit 2 - never a traceback.  User text shown through rich is escaped
(``esc``), so ``[red]`` in a path or title is printed, not interpreted, and no console
expands emoji codes (``:skull:`` stays text).
"""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import sys
import threading
import warnings
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape

from ..errors import UserError
from ..interrupts import safe_handler
from ..plotting import GLYPH_WARNING
from ..validate import THREADS, click_type

def make_console(**kwargs) -> Console:
    """A rich console that prints text as typed: no emoji codes (``:skull:`` in a path, a title
    or a syntax hint such as ``a:b:step`` stays text) and no highlighting."""
    return Console(highlight=False, emoji=False, **kwargs)


console = make_console()
err_console = make_console(stderr=True)

EXIT_USAGE = 2  # bad input: scenario, option, metric or grid syntax, unusable output
EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT), as a shell reports it; SIGTERM gives 143
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
KERNEL_THREAD = "pirate-sim-kernel"  # pipeline's producer thread (a kernel that never returns keeps it)


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM in the main thread: both take Ctrl-C's clean-stop path."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


_received: list[int] = []  # the stop signals this command got


def _stop(signum, frame):
    _received.append(signum)
    results = sys.modules.get("pirate_sim.results")  # not imported yet: nothing is being written
    if results is None or not results.defer_stop(Interrupted(signum)):  # a part being committed
        raise Interrupted(signum)  # is finished and undone first (results.stops_held)


_on_signal = safe_handler(_stop)  # never raised inside numba's own callbacks (pirate_sim.interrupts)


def interrupted_code() -> int:
    """128 + the signal that stopped the command (SIGINT when none did: Ctrl-C at a prompt)."""
    return 128 + (_received[-1] if _received else signal.SIGINT)


@contextlib.contextmanager
def stop_signals():
    """SIGINT and SIGTERM stop every command the same way, even where SIGINT came in ignored
    (a background job, a CI step, a pytest-xdist worker: Python keeps an inherited SIG_IGN)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _received.clear()
    old = {sig: signal.signal(sig, _on_signal) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def _kernel_stuck() -> bool:
    return any(t.name == KERNEL_THREAD and t.is_alive() for t in threading.enumerate())


def esc(value) -> str:
    """User text (paths, titles, --set values, labels) for rich output: shown, not interpreted."""
    return escape(str(value))


def one_line(text: str) -> str:
    return " ".join(str(text).split())


def fail(message: str, code: int = EXIT_USAGE):
    if code == EXIT_INTERRUPTED:
        code = interrupted_code()
    err_console.print(f"[bold red]error:[/] {esc(one_line(message))}", soft_wrap=True)
    sys.exit(code)


def error_line(exc: BaseException) -> str | None:
    """The one line a known error is shown as (None: a bug, let its traceback show)."""
    from ..results import os_error_text

    if isinstance(exc, UserError):
        return str(exc)
    if isinstance(exc, OSError):
        return os_error_text(exc)
    if isinstance(exc, MemoryError):
        return "out of memory; use a smaller run.chunk_size or fewer games"
    if isinstance(exc, OverflowError):
        return f"a number is too large: {exc}"
    return None


class CommandGroup(click.Group):
    """The top-level group: runs a command and turns every known error into one line + exit 2."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        with stop_signals():
            try:
                rv = self._main(args, prog_name, complete_var, **extra)
            except SystemExit as exc:
                if _received and _kernel_stuck():
                    # a kernel that never returns (a strategy file in a loop) cannot be joined and
                    # would hold the interpreter's exit: the clean stop is done, leave now
                    sys.stdout.flush()
                    sys.stderr.flush()
                    ahead = sys.modules.get("pirate_sim.ahead")
                    if ahead is not None:  # a compile-ahead helper would outlive the command
                        ahead.end_all()
                    os._exit(exc.code if isinstance(exc.code, int) else interrupted_code())
                raise
        sys.exit(rv if isinstance(rv, int) else 0)

    def _main(self, args, prog_name, complete_var, **extra):
        try:
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message=GLYPH_WARNING, category=UserWarning)
                return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.Abort:  # click's form of Ctrl-C (KeyboardInterrupt) and of EOF at a prompt
            fail("interrupted", code=EXIT_INTERRUPTED)
        except click.ClickException as exc:
            where = exc.ctx.command_path if getattr(exc, "ctx", None) is not None else "pirate-sim"
            hint = f" (see `{where} --help`)" if isinstance(exc, click.UsageError) else ""
            fail(exc.format_message() + hint, code=exc.exit_code)
        except Exception as exc:  # noqa: BLE001 - known kinds become one line; others (bugs) re-raise
            line = error_line(exc)
            if line is None:
                raise
            fail(line)


def shell_command(*words) -> str:
    """A command line that works when pasted (every word quoted as the shell needs)."""
    return " ".join(shlex.quote(str(w)) for w in words)


def set_option(f):
    return click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
                        help="Override a scenario value, e.g. --set rules.squid.escape_total=11 "
                             "or --set seats.1.strategy=racer (repeatable).")(f)


def threads_option(f):
    return click.option("--threads", "-t", type=click_type(THREADS), help="Worker threads (default: all cores).")(f)


def quiet_option(f):
    return click.option("--quiet", "-q", is_flag=True, help="No progress bar.")(f)


def load_scenario(path: str, overrides=(), seed: int | None = None, games: int | None = None):
    """Load and validate a scenario (and compile it, so every error surfaces before any write)."""
    from .. import scenario as scen

    extra = list(overrides)
    if seed is not None:
        extra.append(f"run.seed={seed}")
    if games is not None:
        extra.append(f"run.games={games}")
    try:
        s = scen.load(path, extra)
        s.compile()
    except scen.ScenarioError as exc:
        fail(str(exc))
    say_notes(s.notes)
    return s


def say_notes(notes) -> None:
    """What loading a scenario did on the user's behalf, one line each (stderr), once each."""
    for note in dict.fromkeys(notes):
        err_console.print(f"note: {esc(note)}", soft_wrap=True)


def default_out_dir(s) -> Path:
    stem = Path(s.source).stem if s.source and not s.source.startswith("<") else s.game.name
    return Path("results") / f"{stem}-seed{s.seed}"


def progress(quiet: bool):
    """The progress bar every long command shows (on stderr; off with --quiet)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TextColumn("games"), TimeRemainingColumn(), console=err_console,
                    disable=quiet, transient=True)


def fmt_metric(v: float, name: str, diff: bool = False) -> str:
    """A metric value or difference as compare and sweep print it."""
    from ..metrics import is_proportion

    if v != v:
        return "-"
    if is_proportion(name):
        return f"{100 * v:+.2f}pp" if diff else f"{100 * v:.2f}%"
    return f"{v:+.4g}" if diff else f"{v:.4g}"


def out_console() -> Console:
    """The console for results: a terminal's own width, or wide enough never to cut a number
    when the output goes to a file, a pipe or a CI log."""
    return console if console.is_terminal else make_console(width=10_000)


def cluster_option(f):
    """``--cluster``: play on Dask workers (also from $PIRATE_SIM_CLUSTER)."""
    return click.option("--cluster", "cluster_address", metavar="ADDRESS", default=None,
                        help="Play the games on a Dask cluster: 'local' or 'local:N' (N worker processes here) or a "
                             "scheduler address such as tcp://host:8786 (default: $PIRATE_SIM_CLUSTER, else this "
                             "process's threads). Results are identical. See docs/cluster.md.")(f)


@contextlib.contextmanager
def open_cluster(address: str | None, scenarios=()):
    """The connected, warmed cluster for ``address`` (None: no cluster, Dask not imported)."""
    from ..cluster import resolve_address

    resolved = resolve_address(address)
    if resolved is None:
        yield None
        return
    from ..cluster import connect

    with err_console.status(f"connecting to the cluster {esc(resolved)} and warming its workers"):
        cl = connect(resolved)
        if cl.note:
            err_console.print(f"note: {esc(cl.note)}", soft_wrap=True)
        try:
            cl.prepare(list(scenarios))
        except BaseException:
            cl.close()
            raise
    with cl:
        yield cl
