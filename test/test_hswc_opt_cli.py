"""hswc-opt's command-line contract: output where asked, and for bad input one diagnostic.

Every error case checks that exactly one `error:` is printed (with file:line:col where the input
has a position), that the exit code is non-zero and that no Python traceback shows. Most cases
call `hswc.tools.hswc_opt.main` in-process; a few run the installed scripts (`hswc-opt`, and
plain `xdsl-opt`, which finds hswc's dialects and passes through the `xdsl.universe` entry point).
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from hswc.tools.hswc_opt import main

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "hard_swish_grad.mlir"

VALID = """\
func.func @f(%a: tensor<8xf16>) -> tensor<8xf16> {
  %y = hsg.hard_swish_grad %a, %a : tensor<8xf16>
  func.return %y : tensor<8xf16>
}
"""
F64 = """\
func.func @f(%a: tensor<8xf64>) -> tensor<8xf64> {
  %y = hsg.hard_swish_grad %a, %a : tensor<8xf64>
  func.return %y : tensor<8xf64>
}
"""
STATIC_F32 = """\
func.func @f(%a: tensor<7x3xf32>) -> tensor<7x3xf32> {
  %y = hsg.hard_swish_grad %a, %a : tensor<7x3xf32>
  func.return %y : tensor<7x3xf32>
}
"""


Capsys = pytest.CaptureFixture[str]
Writer = Callable[[str], Path]
"""Writes text to a fresh .mlir file in the test's tmp_path and returns its path."""


@pytest.fixture
def write(tmp_path: Path) -> Writer:
    def write(text: str, name: str = "input.mlir") -> Path:
        path = tmp_path / name
        path.write_text(text)
        return path

    return write


def run(capsys: Capsys, *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_one_diagnostic(code: int, out: str, err: str, *, where: Path | None = None,
                          line: int | None = None) -> str:
    """One `error:` on stderr, a non-zero exit, no traceback; returns the diagnostic."""
    assert code != 0, f"exit code 0 for a failing run:\n{err}"
    assert "Traceback" not in out + err
    assert err.count("error:") == 1, f"expected one diagnostic, got:\n{err}"
    if where is not None:
        position = re.search(rf"{re.escape(str(where))}:(\d+):(\d+)", err)
        assert position is not None, f"no {where}:line:col in:\n{err}"
        if line is not None:
            assert int(position.group(1)) == line, err
    return err


# region valid runs


def test_file_to_stdout(capsys: Capsys, write: Writer) -> None:
    code, out, err = run(capsys, write(VALID))
    assert (code, err) == (0, "")
    assert out.startswith("builtin.module {\n")
    assert "%y = hsg.hard_swish_grad %a, %a : tensor<8xf16>" in out


def test_stdin_input(capsys: Capsys,
                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(VALID.encode())))
    code, out, err = run(capsys, "-p", "hsg-decompose,hsg-tile-on-cores")
    assert (code, err) == (0, "")
    assert "hsg.launch @hard_swish_grad_kernel_f16" in out


def test_dash_means_stdin(capsys: Capsys,
                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(VALID.encode())))
    code, out, err = run(capsys, "-")
    assert (code, err) == (0, "")
    assert "hsg.hard_swish_grad" in out


def test_output_file(capsys: Capsys, write: Writer, tmp_path: Path) -> None:
    target = tmp_path / "out.mlir"
    code, out, err = run(capsys, write(VALID), "-p",
                         "hsg-decompose,hsg-tile-on-cores{soc=ascend910b}", "-o", target)
    assert (code, out, err) == (0, "", "")
    text = target.read_text()
    assert "hsg.launch @hard_swish_grad_kernel_f16" in text
    assert "arith.constant 4032 : index" in text


def test_print_between_passes(capsys: Capsys, write: Writer) -> None:
    code, out, err = run(capsys, write(VALID), "--lower-to-ascend", "--print-between-passes")
    assert (code, err) == (0, "")
    headers = re.findall(r"IR after ([\w-]+)", out)
    front_door = ["hsg-fold-constant-operands", "hsg-fold-reshapes", "hsg-fold-slices",
                  "hsg-exact-f64", "hsg-demote-f64", "hsg-widen-bf16"]
    assert headers == ["hsg-generalize-named", "hsg-decompose", *front_door,
                       "hsg-fuse-elementwise", "hsg-tile-on-cores", "hsg-block-into-ub"]
    after_generalize, after_decompose, *normalised, after_fuse, after_tile, after_block, \
        final = _dumps(out)
    assert "hsg.hard_swish_grad" in after_generalize  # no named linalg op to generalize
    for name, dump in zip(front_door, normalised, strict=True):  # nothing to do on a named op
        assert dump.replace(name, "hsg-decompose") == after_decompose
    assert "linalg.generic" in after_decompose and "hsg.launch" not in after_decompose
    assert after_fuse.replace("hsg-fuse-elementwise", "hsg-decompose") == after_decompose
    assert "hsg.elementwise_slice" in after_tile and "scf.for" not in after_tile
    assert "hsg.elementwise_chunk" in after_block and "ascend.tpipe" not in after_block
    assert "ascend.tpipe" in final and "hsg.elementwise_chunk" not in final


def _dumps(out: str) -> list[str]:
    """The IR after each pass, then the final IR."""
    parts = re.split(r"^// -+// IR after [\w-]+ //-+ //$", out, flags=re.M)
    assert parts[0] == ""
    dumps = parts[1:]
    last = dumps[-1]
    final_start = last.rfind("builtin.module {")
    return [*dumps[:-1], last[:final_start], last[final_start:]]


def test_split_input_file_keeps_going(capsys: Capsys, write: Writer) -> None:
    path = write(f"{VALID}// -----\n{F64}// -----\n{STATIC_F32}")
    code, out, err = run(capsys, path, "--split-input-file")
    assert code == 1
    # the f64 op is on line 2 of the second chunk, which starts on line 5 of the file
    assert_one_diagnostic(code, out, err, where=path, line=7)
    assert out.count("// -----") == 2
    assert "tensor<8xf16>" in out and "tensor<7x3xf32>" in out and "f64" not in out


def test_verify_diagnostics_prints_to_stdout(capsys: Capsys, write: Writer) -> None:
    path = write(F64)
    code, out, err = run(capsys, path, "--verify-diagnostics")
    assert (code, err) == (0, "")
    assert out.strip() == (f"{path}:2:3: error: 'hsg.hard_swish_grad' grad has element type f64; "
                           "HardSwishGrad supports f16, bf16 and f32")


# endregion
# region bad IR


def test_unparsable_text(capsys: Capsys, write: Writer) -> None:
    path = write(VALID.replace("%a, %a", "%a %a"))
    err = assert_one_diagnostic(*run(capsys, path), where=path, line=2)
    assert "Expected ','" in err


def test_unknown_generic_op(capsys: Capsys, write: Writer) -> None:
    path = write('func.func @f() {\n  "hsg.frobnicate"() : () -> ()\n  func.return\n}\n')
    err = assert_one_diagnostic(*run(capsys, path), where=path, line=2)
    assert "Operation hsg.frobnicate is not registered" in err


def test_unknown_custom_op_location(capsys: Capsys, write: Writer) -> None:
    path = write("func.func @f() {\n  hsg.frobnicate\n  func.return\n}\n")
    err = assert_one_diagnostic(*run(capsys, path), where=path, line=2)
    assert "Operation hsg.frobnicate is not registered" in err


def test_verifier_failure(capsys: Capsys, write: Writer) -> None:
    path = write(F64)
    err = assert_one_diagnostic(*run(capsys, path), where=path, line=2)
    assert f"{path}:2:3: error: 'hsg.hard_swish_grad' grad has element type f64" in err


def test_constraint_failure_says_why(capsys: Capsys, write: Writer) -> None:
    path = write('func.func @f(%a: memref<8xf16>) {\n'
                 '  %y = "hsg.hard_swish_grad"(%a, %a) : (memref<8xf16>, memref<8xf16>) '
                 '-> memref<8xf16>\n  func.return\n}\n')
    err = assert_one_diagnostic(*run(capsys, path), where=path, line=2)
    assert "memref<8xf16>" in err


@pytest.mark.parametrize("text", [
    "func.func @f(%a: memref<4xf16>) {\n  %n = hsg.num_elements %a : memref<4xf16>\n"
    "  func.return\n}\n",
    "func.func @f() {\n  %q = ascend.tque : !ascend.tque<vecin, 0>\n  func.return\n}\n",
], ids=["format-constraint", "type-verify"])
def test_parse_time_verify_error_has_position(capsys: Capsys, write: Writer,
                                              text: str) -> None:
    path = write(text)
    assert_one_diagnostic(*run(capsys, path), where=path, line=2)


def test_split_input_file_parse_error_line(capsys: Capsys, write: Writer) -> None:
    path = write(f"{VALID}// -----\nfunc.func @g( {{\n}}\n")
    assert_one_diagnostic(*run(capsys, path, "--split-input-file"), where=path, line=6)


def test_trailing_split_marker(capsys: Capsys, write: Writer) -> None:
    code, _, err = run(capsys, write(f"{VALID}// -----\n"), "--split-input-file")
    assert (code, err) == (0, "")


def test_tiling_failure_at_compile_time(capsys: Capsys, write: Writer) -> None:
    path = write(STATIC_F32)
    err = assert_one_diagnostic(
        *run(capsys, path, "-p", "hsg-decompose,hsg-tile-on-cores{core-num=64 ub-size=2048}"),
        where=path, line=2,
    )
    assert "'hsg.hard_swish_grad' cannot be tiled for core-num=64 ub-size=2048" in err
    assert "ubFactor is invalid" in err


def test_constant_zero_ub_factor_does_not_crash(capsys: Capsys,
                                                write) -> None:
    path = write(
        "func.func @k(%g: memref<?xf16>, %x: memref<?xf16>, %y: memref<?xf16>, %o: index) {\n"
        "  %c0 = arith.constant 0 : index\n"
        "  hsg.hard_swish_grad_slice %g, %x, %y [%o, %c0] ub_factor %c0 : "
        "memref<?xf16>, memref<?xf16>, memref<?xf16>\n"
        "  func.return\n}\n"
    )
    code, out, err = run(capsys, path, "-p", "hsg-block-into-ub")
    assert "Traceback" not in out + err
    assert code == 0 or err.count("error:") == 1


# endregion
# region bad command lines


def test_unknown_pass(capsys: Capsys, write: Writer) -> None:
    err = assert_one_diagnostic(*run(capsys, write(VALID), "-p", "hsg-tile-on-everything"))
    assert "hsg-tile-on-everything" in err


def test_malformed_pass_option(capsys: Capsys, write: Writer) -> None:
    err = assert_one_diagnostic(*run(capsys, write(VALID), "-p",
                                     "hsg-decompose,hsg-tile-on-cores{core-num=abc}"))
    assert "abc" in err


def test_malformed_pass_option_names_the_option(capsys: Capsys,
                                                write) -> None:
    err = assert_one_diagnostic(*run(capsys, write(VALID), "-p",
                                     "hsg-decompose,hsg-tile-on-cores{core-num=abc}"))
    assert "core-num" in err or "core_num" in err


@pytest.mark.parametrize("spec", ["hsg-decompose,hsg-tile-on-cores{core-num=48",
                                  "hsg-decompose,hsg-tile-on-cores{soc=}"])
def test_unparsable_pipeline(capsys: Capsys, write: Writer, spec: str) -> None:
    err = assert_one_diagnostic(*run(capsys, write(VALID), "-p", spec))
    assert "malformed pass pipeline" in err


def test_unknown_pass_option(capsys: Capsys, write: Writer) -> None:
    err = assert_one_diagnostic(*run(capsys, write(VALID), "-p",
                                     "hsg-decompose,hsg-tile-on-cores{cores=48}"))
    assert "cores" in err


@pytest.mark.parametrize(("option", "message"), [
    ("core-num=0", "core-num must be a positive integer of at most 1024 (hswc.platform's bound "
                   "for an Ascend SoC), got 0"),
    ("core-num=-4", "core-num must be a positive integer of at most 1024"),
    ("core-num=1180591620717411303424", "core-num must be a positive integer of at most 1024"),
    ("ub-size=0", "ub-size must be a positive integer of at most 4194304"),
    ("ub-size=4194305", "ub-size must be a positive integer of at most 4194304"),
    ("soc=ascend310p", "unknown SoC 'ascend310p' (known: ascend910_93, ascend910b, ascend950)"),
])
def test_out_of_range_pass_option(capsys: Capsys, write: Writer, option: str,
                                  message: str) -> None:
    err = assert_one_diagnostic(*run(capsys, write(VALID), "-p",
                                     f"hsg-decompose,hsg-tile-on-cores{{{option}}}"))
    assert f"hsg-tile-on-cores: {message}" in err


def test_missing_file(capsys: Capsys, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.mlir"
    err = assert_one_diagnostic(*run(capsys, missing))
    assert str(missing) in err and "No such file or directory" in err


def test_unwritable_output(capsys: Capsys, write: Writer, tmp_path: Path) -> None:
    target = tmp_path / "no-such-dir" / "out.mlir"
    err = assert_one_diagnostic(*run(capsys, write(VALID), "-o", target))
    assert str(target) in err


def test_unknown_flag(capsys: Capsys, write: Writer) -> None:
    # argparse's own error: usage plus one `error:` line, and exit status 1 (not argparse's 2)
    code, out, err = run(capsys, write(VALID), "--no-such-flag")
    assert_one_diagnostic(code, out, err)
    assert code == 1 and "hswc-opt: error: unrecognized arguments: --no-such-flag" in err


# endregion
# region installed scripts


def script(name: str) -> str:
    """The console script of this interpreter's install (not a version manager's shim)."""
    local = Path(sys.executable).parent / name
    found = str(local) if local.exists() else shutil.which(name)
    assert found is not None, f"{name} is not installed"
    return found


def test_hswc_opt_script_error(write: Writer) -> None:
    path = write(F64)
    result = subprocess.run([script("hswc-opt"), str(path)], capture_output=True, text=True,
                            check=False, timeout=120)
    assert_one_diagnostic(result.returncode, result.stdout, result.stderr, where=path, line=2)
    assert result.returncode == 1 and result.stdout == ""


def test_hswc_opt_script_pipeline(write: Writer) -> None:
    result = subprocess.run([script("hswc-opt"), str(write(VALID)), "--lower-to-ascend"],
                            capture_output=True, text=True, check=False, timeout=120)
    assert (result.returncode, result.stderr) == (0, "")
    assert "ascend.tpipe" in result.stdout and "hsg.launch" in result.stdout


XDSL_OPT = [sys.executable, "-c",
            "import sys; from xdsl.tools.xdsl_opt import main; sys.exit(main())"]
"""Plain xdsl-opt, run by this interpreter: an `xdsl-opt` script found on PATH may belong to
another install, whose hswc is another checkout."""


def test_xdsl_opt_loads_hswc_through_the_universe(tmp_path: Path) -> None:
    tiled = tmp_path / "tiled.mlir"
    result = subprocess.run(
        [*XDSL_OPT, "-p", "hsg-decompose,hsg-tile-on-cores", str(EXAMPLE), "-o", str(tiled)],
        capture_output=True, text=True, check=False, timeout=120,
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert "hsg.launch @hard_swish_grad_kernel_f16" in tiled.read_text()
    # and the rest of the pipeline, with the ascend dialect in its output
    result = subprocess.run(
        [*XDSL_OPT, "-p", "hsg-block-into-ub,convert-hsg-to-ascend", str(tiled)],
        capture_output=True, text=True, check=False, timeout=120,
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert "ascend.data_copy_pad" in result.stdout


# endregion


# region inherited xdsl-opt flags


def test_time_passes_reports_each_pass(capsys: Capsys, write: Writer) -> None:
    code, out, err = run(capsys, write(VALID), "--lower-to-ascend", "--time-passes")
    assert code == 0, err
    assert "ascend.tpipe" in out
    timed = [line.split()[1] for line in err.splitlines() if line.startswith("Pass ")]
    assert timed == ["hsg-generalize-named", "hsg-decompose", "hsg-fold-constant-operands",
                     "hsg-fold-reshapes", "hsg-fold-slices", "hsg-exact-f64", "hsg-demote-f64",
                     "hsg-widen-bf16", "hsg-fuse-elementwise", "hsg-tile-on-cores",
                     "hsg-block-into-ub", "convert-hsg-to-ascend"]


def test_disable_verify_prints_what_the_verifier_would_refuse(capsys: Capsys,
                                                              write: Writer) -> None:
    assert_one_diagnostic(*run(capsys, write(F64)))
    # A subprocess: xDSL implements --disable-verify by patching Attribute for the process.
    result = subprocess.run(["hswc-opt", str(write(F64)), "--disable-verify"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert "hsg.hard_swish_grad %a, %a : tensor<8xf64>" in result.stdout


@pytest.mark.parametrize("flag", [["--shrink"], ["--no-implicit-module"], ["-f", "mlir"]])
def test_unsupported_xdsl_opt_flags_are_refused(capsys: Capsys, write: Writer,
                                                flag: list[str]) -> None:
    err = assert_one_diagnostic(*run(capsys, write(VALID), *flag))
    assert "is not supported by hswc-opt" in err


@pytest.mark.parametrize("tool", ["hswc-opt", "hswc-emit"])
def test_a_reader_that_goes_away_ends_the_tool_quietly(tool: str, tmp_path: Path) -> None:
    """`tool ... | head`: the pipe's reader closes before the tool writes; the tool ends with
    status 1 and says nothing (no BrokenPipeError traceback): hswc-opt through its own
    handler, hswc-emit (which lists the files it wrote) through hswc.tools.cli.exit_status."""
    import subprocess

    args = (["--lower-to-ascend"] if tool == "hswc-opt" else ["-o", str(tmp_path / "package")])
    process = subprocess.Popen([tool, *args, str(EXAMPLE)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    process.stdout.close()
    _, err = process.communicate(timeout=120)
    assert process.returncode == 1, err
    assert err == "", err
