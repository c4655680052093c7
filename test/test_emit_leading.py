"""hswc-emit packages a reduction over leading dims (issue 36: `x.sum(dim=(0, 2, 3))`) as one
row kernel whose rows are strided runs, a channel a core: hswc-emit lowers with
hsg-tile-on-cores{split=false}, since the split for few channels (hswc.passes.row_split) is two
kernels passing a workspace of partials, which one package does not hold; a module given lowered
with the split is refused with one message, and nothing is written.

Checked: torch-mlir's export (test/fixtures/torch_models/reductions/sum_dims023_*) packaged
for Atlas A2/A3 and Ascend 950; the tiling counts the channels; the unit test's goldens (hswc-run's)
equal a float64 sum of its inputs rounded once (f32: within PyTorch's tolerance); the kernel
unit test passes on the CPU model of AscendC.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest
from cpu_build import MODEL, REPO, compiler
from family_packages import unit_test_array

from hswc.platform import PLATFORMS
from hswc.reference import compare_tolerance
from hswc.tools.hswc_emit import main as emit
from hswc.tools.hswc_opt import main as opt

FIXTURES = REPO / "test" / "fixtures" / "torch_models" / "reductions"
SHIMS = REPO / "test" / "cpp_fixtures" / "ut_shims"
STRICT = ("-std=c++17", "-Wall", "-Wextra", "-Werror")
SHAPE = (2, 8, 4, 4)
"""The fixtures' x: 8 channels of 2 runs of 16."""


@pytest.mark.parametrize(("dtype", "soc"), [("f32", "ascend910b"), ("f16", "ascend950")])
def test_a_sum_over_n_h_w_is_one_strided_kernel_whose_unit_test_passes(
        dtype: str, soc: str, tmp_path: Path) -> None:
    out = tmp_path / "sum_nhw"
    assert emit([str(FIXTURES / f"sum_dims023_{dtype}.mlir"), "--name", "SumNhw", "--soc", soc,
                 "-o", str(out)]) == 0
    suffix = "_apt" if soc == "ascend950" else ""
    kernel = (out / "op_kernel" / ("arch35/" if suffix else "") / "sum_nhw.h").read_text()
    assert "partial" not in kernel.lower()
    source = out / "tests" / "ut" / "op_kernel" / f"test_sum_nhw{suffix}.cpp"
    test = source.read_text()
    assert "tiling.totalNum = 8;" in test  # a row a channel
    x = unit_test_array(test, "arg0", dtype).reshape(SHAPE)
    expected = unit_test_array(test, "expected", dtype)
    exact = x.astype(np.float64).sum(axis=(0, 2, 3))
    assert compare_tolerance(expected, exact.astype(expected.dtype)).equal
    arch35 = ("-DASCENDC_CPU_DAV_3510", f"-DHSWC_UT_UB_BYTES={PLATFORMS['ascend950'].ub_size}")
    built = subprocess.run([compiler(), *STRICT, *(arch35 if soc == "ascend950" else ()),
                            f"-I{SHIMS}", f"-I{MODEL}", str(source), "-o", str(tmp_path / "ut")],
                           capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stdout + built.stderr
    done = subprocess.run([str(tmp_path / "ut")], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.stdout.splitlines()[-1] == "1 passed, 0 failed", done.stdout + done.stderr


def test_a_module_lowered_with_the_split_is_refused_naming_its_partial_kernel(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lowered = tmp_path / "lowered.mlir"
    assert opt([str(FIXTURES / "sum_dims023_f32.mlir"), "--lower-to-ascend",
                "-o", str(lowered)]) == 0
    assert "hsg.partial" in lowered.read_text()
    capsys.readouterr()
    out = tmp_path / "package"
    assert emit([str(lowered), "--name", "SumNhw", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert ("hswc-emit: error: @main_op_partial_kernel_f32 is the first of the two kernels of "
            "a reduction over leading dims split for the cores") in err
    assert "hswc-opt -p 'hsg-tile-on-cores{split=false}' --lower-to-ascend" in err
    assert not out.exists()
    unsplit = tmp_path / "unsplit.mlir"
    assert opt([str(FIXTURES / "sum_dims023_f32.mlir"), "-p",
                "hsg-tile-on-cores{split=false}", "--lower-to-ascend", "-o", str(unsplit)]) == 0
    assert "hsg.partial" not in unsplit.read_text()
    assert emit([str(unsplit), "--name", "SumNhw", "-o", str(out)]) == 0


def test_a_row_kernel_of_row_and_element_outputs_is_refused_with_one_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Dynamic quantization (y int8 elements, s one f32 a row: torch-mlir's export) is one row
    kernel whose outputs have different shapes, which a package (its outputs one shape) does
    not hold yet: one located message, exit 1, nothing written (it was an internal error);
    the MobileNet BatchNorm backward's kernel (two sums a channel and the input gradient) is
    left out of its whole model's packages with the same reason."""
    fixture = REPO / "test" / "fixtures" / "torch_models" / "gated" / "quantize_dynamic_f32.mlir"
    out = tmp_path / "quant"
    assert emit([str(fixture), "--name", "QuantDyn", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error" not in err, err
    assert "quantize_dynamic_f32.mlir:" in err
    assert ("is a row kernel writing outputs of different classes (row, element: of different "
            "shapes)") in err
    assert not out.exists()
    model = (REPO / "test" / "fixtures" / "torch_models" / "models"
             / "mobilenet_conv_bn_hardswish_conv_backward_f32.mlir")
    emit([str(model), "-o", str(tmp_path / "model")])
    err = capsys.readouterr().err
    assert ("is a row kernel writing outputs of different classes (row, row, element: of "
            "different shapes)") in err, err
