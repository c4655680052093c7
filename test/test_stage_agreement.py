"""Stage agreement: every IR level computes the reference's bits.

The same inputs run through the module at the hsg, tiled, blocked and ascend levels (hswc.runner,
the interpreter of hswc.interpreter) and each result must equal hswc.reference's CANN model bit
for bit (NaN as NaN, everything else by bit pattern, so -0.0 is not +0.0), for f16, bf16 and f32,
on the shapes the issue names, on several platforms (a small UB forces many chunks per core),
with the tiling folded into the IR or computed at run time, and on random shapes, dtypes,
platforms and bit patterns (hypothesis).
"""

from __future__ import annotations

import functools

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from hswc.reference import compare_bitwise, hard_swish_grad_cann
from hswc.runner import LEVELS, Kernel, compile_text

DTYPES = {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16),
          "f32": np.dtype(np.float32)}
UINT = {2: np.uint16, 4: np.uint32}


def module_text(tensor_type: str) -> str:
    return (f"func.func @hsg(%grad: {tensor_type}, %x: {tensor_type}) -> {tensor_type} {{\n"
            f"  %y = hsg.hard_swish_grad %grad, %x : {tensor_type}\n"
            f"  func.return %y : {tensor_type}\n}}\n")


def static_type(shape: tuple[int, ...], dt: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + dt + ">"


@functools.cache
def kernel(tensor_type: str, level: str, fold: tuple[int, int] | None = None) -> Kernel:
    options = {"core_num": fold[0], "ub_size": fold[1], "fold": True} if fold else {}
    return compile_text(module_text(tensor_type), name="stage.mlir", level=level, **options)


def special_values(dtype: np.dtype) -> np.ndarray:
    """The values the semantics turn on: +-3 and their bit neighbours, zeros of both signs,
    infinities, NaNs, the largest and smallest magnitudes, and a few ordinary values."""
    info = ml_dtypes.finfo(dtype)
    plain = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 2.999, -2.999, 3.0, -3.0, 3.001,
             -3.001, 6.0, -6.0, 100.0, -100.0, np.inf, -np.inf, np.nan, float(info.max),
             -float(info.max), float(info.tiny), float(info.smallest_subnormal),
             -float(info.smallest_subnormal)]
    values = np.array(plain, dtype=np.float64).astype(dtype)
    uint = UINT[dtype.itemsize]
    three = np.array([3.0, -3.0], dtype=np.float64).astype(dtype).view(uint)
    neighbours = np.concatenate([three - 1, three + 1]).astype(uint).view(dtype)
    negative_nan = np.array([-np.nan], dtype=np.float64).astype(dtype)
    return np.concatenate([values, neighbours, negative_nan])


def operands(shape: tuple[int, ...], dtype: np.dtype, seed: int = 0
             ) -> tuple[np.ndarray, np.ndarray]:
    """grad and x covering every (special grad, special x) pair the size allows, then random."""
    special = special_values(dtype)
    pairs_grad = np.repeat(special, special.size)
    pairs_x = np.tile(special, special.size)
    n = int(np.prod(shape, dtype=np.int64))
    rng = np.random.default_rng(seed + n)
    extra = max(0, n - pairs_x.size)
    grad = np.concatenate([pairs_grad, (rng.standard_normal(extra) * 2).astype(dtype)])
    x = np.concatenate([pairs_x, (rng.uniform(-5, 5, extra)).astype(dtype)])
    order = rng.permutation(grad.size)[:n]
    return grad[order].reshape(shape), x[order].reshape(shape)


def assert_every_level(tensor_type: str, grad: np.ndarray, x: np.ndarray,
                       platform: tuple[int, int] | None = None,
                       fold: tuple[int, int] | None = None) -> None:
    expected = hard_swish_grad_cann(grad, x)
    results = {}
    for level in LEVELS:
        k = kernel(tensor_type, level, fold if level != "hsg" else None)
        if platform is not None:
            k = k.with_platform(core_num=platform[0], ub_size=platform[1])
        y = k(grad, x)
        assert y.shape == grad.shape and y.dtype == grad.dtype, level
        comparison = compare_bitwise(y, expected)
        assert comparison.equal, f"{level} level on {tensor_type}: {comparison.summary()}"
        results[level] = y
    for level in LEVELS[1:]:
        assert compare_bitwise(results[level], results["hsg"]).equal


SHAPES = [(), (0,), (1,), (63,), (64,), (65,), (4031,), (4032,), (4033,), (97,), (7919,),
          (4, 1000), (2, 3, 5, 7), (3, 0, 2), (1, 1, 1, 1, 1, 1, 1, 2)]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_static_shapes_on_atlas_a2(dt: str, shape: tuple[int, ...]) -> None:
    """Default platform (48 cores, 196608-byte UB): the shapes of the issue, each dtype."""
    grad, x = operands(shape, DTYPES[dt])
    assert_every_level(static_type(shape, dt), grad, x)


DYNAMIC = [("tensor<?xT>", (4033,)), ("tensor<4x?xT>", (4, 1009)), ("tensor<?x?xT>", (0, 5)),
           ("tensor<*xT>", (3, 5, 7)), ("tensor<*xT>", ())]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize(("pattern", "shape"), DYNAMIC, ids=str)
def test_dynamic_shapes(dt: str, pattern: str, shape: tuple[int, ...]) -> None:
    """Dynamic dims and unranked tensors: the tiling is computed by the IR at run time."""
    grad, x = operands(shape, DTYPES[dt], seed=1)
    assert_every_level(pattern.replace("T", dt), grad, x)


PLATFORMS = [(1, 8192), (5, 8192), (3, 4096), (40, 196608), (64, 262144)]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("platform", PLATFORMS, ids=str)
@pytest.mark.parametrize("shape", [(65,), (4033,), (7919,), (3, 1000)], ids=str)
def test_platforms_and_small_ub(dt: str, platform: tuple[int, int],
                                shape: tuple[int, ...]) -> None:
    """Core counts and UB sizes; 8192 and 4096 bytes of UB give 128 and 64 elements per pass,
    so every core runs many chunks and a short last one."""
    grad, x = operands(shape, DTYPES[dt], seed=2)
    assert_every_level(f"tensor<*x{dt}>", grad, x, platform=platform)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("platform", [(48, 196608), (7, 8192)], ids=str)
@pytest.mark.parametrize("shape", [(4033,), (2, 3, 65)], ids=str)
def test_tiling_folded_into_the_ir(dt: str, platform: tuple[int, int],
                                   shape: tuple[int, ...]) -> None:
    """A static shape with the platform named at compile time: the tiling is constants."""
    grad, x = operands(shape, DTYPES[dt], seed=3)
    tensor_type = static_type(shape, dt)
    assert_every_level(tensor_type, grad, x, platform=platform, fold=platform)
    folded = kernel(tensor_type, "ascend", platform).module
    assert not any(op.name == "func.call" for op in folded.walk())


def test_tiling_agrees_across_levels() -> None:
    """Each level reports the launch's tiling; all match hswc.tiling's formula."""
    grad, x = operands((7, 3), DTYPES["f32"])
    records = []
    for level in LEVELS:
        k = kernel("tensor<*xf32>", level).with_platform(core_num=64, ub_size=262144)
        records.append(k.run(grad, x).tilings)
    # SPEC section 4: the ops-nn unit test expects {21, 1, 5440} on 21 cores.
    want = {"totalNum": 21, "blockFactor": 1, "ubFactor": 5440, "usedCoreNum": 21,
            "tilingKey": 1}
    assert records == [[want]] * len(LEVELS)


def _bits_strategy(dtype: np.dtype, shape: tuple[int, ...]) -> st.SearchStrategy[np.ndarray]:
    uint = UINT[dtype.itemsize]
    special = special_values(dtype).view(uint).tolist()
    elements = st.one_of(st.integers(0, np.iinfo(uint).max), st.sampled_from(special))
    return hnp.arrays(uint, shape, elements=elements).map(lambda a: a.view(dtype))


@st.composite
def cases(draw: st.DrawFn) -> tuple[str, np.ndarray, np.ndarray, tuple[int, int]]:
    dt = draw(st.sampled_from(sorted(DTYPES)))
    rank = draw(st.integers(0, 3))
    dims = [draw(st.integers(0, 9)) for _ in range(rank - 1)]
    if rank:
        dims.append(draw(st.one_of(st.integers(0, 70), st.integers(4000, 4100))))
    while int(np.prod(dims, dtype=np.int64)) > 6000:
        dims[-1] //= 2
    shape = tuple(dims)
    core_num = draw(st.integers(1, 64))
    ub_size = draw(st.one_of(st.sampled_from([4096, 8192, 196608, 262144]),
                             st.integers(4096, 262144)))
    grad = draw(_bits_strategy(DTYPES[dt], shape))
    x = draw(_bits_strategy(DTYPES[dt], shape))
    return dt, grad, x, (core_num, ub_size)


@settings(max_examples=40, deadline=None)
@given(cases())
def test_random_shapes_dtypes_platforms_and_bits(
        case: tuple[str, np.ndarray, np.ndarray, tuple[int, int]]) -> None:
    dt, grad, x, platform = case
    ranked = "tensor<" + "?x" * grad.ndim + dt + ">"
    tensor_type = ranked if grad.ndim % 2 else f"tensor<*x{dt}>"
    assert_every_level(tensor_type, grad, x, platform=platform)
