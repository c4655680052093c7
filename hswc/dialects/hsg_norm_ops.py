"""The named operators that reduce along a dim: the softmax family and the norms.

Each is PyTorch's function of the same name on ranked tensors of f16, bf16 or f32; its
semantics are its decomposition (hswc.ops.norm_ops) and, independently, its golden model
(hswc.reference_norms). hswc.dialects.hsg puts them in the dialect.

    %y = hsg.softmax %x {dim = -1 : i64} : tensor<4x64xf16>
    %g = hsg.softmax_grad %dy, %y {dim = 1 : i64} : tensor<4x64xf32>
    %n = hsg.rms_norm %x, %w {epsilon = 1.0e-06 : f32} : tensor<4x64xbf16>, tensor<64xbf16>

The operands' types follow the colon, the first operand's type is the result's (one type for
the ops whose operands all share it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    Float32Type,
    FloatAttr,
    IntegerAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import irdl_op_definition, opt_prop_def
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from hswc.dialects.hsg_tensor_functions import TensorFunctionOp

F32 = Float32Type()


class NormOp(TensorFunctionOp):
    """An operator reducing along a dim (abstract): `INPUTS` named in operand order; the dim
    (`dim`, any, default the last) or the epsilon of a norm over the last dim."""

    EPSILON: ClassVar[float | None] = None
    """The norm's default epsilon; None for the ops that take `dim` instead."""
    ONE_TYPE: ClassVar[bool] = True

    dim = opt_prop_def(IntegerAttr)
    epsilon = opt_prop_def(FloatAttr)

    def __init__(self, *inputs: SSAValue, dim: int | None = None,
                 epsilon: float | None = None):
        props: dict[str, Attribute] = {}
        if self.EPSILON is None:
            props["dim"] = IntegerAttr(-1 if dim is None else dim, i64)
        else:
            props["epsilon"] = FloatAttr(self.EPSILON if epsilon is None else epsilon, F32)
        super().__init__(operands=[list(inputs)], result_types=[inputs[0].type],
                         properties=props)

    def reduced_dim(self) -> int:
        """The dim reduced, in [0, rank): `dim` taken modulo the rank, or the last."""
        rank = self.x_type.get_num_dims()
        if self.EPSILON is not None:
            return rank - 1
        assert self.dim is not None
        return self.dim.value.data % rank

    def epsilon_value(self) -> float:
        assert self.epsilon is not None
        return float(self.epsilon.value.data)

    def verify_(self) -> None:
        x = self.verify_x("reduce")
        rank = x.get_num_dims()
        if self.result.type != x:
            raise VerifyException(f"{self.name}: the result has type {self.result.type}, not "
                                  f"{self.INPUTS[0]}'s {x}")
        self._verify_attributes(rank)
        self._verify_operands(x)

    def _verify_attributes(self, rank: int) -> None:
        if self.EPSILON is None:
            if self.epsilon is not None:
                raise VerifyException(f"{self.name} takes `dim`, not `epsilon`")
            self.verify_dim(self.dim, rank)
            return
        if self.dim is not None:
            raise VerifyException(f"{self.name} normalises the last dim: it takes `epsilon`, "
                                  "not `dim`")
        if self.epsilon is None or not isinstance(self.epsilon.type, Float32Type):
            raise VerifyException(f"{self.name}: `epsilon` must be an f32 "
                                  f"(epsilon = {self.EPSILON} : f32)")
        eps = self.epsilon_value()
        if not math.isfinite(eps) or eps < 0:
            raise VerifyException(f"{self.name}: epsilon must be finite and not negative, got "
                                  f"{eps}")

    def _verify_operands(self, x: TensorType) -> None:
        """The other operands: x's type (the gradients), or rank 1 of x's last dim (weights)."""
        last = x.get_shape()[-1]
        for name, value in zip(self.INPUTS[1:], self.inputs[1:], strict=True):
            t = value.type
            if self.EPSILON is None:
                if t != x:
                    raise VerifyException(f"{self.name}: {name} has type {t}, not "
                                          f"{self.INPUTS[0]}'s {x}")
                continue
            if not isinstance(t, TensorType) or t.get_num_dims() != 1 \
                    or t.get_element_type() != x.get_element_type() \
                    or (t.get_shape()[0] != last and min(t.get_shape()[0], last) >= 0):
                raise VerifyException(
                    f"{self.name}: {name} has type {t}; it must be a rank-1 tensor of the "
                    f"last dim's size and {self.INPUTS[0]}'s element type "
                    f"(tensor<{last if last >= 0 else '?'}x{x.get_element_type()}>)")

    @classmethod
    def attribute_defaults(cls) -> dict[str, Attribute]:
        if cls.EPSILON is None:
            return {"dim": IntegerAttr(-1, i64)}
        return {"epsilon": FloatAttr(cls.EPSILON, F32)}

    @classmethod
    def attribute_names(cls) -> tuple[str, ...]:
        return ("dim", "epsilon")  # either, so the verifier can say which the op takes

    @classmethod
    def result_type(cls, types: Sequence[Attribute], properties: dict[str, Attribute],
                    parser: Parser, pos: int) -> Attribute:
        return types[0]


@irdl_op_definition
class SoftmaxOp(NormOp):
    """torch.softmax(x, dim): exp(x - max) / sum(exp(x - max)) along `dim`."""

    name = "hsg.softmax"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    TORCH: ClassVar[str] = "torch.softmax"


@irdl_op_definition
class LogSoftmaxOp(NormOp):
    """torch.log_softmax(x, dim): x - max - log(sum(exp(x - max))) along `dim`."""

    name = "hsg.log_softmax"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    TORCH: ClassVar[str] = "torch.log_softmax"


@irdl_op_definition
class SoftmaxGradOp(NormOp):
    """torch._softmax_backward_data(grad_output, output, dim, output.dtype):
    output * (grad_output - sum(grad_output * output)) along `dim`."""

    name = "hsg.softmax_grad"
    INPUTS: ClassVar[tuple[str, ...]] = ("grad_output", "output")
    TORCH: ClassVar[str] = "torch._softmax_backward_data"


@irdl_op_definition
class LogSoftmaxGradOp(NormOp):
    """torch._log_softmax_backward_data(grad_output, output, dim, output.dtype):
    grad_output - exp(output) * sum(grad_output) along `dim`."""

    name = "hsg.log_softmax_grad"
    INPUTS: ClassVar[tuple[str, ...]] = ("grad_output", "output")
    TORCH: ClassVar[str] = "torch._log_softmax_backward_data"


@irdl_op_definition
class RmsNormOp(NormOp):
    """F.rms_norm(x, (x.shape[-1],), weight, epsilon): x / sqrt(mean(x^2) + epsilon) * weight
    over the last dim."""

    name = "hsg.rms_norm"
    INPUTS: ClassVar[tuple[str, ...]] = ("x", "weight")
    TORCH: ClassVar[str] = "F.rms_norm"
    EPSILON: ClassVar[float | None] = 1e-6


@irdl_op_definition
class LayerNormOp(NormOp):
    """F.layer_norm(x, (x.shape[-1],), weight, bias, epsilon): (x - mean) / sqrt(var +
    epsilon) * weight + bias over the last dim (var: the biased variance)."""

    name = "hsg.layer_norm"
    INPUTS: ClassVar[tuple[str, ...]] = ("x", "weight", "bias")
    TORCH: ClassVar[str] = "F.layer_norm"
    EPSILON: ClassVar[float | None] = 1e-5


NORM_OPS: tuple[type[NormOp], ...] = (SoftmaxOp, LogSoftmaxOp, SoftmaxGradOp, LogSoftmaxGradOp,
                                      RmsNormOp, LayerNormOp)
