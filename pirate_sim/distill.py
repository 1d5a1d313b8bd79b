"""Distilling ``search`` into a learned player: fit the player's choices to search's rollout values.

One generation of ``pirate-sim learn --method distill`` (docs/learned.md, "Distillation"):

1. **Positions.** A ``search`` seat in the learner's entry plays the training table against the
   pool (seats rotating) and the engine records the decisions it faces
   (``contract.collect_engine``): the positions a strong player of this seat reaches.
2. **Rollout values.** At each, every option gets ``rollouts`` rollouts of the search's rollout
   strategy after it, on the same streams for every option (``engine_template.option_values_nb``):
   the game's own rollout strategy (``expert`` in Pirate's Peak), or with ``rollout = "learned"``,
   from the second generation on, the learned player of the generation before (search over the
   learned player, learn from that search: approximate policy iteration; it measured no better).
3. **Fit.** The player's value of option i is linear in its weights, ``w . psi_i`` (the player
   file's ``option_features(view, options, board, psi)`` fills ``psi`` from the seat's view only,
   as ``learned`` reads it), and it plays the best value.  The fit makes the softmax of those
   values match the softmax of the rollout values at temperature ``tau`` (cross-entropy, L2
   penalty ``l2``; scipy's L-BFGS from the last generation's weights): the search's preference
   among the options, not the values' scale, which the argmax never reads.

Why not regress the values: a least-squares fit of the rollout values (centred per decision)
measured 0.510-0.515 of the points against the expert in Pirate's Peak, the cross-entropy fit
0.526-0.531 on the same positions (docs/learned.md).  Same seed: identical weights on any thread
count (the positions are played on one thread, each position's values depend only on its
recorded state and stream, L-BFGS is deterministic).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

FEATURES_HOOK = "option_features"  # the player file's function that distillation needs
# decisions: positions a generation adds; rollouts: per option at each; tau: the temperature of the
# target (rollout values are win chances: 0.02 = two points of win chance make e times the weight);
# l2: the weights' penalty; collect_budget: the positions' search seat's budget (it only chooses
# the positions); rollout: "game" (the game's rollout strategy every generation) or "learned"
DEFAULTS = {"decisions": 20000, "rollouts": 32, "tau": 0.02, "l2": 1e-3, "collect_budget": 8, "rollout": "game"}
ROLLOUTS_BY = ("game", "learned")  # DEFAULTS["rollout"]'s choices


def check_settings(d: dict) -> str:
    """The first setting of ``d`` (merged over DEFAULTS) that is out of range, as "key: why"; ""."""
    for k in ("decisions", "rollouts", "collect_budget"):
        if not isinstance(d[k], int) or isinstance(d[k], bool) or d[k] < 1:
            return f"{k}: expected a whole number of at least 1, got {d[k]!r}"
    for k, least, what in (("tau", 0.0, "above 0"), ("l2", None, "of at least 0")):
        v = d[k]
        number = isinstance(v, (int, float)) and not isinstance(v, bool)
        if not number or not (v > 0 if least is not None else v >= 0):
            return f"{k}: expected a number {what}, got {v!r}"
    if d["rollout"] not in ROLLOUTS_BY:
        return f"rollout: {d['rollout']!r} is not one of {', '.join(ROLLOUTS_BY)}"
    return ""


def supports(u) -> bool:
    """Does the loaded player file ``u`` (a pirate_sim.user_strategy.UserStrategy) define the hook?"""
    return hasattr(u.module, FEATURES_HOOK)


def positions_table(sc, against: list[str], rollout_weights: Path | None, collect_budget: int):
    """The training table of ``sc``'s rules with a ``search`` seat in the learner's entry and
    the pool ``against`` in the others, seats rotating: rolling out the game's own rollout
    strategy, or with ``rollout_weights`` the learned player of those weights."""
    seat = {"strategy": "search", "budget": int(collect_budget)}
    if rollout_weights is not None:
        seat.update({"rollout": "learned", "weights": str(Path(rollout_weights).resolve())})
    return sc.with_table([seat, *({"strategy": a} for a in against)], {"strategy_seating": "rotate"},
                         source=str(Path(rollout_weights or ".").resolve().parent / "distill.toml"))


def option_psi(u, board, views: np.ndarray, options: np.ndarray, n: np.ndarray) -> list[np.ndarray]:
    """Each decision's ``psi`` (float[n_options, n_weights]) from the player file's hook."""
    hook = getattr(u.module, FEATURES_HOOK)
    k = len(u.params)
    out = []
    for d in range(len(n)):
        psi = np.zeros((int(n[d]), k))
        if n[d] > 1:  # (0: a decision no file is asked, skipped by the engine)
            hook(views[d], options[d, :int(n[d])], board, psi)
        out.append(psi)
    return out


def keep(path: Path, g: int, data: dict) -> dict:
    """Generation ``g``'s positions (``data``: :meth:`rollout_values`'s; the decisions a file is
    asked, 2+ options) added to those of generations ``0 .. g - 1`` kept in ``path``, compressed
    (a resumed training reads them there; rows of a later generation, from a stop between this
    file and the checkpoint, are dropped): every generation's ``views``, ``options``, ``q``, ``n``."""
    import io

    from .results import atomic_write_bytes

    asked = data["n"] > 1
    new = {k: data[k][asked] for k in ("views", "options", "q", "n")}
    new["gen"] = np.full(int(asked.sum()), g, np.int64)
    if g > 0 and path.is_file():
        with np.load(path, allow_pickle=False) as z:
            old = z["gen"] < g
            new = {k: np.concatenate([z[k][old], v]) for k, v in new.items()}
    buf = io.BytesIO()
    np.savez_compressed(buf, **new)
    atomic_write_bytes(path, buf.getvalue())
    return new


def fit(psis: list[np.ndarray], q: np.ndarray, n: np.ndarray, w0: np.ndarray, tau: float, l2: float) -> np.ndarray:
    """The weights whose softmax over each decision's options is nearest (cross-entropy) to the
    softmax of the rollout values at temperature ``tau``, plus ``l2`` |w|^2; from ``w0``."""
    from scipy.optimize import minimize

    rows = [d for d in range(len(n)) if n[d] > 1]
    if not rows:
        return np.asarray(w0, float).copy()
    m = int(max(n[rows]))
    X = np.zeros((len(rows), m, len(w0)))
    T = np.zeros((len(rows), m))
    mask = np.zeros((len(rows), m), bool)
    for row, d in enumerate(rows):
        c = int(n[d])
        X[row, :c] = psis[d]
        t = np.exp((q[d, :c] - q[d, :c].max()) / tau)
        T[row, :c] = t / t.sum()
        mask[row, :c] = True

    def loss(w):
        z = np.where(mask, X @ w, -np.inf)
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        p = e / e.sum(axis=1, keepdims=True)
        ll = -(T * np.log(np.where(mask, p, 1.0))).sum() / len(rows) + l2 * (w @ w)
        grad = -np.einsum("km,kmd->d", T - p, X) / len(rows) + 2 * l2 * w
        return ll, grad

    return minimize(loss, np.asarray(w0, float), jac=True, method="L-BFGS-B").x
