"""The operator the printed code implements: its names in the ops-nn package.

One place for the identifiers that the kernel entry, the tiling struct, the host tiling, the
op definition and the aclnn layer must agree on.
"""

from __future__ import annotations

from hswc.tiling import TILING_FIELDS

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
