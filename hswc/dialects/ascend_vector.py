"""The vector instructions of the `ascend` dialect: one op per AscendC vector API call.

Elementwise arithmetic (Add, Sub, Mul, Div, Max, Min; Adds, Muls, Maxs, Mins with a scalar;
Abs, Relu), bitwise logic on 16-bit lanes (And, Or, Not), Duplicate, Compare / CompareScalar
into bit masks, Select and Cast. Each works on `count` elements of LocalTensors in the unified
buffer. Families share an abstract base, so an op is its name, its docstring and its element
types. The calls with a scalar (Muls, Adds, Maxs, Mins, Duplicate, CompareScalar, Select in
VSEL_TENSOR_SCALAR_MODE) take it as a constant attribute or as a run-time value
(`ScalarSourceOp`). The hswc.dialects.ascend module re-exports every op and puts them in the
dialect.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from hswc import soc_api
from hswc.dialects.ascend_select_syntax import parse_select, print_select
from hswc.dialects.ascend_types import (
    MASK_ELEMENT_TYPE,
    CmpMode,
    CmpModeAttr,
    LocalTensorType,
    RoundMode,
    RoundModeAttr,
    SelMode,
    SelModeAttr,
    element_size,
    element_type_name,
)
from hswc.dialects.ascend_verify import (
    HALF_OR_FLOAT,
    Elements,
    constant_index,
    local,
    one_scalar,
    require_element,
    require_same_element,
    require_scalar,
    soc_elements,
    soc_float_elements,
    verify_duplicate_mask,
    with_soc_integers,
)
from hswc.platform import VECTOR_REPEAT_BYTES


class VectorOp(IRDLOperation):
    """A vector instruction over `count` elements of UB tensors (abstract)."""

    count = operand_def(IndexType)


Scalar = FloatAttr | IntegerAttr | SSAValue
"""A scalar source as the constructors take it: a constant (a float, or an integer for integer
tensors), or a value of the kernel's scalar code (a tiling field, or arithmetic on one)."""

SCALAR_FORMAT = "($scalar_value^ `:` type($scalar_value))? ($scalar^)?"
"""The scalar in the assembly format: `0.5 : f32` (the attribute) or `%slope : f32` (a value)."""


class ScalarSourceOp(VectorOp):
    """A vector instruction with a scalar source (abstract): the FloatAttr property `scalar`,
    a compile-time constant, or the operand `scalar_value`, a run-time scalar; either has the
    tensors' dtype. The operand comes after the tensors, before count."""

    scalar = opt_prop_def(base(FloatAttr) | base(IntegerAttr))
    scalar_value = opt_operand_def(base(Float16Type) | base(Float32Type) | base(BFloat16Type)
                                   | base(IntegerType))

    @property
    def scalar_source(self) -> Scalar | None:
        """The scalar, in whichever form the op has it."""
        return self.scalar if self.scalar is not None else self.scalar_value

    def verify_scalar(self, tensor: str) -> None:
        """Exactly one scalar, of the dtype of the tensor operand `tensor`."""
        require_scalar(self, one_scalar(self, self.scalar, self.scalar_value), tensor)


def scalar_parts(scalar: Scalar) -> tuple[list[SSAValue], dict[str, Attribute]]:
    """(the scalar_value operand group, the properties) of a scalar given to a constructor."""
    if isinstance(scalar, FloatAttr | IntegerAttr):
        return [], {"scalar": scalar}
    return [scalar], {}


# region elementwise families: dst and its sources hold one dtype


class _SameDtypeOp(VectorOp):
    """An instruction whose dst and tensor sources hold one dtype, one the call takes."""

    ELEMENTS: ClassVar[Elements] = HALF_OR_FLOAT
    SOURCES: ClassVar[tuple[str, ...]] = ()

    def verify_(self) -> None:
        require_element(self, "dst", self.ELEMENTS)
        require_same_element(self, ("dst", *self.SOURCES))


class _BinaryOp(_SameDtypeOp):
    """dst[i] = src0[i] <op> src1[i] for i < count (Add, Sub, Mul, Div, Max, Min, And, Or)."""

    SOURCES: ClassVar[tuple[str, ...]] = ("src0", "src1")
    dst = operand_def(LocalTensorType)
    src0 = operand_def(LocalTensorType)
    src1 = operand_def(LocalTensorType)
    assembly_format = (
        "$dst `,` $src0 `,` $src1 `,` $count attr-dict "
        "`:` type($dst) `,` type($src0) `,` type($src1)"
    )

    def __init__(self, dst: SSAValue, src0: SSAValue, src1: SSAValue, count: SSAValue):
        super().__init__(operands=[dst, src0, src1, count])


class _UnaryOp(_SameDtypeOp):
    """dst[i] = <op> src[i] for i < count (Abs, Relu, Not)."""

    SOURCES: ClassVar[tuple[str, ...]] = ("src",)
    dst = operand_def(LocalTensorType)
    src = operand_def(LocalTensorType)
    assembly_format = "$dst `,` $src `,` $count attr-dict `:` type($dst) `,` type($src)"

    def __init__(self, dst: SSAValue, src: SSAValue, count: SSAValue):
        super().__init__(operands=[dst, src, count])


class _UnaryScalarOp(_SameDtypeOp, ScalarSourceOp):
    """dst[i] = src[i] <op> scalar for i < count, the scalar in the tensors' dtype (Muls, Adds,
    Maxs, Mins)."""

    SOURCES: ClassVar[tuple[str, ...]] = ("src",)
    dst = operand_def(LocalTensorType)
    src = operand_def(LocalTensorType)
    assembly_format = (
        f"$dst `,` $src `,` {SCALAR_FORMAT} `,` $count attr-dict `:` type($dst) `,` type($src)"
    )

    def __init__(self, dst: SSAValue, src: SSAValue, scalar: Scalar, count: SSAValue):
        value, props = scalar_parts(scalar)
        super().__init__(operands=[dst, src, value, count], properties=props)

    def verify_(self) -> None:
        super().verify_()
        self.verify_scalar("dst")


# endregion
# region arithmetic: IEEE, one rounding to nearest even in T, subnormals kept


@irdl_op_definition
class AddOp(_BinaryOp):
    """AscendC::Add(dst, src0, src1, count): dst = src0 + src1, rounded once in T.

    T is half or float (no bfloat16 arithmetic on A2/A3); subnormals are kept, inf and NaN are
    IEEE's. Any count; elements past it are untouched.

    Example: `ascend.add %d, %a, %b, %n : !ascend.local_tensor<f32, veccalc>, ...`
    """

    ELEMENTS: ClassVar[Elements] = with_soc_integers(HALF_OR_FLOAT, "Add")
    name = "ascend.add"


@irdl_op_definition
class SubOp(_BinaryOp):
    """AscendC::Sub(dst, src0, src1, count): dst = src0 - src1, rounded once in T.

    T is half or float; IEEE as Add.

    Example: `ascend.sub %d, %a, %b, %n : !ascend.local_tensor<f16, veccalc>, ...`
    """

    ELEMENTS: ClassVar[Elements] = with_soc_integers(HALF_OR_FLOAT, "Sub")
    name = "ascend.sub"


@irdl_op_definition
class MulOp(_BinaryOp):
    """AscendC::Mul(dst, src0, src1, count): dst = src0 * src1, rounded once in T.

    T is half or float; IEEE as Add.

    Example: `ascend.mul %y, %g, %s, %n : !ascend.local_tensor<f32, vecout>, ...`
    """

    ELEMENTS: ClassVar[Elements] = with_soc_integers(HALF_OR_FLOAT, "Mul")
    name = "ascend.mul"


@irdl_op_definition
class DivOp(_BinaryOp):
    """AscendC::Div(dst, src0, src1, count): dst = src0 / src1, correctly rounded in T.

    T is half or float; IEEE as Add (x / 0 is a signed inf, 0 / 0 a NaN).

    Example: `ascend.div %d, %a, %b, %n : !ascend.local_tensor<f32, veccalc>, ...`
    """

    name = "ascend.div"


@irdl_op_definition
class MaxOp(_BinaryOp):
    """AscendC::Max(dst, src0, src1, count): dst = IEEE 754-2019 maximum(src0, src1).

    NaN if either operand is NaN, else the larger value with -0 below +0 (Max(-0, +0) = +0).
    An assumption about the hardware: no public document states how it orders zeros and NaN.
    T is half or float.

    Example: `ascend.max %d, %a, %b, %n : !ascend.local_tensor<f16, veccalc>, ...`
    """

    name = "ascend.max"
    ELEMENTS: ClassVar[Elements] = soc_float_elements("Max")


@irdl_op_definition
class MinOp(_BinaryOp):
    """AscendC::Min(dst, src0, src1, count): dst = IEEE 754-2019 minimum(src0, src1).

    NaN if either operand is NaN, else the smaller value with -0 below +0 (Min(-0, +0) = -0);
    an assumption about the hardware, as for Max. T is half or float.

    Example: `ascend.min %d, %a, %b, %n : !ascend.local_tensor<f16, veccalc>, ...`
    """

    name = "ascend.min"
    ELEMENTS: ClassVar[Elements] = soc_float_elements("Min")


@irdl_op_definition
class MulsOp(_UnaryScalarOp):
    """AscendC::Muls(dst, src, scalar, count): dst = src * scalar, rounded once in T.

    T is half or float; the scalar has the tensors' dtype.

    Example: `ascend.muls %s, %x, 0.333333343 : f32, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>`
    """

    ELEMENTS: ClassVar[Elements] = with_soc_integers(HALF_OR_FLOAT, "Muls")
    name = "ascend.muls"


@irdl_op_definition
class AddsOp(_UnaryScalarOp):
    """AscendC::Adds(dst, src, scalar, count): dst = src + scalar, rounded once in T.

    T is half or float; the scalar has the tensors' dtype.

    Example: `ascend.adds %s, %s, 5.000000e-01 : f32, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>`
    """

    ELEMENTS: ClassVar[Elements] = with_soc_integers(HALF_OR_FLOAT, "Adds")
    name = "ascend.adds"


@irdl_op_definition
class MaxsOp(_UnaryScalarOp):
    """AscendC::Maxs(dst, src, scalar, count): dst = maximum(src, scalar), as Max.

    T is half or float; the scalar has the tensors' dtype.

    Example: `ascend.maxs %d, %x, 0.0 : f16, %n : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, veccalc>`
    """

    name = "ascend.maxs"
    ELEMENTS: ClassVar[Elements] = soc_float_elements("Maxs")


@irdl_op_definition
class MinsOp(_UnaryScalarOp):
    """AscendC::Mins(dst, src, scalar, count): dst = minimum(src, scalar), as Min.

    T is half or float; the scalar has the tensors' dtype.

    Example: `ascend.mins %d, %x, 6.0 : f32, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>`
    """

    name = "ascend.mins"
    ELEMENTS: ClassVar[Elements] = soc_float_elements("Mins")


@irdl_op_definition
class AbsOp(_UnaryOp):
    """AscendC::Abs(dst, src, count): dst = |src|, the sign bit cleared (a NaN stays a NaN).

    T is half or float.

    Example: `ascend.abs %d, %x, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>`
    """

    name = "ascend.abs"


@irdl_op_definition
class ReluOp(_UnaryOp):
    """AscendC::Relu(dst, src, count): dst = maximum(src, +0), as Max: Relu(-0) = +0, NaN stays.

    T is half or float.

    Example: `ascend.relu %d, %x, %n : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, veccalc>`
    """

    ELEMENTS: ClassVar[Elements] = with_soc_integers(HALF_OR_FLOAT, "Relu")
    name = "ascend.relu"


@irdl_op_definition
class ExpOp(_UnaryOp):
    """AscendC::Exp(dst, src, count): dst = e^src, rounded once in T.

    T is half or float. The hardware's bits are not published: the model is the correctly
    rounded result, assumed (hswc.math_semantics, the same in the CPU model).

    Example: `ascend.exp %d, %x, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>`
    """

    name = "ascend.exp"


@irdl_op_definition
class LnOp(_UnaryOp):
    """AscendC::Ln(dst, src, count): dst = ln(src), rounded once in T (NaN below 0).

    T is half or float; model as Exp (hswc.math_semantics).

    Example: `ascend.ln %d, %x, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>`
    """

    name = "ascend.ln"


@irdl_op_definition
class SqrtOp(_UnaryOp):
    """AscendC::Sqrt(dst, src, count): dst = sqrt(src), correctly rounded in T (assumed).

    T is half or float (hswc.math_semantics).

    Example: `ascend.sqrt %d, %x, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>`
    """

    name = "ascend.sqrt"


@irdl_op_definition
class RsqrtOp(_UnaryOp):
    """AscendC::Rsqrt(dst, src, count): dst = 1 / sqrt(src), rounded once in T.

    T is half or float; model as Exp (hswc.math_semantics).

    Example: `ascend.rsqrt %d, %x, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>`
    """

    name = "ascend.rsqrt"


# endregion
# region bitwise logic on 16-bit lanes (compare masks seen as ui16 through ReinterpretCast)


@irdl_op_definition
class AndOp(_BinaryOp):
    """AscendC::And(dst, src0, src1, count): dst = src0 & src1 on the bit patterns.

    T is uint16_t or int16_t (Ascend 950 also int32_t, uint32_t: hswc.soc_api); count is in
    elements of T (a ui8 mask of 2n bytes is n 16-bit ones).

    Example: `ascend.and %m, %a, %b, %n : !ascend.local_tensor<ui16, veccalc>, ...`
    """

    name = "ascend.and"
    ELEMENTS: ClassVar[Elements] = soc_elements("And")


@irdl_op_definition
class OrOp(_BinaryOp):
    """AscendC::Or(dst, src0, src1, count): dst = src0 | src1 on the bit patterns.

    T is uint16_t or int16_t (Ascend 950 also int32_t, uint32_t).

    Example: `ascend.or %m, %a, %b, %n : !ascend.local_tensor<ui16, veccalc>, ...`
    """

    name = "ascend.or"
    ELEMENTS: ClassVar[Elements] = soc_elements("Or")


@irdl_op_definition
class ShiftLeftOp(_UnaryScalarOp):
    """AscendC::ShiftLeft(dst, src, scalar, count): dst = src << scalar.

    T is int16_t, uint16_t, int32_t or uint32_t; unsigned lanes shift logically, signed ones keep
    their sign bit (hswc.interpreter.ascendc_shift); the amount is in [0, width].

    Example: `ascend.shift_left %d, %x, 3 : ui32, %n : !ascend.local_tensor<ui32, veccalc>, !ascend.local_tensor<ui32, veccalc>`
    """

    name = "ascend.shift_left"
    ELEMENTS: ClassVar[Elements] = soc_elements("ShiftLeft")


@irdl_op_definition
class ShiftRightOp(_UnaryScalarOp):
    """AscendC::ShiftRight(dst, src, scalar, count): dst = src >> scalar.

    T is int16_t, uint16_t, int32_t or uint32_t; signed lanes shift arithmetically (the sign bit
    copied in), unsigned ones logically; the amount is in [0, width].

    Example: `ascend.shift_right %d, %x, 3 : i32, %n : !ascend.local_tensor<i32, veccalc>, !ascend.local_tensor<i32, veccalc>`
    """

    name = "ascend.shift_right"
    ELEMENTS: ClassVar[Elements] = soc_elements("ShiftRight")


@irdl_op_definition
class NotOp(_UnaryOp):
    """AscendC::Not(dst, src, count): dst = ~src on the 16-bit patterns.

    T is uint16_t or int16_t (Ascend 950 also int32_t, uint32_t).

    Example: `ascend.not %m, %a, %n : !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>`
    """

    name = "ascend.not"
    ELEMENTS: ClassVar[Elements] = soc_elements("Not")


# endregion
# region Duplicate, Compare, Select, Cast


@irdl_op_definition
class DuplicateOp(ScalarSourceOp):
    """AscendC::Duplicate(dst, scalar, count): fill count elements with the scalar.

    Example: `ascend.duplicate %t, -3.000000e+00 : f32, %n : !ascend.local_tensor<f32, veccalc>`
    """

    name = "ascend.duplicate"
    dst = operand_def(LocalTensorType)
    assembly_format = f"$dst `,` {SCALAR_FORMAT} `,` $count attr-dict `:` type($dst)"

    def __init__(self, dst: SSAValue, scalar: Scalar, count: SSAValue):
        value, props = scalar_parts(scalar)
        super().__init__(operands=[dst, value, count], properties=props)

    def verify_(self) -> None:
        require_element(self, "dst", soc_float_elements("Duplicate"))
        self.verify_scalar("dst")


@irdl_op_definition
class DuplicateLanesOp(ScalarSourceOp):
    """AscendC::Duplicate(dst, scalar, mask, 1, 1, 8), the bitwise-mask form (逐bit模式) over one
    repeat: `uint64_t mask[2] = {bits [first, first + count), 0}`, so exactly lanes [first,
    first + count) of dst's first repeat take the scalar and every other element is left as it
    is (asc-devkit docs/zh/api/SIMD-API/基础API/Memory矢量计算/数据填充/Duplicate.md:72-77, the
    prototype; .../SIMD计算说明/掩码.md:113-132, Normal mode: the mask enables lanes bit by bit).
    dst must be 32-byte aligned, like every Duplicate's; the lanes need not start on a block:
    this is how a row run that starts mid-block is written (hswc.vectorizer.broadcast_copy).
    The lanes lie in mask[0]: first + count <= 64 (<= the 64 lanes of a float repeat, half
    the 128 of a half one). count is the lanes written (a VectorOp's count); 0 is an empty mask
    (the interpreter: a NOP on Atlas A2/A3, refused on Ascend 950, as a repeat of 0).

    Example: `ascend.duplicate_lanes %t, %first, %v : f32, %n : !ascend.local_tensor<f32, vecin>`
    """

    name = "ascend.duplicate_lanes"
    CALL: ClassVar[str] = "Duplicate"
    dst = operand_def(LocalTensorType)
    first = operand_def(IndexType)
    assembly_format = (f"$dst `,` $first `,` {SCALAR_FORMAT} `,` $count attr-dict "
                       "`:` type($dst)")

    def __init__(self, dst: SSAValue, first: SSAValue, scalar: Scalar, count: SSAValue):
        value, props = scalar_parts(scalar)
        super().__init__(operands=[dst, first, value, count], properties=props)

    def verify_(self) -> None:
        verify_duplicate_mask(self, self.first, self.count)
        self.verify_scalar("dst")


def _verify_compare_count(op: VectorOp, src: str) -> None:
    """Compare computes whole 256-byte blocks: count * sizeof(T) % 256 == 0 when it is static."""
    count = constant_index(op.count)
    size = element_size(local(op, src).element_type)
    if count is not None and (count * size) % VECTOR_REPEAT_BYTES:
        raise VerifyException(
            f"{op.name}: count {count} of {size}-byte elements is not a whole number of "
            f"{VECTOR_REPEAT_BYTES}-byte blocks"
        )


def _verify_mask(op: IRDLOperation, name: str) -> None:
    if local(op, name).element_type != MASK_ELEMENT_TYPE:
        raise VerifyException(
            f"{op.name}: {name} must be a LocalTensor<uint8_t> mask (ui8), got "
            f"{local(op, name).element_type}"
        )


@irdl_op_definition
class CompareOp(VectorOp):
    """AscendC::Compare(dst, src0, src1, CMPMODE, count): bit mask of src0 <mode> src1.

    Bit i%8 of byte i/8 of dst is 1 where the comparison holds (NaN compares false). Only whole
    256-byte blocks are computed: count * sizeof(T) must be a multiple of 256.

    Example: `ascend.compare %m, %x, %lo, gt, %n : !ascend.local_tensor<ui8, veccalc>, ...`
    """

    name = "ascend.compare"
    dst = operand_def(LocalTensorType)
    src0 = operand_def(LocalTensorType)
    src1 = operand_def(LocalTensorType)
    mode = prop_def(CmpModeAttr)
    assembly_format = (
        "$dst `,` $src0 `,` $src1 `,` $mode `,` $count attr-dict "
        "`:` type($dst) `,` type($src0) `,` type($src1)"
    )

    def __init__(self, dst: SSAValue, src0: SSAValue, src1: SSAValue, mode: CmpMode,
                 count: SSAValue):
        super().__init__(operands=[dst, src0, src1, count], properties={"mode": CmpModeAttr(mode)})

    def verify_(self) -> None:
        _verify_mask(self, "dst")
        require_element(self, "src0", soc_float_elements("Compare"))
        require_same_element(self, ("src0", "src1"))
        _verify_compare_count(self, "src0")


class ScalarCompareOp(ScalarSourceOp):
    """A compare of a tensor with a scalar (abstract): a bit mask of src0 <mode> scalar."""

    dst = operand_def(LocalTensorType)
    src0 = operand_def(LocalTensorType)
    mode = prop_def(CmpModeAttr)
    assembly_format = (
        f"$dst `,` $src0 `,` {SCALAR_FORMAT} `,` $mode `,` $count attr-dict "
        "`:` type($dst) `,` type($src0)"
    )

    def __init__(self, dst: SSAValue, src0: SSAValue, scalar: Scalar, mode: CmpMode,
                 count: SSAValue):
        value, props = scalar_parts(scalar)
        super().__init__(operands=[dst, src0, value, count],
                         properties={**props, "mode": CmpModeAttr(mode)})

    def verify_(self) -> None:
        _verify_mask(self, "dst")
        require_element(self, "src0", soc_float_elements("CompareScalar"))
        self.verify_scalar("src0")
        _verify_compare_count(self, "src0")


@irdl_op_definition
class CompareScalarOp(ScalarCompareOp):
    """AscendC::CompareScalar(dst, src0, scalar, CMPMODE, count): bit mask of src0 <mode> scalar.

    Example: `ascend.compare_scalar %m, %x, -3.000000e+00 : f32, gt, %n : ...`, or with a
    run-time scalar `ascend.compare_scalar %m, %x, %lambd : f32, ge, %n : ...`
    """

    name = "ascend.compare_scalar"


@irdl_op_definition
class ComparesOp(ScalarCompareOp):
    """AscendC::Compares(dst, src0, scalar, CMPMODE, count): CompareScalar's current name, the
    same call (asc-devkit: "CompareScalar has been updated, please use Compares instead").

    Example: `ascend.compares %m, %x, -3.000000e+00 : f32, ge, %n : ...`
    """

    name = "ascend.compares"


@irdl_op_definition
class SelectOp(ScalarSourceOp):
    """AscendC::Select(dst, mask, src0, src1|scalar, SELMODE, count): mask bit 1 -> src0.

    VSEL_TENSOR_TENSOR_MODE and VSEL_CMPMASK_SPR take a tensor src1; VSEL_TENSOR_SCALAR_MODE
    takes a scalar of the tensors' dtype instead (the attribute `scalar` or the operand
    `scalar_value`). dst may be src0.

    Example: `ascend.select %s, %m, %s, %zero, vsel_tensor_tensor_mode, %n : ...`, or with a
    run-time scalar `ascend.select %y, %m, %x, %value : f32, vsel_tensor_scalar_mode, %n : ...`
    """

    name = "ascend.select"
    dst = operand_def(LocalTensorType)
    mask = operand_def(LocalTensorType)
    src0 = operand_def(LocalTensorType)
    src1 = opt_operand_def(LocalTensorType)
    mode = prop_def(SelModeAttr)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(self, dst: SSAValue, mask: SSAValue, src0: SSAValue, src1: Scalar,
                 mode: SelMode, count: SSAValue):
        """src1 is the second source: a LocalTensor, or a scalar (a FloatAttr, or a value of
        a float type)."""
        if isinstance(src1, SSAValue) and isinstance(src1.type, LocalTensorType):
            tensor, value, props = [src1], [], {}
        else:
            tensor, (value, props) = [], scalar_parts(src1)
        super().__init__(operands=[dst, mask, src0, tensor, value, count],
                         properties={**props, "mode": SelModeAttr(mode)})

    def verify_(self) -> None:
        _verify_mask(self, "mask")
        require_element(self, "dst", soc_float_elements("Select"))
        scalar_mode = self.mode.data == SelMode.VSEL_TENSOR_SCALAR_MODE
        if scalar_mode:
            if self.src1 is not None:
                raise VerifyException(
                    f"{self.name}: {self.mode.data.value} takes a scalar as its second source"
                )
            self.verify_scalar("dst")
            require_same_element(self, ("dst", "src0"))
        else:
            if self.src1 is None or self.scalar_source is not None:
                raise VerifyException(
                    f"{self.name}: {self.mode.data.value} takes a tensor as its second source"
                )
            require_same_element(self, ("dst", "src0", "src1"))

    # The syntax is written out (hswc.dialects.ascend_select_syntax): the second source is an
    # operand in both forms, a tensor or a value with its type, which a declarative format
    # cannot tell apart.

    @classmethod
    def parse(cls, parser: Parser) -> SelectOp:
        dst, mask, src0, second, mode, count, attrs = parse_select(parser)
        op = cls(dst, mask, src0, second, mode, count)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        tensors = (self.dst, self.mask, self.src0, *([self.src1] if self.src1 is not None else []))
        sources = [s for s in (self.src1, self.scalar, self.scalar_value) if s is not None]
        print_select(printer, tensors, sources, self.scalar_value, self.mode.data, self.count,
                     self.attributes)


def cast_rules(src: str, dst: str) -> tuple[RoundMode, ...]:
    """The round modes some SoC's AscendC::Cast accepts from `src` to `dst` (hswc.soc_api's
    ASCENDC_CAST rows: e.g. f32 -> bf16 without CAST_NONE, on which the 910B asserts); () for a
    pair no SoC converts."""
    return tuple(RoundMode(m) for m in soc_api.any_soc_cast_modes(src, dst))


@irdl_op_definition
class CastOp(VectorOp):
    """AscendC::Cast(dst, src, RoundMode, count): convert count elements between dtypes.

    Pairs and modes as some SoC's table lists them (cast_rules; hswc/api_tables.def): integer
    results are rounded by the mode and saturated to the destination's range.

    Example: `ascend.cast %f, %h, cast_none, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f16, vecin>`
    """

    name = "ascend.cast"
    dst = operand_def(LocalTensorType)
    src = operand_def(LocalTensorType)
    round_mode = prop_def(RoundModeAttr)
    assembly_format = (
        "$dst `,` $src `,` $round_mode `,` $count attr-dict `:` type($dst) `,` type($src)"
    )

    def __init__(self, dst: SSAValue, src: SSAValue, round_mode: RoundMode, count: SSAValue):
        super().__init__(
            operands=[dst, src, count], properties={"round_mode": RoundModeAttr(round_mode)}
        )

    def verify_(self) -> None:
        pair = (element_type_name(local(self, "src").element_type),
                element_type_name(local(self, "dst").element_type))
        modes = cast_rules(*pair)
        if not modes:
            raise VerifyException(f"{self.name}: no Cast from {pair[0]} to {pair[1]}")
        mode = self.round_mode.data
        if mode not in modes:
            allowed = ", ".join(m.value for m in modes)
            raise VerifyException(
                f"{self.name}: Cast from {pair[0]} to {pair[1]} does not support {mode.value} "
                f"(supported: {allowed})"
            )


# endregion

VECTOR_OPS: tuple[type[VectorOp], ...] = (
    AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp,
    AddsOp, MulsOp, MaxsOp, MinsOp,
    AbsOp, ReluOp, ExpOp, LnOp, SqrtOp, RsqrtOp,
    AndOp, OrOp, NotOp, ShiftLeftOp, ShiftRightOp,
    DuplicateOp, DuplicateLanesOp, CompareOp, CompareScalarOp, ComparesOp, SelectOp, CastOp,
)
"""Every vector instruction of the dialect."""
