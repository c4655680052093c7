"""hswc-emit packages row kernels of a run-time row length (x `?x?`, issue 36), for Atlas A2/A3
and Ascend 950: the host tiling reads the length from x's shape into the tiling struct's
rowLength (and, for the norms, into the f32 scalar their mean divides by), counts x's rows
over it, and checks a weight's length against it at run time
(hswc.backend.package_row_length).

Checked here: each package's kernel unit test passes on the CPU model of AscendC (its goldens
hswc-run's interpreter at the example's shape), and the A2/A3 host tiling, unchanged, on the
CPU model of the tiling context: the rows, the length and its scalar from x's shape at two
lengths, and a weight of another length refused naming it.
"""

from __future__ import annotations

import struct
import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from cpu_build import ARCH35_UT_FLAGS, build_and_run_unit_tests, compiler
from family_packages import unit_test_array

from hswc.reference import compare_tolerance
from hswc.reference_norms import run_reference
from hswc.tools.hswc_emit import main

OPS = {  # op: (op type, its inputs and the shape of each, the attributes as the reference takes)
    "softmax": ("Softmax", {"x": "?x?"}, "{dim = -1 : i64}", {"dim": -1}),
    "rms_norm": ("RmsNorm", {"x": "?x?", "weight": "?"}, "{epsilon = 1.0e-05 : f32}",
                 {"epsilon": 1e-5}),
    "layer_norm": ("LayerNorm", {"x": "?x?", "weight": "?", "bias": "?"},
                   "{epsilon = 1.0e-04 : f32}", {"epsilon": 1e-4}),
}
DTYPES = ("f16", "f32")
SOCS = ("ascend910b", "ascend950")
SAMPLE = {("rms_norm", "ascend910b")}
"""The package whose kernel unit test the default suite builds; `pytest -m sweep` the rest."""


def module(op: str) -> str:
    """One function @<op>_<dt> per dtype, each one hsg.<op> on x `?x?` (a weight `?`)."""
    _, inputs, attributes, _ = OPS[op]
    functions = []
    for dt in DTYPES:
        types = [f"tensor<{shape}x{dt}>" for shape in inputs.values()]
        args = ", ".join(f"%{n}: {t}" for n, t in zip(inputs, types, strict=True))
        functions.append(f"func.func @{op}_{dt}({args}) -> {types[0]} {{\n"
                         f"  %y = hsg.{op} {', '.join(f'%{n}' for n in inputs)} {attributes} "
                         f": {', '.join(types)}\n  func.return %y : {types[0]}\n}}\n")
    return "".join(functions)


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """The package of an op for both SoCs, written by hswc-emit on first use."""
    root = tmp_path_factory.mktemp("emit_row_length")
    written: dict[str, Path] = {}

    def get(op: str) -> Path:
        if op not in written:
            source = root / f"{op}.mlir"
            source.write_text(module(op))
            out = root / op
            assert main([str(source), "--name", OPS[op][0], "--soc", SOCS[0], "--soc", SOCS[1],
                         "-o", str(out)]) == 0
            written[op] = out
        return written[op]

    return get


@pytest.mark.parametrize(("op", "soc"), [
    pytest.param(op, soc, marks=() if (op, soc) in SAMPLE else pytest.mark.sweep)
    for op in OPS for soc in SOCS])
def test_kernel_unit_test_of_a_run_time_row_length_passes_on_the_cpu_model(
        package: Callable[[str], Path], op: str, soc: str, tmp_path: Path) -> None:
    """tests/ut/op_kernel (Ascend 950's with its API and UB): one test per dtype and branch
    (hswc.passes.row_branches: each holds the example's rows), the tiling's rowLength the
    example's, passed; the goldens meet the float64 model."""
    apt = "_apt" if soc == "ascend950" else ""
    source = package(op) / f"tests/ut/op_kernel/test_{op}{apt}.cpp"
    text = source.read_text()
    assert "tiling.rowLength = " in text
    (done,) = build_and_run_unit_tests(
        {op: (source, ARCH35_UT_FLAGS if apt else ())}, tmp_path).values()
    assert done.returncode == 0, done.stdout + done.stderr
    tests = text.count("TEST_F(")  # one per dtype and branch (hswc.passes.row_branches)
    assert tests > len(DTYPES) and tests % len(DTYPES) == 0
    assert done.stdout.splitlines()[-1] == f"{tests} passed, 0 failed"
    for dtype in DTYPES:  # the first branch's test (each branch's goldens are the same bits)
        test = text[text.index(f"KernelTest, {dtype}_v0_kernel)"):]
        x = unit_test_array(test, "x", dtype)
        rows = int(test.split("tiling.totalNum = ")[1].split(";")[0])
        inputs = [x.reshape(rows, -1), *(unit_test_array(test, n, dtype)
                                         for n in list(OPS[op][1])[1:])]
        want = run_reference(f"hsg.{op}", inputs, **OPS[op][3]).reshape(-1)
        within = compare_tolerance(unit_test_array(test, "expected", dtype), want)
        assert within.equal, f"{dtype}: {within.summary()}"


def test_the_host_tiling_reads_the_row_length_and_checks_the_weight(
        package: Callable[[str], Path], tmp_path: Path) -> None:
    """RmsNorm's op_host tiling on the CPU model of the tiling context: x of 5 rows of 40 and
    of 1000 and of 3 rows of 4000 and of 8200 tile 5 and 3 rows, rowLength and the mean's
    scalar the length, the tiling key each length's branch; a weight of 999 against rows of
    1000 is refused naming it."""
    from hswc.checker import host_tiling
    from hswc.checker.op_folder import folder

    root = package("rms_norm")
    tiling = (root / "op_host/arch22/rms_norm_tiling.cpp").read_text()
    assert "computeTiling((rowLength > 0 ? shape.GetShapeSize() / rowLength : 0)" in tiling
    op = host_tiling.OpDefinition("RmsNorm", [("x", (1,)), ("weight", (1,))], [("y", (1,))],
                                  [host_tiling.Attribute("epsilon", "float", "1e-06")])
    built = host_tiling.build(folder(root, "ascend910b"), op, {}, "RmsNormTilingData", [],
                              None, None, compiler(), tmp_path)

    def tile(x: tuple[int, int], weight: int) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(built.executable), "--op", "RmsNorm", "--soc", "ascend910b", "--core-num",
             "48", "--ub-size", "196608", "--input", f"1:{x[0]}x{x[1]}", "--input",
             f"1:{weight}", "--output", f"1:{x[0]}x{x[1]}", "--attr", "float:0.5"],
            capture_output=True, text=True, timeout=60, check=False)

    keys = []
    for rows, length in ((5, 40), (5, 1000), (3, 4000), (3, 8200)):
        done = tile((rows, length), length)
        assert done.returncode == 0 and "status ok" in done.stdout, done.stderr
        data = bytes.fromhex(next(line.split()[2] for line in done.stdout.splitlines()
                                  if line.startswith("tiling ")))
        total, _block, _ub, row_length = np.frombuffer(data[:32], "<i8")
        scalar, epsilon = struct.unpack("<2f", data[32:40])  # rowLengthF32, then epsilon
        assert (total, row_length, epsilon, scalar) == (rows, length, 0.5, length)
        keys.append(next(line for line in done.stdout.splitlines()
                         if line.startswith("template ")))
    # the branch each length takes (hswc.passes.row_branches): whole rows of 64, of 1024, of
    # 8192 (the longest row any of RmsNorm's f16 candidate schedules holds in the A2's UB:
    # row_schedule_choice), then in segments;
    # the schMode of an f16 x: DT_FLOAT16 = 1, the branch above it
    assert keys == [f"template schMode={1 | branch << 8}" for branch in (0, 1, 2, 3)], keys
    done = tile((5, 1000), 999)
    assert done.returncode != 0 and "status failed" in done.stdout
    assert ("RmsNorm: dim 0 of weight must be dim 1 of x (1000) to broadcast to the output, "
            "not 999") in done.stderr, done.stderr


def test_a_run_time_row_length_writing_a_value_per_row_is_refused_with_one_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """x.amax(-1) of `?x?` is a row kernel (the host computes a length of 0), which a package's
    host tiling does not hold: one located message and status 1, no internal error."""
    source = Path(__file__).parent / "data" / "amax_rows_dynamic_f32.mlir"
    assert main([str(source), "-o", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert "internal error" not in err
    assert "amax_rows_dynamic_f32.mlir:12:5: error: 'func.func' is a row kernel of a run-time " \
        "row length whose first output is not one of x's shape" in err
