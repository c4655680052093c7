"""A row kernel's hsg ops above the ascend level: one core's rows (hsg.row_slice) and one UB
chunk of them (hsg.row_chunk), each running its body (hswc.interpreter.body) on exactly the GM
rows it names, for each active core: element operands as rows x length, row operands as
rows x 1, column operands as 1 x length (hswc.rows; a row of `runs` runs gathered from its
strided places; with `lanes`, element operands as rows x runs x lanes and row operands as
rows x 1 x lanes); hsg.reduce combines along each row (each lane apart) in the kernel's order
(hswc.reduction_order).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, PythonValues, impl, register_impls

from hswc.diagnostics import OpError
from hswc.dialects import hsg
from hswc.interpreter.body import run_body_values
from hswc.interpreter.machine import MachineFunctions
from hswc.interpreter.values import core_range, per_row
from hswc.rows import OperandClass, Rows


def _rows_of(op: hsg.RowSliceOp | hsg.RowChunkOp) -> Rows:
    try:
        return Rows.from_attr(op.rows)
    except ValueError as error:
        raise OpError(op, str(error)) from None


def _window(kind: OperandClass, gm: np.ndarray, rows: Rows, start: int, count: int
            ) -> np.ndarray:
    """The part of a flat GM buffer rows [start, +count) read, shaped for the body (a copy
    where a row is strided)."""
    length = rows.length
    if kind == "column":
        return gm.reshape(1, length)
    if kind == "row":
        if rows.tail:  # groups of rows of lanes, the last narrower (hswc.rows: Lanes)
            return gm.reshape(-1)[rows.value_indices(start, count)[0]][:, None, :]
        return gm.reshape(-1, 1, rows.lanes)[start:start + count] if rows.lanes > 1 \
            else gm.reshape(-1, 1)[start:start + count]
    if rows.runs > 1:
        shape = (count, rows.runs, rows.lanes) if rows.lanes > 1 else (count, length)
        return gm.reshape(-1)[rows.element_indices(start, count)].reshape(shape)
    return gm.reshape(-1, length)[start:start + count]


def _write(kind: OperandClass, gm: np.ndarray, rows: Rows, start: int, count: int,
           value: np.ndarray) -> list[tuple[int, int]]:
    """Rows [start, +count) of `value` written to their places in a flat GM buffer; the
    (offset, count) ranges of elements written."""
    numbers = np.arange(start, start + count, dtype=np.int64)
    if kind == "element" and rows.runs > 1:
        at, held = rows.held_indices(start, count)
        if rows.lanes == 1:  # the body's rows x length, each row its runs one after another
            value = np.broadcast_to(value, (count, rows.length)).reshape(at.shape)
        gm.reshape(-1)[at[held]] = np.broadcast_to(value, at.shape)[held]
        firsts = rows.row_start(numbers).tolist()
        widths = rows.width(numbers).tolist()
        return [(first + a * rows.stride, width) for first, width in zip(firsts, widths,
                                                                         strict=True)
                for a in range(rows.runs)] if rows.lanes > 1 or rows.grouped else \
            [(a * rows.stride + start * rows.run, count * rows.run) for a in range(rows.runs)]
    if kind == "row" and rows.tail:
        at, held = rows.value_indices(start, count)
        gm.reshape(-1)[at[held]] = np.broadcast_to(value, (count, 1, rows.lanes))[:, 0][held]
        return list(zip(rows.value_start(numbers).tolist(), rows.width(numbers).tolist(),
                        strict=True))
    _window(kind, gm, rows, start, count)[...] = value
    width = rows.length if kind == "element" else rows.lanes
    return [(start * width, count * width)]


def _shape(kind: OperandClass, rows: Rows, count: int) -> tuple[int, ...]:
    """The shape the body yields an output of this class in, for `count` rows."""
    if rows.lanes > 1:
        return (count, rows.runs, rows.lanes) if kind == "element" else (count, 1, rows.lanes)
    return (count, rows.length) if kind == "element" else (count, 1)


class RowFunctions(MachineFunctions):
    """hsg.row_slice and hsg.row_chunk at the tiled and blocked levels."""

    @impl(hsg.RowSliceOp)
    def run_row_slice(self, interpreter: Interpreter, op: hsg.RowSliceOp,
                      args: PythonValues) -> PythonValues:
        count = len(op.inputs) + len(op.outputs)
        gm, (offset, size, _ub_factor, *length) = args[:count], args[count:]
        self._per_core(interpreter, op, list(gm), offset, size, None, length)
        return ()

    @impl(hsg.RowChunkOp)
    def run_row_chunk(self, interpreter: Interpreter, op: hsg.RowChunkOp,
                      args: PythonValues) -> PythonValues:
        count = len(op.inputs) + len(op.outputs)
        gm, (offset, size, chunk_offset, chunk_size, ub_factor, *length) = \
            args[:count], args[count:]
        self._per_core(interpreter, op, list(gm), offset, size,
                       (chunk_offset, chunk_size, ub_factor), length)
        return ()

    def _per_core(self, interpreter: Interpreter, op: hsg.RowSliceOp | hsg.RowChunkOp,
                  gm: list[np.ndarray], offset: Any, size: Any,
                  chunk: tuple[Any, Any, Any] | None, length: list[Any]) -> None:
        """outputs[rows] = body(inputs[rows]) for each active core's rows (`length`: the
        run-time row length of a dynamic one, the same on every core)."""
        rows = _rows_of(op)
        if length:
            values = np.unique(np.asarray(length[0]))
            if values.size != 1 or int(values[0]) < 0:
                raise OpError(op, f"takes a run-time row length of {values.tolist()}, where "
                              "one length is needed")
            try:
                rows = rows.at_length(int(values[0]))
            except ValueError as error:
                raise OpError(op, str(error)) from None
        inputs, outputs = gm[:len(op.inputs)], gm[len(op.inputs):]
        try:
            total = rows.count_rows([a.size for a in inputs], [a.size for a in outputs])
        except ValueError as error:
            raise OpError(op, str(error)) from None
        batch, active = self.machine.kernel(op)
        n = batch.size
        offsets, sizes = per_row(offset, n), per_row(size, n)
        chunks = [per_row(v, n) for v in chunk] if chunk is not None else None
        for r in active.index.tolist():
            start, count = core_range(op, int(batch.cores[r]), int(offsets[r]), int(sizes[r]),
                                      chunks, r, total, f"the {total} rows of the operands",
                                      "rows")
            if count == 0:
                continue
            shapes = [_shape(kind, rows, count) for kind in rows.outputs]
            values = run_body_values(
                op.body.block,
                [_window(kind, a, rows, start, count)
                 for kind, a in zip(rows.inputs, inputs, strict=True)],
                lambda v, r=r: per_row(interpreter.get_values((v,))[0], n)[r], shapes)
            for kind, a, value in zip(rows.outputs, outputs, values, strict=True):
                for at, size_ in _write(kind, a, rows, start, count, value):
                    self.machine.mark_written(a, at, size_)


register_impls(RowFunctions)
