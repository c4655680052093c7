"""hswc-emit on whole model files (issue 35, item 6): one ops-nn package per kernel of the
partitioned module, named after the function and the region of its first launch, with an index;
kernels at dtype boundaries declare each tensor's own dtype.

The default run checks a sample: the Llama MLP of examples/ (f16, three f32 -> f16 conversion
regions sharing one kernel, and the SiLU-gated product) and RMSNorm in f32. For each of their
packages the kernel unit test (tests/ut/op_kernel, goldens from hswc-run's interpreter) is built
against the CPU model and must pass, and the package's kernel, built into the CPU harness, must
equal the interpreter running the kernel of the lowered file itself on inputs with special
values, bit for bit. `pytest -m sweep` does the same for every model fixture that lowers.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
from cpu_build import (
    AUTO_SYNC_OFF,
    REPO,
    Build,
    build,
    compiler,
    start_unit_test_build,
    tiling_bytes,
)

from hswc.backend import model_packages
from hswc.backend.description import PackageRequest
from hswc.backend.ir_tiling import ir_tiling
from hswc.backend.kernels import Kernel, collect_kernels
from hswc.backend.package_run import run_kernel
from hswc.checker import host_tiling
from hswc.checker.op_folder import folder
from hswc.interpreter.dtypes import numpy_dtype
from hswc.platform import PLATFORMS
from hswc.remarks import collecting
from hswc.rows import Rows, read_rows
from hswc.tiling import GE_DATA_TYPES
from hswc.tools.hswc_emit import lower, main

LLAMA = REPO / "examples" / "llama_mlp_f16.mlir"
MODELS = REPO / "test" / "fixtures" / "torch_models" / "models"
RMS_NORM = MODELS / "rms_norm_f32.mlir"
SAMPLE = {"llama_mlp_f16": LLAMA, "gpt2_mlp_f32": MODELS / "gpt2_mlp_f32.mlir",
          "rms_norm_backward_f32": MODELS / "rms_norm_backward_f32.mlir"}
"""Whole-model files: elementwise kernels with ops left on the host, and RMSNorm's backward,
a row kernel (its sum over each row and the gradient around it) beside a lane kernel (the sum
over the leading dims, the elementwise work before it fused in). (RMSNorm's forward, the
sample before row kernels, is now one row kernel and one operator: below.) A row kernel is
compared at its launch's static shapes, or, where its rows are dynamic, at ROWS_AT_RUN_TIME
rows."""
COMPARED: dict[str, int] = {}
"""The launches a sample's packages compare at least (2 unless given). RMSNorm's backward's
lane kernel is over 32 columns, one row of 64 lanes 32 wide (hswc.rows: Lanes, `tail`): its
package is compared too."""
FIXTURES = sorted([*(REPO / "test" / "fixtures").glob("torch_models/*/*.mlir"),
                   *(REPO / "test" / "fixtures").glob("host_models/*.mlir"),
                   *(REPO / "test" / "fixtures").glob("real_models/*.mlir"),
                   LLAMA], key=str)
PLATFORM = PLATFORMS["ascend910b"]


def emit(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def emitted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("models")
    for name, source in SAMPLE.items():
        assert main([str(source), "-o", str(out / name)]) == 0
    return {name: out / name for name in SAMPLE}


def index(folder: Path) -> dict[str, object]:
    return json.loads((folder / "index.json").read_text())


def test_llama_gets_a_package_per_kernel_named_after_function_and_region(
        emitted: dict[str, Path]) -> None:
    folder = emitted["llama_mlp_f16"]
    assert sorted(p.name for p in folder.iterdir()) == [".hswc-package", "INDEX.md",
                                                       "index.json", "main_r0", "main_r2"]
    packages = index(folder)["packages"]
    assert isinstance(packages, list)
    shared, gated = packages
    # The three f32 -> f16 conversions after the matmuls are one kernel: one package, three
    # regions (the first launch, #0, names it).
    assert shared["op_type"] == "MainR0" and shared["dtype"] == "f32_to_f16"
    assert [r["region"] for r in shared["regions"]] == [0, 1, 3]
    assert [r["inputs"] for r in shared["regions"]] == [["8x32xf32"], ["8x32xf32"],
                                                        ["8x16xf32"]]
    assert gated["op_type"] == "MainR2" and gated["dtype"] == "f16"
    (region,) = gated["regions"]
    assert region["inputs"] == ["2x4x32xf16", "2x4x32xf16"] and region["scalars"] == [1.0]
    assert region["tiling"] == {"soc": "ascend910b", "totalNum": 256, "blockFactor": 6,
                                "ubFactor": 7424, "usedCoreNum": 43, "tilingKey": 0}
    # The region's ops are the five generics of SiLU(gate) * up, at their lines in the file.
    lines = LLAMA.read_text().splitlines()
    located = [op["location"] for op in region["ops"]]
    assert [int(where.split(":")[1]) for where in located] == [24, 29, 37, 43, 56]
    assert all("linalg.generic" in lines[int(w.split(":")[1]) - 1] for w in located)
    table = (folder / "INDEX.md").read_text()
    assert "| (shares `main_r0`) | `@main_op_kernel_f32_to_f16` | f32_to_f16 | @main #3 |" in table


def test_a_boundary_kernels_package_declares_each_tensors_dtype(
        emitted: dict[str, Path]) -> None:
    package = emitted["llama_mlp_f16"] / "main_r0"
    definition = (package / "op_host/main_r0_def.cpp").read_text()
    assert re.search(r'Input\("in"\)\s+\.ParamType\(REQUIRED\)\s+'
                     r"\.DataType\(\{ge::DT_FLOAT\}\)", definition)
    assert re.search(r'Output\("y"\)\s+\.ParamType\(REQUIRED\)\s+'
                     r"\.DataType\(\{ge::DT_FLOAT16\}\)", definition)
    tiling = (package / "op_host/main_r0_tiling.cpp").read_text()
    assert "MainR0: in must be DT_FLOAT, the dtype its kernel was compiled for" in tiling
    assert "MainR0: y must be DT_FLOAT16, the dtype its kernel was compiled for" in tiling
    aclnn = (package / "op_host/op_api/aclnn_main_r0.cpp").read_text()
    assert "OP_CHECK_DTYPE_NOT_MATCH(in, op::DataType::DT_FLOAT, return false);" in aclnn
    assert "OP_CHECK_DTYPE_NOT_MATCH(out, op::DataType::DT_FLOAT16, return false);" in aclnn
    l0op = (package / "op_host/op_api/main_r0.cpp").read_text()
    assert "AllocTensor(in->GetViewShape(), op::DataType::DT_FLOAT16)" in l0op
    example = (package / "examples/test_aclnn_main_r0.cpp").read_text()
    assert "DeviceTensor<float, ACL_FLOAT> in;" in example
    assert "DeviceTensor<uint16_t, ACL_FLOAT16> y;" in example


def test_a_boundary_packages_host_tiling_takes_only_its_dtypes(
        emitted: dict[str, Path], tmp_path: Path) -> None:
    """op_host/main_r0_tiling.cpp, unchanged, on the CPU model of the tiling context: f32 in
    and f16 out is tiled as the IR's tiling says; any other pair is refused naming the tensor."""
    package = emitted["llama_mlp_f16"] / "main_r0"
    op = host_tiling.OpDefinition("MainR0", [("in", (1,))], [("y", (1,))])
    built = host_tiling.build(folder(package, "ascend910b"), op, {}, "MainR0TilingData", [],
                              None, None, compiler(), tmp_path)

    def tile(given: int, written: int) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(built.executable), "--op", "MainR0", "--soc", "ascend910b",
                               "--core-num", "48", "--ub-size", "196608",
                               "--input", f"{given}:8x32", "--output", f"{written}:8x32"],
                              capture_output=True, text=True, timeout=60, check=False)

    f32, f16 = GE_DATA_TYPES["f32"], GE_DATA_TYPES["f16"]
    done = tile(f32, f16)
    assert done.returncode == 0 and "status ok" in done.stdout, done.stderr
    assert "block_dim 43" in done.stdout and "tiling_key 0" in done.stdout
    for given, written, name, word in ((f16, f16, "in", "DT_FLOAT"),
                                       (f32, f32, "y", "DT_FLOAT16")):
        done = tile(given, written)
        assert done.returncode != 0 and "status failed" in done.stdout
        assert (f"MainR0: {name} must be {word}, the dtype its kernel was compiled for"
                in done.stderr), done.stderr


def test_names_are_stable_from_run_to_run(emitted: dict[str, Path], tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = emit(capsys, LLAMA, "-o", tmp_path / "again")
    assert code == 0
    first, again = emitted["llama_mlp_f16"], tmp_path / "again"
    names = sorted(str(p.relative_to(first)) for p in first.rglob("*") if p.is_file())
    assert names == sorted(str(p.relative_to(again)) for p in again.rglob("*") if p.is_file())
    for name in names:
        assert (first / name).read_bytes() == (again / name).read_bytes(), name


def _kernel_unit_tests(folders: list[Path], workdir: Path) -> None:
    """Build every package's tests/ut/op_kernel test against the CPU model (two at a time) and
    require it to pass."""
    sources = [p for folder in folders for p in sorted(folder.glob("*/tests/ut/op_kernel/*.cpp"))]
    assert sources
    for start in range(0, len(sources), 2):
        jobs = []
        for source in sources[start:start + 2]:
            exe = workdir / f"{source.parents[4].name}_{source.stem}"
            jobs.append((source, exe, start_unit_test_build(source, exe)))
        for source, exe, wait in jobs:
            code, output = wait()
            assert code == 0, f"{source}:\n{output}"
            done = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300,
                                  check=False)
            assert done.returncode == 0, f"{source}:\n{done.stdout}{done.stderr}"
            assert done.stdout.splitlines()[-1] == "1 passed, 0 failed", source


def test_every_sample_packages_kernel_unit_test_passes_on_the_cpu_model(
        emitted: dict[str, Path], tmp_path: Path) -> None:
    _kernel_unit_tests(list(emitted.values()), tmp_path)


def _inputs(kernel: Kernel, count: int, seed: int) -> list[np.ndarray]:
    """Each input in its own dtype: normal values with zeros, infinities, a NaN and values
    beyond f16 in them."""
    rng = np.random.default_rng(seed)
    arrays = []
    for element in kernel.gm_element_types()[:len(kernel.operator.inputs)]:
        a = (rng.standard_normal(count) * 8).astype(np.float32)
        a[:7] = [0.0, -0.0, np.inf, -np.inf, np.nan, 70000.0, -3.0]
        with np.errstate(over="ignore"):
            arrays.append(a.astype(numpy_dtype(element)))
    return arrays


def _bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a).view({4: np.uint32, 2: np.uint16, 1: np.uint8}[a.dtype.itemsize])


def _run_harness(executable: Path, record: dict[str, object], inputs: list[np.ndarray],
                 outputs: list[tuple[int, np.dtype]], workdir: Path) -> list[np.ndarray]:
    """The kernel's outputs (each `count` elements of `dtype`) launched on `inputs` with the
    tiling and scalars of `record`, on the CPU model (hswc's kernels carry their own
    barriers)."""
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "tiling.bin").write_bytes(tiling_bytes(record))
    command = [str(executable), "--tiling-key", str(record["tilingKey"]),
               "--block-dim", str(record["usedCoreNum"]), "--ub-size", str(PLATFORM.ub_size),
               "--tiling-file", str(workdir / "tiling.bin")]
    for i, array in enumerate(inputs):
        np.ascontiguousarray(array).tofile(workdir / f"in{i}.bin")
        command += ["--input", str(workdir / f"in{i}.bin")]
    for k, _ in enumerate(outputs):
        command += ["--output", str(workdir / f"out{k}.bin")]
    for count, dtype in outputs:
        command += ["--output-bytes", str(count * dtype.itemsize)]
    command += AUTO_SYNC_OFF
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0 and not done.stderr, f"{' '.join(command)}:\n{done.stderr}"
    return [np.fromfile(workdir / f"out{k}.bin", dtype=dtype)
            for k, (_, dtype) in enumerate(outputs)]


ROWS_AT_RUN_TIME = 61
"""The row count a row kernel is compared at where its launch's rows are dynamic (more than
the 48 cores: several rows a core on some)."""


def _row_shapes(rows: Rows, launched: list[tuple[int | None, ...] | None] | None,
                count: int) -> list[tuple[int, ...]]:
    """A row kernel's input shapes, then its output's: the launch's, its dynamic dims (the
    rows') made `count` rows (the first) and 1 (the others); without a launch, flat rows."""
    if launched is None or any(s is None for s in launched):
        return [(rows.operand_size(kind, count),) for kind in (*rows.inputs, rows.outputs[0])]
    shapes = []
    for shape in launched:
        assert shape is not None
        dynamic = [k for k, n in enumerate(shape) if n is None]
        shapes.append(tuple(count if dynamic and k == dynamic[0] else 1 if n is None else n
                            for k, n in enumerate(shape)))
    return shapes


def _harness_agrees_with_the_interpreter(source: Path, folder: Path, workdir: Path) -> int:
    """Each package's op_kernel/<stem>.cpp in the CPU harness, on every static shape a region
    launches it with (else 3000 elements), against the interpreter running the kernel of the
    lowered file; the number of launches compared."""
    with collecting() as said:
        lowered = lower(source.read_text(), str(source))
    module = lowered.module
    packages = model_packages.plan_packages(module, said)
    kernels = {k.func.sym_name.data: k for k in collect_kernels(module, by_stem=False)}
    packages = [p for p in packages if (folder / p.stem).is_dir()]  # not those refused
    builds = {}
    for p in packages:
        entry = folder / p.stem / "op_kernel" / f"{p.stem}.cpp"
        builds[p.stem] = Build(entry, workdir / p.stem, (
            f"-DHSWC_KERNEL_ENTRY={p.stem}",
            f"-DHSWC_GM_INPUTS={len(p.kernel.operator.inputs)}",
            f"-DHSWC_GM_OUTPUTS={len(p.kernel.operator.outputs)}"))
    build(list(builds.values()))
    compared = 0
    for p in packages:
        kernel = kernels[p.kernel.func.sym_name.data]
        launches = p.launches or [None]
        for i, launch in enumerate(launches):
            shape = launch.output.shape if launch is not None else None
            count = int(np.prod(shape)) if shape is not None and None not in shape else 3000
            scalars = launch.scalars if launch is not None else [0.5] * len(
                kernel.operator.scalar_fields)
            fields = dict(zip(kernel.operator.scalar_fields, scalars, strict=True))
            rows = read_rows(kernel.func)
            shapes = None
            if launch is not None and ("hsg.broadcast" in kernel.func.attributes
                                       or rows is not None):
                shapes = [t.shape for t in (*launch.inputs, *launch.outputs)]
            if rows is not None:  # static where the file is; else rows at run time
                shapes = _row_shapes(rows, shapes, ROWS_AT_RUN_TIME)
            inputs = _inputs(kernel, max([count, *(int(np.prod(s)) for s in shapes or ())]), i)
            if shapes is not None:
                inputs = [a[: int(np.prod(s))] for a, s in zip(inputs, shapes, strict=False)]
            per_row, group = (None, 1) if rows is None else rows.counted(rows.outputs[0])
            wanted = run_kernel(module, kernel, inputs, fields, PLATFORM, shapes,  # type: ignore[arg-type]
                                per_row, group)
            total = wanted[0].size // (per_row or 1) * group
            t = ir_tiling(kernel, total, PLATFORM.core_num, PLATFORM.ub_size)
            record: dict[str, object] = {"totalNum": t.total_num, "blockFactor": t.block_factor,
                                         "ubFactor": t.ub_factor, "usedCoreNum": t.used_core_num,
                                         "tilingKey": t.tiling_key}
            record |= {f: float(v) for f, v in fields.items()}
            types = kernel.gm_element_types()[len(kernel.operator.inputs):]
            gots = _run_harness(builds[p.stem].output, record, inputs,
                                [(w.size, numpy_dtype(t)) for w, t in zip(wanted, types,
                                                                         strict=True)],
                                workdir / f"{p.stem}_{i}")
            for k, (got, expected) in enumerate(zip(gots, wanted, strict=True)):
                expected = expected.astype(got.dtype)  # an i1 output: a bool array, bytes
                assert np.array_equal(_bits(got), _bits(expected)), (source, p.stem, i, k)
            compared += 1
    return compared


@pytest.mark.parametrize("name", list(SAMPLE))
def test_sample_packages_kernels_equal_the_interpreter(emitted: dict[str, Path], name: str,
                                                       tmp_path: Path) -> None:
    compared = _harness_agrees_with_the_interpreter(SAMPLE[name], emitted[name], tmp_path)
    assert compared >= COMPARED.get(name, 2)


def test_a_file_without_a_kernel_is_told_so(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "matmul.mlir"
    source.write_text("""\
func.func @mm(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>) -> tensor<4x3xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %c = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x3xf32>)
      outs(%f : tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return %c : tensor<4x3xf32>
}
""")
    code, out, err = emit(capsys, source, "-o", tmp_path / "out")
    assert code == 1 and out == ""
    assert err == ("hswc-emit: error: the module holds no kernel to package: --lower-to-ascend "
                   "leaves all of its 2 ops on the host (hswc-opt --lower-to-ascend --remarks "
                   "says why each stays)\n")
    assert not (tmp_path / "out").exists()


def test_a_model_none_of_whose_kernels_can_be_packaged_fails(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every kernel refused by the package checks (here made to refuse each by name): nothing
    the user asked for is written, so the exit is 1 with one message giving each reason."""
    from hswc.backend import package
    from hswc.backend.description import PackageRefused

    def refuse(sub: object, socs: object, request: PackageRequest) -> dict[str, str]:
        raise PackageRefused(f"no room for {request.name}")

    monkeypatch.setattr(package, "package_files", refuse)
    code, out, err = emit(capsys, LLAMA, "-o", tmp_path / "out")
    assert (code, out) == (1, "")
    assert err == ("hswc-emit: error: no kernel of the module can be packaged, so nothing is "
                   "written: main_r0 (@main_op_kernel_f32_to_f16): no room for MainR0; main_r2 "
                   "(@main_op_kernel_f16): no room for MainR2\n")
    assert not (tmp_path / "out").exists()


def test_a_refused_kernel_is_a_warning_when_others_are_packaged(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from hswc.backend import package
    from hswc.backend.description import PackageRefused

    made = package.package_files

    def refuse_r0(sub: object, socs: list[str], request: PackageRequest) -> dict[str, str]:
        if request.name == "MainR0":
            raise PackageRefused("no room")
        return made(sub, socs, request)  # type: ignore[arg-type]

    monkeypatch.setattr(package, "package_files", refuse_r0)
    out = tmp_path / "out"
    code, _, err = emit(capsys, LLAMA, "-o", out)
    assert code == 0
    assert "hswc-emit: warning: no package main_r0 (@main_op_kernel_f32_to_f16): no room\n" in err
    assert "1 package (1 kernel not packaged)" in err
    assert (out / "main_r2").is_dir() and not (out / "main_r0").exists()


def test_force_and_the_ascend950_refusal_keep_their_rules(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    code, _, err = emit(capsys, LLAMA, "-o", out)
    assert code == 0 and "2 packages, one per kernel, for 4 regions; 13 ops left" in err
    code, _, err = emit(capsys, LLAMA, "-o", out)
    assert code == 1 and "--force" in err
    edited = out / "main_r2" / "README.md"
    edited.write_text("mine\n")
    code, _, err = emit(capsys, LLAMA, "-o", out, "--force")
    assert code == 1 and "main_r2/README.md" in err and edited.read_text() == "mine\n"
    code, _, err = emit(capsys, LLAMA, "-o", out, "--force-overwrite-edits")
    assert code == 0 and edited.read_text() != "mine\n"
    code, _, err = emit(capsys, LLAMA, "-o", tmp_path / "named", "--name", "Llama")
    assert code == 1 and err == (
        "hswc-emit: error: --name Llama names the one operator of a file, and this one is a "
        "whole model of 2 kernels: without --name, hswc-emit writes a package per kernel, named "
        "after its function and region\n")
    code, _, err = emit(capsys, LLAMA, "-o", tmp_path / "950", "--soc", "ascend950")
    assert code == 1 and err == (
        "hswc-emit: error: --soc ascend950: the packages of a whole model are written for "
        "Atlas A2/A3 only (hswc-emit packages one operator for Ascend 950: pick it with "
        "--function and --name)\n")


# region sweep: every model fixture


@pytest.mark.sweep
@pytest.mark.parametrize("source", FIXTURES, ids=lambda p: p.stem if p.parent.name != "models"
                         else f"models_{p.stem}")
def test_every_model_fixture_that_lowers_is_packaged_and_its_kernels_agree(
        source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    code, _, err = emit(capsys, source, "-o", out)
    if code != 0 and "give its package an op type with --name" in err:
        # One kernel and nothing on the host (a norm's forward): one operator, named.
        code, _, err = emit(capsys, source, "--name", "ModelOp", "-o", out)
        assert code == 0, err
        _kernel_unit_tests([tmp_path], tmp_path)
        return
    if code != 0:
        assert "holds no kernel to package" in err, err
        return
    entries = index(out)["packages"]
    assert isinstance(entries, list) and entries
    made = [e for e in entries if e["not_packaged"] is None]
    assert all((out / e["package"]).is_dir() for e in made)
    assert not any((out / e["package"]).exists() for e in entries if e not in made)
    _kernel_unit_tests([out], tmp_path)
    assert _harness_agrees_with_the_interpreter(source, out, tmp_path) >= len(made)


# endregion


def test_a_file_that_is_one_row_kernel_is_one_operator(capsys: pytest.CaptureFixture[str],
                                                        tmp_path: Path) -> None:
    """torch-mlir's RMSNorm forward lowers to one row kernel and nothing on the host: not a
    whole model but one operator, which needs its op type (--name), as any generic does."""
    code, _, err = emit(capsys, RMS_NORM, "-o", tmp_path / "a")
    assert code == 1 and "not a named op: give its package an op type with --name" in err
    assert not (tmp_path / "a").exists()
    code, _, _ = emit(capsys, RMS_NORM, "--name", "RmsNorm", "-o", tmp_path / "b")
    assert code == 0
    assert "shape.GetShapeSize() / 32" in (tmp_path / "b" / "op_host" /
                                           "rms_norm_tiling.cpp").read_text()
