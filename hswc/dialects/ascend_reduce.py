"""The count form of AscendC's reductions: ReduceSum, ReduceMax, ReduceMin(dst, src, work, count).

dst[0] becomes the sum (maximum, minimum) of src[0:count], combined in the order each SoC's
implementation uses (hswc.reduce_semantics, which cites asc-devkit for it): on Atlas A2/A3 a
sum adds each 256-byte repeat as a binary tree of neighbours and accumulates the repeats' sums
in order; on Ascend 950 it adds repeats lane by lane (up to four) or in trees of trees. `work`
is the call's scratch (sharedTmpBuffer): the interpreter checks its documented minimum size on
the SoC it runs for, and its contents afterwards are unspecified (the models fill what the
implementation may use with a NaN). ReduceMax and ReduceMin are the calIndex = false form
(the value only). T is half or float, the same for the three tensors.

The calls are `ascend.VectorOp`s: vector instructions over `count` elements.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.ir import SSAValue
from xdsl.irdl import irdl_op_definition, operand_def
from xdsl.utils.exceptions import VerifyException

from hswc.dialects.ascend_types import LocalTensorType
from hswc.dialects.ascend_vector import VectorOp
from hswc.dialects.ascend_verify import (
    Elements,
    constant_index,
    require_element,
    require_same_element,
    soc_float_elements,
)


class ReduceCountOp(VectorOp):
    """A count-form reduction (abstract): dst[0] = the reduction of src[0:count]."""

    KIND: ClassVar[str] = ""
    """sum, max or min: hswc.reduce_semantics' name of the combination."""
    ELEMENTS: ClassVar[Elements]
    dst = operand_def(LocalTensorType)
    src = operand_def(LocalTensorType)
    work = operand_def(LocalTensorType)
    assembly_format = (
        "$dst `,` $src `,` $work `,` $count attr-dict "
        "`:` type($dst) `,` type($src) `,` type($work)"
    )

    def __init__(self, dst: SSAValue, src: SSAValue, work: SSAValue, count: SSAValue):
        super().__init__(operands=[dst, src, work, count])

    def verify_(self) -> None:
        require_element(self, "src", self.ELEMENTS)
        require_same_element(self, ("src", "dst", "work"))
        count = constant_index(self.count)
        if count is not None and count < 0:
            raise VerifyException(f"{self.name}: count {count} is negative")


@irdl_op_definition
class ReduceSumOp(ReduceCountOp):
    """AscendC::ReduceSum(dst, src, sharedTmpBuffer, count): dst[0] = the sum of src[0:count].

    Each step rounds once in T (IEEE, subnormals kept; half overflows to inf, the default
    non-saturating mode). The order: hswc.reduce_semantics (A2/A3: a neighbour tree per repeat,
    the repeats' sums added in order; Ascend 950: ReduceSumCounterMode's shapes). count 0 is a
    NOP on A2/A3 and refused on Ascend 950 (not promised a NOP). `work`: any size on A2/A3 (not
    used); on Ascend 950 at least ReduceSum.md's DivCeil(max(1, count / L), 32 / sizeof(T)) * 32 /
    sizeof(T) elements and ceil(count / L) where count > 4L, L = 256 / sizeof(T).

    Example: `ascend.reduce_sum %d, %x, %w, %n : !ascend.local_tensor<f32, veccalc>, ...`
    """

    name = "ascend.reduce_sum"
    KIND: ClassVar[str] = "sum"
    ELEMENTS: ClassVar[Elements] = soc_float_elements("ReduceSum")


@irdl_op_definition
class ReduceMaxOp(ReduceCountOp):
    """AscendC::ReduceMax(dst, src, sharedTmpBuffer, count, false): dst[0] = max of src[0:count].

    IEEE 754-2019 maximum as Max (a NaN wins; -0 < +0). On Ascend 950 the implementation starts
    from the lowest finite value of T, so a row of -inf gives -65504 (half) / -FLT_MAX (float)
    (hswc.reduce_semantics). `work`: on A2/A3 at least ReduceMax.md's DivCeil(2 * max(1,
    count / L), 32 / sizeof(T)) * 32 / sizeof(T) elements; any size on Ascend 950 (not used).

    Example: `ascend.reduce_max %d, %x, %w, %n : !ascend.local_tensor<f16, veccalc>, ...`
    """

    name = "ascend.reduce_max"
    KIND: ClassVar[str] = "max"
    ELEMENTS: ClassVar[Elements] = soc_float_elements("ReduceMax")


@irdl_op_definition
class ReduceMinOp(ReduceCountOp):
    """AscendC::ReduceMin(dst, src, sharedTmpBuffer, count, false): dst[0] = min of src[0:count].

    IEEE 754-2019 minimum as Min; on Ascend 950 started from the highest finite value of T (a
    row of +inf gives 65504 / FLT_MAX). `work` as ReduceMax.

    Example: `ascend.reduce_min %d, %x, %w, %n : !ascend.local_tensor<f32, veccalc>, ...`
    """

    name = "ascend.reduce_min"
    KIND: ClassVar[str] = "min"
    ELEMENTS: ClassVar[Elements] = soc_float_elements("ReduceMin")


REDUCE_OPS: tuple[type[ReduceCountOp], ...] = (ReduceSumOp, ReduceMaxOp, ReduceMinOp)
"""The count-form reductions."""
