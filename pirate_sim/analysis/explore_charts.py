"""Charts for sensitivity and tune (matplotlib Agg): PNGs plus one multi-page PDF each.

Sensitivity: Morris mu*-sigma plots (mu* with its 95% interval), Sobol first/total bars
with 95% whiskers, a response surface over the top two parameters, and the noise shares.
Tune: the objective by trial with the running best, the Pareto front (two objectives) and
each parameter's importance.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402

from ..metrics import is_proportion  # noqa: E402
from .charts import _safe, _save  # noqa: E402

SURFACE_BINS = 6  # cells per axis of a response surface over a continuous (or many-valued) parameter


def _short(key: str) -> str:
    return key[len("rules."):] if key.startswith("rules.") else key


def _morris(ax, sub: pd.DataFrame, metric: str) -> None:
    x, y, err = sub["mu_star"].to_numpy(), sub["sigma"].to_numpy(), sub["mu_star_conf"].to_numpy()
    ax.errorbar(x, y, xerr=err, fmt="o", color="#2c3e50", ecolor="#95a5a6", capsize=3, ms=5)
    for xi, yi, name in zip(x, y, sub["parameter"]):
        ax.annotate(_short(name), (xi, yi), textcoords="offset points", xytext=(4, 4), fontsize=7)
    top = max(float(np.nanmax(x + err)) if len(x) else 0.0, float(np.nanmax(y)) if len(y) else 0.0, 1e-12)
    ax.plot([0, top], [0, top], color="#bbbbbb", lw=0.8, ls="--", label="sigma = mu*")
    ax.set_xlim(left=0)
    ax.set_ylim(bottom=0)
    ax.set_xlabel(f"mu* (mean |change of {metric}| across a parameter's range; bars: 95% CI)", fontsize=8)
    ax.set_ylabel("sigma (interactions / non-linearity)", fontsize=8)
    ax.legend(fontsize=7, loc="upper left")
    ax.grid(alpha=0.3)


def _sobol(ax, sub: pd.DataFrame) -> None:
    sub = sub.sort_values("rank")
    k = np.arange(len(sub))
    w = 0.38
    ax.bar(k - w / 2, sub["S1"], w, yerr=sub["S1_conf"], capsize=3, color="#2980b9", label="first order S1")
    ax.bar(k + w / 2, sub["ST"], w, yerr=sub["ST_conf"], capsize=3, color="#e67e22", label="total ST")
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xticks(k)
    ax.set_xticklabels([_short(p) for p in sub["parameter"]], rotation=25, ha="right", fontsize=7)
    ax.set_ylabel("share of the metric's variance (whiskers: 95% CI)", fontsize=8)
    ax.set_xlabel("parameter", fontsize=8)
    ax.legend(fontsize=7)
    ax.grid(axis="y", alpha=0.3)


def _axis_bins(factor, column: pd.Series) -> tuple[pd.Series, list[str]]:
    """Cell of each design row along one parameter, and the cells' labels."""
    if factor.kind == "set":
        labels = list(factor.labels)
        return column.map({lab: i for i, lab in enumerate(labels)}), labels
    if factor.kind == "int" and factor.levels <= 12:
        vals = list(range(int(factor.lo), int(factor.hi) + 1))
        return column.astype(int) - int(factor.lo), [str(v) for v in vals]
    edges = np.linspace(factor.lo, factor.hi, SURFACE_BINS + 1)
    cells = np.clip(np.searchsorted(edges, column.astype(float), side="right") - 1, 0, SURFACE_BINS - 1)
    return pd.Series(cells, index=column.index), [f"{(a + b) / 2:.3g}" for a, b in zip(edges[:-1], edges[1:])]


def _surface(fig, ax, per_point: pd.DataFrame, fx, fy, metric: str) -> None:
    sub = per_point[per_point["metric"] == metric]
    cx, lx = _axis_bins(fx, sub[fx.key])
    cy, ly = _axis_bins(fy, sub[fy.key])
    scale = 100.0 if is_proportion(metric) else 1.0
    grid = np.full((len(ly), len(lx)), np.nan)
    count = np.zeros_like(grid)
    for i, j, v in zip(cy, cx, sub["value"]):
        if v == v:
            grid[i, j] = (0.0 if count[i, j] == 0 else grid[i, j]) + v * scale
            count[i, j] += 1
    with np.errstate(invalid="ignore", divide="ignore"):
        grid = np.where(count > 0, grid / np.maximum(count, 1), np.nan)
    im = ax.imshow(grid, origin="lower", aspect="auto", cmap="viridis")
    fig.colorbar(im, ax=ax).set_label(metric + (" (%)" if scale == 100 else ""), fontsize=8)
    if grid.size <= 150:
        for i in range(grid.shape[0]):
            for j in range(grid.shape[1]):
                if grid[i, j] == grid[i, j]:
                    ax.text(j, i, f"{grid[i, j]:.3g}\n({int(count[i, j])})", ha="center", va="center", fontsize=6,
                            color="white")
    ax.set_xticks(range(len(lx)))
    ax.set_xticklabels(lx, rotation=20, ha="right", fontsize=7)
    ax.set_yticks(range(len(ly)))
    ax.set_yticklabels(ly, fontsize=7)
    ax.set_xlabel(fx.key, fontsize=8)
    ax.set_ylabel(fy.key, fontsize=8)


def sensitivity_report(res, per_point: pd.DataFrame, base) -> list[Path]:
    """Charts of a sensitivity analysis and sensitivity.pdf with all of them."""
    out = Path(res.out_dir)
    d = res.design
    head = (f"{base.title}\n{d.method}: {d.rows} design points, {res.games_per_point:,} games each, "
            f"seed {base.seed} (common random numbers)")
    files: list[Path] = []
    by_key = {f.key: f for f in res.factors}
    with PdfPages(out / "sensitivity.pdf") as pdf:
        for m in res.metric_names:
            sub = res.indices[res.indices["metric"] == m]
            if sub.empty or bool(sub["constant"].any() or sub["undefined"].any()):
                continue
            fig, ax = plt.subplots(figsize=(8, 5.2))
            if d.method == "morris":
                _morris(ax, sub, m)
                ax.set_title(f"{head}\nMorris screening of {m}", fontsize=9)
                files.append(_save(fig, out / f"morris_{_safe(m)}.png", pdf))
            else:
                _sobol(ax, sub)
                ax.set_title(f"{head}\nSobol indices of {m}", fontsize=9)
                files.append(_save(fig, out / f"sobol_{_safe(m)}.png", pdf))
            if len(res.factors) >= 2:
                top = list(sub.sort_values("rank")["parameter"][:2])
                fig, ax = plt.subplots(figsize=(8, 5.2))
                _surface(fig, ax, per_point, by_key[top[0]], by_key[top[1]], m)
                ax.set_title(f"{head}\nresponse surface of {m} over its top two parameters\n"
                             f"(cell: mean of the design points in it; their count)", fontsize=9)
                files.append(_save(fig, out / f"surface_{_safe(m)}.png", pdf))
        fig, ax = plt.subplots(figsize=(8, max(2.6, 0.4 * len(res.noise) + 1.6)))
        y = np.arange(len(res.noise))[::-1]
        share = res.noise["noise_share"].to_numpy() * 100
        ax.barh(y, share, color=["#c0392b" if s else "#27ae60" for s in res.noise["noise_dominates"]])
        ax.axvline(50, color="black", lw=0.8, ls="--")
        ax.set_yticks(y)
        ax.set_yticklabels(res.noise["metric"], fontsize=8)
        ax.set_xlim(0, 100)
        ax.set_xlabel("Monte Carlo noise variance / variance over the design (%, upper bound)")
        ax.set_ylabel("metric")
        ax.set_title(f"{head}\nhow much of each metric's spread is dice (red: noise dominates)", fontsize=9)
        files.append(_save(fig, out / "noise.png", pdf))
    files.append(out / "sensitivity.pdf")
    return files


def tune_report(res, base) -> list[Path]:
    """Charts of a tuning run and tune.pdf: objective by trial, Pareto front, importances."""
    out = Path(res.out_dir)
    files: list[Path] = []
    hist = res.history
    done = hist[hist["state"] == "COMPLETE"]
    head = f"{base.title}\ntune: {len(hist)} trials, seed {base.seed} (common random numbers)"
    with PdfPages(out / "tune.pdf") as pdf:
        for k, obj in enumerate(res.objectives):
            col = f"objective.{obj.metric}"
            fig, ax = plt.subplots(figsize=(8, 4.8))
            feas = done["feasible"].to_numpy(bool)
            ax.scatter(done["trial"][feas], done[col][feas], s=14, color="#2980b9", label="feasible trial")
            if (~feas).any():
                ax.scatter(done["trial"][~feas], done[col][~feas], s=14, marker="x", color="#c0392b",
                           label="violates a constraint")
            if len(res.objectives) == 1 and feas.any():
                value = done[col].to_numpy(float)
                score = np.array([obj.sign * obj.score(v) if f else np.inf for v, f in zip(value, feas)])
                best_at = [int(np.argmin(score[: i + 1])) for i in range(len(score))]
                best = [value[j] if np.isfinite(score[j]) else np.nan for j in best_at]
                ax.step(done["trial"], best, where="post", color="black", lw=1, label="best so far")
            if obj.goal == "target":
                ax.axhline(obj.target, color="#27ae60", lw=0.8, ls="--", label=f"target {obj.target:g}")
            ax.set_xlabel("trial")
            ax.set_ylabel(f"{obj.metric} ({obj.text})")
            ax.set_title(f"{head}\nobjective by trial", fontsize=9)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7)
            files.append(_save(fig, out / f"tune_objective_{k}.png", pdf))
        if len(res.objectives) == 2 and not done.empty:
            a, b = (f"objective.{o.metric}" for o in res.objectives)
            fig, ax = plt.subplots(figsize=(8, 5.2))
            ax.scatter(done[a], done[b], s=12, color="#bbbbbb", label="trial")
            front = done[done["pareto"]].sort_values(a)
            ax.plot(front[a], front[b], "o-", color="#c0392b", ms=5, label="Pareto front")
            ax.set_xlabel(f"{res.objectives[0].metric} ({res.objectives[0].text})")
            ax.set_ylabel(f"{res.objectives[1].metric} ({res.objectives[1].text})")
            ax.set_title(f"{head}\nPareto front (NSGA-II)", fontsize=9)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7)
            files.append(_save(fig, out / "tune_pareto.png", pdf))
        if res.importances:
            for k, imp in enumerate(res.importances):
                names = list(imp)
                fig, ax = plt.subplots(figsize=(8, max(2.4, 0.4 * len(names) + 1.4)))
                y = np.arange(len(names))[::-1]
                ax.barh(y, [imp[n] for n in names], color="#8e44ad")
                ax.set_yticks(y)
                ax.set_yticklabels([_short(n) for n in names], fontsize=8)
                ax.set_xlabel("importance (optuna's default evaluator, PED-ANOVA; shares sum to 1)")
                ax.set_ylabel("parameter")
                ax.set_title(f"{head}\nparameter importance for {res.objectives[k].metric}", fontsize=9)
                files.append(_save(fig, out / f"tune_importance_{k}.png", pdf))
    files.append(out / "tune.pdf")
    return files
