"""Learned players: a seat's choices by a linear value over features of its own view, the
weights fitted by self-play against a pool (docs/learned.md).

A game's learned player is a strategy file bundled in ``pirate_sim/players/<game>.py``
(function ``learned``): it runs through the same compiled call as any strategy file, so it
sees only the seat's view (the strategy-file contract, scramble-tested per game) and needs
no kernel of its own.  Its weights are the file's ``PARAMS``; a weights file (``.npz``,
written by :func:`learn`) fills them.  A scenario seat names one::

    [[seats]]
    strategy = "learned"
    weights = "players/peak.npz"      # relative to the scenario file
    base = "expert"                   # Pirate's Peak: the choices the learned player leaves

Training (:func:`learn`) is the cross-entropy method, a policy search on the measured result:
each generation draws ``population`` weight vectors around the current mean, plays each in
the learner's seat against the pool on the same games (common random numbers), keeps the
``elite`` best by points and moves the mean and spread to theirs.  Every generation is
checkpointed (``--resume`` continues it, identically), and the mean is measured on held-out
games that training never plays (the learning curve).  Same seed: identical weights, on any
thread count (each game's dice depend only on its seed and index).
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from .errors import UserError

LEARNED = "learned"  # the strategy name of a learned seat
WEIGHTS_KEY = "weights"  # the seat's key naming its weights file
ALLOW_KEY = "allow_other_rules"  # the seat's key accepting weights trained for other rules
FORMAT = 1  # weights-file format version (learned.npz's "format")
PLAYERS = Path(__file__).with_name("players")  # the bundled learned players, one file per game
# seed offsets of the three disjoint game sets (training, the curve's held-out games, the final
# table): a generation's training games are seed + TRAIN + g, the curve's held-out games
# seed + HELD_OUT, the final table's seed + FINAL; far apart so that no two sets share a seed
TRAIN, HELD_OUT, FINAL = 1_000_003, 2_000_003, 3_000_003
SPREAD0 = 1.0  # the first generation's spread of every weight (features are scaled to about 1)
SPREAD_FLOOR = 0.02  # smallest spread kept (the search never collapses onto one point)


class LearnError(UserError, ValueError):
    """A learned seat or a training run that cannot go on (one line)."""


# ------------------------------------------------------------------ the players and their files
def player_path(game_name: str) -> Path:
    return PLAYERS / f"{game_name}.py"


def has_player(game_name: str) -> bool:
    return player_path(game_name).is_file()


def games_with_players() -> list[str]:
    return sorted(p.stem for p in PLAYERS.glob("*.py") if not p.stem.startswith("_"))


def player(game_name: str):
    """The loaded strategy file of ``game_name``'s learned player (pirate_sim.user_strategy)."""
    from . import user_strategy

    if not has_player(game_name):
        from .games import get_game

        have = ", ".join(get_game(g).title for g in games_with_players())
        raise LearnError(f"{get_game(game_name).title} has no learned player yet ({have} has; docs/learned.md)")
    return user_strategy.load(f"{player_path(game_name)}:{LEARNED}")


DEFAULTS = {"generations": 30, "population": 24, "elite": 6, "games": 4000, "held_out": 20000, "final_games": 40000}
AUTO = "auto"  # weights = "auto": the player trained for the scenario's rules, from the user cache or trained now
AUTO_SEED = 20261203  # the seed of every "auto" training (its weights depend only on the rules and seats)
# "auto" players the package ships, trained as auto_weights trains them (same key, same weights):
# the bundled scenarios' rules, so that their first run does not wait for a training
BUNDLED = PLAYERS / "auto"


def _player_constant(game_name: str, name: str) -> dict:
    """A dict constant of the game's player file (``TRAINING``, ``START``, ``DISTILL``), {} if it
    has none."""
    return dict(getattr(player(game_name).module, name, {}))


def training_defaults(game_name: str) -> dict[str, int]:
    """The trainer's settings for a game: :data:`DEFAULTS`, with the player file's ``TRAINING``
    (a slower game trains on fewer games per generation)."""
    return {**DEFAULTS, **_player_constant(game_name, "TRAINING")}


CEM, DISTILL = "cem", "distill"  # the training methods (learn's ``method``; docs/learned.md)
DISTILL_GENERATIONS = 3  # distillation's generations by default (each: positions, rollout values, a fit)


def default_generations(game_name: str, method: str) -> int:
    """The generations a training of ``method`` runs where the caller names none."""
    return DISTILL_GENERATIONS if method == DISTILL else training_defaults(game_name)["generations"]


def _distill_settings(game, u, method: str, given: dict | None) -> dict:
    """{} for the cross-entropy method; distillation's settings (pirate_sim.distill.DEFAULTS,
    the player file's ``DISTILL`` and ``given`` over them) after checking that the game's
    player can be distilled into."""
    from . import distill

    if method not in (CEM, DISTILL):
        raise LearnError(f"method: {method!r} is not a training method; one of {CEM}, {DISTILL}")
    if method == CEM:
        if given:
            raise LearnError(f"{', '.join(sorted(given))}: settings of --method {DISTILL}, not of {CEM}")
        return {}
    if not distill.supports(u):
        raise LearnError(f"method {DISTILL}: {game.title}'s player ({u.path}) has no "
                         f"{distill.FEATURES_HOOK}(view, options, board, psi) yet; use --method {CEM}")
    unknown = sorted(set(given or {}) - set(distill.DEFAULTS))
    if unknown:
        raise LearnError(f"{unknown[0]}: not a setting of --method {DISTILL}; they are {', '.join(distill.DEFAULTS)}")
    out = {**distill.DEFAULTS, **_player_constant(game.name, "DISTILL"), **(given or {})}
    bad = distill.check_settings(out)
    if bad:
        raise LearnError(bad)
    return out


def _distill_generation(sc, out: Path, u, names, mean: np.ndarray, against: list[str], g: int, seed: int,
                        dset: dict) -> np.ndarray:
    """Generation ``g`` (0-based) of distillation (pirate_sim/distill.py): the positions a
    ``search`` seat reaches (games of ``seed``), its rollout values there (the game's own rollout
    strategy; with ``rollout = "learned"``, from the second generation on, the learned player of
    ``mean``), kept in ``out``/distill_data.npz beside the earlier generations'; the fit to all of
    them, from ``mean``."""
    from . import distill

    game = sc.game
    rollout = None
    if g > 0 and dset["rollout"] == "learned":
        rollout = out / "rollout_weights.npz"  # the learned player the rollouts play (mean, these rules)
        write_weights(rollout, Weights(game.name, game.version, rules_hash(game, sc.rules), tuple(names), mean, {}))
    table = distill.positions_table(sc, against, rollout, dset["collect_budget"])
    c = table.compile()
    data = distill.keep(out / "distill_data.npz", g, game.rollout_values(c, seed, int(dset["decisions"]),
                                                                          int(dset["rollouts"])))
    psi = distill.option_psi(u, game.file_board(c), data["views"], data["options"], data["n"])
    return distill.fit(psi, data["q"], data["n"], mean, float(dset["tau"]), float(dset["l2"]))


SEATING_KEYS = ("first_player", "strategy_seating")  # how the table is seated, not how the game plays


def start_weights(game_name: str) -> np.ndarray:
    """Where training starts: 0 for every weight, but those the player file's ``START`` names
    (a prior, e.g. ``{"expert": 1.0}``: begin by playing as the expert's own score says and
    learn the departures from it)."""
    u = player(game_name)
    start = _player_constant(game_name, "START")
    unknown = sorted(set(start) - set(u.params))
    if unknown:
        raise LearnError(f"{u.path}: START names weights the player does not have: {', '.join(unknown)}")
    return np.array([float(start.get(k, 0.0)) for k in u.params])


def rules_hash(game, rules: dict[str, Any]) -> str:
    """What weights are trained for: the game, its rules version and every rule's value (not
    the seating, :data:`SEATING_KEYS`: training rotates the seats; nor the seed or game count)."""
    rules = {k: v for k, v in rules.items() if k not in SEATING_KEYS}
    blob = json.dumps({"game": game.name, "rules_version": game.version, "rules": rules}, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


@dataclass
class Weights:
    """A weights file: the values in the player's ``PARAMS`` order and what they were trained for."""

    game: str
    rules_version: str
    rules_hash: str
    names: tuple[str, ...]
    values: np.ndarray
    info: dict = field(default_factory=dict)  # how they were trained (seed, generations, pool, curve's last point)
    path: Path | None = None
    sha256: str = ""

    def as_params(self) -> dict[str, float]:
        return {k: float(v) for k, v in zip(self.names, self.values)}


def write_weights(path: Path, w: Weights) -> str:
    """Write ``w`` atomically; its SHA-256."""
    from .results import atomic_write_bytes

    meta = {"format": FORMAT, "game": w.game, "rules_version": w.rules_version, "rules_hash": w.rules_hash,
            "names": list(w.names), "info": w.info}
    buf = io.BytesIO()
    np.savez(buf, values=np.asarray(w.values, np.float64), meta=np.array(json.dumps(meta, sort_keys=True)))
    data = buf.getvalue()
    atomic_write_bytes(Path(path), data)
    return hashlib.sha256(data).hexdigest()


def read_weights(path: Path) -> Weights:
    """Read a weights file (LearnError naming the file if it is not one)."""
    path = Path(path)
    if not path.is_file():
        raise LearnError(f"{path}: weights file not found (pirate-sim learn writes one)")
    data = path.read_bytes()
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            values = np.asarray(z["values"], np.float64)
            meta = json.loads(str(z["meta"]))
    except Exception as exc:  # noqa: BLE001 - any unreadable file gets the same one line
        raise LearnError(f"{path}: not a weights file ({type(exc).__name__})") from None
    if meta.get("format") != FORMAT or len(meta.get("names", ())) != len(values) or values.ndim != 1:
        raise LearnError(f"{path}: not a weights file of format {FORMAT}")
    if not np.all(np.isfinite(values)):
        raise LearnError(f"{path}: holds a weight that is not a finite number")
    return Weights(meta["game"], meta["rules_version"], meta["rules_hash"], tuple(meta["names"]), values,
                   meta.get("info", {}), path, hashlib.sha256(data).hexdigest())


def resolve_seat(game, seat: dict, rules: dict[str, Any], base_dir: Path, n_seats: int,
                 training_table: Callable[[], Any]) -> tuple[dict, Any]:
    """A scenario seat ``strategy = "learned"`` checked and resolved: (the seat with its
    weights as parameters, the player's strategy file).  Raises LearnError(key, message).
    ``weights = "auto"``: :func:`auto_weights` (trained for these rules on first use, on the
    scenario ``training_table()`` makes).  The seat's other keys (``base``) come back unchecked:
    the scenario checks them as any seat's."""
    u = player(game.name)
    extra = dict(getattr(game, "user_seat_params", {}))
    known = [WEIGHTS_KEY, ALLOW_KEY, *extra]
    for k in seat:
        if k != "strategy" and k not in known:
            raise LearnError(k, f"unknown parameter of strategy 'learned'; it has {', '.join(known)}")
    if WEIGHTS_KEY not in seat:
        raise LearnError(WEIGHTS_KEY, "missing: the weights file `pirate-sim learn` wrote (weights = \"DIR/weights.npz\")")
    if not isinstance(seat[WEIGHTS_KEY], str):
        raise LearnError(WEIGHTS_KEY, f"expected a file name, got {seat[WEIGHTS_KEY]!r}")
    allow = seat.get(ALLOW_KEY, False)
    if not isinstance(allow, bool):
        raise LearnError(ALLOW_KEY, f"expected true or false, got {allow!r}")
    if seat[WEIGHTS_KEY] == AUTO:
        path = auto_weights(training_table(), {k: seat.get(k, p.default) for k, p in extra.items()})
    else:
        path = Path(seat[WEIGHTS_KEY]).expanduser()
        path = (path if path.is_absolute() else base_dir / path).resolve()
    try:
        w = read_weights(path)
    except LearnError as exc:
        raise LearnError(WEIGHTS_KEY, str(exc)) from None
    if w.game != game.name:
        raise LearnError(WEIGHTS_KEY, f"{path}: weights for {w.game}, not {game.name}")
    if tuple(w.names) != tuple(u.params):
        raise LearnError(WEIGHTS_KEY, f"{path}: its weights are not those of this version's {game.title} player "
                         f"({len(w.names)} named, {len(u.params)} expected); train again")
    mine = rules_hash(game, rules)
    if w.rules_hash != mine and not allow:
        raise LearnError(WEIGHTS_KEY, f"{path}: trained for other rules (rules hash {w.rules_hash}, rules version "
                         f"{w.rules_version}; this scenario's {mine}, {game.version}); train for these rules or set "
                         f"{ALLOW_KEY} = true")
    out = {"strategy": LEARNED, WEIGHTS_KEY: AUTO if seat[WEIGHTS_KEY] == AUTO else str(path), ALLOW_KEY: allow}
    for k, p in extra.items():
        out[k] = seat.get(k, p.default)
    out.update(w.as_params())
    out["weights_sha256"] = w.sha256
    out["weights_file"] = str(path)  # where they were read ("auto": the user cache)
    return out, u


def auto_weights(sc, extra: dict) -> Path:
    """The weights of the player of ``sc``'s game trained for ``sc``'s rules and seat count
    against the expert (the game's training defaults, seed ``sc.seed``: :data:`AUTO_SEED`
    where the scenario builds ``sc``): shipped with the package (:data:`BUNDLED`), from the user
    cache, or trained now and cached there (named by the rules' hash, the seats, the player
    file's SHA-256 and the settings), so that each rules variant of a compare or sweep gets
    its own, and an edit of the player file or of the settings never reads an older player."""
    import sys

    from . import _cache

    game, rules, n_seats = sc.game, sc.rules, sc.n_seats
    u = player(game.name)
    settings = training_defaults(game.name)
    key = hashlib.sha256(json.dumps([rules_hash(game, rules), n_seats, u.sha256, settings, extra, sc.seed],
                                    sort_keys=True, default=str).encode()).hexdigest()[:16]
    bundled = BUNDLED / f"{game.name}-{key}" / "weights.npz"
    if bundled.is_file():  # trained once for the package (docs/bundled_players.py): no wait on first use
        return bundled
    folder = _cache.root() / "learned" / f"{game.name}-{key}"
    path = folder / "weights.npz"
    if path.is_file():
        return path
    print(f"training {game.title}'s learned player for these rules (rules hash {rules_hash(game, rules)}, "
          f"{settings['generations']} generations; once, then cached in {folder})...", file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    partial = folder.with_name(folder.name + ".training")  # a stopped training resumes from here next time
    res = learn(sc, partial, resume=True, force=True, extra=extra, **settings)
    if res.stopped:
        raise KeyboardInterrupt  # the caller's stop; nothing half-trained is ever read as "auto"
    try:
        os.replace(partial, folder)
    except OSError:  # another process finished the same training first: its weights are the same
        if not path.is_file():
            raise
    print(f"trained in {time.perf_counter() - t0:.0f} s: {res.final['share']:.3f} [{res.final['lo']:.3f}, "
          f"{res.final['hi']:.3f}] of the points against the expert on fresh games", file=sys.stderr, flush=True)
    return path


# ------------------------------------------------------------------ training
@dataclass
class LearnResult:
    """What :func:`learn` made: the weights, the learning curve (a row per generation: the
    mean's points against the pool on the held-out games, Wilson 95%), the final table and
    the files in ``out``."""

    weights: Weights
    curve: "Any"  # pandas.DataFrame
    final: dict
    out: Path
    files: list[Path]
    seconds: float
    stopped: bool = False


def _learner_table(sc, against: list[str], values: np.ndarray | None, names: tuple[str, ...], extra: dict) -> Any:
    """The training table: the learner in entry 0, the pool in the others, seats rotating so
    the learner plays every position equally often (the engine scenario, ready to compile)."""
    seat = {"strategy": LEARNED, **extra}
    others = [{"strategy": a} for a in against]
    s = dataclasses.replace(sc, run=dict(sc.run), rules=dict(sc.rules, strategy_seating="rotate"), seats=[seat, *others],
                            overrides=[], notes=[])
    u = player(sc.game.name)
    s.user = {LEARNED: u}
    if values is not None:
        s.seats[0].update({k: float(v) for k, v in zip(names, values)})
    return s


def _points(game, s, values_list: list[np.ndarray], names, seed: int, n: int) -> np.ndarray:
    """The learner's points in each of ``n`` games (win 1, no winner 1 / seats, loss 0) for
    every weight vector, all on the same games: float[len(values_list), n]."""
    from .seating import entries_of_seats

    n_seats = s.n_seats
    ent = entries_of_seats(np.arange(n), n_seats, True)
    out = np.zeros((len(values_list), n))
    for i, v in enumerate(values_list):
        s.seats[0].update({k: float(x) for k, x in zip(names, v)})
        g, _st = game.play(s.compile(), seed, 0, n)
        win = g[:, 0].astype(np.int64)
        mine = ent[np.arange(n), np.clip(win, 0, n_seats - 1)] == 0
        out[i] = np.where(win < 0, 1.0 / n_seats, np.where(mine, 1.0, 0.0))
    return out


def _save_checkpoint(path: Path, mean, spread, curve: list[dict], settings: dict) -> None:
    from .results import atomic_write_bytes

    buf = io.BytesIO()
    np.savez(buf, mean=mean, spread=spread, curve=np.array(json.dumps(curve)), settings=np.array(json.dumps(settings)))
    atomic_write_bytes(path, buf.getvalue())


def _load_checkpoint(path: Path) -> tuple[np.ndarray, np.ndarray, list[dict], dict]:
    try:
        with np.load(path, allow_pickle=False) as z:
            return z["mean"].copy(), z["spread"].copy(), json.loads(str(z["curve"])), json.loads(str(z["settings"]))
    except Exception as exc:  # noqa: BLE001
        raise LearnError(f"{path}: not a training checkpoint ({type(exc).__name__}); use --force") from None


def _wilson_row(points: np.ndarray, fair: float) -> dict:
    from .stats import wilson

    n = len(points)
    e = wilson(float(points.sum()), n)
    return {"share": e.value, "lo": e.lo, "hi": e.hi, "games": n, "fair": fair}


def learn(sc, out: Path, *, generations: int | None = None, population: int | None = None, elite: int | None = None,
          games: int | None = None, held_out: int | None = None, final_games: int | None = None,
          against: list[str] | None = None, seed: int | None = None, resume: bool = False, force: bool = False,
          progress: Callable[[int, int, dict], None] | None = None, extra: dict | None = None,
          method: str = CEM, distill_settings: dict | None = None) -> LearnResult:
    """Train ``sc``'s game's learned player for ``sc``'s rules (see the module docstring);
    write ``out``/weights.npz, curve.csv, final.json, learning_curve.png and checkpoint.npz.
    A setting left None is the game's (:func:`training_defaults`).  ``method``: :data:`CEM`
    (the cross-entropy method) or :data:`DISTILL` (fit the choices to search's rollout values,
    pirate_sim/distill.py; ``distill_settings`` over its ``DEFAULTS``)."""
    import pandas as pd

    from .results import (atomic_path, atomic_write_json, atomic_write_text, clear_dir, has_content, lock_dir,
                          refuse_overlap)

    t0 = time.perf_counter()
    game = sc.game
    d = training_defaults(game.name)
    if generations is None:
        generations = default_generations(game.name, method)
    generations, population, elite, games, held_out, final_games = (
        d[k] if v is None else v for k, v in (("generations", generations), ("population", population),
                                              ("elite", elite), ("games", games), ("held_out", held_out),
                                              ("final_games", final_games)))
    u = player(game.name)
    names = tuple(u.params)
    n_seats = sc.n_seats
    dset = _distill_settings(game, u, method, distill_settings)
    if against is None:
        against = ["expert"] * (n_seats - 1)
    if len(against) != n_seats - 1:
        raise LearnError(f"against: {len(against)} opponents for a {n_seats}-player scenario; give {n_seats - 1}")
    strategies = {s.name for s in game.strategies} - {"search"}
    for a in against:
        if a not in strategies:
            raise LearnError(f"against: unknown opponent {a!r}; one of {', '.join(sorted(strategies))}")
    if not 2 <= elite < population:
        raise LearnError(f"elite: {elite} must be at least 2 and below the population {population}")
    seed = sc.seed if seed is None else int(seed)
    extra = dict(extra or {})
    if "base" in getattr(game, "user_seat_params", {}) and "base" not in extra:
        extra["base"] = "expert"
    out = Path(out)
    ck_path = out / "checkpoint.npz"
    settings = {"game": game.name, "rules_hash": rules_hash(game, sc.rules), "seed": seed, "population": population,
                "elite": elite, "games": games, "held_out": held_out, "against": list(against), "extra": extra,
                "names": list(names), "player_sha256": u.sha256}
    if dset:  # (a CEM training's settings as they always were: its checkpoints resume)
        settings.update(method=DISTILL, distill=dset)
    mean = start_weights(game.name)
    settings["start"] = mean.tolist()
    spread = np.full(len(names), SPREAD0)
    curve: list[dict] = []
    g0 = 0
    with lock_dir(out):  # one command per directory: two trainings would mix their checkpoints
        if resume and ck_path.is_file():
            mean, spread, curve, got = _load_checkpoint(ck_path)
            if got != settings:
                diff = sorted(k for k in settings if got.get(k) != settings[k])
                raise LearnError(f"{out}: cannot resume: the training there has other settings ({', '.join(diff)}); "
                                 "use another -o DIR or --force")
            g0 = len(curve)
        elif has_content(out):
            refuse_overlap(out, [] if sc.source.startswith("<") else [sc.source], what="learn -o")
            if resume and not force:
                raise LearnError(f"{out}: holds no training to resume (no checkpoint.npz); use another -o DIR or --force")
            if not force:
                raise LearnError(f"{out}: is not empty; use --resume to continue its training or --force to replace it")
            clear_dir(out)
        s = _learner_table(sc, list(against), None, names, extra)
        fair = 1.0 / n_seats
        stopped = False
        try:
            for g in range(g0, generations):
                if dset:
                    new_mean, new_spread = _distill_generation(sc, out, u, names, mean, list(against), g,
                                                               seed + TRAIN + g, dset), spread
                    trained = {"decisions": dset["decisions"]}
                else:
                    rng = np.random.default_rng([seed, g])  # a generation's draws depend on (seed, g) only
                    cand = mean + spread * rng.standard_normal((population, len(names)))
                    pts = _points(game, s, list(cand), names, seed + TRAIN + g, games).mean(axis=1)
                    order = np.argsort(-pts, kind="stable")[:elite]
                    new_mean = cand[order].mean(axis=0)
                    new_spread = cand[order].std(axis=0) + SPREAD_FLOOR
                    trained = {"best_training": float(pts[order[0]])}
                held = _points(game, s, [new_mean], names, seed + HELD_OUT, held_out)[0]
                row = {"generation": g + 1, **_wilson_row(held, fair), **trained,
                       "seconds": round(time.perf_counter() - t0, 2)}
                _save_checkpoint(ck_path, new_mean, new_spread, [*curve, row], settings)  # a stop after it keeps g
                mean, spread, curve = new_mean, new_spread, [*curve, row]
                if progress:
                    progress(g + 1, generations, row)
        except KeyboardInterrupt:
            stopped = True
            if ck_path.is_file():  # the stop may fall between the checkpoint and the lines after it
                mean, spread, curve = _load_checkpoint(ck_path)[:3]
        info = {"seed": seed, "generations": len(curve), "population": population, "elite": elite, "games": games,
                "against": list(against), "extra": extra, "trained_seconds": round(time.perf_counter() - t0, 1),
                **({"method": DISTILL, "distill": dset} if dset else {}),
                "curve": [{k: r[k] for k in ("generation", "share", "lo", "hi", "games", "fair")} for r in curve]}
        df = pd.DataFrame(curve)
        final: dict = {}
        if not stopped:  # the final table, on fresh games (the weights file carries it, the report shows it)
            pts = _points(game, s, [mean], names, seed + FINAL, final_games)[0]
            final = {"against": list(against), **_wilson_row(pts, fair), "seed": seed + FINAL,
                     "seconds": round(time.perf_counter() - t0, 1)}
            info["final"] = final
        w = Weights(game.name, game.version, rules_hash(game, sc.rules), names, mean, info)
        files = [out / "weights.npz", out / "curve.csv", out / "checkpoint.npz"]
        w.sha256 = write_weights(out / "weights.npz", w)
        w.path = out / "weights.npz"
        atomic_write_text(out / "curve.csv", df.to_csv(index=False))
        if stopped:
            return LearnResult(w, df, final, out, files, time.perf_counter() - t0, stopped=True)
        final = dict(final, weights_sha256=w.sha256)
        atomic_write_json(out / "final.json", final)
        files.append(out / "final.json")
        png = out / "learning_curve.png"
        fig = curve_figure([("learned", w)])
        with atomic_path(png) as tmp:
            fig.savefig(tmp, format="png", dpi=110)
        import matplotlib.pyplot as plt

        plt.close(fig)
        files.append(png)
        return LearnResult(w, df, final, out, files, time.perf_counter() - t0)


def _how_trained(info: dict) -> str:
    """The training in a few words, from a weights file's ``info`` (either method)."""
    if info.get("method") == DISTILL:
        d = info.get("distill", {})
        return (f"distilled from search: {info.get('generations')} generations x {d.get('decisions', 0):,} "
                f"positions x {d.get('rollouts')} rollouts an option")
    return (f"{info.get('generations')} generations x {info.get('population')} weight vectors x "
            f"{info.get('games', 0):,} games")


def curve_figure(players: list[tuple[str, Weights]]):
    """One page: each player's learning curve (its share against the training pool on held-out
    games by generation, Wilson 95% band) and final table, from its weights file; ``players``
    is (label, weights) with a curve.  `pirate-sim learn`'s PNG and the report's page."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .report.style import COLOURS, FIGSIZE, footnote

    fig, ax = plt.subplots(figsize=FIGSIZE)
    notes = []
    for i, (label, w) in enumerate(players):
        c = COLOURS[i % len(COLOURS)]
        curve = w.info["curve"]
        gen = [r["generation"] for r in curve]
        ax.plot(gen, [100 * r["share"] for r in curve], marker="o", ms=3, color=c,
                label=f"{label}: weights {w.sha256[:12]} (held-out games)")
        ax.fill_between(gen, [100 * r["lo"] for r in curve], [100 * r["hi"] for r in curve], color=c, alpha=0.2)
        f = w.info.get("final")
        if f:
            ax.errorbar([gen[-1] + 0.4], [100 * f["share"]], yerr=[[100 * (f["share"] - f["lo"])],
                        [100 * (f["hi"] - f["share"])]], fmt="s", color=c, capsize=3,
                        label=f"final: {100 * f['share']:.1f}% [{100 * f['lo']:.1f}, {100 * f['hi']:.1f}], "
                              f"{f['games']:,} fresh games")
        notes.append(f"{label}: trained for rules hash {w.rules_hash} ({w.game} {w.rules_version}), seed "
                     f"{w.info.get('seed')}, {_how_trained(w.info)} against {', '.join(w.info.get('against', []))}, "
                     f"{w.info.get('trained_seconds')} s")
    fair = players[0][1].info["curve"][0]["fair"]
    ax.axhline(100 * fair, ls="--", color="grey", lw=1.2, label=f"fair share {100 * fair:.0f}%")
    ax.set(title="Learned players: strength against the training pool as training went on (95% Wilson bands)",
           xlabel="training generation", ylabel="share of the points (%)")
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # generations are whole
    ax.legend(fontsize=8, loc="lower right")
    footnote(fig, "\n".join(notes) + "\nThe curve is measured on held-out games training never played, and the "
             "weights are the last generation's (no pick on the curve); docs/learned.md.")
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    return fig
