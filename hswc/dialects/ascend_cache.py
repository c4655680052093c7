"""GlobalTensor<T>::SetL2CacheHint: how a GM tensor's copies use the L2 cache.

asc-devkit documents it (kernel_operator_tensor, GlobalTensor::SetL2CacheHint(CacheMode)) and
uses it in add_high_performance (examples/01_simd_cpp_api/05_best_practices/00_vector_compute/
add_high_performance, `ProcessDoubleBufferL2Bypass`): inputs read once are set to
CACHE_MODE_DISABLE, so their lines do not take L2 from the output's writes, which then stay in
L2 (measured: the Add's task time 264 -> 188 us on Atlas A2, 248 -> 182 us on Ascend 950;
hswc.platform.ADD_PROFILES). It changes no value.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def
from xdsl.utils.exceptions import VerifyException

from hswc.dialects.ascend_types import GlobalTensorType

CACHE_MODES = {"disable": "CACHE_MODE_DISABLE", "normal": "CACHE_MODE_NORMAL"}
"""The modes hswc emits, by the op's `mode` spelling: AscendC::CacheMode's enumerators (asc-devkit
also has CACHE_MODE_LAST and CACHE_MODE_PERSISTENT, which hswc does not use)."""


@irdl_op_definition
class SetL2CacheHintOp(IRDLOperation):
    """GlobalTensor<T>::SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_<MODE>).

    Example: `ascend.set_l2_cache_hint %x_gm, "disable" : !ascend.global_tensor<f16>`
    """

    name = "ascend.set_l2_cache_hint"
    tensor = operand_def(GlobalTensorType)
    mode = prop_def(StringAttr)
    assembly_format = "$tensor `,` $mode attr-dict `:` type($tensor)"
    MODES: ClassVar[dict[str, str]] = CACHE_MODES

    def __init__(self, tensor: SSAValue, mode: str = "disable"):
        super().__init__(operands=[tensor], properties={"mode": StringAttr(mode)})

    def verify_(self) -> None:
        if self.mode.data not in CACHE_MODES:
            known = ", ".join(CACHE_MODES)
            raise VerifyException(f"{self.name}: unknown cache mode '{self.mode.data}' "
                                  f"(known: {known})")
