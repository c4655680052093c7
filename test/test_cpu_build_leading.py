"""Reductions over leading dims in C++: the emitted strided row kernels (a channel's N runs of
H*W elements copied by one DataCopyPad per run index into one UB row, folded and
WholeReduceSum'd in hswc.reduction_order's order) and the two kernels of a reduction split over
the cores (hswc.passes.row_split: f32 partials in GM, then the combining kernel), compiled with
g++ -Wall -Wextra -Werror against the CPU model of AscendC (hswc/checker/ascendc_cpu; Atlas A2
and Ascend 950's column) and run with --auto-sync off on every core the tiling uses, several
chunks a core: bit for bit what the interpreter gives at the ascend level, and within
PyTorch's tolerance of the float64 model; and a kernel writing an element output beside the
channel sum (two GM outputs)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest
from cpu_build import AUTO_SYNC_OFF, Build, build, run_recorded, tiling_bytes
from test_leading_reductions import SUM_NHW, bn_inputs, bn_reference, bn_sums
from test_padded_runs import NUMPY, beside, beside_expected, reduction

from hswc import runner, soc_api
from hswc.reference import compare_tolerance
from hswc.rows import read_rows

CASES = {  # case: (N, C, H, W), dtype, SoC, UB bytes (small enough for several chunks a core)
    "bn_sums_f32": ((3, 37, 4, 8), "f32", "ascend910b", 16384),
    "bn_sums_f16": ((2, 61, 4, 4), "f16", "ascend910b", 16384),
    "bn_sums_bf16_950": ((4, 61, 2, 16), "bf16", "ascend950", 32768),
    "bn_sums_f32_one_a_chunk": ((2, 5, 16, 64), "f32", "ascend910b", 49152),
    "bn_sums_f32_7x7_padded": ((8, 16, 7, 7), "f32", "ascend910b", 16384),
}
"""bn_sums_f32_one_a_chunk: channels of 2 runs of 1024 f32, 256 blocks a row, more than a
repeat stride reaches: one strided row a chunk (hsg.rows one_per_chunk), its runs copied in by
one DataCopyPad each, its calls repeating along the row. bn_sums_f32_7x7_padded: runs of 49 f32
(196 bytes) padded to 56 in UB (hswc.rows `padded_run`), -0.0 written over each run's padding
by a masked Duplicate before the sum (test_padded_runs)."""
FLAGS = {"ascend910b": (), "ascend950": tuple(f"-D{d}" for d in soc_api.CPP_DEFINES["dav_3510"])}
"""The CPU model's SoC column (test_cpu_build_950)."""
CORES = 2


def _case(case: str) -> tuple[list[np.ndarray], str]:
    shape, dtype, _soc, _ub = CASES[case]
    return bn_inputs(shape, dtype), bn_sums(shape, dtype).replace("@bn_sums(", f"@{case}(", 1)


@pytest.fixture(scope="module")
def executables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    from hswc.backend.source import kernel_source

    directory = tmp_path_factory.mktemp("leading_cpu_build")
    builds = {}
    for case in CASES:
        inputs, text = _case(case)
        source = directory / f"{case}.cpp"
        _shape, _dtype, soc, ub = CASES[case]
        module = runner.compile_text(text, core_num=CORES, ub_size=ub, soc=soc).module
        source.write_text(kernel_source(module))
        builds[case] = Build(source, directory / case,
                             (*FLAGS[soc], f"-DHSWC_KERNEL_ENTRY={case}",
                              f"-DHSWC_GM_INPUTS={len(inputs)}"))
    build(list(builds.values()))
    return {case: b.output for case, b in builds.items()}


@pytest.mark.parametrize("case", list(CASES))
def test_cpu_build_of_a_leading_axis_reduction_equals_the_interpreter(
        case: str, executables: dict[str, Path], tmp_path: Path) -> None:
    inputs, text = _case(case)
    shape, dtype, soc, ub = CASES[case]
    kernel = runner.compile_text(text, level="ascend", core_num=CORES, ub_size=ub, soc=soc)
    result = kernel.run(*inputs)
    (record,) = result.tilings
    assert record is not None
    assert int(record["ubFactor"]) < int(record["blockFactor"]), "several chunks a core"
    assert ("one_per_chunk" in str(kernel.module)) == case.endswith("_one_a_chunk")
    assert ("padded_run" in str(kernel.module)) == case.endswith("_padded")
    on_cpu = run_recorded(executables[case], record, inputs, ub, tmp_path,
                          shape=(shape[1],))
    want = np.asarray(result.outputs[0])
    assert on_cpu.tobytes() == want.tobytes(), f"{case}: C++ != interpreter"
    within = compare_tolerance(on_cpu, bn_reference(inputs, dtype))
    assert within.equal, within.summary()


SPLIT = {"sum_split_f32": (4, 2, 112, 112, "ascend910b"),
         "sum_split_f32_950": (4, 1, 120, 120, "ascend950")}
"""Channels fewer than the cores, split in a partial kernel and a combining one
(hswc.passes.row_split), chosen for the SoC's cores: on A2 2 channels of 4 runs of 112 x 112
(one kernel's chunk cannot hold such a row) in 56 partial rows of 4 pieces of 448 f32; on
Ascend 950 one channel of 4 runs of 120 x 120, in 72 rows of 4 pieces of 200 (the cost model
times the split faster: test_leading_reductions)."""
SPLIT_UB = 16384


@pytest.fixture(scope="module")
def split_executables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path]]:

    from hswc.backend.source import kernel_source

    directory = tmp_path_factory.mktemp("split_cpu_build")
    builds: dict[str, tuple[Build, Build]] = {}
    for case, (n, c, h, w, soc) in SPLIT.items():
        text = SUM_NHW.format(n=n, c=c, h=h, w=w).replace("@sum_nhw(", f"@{case}(", 1)
        source = directory / f"{case}.cpp"
        module = runner.compile_text(text, core_num=CORES, ub_size=SPLIT_UB, soc=soc).module
        source.write_text(kernel_source(module))
        builds[case] = tuple(  # type: ignore[assignment]
            Build(source, directory / entry, (*FLAGS[soc], f"-DHSWC_KERNEL_ENTRY={entry}",
                                              "-DHSWC_GM_INPUTS=1"))
            for entry in (f"{case}_partial", case))
    build([b for pair in builds.values() for b in pair])
    return {case: (pair[0].output, pair[1].output) for case, pair in builds.items()}


@pytest.mark.parametrize("case", list(SPLIT))
def test_cpu_build_of_a_split_reduction_equals_the_interpreter(
        case: str, split_executables: dict[str, tuple[Path, Path]], tmp_path: Path) -> None:
    """The partial kernel's C++ writes the interpreter's partials, the combining kernel's C++
    reads them and writes the interpreter's sums, bit for bit."""

    n, c, h, w, soc = SPLIT[case]
    text = SUM_NHW.format(n=n, c=c, h=h, w=w).replace("@sum_nhw(", f"@{case}(", 1)
    x = np.random.default_rng(c * h).standard_normal((n, c, h, w)).astype(np.float32)
    kernel = runner.compile_text(text, level="ascend", core_num=CORES, ub_size=SPLIT_UB,
                                 soc=soc)
    result = kernel.run(x)
    first, second = result.tilings
    assert first is not None and second is not None
    partial_exe, combine_exe = split_executables[case]
    partials = run_recorded(partial_exe, first, [x], SPLIT_UB, tmp_path / "partial",
                            shape=(int(first["totalNum"]),))
    on_cpu = run_recorded(combine_exe, second, [partials], SPLIT_UB, tmp_path / "combine",
                          shape=(c,))
    want = np.asarray(result.outputs[0])
    assert on_cpu.tobytes() == want.tobytes(), f"{case}: C++ != interpreter"
    exact = x.astype(np.float64).sum(axis=(0, 2, 3)).astype(np.float32)
    within = compare_tolerance(on_cpu, exact)
    assert within.equal, within.summary()


BESIDE = {"centred_f32_7x7": ((8, 16, 7, 7), "f32", "centred"),
          "product_f16": ((2, 61, 4, 4), "f16", "product")}
"""An element output beside the channel sum (test_padded_runs' `beside`): x - s[c] over runs
of 49 f32 padded to 56, x * g in f16 over runs of 16; the kernel's two GM outputs in its row
description's order (the sum first)."""
BESIDE_UB = 16384


def _beside_inputs(case: str) -> tuple[list[np.ndarray], str]:
    shape, dtype, form = BESIDE[case]
    rng = np.random.default_rng(sum(shape))
    inputs = [rng.standard_normal(shape).astype(np.float32).astype(
        np.float16 if dtype == "f16" else np.float32) for _ in range(2)]
    return inputs, beside(shape, dtype, form).replace(f"@{form}(", f"@{case}(", 1)


@pytest.fixture(scope="module")
def beside_executables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    from hswc.backend.source import kernel_source

    directory = tmp_path_factory.mktemp("beside_cpu_build")
    builds = {}
    for case in BESIDE:
        _inputs, text = _beside_inputs(case)
        source = directory / f"{case}.cpp"
        module = runner.compile_text(text, core_num=CORES, ub_size=BESIDE_UB).module
        source.write_text(kernel_source(module))
        builds[case] = Build(source, directory / case, (
            f"-DHSWC_KERNEL_ENTRY={case}", "-DHSWC_GM_INPUTS=2", "-DHSWC_GM_OUTPUTS=2"))
    build(list(builds.values()))
    return {case: b.output for case, b in builds.items()}


@pytest.mark.parametrize("case", list(BESIDE))
def test_cpu_build_of_an_element_output_beside_the_sum_equals_the_interpreter(
        case: str, beside_executables: dict[str, Path], tmp_path: Path) -> None:
    """Both outputs of the C++ kernel, run on 2 cores, several chunks a core, bit for bit the
    interpreter's at the ascend level; the element output bit-equal to numpy, the sum within
    tolerance of float64."""
    inputs, text = _beside_inputs(case)
    _shape, _dtype, form = BESIDE[case]
    kernel = runner.compile_text(text, level="ascend", core_num=CORES, ub_size=BESIDE_UB)
    result = kernel.run(*inputs)
    (record,) = result.tilings
    assert record is not None
    assert int(record["ubFactor"]) < int(record["blockFactor"]), "several chunks a core"
    (tiling := tmp_path / "tiling.bin").write_bytes(tiling_bytes(record))
    command = [str(beside_executables[case]), "--tiling-key", str(record["tilingKey"]),
               "--block-dim", str(record["usedCoreNum"]), "--ub-size", str(BESIDE_UB),
               "--tiling-file", str(tiling)]
    for i, array in enumerate(inputs):
        array.tofile(tmp_path / f"in{i}.bin")
        command += ["--input", str(tmp_path / f"in{i}.bin")]
    (rows,) = [read_rows(op) for op in kernel.module.walk()
               if op.name == "func.func" and read_rows(op) is not None]
    assert rows is not None and rows.outputs == ("row", "element")
    element, total = (np.asarray(v) for v in result.outputs)
    for i, want in enumerate((total, element)):
        command += ["--output", str(tmp_path / f"y{i}.bin"), "--output-bytes", str(want.nbytes)]
    done = subprocess.run([*command, *AUTO_SYNC_OFF], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0 and not done.stderr, done.stderr
    for i, want in enumerate((total, element)):
        on_cpu = np.fromfile(tmp_path / f"y{i}.bin", dtype=want.dtype)
        assert on_cpu.tobytes() == want.reshape(-1).tobytes(), f"{case}: output {i}"
    want_element, want_total = beside_expected(form, *inputs, total)
    assert element.tobytes() == want_element.tobytes()
    within = compare_tolerance(total, want_total)
    assert within.equal, within.summary()


PADDED_SPLIT = {"padded_split_f32": ((256, 1, 7, 7), "f32", "ascend910b"),
                "padded_split_f16_950": ((256, 1, 14, 14), "f16", "ascend950")}
"""One channel of 256 padded runs (49 f32 padded to 56; 196 f16 to 208), split across its runs
(hswc.passes.row_split: Padded runs): a partial kernel of 64 grouped rows of 4 runs, then a
kernel of one row of lanes summing the 64 partials."""
PADDED_SPLIT_UB = 65536


@pytest.fixture(scope="module")
def padded_split_executables(tmp_path_factory: pytest.TempPathFactory
                             ) -> dict[str, tuple[Path, Path]]:
    from hswc.backend.source import kernel_source

    directory = tmp_path_factory.mktemp("padded_split_cpu_build")
    builds: dict[str, tuple[Build, Build]] = {}
    for case, (shape, dtype, soc) in PADDED_SPLIT.items():
        text = reduction(shape, dtype, "sum").replace("@sum_nhw(", f"@{case}(", 1)
        source = directory / f"{case}.cpp"
        module = runner.compile_text(text, core_num=CORES, ub_size=PADDED_SPLIT_UB,
                                     soc=soc).module
        source.write_text(kernel_source(module))
        builds[case] = tuple(  # type: ignore[assignment]
            Build(source, directory / entry, (*FLAGS[soc], f"-DHSWC_KERNEL_ENTRY={entry}",
                                              "-DHSWC_GM_INPUTS=1"))
            for entry in (f"{case}_partial", case))
    build([b for pair in builds.values() for b in pair])
    return {case: (pair[0].output, pair[1].output) for case, pair in builds.items()}


@pytest.mark.parametrize("case", list(PADDED_SPLIT))
def test_cpu_build_of_padded_runs_split_across_their_runs_equals_the_interpreter(
        case: str, padded_split_executables: dict[str, tuple[Path, Path]],
        tmp_path: Path) -> None:
    """The partial kernel's C++ (grouped rows: each row's runs one DataCopyPad, padded in UB)
    writes the interpreter's partials, the combining kernel's C++ (a row of lanes) reads them
    and writes the interpreter's sum, bit for bit, within tolerance of float64."""
    shape, dtype, soc = PADDED_SPLIT[case]
    text = reduction(shape, dtype, "sum").replace("@sum_nhw(", f"@{case}(", 1)
    x = np.random.default_rng(7).standard_normal(shape).astype(NUMPY[dtype])
    kernel = runner.compile_text(text, level="ascend", core_num=CORES,
                                 ub_size=PADDED_SPLIT_UB, soc=soc)
    assert "grouped" in str(kernel.module)
    result = kernel.run(x)
    first, second = result.tilings
    assert first is not None and second is not None
    partial_exe, combine_exe = padded_split_executables[case]
    partials = run_recorded(partial_exe, first, [x], PADDED_SPLIT_UB, tmp_path / "partial",
                            output=np.dtype(np.float32), shape=(int(first["totalNum"]),))
    on_cpu = run_recorded(combine_exe, second, [partials], PADDED_SPLIT_UB,
                          tmp_path / "combine", output=x.dtype, shape=(shape[1],))
    want = np.asarray(result.outputs[0])
    assert on_cpu.tobytes() == want.tobytes(), f"{case}: C++ != interpreter"
    exact = x.astype(np.float64).sum(axis=(0, 2, 3)).astype(x.dtype)
    within = compare_tolerance(on_cpu, exact)
    assert within.equal, within.summary()
