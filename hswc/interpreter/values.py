"""What a value is while the cores of a launch run in lock-step.

The kernel of a launch runs once for a *batch* of B cores (the rows of the batch). A value that
is the same on every core is a plain Python object (an int for `index`, a bool for `i1`, a
LocalTensor, ...). A value that differs between cores is a `Varying`: a numpy array with one
entry per row (int64 or bool for scalars, object for anything else). Host code never sees a
`Varying`.

`Rows` is a subset of the batch (the cores executing right now); control flow that does not
agree across the active rows narrows it (scf.if runs each branch for its own rows, scf.for
keeps a row active while it still has iterations). Entries of a `Varying` outside the active
rows are stale and never looked at.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.ir import Operation

from hswc.diagnostics import OpError


class Varying:
    """A value with one entry per row of the batch: `values[r]` is core r's value."""

    __slots__ = ("values",)

    def __init__(self, values: np.ndarray):
        self.values = values

    def __repr__(self) -> str:
        return f"Varying({self.values!r})"


class Rows:
    """A subset of a batch's rows, as a bool mask with its index, count and slice cached."""

    __slots__ = ("full", "index", "mask", "size", "slice")

    def __init__(self, mask: np.ndarray):
        self.mask = mask
        self.index = np.flatnonzero(mask)
        self.size = int(self.index.size)
        self.full = self.size == mask.size
        first = int(self.index[0]) if self.size else 0
        contiguous = self.size and int(self.index[-1]) - first + 1 == self.size
        self.slice = slice(first, first + self.size) if contiguous else None

    @staticmethod
    def all(n: int) -> Rows:
        return Rows(np.ones(n, dtype=bool))

    def take(self, values: np.ndarray) -> np.ndarray:
        """The entries of a per-row array that belong to these rows (a view when contiguous)."""
        if self.full:
            return values
        return values[self.slice] if self.slice is not None else values[self.index]

    def narrow(self, mask: np.ndarray) -> Rows:
        return Rows(self.mask & mask)


def python_scalar(value: Any) -> Any:
    """numpy scalars as the Python int/bool/float the uniform representation uses."""
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    return value


def uniform_on(rows: Rows | None, value: Any) -> tuple[bool, Any]:
    """(True, v) if `value` is v on every one of `rows`, else (False, None)."""
    if not isinstance(value, Varying):
        return True, value
    taken = on_rows(rows, value.values)
    if taken.size == 0:
        return True, None
    first = taken[0]
    if taken.dtype == object:
        same = all(v is first or v == first for v in taken[1:])
    else:
        same = bool((taken == first).all())
    return (True, python_scalar(first)) if same else (False, None)


def per_row(value: Any, n: int) -> np.ndarray:
    """Any value as an array with one entry per row (a view of a Varying's own array)."""
    if isinstance(value, Varying):
        return value.values
    if isinstance(value, bool):
        return np.full(n, value, dtype=bool)
    if isinstance(value, int):
        return np.full(n, value, dtype=np.int64)
    out = np.empty(n, dtype=object)
    out[:] = [value] * n
    return out


def merge(mask: np.ndarray, chosen: Any, other: Any) -> Any:
    """The value that is `chosen` on the rows of `mask` and `other` elsewhere."""
    if not isinstance(chosen, Varying) and not isinstance(other, Varying):
        if chosen is other or (_comparable(chosen) and type(chosen) is type(other)
                               and chosen == other):
            return chosen
    n = mask.size
    a, b = per_row(chosen, n), per_row(other, n)
    if a.dtype != b.dtype:
        a, b = a.astype(object), b.astype(object)
    return Varying(np.where(mask, a, b))


def _comparable(value: Any) -> bool:
    """Values whose == gives one bool (numpy arrays compare element-wise)."""
    return not isinstance(value, np.ndarray)


def partition(rows: Rows, values: Sequence[Any]) -> list[tuple[Rows, tuple[Any, ...]]]:
    """Split `rows` into groups on which every value is uniform; each group with its values.

    The usual case, every value uniform over `rows`, costs one check per Varying.
    """
    uniform: list[Any] = []
    varying: list[int] = []
    for i, value in enumerate(values):
        same, v = uniform_on(rows, value)
        uniform.append(v)
        if not same:
            varying.append(i)
    if not varying:
        return [(rows, tuple(uniform))]
    groups: dict[tuple[Any, ...], list[int]] = {}
    for r in rows.index.tolist():
        key = tuple(python_scalar(values[i].values[r]) for i in varying)
        groups.setdefault(key, []).append(r)
    parts: list[tuple[Rows, tuple[Any, ...]]] = []
    for key, members in groups.items():
        mask = np.zeros(rows.mask.size, dtype=bool)
        mask[members] = True
        resolved = list(uniform)
        for i, v in zip(varying, key, strict=True):
            resolved[i] = v
        parts.append((Rows(mask), tuple(resolved)))
    return parts


def gather(parts: Sequence[tuple[Rows, Any]], n: int) -> Any:
    """One value from per-part results: uniform when all parts agree, else a Varying."""
    if len(parts) == 1:
        return parts[0][1]
    first = parts[0][1]
    if all(_comparable(v) and v == first for _, v in parts[1:]):
        return first
    kinds = {type(v) for _, v in parts}
    dtype: Any = object
    if kinds <= {int}:
        dtype = np.int64
    elif kinds <= {bool}:
        dtype = bool
    out = np.empty(n, dtype=dtype)
    for rows, v in parts:
        out[rows.index] = v
    return Varying(out)


def raw(value: Any) -> Any:
    """A value as numpy computes on it: a Varying's per-row array, anything else as it is."""
    return value.values if isinstance(value, Varying) else value


def on_rows(rows: Rows | None, values: np.ndarray) -> np.ndarray:
    """The entries of a per-row array that `rows` hold (all of them outside a kernel)."""
    return rows.take(values) if rows is not None else values


def core_range(op: Operation, core: int, start: int, length: int,
               chunks: list[np.ndarray] | None, row: int, limit: int, tensors: str,
               unit: str = "elements") -> tuple[int, int]:
    """The range [start, +length) one core's slice (or its chunk of it: `chunks` the chunk
    ops' offset, length and factor per core, `row` this core's) covers, checked against the
    slice and against `limit` (`tensors` names them in the message); `unit`: "elements" of GM,
    or "rows" of a row kernel."""
    if chunks is not None:
        c_off, c_len, factor = (int(c[row]) for c in chunks)
        if c_off < 0 or c_len < 0 or c_off + c_len > length or c_len > factor:
            raise OpError(op, f"chunk [{c_off}, +{c_len}) is not inside core {core}'s "
                          f"slice of {length} {unit} in passes of {factor}")
        start, length = start + c_off, c_len
    if start < 0 or length < 0 or start + length > limit:
        where = "GM elements" if unit == "elements" else unit
        raise OpError(op, f"core {core} reaches {where} [{start}, {start + length}) "
                      f"outside {tensors}")
    return start, length
