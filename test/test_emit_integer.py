"""Integer kernels as ops-nn packages (issue 37, item 4): hswc-emit writes the torch-mlir exports
of test/fixtures/torch_models/gated (torch.where(x > 0, x, 0) on int32, torch.clamp on int8, a
quantization of f32 to int8) as packages whose op definition names ops-nn's DT_INT32 / DT_INT8,
whose example holds int32_t / int8_t data, and whose kernel unit test, built unchanged against
the C++ CPU model, passes; its expected values are checked here against numpy, independently of
hswc-run that wrote them. For Ascend 950 the arch35 kernels of the int32 package and of the
per-channel quantizations of f16 / f32 / bf16 to int8 (kernels at a dtype boundary) run on the
CPU model built for that family equal to MLIR's oracle, and their arch35 kernel unit tests pass.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from cpu_build import REPO, Build, build, build_unit_test, run_recorded

from hswc import runner, soc_api
from hswc.backend.kernels import collect_kernels
from hswc.backend.package_tests import arch35_key
from hswc.tools.hswc_emit import main

FIXTURES = REPO / "test" / "fixtures" / "torch_models"
INDEX = {e["name"]: e for e in json.loads((FIXTURES / "index.json").read_text())["fixtures"]}
PACKAGES = {"gated/where_positive_i32": ("WherePositive", "where_positive", "ge::DT_INT32"),
            "gated/clamp_i8": ("ClampInt8", "clamp_int8", "ge::DT_INT8"),
            "gated/quantize_int8_f32": ("QuantizeInt8", "quantize_int8", "ge::DT_INT8")}
BUILT_BY_DEFAULT = ("gated/where_positive_i32", "gated/quantize_int8_f32")


def _emit(name: str, folder: Path, *socs: str) -> Path:
    op_type, _, _ = PACKAGES[name]
    args = [str(FIXTURES / INDEX[name]["mlir"]), "--name", op_type, "-o", str(folder)]
    for soc in socs:
        args += ["--soc", soc]
    assert main(args) == 0
    return folder


def _vector(source: str, name: str) -> np.ndarray:
    """A `const std::vector<uintN_t> name = {0x.. /* v */, ...};` of the unit test, as the
    unsigned bit patterns it lists."""
    found = re.search(rf"const std::vector<uint(\d+)_t> {name} = \{{(.*?)\}};", source, re.S)
    assert found, name
    raw = [int(b, 16) for b in re.findall(r"0x([0-9a-f]+) /\*", found[2])]
    return np.array(raw, f"uint{found[1]}")


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=() if n in BUILT_BY_DEFAULT else pytest.mark.sweep) for n in PACKAGES])
def test_an_integer_package_names_its_types_and_its_unit_test_passes(name: str,
                                                                      tmp_path: Path) -> None:
    _, stem, ge_type = PACKAGES[name]
    folder = _emit(name, tmp_path / "package")
    definition = (folder / f"op_host/{stem}_def.cpp").read_text()
    assert f".DataType({{{ge_type}}})" in definition
    example = (folder / f"examples/test_aclnn_{stem}.cpp").read_text()
    out_type = "int32_t" if ge_type == "ge::DT_INT32" else "int8_t"
    assert f"using Element = {out_type};" in example
    source = folder / f"tests/ut/op_kernel/test_{stem}.cpp"
    exe = tmp_path / "ut"
    build_unit_test(source, exe)
    done = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "1 passed, 0 failed", \
        done.stdout + done.stderr
    text = source.read_text()
    if name == "gated/where_positive_i32":  # the unit test's goldens, by numpy
        (x_name,) = re.findall(r"const std::vector<uint32_t> (\w+) = ", text)[:1]
        x = _vector(text, x_name).view(np.int32)
        assert np.array_equal(_vector(text, "expected").view(np.int32), np.maximum(x, 0))
    if name == "gated/quantize_int8_f32":
        x = _vector(text, re.findall(r"const std::vector<uint32_t> (\w+) = ", text)[0])
        want = np.clip(np.rint(x.view(np.float32).astype(np.float64) * 16 + 3), -128, 127)
        assert np.array_equal(_vector(text, "expected").view(np.int8), want.astype(np.int8))


@pytest.mark.parametrize(("name", "op_type"), [
    ("gated/where_positive_i32", "WherePositive"),
    ("gated/quantize_per_channel_f16", "QuantizePerChannel"),
    pytest.param("gated/quantize_per_channel_f32", "QuantizePerChannel", marks=pytest.mark.sweep),
    pytest.param("gated/quantize_per_channel_bf16", "QuantizePerChannel",
                 marks=pytest.mark.sweep)])
def test_an_integer_package_for_ascend_950_runs_on_the_cpu_model(name: str, op_type: str,
                                                                  tmp_path: Path) -> None:
    """The arch35 entry (every template instance) built for dav_3510 computes as hswc-run and
    MLIR's oracle: Compare and Select on int32_t lanes (Compare.md, Select.md); a quantization
    of f16 / f32 / bf16 with a scale and an offset per channel to int8 (a kernel at a dtype
    boundary: its class and its key's D_T_X are the first input's dtype)."""
    folder = tmp_path / "package"
    args = [str(FIXTURES / INDEX[name]["mlir"]), "--name", op_type, "-o", str(folder),
            "--soc", "ascend910b", "--soc", "ascend950"]
    assert main(args) == 0
    path = FIXTURES / INDEX[name]["mlir"]
    compiled = runner.compile_file(path, soc="ascend950", core_num=5)
    _run_arch35_unit_test(folder, compiled.platform.ub_size, tmp_path)
    kernels = collect_kernels(compiled.module)
    (entry,) = (folder / "op_kernel").glob("*_apt.cpp")
    key = (folder / "op_kernel/arch35").glob("*_tiling_key.h").__next__().read_text()
    data = np.load(FIXTURES / INDEX[name]["npz"])
    described = INDEX[name]["inputs"]
    inputs = [data[f"in{i}"] for i in range(len(described))]
    first = {"f32": "float", "f16": "half", "bf16": "bfloat16_t",
             "i32": "int32_t"}[described[0]["type"]]
    assert f"ASCENDC_TPL_DATATYPE_DECL(D_T_X, {C_DT[described[0]['type']]}" in key
    instances = " ".join(f"HSWC_INSTANCE({arch35_key(k, k.tiling_key)}, {first})"
                         for k in kernels)
    made = Build(entry, tmp_path / "run", (
        *(f"-D{d}" for d in soc_api.CPP_DEFINES["dav_3510"]),
        f"-DHSWC_KERNEL_INSTANCES={instances}",
        f"-DHSWC_KERNEL_ENTRY={entry.name.removesuffix('_apt.cpp')}",
        f"-DHSWC_GM_INPUTS={len(inputs)}"))
    build([made])
    want = data["out0"]
    views = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16}
    result = compiled.run(*[x.view(views[d["type"]]) if d["type"] in views else x
                            for x, d in zip(inputs, described, strict=True)])
    (record,) = result.tilings
    assert record is not None
    kernel = next(k for k in kernels if k.tiling_key == record["tilingKey"])
    record = {**record, "tilingKey": arch35_key(kernel, int(record["tilingKey"]))}
    on_cpu = run_recorded(made.output, record, inputs, compiled.platform.ub_size, tmp_path / "r",
                          want.dtype)
    assert np.array_equal(on_cpu, want) and np.array_equal(result.outputs[0], want)


def _run_arch35_unit_test(folder: Path, ub_size: int, tmp_path: Path) -> None:
    """The package's arch35 kernel unit test (tests/ut/op_kernel/test_<stem>_apt.cpp), built
    unchanged against the CPU model of dav_3510 with Ascend 950's UB, passes."""
    (source,) = (folder / "tests/ut/op_kernel").glob("test_*_apt.cpp")
    exe = tmp_path / "ut_apt"
    build_unit_test(source, exe, (*(f"-D{d}" for d in soc_api.CPP_DEFINES["dav_3510"]),
                                  f"-DHSWC_UT_UB_BYTES={ub_size}"))
    done = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "1 passed, 0 failed", \
        done.stdout + done.stderr


C_DT = {"f32": "C_DT_FLOAT", "f16": "C_DT_FLOAT16", "bf16": "C_DT_BF16", "i32": "C_DT_INT32"}
"""Written here from ge's names (graph/types.h), not taken from hswc."""
