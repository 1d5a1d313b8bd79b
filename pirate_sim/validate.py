"""The checks of a command's arguments, shared by the Python API and the CLI's options.

One rule per kind of argument (a game count, a seed, a thread count, a precision...), so
``ps.run(games=0)`` and ``pirate-sim run -n 0`` are refused by the same code with the same
words: the API raises ``APIError("games: <problem>")``, the CLI's option (``click_type``)
prints ``Invalid value for '--games' / '-n': <problem>``.  Light on purpose (no numpy,
no click until an option is built): ``import pirate_sim`` and the CLI load it.
"""

from __future__ import annotations

import numbers
import os
from pathlib import Path
from typing import Any, Callable

from .errors import UserError

MAX_GAMES = 10**12  # run.games' maximum (scenario.RUN_PARAMS uses both)
MAX_SEED = 2**63 - 1  # run.seed's maximum: game indices and seeds are int64 in the kernels


class APIError(UserError, ValueError):
    """A call the API cannot honour (an in-memory run too large, a bad argument); one line."""


class Bad(Exception):
    """What is wrong with a value, without the argument's name (each caller adds its own)."""


class Rule:
    """A kind of number: ``check`` an API value, ``parse`` the CLI's text; the same words for both."""

    def expected(self) -> str:
        raise NotImplementedError

    def describe(self) -> str:
        """The range as click's --help shows it (``1<=x<=20``)."""
        raise NotImplementedError

    def accept(self, value: Any) -> Any:
        """The value normalised (int, float), or None if it is not one of this rule's."""
        raise NotImplementedError

    def convert(self, text: str) -> Any:
        raise NotImplementedError

    def check(self, value: Any, shown: str | None = None) -> Any:
        got = self.accept(value)
        if got is None:
            raise Bad(f"expected {self.expected()}, got {shown or repr(value)}")
        return got

    def parse(self, text: str) -> Any:
        """The CLI's text: a literal of the rule's kind, then :meth:`check` (shown as typed)."""
        try:
            value = self.convert(text)
        except ValueError:
            raise Bad(f"expected {self.expected()}, got {text!r}") from None
        return self.check(value, text)

    def __call__(self, value: Any, name: str, default: Any = None) -> Any:
        """The checked value of API argument ``name``; None gives ``default``."""
        return default if value is None else _named(name, self.check, value)


class Whole(Rule):
    """A whole number in [lo, hi]; bools, floats and strings are refused, not rounded or parsed."""

    def __init__(self, lo: int, hi: int | None = None, hi_text: str | None = None):
        self.lo, self.hi, self.hi_text = lo, hi, hi_text or str(hi)

    def expected(self) -> str:
        return f"a whole number >= {self.lo}" if self.hi is None else f"a whole number from {self.lo} to {self.hi_text}"

    def describe(self) -> str:
        return f"x>={self.lo}" if self.hi is None else f"{self.lo}<=x<={self.hi_text}"

    def accept(self, value: Any) -> int | None:
        if (isinstance(value, numbers.Integral) and not isinstance(value, bool) and value >= self.lo
                and (self.hi is None or value <= self.hi)):
            return int(value)
        return None

    convert = staticmethod(int)  # "2.5" and "x" are refused, not rounded


class Number(Rule):
    """A finite real number between lo and hi, each end open or closed."""

    def __init__(self, lo: float, hi: float, lo_open: bool = False, hi_open: bool = False):
        self.lo, self.hi, self.lo_open, self.hi_open = lo, hi, lo_open, hi_open

    def expected(self) -> str:
        return (f"a number {'above' if self.lo_open else 'at least'} {self.lo:g} and "
                f"{'below' if self.hi_open else 'at most'} {self.hi:g}")

    def describe(self) -> str:
        return f"{self.lo:g}{'<' if self.lo_open else '<='}x{'<' if self.hi_open else '<='}{self.hi:g}"

    def accept(self, value: Any) -> float | None:
        if not isinstance(value, numbers.Real) or isinstance(value, bool):
            return None
        v = float(value)
        inside = (self.lo < v if self.lo_open else self.lo <= v) and (v < self.hi if self.hi_open else v <= self.hi)
        return v if inside else None  # nan and inf are never inside

    convert = staticmethod(float)


# The rules, named by what they count; the CLI's options and the API's arguments use these.
GAMES = Whole(1, MAX_GAMES, "10**12")  # games of a run, a grid point, a match, a ladder step
PAIRED_GAMES = Whole(2, MAX_GAMES, "10**12")  # compare: a paired interval needs two games
POINT_GAMES = Whole(10, MAX_GAMES, "10**12")  # sensitivity and tune: games per design point / trial
SEED = Whole(0, MAX_SEED, "2**63 - 1")
GAME_INDEX = Whole(0, MAX_SEED, "2**63 - 1")  # trace: game k of a run
THREADS = Whole(1)
TRIALS = Whole(2)  # tune
POINTS = Whole(2)  # sensitivity: Morris trajectories / Sobol base samples
BOOTSTRAP = Whole(20)  # replicates behind the meta-game's intervals
BUDGET = Whole(1)  # rollouts per decision (skill's base budget)
STEPS = Whole(1, 20)  # skill: doublings of the budget
BYTES = Whole(1)  # max_memory
PRECISION = Number(1e-5, 0.5)  # a win rate's 95% CI half-width
BEAT = Number(0.5, 1.0, lo_open=True, hi_open=True)  # skill: the win rate that counts as beating
DIFFERENCE = Number(-1.0, 1.0, lo_open=True, hi_open=True)  # compare --decide: B - A of a proportion


def _named(name: str, check: Callable[[Any], Any], value: Any) -> Any:
    try:
        return check(value)
    except Bad as exc:
        raise APIError(f"{name}: {exc}") from None


def path(value: Any, name: str = "out", optional: bool = True) -> Path | None:
    """A file or directory argument: a str or os.PathLike (not empty); None where optional."""
    if value is None and optional:
        return None
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str) or not value:
        raise APIError(f"{name}: expected a path (a str or pathlib.Path), got {value!r}")
    return Path(value)


def flag(value: Any, name: str) -> bool:
    """``force``, ``resume``...: True or False (a string such as "no" would read as True)."""
    if isinstance(value, bool) or type(value).__name__ in ("bool", "bool_"):  # numpy's bool too
        return bool(value)
    raise APIError(f"{name}: expected True or False, got {value!r}")


def callback(value: Any, name: str) -> Callable | None:
    if value is None or callable(value):
        return value
    raise APIError(f"{name}: expected a function or None, got {value!r}")


def progress(value: Any) -> Any:
    """``progress``: True (a bar), False (none) or a function."""
    if isinstance(value, bool) or callable(value):
        return value
    raise APIError(f"progress: expected True, False or a function, got {value!r}")


def split_names(value: Any, none_word: str | None = None) -> list[str] | None:
    """Names as a list or tuple of strings, or one comma-separated string (``"racer,expert"``,
    as the CLI's ``-s A,B`` takes them), stripped, empty ones dropped; ``none_word`` alone
    (skill's ``--place none``) is the empty list.  None stays None (the default)."""
    if value is None:
        return None
    if isinstance(value, str):
        if none_word is not None and value.strip() == none_word:
            return []
        return [x.strip() for x in value.split(",") if x.strip()]
    if isinstance(value, (list, tuple)) and all(isinstance(x, str) for x in value):
        return [x.strip() for x in value if x.strip()]
    raise Bad(f"expected names as a list of strings or one comma-separated string, got {value!r}")


def names(value: Any, name: str, none_word: str | None = None) -> list[str] | None:
    """:func:`split_names` for API argument ``name``."""
    return _named(name, lambda v: split_names(v, none_word), value)


def decide_question(value: Any) -> tuple[str, float] | None:
    """compare's sequential question "does B differ from A by ``diff`` on ``metric``":
    ``"metric=diff"`` (the CLI's --decide) or ``(metric, diff)``, diff a number in (-1, 1)
    other than 0 (a difference of two proportions, :data:`DIFFERENCE`).  None stays None."""
    if value is None:
        return None
    if isinstance(value, str):
        metric, eq, text = value.partition("=")
        if not eq or not metric.strip():
            raise Bad(f"expected METRIC=DIFF such as win_rate.seat0=0.02, got {value!r}")
        try:
            diff = float(text)
        except ValueError:
            raise Bad(f"expected a number after '=' (a difference such as 0.02 or -0.05), got {text!r}") from None
        value = (metric.strip(), diff)
    if not (isinstance(value, (tuple, list)) and len(value) == 2 and isinstance(value[0], str)
            and isinstance(value[1], (int, float)) and not isinstance(value[1], bool)):
        raise Bad(f"expected (metric, difference) or 'metric=difference', got {value!r}")
    metric, diff = value[0], DIFFERENCE.accept(value[1])
    if diff is None or diff == 0.0:
        raise Bad(f"the difference to decide must lie in (-1, 1) and not be 0 (B - A of a proportion), got {value[1]}")
    return metric, diff


def decide(value: Any, name: str = "decide") -> tuple[str, float] | None:
    return _named(name, decide_question, value)


def click_type(rule: Rule):
    """The CLI option type of ``rule``: the same check and words as the API's argument (a click
    range type, so --help still shows the range)."""
    import click

    whole = isinstance(rule, Whole)

    class _Type(click.IntRange if whole else click.FloatRange):
        def convert(self, value, param, ctx):
            try:
                return rule.check(value) if not isinstance(value, str) else rule.parse(value)
            except Bad as exc:
                self.fail(str(exc), param, ctx)

        def _describe_range(self) -> str:
            return rule.describe()

    if whole:
        return _Type(min=rule.lo, max=rule.hi)
    return _Type(min=rule.lo, max=rule.hi, min_open=rule.lo_open, max_open=rule.hi_open)


# The API's arguments that mean the same in every function, by name.
_BY_NAME: dict[str, Callable[[Any, str], Any]] = {
    "seed": SEED, "threads": THREADS, "precision": PRECISION, "bootstrap": BOOTSTRAP, "max_memory": BYTES,
    "out": path, "baseline": path, "junit": path, "json": path, "tournament": path,
    "force": flag, "resume": flag, "update_baseline": flag, "estimate_only": flag,
    "on_estimate": callback, "chart_progress": callback, "progress": lambda value, _name: progress(value),
}


def checked(**arguments: Any) -> list[Any]:
    """Each argument checked by the rule of its name (``seed``, ``threads``, ``out``, ``force``...),
    in the order given: ``seed, out = checked(seed=seed, out=out)``."""
    return [_BY_NAME[name](value, name) for name, value in arguments.items()]
