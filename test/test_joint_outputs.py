"""Joint outputs through the pipeline (hswc.passes.joint_outputs, hswc.output_windows): a gated
gradient's two halves, which hswc.ops.gated_ops inserts into dx, become one kernel writing dx
as its one GM output at each half's window, in DataCopyPad row runs. The values are those of
the linalg level, where the generics run on the host and the inserts join them (no kernel, an
independent path), bit for bit at every kernel level; a window the copy-out cannot write in
whole 32-byte blocks leaves the inserts on the host, with the same values."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, i64

from hswc.output_windows import OUTPUT_WINDOWS_ATTR
from hswc.pipeline import parse_text
from hswc.runner import CompileError, compile_module, compile_text

TEXT = """
func.func @f(%g: tensor<{half}x{t}>, %x: tensor<{full}x{t}>) -> tensor<{full}x{t}> {{
  %dx = {op} %g, %x {{dim = {dim} : i64}} : tensor<{half}x{t}>, tensor<{full}x{t}>
  return %dx : tensor<{full}x{t}>
}}
"""
NUMPY = {"f32": np.float32, "f16": np.float16}


def _text(op: str, full: tuple[int, ...], dim: int, t: str) -> str:
    half = list(full)
    half[dim] //= 2
    return TEXT.format(op=op, t=t, dim=dim, full="x".join(map(str, full)),
                       half="x".join(map(str, half)))


def _inputs(full: tuple[int, ...], dim: int, t: str) -> list[np.ndarray]:
    rng = np.random.default_rng(37)
    half = list(full)
    half[dim] //= 2
    return [(2 * rng.standard_normal(half)).astype(NUMPY[t]),
            (2 * rng.standard_normal(full)).astype(NUMPY[t])]


@pytest.mark.parametrize(("op", "full", "dim", "t"), [
    ("hsg.glu_grad", (4, 128), -1, "f32"),
    ("hsg.swi_glu_grad", (6, 64), 1, "f16"),
    ("hsg.ge_glu_grad", (8, 48), 0, "f32"),
    ("hsg.glu_grad", (3, 2, 16), 1, "f16"),
])
def test_one_kernel_writes_dx_bit_equal_at_every_level(op: str, full: tuple[int, ...],
                                                       dim: int, t: str) -> None:
    text = _text(op, full, dim, t)
    inputs = _inputs(full, dim, t)
    tiled = str(compile_text(text, level="tiled").module)
    assert tiled.count("hsg.launch") == 1 and "tensor.insert_slice" not in tiled
    assert f"-> tensor<{'x'.join(map(str, full))}x{t}>" in tiled
    assert OUTPUT_WINDOWS_ATTR in tiled
    expected = compile_text(text, level="linalg").run(*inputs).outputs[0]
    for level in ("tiled", "blocked", "ascend"):
        got = compile_text(text, level=level, core_num=5).run(*inputs).outputs[0]
        assert got.shape == expected.shape
        assert np.array_equal(got.view(np.uint8), expected.view(np.uint8)), level


def test_a_window_of_no_whole_blocks_stays_on_the_host() -> None:
    """Halves of 20 f32 (80 bytes, not whole 32-byte blocks): two outputs, joined by the
    host's inserts, with the same values."""
    text = _text("hsg.glu_grad", (4, 40), -1, "f32")
    inputs = _inputs((4, 40), -1, "f32")
    tiled = str(compile_text(text, level="tiled").module)
    assert tiled.count("tensor.insert_slice") == 2 and OUTPUT_WINDOWS_ATTR not in tiled
    expected = compile_text(text, level="linalg").run(*inputs).outputs[0]
    got = compile_text(text, level="ascend").run(*inputs).outputs[0]
    assert np.array_equal(got.view(np.uint8), expected.view(np.uint8))


def test_the_ascend_kernel_copies_each_half_out_in_row_runs() -> None:
    lowered = str(compile_text(_text("hsg.glu_grad", (4, 128), -1, "f32"),
                               level="ascend").module)
    assert lowered.count("output window: row runs of 64 f32, one DataCopyPad UB -> GM per "
                         "run") == 2


def test_a_launch_of_a_result_no_window_holds_is_refused() -> None:
    """The launch's result must hold what the kernel writes: a joint tensor of 512 elements,
    not 4x100."""
    module = compile_text(_text("hsg.glu_grad", (4, 128), -1, "f32"), level="tiled").module
    text = str(module).replace("-> tensor<4x128xf32>\n", "-> tensor<4x100xf32>\n", 1) \
        .replace("func.func @f(%g: tensor<4x64xf32>, %x: tensor<4x128xf32>) -> "
                 "tensor<4x128xf32>", "func.func @f(%g: tensor<4x64xf32>, %x: "
                 "tensor<4x128xf32>) -> tensor<4x100xf32>") \
        .replace("func.return %dx : tensor<4x128xf32>", "func.return %dx : tensor<4x100xf32>")
    with pytest.raises(CompileError, match="result 1 has type tensor<4x100xf32>; "
                                           "@f_kernel_f32 writes tensors of shape \\[4, 64\\] "
                                           "or of \\[512\\] elements"):
        compile_module(parse_text(text, "joint.mlir"), level="tiled")


def test_a_malformed_description_is_located() -> None:
    module = compile_text(_text("hsg.glu_grad", (4, 128), -1, "f32"), level="tiled").module
    kernel = next(op for op in module.walk() if OUTPUT_WINDOWS_ATTR in op.attributes)
    kernel.attributes[OUTPUT_WINDOWS_ATTR] = ArrayAttr([
        DenseArrayBase.from_list(i64, [4, 64]), DenseArrayBase.from_list(i64, [128, 0, 0, 512]),
        DenseArrayBase.from_list(i64, [128, 1, 64, 512])])
    with pytest.raises(CompileError, match="output 1's strides \\[128, 0\\] write two of its"):
        compile_module(module, level="tiled")


def test_torch_mlirs_glu_backward_writes_dx_as_one_output() -> None:
    """aten.glu_backward exported by torch-mlir (test/fixtures/torch_models/gated, written by
    tools/export_model_fixtures.py): its halves joined by a tensor.concat become one kernel
    whose one output is dx, bit-equal to the linalg level and equal to MLIR's own execution
    of the file (the committed oracle) within PyTorch's tolerance."""
    from pathlib import Path

    from hswc.reference import compare_bitwise, compare_tolerance
    from hswc.runner import compile_file

    path = Path(__file__).parent / "fixtures/torch_models/gated/glu_backward_f32.mlir"
    data = np.load(path.with_suffix(".npz"))
    grad, x = data["in0"].view(np.float32), data["in1"].view(np.float32)
    kernel = compile_file(path, level="ascend")
    lowered = str(kernel.module)
    assert lowered.count("hsg.launch") == 1 and "tensor.concat" not in lowered
    assert "-> tensor<4x64xf32>\n" in lowered and OUTPUT_WINDOWS_ATTR in lowered
    got = np.asarray(kernel.run(grad, x).outputs[0])
    linalg = np.asarray(compile_file(path, level="linalg").run(grad, x).outputs[0])
    assert compare_bitwise(got, linalg).equal
    verdict = compare_tolerance(got, data["out0"].view(np.float32))
    assert verdict.equal, verdict
