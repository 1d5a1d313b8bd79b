"""Strategies of one's own: a designer's Python function, compiled by numba, played at kernel speed.

A scenario seat names ``strategy = "my_players.py:careful_raider"`` (the path relative to
the scenario file).  The function is called at the seat's decisions with

* ``view``: int32[:], a fresh copy of what the seat can know (the layout of each game is
  in docs/strategies.md; built by the game's ``user_view_nb``),
* ``options``: int32[:] or int32[:, :], a copy of the legal options (the same list the
  built-in players and ``search`` choose from),
* ``params``: float64[:], read-only, the seat's parameter values in ``PARAMS`` order,
* optionally ``rng``: uint64[:], a private stream (``pirate_sim.rng.rand_below_nb``),
  derived from the game's stream without advancing it,
* optionally ``board``: a NamedTuple of read-only arrays (the game's public static tables),

and returns the index of the option it takes.  It never receives the game's state, so
reading hidden state is impossible by construction; read-only arrays make writing to the
shared ones a compile error, and the function is compiled with bounds checking, so an index
outside a view raises instead of reading beside it.

numba cannot pass a jitted function into a ``cache=True`` kernel, so the game's engine
(``pirate_sim/engine_template.py``, compiled once per package like every kernel) calls each
function by address through a small C-callable wrapper generated per function
(pirate_sim/user_abi.py; seconds to compile).  The user file's copy and its wrapper live in
the cache directory (:func:`cache_dir`), named by SHA-256; numba caches their machine code in
the digest-keyed folder of pirate_sim/_cache.py.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import inspect
import os
import re
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from . import _cache
from .errors import UserError

ENV_CACHE = "PIRATE_SIM_CACHE"
PARAMS_NAME = "PARAMS"  # the user file's dict: function name -> {parameter: default}
MAX_PARAMS = 64  # parameters one user function may declare (the kernel's parameter row width)
SPEC_RE = re.compile(r"^(?P<file>.+\.py):(?P<func>[A-Za-z_][A-Za-z0-9_]*)$")
ROLLOUT_KEY = "rollout"  # the search parameter that may name a strategy file (games with ``user_rollout``)
ROLLOUT_PLAYER = "rollout_player"  # a search seat's resolved learned rollout player (rollout = "learned")
ROLLOUT_PLAYER_KEYS = ("weights", "allow_other_rules")  # what a search seat says of it (pirate_sim.learned's keys)
# What a strategy file's wrapper returns when the function raised (pirate_sim/user_abi.py): far
# below any option index, so the kernel's ``k < 0 or k >= n`` check catches it.
RAISED = -(1 << 62)
ROLLOUT_ERR = 1 << 20  # err[0] = ROLLOUT_ERR + 1 + dispatch index: the illegal answer came inside a rollout


class UserStrategyError(UserError, ValueError):
    """A strategy file that cannot be used: one line naming the file, the function and why."""


def is_spec(name: Any) -> bool:
    """Does a seat's ``strategy`` value name a function in a file (``file.py:function``)?"""
    return isinstance(name, str) and SPEC_RE.match(name) is not None


def cache_dir() -> Path:
    """Where generated modules and numba's machine code for them go: $PIRATE_SIM_CACHE, else
    $XDG_CACHE_HOME/pirate-sim/strategies, else ~/.cache/pirate-sim/strategies."""
    d = Path(os.environ[ENV_CACHE]) if os.environ.get(ENV_CACHE) else _cache.root() / "strategies"
    d.mkdir(parents=True, exist_ok=True)
    return d


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class UserStrategy:
    """One ``file.py:function`` of a scenario, loaded."""

    spec: str  # as the scenario wrote it
    func_name: str
    source: str  # the file's text
    sha256: str  # of ``source``
    path: str  # the file read ("" when the source came with a cluster task)
    params: dict[str, float]  # PARAMS[func_name], in order
    n_args: int  # 3 (view, options, params), 4 (+ rng) or 5 (+ board)
    module_name: str = ""
    py_func: Any = None
    dispatcher: Any = None

    @property
    def module(self) -> types.ModuleType | None:
        """The file's loaded module (its functions jitted; its constants, such as ``PARAMS``), or
        None where this process has not loaded it."""
        return sys.modules.get(self.module_name)

    @property
    def identity(self) -> str:
        """What the scenario hash counts for the seat: the file's content and the function."""
        return f"file:{self.sha256}:{self.func_name}"

    @property
    def label(self) -> str:
        return f"{Path(self.path or self.spec.rsplit(':', 1)[0]).name}:{self.func_name}"

    def fail(self, why: str) -> UserStrategyError:
        return UserStrategyError(f"{self.path or self.spec}: {self.func_name}: {why}")


_LOADED: dict[tuple[str, str], UserStrategy] = {}  # (sha256, function) -> loaded, per process


def _write_if_changed(path: Path, text: str) -> None:
    """Write atomically unless the file already holds ``text`` (several processes may race)."""
    if path.exists():
        try:
            if path.read_text(encoding="utf-8") == text:
                return
        except OSError:
            pass
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _import_file(name: str, path: Path) -> types.ModuleType:
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)
    except BaseException:
        del sys.modules[name]
        raise
    return mod


ALLOWED_IMPORTS = ("numpy", "math", "numba", "pirate_sim")  # and __future__ (it runs nothing)
TOP_LEVEL = ("imports, PARAMS = {...}, constants (NAME = a literal), function definitions and docstrings")


def _literal(node: ast.AST) -> bool:
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def _root(node: ast.AST) -> str | None:
    """``numba`` of ``numba.njit``, ``njit`` of ``njit``: the name an attribute chain starts from."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _function_problem(f: ast.FunctionDef, numba_names: set[str]) -> str | None:
    """What of a def runs at import time beyond defining it: decorators (numba's only), defaults,
    annotations."""
    for d in f.decorator_list:
        call = d if isinstance(d, ast.Call) else None
        target = call.func if call else d
        if _root(target) not in numba_names or (call and not all(
                _literal(a) for a in [*call.args, *(k.value for k in call.keywords)])):
            return (f"line {d.lineno}: decorator {ast.unparse(d)} of {f.name} is not allowed; a decorator is "
                    f"numba's (njit, or njit(...) with literal arguments)")
    a = f.args
    for node in [*a.defaults, *(x for x in a.kw_defaults if x is not None)]:
        if not _literal(node):
            return f"line {node.lineno}: default value {ast.unparse(node)} of {f.name} is not allowed; only literals"
    annotations = [getattr(x, "annotation", None) for x in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]]
    for ann in [*annotations, f.returns]:
        if ann is not None and any(isinstance(n, ast.Call) for n in ast.walk(ann)):
            return f"line {ann.lineno}: annotation {ast.unparse(ann)} of {f.name} is not allowed (it calls)"
    return None


def source_problem(tree: ast.Module) -> str | None:
    """Why a strategy file may not be imported (``line N: ...``), or None: checked on its syntax
    tree before any of it runs, so an ``import os`` or a top-level call is refused, not run.
    Catches mistakes; it is no sandbox (docs/strategies.md: a strategy file is trusted code)."""
    numba_names: set[str] = set()
    for node in ast.walk(tree):  # imports anywhere, function bodies included
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if isinstance(node, ast.ImportFrom) and node.level:
                return (f"line {node.lineno}: a relative import is not allowed; the file is loaded from a copy "
                        f"and may import only {', '.join(ALLOWED_IMPORTS)}")
            mods = [node.module] if isinstance(node, ast.ImportFrom) else [x.name for x in node.names]
            for m in mods:
                if m.split(".")[0] not in ALLOWED_IMPORTS + ("__future__",):
                    return (f"line {node.lineno}: import of {m} is not allowed; a strategy file may import only "
                            f"{', '.join(ALLOWED_IMPORTS)}")
            if node in tree.body:  # the names a decorator may start from: numba's
                whole = isinstance(node, ast.ImportFrom) and node.module.split(".")[0] == "numba"
                numba_names |= {(x.asname or x.name).split(".")[0] for x in node.names
                                if whole or (isinstance(node, ast.Import) and x.name.split(".")[0] == "numba")}
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            continue  # a docstring
        if isinstance(node, ast.FunctionDef):
            why = _function_problem(node, numba_names)
            if why:
                return why
            continue
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if _literal(node.value):
                continue
            return (f"line {node.lineno}: {node.targets[0].id} = {ast.unparse(node.value)[:60]} is not allowed; "
                    f"a top-level value is a literal (numbers, strings, tuples, dicts of them)")
        what = {ast.Expr: "expression", ast.ClassDef: "class definition", ast.AsyncFunctionDef: "async function",
                ast.If: "if statement", ast.For: "for loop", ast.While: "while loop", ast.With: "with statement",
                ast.Try: "try statement"}.get(type(node), f"{type(node).__name__.lower()} statement")
        return f"line {node.lineno}: a top-level {what} is not allowed; the top level holds only {TOP_LEVEL}"
    return None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    # numba's typing errors open with a banner line; the first informative line follows it
    for ln in lines:
        if ln.startswith(("Failed in nopython", "Failed in object", "- Resolution failure")):
            continue
        if ln.startswith("No implementation of function") or not ln.startswith(("During:", "File ", "^")):
            return ln[:300]
    return (lines[0] if lines else type(exc).__name__)[:300]


def load(spec: str, base_dir: Path | None = None, source: str | None = None,
         expect_sha: str | None = None) -> UserStrategy:
    """Load ``file.py:function``: read the file (relative to ``base_dir``) or take ``source``
    (a cluster worker's copy, checked against ``expect_sha``), check its syntax tree
    (:func:`source_problem`), import a copy named by its SHA-256 from the cache directory, compile every top-level function of it lazily with
    numba and check the function and its ``PARAMS``."""
    m = SPEC_RE.match(spec)
    if m is None:
        raise UserStrategyError(f"{spec}: expected file.py:function")
    file, func = m.group("file"), m.group("func")
    path = Path(file)
    if source is None:
        if not path.is_absolute():
            path = ((base_dir or Path.cwd()) / path).resolve()
        if not path.is_file():
            raise UserStrategyError(f"{path}: {func}: strategy file not found")
        try:
            source = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UserStrategyError(f"{path}: {func}: cannot read it ({exc})") from None
        shown = str(path)
    else:
        shown = ""
    sha = sha256_text(source)
    if expect_sha is not None and sha != expect_sha:
        raise UserStrategyError(f"{spec}: the source received has SHA-256 {sha[:16]}, the client's {expect_sha[:16]}")
    key = (sha, func)
    hit = _LOADED.get(key)
    if hit is not None:
        return UserStrategy(spec, func, source, sha, shown or hit.path, hit.params, hit.n_args, hit.module_name,
                            hit.py_func, hit.dispatcher)
    u = UserStrategy(spec, func, source, sha, shown, {}, 0)
    try:
        tree = ast.parse(source)
        why = source_problem(tree)
    except SyntaxError as exc:
        raise u.fail(f"syntax error at line {exc.lineno}: {exc.msg}") from None
    if why:
        raise u.fail(why)  # before the copy is written or any of the file runs
    name = f"pirate_sim_user_{sha[:20]}"
    copy = cache_dir() / f"{name}.py"
    _write_if_changed(copy, source)
    try:
        mod = _import_file(name, copy)
    except Exception as exc:  # noqa: BLE001 - the user's module raised while importing
        raise u.fail(f"importing the file raised {type(exc).__name__}: {_first_line(exc)}") from None
    _jit_module(mod, tree)
    obj = getattr(mod, func, None)
    if obj is None:
        names = [n for n, v in vars(mod).items() if _is_jitted(v) and v.py_func.__module__ == name]
        raise u.fail("no such function in the file" + (f"; it has {', '.join(names)}" if names else ""))
    if not _is_jitted(obj):
        raise u.fail(f"not a function (a {type(obj).__name__})")
    py = obj.py_func
    sig = inspect.signature(py)
    pos = [p for p in sig.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(pos) != len(sig.parameters) or not 3 <= len(pos) <= 5 or any(p.default is not p.empty for p in pos):
        raise u.fail(f"wrong signature {func}{sig}: expected (view, options, params[, rng[, board]])")
    u.n_args = len(pos)
    u.params = _params_of(u, getattr(mod, PARAMS_NAME, {}))
    u.module_name, u.py_func, u.dispatcher = name, py, obj
    _LOADED[key] = u
    return u


def _is_jitted(v) -> bool:
    return hasattr(v, "py_func") and hasattr(v, "compile")


CACHEABLE = "_pirate_sim_cacheable"  # a jitted user module's flag: False where numba may not cache it


def _jit_module(mod: types.ModuleType, tree: ast.Module) -> None:
    """Compile every plain function defined in the module (so that helpers it calls are
    compiled too), with bounds checking; functions it decorated itself stay as they are.
    ``tree``: the module's syntax tree.

    Each is compiled inline="always" (numba inlines it where it is called: into its callers, and
    the function a seat names into its wrapper's ``_call``), except a function that can call
    itself: an out-of-line call costs a call's worth of its arrays each time (``board`` alone is
    nine), which made helper calls the larger part of a decision's cost (docs/strategies.md,
    "Speed").  A file with a ``try`` anywhere is compiled as it was, nothing inlined: an
    exception raised in inlined code inside a ``try`` can escape its ``except`` (numba 0.68;
    tests/test_user_strategies.py).

    A module with a recursive function is compiled in every process, not cached (its wrapper
    too: :data:`CACHEABLE`): numba's cached code of a recursive function refers to itself by a
    symbol that a later process cannot resolve (``LLVM ERROR: Symbol not found``: the process
    aborts)."""
    from numba import njit

    plain = {n: v for n, v in vars(mod).items() if isinstance(v, types.FunctionType) and v.__module__ == mod.__name__}
    loops = recursive_functions(tree, set(plain))
    out_of_line = set(plain) if any(isinstance(x, ast.Try) for x in ast.walk(tree)) else loops
    cache = not loops
    setattr(mod, CACHEABLE, cache)
    for n, v in plain.items():
        setattr(mod, n, njit(cache=cache, boundscheck=True, inline="never" if n in out_of_line else "always")(v))


def recursive_functions(tree: ast.Module, names: set[str]) -> set[str]:
    """The module-level functions among ``names`` that can call themselves, directly or through
    others of ``names`` (calls by name; numba cannot inline such a function into itself)."""
    calls = {node.name: {c.func.id for c in ast.walk(node)
                         if isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id in names}
             for node in tree.body if isinstance(node, ast.FunctionDef) and node.name in names}
    out = set()
    for n, first in calls.items():
        seen, todo = set(), list(first)
        while todo:
            m = todo.pop()
            if m == n:
                out.add(n)
                break
            if m not in seen:
                seen.add(m)
                todo.extend(calls.get(m, ()))
    return out


def _params_of(u: UserStrategy, table: Any) -> dict[str, float]:
    if not isinstance(table, dict):
        raise u.fail(f"{PARAMS_NAME} must be a dict of function name -> {{parameter: default}}")
    mine = table.get(u.func_name, {})
    if not isinstance(mine, dict):
        raise u.fail(f"{PARAMS_NAME}[{u.func_name!r}] must be a dict of parameter -> default number")
    if len(mine) > MAX_PARAMS:
        raise u.fail(f"{len(mine)} parameters, at most {MAX_PARAMS}")
    out = {}
    for k, v in mine.items():
        if not isinstance(k, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", k) or k == "strategy":
            raise u.fail(f"{PARAMS_NAME}: bad parameter name {k!r}")
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not np.isfinite(v):
            raise u.fail(f"{PARAMS_NAME}: parameter {k!r} default must be a finite number, got {v!r}")
        out[k] = float(v)
    return out


def _compile_error(u: UserStrategy, exc: BaseException) -> UserStrategyError:
    """The one-line error of a function numba could not compile for the game's arguments: the
    type it returns where that is not an index (``user_abi.must_be_index``), else numba's first
    informative line."""
    from .user_abi import NOT_AN_INDEX

    m = re.search(re.escape(NOT_AN_INDEX).replace(r"\{\}", r"(.+?)"), str(exc))
    if m:
        return u.fail(NOT_AN_INDEX.format(m.group(1)))
    return u.fail(f"numba cannot compile it: {_first_line(exc)}")


# ------------------------------------------------------------------ the C-callable wrappers
def compile_calls(game: str, users: list[UserStrategy], arg_types: tuple, board) -> tuple:
    """The :func:`~pirate_sim.user_abi.user_calls` tuple of ``users`` (dispatch index i = users[i]) for a
    game whose user kernel passes arrays of ``arg_types`` (view, options, params, rng) and
    ``board``: one cached cfunc wrapper per function (pirate_sim/user_abi.py), compiled in
    seconds; the game's kernel itself is compiled once per package, whatever the files."""
    from numba import typeof

    from . import compiling
    from .user_abi import user_calls, wrapper_source

    board_type = typeof(board)
    d = cache_dir()
    if str(d) not in sys.path:
        sys.path.insert(0, str(d))  # a wrapper imports its user module by name
    addrs = np.zeros(max(len(users), 1), np.int64)
    for i, u in enumerate(users):
        if u.module_name not in sys.modules:  # a fresh process imports the user copy first (jitted)
            _import_file(u.module_name, d / f"{u.module_name}.py")  # the copy load() wrote of u.source
            _jit_module(u.module, ast.parse(u.source))
        text = wrapper_source(u.module_name, u.func_name, u.n_args, tuple(arg_types), board_type,
                              getattr(u.module, CACHEABLE, True))
        key = sha256_text("\n".join([_cache.source_digest(), game, u.sha256, text]))[:20]
        name = f"pirate_sim_call_{key}"
        path = d / f"{name}.py"
        _write_if_changed(path, text)
        compiling.name_module(name, f"strategy file {u.label}")
        try:  # compiling the wrapper types the function for these arguments: its errors are the file's
            mod = _import_file(name, path)
        except Exception as exc:  # noqa: BLE001 - numba's typing and lowering errors
            raise _compile_error(u, exc) from None
        addrs[i] = mod.wrapper.address
    addrs.setflags(write=False)
    return user_calls(addrs, board)


def plan(seats: list[dict], users: dict[str, UserStrategy]) -> tuple[list[UserStrategy], np.ndarray, np.ndarray]:
    """(distinct user functions in dispatch order, int32[entries] dispatch index or -1,
    read-only float64[entries, width] parameters) for the scenario's seat entries."""
    order: list[UserStrategy] = []
    index: dict[tuple[str, str], int] = {}
    fi = np.full(len(seats), -1, np.int32)
    for e, seat in enumerate(seats):
        u = users.get(seat["strategy"])
        if u is None:
            continue
        k = (u.sha256, u.func_name)
        if k not in index:
            index[k] = len(order)
            order.append(u)
        fi[e] = index[k]
    width = max([len(u.params) for u in order] + [1])
    rows = np.zeros((len(seats), width))
    for e, seat in enumerate(seats):
        u = users.get(seat["strategy"])
        if u is not None:
            for j, k in enumerate(u.params):
                rows[e, j] = float(seat.get(k, u.params[k]))
    rows.setflags(write=False)
    return order, fi, rows


def rollout_specs(seats: list[dict], users: dict[str, UserStrategy]) -> list[str | None]:
    """Per seat entry: the strategy file its ``rollout`` names (a search seat), else None."""
    return [seat.get(ROLLOUT_KEY) if seat.get(ROLLOUT_KEY) in users else None for seat in seats]


def plan_rollouts(seats: list[dict], users: dict[str, UserStrategy], order: list[UserStrategy],
                  fi: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``plan``'s tables with a second row per seat entry: row ``n + e`` the user function
    the rollouts of search entry ``e`` play (appended to ``order`` when no seat plays it)
    and its parameters: the file's ``PARAMS`` defaults, or a learned rollout player's weights.
    int32[2n], read-only float64[2n, width]."""
    index = {(u.sha256, u.func_name): i for i, u in enumerate(order)}
    rfi = np.full(len(seats), -1, np.int32)
    specs = rollout_specs(seats, users)
    for e, spec in enumerate(specs):
        if spec is None:
            continue
        u = users[spec]
        k = (u.sha256, u.func_name)
        if k not in index:
            index[k] = len(order)
            order.append(u)
        rfi[e] = index[k]
    width = max([len(u.params) for u in order] + [rows.shape[1], 1])
    out = np.zeros((2 * len(seats), width))
    out[:len(seats), :rows.shape[1]] = rows
    for e, spec in enumerate(specs):
        if spec is not None:  # the file's defaults, or the weights of a learned rollout player
            mine = seats[e].get(ROLLOUT_PLAYER, {})
            out[len(seats) + e, :len(users[spec].params)] = [mine.get(k, v) for k, v in users[spec].params.items()]
    out.setflags(write=False)
    return np.concatenate([fi, rfi]).astype(np.int32), out


def placeholder_seats(seats: list[dict], users: dict[str, UserStrategy], placeholder,
                      rollout_placeholder: str | None = None) -> list[dict]:
    """The seats with every user seat replaced by the game's built-in stand-in (whose tables
    the kernel keeps for the decisions the user function does not take), and a search's
    ``rollout`` file by ``rollout_placeholder`` (its rollouts never play it)."""
    out = [placeholder(seat) if seat["strategy"] in users else seat for seat in seats]
    return [{k: v for k, v in dict(seat, **{ROLLOUT_KEY: rollout_placeholder}).items() if k != ROLLOUT_PLAYER}
            if seat.get(ROLLOUT_KEY) in users else seat for seat in out]


def readonly(a: np.ndarray) -> np.ndarray:
    b = np.ascontiguousarray(a).copy()
    b.setflags(write=False)
    return b


def raise_errors(err: np.ndarray, first_game: int, users: list[UserStrategy]) -> None:
    """``err`` int64[n, 4] rows (0 or 1 + dispatch index, turn, returned, n options) of a
    chunk: the first game with an illegal answer stops the run, nothing written."""
    bad = np.flatnonzero(err[:, 0])
    if bad.size:
        i = int(bad[0])
        code = int(err[i, 0])
        where = ""
        if code > ROLLOUT_ERR:
            code -= ROLLOUT_ERR
            where = " in a rollout of search"
        u = users[code - 1]
        if int(err[i, 2]) == RAISED:
            raise u.fail(f"raised an exception{where} at game {first_game + i} turn {int(err[i, 1])} (an index "
                         f"outside the view, the options or the board, a division by zero...: numba cannot carry the "
                         f"exception out of the kernel; `pirate-sim trace` shows the game up to that turn); nothing "
                         f"was recorded")
        raise u.fail(f"returned {int(err[i, 2])}{where} at game {first_game + i} turn {int(err[i, 1])}, "
                     f"where the legal options are 0..{int(err[i, 3]) - 1}; the game was not recorded")


# ------------------------------------------------------------------ results directories
STRATEGIES_DIR = "strategies"  # a run's copies of its strategy files (beside scenario.toml)
LEARNED = "learned"  # pirate_sim.learned.LEARNED: a seat of a bundled learned player


def learned_players(seats: list[dict]) -> list[dict]:
    """Every learned player of a table (each a resolved ``strategy = "learned"`` seat, with
    ``weights``, ``weights_file`` and ``weights_sha256``): the learned seats, then the players
    that search seats roll out."""
    return ([seat for seat in seats if seat["strategy"] == LEARNED]
            + [seat[ROLLOUT_PLAYER] for seat in seats if ROLLOUT_PLAYER in seat])


def results_copy(s, out_dir: Path):
    """The scenario as a results directory keeps it: each strategy file copied to
    ``strategies/<sha16>_<name>.py`` and the seats naming the copies, so that the directory's
    scenario.toml loads on its own (same hash: a file counts by its content)."""
    import copy as _copy

    if not s.user:
        return s
    d = Path(out_dir) / STRATEGIES_DIR
    d.mkdir(exist_ok=True)
    renamed: dict[str, str] = {}
    users = {}
    for spec, u in s.user.items():
        if spec == LEARNED:  # a bundled player: its weights file is copied instead (below)
            users[spec] = u
            continue
        name = f"{u.sha256[:16]}_{Path(spec.rsplit(':', 1)[0]).name}"
        _write_if_changed(d / name, u.source)
        new = f"{STRATEGIES_DIR}/{name}:{u.func_name}"
        renamed[spec] = new
        users[new] = UserStrategy(new, u.func_name, u.source, u.sha256, str(d / name), u.params, u.n_args,
                                  u.module_name, u.py_func, u.dispatcher)
    t = _copy.copy(s)
    t.seats = [dict(seat, strategy=renamed.get(seat["strategy"], seat["strategy"])) for seat in s.seats]
    t.seats = [dict(seat, **{ROLLOUT_KEY: renamed[seat[ROLLOUT_KEY]]}) if seat.get(ROLLOUT_KEY) in renamed else seat
               for seat in t.seats]
    t.seats = [dict(seat, **{ROLLOUT_PLAYER: dict(seat[ROLLOUT_PLAYER])}) if ROLLOUT_PLAYER in seat else seat
               for seat in t.seats]  # its own copy, changed below
    for p in learned_players(t.seats):  # the weights travel with the results, named by content
        name = f"{p['weights_sha256'][:16]}_weights.npz"
        if not (d / name).exists():  # written whole or not at all (the name is its content's)
            tmp = d / f".{name}.{os.getpid()}.tmp"
            tmp.write_bytes(Path(p["weights_file"]).read_bytes())
            os.replace(tmp, d / name)
        p["weights"], p["weights_file"] = f"{STRATEGIES_DIR}/{name}", str(d / name)
    t.user = users
    return t


def changed_files(records: list[dict]) -> list[str]:
    """One line per strategy file of a manifest (``strategy_files``) that is missing or whose
    content changed since the run."""
    out = []
    for r in records or []:
        what = "weights file" if "weights" in r else "strategy file"
        p = Path(r.get("weights") or r.get("path", ""))
        if not p.is_file():
            out.append(f"{p}: {what} of seat strategy {r.get('strategy')!r} is missing")
            continue
        sha = hashlib.sha256(p.read_bytes()).hexdigest()
        if sha != r.get("sha256"):
            out.append(f"{p}: {what} changed since the run (SHA-256 {sha[:16]}, the run used "
                       f"{str(r.get('sha256'))[:16]})")
    return out
