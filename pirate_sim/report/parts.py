"""Report aggregates computed part by part, so the report's memory does not grow with the run.

A run's ``games`` and ``seats`` tables are written in parts (one per chunk).  Report pages
never load whole columns: they fold over :class:`Parts`, one part in memory at a time,
and keep only additive aggregates (row counts, integer sums, sums of squares and of
products, exact histograms of integer columns).  Integer sums are exact, so merging parts
gives the same numbers as computing over the whole column, and every estimate and
interval derived from them is the one a whole-column computation gives.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Sequence

import numpy as np
import pandas as pd

Reader = Callable[[list[str]], Iterator[pd.DataFrame]]


def tally(frame: pd.DataFrame, by: Sequence[str] = (), values: Sequence[str] = ()) -> pd.DataFrame:
    """Rows ``n`` and the int64 sums of ``values`` per group of the ``by`` columns of one frame.

    Keys are integer, boolean or categorical columns (a categorical's labels become the keys).
    A value is a column name or a product ``"a*b"`` (``"a*a"``: sum of squares, for variances;
    ``"a*b"``: cross products, for ratio intervals); a repeated value is summed once.
    Without ``by``: one row, the totals.
    """
    if not by:
        return pd.DataFrame({"n": [len(frame)], **{v: [int(_values(frame, v).sum(dtype=np.int64))] for v in values}})
    if not len(frame):
        empty = pd.MultiIndex.from_arrays([[]] * len(by), names=list(by)) if len(by) > 1 else pd.Index([], name=by[0])
        return pd.DataFrame(0, index=empty, columns=["n", *values], dtype=np.int64)
    # one group code per row from the keys' codes, counted and summed by numpy's bincount
    # (a few times faster than a pandas groupby on several keys)
    codes, levels = zip(*(_key_codes(frame[k]) for k in by))
    shape = tuple(len(lv) for lv in levels)
    code = np.ravel_multi_index(codes, shape)
    if math.prod(shape) > len(frame):  # sparse keys (e.g. per game): number only the groups that occur
        used, code = np.unique(code, return_inverse=True)
    else:
        used = np.arange(math.prod(shape))
    n = np.bincount(code, minlength=used.size)
    keep = np.flatnonzero(n)
    out = {"n": n[keep], **{v: _group_sums(code, used.size, _values(frame, v))[keep] for v in values}}
    keys = [lv[k] for lv, k in zip(levels, np.unravel_index(used[keep], shape))]
    index = pd.MultiIndex.from_arrays(keys, names=list(by)) if len(by) > 1 else keys[0].rename(by[0])
    return pd.DataFrame(out, index=index)


def _values(frame: pd.DataFrame, v: str) -> np.ndarray:
    """Column ``v``, or the int64 product of ``"a*b"``."""
    a, _, b = v.partition("*")
    x = frame[a].to_numpy()
    return np.multiply(x, frame[b].to_numpy(), dtype=np.int64) if b else x


def _group_sums(code: np.ndarray, size: int, x: np.ndarray) -> np.ndarray:
    """Exact int64 sums of ``x`` per group: bincount adds in float64, exact while sums stay below 2**53."""
    if len(x) and max(-int(x.min()), int(x.max())) * len(x) >= 2**53:  # could round: add in int64 instead
        out = np.zeros(size, np.int64)
        np.add.at(out, code, x)
        return out
    return np.bincount(code, weights=x, minlength=size).astype(np.int64)


def _key_codes(s: pd.Series) -> tuple[np.ndarray, pd.Index]:
    """Codes 0..k-1 of a key column (no nulls) and the key value each code stands for."""
    if isinstance(s.dtype, pd.CategoricalDtype):
        return s.cat.codes.to_numpy(np.int64), pd.Index(s.cat.categories)
    if pd.api.types.is_bool_dtype(s.dtype):
        return s.to_numpy(np.int64), pd.Index([False, True])
    if pd.api.types.is_integer_dtype(s.dtype) and len(s):
        x = s.to_numpy()
        lo = int(x.min())
        return np.subtract(x, lo, dtype=np.int64), pd.RangeIndex(lo, int(x.max()) + 1)  # offsets as codes
    codes, uniques = pd.factorize(s, sort=True)
    return codes.astype(np.int64), pd.Index(uniques)


def value_columns(values: Sequence[str]) -> list[str]:
    """The columns that ``values`` (names and ``"a*b"`` products) read."""
    return [c for v in values for c in v.split("*")]


def merge(a: Any, b: Any) -> Any:
    """Sum two additive aggregates: tallies add group by group, arrays and numbers add."""
    if a is None:
        return b
    if isinstance(a, pd.DataFrame):
        return pd.concat([a, b]).groupby(level=list(range(a.index.nlevels)), observed=True).sum()
    return a + b


class Parts:
    """A results table read one part at a time: every fold sees a single part.

    ``read(columns)`` yields the parts as DataFrames holding just ``columns``; each fold
    drops a part before it reads the next, so memory is one part whatever the run size.
    """

    def __init__(self, read: Reader):
        self._read = read

    @classmethod
    def of(cls, data: "Parts | pd.DataFrame") -> "Parts":
        """``data`` itself, or a DataFrame as a single part (tests and small tables)."""
        if isinstance(data, Parts):
            return data
        return cls(lambda columns: iter([data[list(dict.fromkeys(columns))]]))

    def fold(self, fn: Callable[[pd.DataFrame], Any], columns: Iterable[str]) -> Any:
        """Sum (:func:`merge`) of ``fn(part)`` over the parts; ``fn`` must return additive aggregates."""
        total = None
        for part in self._read(list(dict.fromkeys(columns))):
            total = merge(total, fn(part))
            del part  # free this part before the next is read
        return total

    def tally(self, by: Sequence[str] = (), values: Sequence[str] = ()) -> pd.DataFrame:
        """:func:`tally` over every part, merged: exact whole-table counts and sums per group."""
        return self.fold(lambda d: tally(d, by, values), [*by, *value_columns(values)])


@dataclass(frozen=True)
class Counts:
    """Exact histogram of an integer column: ``counts[i]`` rows hold ``values[i]`` (ascending).

    Stands in for the column itself: mean, numpy's percentiles and matplotlib's histogram
    bars come out exactly as they would from the rows.
    """

    values: np.ndarray
    counts: np.ndarray

    @classmethod
    def from_tally(cls, t: pd.DataFrame, column: str, **where) -> "Counts":
        """The histogram of ``column`` (a level of tally ``t``) over the groups whose levels equal ``where``.

        E.g. ``Counts.from_tally(t, "final_gold", seat=0)``; a key no group shows gives an empty histogram.
        """
        for level, key in where.items():
            t = t[t.index.get_level_values(level) == key]
        s = t["n"].groupby(level=column).sum()
        s = s[s > 0]
        return cls(s.index.to_numpy(), s.to_numpy(np.int64))

    @property
    def n(self) -> int:
        return int(self.counts.sum())

    def mean(self) -> float:
        return float((self.values.astype(np.int64) * self.counts).sum()) / self.n if self.n else float("nan")

    def value_at(self, rank: int):
        """The ``rank``-th smallest row value (0-based), as in the sorted column."""
        return self.values[np.searchsorted(np.cumsum(self.counts), rank, side="right")]

    def percentile(self, q: float) -> float:
        """``np.percentile(rows, q)`` (linear interpolation) with numpy's own arithmetic."""
        n = self.n
        h = (n - 1) * (q / 100)  # numpy's virtual index for the "linear" method
        if h >= n - 1:
            return float(self.value_at(n - 1))
        k = math.floor(h)
        t = h - k
        a, b = int(self.value_at(k)), int(self.value_at(k + 1))
        # numpy's _lerp: interpolate from the nearer end, so t near 1 gives exactly b
        return float(b - (b - a) * (1 - t)) if t >= 0.5 else float(a + (b - a) * t)

    def hist(self, ax, bins, **kw):
        """``ax.hist(rows, bins, **kw)``: each value weighted by its count gives the same bars."""
        return ax.hist(self.values, bins=bins, weights=self.counts, **kw)
