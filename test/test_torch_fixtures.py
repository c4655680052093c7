"""PyTorch's exporter's IR, compiled as exported: every file of test/fixtures/torch_mlir (written
by tools/export_torch_fixtures.py with torch-mlir, which CI does not need) lowers, and hswc-run
equals MLIR's own CPU execution of the file (its ExecutionEngine, recorded in the `.npz`) bit
for bit at every level, NaN class equal."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from math_bodies import same_bits

from hswc.runner import LEVELS, CompileError, compile_file

FIXTURES = Path(__file__).parent / "fixtures" / "torch_mlir"
FILES = sorted(FIXTURES.glob("*.mlir"))
DTYPES = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16),
          "bf16": np.dtype(ml_dtypes.bfloat16)}
REFUSED: dict[str, str] = {}
"""Files hswc refuses below the linalg level, with what the message names."""
SAMPLED_LEVELS = ("hsg", "linalg", "ascend")
"""Every file runs at these; the tiled and blocked levels run for every third file (they run
the same body as the ascend level's reference check, through the same interpreter)."""


def _load(path: Path) -> tuple[list[np.ndarray], np.ndarray]:
    data = np.load(path.with_suffix(".npz"))
    dtype = DTYPES[str(data["dtype"])]
    inputs = [data[f"in{i}"].view(dtype) for i in range(len(data.files) - 2)]
    return inputs, data["out"].view(dtype)


def _same(got: np.ndarray, want: np.ndarray) -> bool:
    return got.shape == want.shape and got.dtype == want.dtype and same_bits(want, got)


def test_the_fixture_set_is_complete() -> None:
    names = {p.stem for p in FILES}
    assert len(names) == 65
    for dtype in DTYPES:
        assert f"hardswish_backward_{dtype}" in names and f"softshrink_{dtype}" in names
    assert {"hardswish_rank0_f32", "hardswish_rank3_f32", "hardtanh_dynamic_f16"} <= names
    assert {f"bias_add_{dtype}" for dtype in DTYPES} | {
        "row_scale_f32", "rank0_scale_f16", "broadcast_rank2_f16", "broadcast_rank3_bf16",
        "broadcast_rank3_bias_f32"} <= names
    assert all(p.with_suffix(".npz").exists() for p in FILES)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_hswc_run_equals_mlir_execution(path: Path) -> None:
    inputs, want = _load(path)
    index = FILES.index(path)
    levels = LEVELS if index % 3 == 0 else SAMPLED_LEVELS
    for level in levels:
        refused = REFUSED.get(path.stem)
        if refused and LEVELS.index(level) >= LEVELS.index("tiled"):
            with pytest.raises(CompileError, match=refused):
                compile_file(path, level=level)
            continue
        got = compile_file(path, level=level)(*inputs)
        assert _same(np.asarray(got), want), f"{path.stem} at level {level}"
