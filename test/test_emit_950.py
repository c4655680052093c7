"""hswc-emit --soc ascend950: ops-nn's arch35 layout, alone and beside the A2/A3 one.

- The A2/A3 packages stay what they were: the SHA-256 of every file of four packages (a named
  op, one with an attribute, an exponential op, a generic). HardSwishGrad's (ops-nn's kernel,
  call for call) is the one hswc-emit wrote at commit 95a1a02, before the arch35 layout existed;
  the other three are pinned where their default schedule became the cost model's choice
  (hswc.passes.schedule_choice), which changed their kernels, their UB plans (so their tiling
  figures) and what their tests and READMEs say of them. All four since differ in one line and
  a helper of the tiling (`ubFactor = Min(..., 32704)`: at most what one DataCopyPad moves,
  hswc.tiling, issue 40), which binds on no Ascend SoC's UB.
- HardSwishGrad's arch35 package has ops-nn's arch35 files (activation/hard_swish_grad), its
  template parameters (D_T_X, BUFFER_MODE) and keys ((dtype, useDoubleBuffer): 0/256, 1/257,
  27/283), the 950 config of the op definition and the tiling figures worked by hand in
  test_arch35.py.
- Its kernel (op_kernel/hard_swish_grad_apt.cpp, every template instance) and a family op's,
  built on the CPU model for dav_3510, give hswc-run's bits for every dtype and tiling key.
  A sample by default; HSWC_ALL_950=1 builds every named op's package kernel.
- Bad input: one message, exit 1.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import numpy as np
import pytest
from cpu_build import Build, build, run_recorded
from family_packages import INPUTS, family_module
from test_cpu_build_family import _same, grad_values, x_values
from xdsl.dialects.builtin import ModuleOp

from hswc import runner, soc_api
from hswc.backend.kernels import Kernel, collect_kernels
from hswc.backend.package_tests import arch35_key
from hswc.ops import OPS
from hswc.tools.hswc_emit import main

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
A2_DIGESTS = {
    "hard_swish_grad": ("dd75e090d2de0cc9cb21fe30d56693da8c1a147d3330a6d8fbf28e230d3d91c7",
                        [EXAMPLES / "hard_swish_grad.mlir"]),
    "leaky_relu_grad": ("9ea7b784f58a4515c15e4852de161ae49103cfb3fcf35f27e0cdb2036602ddcf",
                        [EXAMPLES / "leaky_relu_grad.mlir"]),
    "silu": ("d8f704132e723bd84e8ac9cde82eb0d59d034afa714e003658d59b73dc208065",
             [EXAMPLES / "silu.mlir"]),
    "grad_times_scale": ("1c0d5c478a84e80b02288dc44e115807ce28b5a9ecb13def87117f5eeaf3eb6e",
                         [EXAMPLES / "grad_times_scale.mlir", "--name", "GradTimesScale"]),
}
"""The A2/A3 packages' digests (sorted relative path, NUL, bytes, NUL per file); last changed by
the PipeBarrier<PIPE_V> the kernels gained for --cce-auto-sync=off (hswc/vectorizer/emit.py)
and the host tiling's cap on ubFactor (a chunk one DataCopyPad moves: `Min(..., 32704)`); silu's
by Swish's scale attribute (ops-nn's Swish definition's, launched at 1 by aclnnSilu); all but
HardSwishGrad's (the CANN kernel) by the L2 hint the default choice takes (SetL2CacheHint on each
streamed input, hswc.passes.schedule_choice: the kernels otherwise byte-identical); silu's and
GradTimesScale's by the bank-offsets layout the A2 choice takes under the UB bank rule (gap
TBufs in Init, placed where ubFactor reaches gapped_from, and the host tiling's gapped
ubFactor: hswc.vectorizer.bank_layout, hswc.tiling); GradTimesScale's by the InitBuffer order
of that layout (hswc.vectorizer.bank_order: the same InitBuffers in another order), and by
its double-buffered queues once the choice ranked the traded flags with the L2 hint (35 bytes
an element, not 27: hinted, with offsets, 5.801 / 83.00 us at 2^20 / 2^24 against 5.877 / 83.34
single-buffered, hswc.passes.schedule_choice)."""
DTYPES = ("f16", "f32", "bf16")
SAMPLE = ("hard_swish_grad", "hard_shrink")
OPS_950 = tuple(OPS) if os.environ.get("HSWC_ALL_950") == "1" else SAMPLE
CORES = 5


def digest(folder: Path) -> str:
    h = hashlib.sha256()
    for f in sorted(p for p in folder.rglob("*") if p.is_file()):
        h.update(f.relative_to(folder).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def emit(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    return code, capsys.readouterr().err


def apt_entry(package: Path) -> Path:
    """The arch35 entry of a package, op_kernel/<entry>_apt.cpp: <entry> is ops-nn's file name
    of the op (swish for silu, threshold_v2_d for threshold), the kernel's entry function."""
    (entry,) = (package / "op_kernel").glob("*_apt.cpp")
    return entry


def op_module(stem: str) -> str:
    if stem in INPUTS:
        return family_module(stem, DTYPES)
    from test_exponential_ops import module

    return module(stem, {}, DTYPES)


@pytest.mark.parametrize("name", A2_DIGESTS)
def test_a2_packages_are_unchanged(name: str, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    expected, args = A2_DIGESTS[name]
    assert emit(capsys, *args, "-o", tmp_path / "p")[0] == 0
    assert digest(tmp_path / "p") == expected


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """HardSwishGrad (f16, f32, bf16) for ascend950 alone and for every SoC."""
    root = tmp_path_factory.mktemp("emit_950")
    source = root / "hard_swish_grad.mlir"
    source.write_text(op_module("hard_swish_grad"))
    socs = {"950": ["--soc", "ascend950"],
            "both": ["--soc", "ascend910b", "--soc", "ascend910_93", "--soc", "ascend950"]}
    for name, flags in socs.items():
        assert main([str(source), "-o", str(root / name), *flags]) == 0
    return {name: root / name for name in socs}


ARCH35_FILES = {
    "op_kernel/hard_swish_grad_apt.cpp", "op_kernel/arch35/hard_swish_grad.h",
    "op_kernel/arch35/hard_swish_grad_tiling_data.h",
    "op_kernel/arch35/hard_swish_grad_tiling_key.h",
    "op_host/arch35/hard_swish_grad_tiling_arch35.cpp",
    "op_host/arch35/hard_swish_grad_tiling_compute.h",
    "op_host/hard_swish_grad_def.cpp", "op_host/hard_swish_grad_infershape.cpp",
    "tests/ut/op_host/arch35/test_hard_swish_grad_tiling.cpp",
    "tests/ut/op_kernel/test_hard_swish_grad_apt.cpp",
}
A2_FILES = {"op_kernel/hard_swish_grad.cpp", "op_kernel/hard_swish_grad.h",
            "op_host/arch22/hard_swish_grad_tiling.cpp",
            "tests/ut/op_host/test_hard_swish_grad_tiling.cpp"}


def files(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*")
            if p.is_file() and p.name != ".hswc-package"}


def test_arch35_layout(packages: dict[str, Path]) -> None:
    alone, both = files(packages["950"]), files(packages["both"])
    assert ARCH35_FILES <= alone and not A2_FILES & alone
    assert not any(f.startswith("op_host/") and "tiling" in f and "/arch35/" not in f
                   for f in alone), alone
    assert ARCH35_FILES | A2_FILES <= both
    assert "op_host/hard_swish_grad_tiling.cpp" not in both  # the build adds op_host/*_tiling*


def test_template_parameters_and_keys(packages: dict[str, Path]) -> None:
    folder = packages["950"]
    key = (folder / "op_kernel/arch35/hard_swish_grad_tiling_key.h").read_text()
    assert "ASCENDC_TPL_DATATYPE_DECL(D_T_X, C_DT_FLOAT, C_DT_FLOAT16, C_DT_BF16, " \
        "ASCENDC_TPL_INPUT(0))," in key
    assert "ASCENDC_TPL_UINT_DECL(BUFFER_MODE, 8, ASCENDC_TPL_UI_LIST, 0, 1)" in key
    assert key.count("ASCENDC_TPL_UINT_SEL(BUFFER_MODE, ASCENDC_TPL_UI_LIST, 0, 1)") == 3
    entry = (folder / "op_kernel/hard_swish_grad_apt.cpp").read_text()
    assert "template <typename D_T_X, uint32_t BUFFER_MODE>" in entry
    assert "NsHardSwishGrad::HardSwishGrad<D_T_X, BUFFER_MODE> op;" in entry
    tiling = (folder / "op_host/arch35/hard_swish_grad_tiling_arch35.cpp").read_text()
    assert "ASCENDC_TPL_SEL_PARAM(context, static_cast<uint64_t>(dataType), " \
        "static_cast<uint64_t>(tilingKey) >> 8);" in tiling
    assert '#include "../../op_kernel/arch35/hard_swish_grad_tiling_key.h"' in tiling
    # ops-nn's arch35 tiling, worked by hand (test_arch35.HAND_TILINGS): f16 on 64 cores of
    # 262144 bytes: 21 elements, depth 1: 262144 / 2 / 8 = 16384; 10^6 on 48 cores of 196608
    # bytes, depth 2: 196608 / 2 / 11 = 8936 -> 8896, key 1 | 1 << 8.
    test = (folder / "tests/ut/op_host/arch35/test_hard_swish_grad_tiling.cpp").read_text()
    assert "ExpectTiling(info, 1, 21, {21, 1, 16384});" in test
    assert "ExpectTiling(info, 257, 48, {1000000, 20834, 8896});" in test
    assert "ExpectTiling(info, 283, 48, {1000000, 20834, 8896});" in test
    assert "HardSwishGradArch35TilingTest" in test and "HardSwishGradTilingTest" not in test


def test_op_definition_registers_each_family(packages: dict[str, Path]) -> None:
    alone = (packages["950"] / "op_host/hard_swish_grad_def.cpp").read_text()
    assert re.findall(r"AddConfig\(([^)]*)\)", alone) == ['"ascend950", arch35Config']
    assert '.ExtendCfgInfo("opFile.value", "hard_swish_grad_apt");' in alone
    assert alone.count(".DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16})") == 3
    both = (packages["both"] / "op_host/hard_swish_grad_def.cpp").read_text()
    assert re.findall(r"AddConfig\(([^)]*)\)", both) == [
        '"ascend910b"', '"ascend910_93"', '"ascend950", arch35Config']
    cmake = (packages["both"] / "op_host/CMakeLists.txt").read_text()
    assert "COMPUTE_UNIT ascend910b ascend910_93 ascend950" in cmake
    assert "TILING_DIR arch22 arch22 arch35" in cmake
    readme = (packages["both"] / "README.md").read_text()
    assert "| `ascend950` | 64 | 253952 | 15872 | 12672 | 15872 |" in readme
    assert "y = grad * (x * 0.333333343f + 0.5f)  if -3 <= x <= 3" in readme


@pytest.fixture(scope="module")
def executables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each op's package kernel for ascend950, every template instance, on the CPU model."""
    root = tmp_path_factory.mktemp("emit_950_cpu")
    builds = {}
    for op in OPS_950:
        source = root / f"{op}.mlir"
        source.write_text(op_module(op))
        folder = root / op
        assert main([str(source), "-o", str(folder), "--soc", "ascend950"]) == 0
        lowered = runner.compile_text(op_module(op), function=f"{op}_f16", soc="ascend950")
        instances = " ".join(f"HSWC_INSTANCE({arch35_key(k, k.tiling_key)}, "
                             f"{k.template_arguments})" for k in kernels_of(lowered.module))
        entry = apt_entry(folder)
        flags = [*(f"-D{d}" for d in soc_api.CPP_DEFINES["dav_3510"]),
                 f"-DHSWC_KERNEL_INSTANCES={instances}",
                 f"-DHSWC_KERNEL_ENTRY={entry.name.removesuffix('_apt.cpp')}",
                 f"-DHSWC_GM_INPUTS={len(OPS[op].op.INPUTS)}"]
        builds[op] = Build(entry, root / f"run_{op}", flags)
    build(list(builds.values()))
    return {op: b.output for op, b in builds.items()}


def kernels_of(module: ModuleOp) -> list[Kernel]:
    return collect_kernels(module)


SIZES = (1000, 4033)
"""Below and above arch35 HardSwishGrad's 1024-element switch to depth-2 queues."""


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", OPS_950)
def test_package_kernel_matches_hswc_run(op: str, dtype: str, size: int,
                                         executables: dict[str, Path], tmp_path: Path) -> None:
    x = np.resize(x_values(dtype), size)
    inputs = [grad_values(x), x] if len(OPS[op].op.INPUTS) == 2 else [x]
    compiled = runner.compile_text(op_module(op), function=f"{op}_{dtype}", soc="ascend950",
                                   core_num=CORES)
    result = compiled.run(*inputs)
    (record,) = result.tilings
    assert record is not None
    kernel = next(k for k in kernels_of(compiled.module)
                  if k.dtype == dtype and k.tiling_key == record["tilingKey"])
    record = {**record, "tilingKey": arch35_key(kernel, int(record["tilingKey"]))}
    on_cpu = run_recorded(executables[op], record, inputs, compiled.platform.ub_size, tmp_path)
    assert _same(on_cpu, result.outputs[0]), f"{op} {dtype} {size}: C++ != hswc-run"


def test_every_named_op_and_a_generic_package_for_950(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A sample here (each emit takes seconds); HSWC_ALL_950=1 packages every named op."""
    ops = tuple(OPS) if os.environ.get("HSWC_ALL_950") == "1" else ("softshrink", "silu_grad")
    for op in ops:
        source = tmp_path / f"{op}.mlir"
        source.write_text(op_module(op))
        assert emit(capsys, source, "-o", tmp_path / op, "--soc", "ascend950")[0] == 0, op
        assert apt_entry(tmp_path / op).exists()
    code, err = emit(capsys, EXAMPLES / "grad_times_scale.mlir", "--name", "GradTimesScale",
                     "-o", tmp_path / "generic", "--soc", "ascend950", "--soc", "ascend910b")
    assert code == 0, err
    assert (tmp_path / "generic/op_kernel/grad_times_scale_apt.cpp").exists()
    assert (tmp_path / "generic/op_host/arch22/grad_times_scale_tiling.cpp").exists()


def test_bad_input_is_one_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = EXAMPLES / "hard_swish_grad.mlir"
    code, err = emit(capsys, source, "-o", tmp_path / "a", "--soc", "ascend310p")
    assert code == 1 and err.count("error:") == 1 and "invalid choice: 'ascend310p'" in err
    lowered = tmp_path / "lowered.mlir"
    lowered.write_text(str(runner.compile_file(source).module))
    code, err = emit(capsys, lowered, "-o", tmp_path / "b", "--soc", "ascend950")
    assert code == 1 and err.count("error:") == 1
    assert "the module is given lowered, for one SoC family" in err
    code, err = emit(capsys, EXAMPLES / "silu.mlir", "-o", tmp_path / "c", "--soc", "ascend950",
                     "--semantics", "cann-arch35")
    assert code == 1 and err.count("error:") == 1 and "cann-arch35" in err
    assert not any((tmp_path / n).exists() for n in "abc")
