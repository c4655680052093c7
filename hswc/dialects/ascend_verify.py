"""The checks the `ascend` ops' verifiers share: element types, one dtype, scalars, constants.

Each check raises a VerifyException whose sentence names the op, the operand and the rule, as
`'ascend.add' src1 has element type f16 but dst has f32`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from hswc.dialects.ascend_types import (
    BITWISE_ELEMENT_TYPES,
    HALF_FLOAT,
    LocalTensorType,
    element_size,
)
from hswc.soc_api import any_soc_types, tables


@dataclass(frozen=True)
class Elements:
    """The element types an AscendC call takes, and how a message names them."""

    words: str
    kinds: tuple[type[Attribute], ...] = ()
    types: tuple[Attribute, ...] = ()

    def __contains__(self, t: Attribute) -> bool:
        return isinstance(t, self.kinds) or t in self.types


HALF_OR_FLOAT = Elements("half or float", kinds=HALF_FLOAT)
"""The vector unit's arithmetic dtypes on Atlas A2/A3 (it has no bfloat16 arithmetic)."""
_FLOAT_KINDS = {"f16": Float16Type, "bf16": BFloat16Type, "f32": Float32Type}
_CPP_NAMES = {"f16": "half", "bf16": "bfloat16_t", "f32": "float"}


def soc_float_elements(call: str) -> Elements:
    """The float element types some SoC's `call` takes with an exactly specified result, and the
    integer types some SoC's call takes (hswc.soc_api's table): what an `ascend` op of that call
    may hold. Which SoC takes which is
    checked where the SoC is known (the vectorizer, the interpreter, the CPU model)."""
    exact = [t for t in _FLOAT_KINDS if any(table.exact(call, t) for table in tables().values())]
    integers = [t for t in _INTEGER_TYPES if t in any_soc_types(call)]
    names = [_CPP_NAMES[t] for t in exact] + [_IR_CPP[t] for t in integers]
    words = " or ".join(names) if len(names) < 3 else f"{', '.join(names[:-1])} or {names[-1]}"
    return Elements(words, kinds=tuple(_FLOAT_KINDS[t] for t in exact),
                    types=tuple(_INTEGER_TYPES[t] for t in integers))
_INTEGER_TYPES: dict[str, Attribute] = {
    "i8": IntegerType(8), "ui8": IntegerType(8, Signedness.UNSIGNED), "i16": IntegerType(16),
    "ui16": IntegerType(16, Signedness.UNSIGNED), "i32": IntegerType(32),
    "ui32": IntegerType(32, Signedness.UNSIGNED), "i64": IntegerType(64)}
_IR_KINDS: dict[str, Attribute | type[Attribute]] = {**_FLOAT_KINDS, **_INTEGER_TYPES}
_IR_CPP = {**_CPP_NAMES, "i8": "int8_t", "ui8": "uint8_t", "i16": "int16_t", "ui16": "uint16_t",
           "i32": "int32_t", "ui32": "uint32_t", "i64": "int64_t"}


def with_soc_integers(base: Elements, call: str) -> Elements:
    """`base` and the integer types some SoC's `call` takes (hswc.soc_api: int16_t, int32_t
    for Add, Sub, Mul, Adds, Muls; int32_t for Relu)."""
    integers = [t for t in any_soc_types(call) if t in _INTEGER_TYPES]
    if not integers:
        return base
    words = ", ".join([*base.words.replace(" or ", ", ").split(", "),
                       *(_IR_CPP[t] for t in integers)])
    head, _, last = words.rpartition(", ")
    return Elements(f"{head} or {last}", kinds=base.kinds,
                    types=(*base.types, *(_INTEGER_TYPES[t] for t in integers)))


def soc_elements(call: str) -> Elements:
    """Every element type some SoC's `call` takes (hswc.soc_api), floats and integers: what an
    op of a call that never rounds (Brcb, a copy) may hold."""
    names = [t for t in any_soc_types(call) if t in _IR_KINDS]
    kinds: list[type[Attribute]] = []
    types: list[Attribute] = []
    for name in names:
        kind = _IR_KINDS[name]
        if isinstance(kind, Attribute):
            types.append(kind)
        else:
            kinds.append(kind)
    return Elements(", ".join(_IR_CPP[t] for t in names), kinds=tuple(kinds), types=tuple(types))


INT16 = Elements("uint16_t (ui16) or int16_t (i16)", types=BITWISE_ELEMENT_TYPES)
"""What And, Or and Not take."""


def api_name(op: Operation) -> str:
    """The AscendC call an op models, as AscendC spells it: CompareScalarOp -> CompareScalar;
    an op class may name it as its ClassVar CALL (AddRepeatOp, the mask/repeat form: Add)."""
    call = getattr(type(op), "CALL", None)
    return call if isinstance(call, str) else type(op).__name__.removesuffix("Op")


def local(op: Operation, name: str) -> LocalTensorType:
    """The LocalTensor type of the operand `name` (the op's constraints guarantee it)."""
    t = getattr(op, name).type
    assert isinstance(t, LocalTensorType)
    return t


def require_element(op: Operation, name: str, allowed: Elements) -> Attribute:
    """The element type of the operand `name`, which must be one the call takes."""
    elem = local(op, name).element_type
    if elem not in allowed:
        raise VerifyException(
            f"{op.name}: {name} has element type {elem}; {api_name(op)} takes {allowed.words}"
        )
    return elem


def require_same_element(op: Operation, names: Sequence[str]) -> None:
    """The operands `names` hold one element type (the first one's)."""
    first = local(op, names[0]).element_type
    for name in names[1:]:
        elem = local(op, name).element_type
        if elem != first:
            raise VerifyException(
                f"{op.name}: {name} has element type {elem} but {names[0]} has {first}"
            )


def require_scalar(op: Operation, scalar: FloatAttr | IntegerAttr | SSAValue,
                   tensor: str) -> None:
    """The scalar operand (an attribute, or a run-time SSA value) has the dtype of the tensor
    `tensor`."""
    elem = local(op, tensor).element_type
    if scalar.type != elem:
        raise VerifyException(
            f"{op.name}: the scalar has type {scalar.type} but {tensor} holds {elem}; "
            "the scalar must have the tensor's dtype"
        )


def one_scalar(op: Operation, attr: FloatAttr | IntegerAttr | None,
               value: SSAValue | None) -> FloatAttr | IntegerAttr | SSAValue:
    """The scalar of a call that takes it as the property `scalar` or as the operand
    `scalar_value`: exactly one of the two."""
    if attr is not None and value is None:
        return attr
    if value is not None and attr is None:
        return value
    if attr is not None:
        raise VerifyException(
            f"{op.name}: takes its scalar once, as the attribute `scalar` or as the operand "
            "`scalar_value`, not both"
        )
    raise VerifyException(
        f"{op.name}: has no scalar: give the attribute `scalar` or the operand `scalar_value`"
    )


def constant_index(value: SSAValue) -> int | None:
    """The value of an index given by arith.constant, else None."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


MASK_WORD_LANES = 64
"""The lanes one uint64_t word of a bitwise mask enables: mask[0]'s (掩码.md)."""


def verify_duplicate_mask(op: Operation, first: SSAValue, count: SSAValue) -> None:
    """Duplicate's bitwise-mask form (ascend.duplicate_lanes, duplicate_lanes_repeat): a float
    `dst` of 2- or 4-byte elements the SoC's Duplicate takes, and the lanes [first, first +
    count), where constant, inside mask[0]'s MASK_WORD_LANES."""
    require_element(op, "dst", soc_float_elements("Duplicate"))
    if element_size(local(op, "dst").element_type) not in (2, 4):
        raise VerifyException(f"{op.name}: the mask form takes 2- and 4-byte elements")
    lo, n = constant_index(first), constant_index(count)
    if lo is not None and lo < 0:
        raise VerifyException(f"{op.name}: first lane {lo} is negative")
    if lo is not None and n is not None and lo + n > MASK_WORD_LANES:
        raise VerifyException(f"{op.name}: lanes [{lo}, {lo + n}) are not all "
                              f"in mask[0]'s {MASK_WORD_LANES}")
