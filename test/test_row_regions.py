"""Row regions (hswc.row_regions) of torch-mlir's exports of the softmax family and the norms:
each export's reductions and the elementwise work around them form one region, and the one
body `row_body` writes for it, run by the interpreter's body evaluator (hsg.reduce in the
kernel's order), equals MLIR's own execution of the export (the fixture's `out0`) within the
f32 bounds below. The row kernel that will compute such a body is not built yet (issue 36);
this checks the region and its body, which it will take as given."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import FloatAttr
from xdsl.ir import SSAValue

from hswc.interpreter.body import run_body_values
from hswc.row_regions import row_body, row_regions
from hswc.runner import compile_file

FOLDER = Path(__file__).parent / "fixtures" / "torch_models" / "reductions"

CASES = {  # fixture: (reductions in its region, combiners in order, max |error| against MLIR)
    "softmax_rows1000_f32": (2, ("maximumf", "addf"), 1e-7),
    "log_softmax_rows64_f32": (2, ("maximumf", "addf"), 2e-6),
    "softmax_backward_rows64_f32": (1, ("addf",), 1e-6),
    "rms_norm_rows64_f32": (1, ("addf",), 2e-6),
    "layer_norm_rows64_f32": (3, ("addf", "addf", "addf"), 5e-6),  # the mean summed twice
}


def _constant(value: SSAValue) -> float:
    """A scalar the body captures: only the export's arith.constant values."""
    owner = value.owner
    assert isinstance(owner, arith.ConstantOp) and isinstance(owner.value, FloatAttr), value
    return owner.value.value.data


def _f32(data: np.lib.npyio.NpzFile, key: str) -> np.ndarray:
    return data[key].view(np.float32)


@pytest.mark.parametrize("stem", list(CASES))
def test_an_exports_reductions_and_their_neighbours_are_one_region_equal_to_mlir(
        stem: str) -> None:
    count, combiners, bound = CASES[stem]
    path = FOLDER / f"{stem}.mlir"
    kernel = compile_file(path, level="linalg")
    fn = next(op for op in kernel.module.ops if isinstance(op, func.FuncOp)
              and op.sym_name.data == "main")
    (region,) = row_regions(fn.body.block)
    assert [c for r in region.reductions.values() for c in r.combiners] == list(combiners)
    assert len(region.reductions) == count
    body, inputs, rows = row_body(region)

    data = np.load(path.with_suffix(".npz"))
    args = {arg: _f32(data, f"in{i}") for i, arg in enumerate(fn.body.block.args)}
    expected = _f32(data, "out0")
    width = expected.shape[-1]
    assert rows.length == width
    shaped = []
    for value, kind in zip(inputs, rows.inputs, strict=True):
        array = args[value]  # every input of these regions is an argument of @main
        shaped.append(array.reshape(-1, width) if kind == "element" else
                      array.reshape(1, width) if kind == "column" else array.reshape(-1, 1))
    (result,) = run_body_values(body, shaped, outer=_constant)
    got = result.reshape(expected.shape).astype(np.float64)
    same = (got == expected) | (np.isnan(got) & np.isnan(expected))  # the fixtures' infinities
    assert np.all(same | np.isfinite(expected)), f"{stem}: {got[~same]} for {expected[~same]}"
    gap = np.max(np.abs(np.where(same, 0.0, got - np.where(same, 0.0, expected))))
    assert gap <= bound, f"{stem}: {gap}"
