"""The `hsg` dialect: the named operators, and the host/device structure their tiling creates.

Levels (docs/reference.md, "Passes"):
- named operators on tensors (`hsg.hard_swish_grad`, `hsg.hard_swish`), whose semantics
  `hsg-decompose` writes out as a `linalg.generic` (hswc.ops);
- after `hsg-tile-on-cores`: host code (`hsg.num_elements`, the platform queries, `hsg.launch` of
  a kernel) and a kernel whose body works on its core's slice with `hsg.elementwise_slice`;
- after `hsg-block-into-ub`: `hsg.elementwise_chunk`, one UB-sized chunk of that slice.
The slice and chunk ops carry the elementwise body (scalar arith ending in `linalg.yield`) of
the computation they stand for.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloatConstr,
    BFloat16Type,
    DictionaryAttr,
    Float16Type,
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    Signedness,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    UnrankedTensorType,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Dialect, Operation, Region, SSAValue
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import VerifyException

from hswc.broadcast import DYNAMIC_DIM, Broadcast, read_broadcast
from hswc.counted_rows import COUNTS_ATTR
from hswc.dialects.hsg_first_rows import FirstRowsOp
from hswc.dialects.hsg_gated_ops import GATED_OPS
from hswc.dialects.hsg_gated_variants import GATED_VARIANTS
from hswc.dialects.hsg_group_quant import SwigluGroupQuantOp
from hswc.dialects.hsg_group_quant_grad import SwigluGroupQuantGradOp
from hswc.dialects.hsg_norm_ops import NORM_OPS
from hswc.dialects.hsg_relu_mask import ReluMaskOp
from hswc.dialects.hsg_rows import ROW_OPS, ReduceOp, RowChunkOp, RowSliceOp
from hswc.dialects.hsg_tensor_functions import TensorFunctionOp
from hswc.dialects.query import IndexQueryOp
from hswc.output_windows import read_output_windows
from hswc.rows import Rows, read_rows

MAX_RANK = 8
"""MAX_SUPPORT_DIMS_NUMS of the aclnn layer."""

SUPPORTED_ELEMENT_TYPES = (Float16Type, BFloat16Type, Float32Type)

KERNEL_ATTR = "hsg.kernel"
"""Unit attribute on the device kernel function that `hsg.launch` runs."""
TILING_ATTR = "hsg.tiling"
"""Unit attribute on the host tiling function."""
TILING_KEY_ATTR = "hsg.tiling_key"
"""On a kernel that its tiling picks at run time among several (ops-nn arch35: by the element
count): the tiling key it is launched under. A kernel without one has its tiling function's
constant key."""
QUEUE_DEPTH_ATTR = "hsg.queue_depth"
"""On such a kernel: the queue depth of its variant of the run-time choice."""
OP_NAME_ATTR = "hsg.op_name"
"""The operator a kernel (or the linalg.generic it came from) implements, e.g.
"hard_swish_grad": the stem of its C++ and ops-nn names."""
OP_ATTRIBUTE_ATTR = "hsg.op_attribute"
"""On an arith.constant a named op's decomposition captures in a body: the op's attribute
(rms_norm's epsilon), which a row kernel takes at run time (a scalar argument, a package
attribute) instead of folding it into its body as it folds other constants. Its value is
`{default = <the op's default> : f32, about = "<what it does>"}`, with `non_negative` where
the op refuses a negative value (op_attribute), which a package's attribute takes
(hswc.backend.description)."""


@dataclass(frozen=True)
class CapturedAttribute:
    """What OP_ATTRIBUTE_ATTR says of a named op's attribute."""

    default: float
    about: str
    """One line for the package's docs."""
    non_negative: bool = False

    def to_attr(self) -> DictionaryAttr:
        fields: dict[str, Attribute] = {"default": FloatAttr(self.default, Float32Type()),
                                        "about": StringAttr(self.about)}
        if self.non_negative:
            fields["non_negative"] = UnitAttr()
        return DictionaryAttr(fields)


def read_op_attribute(value: SSAValue) -> CapturedAttribute | None:
    """The op's attribute a value is (OP_ATTRIBUTE_ATTR on the constant defining it); None
    for any other value."""
    owner = value.owner
    attr = owner.attributes.get(OP_ATTRIBUTE_ATTR) if isinstance(owner, Operation) else None
    if not isinstance(attr, DictionaryAttr):
        return None
    default, about = attr.data.get("default"), attr.data.get("about")
    if not isinstance(default, FloatAttr) or not isinstance(about, StringAttr):
        return None
    return CapturedAttribute(float(default.value.data), about.data,
                             "non_negative" in attr.data)
OP_DIM_ATTR = "hsg.op_dim"
"""On the generics a named op taking `dim` (hsg.softmax and the rest of its family) decomposes
into, and on the hsg.launch of the row kernel computing them: the dim the op reduces,
normalised to [0, rank), an i64. The kernel's row layout is that dim's, so its package declares
`dim` an operator attribute (default -1, as ops-nn's softmax_v2 does) that its host tiling
normalises against the input's rank and refuses unless it is this one
(hswc.backend.description)."""


def read_op_dim(op: Operation) -> int | None:
    """The OP_DIM_ATTR an op carries; None without one."""
    attr = op.attributes.get(OP_DIM_ATTR)
    return attr.value.data if isinstance(attr, IntegerAttr) else None


OUTPUTS_ATTR = "hsg.outputs"
"""On a kernel of several outputs: how many of its GM buffers, after the inputs, are outputs
(absent: one)."""

HsgTensorType = TensorType[Attribute] | UnrankedTensorType[Attribute]


KERNEL_INTEGER_TYPES = ("i8", "ui8", "i16", "i32", "i64")
"""The integer element types a kernel (an hsg.launch, not a named op) reads and writes."""
KERNEL_FLOAT8_TYPES = ("f8E4M3FN", "f8E5M2")
"""The 8-bit floats a kernel writes (never reads): a quantization's output on Ascend 950."""


def verify_operator_tensor(what: str, t: Attribute, title: str = "hswc",
                           integers: bool = False, booleans: bool = False) -> None:
    """A tensor an operator accepts: f16/bf16/f32 (or, with `integers`, an integer type of
    KERNEL_INTEGER_TYPES; with `booleans`, a kernel's output: also i1, stored a byte per
    element, and the 8-bit floats of KERNEL_FLOAT8_TYPES), dense, ranked up to rank 8, or
    unranked."""
    if not isinstance(t, TensorType | UnrankedTensorType):
        raise VerifyException(f"{what} must be a tensor, got {t}")
    elem = t.get_element_type()
    if (integers and str(elem) in KERNEL_INTEGER_TYPES) \
            or (booleans and str(elem) in ("i1", *KERNEL_FLOAT8_TYPES)):
        pass
    elif not isinstance(elem, SUPPORTED_ELEMENT_TYPES):
        types = f"f16, bf16, f32, {', '.join(KERNEL_INTEGER_TYPES)}" if integers \
            else "f16, bf16 and f32"
        raise VerifyException(f"{what} has element type {elem}; {title} supports {types}")
    if isinstance(t, TensorType):
        if not isinstance(t.encoding, NoneAttr):
            raise VerifyException(
                f"{what} has the encoding {t.encoding} ({t}); {title} takes dense tensors only"
            )
        if t.get_num_dims() > MAX_RANK:
            raise VerifyException(
                f"{what} has rank {t.get_num_dims()} ({t}); {title} supports rank 0 to {MAX_RANK}"
            )


def _compatible(a: Attribute, b: Attribute) -> bool:
    """Two ranked tensor types of one element type and rank whose dims are equal where both
    are static: they may hold the same shape (`tensor<4x64xf32>`, `tensor<?x64xf32>`)."""
    return (isinstance(a, TensorType) and isinstance(b, TensorType)
            and a.get_element_type() == b.get_element_type()
            and a.get_num_dims() == b.get_num_dims()
            and all(x == y or DYNAMIC_INDEX in (x, y)
                    for x, y in zip(a.get_shape(), b.get_shape(), strict=True)))


def _verify_same_types(op: Operation, names: Sequence[str], types: Sequence[Attribute],
                       what: str, static_or_not: bool = False) -> None:
    """Every value has the type of the first one (no broadcasting, no dtype mixing); with
    `static_or_not`, or one that may hold the same shape (a dim static in one and dynamic in
    the other: the shapes are then equal at run time, where they are checked)."""
    for name, t in zip(names[1:], types[1:], strict=True):
        if t != types[0] and not (static_or_not and _compatible(t, types[0])):
            raise VerifyException(
                f"{op.name}: {name} has type {t} but {names[0]} has type {types[0]}; "
                f"{what} must have the same shape and element type"
            )


def _verify_same_shapes(op: Operation, names: Sequence[str], types: Sequence[Attribute],
                        what: str) -> None:
    """Every tensor may hold the shape of the first one (no broadcasting): each dim equal where
    both are static (a dim static in one and dynamic in the other is checked at run time);
    element types may differ (a kernel at a dtype boundary)."""
    def same(a: Attribute, b: Attribute) -> bool:
        if not (isinstance(a, TensorType) and isinstance(b, TensorType)):
            return not isinstance(a, TensorType) and not isinstance(b, TensorType)
        return a.get_num_dims() == b.get_num_dims() and all(
            x == y or DYNAMIC_INDEX in (x, y)
            for x, y in zip(a.get_shape(), b.get_shape(), strict=True))

    for name, t in zip(names[1:], types[1:], strict=True):
        if not same(t, types[0]):
            raise VerifyException(
                f"{op.name}: {name} has type {t} but {names[0]} has type {types[0]}; "
                f"{what} must have the same shape"
            )


def _together(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# region named operators


@dataclass(frozen=True)
class OpAttribute:
    """A float attribute of a named op: f32, finite, with PyTorch's default (None: required).

    `in_dtype`: PyTorch converts it to the input's dtype, so it must be finite there too."""

    name: str
    default: float | None = None
    in_dtype: bool = False
    non_negative: bool = False
    positive: bool = False
    """Must be above zero (Softplus's beta)."""
    nonzero: bool = False
    """Must not be zero (CELU's alpha, which it divides by)."""
    same_as: str | None = None
    """When absent, the value of this other attribute (listed before it): Softshrink's bias is
    its lambd, as PyTorch shifts by lambd; ONNX Shrink sets them apart."""

    @property
    def required(self) -> bool:
        """Whether it must be given: no default and no attribute it follows."""
        return self.default is None and self.same_as is None


@dataclass(frozen=True)
class OpOption:
    """A compile-time attribute of a named op that picks its formula: a string out of
    `choices` (StringAttr), or a bool (`choices` empty; `true` / `false`), with a default."""

    name: str
    default: str | bool
    choices: tuple[str, ...] = ()

    def spelling(self) -> str:
        if self.choices:
            return " | ".join(f'"{c}"' for c in self.choices)
        return "true | false"


F32 = Float32Type()


class NamedOp(IRDLOperation):
    """An operator of the family: tensor inputs of one type, one result of that type, and f32
    attributes (abstract).

    Subclasses name their inputs (`INPUTS`, in operand order) and attributes (`ATTRIBUTES`,
    each also an optional property of the same name, set to its default when absent) and give
    the title their messages use. The semantics are the op's decomposition (hswc.ops).
    """

    INPUTS: ClassVar[tuple[str, ...]]
    ATTRIBUTES: ClassVar[tuple[OpAttribute, ...]] = ()
    OPTIONS: ClassVar[tuple[OpOption, ...]] = ()
    """String and bool attributes: properties too, fixed at compile time (hswc.ops)."""
    TITLE: ClassVar[str]

    inputs = var_operand_def(TensorType | UnrankedTensorType)
    result = result_def(TensorType | UnrankedTensorType)

    def __init__(self, *inputs: SSAValue, **attributes: float | FloatAttr):
        props: dict[str, Attribute] = {}
        for spec in self.ATTRIBUTES:
            value = attributes.pop(spec.name, spec.default)
            if value is not None:
                props[spec.name] = value if isinstance(value, FloatAttr) else FloatAttr(value, F32)
        for option in self.OPTIONS:
            chosen = attributes.pop(option.name, option.default)  # type: ignore[arg-type]
            props[option.name] = _option_attr(chosen)  # type: ignore[arg-type]
        if attributes:
            raise TypeError(f"{self.name} has no attribute {', '.join(attributes)}")
        super().__init__(operands=[list(inputs)], result_types=[inputs[0].type],
                         properties=props)

    def input(self, name: str) -> SSAValue:
        return self.inputs[self.INPUTS.index(name)]

    def attribute_values(self) -> dict[str, float]:
        """Every attribute's value, by name (after verification: all present)."""
        values: dict[str, float] = {}
        for spec in self.ATTRIBUTES:
            attr = self.properties.get(spec.name)
            if attr is None and spec.same_as is not None:
                values[spec.name] = values[spec.same_as]
                continue
            assert isinstance(attr, FloatAttr)
            values[spec.name] = float(attr.value.data)
        return values

    def option_values(self) -> dict[str, str | bool]:
        """Every string / bool attribute's value, by name (after verification)."""
        values: dict[str, str | bool] = {}
        for option in self.OPTIONS:
            attr = self.properties.get(option.name)
            values[option.name] = (attr.data if isinstance(attr, StringAttr)
                                   else bool(attr.value.data)  # type: ignore[union-attr]
                                   if attr is not None else option.default)
        return values

    def verify_(self) -> None:
        if len(self.inputs) != len(self.INPUTS):
            raise VerifyException(
                f"{self.name}: takes {len(self.INPUTS)} operand(s) ({', '.join(self.INPUTS)}), "
                f"got {len(self.inputs)}"
            )
        names = (*self.INPUTS, "the result")
        types = (*(v.type for v in self.inputs), self.result.type)
        for name, t in zip(names, types, strict=True):
            verify_operator_tensor(f"{self.name}: {name.removeprefix('the ')}", t, self.TITLE)
        _verify_same_types(self, [n.removeprefix("the ") for n in names], types,
                           _together(names))
        element = types[0].get_element_type()  # type: ignore[union-attr]
        values: dict[str, float] = {}
        for spec in self.ATTRIBUTES:
            follows = spec.same_as is not None and spec.name not in self.properties
            values[spec.name] = (values[spec.same_as] if follows  # type: ignore[index]
                                 else _verify_attribute(self, spec, element))
        for option in self.OPTIONS:
            _verify_option(self, option)
        self.verify_attributes(values)

    def verify_attributes(self, values: dict[str, float]) -> None:
        """Constraints between attributes (a VerifyException naming them); none by default."""

    @classmethod
    def parse(cls, parser: Parser) -> NamedOp:
        pos = parser.pos
        operands = [parser.parse_unresolved_operand()]
        for _ in cls.INPUTS[1:]:
            parser.parse_punctuation(",", f" between the {len(cls.INPUTS)} operands "
                                     f"({', '.join(cls.INPUTS)}) of {cls.name}")
            operands.append(parser.parse_unresolved_operand())
        attrs_pos = parser.pos
        attrs = parser.parse_optional_attr_dict()
        attrs_end = parser.pos
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = cls(*parser.resolve_operands(operands, [t] * len(operands), pos))
        known = {spec.name for spec in cls.ATTRIBUTES} | {o.name for o in cls.OPTIONS}
        options = {o.name: o for o in cls.OPTIONS}
        for name, value in attrs.items():
            if name in options:
                op.properties[name] = value
            elif name in known:
                if not isinstance(value, FloatAttr) or not isinstance(value.type, Float32Type):
                    parser.raise_error(f"{cls.name}: attribute {name} must be an f32 (e.g. "
                                       f"{name} = 0.5 : f32), got {value}", attrs_pos, attrs_end)
                op.properties[name] = value
            elif "." not in name:
                listed = ", ".join(sorted(known)) or "none"
                parser.raise_error(f"{cls.name} has no attribute '{name}' (its attributes: "
                                   f"{listed}); discardable attributes take a dialect prefix",
                                   attrs_pos, attrs_end)
            else:
                op.attributes[name] = value
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.inputs, printer.print_operand)
        printer.print_op_attributes({**self.properties, **self.attributes})
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


def _option_attr(value: str | bool) -> Attribute:
    if isinstance(value, bool):
        return IntegerAttr(int(value), IntegerType(1))
    return StringAttr(value)


def _verify_option(op: NamedOp, option: OpOption) -> None:
    """A string attribute is one of its choices; a bool one is a bool."""
    attr = op.properties.get(option.name)
    where = f"{op.name}: attribute {option.name}"
    if option.choices:
        if not isinstance(attr, StringAttr) or attr.data not in option.choices:
            got = f'"{attr.data}"' if isinstance(attr, StringAttr) else str(attr)
            raise VerifyException(f"{where} must be {option.spelling()}, got {got}")
    elif not (isinstance(attr, IntegerAttr) and isinstance(attr.type, IntegerType)
              and attr.type.width.data == 1):
        raise VerifyException(f"{where} must be a bool (true or false), got {attr}")


def _verify_attribute(op: NamedOp, spec: OpAttribute, element: Attribute) -> float:
    """The attribute's value, after checking it is there, an f32, finite and in range."""
    attr = op.properties.get(spec.name)
    where = f"{op.name}: attribute {spec.name}"
    if attr is None:
        raise VerifyException(f"{where} is required (an f32, e.g. {{{spec.name} = 1.0 : f32}})")
    if not isinstance(attr, FloatAttr) or not isinstance(attr.type, Float32Type):
        raise VerifyException(f"{where} must be an f32 FloatAttr, got {attr}")
    value = float(attr.value.data)
    if not math.isfinite(value) or abs(value) > _LARGEST[Float32Type]:
        raise VerifyException(f"{where} must be a finite f32, got {value}")
    if spec.in_dtype:
        largest = _LARGEST.get(type(element))
        if largest is not None and abs(value) > largest:
            raise VerifyException(f"{where} = {value} does not fit {element} (largest finite "
                                  f"{largest:g}), which {op.TITLE} converts it to")
    if spec.non_negative and value < 0:
        raise VerifyException(f"{where} must not be negative, got {value}")
    if spec.positive and value <= 0:
        raise VerifyException(f"{where} must be positive, got {value}")
    if spec.nonzero and value == 0:
        raise VerifyException(f"{where} must not be zero ({op.TITLE} divides by it)")
    return value


_LARGEST: dict[type[Attribute], float] = {Float16Type: 65504.0, BFloat16Type: 3.3895313892515355e38,
                                          Float32Type: 3.4028234663852886e38}


@irdl_op_definition
class HardSwishGradOp(NamedOp):
    """HardSwishGrad(grad, x) -> y: the backward of HardSwish, elementwise.

    y = 0 (as grad*0) for x <= -3, grad * (x/3 + 1/2) for -3 < x < 3, grad for x >= 3, bit for
    bit as the semantics `hsg-decompose` is given (cann, the default: SPEC.md section 2; torch:
    FAMILY.md). grad, x and y have one type.

    Example: `%y = hsg.hard_swish_grad %grad, %x : tensor<4x?xf16>`
    """

    name = "hsg.hard_swish_grad"
    INPUTS: ClassVar[tuple[str, ...]] = ("grad", "x")
    TITLE: ClassVar[str] = "HardSwishGrad"

    @property
    def grad(self) -> SSAValue:
        return self.inputs[0]

    @property
    def x(self) -> SSAValue:
        return self.inputs[1]


@irdl_op_definition
class HardSwishOp(NamedOp):
    """HardSwish(x) -> y = x * min(max(x + 3, 0), 6) / 6, elementwise (FAMILY.md, torch).

    Example: `%y = hsg.hard_swish %x : tensor<?xbf16>`
    """

    name = "hsg.hard_swish"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    TITLE: ClassVar[str] = "HardSwish"


HARD_SIGMOID_ATTRIBUTES = (OpAttribute("alpha", float.fromhex("0x1.555556p-3"), nonzero=True),
                           OpAttribute("beta", 0.5))
"""HardSigmoid's slope and offset (ONNX, ops-nn): alpha is the f32 nearest 1/6, so that
PyTorch's hardsigmoid, which has neither, is the op with its defaults."""


@irdl_op_definition
class HardSigmoidOp(NamedOp):
    """HardSigmoid(x; alpha, beta) -> y = max(0, min(1, alpha * x + beta)), elementwise; with the defaults (alpha 1/6, beta 1/2) min(max(x + 3, 0), 6) / 6 bit for bit (F.hardsigmoid; FAMILY.md).

    Example: `%y = hsg.hard_sigmoid %x {alpha = 0.2 : f32} : tensor<?xf16>`
    """

    name = "hsg.hard_sigmoid"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    ATTRIBUTES: ClassVar[tuple[OpAttribute, ...]] = HARD_SIGMOID_ATTRIBUTES
    TITLE: ClassVar[str] = "HardSigmoid"
    alpha = opt_prop_def(FloatAttr)
    beta = opt_prop_def(FloatAttr)

    def verify_attributes(self, values: dict[str, float]) -> None:
        _verify_normal_slope(self, values["alpha"])


@irdl_op_definition
class HardSigmoidGradOp(NamedOp):
    """HardSigmoidGrad(grad, x; alpha, beta) -> y = grad * alpha where 0 < alpha * x + beta < 1, else +0; with the defaults grad * (1/6) for -3 < x < 3 (FAMILY.md).

    Example: `%y = hsg.hard_sigmoid_grad %grad, %x : tensor<?xf16>`
    """

    name = "hsg.hard_sigmoid_grad"
    INPUTS: ClassVar[tuple[str, ...]] = ("grad", "x")
    ATTRIBUTES: ClassVar[tuple[OpAttribute, ...]] = HARD_SIGMOID_ATTRIBUTES
    TITLE: ClassVar[str] = "HardSigmoidGrad"
    alpha = opt_prop_def(FloatAttr)
    beta = opt_prop_def(FloatAttr)

    def verify_attributes(self, values: dict[str, float]) -> None:
        _verify_normal_slope(self, values["alpha"])


def _verify_normal_slope(op: NamedOp, alpha: float) -> None:
    """HardSigmoid's alpha is a normal f32: its decomposition divides by it (hswc.ops)."""
    if abs(alpha) < _SMALLEST_NORMAL_F32:
        raise VerifyException(f"{op.name}: attribute alpha = {alpha:g} is below the smallest "
                              f"normal f32 ({_SMALLEST_NORMAL_F32:g}) in magnitude; "
                              f"{op.TITLE} divides by it")


_SMALLEST_NORMAL_F32 = 2.0 ** -126


class _BoundedOp(NamedOp):
    """min_val <= max_val (hardtanh and its gradient)."""

    def verify_attributes(self, values: dict[str, float]) -> None:
        if values["min_val"] > values["max_val"]:
            raise VerifyException(f"{self.name}: min_val ({values['min_val']}) is greater than "
                                  f"max_val ({values['max_val']})")


@irdl_op_definition
class HardtanhOp(_BoundedOp):
    """Hardtanh(x; min_val, max_val) -> y = x clamped to [min_val, max_val] (FAMILY.md).

    The bounds are f32 (defaults -1 and 1) and must fit the dtype; -0 stays -0.

    Example: `%y = hsg.hardtanh %x {min_val = 0.0 : f32, max_val = 6.0 : f32} : tensor<8xf32>`
    """

    name = "hsg.hardtanh"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    ATTRIBUTES: ClassVar[tuple[OpAttribute, ...]] = (
        OpAttribute("min_val", -1.0, in_dtype=True), OpAttribute("max_val", 1.0, in_dtype=True))
    TITLE: ClassVar[str] = "Hardtanh"
    min_val = opt_prop_def(FloatAttr)
    max_val = opt_prop_def(FloatAttr)


@irdl_op_definition
class HardtanhGradOp(_BoundedOp):
    """HardtanhGrad(grad, x; min_val, max_val) -> y = +0 where x <= min_val or x >= max_val,
    else grad (FAMILY.md); the bounds are compared in f32 (defaults -1 and 1).

    Example: `%y = hsg.hardtanh_grad %grad, %x {min_val = -1.0 : f32} : tensor<8xf16>`
    """

    name = "hsg.hardtanh_grad"
    INPUTS: ClassVar[tuple[str, ...]] = ("grad", "x")
    ATTRIBUTES: ClassVar[tuple[OpAttribute, ...]] = (
        OpAttribute("min_val", -1.0), OpAttribute("max_val", 1.0))
    TITLE: ClassVar[str] = "HardtanhGrad"
    min_val = opt_prop_def(FloatAttr)
    max_val = opt_prop_def(FloatAttr)


@irdl_op_definition
class LeakyReluOp(NamedOp):
    """LeakyRelu(x; negative_slope) -> y = x for x > 0, else x * negative_slope (FAMILY.md).

    Example: `%y = hsg.leaky_relu %x {negative_slope = 0.2 : f32} : tensor<?xbf16>`
    """

    name = "hsg.leaky_relu"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    ATTRIBUTES: ClassVar[tuple[OpAttribute, ...]] = (OpAttribute("negative_slope", 0.01),)
    TITLE: ClassVar[str] = "LeakyRelu"
    negative_slope = opt_prop_def(FloatAttr)


@irdl_op_definition
class LeakyReluGradOp(NamedOp):
    """LeakyReluGrad(grad, x; negative_slope) -> y = grad for x > 0, else grad * negative_slope.

    Example: `%y = hsg.leaky_relu_grad %grad, %x : tensor<?xf32>`
    """

    name = "hsg.leaky_relu_grad"
    INPUTS: ClassVar[tuple[str, ...]] = ("grad", "x")
    ATTRIBUTES: ClassVar[tuple[OpAttribute, ...]] = (OpAttribute("negative_slope", 0.01),)
    TITLE: ClassVar[str] = "LeakyReluGrad"
    negative_slope = opt_prop_def(FloatAttr)


@irdl_op_definition
class ThresholdOp(NamedOp):
    """Threshold(x; threshold, value) -> y = value for x <= threshold, else x (FAMILY.md).

    Both attributes are required; value must fit the dtype.

    Example: `%y = hsg.threshold %x {threshold = 0.0 : f32, value = 0.0 : f32} : tensor<4xf16>`
    """

    name = "hsg.threshold"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    ATTRIBUTES: ClassVar[tuple[OpAttribute, ...]] = (
        OpAttribute("threshold"), OpAttribute("value", in_dtype=True))
    TITLE: ClassVar[str] = "Threshold"
    threshold = opt_prop_def(FloatAttr)
    value = opt_prop_def(FloatAttr)


@irdl_op_definition
class ThresholdGradOp(NamedOp):
    """ThresholdGrad(grad, x; threshold) -> y = +0 for x <= threshold, else grad (relu's
    backward is threshold 0).

    Example: `%y = hsg.threshold_grad %grad, %x {threshold = 0.0 : f32} : tensor<4xf16>`
    """

    name = "hsg.threshold_grad"
    INPUTS: ClassVar[tuple[str, ...]] = ("grad", "x")
    ATTRIBUTES: ClassVar[tuple[OpAttribute, ...]] = (OpAttribute("threshold"),)
    TITLE: ClassVar[str] = "ThresholdGrad"
    threshold = opt_prop_def(FloatAttr)


LAMBD = OpAttribute("lambd", 0.5, in_dtype=True, non_negative=True)
"""The shrink ops' band half-width: PyTorch rounds it to the input dtype (not FAMILY.md's f32)."""


@irdl_op_definition
class HardShrinkOp(NamedOp):
    """HardShrink(x; lambd) -> y = +0 for -lambd <= x <= lambd, else x (FAMILY.md).

    Example: `%y = hsg.hard_shrink %x {lambd = 0.5 : f32} : tensor<?xf16>`
    """

    name = "hsg.hard_shrink"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    ATTRIBUTES: ClassVar[tuple[OpAttribute, ...]] = (LAMBD,)
    TITLE: ClassVar[str] = "HardShrink"
    lambd = opt_prop_def(FloatAttr)


@irdl_op_definition
class HardShrinkGradOp(NamedOp):
    """HardShrinkGrad(grad, x; lambd) -> y = +0 for -lambd <= x <= lambd, else grad.

    Example: `%y = hsg.hard_shrink_grad %grad, %x : tensor<?xf16>`
    """

    name = "hsg.hard_shrink_grad"
    INPUTS: ClassVar[tuple[str, ...]] = ("grad", "x")
    ATTRIBUTES: ClassVar[tuple[OpAttribute, ...]] = (LAMBD,)
    TITLE: ClassVar[str] = "HardShrinkGrad"
    lambd = opt_prop_def(FloatAttr)


@irdl_op_definition
class SoftshrinkOp(NamedOp):
    """Softshrink(x; lambd, bias) -> y = x - bias for x > lambd, x + bias for x < -lambd, else +0; bias is lambd unless given (F.softshrink; ONNX Shrink sets bias apart).

    Example: `%y = hsg.softshrink %x {lambd = 0.5 : f32, bias = 0.0 : f32} : tensor<?xf32>`
    """

    name = "hsg.softshrink"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    ATTRIBUTES: ClassVar[tuple[OpAttribute, ...]] = (
        LAMBD, OpAttribute("bias", in_dtype=True, same_as="lambd"))
    TITLE: ClassVar[str] = "Softshrink"
    lambd = opt_prop_def(FloatAttr)
    bias = opt_prop_def(FloatAttr)


@irdl_op_definition
class SoftshrinkGradOp(NamedOp):
    """SoftshrinkGrad(grad, x; lambd) -> y = +0 for -lambd <= x <= lambd, else grad.

    Example: `%y = hsg.softshrink_grad %grad, %x : tensor<?xf32>`
    """

    name = "hsg.softshrink_grad"
    INPUTS: ClassVar[tuple[str, ...]] = ("grad", "x")
    ATTRIBUTES: ClassVar[tuple[OpAttribute, ...]] = (LAMBD,)
    TITLE: ClassVar[str] = "SoftshrinkGrad"
    lambd = opt_prop_def(FloatAttr)


APPROXIMATE = OpOption("approximate", "none", ("none", "tanh"))
"""GELU's formula: the exact erf form, or PyTorch's tanh approximation."""
ELU_ATTRIBUTES = (OpAttribute("alpha", 1.0), OpAttribute("scale", 1.0),
                  OpAttribute("input_scale", 1.0))
SOFTPLUS_ATTRIBUTES = (OpAttribute("beta", 1.0, positive=True), OpAttribute("threshold", 20.0))
SWISH_SCALE = OpAttribute("scale", 1.0)
"""Swish's factor on x inside the sigmoid (ops-nn's Swish, SwishGrad); SiLU's is 1."""

# The exponential activations (EXPONENTIAL.md): PyTorch 2.14's formulas, compared with a tolerance.


@irdl_op_definition
class SigmoidOp(NamedOp):
    """Sigmoid(x) -> y = 1 / (1 + exp(-x)) (torch.sigmoid; EXPONENTIAL.md).

    Example: `%y = hsg.sigmoid %x : tensor<?xf16>`
    """

    name = "hsg.sigmoid"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    TITLE: ClassVar[str] = "Sigmoid"


@irdl_op_definition
class TanhOp(NamedOp):
    """Tanh(x) -> y = tanh(x) (torch.tanh).

    Example: `%y = hsg.tanh %x : tensor<?xf32>`
    """

    name = "hsg.tanh"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    TITLE: ClassVar[str] = "Tanh"


@irdl_op_definition
class SiluOp(NamedOp):
    """Silu(x; scale) -> y = x / (1 + exp(-(x * scale))) (F.silu for scale 1, its default; ops-nn's Swish).

    Example: `%y = hsg.silu %x {scale = 1.702 : f32} : tensor<?xbf16>`
    """

    name = "hsg.silu"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    ATTRIBUTES: ClassVar[tuple[OpAttribute, ...]] = (SWISH_SCALE,)
    TITLE: ClassVar[str] = "Silu"
    scale = opt_prop_def(FloatAttr)


@irdl_op_definition
class GeluOp(NamedOp):
    """Gelu(x; approximate) -> y = x/2 (1 + erf(x / sqrt 2)), or with approximate = "tanh" x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) (F.gelu).

    Example: `%y = hsg.gelu %x {approximate = "tanh"} : tensor<?xf16>`
    """

    name = "hsg.gelu"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    OPTIONS: ClassVar[tuple[OpOption, ...]] = (APPROXIMATE,)
    TITLE: ClassVar[str] = "Gelu"
    approximate = opt_prop_def(AnyAttr())


@irdl_op_definition
class EluOp(NamedOp):
    """Elu(x; alpha, scale, input_scale) -> y = x * scale for x > 0, else expm1(x * input_scale) * alpha * scale (aten.elu).

    Example: `%y = hsg.elu %x {alpha = 0.5 : f32} : tensor<?xf32>`
    """

    name = "hsg.elu"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    ATTRIBUTES: ClassVar[tuple[OpAttribute, ...]] = (*ELU_ATTRIBUTES,)
    TITLE: ClassVar[str] = "Elu"
    alpha = opt_prop_def(FloatAttr)
    scale = opt_prop_def(FloatAttr)
    input_scale = opt_prop_def(FloatAttr)


@irdl_op_definition
class SeluOp(NamedOp):
    """Selu(x) -> y = Elu with alpha 1.6732632423543772, scale 1.0507009873554805 (torch.selu).

    Example: `%y = hsg.selu %x : tensor<?xf16>`
    """

    name = "hsg.selu"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    TITLE: ClassVar[str] = "Selu"


@irdl_op_definition
class CeluOp(NamedOp):
    """Celu(x; alpha, alpha2, alpha3) -> y = x * alpha3 for x >= 0, else alpha * expm1(x / alpha2); alpha2 is alpha unless given, alpha3 1 (torch.celu: max(0, x) + min(0, alpha * expm1(x / alpha)); ops-nn's Celu names them alpha1, alpha2, alpha3).

    Example: `%y = hsg.celu %x {alpha = 2.0 : f32} : tensor<?xf16>`
    """

    name = "hsg.celu"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    ATTRIBUTES: ClassVar[tuple[OpAttribute, ...]] = (
        OpAttribute("alpha", 1.0, nonzero=True), OpAttribute("alpha2", nonzero=True, same_as="alpha"),
        OpAttribute("alpha3", 1.0))
    TITLE: ClassVar[str] = "Celu"
    alpha = opt_prop_def(FloatAttr)
    alpha2 = opt_prop_def(FloatAttr)
    alpha3 = opt_prop_def(FloatAttr)


@irdl_op_definition
class SoftplusOp(NamedOp):
    """Softplus(x; beta, threshold) -> y = x where x * beta > threshold, else log1p(exp(x * beta)) / beta (F.softplus).

    Example: `%y = hsg.softplus %x {beta = 2.0 : f32} : tensor<?xf32>`
    """

    name = "hsg.softplus"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    ATTRIBUTES: ClassVar[tuple[OpAttribute, ...]] = (*SOFTPLUS_ATTRIBUTES,)
    TITLE: ClassVar[str] = "Softplus"
    beta = opt_prop_def(FloatAttr)
    threshold = opt_prop_def(FloatAttr)


@irdl_op_definition
class MishOp(NamedOp):
    """Mish(x) -> y = x * tanh(log1p(exp(x))) (F.mish).

    Example: `%y = hsg.mish %x : tensor<?xf16>`
    """

    name = "hsg.mish"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    TITLE: ClassVar[str] = "Mish"


@irdl_op_definition
class SoftsignOp(NamedOp):
    """Softsign(x) -> y = x / (1 + |x|) (F.softsign).

    Example: `%y = hsg.softsign %x : tensor<?xf16>`
    """

    name = "hsg.softsign"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    TITLE: ClassVar[str] = "Softsign"


@irdl_op_definition
class LogSigmoidOp(NamedOp):
    """LogSigmoid(x) -> y = min(x, 0) - log1p(exp(-|x|)) (F.logsigmoid).

    Example: `%y = hsg.log_sigmoid %x : tensor<?xf32>`
    """

    name = "hsg.log_sigmoid"
    INPUTS: ClassVar[tuple[str, ...]] = ("x",)
    TITLE: ClassVar[str] = "LogSigmoid"


@irdl_op_definition
class SigmoidGradOp(NamedOp):
    """SigmoidGrad(grad, result) -> grad * (1 - result) * result, result the forward one
    (aten.sigmoid_backward; written `hsg.sigmoid_grad %grad, %y`).

    Example: `%dx = hsg.sigmoid_grad %grad, %y : tensor<?xf16>`
    """

    name = "hsg.sigmoid_grad"
    INPUTS: ClassVar[tuple[str, ...]] = ("grad", "result")
    TITLE: ClassVar[str] = "SigmoidGrad"


@irdl_op_definition
class TanhGradOp(NamedOp):
    """TanhGrad(grad, result) -> grad * (1 - result^2), result the forward one
    (aten.tanh_backward; written `hsg.tanh_grad %grad, %y`).

    Example: `%dx = hsg.tanh_grad %grad, %y : tensor<?xf16>`
    """

    name = "hsg.tanh_grad"
    INPUTS: ClassVar[tuple[str, ...]] = ("grad", "result")
    TITLE: ClassVar[str] = "TanhGrad"


@irdl_op_definition
class SiluGradOp(NamedOp):
    """SiluGrad(grad, x; scale) -> grad * s * (1 + x * scale * (1 - s)), s = sigmoid(x * scale) (aten.silu_backward for scale 1; ops-nn's SwishGrad).

    Example: `%dx = hsg.silu_grad %grad, %x : tensor<?xf32>`
    """

    name = "hsg.silu_grad"
    INPUTS: ClassVar[tuple[str, ...]] = ("grad", "x")
    ATTRIBUTES: ClassVar[tuple[OpAttribute, ...]] = (SWISH_SCALE,)
    TITLE: ClassVar[str] = "SiluGrad"
    scale = opt_prop_def(FloatAttr)


@irdl_op_definition
class GeluGradOp(NamedOp):
    """GeluGrad(grad, x; approximate) -> grad * d/dx Gelu(x) (aten.gelu_backward).

    Example: `%dx = hsg.gelu_grad %grad, %x {approximate = "none"} : tensor<?xf16>`
    """

    name = "hsg.gelu_grad"
    INPUTS: ClassVar[tuple[str, ...]] = ("grad", "x")
    OPTIONS: ClassVar[tuple[OpOption, ...]] = (APPROXIMATE,)
    TITLE: ClassVar[str] = "GeluGrad"
    approximate = opt_prop_def(AnyAttr())


@irdl_op_definition
class EluGradOp(NamedOp):
    """EluGrad(grad, v; alpha, scale, input_scale, is_result) -> the gradient of Elu; v is x, or Elu's result when is_result (aten.elu_backward).

    Example: `%dx = hsg.elu_grad %grad, %x {alpha = 1.0 : f32} : tensor<?xf32>`
    """

    name = "hsg.elu_grad"
    INPUTS: ClassVar[tuple[str, ...]] = ("grad", "v")
    ATTRIBUTES: ClassVar[tuple[OpAttribute, ...]] = (*ELU_ATTRIBUTES,)
    OPTIONS: ClassVar[tuple[OpOption, ...]] = (OpOption("is_result", False),)
    TITLE: ClassVar[str] = "EluGrad"
    alpha = opt_prop_def(FloatAttr)
    scale = opt_prop_def(FloatAttr)
    input_scale = opt_prop_def(FloatAttr)
    is_result = opt_prop_def(AnyAttr())


@irdl_op_definition
class SoftplusGradOp(NamedOp):
    """SoftplusGrad(grad, x; beta, threshold) -> grad where x * beta > threshold, else grad * z / (z + 1), z = exp(x * beta) (aten.softplus_backward).

    Example: `%dx = hsg.softplus_grad %grad, %x : tensor<?xf32>`
    """

    name = "hsg.softplus_grad"
    INPUTS: ClassVar[tuple[str, ...]] = ("grad", "x")
    ATTRIBUTES: ClassVar[tuple[OpAttribute, ...]] = (*SOFTPLUS_ATTRIBUTES,)
    TITLE: ClassVar[str] = "SoftplusGrad"
    beta = opt_prop_def(FloatAttr)
    threshold = opt_prop_def(FloatAttr)


@irdl_op_definition
class MishGradOp(NamedOp):
    """MishGrad(grad, x) -> grad * (t + x * sigmoid(x) * (1 - t * t)), t = tanh(softplus(x)) (aten.mish_backward).

    Example: `%dx = hsg.mish_grad %grad, %x : tensor<?xf16>`
    """

    name = "hsg.mish_grad"
    INPUTS: ClassVar[tuple[str, ...]] = ("grad", "x")
    TITLE: ClassVar[str] = "MishGrad"


@irdl_op_definition
class LogSigmoidGradOp(NamedOp):
    """LogSigmoidGrad(grad, x) -> grad * (max_deriv - sign * z / (1 + z)), z = exp(-|x|) (aten.log_sigmoid_backward).

    Example: `%dx = hsg.log_sigmoid_grad %grad, %x : tensor<?xf16>`
    """

    name = "hsg.log_sigmoid_grad"
    INPUTS: ClassVar[tuple[str, ...]] = ("grad", "x")
    TITLE: ClassVar[str] = "LogSigmoidGrad"


PIECEWISE_OPS: tuple[type[NamedOp], ...] = (
    HardSwishOp, HardSwishGradOp, HardSigmoidOp, HardSigmoidGradOp, HardtanhOp, HardtanhGradOp,
    LeakyReluOp, LeakyReluGradOp, ThresholdOp, ThresholdGradOp, HardShrinkOp, HardShrinkGradOp,
    SoftshrinkOp, SoftshrinkGradOp,
)
EXPONENTIAL_OPS: tuple[type[NamedOp], ...] = (
    SigmoidOp,
    TanhOp,
    SiluOp,
    GeluOp,
    EluOp,
    SeluOp,
    CeluOp,
    SoftplusOp,
    MishOp,
    SoftsignOp,
    LogSigmoidOp,
    SigmoidGradOp,
    TanhGradOp,
    SiluGradOp,
    GeluGradOp,
    EluGradOp,
    SoftplusGradOp,
    MishGradOp,
    LogSigmoidGradOp,
)
"""The exponential activations, compared with PyTorch within a tolerance (EXPONENTIAL.md)."""
NAMED_OPS: tuple[type[NamedOp], ...] = (*PIECEWISE_OPS, *EXPONENTIAL_OPS)
"""Every named op: the 14 piecewise-linear ones (FAMILY.md), bit-exact, and the exponential
ones."""
OPERATOR_OPS: tuple[type[Operation], ...] = (NamedOp, TensorFunctionOp, ReluMaskOp)
"""The op classes of the named operators hsg-decompose lowers: a module holding one is at the
hsg level."""

# endregion
# region host side


@irdl_op_definition
class NumElementsOp(IRDLOperation):
    """gert::Shape::GetShapeSize() of a tensor's storage shape (a scalar counts as {1}).

    Example: `%n = hsg.num_elements %grad : tensor<4x?xf16>`
    """

    name = "hsg.num_elements"
    tensor = operand_def(TensorType | UnrankedTensorType)
    result = result_def(IndexType)
    assembly_format = "$tensor attr-dict `:` type($tensor)"

    def __init__(self, tensor: SSAValue):
        super().__init__(operands=[tensor], result_types=[IndexType()])


@irdl_op_definition
class GetCoreNumAivOp(IndexQueryOp):
    """PlatformAscendC::GetCoreNumAiv(): the vector cores of the SoC the tiling runs for.

    Example: `%cores = hsg.get_core_num_aiv`
    """

    name = "hsg.get_core_num_aiv"


@irdl_op_definition
class GetUbSizeOp(IndexQueryOp):
    """PlatformAscendC::GetCoreMemSize(CoreMemType::UB, ubSize): UB bytes per vector core.

    Example: `%ub = hsg.get_ub_size`
    """

    name = "hsg.get_ub_size"


@irdl_op_definition
class FlattenOp(IRDLOperation):
    """A tensor's elements in C order as a 1-D tensor: aclnn's view of a contiguous tensor.

    `hsg-decompose` flattens unranked operands, which linalg.generic cannot take; the elements
    and their order are unchanged.

    Example: `%flat = hsg.flatten %x : tensor<*xf16> -> tensor<?xf16>`
    """

    name = "hsg.flatten"
    tensor = operand_def(TensorType | UnrankedTensorType)
    result = result_def(TensorType)
    assembly_format = "$tensor attr-dict `:` type($tensor) `->` type($result)"

    def __init__(self, tensor: SSAValue):
        t = tensor.type
        assert isinstance(t, TensorType | UnrankedTensorType)
        super().__init__(operands=[tensor],
                         result_types=[TensorType(t.get_element_type(), [DYNAMIC_INDEX])])

    def verify_(self) -> None:
        t, r = self.tensor.type, self.result.type
        assert isinstance(t, TensorType | UnrankedTensorType) and isinstance(r, TensorType)
        if r.get_num_dims() != 1 or r.get_element_type() != t.get_element_type():
            raise VerifyException(f"{self.name}: the result must be a 1-D tensor of "
                                  f"{t.get_element_type()}, got {r}")


@irdl_op_definition
class UnflattenOp(IRDLOperation):
    """The 1-D tensor `flat` in the shape of `like` (the inverse of hsg.flatten).

    Example: `%y = hsg.unflatten %flat like %x : tensor<?xf16> -> tensor<*xf16>`
    """

    name = "hsg.unflatten"
    T: ClassVar = VarConstraint("T", base(TensorType) | base(UnrankedTensorType))
    flat = operand_def(TensorType)
    like = operand_def(T)
    result = result_def(T)
    assembly_format = "$flat `like` $like attr-dict `:` type($flat) `->` type($result)"

    def __init__(self, flat: SSAValue, like: SSAValue):
        super().__init__(operands=[flat, like], result_types=[like.type])

    def verify_(self) -> None:
        f, like = self.flat.type, self.like.type
        assert isinstance(f, TensorType) and isinstance(like, TensorType | UnrankedTensorType)
        if self.result.type != like:
            raise VerifyException(f"{self.name}: the result must have the type of `like`, {like}")
        if f.get_num_dims() != 1 or f.get_element_type() != like.get_element_type():
            raise VerifyException(f"{self.name}: flat must be a 1-D tensor of "
                                  f"{like.get_element_type()}, got {f}")


@irdl_op_definition
class LaunchOp(IRDLOperation):
    """op<<<blockDim, nullptr, stream>>>(inputs..., y, workspace, tiling): run a kernel.

    Runs the kernel function `kernel` (marked `hsg.kernel`) on `block_dim` vector cores, each
    with GetBlockIdx() in [0, block_dim). The kernel receives the inputs and a fresh result as
    flat GM buffers (`memref<?xT>`), then the tiling values in order, then the f32 `scalars`
    (the operator's run-time attributes, float fields of the tiling struct). The result has
    the inputs' type; a kernel with `hsg.broadcast` (hswc.broadcast) gives its output's shape,
    and each of its broadcast inputs holds that input's own elements. With `counts` (an i64
    tensor, hsg.first_rows), the kernel takes their GM buffer after the inputs and writes only
    the leading rows they sum to (hswc.counted_rows).

    Example:
    `%y = hsg.launch @hard_swish_grad_kernel_f16 blocks %n (%grad, %x) tiling(%t, %bf, %uf) : tensor<4x?xf16>, tensor<4x?xf16> -> tensor<4x?xf16>`,
    with scalars `... tiling(%t, %bf, %uf) scalars(%slope : f32) : ...`
    """

    name = "hsg.launch"
    kernel = prop_def(SymbolRefAttr)
    block_dim = operand_def(IndexType)
    inputs = var_operand_def(TensorType | UnrankedTensorType)
    tiling = var_operand_def(IndexType)
    scalars = var_operand_def(AnyFloatConstr)
    counts = opt_operand_def(TensorType)
    """A kernel computing only the leading rows these counts sum to (`hsg.first_rows`,
    hswc.counted_rows): an i64 tensor its kernel reads in GM, passed after the inputs."""
    ys = var_result_def(TensorType | UnrankedTensorType)
    """The kernel's outputs: one, or several of one shape (each of its own element type)."""
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = (
        "$kernel `blocks` $block_dim ` ` `(` $inputs `)` `tiling` `(` $tiling `)` "
        "(`scalars` `(` $scalars^ `:` type($scalars) `)`)? "
        "(`counts` `(` $counts^ `:` type($counts) `)`)? attr-dict "
        "`:` type($inputs) `->` type($ys)"
    )

    def __init__(self, kernel: str | SymbolRefAttr, block_dim: SSAValue,
                 inputs: Sequence[SSAValue], tiling: Sequence[SSAValue],
                 scalars: Sequence[SSAValue] = (),
                 result_type: Attribute | Sequence[Attribute] | None = None,
                 counts: SSAValue | None = None):
        if isinstance(kernel, str):
            kernel = SymbolRefAttr(kernel)
        types = [inputs[0].type] if result_type is None else \
            list(result_type) if isinstance(result_type, Sequence) else [result_type]
        super().__init__(
            operands=[block_dim, list(inputs), list(tiling), list(scalars),
                      [] if counts is None else [counts]],
            result_types=[types],
            properties={"kernel": kernel},
        )

    @property
    def y(self) -> SSAValue:
        """The (first) output."""
        return self.ys[0]

    def verify_(self) -> None:
        if not self.inputs:
            raise VerifyException(f"{self.name}: a kernel takes at least one input tensor")
        if not self.ys:
            raise VerifyException(f"{self.name}: a kernel writes at least one output tensor")
        rows = self._rows()
        windows = self._output_windows() if rows is None else None
        if windows is None:
            self._verify_outputs(rows is not None)
        else:
            self._verify_joint_outputs(windows)
        names = [f"input {i + 1}" for i in range(len(self.inputs))] + ["the result"]
        types = [*(v.type for v in self.inputs), self.y.type]
        if windows is not None:  # the inputs are read over the kernel's iteration shape
            types[-1] = TensorType(self.y.type.get_element_type(),  # type: ignore[attr-defined]
                                   windows.shape)
        for name, t in zip(names, types, strict=True):
            verify_operator_tensor(f"{self.name}: {name.removeprefix('the ')}", t,
                                   integers=True, booleans=name == "the result")
        broadcast = self._broadcast()
        if rows is not None:
            self._verify_rows(rows, types)
        elif broadcast is None:
            _verify_same_shapes(self, [n.removeprefix("the ") for n in names], types,
                                "the inputs and the result")
        else:
            self._verify_broadcast(broadcast, names, types)
        if self.counts is not None:
            self._verify_counts(self.counts.type)
        for i, scalar in enumerate(self.scalars):
            if not isinstance(scalar.type, Float32Type):
                raise VerifyException(f"{self.name}: scalar {i + 1} has type {scalar.type}; a "
                                      "kernel's scalars are f32 (float fields of its tiling)")
        self._verify_kernel()

    def _verify_counts(self, t: Attribute) -> None:
        """Counts of static length and i64, launched with a kernel that reads them
        (hswc.counted_rows: its COUNTS_ATTR)."""
        if not (isinstance(t, TensorType) and t.get_num_dims() == 1 and t.has_static_shape()
                and t.get_element_type() == IntegerType(64)):
            raise VerifyException(f"{self.name}: counts has type {t}; a kernel reads a "
                                  "rank-1 i64 tensor of static length")
        kernel = SymbolTable.lookup_symbol(self, self.kernel)
        if kernel is not None and COUNTS_ATTR not in kernel.attributes:
            raise VerifyException(f"{self.name}: {self.kernel} is launched with counts but "
                                  f"does not read them (no {COUNTS_ATTR})")

    def _verify_outputs(self, by_rows: bool) -> None:
        """Each output a tensor an operator writes; the outputs after the first of its shape
        (they are written at the same flat indices), except a row kernel's (of its rows:
        _verify_rows)."""
        first = self.ys[0].type
        for i, y in enumerate(self.ys[1:], start=2):
            verify_operator_tensor(f"{self.name}: result {i}", y.type, integers=True,
                                   booleans=True)
            if not by_rows and not (isinstance(first, TensorType) and isinstance(y.type, TensorType)
                                    and _fits(y.type.get_shape(), first.get_shape())):
                raise VerifyException(f"{self.name}: result {i} has type {y.type}; the outputs "
                                      f"of one kernel have one shape, the first's ({first})")

    def _output_windows(self) -> Broadcast | None:
        """The kernel's hsg.output_windows (hswc.output_windows), if it has one."""
        kernel = SymbolTable.lookup_symbol(self, self.kernel)
        try:
            return None if kernel is None else read_output_windows(kernel)
        except ValueError as error:
            raise VerifyException(f"{self.name}: {self.kernel}: {error}") from None

    def _verify_joint_outputs(self, windows: Broadcast) -> None:
        """Of a kernel writing outputs at windows of one tensor (hswc.output_windows): each
        result is static and holds what is written into it, the kernel's iteration shape (an
        output of its own) or the element count of a window's tensor."""
        sizes = {w.elements for w in windows.windows if w is not None}
        for i, y in enumerate(self.ys, start=1):
            t = y.type
            verify_operator_tensor(f"{self.name}: result {i}", t, integers=True, booleans=True)
            if not isinstance(t, TensorType) or not t.has_static_shape() or not (
                    tuple(t.get_shape()) == windows.shape or t.element_count() in sizes):
                raise VerifyException(
                    f"{self.name}: result {i} has type {t}; {self.kernel} writes tensors of "
                    f"shape {list(windows.shape)} or of {sorted(sizes)} elements "
                    "(hsg.output_windows)")

    def _broadcast(self) -> Broadcast | None:
        """The kernel's hsg.broadcast (hswc.broadcast), if it has one."""
        kernel = SymbolTable.lookup_symbol(self, self.kernel)
        try:
            return None if kernel is None else read_broadcast(kernel)
        except ValueError as error:
            raise VerifyException(f"{self.name}: {self.kernel}: {error}") from None

    def _rows(self) -> Rows | None:
        """The kernel's hsg.rows (a row kernel, hswc.rows), if it has one."""
        kernel = SymbolTable.lookup_symbol(self, self.kernel)
        try:
            return None if kernel is None else read_rows(kernel)
        except ValueError as error:
            raise VerifyException(f"{self.name}: {self.kernel}: {error}") from None

    def _verify_rows(self, rows: Rows, types: Sequence[Attribute]) -> None:
        """A row kernel's operands are ranked tensors holding the rows its classes say: checked
        here where every shape is static; with a run-time row count, each column operand is
        static of the row length, the rest by the host code before the launch (hsg-tile-on-cores'
        cf.assert) and the interpreter."""
        inputs = types[:-1]
        results = [y.type for y in self.ys]
        if len(inputs) != len(rows.inputs) or len(results) != len(rows.outputs):
            raise VerifyException(f"{self.name}: {self.kernel} reads {len(rows.inputs)} "
                                  f"inputs and writes {len(rows.outputs)} outputs, launched "
                                  f"with {len(inputs)} and {len(results)}")
        if not all(isinstance(t, TensorType) for t in (*inputs, *results)):
            raise VerifyException(f"{self.name}: a row kernel's operands are ranked tensors")
        if rows.dynamic:  # rows of its run-time row_length: counted when it runs
            return
        if not all(t.has_static_shape() for t in (*inputs, *results)):  # type: ignore[attr-defined]
            for i, (t, kind) in enumerate(zip(inputs, rows.inputs, strict=True)):
                if kind == "column" and not rows.dynamic and (not t.has_static_shape()  # type: ignore[attr-defined]
                                         or t.element_count() != rows.length):  # type: ignore[attr-defined]
                    raise VerifyException(f"{self.name}: input {i + 1} (a column operand) has "
                                          f"type {t}, not {rows.length} elements")
            return
        try:
            rows.count_rows([t.element_count() for t in inputs],  # type: ignore[attr-defined]
                            [t.element_count() for t in results])  # type: ignore[attr-defined]
        except ValueError as error:
            raise VerifyException(f"{self.name}: {error}") from None

    def _verify_broadcast(self, broadcast: Broadcast, names: Sequence[str],
                          types: Sequence[Attribute]) -> None:
        """Inputs the kernel broadcasts hold its operand's elements; the rest, and the
        result, have the kernel's output shape (each of its own element type)."""
        *inputs, result = types
        if not isinstance(result, TensorType) or not _fits(result.get_shape(),
                                                           broadcast.shape):
            raise VerifyException(f"{self.name}: the result must be a tensor of shape "
                                  f"{list(broadcast.shape)}, the kernel's, got {result}")
        if not broadcast.is_static:  # the run-time shapes: checked by the host code before
            self._verify_dynamic_broadcast(broadcast, names, inputs, result)
            return
        if len(inputs) != len(broadcast.strides):
            raise VerifyException(f"{self.name}: {self.kernel} broadcasts "
                                  f"{len(broadcast.strides)} inputs, launched with {len(inputs)}")
        for i, (name, t) in enumerate(zip(names, inputs, strict=False)):
            ok = isinstance(t, TensorType) and t.has_static_shape() and (
                t.get_shape() == result.get_shape() if broadcast.strides[i] is None else
                t.element_count() == broadcast.operand_size(i))
            if not ok:
                raise VerifyException(f"{self.name}: {name} has type {t}, which the kernel "
                                      f"does not read into {result}")

    def _verify_dynamic_broadcast(self, broadcast: Broadcast, names: Sequence[str],
                                  inputs: Sequence[Attribute], result: TensorType) -> None:
        """Of a kernel of dynamic shapes (hswc.broadcast): each input's rank and static dims
        fit what the kernel reads (the output's rank for one at its index)."""
        for i, (name, t) in enumerate(zip(names, inputs, strict=False)):
            if broadcast.strides[i] is None:
                ok = isinstance(t, TensorType) and _fits(t.get_shape(), broadcast.shape)
            else:
                ok = isinstance(t, TensorType) and (
                    not broadcast.has_static_size(i) or not t.has_static_shape()
                    or t.element_count() == broadcast.operand_size(i))
            if not ok:
                raise VerifyException(f"{self.name}: {name} has type {t}, which the kernel "
                                      f"does not read into {result}")

    def _verify_kernel(self) -> None:
        """The symbol is a kernel taking (inputs..., y: memref<?xT>, one index per tiling value,
        one f32 per scalar)."""
        kernel = SymbolTable.lookup_symbol(self, self.kernel)
        if kernel is None:
            raise VerifyException(f"{self.name}: no function {self.kernel} to launch")
        if not is_kernel(kernel) or not isinstance(kernel, FuncOp):
            raise VerifyException(
                f"{self.name}: {self.kernel} is not a kernel (a func.func marked {KERNEL_ATTR})"
            )
        counts = (self.counts,) if self.counts is not None else ()
        expected = (*(_flat_gm(v.type.get_element_type())  # type: ignore[attr-defined]
                      for v in (*self.inputs, *counts, *self.ys)),
                    *(IndexType() for _ in self.tiling), *(Float32Type() for _ in self.scalars))
        taken = tuple(kernel.function_type.inputs)
        first_y = len(self.inputs)
        if len(taken) == len(expected):  # an i1 output may be stored packed (BITS_STORAGE)
            expected = tuple(_flat_gm(BITS_STORAGE) if first_y <= k < first_y + len(self.ys)
                             and t == _flat_gm(BITS_STORAGE) and e == _flat_gm(BOOL_STORAGE)
                             else e for k, (t, e) in enumerate(zip(taken, expected, strict=True)))
        if taken != expected:
            want = ", ".join(str(t) for t in expected)
            scalars = f" and {len(self.scalars)} f32 scalar(s)" if self.scalars else ""
            outputs = f", {len(self.ys)} outputs" if len(self.ys) > 1 else ""
            outputs += ", its counts" if counts else ""
            raise VerifyException(
                f"{self.name}: {self.kernel} must take ({want}) to be launched with "
                f"{len(self.inputs)} input(s){outputs} and {len(self.tiling)} tiling "
                f"values{scalars}, "
                f"but takes ({', '.join(str(t) for t in kernel.function_type.inputs)})"
            )


@cache
def _flat_gm(element: Attribute) -> MemRefType:
    """memref<?xT> of T's GM storage (gm_element), built once per element type (every launch's
    verification compares its kernel's arguments with it)."""
    return MemRefType(gm_element(element), [DYNAMIC_INDEX])


BOOL_STORAGE = IntegerType(8)
"""How a kernel stores an i1 output in GM by default: one byte per element, 0 or 1 (PyTorch's
bool)."""
BITS_STORAGE = IntegerType(8, Signedness.UNSIGNED)
"""How a kernel stores an i1 output in GM packed (ops-nn's DT_UINT1): bytes of 8 elements each,
element i bit i % 8 of byte i // 8, the least significant bit first, as AscendC's Compare
writes a mask (np.packbits(..., bitorder="little")); a kernel's argument memref<?xui8> for an
i1 result. The padding bits of the last byte are no element."""
PACKED_BITS = 8
"""Elements a byte of a packed i1 output holds (BITS_STORAGE)."""


def stores_packed(element: Attribute, stored: Attribute) -> bool:
    """Whether a value of `element` held in a GM buffer of `stored` elements is packed: an i1
    in BITS_STORAGE (a ui8 tensor's ui8 is its own)."""
    return element == IntegerType(1) and stored == BITS_STORAGE


STORAGE_ATTR = "hsg.storage"
"""A function result's attribute choosing its GM storage: "bits" (BITS_STORAGE) or "bytes"
(BOOL_STORAGE, the default), for an i1 result a kernel writes."""
PACKED_ATTR = "hsg.packed_outputs"
"""On a linalg.generic: the positions of its i1 outputs its kernel stores as BITS_STORAGE
(hsg-tile-on-cores sets it from the function results' STORAGE_ATTR)."""


def gm_element(element: Attribute, packed: bool = False) -> Attribute:
    """The element type a kernel's GM buffer holds for a tensor of `element`: itself, but for
    i1, stored one byte per element (BOOL_STORAGE), or `packed`, 8 a byte (BITS_STORAGE)."""
    if element == IntegerType(1):
        return BITS_STORAGE if packed else BOOL_STORAGE
    return element


# endregion
# region device side: a core's slice and a UB chunk of it


def _verify_gm_buffers(op: IRDLOperation, buffers: Sequence[SSAValue], outputs: int = 1) -> None:
    """The inputs and the outputs of the slice and chunk ops are flat GM buffers, each of its
    own element type."""
    count = len(buffers) - outputs
    names = [f"input {i + 1}" for i in range(count)] + (
        ["output"] if outputs == 1 else [f"output {i + 1}" for i in range(outputs)])
    types = [b.type for b in buffers]
    for k, (name, t) in enumerate(zip(names, types, strict=True)):
        assert isinstance(t, MemRefType)
        elem = t.get_element_type()
        written = KERNEL_FLOAT8_TYPES if k >= count else ()
        if t.get_num_dims() != 1 or not (isinstance(elem, SUPPORTED_ELEMENT_TYPES)
                                         or str(elem) in (*KERNEL_INTEGER_TYPES, *written)):
            raise VerifyException(
                f"{op.name}: {name} must be a flat GM buffer memref<?xf16|bf16|f32|i8|ui8|i16|"
                f"i32|i64{''.join('|' + t for t in written)}>, got {t}"
            )


def _verify_body(op: IRDLOperation, body: Region, inputs: Sequence[SSAValue],
                 outputs: Sequence[SSAValue]) -> None:
    """One block taking an element of each input, ending in linalg.yield of one element of each
    output."""
    block = body.block
    wanted = tuple(v.type.get_element_type() for v in inputs)  # type: ignore[attr-defined]
    arg_types = tuple(a.type for a in block.args)
    if arg_types != wanted:
        raise VerifyException(
            f"{op.name}: the body must take one element of each input "
            f"({', '.join(str(t) for t in wanted)}), takes "
            f"({', '.join(str(t) for t in arg_types)})"
        )
    elements = [o.type.get_element_type() for o in outputs]  # type: ignore[attr-defined]
    last = block.last_op
    yielded = [] if last is None else [v.type for v in last.operands]
    if last is None or last.name != "linalg.yield" or len(yielded) != len(elements) \
            or any(y != e and not stores_packed(y, e)
                   for y, e in zip(yielded, elements, strict=True)):
        what = f"one {elements[0]}" if len(elements) == 1 else \
            f"one element of each output ({', '.join(str(t) for t in elements)})"
        raise VerifyException(f"{op.name}: the body must end in linalg.yield of {what}")


def _verify_elementwise(op: IRDLOperation, inputs: Sequence[SSAValue],
                        outputs: Sequence[SSAValue], body: Region) -> None:
    """The body computed elementwise over a range of GM buffers: inputs, outputs, body agree."""
    if not inputs:
        raise VerifyException(f"{op.name}: at least one input is needed")
    if not outputs:
        raise VerifyException(f"{op.name}: at least one output is needed")
    _verify_gm_buffers(op, [*inputs, *outputs], len(outputs))
    _verify_body(op, body, inputs, outputs)


@irdl_op_definition
class ElementwiseSliceOp(IRDLOperation):
    """One core's share of an elementwise computation: each output[offset : offset+size].

    Each output element is the body applied to the inputs' elements at the same index (an
    input `hsg.broadcast` describes at its own index, hswc.broadcast).
    `ub_factor` is the tiling's elements-per-UB-pass, which `hsg-block-into-ub` blocks by.

    Example:
    `hsg.elementwise_slice ins(%grad, %x : memref<?xf16>, memref<?xf16>) outs(%y : memref<?xf16>) [%off, %len] ub_factor %uf { ... }`
    """

    name = "hsg.elementwise_slice"
    inputs = var_operand_def(MemRefType)
    outputs = var_operand_def(MemRefType)
    offset = operand_def(IndexType)
    size = operand_def(IndexType)
    ub_factor = operand_def(IndexType)
    body = region_def("single_block")
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = (
        "`ins` `(` $inputs `:` type($inputs) `)` `outs` `(` $outputs `:` type($outputs) `)` "
        "`[` $offset `,` $size `]` `ub_factor` $ub_factor attr-dict-with-keyword $body"
    )

    def __init__(self, inputs: Sequence[SSAValue], outputs: SSAValue | Sequence[SSAValue],
                 offset: SSAValue, size: SSAValue, ub_factor: SSAValue, body: Region):
        outs = [outputs] if isinstance(outputs, SSAValue) else list(outputs)
        super().__init__(operands=[list(inputs), outs, offset, size, ub_factor],
                         regions=[body])

    @property
    def output(self) -> SSAValue:
        """The (first) output."""
        return self.outputs[0]

    def verify_(self) -> None:
        _verify_elementwise(self, self.inputs, self.outputs, self.body)


@irdl_op_definition
class ElementwiseChunkOp(IRDLOperation):
    """One UB pass of a core's slice: output[slice_offset + chunk_offset, +chunk_size).

    The slice is [slice_offset, slice_offset + slice_size) (what the core owns, and what its
    GlobalTensors cover); the chunk is at most `ub_factor` elements of it, at `chunk_offset`
    elements from the slice's start. slice_offset, slice_size and ub_factor are defined outside
    the chunk loop, so the UB set-up can be hoisted above it. Inputs `hsg.broadcast` describes
    (hswc.broadcast) are read at their own index of each output element, whole.

    Example: `hsg.elementwise_chunk ins(%grad, %x : ...) outs(%y : memref<?xf16>)
    slice [%off, %len] chunk [%coff, %cur] ub_factor %uf { ... }`
    """

    name = "hsg.elementwise_chunk"
    inputs = var_operand_def(MemRefType)
    outputs = var_operand_def(MemRefType)
    slice_offset = operand_def(IndexType)
    slice_size = operand_def(IndexType)
    chunk_offset = operand_def(IndexType)
    chunk_size = operand_def(IndexType)
    ub_factor = operand_def(IndexType)
    body = region_def("single_block")
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = (
        "`ins` `(` $inputs `:` type($inputs) `)` `outs` `(` $outputs `:` type($outputs) `)` "
        "`slice` ` ` `[` $slice_offset `,` $slice_size `]` `chunk` ` ` `[` $chunk_offset `,` "
        "$chunk_size `]` `ub_factor` $ub_factor attr-dict-with-keyword $body"
    )

    def __init__(self, inputs: Sequence[SSAValue], outputs: SSAValue | Sequence[SSAValue],
                 slice_offset: SSAValue, slice_size: SSAValue, chunk_offset: SSAValue,
                 chunk_size: SSAValue, ub_factor: SSAValue, body: Region):
        outs = [outputs] if isinstance(outputs, SSAValue) else list(outputs)
        super().__init__(
            operands=[list(inputs), outs, slice_offset, slice_size, chunk_offset, chunk_size,
                      ub_factor],
            regions=[body],
        )

    @property
    def output(self) -> SSAValue:
        """The (first) output."""
        return self.outputs[0]

    def verify_(self) -> None:
        _verify_elementwise(self, self.inputs, self.outputs, self.body)


# endregion


def is_kernel(op: Operation) -> bool:
    """A func.func that `hsg.launch` runs on the vector cores."""
    return isinstance(op.attributes.get(KERNEL_ATTR), UnitAttr)


def kernel_outputs(op: Operation) -> int:
    """How many GM outputs a kernel function writes (its hsg.outputs, else one)."""
    attr = op.attributes.get(OUTPUTS_ATTR)
    if attr is None:
        return 1
    if not isinstance(attr, IntegerAttr) or attr.value.data < 1:
        raise VerifyException(f"{OUTPUTS_ATTR} must be a positive integer, got {attr}")
    return attr.value.data


def is_tiling(op: Operation) -> bool:
    """A func.func that computes the host tiling."""
    return isinstance(op.attributes.get(TILING_ATTR), UnitAttr)


Hsg = Dialect(
    "hsg",
    [
        *NAMED_OPS,
        NumElementsOp,
        GetCoreNumAivOp,
        GetUbSizeOp,
        FlattenOp,
        UnflattenOp,
        LaunchOp,
        ElementwiseSliceOp,
        ElementwiseChunkOp,
        *ROW_OPS,
        *NORM_OPS,
        *GATED_OPS,
        *GATED_VARIANTS,
        SwigluGroupQuantOp,
        SwigluGroupQuantGradOp,
        FirstRowsOp,
        ReluMaskOp,
    ],
    [],
)

__all__ = ["FirstRowsOp", "ReduceOp", "ReluMaskOp", "RowChunkOp", "RowSliceOp"]


def _fits(shape: Sequence[int], described: Sequence[int]) -> bool:
    """Whether a tensor type's shape can hold a broadcast's output shape: the same rank, equal
    where both are static (a dynamic dim either side is checked at run time)."""
    return len(shape) == len(described) and all(
        a == b or a == DYNAMIC_INDEX or b == DYNAMIC_DIM
        for a, b in zip(shape, described, strict=True))
