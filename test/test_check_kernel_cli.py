"""hswc-check-kernel on the command line: bad input is one message and exit status 1, never a
traceback; a kernel that does not compile shows g++'s first errors (and a call the CPU model
refuses by name); a right kernel exits 0 with PASS, a wrong one 1 with its first differences."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from hswc.tools import hswc_check_kernel

FIXTURES = Path(__file__).resolve().parents[1] / "examples" / "check_kernel"
TILING = f"{FIXTURES / 'fixture_tiling.py'}:one_input"
LEAKY = [str(FIXTURES / "leaky_relu_fixture.cpp"), "--op", "hsg.leaky_relu",
         "--attr", "negative_slope=0.2", "--tiling", "negativeSlope=0.2",
         "--tiling-function", TILING, "--core-num", "4", "--ub-size", "16384"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    """The tool as a user runs it, in a process of its own."""
    return subprocess.run([sys.executable, "-m", "hswc.tools.hswc_check_kernel", *args],
                          capture_output=True, text=True, check=False, timeout=600)


def _call(capsys: pytest.CaptureFixture[str], *args: str) -> subprocess.CompletedProcess[str]:
    """The tool's entry point in this process (hswc_check_kernel.run), as _run reports it."""
    status = hswc_check_kernel.run(list(args))
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(list(args), status, out, err)


def _refused(done: subprocess.CompletedProcess[str], message: str) -> None:
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert done.stderr.startswith("hswc-check-kernel: error: "), done.stderr
    assert message in done.stderr, done.stderr


def _needs_gxx() -> None:
    if shutil.which("g++") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("g++ is missing on CI; hswc-check-kernel's tests must run there")
        pytest.skip("no C++ compiler (g++)")


@pytest.mark.parametrize("args,message", [
    (["nowhere/op_kernel", "--op", "hsg.relu"], "kernel 'nowhere/op_kernel' does not exist"),
    ([LEAKY[0]], "give the reference: --op hsg.<op> or --reference FILE.mlir"),
    ([*LEAKY, "--reference", "ref.mlir"], "give the reference"),
    ([LEAKY[0], "--op", "hsg.relu"], "unknown op 'hsg.relu' (known: hsg.hard_swish,"),
    ([*LEAKY, "--attr", "slope=1"], "hsg.leaky_relu has no attribute 'slope' (its attributes: "
                                    "negative_slope)"),
    ([*LEAKY, "--attr", "negative_slope=fast"], "--attr negative_slope=fast: not a number"),
    ([*LEAKY, "--attr", "negative_slope"], "--attr negative_slope: expected NAME=VALUE"),
    ([*LEAKY, "--semantics", "cann"], "hsg.leaky_relu has no semantics 'cann'"),
    ([*LEAKY, "--reference", "r.mlir", "--function", "f"], "give the reference"),
    ([*LEAKY[:3], "--reference", "no.mlir"], "give the reference"),
    ([LEAKY[0], "--reference", "no.mlir"], "cannot read reference 'no.mlir': No such file"),
    ([*LEAKY[:1], "--op", "hsg.hard_sigmoid_grad", *LEAKY[5:]],
     "entry leaky_relu_fixture takes 2 GM tensors before workspace (x, y), but the reference "
     "has 2 input(s) (grad, x) and 1 result(s)"),
    ([*LEAKY, "--kernel-inputs", "grad"], "--kernel-inputs grad: name each of the reference's "
                                          "inputs (x) once"),
    ([*LEAKY, "--ignore-nan-inputs", "grad"], "--ignore-nan-inputs grad: the reference's inputs"),
    ([*LEAKY, "--sizes", "0"], "--sizes: every size must be at least 1"),
    ([*LEAKY, "--sizes", "ten"], "--dtypes/--sizes"),
    ([*LEAKY, "--dtypes", "f64"], "unknown dtype 'f64'"),
    ([*LEAKY, "--entry", "other"], "no __global__ entry 'other'"),
    ([*LEAKY, "--tiling-struct", "Nope"], "no tiling struct Nope in the kernel's sources"),
    ([*LEAKY, "--include", "no_tiling_def.h"], "--include no_tiling_def.h: no such file"),
    ([*LEAKY, "--tiling", "ubFactr=128"],
     "LeakyReluFixtureTiling has no field ubFactr (its fields: blockFactor, negativeSlope, "
     "totalNum, ubFactor)"),
    ([*LEAKY, "--tiling", "ubFactor"], "--tiling ubFactor: expected name=value"),
    ([*LEAKY[:7], "--tiling-function", "nope.py:f"], "--tiling-function nope.py:f: no file"),
    ([*LEAKY[:7], "--tiling-function", f"{FIXTURES / 'fixture_tiling.py'}:nothing"],
     "has no function nothing"),
    ([*LEAKY[:7], "--tiling", "totalNum=8,blockFactor=8,ubFactor=128"],
     "with fixed --tiling values, give the tensor size with --sizes N"),
    ([*LEAKY[:7], "--tiling", "totalNum=8,blockFactor=8,ubFactor=128", "--sizes", "8"],
     "no block_dim (return it from the tiling function, or give --block-dim)"),
    ([*LEAKY, "--template-args", "float", "--template-args", "half"],
     "2 --template-args for f16: give one"),
    ([*LEAKY, "--core-num", "5000"], "the core count must be between 0 and 1024"),
    ([*LEAKY, "--ub-size", "1000"], "a UB of a positive multiple of 32 bytes"),
    ([*LEAKY, "--soc", "ascend310"], "unknown SoC 'ascend310'"),
    ([*LEAKY, "--input", "x.npy", "--input", "y.npy"], "give one --input per reference input"),
    ([*LEAKY, "--input", "missing.npy"], "cannot read --input 'missing.npy'"),
    ([*LEAKY, "--cxx", "no-such-compiler"], "no C++ compiler: 'no-such-compiler' is not on PATH"),
])
def test_bad_input_is_one_message_and_exit_1(capsys: pytest.CaptureFixture[str],
                                             args: list[str], message: str) -> None:
    _refused(_call(capsys, *args), message)


def test_bad_input_in_a_process_of_its_own() -> None:
    _refused(_run("nowhere/op_kernel", "--op", "hsg.relu"), "does not exist")
    _needs_gxx()  # a value that does not fit its field is found once the build lays it out
    _refused(_run(*LEAKY, "--tiling", "ubFactor=0x8000000000000000", "--dtypes", "f32"),
             "tiling of 1 f32 elements: tiling field ubFactor (int, 8 bytes) = "
             "9223372036854775808: outside [-9223372036854775808, 9223372036854775807]")


def test_tiling_function_errors_name_the_call(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    script = tmp_path / "tilings.py"
    script.write_text("def raises(total, cores, ub, dtype):\n    return {}['ubFactor']\n"
                      "def bad_dim(total, cores, ub, dtype):\n    return {'block_dim': 0}\n"
                      "def float_dim(total, cores, ub, dtype):\n    return {'block_dim': 1.5}\n"
                      "import nothing_here\n")
    _refused(_call(capsys, *LEAKY[:7], "--tiling-function", f"{script}:raises"),
             "tilings.py failed: ModuleNotFoundError: No module named 'nothing_here'")
    script.write_text(script.read_text().replace("import nothing_here\n", ""))
    _refused(_call(capsys, *LEAKY[:7], "--tiling-function", f"{script}:raises"),
             "raises(1048576, 48, 196608, 'f16') raised KeyError: 'ubFactor'")
    _refused(_call(capsys, *LEAKY[:7], "--tiling-function", f"{script}:bad_dim"),
             "block_dim = 0 is outside [1, 65535]")
    _refused(_call(capsys, *LEAKY[:7], "--tiling-function", f"{script}:float_dim"),
             "block_dim must be an integer, got 1.5")


def test_a_bad_npy_input_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    np.save(tmp_path / "x.npy", np.arange(8, dtype=np.int32))
    _refused(_call(capsys, *LEAKY, "--input", str(tmp_path / "x.npy")),
             "holds int32; the kernels checked take float16, bfloat16 or float32")


# region builds


def _edited_leaky_relu(tmp_path: Path, name: str, old: str, new: str) -> Path:
    """A copy of the leaky_relu fixture with `old` replaced by `new`."""
    _needs_gxx()
    text = (FIXTURES / "leaky_relu_fixture.cpp").read_text()
    assert old in text
    source = tmp_path / name
    source.write_text(text.replace(old, new).replace(
        '#include "elementwise_kernel.h"', f'#include "{FIXTURES}/elementwise_kernel.h"'))
    return source


def test_a_kernel_that_does_not_compile_shows_gxxs_first_errors(tmp_path: Path) -> None:
    source = _edited_leaky_relu(tmp_path, "broken.cpp", "op.SetSlope(tilingData.negativeSlope);",
                                "op.SetSlope(tilingData.slope);")
    done = _run(str(source), *LEAKY[1:], "--dtypes", "f32")
    _refused(done, f"the kernel {source} does not compile against hswc/checker/ascendc_cpu "
                   "(for f32):")
    assert f"{source}:" in done.stderr and "has no member named 'slope'" in done.stderr


def test_a_call_the_model_refuses_is_named(tmp_path: Path) -> None:
    source = _edited_leaky_relu(tmp_path, "exp_kernel.cpp", "Muls(scaled, x, slope_, cur);",
                                "Sin(scaled, x, cur);")
    _refused(_run(str(source), *LEAKY[1:], "--dtypes", "f32"),
             "the kernel calls Sin, which the CPU model refuses: its hardware result is not "
             "exactly specified")


def test_a_right_kernel_passes_and_a_wrong_one_fails_with_its_first_differences(
        tmp_path: Path) -> None:
    _needs_gxx()
    x = (np.arange(-64, 64, dtype=np.float32) / 8).astype(np.float16)
    np.save(tmp_path / "x.npy", x)
    good = _run(*LEAKY, "--input", str(tmp_path / "x.npy"))
    assert good.returncode == 0 and good.stderr == "", good.stdout + good.stderr
    assert "  n=128       blocks=4    bit-exact" in good.stdout
    assert good.stdout.rstrip().endswith("PASS: all 1 runs are bit-exact and the kernel broke "
                                         "no rule")
    bad = _run(*LEAKY, "-D", "f16:SEEDED_TRUNC_CAST", "--dtypes", "f16", "--sizes", "200")
    assert bad.returncode == 1 and bad.stderr == "", bad.stdout + bad.stderr
    assert "f16 (-DSEEDED_TRUNC_CAST; template args <half>):" in bad.stdout
    assert "first differences of each kind, f16 n=200:" in bad.stdout
    assert "    index     x" in bad.stdout and "kernel" in bad.stdout
    assert bad.stdout.rstrip().endswith("FAIL: 1 of 1 runs differ from the reference, 0 rules "
                                        "broken")

# endregion
