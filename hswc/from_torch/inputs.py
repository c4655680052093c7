"""Example inputs of the step from PyTorch: shape specs, .npy files and tensors.

A spec is `SHAPE:DTYPE`: dims joined by `x`, each a size or the upper-case name of a dynamic
dim, and f16, bf16 or f32: `4x1000:f16`, `BxN:bf16` (B and N dynamic), `:f32` (rank 0). Inputs
that name the same dim share it (torch.export.Dim). A spec's example tensor is seeded random
data, 4 x a standard normal (so that the activations' thresholds, +-3 and +-6, are crossed),
rounded once to the dtype; a dynamic dim's example size is given (`--dim N=1000`) or
DEFAULT_DIM_SIZE. Tensors move to and from numpy bit for bit (bf16 as ml_dtypes.bfloat16).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np

from hswc.from_torch.errors import InputSpecError

DTYPES: Mapping[str, str] = {"f16": "float16", "bf16": "bfloat16", "f32": "float32"}
"""Spec dtype -> torch dtype name: the element types hswc compiles."""
DEFAULT_DIM_SIZE = 128
"""A dynamic dim's example size when none is given."""
_DIM = re.compile(r"[0-9]+|[A-Z_][A-Z0-9_]*")
_SPEC_HELP = ("write SHAPE:DTYPE, dims joined by 'x', each a size or the upper-case name of a "
              "dynamic dim (e.g. 4x1000:f16, BxN:bf16, :f32 for rank 0)")


@dataclass(frozen=True)
class InputSpec:
    """The shape (sizes, and names of dynamic dims) and dtype of one example input."""

    dims: tuple[int | str, ...]
    dtype: str

    def __str__(self) -> str:
        return f"{'x'.join(str(d) for d in self.dims)}:{self.dtype}"


def parse_spec(text: str) -> InputSpec:
    """`4x1000:f16` as an InputSpec; InputSpecError saying how to write one."""
    shape, colon, dtype = text.strip().rpartition(":")
    if not colon:
        raise InputSpecError(f"input shape '{text}' has no dtype: {_SPEC_HELP}")
    if dtype not in DTYPES:
        raise InputSpecError(f"input shape '{text}': dtype '{dtype}' is not one hswc compiles "
                             f"({', '.join(DTYPES)})")
    words = shape.split("x") if shape else []
    dims: list[int | str] = []
    for word in words:
        if not _DIM.fullmatch(word):
            raise InputSpecError(f"input shape '{text}': '{word}' is not a dim: {_SPEC_HELP}")
        if word.isdigit():
            if int(word) == 0:
                raise InputSpecError(f"input shape '{text}': a dim of size 0 has no elements "
                                     "to compile for")
            dims.append(int(word))
        else:
            dims.append(word)
    return InputSpec(tuple(dims), dtype)


def parse_dim_size(text: str) -> tuple[str, int]:
    """`N=1000` as ('N', 1000)."""
    name, equals, size = text.partition("=")
    if not equals or not _DIM.fullmatch(name) or name.isdigit() or not size.isdigit():
        raise InputSpecError(f"--dim '{text}': write NAME=SIZE, NAME a dynamic dim of an "
                             "input shape (upper case), e.g. N=1000")
    return name, int(size)


def dim_sizes(specs: Sequence[InputSpec], given: Mapping[str, int]) -> dict[str, int]:
    """Each named dim's example size: given or DEFAULT_DIM_SIZE; at least 2, as torch.export
    specialises sizes 0 and 1 to constants."""
    names = list(dict.fromkeys(d for s in specs for d in s.dims if isinstance(d, str)))
    unknown = [n for n in given if n not in names]
    if unknown:
        raise InputSpecError(f"--dim {unknown[0]}: no input shape names that dim (dims named: "
                             f"{', '.join(names) or 'none'})")
    sizes = {n: given.get(n, DEFAULT_DIM_SIZE) for n in names}
    for name, size in sizes.items():
        if size < 2:
            raise InputSpecError(f"--dim {name}={size}: a dynamic dim's example size must be at "
                                 "least 2 (torch.export makes sizes 0 and 1 constants)")
    return sizes


def example_tensor(spec: InputSpec, sizes: Mapping[str, int], rng: np.random.Generator) -> Any:
    """Seeded data of the spec's shape: 4 x a standard normal, rounded once to the dtype."""
    import torch  # pyright: ignore[reportMissingImports]

    shape = tuple(sizes[d] if isinstance(d, str) else d for d in spec.dims)
    values = (4 * rng.standard_normal(shape)).astype(np.float32)
    return torch.from_numpy(values).to(getattr(torch, DTYPES[spec.dtype]))


def dynamic_shapes(specs: Sequence[InputSpec | None]) -> tuple[Any, ...] | None:
    """torch.export's dynamic_shapes for `forward(*inputs)`: each named dim one torch.export.Dim
    (shared by every input naming it); None for an input given as a tensor (None), and when
    no dim is named."""
    import torch  # pyright: ignore[reportMissingImports]

    names = dict.fromkeys(d for s in specs if s for d in s.dims if isinstance(d, str))
    if not names:
        return None
    made = {n: torch.export.Dim(n, min=2) for n in names}
    return (tuple({i: made[d] for i, d in enumerate(s.dims) if isinstance(d, str)} or None
                  if s else None for s in specs),)


def load_tensor(path: str | Path) -> Any:
    """A .npy file's array as a tensor (bf16: ml_dtypes.bfloat16 or its 2-byte bit patterns)."""
    from hswc.interpreter.binding import load_npy
    from hswc.interpreter.errors import InputError

    try:
        array = load_npy(path)
    except InputError as error:
        raise InputSpecError(str(error)) from None
    if array.dtype.kind == "V" and array.dtype.itemsize == 2:  # np.save of a bf16 array
        array = array.view(ml_dtypes.bfloat16)
    if array.dtype not in (np.float16, np.float32, ml_dtypes.bfloat16):
        raise InputSpecError(f"'{path}' holds {array.dtype} values: hswc compiles f16, bf16 "
                             "and f32")
    return from_numpy(np.ascontiguousarray(array))


def from_numpy(array: np.ndarray) -> Any:
    """A tensor with the array's bits (bf16 through int16)."""
    import torch  # pyright: ignore[reportMissingImports]

    if array.dtype == ml_dtypes.bfloat16:
        return torch.from_numpy(array.view(np.int16).copy()).view(torch.bfloat16)
    return torch.from_numpy(array.copy())


def to_numpy(tensor: Any) -> np.ndarray:
    """The tensor's values as numpy, bit for bit (bf16 as ml_dtypes.bfloat16)."""
    import torch  # pyright: ignore[reportMissingImports]

    value = tensor.detach().cpu().contiguous()
    if value.dtype == torch.bfloat16:
        return value.view(torch.int16).numpy().view(ml_dtypes.bfloat16)
    return value.numpy()
