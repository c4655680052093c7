"""ops-nn's gated variants: its operators on the two halves of one tensor that are not
PyTorch functions, with the semantics of their ops-nn definitions and kernels (activation/ and
experimental/activation/ of CANN ops-nn; where a README disagrees with its kernel, the op
follows the kernel and its docstring says where they part).

Each takes x of f16, bf16 or f32 (ranked, the split dim of an even static size 2H) and returns
x's type with that dim halved; `a, b = x.chunk(2, dim)` (clipped_swiglu: the even and odd
elements of the dim when `interleaved`). Every step is an f32 operation, the result rounded
once to x's type, as the kernels compute (Cast to f32, the calls, one Cast back). The ops whose
ops-nn definition splits the last dim only take no `dim`. Their semantics are their
decomposition (hswc.ops.gated_variants) and, independently, their golden model
(hswc.reference_gated).

    %y = hsg.gelu_mul %x {approximate = "tanh"} : tensor<4x128xf16>
    %y = hsg.fatrelu_mul %x, %t : tensor<4x128xbf16>, tensor<1xbf16>
    %y = hsg.situ_glu %x {dim = 0 : i64, beta = 2.0 : f32, linear_beta = 0.5 : f32} : tensor<8x64xf32>
    %y = hsg.swiglu_clamp %x {limit = 7.0 : f32} : tensor<4x128xf16>
    %y = hsg.clipped_swiglu %x {interleaved = false} : tensor<4x128xf16>
    %y = hsg.swiglu_group %x {clamp_limit = 7.0 : f32} : tensor<4x128xbf16>
    %dx = hsg.clipped_swiglu_grad %g, %x : tensor<4x64xf16>, tensor<4x128xf16>

ops-nn's row count read from a tensor (clipped_swiglu's and swiglu_group's group_index) is
hsg.first_rows after the op (hswc.dialects.hsg_first_rows), and packages of the two take it as
their optional input (hswc.backend.package_counts); the variants writing quantized
outputs (swiglu_group_quant) are not these ops: the checker says so for their folders
(hswc.checker.sweep).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    AnyFloat,
    BoolAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
    f32,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import irdl_op_definition, opt_prop_def, result_def
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from hswc.dialects.hsg_gated_ops import APPROXIMATIONS, GatedOp, half_type

AttrValue = float | bool | int | str
NO_CLAMP_LIMIT = -1.0
"""SwigluGroup's default clamp_limit: no clamp (op_host/swiglu_group_def.cpp)."""


class GatedVariantOp(GatedOp):
    """An ops-nn gated variant (abstract): x first (`X_INDEX` 0), then the op's other operands
    (fatrelu_mul's one-element threshold); its attributes and their ops-nn defaults
    (`DEFAULTS`: a float is an f32 attribute, a bool a BoolAttr, an int an i64, a str a
    string)."""

    X_INDEX: ClassVar[int] = 0
    DEFAULTS: ClassVar[Mapping[str, AttrValue]] = {}
    OPSNN: ClassVar[str]
    """The ops-nn folder it is the semantics of."""

    # Any attribute: the verifier says what each must be (`_check_kind`).
    beta = opt_prop_def(Attribute)
    linear_beta = opt_prop_def(Attribute)
    limit = opt_prop_def(Attribute)
    alpha = opt_prop_def(Attribute)
    bias = opt_prop_def(Attribute)
    interleaved = opt_prop_def(Attribute)
    clamp_mode = opt_prop_def(Attribute)
    clamp_limit = opt_prop_def(Attribute)

    def __init__(self, *inputs: SSAValue, **attributes: AttrValue):
        unknown = sorted(set(attributes) - set(self.DEFAULTS))
        assert not unknown, f"{self.name} takes no {unknown}"
        props = {k: attribute(v) for k, v in {**self.DEFAULTS, **attributes}.items()}
        x = inputs[0].type
        assert isinstance(x, TensorType)
        k = self._dim_of(props, x.get_num_dims())
        super(GatedOp, self).__init__(operands=[list(inputs)],
                                      result_types=[half_type(x, k)] * self.RESULTS,
                                      properties=props)

    @classmethod
    def _dim_of(cls, props: Mapping[str, Attribute], rank: int) -> int:
        dim = props.get("dim")
        value = dim.value.data if isinstance(dim, IntegerAttr) else -1
        return value % rank if -rank <= value < rank else value

    def split_dim(self) -> int:
        """The dim split into halves, in [0, rank): `dim`, or the last for an op without."""
        rank = self.x_type.get_num_dims()
        return (self.dim.value.data if self.dim is not None else -1) % rank

    def value(self, name: str) -> AttrValue:
        """An attribute's value (its default when absent)."""
        attr = self.properties.get(name)
        if attr is None:
            return self.DEFAULTS[name]
        if isinstance(attr, FloatAttr):
            return float(attr.value.data)
        if isinstance(attr, IntegerAttr):
            return bool(attr.value.data) if _is_bool(attr) else int(attr.value.data)
        assert isinstance(attr, StringAttr)
        return attr.data

    def values(self) -> dict[str, AttrValue]:
        """Every attribute but `dim`, by name."""
        return {k: self.value(k) for k in self.DEFAULTS if k != "dim"}

    def left(self) -> bool:
        return bool(self.value("activate_left")) if "activate_left" in self.DEFAULTS else True

    def approximation(self) -> str:
        return str(self.value("approximate")) if "approximate" in self.DEFAULTS else "none"

    REFUSED: ClassVar[str] = ""
    """What an operand past INPUTS would be in ops-nn's op, which this op refuses (and why)."""

    def verify_(self) -> None:
        if len(self.inputs) > len(self.INPUTS) and self.REFUSED:
            raise VerifyException(f"{self.name}: operand {len(self.INPUTS) + 1} would be "
                                  f"{self.REFUSED}")
        x, k = self.verify_split()
        for name, operand in zip(self.INPUTS[1:], self.inputs[1:], strict=True):
            t = operand.type
            want = TensorType(x.get_element_type(), [1])
            if t != want:
                raise VerifyException(f"{self.name}: {name} has type {t}; it must be {want} "
                                      "(one element of x's type)")
        if self.result.type != half_type(x, k):
            raise VerifyException(f"{self.name}: the result has type {self.result.type}, not "
                                  f"{half_type(x, k)}")

    @classmethod
    def gradient(cls) -> bool:
        return False

    @classmethod
    def half_inputs(cls) -> tuple[str, ...]:
        return ()

    def _verify_attributes(self, rank: int) -> None:
        for name, attr in self.properties.items():
            if name not in self.DEFAULTS:
                raise VerifyException(f"{self.name} has no attribute '{name}' (its "
                                      f"attributes: {', '.join(self.DEFAULTS) or 'none'})")
            _check_kind(self.name, name, attr, self.DEFAULTS[name])
        if "dim" in self.DEFAULTS:
            self.verify_dim(self.dim, rank)
        if self.approximation() not in APPROXIMATIONS:
            raise VerifyException(f"{self.name}: approximate must be \"none\" or \"tanh\", got "
                                  f"\"{self.approximation()}\"")
        for name, value in self.values().items():
            if isinstance(value, float) and not math.isfinite(value):
                raise VerifyException(f"{self.name}: {name} must be finite, got {value}")
        self.verify_values()

    def verify_values(self) -> None:
        """The op's own constraints on its attributes' values (none by default)."""

    @classmethod
    def attribute_defaults(cls) -> dict[str, Attribute]:
        return {k: attribute(v) for k, v in cls.DEFAULTS.items()}

    @classmethod
    def result_type(cls, types: Sequence[Attribute], properties: dict[str, Attribute],
                    parser: Parser, pos: int) -> Attribute:
        """x's type with the split dim halved."""
        x = types[0]
        if not isinstance(x, TensorType) or x.get_num_dims() == 0:
            parser.raise_error(f"{cls.name}: x must be a ranked tensor of rank 1 or more, got "
                               f"{x}", pos, parser.pos)
        rank = x.get_num_dims()
        k = cls._dim_of(properties, rank)
        if not 0 <= k < rank:
            parser.raise_error(f"{cls.name}: dim must be an i64 in [-rank, rank), got "
                               f"{properties.get('dim')}", pos, parser.pos)
        return half_type(x, k)


def attribute(value: AttrValue | Attribute) -> Attribute:
    """A Python value as the attribute of its kind (module docstring of GatedVariantOp)."""
    if isinstance(value, Attribute):
        return value
    if isinstance(value, bool):
        return BoolAttr.from_bool(value)
    if isinstance(value, int):
        return IntegerAttr(value, i64)
    if isinstance(value, float):
        return FloatAttr(value, f32)
    return StringAttr(value)


def _is_bool(attr: IntegerAttr) -> bool:
    return isinstance(attr.type, IntegerType) and attr.type.width.data == 1


def _check_kind(op: str, name: str, attr: Attribute, default: AttrValue) -> None:
    """`attr` has the kind of `default`'s attribute (a message naming both if not)."""
    if isinstance(default, bool):
        ok = isinstance(attr, IntegerAttr) and _is_bool(attr)
        want = "a bool (true or false)"
    elif isinstance(default, int):
        ok = isinstance(attr, IntegerAttr) and isinstance(attr.type, IntegerType) \
            and attr.type.width.data == 64
        want = "an i64"
    elif isinstance(default, float):
        ok = isinstance(attr, FloatAttr) and isinstance(attr.type, AnyFloat)
        want = "a float (e.g. 1.0 : f32)"
    else:
        ok = isinstance(attr, StringAttr)
        want = "a string"
    if not ok:
        raise VerifyException(f"{op}: {name} must be {want}, got {attr}")


@irdl_op_definition
class GeluMulOp(GatedVariantOp):
    """ops-nn's GeluMul (activation/gelu_mul): gelu(a, approximate) * b, the halves of the last
    dim, in f32 rounded once (op_kernel/gelu_mul.h: Cast, the GeLU, Mul, Cast). Unlike hsg.ge_glu
    (PyTorch's F.gelu(a) * b) the GeLU is not rounded to x's type before the product."""

    name = "hsg.gelu_mul"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    TORCH: ClassVar[str] = "ops-nn's GeluMul"
    OPSNN: ClassVar[str] = "gelu_mul"
    DEFAULTS: ClassVar[Mapping[str, AttrValue]] = {"approximate": "none"}


@irdl_op_definition
class FatreluMulOp(GatedVariantOp):
    """ops-nn's FatreluMul (activation/fatrelu_mul): (a > t ? a : 0) * b, the halves of the
    last dim, t the one element of `threshold`. The kernel keeps a where a > t
    (op_kernel/fatrelu_mul.h:199, CompareScalar CMPMODE::GT, then Select against 0); its README
    (and aclnnFatreluMul.md) write Threshold(x) = x for x >= threshold: at a = t the kernel
    gives 0, the README t * b. This op follows the kernel."""

    name = "hsg.fatrelu_mul"
    INPUTS: ClassVar[tuple[str, ...]] = ("x", "threshold")
    TORCH: ClassVar[str] = "ops-nn's FatreluMul"
    OPSNN: ClassVar[str] = "fatrelu_mul"


@irdl_op_definition
class SituGluOp(GatedVariantOp):
    """ops-nn's SituGlu (activation/situ_glu): beta * tanh(g * (1 / beta)) * sigmoid(g) * u',
    u' = linear_beta * tanh(u * (1 / linear_beta)) for linear_beta > 0, else u; (g, u) = (a, b)
    when activate_left, else (b, a) (op_kernel/situ_glu.hpp:266-288: the kernel multiplies by the
    f32 reciprocal 1 / beta where the README divides by beta)."""

    name = "hsg.situ_glu"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    TORCH: ClassVar[str] = "ops-nn's SituGlu"
    OPSNN: ClassVar[str] = "situ_glu"
    DEFAULTS: ClassVar[Mapping[str, AttrValue]] = {
        "dim": -1, "beta": 1.0, "linear_beta": 0.0, "activate_left": True}

    def verify_values(self) -> None:
        if self.value("beta") == 0.0:
            raise VerifyException(f"{self.name}: beta must not be 0 (tanh(g / beta))")


@irdl_op_definition
class SwigluClampOp(GatedVariantOp):
    """ops-nn's SwigluClamp (experimental/activation/swiglu_clamp): min(silu(a), limit) *
    clamp(b, -limit, limit), the halves of the last dim: SiLU before the clamp
    (op_kernel/swiglu_clamp.h:173-178). limit > 0 (its README's constraint)."""

    name = "hsg.swiglu_clamp"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    TORCH: ClassVar[str] = "ops-nn's SwigluClamp"
    OPSNN: ClassVar[str] = "swiglu_clamp"
    DEFAULTS: ClassVar[Mapping[str, AttrValue]] = {"limit": 7.0}

    def verify_values(self) -> None:
        if float(self.value("limit")) <= 0:
            raise VerifyException(f"{self.name}: limit must be > 0, got {self.value('limit')}")


@irdl_op_definition
class ClippedSwigluOp(GatedVariantOp):
    """ops-nn's ClippedSwiglu (activation/clipped_swiglu) without group_index: (a, b) the halves
    of `dim`, or its even and odd elements when `interleaved` (the default); clamp_mode 0:
    a' = min(a, limit), a' / (1 + exp(-alpha * a')) * (clamp(b, -limit, limit) + bias);
    clamp_mode 1 (Ascend 950's kernel only, op_kernel/arch35/clipped_swiglu_kernel.h):
    min(a / (1 + exp(-a)), limit) * clamp(b, -limit, limit). The A2/A3 kernel
    (op_kernel/clipped_swiglu.hpp:313-331) computes clamp_mode 0 whatever the attribute says."""

    name = "hsg.clipped_swiglu"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    TORCH: ClassVar[str] = "ops-nn's ClippedSwiglu"
    OPSNN: ClassVar[str] = "clipped_swiglu"
    DEFAULTS: ClassVar[Mapping[str, AttrValue]] = {
        "dim": -1, "alpha": 1.702, "limit": 7.0, "bias": 1.0, "interleaved": True,
        "clamp_mode": 0}
    REFUSED: ClassVar[str] = (
        "ops-nn's group_index (the number of rows to compute, read from a tensor at run time), "
        "which hsg.clipped_swiglu does not take: it computes every row; write "
        "`hsg.first_rows %y, %group_index` on its result")

    def verify_values(self) -> None:
        if self.value("clamp_mode") not in (0, 1):
            raise VerifyException(f"{self.name}: clamp_mode must be 0 (clamp before the SiLU) "
                                  f"or 1 (after), got {self.value('clamp_mode')}")


@irdl_op_definition
class GeGluV2Op(GatedVariantOp):
    """ops-nn's GeGluV2 (activation/ge_glu_v2): two results of the halves' shape, y = gelu(a) * b
    (a * gelu(b) when not activate_left) and gelu, the GeLU half itself in x's type. The kernel
    computes the GeLU in f32, Casts it to x's type (CAST_RINT: the gelu output), and multiplies
    that by the other half (op_kernel/tanh/ge_glu_v2_fp16_align.h:139-158; f32 Mul of the rounded
    GeLU, exact for f16 and bf16 operands, rounded once), so y is hsg.ge_glu's (PyTorch's
    F.gelu(a) * b, the GeLU held in x's type). ops-nn's defaults: approximate tanh (its index 1),
    activate_left false (op_host/ge_glu_v2_def.cpp:34-36).

        %y, %gelu = hsg.ge_glu_v2 %x {dim = -1 : i64} : tensor<4x128xf16>
    """

    name = "hsg.ge_glu_v2"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    TORCH: ClassVar[str] = "ops-nn's GeGluV2"
    OPSNN: ClassVar[str] = "ge_glu_v2"
    RESULTS: ClassVar[int] = 2
    DEFAULTS: ClassVar[Mapping[str, AttrValue]] = {
        "dim": -1, "approximate": "tanh", "activate_left": False}

    result = result_def(TensorType)
    gelu = result_def(TensorType)

    def verify_(self) -> None:
        super().verify_()
        if self.gelu.type != self.result.type:
            raise VerifyException(f"{self.name}: gelu has type {self.gelu.type}, not "
                                  f"{self.result.type}")


class GatedVariantGradOp(GatedVariantOp):
    """The gradient of an ops-nn gated variant (abstract): the incoming gradient first (of the
    forward result's shape), then x (`X_INDEX` 1), then the forward outputs it reads
    (`HALF_INPUTS` besides the gradient: GeGluGradV2's gelu, of the result's shape); it returns
    x's gradient, x's type (da then db along the split dim)."""

    X_INDEX: ClassVar[int] = 1
    HALF_INPUTS: ClassVar[tuple[str, ...]] = ("grad",)

    @classmethod
    def gradient(cls) -> bool:
        return True

    @classmethod
    def half_inputs(cls) -> tuple[str, ...]:
        return cls.HALF_INPUTS

    def __init__(self, *inputs: SSAValue, **attributes: AttrValue):
        unknown = sorted(set(attributes) - set(self.DEFAULTS))
        assert not unknown, f"{self.name} takes no {unknown}"
        props = {k: attribute(v) for k, v in {**self.DEFAULTS, **attributes}.items()}
        x = inputs[self.X_INDEX].type
        assert isinstance(x, TensorType)
        super(GatedOp, self).__init__(operands=[list(inputs)], result_types=[x],
                                      properties=props)

    def verify_(self) -> None:
        x, k = self.verify_split()
        half = half_type(x, k)
        for name, operand in zip(self.INPUTS, self.inputs, strict=True):
            if name in self.HALF_INPUTS and operand.type != half:
                raise VerifyException(f"{self.name}: {name} has type {operand.type}; the "
                                      f"forward result's is {half}")
        if self.result.type != x:
            raise VerifyException(f"{self.name}: the result has type {self.result.type}, not "
                                  f"{x}")

    @classmethod
    def result_type(cls, types: Sequence[Attribute], properties: dict[str, Attribute],
                    parser: Parser, pos: int) -> Attribute:
        """x's type."""
        if len(types) <= cls.X_INDEX:
            parser.raise_error(f"{cls.name}: takes {len(cls.INPUTS)} operand(s) "
                               f"({', '.join(cls.INPUTS)})", pos, parser.pos)
        x = types[cls.X_INDEX]
        if not isinstance(x, TensorType) or x.get_num_dims() == 0:
            parser.raise_error(f"{cls.name}: x must be a ranked tensor of rank 1 or more, got "
                               f"{x}", pos, parser.pos)
        return x


@irdl_op_definition
class SituGluGradOp(GatedVariantGradOp):
    """ops-nn's SituGluGrad (activation/situ_glu_grad): the gradient of hsg.situ_glu, as its
    kernel computes it (op_kernel/situ_glu_grad.hpp:315-416): t = tanh(g * (1 / beta)),
    s = sigmoid(g), u' = lb * tanh(u * (1 / lb)) for lb = linear_beta > 0, else u;
    d_g = grad * u' * s * ((1 - t * t) + beta * t * (1 - s)), d_u = grad * beta * t * s,
    times (1 - tanh(u * (1 / lb))^2) for lb > 0; dx = [d_g, d_u] along dim when activate_left,
    else [d_u, d_g]."""

    name = "hsg.situ_glu_grad"
    INPUTS: ClassVar[tuple[str, ...]] = ("grad", "x")
    TORCH: ClassVar[str] = "ops-nn's SituGluGrad"
    OPSNN: ClassVar[str] = "situ_glu_grad"
    DEFAULTS: ClassVar[Mapping[str, AttrValue]] = SituGluOp.DEFAULTS
    verify_values = SituGluOp.verify_values  # the forward op's attributes and constraints


@irdl_op_definition
class GeGluGradV2Op(GatedVariantGradOp):
    """ops-nn's GeGluGradV2 (activation/ge_glu_grad_v2): the gradient of GeGluV2 from the GeLU
    half it wrote (`gelu`, not recomputed): with (g, o) = (a, b) when activate_left, else
    (b, a), d_o = grad * gelu and d_g = grad * o * gelu'(g) (op_kernel/
    ge_glu_grad_v2_tanh_fp32.h:58 `Mul(outLocalLeft, ubGelu, ubDY)`, :63 x1 * dy, then
    ComputeGeluGrad; the erf kernels alike), in f32 rounded once. ops-nn's defaults:
    approximate tanh (its index 1), activate_left false (op_host/ge_glu_grad_v2_def.cpp:38-40)."""

    name = "hsg.ge_glu_grad_v2"
    INPUTS: ClassVar[tuple[str, ...]] = ("grad", "x", "gelu")
    HALF_INPUTS: ClassVar[tuple[str, ...]] = ("grad", "gelu")
    TORCH: ClassVar[str] = "ops-nn's GeGluGradV2"
    OPSNN: ClassVar[str] = "ge_glu_grad_v2"
    DEFAULTS: ClassVar[Mapping[str, AttrValue]] = {
        "dim": -1, "approximate": "tanh", "activate_left": False}


@irdl_op_definition
class ClippedSwigluGradOp(GatedVariantGradOp):
    """ops-nn's ClippedSwigluGrad (activation/clipped_swiglu_grad) without group_index: the
    gradient of hsg.clipped_swiglu's clamp_mode 0 (the only mode its definition has:
    op_host/clipped_swiglu_grad_def.cpp:37-41), as the A2/A3 kernel computes it in f32
    (op_kernel/clipped_swiglu_grad.h:461-553): with (a, b) split as the forward splits x,
    A = min(a, limit), s = 1 / (1 + exp(-alpha * A)),
    db = (A * s) * grad where -limit <= b <= limit, else 0;
    da = ((((1 - s) * A) * alpha + 1) * s) * (clamp(b, -limit, limit) + bias) * grad where
    a <= limit, else 0; dx holds da and db where x holds a and b (the halves of `dim`, or its
    even and odd elements when `interleaved`), rounded once to x's type. The Ascend 950's kernel
    (op_kernel/arch35/clipped_swiglu_grad_kernel.h:503-528) multiplies db's factors in another
    order, (grad * A) * s, and its 1 as A * 0 + 1 (NaN for an infinite A): within tolerance of
    this op, not bit for bit. The README's formula (the same products, unordered) agrees."""

    name = "hsg.clipped_swiglu_grad"
    INPUTS: ClassVar[tuple[str, ...]] = ("grad", "x")
    TORCH: ClassVar[str] = "ops-nn's ClippedSwigluGrad"
    OPSNN: ClassVar[str] = "clipped_swiglu_grad"
    DEFAULTS: ClassVar[Mapping[str, AttrValue]] = {
        "dim": -1, "alpha": 1.702, "limit": 7.0, "bias": 1.0, "interleaved": True}
    REFUSED: ClassVar[str] = (
        "ops-nn's group_index (the number of rows whose gradient is computed, the others "
        "zeroed), which hsg.clipped_swiglu_grad does not take: it computes every row")

    def verify_(self) -> None:
        if len(self.inputs) > len(self.INPUTS):
            raise VerifyException(f"{self.name}: operand {len(self.INPUTS) + 1} would be "
                                  f"{self.REFUSED}")
        super().verify_()

    def verify_values(self) -> None:
        if not float(self.value("limit")) > 0:
            raise VerifyException(f"{self.name}: limit must be > 0, got {self.value('limit')}")


@irdl_op_definition
class SwigluGroupOp(GatedVariantOp):
    """ops-nn's SwigluGroup (activation/swiglu_group, Ascend 950 only) without weight and
    group_index: (a, b) the halves of the last dim; with clamp_limit L (not the default -1.0,
    which says "no clamp": op_host/arch35/swiglu_group_tiling.cpp:94-102) a = min(a, L) and
    b = clamp(b, -L, L) first; then a / (1 + exp(-a)) * b (op_kernel/arch35/
    swiglu_group_base.h:88-96, 117-122: Muls -1, Exp, Adds 1, Div, Mul), in f32 rounded once.
    L is -1.0 or > 0 (the tiling refuses any other)."""

    name = "hsg.swiglu_group"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    TORCH: ClassVar[str] = "ops-nn's SwigluGroup"
    OPSNN: ClassVar[str] = "swiglu_group"
    DEFAULTS: ClassVar[Mapping[str, AttrValue]] = {"clamp_limit": NO_CLAMP_LIMIT}
    REFUSED: ClassVar[str] = (
        "ops-nn's weight (an f32 per row, multiplied into the result), which hsg.swiglu_group "
        "does not take; its group_index is `hsg.first_rows %y, %group_index` on its result")

    def clamped(self) -> bool:
        return float(self.value("clamp_limit")) != NO_CLAMP_LIMIT

    def verify_values(self) -> None:
        limit = float(self.value("clamp_limit"))
        if limit != NO_CLAMP_LIMIT and not limit > 0:
            raise VerifyException(f"{self.name}: clamp_limit must be > 0, or -1.0 (no clamp), "
                                  f"got {limit}")


GATED_VARIANTS: tuple[type[GatedVariantOp], ...] = (GeluMulOp, FatreluMulOp, SituGluOp,
                                                    SwigluClampOp, ClippedSwigluOp, GeGluV2Op,
                                                    SituGluGradOp, GeGluGradV2Op, SwigluGroupOp,
                                                    ClippedSwigluGradOp)
