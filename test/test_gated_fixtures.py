"""torch-mlir's exports of the gated units lower as exported: `a, b = x.chunk(2, -1); F.silu(a) *
b`, `F.glu(x, -1)`, `F.glu(x, 0)` and GeGLU (erf and tanh) in f32, f16 and bf16
(test/fixtures/torch_models/gated, written by tools/export_model_fixtures.py with MLIR's own CPU
execution of each file). The slices torch-mlir writes fold into one kernel reading x's halves
(hsg-fold-slices), and hswc-run at the linalg and ascend levels gives the hsg level's results
bit for bit, which test_model_fixtures_host.py compares with MLIR's execution; here the ascend
level is also compared with MLIR's execution directly, within PyTorch's default tolerance."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from hswc.reference import compare_bitwise, compare_tolerance
from hswc.remarks import collecting
from hswc.runner import compile_file

FIXTURES = Path(__file__).parent / "fixtures" / "torch_models" / "gated"
NUMPY = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16),
         "bf16": np.dtype(ml_dtypes.bfloat16)}
FILES = [FIXTURES / f"{what}_{dtype}.mlir" for what in (
    "swiglu_chunk", "glu_last", "glu_dim0", "geglu_erf", "geglu_tanh") for dtype in NUMPY]
ON_THE_HOST = {
    "geglu_erf_f16": "math.sqrt",
    "geglu_erf_bf16": "math.sqrt",
}
"""Files whose region stays on the host, with the op the warning names: torch-mlir computes
sqrt(2) in the body in the half type (`math.sqrt %cst_0 : f16`), a scalar op the kernel's scalar
code does not support. Their slices still fold."""
ORACLE_CHAINS_BF16 = {"geglu_tanh_bf16"}
"""The oracle computes this file's bf16 chain in f32 (test_model_fixtures_host.py): compared
within a few bf16 ulps of the largest result instead."""


def _load(path: Path) -> tuple[np.ndarray, np.ndarray]:
    data = np.load(path.with_suffix(".npz"))
    dtype = NUMPY[path.stem.rsplit("_", 1)[1]]
    return data["in0"].view(dtype), data["out0"].view(dtype)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_lowers_as_exported_and_equals_mlir(path: Path) -> None:
    x, want = _load(path)
    with collecting() as said:
        kernel = compile_file(path, level="ascend")
    lowered = str(kernel.module)
    assert "tensor.extract_slice" not in lowered
    stays = ON_THE_HOST.get(path.stem)
    if stays is None:
        assert lowered.count("hsg.launch") == 1, "one kernel reads both halves of x"
    else:
        assert "hsg.launch" not in lowered
        assert any(r.severity == "warning" and stays in r.text for r in said)
    got = np.asarray(kernel.run(x).outputs[0])
    hsg = np.asarray(compile_file(path, level="hsg").run(x).outputs[0])
    linalg = np.asarray(compile_file(path, level="linalg").run(x).outputs[0])
    assert compare_bitwise(got, hsg).equal and compare_bitwise(linalg, hsg).equal
    if path.stem in ORACLE_CHAINS_BF16:
        g64, w64 = got.astype(np.float64), want.astype(np.float64)
        finite = np.isfinite(w64)
        assert np.array_equal(np.isfinite(g64), finite)
        assert np.array_equal(g64[~finite], w64[~finite], equal_nan=True)
        error = float(np.max(np.abs(g64[finite] - w64[finite]), initial=0.0))
        assert error <= 2 ** -6 * float(np.max(np.abs(w64[finite]), initial=0.0))
    else:
        verdict = compare_tolerance(got, want)
        assert verdict.equal, verdict
