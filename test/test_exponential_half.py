"""The shorter forms of the exponential ops whose result is rounded to f16 or bf16 (issue 38
item 4: hswc.ops.half_math's tanh, expm1 and log1p, GELU's degree-5 logistic form (f16) and
degree-4 tail (bf16), gelu_grad's degree-4 (f16) and degree-3 (bf16) factors; and mish_grad,
whose two-Div form f32 shares): every f16 and bf16 pattern within one ulp of the function
evaluated in double and rounded once (numpy's tanh, expm1 and logaddexp, math.erfc for GELU and
its derivative, a grad of 1: an independent model, not hswc.reference's formula), with
infinities and NaNs at the same places, and the kernels free of the Ln the longer forms take.

test_exponential_ops.py checks the same ops against PyTorch's tolerance at every level and on
the CPU build; this file checks the tighter bound the shorter forms are designed for.
"""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

from hswc.backend.source import kernel_source
from hswc.ops import OPS
from hswc.reference import compare_tolerance
from hswc.runner import Kernel, compile_text

HALVES = {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16)}
_ERFC = np.vectorize(math.erfc, otypes=[np.float64])


def _gelu(x: np.ndarray) -> np.ndarray:
    return x * _ERFC(-x / math.sqrt(2.0)) / 2


EXACT = {"tanh": np.tanh, "elu": lambda x: np.where(x >= 0, x, np.expm1(x)), "gelu": _gelu,
         "softplus": lambda x: np.where(x > 20, x, np.logaddexp(0.0, x)),
         "log_sigmoid": lambda x: -np.logaddexp(0.0, -x)}
"""The function in double (elu and softplus with their default attributes)."""


def _mish_grad(x: np.ndarray) -> np.ndarray:
    t = np.tanh(np.logaddexp(0.0, x))
    return t + x * (1 - t * t) / (1 + np.exp(-x))


EXACT_GRAD = {"gelu_grad": lambda x: _ERFC(-x / math.sqrt(2.0)) / 2
              + x * np.exp(-x * x / 2) / math.sqrt(2 * math.pi), "mish_grad": _mish_grad}
"""The derivative in double, for a grad of 1."""


def ordered(y: np.ndarray) -> np.ndarray:
    """16-bit patterns on a line where neighbours differ by one ulp (+0 and -0 both 0)."""
    bits = y.view(np.uint16).astype(np.int32)
    return np.where(bits & 0x8000, -(bits & 0x7FFF), bits)


def kernel_of(op: str, dtype: str) -> Kernel:
    return compile_text(OPS[op].single_op_text(dtype), core_num=4, ub_size=65536)


@pytest.mark.parametrize("dtype", list(HALVES))
@pytest.mark.parametrize("op", [*EXACT, *EXACT_GRAD])
def test_within_an_ulp_of_the_function_on_every_pattern(op: str, dtype: str) -> None:
    x = np.arange(1 << 16, dtype=np.uint16).view(HALVES[dtype])
    got = kernel_of(op, dtype)(np.ones_like(x), x) if op in EXACT_GRAD else kernel_of(op, dtype)(x)
    with np.errstate(all="ignore"):
        function = EXACT_GRAD[op] if op in EXACT_GRAD else EXACT[op]
        expected = np.asarray(function(x.astype(np.float64))).astype(HALVES[dtype])
    nan = np.isnan(expected.astype(np.float32))
    assert (np.isnan(got.astype(np.float32)) == nan).all()
    finite = np.isfinite(expected.astype(np.float32))
    assert (got[~finite & ~nan] == expected[~finite & ~nan]).all()
    ulps = np.abs(ordered(got) - ordered(expected))[finite]
    assert ulps.max() <= 1, f"{op} {dtype}: {ulps.max()} ulp at {x[finite][ulps.argmax()]}"
    assert (ulps > 0).mean() < 0.03, f"{op} {dtype}: {(ulps > 0).mean():.2%} not exact"


@pytest.mark.parametrize("op", ["tanh", "elu"])
def test_half_kernels_take_no_ln_where_f32_ones_do(op: str) -> None:
    """The short forms replace Kahan's expm1 (Exp, Ln, Div) with Exp alone in half."""
    assert "AscendC::Ln(" not in kernel_source(kernel_of(op, "f16").module)
    assert "AscendC::Ln(" in kernel_source(kernel_of(op, "f32").module)


def test_half_softplus_takes_no_div_but_beta_s() -> None:
    """log1p without Goldberg's correction (u - 1, a Div): the one Div left divides by beta."""
    assert kernel_source(kernel_of("softplus", "f16").module).count("AscendC::Div(") == 1
    assert kernel_source(kernel_of("softplus", "f32").module).count("AscendC::Div(") == 2


def test_compare_tolerance_reports_the_share_of_the_tolerance_used() -> None:
    """The figure bench_exponential_accuracy prints: |a - e| / (atol + rtol |e|), largest."""
    expected = np.array([1.0, 2.0, np.inf, 0.0], np.float16)
    actual = np.array([1.0009765625, 2.0, np.inf, 5e-6], np.float16)
    used = compare_tolerance(actual, expected).tolerance_used
    assert used == pytest.approx(0.0009765625 / (1e-5 + 1e-3 * 1.0))
    assert compare_tolerance(expected, expected).tolerance_used == 0.0


def test_f16_gelu_takes_no_select_and_bf16_keeps_its_tail() -> None:
    """f16's logistic form needs no sign split (one polynomial in x^2 for both signs): no
    CompareScalar, Select or Abs, and fewer vector calls than bf16's tail form."""
    f16, bf16 = (kernel_source(kernel_of("gelu", dt).module) for dt in HALVES)
    for call in ("Select(", "CompareScalar(", "Abs("):
        assert f"AscendC::{call}" not in f16
        assert f"AscendC::{call}" in bf16
    def calls(text: str) -> int:
        body = text[text.index("void Compute("):]
        body = body[:body.index("EnQue")]
        return body.count("AscendC::") - body.count("AscendC::PipeBarrier") - body.count(
            "AscendC::LocalTensor") - body.count("AscendC::RoundMode") - body.count(
            "AscendC::CMPMODE") - body.count("AscendC::SELMODE")
    assert calls(f16) < calls(bf16), (calls(f16), calls(bf16))  # 18 and 20 today


def test_f16_gelu_fit_stays_within_its_budget() -> None:
    """GELU_LOGIT_FIT_F16 against logit(Phi(x)) / -x in double (math.erfc, not the fitting
    tool's mpmath): |x| times r's error stays below 2^-12 of gelu(-x), or 2^-25 where that is an
    f16 subnormal, over |x| <= 5.75 (its docstring: 0.786 of that at most), and r at the cap
    keeps exp(x r) below 2^-25 for every f16 x above 5.75 (the result rounds to x)."""
    from hswc.ops.exponential import GELU_LOGIT_CAP, GELU_LOGIT_FIT_F16
    x = np.linspace(1e-3, 5.75, 4000)
    tail = _ERFC(x / math.sqrt(2.0)) / 2
    r = np.log(tail / (1 - tail)) / x
    fit = np.polyval(np.array(GELU_LOGIT_FIT_F16, np.float32).astype(np.float64), x * x)
    allowed = np.maximum(2.0 ** -12, 2.0 ** -25 / (x * tail)) / x
    assert (np.abs(fit - r) / allowed).max() < 0.8
    at_cap = float(np.polyval(GELU_LOGIT_FIT_F16, GELU_LOGIT_CAP))
    assert 5.75 * at_cap < -18  # x = 5.75: exp(x r) < 2^-25; beyond, smaller still
