"""The math dialect in an elementwise body: math.exp, log, log1p, expm1, tanh, erf, sqrt, rsqrt
and absf through every level, the CPU build, and against the exact functions.

Each op runs at the linalg, tiled, blocked and ascend levels and as C++ on the CPU model of
AscendC (tools/ascendc_cpu), on every f16 pattern and f32 samples with the specials; all must
agree bit for bit (any NaN matching any NaN, as test_cpu_build_family says why). Against the
exact function (mpmath, rounded once to the type) the error stays within each op's bound: half
an ulp plus the rounding-boundary slack for the instructions modelled as correctly rounded,
a few ulps for the decompositions (hswc.math_decompositions). Unsupported math ops and math on
bf16 are refused by name.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import mpmath
import numpy as np
import pytest
from cpu_build import Build, build, run_recorded
from math_bodies import MATH_NAMES, math_module, same_bits
from sampling import sampled, selected

from hswc import math_semantics, runner
from hswc.backend.source import kernel_source
from hswc.remarks import collecting
from hswc.runner import compile_text

CORES, UB = 5, 65536
EXACT = {"exp": mpmath.exp, "log": mpmath.log, "log1p": mpmath.log1p, "expm1": mpmath.expm1,
         "tanh": mpmath.tanh, "erf": mpmath.erf, "sqrt": mpmath.sqrt,
         "rsqrt": lambda v: 1 / mpmath.sqrt(v), "absf": abs}
ULP_BOUND = {"exp": 0.5, "log": 0.5, "sqrt": 0.5, "rsqrt": 0.5, "absf": 0.0, "log1p": 3.0,
             "expm1": 3.0, "tanh": 4.0, "erf": 3.0}
"""Max error in ulps of the f32 result (the measured maxima of bench/bench_math_accuracy.py
are below these)."""


def f32_samples() -> np.ndarray:
    rng = np.random.default_rng(7)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1e-38, 3.4e38,
                         -3.4e38, 1.0, -1.0, 88.72, 88.73, -87.3, -103.9, -104.0, 2.0 ** -12,
                         0.99999994, 1.0000001, -0.99999994, 9.0, 10.0, 4.5, 3.92],
                        np.float32)
    spread = np.concatenate([rng.standard_normal(3000) * 3, rng.uniform(-100, 100, 1000),
                             np.exp(rng.uniform(-80, 80, 1000)),
                             -np.exp(rng.uniform(-80, 10, 500))])
    return np.concatenate([specials, spread.astype(np.float32)])


def x_values(dtype: str) -> np.ndarray:
    if dtype == "f16":
        return np.arange(1 << 16, dtype=np.uint16).view(np.float16)
    return f32_samples()


@cache
def kernel(op: str, dtype: str, level: str = "ascend") -> runner.Kernel:
    return compile_text(math_module(op, ("f16", "f32")), function=f"math_{op}_{dtype}", level=level,
                        core_num=CORES, ub_size=UB)


@pytest.mark.parametrize("dtype", ["f16", "f32"])
@pytest.mark.parametrize("op", MATH_NAMES)
def test_every_level_agrees(op: str, dtype: str) -> None:
    x = x_values(dtype)
    results = {level: kernel(op, dtype, level)(x) for level in ("linalg", "tiled", "ascend")}
    for level, y in results.items():
        assert same_bits(y, results["linalg"]), f"math.{op} {dtype}: {level} != linalg"


BUILD_SAMPLE = ("exp", "log1p", "erf", "rsqrt")
"""The ops whose C++ the default suite builds; `pytest -m sweep` builds the rest."""


@pytest.fixture(scope="module")
def executables(tmp_path_factory: pytest.TempPathFactory,
                request: pytest.FixtureRequest) -> dict[tuple[str, str], Path]:
    """One build per op and dtype the session's tests run (a generic's kernel is named after
    its function)."""
    directory = tmp_path_factory.mktemp("math_cpu_build")
    builds = {}
    for op in selected(request, "op") & set(MATH_NAMES):
        for dtype in ("f16", "f32"):
            name = f"math_{op}_{dtype}"
            source = directory / f"{name}.cpp"
            source.write_text(kernel_source(compile_text(math_module(op, (dtype,))).module))
            builds[op, dtype] = Build(source, directory / name,
                                      (f"-DHSWC_KERNEL_ENTRY={name}", "-DHSWC_GM_INPUTS=1"))
    build(list(builds.values()))
    return {key: b.output for key, b in builds.items()}


@pytest.mark.parametrize("dtype", ["f16", "f32"])
@pytest.mark.parametrize("op", sampled(MATH_NAMES, BUILD_SAMPLE, ids=MATH_NAMES))
def test_cpu_build_matches_interpreter(op: str, dtype: str,
                                       executables: dict[tuple[str, str], Path],
                                       tmp_path: Path) -> None:
    x = x_values(dtype)
    result = kernel(op, dtype).run(x)
    (record,) = result.tilings
    assert record is not None
    on_cpu = run_recorded(executables[op, dtype], record, [x], UB, tmp_path)
    assert same_bits(on_cpu, result.outputs[0]), f"math.{op} {dtype}: C++ != interpreter"


def ulp_error(op: str, x: np.ndarray, y: np.ndarray) -> float:
    """The largest |y - f(x)| in ulps of f(x) rounded to f32, over finite x with a finite real
    f(x) (an infinite one must be met exactly)."""
    mpmath.mp.prec = 80
    worst = 0.0
    for xi, yi in zip(x.astype(np.float64), y.astype(np.float64), strict=True):
        if not np.isfinite(xi) or (op in ("log", "sqrt", "rsqrt") and xi <= 0) or \
                (op == "log1p" and xi <= -1):
            continue  # the special values: test_instruction_models_special_values
        exact = EXACT[op](mpmath.mpf(xi))
        with np.errstate(over="ignore"):
            rounded = np.float32(float(exact))
        if not np.isfinite(rounded) or not np.isfinite(yi):
            assert yi == rounded, (op, xi, yi, rounded)
            continue
        ulp = float(np.spacing(np.float32(abs(rounded)))) if rounded != 0 else 2.0 ** -149
        worst = max(worst, abs(float(mpmath.mpf(yi) - exact)) / ulp)
    return worst


@pytest.mark.parametrize("op", MATH_NAMES)
def test_f32_error_against_the_exact_function(op: str) -> None:
    x = f32_samples()[::3]
    assert ulp_error(op, x, kernel(op, "f32")(x)) <= ULP_BOUND[op] + 1e-3


def test_instruction_models_special_values() -> None:
    x = np.array([np.inf, -np.inf, 0.0, -0.0, -1.0, 1.0], np.float32)
    assert math_semantics.exp(x).tolist()[:4] == [np.inf, 0.0, 1.0, 1.0]
    assert math_semantics.ln(x)[2:4].tolist() == [-np.inf, -np.inf]
    assert np.isnan(math_semantics.ln(x)[[1, 4]]).all()
    assert math_semantics.rsqrt(x)[[0, 2, 3]].tolist() == [0.0, np.inf, -np.inf]
    assert np.signbit(math_semantics.sqrt(x)[3])
    payload = np.array([0x7F800001], np.uint32).view(np.float32)  # a signalling NaN
    assert math_semantics.exp(payload).view(np.uint32)[0] == 0x7FC00001


@pytest.mark.parametrize("op", ["exp", "sqrt"])
def test_math_on_bf16_computes_in_f32_as_mlir_lowers_it(op: str) -> None:
    """Issue 35: exporters write math on bf16; MLIR computes it in f32 and rounds once."""
    x = np.arange(0, 1 << 16, 7, dtype=np.uint16).view(math_semantics.BF16)
    got = compile_text(math_module(op, ("bf16",)), core_num=CORES, ub_size=UB)(x)
    widened = compile_text(math_module(op, ("bf16",), widen=True), core_num=CORES,
                           ub_size=UB)(x)
    assert same_bits(got, widened)
    if op == "sqrt":  # correctly rounded: f32 then bf16 is innocuous double rounding
        with np.errstate(invalid="ignore"):
            exact = np.sqrt(x.astype(np.float64)).astype(math_semantics.BF16)
        assert same_bits(got, exact)


def test_composite_math_on_bf16_computes_in_f32() -> None:
    x = np.arange(1 << 16, dtype=np.uint16).view(math_semantics.BF16)
    got = compile_text(math_module("tanh", ("bf16",)), core_num=CORES, ub_size=UB)(x)
    widened = compile_text(math_module("tanh", ("bf16",), widen=True), level="linalg")(x)
    assert same_bits(got, widened)


def test_an_unsupported_math_op_keeps_its_generic_on_the_host_saying_why() -> None:
    with collecting() as said:
        kernel = compile_text(math_module("sin", ("f32",)))
    assert [r.severity for r in said] == ["warning"]
    assert re.search(r"'math\.sin' at .* is not an elementwise operation the vectorizer maps; "
                     r"supported: .*math\.exp, math\.log, .*math\.erf", said[0].text)
    assert "linalg.generic" in str(kernel.module) and "hsg.launch" not in str(kernel.module)
