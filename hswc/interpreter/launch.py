"""hsg.launch: run a kernel on `blockDim` vector cores, a batch of cores at a time.

The host's tensors become flat GM buffers (their elements in C order), each output a fresh one
filled with a non-zero byte pattern (GM is not zeroed either); an output element that no core
writes is an error naming the launch and the output, as is a launch whose tiling values
(folded constants included) the host tiling could not have produced. Cores run in batches of
at most the platform's core count, as the hardware runs a launch with more blocks than cores
in waves; the cores of a batch run in lock-step. The launch's f32 scalars follow the tiling
values into the kernel, and its tiling record holds them under their tiling-struct names
(hswc.kernel_signature.scalar_fields). A launch with counts (hsg.first_rows,
hswc.counted_rows) passes them after the inputs; its kernel writes the leading rows they sum to
and nothing past them (an error otherwise), the rest keeping the fresh bytes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from contextlib import ExitStack
from fractions import Fraction
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, MemRefType, TensorType
from xdsl.interpreter import Interpreter
from xdsl.ir import Operation
from xdsl.traits import SymbolTable

from hswc.broadcast import Broadcast, read_broadcast
from hswc.counted_rows import COUNTS_ATTR, counted_rows
from hswc.diagnostics import OpError
from hswc.dialects import hsg
from hswc.interpreter.batch import CoreBatch
from hswc.interpreter.dtypes import element_name, numpy_dtype
from hswc.interpreter.machine import Machine, TilingRecord
from hswc.kernel_signature import kernel_arguments, scalar_fields, tiling_fields
from hswc.output_windows import read_output_windows
from hswc.rows import Rows, read_rows
from hswc.tiling import TILING_FIELDS, TILING_KEYS

FRESH_GM_BYTE = 0x5B
"""What y holds before the kernel writes it: 235.375 in f16, about 6e16 in bf16 and f32."""


def check_operands(op: Operation, inputs: Sequence[Any], names: Sequence[str],
                   same_dtype: bool = True) -> None:
    """The inputs as the operator contract wants them at run time: one shape and (unless a
    launch at a dtype boundary) one dtype."""
    for name, value in zip(names, inputs, strict=True):
        if not isinstance(value, np.ndarray):
            raise OpError(op, f"{name} is not a tensor value: {type(value).__name__}")
    first = inputs[0]
    for name, value in zip(names[1:], inputs[1:], strict=True):
        if same_dtype and value.dtype != first.dtype:
            raise OpError(op, f"{names[0]} and {name} differ in dtype at run time: "
                          f"{first.dtype} vs {value.dtype}")
        if value.shape != first.shape:
            raise OpError(op, f"{names[0]} and {name} differ in shape at run time: "
                          f"{first.shape} vs {value.shape}")


MAX_BLOCK_DIM = 65535
"""AscendC's launch takes at most this many blocks (blockDim is a uint16)."""


def run_launch(machine: Machine, interpreter: Interpreter, op: hsg.LaunchOp,
               args: tuple[Any, ...]) -> tuple[np.ndarray, ...]:
    count, values = len(op.inputs), 1 + len(op.inputs) + len(op.tiling)
    block_dim, inputs, tiling = args[0], list(args[1:1 + count]), list(args[1 + count:values])
    counted = list(args[values + len(op.scalars):])  # the counts, when the launch has them
    scalars = [np.float32(v) for v in args[values:values + len(op.scalars)]]  # exact: f32
    kernel = SymbolTable.lookup_symbol(interpreter.module, op.kernel)
    if not isinstance(kernel, func.FuncOp):
        raise OpError(op, f"launches {op.kernel}, which is not a func.func in this module")
    hints = [a.name_hint for a in kernel.body.block.args[:count]] if kernel.body.blocks else []
    names = [h or f"input {i + 1}" for i, h in enumerate(hints)] \
        if len(hints) == count else [f"input {i + 1}" for i in range(count)]
    try:
        broadcast = read_broadcast(kernel)
    except ValueError as error:
        raise OpError(op, str(error)) from None
    try:
        rows = read_rows(kernel)
        windows = read_output_windows(kernel)
    except ValueError as error:
        raise OpError(op, str(error)) from None
    if windows is not None and broadcast is None:  # inputs read at the iteration's index
        broadcast = Broadcast(windows.shape, (None,) * count)
    _check_launch_dtypes(op, inputs, names)
    if broadcast is not None and not broadcast.is_static:
        broadcast = _resolve(op, inputs, names, broadcast)
    shape: tuple[int, ...] = inputs[0].shape if broadcast is None else broadcast.shape
    total = int(np.prod(shape, dtype=np.int64))
    shapes = [shape] * len(op.ys)
    if windows is not None:  # each result as the launch types it: a joint tensor is larger
        shapes = [tuple(y.type.get_shape()) for y in op.ys]  # type: ignore[attr-defined]
    rows = _at_run_time_length(op, rows, tiling)
    if rows is not None:
        shapes, total = _check_row_operands(op, inputs, names, rows)
    elif broadcast is None:
        check_operands(op, inputs, names, same_dtype=False)
    else:
        _check_broadcast_operands(op, inputs, names, broadcast)
    if not isinstance(block_dim, int) or not 0 <= block_dim <= MAX_BLOCK_DIM:
        raise OpError(op, f"has block dim {block_dim!r}; it must be an index from 0 to "
                      f"{MAX_BLOCK_DIM} (AscendC's limit)")
    expected = count + len(counted) + len(op.ys) + len(tiling) + len(scalars)
    if len(kernel.function_type.inputs) != expected:
        raise OpError(op, f"passes {expected} arguments but @{kernel.sym_name.data} takes "
                      f"{len(kernel.function_type.inputs)}")
    fields = scalar_fields(kernel_arguments(kernel).scalars)  # none for a declaration
    y_dtype = numpy_dtype(hsg.gm_element(op.y.type.get_element_type()))  # type: ignore[attr-defined]
    record = _record(interpreter, op, y_dtype, block_dim, tiling,
                     dict(zip(fields, scalars, strict=False)))
    if rows is not None and rows.dynamic:
        record["rowLength"] = rows.length
    _check_tiling(op, record, total)
    element_loops = 0 if broadcast is None else sum(
        1 for i, s in enumerate(broadcast.strides)
        if s is not None and broadcast.operand_size(i) > 1)
    machine.allow_launch(block_dim, record.get("blockFactor", 0), record.get("ubFactor", 0),
                         element_loops, sum(np.size(c) for c in counted))
    machine.tilings.append(record)
    machine.launched.append(kernel.sym_name.data)
    elements = [y.type.get_element_type() for y in op.ys]  # type: ignore[attr-defined]
    packed = _packed(kernel, count + len(counted), elements)
    sizes = [int(np.prod(s, dtype=np.int64)) for s in shapes]
    written = [size * _counted_share(op, kernel, counted, total, tiling) for size in sizes]
    outputs = _run_cores(machine, interpreter, op, kernel, block_dim,
                         [a.reshape(-1) for a in (*inputs, *counted)],
                         [numpy_dtype(hsg.gm_element(t, p)) for t, p in zip(elements, packed,
                                                                            strict=True)],
                         [-(-n // hsg.PACKED_BITS) if p else n for n, p in zip(sizes, packed,
                                                                          strict=True)],
                         [*tiling, *scalars],
                         [-(-int(w) // hsg.PACKED_BITS) if p else int(w)
                          for w, p in zip(written, packed, strict=True)])
    return tuple((np.unpackbits(y_gm, count=n, bitorder="little").view(np.bool_) if p
                  else _from_gm(op, k, y_gm, t)).reshape(s)
                 for k, (y_gm, t, s, n, p) in enumerate(zip(outputs, elements, shapes, sizes,
                                                            packed, strict=True)))


def _packed(kernel: func.FuncOp, before: int, elements: Sequence[Any]) -> list[bool]:
    """Which of the kernel's outputs, of result `elements`, it stores packed: the GM buffer it
    takes after its `before` inputs and counts (hsg.stores_packed)."""
    types = kernel.function_type.inputs.data[before: before + len(elements)]
    return [isinstance(t, MemRefType) and hsg.stores_packed(e, t.get_element_type())
            for t, e in zip(types, elements, strict=False)] + \
        [False] * (len(elements) - len(types))


def _counted_share(op: hsg.LaunchOp, kernel: func.FuncOp, counted: Sequence[Any],
                   total: int, tiling: Sequence[Any]) -> Fraction:
    """The share of each output the kernel writes: all of it, or, launched with counts
    (hswc.counted_rows), its leading rows the counts sum to, of the total / per-row rows
    (all of it too where its groupNum, the tiling value after the others, is negative: no
    counts given)."""
    if not counted or (len(tiling) > len(TILING_FIELDS) and int(tiling[len(TILING_FIELDS)]) < 0):
        return Fraction(1)
    counts = np.asarray(counted[0])
    if counts.ndim != 1 or counts.dtype != np.int64:
        raise OpError(op, f"counts is {counts.dtype} of shape {counts.shape} at run time; it "
                      "must be int64 of rank 1")
    per_row = kernel.attributes.get(COUNTS_ATTR)
    if not isinstance(per_row, IntegerAttr):
        raise OpError(op, f"passes counts to @{kernel.sym_name.data}, which is not marked "
                      f"{COUNTS_ATTR}")
    rows = total // per_row.value.data
    return Fraction(counted_rows(counts, rows), rows) if rows else Fraction(1)


def _from_gm(op: hsg.LaunchOp, k: int, gm: np.ndarray, element: Any) -> np.ndarray:
    """Output k's GM data as its tensor's values: an i1 output's bytes (hsg.gm_element) read
    as booleans, each of which must be 0 or 1 (else an error: a bool holds nothing else); a
    packed one's bits (hsg.BITS_STORAGE), element i bit i % 8 of byte i // 8, are unpacked by
    the caller, its last byte's padding bits left out."""
    if numpy_dtype(element) == gm.dtype:
        return gm
    wrong = np.flatnonzero((gm != 0) & (gm != 1))
    if wrong.size:
        raise OpError(op, f"writes {int(gm[wrong[0]])} at element {int(wrong[0])} of its i1 "
                      f"output {k + 1}, stored a byte per element: a bool is 0 or 1")
    return gm.view(np.bool_)


def _run_cores(machine: Machine, interpreter: Interpreter, op: hsg.LaunchOp,
               kernel: func.FuncOp, block_dim: int, gm_inputs: list[np.ndarray],
               dtypes: list[np.dtype], sizes: list[int], rest: list[Any],
               counted: list[int]) -> list[np.ndarray]:
    """The kernel run on every core, a wave at a time, on fresh GM outputs of `sizes`
    elements (a row kernel's by their class: not the tiling's total), one per dtype; an error
    if a core leaves one of the first `counted` elements of an output unwritten, or writes one
    past them (rows past a count: hswc.counted_rows)."""
    outputs = [np.empty(size, dtype=d) for d, size in zip(dtypes, sizes, strict=True)]
    for y_gm in outputs:
        y_gm.view(np.uint8).fill(FRESH_GM_BYTE)
    written = [np.zeros(size, dtype=bool) for size in sizes]
    wave = max(1, machine.platform.core_num)
    for start in range(0, block_dim, wave):
        cores = np.arange(start, min(block_dim, start + wave), dtype=np.int64)
        batch = CoreBatch(cores, block_dim, machine.platform.ub_size)
        with machine.running(batch), ExitStack() as stack:
            for y_gm, marks in zip(outputs, written, strict=True):
                stack.enter_context(machine.writing(y_gm, marks))
            interpreter.call_op(kernel, (*gm_inputs, *outputs, *rest))
    for k, (marks, limit) in enumerate(zip(written, counted, strict=True)):
        if marks[limit:].any():
            first = limit + int(np.argmax(marks[limit:]))
            raise OpError(op, f"writes element {first} of output {k + 1}, past the "
                          f"{limit} elements of the rows its counts sum to")
        marks = marks[:limit]
        if not marks.all():
            first = int(np.argmin(marks))
            size = marks.size
            missing = int(size - np.count_nonzero(marks))
            which = "output" if len(outputs) == 1 else f"output {k + 1}'s"
            raise OpError(op, f"leaves {missing} of the {size} {which} elements unwritten by "
                          f"every core (the first at element {first}): the kernel's result "
                          "would be whatever GM held")
    return outputs


def _check_launch_dtypes(op: hsg.LaunchOp, inputs: Sequence[Any], names: Sequence[str]) -> None:
    """Each input holds the element type the launch declares for it."""
    for name, value, operand in zip(names, inputs, op.inputs, strict=True):
        if not isinstance(value, np.ndarray):
            raise OpError(op, f"{name} is not a tensor value: {type(value).__name__}")
        wanted = numpy_dtype(operand.type.get_element_type())  # type: ignore[attr-defined]
        if value.dtype != wanted:
            raise OpError(op, f"{name} is {value.dtype} at run time, where the launch takes "
                          f"{wanted}")


def _at_run_time_length(op: hsg.LaunchOp, rows: Rows | None, tiling: Sequence[Any]
                        ) -> Rows | None:
    """A row kernel's rows at the run-time length its launch passes after the tiling values
    (hswc.rows `dynamic`); any other rows as they are."""
    if rows is None or not rows.dynamic:
        return rows
    if len(tiling) != len(TILING_FIELDS) + 1 or int(tiling[-1]) < 0:
        raise OpError(op, f"launches a row kernel of a run-time row length with tiling values "
                      f"{[int(v) for v in tiling]}: the last must be the row length")
    try:
        return rows.at_length(int(tiling[-1]))
    except ValueError as error:
        raise OpError(op, f"@{op.kernel.root_reference.data} {error}") from None


def _check_row_operands(op: hsg.LaunchOp, inputs: Sequence[Any], names: Sequence[str],
                        rows: Rows) -> tuple[list[tuple[int, ...]], int]:
    """A row kernel's inputs hold the rows its classes say (hswc.rows): each result's shape
    (the launch's types, a dynamic dim resolved by _run_time_shape) and the row count, the
    tiling's totalNum."""
    try:
        total = rows.count_rows([np.size(a) for a in inputs], [])
    except ValueError as error:
        raise OpError(op, f"{error} at run time ({', '.join(names)})") from None
    shapes = []
    for k, (y, kind) in enumerate(zip(op.ys, rows.outputs, strict=True)):
        t = y.type
        if not isinstance(t, TensorType):
            raise OpError(op, "launches a row kernel, whose results need ranked types")
        size = rows.operand_size(kind, total)
        if t.has_static_shape() and t.element_count() != size:
            raise OpError(op, f"declares its result {k + 1} as {t}, but its inputs' {total} "
                          f"rows give it {size} elements at run time ({', '.join(names)})")
        shape = _run_time_shape(tuple(t.get_shape()), size, inputs)
        if shape is None:
            raise OpError(op, f"cannot tell the run-time shape of its result {k + 1} "
                          f"({t}) from its inputs' shapes: its run-time dims must be those of "
                          "an input")
        shapes.append(shape)
    return shapes, total


def _run_time_shape(declared: tuple[int, ...], size: int, inputs: Sequence[Any]
                    ) -> tuple[int, ...] | None:
    """A row kernel's result shape at run time: `declared` where static, of `size` elements;
    its dynamic dims those of an input whose leading dims (of the result's rank) agree with
    the static ones, else the one dynamic dim the size leaves; None when neither tells."""
    if all(d >= 0 for d in declared):
        return declared if math.prod(declared) == size else None
    for value in inputs:
        shape = np.shape(value)
        if len(shape) < len(declared):
            continue
        found = tuple(n if d < 0 else d for d, n in zip(declared, shape, strict=False))
        if all(d < 0 or d == n or d == 1 for d, n in zip(declared, shape, strict=False)) \
                and math.prod(found) == size:
            return found
    dynamic = [i for i, d in enumerate(declared) if d < 0]
    known = math.prod(d for d in declared if d >= 0)
    if len(dynamic) == 1 and known and size % known == 0:
        return tuple(size // known if d < 0 else d for d in declared)
    return None


def _check_broadcast_operands(op: Operation, inputs: Sequence[Any], names: Sequence[str],
                              broadcast: Broadcast) -> None:
    """check_operands for a kernel with broadcast inputs: each input holds the elements the
    kernel reads of it (hswc.broadcast)."""
    for i, (name, value) in enumerate(zip(names, inputs, strict=True)):
        if value.size != broadcast.operand_size(i):
            raise OpError(op, f"{name} has shape {value.shape} at run time; the kernel reads "
                          f"{broadcast.operand_size(i)} elements of it")


def _resolve(op: Operation, inputs: Sequence[Any], names: Sequence[str],
             broadcast: Broadcast) -> Broadcast:
    """A description of dynamic shapes at the run-time shape of its first input read at the
    output's index (hswc.broadcast)."""
    i = next(i for i, s in enumerate(broadcast.strides) if s is None)
    try:
        return broadcast.resolve(inputs[i].shape)
    except ValueError as error:
        raise OpError(op, f"{names[i]} has shape {inputs[i].shape} at run time: {error}") \
            from None


def _check_tiling(op: hsg.LaunchOp, record: TilingRecord, total: int) -> None:
    """The launch's tiling values obey the tiling's own rules (folded constants included); a
    hand-written kernel with other tiling values is not checked."""
    if any(k not in record for k in TILING_FIELDS):
        return
    t, bf, uf, used = (record[k] for k in ("totalNum", "blockFactor", "ubFactor",
                                              "usedCoreNum"))
    problems = []
    if t != total:
        problems.append(f"totalNum {t} is not the inputs' {total} elements")
    if total and (bf < 1 or uf < 1):
        problems.append(f"blockFactor {bf} and ubFactor {uf} must be positive")
    elif total and used * bf < total:
        problems.append(f"{used} cores of {bf} elements do not cover {total}")
    if problems:
        raise OpError(op, "is launched with a tiling the host tiling cannot produce: "
                      + "; ".join(problems))


def _record(interpreter: Interpreter, op: hsg.LaunchOp, dtype: np.dtype, block_dim: int,
            tiling: list[Any], scalars: dict[str, np.float32]) -> TilingRecord:
    """The launch's tiling as --tiling-json writes it, its scalars (by tiling-struct name) last.

    The tiling key is not an operand of the launch: it is the fifth result of the host tiling
    call that computed the launch's values, or, when the tiling was folded to constants, the
    key of the element type (the same table the tiling function returns it from).
    """
    kernel = SymbolTable.lookup_symbol(interpreter.module, op.kernel)
    fields = tiling_fields(kernel) if isinstance(kernel, func.FuncOp) else TILING_FIELDS
    record: TilingRecord = {name: int(v) for name, v in zip(fields, tiling, strict=False)}
    record["usedCoreNum"] = int(block_dim)
    key = TILING_KEYS.get(element_name(dtype) or "", -1)
    owner = op.block_dim.owner
    if isinstance(owner, func.CallOp) and len(owner.results) == 5:
        (computed,) = interpreter.get_values((owner.results[4],))
        key = int(computed)
    record["tilingKey"] = key
    record.update({name: float(value) for name, value in scalars.items()})
    return record
