"""The gated linear units: operators on the two halves of one tensor along a dim, and their
gradients.

Each is PyTorch's function on ranked tensors of f16, bf16 or f32 whose `dim` (i64, default -1)
has an even static size 2H: `a, b = x.chunk(2, dim)`. The forward ops return a tensor of x's
shape with `dim` of size H; the gradients take the gradient of that result and x, and return
x's gradient (x's type: its two halves, da then db, along `dim`). Their semantics are their
decomposition (hswc.ops.gated_ops: generics reading the halves through indexing maps at
constant offsets) and, independently, their golden model (hswc.reference_gated).
hswc.dialects.hsg puts them in the dialect.

    %y = hsg.swi_glu %x {dim = -1 : i64} : tensor<4x128xf16>
    %z = hsg.ge_glu %x {dim = 0 : i64, approximate = "tanh", activate_left = false} : tensor<8x64xf32>
    %dx = hsg.glu_grad %dy, %x {dim = -1 : i64} : tensor<4x64xbf16>, tensor<4x128xbf16>

The operands' types follow the colon; the result's follows from x's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    BoolAttr,
    IntegerAttr,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import irdl_op_definition, opt_prop_def
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from hswc.dialects.hsg_tensor_functions import TensorFunctionOp

APPROXIMATIONS = ("none", "tanh")


def half_type(x: TensorType[Attribute], dim: int) -> TensorType[Attribute]:
    """x's type with `dim` (in [0, rank)) halved (a dynamic size stays dynamic)."""
    shape = list(x.get_shape())
    shape[dim] = shape[dim] // 2 if shape[dim] >= 0 else shape[dim]
    return TensorType(x.get_element_type(), shape)


class GatedOp(TensorFunctionOp):
    """A gated linear unit or its gradient (abstract): `INPUTS` in operand order, the last x;
    `dim`; ge_glu's `approximate` and `activate_left`."""

    GELU: ClassVar[bool] = False
    """Takes `approximate` and `activate_left` (the GeGLU ops)."""
    X_INDEX: ClassVar[int] = -1

    dim = opt_prop_def(IntegerAttr)
    approximate = opt_prop_def(StringAttr)
    activate_left = opt_prop_def(BoolAttr)

    def __init__(self, *inputs: SSAValue, dim: int = -1, approximate: str = "none",
                 activate_left: bool = True):
        props: dict[str, Attribute] = {"dim": IntegerAttr(dim, i64)}
        if self.GELU:
            props["approximate"] = StringAttr(approximate)
            props["activate_left"] = BoolAttr.from_bool(activate_left)
        x = inputs[-1].type
        assert isinstance(x, TensorType)
        result = x if len(self.INPUTS) > 1 else half_type(x, dim % x.get_num_dims())
        super().__init__(operands=[list(inputs)], result_types=[result], properties=props)

    @classmethod
    def gradient(cls) -> bool:
        """Whether it returns x's gradient (x's shape), not a forward result (half of it)."""
        return len(cls.INPUTS) > 1

    @classmethod
    def half_inputs(cls) -> tuple[str, ...]:
        """The operands of the forward result's shape (a gradient's incoming gradient)."""
        return cls.INPUTS[:1] if cls.gradient() else ()

    def split_dim(self) -> int:
        """The dim split into halves, in [0, rank)."""
        assert self.dim is not None
        return self.dim.value.data % self.x_type.get_num_dims()

    def approximation(self) -> str:
        return self.approximate.data if self.approximate is not None else "none"

    def left(self) -> bool:
        """Whether GeLU applies to the first half (activate_left), else to the second."""
        return self.activate_left is None or self.activate_left.value.data != 0

    def verify_split(self) -> tuple[TensorType[Attribute], int]:
        """x, its attributes, and the dim it splits (which must hold an even size): x's type
        and that dim."""
        x = self.verify_x("split")
        self._verify_attributes(x.get_num_dims())
        k = self.split_dim()
        size = x.get_shape()[k]
        if size >= 0 and size % 2:
            raise VerifyException(f"{self.name}: dim {k} of x has {size} elements, an odd "
                                  "number: it does not split into two halves")
        return x, k

    def verify_(self) -> None:
        x, k = self.verify_split()
        half = half_type(x, k)
        if len(self.INPUTS) > 1:
            grad = self.inputs[0].type
            if grad != half:
                raise VerifyException(f"{self.name}: {self.INPUTS[0]} has type {grad}; the "
                                      f"forward result's is {half}")
        want = x if len(self.INPUTS) > 1 else half
        if self.result.type != want:
            raise VerifyException(f"{self.name}: the result has type {self.result.type}, not "
                                  f"{want}")

    def _verify_attributes(self, rank: int) -> None:
        self.verify_dim(self.dim, rank)
        if not self.GELU and (self.approximate is not None or self.activate_left is not None):
            raise VerifyException(f"{self.name} takes `dim` only")
        if self.approximation() not in APPROXIMATIONS:
            raise VerifyException(f"{self.name}: approximate must be \"none\" or \"tanh\", got "
                                  f"\"{self.approximation()}\"")

    @classmethod
    def attribute_defaults(cls) -> dict[str, Attribute]:
        defaults: dict[str, Attribute] = {"dim": IntegerAttr(-1, i64)}
        if cls.GELU:
            defaults["approximate"] = StringAttr("none")
            defaults["activate_left"] = BoolAttr.from_bool(True)
        return defaults

    @classmethod
    def result_type(cls, types: Sequence[Attribute], properties: dict[str, Attribute],
                    parser: Parser, pos: int) -> Attribute:
        """x's type (the gradients), or x's with `dim` halved (the forward ops)."""
        x = types[-1]
        if not isinstance(x, TensorType) or x.get_num_dims() == 0:
            parser.raise_error(f"{cls.name}: x must be a ranked tensor of rank 1 or more, got "
                               f"{x}", pos, parser.pos)
        dim = properties["dim"]
        if not isinstance(dim, IntegerAttr) or not -x.get_num_dims() <= dim.value.data \
                < x.get_num_dims():
            parser.raise_error(f"{cls.name}: dim must be an i64 in [-rank, rank), got {dim}",
                               pos, parser.pos)
        return x if len(cls.INPUTS) > 1 else half_type(x, dim.value.data % x.get_num_dims())


@irdl_op_definition
class GluOp(GatedOp):
    """F.glu(x, dim): a * sigmoid(b)."""

    name = "hsg.glu"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    TORCH: ClassVar[str] = "F.glu"


@irdl_op_definition
class SwiGluOp(GatedOp):
    """F.silu(a) * b (ops-nn's SwiGlu; the Llama MLP's gate)."""

    name = "hsg.swi_glu"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    TORCH: ClassVar[str] = "F.silu(a) * b"


@irdl_op_definition
class GeGluOp(GatedOp):
    """F.gelu(a, approximate) * b, or a * F.gelu(b, approximate) when not activate_left."""

    name = "hsg.ge_glu"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    TORCH: ClassVar[str] = "F.gelu(a) * b"
    GELU: ClassVar[bool] = True


@irdl_op_definition
class GluGradOp(GatedOp):
    """aten.glu_backward(grad, x, dim): [grad * sigmoid(b), grad * a * sigmoid(b) *
    (1 - sigmoid(b))] along dim."""

    name = "hsg.glu_grad"
    INPUTS: ClassVar[tuple[str, ...]] = ("grad", "x")
    TORCH: ClassVar[str] = "aten.glu_backward"


@irdl_op_definition
class SwiGluGradOp(GatedOp):
    """The gradient of F.silu(a) * b: [grad * b * silu'(a), grad * silu(a)] along dim,
    silu'(a) = sigmoid(a) * (1 + a * (1 - sigmoid(a)))."""

    name = "hsg.swi_glu_grad"
    INPUTS: ClassVar[tuple[str, ...]] = ("grad", "x")
    TORCH: ClassVar[str] = "the gradient of F.silu(a) * b"


@irdl_op_definition
class GeGluGradOp(GatedOp):
    """The gradient of hsg.ge_glu: [grad * b * gelu'(a), grad * gelu(a)] along dim (activate
    left), else [grad * gelu(b), grad * a * gelu'(b)]."""

    name = "hsg.ge_glu_grad"
    INPUTS: ClassVar[tuple[str, ...]] = ("grad", "x")
    TORCH: ClassVar[str] = "the gradient of F.gelu(a) * b"
    GELU: ClassVar[bool] = True


GATED_OPS: tuple[type[GatedOp], ...] = (GluOp, SwiGluOp, GeGluOp, GluGradOp, SwiGluGradOp,
                                        GeGluGradOp)
