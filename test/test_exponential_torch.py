"""hswc against PyTorch's own results: the 19 exponential activations on the inputs of
test/data/exponential_torch.npz (made with torch 2.13 eager CPU by tools/make_torch_expected.py;
torch is not needed here), at the ascend level, each within torch.testing.assert_close's
default tolerance with infinities and NaNs at the same places."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from hswc import runner
from hswc.ops import OPS
from hswc.reference import compare_tolerance

DATA = np.load(Path(__file__).resolve().parent / "data" / "exponential_torch.npz")
DTYPES = {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16),
          "f32": np.dtype(np.float32)}
EXPONENTIAL = [name for name, d in OPS.items() if not d.exact]


def stored(key: str, dtype: str) -> np.ndarray:
    a = DATA[key]
    return a.view(DTYPES["bf16"]) if dtype == "bf16" else a


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("op", EXPONENTIAL)
def test_within_torch_tolerance_of_torch(op: str, dtype: str) -> None:
    inputs_ = OPS[op].op.INPUTS
    x, grad = stored(f"x_{dtype}", dtype), stored(f"grad_{dtype}", dtype)
    args = [x] if len(inputs_) == 1 else [grad, x]
    if inputs_[-1] == "result":
        args = [grad, stored(f"{op}_y_{dtype}", dtype)]
    t = f"tensor<?x{dtype}>"
    text = (f"func.func @f({', '.join(f'%{n}: {t}' for n in inputs_)}) -> {t} {{\n"
            f"  %r = hsg.{op} {', '.join(f'%{n}' for n in inputs_)} : {t}\n"
            f"  func.return %r : {t}\n}}\n")
    got = runner.compile_text(text, core_num=4, ub_size=65536)(*args)
    result = compare_tolerance(got, stored(f"{op}_{dtype}", dtype))
    assert result.equal, f"{op} {dtype}: {result.summary(tuple(args))}"
