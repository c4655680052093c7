"""The host tiling against SPEC.md section 4, its properties, and the IR the passes build from it.

- Parity: the figures of CANN's tiling (the ops-nn unit test, a million elements on an A2, the
  UB sizes of the spec) and the cases where the reference refuses to tile.
- Properties over random sizes and platforms: every element is covered exactly once by the
  cores' slices and their UB chunks (checked by interval arithmetic, never by enumerating), no
  core runs past the end, only the last core and the last chunk of a core are short.
- The IR: `@hard_swish_grad_tiling_<dt>` and the kernel's slice and chunk arithmetic, built by
  hswc-opt and run by a small evaluator written here (a table of arith semantics, not hswc's
  IntArith), agree with the Python formula.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.parser import Parser

from hswc.ops.hard_swish_grad import CANN_BUDGET as HSG
from hswc.pipeline import DIALECTS
from hswc.platform import PLATFORMS
from hswc.tiling import (
    TILING_KEYS,
    IntArith,
    Tiling,
    TilingError,
    chunk_extent,
    compute_tiling,
    core_slice,
)
from hswc.tools.hswc_opt import main as hswc_opt_main

DTYPES = ("f16", "bf16", "f32")
MIB = 1 << 20


DATA_COPY_PAD_ELEMENTS = {"f16": 32704, "bf16": 32704, "f32": 16320}
"""The most elements, a multiple of 64, that one DataCopyPad moves (65535 bytes)."""


def expected_ub_factor(ub_size: int, dtype: str) -> int:
    """SPEC.md section 4, restated: FloorAlign((ubSize - 1024) / 48, 64), and no more than one
    DataCopyPad moves (a bound CANN's tiling does not have; it binds above 785 KB of UB in
    f32, 1.5 MB in f16: on no Ascend SoC)."""
    return min((ub_size - 1024) // 48 // 64 * 64, DATA_COPY_PAD_ELEMENTS[dtype])


# region parity with SPEC.md section 4


def test_ops_nn_unit_test_figures() -> None:
    # coreNum 64, ubSize 262144, shape {7, 3}: totalNum 21, blockFactor 1, ubFactor 5440, 21 cores.
    t = compute_tiling(7 * 3, 64, 262144, "f32", HSG)
    assert t.as_tuple() == (21, 1, 5440, 21, TILING_KEYS["f32"])
    assert [core_slice(t, b).length for b in range(21)] == [1] * 21
    assert core_slice(t, 21).length == 0


def test_a_million_elements_on_an_a2() -> None:
    a2 = PLATFORMS["ascend910b"]
    assert (a2.core_num, a2.ub_size) == (48, 196608)
    t = compute_tiling(1_000_000, a2.core_num, a2.ub_size, "f16", HSG)
    assert t.as_tuple() == (1_000_000, 20834, 4032, 48, TILING_KEYS["f16"])
    slices = [core_slice(t, b) for b in range(48)]
    assert {s.loop_count for s in slices} == {6}
    assert slices[-1].length == 1_000_000 - 47 * 20834 == 20802
    assert all(s.length == 20834 for s in slices[:-1])


@pytest.mark.parametrize(("ub_size", "ub_factor"), [
    (196608, 4032), (196352, 4032), (262144, 5440), (4096, 64), (4096 + 48 * 64 - 1, 64),
    (4096 + 48 * 64, 128), (MIB, 21824), (4 * MIB, 87360),
])
def test_ub_factor_figures(ub_size: int, ub_factor: int) -> None:
    for dtype in DTYPES:  # CANN's figure for every dtype (48 bytes per element covers the
        # widest), up to what one DataCopyPad moves (65535 bytes: 16320 f32, 32704 f16)
        assert compute_tiling(1000, 48, ub_size, dtype, HSG).ub_factor == min(
            ub_factor, DATA_COPY_PAD_ELEMENTS[dtype])


def test_tiling_keys() -> None:
    keys = {dtype: compute_tiling(100, 8, 196608, dtype, HSG).tiling_key for dtype in DTYPES}
    assert keys == {"f16": 0, "f32": 1, "bf16": 2}


@pytest.mark.parametrize(("core_num", "ub_size", "reason"), [
    (0, 196608, "coreNum is 0"),
    (48, 0, "ubSize is 0"),
    (0, 0, "coreNum is 0"),
    (48, 1024, "available UB size is invalid"),
    (48, 1000, "available UB size is invalid"),
    (48, 1025, "ubFactor is invalid"),
    (48, 2048, "ubFactor is invalid"),
    (48, 4095, "ubFactor is invalid"),
])
def test_refused_tilings(core_num: int, ub_size: int, reason: str) -> None:
    with pytest.raises(TilingError, match=f"tiling failed: {reason}$"):
        compute_tiling(1000, core_num, ub_size, "f16", HSG)


@pytest.mark.parametrize("dtype", DTYPES)
def test_empty_tensor_runs_one_idle_core(dtype: str) -> None:
    t = compute_tiling(0, 48, 196608, dtype, HSG)
    assert t.as_tuple() == (0, 0, 0, 1, TILING_KEYS[dtype])
    assert core_slice(t, 0).length == 0
    assert core_slice(t, 0).loop_count == 0


def test_one_element_uses_one_core() -> None:
    t = compute_tiling(1, 48, 196608, "bf16", HSG)
    assert t.as_tuple()[:4] == (1, 1, 4032, 1)
    assert core_slice(t, 0).length == 1
    assert core_slice(t, 0).loop_count == 1


# endregion
# region coverage properties


@dataclass(frozen=True)
class Run:
    """Elements [start, stop) covered by consecutive chunks of one core."""

    start: int
    stop: int


def chunk_runs(t: Tiling[int], block_idx: int) -> list[Run]:
    """The chunks of one core as at most two runs: the full chunks, then the last one.

    Chunk i covers [i*ubFactor, i*ubFactor + size(i)) of the slice, size(i) = min(ubFactor,
    len - i*ubFactor) is non-increasing in i, so if chunk L-2 is full all earlier ones are, and
    the full chunks are one contiguous run: three chunk_extent calls describe them all.
    """
    a = IntArith()
    s = core_slice(t, block_idx)
    if s.loop_count == 0:
        return []
    last_offset, last_size = chunk_extent(a, s.length, t.ub_factor, s.loop_count - 1)
    assert 0 < last_size <= t.ub_factor, "the last chunk is empty or longer than ubFactor"
    _, after_size = chunk_extent(a, s.length, t.ub_factor, s.loop_count)
    assert after_size <= 0, "loopCount leaves elements of the slice behind"
    runs = []
    if s.loop_count >= 2:
        first_offset, first_size = chunk_extent(a, s.length, t.ub_factor, 0)
        before_offset, before_size = chunk_extent(a, s.length, t.ub_factor, s.loop_count - 2)
        assert first_offset == 0 and first_size == before_size == t.ub_factor, (
            "only the last chunk of a core may be short"
        )
        assert before_offset + before_size == last_offset, "chunks leave a gap or overlap"
        runs.append(Run(s.offset, s.offset + last_offset))
    else:
        assert last_offset == 0
    runs.append(Run(s.offset + last_offset, s.offset + last_offset + last_size))
    return runs


def check_coverage(t: Tiling[int], total: int, core_num: int) -> None:
    """Every element in exactly one chunk of exactly one core; no core past the end."""
    used = t.used_core_num
    assert 1 <= used <= core_num
    slices = [core_slice(t, b) for b in range(core_num + 1)]
    if total == 0:
        assert all(s.length == 0 and s.loop_count == 0 for s in slices)
        return
    assert all(s.length == t.block_factor for s in slices[: used - 1]), "a short core not last"
    assert 0 < slices[used - 1].length <= t.block_factor
    assert all(s.length == 0 and s.offset >= total for s in slices[used:]), "a core past the end"
    runs = [run for b in range(used) for run in chunk_runs(t, b)]
    covered = 0
    for run in runs:
        assert run.start == covered, f"elements [{covered}, {run.start}) covered 0 or 2 times"
        assert run.stop > run.start
        covered = run.stop
    assert covered == total


@settings(max_examples=400, deadline=None)
@given(
    total=st.integers(0, 10**9) | st.integers(0, 5000),
    core_num=st.integers(1, 128),
    ub_size=st.integers(4096, 4 * MIB),
    dtype=st.sampled_from(DTYPES),
)
def test_every_element_covered_exactly_once(total: int, core_num: int, ub_size: int,
                                            dtype: str) -> None:
    t = compute_tiling(total, core_num, ub_size, dtype, HSG)
    assert t.total_num == total
    assert t.tiling_key == TILING_KEYS[dtype]
    if total:
        assert t.ub_factor == expected_ub_factor(ub_size, dtype)
        assert t.ub_factor > 0 and t.ub_factor % 64 == 0
        assert t.block_factor == math.ceil(total / core_num)
    check_coverage(t, total, core_num)


# endregion
# region the tiling and kernel IR, evaluated


class AssertFailed(Exception):
    """A cf.assert of the IR failed; the message is the assert's."""


CMPI = {0: lambda a, b: a == b, 1: lambda a, b: a != b, 2: lambda a, b: a < b,
        3: lambda a, b: a <= b, 4: lambda a, b: a > b, 5: lambda a, b: a >= b}
"""arith.cmpi's signed predicates by number (eq ne slt sle sgt sge)."""


def _ceil_div(a: int, b: int) -> int:
    q, r = divmod(a, b)
    return q + (1 if r else 0)


BINARY: dict[str, Callable[[int, int], int]] = {
    "arith.addi": lambda a, b: a + b,
    "arith.subi": lambda a, b: a - b,
    "arith.muli": lambda a, b: a * b,
    "arith.floordivsi": lambda a, b: a // b,
    "arith.ceildivsi": _ceil_div,
    "arith.maxsi": max,
    "arith.minsi": min,
    "arith.andi": lambda a, b: a and b,
    "arith.ori": lambda a, b: a or b,
}


@dataclass
class Evaluator:
    """Runs index arithmetic, cf.assert, scf.if/for and calls of one module.

    Host queries and device intrinsics answer from the fields; hsg.launch and
    hsg.hard_swish_grad_chunk are recorded instead of run.
    """

    module: ModuleOp
    core_num: int = 0
    ub_size: int = 0
    num_elements: int = 0
    block_idx: int = 0
    launches: list[tuple[int, ...]] = field(default_factory=list)
    chunks: list[tuple[int, ...]] = field(default_factory=list)
    env: dict[SSAValue, object] = field(default_factory=dict)

    def call(self, name: str, args: list[object]) -> list[object]:
        (fn,) = [o for o in self.module.ops
                 if isinstance(o, func.FuncOp) and o.sym_name.data == name]
        return self.block(fn.body.block, args)

    def block(self, block: Block, args: list[object]) -> list[object]:
        """Run a block; values of enclosing blocks stay visible (nested regions use them)."""
        self.env.update(zip(block.args, args, strict=True))
        for op in block.ops:
            result = self.op(op, [self.env[v] for v in op.operands])
            if op.name in ("func.return", "scf.yield"):
                return result
            self.env.update(zip(op.results, result, strict=True))
        return []

    def op(self, op: Operation, args: list[object]) -> list[object]:
        name = op.name
        if name in BINARY:
            return [BINARY[name](*args)]
        if name == "arith.constant":
            value = op.properties["value"]
            assert isinstance(value, IntegerAttr)
            return [value.value.data]
        if name == "arith.cmpi":
            predicate = op.properties["predicate"]
            assert isinstance(predicate, IntegerAttr)
            return [CMPI[predicate.value.data](*args)]
        if name == "arith.select":
            return [args[1] if args[0] else args[2]]
        if name == "cf.assert":
            if not args[0]:
                raise AssertFailed(op.properties["msg"].data)
            return []
        if name in ("func.return", "scf.yield"):
            return list(args)
        if name == "func.call":
            return self.call(op.properties["callee"].root_reference.data, args)
        if name == "scf.if":
            region = op.regions[0] if args[0] else op.regions[1]
            return self.block(region.block, []) if region.blocks else []
        if name == "scf.for":
            lb, ub, step = args[:3]
            assert isinstance(lb, int) and isinstance(ub, int) and isinstance(step, int)
            for i in range(lb, ub, step):
                self.block(op.regions[0].block, [i])
            return []
        return self.hsg_op(op, args)

    def hsg_op(self, op: Operation, args: list[object]) -> list[object]:
        name = op.name
        if name == "hsg.get_core_num_aiv":
            return [self.core_num]
        if name == "hsg.get_ub_size":
            return [self.ub_size]
        if name == "hsg.num_elements":
            return [self.num_elements]
        if name == "ascend.get_block_idx":
            return [self.block_idx]
        if name == "hsg.launch":
            self.launches.append((args[0], *args[3:]))
            return [None]
        if name == "hsg.elementwise_chunk":
            self.chunks.append(tuple(args[3:]))
            return []
        raise NotImplementedError(f"the test evaluator has no rule for {name}")


def lower(tmp_path: Path, text: str, pipeline: str) -> ModuleOp:
    """Run hswc-opt in-process on `text` and parse what it wrote."""
    source, out = tmp_path / "in.mlir", tmp_path / "out.mlir"
    source.write_text(text)
    assert hswc_opt_main([str(source), "-p", pipeline, "-o", str(out)]) == 0
    ctx = Context()
    for dialect_name, factory in DIALECTS.items():
        ctx.register_dialect(dialect_name, factory)
    return Parser(ctx, out.read_text(), str(out)).parse_module()


DYNAMIC_SOURCE = "\n".join(
    f"func.func @op_{dt}(%a: tensor<4x?x{dt}>) -> tensor<4x?x{dt}> {{\n"
    f"  %y = hsg.hard_swish_grad %a, %a : tensor<4x?x{dt}>\n"
    f"  func.return %y : tensor<4x?x{dt}>\n}}"
    for dt in DTYPES
)


class Lowered:
    """A lowered module with a short repr: hypothesis prints the arguments of a failing example,
    and a ModuleOp's repr is the whole object graph (minutes of pretty-printing)."""

    def __init__(self, module: ModuleOp):
        self.module = module

    def __repr__(self) -> str:
        return "<module lowered by hsg-tile-on-cores,hsg-block-into-ub>"


@pytest.fixture(scope="module")
def blocked_module(tmp_path_factory: pytest.TempPathFactory) -> Lowered:
    """Three dynamic-shape operators (f16, bf16, f32) after hsg-tile-on-cores,hsg-block-into-ub."""
    return Lowered(lower(tmp_path_factory.mktemp("ir"), DYNAMIC_SOURCE,
                         "hsg-decompose,hsg-tile-on-cores,hsg-block-into-ub"))


def tiling_or_failure(total: int, core_num: int, ub_size: int, dtype: str) -> tuple[int, ...] | str:
    try:
        return compute_tiling(total, core_num, ub_size, dtype, HSG).as_tuple()
    except TilingError as error:
        return str(error).removeprefix("tiling failed: ")


@settings(max_examples=300, deadline=None)
@given(
    total=st.integers(0, 10**9),
    core_num=st.integers(0, 128),
    ub_size=st.integers(0, MIB) | st.integers(0, 5000),
    dtype=st.sampled_from(DTYPES),
)
def test_ir_tiling_function_agrees_with_int_arith(blocked_module: Lowered, total: int,
                                                  core_num: int, ub_size: int,
                                                  dtype: str) -> None:
    evaluator = Evaluator(blocked_module.module)
    try:
        got: tuple[int, ...] | str = tuple(
            evaluator.call(f"hard_swish_grad_tiling_{dtype}", [total, core_num, ub_size])
        )
    except AssertFailed as failed:
        got = str(failed)
    assert got == tiling_or_failure(total, core_num, ub_size, dtype)


@settings(max_examples=60, deadline=None)
@given(
    rows=st.integers(0, 50_000),
    core_num=st.integers(1, 64),
    ub_size=st.integers(4096, 64 * 1024),
    dtype=st.sampled_from(DTYPES),
)
def test_ir_host_and_kernel_cover_every_element_once(blocked_module: Lowered, rows: int,
                                                     core_num: int, ub_size: int,
                                                     dtype: str) -> None:
    """The host function launches what compute_tiling says; the kernel's chunks, run on every
    launched core, tile [0, totalNum) exactly, each core within its own slice."""
    total = 4 * rows  # tensor<4x?xT> with ? = rows
    host = Evaluator(blocked_module.module, core_num=core_num, ub_size=ub_size, num_elements=total)
    host.call(f"op_{dtype}", [None])
    t = compute_tiling(total, core_num, ub_size, dtype, HSG)
    ((blocks, *tiling),) = host.launches
    assert (blocks, *tiling) == (t.used_core_num, t.total_num, t.block_factor, t.ub_factor)

    covered = 0
    for b in range(blocks):
        kernel = Evaluator(blocked_module.module, block_idx=b)
        kernel.call(f"hard_swish_grad_kernel_{dtype}", [None, None, None, *tiling])
        expected = core_slice(t, b)
        assert len(kernel.chunks) == expected.loop_count
        for i, (slice_offset, slice_size, chunk_offset, size, ub_factor) in enumerate(
            kernel.chunks
        ):
            assert (slice_offset, slice_size) == (expected.offset, expected.length)
            assert ub_factor == t.ub_factor
            assert 0 < size <= ub_factor
            assert size == ub_factor or i == len(kernel.chunks) - 1, "a short chunk not last"
            assert slice_offset + chunk_offset == covered, "a gap or an overlap"
            assert chunk_offset + size <= slice_size, "a chunk past its core's slice"
            covered += size
    assert covered == total


@pytest.mark.parametrize(("shape", "expected"), [
    ("", (1, 1, 1, 4032)),
    ("7x3", (21, 1, 21, 4032)),
    ("0x5", (0, 0, 1, 0)),
    ("1000x1000", (1_000_000, 20834, 48, 4032)),
])
def test_folded_launch_on_ascend910b(tmp_path: Path, shape: str,
                                     expected: tuple[int, int, int, int]) -> None:
    """With a static shape and a SoC the launch gets constants; a scalar counts as one element."""
    tensor = f"tensor<{shape + 'x' if shape else ''}f16>"
    text = (f"func.func @f(%a: {tensor}) -> {tensor} {{\n"
            f"  %y = hsg.hard_swish_grad %a, %a : {tensor}\n  func.return %y : {tensor}\n}}")
    module = lower(tmp_path, text, "hsg-decompose,hsg-tile-on-cores{soc=ascend910b}")
    host = Evaluator(module)
    host.call("f", [None])
    ((blocks, total, block_factor, ub_factor),) = host.launches
    assert (total, block_factor, blocks, ub_factor) == expected
    launch = next(op for op in module.walk() if op.name == "hsg.launch")
    assert all(o.owner.name == "arith.constant" for o in launch.operands
               if not str(o.type).startswith("tensor"))


# endregion
