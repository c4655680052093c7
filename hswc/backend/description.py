"""The operator a package is for: its names, its attributes, what its docs say, its example and
kernel-test data, and the golden model they are checked against.

A named op (hsg.leaky_relu_grad, ...) is described by its definition (hswc.ops: the OpDocs
written next to it, its attributes, its reference model for the semantics it was lowered with).
A user's generic, fused chains included, is described from its kernel: the inputs and scalars
as the kernel names them, its body as hswc-emit saw it before the last lowering step, and
hswc's interpreter as its golden model (there is no other definition of it). Either way the
package's C++ names follow ops-nn: the op type, and the stem of every file and of the kernel
entry is that type as ops-nn's build spells it (`ThresholdGradV2D` -> `threshold_grad_v2_d`).

Each attribute is an f32 of the op definition, a parameter of the aclnn API and a float field
of the tiling struct; the values the package's example and unit tests use are those the
module's launch of each kernel passes. A row op's `dim` (hsg.OP_DIM_ATTR on its launch) is an
int64 attribute the host tiling reads and checks but the kernel never sees: its row layout is
that dim's, so the tiling serves that dim only (Attribute.serves).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import FloatAttr, ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue

from hswc import arith_semantics as sem
from hswc.backend.kernels import Kernel
from hswc.backend.operator import Operator, snake_case
from hswc.backend.package_row_length import RunTimeRow, run_time_row
from hswc.backend.run_time_shapes import RunTimeShapes, row_run_time_shapes, run_time_shapes
from hswc.broadcast import BROADCAST_ATTR, DYNAMIC_DIM, Broadcast, read_broadcast
from hswc.counted_rows import GROUP_INDEX
from hswc.cpp_identifiers import lower_camel
from hswc.diagnostics import OpError
from hswc.dialects import hsg
from hswc.interpreter.dtypes import numpy_dtype
from hswc.ops.definition import OpDefinition
from hswc.ops.docs import AclnnFlag, Formula
from hswc.output_windows import OUTPUT_WINDOWS_ATTR, read_output_windows
from hswc.rows import read_rows

Golden = Callable[[Kernel, Sequence[np.ndarray]], tuple[np.ndarray, ...]]
"""A kernel's outputs (one array each, flat) on the given inputs."""


def _counts(kernel: Kernel) -> str | None:
    """The package's name of the kernel's counts (group_index), or None: it reads none."""
    return GROUP_INDEX if kernel.operator.counts else None


def as_outputs(result: object) -> tuple[np.ndarray, ...]:
    """A reference model's result (one array, or a tuple of one per output) as outputs."""
    if isinstance(result, tuple):
        return tuple(np.asarray(r).reshape(-1) for r in result)
    return (np.asarray(result).reshape(-1),)
"""y of a kernel for these inputs (in its dtype), with that kernel's attribute values."""


class PackageRefused(ValueError):
    """The module cannot be packaged as asked; the message says why and what to give."""


@dataclass(frozen=True)
class PackageRequest:
    """What hswc-emit's options and its lowering say about the package to write."""

    name: str | None = None
    """--name: the op type of a generic operator."""
    aclnn: str | None = None
    """--aclnn: the aclnn API of a generic operator (default aclnn<name>)."""
    function: str | None = None
    """--function: the host function whose operator to package, in a module with several."""
    semantics: str | None = None
    """What the named ops were decomposed as (None: each op's default)."""
    named: frozenset[str] | None = None
    """The operators (stems) that came from named ops, where the lowering was watched."""
    bodies: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Kernel function -> its elementwise body as IR text, where the lowering was watched."""
    soc: str | None = None
    """The SoC the module's kernels were lowered for, which runs them for goldens and checks
    (None: hswc.platform.DEFAULT_SOC)."""


@dataclass(frozen=True)
class Attribute:
    """An f32 attribute of the operator, as each layer of the package names it."""

    name: str
    """In the op definition, snake_case: negative_slope."""
    field: str
    """In the tiling struct and the l0op launcher: negativeSlope."""
    aclnn: str
    """The aclnn parameter (a `const aclScalar*`)."""
    description: str
    default: float | None
    """The op definition's default; None: the attribute is required."""
    non_negative: bool = False
    in_dtype: bool = False
    """Converted to the input's dtype, so it must fit it."""
    in_aclnn: bool = True
    """Whether the aclnn API takes it; else it launches at its default or `follows`'s value."""
    follows: str | None = None
    """The attribute whose value it takes when not given (Softshrink's bias: lambd)."""
    serves: int | None = None
    """Of an integer attribute (an int64 the host tiling reads, never the kernel: a row op's
    `dim`): the one value, normalised against the input's rank, that the package's kernel
    serves; None: a float attribute."""

    @property
    def integer(self) -> bool:
        return self.serves is not None


@dataclass(frozen=True)
class Description:
    operator: Operator
    """The package's names (ops-nn's op type; its stem names the files and the kernel)."""
    summary: str
    """One line, `{name}` for an input or attribute."""
    formula: Formula
    """y per element; empty for a generic, which shows its body instead."""
    body: tuple[str, ...]
    notes: str
    nan_x: str | None
    """What a NaN x gives (a named op's docs); None: the notes say how NaN goes through."""
    parameters: Mapping[str, str]
    """One line for each input and output, by kernel name."""
    aclnn_inputs: tuple[str, ...]
    aclnn_outputs: tuple[str, ...]
    attributes: tuple[Attribute, ...]
    """In the op definition's order."""
    flags: tuple[AclnnFlag, ...]
    ordered: tuple[tuple[str, str], ...]
    example_inputs: Mapping[str, tuple[float, ...]]
    kernel_test_inputs: Mapping[str, tuple[float, ...]]
    values: Mapping[str, Mapping[str, float]]
    """dtype -> attribute name -> the value the module's launch of that kernel passes."""
    golden: Golden
    generated: bool
    """A user's generic (no definition of its own) rather than a named op."""
    exact: bool = True
    """Whether the golden model gives the kernel's bits (else the goldens are hswc-run's)."""
    model: Golden | None = None
    """For an op that is not exact: its independent model, which the kernel must meet within
    PyTorch's tolerance (None: no such check, as for an op with string or bool attributes)."""
    shapes: tuple[tuple[int, ...], ...] | None = None
    """Of kernels reading broadcast inputs (hswc.broadcast): the static shape of each input,
    then the output's, as the kernels were compiled for them (of a shape known only at run
    time: at the example's size, run_time_shapes.EXAMPLE_SIZE). None: every input has the
    output's shape, whatever it is at run time."""
    run_time: RunTimeShapes | None = None
    """Of kernels broadcasting inputs to a shape known only at run time: what the package
    checks of each tensor's shape (hswc.backend.run_time_shapes); None: static shapes."""
    output_per_row: int | None = None
    """Of row kernels (hswc.rows), whose tiling counts rows: the output's elements per row (the
    row length, or 1 for an output of one value per row: x.amax(-1)); of a kernel writing a
    joint output (hswc.output_windows) the joint's elements per element counted (GluGrad: 2);
    None: the tiling counts the output's elements."""
    output_shapes: tuple[tuple[int, ...], ...] | None = None
    """Of a row kernel whose outputs differ in shape (a `row` output and an `element` one:
    dynamic quantization's scale per row and its int8 y): each output's shape, the first of
    them `shapes[-1]`, DYNAMIC_DIM at a run-time dim, which is the `run_time` source's dim of
    the same index (compiled_shapes, tensor_shapes resolve them); None: every output has
    `shapes[-1]`."""

    run_time_row: RunTimeRow | None = None
    """Of a row kernel of a run-time row length (hswc.rows `dynamic`): where the host tiling
    reads it from (hswc.backend.package_row_length); `output_per_row` is then its value at
    the example's shape."""
    row_group: int = 1
    """The rows that hold `output_per_row` elements of the first output together: of rows of
    lanes whose groups end in a narrower row (hswc.rows: Lanes, `tail`), a group's rows (the
    tiling counts whole groups: elements / output_per_row * row_group); else 1."""

    def tiled_count(self, elements: int) -> int:
        """The tiling's totalNum for an output of `elements` elements: its rows, of a row
        kernel; else the elements themselves."""
        if self.output_per_row is None:
            return elements
        return elements // self.output_per_row * self.row_group

    def each_output_per_row(self) -> tuple[int | None, ...]:
        """output_per_row of each output (its elements per `row_group` rows): a row kernel's
        outputs of their own shapes hold their own elements per row (the row length, 1); else
        each the first's."""
        if self.output_shapes is None or self.output_per_row is None:
            return tuple(self.output_per_row for _ in self.operator.outputs)
        gm = self.gm_shapes()
        assert gm is not None  # a row kernel's own shapes come with its shapes
        shapes = gm[len(self.operator.inputs):]  # at the example's size
        groups = math.prod(shapes[0]) // self.output_per_row
        return tuple(math.prod(s) // groups for s in shapes)

    @property
    def op_type(self) -> str:
        return self.operator.op_type

    @property
    def aclnn(self) -> str:
        return self.operator.aclnn

    def aclnn_names(self) -> dict[str, str]:
        """Kernel name -> aclnn name of every input, the output and every attribute."""
        names = dict(zip(self.operator.inputs, self.aclnn_inputs, strict=True))
        names |= dict(zip(self.operator.outputs, self.aclnn_outputs, strict=True))
        return {**names, **{a.name: a.aclnn for a in self.attributes}}

    def kernel_names(self) -> dict[str, str]:
        """Every input, output and attribute by its own (kernel and op definition) name."""
        return {n: n for n in (*self.operator.gm_arguments, *(a.name for a in self.attributes))}

    def attribute_values(self, kernel: Kernel) -> dict[str, float]:
        return dict(self.values.get(kernel.dtype, {}))

    @property
    def aclnn_output(self) -> str:
        """The aclnn name of the (first) output."""
        return self.aclnn_outputs[0]

    @property
    def aclnn_attributes(self) -> tuple[Attribute, ...]:
        """The attributes the aclnn API takes, in order."""
        return tuple(a for a in self.attributes if a.in_aclnn)

    def by_field(self) -> dict[str, Attribute]:
        return {a.field: a for a in self.attributes}

    def scalar_values(self, values: Mapping[str, float], output: tuple[int, ...] | None = None
                      ) -> tuple[float, ...]:
        """The tiling struct's float fields (Operator.scalar_fields) for attribute `values`
        (by name) and outputs of shape `output` (None: the example's): an attribute's value,
        or the row length (run_time_row.scalars: hswc.backend.package_row_length)."""
        by_field = self.by_field()
        row = self.run_time_row
        length = float(self.output_per_row or 0) if row is None or output is None else \
            float(math.prod(output[d] for d in row.dims))
        return tuple(length if row is not None and f in row.scalars else
                     values[by_field[f].name] for f in self.operator.scalar_fields)

    def tensor_shapes(self, output: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        """The shape of every input, then every output's, for outputs of shape `output`
        (ignored by a broadcast operator of static shapes, whose shapes are its own; of run-time
        shapes, each resolved at `output` where it is one of theirs)."""
        if self.run_time is not None and len(output) == len(self.run_time.output) and all(
                n in (DYNAMIC_DIM, m) for n, m in zip(self.run_time.output, output, strict=True)):
            return self._each_output(self.run_time.resolve(output))
        if self.shapes is not None:
            return self._each_output(self.shapes)
        return tuple(output for _ in self.operator.gm_arguments)

    def _each_output(self, shapes: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
        """The inputs' shapes and the output's (`shapes`), with the output's for each output
        (each its own, of a row kernel whose outputs differ in shape)."""
        if self.output_shapes is not None:
            return (*shapes[:-1], *(self._resolved(s, shapes) for s in self.output_shapes))
        return (*shapes[:-1], *(shapes[-1] for _ in self.operator.outputs))

    def _resolved(self, output: tuple[int, ...], shapes: tuple[tuple[int, ...], ...]
                  ) -> tuple[int, ...]:
        """An output's own shape (output_shapes) with each run-time dim the source input's
        dim of its index in `shapes` (a row kernel's rows lead every operand: row_shapes)."""
        return output if self.run_time is None else \
            own_shape(output, shapes[self.run_time.source])

    def compiled_shapes(self) -> tuple[tuple[int, ...], ...]:
        """Of run-time shapes: each input's shape, then each output's, as compiled (DYNAMIC_DIM
        at a run-time dim)."""
        assert self.run_time is not None
        return self._each_output(self.run_time.compiled)

    def gm_shapes(self) -> tuple[tuple[int, ...], ...] | None:
        """Of a broadcast operator: each input's static shape, then each output's; None:
        every tensor has the output's shape, whatever it is at run time."""
        return None if self.shapes is None else self._each_output(self.shapes)

    @property
    def output_shape(self) -> tuple[int, ...] | None:
        """The output's static shape of a broadcast operator; None: any."""
        return None if self.shapes is None else self.shapes[-1]


# region the attribute values of the module's launches


def _constant(value: SSAValue, launch: Operation) -> float:
    """A launch scalar's value: a constant, maybe widened or narrowed on the host."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, FloatAttr):
        return float(sem.constant(owner.value.value.data, numpy_dtype(owner.value.type))
                     .astype(np.float32))
    if isinstance(owner, arith.ExtFOp | arith.TruncFOp):
        inner = np.float32(_constant(owner.input, launch))
        return float(inner.astype(numpy_dtype(owner.result.type)).astype(np.float32))
    what = f"'{owner.name}'" if isinstance(owner, Operation) else "an argument"
    raise OpError(launch, f"passes the scalar %{value.name_hint or '?'} computed by {what} at "
                  "run time; a package takes the operator's attributes from constants "
                  "(arith.constant)")


def launch_scalar_value(value: SSAValue, launch: Operation) -> float:
    """The value of a scalar `launch` passes (OpError unless it is a constant, maybe widened
    or narrowed on the host)."""
    return _constant(value, launch)


def _host_functions(module: ModuleOp) -> list[func.FuncOp]:
    return [op for op in module.ops if isinstance(op, func.FuncOp)
            and not hsg.is_kernel(op) and not hsg.is_tiling(op)]


def launches(module: ModuleOp, function: str | None = None) -> list[hsg.LaunchOp]:
    """The hsg.launch ops of the host functions (only @function's, if given), in order."""
    return [op for fn in _host_functions(module)
            if function is None or fn.sym_name.data == function
            for op in fn.walk() if isinstance(op, hsg.LaunchOp)]


def broadcast_shapes(module: ModuleOp, kernels: Sequence[Kernel], function: str | None
                     ) -> tuple[tuple[tuple[int, ...], ...] | None, RunTimeShapes | None]:
    """`_kernel_shapes`, of the operator's inputs: an input the kernel reads through several
    GM arguments (Operator.reads) has the shape of the first."""
    shapes, run_time = _kernel_shapes(module, kernels, function)
    reads = kernels[0].operator.reads
    if not reads or shapes is None:
        return shapes, run_time
    if run_time is not None:
        raise OpError(kernels[0].func, "reads one input through several GM arguments at a "
                      "shape known only at run time, which its package's host tiling cannot "
                      "check: package it with static shapes")
    inputs = tuple(shapes[reads.index(i)] for i in range(len(kernels[0].operator.inputs)))
    return (*inputs, shapes[-1]), None


def _kernel_shapes(module: ModuleOp, kernels: Sequence[Kernel], function: str | None
                   ) -> tuple[tuple[tuple[int, ...], ...] | None, RunTimeShapes | None]:
    """Each GM input's shape, then the output's, of kernels reading broadcast inputs (None for
    kernels without: every input has the output's shape), and of a shape known only at run
    time what the package checks of it (run_time_shapes; the shapes are then those at the
    example's size). The inputs' shapes are the tensor types of the first launch (an input's
    strides do not tell a (4, 1) scale from a (4,) one); of a kernel nothing launches, each
    input's output-rank shape (size 1 where it is broadcast). All kernels of a package read
    their inputs alike, or it is refused."""
    described = [(k, read_broadcast(k.func)) for k in kernels]
    first = described[0][1]
    for kernel, broadcast in described[1:]:
        if broadcast != first:
            raise OpError(kernel.func, f"reads its inputs as {BROADCAST_ATTR} = "
                          f"{_shown(broadcast)}, but @{kernels[0].func.sym_name.data} as "
                          f"{_shown(first)}: a package's kernels take inputs of one shape each")
    output = _joint_output(module, kernels[0], function)
    if first is None:
        if output is not None:
            raise OpError(kernels[0].func, f"writes outputs at windows of one tensor "
                          f"({OUTPUT_WINDOWS_ATTR}) reading no input through "
                          f"{BROADCAST_ATTR}, which a package does not hold yet")
        return None, None
    launched = _launched_shapes(module, kernels[0], function)
    if not first.is_static:
        inputs = _at_run_time(first, launched) if launched else tuple(
            first.shape if s is None else tuple(
            n if k else 1 for n, k in zip(first.shape, s, strict=True)) for s in first.strides)
        try:
            run_time = run_time_shapes(first, inputs)
        except ValueError as error:
            raise OpError(kernels[0].func, f"broadcasts inputs to a shape known only at run "
                          f"time ({BROADCAST_ATTR} = {_shown(first)}) as its package's host "
                          f"tiling cannot check: {error}") from None
        return run_time.resolve(run_time.example_output()), run_time
    shape = first.shape if output is None else output
    if launched is not None and all(n >= 0 for s in launched for n in s):
        return (*launched, shape), None
    return (*(first.shape if s is None else tuple(n if k else 1 for n, k in
                                                  zip(first.shape, s, strict=True))
              for s in first.strides), shape), None


def _joint_output(module: ModuleOp, kernel: Kernel, function: str | None
                  ) -> tuple[int, ...] | None:
    """Of a kernel writing its outputs at windows of one tensor (hswc.output_windows): that
    tensor's shape, as its launch types it; None for another kernel."""
    try:
        windows = read_output_windows(kernel.func)
    except ValueError as error:
        raise OpError(kernel.func, str(error)) from None
    if windows is None:
        return None
    if any(w is None for w in windows.windows):
        raise OpError(kernel.func, f"writes some outputs at windows of one tensor "
                      f"({OUTPUT_WINDOWS_ATTR}) and others of their own, which a package, "
                      "whose outputs share one shape, does not hold")
    outputs = _launched_outputs(module, kernel, function)
    if outputs is None:
        raise OpError(kernel.func, f"writes outputs at windows of one tensor "
                      f"({OUTPUT_WINDOWS_ATTR}) that no host function launches: package the "
                      "module with the function that launches it")
    return outputs[0]


def row_shapes(module: ModuleOp, kernels: Sequence[Kernel], function: str | None
               ) -> RowShapes | None:
    """Of row kernels (hswc.rows): the shapes as the first launch types them (of a run-time row
    count: at the example's size) and what the tiling counts (RowShapes); None for kernels
    without rows. A package's kernels have one row length, and a host function launches them,
    or it is refused; so are outputs of different shapes at a run-time row count."""
    described = [(k, read_rows(k.func)) for k in kernels]
    first = described[0][1]
    if first is None:
        return None
    for kernel, rows in described[1:]:
        if rows is None or (rows.length != first.length  # branches: hswc.passes.row_branches
                            and not (rows.dynamic and first.dynamic)):
            raise OpError(kernel.func, f"has rows of {rows.length if rows else 'no'} elements, "
                          f"@{kernels[0].func.sym_name.data} of {first.length}: a package's "
                          "kernels tile rows of one length")
    launched = _launched_shapes(module, kernels[0], function)
    outputs = _launched_outputs(module, kernels[0], function)
    if launched is None or outputs is None:
        raise OpError(kernels[0].func, "is a row kernel no host function launches: package "
                      "the module with the function that launches it")
    per_row, group = first.counted(first.outputs[0])
    own = None if len(set(outputs)) == 1 else outputs
    if all(n >= 0 for s in (*launched, *outputs) for n in s):
        return RowShapes((*launched, outputs[0]), per_row, None, own, group=group)
    launch = _first_launch(module, kernels[0], function)
    if first.dynamic and (own is not None or first.outputs[0] != "element"):
        # hsg-tile-on-cores makes such a region a kernel with the host's branch for a length
        # of 0 (hswc.passes.row_kernels: x.amax(-1) of `?x?`), which a package does not hold
        raise OpError(kernels[0].func, "is a row kernel of a run-time row length whose first "
                      "output is not one of x's shape, which its package's host tiling does "
                      "not count rows of: package it with a static row length")
    row = None if launch is None else run_time_row(launch, kernels[0])
    columns = [i for i, kind in enumerate(first.inputs) if kind == "column"]
    try:
        run_time = row_run_time_shapes(launched, outputs[0], columns)
        if own is not None:
            _own_run_time_dims(launched[run_time.source], outputs)
    except ValueError as error:
        raise OpError(kernels[0].func, "is a row kernel of a run-time row count whose shapes "
                      f"its package's host tiling cannot check: {error}") from None
    shapes = run_time.resolve(run_time.example_output())
    if row is not None:  # the row's length at the example's shape
        per_row = math.prod(shapes[-1][d] for d in row.dims)
    return RowShapes(shapes, per_row, run_time, own, row, group)


def own_shape(output: tuple[int, ...], source: tuple[int, ...]) -> tuple[int, ...]:
    """A row kernel's output shape with each run-time dim the `source` input's dim of the same
    index (the rows' dims lead every operand)."""
    return tuple(source[k] if n == DYNAMIC_DIM else n for k, n in enumerate(output))


def _own_run_time_dims(source: tuple[int, ...], outputs: Sequence[tuple[int, ...]]) -> None:
    """Of a row kernel whose outputs differ in shape at a run-time row count: each output's
    run-time dims must be the source input's dims of the same index (the rows' dims, which
    lead every operand: Description._resolved); ValueError naming the first that is not."""
    for i, shape in enumerate(outputs):
        for k, n in enumerate(shape):
            if n == DYNAMIC_DIM and not (k < len(source) and source[k] == DYNAMIC_DIM):
                raise ValueError(f"output {i + 1}'s dim {k} has a run-time size where the "
                                 f"input it is read from, of shape {shape_text(source)}, has "
                                 "none")


@dataclass(frozen=True)
class RowShapes:
    """What a row kernel's package knows of its shapes (row_shapes)."""

    shapes: tuple[tuple[int, ...], ...]
    """Each input's shape, then the first output's (Description.shapes)."""
    per_row: int
    """The first output's elements per row (per `group` rows): the row length, or 1 for an
    output of one value a row (x.amax(-1)); its tiling counts rows."""
    run_time: RunTimeShapes | None
    """Of a run-time row count, what the package checks of the shapes."""
    outputs: tuple[tuple[int, ...], ...] | None
    """Each output's own shape where they differ (a row and an element output; DYNAMIC_DIM at
    a run-time dim: Description.output_shapes); None: all have the first's."""
    row: RunTimeRow | None = None
    """Of a run-time row length, where the host tiling reads it (`per_row` is its value at the
    example's shape)."""
    group: int = 1
    """The rows holding `per_row` elements of the first output (Description.row_group)."""


def _launched_outputs(module: ModuleOp, kernel: Kernel, function: str | None
                      ) -> tuple[tuple[int, ...], ...] | None:
    """Each output's shape as the first launch of `kernel` types it (DYNAMIC_DIM at a
    run-time dim); None when nothing launches it."""
    name = kernel.func.sym_name.data
    for launch in launches(module, function) or launches(module):
        if launch.kernel.root_reference.data == name:
            types = [v.type for v in launch.ys]
            if all(isinstance(t, TensorType) for t in types):
                return tuple(tuple(DYNAMIC_DIM if n < 0 else n for n in t.get_shape())  # type: ignore
                             for t in types)
    return None


def _at_run_time(broadcast: Broadcast, launched: tuple[tuple[int, ...], ...]
                 ) -> tuple[tuple[int, ...], ...]:
    """The launched shapes with DYNAMIC_DIM at each dim the kernel takes at run time: a kernel
    shared across the sizes of a dim (hswc.passes.shape_sharing) is launched on static tensors,
    each of one size. An input read at the output's index has the output's dims; a broadcast
    input's dims of a size other than 1 read, in order, the output dims of a non-zero stride
    (hswc.backend.run_time_shapes); shapes that do not pair so are left as launched."""
    found = []
    for shape, strides in zip(launched, broadcast.strides, strict=False):
        if strides is None:
            reads = list(range(len(shape))) if len(shape) == len(broadcast.shape) else []
            own = reads
        else:
            reads = [d for d, s in enumerate(strides) if s]
            own = [k for k, n in enumerate(shape) if n != 1]
        if len(own) != len(reads):
            found.append(shape)
            continue
        dynamic = {k for k, d in zip(own, reads, strict=True)
                   if broadcast.shape[d] == DYNAMIC_DIM}
        found.append(tuple(DYNAMIC_DIM if k in dynamic else n for k, n in enumerate(shape)))
    return tuple(found)


def _launched_shapes(module: ModuleOp, kernel: Kernel, function: str | None
                     ) -> tuple[tuple[int, ...], ...] | None:
    """Each input's shape as the first launch of `kernel` types it (DYNAMIC_DIM at a
    run-time dim); None when nothing launches it."""
    name = kernel.func.sym_name.data
    for launch in launches(module, function) or launches(module):
        if launch.kernel.root_reference.data == name:
            types = [v.type for v in launch.inputs]
            if all(isinstance(t, TensorType) for t in types):
                return tuple(tuple(DYNAMIC_DIM if n < 0 else n for n in t.get_shape())  # type: ignore
                             for t in types)
    return None


def shape_text(shape: tuple[int, ...]) -> str:
    """A static shape as the package's C++ and docs write it: {4, 64}, {} for a scalar; a
    run-time dim (in docs and messages only) is `?`."""
    return "{" + ", ".join("?" if n == DYNAMIC_DIM else str(n) for n in shape) + "}"


def dims_text(shape: tuple[int, ...], of: str) -> str:
    """A shape as a C++ initializer list: its static dims and, at a run-time dim, that dim of
    the source input's shape `of` (a C++ expression with GetDim: a gert::Shape, a view
    shape); the source's dims lead every shape so read (run_time_shapes, row_shapes)."""
    return "{" + ", ".join(f"{of}.GetDim({k})" if n == DYNAMIC_DIM else str(n)
                           for k, n in enumerate(shape)) + "}"


def shape_said(shape: tuple[int, ...]) -> str:
    """A static shape as messages say it: shape {4, 64}; shape {} (a scalar)."""
    return f"shape {shape_text(shape)}" + ("" if shape else " (a scalar)")


def _shown(broadcast: Broadcast | None) -> str:
    return "none" if broadcast is None else str(broadcast.to_attr())


def _first_launch(module: ModuleOp, kernel: Kernel, function: str | None
                  ) -> hsg.LaunchOp | None:
    name = kernel.func.sym_name.data
    for launch in launches(module, function) or launches(module):
        if launch.kernel.root_reference.data == name:
            return launch
    return None


def launch_scalars(module: ModuleOp, kernel: Kernel, function: str | None,
                   skip: Sequence[str] = ()) -> dict[str, float]:
    """Field name -> value of the scalars the first launch of `kernel` passes but those of
    `skip`; {} when nothing launches it (a module of kernels only)."""
    launch = _first_launch(module, kernel, function)
    if launch is None:
        return {}
    fields = kernel.operator.scalar_fields
    return {f: _constant(v, launch) for f, v in zip(fields, launch.scalars, strict=True)
            if f not in skip}


def launch_op_attributes(module: ModuleOp, kernel: Kernel, function: str | None
                         ) -> dict[str, hsg.CapturedAttribute]:
    """Field name -> what it is, of the scalars the first launch of `kernel` passes
    that are a named op's attributes (hsg.OP_ATTRIBUTE_ATTR: rms_norm's epsilon in the row
    kernel of its decomposition)."""
    launch = _first_launch(module, kernel, function)
    if launch is None:
        return {}
    found = {}
    for f, v in zip(kernel.operator.scalar_fields, launch.scalars, strict=True):
        owner = v.owner  # the launch's f32 value, maybe widened from the op's own type
        spec = hsg.read_op_attribute(owner.input if isinstance(owner, arith.ExtFOp) else v)
        if spec is not None:
            found[f] = spec
    return found


DIM = "dim"
"""The integer attribute of a row op taking `dim` (hsg.OP_DIM_ATTR), as ops-nn names it."""
DIM_DEFAULT = -1
"""Its default, as ops-nn's softmax_v2 declares it (`.Attr("dim").Int(-1)`) and the ops'."""


def launch_dim(module: ModuleOp, kernels: Sequence[Kernel], function: str | None) -> int | None:
    """The dim the first launch of the kernels reduces (hsg.OP_DIM_ATTR: a row kernel of a
    named op taking `dim`); None when it carries none. An OpError when the kernels' launches
    carry different dims: a package serves one row layout."""
    found = {}
    for kernel in kernels:
        launch = _first_launch(module, kernel, function)
        if launch is not None:
            found[kernel] = hsg.read_op_dim(launch)
    dims = set(found.values())
    if len(dims) > 1:
        said = ", ".join(f"@{k.func.sym_name.data} {d}" for k, d in found.items())
        raise OpError(kernels[0].func, f"is launched reducing dims that differ between the "
                      f"package's kernels ({said}): a package serves one dim")
    return dims.pop() if dims else None


def dim_attribute(dim: int, taken: set[str]) -> Attribute:
    """The package's `dim`: an int64 attribute whose only value served is `dim` (normalised)."""
    aclnn = DIM if DIM not in taken else _aclnn_names([DIM], taken)[0]
    return Attribute(DIM, DIM, aclnn, f"the dim reduced (default {DIM_DEFAULT}, the last; "
                     "negative counts from the last); the kernel's rows are those of dim "
                     f"{dim} (of the input's rank), the only dim it serves", DIM_DEFAULT,
                     serves=dim)


# endregion
# region named ops


def _complete_values(kernels: list[Kernel], attributes: tuple[Attribute, ...],
                     values: dict[str, dict[str, float]], definition: OpDefinition) -> None:
    """Each kernel's attribute values completed: those no host function launches (a module of
    kernels only) at the attribute they follow or their default; an OpError for a value the
    aclnn API cannot pass (an attribute it does not take, set otherwise than it launches it)."""
    for kernel in kernels:
        given = values[kernel.dtype]
        for a in attributes:
            if a.name not in given and a.follows is not None and a.follows in given:
                given[a.name] = given[a.follows]  # Softshrink's bias: its lambd
            if a.name not in given and a.default is None:
                raise OpError(kernel.func, f"is launched by no host function, so the value of "
                              f"{a.name} (which has no default) is unknown: package the "
                              "module with the function that launches it")
            if a.name not in given and a.default is not None:
                given[a.name] = a.default
        for a in attributes:  # what the aclnn API does not take, it launches at its default
            fixed = given[a.follows] if a.follows else a.default
            if not a.in_aclnn and fixed is not None and \
                    np.float32(given[a.name]) != np.float32(fixed):
                raise OpError(kernel.func, f"sets {a.name} = {given[a.name]:g}, but "
                              f"{definition.aclnn} takes no {a.name} (ops-nn's API, which the "
                              f"package keeps), so its package would launch {a.name} = "
                              f"{fixed:g}")


def describe_named(module: ModuleOp, kernels: list[Kernel], request: PackageRequest
                   ) -> Description:
    """A named op's package: everything from its definition (hswc.ops), the attribute values
    from the module."""
    from hswc.ops import OPS
    from hswc.reference import OP_REFERENCES

    first = kernels[0]
    definition = OPS[first.operator.stem]
    docs = definition.docs
    semantics = request.semantics or definition.default_semantics
    if semantics not in docs.computations:
        known = ", ".join(docs.computations)
        raise PackageRefused(
            f"hsg.{definition.name} with {semantics} semantics has no package: that is the "
            f"kernel of a SoC hswc-emit does not package yet (the package's semantics can be: "
            f"{known})" if semantics in definition.semantics else
            f"hsg.{definition.name} has no {semantics} semantics (it has: {known})")
    computation = docs.computations[semantics]
    attributes = tuple(Attribute(
        spec.name, lower_camel(spec.name), docs.aclnn_attributes.get(spec.name,
                                                                      lower_camel(spec.name)),
        docs.parameters[spec.name], spec.default, spec.non_negative, spec.in_dtype,
        spec.name not in docs.aclnn_omits, spec.same_as)
        for spec in definition.op.ATTRIBUTES)
    inputs = definition.op.INPUTS
    for kernel in kernels:
        names = kernel.operator
        if len(names.inputs) != len(inputs) or \
                set(names.scalar_fields) != {a.field for a in attributes}:
            raise OpError(kernel.func, f"takes {len(names.inputs)} inputs and the scalars "
                          f"{names.scalar_fields or '()'}, not hsg.{definition.name}'s inputs "
                          f"{inputs} and attributes {tuple(a.name for a in attributes)}")
    fields = {a.field: a.name for a in attributes}
    values = {k.dtype: {fields[f]: v for f, v in launch_scalars(module, k, request.function)
                        .items()} for k in kernels}
    _complete_values(kernels, attributes, values, definition)
    reference = OP_REFERENCES[(definition.name, semantics)]

    def golden(kernel: Kernel, data: Sequence[np.ndarray]) -> tuple[np.ndarray, ...]:
        if not definition.exact:  # its model is the exact function: the goldens are hswc-run's
            from hswc.backend.package_run import run_kernel
            from hswc.platform import DEFAULT_SOC, get_platform

            by_field = {a.field: values[kernel.dtype][a.name] for a in attributes}
            return run_kernel(module, kernel, data, by_field,
                              get_platform(request.soc or DEFAULT_SOC))
        return as_outputs(reference(*data, **values[kernel.dtype]))

    operator = Operator(snake_case(docs.op_type), inputs, ("y",), definition.aclnn,
                        first.operator.scalar_fields, docs.op_type, first.operator.reads,
                        _counts(first), row_length=first.operator.row_length,
                        row_branches=first.operator.row_branches)
    return Description(
        operator=operator, summary=docs.summary, formula=computation.formula, body=(),
        notes=computation.notes, nan_x=computation.nan_x,
        parameters={n: docs.parameters[n] for n in (*inputs, "y")},
        aclnn_inputs=docs.aclnn_inputs, aclnn_outputs=(docs.aclnn_output,), attributes=attributes,
        flags=docs.aclnn_flags, ordered=docs.ordered, example_inputs=docs.example_inputs,
        kernel_test_inputs=docs.kernel_test_inputs, values=values, golden=golden,
        generated=False, exact=definition.exact,
        model=None if definition.exact or definition.op.OPTIONS else
        lambda kernel, data: as_outputs(reference(*data, **values[kernel.dtype])))


# endregion
# region generic operators

GENERATED_SUMMARY = ("the body of a linalg.generic that hswc compiled (a generated elementwise "
                     "operator)")
GENERATED_NOTES = (
    "Each step is the arith op of the body, in its own type, rounded to nearest even; "
    "comparisons with NaN are false, and maximumf and minimumf return NaN when an operand is "
    "NaN. The body is the operator's only definition: the golden values of the example and of "
    "the kernel unit test are hswc-run's, its interpreter running the lowered kernel.")
ACLNN_TAKEN = frozenset({"out", "workspace", "workspaceSize", "executor", "stream"})
"""Names of the aclnn API's own parameters, which an input or attribute must not take."""


def _aclnn_names(names: Sequence[str], taken: set[str]) -> tuple[str, ...]:
    """lowerCamel names for aclnn, unique and none of `taken` (which grows)."""
    result = []
    for i, name in enumerate(names):
        candidate = lower_camel(name) or f"input{i}"
        while candidate in taken:
            candidate = f"{candidate}{i}"
        taken.add(candidate)
        result.append(candidate)
    return tuple(result)


def _generic_sample(base: tuple[float, ...], index: int, size: int | None = None
                    ) -> tuple[float, ...]:
    """Input `index`'s values: `base` turned by `index` places, so inputs differ; `size`
    values (`base` repeated or cut), or as many as `base` has."""
    shift = index % len(base)
    turned = base[shift:] + base[:shift]
    if size is None:
        return turned
    return tuple(turned[i % len(turned)] for i in range(size))


def describe_generic(module: ModuleOp, kernels: list[Kernel], request: PackageRequest
                     ) -> Description:
    """A generic operator's package, named by the request; its golden model is hswc-run."""
    from hswc.backend.package_run import run_kernel
    from hswc.ops.samples import AROUND_3_EXAMPLE, AROUND_3_TEST
    from hswc.platform import DEFAULT_SOC, get_platform

    assert request.name is not None
    first = kernels[0]
    inputs, outputs = first.operator.inputs, first.operator.outputs
    rows = row_shapes(module, kernels, request.function)
    row = None if rows is None else rows.row
    from_row = () if row is None else row.scalars  # set from the row length, no attributes
    fields = tuple(f for f in first.operator.scalar_fields if f not in from_row)
    taken = set(ACLNN_TAKEN)
    aclnn_inputs = _aclnn_names(inputs, taken)
    attribute_aclnn = _aclnn_names(fields, taken)
    by_field = {k.dtype: launch_scalars(module, k, request.function, from_row) for k in kernels}
    for kernel in kernels:
        if fields and not by_field[kernel.dtype]:
            raise OpError(kernel.func, "is launched by no host function, so the values of its "
                          f"scalars {', '.join(fields)} are unknown: package the module with "
                          "the function that launches it")
    specs = launch_op_attributes(module, first, request.function)
    attributes = tuple(
        Attribute(snake_case(f), f, aclnn, "a scalar the body captures (the module's value is "
                  "the default)", by_field[first.dtype][f]) if f not in specs else
        Attribute(snake_case(f), f, aclnn, specs[f].about, specs[f].default,
                  non_negative=specs[f].non_negative)
        for f, aclnn in zip(fields, attribute_aclnn, strict=True))
    names = {a.field: a.name for a in attributes}
    values = {dtype: {names[f]: v for f, v in given.items()} for dtype, given in by_field.items()}
    dim = launch_dim(module, kernels, request.function)
    if dim is not None:
        attributes = (*attributes, dim_attribute(dim, taken))
        for given in values.values():
            given[DIM] = float(dim)
    platform = get_platform(request.soc or DEFAULT_SOC)
    shapes, run_time = broadcast_shapes(module, kernels, request.function)
    if rows is not None:
        shapes, run_time = rows.shapes, rows.run_time
    own = None if rows is None else rows.outputs
    at_example = own if own is None or run_time is None or shapes is None else \
        tuple(own_shape(o, shapes[run_time.source]) for o in own)  # run-time dims resolved
    tensors = None if shapes is None else \
        (*shapes[:-1], *(at_example or (shapes[-1] for _ in outputs)))
    sizes = [None] * len(inputs) if shapes is None else [math.prod(s) for s in shapes[:-1]]
    per_count = rows.per_row if rows is not None else _joint_factor(first, shapes)
    group = 1 if rows is None else rows.group

    def golden(kernel: Kernel, data: Sequence[np.ndarray]) -> tuple[np.ndarray, ...]:
        given = {**by_field[kernel.dtype], **{f: float(per_count or 0) for f in from_row}}
        return run_kernel(module, kernel, data, given, platform, tensors, per_count, group)

    stem = snake_case(request.name)
    body = request.bodies.get(first.func.sym_name.data) or (
        f"// The module was given lowered: its body is the kernel in op_kernel/{stem}.h.",)
    if len(kernels) > 1 and first.func.sym_name.data in request.bodies:
        body = (f"// The body of the {first.dtype} kernel; the other kernels compute it on their "
                "own dtype.", *body)
    operator = Operator(stem, inputs, outputs, request.aclnn or f"aclnn{request.name}",
                        first.operator.scalar_fields, request.name, first.operator.reads,
                        _counts(first), row_length=first.operator.row_length,
                        row_branches=first.operator.row_branches)
    parameters = {**{n: f"input {i + 1} of the body" for i, n in enumerate(inputs)},
                  **{n: "the body's result" if len(outputs) == 1 else
                     f"result {i + 1} of the body" for i, n in enumerate(outputs)}}
    aclnn_outputs = ("out",) if len(outputs) == 1 else _aclnn_names(
        [f"out{i}" for i in range(len(outputs))], taken)
    return Description(
        operator=operator, summary=GENERATED_SUMMARY, formula=(), body=body,
        notes=GENERATED_NOTES, nan_x=None, parameters=parameters, aclnn_inputs=aclnn_inputs,
        aclnn_outputs=aclnn_outputs, attributes=attributes, flags=(), ordered=(),
        example_inputs={n: _generic_sample(AROUND_3_EXAMPLE, i, sizes[i])
                        for i, n in enumerate(inputs)},
        kernel_test_inputs={n: _generic_sample(AROUND_3_TEST, i, sizes[i])
                            for i, n in enumerate(inputs)},
        values=values, golden=golden, generated=True, shapes=shapes, run_time=run_time,
        output_per_row=per_count, output_shapes=own, run_time_row=row, row_group=group)


def _joint_factor(kernel: Kernel, shapes: Sequence[tuple[int, ...]] | None) -> int | None:
    """Of a kernel writing its outputs at windows of one tensor (hswc.output_windows): the
    joint output's elements per element the tiling counts (GluGrad's dx: 2, its two halves);
    None for another kernel."""
    windows = read_output_windows(kernel.func)
    if windows is None or shapes is None:
        return None
    elements = math.prod(shapes[-1])
    if elements % windows.total:
        raise OpError(kernel.func, f"writes a joint output of {elements} elements, not a "
                      f"multiple of the {windows.total} its tiling counts")
    return elements // windows.total


# endregion
