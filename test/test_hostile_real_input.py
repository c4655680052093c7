"""Hostile and exporter-shaped inputs of the front door (issues 19, 20 and 35): what hswc-opt
cannot make a kernel stays on the host with one located warning saying why, and runs there with
its MLIR semantics; what the interpreter runs, it runs through every indexing map; everything
hswc-opt accepts, hswc-run runs."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from hswc.tools import hswc_opt, hswc_run

Capsys = pytest.CaptureFixture[str]
MAP2 = "affine_map<(i, j) -> (i, j)>"


def _generic(maps: str, iterators: str, body: str, out_type: str = "tensor<3x5xf32>",
             in_type: str = "tensor<5x3xf32>") -> str:
    return f"""\
func.func @f(%a: {in_type}) -> {out_type} {{
  %e = tensor.empty() : {out_type}
  %y = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{iterators}]}}
      ins(%a : {in_type}) outs(%e : {out_type}) {{
  ^bb0(%x: f32, %o: f32):
{body}
  }} -> {out_type}
  func.return %y : {out_type}
}}
"""


TRANSPOSE = _generic(f"affine_map<(i, j) -> (j, i)>, {MAP2}", '"parallel", "parallel"',
                     "    %n = arith.negf %x : f32\n    linalg.yield %n : f32")
REDUCTION = _generic("affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>",
                     '"parallel", "reduction"',
                     "    %s = arith.addf %x, %o : f32\n    linalg.yield %s : f32",
                     out_type="tensor<3xf32>", in_type="tensor<3x5xf32>")
READS_OUT = _generic(f"{MAP2}, {MAP2}", '"parallel", "parallel"',
                     "    %s = arith.addf %x, %o : f32\n    linalg.yield %s : f32",
                     in_type="tensor<3x5xf32>")


def _run(capsys: Capsys, tool: str, argv: Sequence[str | Path]) -> tuple[int, str]:
    main = hswc_opt.main if tool == "hswc-opt" else hswc_run.main
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _refused(code: int, text: str, path: Path, what: str) -> None:
    assert code == 1, text
    assert "Traceback" not in text and "internal error" not in text, text
    assert text.count("error:") == 1, text
    assert re.search(rf"{re.escape(str(path))}:\d+:\d+: error: .*{what}", text), text


def _stays(code: int, text: str, path: Path, what: str) -> None:
    """Lowered all the same, exit 0, the generic kept, one located warning saying why."""
    assert code == 0, text
    assert "Traceback" not in text and "error:" not in text, text
    assert text.count("warning:") == 1, text
    assert re.search(rf"{re.escape(str(path))}:\d+:\d+: warning: 'linalg.generic' stays on the "
                     rf"host: .*{what}", text), text
    assert "linalg.generic" in text.split("warning:")[0] + text.split("\n", 1)[-1], text


def test_a_transposing_map_runs_transposed_at_the_generic_levels(capsys: Capsys,
                                                                 tmp_path: Path) -> None:
    """Issue 20: the interpreter used to ignore the map and return -a, calling it bit-exact."""
    path = tmp_path / "t.mlir"
    path.write_text(TRANSPOSE)
    a = np.arange(15, dtype=np.float32).reshape(5, 3)
    np.save(tmp_path / "a.npy", a)
    for level in ("hsg", "linalg"):
        out = tmp_path / f"y_{level}.npy"
        code, text = _run(capsys, "hswc-run", [path, "--input", tmp_path / "a.npy", "--level",
                                                level, "--output", out])
        assert code == 0, text
        assert np.array_equal(np.load(out), -a.T)
    code, text = _run(capsys, "hswc-opt", ["--lower-to-ascend", path])
    _stays(code, text, path, "indexing map")


@pytest.mark.parametrize("case", ["reduction", "reads_out"])
def test_what_is_not_elementwise_runs_on_the_host(case: str, capsys: Capsys,
                                                  tmp_path: Path) -> None:
    """Issue 20: these were `internal error: KeyError` without a location. At every level they
    run on the host with MLIR's semantics (a row sum of ones is 5; the output read from
    tensor.empty is zeros there); no kernel takes them."""
    path = tmp_path / f"{case}.mlir"
    path.write_text(REDUCTION if case == "reduction" else READS_OUT)
    np.save(tmp_path / "a.npy", np.ones((3, 5), np.float32))
    for level in ("hsg", "linalg", "ascend"):
        out = tmp_path / f"y_{level}.npy"
        code, text = _run(capsys, "hswc-run", [path, "--input", tmp_path / "a.npy", "--level",
                                                level, "--output", out])
        assert code == 0, text
        want = np.full(3, 5.0) if case == "reduction" else np.ones((3, 5))
        assert np.array_equal(np.load(out), want.astype(np.float32))


def test_a_dead_f64_constant_is_accepted_by_both_tools(capsys: Capsys, tmp_path: Path) -> None:
    path = tmp_path / "dead.mlir"
    path.write_text("""\
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %half = arith.constant 5.0e-01 : f64
  %y = hsg.hardtanh %x : tensor<8xf32>
  func.return %y : tensor<8xf32>
}
""")
    np.save(tmp_path / "x.npy", np.linspace(-2, 2, 8, dtype=np.float32))
    assert _run(capsys, "hswc-opt", ["--lower-to-ascend", path])[0] == 0
    code, text = _run(capsys, "hswc-run", [path, "--input", tmp_path / "x.npy", "--check"])
    assert code == 0 and "bit-exact" in text, text


def test_an_unsupported_body_op_keeps_its_generic_on_the_host(capsys: Capsys,
                                                               tmp_path: Path) -> None:
    path = tmp_path / "body.mlir"
    path.write_text(_generic(f"{MAP2}, {MAP2}", '"parallel", "parallel"',
                             "    %ex = math.sin %x : f32\n    linalg.yield %ex : f32",
                             in_type="tensor<3x5xf32>"))
    code, text = _run(capsys, "hswc-opt", ["--lower-to-ascend", path])
    _stays(code, text, path, re.escape("its 'math.sin' at ") + ".*" +
           re.escape("is not an elementwise operation the vectorizer maps"))
    assert "math.sin" in text.split("warning:")[0] and "hsg.launch" not in text


def test_f64_arithmetic_is_refused_by_name(capsys: Capsys, tmp_path: Path) -> None:
    path = tmp_path / "body.mlir"
    path.write_text(_generic(f"{MAP2}, {MAP2}", '"parallel", "parallel"',
                             "    %w = arith.extf %x : f32 to f64\n"
                             "    %s = arith.addf %w, %w : f64\n"
                             "    %t = arith.truncf %s : f64 to f32\n    linalg.yield %t : f32",
                             in_type="tensor<3x5xf32>"))
    code, text = _run(capsys, "hswc-opt", ["--lower-to-ascend", "--strict-f64", path])
    _refused(code, text, path, re.escape("'arith.addf' computes in f64, which hswc cannot "
                                         "lower exactly"))


# region issue 40: no internal error from real model files

REAL = Path(__file__).parent / "fixtures" / "real_models"
MLIR_BODY = ("arith.extf", "arith.extf", "arith.mulf", "arith.addf", "linalg.yield")
"""The body MLIR's linalg-generalize-named-ops gives an f16 or bf16 contraction into f32 (run
on these files with torch-mlir's MLIR, by hand)."""


@pytest.mark.parametrize(("name", "op", "line"), [
    ("matmul_f16_acc_f32", "linalg.matmul", 9),
    ("conv_bf16_acc_f32", "linalg.conv_2d_nchw_fchw", 15),
])
def test_an_f16_contraction_into_f32_reads_as_mlir_reads_it(name: str, op: str, line: int,
                                                            capsys: Capsys) -> None:
    """Issue 40: the convolution was `internal error: AssertionError:` with no location (xDSL's
    body builder asserts integer types for mixed operands), the matmul a verify error about
    `arith.addf` (an f16 product added to the f32 accumulator). Both are valid MLIR: their
    operands are converted to the accumulator's type first."""
    path = REAL / f"{name}.mlir"
    code, text = _run(capsys, "hswc-opt", [path, "--print-op-generic"])
    assert code == 0, text
    region = text[text.index(f'"{op}"') + len(op) + 2:]
    body = re.findall(r'"((?:arith|linalg)\.\w+)"\(', region[:region.index("}) :")])
    assert tuple(body) == MLIR_BODY
    # Lowering: hswc compiles elementwise computations; what else the file holds is named at
    # the op the user wrote, never an internal error.
    code, text = _run(capsys, "hswc-opt", ["--lower-to-ascend", path])
    assert "internal error" not in text and "Traceback" not in text
    if code:
        _refused(code, text, path, "")
        assert f"{path}:{line}:3: error: '{op}'" in text


@pytest.mark.parametrize(("body", "message"), [
    ("%y = linalg.add ins(%a, %a : tensor<4xindex>, tensor<4xindex>) outs(%e : tensor<4xindex>)"
     " -> tensor<4xindex>",
     "3:8: error: 'linalg.add' cannot be built as written: xDSL's construction of it failed "
     "(AssertionError: an assertion); check its operand and result types"),
    ("%y = linalg.add ins(%f, %g : tensor<4xf16>, tensor<4xbf16>) outs(%h : tensor<4xf32>) -> "
     "tensor<4xf32>",
     "3:3: error: 'linalg.add' has a body, built by xDSL from its operand types "
     "(tensor<4xf16>, tensor<4xbf16>, tensor<4xf32>), that does not verify: 'arith.addf' "
     "operand 'rhs' at position 1 does not verify: attribute f16 expected from variable 'T', "
     "but got bf16"),
    ("%y = linalg.add ins(%h, %h : tensor<4xf32>, tensor<4xf32>) outs(%f : tensor<4xf16>) -> "
     "tensor<4xf16>",
     "3:3: error: 'linalg.add' has a body, built by xDSL from its operand types (tensor<4xf32>, "
     "tensor<4xf32>, tensor<4xf16>), that does not verify: 'linalg.yield' type of yield operand "
     "1 (f32) doesn't match the element type of the enclosing linalg.add (f16)"),
    ("%y = linalg.fill ins(%s : f32) outs(%f : tensor<4xf16>) -> tensor<4xf16>",
     "3:3: error: 'linalg.fill' expected the fill value's type (f32) to be the output's element "
     "type (f16)"),
], ids=["index-operands", "mixed-inputs", "wider-inputs", "fill-of-another-type"])
def test_named_ops_mlir_refuses_are_refused_at_the_op(body: str, message: str, capsys: Capsys,
                                                       tmp_path: Path) -> None:
    """Where MLIR refuses a named op's operand types too (its elementwise ops convert nothing;
    fill takes a value of the output's type), the message is at the op as written."""
    path = tmp_path / "named.mlir"
    path.write_text("func.func @f(%a: tensor<4xindex>, %e: tensor<4xindex>, %f: tensor<4xf16>, "
                    "%g: tensor<4xbf16>, %h: tensor<4xf32>, %s: f32) {\n"
                    "  %c = arith.constant 0 : index\n"
                    f"  {body}\n  func.return\n}}\n")
    code, text = _run(capsys, "hswc-opt", [path])
    _refused(code, text, path, "")
    assert f"{path}:{message}" in text


# endregion
