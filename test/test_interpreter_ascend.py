"""The modelled vector core: UB arena, TPipe/TQue bookkeeping, lock-step batches, events.

Expectations are hand-worked from SPEC.md section 6 (InitBuffer rounds to 32 bytes, queues hold
`depth` buffers, FIFO EnQue/DeQue) or are the reference model's results.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from hswc.dialects.ascend import TPosition
from hswc.interpreter.batch import GARBAGE, CoreBatch
from hswc.interpreter.core_state import KernelState
from hswc.interpreter.dtypes import F32
from hswc.interpreter.on_cores import ub_view
from hswc.interpreter.tensors import Handle, LocalTensor, RuleError
from hswc.interpreter.trace import Trace
from hswc.interpreter.values import Rows
from hswc.reference import compare_bitwise, hard_swish_grad_cann
from hswc.runner import KernelError, compile_text

# region KernelState


def que(ident: int, depth: int = 1, name: str = "q") -> Handle:
    return Handle("que", ident, name, TPosition.VECIN, depth)


def test_init_buffer_rounds_to_32_bytes_and_packs_buffers() -> None:
    state = KernelState(1024)
    state.init_buffer(que(1, depth=2), 2, 33)
    state.init_buffer(Handle("buf", 2, "b", TPosition.VECCALC), 1, 1)
    assert [(p.addr, p.slot_bytes) for p in state.placements.values()] == [(0, 64), (128, 32)]
    assert state.used == 160


def test_overflow_lists_the_buffers_so_far() -> None:
    state = KernelState(256)
    state.init_buffer(que(1, name="in"), 1, 200)
    with pytest.raises(RuleError, match=re.escape(
            "UB overflow: InitBuffer of 1 x 40 bytes (rounded up to 64) for TQue %out needs "
            "bytes 224..288 but the UB holds 256 bytes; buffers so far (224 B): TQue %in 1 x "
            "224 B at 0")):
        state.init_buffer(que(2, name="out"), 1, 40)


def test_depth_two_queue_round_robin_and_fifo() -> None:
    state = KernelState(4096)
    q = que(1, depth=2)
    state.init_buffer(q, 2, 256)
    a, b = state.alloc(q, F32), state.alloc(q, F32)
    assert (a.addr, b.addr) == (0, 256)
    with pytest.raises(RuleError, match=r"AllocTensor on a full queue: all 2 buffer\(s\)"):
        state.alloc(q, F32)
    state.enque(q, b)
    state.enque(q, a)
    assert state.deque(q, F32).addr == 256  # first in, first out
    first = state.deque(q, F32)
    with pytest.raises(RuleError, match="DeQue on an empty queue"):
        state.deque(q, F32)
    state.free(q, first)
    assert state.alloc(q, F32).addr == 0  # the free buffer, round robin from the cursor


def test_freed_tensors_and_wrong_queues_are_refused() -> None:
    state = KernelState(4096)
    q, other = que(1), que(2)
    state.init_buffer(q, 1, 64)
    state.init_buffer(other, 1, 64)
    t = state.alloc(q, F32)
    with pytest.raises(RuleError, match="EnQue of a tensor that was not allocated from TQue"):
        state.enque(other, t)
    state.enque(q, t)
    with pytest.raises(RuleError, match="FreeTensor of a tensor still enqueued"):
        state.free(q, t)
    state.free(q, state.deque(q, F32))
    with pytest.raises(RuleError, match="use of a freed tensor"):
        state.check_live(t, "Muls")
    state.alloc(q, F32)  # the same buffer again: the old handle stays dead
    with pytest.raises(RuleError, match="use of a freed tensor"):
        state.free(q, t)


def test_tbuf_before_init_buffer() -> None:
    with pytest.raises(RuleError, match="TBuf %b has no UB: InitBuffer was not called"):
        KernelState(1024).tbuf_tensor(Handle("buf", 7, "b", TPosition.VECCALC), F32)


# endregion
# region the batch


def test_fresh_ub_holds_garbage_not_zeros() -> None:
    batch = CoreBatch(np.arange(3), 3, 1000)
    assert batch.arena.shape == (3, 1000)
    assert np.array_equal(batch.arena[1, :256], GARBAGE)
    assert np.count_nonzero(batch.arena) > 990 * 3


def test_state_groups_split_when_some_cores_change_state() -> None:
    batch = CoreBatch(np.arange(4), 4, 1024)
    some = Rows(np.array([True, False, True, False]))
    (rows, state), = batch.states(some, mutate=True)
    state.init_buffer(que(1), 1, 64)
    assert rows.index.tolist() == [0, 2] and len(batch.groups) == 2
    everyone = [(r.index.tolist(), s.used) for r, s in batch.states(Rows.all(4), False)]
    assert sorted(everyone) == [([0, 2], 64), ([1, 3], 0)]


def test_scattered_rows_are_written_back() -> None:
    batch = CoreBatch(np.arange(4), 4, 256)
    rows = Rows(np.array([True, False, False, True]))
    ub = batch.ub_rows(rows)
    ub_view(ub, LocalTensor(F32, TPosition.VECCALC, 32, 64, 0))[:] = 2.5
    batch.write_back(rows, ub)
    typed = batch.arena[:, 32:96].view(F32)
    assert (typed[[0, 3]] == 2.5).all() and not (typed[[1, 2]] == 2.5).any()


def test_misaligned_ub_address_is_refused() -> None:
    with pytest.raises(RuleError, match="UB address 16 is not 32-byte aligned"):
        ub_view(np.zeros((1, 256), np.uint8), LocalTensor(F32, TPosition.VECIN, 16, 64, 0))


# endregion
# region kernels

PARITY = """
func.func @host(%g: tensor<512xf32>, %x: tensor<512xf32>) -> tensor<512xf32> {
  %c4 = arith.constant 4 : index
  %y = hsg.launch @parity blocks %c4 (%g, %x) tiling()
       : tensor<512xf32>, tensor<512xf32> -> tensor<512xf32>
  func.return %y : tensor<512xf32>
}
func.func @parity(%g: memref<?xf32>, %x: memref<?xf32>, %y: memref<?xf32>) attributes {hsg.kernel} {
  %b = ascend.get_block_idx
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c512 = arith.constant 512 : index
  %odd = arith.remsi %b, %c2 : index
  %m = arith.addi %odd, %c1 : index
  %len = arith.muli %m, %c64 : index
  %off = arith.muli %b, %c128 : index
  %y_gm = ascend.set_global_buffer %y[%off], %c128 : memref<?xf32> -> !ascend.global_tensor<f32>
  %pipe = ascend.tpipe
  %q = ascend.tque : !ascend.tque<vecout, 1>
  ascend.init_buffer %pipe, %q, num 1, %c512 : !ascend.tque<vecout, 1>
  %t = ascend.alloc_tensor %q : !ascend.tque<vecout, 1> -> !ascend.local_tensor<f32, vecout>
  ascend.duplicate %t, 5.000000e+00 : f32, %len : !ascend.local_tensor<f32, vecout>
  ascend.enque %q, %t : !ascend.tque<vecout, 1>, !ascend.local_tensor<f32, vecout>
  %u = ascend.deque %q : !ascend.tque<vecout, 1> -> !ascend.local_tensor<f32, vecout>
  ascend.data_copy_pad %y_gm, %u, %c512
       : !ascend.global_tensor<f32>, !ascend.local_tensor<f32, vecout>
  ascend.free_tensor %q, %u : !ascend.tque<vecout, 1>, !ascend.local_tensor<f32, vecout>
  func.return
}
"""


def test_cores_that_disagree_run_as_separate_parts() -> None:
    """Even cores fill 64 lanes, odd cores 128 (rows 0, 2 and 1, 3 are two parts); the lanes a
    core did not fill still hold the fresh UB's garbage when they are copied out."""
    trace = Trace()
    kernel = compile_text(PARITY, name="parity.mlir")
    zeros = np.zeros(512, np.float32)
    y = kernel.run(zeros, zeros, on_event=trace).outputs[0].reshape(4, 128)
    garbage = np.tile(GARBAGE, 4)[:512].view(np.float32)
    for core in range(4):
        filled = 128 if core % 2 else 64
        assert (y[core, :filled] == 5.0).all()
        np.testing.assert_array_equal(y[core, filled:].view(np.uint32),
                                      garbage[filled:128].view(np.uint32))
    duplicates = [(e.cores, e.elements) for e in trace.events if e.name == "ascend.duplicate"]
    assert sorted(duplicates) == [((0, 2), 64), ((1, 3), 128)]


DIVERGED = """
func.func @host(%g: tensor<256xf32>, %x: tensor<256xf32>) -> tensor<256xf32> {
  %c4 = arith.constant 4 : index
  %y = hsg.launch @diverged blocks %c4 (%g, %x) tiling()
       : tensor<256xf32>, tensor<256xf32> -> tensor<256xf32>
  func.return %y : tensor<256xf32>
}
func.func @diverged(%g: memref<?xf32>, %x: memref<?xf32>, %y: memref<?xf32>)
    attributes {hsg.kernel} {
  %b = ascend.get_block_idx
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %off = arith.muli %b, %c64 : index
  %y_gm = ascend.set_global_buffer %y[%off], %c64 : memref<?xf32> -> !ascend.global_tensor<f32>
  %pipe = ascend.tpipe
  %q = ascend.tque : !ascend.tque<vecout, 2>
  ascend.init_buffer %pipe, %q, num 2, %c256 : !ascend.tque<vecout, 2>
  %odd = arith.remsi %b, %c2 : index
  %skip = arith.cmpi ne, %odd, %c0 : index
  scf.if %skip {
    %t = ascend.alloc_tensor %q : !ascend.tque<vecout, 2> -> !ascend.local_tensor<f32, vecout>
    ascend.free_tensor %q, %t : !ascend.tque<vecout, 2>, !ascend.local_tensor<f32, vecout>
  }
  %u = ascend.alloc_tensor %q : !ascend.tque<vecout, 2> -> !ascend.local_tensor<f32, vecout>
  ascend.duplicate %u, 2.500000e+00 : f32, %c64 : !ascend.local_tensor<f32, vecout>
  ascend.enque %q, %u : !ascend.tque<vecout, 2>, !ascend.local_tensor<f32, vecout>
  %v = ascend.deque %q : !ascend.tque<vecout, 2> -> !ascend.local_tensor<f32, vecout>
  ascend.data_copy_pad %y_gm, %v, %c256
       : !ascend.global_tensor<f32>, !ascend.local_tensor<f32, vecout>
  ascend.free_tensor %q, %v : !ascend.tque<vecout, 2>, !ascend.local_tensor<f32, vecout>
  func.return
}
"""


def test_cores_whose_queues_diverged_use_their_own_buffers() -> None:
    """Odd cores take and give back one buffer of a depth-2 queue first, so their next
    AllocTensor hands out buffer 1 (round robin) where even cores get buffer 0."""
    zeros = np.zeros(256, np.float32)
    trace = Trace()
    y = compile_text(DIVERGED, name="diverged.mlir").run(zeros, zeros, on_event=trace)
    assert (y.outputs[0] == 2.5).all()
    fills = sorted(e.cores for e in trace.events if e.name == "ascend.duplicate")
    assert fills == [(0, 2), (1, 3)]  # two parts: the tensors differ in address


SOURCE = """func.func @hsg(%grad: tensor<?xf16>, %x: tensor<?xf16>) -> tensor<?xf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<?xf16>
  func.return %y : tensor<?xf16>
}
"""


def test_events_count_every_call_on_every_core() -> None:
    """301 elements on 2 cores, 128 per pass: core 0 runs chunks of 128 and 23, core 1 of 128
    and 22, lock-step in the first pass and as two parts in the second."""
    kernel = compile_text(SOURCE, core_num=2, ub_size=8192)
    grad = np.linspace(-4, 4, 301).astype(np.float16)
    trace = Trace()
    kernel.run(grad, grad, on_event=trace)
    counts = trace.per_op()
    assert counts["ascend.alloc_tensor"] == 3 * 4 and counts["ascend.free_tensor"] == 3 * 4
    assert counts["ascend.init_buffer"] == 12 * 2  # 3 queues and 9 TBufs on each core
    assert trace.bytes_moved("ascend.data_copy_pad") == 3 * 301 * 2
    muls = sorted((e.cores, e.elements) for e in trace.events if e.name == "ascend.muls")
    assert muls == [((0, 1), 64), ((0, 1), 128)]  # roundup(23, 64) == roundup(22, 64)
    casts = sorted((e.cores, e.elements) for e in trace.events if e.name == "ascend.cast")
    assert casts == [((0,), 23)] * 3 + [((0, 1), 128)] * 3 + [((1,), 22)] * 3


def test_a_kernel_reading_uninitialised_ub_is_caught() -> None:
    """Without the Duplicate that zeroes its buffer, Select takes garbage for x <= -3; a zeroed
    UB would have hidden that."""
    import io

    from xdsl.printer import Printer

    text = io.StringIO()
    Printer(stream=text).print_op(compile_text(SOURCE).module)
    broken, count = re.subn(r"^\s*ascend\.duplicate %zero_local, .*\n", "", text.getvalue(),
                            flags=re.MULTILINE)
    assert count == 1
    grad = np.ones(200, np.float16)
    x = np.linspace(-6, 6, 200).astype(np.float16)
    y = compile_text(broken)(grad, x)
    expected = hard_swish_grad_cann(grad, x)
    assert not compare_bitwise(y, expected).equal
    differ = y.view(np.uint16) != expected.view(np.uint16)
    assert differ.any() and not differ[x > -3].any()


def test_more_blocks_than_cores_run_in_waves() -> None:
    folded = compile_text(SOURCE.replace("?", "5000"), fold=True)  # 48 blocks
    grad, x = np.ones(5000, np.float16), np.linspace(-5, 5, 5000).astype(np.float16)
    result = folded.with_platform(core_num=5).run(grad, x)
    assert compare_bitwise(result.outputs[0], hard_swish_grad_cann(grad, x)).equal
    assert result.tilings[0]["usedCoreNum"] == 48


def test_ops_outside_a_kernel_are_refused() -> None:
    text = ("func.func @f(%a: tensor<4xf16>) -> tensor<4xf16> {\n"
            "  %b = ascend.get_block_idx\n  func.return %a : tensor<4xf16>\n}\n")
    with pytest.raises(KernelError, match=r"'ascend.get_block_idx' runs on a vector core"):
        compile_text(text, name="host.mlir")(np.zeros(4, np.float16))


# endregion
