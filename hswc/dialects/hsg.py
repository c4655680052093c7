"""The `hsg` dialect: HardSwishGrad and the host/device structure its tiling creates.

Levels (see docs/IR.md):
- `hsg.hard_swish_grad` on tensors: the operator;
- after `hsg-tile-on-cores`: host platform queries, `hsg.num_elements`, `hsg.launch` of a
  kernel whose body works on its core's slice with `hsg.hard_swish_grad_slice`;
- after `hsg-block-into-ub`: `hsg.hard_swish_grad_chunk`, one UB-sized chunk of that slice.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BFloat16Type,
    Float16Type,
    Float32Type,
    IndexType,
    MemRefType,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    UnrankedTensorType,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import VerifyException

from hswc.dialects.query import IndexQueryOp

MAX_RANK = 8
"""MAX_SUPPORT_DIMS_NUMS of the aclnn layer."""

SUPPORTED_ELEMENT_TYPES = (Float16Type, BFloat16Type, Float32Type)

KERNEL_ATTR = "hsg.kernel"
"""Unit attribute on the device kernel function that `hsg.launch` runs."""
TILING_ATTR = "hsg.tiling"
"""Unit attribute on the host tiling function."""

HsgTensorType = TensorType[Attribute] | UnrankedTensorType[Attribute]


def verify_operator_tensor(what: str, t: Attribute) -> None:
    """A tensor hsg.hard_swish_grad accepts: f16/bf16/f32, ranked up to rank 8, or unranked."""
    if not isinstance(t, TensorType | UnrankedTensorType):
        raise VerifyException(f"{what} must be a tensor, got {t}")
    elem = t.get_element_type()
    if not isinstance(elem, SUPPORTED_ELEMENT_TYPES):
        raise VerifyException(
            f"{what} has element type {elem}; HardSwishGrad supports f16, bf16 and f32"
        )
    if isinstance(t, TensorType) and t.get_num_dims() > MAX_RANK:
        raise VerifyException(
            f"{what} has rank {t.get_num_dims()} ({t}); HardSwishGrad supports rank 0 to {MAX_RANK}"
        )


def _verify_same_types(op: Operation, names: Sequence[str], types: Sequence[Attribute]) -> None:
    """Every value has the type of the first one (no broadcasting, no dtype mixing)."""
    for name, t in zip(names[1:], types[1:], strict=True):
        if t != types[0]:
            raise VerifyException(
                f"{op.name}: {name} has type {t} but {names[0]} has type {types[0]}; "
                "grad, x and the result must have the same shape and element type"
            )


@irdl_op_definition
class HardSwishGradOp(IRDLOperation):
    """HardSwishGrad(grad, x) -> y: the backward of HardSwish, elementwise.

    y = 0 (as grad*0) for x <= -3, grad * (x/3 + 1/2) for -3 < x < 3, grad for x >= 3, computed
    bit-exactly as the CANN kernel does (hswc/reference.py). grad, x and y have one type.

    Example: `%y = hsg.hard_swish_grad %grad, %x : tensor<4x?xf16>`
    """

    name = "hsg.hard_swish_grad"
    grad = operand_def(TensorType | UnrankedTensorType)
    x = operand_def(TensorType | UnrankedTensorType)
    y = result_def(TensorType | UnrankedTensorType)

    def __init__(self, grad: SSAValue, x: SSAValue):
        super().__init__(operands=[grad, x], result_types=[grad.type])

    def verify_(self) -> None:
        names = ("grad", "x", "result")
        types = (self.grad.type, self.x.type, self.y.type)
        for name, t in zip(names, types, strict=True):
            verify_operator_tensor(f"{self.name}: {name}", t)
        _verify_same_types(self, names, types)

    @classmethod
    def parse(cls, parser: Parser) -> HardSwishGradOp:
        grad = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        x = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        grad_v, x_v = parser.resolve_operands([grad, x], [t, t], parser.pos)
        op = cls(grad_v, x_v)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.grad)
        printer.print_string(", ")
        printer.print_operand(self.x)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.y.type)


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
class LaunchOp(IRDLOperation):
    """hard_swish_grad<<<blockDim, nullptr, stream>>>(grad, x, y, workspace, tiling).

    Runs the kernel function `kernel` (marked `hsg.kernel`) on `block_dim` vector cores, each
    with GetBlockIdx() in [0, block_dim). The kernel receives grad, x and a fresh y as flat GM
    buffers (`memref<?xT>`), then the tiling values in order. The result is y, shaped as grad.

    Example:
    `%y = hsg.launch @hard_swish_grad_kernel_f16 blocks %n (%grad, %x) tiling(%t, %bf, %uf) : tensor<4x?xf16>`
    """

    name = "hsg.launch"
    kernel = prop_def(SymbolRefAttr)
    block_dim = operand_def(IndexType)
    grad = operand_def(TensorType | UnrankedTensorType)
    x = operand_def(TensorType | UnrankedTensorType)
    tiling = var_operand_def(IndexType)
    y = result_def(TensorType | UnrankedTensorType)
    assembly_format = (
        "$kernel `blocks` $block_dim ` ` `(` $grad `,` $x `)` `tiling` `(` $tiling `)` attr-dict "
        "`:` type($grad) `,` type($x) `->` type($y)"
    )

    def __init__(
        self,
        kernel: str | SymbolRefAttr,
        block_dim: SSAValue,
        grad: SSAValue,
        x: SSAValue,
        tiling: Sequence[SSAValue],
    ):
        if isinstance(kernel, str):
            kernel = SymbolRefAttr(kernel)
        super().__init__(
            operands=[block_dim, grad, x, tiling],
            result_types=[grad.type],
            properties={"kernel": kernel},
        )

    def verify_(self) -> None:
        names = ("grad", "x", "result")
        types = (self.grad.type, self.x.type, self.y.type)
        for name, t in zip(names, types, strict=True):
            verify_operator_tensor(f"{self.name}: {name}", t)
        _verify_same_types(self, names, types)
        self._verify_kernel()

    def _verify_kernel(self) -> None:
        """The symbol is a kernel taking (grad, x, y: memref<?xT>, then one index per value)."""
        kernel = SymbolTable.lookup_symbol(self, self.kernel)
        if kernel is None:
            raise VerifyException(f"{self.name}: no function {self.kernel} to launch")
        if not is_kernel(kernel) or not isinstance(kernel, FuncOp):
            raise VerifyException(
                f"{self.name}: {self.kernel} is not a kernel (a func.func marked {KERNEL_ATTR})"
            )
        grad_type = self.grad.type
        assert isinstance(grad_type, TensorType | UnrankedTensorType)
        gm = MemRefType(grad_type.get_element_type(), [DYNAMIC_INDEX])
        expected = (gm, gm, gm, *(IndexType() for _ in self.tiling))
        if tuple(kernel.function_type.inputs) != expected:
            want = ", ".join(str(t) for t in expected)
            raise VerifyException(
                f"{self.name}: {self.kernel} must take ({want}) to be launched with "
                f"{len(self.tiling)} tiling values, but takes {kernel.function_type.inputs}"
            )


def _verify_gm_buffers(op: IRDLOperation, grad: SSAValue, x: SSAValue, y: SSAValue) -> None:
    """grad, x, y of the slice and chunk ops are flat GM buffers of one type."""
    names = ("grad", "x", "y")
    types = (grad.type, x.type, y.type)
    for name, t in zip(names, types, strict=True):
        assert isinstance(t, MemRefType)
        if t.get_num_dims() != 1 or not isinstance(t.get_element_type(), SUPPORTED_ELEMENT_TYPES):
            raise VerifyException(
                f"{op.name}: {name} must be a flat GM buffer memref<?xf16|bf16|f32>, got {t}"
            )
    _verify_same_types(op, names, types)


@irdl_op_definition
class HardSwishGradSliceOp(IRDLOperation):
    """One core's share of HardSwishGrad: y[offset : offset+size] from grad and x in GM.

    `ub_factor` is the tiling's elements-per-UB-pass, which `hsg-block-into-ub` blocks by.

    Example:
    `hsg.hard_swish_grad_slice %grad, %x, %y [%off, %len] ub_factor %uf : memref<?xf16>`
    """

    name = "hsg.hard_swish_grad_slice"
    grad = operand_def(MemRefType)
    x = operand_def(MemRefType)
    y = operand_def(MemRefType)
    offset = operand_def(IndexType)
    size = operand_def(IndexType)
    ub_factor = operand_def(IndexType)
    assembly_format = (
        "$grad `,` $x `,` $y `[` $offset `,` $size `]` `ub_factor` $ub_factor attr-dict "
        "`:` type($grad) `,` type($x) `,` type($y)"
    )

    def __init__(self, grad: SSAValue, x: SSAValue, y: SSAValue, offset: SSAValue,
                 size: SSAValue, ub_factor: SSAValue):
        super().__init__(operands=[grad, x, y, offset, size, ub_factor])

    def verify_(self) -> None:
        _verify_gm_buffers(self, self.grad, self.x, self.y)


@irdl_op_definition
class HardSwishGradChunkOp(IRDLOperation):
    """One UB pass of a core's slice: y[slice_offset + chunk_offset, +chunk_size).

    The slice is [slice_offset, slice_offset + slice_size) (what the core owns, and what its
    GlobalTensors cover); the chunk is at most `ub_factor` elements of it, at `chunk_offset`
    elements from the slice's start. slice_offset, slice_size and ub_factor are defined outside
    the chunk loop, so the UB set-up can be hoisted above it.

    Example: `hsg.hard_swish_grad_chunk %grad, %x, %y slice [%off, %len] chunk [%coff, %cur]
    ub_factor %uf : memref<?xf16>, memref<?xf16>, memref<?xf16>`
    """

    name = "hsg.hard_swish_grad_chunk"
    grad = operand_def(MemRefType)
    x = operand_def(MemRefType)
    y = operand_def(MemRefType)
    slice_offset = operand_def(IndexType)
    slice_size = operand_def(IndexType)
    chunk_offset = operand_def(IndexType)
    chunk_size = operand_def(IndexType)
    ub_factor = operand_def(IndexType)
    assembly_format = (
        "$grad `,` $x `,` $y `slice` `[` $slice_offset `,` $slice_size `]` "
        "`chunk` `[` $chunk_offset `,` $chunk_size `]` `ub_factor` $ub_factor attr-dict "
        "`:` type($grad) `,` type($x) `,` type($y)"
    )

    def __init__(self, grad: SSAValue, x: SSAValue, y: SSAValue, slice_offset: SSAValue,
                 slice_size: SSAValue, chunk_offset: SSAValue, chunk_size: SSAValue,
                 ub_factor: SSAValue):
        super().__init__(
            operands=[grad, x, y, slice_offset, slice_size, chunk_offset, chunk_size, ub_factor]
        )

    def verify_(self) -> None:
        _verify_gm_buffers(self, self.grad, self.x, self.y)


def is_kernel(op: Operation) -> bool:
    """A func.func that `hsg.launch` runs on the vector cores."""
    return isinstance(op.attributes.get(KERNEL_ATTR), UnitAttr)


def is_tiling(op: Operation) -> bool:
    """A func.func that computes the host tiling."""
    return isinstance(op.attributes.get(TILING_ATTR), UnitAttr)


Hsg = Dialect(
    "hsg",
    [
        HardSwishGradOp,
        NumElementsOp,
        GetCoreNumAivOp,
        GetUbSizeOp,
        LaunchOp,
        HardSwishGradSliceOp,
        HardSwishGradChunkOp,
    ],
    [],
)
