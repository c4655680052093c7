"""Ascend 950 (ops-nn arch35) HardSwishGrad: the tiling, the two kernels, every level's bits.

The tiling figures are worked by hand from ops-nn's `hard_swish_grad_tiling_arch35.cpp`
(`ubFactor = FloorAlign(FloorDiv(ubSize / typeSize, bufferNum), 64)`, bufferNum 5/8 for f32 and
8/11 for f16/bf16, double buffering when totalNum > 1024, key `dtype | useDoubleBuffer << 8`);
the results are checked against `hard_swish_grad_cann_arch35` and hand-worked values.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest
from test_stage_agreement import DTYPES, module_text, operands, static_type

from hswc.dialects.hsg import LaunchOp
from hswc.ops.hard_swish_grad import arch35_budget
from hswc.platform import get_platform
from hswc.reference import compare_bitwise, hard_swish_grad_cann, hard_swish_grad_cann_arch35
from hswc.runner import LEVELS, Kernel, compile_text
from hswc.tiling import Variant, compute_tiling, template_tiling_key
from hswc.tools.hswc_run import main as hswc_run

UB_950 = 253952


def variants(dtype: str) -> tuple[Variant, ...]:
    budget = arch35_budget(dtype)
    depth1, depth2 = (budget.plan(d) for d in (1, 2))
    assert depth1 is not None and depth2 is not None
    return (Variant(depth1, template_tiling_key(dtype, 0)),
            Variant(depth2, template_tiling_key(dtype, 1), above=1024))


# (dtype, totalNum) -> (blockFactor, ubFactor, usedCoreNum, tilingKey) on 64 cores, 248 KB:
# f32 depth 1: 253952 / 4 / 5 = 12697 -> 12672; depth 2: / 8 = 7936 (a multiple of 64).
# f16/bf16 depth 1: 253952 / 2 / 8 = 15872; depth 2: / 11 = 11543 -> 11520.
# Keys: ge::DT_FLOAT 0, DT_FLOAT16 1, DT_BF16 27; depth 2 adds 256.
HAND_TILINGS = {
    ("f32", 1024): (16, 12672, 64, 0), ("f32", 1025): (17, 7936, 61, 256),
    ("f16", 1000): (16, 15872, 63, 1), ("f16", 1 << 20): (16384, 11520, 64, 257),
    ("bf16", 1024): (16, 15872, 64, 27), ("bf16", 4033): (64, 11520, 64, 283),
    ("f32", 0): (0, 0, 1, 0), ("bf16", 0): (0, 0, 1, 27),
}


@pytest.mark.parametrize(("dtype", "total"), HAND_TILINGS, ids=str)
def test_tiling_by_hand(dtype: str, total: int) -> None:
    platform = get_platform("ascend950")
    assert (platform.core_num, platform.ub_size) == (64, UB_950)
    t = compute_tiling(total, 64, UB_950, dtype, variants(dtype))
    assert (t.block_factor, t.ub_factor, t.used_core_num, t.tiling_key) == \
        HAND_TILINGS[dtype, total]


@functools.cache
def kernel(tensor_type: str, level: str, fold: bool = False) -> Kernel:
    return compile_text(module_text(tensor_type), name="arch35.mlir", level=level,
                        soc="ascend950", fold=fold)


def assert_every_level(tensor_type: str, grad: np.ndarray, x: np.ndarray,
                       ub_size: int | None = None, fold: bool = False) -> list[int]:
    """Every level equals the arch35 model bit for bit; the tiling keys the launches used."""
    expected = hard_swish_grad_cann_arch35(grad, x)
    keys: list[int] = []
    for level in LEVELS:
        k = kernel(tensor_type, level, fold and level != "hsg")
        assert k.semantics == "cann-arch35"
        if ub_size is not None:
            k = k.with_platform(ub_size=ub_size)
        result = k.run(grad, x)
        comparison = compare_bitwise(result.outputs[0], expected)
        assert comparison.equal, f"{level} level on {tensor_type}: {comparison.summary()}"
        if level == "ascend":
            keys = [t["tilingKey"] for t in result.tilings if t is not None]
    return keys


SHAPES = [(1,), (63,), (65,), (1000,), (1024,), (1025,), (4033,), (4, 1009), (3, 0, 2)]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_every_level_on_ascend950(dt: str, shape: tuple[int, ...]) -> None:
    """Below and above 1024 elements (the depth-1 and depth-2 kernels), each dtype."""
    grad, x = operands(shape, DTYPES[dt], seed=5)
    keys = assert_every_level(f"tensor<*x{dt}>", grad, x)
    total = int(np.prod(shape))
    depth2 = total > 1024
    base = {"f32": 0, "f16": 1, "bf16": 27}[dt]
    assert keys == [base + 256 * depth2]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", [(700,), (3000,)], ids=str)
def test_many_chunks_on_a_small_ub(dt: str, shape: tuple[int, ...]) -> None:
    """An 8 KB UB: a few hundred elements per pass, so every core runs several chunks, a short
    last one computed over roundup(cur, 64) lanes."""
    grad, x = operands(shape, DTYPES[dt], seed=6)
    assert_every_level(f"tensor<?x{dt}>", grad, x, ub_size=8192)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", [(1000,), (4033,)], ids=str)
def test_folded_tiling_launches_one_kernel(dt: str, shape: tuple[int, ...]) -> None:
    grad, x = operands(shape, DTYPES[dt], seed=7)
    assert_every_level(static_type(shape, dt), grad, x, fold=True)
    folded = kernel(static_type(shape, dt), "ascend", True).module
    launches = [op for op in folded.walk() if isinstance(op, LaunchOp)]
    host = launches[0].parent_op()
    assert len(launches) == 1 and host is not None
    assert not any(op.name == "scf.if" for op in host.walk())
    depth = "depth2" if shape[0] > 1024 else "depth1"
    assert launches[0].kernel.string_value() == f"hard_swish_grad_kernel_{dt}_{depth}"


def test_hand_checked_values() -> None:
    """x = -3 and 3 keep the linear piece (GE / LE): fl(fl(-3 * 0x3EAAAAAB) + 0.5) = -0.5, and
    1.5 at 3; below -3 it is grad * +0 (so -0.0 for a negative grad), above 3 grad, NaN x grad.
    The A2/A3 kernel (GT / LT) gives 0 and grad at -3 and 3."""
    x = np.array([-3, 3, -4, -4, 4, np.nan, 0, 1.5], np.float32)
    grad = np.array([2, 2, 5, -5, 7, 9, 4, 2], np.float32)
    want = np.array([-1, 3, 0, -0.0, 7, 9, 2, 2], np.float32)
    for dt in DTYPES:
        g, xx = grad.astype(DTYPES[dt]), x.astype(DTYPES[dt])
        y = kernel(f"tensor<8x{dt}>", "ascend")(g, xx)
        assert y.astype(np.float32).view(np.uint32).tolist() == want.view(np.uint32).tolist(), dt
        a2 = hard_swish_grad_cann(g, xx).astype(np.float32)
        assert a2[:2].tolist() == [0.0, 2.0]


def test_hswc_run_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    grad, x = operands((4, 1009), DTYPES["f16"], seed=8)
    source = tmp_path / "m.mlir"
    source.write_text(module_text("tensor<4x?xf16>"))
    for name, array in (("g", grad), ("x", x)):
        np.save(tmp_path / f"{name}.npy", array)
    argv = [str(source), "--input", str(tmp_path / "g.npy"), "--input", str(tmp_path / "x.npy"),
            "--soc", "ascend950"]
    assert hswc_run([*argv, "--check"]) == 0
    out = capsys.readouterr().out
    assert out == "--check cann-arch35: bit-exact: all 4036 float16 elements match\n"
    # The A2/A3 model differs where x is exactly +-3 (operands has those).
    assert hswc_run([*argv, "--check", "cann"]) == 1
    assert "--check cann: " in capsys.readouterr().out
