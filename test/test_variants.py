"""Kernel variants (hsg-tile-on-cores / convert-hsg-to-ascend options): the options, their UB
plans, a proof from the IR that every plan fits, and their bits against hswc.reference in the
interpreter (hswc.runner) and in the CPU build of the emitted C++ (hswc/checker/ascendc_cpu)."""

from __future__ import annotations

import io
import subprocess
import sys
import tempfile
import zlib
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import replace
from functools import partial
from itertools import product
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from hswc import runner
from hswc.backend.source import kernel_source
from hswc.cost_model.stream import core_program
from hswc.dialects import ascend, hsg
from hswc.op_plans import op_kernel_plan, op_ub_plan
from hswc.ops.hard_swish_grad import CANN_BUDGET
from hswc.passes.schedule_options import UB_PLAN_ATTR
from hswc.pipeline import DIALECTS
from hswc.platform import COST_FIGURES, PLATFORMS, SELECT_TMP_BYTES
from hswc.profiling import lower
from hswc.reference import hard_swish_grad_cann
from hswc.tiling import TilingError, UbPlan, compute_tiling
from hswc.tools.hswc_opt import main as hswc_opt
from hswc.vectorizer.schedule import ARCH35, FAST, FLAGS, REFERENCE, Schedule

hsg_plan = partial(op_ub_plan, "hard_swish_grad")
"""The UB plan of HardSwishGrad's kernel for a dtype and a schedule."""
hsg_kernel_plan = partial(op_kernel_plan, "hard_swish_grad")

DTYPES = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32}
BITS = {"f16": np.uint16, "bf16": np.uint16, "f32": np.uint32}
A2_FLAGS = FLAGS[:5]
"""The A2/A3 kernel's variant flags (double buffering, scalar compare, in place, early free, x
first); the later flags are the arch35 kernel's structure."""
ALL_VARIANTS = [
    *(Schedule(*flags) for flags in product((False, True), repeat=len(A2_FLAGS))),
    *(replace(base, **{flag: True}) for base in (REFERENCE, FAST) for flag in FLAGS[5:]),
    replace(ARCH35, double_buffer_above=None),
]
"""Every combination of the five A2/A3 flags; each later flag alone on the reference and on the
fast schedule; all of arch35's at once (one kernel: its run-time key is test_arch35's)."""
PLAN_VARIANTS = [Schedule(d, s, i, True, True) for d, s, i in product((False, True),
                                                                            repeat=3)]
"""One variant per distinct set of buffers (early-free and x-first allocate nothing)."""


def ids(variant: Schedule) -> str:
    return variant.describe().replace("=true", "").replace(" ", "+")


def module_text(dtype: str, shape: str = "?") -> str:
    return (f"func.func @hsg(%grad: tensor<{shape}x{dtype}>, %x: tensor<{shape}x{dtype}>) -> "
            f"tensor<{shape}x{dtype}> {{\n"
            f"  %y = hsg.hard_swish_grad %grad, %x : tensor<{shape}x{dtype}>\n"
            f"  func.return %y : tensor<{shape}x{dtype}>\n}}\n")


def parse(text: str) -> ModuleOp:
    ctx = Context()
    for name, factory in DIALECTS.items():
        ctx.register_dialect(name, factory)
    return Parser(ctx, text).parse_module()


def opt(text: str, *args: str) -> tuple[int, str, str]:
    """hswc-opt on `text`: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "input.mlir"
        path.write_text(text)
        with redirect_stdout(out), redirect_stderr(err):
            code = hswc_opt([str(path), *args])
    return code, out.getvalue(), err.getvalue()


def options(variant: Schedule) -> str:
    return " ".join(f"{name.replace('_', '-')}={str(getattr(variant, name)).lower()}"
                    for name in FLAGS)


# region options and plans


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_reference_options_spell_the_default(dtype: str) -> None:
    """No options, variant=reference and every flag false all give the default lowering."""
    text = module_text(dtype)
    code, default, _ = opt(text, "--lower-to-ascend")
    assert code == 0 and UB_PLAN_ATTR not in default
    for spelled in ("variant=reference", options(REFERENCE)):
        pipeline = (f"hsg-decompose,hsg-tile-on-cores{{{spelled}}},hsg-block-into-ub,"
                    f"convert-hsg-to-ascend{{{spelled}}}")
        code, out, err = opt(text, "-p", pipeline)
        assert (code, err) == (0, "") and out == default


@pytest.mark.parametrize(("dtype", "variant", "per_element", "reserve"), [
    ("f16", REFERENCE, 48, 1024),
    ("f32", REFERENCE, 48, 1024),
    # 3 queues x 2 buffers x 2 B + x, grad in f32 (8 B) + 2 masks of 1 bit -> 20.25 -> 21.
    ("f16", FAST, 21, SELECT_TMP_BYTES + 512),
    ("bf16", FAST, 21, SELECT_TMP_BYTES + 512),
    # 3 queues x 2 x 4 B + masks -> 25; nothing else (in place in the queues).
    ("f32", FAST, 25, SELECT_TMP_BYTES + 512),
    # depth 2 alone: 24 B of queues + slope 4 + four constants 16 + masks -> 45.
    ("f32", Schedule(double_buffer=True), 45, SELECT_TMP_BYTES + 512),
    # scalar compares alone (f16): 6 B of queues + 8 B of f32 copies + slope 4 + masks -> 19.
    ("f16", Schedule(scalar_compare=True), 19, SELECT_TMP_BYTES + 512),
    # early free alone allocates what the reference does, but counted exactly: 34.25 -> 35.
    ("f16", Schedule(early_free=True), 35, SELECT_TMP_BYTES + 512),
])
def test_ub_plan_counts_the_buffers(dtype: str, variant: Schedule, per_element: int,
                                    reserve: int) -> None:
    assert hsg_plan(dtype, variant) == UbPlan(per_element, reserve, 64)


def test_preset_and_flags_combine() -> None:
    """variant=fast with double-buffer=false: the fast kernel with depth-1 queues."""
    text = module_text("f16")
    flags = "variant=fast double-buffer=false"
    pipeline = (f"hsg-decompose,hsg-tile-on-cores{{{flags}}},hsg-block-into-ub,"
                f"convert-hsg-to-ascend{{{flags}}}")
    code, out, err = opt(text, "-p", pipeline)
    assert (code, err) == (0, "")
    assert "!ascend.tque<vecin, 1>" in out and "ascend.compare_scalar" in out
    assert "!ascend.tque<vecin, 2>" not in out
    plan = hsg_plan("f16", replace(FAST, double_buffer=False))
    assert f"bytes_per_element = {plan.bytes_per_element} : i64" in out


def test_unknown_preset_is_refused() -> None:
    code, out, err = opt(module_text("f16"), "-p",
                         "hsg-decompose,hsg-tile-on-cores{variant=faster}")
    assert code == 1 and out == ""
    assert "hsg-tile-on-cores: unknown variant 'faster' (known: reference, fast, arch35)" in err


@pytest.mark.parametrize(("tile", "convert", "tiled_for", "wanted"), [
    # The reference kernel's own buffers come to 35 bytes per element (48 is its tiling budget).
    ("variant=fast", "", "a UB plan of 21 bytes per element", "35 bytes per element"),
    ("", "variant=fast", "its operator's reference budget", "21 bytes per element"),
    ("double-buffer=true", "double-buffer=true in-place=true", "a UB plan of 41 bytes",
     "37 bytes"),
])
def test_passes_with_different_plans_are_refused(tile: str, convert: str, tiled_for: str,
                                                  wanted: str) -> None:
    """The tiling made room for one set of buffers and the kernel would allocate another."""
    pipeline = (f"hsg-decompose,hsg-tile-on-cores{{{tile}}},hsg-block-into-ub,"
                f"convert-hsg-to-ascend{{{convert}}}")
    code, out, err = opt(module_text("f16"), "-p", pipeline)
    assert code == 1 and out == ""
    assert "'hsg.elementwise_chunk' was tiled for " + tiled_for in err
    assert wanted in err and "give hsg-tile-on-cores the same variant options" in err


def test_plans_that_agree_are_accepted() -> None:
    """early-free and x-first allocate nothing: a tiling without them fits the kernel with."""
    pipeline = ("hsg-decompose,hsg-tile-on-cores{double-buffer=true},hsg-block-into-ub,"
                "convert-hsg-to-ascend{double-buffer=true early-free=true x-first=true}")
    code, _, err = opt(module_text("bf16"), "-p", pipeline)
    assert (code, err) == (0, "")


# endregion
# region the UB plan fits


def _init_buffer_bytes(kernel: func.FuncOp, launch: hsg.LaunchOp) -> int:
    """Sum over the InitBuffers core 0 runs of num x length rounded up to 32 bytes, their
    lengths evaluated from the kernel's IR with the launch's (folded, constant) tiling."""
    tiling = [ascend.constant_index(v) for v in launch.tiling]
    blocks = ascend.constant_index(launch.block_dim)
    assert None not in tiling and blocks is not None, "the tiling must be folded"
    return core_program(kernel, 0, blocks, tuple(tiling), COST_FIGURES).ub_bytes


@pytest.mark.parametrize("variant", [REFERENCE, *PLAN_VARIANTS], ids=ids)
@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("soc", sorted(PLATFORMS))
def test_ub_plan_fits_every_platform_in_the_ir(soc: str, dtype: str,
                                               variant: Schedule) -> None:
    """Lowered for the platform (tiling folded), the kernel's InitBuffers plus Select's 8 KB
    temporary space fit in the UB, and the chunk is a whole number of f32 repeats."""
    platform = PLATFORMS[soc]
    flags = " ".join(f"{n.replace('_', '-')}={str(getattr(variant, n)).lower()}"
                     for n in FLAGS)
    pipeline = (f"hsg-decompose,hsg-tile-on-cores{{soc={soc} {flags}}},hsg-block-into-ub,"
                f"convert-hsg-to-ascend{{{flags}}}")
    code, out, err = opt(module_text(dtype, "1000000"), "-p", pipeline)
    assert (code, err) == (0, "")
    module = parse(out)
    kernel = next(op for op in module.walk() if isinstance(op, func.FuncOp) and hsg.is_kernel(op))
    launch = next(op for op in module.walk() if isinstance(op, hsg.LaunchOp))
    ub_factor = ascend.constant_index(launch.tiling[2])
    assert ub_factor is not None and ub_factor > 0 and ub_factor % 64 == 0
    on_soc = replace(variant, api=platform.api)  # the SoC's API table, as soc= implies
    assert ub_factor == compute_tiling(10**6, platform.core_num, platform.ub_size, dtype,
                                       hsg_plan(dtype, on_soc)).ub_factor
    used = _init_buffer_bytes(kernel, launch) + SELECT_TMP_BYTES
    assert used <= platform.ub_size
    assert used == hsg_kernel_plan(dtype, on_soc)[0].ub_bytes(ub_factor)


@settings(max_examples=300, deadline=None)
@given(ub_size=st.integers(1024, 1 << 20), dtype=st.sampled_from(list(DTYPES)),
       variant=st.sampled_from(ALL_VARIANTS[1:]))
def test_derived_plans_fit_any_ub_size(ub_size: int, dtype: str, variant: Schedule) -> None:
    """For every UB size the derived plan either fits or the tiling refuses (nothing fits)."""
    plan = hsg_plan(dtype, variant)
    try:
        tiling = compute_tiling(10**7, 48, ub_size, dtype, plan)
    except TilingError:
        assert ub_size < plan.ub_reserve + 64 * plan.bytes_per_element
        return
    assert tiling.ub_factor % 64 == 0
    assert hsg_kernel_plan(dtype, variant)[0].ub_bytes(tiling.ub_factor) <= ub_size


def test_variant_plan_is_leaner_than_the_reference() -> None:
    for dtype in DTYPES:
        assert hsg_plan(dtype, FAST).bytes_per_element < CANN_BUDGET.bytes_per_element


# endregion
# region bits


def special_values(dtype: str) -> tuple[np.ndarray, np.ndarray]:
    """x: +-3 and their neighbours, zeros, NaN, +-inf, extremes; grad: NaN, +-inf, zeros."""
    t, u = DTYPES[dtype], BITS[dtype]
    three = np.array([3, -3], dtype=t)
    neighbours = np.concatenate([(three.view(u) + u(1)).view(t), (three.view(u) - u(1)).view(t)])
    big = np.array(ml_dtypes.finfo(t).max, dtype=t)
    x = np.concatenate([three, neighbours, np.array(
        [0.0, -0.0, np.nan, np.inf, -np.inf, 2.999, -2.999, 1e4, -1e4, 0.5], dtype=t), [big, -big]])
    grad = np.concatenate([np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -7.5], dtype=t),
                           [big, -big]])
    return x, grad


def inputs(dtype: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Random values around the breakpoints, with every (special x, special grad) pair."""
    t = DTYPES[dtype]
    rng = np.random.default_rng(zlib.crc32(f"{dtype}{n}".encode()))
    x = rng.uniform(-5, 5, n).astype(np.float32).astype(t)
    grad = rng.uniform(-10, 10, n).astype(np.float32).astype(t)
    sx, sg = special_values(dtype)
    pairs = np.array(list(product(range(len(sx)), range(len(sg)))))[: n]
    places = rng.permutation(n)[: len(pairs)]
    x[places], grad[places] = sx[pairs[:, 0]], sg[pairs[:, 1]]
    return grad, x


def bits(array: np.ndarray, dtype: str) -> np.ndarray:
    return np.ascontiguousarray(array).view(BITS[dtype])


def lowered(dtype: str, variant: Schedule) -> ModuleOp:
    return lower(parse(module_text(dtype)), variant)


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=ids)
@pytest.mark.parametrize("dtype", list(DTYPES))
def test_every_variant_is_bit_exact_in_the_interpreter(dtype: str,
                                                        variant: Schedule) -> None:
    """3 cores (the last one shorter) and a 16 KB UB: several chunks per core, a short last
    chunk, so stale lanes of earlier chunks sit past `cur` in every buffer."""
    kernel = runner.compile_module(lowered(dtype, variant), core_num=3, ub_size=16384)
    for n in (1, 65, 9001):
        grad, x = inputs(dtype, n)
        y = np.asarray(kernel(grad, x))
        np.testing.assert_array_equal(bits(y, dtype), bits(hard_swish_grad_cann(grad, x), dtype))
    tiling = kernel.tiling((9001,))
    assert tiling["ubFactor"] == compute_tiling(9001, 3, 16384, dtype,
                                                hsg_plan(dtype, variant)).ub_factor
    assert -(-tiling["blockFactor"] // tiling["ubFactor"]) >= 3  # really several chunks


@pytest.mark.parametrize("dtype", ["f16", "bf16"])
def test_fast_variant_is_exact_for_every_x(dtype: str) -> None:
    """All 65536 bit patterns of x (each with a random grad, specials included) on 48 cores."""
    x = np.arange(1 << 16, dtype=np.uint16).view(DTYPES[dtype])
    grad, _ = inputs(dtype, 1 << 16)
    kernel = runner.compile_module(lowered(dtype, FAST), soc="ascend910b")
    y = np.asarray(kernel(grad, x))
    np.testing.assert_array_equal(bits(y, dtype), bits(hard_swish_grad_cann(grad, x), dtype))


def _cpu_build_helpers():
    sys.path.insert(0, str(Path(__file__).parent))
    import cpu_build

    return cpu_build


@pytest.fixture(scope="module")
def fast_cpu_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fast variant's emitted C++ for the three dtypes, built against the CPU model
    (hswc/checker/ascendc_cpu)."""
    cpu_build = _cpu_build_helpers()
    text = "".join(module_text(dt).replace("@hsg(", f"@hsg_{dt}(") for dt in DTYPES)
    directory = tmp_path_factory.mktemp("variants_cpu_build")
    source = directory / "fast.cpp"
    source.write_text(kernel_source(lower(parse(text), FAST)))
    build = cpu_build.Build(source, directory / "fast_kernel")
    cpu_build.build([build])
    return build.output


@pytest.mark.parametrize(("core_num", "ub_size"), [(48, 196608), (3, 16384)])
@pytest.mark.parametrize("dtype", list(DTYPES))
def test_fast_variant_is_bit_exact_in_the_cpu_build(fast_cpu_build: Path, tmp_path: Path,
                                                    dtype: str, core_num: int,
                                                    ub_size: int) -> None:
    """Launched as the host would: the variant's tiling, one harness block per used core."""
    for n in (1, 4097, 30001):
        grad, x = inputs(dtype, n)
        t = compute_tiling(n, core_num, ub_size, dtype, hsg_plan(dtype, FAST))
        files = [tmp_path / name for name in ("grad.bin", "x.bin", "y.bin")]
        grad.tofile(files[0])
        x.tofile(files[1])
        command = [str(fast_cpu_build), "--tiling-key", str(t.tiling_key), "--block-dim",
                   str(t.used_core_num), "--ub-size", str(ub_size), "--tiling",
                   f"{t.total_num},{t.block_factor},{t.ub_factor}", "--auto-sync", "off",
                   *map(str, files)]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0 and not done.stderr, done.stderr
        y = np.fromfile(files[2], dtype=DTYPES[dtype])
        np.testing.assert_array_equal(bits(y, dtype), bits(hard_swish_grad_cann(grad, x), dtype))


# endregion
