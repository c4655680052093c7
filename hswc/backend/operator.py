"""The operator the printed code implements: its names in the ops-nn package.

One place for the identifiers that the kernel entry, the tiling struct, the host tiling, the
op definition and the aclnn layer must agree on. `Operator` derives them from the operator's
stem (`hard_swish_grad`: the kernels' `@hard_swish_grad_kernel_<dt>`) and its GM arguments;
the module constants below are HardSwishGrad's, for the package writer.
"""

from __future__ import annotations

from dataclasses import dataclass

from hswc.ops.definition import camel
from hswc.tiling import TILING_FIELDS

DTYPE_WORDS = {"f16": "FP16", "f32": "FP32", "bf16": "BF16"}


@dataclass(frozen=True)
class Operator:
    """The C++ and ops-nn names of one operator."""

    stem: str
    """snake_case, e.g. hard_swish_grad: the kernel entry and every package file's stem."""
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    aclnn: str

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

    def key_macro(self, dtype: str) -> str:
        """The schMode macro of a dtype's kernel, as ops-nn names it."""
        return f"{self.op_type.upper()}_TPL_SCH_MODE_{DTYPE_WORDS[dtype]}"

    def tiling_function(self, dtype: str) -> str:
        """The generated plain-C++ host tiling of a dtype's kernel."""
        return f"Compute{self.op_type}Tiling{dtype.capitalize()}"


OP_TYPE = "HardSwishGrad"
"""The operator's type name (OpDef, l0op, the kernel class template)."""
KERNEL_ENTRY = "hard_swish_grad"
"""The `__global__ __aicore__` function; also the stem of every package file."""
KERNEL_NAMESPACE = "NsHardSwishGrad"
TILING_NAMESPACE = "NsHardSwishGradTiling"
TILING_STRUCT = "HardSwishGradTilingData"
TILING_STRUCT_FIELDS = TILING_FIELDS
"""int64_t fields of the tiling struct, in the order the kernel function takes them."""
INPUTS = ("grad", "x")
OUTPUTS = ("y",)
GM_ARGUMENTS = INPUTS + OUTPUTS
"""The kernel's GM arguments, in order: what `hsg.launch` passes."""
ACLNN_API = "aclnnHardswishBackward"

_DTYPE_WORDS = {"f16": "FP16", "f32": "FP32", "bf16": "BF16"}
GE_DTYPES = {"f16": "ge::DT_FLOAT16", "f32": "ge::DT_FLOAT", "bf16": "ge::DT_BF16"}
ACL_DTYPES = {"f16": "ACL_FLOAT16", "f32": "ACL_FLOAT", "bf16": "ACL_BF16"}


def key_macro(dtype: str) -> str:
    """The schMode macro of a dtype's kernel, as ops-nn names it."""
    return f"HARDSWISHGRAD_TPL_SCH_MODE_{_DTYPE_WORDS[dtype]}"


def tiling_function(dtype: str) -> str:
    """The generated plain-C++ host tiling of a dtype's kernel."""
    return f"Compute{OP_TYPE}Tiling{dtype.capitalize()}"
