"""hsg.swiglu_group_quant_grad: ops-nn's SwigluGroupQuantGrad (activation/
swiglu_group_quant_grad, Ascend 950 only), the gradient of SwigluGroup's SwiGLU on the halves
(a, b) of x's last dim, with its optional per-row weight, without group_index (`hsg.first_rows`
on each result says it: the kernel computes the counted rows; it writes zeros past them, one of
the values first_rows leaves open).

    %dx = hsg.swiglu_group_quant_grad %gy, %x : tensor<4x64xf16>, tensor<4x128xf16>
    %dx, %dw = hsg.swiglu_group_quant_grad %gy, %x, %w, %yo {clamp_limit = 7.0 : f32}
        : tensor<4x64xbf16>, tensor<4x128xbf16>, tensor<4xf32>, tensor<4x64xbf16>

grad_y and y_origin have x's type with the last dim halved, weight is f32 of x's leading dims
(one per row; ops-nn's two operands come together or not at all: op_host/
swiglu_group_quant_grad_tiling_utils.h:309). clamp_limit is -1.0 (no clamp, ops-nn's default:
op_host/swiglu_group_quant_grad_def.cpp:57) or > 0. Results: dx (x's type) and, with weight,
grad_weight (f32, weight's shape). As the kernel computes (op_kernel/
swiglu_group_quant_grad.h:167-370, in ProcessTile's order, :473-514), every step in f32 (g, a,
b and y_origin widened exactly):

    grad_weight = sum over the last dim of g * y_origin          (g before the weight)
    g' = g * weight (with weight, else g)
    a' = min(a, L), b' = min(max(b, -L), L)  (with clamp_limit L, else a, b)
    e = exp(a'), s = e / (e + 1), silu = a' * s, ds = s * ((1 - s) * a' + 1)
    da = (g' * b') * ds, db = g' * silu
    with L: da = da * (a < L ? 1 : 0), db = db * (-L < b < L ? 1 : 0)   (a, b as read)

dx holds da and db where x holds a and b, rounded once to x's type (CAST_RINT). The kernel's
sigmoid is e / (e + 1): NaN where exp(a') overflows f32 (a' above about 88.72), and its masks
multiply (NaN and inf gradients stay NaN where masked). The README (docs/
aclnnSwigluGroupQuantGrad.md) writes the same steps without their order, and the sigmoid as
1 / (1 + exp(-a')), finite where the kernel's is NaN: this op follows the kernel. Its semantics
are its decomposition (hswc.ops.group_quant_grad) and, independently, its golden model
(hswc.reference_gated), which the hsg level runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import Float32Type, TensorType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import irdl_op_definition, opt_result_def, result_def
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from hswc.dialects.hsg_gated_ops import GatedOp, half_type
from hswc.dialects.hsg_gated_variants import (
    NO_CLAMP_LIMIT,
    AttrValue,
    GatedVariantOp,
    SwigluGroupOp,
    attribute,
)
from hswc.dialects.hsg_group_quant import verify_results
from hswc.dialects.hsg_tensor_functions import FLOAT_TYPES

F32 = Float32Type()


def row_type(x: Attribute) -> TensorType[Attribute]:
    """weight's and grad_weight's type for x: f32 of x's leading dims."""
    assert isinstance(x, TensorType)
    return TensorType(F32, list(x.get_shape()[:-1]))


@irdl_op_definition
class SwigluGroupQuantGradOp(GatedVariantOp):
    """ops-nn's SwigluGroupQuantGrad without group_index (module docstring)."""

    name = "hsg.swiglu_group_quant_grad"
    INPUTS: ClassVar[tuple[str, ...]] = ("grad_y", "x")
    WEIGHT_INPUTS: ClassVar[tuple[str, ...]] = ("weight", "y_origin")
    """ops-nn's optional operands after INPUTS, given both or neither."""
    X_INDEX: ClassVar[int] = 1
    TORCH: ClassVar[str] = "ops-nn's SwigluGroupQuantGrad"
    OPSNN: ClassVar[str] = "swiglu_group_quant_grad"
    DEFAULTS: ClassVar[Mapping[str, AttrValue]] = {"clamp_limit": NO_CLAMP_LIMIT}
    REFUSED: ClassVar[str] = (
        "ops-nn's group_index (the number of rows computed, read from a tensor at run time), "
        "which hsg.swiglu_group_quant_grad does not take: write `hsg.first_rows` on each "
        "result")

    result = result_def(TensorType)
    grad_weight = opt_result_def(TensorType)

    def __init__(self, *inputs: SSAValue, **attributes: AttrValue):
        unknown = sorted(set(attributes) - set(self.DEFAULTS))
        assert not unknown, f"{self.name} takes no {unknown}"
        props = {k: attribute(v) for k, v in {**self.DEFAULTS, **attributes}.items()}
        x = inputs[self.X_INDEX].type
        results: list[Attribute | list[Attribute]] = [
            x, [row_type(x)] if len(inputs) > 2 else []]
        super(GatedOp, self).__init__(operands=[list(inputs)], result_types=results,
                                      properties=props)

    @classmethod
    def gradient(cls) -> bool:
        return True

    @classmethod
    def half_inputs(cls) -> tuple[str, ...]:
        return ("grad_y", "y_origin")

    def operand_names(self) -> tuple[str, ...]:
        return (*self.INPUTS, *self.WEIGHT_INPUTS)[:len(self.inputs)]

    def weighted(self) -> bool:
        """Whether weight and y_origin are given (and grad_weight returned)."""
        return len(self.inputs) == 4

    clamped = SwigluGroupOp.clamped  # SwigluGroup's clamp_limit and its constraint
    verify_values = SwigluGroupOp.verify_values

    def verify_(self) -> None:
        n = len(self.inputs)
        if n > 4:
            raise VerifyException(f"{self.name}: operand 5 would be {self.REFUSED}")
        if n not in (2, 4):
            raise VerifyException(f"{self.name}: takes grad_y and x, or grad_y, x, weight and "
                                  f"y_origin (ops-nn needs y_origin with weight), got {n} "
                                  "operands")
        x = self.x_type
        if not isinstance(x, TensorType) or x.get_num_dims() < 2:
            raise VerifyException(f"{self.name}: x has type {x}; it must be of rank 2 to 8 "
                                  "(op_host/swiglu_group_quant_grad_def.cpp, the aclnn "
                                  "constraints)")
        if x.get_num_dims() > 8:
            raise VerifyException(f"{self.name}: x has rank {x.get_num_dims()}; it must be of "
                                  "rank 2 to 8")
        self._verify_split_last(x)
        half = half_type(x, x.get_num_dims() - 1)
        want: dict[str, Attribute] = {"grad_y": half, "weight": row_type(x), "y_origin": half}
        for name, operand in zip(self.operand_names(), self.inputs, strict=True):
            if name in want and operand.type != want[name]:
                raise VerifyException(f"{self.name}: {name} has type {operand.type}; it must "
                                      f"be {want[name]}")
        verify_results(self, [x, *([row_type(x)] if self.weighted() else [])], "they must be")

    def _verify_split_last(self, x: TensorType[Attribute]) -> None:
        """x's element type, the attributes and x's last dim (even)."""
        element = x.get_element_type()
        if not isinstance(element, FLOAT_TYPES):
            raise VerifyException(f"{self.name}: x has element type {element}; {self.TORCH} "
                                  "takes f16, bf16 and f32")
        self._verify_attributes(x.get_num_dims())
        d = x.get_shape()[-1]
        if d >= 0 and d % 2:
            raise VerifyException(f"{self.name}: x's last dim has {d} elements, an odd number: "
                                  "it does not split into two halves")

    def split_dim(self) -> int:
        return self.x_type.get_num_dims() - 1

    @classmethod
    def parsed_result_types(cls, types: Sequence[Attribute], properties: dict[str, Attribute],
                            parser: Parser, pos: int) -> list[Attribute | list[Attribute]]:
        if len(types) < 2 or not isinstance(types[1], TensorType) \
                or types[1].get_num_dims() == 0:
            parser.raise_error(f"{cls.name}: takes grad_y and x (and weight, y_origin) with x a "
                               "ranked tensor of rank 2 to 8", pos, parser.pos)
        x = types[1]
        return [x, [row_type(x)] if len(types) > 2 else []]
