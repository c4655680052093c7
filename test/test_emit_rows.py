"""hswc-emit packages row kernels (hsg-tile-on-cores rows=true): the softmax family and the
norms, in f16 and f32, for Atlas A2/A3 (ascend910b) and Ascend 950 (ops-nn's arch35 layout).

A row kernel's tiling counts rows (totalNum = the output's elements / the row length), so the
package's host tiling, the goldens of its example and unit tests and its tiling unit test count
rows too; each input has the shape its kernel was compiled for, which the host tiling checks.
Checked here: the kernel unit tests of every package pass on the CPU model of AscendC (their
goldens hswc-run's interpreter), those goldens meet the float64 model within PyTorch's tolerance,
the A2/A3 package's kernel built in the CPU model's harness equals the interpreter bit for bit
on random data over several chunks a core, and the host tiling divides by the row length.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from cpu_build import (
    ARCH35_UT_FLAGS,
    DTYPES,
    MODEL,
    REPO,
    Build,
    build,
    build_and_run_unit_tests,
    compiler,
)
from family_packages import run_on_cpu, unit_test_array
from sampling import halves

from hswc import runner
from hswc.reference import compare_tolerance
from hswc.reference_norms import run_reference
from hswc.tools.hswc_emit import main

SHIMS = REPO / "test" / "cpp_fixtures" / "ut_shims"
STRICT = ("-std=c++17", "-Wall", "-Wextra", "-Werror")

OPS = {  # op: (op type, its inputs, attributes in the module, as given to the reference)
    "softmax": ("Softmax", ("x",), "{dim = -1 : i64}", {"dim": -1}),
    "log_softmax": ("LogSoftmax", ("x",), "{dim = -1 : i64}", {"dim": -1}),
    "softmax_grad": ("SoftmaxGrad", ("grad_output", "output"), "{dim = -1 : i64}",
                     {"dim": -1}),
    "log_softmax_grad": ("LogSoftmaxGrad", ("grad_output", "output"), "{dim = -1 : i64}",
                         {"dim": -1}),
    "rms_norm": ("RmsNorm", ("x", "weight"), "{epsilon = 1.0e-05 : f32}", {"epsilon": 1e-5}),
    "layer_norm": ("LayerNorm", ("x", "weight", "bias"), "{epsilon = 1.0e-04 : f32}",
                   {"epsilon": 1e-4}),
}
ROWS, LENGTH = 37, 40
"""The shape the packages are compiled for: rows of 40 elements (80 bytes in f16, not a whole
number of 32-byte blocks), fewer rows than the unit test's 48 cores."""
SOCS = ("ascend910b", "ascend950")
PACKAGE_DTYPES = ("f16", "f32")
SAMPLE = {"ascend910b": ("softmax", "rms_norm"), "ascend950": ("layer_norm",)}
"""The packages the default suite builds; `pytest -m sweep` the rest."""


def shapes(op: str) -> list[tuple[int, ...]]:
    """Each input's shape: the norms' weight and bias are one row long."""
    return [(ROWS, LENGTH) if i == 0 or "norm" not in op else (LENGTH,)
            for i in range(len(OPS[op][1]))]


def module(op: str, dtypes: tuple[str, ...] = PACKAGE_DTYPES) -> str:
    """One function @<op>_<dt> per dtype, each one hsg.<op> on static shapes."""
    _, inputs, attributes, _ = OPS[op]
    functions = []
    for dt in dtypes:
        types = [f"tensor<{'x'.join(map(str, s))}x{dt}>" for s in shapes(op)]
        args = ", ".join(f"%{n}: {t}" for n, t in zip(inputs, types, strict=True))
        operands = ", ".join(f"%{n}" for n in inputs)
        functions.append(f"func.func @{op}_{dt}({args}) -> {types[0]} {{\n"
                         f"  %y = hsg.{op} {operands} {attributes} : {', '.join(types)}\n"
                         f"  func.return %y : {types[0]}\n}}\n")
    return "".join(functions)


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, str], Path]:
    """The package of an op for an SoC, written by hswc-emit on first use."""
    root = tmp_path_factory.mktemp("emit_rows")
    written: dict[tuple[str, str], Path] = {}

    def get(op: str, soc: str) -> Path:
        if (op, soc) not in written:
            source = root / f"{op}.mlir"
            source.write_text(module(op))
            out = root / f"{op}_{soc}"
            assert main([str(source), "--name", OPS[op][0], "--soc", soc, "-o", str(out)]) == 0
            written[op, soc] = out
        return written[op, soc]

    return get


def _unit_test(op: str, soc: str) -> str:
    return f"tests/ut/op_kernel/test_{op}{'_apt' if soc == 'ascend950' else ''}.cpp"


CASES = [(op, soc) for soc in SOCS for op in OPS]


@pytest.mark.parametrize("cases", halves([f"{op}@{soc}" for op, soc in CASES],
                                         [f"{op}@{soc}" for soc, ops in SAMPLE.items()
                                          for op in ops]))
def test_kernel_unit_tests_of_row_packages_pass_on_the_cpu_model(
        package: Callable[[str, str], Path], cases: tuple[str, ...], tmp_path: Path) -> None:
    """tests/ut/op_kernel of each package (Ascend 950's with that SoC's API and UB) built with
    the test-only stand-ins of googletest and tikicpulib: one test per dtype, passed."""
    from hswc.platform import PLATFORMS

    arch35 = ("-DASCENDC_CPU_DAV_3510", f"-DHSWC_UT_UB_BYTES={PLATFORMS['ascend950'].ub_size}")
    jobs = []
    for case in cases:
        op, soc = case.split("@")
        source = package(op, soc) / _unit_test(op, soc)
        command = [compiler(), *STRICT, *(arch35 if soc == "ascend950" else ()), f"-I{SHIMS}",
                   f"-I{MODEL}", str(source), "-o", str(tmp_path / case)]
        jobs.append((case, subprocess.Popen(command, stdout=subprocess.PIPE,
                                            stderr=subprocess.STDOUT, text=True)))
    for case, job in jobs:
        output, _ = job.communicate()
        assert job.returncode == 0, f"{case}:\n{output}"
    for case, _ in jobs:
        done = subprocess.run([str(tmp_path / case)], capture_output=True, text=True,
                              timeout=120, check=False)
        assert done.returncode == 0, f"{case}:\n{done.stdout}{done.stderr}"
        assert done.stdout.splitlines()[-1] == f"{len(PACKAGE_DTYPES)} passed, 0 failed", case


@pytest.mark.parametrize(("op", "soc"), [
    pytest.param(op, soc, marks=() if op in SAMPLE.get(soc, ()) else pytest.mark.sweep)
    for op, soc in CASES])
def test_unit_test_goldens_are_hswc_runs_and_within_tolerance_of_the_model(
        package: Callable[[str, str], Path], op: str, soc: str) -> None:
    """The kernel unit test's data has each input's own shape; its goldens are what hswc-run
    computes for the module on that SoC, and meet the float64 model within PyTorch's
    tolerance."""
    text = (package(op, soc) / _unit_test(op, soc)).read_text()
    for dtype in PACKAGE_DTYPES:
        test = text[text.index(f"KernelTest, {dtype}_kernel)"):]
        inputs = [unit_test_array(test, name, dtype).reshape(shape)
                  for name, shape in zip(OPS[op][1], shapes(op), strict=True)]
        expected = unit_test_array(test, "expected", dtype)
        kernel = runner.compile_text(module(op, (dtype,)), soc=soc)
        y = np.asarray(kernel(*inputs))
        assert y.shape == (ROWS, LENGTH)
        np.testing.assert_array_equal(y.reshape(-1).view(np.uint8), expected.view(np.uint8))
        within = compare_tolerance(expected, run_reference(f"hsg.{op}", inputs, **OPS[op][3])
                                   .reshape(-1))
        assert within.equal, f"{op} {dtype}: {within.summary()}"


CPU_PLATFORM = (2, 12288)
"""(cores, UB bytes) of the harness runs: several chunks of whole rows a core."""


@pytest.mark.parametrize("ops", halves(list(OPS), SAMPLE["ascend910b"]))
def test_the_package_kernel_equals_the_interpreter_over_several_chunks_a_core(
        package: Callable[[str, str], Path], ops: tuple[str, ...], tmp_path: Path) -> None:
    """op_kernel/<entry>.cpp of the A2/A3 package in the CPU model's harness, on random data
    (a NaN and an infinity in a row, too), tiled by hswc-run on 2 cores of 12 KiB of UB (8 rows
    a chunk, 19 a core): the bits of the interpreter."""
    builds = [Build(package(op, "ascend910b") / f"op_kernel/{op}.cpp", tmp_path / f"run_{op}",
                    (f"-DHSWC_KERNEL_ENTRY={op}", f"-DHSWC_GM_INPUTS={len(OPS[op][1])}"))
              for op in ops]
    build(builds)
    cores, ub = CPU_PLATFORM
    for op in ops:
        for dtype in PACKAGE_DTYPES:
            rng = np.random.default_rng(len(op))
            inputs = [rng.standard_normal(s).astype(DTYPES[dtype]) for s in shapes(op)]
            inputs[0][3, 5], inputs[0][7, 0] = np.nan, np.inf
            kernel = runner.compile_text(module(op, (dtype,))).with_platform(
                core_num=cores, ub_size=ub)
            result = kernel.run(*inputs)
            (record,) = result.tilings
            assert record is not None
            assert int(record["ubFactor"]) < int(record["blockFactor"]), "several chunks a core"
            y = run_on_cpu(tmp_path / f"run_{op}", inputs, record, ub,
                           tmp_path / f"{op}_{dtype}")
            want = np.asarray(result.outputs[0]).reshape(-1)
            assert y.tobytes() == want.tobytes(), f"{op} {dtype}: C++ != interpreter"


NORMS = ("rms_norm", "layer_norm")
RUN_TIME_EPSILON = 0.75
"""The epsilon the norm packages are run with: far from the compiled 1e-5 / 1e-4 (rows of
standard normal values have a mean square near 1), so a kernel that ignored it would differ."""


@pytest.mark.parametrize("op", [pytest.param(op, marks=() if op == "rms_norm" else
                                             pytest.mark.sweep) for op in NORMS])
def test_a_norm_package_takes_epsilon_at_run_time(
        package: Callable[[str, str], Path], op: str, tmp_path: Path) -> None:
    """A norm's epsilon is a package attribute: its op definition declares it with the named
    op's default, and op_kernel/<entry>.cpp of the A2/A3 package (compiled from a module of
    another epsilon) run in the CPU model's harness with RUN_TIME_EPSILON in its tiling data
    gives the interpreter's bits for a module of that epsilon, which meet the float64 model
    within PyTorch's tolerance and differ from the compiled epsilon's."""
    from hswc.dialects import hsg_norm_ops

    root = package(op, "ascend910b")
    default = {"rms_norm": hsg_norm_ops.RmsNormOp, "layer_norm": hsg_norm_ops.LayerNormOp}[
        op].EPSILON
    definition = (root / f"op_host/{op}_def.cpp").read_text()
    assert f'this->Attr("epsilon").AttrType(OPTIONAL).Float({default:g}f);' in definition
    executable = tmp_path / f"run_{op}"
    build([Build(root / f"op_kernel/{op}.cpp", executable,
                 (f"-DHSWC_KERNEL_ENTRY={op}", f"-DHSWC_GM_INPUTS={len(OPS[op][1])}"))])
    cores, ub = CPU_PLATFORM
    compiled = OPS[op][2]
    given = f"{{epsilon = {RUN_TIME_EPSILON} : f32}}"
    for dtype in PACKAGE_DTYPES:
        rng = np.random.default_rng(7)
        inputs = [rng.standard_normal(s).astype(DTYPES[dtype]) for s in shapes(op)]
        result = runner.compile_text(module(op, (dtype,)).replace(compiled, given)
                                     ).with_platform(core_num=cores, ub_size=ub).run(*inputs)
        (record,) = result.tilings
        assert record is not None and record["epsilon"] == RUN_TIME_EPSILON
        y = run_on_cpu(executable, inputs, record, ub, tmp_path / f"{op}_{dtype}")
        want = np.asarray(result.outputs[0]).reshape(-1)
        assert y.tobytes() == want.tobytes(), f"{op} {dtype}: C++ != interpreter"
        within = compare_tolerance(want, run_reference(
            f"hsg.{op}", inputs, epsilon=RUN_TIME_EPSILON).reshape(-1))
        assert within.equal, f"{op} {dtype}: {within.summary()}"
        at_compiled = runner.compile_text(module(op, (dtype,)))(*inputs)
        assert not compare_tolerance(want, np.asarray(at_compiled).reshape(-1)).equal


def test_the_host_tiling_counts_rows(package: Callable[[str, str], Path]) -> None:
    """The tiling hands the generated tiling the output's rows; the tiling unit test expects
    the rows as totalNum."""
    root = package("softmax", "ascend910b")
    tiling = (root / "op_host/softmax_tiling.cpp").read_text()
    assert f"computeTiling(shape.GetShapeSize() / {LENGTH}, coreNum," in tiling
    assert f"const gert::Shape shape = gert::Shape({{{ROWS}, {LENGTH}}});" in tiling
    ut = (root / "tests/ut/op_host/test_softmax_tiling.cpp").read_text()
    assert f"{{{ROWS}, 1, " in ut  # totalNum 37 rows, one a core on 48 cores


def test_the_host_tiling_runs_and_refuses_another_shape(
        package: Callable[[str, str], Path], tmp_path: Path) -> None:
    """The softmax package's op_host tiling, unchanged, on the CPU model of the tiling context:
    totalNum is the rows (37 rows of 40 on 48 cores: one a core), another shape is refused
    naming the input."""
    from hswc.checker import host_tiling
    from hswc.checker.op_folder import folder

    root = package("softmax", "ascend910b")
    op = host_tiling.OpDefinition("Softmax", [("x", (1,))], [("y", (1,))],
                                  [host_tiling.Attribute("dim", "int", "-1")])
    built = host_tiling.build(folder(root, "ascend910b"), op, {}, "SoftmaxTilingData", [],
                              None, None, compiler(), tmp_path)

    def tile(shape: tuple[int, ...]) -> subprocess.CompletedProcess[str]:
        tensor = f"1:{'x'.join(map(str, shape))}"  # f16
        return subprocess.run([str(built.executable), "--op", "Softmax", "--soc", "ascend910b",
                               "--core-num", "48", "--ub-size", "196608", "--input", tensor,
                               "--output", tensor, "--attr", "int:-1"], capture_output=True,
                              text=True, timeout=60, check=False)

    done = tile((ROWS, LENGTH))
    assert done.returncode == 0 and "status ok" in done.stdout, done.stderr
    hex_bytes = next(line.split()[2] for line in done.stdout.splitlines()
                     if line.startswith("tiling "))
    total, block, _ub = np.frombuffer(bytes.fromhex(hex_bytes), "<i8")[:3]
    assert (total, block) == (ROWS, 1), (total, block)  # the struct: totalNum, blockFactor
    assert f"block_dim {ROWS}" in done.stdout
    for shape in ((ROWS, LENGTH + 1), (ROWS * LENGTH,)):
        done = tile(shape)
        assert done.returncode != 0 and "status failed" in done.stdout, shape
        assert (f"Softmax: x must have shape {{{ROWS}, {LENGTH}}}, the shape its kernel was "
                "compiled for") in done.stderr, done.stderr


def test_a_reduction_to_one_value_a_row_is_packaged(tmp_path: Path) -> None:
    """torch-mlir's x.amax(-1) (test/fixtures/torch_models/reductions): a row kernel whose
    output holds one value per row, so the tiling's totalNum is the output's elements (4 rows
    of 64); its kernel unit test passes on the CPU model, its goldens hswc-run's."""
    fixture = REPO / "test" / "fixtures" / "torch_models" / "reductions" / "amax_rows64_f32.mlir"
    out = tmp_path / "amax"
    assert main([str(fixture), "--name", "Amax", "-o", str(out)]) == 0
    tiling = (out / "op_host" / "amax_tiling.cpp").read_text()
    assert "computeTiling(shape.GetShapeSize(), coreNum," in tiling
    assert "const gert::Shape shape = gert::Shape({4});" in tiling
    test = (out / "tests" / "ut" / "op_kernel" / "test_amax.cpp").read_text()
    assert "tiling.totalNum = 4;" in test
    (x,) = [unit_test_array(test, "arg0", "f32").reshape(4, 64)]
    expected = unit_test_array(test, "expected", "f32")
    assert expected.tobytes() == x.max(axis=-1).tobytes()  # a maximum is exact
    source = out / "tests" / "ut" / "op_kernel" / "test_amax.cpp"
    built = subprocess.run([compiler(), *STRICT, f"-I{SHIMS}", f"-I{MODEL}", str(source), "-o",
                            str(tmp_path / "ut")], capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stdout + built.stderr
    done = subprocess.run([str(tmp_path / "ut")], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.stdout.splitlines()[-1] == "1 passed, 0 failed", done.stdout + done.stderr


def test_a_package_of_rows_longer_than_the_ub_passes_its_kernel_unit_test(
        tmp_path: Path) -> None:
    """Softmax over rows of 20,000 f32 elements (one row a chunk in segments of the row, one
    pass over it per reduction: hswc.rows): the A2/A3 package's kernel unit test, its goldens
    hswc-run's, passes on the CPU model, and those goldens meet the float64 model."""
    text = ("func.func @softmax_f32(%x: tensor<3x20000xf32>) -> tensor<3x20000xf32> {\n"
            "  %y = hsg.softmax %x {dim = -1 : i64} : tensor<3x20000xf32>\n"
            "  func.return %y : tensor<3x20000xf32>\n}\n")
    source = tmp_path / "softmax.mlir"
    source.write_text(text)
    out = tmp_path / "softmax_long"
    assert main([str(source), "--name", "Softmax", "-o", str(out)]) == 0
    assert "segmentStart" in (out / "op_kernel" / "softmax.h").read_text()
    unit = out / _unit_test("softmax", "ascend910b")
    binary = tmp_path / "ut"
    subprocess.run([compiler(), *STRICT, f"-I{SHIMS}", f"-I{MODEL}", str(unit), "-o",
                    str(binary)], check=True, capture_output=True, text=True)
    done = subprocess.run([str(binary)], capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == "1 passed, 0 failed"
    test = unit.read_text()
    x = unit_test_array(test, "x", "f32").reshape(3, 20000)
    expected = unit_test_array(test, "expected", "f32")
    within = compare_tolerance(expected, run_reference("hsg.softmax", [x], dim=-1).reshape(-1))
    assert within.equal, within.summary()


def test_a_row_package_of_a_run_time_row_count(tmp_path: Path) -> None:
    """RmsNorm over rows of 40 whose count is known at run time (x: tensor<?x40xf16>): the
    host tiling checks x's rank and static dim and the weight's length, hands the generated
    tiling x's rows (1, 37 and 1000 rows on 48 cores: CANN's split of each), and refuses a
    row of another length naming the dim; the kernel unit test passes on the CPU model."""
    from hswc.checker import host_tiling
    from hswc.checker.op_folder import folder

    source = tmp_path / "rms_norm.mlir"
    source.write_text(module("rms_norm", ("f16",)).replace(f"tensor<{ROWS}x", "tensor<?x"))
    assert "tensor<?x40xf16>, tensor<40xf16>" in source.read_text()
    out = tmp_path / "pkg"
    assert main([str(source), "--name", "RmsNorm", "-o", str(out)]) == 0
    unit = out / "tests" / "ut" / "op_kernel" / "test_rms_norm.cpp"
    built = subprocess.run([compiler(), *STRICT, f"-I{SHIMS}", f"-I{MODEL}", str(unit), "-o",
                            str(tmp_path / "ut")], capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stdout + built.stderr
    done = subprocess.run([str(tmp_path / "ut")], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.stdout.splitlines()[-1] == "1 passed, 0 failed", done.stdout + done.stderr
    found = folder(out, "ascend910b")
    op = host_tiling.describe(found, compiler(), tmp_path)  # epsilon, its attribute, included
    assert [(a.name, a.type) for a in op.attributes] == [("epsilon", "float")]
    tiler = host_tiling.build(found, op, {"epsilon": "1e-5"}, "RmsNormTilingData", [], None,
                              None, compiler(), tmp_path)

    def tile(rows: int, length: int = LENGTH, weight: int = LENGTH,
             epsilon: str = "1e-5") -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(tiler.executable), "--op", "RmsNorm", "--soc", "ascend910b",
                               "--core-num", "48", "--ub-size", "196608",
                               "--input", f"1:{rows}x{length}", "--input", f"1:{weight}",
                               "--output", f"1:{rows}x{length}",
                               "--attr", f"float:{epsilon}"],
                              capture_output=True, text=True, timeout=60, check=False)

    for rows in (1, ROWS, 1000):
        done = tile(rows)
        assert done.returncode == 0 and "status ok" in done.stdout, done.stderr
        hex_bytes = next(line.split()[2] for line in done.stdout.splitlines()
                         if line.startswith("tiling "))
        total, block = np.frombuffer(bytes.fromhex(hex_bytes), "<i8")[:2]
        per_core = -(-rows // 48)
        assert (total, block) == (rows, per_core)
        assert f"block_dim {-(-rows // per_core)}" in done.stdout
    done = tile(5, epsilon="0.375")  # the attribute, into the tiling data after the int64s
    hex_bytes = next(line.split()[2] for line in done.stdout.splitlines()
                     if line.startswith("tiling "))
    assert np.frombuffer(bytes.fromhex(hex_bytes)[24:28], "<f4")[0] == 0.375
    for bad, said in (((5, LENGTH + 1, LENGTH), f"dim 1 of x must be {LENGTH}"),
                      ((5, LENGTH, LENGTH + 1), f"dim 0 of weight must be {LENGTH}"),
                      ((5, LENGTH, LENGTH, "-0.5"), "epsilon must not be negative")):
        done = tile(*bad)
        assert done.returncode != 0 and "status failed" in done.stdout, bad
        assert said in done.stderr, done.stderr


def assert_same_package(one: Path, other: Path) -> None:
    """The two folders hold the same files, byte for byte (but .hswc-package, the record of
    each write)."""
    def written(folder: Path) -> list[Path]:
        return sorted(p.relative_to(folder) for p in folder.rglob("*")
                      if p.is_file() and p.name != ".hswc-package")

    files = written(one)
    assert files == written(other)
    for path in files:
        assert (one / path).read_bytes() == (other / path).read_bytes(), path


def test_a_softmax_package_takes_dim_and_serves_only_its_own(
        package: Callable[[str, str], Path], tmp_path: Path) -> None:
    """`dim` is a package attribute, as ops-nn's softmax_v2 declares it: an optional int64 of
    default -1 that the host tiling normalises against x's rank. The package of a module of
    dim = 1 (rank - 1) is the package of dim = -1, byte for byte (so its kernel unit test
    passes: test_kernel_unit_tests_of_row_packages_pass_on_the_cpu_model); its tiling, on the
    CPU model of the tiling context, tiles dim -1 and 1 alike and refuses every other dim
    naming the attribute, the given and the served value."""
    from hswc.checker import host_tiling
    from hswc.checker.op_folder import folder

    root = package("softmax", "ascend910b")
    definition = (root / "op_host/softmax_def.cpp").read_text()
    assert 'this->Attr("dim").AttrType(OPTIONAL).Int(-1);' in definition
    assert "int64_t dim" in (root / "op_host/op_api/aclnn_softmax.h").read_text()
    source = tmp_path / "softmax.mlir"  # the fixture's name: the same generated headers
    source.write_text(module("softmax").replace("dim = -1", "dim = 1"))
    last = tmp_path / "last"
    assert main([str(source), "--name", "Softmax", "--soc", "ascend910b", "-o", str(last)]) == 0
    assert_same_package(root, last)
    found = folder(root, "ascend910b")
    op = host_tiling.describe(found, compiler(), tmp_path)
    assert [(a.name, a.type, a.default) for a in op.attributes] == [("dim", "int", "-1")]
    tiler = host_tiling.build(found, op, {}, "SoftmaxTilingData", [], None, None, compiler(),
                              tmp_path)

    def tile(dim: int) -> subprocess.CompletedProcess[str]:
        tensor = f"1:{ROWS}x{LENGTH}"  # f16
        return subprocess.run([str(tiler.executable), "--op", "Softmax", "--soc", "ascend910b",
                               "--core-num", "48", "--ub-size", "196608", "--input", tensor,
                               "--output", tensor, "--attr", f"int:{dim}"],
                              capture_output=True, text=True, timeout=60, check=False)

    served = [tile(dim) for dim in (-1, 1)]
    for done in served:
        assert done.returncode == 0 and "status ok" in done.stdout, done.stderr
    assert served[0].stdout == served[1].stdout
    for dim, said in ((0, "dim 0 (dim 0 of an input of rank 2) is not supported"),
                      (-2, "dim -2 (dim 0 of an input of rank 2) is not supported"),
                      (2, "dim 2 is out of range for an input of rank 2"),
                      (-3, "dim -3 is out of range for an input of rank 2")):
        done = tile(dim)
        assert done.returncode != 0 and "status failed" in done.stdout, dim
        assert said in done.stderr, done.stderr
        if "supported" in said:
            assert ("the kernel was compiled for dim 1, and a kernel of another dim's rows "
                    "cannot serve it") in done.stderr


def test_a_row_op_package_is_named_after_the_op_without_name(
        package: Callable[[str, str], Path], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A module whose only operator is one row op needs no --name: the package of hsg.softmax
    is Softmax's, byte for byte what `--name Softmax` writes; a module of two row ops (a
    generated operator) still needs --name, and says so."""
    root = package("softmax", "ascend910b")
    source = tmp_path / "softmax.mlir"  # the fixture's name: the same generated headers
    source.write_text(module("softmax"))
    out = tmp_path / "unnamed"
    assert main([str(source), "--soc", "ascend910b", "-o", str(out)]) == 0
    assert_same_package(root, out)
    two = tmp_path / "two.mlir"
    two.write_text("func.func @f(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {\n"
                   "  %y = hsg.softmax %x {dim = -1 : i64} : tensor<4x64xf32>\n"
                   "  %z = hsg.log_softmax %y {dim = -1 : i64} : tensor<4x64xf32>\n"
                   "  func.return %z : tensor<4x64xf32>\n}\n")
    capsys.readouterr()
    assert main([str(two), "-o", str(tmp_path / "two")]) == 1
    assert "not a named op: give its package an op type with --name" in capsys.readouterr().err


@pytest.mark.parametrize(("soc", "shape", "counted"), [
    pytest.param("ascend910b", (12, 128), "/ 768"),
    pytest.param("ascend950", (12, 128), "/ 768", marks=pytest.mark.sweep),
    pytest.param("ascend910b", (64, 100), "/ 6400 * 2", marks=pytest.mark.sweep)])
def test_a_softmax_over_dim_0_is_a_package_whose_unit_tests_pass(
        soc: str, shape: tuple[int, int], counted: str, tmp_path: Path) -> None:
    """Softmax over dim 0 of (12, 128) is a row kernel of lanes (hswc.rows: Lanes, two rows of
    64 columns of 12 runs): hswc-emit packages it as Softmax; its host tiling counts those two
    rows (x's elements over 12 * 64); of (64, 100) the rows are 64 and 36 columns wide (the
    last narrower: `tail`), counted as whole groups (x's elements / 6400 * 2). The unit test's
    goldens, hswc-run's, meet the float64 model within PyTorch's tolerance, and the unit test
    passes on the CPU model (one test a dtype)."""
    t = "x".join(map(str, shape))
    functions = {dt: f"func.func @softmax_{dt}(%x: tensor<{t}x{dt}>) -> tensor<{t}x{dt}> "
                     f"{{\n  %y = hsg.softmax %x {{dim = 0 : i64}} : tensor<{t}x{dt}>\n"
                     f"  func.return %y : tensor<{t}x{dt}>\n}}\n" for dt in PACKAGE_DTYPES}
    source = tmp_path / "softmax0.mlir"
    source.write_text("".join(functions.values()))
    out = tmp_path / "package"
    assert main([str(source), "--soc", soc, "-o", str(out)]) == 0
    (tiling_source,) = (out / "op_host").rglob("softmax_tiling*.cpp")
    tiling = tiling_source.read_text()
    assert f"shape.GetShapeSize() {counted}, coreNum" in tiling, tiling
    unit = out / _unit_test("softmax", soc)
    text = unit.read_text()
    for dtype in PACKAGE_DTYPES:
        test = text[text.index(f"KernelTest, {dtype}_kernel)"):]
        x = unit_test_array(test, "x", dtype).reshape(shape)
        expected = unit_test_array(test, "expected", dtype)
        y = np.asarray(runner.compile_text(functions[dtype], soc=soc)(x))
        np.testing.assert_array_equal(y.reshape(-1).view(np.uint8), expected.view(np.uint8))
        within = compare_tolerance(expected, run_reference("hsg.softmax", [x], dim=0)
                                   .reshape(-1))
        assert within.equal, f"{dtype}: {within.summary()}"
    flags = ARCH35_UT_FLAGS if soc == "ascend950" else ()
    done = build_and_run_unit_tests({"ut": (unit, flags)}, tmp_path)["ut"]
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == f"{len(PACKAGE_DTYPES)} passed, 0 failed"


def _column_sum(rows: int, columns: int) -> str:
    """torch-mlir's x.sum(0) of [rows, columns] f32 (hswc.rows: Lanes)."""
    from test_lane_sums import reduction

    return reduction((rows, columns), (0,), "f32")


@pytest.mark.parametrize(("columns", "rows", "width"), [(216, 4, 24), (32, 1, 32)])
def test_a_lane_package_counts_whole_groups_of_rows(columns: int, rows: int, width: int,
                                                    tmp_path: Path) -> None:
    """x.sum(0) of [100, C] f32 is a lane kernel: rows of 64 adjacent columns, a group's last
    narrower where C is not a multiple of 64 (hswc.rows: Lanes, `tail`). Hand-counted: 216
    columns are rows of 64, 64, 64 and 24 (4 rows, the last 24 wide); 32 columns one row 32
    wide. The host tiling counts whole groups (the output's C elements / C * rows), the kernel
    writes the last row at its width, and the unit test's goldens (hswc-run's) meet a float64
    sum rounded once within PyTorch's tolerance. (Its unit test on the CPU model:
    test_emit_leading's MobileNet lane kernel, 216 columns.)"""
    source = tmp_path / "colsum.mlir"
    source.write_text(_column_sum(100, columns))
    out = tmp_path / "colsum"
    assert main([str(source), "--name", "ColSum", "-o", str(out)]) == 0
    tiling = (out / "op_host" / "col_sum_tiling.cpp").read_text()
    counted = f"shape.GetShapeSize() / {columns}" + (f" * {rows}" if rows > 1 else "")
    assert f"computeTiling({counted}, coreNum," in tiling, tiling
    kernel = (out / "op_kernel" / "col_sum.h").read_text()
    assert f"% {rows} == {rows - 1} ? {width} : 64)" in kernel if rows > 1 else \
        f" + {width} - value2);" in kernel
    test = (out / "tests" / "ut" / "op_kernel" / "test_col_sum.cpp").read_text()
    assert f"tiling.totalNum = {rows};" in test
    x = unit_test_array(test, "x", "f32").reshape(100, columns)
    expected = unit_test_array(test, "expected", "f32")
    exact = x.astype(np.float64).sum(axis=0).astype(np.float32)
    assert compare_tolerance(expected, exact).equal


@pytest.mark.sweep
def test_a_lane_packages_host_tiling_counts_groups_and_refuses_another_shape(
        tmp_path: Path) -> None:
    """The x.sum(0) package of [100, 216] f32, its op_host tiling unchanged on the CPU model of
    the tiling context: totalNum 4 (rows of 64, 64, 64, 24), one a core on 48 cores (block
    dim 4); x of another shape is refused naming it."""
    from hswc.checker import host_tiling
    from hswc.checker.op_folder import folder

    source = tmp_path / "colsum.mlir"
    source.write_text(_column_sum(100, 216))
    out = tmp_path / "colsum"
    assert main([str(source), "--name", "ColSum", "-o", str(out)]) == 0
    op = host_tiling.OpDefinition("ColSum", [("x", (1,))], [("y", (1,))])
    built = host_tiling.build(folder(out, "ascend910b"), op, {}, "ColSumTilingData", [], None,
                              None, compiler(), tmp_path)

    def tile(shape: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(built.executable), "--op", "ColSum", "--soc", "ascend910b",
                               "--core-num", "48", "--ub-size", "196608", "--input",
                               f"0:{shape}", "--output", "0:216"],
                              capture_output=True, text=True, timeout=60, check=False)

    done = tile("100x216")
    assert done.returncode == 0 and "status ok" in done.stdout, done.stderr
    hex_bytes = next(line.split()[2] for line in done.stdout.splitlines()
                     if line.startswith("tiling "))
    total, block = np.frombuffer(bytes.fromhex(hex_bytes), "<i8")[:2]
    assert (total, block) == (4, 1)
    assert "block_dim 4" in done.stdout
    done = tile("100x215")
    assert done.returncode != 0 and "status failed" in done.stdout
    assert ("ColSum: x must have shape {100, 216}, the shape its kernel was compiled for"
            in done.stderr), done.stderr
