"""hswc-run on whole model files (test/fixtures/host_models): several results, each written to
its --output in order and in its own element type (i64 indices, bf16 as numpy writes it);
--check against the file run at the hsg level; one message for a count of --output files that
does not match, and for weights the file does not hold."""

from __future__ import annotations

import io
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from hswc.tools.hswc_run import main

FIXTURES = Path(__file__).parent / "fixtures" / "host_models"
BF16 = np.dtype(ml_dtypes.bfloat16)


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_each_result_goes_to_its_output(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """torch.max(x, -1) in bf16: the values (bf16, written as numpy writes it) and the indices
    (i64), equal to MLIR's execution."""
    data = np.load(FIXTURES / "max_and_index_bf16.npz")
    x = tmp_path / "x.npy"
    np.save(x, data["in0"].view(BF16))
    values, indices = tmp_path / "values.npy", tmp_path / "indices.npy"
    code, _, err = run_cli([str(FIXTURES / "max_and_index_bf16.mlir"), "--level", "hsg",
                              "--input", str(x), "--output", str(values), "--output",
                              str(indices)], capsys)
    assert code == 0, err
    assert np.load(values).view(np.uint16).tolist() == data["out0"].tolist()
    got = np.load(indices)
    assert got.dtype == np.int64 and got.tolist() == data["out1"].tolist()


def test_a_count_of_outputs_that_does_not_match(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    x = tmp_path / "x.npy"
    np.save(x, np.zeros((4, 16), np.float32))
    code, _, err = run_cli([str(FIXTURES / "max_and_index_f32.mlir"), "--level", "hsg",
                            "--input", str(x), "--output", str(tmp_path / "v.npy")], capsys)
    assert code == 1
    assert ("1 --output file(s) given for the 2 result(s) of @main: give --output once per "
            "result, in order") in err and "Traceback" not in err
    assert not (tmp_path / "v.npy").exists()


def test_without_outputs_each_result_is_described(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    x = tmp_path / "x.npy"
    np.save(x, np.load(FIXTURES / "embedding_f32.npz")["in0"])
    code, out, _ = run_cli([str(FIXTURES / "embedding_f32.mlir"), "--level", "hsg", "--input",
                            str(x)], capsys)
    assert code == 0
    assert "hswc-run: result 1 of @main: float32 array of shape (2, 3, 4)" in out


def test_check_compares_every_result_with_the_hsg_level(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """At the linalg level (hswc's passes, the rest on the host) each result of the f16 Llama
    MLP block is bit for bit the file run at the hsg level."""
    data = np.load(FIXTURES / "llama_mlp_f16.npz")
    x = tmp_path / "x.npy"
    np.save(x, data["in0"].view(np.float16))
    y = tmp_path / "y.npy"
    code, out, err = run_cli([str(FIXTURES / "llama_mlp_f16.mlir"), "--level", "linalg",
                              "--input", str(x), "--output", str(y), "--check"], capsys)
    assert code == 0, err
    assert "--check (each op's default semantics): bit-exact: all 128 float16 elements " \
           "match" in out
    assert np.load(y).view(np.uint16).tolist() == data["out0"].tolist()


def test_check_names_each_result_of_a_several_result_function(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    x = tmp_path / "x.npy"
    np.save(x, np.load(FIXTURES / "max_and_index_f32.npz")["in0"])
    code, out, err = run_cli([str(FIXTURES / "max_and_index_f32.mlir"), "--level", "linalg",
                              "--input", str(x), "--check"], capsys)
    assert code == 0, err
    assert "result 1: bit-exact: all 4 float32 elements match" in out
    assert "result 2: bit-exact: all 4 int64 elements match" in out


def test_weights_the_file_does_not_hold(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "w.mlir"
    path.write_text("func.func @main() -> tensor<2xf32> {\n"
                    "  %w = arith.constant dense_resource<weights> : tensor<2xf32>\n"
                    "  func.return %w : tensor<2xf32>\n}\n")
    code, _, err = run_cli([str(path), "--level", "hsg"], capsys)
    assert code == 1
    assert (f"{path}:2:3: error: 'arith.constant' reads dense_resource<weights>, which the "
            "file's dialect_resources section does not hold") in err


def test_weights_stored_in_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A resource blob: 4 bytes of alignment, then the f32 values 1.0 and 2.0 little-endian."""
    path = tmp_path / "w.mlir"
    path.write_text("func.func @main() -> tensor<2xf32> {\n"
                    "  %w = arith.constant dense_resource<weights> : tensor<2xf32>\n"
                    "  func.return %w : tensor<2xf32>\n}\n"
                    '{-#\n  dialect_resources: {\n    builtin: {\n'
                    '      weights: "0x040000000000803F00000040"\n    }\n  }\n#-}\n')
    y = tmp_path / "y.npy"
    code, _, err = run_cli([str(path), "--level", "hsg", "--output", str(y)], capsys)
    assert code == 0, err
    assert np.load(y).tolist() == [1.0, 2.0]


def test_ops_a_lowered_module_kept_run_on_the_host_at_every_level() -> None:
    """A tiled module whose host function also transposes the launch's result (as a partition
    leaves ops no kernel takes): its level is its kernel's, lowering goes on from there, and
    the transpose runs on the host at the tiled, blocked and ascend levels."""
    from xdsl.printer import Printer

    from hswc.reference import hard_swish_grad_cann
    from hswc.runner import compile_file, compile_text, level_of

    tiled = compile_file(Path(__file__).parent.parent / "examples" /
                         "hard_swish_grad_static.mlir", level="tiled").module
    stream = io.StringIO()
    Printer(stream=stream).print_op(tiled)
    text = stream.getvalue().replace(
        "    func.return %y : tensor<4x1000xf16>",
        "    %e = tensor.empty() : tensor<1000x4xf16>\n"
        "    %t = linalg.transpose ins(%y : tensor<4x1000xf16>) outs(%e : tensor<1000x4xf16>) "
        "permutation = [1, 0]\n"
        "    func.return %t : tensor<1000x4xf16>").replace(
        "-> tensor<4x1000xf16> {\n    %total_num", "-> tensor<1000x4xf16> {\n    %total_num", 1)
    rng = np.random.default_rng(3)
    grad = rng.standard_normal((4, 1000)).astype(np.float16)
    x = (4 * rng.standard_normal((4, 1000))).astype(np.float16)
    want = hard_swish_grad_cann(grad, x).T
    for level in ("tiled", "blocked", "ascend"):
        kernel = compile_text(text, level=level)
        assert level_of(kernel.source) == "tiled"
        result = kernel.run(grad, x)
        assert result.kernels == ["hard_swish_grad_kernel_f16"], level
        assert result.outputs[0].tobytes() == want.tobytes(), level
