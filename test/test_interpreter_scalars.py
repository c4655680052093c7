"""Run-time scalars in the interpreter: a kernel with f32 arguments launched through
hsg.launch, and the arith ops of a kernel's scalar code, against hand-checked values."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
from scalar_kernel import per_core_scalar_module, slope_clip_module

from hswc import runner
from hswc.interpreter.execute import call_function
from hswc.interpreter.machine import Machine
from hswc.platform import get_platform

F16_LAMBD = 1.099609375
"""1.1 (as f32, 1.10000002384...) rounded to half: 1126 / 1024."""


def bits(a: np.ndarray) -> np.ndarray:
    return np.asarray(a).view(np.uint16)


def slope_clip(negative_slope: float = 0.25, lambd: float = 1.1, cores: int = 3) -> runner.Kernel:
    return runner.compile_text(slope_clip_module(negative_slope, lambd), core_num=cores)


# region the kernel


def test_hand_checked_elements() -> None:
    # slope 0.25, lambd 1.1: half(lambd) = 1.099609375 bounds [-1.099609375, 1.099609375].
    x = np.array([-3.0, -F16_LAMBD, -1.1015625, -1.0, -0.0, 0.5, F16_LAMBD, 1.1015625, 2.0**-24,
                  65504.0, np.inf, -np.inf, np.nan], np.float16)
    expected = np.array([F16_LAMBD, -0.27490234375, F16_LAMBD, -0.25, -0.0, 0.125,
                         0.27490234375, F16_LAMBD, 0.0, F16_LAMBD, F16_LAMBD, F16_LAMBD,
                         F16_LAMBD], np.float16)
    y = slope_clip()(x)
    assert np.array_equal(bits(y), bits(expected))  # -0.0 stays -0.0; 2^-26 rounds to +0


def test_slope_is_maximum_with_zero() -> None:
    x = np.array([-1.0, 1.0, 0.5], np.float16)
    # maximumf(-0.5, 0) = +0: x * +0 is -0 for negative x, +0 for positive x.
    assert np.array_equal(bits(slope_clip(-0.5)(x)), bits(np.array([-0.0, 0.0, 0.0], np.float16)))
    # maximumf(-0, +0) = +0 as well (not -0, which would flip every sign).
    assert np.array_equal(bits(slope_clip(-0.0)(x)), bits(np.array([-0.0, 0.0, 0.0], np.float16)))
    # maximumf(NaN, 0) is NaN: every element inside the bounds becomes NaN.
    y = slope_clip(float("nan"))(np.array([-1.0, 0.5, 3.0], np.float16))
    assert np.isnan(y[:2]).all() and y[2] == F16_LAMBD


def test_lambd_rounds_to_nearest_even_half() -> None:
    # 1 + 2^-11 lies halfway between the halves 1 and 1 + 2^-10: it rounds to 1 (even).
    x = np.array([1.0, 1.0 + 2.0**-10, -1.0, -1.0 - 2.0**-10], np.float16)
    y = slope_clip(1.0, 1.0 + 2.0**-11)(x)
    assert y.tolist() == [1.0, 1.0, -1.0, 1.0]
    # 1 + 3 * 2^-11 lies halfway between 1 + 2^-10 and 1 + 2^-9: it rounds to 1 + 2^-9.
    y = slope_clip(1.0, 1.0 + 3 * 2.0**-11)(x)
    assert y.tolist() == [1.0, 1.0 + 2.0**-10, -1.0, -1.0 - 2.0**-10]


def test_every_core_and_chunk_against_numpy() -> None:
    rng = np.random.default_rng(7)
    x = (3 * rng.standard_normal(5000)).astype(np.float16)
    slope, lambd = np.float16(np.float32(0.3)), np.float16(np.float32(2.5))
    inside = (x >= -lambd) & (x <= lambd)
    expected = np.where(inside, (x * slope).astype(np.float16), lambd)
    result = slope_clip(0.3, 2.5, cores=4).run(x)
    assert np.array_equal(bits(result.outputs[0]), bits(expected))
    # 4 cores of 1250 elements, two chunks each (1024 and a 226-element tail).
    assert result.tilings == [{"totalNum": 5000, "blockFactor": 1250, "ubFactor": 1024,
                               "usedCoreNum": 4, "tilingKey": 0,
                               "negativeSlope": float(np.float32(0.3)),
                               "lambd": 2.5}]


def test_tiling_json_records_the_scalars(tmp_path: Path) -> None:
    source, x_file, tiling = tmp_path / "k.mlir", tmp_path / "x.npy", tmp_path / "tiling.json"
    source.write_text(slope_clip_module(0.01, 0.5))
    np.save(x_file, np.linspace(-1, 1, 300, dtype=np.float16))
    script = Path(sys.executable).parent / "hswc-run"
    run = subprocess.run([str(script), str(source), "--input", str(x_file), "--core-num", "2",
                          "--tiling-json", str(tiling)],
                         capture_output=True, text=True, check=False, timeout=120)
    assert (run.returncode, run.stderr) == (0, "")
    assert json.loads(tiling.read_text()) == {
        "totalNum": 300, "blockFactor": 150, "ubFactor": 1024, "usedCoreNum": 2,
        "tilingKey": 0, "negativeSlope": 0.009999999776482582, "lambd": 0.5}


def test_a_scalar_that_differs_between_cores_fills_each_core_with_its_own() -> None:
    """Duplicate's scalar is each core's own register: core 0 bounds by half(lambd), core 1
    by half(slope) = 0.25 (worked out by hand from the two Selects: x below -half(lambd)
    gives half(lambd), x above the bound gives the bound)."""
    kernel = runner.compile_text(per_core_scalar_module(), core_num=2)
    x = np.linspace(-3.0, 3.0, 300).astype(np.float16)
    y = kernel(x)
    lambd, slope = np.float16(F16_LAMBD), np.float16(0.25)
    first, second = x[:150], x[150:]  # blockFactor 150 (the tiling test above)
    expected = np.concatenate([
        np.where((first >= -lambd) & (first <= lambd), first * slope, lambd),
        np.where(second < -lambd, lambd, np.where(second <= slope, second * slope, slope)),
    ]).astype(np.float16)
    assert np.array_equal(bits(y), bits(expected))


# endregion
# region the scalar arith ops


SCALAR_CODE = """
func.func @scalars(%a: f32, %b: f32) -> (f32, f32, f32, f32, f32, f32, f32, f16, bf16, f32, f32) {
  %sum = arith.addf %a, %b : f32
  %difference = arith.subf %a, %b : f32
  %product = arith.mulf %a, %b : f32
  %quotient = arith.divf %a, %b : f32
  %larger = arith.maximumf %a, %b : f32
  %smaller = arith.minimumf %a, %b : f32
  %negated = arith.negf %a : f32
  %half = arith.truncf %a : f32 to f16
  %brain = arith.truncf %a : f32 to bf16
  %wide = arith.extf %half : f16 to f32
  %tenth = arith.constant 1.000000e-01 : f32
  func.return %sum, %difference, %product, %quotient, %larger, %smaller, %negated, %half,
      %brain, %wide, %tenth : f32, f32, f32, f32, f32, f32, f32, f16, bf16, f32, f32
}
"""


NAMES = ("sum", "difference", "product", "quotient", "larger", "smaller", "negated", "half",
         "brain", "wide", "tenth")


def scalar_code(a: float, b: float) -> dict[str, np.generic]:
    """The results of @scalars on f32 a and b, by name."""
    module = runner.compile_text(SCALAR_CODE).module
    machine = Machine(get_platform("ascend910b"))
    results = call_function(module, "scalars", (np.float32(a), np.float32(b)), machine)
    return dict(zip(NAMES, results, strict=True))


def test_scalar_arithmetic_rounds_in_f32() -> None:
    r = scalar_code(2.0**24, 1.0)
    # 2^24 + 1 is no f32 (the tie goes to even, 2^24); 2^24 - 1 is one.
    assert r["sum"] == 2.0**24 and r["difference"] == 2.0**24 - 1
    assert r["product"] == r["quotient"] == r["larger"] == 2.0**24 and r["smaller"] == 1.0
    assert r["negated"] == -(2.0**24)
    assert r["half"] == np.inf and r["half"].dtype == np.float16  # 2^24 overflows half
    assert r["brain"] == 2.0**24 and r["brain"].dtype == ml_dtypes.bfloat16
    assert r["wide"] == np.inf and r["wide"].dtype == np.float32
    assert float(r["tenth"]) == 0.10000000149011612  # the f32 nearest 0.1, not the double
    assert all(v.dtype == np.float32 for k, v in r.items() if k not in ("half", "brain"))
    assert scalar_code(1.0, 3.0)["quotient"] == 0.3333333432674408  # 1/3 rounded to f32
    assert scalar_code(1.0, 2.0**-24)["sum"] == 1.0  # 1 + 2^-24 is a tie in f32: to even


def test_scalar_conversions_round_to_nearest_even() -> None:
    r = scalar_code(1.0 + 2.0**-11, 1.0)  # halfway between the halves 1 and 1 + 2^-10
    assert r["half"] == 1.0 and r["wide"] == 1.0
    r = scalar_code(1.0 + 3 * 2.0**-11, 1.0)  # halfway between 1 + 2^-10 and 1 + 2^-9
    assert r["half"] == 1.0 + 2.0**-9
    r = scalar_code(1.0 + 2.0**-8, 1.0)  # halfway between the bfloat16s 1 and 1 + 2^-7
    assert r["brain"] == 1.0 and r["half"] == 1.0 + 2.0**-8  # exact in half
    assert scalar_code(1.0 + 2.0**-8 + 2.0**-10, 1.0)["brain"] == 1.0 + 2.0**-7  # above it


def test_maximum_and_minimum_order_zeros_and_propagate_nan() -> None:
    for a, b in ((-0.0, 0.0), (0.0, -0.0)):
        r = scalar_code(a, b)
        assert (np.signbit(r["larger"]), np.signbit(r["smaller"])) == (False, True)
    assert np.signbit(scalar_code(0.0, 1.0)["negated"])  # -(+0) is -0
    for a, b in ((float("nan"), 1.0), (1.0, float("nan"))):
        r = scalar_code(a, b)
        assert np.isnan(r["larger"]) and np.isnan(r["smaller"])


# endregion
