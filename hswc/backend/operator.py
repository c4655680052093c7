"""The operator the printed code implements: its names and its description in the ops-nn package.

One place for the identifiers that the kernel entry, the tiling struct, the host tiling, the
op definition, the aclnn layer, the docs and the unit tests must agree on, and for what the
package says about the op (its formula, its parameters, its example data). Nothing else in
`hswc.backend` spells an operator's name, an input's name or its math. `Operator` derives the
names from the operator's stem (`hard_swish_grad`: the kernels' `@hard_swish_grad_kernel_<dt>`)
and its GM arguments, for the AscendC source; the package writer still reads HardSwishGrad's
constants below.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from hswc.ops.definition import camel
from hswc.reference import hard_swish_grad_cann
from hswc.tiling import TILING_FIELDS

DTYPE_WORDS = {"f16": "FP16", "f32": "FP32", "bf16": "BF16"}


@dataclass(frozen=True)
class Operator:
    """The C++ and ops-nn names of one operator, derived from its stem and GM arguments."""

    stem: str
    """snake_case, e.g. hard_swish_grad: the kernel entry and every package file's stem."""
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    aclnn: str
    scalar_fields: tuple[str, ...] = ()
    """The float fields of the tiling struct after the int64 ones: the kernel's f32 scalars
    (hswc.kernel_signature.scalar_fields)."""

    @property
    def op_type(self) -> str:
        """The type name (OpDef, l0op, the kernel class template): HardSwishGrad."""
        return camel(self.stem)

    @property
    def kernel_entry(self) -> str:
        return self.stem

    @property
    def kernel_namespace(self) -> str:
        return f"Ns{self.op_type}"

    @property
    def tiling_namespace(self) -> str:
        return f"Ns{self.op_type}Tiling"

    @property
    def tiling_struct(self) -> str:
        return f"{self.op_type}TilingData"

    @property
    def gm_arguments(self) -> tuple[str, ...]:
        """The kernel's GM arguments, in order: what `hsg.launch` passes."""
        return self.inputs + self.outputs

    def key_macro(self, dtype: str, variant: int | None = None) -> str:
        """The schMode macro of a dtype's kernel, as ops-nn names it (of variant v of a run-time
        choice: ..._FP16_V<v>)."""
        suffix = "" if variant is None else f"_V{variant}"
        return f"{self.op_type.upper()}_TPL_SCH_MODE_{DTYPE_WORDS[dtype]}{suffix}"

    def tiling_function(self, dtype: str) -> str:
        """The generated plain-C++ host tiling of a dtype's kernel."""
        return f"Compute{self.op_type}Tiling{dtype.capitalize()}"


# region names (HardSwishGrad's, for the package writer)

OP_TYPE = "HardSwishGrad"
"""The operator's type name (OpDef, l0op, the kernel class template)."""
KERNEL_ENTRY = "hard_swish_grad"
"""The `__global__ __aicore__` function; also the stem of every package file."""
KERNEL_NAMESPACE = f"Ns{OP_TYPE}"
TILING_NAMESPACE = f"Ns{OP_TYPE}Tiling"
TILING_STRUCT = f"{OP_TYPE}TilingData"
TILING_STRUCT_FIELDS = TILING_FIELDS
"""int64_t fields of the tiling struct, in the order the kernel function takes them."""
INPUTS = ("grad", "x")
OUTPUTS = ("y",)
GM_ARGUMENTS = INPUTS + OUTPUTS
"""The kernel's GM arguments, in order: what `hsg.launch` passes."""
ACLNN_API = "aclnnHardswishBackward"
ACLNN_INPUTS = ("gradOutput", "self")
"""aclnn's names of INPUTS, in the same order (PyTorch's names, as aclnn takes them)."""
ACLNN_OUTPUTS = ("out",)
"""aclnn's names of OUTPUTS."""

# endregion
# region what the docs say

SUMMARY = "the gradient of HardSwish: {grad} times the derivative of HardSwish at {x}"
"""What the op computes, in one line, with `{name}` for an input's name (README, docs, header)."""
FORMULA = (
    ("{x} <= -3", "{grad} * 0"),
    ("-3 < {x} < 3", "{grad} * ({x} * 0.333333343f + 0.5f)"),
    ("{x} >= 3", "{grad}"),
)
"""y per element, piecewise: (condition, value), with `{name}` for an input's name."""
SEMANTICS = (
    "Every step is computed in float32 and rounded to nearest even; the result is rounded "
    "once to the input dtype. The slope multiplies by 0.333333343f (the float nearest 1/3), "
    "so it can differ from x / 3 by one ulp. x <= -3 gives grad * 0: -0 for a negative grad, "
    "NaN for an infinite or NaN grad. A NaN x gives grad."
)
PARAMETERS: dict[str, str] = {
    "grad": "the gradient flowing back from HardSwish's output",
    "x": "HardSwish's forward input, which sets the local slope",
    "y": "the gradient with respect to x",
}
"""One line for each input and output, by kernel name."""

# endregion
# region example data

EXAMPLE_INPUTS: dict[str, tuple[float, ...]] = {
    "grad": (1, 2, 3, -4, 5, -6, 7, 8, -9),
    "x": (-4, -3, -2, -1, 0, 1, 2, 3, 4),
}
"""The aclnn example's inputs (SPEC section 7)."""
KERNEL_TEST_INPUTS: dict[str, tuple[float, ...]] = {
    "grad": (1.0, 2.0, -3.0, 4.0, -5.0, 0.0, 0.5, -0.75, 1.25, 2.0, -2.0, 3.0, -4.0, 5.0,
             -6.0, 7.0, -8.0, 9.0, -10.0, 11.0, -12.0),
    "x": (-4.0, -3.0, -2.5, -2.0, -1.0, 0.0, 1.0, 2.0, 2.5, 3.0, 4.0, -10.0, -3.0, 3.0, 10.0,
          -0.25, 0.25, -2.999, 2.999, -1.5, 1.5),
}
"""The kernel unit test's inputs: both sides of every threshold, and far outside them."""
REFERENCE: Callable[..., np.ndarray] = hard_swish_grad_cann
"""The bit-exact model of the kernel: y from the inputs, in their dtype."""

# endregion


GE_DTYPES = {"f16": "ge::DT_FLOAT16", "f32": "ge::DT_FLOAT", "bf16": "ge::DT_BF16"}
ACL_DTYPES = {"f16": "ACL_FLOAT16", "f32": "ACL_FLOAT", "bf16": "ACL_BF16"}
DOC_DTYPES = {"f16": "FLOAT16", "f32": "FLOAT", "bf16": "BFLOAT16"}
"""The dtype names of ops-nn's docs."""


def key_macro(dtype: str) -> str:
    """The schMode macro of a dtype's kernel, as ops-nn names it."""
    return f"{OP_TYPE.upper()}_TPL_SCH_MODE_{DTYPE_WORDS[dtype]}"


def tiling_function(dtype: str) -> str:
    """The generated plain-C++ host tiling of a dtype's kernel."""
    return f"Compute{OP_TYPE}Tiling{dtype.capitalize()}"


def snake_case(name: str) -> str:
    """`aclnnHardswishBackward` -> `aclnn_hardswish_backward` (ops-nn's file stems)."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


ACLNN_STEM = snake_case(ACLNN_API)
"""The stem of the aclnn header, source and op_api unit test."""
ACLNN_NAMES: dict[str, str] = dict(zip(INPUTS + OUTPUTS, ACLNN_INPUTS + ACLNN_OUTPUTS, strict=True))
"""Kernel name -> aclnn name of every input and output."""


def summary(names: Mapping[str, str]) -> str:
    """SUMMARY with the inputs spelled by `names` (kernel name -> name to print)."""
    return SUMMARY.format(**names)


def formula_lines(names: Mapping[str, str]) -> list[str]:
    """FORMULA as aligned text rows `y = value , condition`, inputs spelled by `names`."""
    rows = [(value.format(**names), condition.format(**names)) for condition, value in FORMULA]
    width = max(len(value) for value, _ in rows)
    output = names[OUTPUTS[0]]
    return [f"{output} = {value.ljust(width)}  if {condition}" for value, condition in rows]
