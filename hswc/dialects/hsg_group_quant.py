"""hsg.swiglu_group_quant: ops-nn's SwigluGroupQuant (activation/swiglu_group_quant, Ascend 950
only), SwiGLU on the halves of the last dim then quantized in blocks of it, without weight,
group_index and scale (their ops-nn operands; group_index is `hsg.first_rows` on each result).

x is f16 or bf16 (f32 too for the HiFloat8 modes), rank 2 to 8, its last dim D a multiple of
256 (op_host/arch35/swiglu_group_quant_tiling.cpp:437); s = hsg.swiglu_group's f32 value of x
(clamp_limit alike) plus 0.0 (the kernel's `Add(x, x, zero)`: a -0 becomes +0), H = D / 2.
Its attributes are ops-nn's with their defaults (op_host/swiglu_group_quant_def.cpp:113-119):

    dst_type      36   y's type: 35 FLOAT8_E5M2 (f8E5M2), 36 FLOAT8_E4M3FN (f8E4M3FN),
                       40 FLOAT4_E2M1 (f4E2M1FN), 41 FLOAT4_E1M2 (no MLIR type: refused)
    quant_mode    0    0 block FP8 (blocks of 128, f32 scales), 1 MX (blocks of 32, E8M0
                       scales, round_scale), 2 / 3 HiFloat8 static / dynamic
    block_size    0    0 (the mode's), or the mode's own 128 / 32
    round_scale   false
    clamp_limit   -1.0 (no clamp), else > 0
    dst_type_max  15.0 (the HiFloat8 modes' largest value)
    output_origin false (true only in the HiFloat8 modes: the tiling refuses it for 0 and 1)

Results: y (x's shape with the last dim H, of dst_type's type), y_scale (quant_mode 0:
f32 [..., H / 128]; 1: f8E8M0FNU [..., ceil(H / 64), 2]; 2, 3: f32 [1]), and y_origin (s
rounded to x's type) when output_origin. Quant mode 0 (hswc.ops.group_quant):

    a = max(max over the block of |s| where s * 0 == s * 0 (finite), else 0; 1e-4)
    y_scale = a * (1 / M) (the f32 constant 0x3B124925 for M = 448, 0x37924925 for 57344)
    v = s * (M / a);  y = fp8(v where v * 0 == v * 0, else s)  (CAST_RINT)

(op_kernel/arch35/swiglu_group_quant_base.h:556-620; the README's block quant formula agrees).
The verifier takes every mode ops-nn defines; the decomposition refuses, at the op, what hswc's
bodies cannot compute yet (round_scale's f32 exponent field, the FP4 and HiFloat8 casts).

    %y, %scale = hsg.swiglu_group_quant %x : tensor<4x256xbf16>
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float4E2M1FNType,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float16Type,
    Float32Type,
    TensorType,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import irdl_op_definition, opt_prop_def, opt_result_def, result_def
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from hswc.dialects.hsg_gated_ops import GatedOp, half_type
from hswc.dialects.hsg_gated_variants import NO_CLAMP_LIMIT, AttrValue, GatedVariantOp, attribute

DST_TYPES: Mapping[int, Attribute | None] = {
    35: Float8E5M2Type(), 36: Float8E4M3FNType(), 40: Float4E2M1FNType(), 41: None}
"""ops-nn's dst_type (ge::DataType numbers) -> y's element type (None: no MLIR type)."""
DST_NAMES: Mapping[int, str] = {35: "FLOAT8_E5M2", 36: "FLOAT8_E4M3FN", 40: "FLOAT4_E2M1",
                                41: "FLOAT4_E1M2"}
BLOCK_SIZES: Mapping[int, int] = {0: 128, 1: 32}
"""The block of the last dim each scale covers, by quant_mode (the HiFloat8 modes: none)."""
HIFLOAT8_MODES = (2, 3)
D_MULTIPLE = 256
"""x's last dim is a positive multiple of it (the tiling's D_LIMIT)."""
E8M0 = Float8E8M0FNUType()


def result_types(x: TensorType[Attribute],
                 values: Mapping[str, AttrValue]) -> list[Attribute | list[Attribute]]:
    """y's, y_scale's and y_origin's (a list: none, or one) types for x and the attribute
    values (of known kinds)."""
    mode = int(values["quant_mode"])
    half = half_type(x, x.get_num_dims() - 1)
    element = DST_TYPES.get(int(values["dst_type"])) or Float8E4M3FNType()
    lead = list(half.get_shape()[:-1])
    h = half.get_shape()[-1]
    if mode == 0:
        scale = TensorType(Float32Type(), [*lead, -(-h // 128) if h >= 0 else -1])
    elif mode == 1:
        blocks = -(-h // 32)
        scale = TensorType(E8M0, [*lead, -(-blocks // 2) if h >= 0 else -1, 2])
    else:
        scale = TensorType(Float32Type(), [1])
    return [TensorType(element, half.get_shape()), scale, [half] if values["output_origin"]
            else []]


def verify_results(op: GatedVariantOp, want: Sequence[Attribute], says: str) -> None:
    """op's results have the types `want` (a message saying what `says` them if not)."""
    got = [r.type for r in op.results]
    if got != list(want):
        raise VerifyException(f"{op.name}: the results have types {', '.join(map(str, got))}; "
                              f"{says} {', '.join(map(str, want))}")


@irdl_op_definition
class SwigluGroupQuantOp(GatedVariantOp):
    """ops-nn's SwigluGroupQuant without weight, group_index and scale (module docstring)."""

    name = "hsg.swiglu_group_quant"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    TORCH: ClassVar[str] = "ops-nn's SwigluGroupQuant"
    OPSNN: ClassVar[str] = "swiglu_group_quant"
    DEFAULTS: ClassVar[Mapping[str, AttrValue]] = {
        "dst_type": 36, "quant_mode": 0, "block_size": 0, "round_scale": False,
        "clamp_limit": NO_CLAMP_LIMIT, "dst_type_max": 15.0, "output_origin": False}
    REFUSED: ClassVar[str] = (
        "ops-nn's weight (an f32 per row, multiplied into the SwiGLU), which "
        "hsg.swiglu_group_quant does not take; its group_index is `hsg.first_rows` on each "
        "result")

    # Any attribute: the verifier says what each must be (GatedVariantOp's `_check_kind`).
    dst_type = opt_prop_def(Attribute)
    quant_mode = opt_prop_def(Attribute)
    block_size = opt_prop_def(Attribute)
    round_scale = opt_prop_def(Attribute)
    dst_type_max = opt_prop_def(Attribute)
    output_origin = opt_prop_def(Attribute)

    result = result_def(TensorType)
    y_scale = result_def(TensorType)
    y_origin = opt_result_def(TensorType)

    def __init__(self, x: SSAValue, **attributes: AttrValue):
        unknown = sorted(set(attributes) - set(self.DEFAULTS))
        assert not unknown, f"{self.name} takes no {unknown}"
        values = {**self.DEFAULTS, **attributes}
        t = x.type
        assert isinstance(t, TensorType)
        super(GatedOp, self).__init__(operands=[[x]], result_types=result_types(t, values),
                                      properties={k: attribute(v) for k, v in values.items()})

    def mode(self) -> int:
        return int(self.value("quant_mode"))

    def clamped(self) -> bool:
        return float(self.value("clamp_limit")) != NO_CLAMP_LIMIT

    def verify_(self) -> None:
        if len(self.inputs) > len(self.INPUTS):
            raise VerifyException(f"{self.name}: operand {len(self.INPUTS) + 1} would be "
                                  f"{self.REFUSED}")
        x, _ = self.verify_split()
        self._verify_x(x)
        want = [t for ts in result_types(x, self.values())
                for t in (ts if isinstance(ts, list) else [ts])]
        verify_results(self, want, "x and the attributes give")

    def _verify_x(self, x: TensorType[Attribute]) -> None:
        element = x.get_element_type()
        if self.mode() not in HIFLOAT8_MODES and not isinstance(element, Float16Type
                                                                 | BFloat16Type):
            raise VerifyException(f"{self.name}: x has element type {element}; quant_mode "
                                  f"{self.mode()} takes f16 and bf16 (f32 only in the HiFloat8 "
                                  "modes 2 and 3)")
        top = 7 if self.mode() == 1 else 8
        if not 2 <= x.get_num_dims() <= top:
            raise VerifyException(f"{self.name}: x has rank {x.get_num_dims()}; quant_mode "
                                  f"{self.mode()} takes rank 2 to {top}")
        d = x.get_shape()[-1]
        if d >= 0 and (d < D_MULTIPLE or d % D_MULTIPLE):
            raise VerifyException(f"{self.name}: x's last dim is {d}; it must be a positive "
                                  f"multiple of {D_MULTIPLE}")

    def verify_values(self) -> None:
        mode, dst = self.mode(), int(self.value("dst_type"))
        if mode not in (0, 1, 2, 3):
            raise VerifyException(f"{self.name}: quant_mode must be 0 (block FP8), 1 (MX), 2 "
                                  f"or 3 (HiFloat8 static, dynamic), got {mode}")
        if dst not in DST_TYPES:
            raise VerifyException(f"{self.name}: dst_type must be 35 (FLOAT8_E5M2), 36 "
                                  f"(FLOAT8_E4M3FN), 40 (FLOAT4_E2M1) or 41 (FLOAT4_E1M2), "
                                  f"got {dst}")
        if DST_TYPES[dst] is None:
            raise VerifyException(f"{self.name}: dst_type {dst} ({DST_NAMES[dst]}) has no MLIR "
                                  "type for y")
        if dst in (40, 41) and mode != 1:
            raise VerifyException(f"{self.name}: dst_type {dst} ({DST_NAMES[dst]}) needs "
                                  f"quant_mode 1, got {mode}")
        size = int(self.value("block_size"))
        if mode in BLOCK_SIZES and size not in (0, BLOCK_SIZES[mode]):
            raise VerifyException(f"{self.name}: block_size must be 0 or {BLOCK_SIZES[mode]} "
                                  f"in quant_mode {mode}, got {size}")
        if mode == 1 and not self.value("round_scale"):
            raise VerifyException(f"{self.name}: quant_mode 1 (MX) needs round_scale = true")
        if mode not in HIFLOAT8_MODES and self.value("output_origin"):
            raise VerifyException(f"{self.name}: output_origin must be false in quant_mode "
                                  f"{mode} (op_host/arch35/swiglu_group_quant_tiling.cpp:192)")
        limit = float(self.value("clamp_limit"))
        if limit != NO_CLAMP_LIMIT and not limit > 0:
            raise VerifyException(f"{self.name}: clamp_limit must be > 0, or -1.0 (no clamp), "
                                  f"got {limit}")

    @classmethod
    def parsed_result_types(cls, types: Sequence[Attribute], properties: dict[str, Attribute],
                     parser: Parser, pos: int) -> list[Attribute | list[Attribute]]:
        x = types[0]
        if not isinstance(x, TensorType) or x.get_num_dims() == 0:
            parser.raise_error(f"{cls.name}: x must be a ranked tensor of rank 1 or more, got "
                               f"{x}", pos, parser.pos)
        values = {k: _value(v, cls.DEFAULTS[k]) for k, v in properties.items()
                  if k in cls.DEFAULTS}
        return result_types(x, {**cls.DEFAULTS, **values})


def _value(attr: Attribute, default: AttrValue) -> AttrValue:
    """An attribute's value as its default's kind (the default where it has another kind: the
    verifier then says what it must be)."""
    data = getattr(attr, "value", None)
    inner = getattr(data, "data", None)
    if isinstance(default, bool | int | float) and isinstance(inner, int | float):
        return type(default)(inner)
    return default
