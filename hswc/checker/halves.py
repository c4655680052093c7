"""Tensors of two sizes in one check: a gated op's x of 2H elements along its split dim, its
result (or a gradient's incoming gradient) of H, and one-element operands.

A run of size n (x's element count, even) views x as [rows, 2H], H the largest power of two
dividing n / 2 up to MAX_HALF and rows what is left: a large n gives rows of MAX_HALF over many
cores (2^20: 1024 rows of 512), an n with few factors of two many short rows (2 * 127: 127
rows of 1), so the boundary sizes of hswc.checker.sizes reach the kernels' row loops over cores
and UB passes. A longer half row is not run: ops-nn's GeluMul tiling refuses a last dim over
1024 ("Last dim size should be no more than 1024"), SwigluClamp's a half longer than a UB pass
(5632 f16 elements: "row-internal tiling not implemented"), and the check of a folder stops at
its tiling's first refusal; so the passes within one row of the kernels that have them are not
reached. Every tensor is 2-d with the split dim last, the dim ops-nn's gated
kernels split by default (`dim = -1`); the op's tiling is given those shapes
(hswc.checker.host_tiling).

Kinds of tensor: "x" (rows x 2H), "half" (rows x H), "one" (a single element, its value fixed
by the reference: FatreluMul's threshold), "column" (2H: a value per element of x's rows,
GeluQuant's smooth scales), "row" (rows: a value per row, GeluQuant's out_scale), "x4" (x as
4-d, [1, 1, rows, 2H], for a reduction whose tiling takes 4-d tensors alone: experimental/
activation/softmax_v2's, whose README says "维度为4维" and whose tiling indexes its dims by `dim`
in [0, 3]), "none" (no elements: an output the caller passes as a null address, GeluQuant's
out_scale in its static mode, docs/aclnnGeluQuant.md:215: in the static mode outScaleOptional
is to be a null pointer), "blocks" (rows x H / 128: a scale per block of 128 of a half row,
SwigluGroupQuant's y_scale) and "mx_pairs" (rows x ceil(H / 64) x 2: a scale per block of 32,
in pairs, its MX mode's; hswc.checker.group_quant).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

MAX_HALF = 1 << 9
"""The longest half row (512 elements: x's last dim 1024, GeluMul's largest)."""
KINDS = ("x", "half", "one", "column", "row", "x4", "none", "blocks", "mx_pairs")
WHOLE = ("x", "x4")
"""The kinds of x's whole size (a reduction's tensors)."""


def even(n: int) -> int:
    """n, or n + 1 when odd: the sizes a gated op's x takes."""
    return n + n % 2


def rows_and_half(n: int) -> tuple[int, int]:
    """(rows, H) of x of `n` elements (n rounded up to even)."""
    half = even(n) // 2
    h = 1
    while half % (h * 2) == 0 and h * 2 <= MAX_HALF:
        h *= 2
    return half // h, h


def shape(kind: str, n: int) -> tuple[int, ...]:
    """The shape of a tensor of `kind` in a run of size n."""
    rows, h = rows_and_half(n)
    return {"x": (rows, 2 * h), "half": (rows, h), "one": (1,), "column": (2 * h,),
            "row": (rows,), "x4": (1, 1, rows, 2 * h), "none": (0,),
            "blocks": (rows, -(-h // 128)), "mx_pairs": (rows, -(-h // 64), 2)}[kind]


@dataclass(frozen=True)
class Halves:
    """How a gated op's tensors are sized: each input's kind by name, the result's, and the
    fixed values of its one-element inputs."""

    inputs: Mapping[str, str]
    result: str
    fixed: Mapping[str, float] = field(default_factory=dict)
    outputs: tuple[str, ...] = ()
    """Each output's kind where they differ (GeluQuant's y and out_scale); empty: every output
    of the result's kind."""
    granule: int = 0
    """x's sizes are multiples of it (its tiling's rule, hswc.checker.cases.Sizes); 0: the
    gated ops' default (hswc.checker.check.HALVES_GRANULE)."""

    def output(self, k: int) -> str:
        """The kind of output k."""
        return self.outputs[k] if self.outputs else self.result

    def output_size(self, k: int, n: int) -> int:
        return int(np.prod(shape(self.output(k), n)))

    @property
    def rows_only(self) -> bool:
        """Every tensor x-sized: not halves, rows of 2H reduced along them (a reduction of
        hswc.checker.expected.ROW_OPS)."""
        return self.result in WHOLE and all(k == self.result for k in self.inputs.values())

    def size(self, name: str, n: int) -> int:
        """Elements of input `name` in a run of size n."""
        return int(np.prod(shape(self.inputs[name], n)))

    def result_size(self, n: int) -> int:
        return int(np.prod(shape(self.result, n)))

    def sized(self, names: Sequence[str], drawn: Sequence[np.ndarray], n: int
              ) -> list[np.ndarray]:
        """The drawn inputs (each of n elements) cut to their sizes, a fixed one set to its
        value."""
        out = []
        for name, values in zip(names, drawn, strict=True):
            if name in self.fixed:
                out.append(np.array([self.fixed[name]]).astype(values.dtype))
            else:
                out.append(values[:self.size(name, n)].copy())
        return out

    def shown_names(self, names: Sequence[str]) -> list[str]:
        """The names of `aligned`'s columns."""
        out = []
        for name in names:
            split = self.inputs[name] == "x" and self.result == "half"
            out += [f"{name} (first half)", f"{name} (second half)"] if split else [name]
        return out

    def aligned(self, names: Sequence[str], values: Sequence[np.ndarray], n: int
                ) -> list[np.ndarray]:
        """The inputs as a report shows them beside the result's element i: each the value(s)
        the result's element reads (an x of a half-sized result: its first and its second
        half's element; columns named by `shown_names`)."""
        rows, h = rows_and_half(n)
        width = 2 * h if self.result in WHOLE else h
        r, c = np.divmod(np.arange(rows * width), width)
        shown = []
        for name, v in zip(names, values, strict=True):
            kind = self.inputs[name]
            if kind == "one":
                shown.append(v)
            elif kind == "column":
                shown.append(v[c % v.size])
            elif kind == "half":
                shown.append(v.reshape(rows, h)[r, c % h])
            elif self.result in WHOLE:
                shown.append(v.reshape(rows, 2 * h)[r, c])
            else:
                two = v.reshape(rows, 2 * h)
                shown += [two[r, c], two[r, c + h]]
        return shown
