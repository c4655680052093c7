"""Build emitted AscendC kernels against the CPU model in hswc/checker/ascendc_cpu, and run them.

`build()` compiles kernel sources into the harness (hswc/checker/ascendc_cpu/harness.cpp) with g++,
several at once (a Build's `flags` carry the harness's -D options: HSWC_KERNEL_ENTRY,
HSWC_GM_INPUTS, ...); `run_kernel()` runs one on numpy arrays the way the host would launch it:
the tiling from `hswc.tiling.compute_tiling` as a tiling file, one harness block per used core,
raw little-endian tensor files in and out. Used by test_cpu_build.py and test_emit_package.py.

Both run a kernel as if built with BiSheng's --cce-auto-sync=off (`--auto-sync off`, AUTO_SYNC):
hswc's kernels carry every PipeBarrier<PIPE_V> two vector calls on one buffer need, so on
Atlas A2/A3 the model's rule for them must hold; a kernel that relies on the compiler's barriers
(ops-nn's arch35 structure, `no-pipe-barriers`) passes `auto_sync=True`.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import PassPipeline

from hswc.checker import model_object
from hswc.checker.build import HARNESS, MODEL
from hswc.counted_rows import GROUP_NUM_FIELD
from hswc.diagnostics import LocatingParser
from hswc.kernel_signature import int_fields
from hswc.ops.hard_swish_grad import CANN_BUDGET
from hswc.pipeline import DIALECTS, LOWER_TO_ASCEND, PASSES
from hswc.platform import PLATFORMS
from hswc.rows import ROW_LENGTH_FIELD
from hswc.tiling import Plans, compute_tiling
from hswc.verification import verify_located

REPO = Path(__file__).resolve().parents[1]
STRICT = ("-std=c++17", "-Wall", "-Wextra", "-Werror")
"""The warning flags every emitted kernel must compile cleanly with."""
SANITIZE = ("-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=all")
DTYPES: Mapping[str, type] = {"f16": np.float16, "f32": np.float32, "bf16": ml_dtypes.bfloat16}
BITS = {"f16": np.uint16, "f32": np.uint32, "bf16": np.uint16}
AUTO_SYNC_OFF = ("--auto-sync", "off")
"""The harness's option for a kernel built with --cce-auto-sync=off (module docstring)."""


UT_SHIMS = REPO / "test" / "cpp_fixtures" / "ut_shims"
"""The test-only stand-ins of googletest and tikicpulib a package's kernel unit test builds with."""


ARCH35_UT_FLAGS = ("-DASCENDC_CPU_DAV_3510",
                   f"-DHSWC_UT_UB_BYTES={PLATFORMS['ascend950'].ub_size}")
"""An Ascend 950 (arch35) kernel unit test's build: the CPU model's dav_3510 API and its UB."""


def start_unit_test_build(source: Path, output: Path, flags: Sequence[str] = ()
                          ) -> Callable[[], tuple[int, str]]:
    """Start building a package's tests/ut/op_kernel `source` (with its extra `flags`:
    ARCH35_UT_FLAGS for an Ascend 950 one) against the CPU model and the UT stand-ins, linking
    the model object with the standard headers precompiled (model_object.prebuilt) where the
    build cache has them; the returned call waits for it and gives its exit status and output
    (a failed link builds it again as one translation unit, as the checker does)."""
    plain = [compiler(), *STRICT, *flags, f"-I{UT_SHIMS}", f"-I{MODEL}", str(source), "-o",
             str(output)]
    command = model_object.prebuilt(plain, source=source)
    job = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def wait() -> tuple[int, str]:
        text, _ = job.communicate()
        if job.returncode != 0 and model_object.link_failed(command, text):
            done = subprocess.run(plain, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, check=False)
            return done.returncode, done.stdout
        return job.returncode, text
    return wait


def build_unit_test(source: Path, output: Path, flags: Sequence[str] = ()) -> None:
    """Build a package's kernel unit test (start_unit_test_build), asserted clean."""
    code, text = start_unit_test_build(source, output, flags)()
    assert code == 0, f"{source}:\n{text}"


def build_and_run_unit_tests(sources: Mapping[str, tuple[Path, Sequence[str]]], tmp_path: Path
                             ) -> dict[str, subprocess.CompletedProcess[str]]:
    """Each package's tests/ut/op_kernel source (with its extra flags: ARCH35_UT_FLAGS for an
    Ascend 950 one) built against the CPU model and the UT stand-ins, in parallel, each build
    asserted clean; then each run: its completed process (the callers assert on its output)."""
    jobs = {name: start_unit_test_build(source, tmp_path / name, flags)
            for name, (source, flags) in sources.items()}
    for name, wait in jobs.items():
        code, output = wait()
        assert code == 0, f"{name}:\n{output}"
    return {name: subprocess.run([str(tmp_path / name)], capture_output=True, text=True,
                                 timeout=120, check=False) for name in sources}


def operator_module(dtypes: Sequence[str], rank: int = 1) -> str:
    """MLIR with one hsg.hard_swish_grad per dtype, on tensors of `rank` dynamic dimensions."""
    functions = []
    for dt in dtypes:
        t = f"tensor<{'?x' * rank}{dt}>"
        functions.append(f"func.func @hsg_{dt}(%grad: {t}, %x: {t}) -> {t} {{\n"
                         f"  %y = hsg.hard_swish_grad %grad, %x : {t}\n"
                         f"  func.return %y : {t}\n}}\n")
    return "".join(functions)


def compiler() -> str:
    """g++, or a skip saying there is none; on CI (CI=true) a missing compiler is a failure."""
    found = shutil.which("g++")
    if found is None:
        message = "no C++ compiler (g++ not on PATH): the CPU build of emitted kernels is untested"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{message}, and CI must run it")
        pytest.skip(message)
    return found


@dataclass(frozen=True)
class Build:
    """One executable to build: the harness with `source` compiled in."""

    source: Path
    output: Path
    flags: Sequence[str] = ()
    include: Sequence[Path] = ()


def build(builds: Sequence[Build], syntax_only: Sequence[Build] = ()) -> None:
    """Compile all builds at once (g++ processes in parallel); fail with the compiler's output."""
    cxx = compiler()
    running = []
    for job, check_only in [*((b, False) for b in builds), *((b, True) for b in syntax_only)]:
        command = [cxx, *STRICT, *job.flags, *(f"-I{p}" for p in job.include), f"-I{MODEL}",
                   f'-DHSWC_KERNEL_SOURCE="{job.source}"', str(HARNESS)]
        command += ["-fsyntax-only"] if check_only else ["-o", str(job.output)]
        command = command if check_only else model_object.prebuilt(command)
        running.append((job, subprocess.Popen(command, stdout=subprocess.PIPE,
                                              stderr=subprocess.STDOUT, text=True)))
    failures = []
    for job, process in running:
        output, _ = process.communicate()
        if process.returncode != 0:
            failures.append(f"{job.source} {' '.join(job.flags)}:\n{output}")
    if failures:
        pytest.fail("emitted kernel does not compile cleanly:\n" + "\n".join(failures))


def dtype_name(array: np.ndarray) -> str:
    return next(name for name, t in DTYPES.items() if array.dtype == np.dtype(t))


DEFAULT_PIPELINE = ",".join(LOWER_TO_ASCEND)


def lower(text: str, pipeline: str = DEFAULT_PIPELINE) -> ModuleOp:
    """Parse MLIR text and run a pass pipeline on it (by default --lower-to-ascend; "" runs
    none)."""
    ctx = Context()
    for name, factory in DIALECTS.items():
        ctx.register_dialect(name, factory)
    module = LocatingParser(ctx, text, "<test>").parse_module()
    PassPipeline.parse_spec(PASSES, pipeline).apply(ctx, module)
    verify_located(module)
    return module


def run_kernel(executable: Path, grad: np.ndarray, x: np.ndarray, core_num: int, ub_size: int,
               workdir: Path, plan: Plans = CANN_BUDGET, auto_sync: bool = False) -> np.ndarray:
    """y of the kernel run on every core the host tiling (for the kernel's UB `plan`) uses;
    AssertionError on a violation. The tiling struct {totalNum, blockFactor, ubFactor} goes to
    the harness as the raw bytes of a file (three little-endian int64)."""
    dtype = dtype_name(grad)
    tiling = compute_tiling(grad.size, core_num, ub_size, dtype, plan)
    workdir.mkdir(parents=True, exist_ok=True)
    files = {name: workdir / f"{name}.bin" for name in ("grad", "x", "y", "tiling")}
    np.ascontiguousarray(grad).tofile(files["grad"])
    np.ascontiguousarray(x).tofile(files["x"])
    struct = [tiling.total_num, tiling.block_factor, tiling.ub_factor]
    np.array(struct, "<i8").tofile(files["tiling"])
    command = [
        str(executable), "--tiling-key", str(tiling.tiling_key),
        "--block-dim", str(tiling.used_core_num), "--ub-size", str(ub_size),
        "--tiling-file", str(files["tiling"]),
        "--input", str(files["grad"]), "--input", str(files["x"]), "--output", str(files["y"]),
        *(() if auto_sync else AUTO_SYNC_OFF),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and not done.stderr, (
        f"{' '.join(command)} exited {done.returncode}:\n{done.stderr}"
    )
    return np.fromfile(files["y"], dtype=grad.dtype).reshape(grad.shape)


def tiling_bytes(record: Mapping[str, object]) -> bytes:
    """The tiling struct of a launch hswc-run recorded (its `--tiling-json` record): the int64
    fields, then the float scalars in order, padded to a multiple of 8 bytes (the struct's
    sizeof, as its int64 fields align it)."""
    floats = [float(v) for v in record.values() if isinstance(v, float)]  # type: ignore[arg-type]
    fields = int_fields(ROW_LENGTH_FIELD in record, GROUP_NUM_FIELD in record)
    data = struct.pack(f"<{len(fields)}q{len(floats)}f",
                       *(int(record[k]) for k in fields), *floats)  # type: ignore[call-overload]
    return data + bytes(-len(data) % 8)


def run_recorded(executable: Path, record: Mapping[str, object], inputs: Sequence[np.ndarray],
                 ub_size: int, workdir: Path, output: np.dtype | None = None,
                 auto_sync: bool = False, shape: tuple[int, ...] | None = None,
                 extra: Sequence[str] = ()) -> np.ndarray:
    """The kernel's one output (of dtype `output`, default the first input's; of `shape`,
    default the first input's), launched on `inputs` with the tiling and scalars of a launch
    hswc-run recorded, `extra` harness options after the rest; AssertionError on a violation
    (the harness's message)."""
    dtype = inputs[0].dtype if output is None else np.dtype(output)
    shape = inputs[0].shape if shape is None else shape
    workdir.mkdir(parents=True, exist_ok=True)
    tiling = workdir / "tiling.bin"
    tiling.write_bytes(tiling_bytes(record))
    command = [str(executable), "--tiling-key", str(record["tilingKey"]),
               "--block-dim", str(record["usedCoreNum"]), "--ub-size", str(ub_size),
               "--tiling-file", str(tiling)]
    for i, array in enumerate(inputs):
        path = workdir / f"in{i}.bin"
        np.ascontiguousarray(array).tofile(path)
        command += ["--input", str(path)]
    out = workdir / "out.bin"
    command += ["--output", str(out), "--output-bytes", str(int(np.prod(shape)) * dtype.itemsize),
                *(() if auto_sync else AUTO_SYNC_OFF), *extra]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0 and not done.stderr, (
        f"{' '.join(command)} exited {done.returncode}:\n{done.stderr}"
    )
    return np.fromfile(out, dtype=dtype).reshape(shape)


def bits(array: np.ndarray) -> np.ndarray:
    """The bit patterns, so that comparisons are exact (NaN payloads and -0.0 included)."""
    return np.ascontiguousarray(array).view(BITS[dtype_name(array)])


def build_generic_kernels(directory: Path, texts: Mapping[str, str],
                          gm_inputs: int = 2) -> dict[str, Path]:
    """Each module text (one elementwise kernel of `gm_inputs` GM inputs, named by its case)
    lowered by hswc.runner and its kernel built against the CPU model: case -> executable."""
    from hswc import runner
    from hswc.backend.source import kernel_source

    builds = {}
    for case, text in texts.items():
        source = directory / f"{case}.cpp"
        source.write_text(kernel_source(runner.compile_text(text).module))
        builds[case] = Build(source, directory / case,
                             (f"-DHSWC_KERNEL_ENTRY={case}", f"-DHSWC_GM_INPUTS={gm_inputs}"))
    build(list(builds.values()))
    return {case: b.output for case, b in builds.items()}
