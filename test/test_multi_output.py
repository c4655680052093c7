"""Kernels of several outputs: a generic with several outs, and sibling generics (reading one
tensor) fused into one, each output of its own element type, i1 outputs stored a byte per
element. Checked against MLIR's own execution of torch-mlir's export of
`relu(x), x > 0` (test/fixtures/multi_output, tools/export_multi_output_fixtures.py), against
hand-checked values, and for the CPU model build of the emitted C++ (their packages:
test_emit_multi_output.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from math_bodies import same_bits

from hswc.pipeline import parse_text
from hswc.runner import LEVELS, compile_file, compile_text
from hswc.tools.hswc_opt import main as hswc_opt

FIXTURES = Path(__file__).parent / "fixtures" / "multi_output"
FILES = sorted(FIXTURES.glob("*.mlir"))
DTYPES = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16)}

TWO_OUTS = """
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @two(%x: tensor<2x3xf16>) -> (tensor<2x3xf16>, tensor<2x3xf32>, tensor<2x3xi1>) {
  %e0 = tensor.empty() : tensor<2x3xf16>
  %e1 = tensor.empty() : tensor<2x3xf32>
  %e2 = tensor.empty() : tensor<2x3xi1>
  %relu, %wide, %pos = linalg.generic {indexing_maps = [#map, #map, #map, #map],
      iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf16>)
      outs(%e0, %e1, %e2 : tensor<2x3xf16>, tensor<2x3xf32>, tensor<2x3xi1>) {
  ^bb0(%in: f16, %o0: f16, %o1: f32, %o2: i1):
    %c0 = arith.constant 0.0 : f16
    %m = arith.maximumf %in, %c0 : f16
    %w = arith.extf %in : f16 to f32
    %c3 = arith.constant 3.0 : f32
    %w3 = arith.mulf %w, %c3 : f32
    %p = arith.cmpf ogt, %in, %c0 : f16
    linalg.yield %m, %w3, %p : f16, f32, i1
  } -> (tensor<2x3xf16>, tensor<2x3xf32>, tensor<2x3xi1>)
  return %relu, %wide, %pos : tensor<2x3xf16>, tensor<2x3xf32>, tensor<2x3xi1>
}
"""
HAND_X = np.array([[-2.0, -0.0, 0.5], [1.0, -65504.0, 3.0]], np.float16)
HAND = (np.array([[0.0, 0.0, 0.5], [1.0, 0.0, 3.0]], np.float16),
        np.array([[-6.0, -0.0, 1.5], [3.0, -196512.0, 9.0]], np.float32),
        np.array([[False, False, True], [True, False, True]]))
"""Worked by hand: max(x, 0) (maximumf of -0.0 and 0.0 is 0.0), 3 * x in f32, x > 0."""


def _load(path: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    data = np.load(path.with_suffix(".npz"))
    dtype = DTYPES[str(data["dtype"])]
    return data["in0"].view(dtype), data["out0"].view(dtype), data["out1"]


def test_the_fixtures_are_there() -> None:
    assert [p.stem for p in FILES] == ["relu_and_mask_f16", "relu_and_mask_f32"]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_torch_export_is_one_kernel_equal_to_mlir_at_every_level(path: Path) -> None:
    x, relu, mask = _load(path)
    assert mask.dtype == np.bool_ and mask.any() and not mask.all()
    for level in LEVELS:
        kernel = compile_file(path, level=level)
        result = kernel.run(x)
        got_relu, got_mask = result.outputs
        assert same_bits(relu, got_relu) and got_relu.dtype == relu.dtype, level
        assert got_mask.dtype == np.bool_ and np.array_equal(got_mask, mask), level
        if LEVELS.index(level) >= LEVELS.index("tiled"):
            assert len(result.kernels) == 1, (level, result.kernels)


@pytest.mark.parametrize("level", ["linalg", "tiled", "blocked", "ascend"])
def test_three_outputs_of_three_types_by_hand(level: str) -> None:
    outputs = compile_text(TWO_OUTS, level=level).run(HAND_X).outputs
    for got, want in zip(outputs, HAND, strict=True):
        assert got.dtype == want.dtype and np.array_equal(got, want), (level, got, want)
        if want.dtype != np.bool_:
            assert np.array_equal(np.signbit(got), np.signbit(want))


def test_each_output_has_its_queue_and_copy_and_the_ub_plan_counts_its_bytes() -> None:
    module = compile_text(TWO_OUTS, level="ascend").module
    text = str(module)
    assert text.count("ascend.tque : !ascend.tque<vecout") == 3
    stores = [line for line in text.splitlines()
              if line.strip().startswith("ascend.data_copy_pad %")
              and line.split()[1].endswith("_gm_at,")]
    assert [line.split()[1] for line in stores] == ["%relu_gm_at,", "%wide_gm_at,", "%pos_gm_at,"]
    # Per element: the input's queue and each output's own, double-buffered: 2 * (2 + 2 + 4 +
    # 1) bytes (the i1 output a byte); then the body's buffers: the f32 copy of x (4), the
    # Select's result and its constant (2 + 2) and the compare mask (1).
    plan = next(op for op in module.walk() if op.attributes.get("hsg.ub_plan") is not None)
    bytes_per_element = plan.attributes["hsg.ub_plan"].data["bytes_per_element"].value.data  # type: ignore[attr-defined]
    assert bytes_per_element == 2 * (2 + 2 + 4 + 1) + 4 + 2 + 2 + 1


def test_siblings_of_different_shapes_stay_two_kernels_with_a_remark(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = tmp_path / "shapes.mlir"
    source.write_text("""
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @f(%b: tensor<8xf32>, %y: tensor<4x8xf32>) -> (tensor<8xf32>, tensor<4x8xf32>) {
  %e0 = tensor.empty() : tensor<8xf32>
  %neg = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} ins(%b : tensor<8xf32>) outs(%e0 : tensor<8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<4x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row, #id],
      iterator_types = ["parallel", "parallel"]}
      ins(%y, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e1 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %bias: f32, %o: f32):
    %s = arith.addf %in, %bias : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %neg, %sum : tensor<8xf32>, tensor<4x8xf32>
}
""")
    assert hswc_opt([str(source), "--lower-to-ascend", "--remarks", "-o",
                     str(tmp_path / "out.mlir")]) == 0
    err = capsys.readouterr().err
    assert "cannot share one tiling: they stay two kernels" in err
    assert "remark: 2 kernel launches" in err
    b = np.arange(8, dtype=np.float32)
    y = np.ones((4, 8), np.float32)
    neg, total = compile_file(source).run(b, y).outputs
    assert np.array_equal(neg, -b) and np.array_equal(total, y + b)


def test_a_use_between_siblings_keeps_them_apart() -> None:
    text = """
#map = affine_map<(d0) -> (d0)>
func.func @f(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %a = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<16xf32>
  %t = linalg.transpose ins(%a : tensor<16xf32>) outs(%e : tensor<16xf32>) permutation = [0]
  %b = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
      ins(%x, %t : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%in: f32, %u: f32, %o: f32):
    %s = arith.addf %in, %u : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %b : tensor<16xf32>
}
"""
    from hswc.pipeline import PASSES, context

    module = parse_text(text, "between.mlir")
    PASSES["hsg-fuse-elementwise"]()().apply(context(), module)
    generics = [op for op in module.walk() if op.name == "linalg.generic"]
    assert len(generics) == 2 and all(len(g.results) == 1 for g in generics)
    x = np.arange(16, dtype=np.float32)
    assert np.array_equal(compile_text(text).run(x).outputs[0], np.zeros(16, np.float32))


def test_an_output_dtype_the_soc_cannot_write_stays_on_the_host_with_one_message(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = tmp_path / "unsigned.mlir"
    source.write_text("""
#map = affine_map<(d0) -> (d0)>
func.func @f(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xi32>) {
  %e0 = tensor.empty() : tensor<64xf32>
  %e1 = tensor.empty() : tensor<64xi32>
  %a, %b = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%e0, %e1 : tensor<64xf32>, tensor<64xi32>) {
  ^bb0(%in: f32, %o0: f32, %o1: i32):
    %n = arith.negf %in : f32
    %i = arith.fptoui %in : f32 to i32
    linalg.yield %n, %i : f32, i32
  } -> (tensor<64xf32>, tensor<64xi32>)
  return %a, %b : tensor<64xf32>, tensor<64xi32>
}
""")
    assert hswc_opt([str(source), "--lower-to-ascend", "-o", str(tmp_path / "out.mlir")]) == 0
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"{source}:6:3: warning: 'linalg.generic' stays on the host: "
                               f"its 'arith.fptoui' at {source}:10:5 converts f32 to i32")
    x = np.linspace(0, 100, 64, dtype=np.float32)
    negated, whole = compile_file(source).run(x).outputs
    assert np.array_equal(negated, -x) and np.array_equal(whole, x.astype(np.int32))


GATED = """
#x = affine_map<(d0, d1) -> (d0, d1)>
func.func @ge_glu_v2(%x: tensor<4x16xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %a = tensor.extract_slice %x[0, 0] [4, 8] [1, 1] : tensor<4x16xf32> to tensor<4x8xf32>
  %b = tensor.extract_slice %x[0, 8] [4, 8] [1, 1] : tensor<4x16xf32> to tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %g = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %c = arith.constant 0.707106769 : f32
    %s = arith.mulf %in, %c : f32
    %r = math.erf %s : f32
    %one = arith.constant 1.0 : f32
    %p = arith.addf %r, %one : f32
    %h = arith.mulf %in, %half : f32
    %gelu = arith.mulf %h, %p : f32
    linalg.yield %gelu : f32
  } -> tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#x, #x, #x], iterator_types = ["parallel", "parallel"]}
      ins(%g, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%gelu: f32, %v: f32, %o: f32):
    %m = arith.mulf %gelu, %v : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %y, %g : tensor<4x8xf32>, tensor<4x8xf32>
}
"""
"""ge_glu_v2's two outputs as generics: the gelu of the first half (also returned) and its
product with the second half (read through an offset map, a slice folded in)."""


def test_a_producer_also_returned_joins_its_consumer_as_an_output() -> None:
    x = np.random.default_rng(3).standard_normal((4, 16)).astype(np.float32)
    host = compile_text(GATED, level="hsg").run(x).outputs
    result = compile_text(GATED).run(x)
    assert len(result.kernels) == 1, result.kernels
    for got, want in zip(result.outputs, host, strict=True):
        assert np.array_equal(got, want)  # the one kernel computes what MLIR's ops compute
    a, b = x[:, :8].astype(np.float64), x[:, 8:].astype(np.float64)
    from math import erf, sqrt

    gelu = a * 0.5 * (1 + np.vectorize(erf)(a / sqrt(2)))
    assert np.allclose(result.outputs[1], gelu, rtol=1e-5, atol=1e-6)
    assert np.allclose(result.outputs[0], gelu * b, rtol=1e-5, atol=1e-6)


def test_six_siblings_make_two_kernels_of_at_most_four_outputs() -> None:
    scales = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    generics = "\n".join(f"""
  %r{i} = linalg.generic {{indexing_maps = [#map, #map], iterator_types = ["parallel"]}}
      ins(%x : tensor<32xf32>) outs(%e : tensor<32xf32>) {{
  ^bb0(%in: f32, %o: f32):
    %c = arith.constant {s} : f32
    %m = arith.mulf %in, %c : f32
    linalg.yield %m : f32
  }} -> tensor<32xf32>""" for i, s in enumerate(scales))
    types = ", ".join("tensor<32xf32>" for _ in scales)
    text = f"""
#map = affine_map<(d0) -> (d0)>
func.func @six(%x: tensor<32xf32>) -> ({types}) {{
  %e = tensor.empty() : tensor<32xf32>
{generics}
  return {', '.join(f'%r{i}' for i in range(len(scales)))} : {types}
}}
"""
    x = np.arange(32, dtype=np.float32) - 9
    result = compile_text(text).run(x)
    assert len(result.kernels) == 2, result.kernels
    for got, s in zip(result.outputs, scales, strict=True):
        assert np.array_equal(got, x * np.float32(s))
