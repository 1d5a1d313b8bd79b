"""Charts for compare and sweep (matplotlib Agg): PNGs plus one multi-page PDF each.

Every chart has a title, labelled axes and its 95% intervals drawn (bars for a compare,
bands or bars for a sweep, cell annotations for a heatmap).
"""

from __future__ import annotations

import math
from pathlib import Path

from ..plotting import setup as _setup_matplotlib

_setup_matplotlib()
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402
from ..metrics import is_proportion  # noqa: E402

def _safe(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name)


def _save(fig, path: Path, pdf: PdfPages) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    pdf.savefig(fig)
    plt.close(fig)
    return path


# ------------------------------------------------------------------------- compare


def _forest(rows: list[dict], title: str, xlabel: str, scale: float):
    n = len(rows)
    fig, ax = plt.subplots(figsize=(8.5, max(2.5, 0.38 * n + 1.4)))
    y = np.arange(n)[::-1]
    for yi, r in zip(y, rows):
        if r["indep_lo"] == r["indep_lo"]:
            ax.plot([r["indep_lo"] * scale, r["indep_hi"] * scale], [yi - 0.18] * 2, color="#bbbbbb", lw=4,
                    solid_capstyle="butt", label="independent 95% CI" if yi == y[0] else None)
        color = "#c0392b" if r["significant"] else "#2c3e50"
        if r["lo"] == r["lo"]:
            ax.errorbar(r["diff"] * scale, yi + 0.05, xerr=[[max(0.0, (r["diff"] - r["lo"]) * scale)],
                                                         [max(0.0, (r["hi"] - r["diff"]) * scale)]],
                        fmt="o", color=color, capsize=3, ms=4,
                        label=("paired 95% CI" if r["paired"] else "95% CI") if yi == y[0] else None)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(y)
    ax.set_yticklabels([r["metric"] + ("" if r["paired"] else " *") for r in rows], fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("metric")
    ax.set_title(title, fontsize=10)
    ax.legend(loc="best", fontsize=7)
    ax.grid(axis="x", alpha=0.3)
    return fig


def compare_report(res, out_dir: Path) -> list[Path]:
    """Forest plots of A - B (rates in percentage points, the rest in their units) + compare.pdf."""
    out_dir = Path(out_dir)
    def label(s):
        sets = [o for o in s.overrides if not o.startswith("run.")]
        return s.title + (" " + " ".join(sets) if sets else "")

    label_a, label_b = label(res.a), label(res.b)
    head = f"A - B: {label_a} minus {label_b}"
    head = head if len(head) < 110 else head[:107] + "..."
    rates = [r for r in res.rows if is_proportion(r["metric"])]
    others = [r for r in res.rows if not is_proportion(r["metric"])]
    files = []
    with PdfPages(out_dir / "compare.pdf") as pdf:
        if rates:
            fig = _forest(rates, f"{head}\n{res.games:,} paired games, seed {res.seed} (red: significant; * not paired)",
                          "difference A - B (percentage points)", 100.0)
            files.append(_save(fig, out_dir / "compare_rates.png", pdf))
        if others:
            # one panel per metric: units differ (turns, points, counts)
            k = len(others)
            cols = 2 if k > 1 else 1
            nrows = math.ceil(k / cols)
            fig, axes = plt.subplots(nrows, cols, figsize=(8.5, 1.6 * nrows + 1.2), squeeze=False)
            for ax, r in zip(axes.ravel(), others):
                ax.axvline(0, color="black", lw=0.8)
                if r["indep_lo"] == r["indep_lo"]:
                    ax.plot([r["indep_lo"], r["indep_hi"]], [-0.15, -0.15], color="#bbbbbb", lw=4)
                if r["lo"] == r["lo"]:
                    ax.errorbar(r["diff"], 0.1, xerr=[[max(0.0, r["diff"] - r["lo"])], [max(0.0, r["hi"] - r["diff"])]],
                                fmt="o", color="#c0392b" if r["significant"] else "#2c3e50", capsize=3, ms=4)
                ax.set_ylim(-0.6, 0.6)
                ax.set_yticks([])
                ax.set_ylabel(r["metric"] + ("" if r["paired"] else " *"), rotation=0, ha="right", fontsize=8)
                ax.set_xlabel("difference A - B", fontsize=8)
                ax.tick_params(axis="x", labelsize=7)
            for ax in axes.ravel()[k:]:
                ax.axis("off")
            fig.suptitle(f"{head}\nmeans and quantiles (dark: paired 95% CI, grey: independent 95% CI)", fontsize=10)
            files.append(_save(fig, out_dir / "compare_means.png", pdf))
        rs = res.ratios
        if rs:
            names = sorted(rs, key=rs.get)
            fig, ax = plt.subplots(figsize=(8.5, max(2.5, 0.3 * len(names) + 1.4)))
            ax.barh(np.arange(len(names))[::-1], [rs[m] for m in names], color="#2980b9")
            ax.axvline(1.0, color="black", lw=0.8)
            ax.set_yticks(np.arange(len(names))[::-1])
            ax.set_yticklabels(names, fontsize=8)
            ax.set_xlabel("CI half-width, paired / independent (below 1: pairing helps)")
            ax.set_ylabel("metric")
            ax.set_title("What common random numbers bought", fontsize=10)
            files.append(_save(fig, out_dir / "compare_pairing.png", pdf))
    files.append(out_dir / "compare.pdf")
    return files


# --------------------------------------------------------------------------- sweep


def _axis_values(values: list) -> tuple[np.ndarray, list[str], bool]:
    """x positions, tick labels, numeric? for a varied key's values."""
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
    labels = [str(v) for v in values]
    if numeric:
        return np.array(values, dtype=float), labels, True
    return np.arange(len(values), dtype=float), labels, False


def sweep_report(df, keys: list[str], key_values: dict[str, list], metrics_to_plot: list[str],
                 out_dir: Path, title: str) -> list[Path]:
    """Metric against the first varied parameter (CI bands; one line per value of the others),
    plus a heatmap per metric when exactly two parameters are varied.  Writes sweep.pdf."""
    out_dir = Path(out_dir)
    files = []
    k0 = keys[0]
    xs_all, labels0, numeric0 = _axis_values(key_values[k0])
    pos0 = {lab: x for lab, x in zip(labels0, xs_all)}
    others = keys[1:]
    with PdfPages(out_dir / "sweep.pdf") as pdf:
        for m in metrics_to_plot:
            sub = df[df["metric"] == m]
            if sub.empty:
                continue
            scale = 100.0 if is_proportion(m) else 1.0
            unit = " (%)" if is_proportion(m) else ""
            fig, ax = plt.subplots(figsize=(8, 4.8))
            groups = sub.groupby([f"{k}" for k in others], sort=False) if others else [((), sub)]
            for gkey, g in groups:
                g = g.assign(_x=[pos0[str(v)] for v in g[k0]]).sort_values("_x")
                x = g["_x"].to_numpy()
                lab = ", ".join(f"{k}={v}" for k, v in zip(others, gkey if isinstance(gkey, tuple) else (gkey,)))
                val, lo, hi = (g[c].to_numpy() * scale for c in ("value", "lo", "hi"))
                if numeric0 and len(x) > 1:
                    line, = ax.plot(x, val, marker="o", ms=4, label=lab or m)
                    ax.fill_between(x, lo, hi, alpha=0.2, color=line.get_color())
                else:
                    ax.errorbar(x, val, yerr=[np.maximum(val - lo, 0), np.maximum(hi - val, 0)], fmt="o-",
                                capsize=3, ms=4, label=lab or m)
            if not numeric0:
                ax.set_xticks(xs_all)
                ax.set_xticklabels(labels0, rotation=20, ha="right", fontsize=7)
            ax.set_xlabel(k0)
            ax.set_ylabel(m + unit)
            ax.set_title(f"{title}\n{m} against {k0} (bands/bars: 95% CI)", fontsize=10)
            ax.grid(alpha=0.3)
            if others:
                ax.legend(fontsize=7, loc="best")
            files.append(_save(fig, out_dir / f"sweep_{_safe(m)}.png", pdf))
        if len(keys) == 2:
            k1 = keys[1]
            labels1 = [str(v) for v in key_values[k1]]
            for m in metrics_to_plot:
                sub = df[df["metric"] == m]
                if sub.empty:
                    continue
                scale = 100.0 if is_proportion(m) else 1.0
                grid = np.full((len(labels1), len(labels0)), np.nan)
                half = np.full_like(grid, np.nan)
                for _, r in sub.iterrows():
                    i, j = labels1.index(str(r[k1])), labels0.index(str(r[k0]))
                    grid[i, j] = r["value"] * scale
                    half[i, j] = (r["hi"] - r["lo"]) / 2 * scale
                fig, ax = plt.subplots(figsize=(8, 5.5))
                im = ax.imshow(grid, origin="lower", aspect="auto", cmap="viridis")
                cb = fig.colorbar(im, ax=ax)
                cb.set_label(m + (" (%)" if scale == 100 else ""))
                if grid.size <= 120:
                    for i in range(grid.shape[0]):
                        for j in range(grid.shape[1]):
                            if grid[i, j] == grid[i, j]:
                                ax.text(j, i, f"{grid[i, j]:.3g}\n±{half[i, j]:.2g}", ha="center", va="center",
                                        fontsize=6, color="white")
                ax.set_xticks(range(len(labels0)))
                ax.set_xticklabels(labels0, rotation=20, ha="right", fontsize=7)
                ax.set_yticks(range(len(labels1)))
                ax.set_yticklabels(labels1, fontsize=7)
                ax.set_xlabel(k0)
                ax.set_ylabel(k1)
                ax.set_title(f"{title}\n{m} over {k0} x {k1} (cells: value ± 95% half-width)", fontsize=10)
                files.append(_save(fig, out_dir / f"heatmap_{_safe(m)}.png", pdf))
    files.append(out_dir / "sweep.pdf")
    return files
