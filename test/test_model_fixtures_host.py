"""hswc-run at the hsg level equals MLIR's own CPU execution of the model fixture set
(test/fixtures/torch_models, written by tools/export_model_fixtures.py; its oracle is
tools/mlir_oracle.py): every file the oracle ran runs on the host, bit for bit where it holds no
math function whose last bit hswc's model and libm may place differently, within PyTorch's
default tolerance where it does.

Two bf16 files are outside that tolerance because of the oracle, not hswc: MLIR's
arith-emulate-unsupported-floats marks the f32 conversions it wraps each bf16 op in
`fastmath<contract>`, so the folder drops the rounding to bf16 between two emulated ops, and the
oracle computes a chain of bf16 arithmetic in f32 with one rounding at its end (a math op's
result and operands, widened by the oracle itself, keep theirs). hswc rounds each bf16 op, as
the IR says (`(1.0 + 2^-8) * 3.0` in bf16 is 3.0; the oracle gives 3.015625); a numpy
emulation of each rule reproduces each side (GeGLU's tanh form, below)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from sampling import sampled

from hswc.reference import compare_bitwise, compare_tolerance
from hswc.runner import compile_file

FIXTURES = Path(__file__).parent / "fixtures" / "torch_models"
RUN = [e for e in json.loads((FIXTURES / "index.json").read_text())["fixtures"]
       if e["status"] == "ok"]
VIEWS = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16, "f64": np.float64}
"""The npz holds floats as their bits; integers and i1 as they are."""
EXACT_MATH = {"math.sqrt", "math.absf", "math.fpowi", "math.floor", "math.ceil", "math.trunc",
              "math.round", "math.roundeven", "math.copysign"}
"""Math ops both sides compute exactly (or by the same steps)."""
ORACLE_CHAINS_BF16 = {"models/bert_mlp_bf16", "gated/geglu_tanh_bf16"}
"""Files whose bf16 arithmetic chains the oracle computes in f32 (module docstring)."""
SAMPLE = [e for e in RUN if "mobilenet_v3_small" not in e["name"]
          and (e["dtype"] not in ("f16", "bf16") or e["name"] in ORACLE_CHAINS_BF16)]
"""The default run: the f32 and integer files (a fraction of a second each) and the two the
oracle's bf16 chains set apart; MobileNet and the other f16 and bf16 files are sweep tests."""


def _arrays(entry: dict[str, Any], prefix: str, described: list[dict[str, Any]]
            ) -> list[np.ndarray]:
    data = np.load(FIXTURES / entry["npz"])
    return [data[f"{prefix}{i}"].view(VIEWS[d["type"]]) if d["type"] in VIEWS
            else data[f"{prefix}{i}"] for i, d in enumerate(described)]


@pytest.mark.parametrize("entry", sampled(RUN, SAMPLE, [e["name"] for e in RUN]))
def test_host_run_equals_mlir_execution(entry: dict[str, Any]) -> None:
    inputs = _arrays(entry, "in", entry["inputs"])
    want = _arrays(entry, "out", entry["outputs"])
    got = compile_file(FIXTURES / entry["mlir"], level="hsg").run(*inputs).outputs
    inexact = any(op.startswith("math.") and op not in EXACT_MATH for op in entry["ops"])
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        label = f"{entry['name']} result {i}"
        if entry["name"] in ORACLE_CHAINS_BF16:
            g64, w64 = g.astype(np.float64), w.astype(np.float64)
            finite = np.isfinite(w64)
            assert np.array_equal(np.isfinite(g64), finite), label
            assert np.array_equal(g64[~finite], w64[~finite], equal_nan=True), label
            error = float(np.max(np.abs(g64[finite] - w64[finite]), initial=0.0))
            scale = float(np.max(np.abs(w64[finite]), initial=0.0))
            assert error <= 2 ** -6 * scale, label  # a few bf16 ulps of the largest result
        elif inexact:
            within = compare_tolerance(g, w)
            assert within.equal, f"{label}: {within.summary()}"
        else:
            same = compare_bitwise(g, w)
            assert same.equal, f"{label}: {same.summary()}"


def test_the_oracle_rounds_a_bf16_chain_once_and_hswc_at_each_op() -> None:
    """GeGLU's tanh form in bf16: the oracle equals f32 arithmetic rounded only at the math
    ops and at the end; hswc equals rounding after every op (both with numpy's tanh)."""
    entry = next(e for e in RUN if e["name"] == "gated/geglu_tanh_bf16")
    (x,) = _arrays(entry, "in", entry["inputs"])
    (want,) = _arrays(entry, "out", entry["outputs"])
    (got,) = compile_file(FIXTURES / entry["mlir"], level="hsg").run(x).outputs
    bf16, f32 = np.dtype(ml_dtypes.bfloat16), np.float32
    a, b = x[:, :32].astype(f32), x[:, 32:].astype(f32)

    def r(v: np.ndarray) -> np.ndarray:
        return v.astype(bf16).astype(f32)

    def tanh(v: np.ndarray) -> np.ndarray:
        return r(np.tanh(v.astype(np.float64)).astype(f32))

    c, c0, half = f32(0.044677734375), f32(0.796875), f32(0.5)  # the file's bf16 constants
    cube = r(a * (a * a))  # fpowi, widened to f32 and rounded by both
    t = tanh(r((a + cube * c) * c0))
    chained = r(r(a * ((t + 1) * half)) * b)
    t = tanh(r(r(a + r(cube * c)) * c0))
    stepwise = r(r(a * r(r(t + 1) * half)) * b)
    assert np.array_equal(chained.astype(bf16).view(np.uint16), want.view(np.uint16))
    assert np.array_equal(stepwise.astype(bf16).view(np.uint16), got.view(np.uint16))
    assert not np.array_equal(got.view(np.uint16), want.view(np.uint16))
