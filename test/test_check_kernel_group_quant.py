"""The checker's SwigluGroupQuant (hswc.checker.group_quant): activation/swiglu_group_quant maps to
hsg.swiglu_group_quant at its definition's defaults and is run, not reported uncheckable; its
tensors are x of [rows, 2H], y of [rows, H] in its 8-bit float, y_scale a value per block of 128
(f32) or, in the MX variant, per 32 in pairs (E8M0), y_origin none; its sizes are multiples of
256 (x's last dim, the tiling's rule); the kernel's DTYPE_Y and DTYPE_Y_SCALE are their types;
and the reference's values are the hand-worked ones of one nonzero element. The run of ops-nn's
own folder (its kernel built on the CPU model, a minute) is a sweep test."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from hswc.checker.check import _output_dtypes, _tensor_kinds
from hswc.checker.errors import CheckError
from hswc.checker.expected import Reference
from hswc.checker.halves import shape
from hswc.checker.options import CheckOptions, reference
from hswc.checker.sweep import UNCHECKABLE, VARIANTS, mapping


def _ref(**attrs: str) -> Reference:
    return reference(CheckOptions(kernel="", op="hsg.swiglu_group_quant", attrs=attrs))


def test_the_folder_is_mapped_and_run() -> None:
    found = mapping(Path("activation/swiglu_group_quant"))
    assert found is not None and found[:2] == ("hsg.swiglu_group_quant", {})
    assert "swiglu_group_quant" not in UNCHECKABLE
    assert VARIANTS["swiglu_group_quant"] == (("mx", {"quant_mode": "1", "round_scale": "true"}),)


def test_the_tensors_and_their_types() -> None:
    ref = _ref()
    assert ref.input_names == ("x",) and ref.result_count == 3 and ref.exact
    assert ref.dtypes == ("f16", "bf16")
    assert ref.halves is not None and ref.halves.granule == 256
    assert ref.output_dtype(0, np.dtype(np.float16)) == np.dtype(ml_dtypes.float8_e4m3fn)
    assert ref.output_dtype(1, np.dtype(np.float16)) == np.dtype(np.float32)
    assert ref.output_dtype(2, np.dtype(ml_dtypes.bfloat16)) == np.dtype(ml_dtypes.bfloat16)
    # 1024 elements: one row of 2H = 1024; y [1, 512], 4 scales, y_origin none
    assert [shape(ref.halves.output(k), 1024) for k in range(3)] == [(1, 512), (1, 4), (0,)]
    assert _output_dtypes(ref, 3) == {("output", 0): "float8_e4m3fn", ("output", 1): "float32"}
    assert _tensor_kinds(ref, (0,), {1, 2, 3}, 4, 3)[("output", 1)] == "blocks"
    mx = _ref(quant_mode="1", round_scale="true")
    assert mx.output_dtype(1, np.dtype(np.float16)) == np.dtype(ml_dtypes.float8_e8m0fnu)
    assert mx.halves is not None
    assert shape(mx.halves.output(1), 768) == (3, 2, 2)  # 3 rows of H = 128: 4 blocks of 32
    e5m2 = _ref(dst_type="35")
    assert e5m2.output_dtype(0, np.dtype(np.float16)) == np.dtype(ml_dtypes.float8_e5m2)


@pytest.mark.parametrize(("attrs", "said"), [
    ({"quant_mode": "2"}, "HiFloat8"), ({"dst_type": "40", "quant_mode": "1",
                                        "round_scale": "true"}, "FLOAT8_E5M2")])
def test_configurations_it_does_not_compute_are_refused(attrs: dict[str, str], said: str) -> None:
    with pytest.raises(CheckError, match=said):
        _ref(**attrs)


def test_the_reference_on_hand_worked_values() -> None:
    """One row of H = 128: a = 2, b = 1 at element 5, zeros elsewhere. s = silu(2) = 2 / (1 +
    e^-2) = 1.7615942 (f32), the block's maximum; y_scale = s * f32(1 / 448); y[5] = fp8(s * (448
    / s)) = 448 (0x7e), every other y +0."""
    x = np.zeros((1, 256), np.float16)
    x[0, 5], x[0, 128 + 5] = 2.0, 1.0
    y, scale, origin = _ref().outputs("f16", [x.reshape(-1)])
    s = np.float32(2.0) / (np.float32(1.0) + np.exp(np.float32(-2.0)))
    assert abs(float(s) - 1.7615942) < 1e-6
    assert scale.tolist() == [float(s * np.uint32(0x3B124925).view(np.float32))]
    assert y.view(np.uint8).tolist() == [0] * 5 + [0x7E] + [0] * 122 and origin.size == 0


@pytest.mark.sweep
def test_opsnn_swiglu_group_quant_is_bit_exact_at_a_small_size() -> None:
    """ops-nn's own kernel (where a checkout is at hand, $HSWC_OPS_NN): block FP8 at x of [1,
    1024] bit for bit in f16."""
    ops_nn = Path(os.environ.get("HSWC_OPS_NN", "/nonexistent"))
    folder = ops_nn / "activation" / "swiglu_group_quant"
    if not (folder / "op_kernel" / "swiglu_group_quant.cpp").is_file():
        pytest.skip("no ops-nn checkout with activation/swiglu_group_quant ($HSWC_OPS_NN)")
    run = subprocess.run([sys.executable, "-m", "hswc.tools.hswc_check_kernel", str(folder),
                          "--op", "hsg.swiglu_group_quant", "--soc", "ascend950", "--dtypes",
                          "f16", "--sizes", "1024"], capture_output=True, text=True, check=False)
    out = run.stdout + run.stderr
    assert re.search(r"n=1024\s+blocks=1\s+output 0: bit-exact; output 1: bit-exact", out), out
