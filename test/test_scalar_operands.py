"""Building the ascend ops with run-time scalars, and the kernel signature the scalars extend:
how arguments split and what the tiling struct calls each scalar."""

from __future__ import annotations

import re

import pytest
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    FloatAttr,
    IndexType,
    MemRefType,
    f16,
    f32,
)
from xdsl.dialects.func import FuncOp
from xdsl.dialects.test import TestOp as MakeValues
from xdsl.ir import SSAValue
from xdsl.utils.exceptions import VerifyException

from hswc.dialects import ascend
from hswc.kernel_signature import kernel_arguments, scalar_fields


def values(*types: object) -> list[SSAValue]:
    return list(MakeValues(result_types=list(types)).results)


def tensor(element: object) -> ascend.LocalTensorType:
    return ascend.LocalTensorType(element, ascend.TPosition.VECCALC)


# region constructors


def test_scalar_ops_take_an_attribute_or_a_value_in_the_same_position() -> None:
    dst, src, count, slope = values(tensor(f32), tensor(f32), IndexType(), f32)
    constant = ascend.MulsOp(dst, src, FloatAttr(0.5, f32), count)
    assert constant.scalar == FloatAttr(0.5, f32) and constant.scalar_value is None
    assert list(constant.operands) == [dst, src, count]
    runtime = ascend.MulsOp(dst, src, slope, count)
    assert runtime.scalar is None and runtime.scalar_value is slope
    assert list(runtime.operands) == [dst, src, slope, count]  # the value comes before count
    for op in (constant, runtime):
        op.verify()
    duplicate = ascend.DuplicateOp(dst, slope, count)
    mask, = values(tensor(ascend.MASK_ELEMENT_TYPE))
    compare = ascend.CompareScalarOp(mask, src, slope, ascend.CmpMode.GE, count)
    assert duplicate.scalar_source is slope and compare.scalar_source is slope
    duplicate.verify()
    compare.verify()


def test_select_tells_a_tensor_from_a_scalar_by_its_type() -> None:
    dst, mask, count, value = values(tensor(f16), tensor(ascend.MASK_ELEMENT_TYPE), IndexType(),
                                     f16)
    with_tensor = ascend.SelectOp(dst, mask, dst, dst, ascend.SelMode.VSEL_TENSOR_TENSOR_MODE,
                                  count)
    with_value = ascend.SelectOp(dst, mask, dst, value, ascend.SelMode.VSEL_TENSOR_SCALAR_MODE,
                                 count)
    with_constant = ascend.SelectOp(dst, mask, dst, FloatAttr(1.0, f16),
                                    ascend.SelMode.VSEL_TENSOR_SCALAR_MODE, count)
    assert with_tensor.src1 is dst and with_tensor.scalar_source is None
    assert with_value.src1 is None and with_value.scalar_value is value
    assert with_constant.src1 is None and with_constant.scalar == FloatAttr(1.0, f16)
    for op in (with_tensor, with_value, with_constant):
        op.verify()


def test_a_value_of_another_dtype_is_refused() -> None:
    dst, count, value = values(tensor(f32), IndexType(), f16)
    message = "ascend.adds: the scalar has type f16 but dst holds f32"
    with pytest.raises(VerifyException, match=re.escape(message)):
        ascend.AddsOp(dst, dst, value, count).verify()


# endregion
# region the kernel signature


def kernel(*hints: str | None) -> FuncOp:
    """A kernel (x, y, the three tiling indices, one f32 per hint)."""
    gm = MemRefType(Float16Type(), [-1])
    fn = FuncOp("k", ((gm, gm, IndexType(), IndexType(), IndexType(),
                       *(Float32Type() for _ in hints)), ()))
    for arg, hint in zip(fn.body.block.args[5:], hints, strict=True):
        arg.name_hint = hint
    return fn


def test_kernel_arguments_split_by_type() -> None:
    fn = kernel("negative_slope", "lambd")
    args = fn.body.block.args
    split = kernel_arguments(fn)
    assert (split.gm, split.tiling, split.scalars) == (args[:2], args[2:5], args[5:])


def test_scalar_fields_are_lower_camel_with_fallbacks() -> None:
    assert scalar_fields(kernel_arguments(kernel("negative_slope", "lambd")).scalars) == (
        "negativeSlope", "lambd")
    # No hint; an int64 field's name; a repeated name; a C++ keyword; an AscendC type.
    hints = (None, "ub_factor", "min_val", "min_val_1", "float", "half")
    assert scalar_fields(kernel_arguments(kernel(*hints)).scalars) == (
        "scalar0", "scalar1", "minVal", "scalar3", "scalar4", "scalar5")


def test_a_fallback_name_a_hint_already_took_is_not_reused() -> None:
    assert scalar_fields(kernel_arguments(kernel("scalar1", None)).scalars) == (
        "scalar1", "scalar1_1")


# endregion


# region equal attributes of a fused chain


def _kernel_scalar_names(text: str) -> list[str]:
    """The f32 scalar arguments of the one kernel hswc-opt --lower-to-ascend makes of `text`."""
    import subprocess
    lowered = subprocess.run(["hswc-opt", "--lower-to-ascend", "-"], input=text, text=True,
                             capture_output=True, check=True).stdout
    (signature,) = re.findall(r"func\.func @\w+_kernel_\w+\(([^)]*)\)", lowered)
    return re.findall(r"%(\w+): f32", signature)


CHAIN = """func.func @chain(%v0: tensor<?xf16>) -> tensor<?xf16> {{
  %v1 = hsg.leaky_relu %v0 {{negative_slope = {a} : f32}} : tensor<?xf16>
  %v2 = hsg.leaky_relu %v1 {{negative_slope = {b} : f32}} : tensor<?xf16>
  %v3 = hsg.elu %v2 : tensor<?xf16>
  func.return %v3 : tensor<?xf16>
}}
"""


def test_equal_attributes_of_one_name_are_one_kernel_scalar() -> None:
    """A fused chain's attributes of one name and value are one kernel argument (the chain of
    100,000 ops had one per op); different values, and different names of one value (elu's
    alpha, scale and input_scale, all 1.0: its package's attributes), stay apart."""
    assert _kernel_scalar_names(CHAIN.format(a="2.0e-01", b="2.0e-01")) == [
        "negative_slope", "alpha", "scale", "input_scale"]
    assert _kernel_scalar_names(CHAIN.format(a="2.0e-01", b="3.0e-01")) == [
        "negative_slope", "negative_slope_1", "alpha", "scale", "input_scale"]
