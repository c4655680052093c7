"""hswc-run and its Python API (hswc.runner): the contract of ARCHITECTURE.md "Contracts".

Results are checked against hswc.reference; every bad input must end in one message on stderr
and exit code 1, never a traceback.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from hswc.reference import compare_bitwise, hard_swish_grad_cann, hard_swish_grad_torch
from hswc.runner import CompileError, InputError, compile_text
from hswc.tools.hswc_run import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "hard_swish_grad.mlir"
BF16 = np.dtype(ml_dtypes.bfloat16)


def module(tensor_type: str, name: str = "hsg") -> str:
    return (f"func.func @{name}(%grad: {tensor_type}, %x: {tensor_type}) -> {tensor_type} {{\n"
            f"  %y = hsg.hard_swish_grad %grad, %x : {tensor_type}\n"
            f"  func.return %y : {tensor_type}\n}}\n")


def inputs(shape: tuple[int, ...], dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    grad = rng.standard_normal(shape).astype(np.float32).astype(dtype)
    x = rng.uniform(-4.5, 4.5, shape).astype(np.float32).astype(dtype)
    flat = x.reshape(-1)  # a view: these land in x
    flat[:4] = np.array([-3.0, 3.0, np.nan, -np.inf]).astype(dtype)[: flat.size]
    return grad, x


def write(tmp_path: Path, text: str, name: str = "m.mlir") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def save(tmp_path: Path, name: str, array: np.ndarray) -> str:
    path = tmp_path / name
    np.save(path, array)
    return str(path)


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# region results


@pytest.mark.parametrize("dt", ["f16", "bf16", "f32"])
def test_writes_the_reference_result_and_checks_it(
        dt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dtype = {"f16": np.dtype(np.float16), "bf16": BF16, "f32": np.dtype(np.float32)}[dt]
    grad, x = inputs((4, 999), dtype)
    path = write(tmp_path, module(f"tensor<4x?x{dt}>"))
    out = tmp_path / "y.npy"
    code, stdout, err = run_cli([str(path), "--input", save(tmp_path, "g.npy", grad), "--input",
                                 save(tmp_path, "x.npy", x), "--output", str(out), "--check",
                                 "cann"], capsys)
    assert (code, err) == (0, "")
    assert stdout == f"--check cann: bit-exact: all 3996 {dtype} elements match\n"
    y = np.load(out)
    if dt == "bf16":  # np.save writes bfloat16 as 2-byte void: read it back as ml_dtypes does
        assert y.dtype == np.dtype("V2")
        y = y.view(BF16)
    assert y.dtype == dtype and y.shape == (4, 999)
    assert compare_bitwise(y, hard_swish_grad_cann(grad, x)).equal


def test_check_torch_reports_the_differences(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    grad, x = inputs((1000,), np.dtype(np.float32))
    expected = compare_bitwise(hard_swish_grad_cann(grad, x), hard_swish_grad_torch(grad, x))
    assert not expected.equal
    path = write(tmp_path, module("tensor<?xf32>"))
    code, stdout, _ = run_cli([str(path), "--input", save(tmp_path, "g.npy", grad), "--input",
                               save(tmp_path, "x.npy", x), "--check", "torch"], capsys)
    assert code == 1
    assert stdout.startswith(f"--check torch: MISMATCH: {expected.mismatches} of 1000 float32")
    assert f"first difference at index {expected.first_index}" in stdout
    assert "max abs error" in stdout and "max ulp error" in stdout


def test_tiling_json_follows_the_platform(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    grad, x = inputs((7, 3), np.dtype(np.float32))
    path = write(tmp_path, module("tensor<?x?xf32>"))
    args = [str(path), "--input", save(tmp_path, "g.npy", grad), "--input",
            save(tmp_path, "x.npy", x), "--tiling-json", str(tmp_path / "t.json")]
    assert run_cli([*args, "--core-num", "64", "--ub-size", "262144"], capsys)[0] == 0
    # SPEC section 4: the ops-nn tiling unit test's figures.
    assert json.loads((tmp_path / "t.json").read_text()) == {
        "totalNum": 21, "blockFactor": 1, "ubFactor": 5440, "usedCoreNum": 21, "tilingKey": 1}
    assert run_cli([*args, "--soc", "ascend910_93"], capsys)[0] == 0
    assert json.loads((tmp_path / "t.json").read_text())["ubFactor"] == 4032


@pytest.mark.parametrize("level", ["hsg", "tiled", "blocked", "ascend"])
def test_every_level_gives_the_same_file(level: str, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    grad, x = inputs((4, 300), np.dtype(np.float16))
    args = [str(EXAMPLE), "--input", save(tmp_path, "g.npy", grad), "--input",
            save(tmp_path, "x.npy", x), "--output", str(tmp_path / "y.npy"), "--core-num", "3",
            "--ub-size", "8192", "--level", level, "--tiling-json", str(tmp_path / "t.json")]
    assert run_cli(args, capsys)[0] == 0
    assert compare_bitwise(np.load(tmp_path / "y.npy"), hard_swish_grad_cann(grad, x)).equal
    assert json.loads((tmp_path / "t.json").read_text()) == {
        "totalNum": 1200, "blockFactor": 400, "ubFactor": 128, "usedCoreNum": 3, "tilingKey": 0}


def test_lowered_input_runs_as_it_is(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lowered = subprocess.run(["hswc-opt", "--lower-to-ascend", str(EXAMPLE)], check=True,
                             capture_output=True, text=True).stdout
    path = write(tmp_path, lowered, "lowered.mlir")
    grad, x = inputs((4, 77), np.dtype(np.float16))
    code, stdout, _ = run_cli([str(path), "--input", save(tmp_path, "g.npy", grad), "--input",
                               save(tmp_path, "x.npy", x), "--check", "cann"], capsys)
    assert code == 0 and "bit-exact" in stdout


def test_bf16_bit_patterns_as_uint16(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    grad, x = inputs((50,), BF16)
    path = write(tmp_path, module("tensor<50xbf16>"))
    code, stdout, _ = run_cli([str(path), "--input", save(tmp_path, "g.npy", grad.view(np.uint16)),
                               "--input", save(tmp_path, "x.npy", x.view(np.uint16)),
                               "--check", "cann"], capsys)
    assert code == 0 and "bit-exact" in stdout


def test_several_launches_give_a_tiling_list_and_the_hsg_level_check(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # %a is also returned, so it is not fused into %b: two launches.
    text = ("func.func @twice(%g: tensor<?xf16>, %x: tensor<?xf16>) -> (tensor<?xf16>, "
            "tensor<?xf16>) {\n"
            "  %a = hsg.hard_swish_grad %g, %x : tensor<?xf16>\n"
            "  %b = hsg.hard_swish_grad %a, %x : tensor<?xf16>\n"
            "  func.return %a, %b : tensor<?xf16>, tensor<?xf16>\n}\n")
    grad, x = inputs((100,), np.dtype(np.float16))
    code, stdout, _ = run_cli([str(write(tmp_path, text)), "--input", save(tmp_path, "g.npy", grad),
                               "--input", save(tmp_path, "x.npy", x), "--output",
                               str(tmp_path / "a.npy"), "--output", str(tmp_path / "y.npy"),
                               "--check", "cann", "--tiling-json", str(tmp_path / "t.json")],
                              capsys)
    assert code == 0, stdout
    once = hard_swish_grad_cann(grad, x)
    assert compare_bitwise(np.load(tmp_path / "a.npy"), once).equal
    assert compare_bitwise(np.load(tmp_path / "y.npy"), hard_swish_grad_cann(once, x)).equal
    assert [t["totalNum"] for t in json.loads((tmp_path / "t.json").read_text())] == [100, 100]


REDUCTIONS = {
    "softmax": ("hsg.softmax %x {dim = -1 : i64} : tensor<5x64xf32>", "tensor<5x64xf32>",
                "hsg.softmax reduces along a dim"),
    "rms_norm": ("hsg.rms_norm %x, %w {epsilon = 1.0e-06 : f32} : tensor<5x64xf32>, "
                 "tensor<64xf32>", "tensor<5x64xf32>", "hsg.rms_norm reduces along a dim"),
    "row_sum": ("linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, "
                "affine_map<(d0, d1) -> (d0)>], iterator_types = [\"parallel\", \"reduction\"]} "
                "ins(%x : tensor<5x64xf32>) outs(%f : tensor<5xf32>) {\n"
                "  ^bb0(%a: f32, %acc: f32):\n    %r = arith.addf %a, %acc : f32\n"
                "    linalg.yield %r : f32\n  } -> tensor<5xf32>", "tensor<5xf32>",
                "linalg.generic sums along a reduction iterator"),
}


def _float64_golden(case: str, x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Each reduction in float64, written here independently of hswc.reference_norms."""
    x64 = x.astype(np.float64)
    if case == "softmax":
        e = np.exp(x64 - x64.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)
    if case == "rms_norm":
        return x64 / np.sqrt((x64 * x64).mean(axis=-1, keepdims=True) + 1e-6) * w
    return x64.sum(axis=-1)


@pytest.mark.parametrize("case", REDUCTIONS)
def test_check_compares_a_reduction_within_torch_tolerance(
        case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A kernel's f32 sums are not its float64 golden's, nor its MLIR semantics' sequential
    order (softmax f32 (5, 64) differs by up to 14 ulp): --check says it compares within
    torch.testing.assert_close's default tolerance, and the result is within it."""
    body, result, why = REDUCTIONS[case]
    args = "%x: tensor<5x64xf32>" + (", %w: tensor<64xf32>" if case == "rms_norm" else "")
    fill = ("%z = arith.constant 0.0 : f32\n  %e = tensor.empty() : tensor<5xf32>\n"
            "  %f = linalg.fill ins(%z : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>\n  "
            if case == "row_sum" else "")
    path = write(tmp_path, f"func.func @f({args}) -> {result} {{\n  {fill}%y = {body}\n"
                           f"  func.return %y : {result}\n}}\n")
    rng = np.random.default_rng(0)
    x = (rng.standard_normal((5, 64)) * 4).astype(np.float32)
    w = rng.uniform(0.5, 2.0, 64).astype(np.float32)
    argv = [str(path), "--input", save(tmp_path, "x.npy", x)]
    if case == "rms_norm":
        argv += ["--input", save(tmp_path, "w.npy", w)]
    out = tmp_path / "y.npy"
    code, stdout, err = run_cli([*argv, "--output", str(out), "--check"], capsys)
    assert (code, err) == (0, "")
    first, second = stdout.splitlines()
    assert first == ("--check (each op's default semantics): compared within "
                     f"torch.testing.assert_close's default tolerance, not bit for bit: {why}")
    assert second.startswith("--check (each op's default semantics): within torch tolerance")
    np.testing.assert_allclose(np.load(out), _float64_golden(case, x, w), rtol=1.3e-6, atol=1e-5)


# endregion
# region the Python API


def test_api_compiles_once_and_runs_many_times() -> None:
    kernel = compile_text(module("tensor<*xf16>"), core_num=5, ub_size=8192)
    for shape in [(0,), (), (3, 17), (1000,)]:
        grad, x = inputs(shape, np.dtype(np.float16))
        assert compare_bitwise(kernel(grad, x), hard_swish_grad_cann(grad, x)).equal
    assert kernel.tiling((3, 17)) == {"totalNum": 51, "blockFactor": 11, "ubFactor": 128,
                                      "usedCoreNum": 5, "tilingKey": 0}


@pytest.mark.parametrize("view", ["strided", "transposed", "fortran", "negative step"])
def test_api_takes_non_contiguous_arrays(view: str) -> None:
    kernel = compile_text(module("tensor<?x?xf32>"), core_num=4, ub_size=8192)
    grad, x = inputs((60, 40), np.dtype(np.float32))
    make = {
        "strided": lambda a: a[::2, 1::3],
        "transposed": lambda a: a.T,
        "fortran": np.asfortranarray,
        "negative step": lambda a: a[::-1, ::-2],
    }[view]
    g, v = make(grad), make(x)
    assert not (g.flags.c_contiguous and v.flags.c_contiguous) or view == "fortran"
    assert compare_bitwise(kernel(g, v), hard_swish_grad_cann(g.copy(), v.copy())).equal


def test_api_writes_into_a_strided_out() -> None:
    kernel = compile_text(module("tensor<?x?xf16>"), core_num=3, ub_size=8192)
    grad, x = inputs((30, 20), np.dtype(np.float16))
    buffer = np.zeros((30, 40), np.float16)
    assert kernel(grad, x, out=buffer[:, ::2]) is not None
    assert compare_bitwise(buffer[:, ::2], hard_swish_grad_cann(grad, x)).equal
    assert not buffer[:, 1::2].any()
    with pytest.raises(InputError, match="out must be one float16 array of shape"):
        kernel(grad, x, out=buffer)


def test_api_errors() -> None:
    kernel = compile_text(module("tensor<4x?xf16>"))
    with pytest.raises(InputError, match=r"input 1 \(grad\): expected shape \(4, \?\)"):
        kernel(np.zeros((3, 5), np.float16), np.zeros((3, 5), np.float16))
    with pytest.raises(InputError, match=r"input 2 \(x\): expected element type f16"):
        kernel(np.zeros((4, 5), np.float16), np.zeros((4, 5), np.float32))
    with pytest.raises(CompileError, match=r"x\.mlir:1:\d+"):
        compile_text("func.func @f(", name="x.mlir")


# endregion
# region errors: one message, exit 1


def _bad_npy_files(tmp_path: Path) -> dict[str, tuple[str, str]]:
    good = np.zeros((4, 10), np.float16)
    full = tmp_path / "full.npy"
    np.save(full, good)
    data = full.read_bytes()
    (tmp_path / "truncated.npy").write_bytes(data[: len(data) - 7])
    (tmp_path / "header.npy").write_bytes(data[:20])
    (tmp_path / "text.npy").write_text("not numpy at all")
    np.save(tmp_path / "pickled.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    np.savez(tmp_path / "archive.npz", a=good)
    return {
        "truncated": ("truncated.npy", "is damaged: its header declares a float16 array of "
                      "shape (4, 10) (80 bytes) but 73 bytes of data follow it"),
        "truncated header": ("header.npy", "is not a readable .npy file"),
        "not npy": ("text.npy", "is not a .npy file"),
        "pickled": ("pickled.npy", "Object arrays cannot be loaded when allow_pickle=False"),
        "npz": ("archive.npz", "is an .npz archive"),
        "missing": ("missing.npy", "cannot read '"),
        "directory": (".", "cannot read '"),
    }


def test_unreadable_inputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = save(tmp_path, "x.npy", np.zeros((4, 10), np.float16))
    for case, (name, message) in _bad_npy_files(tmp_path).items():
        code, _, err = run_cli([str(EXAMPLE), "--input", str(tmp_path / name), "--input",
                                  other], capsys)
        assert code == 1, case
        assert err.startswith("hswc-run: error: ") and message in err, (case, err)
        assert err.count("\n") == 1 and "Traceback" not in err, (case, err)


MISMATCHES = {
    "dtype": (np.zeros((4, 10), np.float32), "expected element type f16 (float16) for "
              "tensor<4x?xf16>, got an array of dtype float32"),
    "static dim": (np.zeros((5, 10), np.float16), "expected shape (4, ?) (tensor<4x?xf16>), got "
                   "an array of shape (5, 10)"),
    "rank": (np.zeros(40, np.float16), "expected shape (4, ?) (tensor<4x?xf16>), got an array "
             "of shape (40,)"),
}


@pytest.mark.parametrize("case", MISMATCHES)
def test_inputs_that_do_not_fit(case: str, tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    array, message = MISMATCHES[case]
    code, _, err = run_cli([str(EXAMPLE), "--input", save(tmp_path, "g.npy", array), "--input",
                            save(tmp_path, "x.npy", np.zeros((4, 10), np.float16))], capsys)
    assert code == 1
    assert err == f"hswc-run: error: input 1 (grad): {message}\n"


def test_dynamic_dims_that_differ_at_run_time(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli([str(EXAMPLE), "--input",
                            save(tmp_path, "g.npy", np.zeros((4, 10), np.float16)), "--input",
                            save(tmp_path, "x.npy", np.zeros((4, 11), np.float16))], capsys)
    assert code == 1
    # Blamed on the op as written, naming the inputs (issue 20), not on the lowered launch.
    assert err == (f"{EXAMPLE}:4:3: error: 'hsg.hard_swish_grad' gets input 1 (grad) of shape "
                   "(4, 10) and input 2 (x) of shape (4, 11): the operands of an elementwise op "
                   "must have one shape\n")


IR_ERRORS = {
    "syntax": ("func.func @f(%a: tensor<4xf16>) {\n  %y = \n}\n", ":3:1"),
    "unknown op": ("func.func @f(%a: tensor<4xf16>) {\n  \"foo.bar\"() : () -> ()\n"
                   "  func.return\n}\n", "foo.bar"),
    "verifier": ("func.func @f(%a: tensor<4xf16>, %b: tensor<4xf32>) -> tensor<4xf16> {\n"
                 "  %y = \"hsg.hard_swish_grad\"(%a, %b) : (tensor<4xf16>, tensor<4xf32>) -> "
                 "tensor<4xf16>\n  func.return %y : tensor<4xf16>\n}\n",
                 "m.mlir:2:3: error: 'hsg.hard_swish_grad' x has type tensor<4xf32>"),
    "no function": ("builtin.module {}\n", "exactly one function to run, found none"),
    "two functions": (module("tensor<4xf16>", "a") + module("tensor<4xf16>", "b"),
                      "found @a, @b; name one with --function"),
}


@pytest.mark.parametrize("case", IR_ERRORS)
def test_malformed_ir(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, message = IR_ERRORS[case]
    code, _, err = run_cli([str(write(tmp_path, text)), "--input",
                            save(tmp_path, "a.npy", np.zeros(4, np.float16))], capsys)
    assert code == 1
    assert message in err and "Traceback" not in err, err


def test_command_line_mistakes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = save(tmp_path, "g.npy", np.zeros((4, 3), np.float16))
    cases = {
        "input count": ([str(EXAMPLE), "--input", g], "the function takes 2 input(s), 1 given"),
        "too many outputs": ([str(EXAMPLE), "--input", g, "--input", g, "--output",
                              str(tmp_path / "a.npy"), "--output", str(tmp_path / "b.npy")],
                             "2 --output file(s) given for the 1 result(s) of @hard_swish_grad: "
                             "give --output once per result, in order"),
        "unwritable output": ([str(EXAMPLE), "--input", g, "--input", g, "--output",
                               str(tmp_path / "no" / "y.npy")], "cannot write '"),
        "missing module": ([str(tmp_path / "none.mlir")], "cannot read '"),
        "tiling refused": ([str(EXAMPLE), "--input", g, "--input", g, "--ub-size", "2000"],
                           "'cf.assert' assertion failed: ubFactor is invalid"),
        "no such function": ([str(EXAMPLE), "--function", "nope"], "no function @nope to run"),
        "unknown SoC": ([str(EXAMPLE), "--soc", "ascend310p"],
                        "unknown SoC 'ascend310p' (known: ascend910_93, ascend910b, ascend950)"),
        "negative cores": ([str(EXAMPLE), "--core-num", "-2"],
                           "the core count must be between 0 and 1024, got -2"),
    }
    for case, (argv, message) in cases.items():
        code, _, err = run_cli(argv, capsys)
        assert code == 1, case
        assert message in err and "Traceback" not in err, (case, err)


def test_kernel_fault_names_the_op(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A module folded for a 196608-byte UB run on 16 KiB: refused at the InitBuffer."""
    passes = ("hsg-decompose,hsg-tile-on-cores{soc=ascend910b},hsg-block-into-ub,"
              "convert-hsg-to-ascend")
    source = write(tmp_path, module("tensor<9000xf32>"))
    text = subprocess.run(["hswc-opt", "-p", passes, str(source)],
                          check=True, capture_output=True, text=True).stdout
    g = save(tmp_path, "g.npy", np.zeros(9000, np.float32))
    code, _, err = run_cli([str(write(tmp_path, text, "low.mlir")), "--input", g, "--input", g,
                            "--ub-size", "16384"], capsys)
    assert code == 1
    assert "error: 'ascend.init_buffer' UB overflow" in err and err.count("\n") == 1


def test_console_script_prints_no_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.npy"
    bad.write_bytes(b"\x93NUMPY\x01\x00garbage")
    done = subprocess.run(["hswc-run", str(EXAMPLE), "--input", str(bad), "--input", str(bad)],
                          capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr.startswith("hswc-run: error: ") and "Traceback" not in done.stderr


# endregion


# region profile


def test_profile_prints_the_model_and_writes_a_trace(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    grad, x = inputs((4, 5000), np.dtype(np.float16))
    trace = tmp_path / "trace.json"
    code, out, err = run_cli([str(EXAMPLE), "--input", save(tmp_path, "g.npy", grad),
                              "--input", save(tmp_path, "x.npy", x), "--core-num", "4",
                              "--profile", str(trace)], capsys)
    assert code == 0, err
    # 20000 elements on 4 cores: blockFactor 5000, two chunks of ubFactor 4032 per core.
    assert "blockFactor 5000, ubFactor 4032, 4 cores used" in out
    assert "of the HBM roofline" in out and "binding:" in out
    events = json.loads(trace.read_text())["traceEvents"]
    spans = [e for e in events if e.get("ph") == "X"]
    assert {e["pid"] for e in spans} == {0, 1, 2, 3}
    # one track per pipe per core: copy-in, vector and copy-out
    assert {(e["pid"], e["tid"]) for e in spans} >= {(c, t) for c in range(4) for t in (1, 2, 3)}


def test_profile_of_several_launches_lists_each_and_the_total(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write(tmp_path, (
        "func.func @two(%g: tensor<?xf16>, %x: tensor<?xf16>) -> tensor<?xf16> {\n"
        "  %0 = hsg.hard_swish_grad %g, %x : tensor<?xf16>\n"
        "  %1 = hsg.hard_swish_grad %0, %x : tensor<?xf16>\n"
        "  func.return %1 : tensor<?xf16>\n}\n"))
    lowered = tmp_path / "two.ascend.mlir"  # unfused: hsg-fuse-elementwise left out
    from hswc.tools.hswc_opt import main as opt

    assert opt([str(source), "-p", "hsg-decompose,hsg-tile-on-cores,hsg-block-into-ub,"
                "convert-hsg-to-ascend", "-o", str(lowered)]) == 0
    grad, x = inputs((1000,), np.dtype(np.float16))
    code, out, err = run_cli([str(lowered), "--input", save(tmp_path, "g.npy", grad),
                              "--input", save(tmp_path, "x.npy", x), "--profile"], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "2 launches, one after the other:"
    assert lines[1].startswith("  1. HardSwishGrad f16, 1000 elements: ")
    assert lines[2].startswith("  2. HardSwishGrad f16, 1000 elements: ")
    assert lines[3].startswith("total: ") and "GM traffic 12000 B" in lines[3]


def test_no_fuse_launches_one_kernel_per_op_with_the_same_bits(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    chain = str(EXAMPLE.parent / "grad_times_scale.mlir")
    rng = np.random.default_rng(5)
    files = [save(tmp_path, f"{n}.npy", (rng.standard_normal(3000) * 4).astype(np.float16))
             for n in ("g", "x", "s")]
    args = [chain, *(a for f in files for a in ("--input", f)), "--profile"]
    code, fused, err = run_cli([*args, "--output", str(tmp_path / "fused.npy")], capsys)
    assert code == 0, err
    code, unfused, err = run_cli([*args, "--no-fuse", "--output", str(tmp_path / "unfused.npy")],
                                 capsys)
    assert code == 0, err
    assert fused.startswith("GradTimesScale f16, 3000 elements")  # one launch
    assert unfused.splitlines()[0] == "3 launches, one after the other:"
    assert np.array_equal(np.load(tmp_path / "fused.npy").view(np.uint16),
                          np.load(tmp_path / "unfused.npy").view(np.uint16))


def test_profile_of_a_function_without_inputs_is_one_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write(tmp_path, "func.func @f() {\n  func.return\n}\n")
    code, _, err = run_cli([str(source), "--profile"], capsys)
    assert code == 1
    assert err == ("hswc-run: error: --profile: the function takes no tensor input to take the "
                   "shape from\n")


# endregion
