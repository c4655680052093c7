"""Fault injection: lowered IR broken in one place is refused with that fault's own message.

Each case takes the real output of --lower-to-ascend, changes one line (a mutation that must
apply, or the test fails), runs it and expects one error that names the op, where it is
(file:line:col of the lowered text) and the rule it broke.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable

import numpy as np
import pytest
from xdsl.printer import Printer

from hswc.runner import CompileError, KernelError, compile_text

SOURCE = """func.func @hsg(%grad: tensor<?xf16>, %x: tensor<?xf16>) -> tensor<?xf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<?xf16>
  func.return %y : tensor<?xf16>
}
"""
UB_SIZE = 8192
"""128 elements per pass: 301 elements on 2 cores give core 0 chunks of 128 and 23 elements,
core 1 chunks of 128 and 22."""


def lowered_text() -> str:
    stream = io.StringIO()
    Printer(stream=stream).print_op(compile_text(SOURCE, name="hsg.mlir").module)
    return stream.getvalue()


LOWERED = lowered_text()


def sub(pattern: str, replacement: str) -> Callable[[str], str]:
    """A mutation: replace the one match of `pattern` (a regex over the lowered text)."""

    def mutate(text: str) -> str:
        new, count = re.subn(pattern, replacement, text, count=1, flags=re.MULTILINE)
        assert count == 1, f"mutation {pattern!r} did not apply to the lowered IR"
        return new

    return mutate


def run_mutated(mutate: Callable[[str], str], n: int = 301, core_num: int = 2) -> str:
    """The error message of running the mutated module (fails the test if it runs fine)."""
    kernel = compile_text(mutate(LOWERED), name="lowered.mlir", core_num=core_num,
                          ub_size=UB_SIZE)
    grad = np.linspace(-4, 4, n).astype(np.float16)
    with pytest.raises(KernelError) as info:
        kernel(grad, grad)
    return str(info.value)


def test_unmutated_lowered_ir_runs() -> None:
    """The baseline the faults below break: it runs, and gives the reference's result."""
    from hswc.reference import compare_bitwise, hard_swish_grad_cann

    kernel = compile_text(LOWERED, name="lowered.mlir", core_num=2, ub_size=UB_SIZE)
    grad = np.linspace(-4, 4, 301).astype(np.float16)
    assert compare_bitwise(kernel(grad, grad), hard_swish_grad_cann(grad, grad)).equal


def _move_free_before_cast(text: str) -> str:
    """FreeTensor of x right after its DeQue: the Cast that follows reads a freed buffer."""
    lines = text.splitlines(keepends=True)
    free = next(i for i, ln in enumerate(lines) if "ascend.free_tensor %input_queue_x" in ln)
    deque = next(i for i, ln in enumerate(lines) if re.search(r"%x_local_1 = ascend\.deque", ln))
    moved = lines.pop(free)
    lines.insert(deque + 1, moved)
    return "".join(lines)


LOCATED = r"lowered\.mlir:\d+:\d+: error: "

FAULTS: dict[str, tuple[Callable[[str], str], str]] = {
    "over-large buffer": (
        sub(r"^(\s*)(ascend\.init_buffer %pipe, %slope_buf, )%float_bytes",
            r"\1%huge = arith.constant 100000 : index\n\1\2%huge"),
        r"'ascend.init_buffer' UB overflow: InitBuffer of 1 x 100000 bytes for TBuf "
        r"%slope_buf needs bytes \d+\.\.\d+ but the UB holds 8192 bytes; buffers so far "
        r"\(\d+ B\): TQue %input_queue_x 1 x 256 B at 0, ",
    ),
    "misaligned DataCopy length": (
        sub(r"ascend\.data_copy_pad (%x_local), (%x_gm_at), %copy_bytes",
            r"ascend.data_copy \1, \2, %current_num"),
        r"'ascend.data_copy' DataCopy\(GM->UB\): count 23 x 2 bytes = 46 bytes is not a "
        r"multiple of 32 bytes",
    ),
    "DataCopyPad length not whole elements": (
        sub(r"(ascend\.data_copy_pad %grad_local, %grad_gm_at, )%copy_bytes",
            r"\1%current_num"),
        r"'ascend.data_copy_pad' DataCopyPad\(GM->UB\): length 23 bytes is not a "
        r"multiple of the 2-byte element \(core 0\)",
    ),
    "missing FreeTensor": (
        sub(r"^\s*ascend\.free_tensor %input_queue_x, .*\n", ""),
        r"'ascend.alloc_tensor' AllocTensor on a full queue: all 1 buffer\(s\) of TQue "
        r"%input_queue_x are in use",
    ),
    "DeQue before EnQue": (
        sub(r"^\s*ascend\.enque %input_queue_grad, .*\n", ""),
        r"'ascend.deque' DeQue on an empty queue: nothing was EnQue'd to TQue "
        r"%input_queue_grad",
    ),
    "out-of-range GM offset": (
        sub(r"(ascend\.global_at %x_gm\[)%chunk_offset\]", r"\1%block_length]"),
        r"'ascend.data_copy_pad' GM read outside the GlobalTensor on core 0: elements "
        r"\[151, 279\) of a 301-element tensor, but SetGlobalBuffer covers \[0, 151\)",
    ),
    "Compare count not whole 256-byte blocks": (
        sub(r"(ascend\.compare %greater_mask, %x_fp32, %lower_local_1, gt, )%compute_num",
            r"\1%current_num"),
        r"'ascend.compare' Compare: count 23 x 4 bytes = 92 bytes is not a multiple of 256",
    ),
    "use of a freed tensor": (
        _move_free_before_cast,
        r"'ascend.cast' Cast: use of a freed tensor \(buffer 0 of TQue %input_queue_x "
        r"was given back with FreeTensor\)",
    ),
    "EnQue of another queue's tensor": (
        sub(r"ascend\.enque %input_queue_x, %x_local :", "ascend.enque %input_queue_x, "
            "%grad_local :"),
        r"'ascend.enque' EnQue of a tensor that was not allocated from TQue %input_queue_x",
    ),
    "InitBuffer twice": (
        sub(r"^(\s*)(ascend\.init_buffer %pipe, %one_buf, .*\n)", r"\1\2\1\2"),
        r"'ascend.init_buffer' InitBuffer: TBuf %one_buf already has its buffers",
    ),
}




@pytest.mark.parametrize("fault", FAULTS)
def test_fault_is_refused_with_its_message(fault: str) -> None:
    mutate, expected = FAULTS[fault]
    message = run_mutated(mutate)
    assert re.search(LOCATED + expected, message), message
    assert "Traceback" not in message


def test_every_fault_has_its_own_message() -> None:
    messages = {fault: run_mutated(mutate).split("error: ", 1)[1][:40]
                for fault, (mutate, _) in FAULTS.items()}
    assert len(set(messages.values())) == len(messages), messages


def test_position_that_does_not_fit_the_op_is_refused_by_the_verifier() -> None:
    """A copy from GM into a VECCALC scratch tensor: the dialect's verifier refuses it."""
    lowered = io.StringIO()
    Printer(stream=lowered).print_op(compile_text(SOURCE.replace("f16", "f32")).module)
    mutate = sub(r"ascend\.data_copy_pad %x_local, (%x_gm_at, %copy_bytes) : "
                 r"!ascend\.local_tensor<f32, vecin>",
                 r"ascend.data_copy_pad %lower_local, \1 : !ascend.local_tensor<f32, veccalc>")
    with pytest.raises(CompileError, match=r"lowered\.mlir:\d+:\d+: error: "
                                           r"'ascend\.data_copy_pad' a copy from GM must land "
                                           r"in a VECIN tensor"):
        compile_text(mutate(lowered.getvalue()), name="lowered.mlir")


def test_ub_overflow_from_a_small_platform() -> None:
    """IR folded for a 196608-byte UB, run on a core with 65536 bytes."""
    folded = compile_text(SOURCE.replace("?", "5000"), name="folded.mlir", fold=True)
    grad = np.zeros(5000, np.float16)
    with pytest.raises(KernelError, match=r"folded\.mlir:2:\d+: error: 'ascend\.init_buffer' "
                                          r"UB overflow: .* the UB holds 65536 bytes"):
        folded.with_platform(ub_size=65536)(grad, grad)
