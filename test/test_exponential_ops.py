"""The 19 exponential activations (EXPONENTIAL.md) through every tool.

Each op, with its default attributes and with others (gelu's tanh form, elu_grad on the
result, softplus with beta 2 and threshold 5, ...), runs at the linalg, tiled and ascend
levels and as C++ on the CPU model of AscendC; all agree bit for bit (any NaN matching any
NaN). Against its independent model (hswc.reference: PyTorch's formula in double, rounded
once) every result is within torch.testing.assert_close's default tolerance, with infinities
and NaNs at the same places: every f16 and bf16 pattern of x, and f32 samples over every regime
(bench/bench_exponential_accuracy.py sweeps a million). Bad attributes are refused at the op,
naming the attribute; hswc-run --check reports max ulp and the worst input; hswc-emit packages
every op under ops-nn's names.
"""

from __future__ import annotations

import math
import subprocess
import sys
from functools import cache
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from cpu_build import Build, build, run_recorded
from math_bodies import same_bits
from sampling import sampled, selected

from hswc import runner
from hswc.backend.operator import snake_case
from hswc.backend.source import kernel_source
from hswc.ops import OPS
from hswc.reference import OP_REFERENCES, compare_tolerance
from hswc.runner import CompileError

EXPONENTIAL = [name for name, d in OPS.items() if not d.exact]
DTYPES = {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16),
          "f32": np.dtype(np.float32)}
VARIANTS: dict[str, dict[str, object]] = {
    "gelu": {"approximate": "tanh"}, "gelu_grad": {"approximate": "tanh"},
    "elu": {"alpha": 0.7, "scale": 1.5, "input_scale": 2.0},
    "elu_grad": {"alpha": 0.7, "scale": 1.5, "input_scale": 2.0, "is_result": True},
    "celu": {"alpha": 2.5}, "softplus": {"beta": 2.0, "threshold": 5.0},
    "softplus_grad": {"beta": 2.0, "threshold": 5.0},
    "silu": {"scale": 1.702}, "silu_grad": {"scale": -0.6},
}
"""Attributes away from their defaults (the ops without attributes run with none)."""
OPS_NN_VARIANTS: dict[str, dict[str, object]] = {
    "celu": {"alpha": 1.5, "alpha2": 0.8, "alpha3": 2.0},
}
"""ops-nn's forms beyond PyTorch's: its Celu's three alphas (alpha1 is alpha)."""
CASES = ([(op, {}) for op in EXPONENTIAL] + list(VARIANTS.items())
         + list(OPS_NN_VARIANTS.items()))
IDS = ([op for op in EXPONENTIAL] + [f"{op}-variant" for op in VARIANTS]
       + [f"{op}-ops-nn" for op in OPS_NN_VARIANTS])
CASE_OF = dict(zip(IDS, CASES, strict=True))
BUILD_SAMPLE = ("sigmoid", "gelu", "log_sigmoid", "softplus", "mish_grad", "elu-variant")
"""The cases whose C++ the default suite builds (a plain, a tanh-based, a log, a softplus
threshold, a grad and a variant's attributes); `pytest -m sweep` builds the rest."""
PACKAGE_SAMPLE = ("sigmoid", "gelu_grad", "softplus")
CORES, UB = 6, 196608


def _attr_text(attrs: dict[str, object]) -> str:
    def one(k: str, v: object) -> str:
        if isinstance(v, bool):
            return f"{k} = {'true' if v else 'false'}"
        if isinstance(v, str):
            return f'{k} = "{v}"'
        return f"{k} = {v!r} : f32"
    return "{" + ", ".join(one(k, v) for k, v in attrs.items()) + "} " if attrs else ""


def module(op: str, attrs: dict[str, object], dtypes: tuple[str, ...] = tuple(DTYPES)) -> str:
    inputs = OPS[op].op.INPUTS
    functions = []
    for dt in dtypes:
        t = f"tensor<?x{dt}>"
        args = ", ".join(f"%{n}: {t}" for n in inputs)
        operands = ", ".join(f"%{n}" for n in inputs)
        functions.append(f"func.func @{op}_{dt}({args}) -> {t} {{\n"
                         f"  %r = hsg.{op} {operands} {_attr_text(attrs)}: {t}\n"
                         f"  func.return %r : {t}\n}}\n")
    return "".join(functions)


def x_values(dtype: str) -> np.ndarray:
    """Every f16 / bf16 pattern; f32: specials, both sides of 0, 1 and the thresholds, the
    overflow and underflow regions, and a spread."""
    if dtype != "f32":
        return np.arange(1 << 16, dtype=np.uint16).view(DTYPES[dtype])
    rng = np.random.default_rng(3)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1e-30, -1e-30,
                         1.0, -1.0, 2.5, 5.0, 20.0, 20.000002, 19.999998, 88.72, -88.72,
                         89.0, -89.0, 104.0, -104.0, 3.4e38, -3.4e38], np.float32)
    spread = np.concatenate([rng.standard_normal(6000) * 3, rng.uniform(-120, 120, 2000),
                             rng.standard_normal(1000) * 1e-4])
    return np.concatenate([specials, spread.astype(np.float32)])


def inputs_of(op: str, dtype: str, attrs: dict[str, object]) -> list[np.ndarray]:
    x = x_values(dtype)
    if len(OPS[op].op.INPUTS) == 1:
        return [x]
    rng = np.random.default_rng(x.size)
    grad = rng.uniform(-4, 4, x.size).astype(np.float32)
    # NaN and zero grads; not infinite ones: where the f32 derivative underflows to 0 an
    # infinite grad gives NaN (as PyTorch's f32 kernels do), the double formula +-inf.
    grad[rng.integers(0, x.size, 32)] = np.array([np.nan, 0.0, -0.0], np.float32)[
        rng.integers(0, 3, 32)]
    second = x
    if OPS[op].op.INPUTS[1] == "result":  # a forward result: sigmoid's in (0, 1), tanh's in (-1, 1)
        forward = op.removesuffix("_grad")
        second = OP_REFERENCES[(forward, "torch")](x)
    return [grad.astype(DTYPES[dtype]), second]


@cache
def kernel(op: str, attrs_key: tuple[tuple[str, object], ...], dtype: str,
           level: str = "ascend") -> runner.Kernel:
    return runner.compile_text(module(op, dict(attrs_key)), function=f"{op}_{dtype}",
                               level=level, core_num=CORES, ub_size=UB)


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize(("op", "attrs"), CASES, ids=IDS)
def test_levels_agree_and_stay_within_torch_tolerance(op: str, attrs: dict[str, object],
                                                      dtype: str) -> None:
    key = tuple(attrs.items())
    inputs = inputs_of(op, dtype, attrs)
    got = kernel(op, key, dtype)(*inputs)
    assert same_bits(kernel(op, key, dtype, "linalg")(*inputs), got), f"{op} {dtype}: levels"
    expected = OP_REFERENCES[(op, "torch")](*inputs, **attrs)
    result = compare_tolerance(got, expected)
    assert result.equal, f"{op} {dtype}: {result.summary(tuple(inputs))}"


def test_gelu_grad_tanh_form_keeps_atens_values_where_its_terms_leave_f32() -> None:
    """s + s (1 - s) x (2u)' (hswc.ops.exponential_grad.gelu_grad_tanh) where exp(-2u) is 0 or
    +inf: ATen's 1 (x up to 1.8e19) and 0 (down to -1.8e19), not the 0 * inf = NaN an
    x (1 - s) (2u)' first would give below x = -1e13; NaN where (2u)' overflows, at +-inf and
    NaN; and at x = -4.9, where ATen's f32 1 + tanh(u) cancels, nearer the exact derivative."""
    x = np.array([10.5, -10.5, 1e13, -1e13, 1e15, -1e15, 1e19, -1e19, 2e19, -2e19, np.inf,
                  -np.inf, np.nan], np.float32)
    got = kernel("gelu_grad", (("approximate", "tanh"),), "f32")(np.ones_like(x), x)
    expected = np.array([1, 0, 1, 0, 1, 0, 1, 0] + [np.nan] * 5, np.float32)
    assert same_bits(np.abs(got), expected), got
    minus = np.array([-4.9], np.float32)
    near = kernel("gelu_grad", (("approximate", "tanh"),), "f32")(np.ones_like(minus), minus)
    u = math.sqrt(2 / math.pi) * (-4.9 + 0.044715 * (-4.9) ** 3)
    t = math.tanh(u)
    exact = 0.5 * (1 + t) + 0.5 * -4.9 * (1 - t * t) * math.sqrt(2 / math.pi) * (
        1 + 3 * 0.044715 * 4.9 ** 2)
    assert abs(float(near[0]) / exact - 1) < 1e-4, (near, exact)


@pytest.fixture(scope="module")
def executables(tmp_path_factory: pytest.TempPathFactory,
                request: pytest.FixtureRequest) -> dict[str, Path]:
    """Each case's three-dtype translation unit (one templated kernel) the session's tests
    run, built at once."""
    directory = tmp_path_factory.mktemp("exponential_cpu_build")
    builds = {}
    for name in selected(request, "name"):
        op, attrs = CASE_OF[name]
        source = directory / f"{name}.cpp"
        lowered = runner.compile_text(module(op, attrs), function=f"{op}_f16").module
        source.write_text(kernel_source(lowered))
        builds[name] = Build(source, directory / name.replace("-", "_"),
                             (f"-DHSWC_KERNEL_ENTRY={op}",
                              f"-DHSWC_GM_INPUTS={len(OPS[op].op.INPUTS)}"))
    build(list(builds.values()))
    return {name: b.output for name, b in builds.items()}


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("name", sampled(IDS, BUILD_SAMPLE, ids=IDS))
def test_cpu_build_matches_the_interpreter(name: str, dtype: str, executables: dict[str, Path],
                                           tmp_path: Path) -> None:
    op, attrs = CASE_OF[name]
    inputs = inputs_of(op, dtype, attrs)
    result = kernel(op, tuple(attrs.items()), dtype).run(*inputs)
    (record,) = result.tilings
    assert record is not None
    on_cpu = run_recorded(executables[name], record, inputs, UB, tmp_path)
    assert same_bits(on_cpu, result.outputs[0]), f"{op} {dtype}: C++ != interpreter"


@pytest.mark.parametrize(("text", "message"), [
    ("hsg.softplus %x {beta = 0.0 : f32}", "'hsg.softplus' attribute beta must be positive, "
     "got 0.0"),
    ("hsg.softplus_grad %x, %x {beta = -1.0 : f32}", "'hsg.softplus_grad' attribute beta must "
     "be positive, got -1.0"),
    ('hsg.gelu %x {approximate = "erf"}', "'hsg.gelu' attribute approximate must be \"none\" | "
     "\"tanh\", got \"erf\""),
    ("hsg.gelu_grad %x, %x {approximate = 1.0 : f32}", "'hsg.gelu_grad' attribute approximate "
     "must be \"none\" | \"tanh\", got 1.0"),
    ("hsg.elu %x {alpha = 0x7F800000 : f32}", "'hsg.elu' attribute alpha must be a finite "
     "f32, got inf"),
    ("hsg.elu_grad %x, %x {is_result = 1.0 : f32}", "'hsg.elu_grad' attribute is_result "
     "must be a bool (true or false), got 1.0"),
    ("hsg.celu %x {alpha = 0.0 : f32}", "'hsg.celu' attribute alpha must not be zero (Celu "
     "divides by it)"),
    ("hsg.sigmoid %x {beta = 1.0 : f32}", "hsg.sigmoid has no attribute 'beta' (its "
     "attributes: none)"),
])
def test_bad_attributes_are_refused_at_the_op(text: str, message: str) -> None:
    source = (f"func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {{\n  %y = {text} : "
              "tensor<4xf32>\n  func.return %y : tensor<4xf32>\n}\n")
    with pytest.raises(CompileError) as error:
        runner.compile_text(source, name="bad.mlir")
    assert message in str(error.value) and "bad.mlir:2:" in str(error.value)


def test_check_reports_max_ulp_and_the_worst_input(tmp_path: Path) -> None:
    source = tmp_path / "silu.mlir"
    source.write_text(module("silu", {}, ("f32",)))
    x = np.linspace(-10, 10, 999, dtype=np.float32)
    np.save(tmp_path / "x.npy", x)
    done = subprocess.run([sys.executable, "-m", "hswc.tools.hswc_run", str(source), "--input",
                           str(tmp_path / "x.npy"), "--check"], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    said, summary = done.stdout.splitlines()
    assert said == ("--check (each op's default semantics): compared within torch.testing."
                    "assert_close's default tolerance, not bit for bit: hsg.silu is an "
                    "exponential activation")
    assert summary.startswith("--check (each op's default semantics): within torch "
                              "tolerance: max ")
    assert " ulp over 999 elements at index (" in done.stdout
    assert "0 outside rtol/atol, 0 inf/NaN positions differ" in done.stdout


@pytest.mark.parametrize("op", sampled(EXPONENTIAL, PACKAGE_SAMPLE, ids=EXPONENTIAL))
def test_every_op_packages_under_ops_nn_names(op: str, tmp_path: Path) -> None:
    source = tmp_path / f"{op}.mlir"
    source.write_text(module(op, {}, ("f16",)))
    out = tmp_path / "pkg"
    done = subprocess.run([sys.executable, "-m", "hswc.tools.hswc_emit", str(source), "-o",
                           str(out)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    stem = snake_case(OPS[op].docs.op_type)
    assert (out / "op_kernel" / f"{stem}.cpp").is_file()
    api = snake_case(OPS[op].aclnn.removeprefix("aclnn"))
    header = (out / "op_host" / "op_api" / f"aclnn_{api}.h").read_text()
    assert f"{OPS[op].aclnn}GetWorkspaceSize(" in header
