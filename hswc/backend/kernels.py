"""What a lowered module holds for the printer: per operator, one kernel per dtype, its tiling
key, and the host code.

The kernel functions (`hsg.kernel`, `@<op>_kernel_<dt>`) become AscendC classes, one class
template per operator; the tiling key of each is the constant its host tiling function
(`hsg.tiling`, `@<op>_tiling_<dt>`) returns last.
A kernel that its tiling picks at run time among several of one dtype (`hsg.tiling_key`, e.g.
ops-nn arch35's depth-1 and depth-2 kernels) has that key, and is the specialisation
`<Op><T, variant>` with its variant's index (key >> 8, ASCENDC_TPL_SEL_PARAM's second field);
then every kernel of the operator is. The host function that launches them (through an
scf.if on the key) is the aclnn layer's job and prints nothing, but it may hold only host ops:
anything else (an unlowered `hsg.hard_swish_grad`, a `test.op`) is refused with an error
naming the op, as are kernels whose signature is not the launch contract (hswc.kernel_signature:
GM buffers, the three tiling indices, f32 scalars).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from itertools import pairwise

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import (
    Float32Type,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    Signedness,
    TensorType,
    UnrankedTensorType,
)
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import VerifyException

from hswc.backend.cpp_types import element_cpp
from hswc.backend.expressions import HELPER_NAMES
from hswc.backend.layout import INIT, PROCESS, STAGE_KINDS
from hswc.backend.names import TILING_PARAM
from hswc.backend.operator import Operator
from hswc.counted_rows import COUNTS_ATTR
from hswc.cpp_identifiers import unusable
from hswc.diagnostics import OpError
from hswc.dialects import hsg
from hswc.dialects.ascend import constant_index, element_type_name
from hswc.kernel_dtypes import kernel_dtype
from hswc.kernel_signature import kernel_arguments, scalar_fields, tiling_fields
from hswc.ops.definition import camel
from hswc.rows import read_rows
from hswc.tiling import RESULT_NAMES, TPL_DTYPE_BITS

HOST_OPS: tuple[type[Operation], ...] = (
    hsg.NumElementsOp,
    hsg.FlattenOp,
    hsg.UnflattenOp,
    hsg.GetCoreNumAivOp,
    hsg.GetUbSizeOp,
    hsg.LaunchOp,
    func.CallOp,
    func.ReturnOp,
    scf.IfOp,
    scf.YieldOp,
)
"""What the launching host function may hold besides the ops that stay on the host: the aclnn
layer's work."""


@dataclass(frozen=True)
class Kernel:
    """One `hsg.kernel` function and what the printer needs to know about it."""

    func: func.FuncOp
    dtype: str
    element_type: Attribute
    tiling_key: int
    tiling: func.FuncOp
    """Its host tiling function."""
    operator: Operator
    variant: int | None = None
    """Of a kernel picked at run time (hsg.tiling_key): its index among its dtype's kernels."""
    gm_types: tuple[Attribute, ...] = ()
    """The element type of every GM argument's tensor, inputs then outputs (one type, or at a
    dtype boundary each its own; empty: every one is `element_type`). An output the host's
    launch types i1 is i1 here, though the kernel stores it a byte per element
    (hsg.gm_element): the package declares it a bool tensor."""

    def gm_element_types(self) -> tuple[Attribute, ...]:
        """The element type of every GM argument's tensor, inputs then outputs (`gm_types`)."""
        return self.gm_types or tuple(self.element_type
                                      for _ in self.operator.gm_arguments)

    @property
    def gm_dtypes(self) -> tuple[str, ...]:
        """The dtype name (f16, f32, bf16) of every GM argument, inputs then output."""
        return tuple(element_type_name(t) for t in self.gm_element_types())

    @property
    def mixed(self) -> bool:
        """Whether the kernel is at a dtype boundary (its GM arguments differ in type)."""
        return len(set(self.gm_dtypes)) > 1

    @property
    def template_arguments(self) -> str:
        """`half`, or `half, 1` for variant 1 of a run-time choice."""
        element = element_cpp(self.element_type)
        return element if self.variant is None else f"{element}, {self.variant}"


def _is(fn: func.FuncOp, attr: str) -> bool:
    return attr in fn.attributes


def no_rule(op: Operation, where: str = "") -> OpError:
    """The error for an op the printer cannot print; unlowered hsg ops say how to lower them."""
    if op.dialect_name() == "hsg":
        return OpError(op, "is not lowered to the ascend dialect: run --lower-to-ascend first")
    return OpError(op, f"has no AscendC printing rule{where}")


STAYING_DIALECTS = ("arith", "math", "cf", "linalg", "tensor")
"""The dialects of the ops a partitioned file keeps on the host (hsg-tile-on-cores): they run
around the kernels, outside the AscendC the printer writes."""


def _check_host(fn: func.FuncOp) -> None:
    for op in fn.body.walk():
        if not isinstance(op, HOST_OPS) and op.dialect_name() not in STAYING_DIALECTS:
            raise no_rule(op, " (host code may only tile, launch and run the ops that stay on "
                          "the host)")


def _check_signature(fn: func.FuncOp) -> tuple[str, tuple[Attribute, ...]]:
    """The dtype (hswc.kernel_dtypes) and the GM arguments' element types (inputs, then the
    output) of a kernel taking (inputs...,
    y: memref<?xT>, totalNum, blockFactor, ubFactor: index, scalars...: f32)
    (hswc.kernel_signature)."""
    args = kernel_arguments(fn)
    expected = (f"(inputs..., y: memref<?xT>, {', '.join(tiling_fields(fn))}: index, "
                "scalars...: f32)")
    if (
        len(args.gm) < 2
        or len(args.tiling) != len(tiling_fields(fn))
        or not all(isinstance(a.type, Float32Type) for a in args.scalars)
        or fn.function_type.outputs.data
    ):
        raise OpError(fn, f"is a kernel whose arguments are not {expected} with no results")
    elements = [a.type.get_element_type() for a in args.gm if isinstance(a.type, MemRefType)]
    for element in elements:
        if not isinstance(element, hsg.SUPPORTED_ELEMENT_TYPES) \
                and str(element) not in (*hsg.KERNEL_INTEGER_TYPES, *hsg.KERNEL_FLOAT8_TYPES):
            raise OpError(fn, f"is a kernel on {element}; kernels take f16, f32, bf16, "
                          f"{', '.join(hsg.KERNEL_INTEGER_TYPES)} tensors (and write "
                          f"{', '.join(hsg.KERNEL_FLOAT8_TYPES)})")
    names = [element_type_name(e) for e in elements]
    outputs = _outputs(fn)
    if outputs >= len(elements):
        raise OpError(fn, f"is a kernel of {outputs} outputs but {len(elements)} GM arguments: "
                      "it reads at least one input")
    inputs = names[:-outputs]
    if COUNTS_ATTR in fn.attributes:  # the counts (after the inputs) do not name the kernel
        inputs = inputs[:-1]
    return kernel_dtype(inputs, names[-outputs:]), tuple(elements)


def _outputs(fn: func.FuncOp) -> int:
    """How many of the kernel's GM arguments are outputs (hsg.outputs)."""
    try:
        return hsg.kernel_outputs(fn)
    except VerifyException as error:
        raise OpError(fn, str(error)) from None


METHODS = re.compile(rf"(?:{'|'.join((INIT, PROCESS, *STAGE_KINDS))})\d*")
"""The kernel class's methods."""
ENTRY_NAMES = frozenset({"workspace", "tiling", TILING_PARAM})
"""The entry's own parameters and locals, besides RESERVED ones (`op`)."""


def _stem(fn: func.FuncOp, dtype: str) -> str:
    """The operator of `@<stem>_kernel_<dtype>`: the entry's name, its class `camel(stem)` (of
    a kernel with its own hsg.tiling_key, `@<stem>_kernel_<dtype>_<variant name>`, e.g.
    `_depth2`)."""
    name = fn.sym_name.data
    suffix = f"_kernel_{dtype}"
    head, found, tail = name.rpartition(suffix + "_")
    if found and hsg.TILING_KEY_ATTR in fn.attributes and tail.isidentifier():
        name = head + suffix
    stem = name[: -len(suffix)]
    if not name.endswith(suffix) or not stem.isidentifier():
        raise OpError(fn, f"is a {dtype} kernel not named @<operator>{suffix}: the printer names "
                      "the operator's C++ and package files after <operator>")
    op_type = camel(stem)
    why = unusable(stem) or unusable(op_type)
    if why is not None:
        clash = f"{stem if unusable(stem) else op_type}: {why}"
    elif METHODS.fullmatch(op_type) or op_type in HELPER_NAMES:
        clash = f"its kernel class {op_type} would have a method or helper of that name"
    else:
        return stem
    raise OpError(fn, f"is a kernel of the operator {stem!r}, which C++ cannot name: {clash}; "
                  "rename the function")


def _gm_names(fn: func.FuncOp, scalars: tuple[str, ...]) -> tuple[str, ...]:
    """The GM arguments' names, as C identifiers (in0, in1, ... where they have none, or one
    that a scalar field of the kernel already has: the op definition, the l0op and aclnn
    functions take both), each such name suffixed `_1`, `_2`, ... past the names before it
    (an input named `y` before an unnamed output)."""
    args = kernel_arguments(fn).gm
    inputs = len(args) - _outputs(fn)
    names: list[str] = []
    for i, arg in enumerate(args):
        name = arg.name_hint if arg.name_hint and arg.name_hint.isidentifier() else ""
        if (not name or unusable(name) is not None or name in names or name in ENTRY_NAMES
                or name in scalars):
            name = f"in{i}" if i < inputs else "y" if len(args) == inputs + 1 else \
                f"y{i - inputs}"
            base, k = name, 1
            while name in names or name in scalars or name in ENTRY_NAMES:  # `%y` came first
                name, k = f"{base}_{k}", k + 1
        names.append(name)
    return tuple(names)


def _operator(stem: str, fn: func.FuncOp) -> Operator:
    from hswc.ops import OPS

    fields = scalar_fields(kernel_arguments(fn).scalars)
    names = _gm_names(fn, fields)
    definition = OPS.get(stem)
    aclnn = definition.aclnn if definition is not None else f"aclnn{camel(stem)}"
    outputs = _outputs(fn)
    inputs = names[:-outputs]
    rows = read_rows(fn)
    row_length = rows is not None and rows.dynamic
    branches = row_length and hsg.TILING_KEY_ATTR in fn.attributes  # hswc.passes.row_branches
    if COUNTS_ATTR in fn.attributes:  # the counts: after the inputs, an operand of their own
        return Operator(stem, inputs[:-1], names[-outputs:], aclnn, fields, counts=inputs[-1],
                        row_length=row_length, row_branches=branches)
    return Operator(stem, inputs, names[-outputs:], aclnn, fields, row_length=row_length,
                    row_branches=branches)


def _tiling_key(module: ModuleOp, kernel: func.FuncOp, stem: str,
                dtype: str) -> tuple[int, func.FuncOp, int | None]:
    """The kernel's tiling key, its host tiling function (the one the host calls for the
    kernel's launches: hsg-tile-on-cores shares one tiling function between kernels of equal
    plans and numbers kernels and tiling functions apart, so `@main_op_7_kernel_f32` may be
    tiled by `@main_op_3_tiling_f32`; else, for a module with no launch of it,
    `@<stem>_tiling_<dtype>`), and its variant (or None)."""
    name = f"{stem}_tiling_{dtype}"
    own = kernel.attributes.get(hsg.TILING_KEY_ATTR)
    if own is not None and not (isinstance(own, IntegerAttr) and own.value.data >= 0):
        raise OpError(kernel, f"has a {hsg.TILING_KEY_ATTR} that is not a non-negative integer")
    tilings = {op.sym_name.data: op for op in module.ops
               if isinstance(op, func.FuncOp) and _is(op, hsg.TILING_ATTR)}
    launched = [tilings[n] for n in _launch_tilings(module, kernel) if n in tilings]
    if len(launched) > 1:
        raise OpError(kernel, "is launched with the tilings of "
                      f"{', '.join('@' + t.sym_name.data for t in launched)}: one package has "
                      "one host tiling")
    found = launched[0] if launched else tilings.get(name)
    if found is not None:
        plan, tiled = (f.attributes.get("hsg.ub_plan") for f in (kernel, found))
        if plan is not None and tiled is not None and plan != tiled:
            raise OpError(kernel, f"allocates for the UB plan {plan}, but its host tiling "
                          f"@{found.sym_name.data} divides UB by {tiled}")
        ret = found.body.block.last_op
        assert isinstance(ret, func.ReturnOp)
        if len(ret.arguments) != len(RESULT_NAMES):
            raise OpError(found, f"returns {len(ret.arguments)} values, not {len(RESULT_NAMES)}")
        if isinstance(own, IntegerAttr):
            key = own.value.data
            return key, found, key >> TPL_DTYPE_BITS
        key = constant_index(ret.arguments[-1])
        if key is None:
            raise OpError(ret, "returns a tiling key that is not an arith.constant, and the "
                          f"kernel has no {hsg.TILING_KEY_ATTR} of its own")
        return key, found, None
    raise OpError(kernel, f"has no host tiling function @{name} to take its tiling key from")


PACKED_TENSOR = IntegerType(1, Signedness.UNSIGNED)
"""A package tensor of an i1 output stored packed (dtype `ui1`: ops-nn's DT_UINT1, ceil(n / 8)
bytes for n elements, hsg.BITS_STORAGE)."""


def _with_booleans(module: ModuleOp, kernel: func.FuncOp,
                   elements: tuple[Attribute, ...]) -> tuple[Attribute, ...]:
    """`elements` with i1 for each output the host's launches of `kernel` type i1 (stored a
    byte per element, hsg.gm_element), ui1 for each it stores packed (hsg.BITS_STORAGE: the
    package's DT_UINT1): what the package's tensors are."""
    for op in module.walk():
        if isinstance(op, hsg.LaunchOp) and \
                op.kernel.root_reference.data == kernel.sym_name.data:
            first = len(elements) - len(op.ys)
            tensors = [y.type.get_element_type() for y in op.ys
                       if isinstance(y.type, TensorType | UnrankedTensorType)]
            if len(tensors) != len(op.ys) or first < 0:
                return elements
            return elements[:first] + tuple(
                t if t == IntegerType(1) and hsg.gm_element(t) == e
                else PACKED_TENSOR if t == IntegerType(1) and hsg.gm_element(t, True) == e else e
                for t, e in zip(tensors, elements[first:], strict=True))
    return elements


def _launch_tilings(module: ModuleOp, kernel: func.FuncOp) -> list[str]:
    """The tiling functions whose results the host's launches of `kernel` take."""
    found: list[str] = []
    for op in module.walk():
        if not isinstance(op, hsg.LaunchOp) or \
                op.kernel.root_reference.data != kernel.sym_name.data:
            continue
        for value in op.tiling:
            call = value.owner
            if isinstance(call, func.CallOp) and call.callee.root_reference.data not in found:
                found.append(call.callee.root_reference.data)
    return found


def collect_kernels(module: ModuleOp, by_stem: bool = True) -> list[Kernel]:
    """The module's kernels ordered by operator and tiling key, after checking everything else
    in it; `by_stem` False: each kernel is an operator of its own (a whole model's, packaged
    one by one), so kernels of one stem are not checked against each other."""
    kernels: list[Kernel] = []
    for op in module.ops:
        if not isinstance(op, func.FuncOp):
            raise OpError(op, "has no AscendC printing rule at module level")
        if _is(op, hsg.KERNEL_ATTR):
            dtype, elements = _check_signature(op)
            stem = _stem(op, dtype)
            key, tiling, variant = _tiling_key(module, op, stem, dtype)
            first_output = elements[len(elements) - _outputs(op)]
            if COUNTS_ATTR in op.attributes:  # the i64 counts are no tensor of the operator's
                counts = len(elements) - _outputs(op) - 1
                elements = elements[:counts] + elements[counts + 1:]
            kernels.append(Kernel(op, dtype, first_output, key, tiling, _operator(stem, op),
                                  variant, _with_booleans(module, op, elements)))
        elif not _is(op, hsg.TILING_ATTR):
            _check_host(op)
    if not kernels:
        raise OpError(module, "holds no hsg.kernel function: nothing to print as AscendC")
    if by_stem:
        kernels.sort(key=lambda k: (k.operator.stem, k.tiling_key))
        _check_operators(kernels)
    return kernels


def _check_operators(kernels: list[Kernel]) -> None:
    """OpError unless the kernels of each operator (stem), sorted, have distinct tiling keys,
    all or none a run-time choice, and the same GM arguments and scalars."""
    for first, second in pairwise(kernels):
        if first.operator.stem != second.operator.stem:
            continue
        if first.tiling_key == second.tiling_key:
            raise OpError(second.func, f"has tiling key {first.tiling_key}, "
                          f"as @{first.func.sym_name.data} has")
        if (first.variant is None) != (second.variant is None):
            raise OpError(second.func, f"is {'not ' if second.variant is None else ''}one "
                          "kernel of a run-time choice, but "
                          f"@{first.func.sym_name.data} of the same operator is"
                          f"{'' if second.variant is None else ' not'}")
        a, b = first.operator, second.operator
        for what, mine, theirs in (("GM arguments", b.gm_arguments, a.gm_arguments),
                                   ("scalars", b.scalar_fields, a.scalar_fields)):
            if mine != theirs:
                raise OpError(second.func, f"takes {what} {mine}, but "
                              f"@{first.func.sym_name.data} of the same operator takes {theirs}")


def with_shared_inputs(module: ModuleOp, kernel: Kernel) -> Kernel:
    """`kernel` as its package sees it: where the host's launch passes one tensor to several
    of its GM inputs (a gated op's two halves of x, each read at its own offset), that tensor
    is one input of the operator, which the entry passes to each (Operator.reads); it is
    named after the launched value where that name is free, else after the first argument
    reading it. A kernel nothing launches, or launched with distinct tensors, is unchanged."""
    launch = next((op for op in module.walk() if isinstance(op, hsg.LaunchOp)
                   and op.kernel.root_reference.data == kernel.func.sym_name.data), None)
    if launch is None:
        return kernel
    values = list(launch.inputs)
    unique = list(dict.fromkeys(values))
    if len(unique) == len(values):
        return kernel
    reads = tuple(unique.index(v) for v in values)
    op = kernel.operator
    taken = {*op.outputs, *op.scalar_fields, *ENTRY_NAMES}
    names: list[str] = []
    for index, value in enumerate(unique):
        hint = value.name_hint or ""
        own = op.inputs[reads.index(index)]
        usable = hint.isidentifier() and unusable(hint) is None and hint not in taken \
            and hint not in names and hint not in op.inputs[:reads.index(index)]
        names.append(hint if usable else own)
    types = kernel.gm_element_types()
    inputs = tuple(types[reads.index(i)] for i in range(len(unique)))
    return replace(kernel, operator=replace(op, inputs=tuple(names), reads=reads),
                   gm_types=inputs + types[len(values):])


def by_operator(kernels: list[Kernel]) -> list[tuple[Operator, list[Kernel]]]:
    """The kernels grouped by operator, in order."""
    groups: dict[str, tuple[Operator, list[Kernel]]] = {}
    for kernel in kernels:
        groups.setdefault(kernel.operator.stem, (kernel.operator, []))[1].append(kernel)
    return list(groups.values())
