"""Scenario files: TOML -> validated, fully resolved :class:`Scenario`.

A scenario names a game, its rules (every number the engine uses, defaults from the
game's ``Param`` list), the seats (a strategy each, with its parameters) and the run
settings.  Any problem is a :class:`ScenarioError` naming the file, the key and what
is wrong, so the CLI can print one clear line and exit 2 before writing anything.
"""

from __future__ import annotations

import copy
import difflib
import hashlib
import json
import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from .games import GAME_MODULES, get_game
from .errors import UserError
from .games.base import Game, Param
from .user_strategy import ROLLOUT_PLAYER, ROLLOUT_PLAYER_KEYS, learned_players
from .validate import MAX_GAMES, MAX_SEED

TOP_KEYS = ("game", "title", "description", "run", "rules", "seats")
# Run settings: (default, doc, min, max).  None of them changes a single game's outcome.
RUN_PARAMS = {
    "games": (1_000_000, "number of games to simulate", 1, MAX_GAMES),
    "seed": (20261129, "master seed; game k draws from the stream (seed, k)", 0, MAX_SEED),
    "chunk_size": (100_000, "games per Parquet part (memory is bounded by one chunk)", 1, 10**8),
}


class ScenarioError(UserError, ValueError):
    """A scenario problem: ``file: key: message``."""

    def __init__(self, source: str, key: str, message: str):
        self.source, self.key, self.message = source, key, message
        super().__init__(f"{source}: {key}: {message}" if key else f"{source}: {message}")


@dataclass
class Scenario:
    game: Game
    title: str
    description: str
    run: dict[str, int]
    rules: dict[str, Any]  # dotted key -> value, every Param present
    seats: list[dict[str, Any]]  # {"strategy": name, param: value...}
    source: str = "<memory>"
    overrides: list[str] = field(default_factory=list)
    # what loading did that the user should hear about (one line each), e.g. a seat's
    # strategy changed by --set and its parameters reset to the new strategy's defaults
    notes: list[str] = field(default_factory=list)
    # strategies of one's own: the seat's ``strategy`` value (file.py:function) -> its loaded
    # UserStrategy (pirate_sim.user_strategy); empty for built-in players only
    user: dict[str, Any] = field(default_factory=dict)

    @property
    def n_seats(self) -> int:
        return len(self.seats)

    @property
    def seed(self) -> int:
        return self.run["seed"]

    def outcome_dict(self) -> dict[str, Any]:
        """Everything that decides game outcomes (not games count or chunk size)."""
        out = {
            "game": self.game.name,
            "rules_version": self.game.version,
            "seed": self.run["seed"],
            "rules": self.rules,
            "seats": self.seats,
        }
        def by_content(seat):  # a learned player's weights count by content, not place
            if seat["strategy"] == "learned":
                return {k: v for k, v in seat.items() if k not in ("weights", "weights_file")}
            if ROLLOUT_PLAYER in seat:  # a search rolling out a learned player
                return dict(seat, **{ROLLOUT_PLAYER: by_content(seat[ROLLOUT_PLAYER])})
            return seat

        out["seats"] = [by_content(seat) for seat in out["seats"]]
        if self.user:  # a strategy file counts by its content, not by where it lies
            out["seats"] = [dict(seat, strategy=self.user[seat["strategy"]].identity) if seat["strategy"] in self.user
                            else seat for seat in out["seats"]]
            out["seats"] = [dict(seat, rollout=self.user[seat["rollout"]].identity) if seat.get("rollout") in self.user
                            else seat for seat in out["seats"]]
        return out

    def strategy_files(self) -> list[dict[str, str]]:
        """What the manifest records of each strategy file: the seat's spec, the file read, its SHA-256."""
        return ([{"strategy": spec, "path": u.path, "sha256": u.sha256} for spec, u in self.user.items()]
                + [{"strategy": "learned", "weights": p["weights_file"], "sha256": p["weights_sha256"]}
                   for p in learned_players(self.seats)])

    def user_sources(self) -> dict[str, tuple[str, str]]:
        """spec -> (source text, SHA-256): what a cluster worker receives instead of the files."""
        return {spec: (u.source, u.sha256) for spec, u in self.user.items()}

    def with_table(self, seats: list[dict], rules: dict[str, Any] | None = None, source: str | None = None) -> Scenario:
        """This scenario's game with other ``seats`` (and ``rules`` over its own), checked as a
        file's would be (``source``: where relative paths of the seats are read from)."""
        raw = {"game": self.game.name, "rules": {**self.rules, **(rules or {})}, "seats": [dict(x) for x in seats]}
        return from_dict(raw, source=self.source if source is None else source)

    def hash(self) -> str:
        """Identity of the results: equal hashes mean game k is the same game."""
        blob = json.dumps(self.outcome_dict(), sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def compile(self):
        from . import user_strategy

        seats = self.seats
        if self.user:
            seats = user_strategy.placeholder_seats(seats, self.user, self.game.user_placeholder,
                                                    getattr(self.game, "user_rollout_placeholder", None))
        try:
            compiled = self.game.compile(self.rules, seats)
        except ValueError as exc:
            key, sep, msg = str(exc).partition(": ")
            if not sep:
                key, msg = "", str(exc)
            if not key.startswith(("rules", "seats")):
                key = f"rules.{key}" if key else "rules"
            raise ScenarioError(self.source, key, msg) from None
        if self.user:
            compiled.strategy_names = tuple(seat["strategy"] for seat in self.seats)
            order, fi, rows = user_strategy.plan(self.seats, self.user)
            if getattr(self.game, "user_rollout", False):  # rows n + e: the file search entry e rolls out, or -1
                fi, rows = user_strategy.plan_rollouts(self.seats, self.user, order, fi, rows)
            self.game.user_compile(compiled, order, fi, rows)
        return compiled

    def to_toml(self, with_docs: bool = True) -> str:
        return render_toml(self, with_docs=with_docs)


# --------------------------------------------------------------------------- loading


def read_toml(path: str | Path, error=ScenarioError) -> dict:
    """Parse a TOML file; any problem is ``error(file, "", message)``."""
    path = Path(path)
    if not path.exists():
        raise error(str(path), "", "file not found")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise error(str(path), "", f"malformed TOML: {exc}") from None
    except UnicodeDecodeError:
        raise error(str(path), "", "not a UTF-8 text file") from None


def load(path: str | Path, overrides: list[str] | tuple[str, ...] = ()) -> Scenario:
    """Read and validate a scenario file, applying ``--set key.path=VALUE`` overrides."""
    return from_dict(read_toml(path), source=str(path), overrides=overrides)


def from_dict(raw: dict, source: str = "<memory>", overrides=(), user_sources: dict | None = None) -> Scenario:
    """Validate a raw scenario dict; ``user_sources`` (spec -> (text, SHA-256)) stands in
    for the strategy files (a cluster worker has the client's copies, not the files)."""
    raw = copy.deepcopy(raw)
    notes: list[str] = []
    set_keys: set[str] = set()
    for item in overrides:
        apply_override(raw, item, source, notes, set_keys)
    unknown = [k for k in raw if k not in TOP_KEYS]
    if unknown:
        hint = _suggest(unknown[0], TOP_KEYS)
        if not hint and isinstance(raw.get("game"), str) and raw["game"] in GAME_MODULES:
            rules = [f"rules.{p.key}" for p in get_game(raw["game"]).params]  # a rule without its rules. prefix
            flat = [f"{unknown[0]}.{k}" for k in _flatten(raw[unknown[0]])] if isinstance(raw[unknown[0]], dict) \
                else [unknown[0]]
            hint = _suggest(f"rules.{flat[0]}", rules)
        raise ScenarioError(source, unknown[0], "unknown key" + hint)
    if "game" not in raw:
        raise ScenarioError(source, "game", f"missing; one of {', '.join(GAME_MODULES)}")
    name = raw["game"]
    if not isinstance(name, str):
        raise ScenarioError(source, "game", f"expected a game name, got {name!r}")
    try:
        game = get_game(name)
    except KeyError:
        raise ScenarioError(source, "game", f"unknown game {name!r}" + _suggest(name, GAME_MODULES)) from None
    run = _validate_run(raw.get("run", {}), source)
    rules = _validate_rules(game, raw.get("rules", {}), source)
    users: dict = {}
    seats = _validate_seats(game, raw.get("seats"), source, users, user_sources, rules)
    for key in ("title", "description"):
        if key in raw and not isinstance(raw[key], str):
            raise ScenarioError(source, key, f"expected a string, got {raw[key]!r}")
    return Scenario(
        game=game,
        title=raw.get("title", game.title),
        description=raw.get("description", ""),
        run=run,
        rules=rules,
        seats=seats,
        source=source,
        overrides=list(overrides),
        notes=notes,
        user=users,
    )


def default_scenario(game: Game) -> Scenario:
    """Every parameter at its default, seats from the game's default line-up."""
    return from_dict({"game": game.name, "seats": [{"strategy": s} for s in game.default_seats]},
                     source=f"<default {game.name}>")


def parse_value(text: str) -> Any:
    """An override's value: parsed as TOML (numbers, booleans, lists, quoted strings), else a bare string."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def apply_override(raw: dict, item: str, source: str, notes: list[str] | None = None,
                   set_keys: set[str] | None = None) -> None:
    """Apply ``key.path=VALUE`` to the raw scenario dict (seats are indexed: seats.1.strategy).

    Changing a seat's strategy resets that seat's strategy parameters to the new strategy's
    defaults (a note in ``notes`` names them): the old strategy's values, often listed in the
    file by ``scenario new``, must not silently tune the new one where the names overlap.
    Parameters given by an earlier --set (their keys in ``set_keys``) are kept, so that
    ``--set seats.0.x=1 --set seats.0.strategy=s`` and the reverse order mean the same."""
    if "=" not in item:
        raise ScenarioError(source, item, "--set expects key.path=VALUE")
    key, _, text = item.partition("=")
    key = key.strip()
    parts = key.split(".")
    if not all(p.strip() for p in parts):
        raise ScenarioError(source, f"--set {item}", "expected key.path=VALUE with a key such as "
                            "rules.squid.escape_total or seats.1.strategy")
    value = parse_value(text.strip())
    node: Any = raw
    for i, part in enumerate(parts[:-1]):
        if isinstance(node, list):
            if not part.isdigit() or int(part) >= len(node):
                raise ScenarioError(source, key, f"no seat {part} (the scenario has {len(node)} seats)")
            node = node[int(part)]
            continue
        if part == "seats" and i == 0:
            node = node.setdefault("seats", [])
            continue
        nxt = node.setdefault(part, {})
        if not isinstance(nxt, (dict, list)):
            raise ScenarioError(source, key, f"{part} is a value, not a table")
        node = nxt
    last = parts[-1]
    if isinstance(node, list):
        raise ScenarioError(source, key, "expected seats.N.name")
    if len(parts) == 3 and parts[0] == "seats" and last == "strategy" and isinstance(node, dict):
        old = node.get("strategy")
        if old is not None and old != value:
            dropped = [k for k in node if k != "strategy" and f"seats.{parts[1]}.{k}" not in (set_keys or set())]
            for k in dropped:
                del node[k]
            if dropped and notes is not None:
                notes.append(f"{source}: seats.{parts[1]}: strategy {old} -> {value}: the seat's parameters "
                             f"from the file ({', '.join(dropped)}) reset to {value}'s defaults")
    node[last] = value
    if set_keys is not None:
        set_keys.add(key)


def _suggest(word: str, options) -> str:
    close = difflib.get_close_matches(word, list(options), n=1, cutoff=0.5)
    return f" (did you mean {close[0]!r}?)" if close else ""


def nest(flat: dict[str, Any]) -> dict:
    """Dotted keys -> nested tables (the inverse of ``_flatten``): a resolved rules dict as
    the ``[rules]`` table of a scenario."""
    out: dict = {}
    for key, v in flat.items():
        *heads, last = key.split(".")
        node = out
        for h in heads:
            node = node.setdefault(h, {})
        node[last] = v
    return out


def _flatten(table: dict, prefix: str = "") -> dict[str, Any]:
    out = {}
    for k, v in table.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(_flatten(v, key + "."))
        else:
            out[key] = v
    return out


def _tables(table: dict, prefix: str = "") -> Iterator[tuple[str, dict]]:
    """Every table inside ``table`` as (dotted key, table), outer first."""
    for k, v in table.items():
        if isinstance(v, dict):
            yield f"{prefix}{k}", v
            yield from _tables(v, f"{prefix}{k}.")


def _validate_run(table: Any, source: str) -> dict[str, int]:
    if not isinstance(table, dict):
        raise ScenarioError(source, "run", "expected a table [run]")
    out = {}
    for k in table:
        if k not in RUN_PARAMS:
            raise ScenarioError(source, f"run.{k}", "unknown key" + _suggest(k, RUN_PARAMS))
    for k, (default, _doc, lo, hi) in RUN_PARAMS.items():
        v = table.get(k, default)
        p = Param(k, default, "int", _doc, lo, hi)
        out[k] = check_value(p, v, source, f"run.{k}")
    return out


def _validate_rules(game: Game, table: Any, source: str) -> dict[str, Any]:
    if not isinstance(table, dict):
        raise ScenarioError(source, "rules", "expected a table [rules]")
    flat = _flatten(table)
    known = {p.key: p for p in game.params}
    for k, v in _tables(table):  # a rule given a table ({} would flatten to nothing: the default, silently)
        if k in known:
            check_value(known[k], v, source, f"rules.{k}")
    for k in flat:
        if k not in known:
            under = [key for key in known if key.startswith(f"{k}.")]
            if under:  # a group of rules given a value: name the rules of the group
                raise ScenarioError(source, f"rules.{k}", f"a group of {game.title} rules, not one rule; set one of "
                                    + ", ".join(f"rules.{key}" for key in under))
            # a list-valued param written as a table would also land here
            raise ScenarioError(source, f"rules.{k}", f"unknown {game.title} rule"
                                + _suggest(f"rules.{k}", [f"rules.{key}" for key in known]))
    return {p.key: check_value(p, flat.get(p.key, p.default), source, f"rules.{p.key}") for p in game.params}


def _user_seat(game: Game, seat: dict, key: str, source: str, users: dict, user_sources: dict | None) -> dict:
    """A seat playing a strategy file: load it (once per spec) and check its parameters."""
    name = seat["strategy"]
    if not game.takes_strategy_files:
        from .games import available_games, get_game

        takers = [get_game(g).title for g in available_games() if get_game(g).takes_strategy_files]
        raise ScenarioError(source, f"{key}.strategy", f"{game.title} does not take strategy files "
                            f"({' and '.join(takers)} do; docs/strategies.md)")
    u = _load_user(name, f"{key}.strategy", source, users, user_sources)
    extra = dict(game.user_seat_params) if hasattr(game, "user_seat_params") else {}
    known = list(u.params) + list(extra)
    resolved = {"strategy": name}
    for k in seat:
        if k == "strategy":
            continue
        if k not in known:
            raise ScenarioError(source, f"{key}.{k}", f"unknown parameter of strategy {name!r}" + _suggest(k, known)
                                + (f"; it has {', '.join(known)}" if known else "; it has none"))
    for k, default in u.params.items():
        v = seat.get(k, default)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise ScenarioError(source, f"{key}.{k}", f"expected a number, got {v!r}")
        resolved[k] = float(v)
    for k, p in extra.items():
        resolved[k] = check_value(p, seat.get(k, p.default), source, f"{key}.{k}")
    return resolved


def _load_user(name: str, key: str, source: str, users: dict, user_sources: dict | None):
    """Load strategy file ``name`` once per spec (a seat's ``strategy``, a search's ``rollout``)."""
    from . import user_strategy

    u = users.get(name)
    if u is None:
        try:
            if user_sources is not None:
                if name not in user_sources:
                    raise user_strategy.UserStrategyError(f"{name}: its source did not come with the task")
                text, sha = user_sources[name]
                u = user_strategy.load(name, source=text, expect_sha=sha)
            else:
                base = Path(source).parent if not source.startswith("<") else Path.cwd()
                u = user_strategy.load(name, base)
        except user_strategy.UserStrategyError as exc:
            raise ScenarioError(source, key, str(exc)) from None
        users[name] = u
    return u


def _rollout_games() -> str:
    """The games whose search can roll out a strategy file, as a sentence says them."""
    names = [f"{get_game(g).title}'s" for g in GAME_MODULES if getattr(get_game(g), "user_rollout", False)]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def _learned_seat(game: Game, seat: dict, key: str, source: str, rules: dict, users: dict, n_seats: int) -> dict:
    """A seat ``strategy = "learned"``: its weights file read and checked (pirate_sim.learned)."""
    from . import learned

    base = Path(source).parent if not source.startswith("<") else Path.cwd()
    run = {k: d for k, (d, *_rest) in RUN_PARAMS.items()}

    def training_table() -> Scenario:  # weights = "auto": the expert in every seat, these rules
        return Scenario(game, game.title, "", dict(run, seed=learned.AUTO_SEED), dict(rules),
                        [{"strategy": "expert"}] * n_seats, source="<auto>")

    try:
        resolved, u = learned.resolve_seat(game, seat, rules, base, n_seats, training_table)
    except learned.LearnError as exc:
        sub, msg = exc.args if len(exc.args) == 2 else ("strategy", exc.args[0])
        raise ScenarioError(source, f"{key}.{sub}", msg) from None
    for k, p in getattr(game, "user_seat_params", {}).items():
        resolved[k] = check_value(p, resolved[k], source, f"{key}.{k}")
    users["learned"] = u
    return resolved


def _validate_seats(game: Game, seats: Any, source: str, users: dict | None = None,
                    user_sources: dict | None = None, rules: dict | None = None) -> list[dict[str, Any]]:
    if seats is None:
        seats = [{"strategy": s} for s in game.default_seats]
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        raise ScenarioError(source, "seats", "expected [[seats]] tables, one per player")
    if not game.min_seats <= len(seats) <= game.max_seats:
        span = f"{game.min_seats}" if game.min_seats == game.max_seats else f"{game.min_seats} to {game.max_seats}"
        raise ScenarioError(source, "seats", f"{game.title} takes {span} players, got {len(seats)}")
    names = [s.name for s in game.strategies]
    out = []
    for i, seat in enumerate(seats):
        key = f"seats.{i}"
        if "strategy" not in seat:
            raise ScenarioError(source, f"{key}.strategy", f"missing; one of {', '.join(names)}")
        name = seat["strategy"]
        from .user_strategy import is_spec

        if name == "learned":
            out.append(_learned_seat(game, seat, key, source, rules, users if users is not None else {}, len(seats)))
            continue
        if is_spec(name):
            out.append(_user_seat(game, seat, key, source, users if users is not None else {}, user_sources))
            continue
        if name not in names:
            raise ScenarioError(source, f"{key}.strategy", f"unknown strategy {name!r}" + _suggest(str(name), names)
                                + f"; {game.title} has {', '.join(names)}")
        strat = game.strategy(name)
        known = {p.key: p for p in strat.params}
        learned_rollout = name == "search" and seat.get("rollout") == "learned"
        for k in seat:
            if k != "strategy" and k not in known and not (learned_rollout and k in ROLLOUT_PLAYER_KEYS):
                hint = ' (only with rollout = "learned")' if name == "search" and k in ROLLOUT_PLAYER_KEYS else ""
                raise ScenarioError(source, f"{key}.{k}", f"unknown parameter of strategy {name!r}{hint}"
                                    + _suggest(k, known) + (f"; it has {', '.join(known)}" if known else "; it has none"))
        resolved = {"strategy": name}
        for p in strat.params:
            v = seat.get(p.key, p.default)
            if p.key == "rollout" and (learned_rollout or (name == "search" and is_spec(v))) \
                    and not getattr(game, "user_rollout", False):
                what, doc = ("a learned player", "learned") if learned_rollout else ("a strategy file", "strategies")
                raise ScenarioError(source, f"{key}.rollout", f"{game.title}'s search cannot roll out {what} "
                                    f"({_rollout_games()} can; docs/{doc}.md)")
            if p.key == "rollout" and learned_rollout:
                player = {"strategy": "learned", **{k: seat[k] for k in ROLLOUT_PLAYER_KEYS if k in seat}}
                resolved[p.key] = v
                resolved[ROLLOUT_PLAYER] = _learned_seat(game, player, key, source, rules,
                                                         users if users is not None else {}, len(seats))
                continue
            if p.key == "rollout" and name == "search" and is_spec(v):
                _load_user(v, f"{key}.rollout", source, users if users is not None else {}, user_sources)
                resolved[p.key] = v
                continue
            if (p.key == "rollout" and name == "search" and getattr(game, "user_rollout", False)
                    and v not in (p.choices or ())):
                raise ScenarioError(source, f"{key}.rollout", "expected one of " + ", ".join(map(repr, p.choices))
                                    + f" or a strategy file (file.py:function), got {v!r}")
            resolved[p.key] = check_value(p, v, source, f"{key}.{p.key}")
        out.append(resolved)
    return out


def check_value(p: Param, v: Any, source: str, key: str) -> Any:
    """Validate one value against its Param; returns the normalised value."""

    def fail(msg: str):
        raise ScenarioError(source, key, msg)

    def num(x, kind, where=""):
        if kind == "int":
            if isinstance(x, bool) or not isinstance(x, int):
                if isinstance(x, float) and x.is_integer():
                    x = int(x)
                else:
                    fail(f"expected a whole number{where}, got {x!r}")
        else:
            if isinstance(x, bool) or not isinstance(x, (int, float)):
                fail(f"expected a number{where}, got {x!r}")
            x = float(x)
            if not math.isfinite(x):
                fail(f"expected a finite number{where}, got {x!r}")
        if p.min is not None and x < p.min:
            fail(f"{x!r}{where} is below the minimum {p.min:g}")
        if p.max is not None and x > p.max:
            fail(f"{x!r}{where} is above the maximum {p.max:g}")
        return x

    if p.kind in ("int", "float"):
        return num(v, p.kind)
    if p.kind == "bool":
        if not isinstance(v, bool):
            fail(f"expected true or false, got {v!r}")
        return v
    if p.kind == "str":
        if not isinstance(v, str):
            fail(f"expected a string, got {v!r}")
        return v
    if p.kind == "choice":
        if v not in p.choices:
            fail(f"expected one of {', '.join(map(repr, p.choices))}, got {v!r}" + _suggest(str(v), p.choices))
        return v
    if p.kind.endswith("_list"):
        if not isinstance(v, list):
            fail(f"expected a list, got {v!r}")
        if p.length is not None and len(v) != p.length:
            fail(f"expected {p.length} items, got {len(v)}")
        if p.min_length is not None and len(v) < p.min_length:
            fail(f"expected at least {p.min_length} items, got {len(v)}")
        item_kind = p.kind[: -len("_list")]
        if item_kind == "str":
            for i, x in enumerate(v):
                if not isinstance(x, str):
                    fail(f"item {i} should be a string, got {x!r}")
            return list(v)
        return [num(x, item_kind, f" (item {i})") for i, x in enumerate(v)]
    raise AssertionError(f"unknown Param kind {p.kind}")


# --------------------------------------------------------------------------- writing


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return f"{v:_}" if abs(v) >= 10_000 else str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        inner = [_toml_value(x) for x in v]
        one_line = "[" + ", ".join(inner) + "]"
        if len(one_line) <= 80:
            return one_line
        return "[\n" + "".join(f"    {x},\n" for x in inner) + "]"
    if isinstance(v, dict):  # an inline table (a value given as {...}; validation then names the key)
        return "{" + ", ".join(f"{json.dumps(str(k))} = {_toml_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(v)


def _doc_comment(p: Param) -> str:
    bits = [p.doc.rstrip().rstrip(".")]  # joined by "; ": a doc's own full stop would read ".;"
    if p.min is not None or p.max is not None:
        lo = "" if p.min is None else f"{p.min:g}"
        hi = "" if p.max is None else f"{p.max:g}"
        bits.append(f"range {lo}..{hi}")
    if p.choices:
        bits.append("one of " + ", ".join(p.choices))
    bits.append(f"default {_toml_value(p.default)}" if not isinstance(p.default, list) or len(_toml_value(p.default)) < 40 else "")
    return "  # " + "; ".join(b for b in bits if b)


def render_toml(s: Scenario, with_docs: bool = True) -> str:
    g = s.game
    lines = [
        f"# pirate-sim scenario for {g.title} (rules version {g.version}).",
        f"# Rules reference: {g.rules_doc or 'docs/rules/' + g.name + '.md'}",
        "# Every parameter is listed with its default; change what your question is about.",
        "",
        f"game = {_toml_value(g.name)}",
        f"title = {_toml_value(s.title)}",
    ]
    if s.description:
        lines.append(f"description = {_toml_value(s.description)}")
    lines += ["", "[run]"]
    for k, (_d, doc, _lo, _hi) in RUN_PARAMS.items():
        lines.append(f"{k} = {_toml_value(s.run[k])}" + (f"  # {doc}" if with_docs else ""))
    params = {p.key: p for p in g.params}
    groups: dict[str, list[str]] = {}
    for key in params:
        head, _, _tail = key.rpartition(".")
        groups.setdefault(head, []).append(key)
    for head in sorted(groups, key=lambda h: (h != "", h)):
        lines += ["", f"[rules{'.' + head if head else ''}]"]
        for key in groups[head]:
            leaf = key.rpartition(".")[2]
            lines.append(f"{leaf} = {_toml_value(s.rules[key])}" + (_doc_comment(params[key]) if with_docs else ""))
    for seat in s.seats:
        if seat["strategy"] == "learned":
            lines += ["", "[[seats]]", 'strategy = "learned"'
                      + ("  # a linear value over the seat's view (docs/learned.md)" if with_docs else "")]
            lines += _weights_lines(seat, "", with_docs)
            lines += [f"{k} = {_toml_value(seat[k])}" for k in getattr(g, "user_seat_params", {})]
            continue
        if seat["strategy"] in s.user:
            u = s.user[seat["strategy"]]
            lines += ["", "[[seats]]"]
            lines.append(f"strategy = {_toml_value(seat['strategy'])}"
                         + (f"  # strategy file, SHA-256 {u.sha256[:16]} (docs/strategies.md)" if with_docs else ""))
            for k, v in seat.items():
                if k != "strategy":
                    default = u.params.get(k)
                    lines.append(f"{k} = {_toml_value(v)}" + (f"  # default {_toml_value(default)}"
                                                              if with_docs and default is not None else ""))
            continue
        strat = g.strategy(seat["strategy"])
        lines += ["", "[[seats]]"]
        lines.append(f"strategy = {_toml_value(seat['strategy'])}" + (f"  # {strat.doc.splitlines()[0]}" if with_docs else ""))
        for p in strat.params:
            lines.append(f"{p.key} = {_toml_value(seat[p.key])}" + (_doc_comment(p) if with_docs else ""))
        if ROLLOUT_PLAYER in seat:  # the learned player the rollouts play
            lines += _weights_lines(seat[ROLLOUT_PLAYER], "the rollouts' learned player, ", with_docs)
    return "\n".join(lines) + "\n"


def _weights_lines(player: dict, what: str, with_docs: bool) -> list[str]:
    """A learned player's lines of a [[seats]] table: its weights file (and allow_other_rules)."""
    lines = [f"weights = {_toml_value(player['weights'])}"
             + (f"  # {what}SHA-256 {player['weights_sha256'][:16]}" if with_docs else "")]
    return lines + (["allow_other_rules = true"] if player.get("allow_other_rules") else [])


def resolved_parameters(s: Scenario) -> list[tuple[str, Any, Any, str]]:
    """(key, value, default, doc) for every parameter, for `scenario check`."""
    rows = [(f"run.{k}", s.run[k], d, doc) for k, (d, doc, _a, _b) in RUN_PARAMS.items()]
    rows += [(f"rules.{p.key}", s.rules[p.key], p.default, p.doc) for p in s.game.params]
    for i, seat in enumerate(s.seats):
        if seat["strategy"] == "learned":
            rows.append((f"seats.{i}.strategy", "learned", None, "a linear value over the seat's view (docs/learned.md)"))
            rows.append((f"seats.{i}.weights", seat["weights"], None, f"weights file, SHA-256 {seat['weights_sha256'][:16]}"))
            rows += [(f"seats.{i}.{k}", seat[k], p.default, p.doc) for k, p in getattr(s.game, "user_seat_params", {}).items()]
            continue
        if seat["strategy"] in s.user:
            u = s.user[seat["strategy"]]
            rows.append((f"seats.{i}.strategy", seat["strategy"], None, f"strategy file, SHA-256 {u.sha256[:16]}"))
            rows += [(f"seats.{i}.{k}", v, u.params.get(k), "strategy file parameter")
                     for k, v in seat.items() if k != "strategy"]
            continue
        strat = s.game.strategy(seat["strategy"])
        rows.append((f"seats.{i}.strategy", seat["strategy"], None, strat.doc.splitlines()[0]))
        rows += [(f"seats.{i}.{p.key}", seat[p.key], p.default, p.doc) for p in strat.params]
        if ROLLOUT_PLAYER in seat:
            rp = seat[ROLLOUT_PLAYER]
            rows.append((f"seats.{i}.weights", rp["weights"], None,
                         f"the rollouts' learned player: weights file, SHA-256 {rp['weights_sha256'][:16]}"))
    return rows
