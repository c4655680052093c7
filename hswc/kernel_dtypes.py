"""The dtype names kernels are known by: one element type, or a dtype boundary's."""

from __future__ import annotations

from collections.abc import Sequence

BOUNDARY = "_to_"
"""Joins a boundary kernel's input and output dtypes in its dtype name."""


def kernel_dtype(inputs: Sequence[str], outputs: Sequence[str]) -> str:
    """The dtype a kernel is named (`@<op>_kernel_<dtype>`) and known by: its one element type
    ('f16'), or, for a kernel at a dtype boundary, its inputs' distinct types, then 'to', then
    its outputs' ('f32_to_f16' reads f32 and writes f16; 'f16_f32_to_f32')."""
    types = [*inputs, *outputs]
    if len(set(types)) == 1:
        return types[0]
    return "_".join(dict.fromkeys(inputs)) + BOUNDARY + "_".join(dict.fromkeys(outputs))


def element_dtypes(dtype: str) -> list[str]:
    """Every element type a kernel of this kernel_dtype reads or writes."""
    return dtype.replace(BOUNDARY, "_").split("_")


def output_dtype(dtype: str) -> str:
    """The (first) output's element type of a kernel of this kernel_dtype: what its tiling key
    says, as ops-nn keys a kernel by the dtype it writes."""
    return dtype.rpartition(BOUNDARY)[2].split("_")[0]
