"""The Ascend 950 (arch35) HardSwishGrad kernels built on the CPU model of AscendC.

The `-t ascendc` source of the arch35 pipeline holds six classes (three dtypes, depth-1 and
depth-2 queues) behind one templated entry; the host tiling picks the tiling key, so each run
launches the kernel the key names. Results must equal the interpreter's (hswc.runner on
ascend950) and the arch35 model bit for bit, below and above 1024 elements. A fault test moves
grad's Cast into the shared f32 scratch buffer above the last Compares that reads x's copy
there: both the interpreter and the CPU build must then give other bits. The kernels are built
against the Atlas A2/A3 model and run as built with the compiler's automatic synchronisation
(`auto_sync=True`): the arch35 structure has no PipeBarrier<PIPE_V> (`no-pipe-barriers`), right
on Ascend 950, whose hardware orders vector calls, and on A2/A3 only where BiSheng inserts them.
"""

from __future__ import annotations

import functools
from io import StringIO
from pathlib import Path

import numpy as np
import pytest
from cpu_build import SANITIZE, Build, bits, build, lower, operator_module, run_kernel
from test_arch35 import variants
from test_cpu_build import inputs
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

from hswc.backend.host_tiling import tiling_compute_lines
from hswc.backend.kernels import collect_kernels
from hswc.backend.source import kernel_source
from hswc.reference import compare_bitwise, hard_swish_grad_cann_arch35
from hswc.runner import Kernel, compile_text

PIPELINE = ("hsg-decompose{semantics=cann-arch35},hsg-tile-on-cores{variant=arch35},"
            "hsg-block-into-ub,convert-hsg-to-ascend{variant=arch35}")
KEYS = "0,256,1,257,27,283"
"""ASCENDC_TPL_SEL_PARAM(dtype, useDoubleBuffer) of f32, f16 and bf16."""
SHAPES = [(1,), (65,), (1000,), (1024,), (1025,), (4033,), (100003,), (3, 5, 7)]
PLATFORMS = [(64, 253952), (5, 8192)]
DTYPES = ("f16", "f32", "bf16")


def print_module(module: ModuleOp) -> str:
    stream = StringIO()
    Printer(stream=stream).print_op(module)
    return stream.getvalue()


def reorder_scratch(text: str, cast: str, before: str) -> str:
    """`text` with every line holding `cast` (and the scratch Get just above it) moved above
    the nearest line before it holding `before`: grad's copy then overwrites x's before its
    last read."""
    lines = text.split("\n")
    for at in [i for i, line in enumerate(lines) if cast in line]:
        moved = lines[at - 1: at + 1]
        assert "Get" in moved[0] or "tbuf_get" in moved[0], moved
        target = max(i for i, line in enumerate(lines[:at]) if before in line)
        lines[target: at + 1] = [*moved, *lines[target: at - 1]]
    return "\n".join(lines)


@pytest.fixture(scope="module")
def executables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    directory = tmp_path_factory.mktemp("cpu_build_arch35")
    source = directory / "kernel_arch35.cpp"
    text = kernel_source(lower(operator_module(DTYPES), PIPELINE))
    source.write_text(text)
    faulty = directory / "kernel_arch35_fault.cpp"
    faulty.write_text(reorder_scratch(text, "Cast(gradFp32", "CMPMODE::LE"))
    flags = [f"-DHSWC_TILING_KEYS={KEYS}"]
    builds = {"plain": Build(source, directory / "run_kernel", flags),
              "sanitized": Build(source, directory / "run_kernel_sanitized",
                                 [*flags, *SANITIZE]),
              "fault": Build(faulty, directory / "run_kernel_fault", flags)}
    build(list(builds.values()))
    return {name: b.output for name, b in builds.items()}


@functools.cache
def interpreted(dt: str, core_num: int, ub_size: int) -> Kernel:
    text = operator_module((dt,))
    return compile_text(text, soc="ascend950", core_num=core_num, ub_size=ub_size)


@pytest.mark.parametrize("platform", PLATFORMS, ids=str)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dt", DTYPES)
def test_cpu_build_is_the_interpreter_and_the_model(
        executables: dict[str, Path], tmp_path: Path, dt: str, shape: tuple[int, ...],
        platform: tuple[int, int]) -> None:
    grad, x = inputs(dt, shape)
    flat = (grad.reshape(-1), x.reshape(-1))
    y = run_kernel(executables["plain"], *flat, *platform, tmp_path, variants(dt),
                   auto_sync=True)
    want = hard_swish_grad_cann_arch35(*flat)
    np.testing.assert_array_equal(bits(y), bits(want))
    np.testing.assert_array_equal(bits(y), bits(interpreted(dt, *platform)(*flat)))


@pytest.mark.parametrize("shape", [(65,), (4033,)], ids=str)
@pytest.mark.parametrize("dt", DTYPES)
def test_sanitized_cpu_build(executables: dict[str, Path], tmp_path: Path, dt: str,
                             shape: tuple[int, ...]) -> None:
    grad, x = inputs(dt, shape)
    y = run_kernel(executables["sanitized"], grad, x, 64, 253952, tmp_path, variants(dt),
                   auto_sync=True)
    np.testing.assert_array_equal(bits(y), bits(hard_swish_grad_cann_arch35(grad, x)))


@pytest.mark.parametrize("shape", [(65,), (4033,)], ids=str)
@pytest.mark.parametrize("dt", ["f16", "bf16"])
def test_scratch_reuse_out_of_order_is_caught(executables: dict[str, Path], tmp_path: Path,
                                              dt: str, shape: tuple[int, ...]) -> None:
    """grad cast into the scratch before the last Compares on x's copy: the compare reads grad,
    so the CPU build and the interpreter of the same reordered kernel both miss the model."""
    grad, x = inputs(dt, shape)
    want = hard_swish_grad_cann_arch35(grad, x)
    y = run_kernel(executables["fault"], grad, x, 64, 253952, tmp_path, variants(dt),
                   auto_sync=True)
    assert not compare_bitwise(y, want).equal
    lowered = print_module(interpreted(dt, 64, 253952).module)
    faulty = reorder_scratch(lowered, "ascend.cast %grad_fp32", "ascend.compares")
    assert faulty != lowered
    y = compile_text(faulty, soc="ascend950")(grad, x)
    assert not compare_bitwise(y, want).equal
    np.testing.assert_array_equal(bits(interpreted(dt, 64, 253952)(grad, x)), bits(want))


def test_host_tiling_cpp_once_per_dtype() -> None:
    """The two kernels of a dtype share one tiling function: its C++ is printed once, with the
    choice of buffer count and key by totalNum > 1024."""
    text = "\n".join(tiling_compute_lines(collect_kernels(lower(operator_module(DTYPES),
                                                               PIPELINE))))
    for dt in DTYPES:
        assert text.count(f"inline bool ComputeHardSwishGradTiling{dt.capitalize()}(") == 1
    assert text.count("bool useDoubleBuffer = totalNum > 1024;") == 3
    assert "int64_t bytesPerElement = useDoubleBuffer ? 22 : 16;" in text  # f16, bf16
    assert "useDoubleBuffer ? 283 : 27;" in text  # bf16's keys
