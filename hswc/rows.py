"""Row regions: a computation over rows that reduces along each row.

A row region iterates a space of `rows x length` elements: the parallel dims (the rows, in C
order) and the reduced dims (each row's `length` elements, the trailing dims). Its operands are
of three classes, by which part of that space they span:
- `element`: the whole space, rows x length elements, row-major (a tensor of the full shape);
- `row`: one value per row (the reduced dims dropped, or kept as size 1: `x.sum(-1, keepdim)`);
- `column`: one value per position in a row (LayerNorm's weight), the same for every row.
The rows need not be contiguous in an element operand: a reduction over leading (or leading and
trailing) dims keeping the dims between (BatchNorm's sum over N, H and W keeping C) has `runs`
> 1: an element operand is then `runs x rows x run` elements (run = length / runs), so row r's
element p = a * run + b lives at a * stride + r * run + b (stride = rows * run, the distance
between two runs of one row), and a row is read as `runs` runs of `run` contiguous elements.
Where a run is not whole 32-byte blocks (MobileNet's 7 x 7 maps: 49 f32, 196 bytes), its
kernel lays each run in UB padded to whole blocks (`padded_run` = P elements a run, the same P
in every element operand's type: hswc.vectorizer.row_emit.runs_refusal): row r's run a at
a * P, the P - run elements after it padding, so a row in UB is `runs` x P elements; each
reduction writes its combiner's identity over the padding of its source first, so a row is
combined as its runs each padded with the identity to P are (hswc.reduction_order.padded_runs),
at every level.
Its body is an elementwise body (scalar arith and math ending in linalg.yield) in which
`hsg.reduce` combines a value over the row: what follows reads the row's one result. Its kernel
splits the rows over the cores and a core's rows into UB chunks of whole rows; the description
travels on the kernel, slice and chunk ops as `hsg.rows` =
`{length = N : i64, inputs = ["element", ...], outputs = ["row", ...]}`, with `runs = A : i64,
stride = S : i64` added when a row is not contiguous, `one_per_chunk` where a row is too long
for a chunk of several (hswc.vectorizer.plan: each chunk one row, its level-0 calls repeating
along the row instead of across rows), and `segment = S` where a row is longer than one chunk
holds: the row is worked on in segments of S elements (the last one shorter), in one pass over
the row in GM per reduction and a last pass for the outputs; each reduction's segment partials
are combined in order into a per-row f32 accumulator (hswc.reduction_order.reduce_rows), which
the later passes read as the row's value; with `online` as well, a maximum m's pass also sums
exp(b - m) with the running maximum, rescaling the sum as the maximum grows
(hswc.reduction_order.online_sum: softmax's max and sum in one pass over the row instead of
two). A row in segments is contiguous (runs = 1).
A row length known only at run time (`dynamic`: a reduced dim `?`) is the kernel's
`row_length` operand; every row is then worked on in segments of the compile-time `segment` S
(`length` is S too: what a chunk's buffers are planned for), the last one of 1 to S elements
padded to S with each reduction's identity (hswc.reduction_order.padded), so one kernel takes
every length and its order of combination is a function of the length (Rows.at_length: the
description for one run-time length). A dynamic row without a segment (`whole`, one or
several a chunk) is a branch for rows of at most `length` W elements
(hswc.passes.row_branches: the host's tiling picks it from the run-time length): the row is
read once and worked whole, its calls on all W lanes, each reduction's source padded from n
to W with the identity, so a row is combined as one padded segment of W is (the same bits as
the segmented kernel's at n <= S, but for the compensated sum's sign of a zero:
hswc.passes.row_branches).

Lanes (`lanes = L`): a reduction over a dim that is not the innermost (softmax over dim 0 of
[R, C]) whose runs would be single elements is described by rows of L adjacent columns each:
row r holds `runs` = R runs of `run` = L elements (`stride` = C apart), and reduces each of its
L lanes apart: hsg.reduce combines element a * L + b over a for each lane b, in
hswc.reduction_order's lane order (reduce_lanes), so a row value is L values, not one (a row
operand holds L values a row, contiguous: column block r's). A row kernel reads each row as
its runs, as above; its reduction folds whole runs into the first (level-0 calls over L lanes),
and an element step reading a row value reads its L values for every run. Where the columns of
a group (`stride`) are not a multiple of L, each group's last row is narrower (`tail` =
stride % L columns): its runs are read and written `tail` elements wide, its other lanes hold
whatever UB held and are computed but never written (each lane is reduced apart, so they never
meet a held one), and a row operand holds `stride` values a group (Rows.value_start).

Grouped rows (`grouped`, one a chunk): rows of strided runs, one value a row, that come in
groups as rows of lanes do (Rows.row_start: `stride` / run rows side by side, each group's runs
`runs` * stride elements after the last group's): the first kernel of a reduction over leading
dims split across its runs (hswc.passes.row_split), row p * C + c the p-th piece of `runs`
whole runs of channel c. A chunk's row is copied by its runs, stride apart in GM, as a row of
lanes is; a row operand holds one value a row, contiguous (the pieces' partials [parts, C]).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    StringAttr,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, Operation

if TYPE_CHECKING:
    import numpy as np

ROWS_ATTR = "hsg.rows"

ROW_LENGTH_FIELD = "rowLength"
"""The tiling struct's field a kernel of a run-time row length (Rows.dynamic) reads after
ubFactor: its `row_length` argument, the elements of every row, which the host reads from the
first element input's reduced dims."""

OperandClass = Literal["element", "row", "column"]
CLASSES: tuple[OperandClass, ...] = ("element", "row", "column")


@dataclass(frozen=True)
class Rows:
    """The row length and the class of each input and output (module docstring)."""

    length: int
    inputs: tuple[OperandClass, ...]
    outputs: tuple[OperandClass, ...]
    runs: int = 1
    """How many contiguous runs one row of an element operand is (module docstring)."""
    stride: int = 0
    """The elements between the starts of two runs of a row (0 when `runs` is 1)."""
    one_per_chunk: bool = False
    """Each UB chunk holds one row (a row too long for MIN_CHUNK_ROWS of them, or for a
    level-0 repeat stride between rows: hswc.passes.row_kernels.fitted_row_plan)."""
    segment: int | None = None
    """Elements of a row one chunk holds when a row is longer than a chunk (module docstring;
    implies one_per_chunk); None: whole rows."""
    online: bool = False
    """A row in segments sums exp(b - max) in the max's pass (module docstring)."""
    dynamic: bool = False
    """The row length is the kernel's run-time `row_length` (module docstring); `length` and
    `segment` are then the segment's (of a whole row, no segment: the most it holds), or,
    once at_length gave it, the run-time length."""
    lanes: int = 1
    """Values a row's reduction keeps, each of its lanes reduced apart (module docstring:
    Lanes; `run` = lanes); 1: one value a row."""
    padded_run: int | None = None
    """Elements a run takes in UB where a run is not whole 32-byte blocks (module docstring);
    None: `run` itself."""
    grouped: bool = False
    """The rows come in groups of stride / run (module docstring: Grouped rows; implies
    one_per_chunk); rows of lanes are in groups without it."""

    def at_length(self, length: int) -> Rows:
        """A dynamic description at one run-time row length (its segment kept); ValueError
        where a whole row (no segment) is longer than the branch holds."""
        assert self.dynamic
        if self.segment is None and length > self.length:
            raise ValueError(f"takes a run-time row length of {length}, longer than the "
                             f"{self.length} elements its kernel's whole rows hold (the host's "
                             "tiling picks another branch for such rows)")
        return replace(self, length=length)

    @property
    def padded_to(self) -> int | None:
        """The elements a dynamic row's reductions combine, padded with the identity: its
        segment, or a whole row's most (module docstring); None for a static length."""
        if not self.dynamic:
            return None
        return self.segment if self.segment is not None else self.length

    @property
    def chunk_length(self) -> int:
        """Elements of a row one chunk's buffers hold: the segment, or the whole row (its runs
        padded: `padded_run`)."""
        if self.padded_run is not None:
            return self.runs * self.padded_run
        return self.segment if self.segment is not None else self.length

    @property
    def run(self) -> int:
        """The contiguous elements of one run of a row."""
        return self.length // self.runs

    def in_lanes(self, lanes: int) -> Rows:
        """These rows, each a single strided column (runs of one element), as rows of `lanes`
        adjacent columns reduced lane by lane (module docstring: Lanes), one a chunk."""
        assert self.run == 1 and self.runs > 1
        return Rows(self.runs * lanes, self.inputs, self.outputs, self.runs, self.stride,
                    one_per_chunk=True, lanes=lanes)

    @property
    def group(self) -> int:
        """The rows side by side in one group (module docstring; of lanes: the stride's columns
        over the lanes, rounded up: the last row of a group may be narrower, `tail`)."""
        return -(-self.stride // self.run)

    @property
    def tail(self) -> int:
        """Rows of lanes: the columns of a group's last row, when fewer than the lanes (module
        docstring: Lanes); 0 when every row is whole."""
        return self.stride % self.run if self.lanes > 1 else 0

    def width(self, row: np.ndarray) -> np.ndarray:
        """The columns each row of lanes holds: the lanes, or `tail` for a group's last."""
        import numpy as np

        last = (row % self.group == self.group - 1) & (self.tail > 0)
        return np.where(last, self.tail, self.run)

    def row_start(self, row: np.ndarray) -> np.ndarray:
        """Where each row's first run starts in an element operand: row r at r * run, the rows
        of one group (stride / run of them) side by side; a row index past a group continues
        in the next group, `runs` * stride elements on (a reduction over a middle dim: the
        rows of [A, R, C] over dim 1 are A groups of C / lanes)."""
        group = self.group
        return row // group * (self.runs * self.stride) + row % group * self.run

    def value_start(self, row: np.ndarray) -> np.ndarray:
        """Where each row's values start in a row operand: `lanes` a row, a group's `stride`
        values side by side (a narrower last row: `tail` of them)."""
        group = self.group
        return row // group * self.stride + row % group * self.lanes

    def value_indices(self, start: int, count: int) -> tuple[np.ndarray, np.ndarray]:
        """Rows of lanes: the flat indices, in a row operand, of rows [start, +count)'s lanes
        (count x lanes), and which of them the rows hold (a narrower row's lanes past its
        width are not; their index is clamped to a held one)."""
        import numpy as np

        rows = np.arange(start, start + count, dtype=np.int64)
        lanes = np.arange(self.lanes, dtype=np.int64)[None, :]
        held = lanes < self.width(rows)[:, None]
        return self.value_start(rows)[:, None] + np.where(held, lanes, 0), held

    def element_indices(self, start: int, count: int) -> np.ndarray:
        """The flat indices, in an element operand, of rows [start, +count)'s elements, row by
        row (C order of the rows x length view)."""
        return self.held_indices(start, count)[0].reshape(-1)

    def held_indices(self, start: int, count: int) -> tuple[np.ndarray, np.ndarray]:
        """element_indices shaped (count, runs, run), and which of them the rows hold (rows of
        lanes narrower than the lanes: the lanes past a row's width are not, their index
        clamped to the run's first)."""
        import numpy as np  # here, not at module level: hswc-opt's startup does not need it

        numbers = np.arange(start, start + count, dtype=np.int64)
        rows = self.row_start(numbers)[:, None, None]
        runs = np.arange(self.runs, dtype=np.int64)[None, :, None] * self.stride
        within = np.arange(self.run, dtype=np.int64)[None, None, :]
        held = np.broadcast_to(within < self.width(numbers)[:, None, None],
                               (count, self.runs, self.run))
        return rows + runs + np.where(held, within, 0), held

    def operand_size(self, kind: OperandClass, rows: int) -> int:
        """How many elements an operand of this class holds for `rows` rows (rows of lanes
        with a narrower last row: whole groups of them)."""
        if self.tail and kind != "column":
            groups = rows // self.group
            return groups * self.stride * (self.runs if kind == "element" else 1)
        return {"element": rows * self.length, "row": rows * self.lanes,
                "column": self.length}[kind]

    def counted(self, kind: OperandClass) -> tuple[int, int]:
        """How a tiling counts rows from an operand of this class: (its elements per `rows`
        rows, `rows`): one row's, or, of rows of lanes whose groups end in a narrower row
        (`tail`), a whole group's, since its rows do not hold equal shares."""
        rows = self.group if self.tail else 1
        return self.operand_size(kind, rows), rows

    def count_rows(self, inputs: Sequence[int], outputs: Sequence[int] = ()) -> int:
        """The rows operands of these element counts (inputs, then outputs when given, by
        class) hold; ValueError naming the first that disagrees."""
        if self.length == 0:  # a run-time length of 0 (dynamic): no elements, so no rows
            if any(size for size, kind in zip((*inputs, *outputs),
                                              (*self.inputs, *self.outputs), strict=False)
                   if kind != "row"):
                raise ValueError("rows of length 0 hold no elements, but an operand has some")
            return 0
        found: int | None = None
        operands = [*zip(("input",) * len(inputs), range(len(inputs)), inputs, self.inputs,
                         strict=True),
                    *zip(("output",) * len(outputs), range(len(outputs)), outputs,
                         self.outputs if outputs else (), strict=True)]
        for what, i, size, kind in operands:
            if kind == "column":
                if size != self.length:
                    raise ValueError(f"{what} {i + 1} (a column operand) holds {size} elements, "
                                     f"not the row length {self.length}")
                continue
            if kind == "element" and size % self.length and not self.tail:
                raise ValueError(f"{what} {i + 1} holds {size} elements, not whole rows of "
                                 f"{self.length}")
            count = size // self.length if kind == "element" else size // self.lanes
            if self.tail:  # whole groups of rows of lanes, the last of each narrower
                span = self.stride * (self.runs if kind == "element" else 1)
                if size % span:
                    raise ValueError(f"{what} {i + 1} holds {size} elements, not whole groups "
                                     f"of {span}")
                count = size // span * self.group
            if found is not None and count != found:
                raise ValueError(f"{what} {i + 1} ({kind}) holds {count} rows where the "
                                 f"operands before it hold {found}")
            found = count
        if found is not None and self.runs > 1 and found * self.run != self.stride \
                and not ((self.lanes > 1 or self.grouped) and found % self.group == 0):
            raise ValueError(f"the operands hold {found} rows, but runs {self.stride} elements "
                             f"apart are those of {self.stride // self.run} rows")
        return found or 0

    def to_attr(self) -> DictionaryAttr:
        fields: dict[str, Attribute] = {
            "length": IntegerAttr(self.length, i64),
            "inputs": ArrayAttr([StringAttr(c) for c in self.inputs]),
            "outputs": ArrayAttr([StringAttr(c) for c in self.outputs]),
        }
        if self.runs != 1:
            fields["runs"] = IntegerAttr(self.runs, i64)
            fields["stride"] = IntegerAttr(self.stride, i64)
        if self.one_per_chunk:
            fields["one_per_chunk"] = UnitAttr()
        if self.segment is not None:
            fields["segment"] = IntegerAttr(self.segment, i64)
        if self.online:
            fields["online"] = UnitAttr()
        if self.dynamic:
            fields["dynamic"] = UnitAttr()
        if self.lanes != 1:
            fields["lanes"] = IntegerAttr(self.lanes, i64)
        if self.padded_run is not None:
            fields["padded_run"] = IntegerAttr(self.padded_run, i64)
        if self.grouped:
            fields["grouped"] = UnitAttr()
        return DictionaryAttr(fields)

    @staticmethod
    def from_attr(attr: Attribute) -> Rows:
        """The description in `attr`; ValueError when it is not one."""
        if not isinstance(attr, DictionaryAttr):
            raise ValueError(f"{ROWS_ATTR} must be a dictionary, got {attr}")
        data = attr.data
        length = data.get("length")
        if not isinstance(length, IntegerAttr) or length.value.data < 1:
            raise ValueError(f"{ROWS_ATTR} needs a positive integer `length`, got {length}")
        one = data.get("one_per_chunk")
        if one is not None and not isinstance(one, UnitAttr):
            raise ValueError(f"{ROWS_ATTR} `one_per_chunk` must be a unit attribute, got {one}")
        inputs = _classes(data.get("inputs"), "inputs")
        outputs = _classes(data.get("outputs"), "outputs")
        segment = data.get("segment")
        dynamic = data.get("dynamic")
        if dynamic is not None and (not isinstance(dynamic, UnitAttr)
                                    or (one is None and data.get("segment") is not None)
                                    or data.get("runs") is not None):
            raise ValueError(f"{ROWS_ATTR} `dynamic` must be a unit attribute, with "
                             f"contiguous rows (one_per_chunk where in segments), got "
                             f"{dynamic}")
        if segment is not None and (not isinstance(segment, IntegerAttr) or one is None
                                    or not 0 < segment.value.data < length.value.data + (
                                        dynamic is not None)):
            raise ValueError(f"{ROWS_ATTR} `segment` must be a positive integer below the "
                             f"length (at most it, of a dynamic length), with one_per_chunk, "
                             f"got {segment}")
        online = data.get("online")
        if online is not None and (not isinstance(online, UnitAttr) or segment is None):
            raise ValueError(f"{ROWS_ATTR} `online` must be a unit attribute, with a segment, "
                             f"got {online}")
        lanes = data.get("lanes")
        runs_attr = data.get("runs")
        if lanes is not None and (
                not isinstance(lanes, IntegerAttr) or lanes.value.data < 2 or one is None
                or not isinstance(runs_attr, IntegerAttr)
                or length.value.data != lanes.value.data * runs_attr.value.data
                or "column" in (*inputs, *outputs)):
            raise ValueError(f"{ROWS_ATTR} `lanes` must be an integer of at least 2, with runs "
                             f"of that many elements, one_per_chunk and no column operand, got "
                             f"{lanes}")
        padded_run = data.get("padded_run")
        if padded_run is not None and (
                not isinstance(padded_run, IntegerAttr) or lanes is not None
                or segment is not None or not isinstance(runs_attr, IntegerAttr)
                or length.value.data % runs_attr.value.data
                or not length.value.data // runs_attr.value.data < padded_run.value.data):
            raise ValueError(f"{ROWS_ATTR} `padded_run` must be an integer above the run, with "
                             f"runs and neither lanes nor a segment, got {padded_run}")
        grouped = data.get("grouped")
        if grouped is not None and (
                not isinstance(grouped, UnitAttr) or one is None or lanes is not None
                or segment is not None or dynamic is not None
                or not isinstance(runs_attr, IntegerAttr) or runs_attr.value.data < 2):
            raise ValueError(f"{ROWS_ATTR} `grouped` must be a unit attribute, with runs and "
                             f"one_per_chunk and neither lanes, a segment nor a run-time "
                             f"length, got {grouped}")
        pieces = {"one_per_chunk": one is not None, "grouped": grouped is not None,
                  "segment": None if segment is None else segment.value.data,
                  "online": online is not None, "dynamic": dynamic is not None,
                  "lanes": 1 if lanes is None else lanes.value.data,
                  "padded_run": None if padded_run is None else padded_run.value.data}
        runs, stride = data.get("runs"), data.get("stride")
        if runs is None and stride is None:
            return Rows(length.value.data, inputs, outputs, **pieces)  # type: ignore[arg-type]
        if not isinstance(runs, IntegerAttr) or not isinstance(stride, IntegerAttr) \
                or runs.value.data < 1 or length.value.data % runs.value.data \
                or stride.value.data < (1 if lanes is not None
                                        else length.value.data // runs.value.data):
            raise ValueError(f"{ROWS_ATTR} needs `runs` dividing the length and a `stride` of "
                             f"at least one run together (of lanes, at least one column), got "
                             f"runs = {runs}, stride = {stride}")
        return Rows(length.value.data, inputs, outputs, runs.value.data, stride.value.data,
                    **pieces)  # type: ignore[arg-type]


def _classes(attr: Attribute | None, what: str) -> tuple[OperandClass, ...]:
    if not isinstance(attr, ArrayAttr) or not all(
            isinstance(a, StringAttr) and a.data in CLASSES for a in attr.data):
        raise ValueError(f"{ROWS_ATTR} `{what}` must be an array of "
                         f"{', '.join(repr(c) for c in CLASSES)}, got {attr}")
    return tuple(a.data for a in attr.data)  # type: ignore[attr-defined, misc]


def read_rows(op: Operation) -> Rows | None:
    """The `hsg.rows` of an op (kernel, slice or chunk), None without one."""
    attr = op.attributes.get(ROWS_ATTR) or op.properties.get("rows")
    return None if attr is None else Rows.from_attr(attr)


def row_view(values: Sequence[object]) -> str:
    """How a message names a list of classes."""
    return ", ".join(str(v) for v in values)
