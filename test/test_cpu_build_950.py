"""Ascend 950 kernels (`--soc ascend950`: the dav_3510 column of hswc/api_tables.def, native
bf16 Compare / Select / Max / Min where hswc.vectorizer.narrow moves a bf16 body's exact steps)
printed as AscendC, built against the CPU model for that SoC (-DASCENDC_CPU_DAV_3510), give bit
for bit what the interpreter gives and what the reference model gives (every f16 and bf16 bit
pattern of x, f32 samples), for every tiling key the run picks (HardSwishGrad's depth-1 and
depth-2 kernels of ops-nn's arch35 tiling), run as built with --cce-auto-sync=off (which Ascend
950 takes: its hardware orders vector calls) and breaking no synchronisation rule. A sample of
the ops by default; `pytest -m sweep` runs every other named op. The same table refuses, on
Atlas A2/A3, the bf16 calls these kernels make, in the interpreter and in the CPU model."""

from __future__ import annotations

import subprocess
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from cpu_build import Build, build, compiler, run_recorded
from sampling import SWEEP, sampled, selected
from test_cpu_build_family import ATTRIBUTES, DTYPES, _bits, _same, grad_values, module, x_values

from hswc import runner, soc_api
from hswc.backend.source import kernel_source
from hswc.checker.build import MODEL
from hswc.dialects import hsg
from hswc.ops import OPS
from hswc.reference import OP_REFERENCES

SAMPLE = ("hard_shrink", "hardtanh_grad", "leaky_relu_grad", "hard_swish_grad", "softshrink")
CORES, UB = 5, 253952
FLAGS = tuple(f"-D{d}" for d in soc_api.CPP_DEFINES["dav_3510"])


@cache
def kernel(op: str, dtype: str) -> runner.Kernel:
    return runner.compile_text(module(op), function=f"{op}_{dtype}", soc="ascend950",
                               core_num=CORES)


@pytest.fixture(scope="module")
def executables(tmp_path_factory: pytest.TempPathFactory,
                request: pytest.FixtureRequest) -> dict[str, Path]:
    directory = tmp_path_factory.mktemp("cpu_build_950")
    builds = {}
    for op in selected(request, "op"):
        source = directory / f"{op}.cpp"
        lowered = kernel(op, "f16").module
        source.write_text(kernel_source(lowered))
        keys = [str(fn.attributes[hsg.TILING_KEY_ATTR].value.data)  # type: ignore[union-attr]
                for fn in lowered.ops if hsg.TILING_KEY_ATTR in fn.attributes]
        chosen = (f"-DHSWC_TILING_KEYS={','.join(keys)}",) if keys else ()
        builds[op] = Build(source, directory / op,
                           (*FLAGS, *chosen, f"-DHSWC_KERNEL_ENTRY={op}",
                            f"-DHSWC_GM_INPUTS={len(OPS[op].op.INPUTS)}"))
    build(list(builds.values()))
    return {op: b.output for op, b in builds.items()}


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("op", sampled(OPS, SAMPLE, ids=list(OPS)))
def test_950_cpu_build_matches_interpreter_and_reference(
        op: str, dtype: str, executables: dict[str, Path], tmp_path: Path) -> None:
    x = x_values(dtype)
    inputs = [grad_values(x), x] if len(OPS[op].op.INPUTS) == 2 else [x]
    compiled = kernel(op, dtype)
    result = compiled.run(*inputs)
    (record,) = result.tilings
    assert record is not None
    on_cpu = run_recorded(executables[op], record, inputs, UB, tmp_path)
    assert _same(on_cpu, result.outputs[0]), f"{op} {dtype}: C++ != interpreter"
    semantics = compiled.semantics or OPS[op].default_semantics
    reference = OP_REFERENCES[(op, semantics)](*inputs, **ATTRIBUTES.get(op, {}))
    known = ~np.isnan(x.astype(np.float32))
    mismatched = np.flatnonzero(_bits(on_cpu)[known] != _bits(reference)[known])
    assert mismatched.size == 0, f"{op} {dtype}: {mismatched.size} mismatches"


def test_950_bf16_body_is_native_and_a2_widens() -> None:
    """HardShrink's bf16 kernel on 950 compares and selects bf16 (no Cast at all); on A2 the
    same module casts x to f32 first; HardSwishGrad's arch35 kernel keeps ops-nn's f32 path."""
    native = kernel_source(kernel("hard_shrink", "bf16").module)
    body = native.split("HardShrink<bfloat16_t>")[1]
    assert "AscendC::Select(yBf16" in body and "AscendC::Cast(" not in body.split("};")[0]
    a2 = kernel_source(runner.compile_text(module("hard_shrink"),
                                           function="hard_shrink_bf16").module)
    assert "AscendC::Cast(xFp32, xLocal" in a2
    hsg = kernel_source(kernel("hard_swish_grad", "bf16").module)
    assert "AscendC::Compares(" in hsg and "LocalTensor<float>" in hsg


def test_a2_interpreter_refuses_a_950_kernel() -> None:
    """A module lowered for 950 (native bf16 Compare or CompareScalar, as the schedule chose)
    run on ascend910b: the interpreter's table check names the call and the SoC."""
    lowered = kernel("hard_shrink", "bf16").module
    on_a2 = runner.Kernel(lowered, lowered, "hard_shrink_bf16", runner.get_platform("ascend910b"),
                          "ascend")
    x = x_values("bf16")[:256]
    with pytest.raises(runner.RunnerError, match=r"Compare(Scalar)? on bf16: Atlas A2/A3 "
                       r"\(ascend910b\) "
                       r"has no such call"):
        on_a2.run(x)


@pytest.mark.parametrize(("call", "a2", "a950"), [
    ("Maxs(h, h, bfloat16_t(1.0f), 128)", "Maxs supports (half, float, int16_t, int32_t) on "
     "Atlas A2/A3", None),
    pytest.param("Compares(m, h, bfloat16_t(1.0f), CMPMODE::GT, 128)", "Compare supports "
                 "(half, float, int32_t) on Atlas A2/A3", None, marks=SWEEP),
    pytest.param("Select(h, m, h, bfloat16_t(0.0f), SELMODE::VSEL_TENSOR_SCALAR_MODE, 128)",
                 "Select supports (half, float) on Atlas A2/A3", None, marks=SWEEP),
    pytest.param("Adds(h, h, bfloat16_t(1.0f), 128)", "Adds supports (half, float, int16_t, "
                 "int32_t)", None, marks=SWEEP),
    ("Muls(h, h, bfloat16_t(2.0f), 128)", "Muls supports (half, float, int16_t, int32_t)", None),
    ("Div(h, h, h, 128)", "Div supports (half, float)",
     "ascendc_cpu: Div is not modelled: its bfloat16_t rounding is not documented"),
])
def test_cpu_model_takes_the_socs_column(call: str, a2: str, a950: str | None,
                                         tmp_path: Path) -> None:
    source = tmp_path / "call.cpp"
    source.write_text('#include "kernel_operator.h"\nusing namespace AscendC;\n'
                      "void F(const LocalTensor<bfloat16_t>& h, const LocalTensor<uint8_t>& m) "
                      f"{{ (void)h; (void)m; {call}; }}\nint main() {{}}\n")
    for flags, want in (((), a2), (FLAGS, a950)):
        done = subprocess.run([compiler(), "-std=c++17", "-Wall", "-Wextra", "-Werror",
                               f"-I{MODEL}", *flags, "-fsyntax-only", str(source)],
                              capture_output=True, text=True, check=False)
        if want is None:
            assert done.returncode == 0, done.stderr
        else:
            assert done.returncode != 0 and want in done.stderr, done.stderr
