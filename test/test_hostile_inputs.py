"""Hostile inputs to the three tools (issue 12): each ends in one located diagnostic and exit 1,
or in a correct result; never a traceback, a damaged output file or a half-written one.

One region per class of the issue. Inputs are written to each test's tmp_path; the tools run
in-process (under pytest's own stack, so the nesting cases also show the limit leaves room).
"""

from __future__ import annotations

import functools
import importlib.util
import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest
from xdsl.utils.lexer import Span

import hswc.interpreter.limits
from hswc.diagnostics import LocatingParser
from hswc.output_files import OutputError, write_file, write_files
from hswc.pipeline import context
from hswc.platform import MAX_CORE_NUM, MAX_UB_SIZE
from hswc.reference import compare_bitwise, hard_swish_grad_cann
from hswc.runner import compile_text
from hswc.source_text import MAX_NESTING, LineIndex
from hswc.tools import hswc_emit, hswc_opt, hswc_run

Capsys = pytest.CaptureFixture[str]
Tool = Callable[[Sequence[str] | None], int]
TOOLS: dict[str, Tool] = {"hswc-opt": hswc_opt.main, "hswc-run": hswc_run.main,
                          "hswc-emit": hswc_emit.main}

VALID = """\
func.func @f(%grad: tensor<4x5xf16>, %x: tensor<4x5xf16>) -> tensor<4x5xf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<4x5xf16>
  func.return %y : tensor<4x5xf16>
}
"""


def run(capsys: Capsys, tool: str, *argv: str | Path) -> tuple[int, str, str]:
    code = TOOLS[tool]([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def refused(result: tuple[int, str, str], where: Path | str | None = None) -> str:
    """Exit 1, one `error:` on stderr, no traceback (located at `where` if given)."""
    code, out, err = result
    assert code == 1, f"exit {code}:\n{out}\n{err}"
    assert "Traceback" not in out + err and "internal error" not in err, err
    assert err.count("error:") == 1, f"expected one diagnostic:\n{err}"
    if where is not None:
        assert re.search(rf"{re.escape(str(where))}:\d+:\d+: error: ", err), err
    return err


def tool_args(tool: str, path: Path, tmp_path: Path) -> list[str | Path]:
    """Each tool's plainest invocation on `path`."""
    return [path, "-o", tmp_path / "package"] if tool == "hswc-emit" else [path]


@pytest.fixture
def arrays(tmp_path: Path) -> tuple[Path, Path, np.ndarray]:
    """grad.npy and x.npy of VALID's type, and the result they give."""
    rng = np.random.default_rng(12)
    grad = rng.standard_normal((4, 5)).astype(np.float16)
    x = rng.uniform(-4, 4, (4, 5)).astype(np.float16)
    np.save(tmp_path / "grad.npy", grad)
    np.save(tmp_path / "x.npy", x)
    return tmp_path / "grad.npy", tmp_path / "x.npy", hard_swish_grad_cann(grad, x)


def leftovers(directory: Path) -> list[str]:
    """Temporary files an output writer left behind."""
    return [p.name for p in directory.rglob("*.tmp")]


# region outputs only after success, atomically


def test_opt_writes_its_own_input_back(capsys: Capsys, tmp_path: Path) -> None:
    source = tmp_path / "f.mlir"
    source.write_text(VALID)
    code, out, err = run(capsys, "hswc-opt", source, "-p", "hsg-decompose,hsg-tile-on-cores", "-o",
                         source)
    assert (code, out, err) == (0, "", "")
    assert "hsg.launch @hard_swish_grad_kernel_f16" in source.read_text()
    assert leftovers(tmp_path) == []


def test_opt_output_dash_is_stdout(capsys: Capsys, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "hswc-opt", _valid(tmp_path), "-o", "-")
    assert (code, err) == (0, "") and "hsg.hard_swish_grad" in out
    assert not (tmp_path / "-").exists()


def test_failing_runs_leave_outputs_untouched(capsys: Capsys, tmp_path: Path,
                                              arrays: tuple[Path, Path, np.ndarray]) -> None:
    grad, x, _ = arrays
    bad = tmp_path / "bad.mlir"
    bad.write_text(VALID.replace("%grad, %x :", "%grad, %y :"))  # a use of itself
    old = {name: f"old {name}\n" for name in ("out.mlir", "y.npy", "t.json", "trace.json")}
    for name, text in old.items():
        (tmp_path / name).write_text(text)
    refused(run(capsys, "hswc-opt", bad, "-o", tmp_path / "out.mlir"), bad)
    refused(run(capsys, "hswc-run", bad, "--input", grad, "--input", x, "--output",
                tmp_path / "y.npy", "--tiling-json", tmp_path / "t.json",
                "--profile", tmp_path / "trace.json"), bad)
    # A valid module whose run fails late (--profile of a function without inputs): the
    # result was computed, but nothing is written.
    noinput = tmp_path / "noinput.mlir"
    noinput.write_text("func.func @g() {\n  func.return\n}\n")
    refused(run(capsys, "hswc-run", noinput, "--tiling-json", tmp_path / "t.json",
                "--profile", tmp_path / "trace.json"))
    assert {name: (tmp_path / name).read_text() for name in old} == old
    assert leftovers(tmp_path) == []


def test_write_files_changes_no_target_when_one_cannot_be_written(tmp_path: Path) -> None:
    first = tmp_path / "first.txt"
    first.write_text("old")
    first.chmod(0o640)

    def broken(stream: io.BufferedIOBase) -> None:
        stream.write(b"half")
        raise OSError(28, "No space left on device")

    with pytest.raises(OutputError, match=r"cannot write '.*second.txt': No space left"):
        write_files({first: "new", tmp_path / "second.txt": broken})
    assert first.read_text() == "old" and not (tmp_path / "second.txt").exists()
    assert leftovers(tmp_path) == []
    write_files({first: "new", tmp_path / "sub" / "second.txt": "2"}, make_parents=True)
    assert first.read_text() == "new" and (tmp_path / "sub" / "second.txt").read_text() == "2"
    assert first.stat().st_mode & 0o777 == 0o640  # the old file's permissions are kept


def test_write_file_through_a_link_keeps_the_link(tmp_path: Path) -> None:
    target = tmp_path / "real.mlir"
    target.write_text("old")
    link = tmp_path / "link.mlir"
    link.symlink_to(target)
    write_file(link, "new")
    assert link.is_symlink() and target.read_text() == "new"


# endregion
# region --output writes exactly the path given


def test_output_is_exactly_the_path_given(capsys: Capsys, tmp_path: Path,
                                          arrays: tuple[Path, Path, np.ndarray]) -> None:
    grad, x, expected = arrays
    y, tiling = tmp_path / "y", tmp_path / "tiling"
    code, _, err = run(capsys, "hswc-run", _valid(tmp_path), "--input", grad, "--input", x,
                       "--output", y, "--tiling-json", tiling)
    assert code == 0, err
    assert compare_bitwise(np.load(y), expected).equal
    assert json.loads(tiling.read_text())["totalNum"] == 20
    assert not (tmp_path / "y.npy").exists() and leftovers(tmp_path) == []


def test_output_refuses_a_directory_and_an_unwritable_path(
        capsys: Capsys, tmp_path: Path, arrays: tuple[Path, Path, np.ndarray]) -> None:
    grad, x, _ = arrays
    folder = tmp_path / "folder"
    folder.mkdir()
    source = _valid(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    err = refused(run(capsys, "hswc-run", source, "--input", grad, "--input", x,
                      "--output", folder))
    assert f"cannot write '{folder}': it is a directory" in err
    err = refused(run(capsys, "hswc-run", source, "--input", grad, "--input", x,
                      "--output", "/dev/full"))
    assert "cannot write '/dev/full': No space left on device" in err
    assert not Path("/dev/full.npy").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def _valid(tmp_path: Path) -> Path:
    path = tmp_path / "valid.mlir"
    path.write_text(VALID)
    return path


# endregion
# region a run with nothing to write


def test_run_without_outputs_describes_the_result(capsys: Capsys, tmp_path: Path,
                                                  arrays: tuple[Path, Path, np.ndarray]) -> None:
    grad, x, _ = arrays
    source = _valid(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    code, out, err = run(capsys, "hswc-run", source, "--input", grad, "--input", x)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "hswc-run: result 1 of @f: float16 array of shape (4, 5)",
        "hswc-run: nothing written (give --output FILE.npy to keep a result)",
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == before


# endregion
# region nesting


def _nested(construct: str, depth: int) -> str:
    """`depth` levels of one recursive construct around VALID's function (or a plain one)."""
    if construct == "modules":
        return "builtin.module {\n" * depth + VALID + "}\n" * depth
    if construct == "scf.if":
        inner = "  %y = hsg.hard_swish_grad %grad, %x : tensor<4x5xf16>\n"
        return ("func.func @f(%grad: tensor<4x5xf16>, %x: tensor<4x5xf16>) -> tensor<4x5xf16> "
                "{\n  %c = arith.constant true\n" + "scf.if %c {\n" * depth + inner
                + "}\n" * depth + "  func.return %grad : tensor<4x5xf16>\n}\n")
    if construct == "generic":
        return ('"test.op"() ({\n' * depth + '"test.op"() {a = []} : () -> ()\n'
                + "}) : () -> ()\n" * depth)
    if construct == "parentheses":
        return ("func.func @f() attributes {a = " + "(" * depth + ")" * depth
                + "} {\n  func.return\n}\n")
    if construct == "arrays":
        return ("func.func @f() attributes {a = " + "[" * depth + "]" * depth
                + "} {\n  func.return\n}\n")
    assert construct == "tuples"
    return ("func.func @f(%a: " + "tuple<" * depth + "i32" + ">" * depth
            + ") {\n  func.return\n}\n")


CONSTRUCTS = ["modules", "scf.if", "generic", "parentheses", "arrays", "tuples"]


@pytest.mark.parametrize("construct", CONSTRUCTS)
@pytest.mark.parametrize("tool", TOOLS)
def test_nesting_beyond_the_limit_is_located(construct: str, tool: str, capsys: Capsys,
                                             tmp_path: Path) -> None:
    path = tmp_path / "deep.mlir"
    path.write_text(_nested(construct, 100_000 if construct == "parentheses" else 3000))
    err = refused(run(capsys, tool, *tool_args(tool, path, tmp_path)), path)
    assert f"nested too deeply: more than {MAX_NESTING} brackets" in err
    assert not (tmp_path / "package").exists()


@pytest.mark.parametrize("construct", CONSTRUCTS)
@pytest.mark.parametrize("tool", TOOLS)
def test_nesting_at_the_limit_runs_or_is_refused_cleanly(construct: str, tool: str,
                                                         capsys: Capsys, tmp_path: Path) -> None:
    """At the deepest nesting allowed every tool still has stack to spare: it finishes, or
    refuses for a reason of its own (no function to run, nothing to package), with one
    diagnostic and no RecursionError."""
    # The levels of each construct that open MAX_NESTING brackets at the deepest point.
    depth = {"modules": MAX_NESTING - 4, "scf.if": MAX_NESTING - 3,
             "generic": MAX_NESTING // 2 - 1}.get(construct, MAX_NESTING - 1)
    path = tmp_path / "deep.mlir"
    path.write_text(_nested(construct, depth))
    code, out, err = run(capsys, tool, *tool_args(tool, path, tmp_path))
    assert "Traceback" not in err and "too deeply" not in err and "internal error" not in err
    assert code == 0 or err.count("error:") == 1, err
    if tool == "hswc-opt" and construct in ("scf.if", "arrays", "tuples"):
        assert code == 0 and out.startswith("builtin.module {"), err


def test_deep_affine_expression_is_a_clean_error(capsys: Capsys, tmp_path: Path) -> None:
    # Unary minus nests without brackets: the parser's own recursion is caught and located.
    path = tmp_path / "affine.mlir"
    path.write_text("func.func @f() attributes {m = affine_map<(d0) -> (" + "- " * 5000
                    + "d0)>} {\n  func.return\n}\n")
    err = refused(run(capsys, "hswc-opt", path), path)
    assert "nested too deeply" in err


def test_recursive_call_is_refused_at_the_call(capsys: Capsys, tmp_path: Path,
                                               arrays: tuple[Path, Path, np.ndarray]) -> None:
    grad, _, _ = arrays
    path = tmp_path / "rec.mlir"
    path.write_text("func.func @f(%a: tensor<4x5xf16>) -> tensor<4x5xf16> {\n"
                    "  %y = func.call @g(%a) : (tensor<4x5xf16>) -> tensor<4x5xf16>\n"
                    "  func.return %y : tensor<4x5xf16>\n}\n"
                    "func.func @g(%a: tensor<4x5xf16>) -> tensor<4x5xf16> {\n"
                    "  %y = func.call @f(%a) : (tensor<4x5xf16>) -> tensor<4x5xf16>\n"
                    "  func.return %y : tensor<4x5xf16>\n}\n")
    err = refused(run(capsys, "hswc-run", path, "--function", "f", "--input", grad), path)
    assert f"{path}:6:3: error: 'func.call' is a recursive call (@f -> @g -> @f)" in err


def _calls(n: int) -> str:
    """@f0 calls @f1 ... calls @fn, which returns its argument."""
    t = "tensor<4x5xf16>"
    funcs = [f"func.func @f{i}(%a: {t}) -> {t} {{\n"
             f"  %y = func.call @f{i + 1}(%a) : ({t}) -> {t}\n  func.return %y : {t}\n}}\n"
             for i in range(n)]
    return "".join(funcs) + f"func.func @f{n}(%a: {t}) -> {t} {{\n  func.return %a : {t}\n}}\n"


def test_deep_calls_are_refused_at_run_time(capsys: Capsys, tmp_path: Path,
                                            arrays: tuple[Path, Path, np.ndarray]) -> None:
    """A chain of distinct functions (no recursion): as deep as the interpreter's limit it
    runs; deeper, it is refused at the body that would go past it."""
    grad, _, _ = arrays
    limit = hswc.interpreter.limits.MAX_RUN_DEPTH
    path = tmp_path / "calls.mlir"
    path.write_text(_calls(limit - 1))
    out = tmp_path / "y.npy"
    code, _, err = run(capsys, "hswc-run", path, "--function", "f0", "--input", grad,
                       "--output", out)
    assert code == 0, err
    assert np.array_equal(np.load(out), np.load(grad))
    path.write_text(_calls(limit + 20))
    err = refused(run(capsys, "hswc-run", path, "--function", "f0", "--input", grad), path)
    assert f"error: 'func.func' is nested too deeply at run time: more than {limit}" in err


def test_branches_at_the_nesting_limit_run(capsys: Capsys, tmp_path: Path,
                                          arrays: tuple[Path, Path, np.ndarray]) -> None:
    grad, x, _ = arrays
    path = tmp_path / "deep.mlir"
    path.write_text(_nested("scf.if", MAX_NESTING - 3))
    code, out, err = run(capsys, "hswc-run", path, "--level", "hsg", "--input", grad,
                         "--input", x)
    assert (code, err) == (0, "") and "float16 array of shape (4, 5)" in out


# endregion
# region op locations in O(log n)


def test_parser_locates_ops_without_counting_from_the_start(
        monkeypatch: pytest.MonkeyPatch) -> None:
    lines = ["func.func @f(%a: i32) -> i32 {"]
    lines += [f"  %v{i} = arith.addi %a, %a : i32" for i in range(200)]
    lines += ["  func.return %a : i32", "}"]
    text = "\n".join(lines) + "\n"

    def counted(self: Span[str]) -> object:
        raise AssertionError("Span.get_location counts newlines from the start of the file")

    monkeypatch.setattr(Span, "get_location", counted)
    module = LocatingParser(context(), text, "big.mlir").parse_module()
    adds = [op for op in module.walk() if op.name == "arith.addi"]
    assert [(op.location.line.data, op.location.column.data) for op in adds[::50]] == [  # type: ignore[attr-defined]
        (2, 3), (52, 3), (102, 3), (152, 3)]


def test_line_index_agrees_with_xdsl() -> None:
    from xdsl.utils.lexer import Input

    text = "ab\n\ncdé\n  x\n"
    source = Input(text, "t")
    index = LineIndex(text)
    for offset in range(len(text)):
        where = Span(offset, offset, source).get_location()
        assert index.location(offset) == (where.line, where.col), offset


# endregion
# region runaway loops


def test_runaway_loop_is_stopped_and_named(capsys: Capsys, tmp_path: Path,
                                           arrays: tuple[Path, Path, np.ndarray]) -> None:
    grad, _, _ = arrays
    path = tmp_path / "loop.mlir"
    path.write_text("func.func @f(%a: tensor<4x5xf16>) -> tensor<4x5xf16> {\n"
                    "  %lo = arith.constant 0 : index\n"
                    "  %hi = arith.constant 1000000000000 : index\n"
                    "  %one = arith.constant 1 : index\n"
                    "  scf.for %i = %lo to %hi step %one {\n  }\n"
                    "  func.return %a : tensor<4x5xf16>\n}\n")
    err = refused(run(capsys, "hswc-run", path, "--input", grad, "--max-steps", "500"), path)
    assert (f"{path}:5:3: error: 'scf.for' is still iterating after 500 loop iterations of "
            "this run (the --max-steps given): a runaway loop? If it is not, raise the limit with "
            "--max-steps N") in err
    refused(run(capsys, "hswc-run", path, "--input", grad, "--max-steps", "0"))


def test_real_kernel_runs_under_a_small_step_budget(arrays: tuple[Path, Path, np.ndarray]
                                                    ) -> None:
    grad, x, expected = arrays
    kernel = compile_text(VALID)
    # 20 elements on 48 cores: one chunk on each of 20 cores, lock-step: one iteration.
    y = kernel.run(np.load(grad), np.load(x), max_steps=1).outputs[0]
    assert compare_bitwise(y, expected).equal


# endregion
# region memory


@pytest.mark.parametrize(("flag", "value", "most"), [("--ub-size", 10**9, MAX_UB_SIZE),
                                                     ("--core-num", 10**6, MAX_CORE_NUM)])
def test_implausible_platform_figures_are_refused(flag: str, value: int, most: int,
                                                  capsys: Capsys, tmp_path: Path,
                                                  arrays: tuple[Path, Path, np.ndarray]) -> None:
    grad, x, _ = arrays
    err = refused(run(capsys, "hswc-run", _valid(tmp_path), "--input", grad, "--input", x,
                      flag, str(value)))
    assert f"must be between 0 and {most}, got {value}" in err


def test_npy_header_that_lies_is_named(capsys: Capsys, tmp_path: Path,
                                       arrays: tuple[Path, Path, np.ndarray]) -> None:
    _, x, _ = arrays
    liar = tmp_path / "liar.npy"
    with open(liar, "wb") as stream:
        np.lib.format.write_array_header_1_0(
            stream, {"descr": "<f2", "fortran_order": False, "shape": (4, 25_000_000_000)})
        stream.write(bytes(64))
    err = refused(run(capsys, "hswc-run", _valid(tmp_path), "--input", liar, "--input", x))
    assert (f"'{liar}' is damaged: its header declares a float16 array of shape "
            "(4, 25000000000) (200000000000 bytes) but 64 bytes of data follow it") in err


def test_memory_is_estimated_before_allocating(capsys: Capsys, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch,
                                               arrays: tuple[Path, Path, np.ndarray]) -> None:
    grad, x, _ = arrays
    monkeypatch.setattr(hswc.interpreter.limits, "available_bytes", lambda: 1 << 20)
    # 20 cores x 196608 bytes of UB = 3.8 MiB of arenas, more than the 1 MiB "available".
    err = refused(run(capsys, "hswc-run", _valid(tmp_path), "--input", grad, "--input", x))
    assert re.search(r"valid.mlir:\d+:\d+: error: 'ascend\.\w+' cannot run: the UB arenas of "
                     r"20 cores x 196608 bytes needs 3\.8 MiB of memory, and 1\.0 MiB is "
                     r"available", err), err
    monkeypatch.setattr(hswc.interpreter.limits, "available_bytes", lambda: 16)
    err = refused(run(capsys, "hswc-run", _valid(tmp_path), "--input", grad, "--input", x))
    assert f"loading '{grad}' (float16, shape (4, 5)) needs" in err


# endregion
# region dominance


@pytest.mark.parametrize(("case", "body", "line"), [
    ("own result", "%y = hsg.hard_swish_grad %y, %x : tensor<4x5xf16>", 2),
    ("used before", "%z = hsg.hard_swish_grad %y, %x : tensor<4x5xf16>\n"
                    "  %y = hsg.hard_swish_grad %grad, %x : tensor<4x5xf16>", 2),
])
@pytest.mark.parametrize("tool", TOOLS)
def test_uses_their_definition_does_not_dominate_are_refused(
        tool: str, case: str, body: str, line: int, capsys: Capsys, tmp_path: Path) -> None:
    path = tmp_path / "dom.mlir"
    path.write_text(VALID.replace("%y = hsg.hard_swish_grad %grad, %x : tensor<4x5xf16>", body))
    err = refused(run(capsys, tool, *tool_args(tool, path, tmp_path)), path)
    assert f"{path}:{line}:3: error: 'hsg.hard_swish_grad' operand 0" in err
    assert "does not dominate this use" in err


@pytest.mark.parametrize("tool", TOOLS)
def test_value_of_an_inner_region_used_after_it_is_located(tool: str, capsys: Capsys,
                                                           tmp_path: Path) -> None:
    # xDSL's parser scopes names by region and blames the end of the file: the use is named.
    path = tmp_path / "scope.mlir"
    path.write_text(VALID.replace(
        "%y = hsg.hard_swish_grad %grad, %x : tensor<4x5xf16>",
        "%c = arith.constant true\n  scf.if %c {\n"
        "    %w = hsg.hard_swish_grad %grad, %x : tensor<4x5xf16>\n  }\n"
        "  %y = hsg.hard_swish_grad %w, %x : tensor<4x5xf16>"))
    err = refused(run(capsys, tool, *tool_args(tool, path, tmp_path)), path)
    assert f"{path}:6:3: error: %w is used here but not defined where this op can see it" in err


# endregion
# region pass options


@pytest.mark.parametrize(("spec", "message"), [
    ("hsg-tile-on-cores{core-num}", "option 'core-num' of pass 'hsg-tile-on-cores' has no "
                                    "value: write core-num=<value>, where the value is an "
                                    "integer"),
    ("hsg-tile-on-cores{double-buffer}", "option 'double-buffer' of pass 'hsg-tile-on-cores' "
                                         "has no value"),
    ("hsg-tile-on-cores{cores=4}", "has no option 'cores' (options: variant, double-buffer, "
                                   "scalar-compare, in-place, early-free, x-first, "
                                   "argument-order, reuse-copies, whole-repeat-casts, "
                                   "cast-rint, no-pipe-barriers, raw-queue-tensors, compares, "
                                   "widened-bf16, l2-bypass, bank-offsets, api, "
                                   "double-buffer-above, soc, "
                                   "core-num, ub-size, kernel-name, rows, split, share-shapes)"),
    ("hsg-tile-on-cores{core-num=4,8}", "bad option 'core-num' of pass 'hsg-tile-on-cores': "
                                        "it takes an integer, got '4,8'"),
])
def test_pass_options_are_checked(spec: str, message: str, capsys: Capsys,
                                  tmp_path: Path) -> None:
    err = refused(run(capsys, "hswc-opt", _valid(tmp_path), "-p", spec))
    assert message in err


# endregion
# region messages


@pytest.mark.parametrize(("text", "message"), [
    (b"\xef\xbb\xbffunc.func @f() {\n  func.return\n}\n",
     "1:1: error: Unexpected character: U+FEFF (ZERO WIDTH NO-BREAK SPACE)"),
    (b"func.func @f() {\x00\n  func.return\n}\n", "1:17: error: Unexpected character: U+0000"),
    (b"func.func @f() {\n  func.return\n  )\n}\n",
     "3:3: error: expected an operation, a block label (^name:) or the '}' ending the region, "
     "found ')'"),
    (b"func.func @f() {\n  \xff\xfe\n}\n",
     "2:3: error: the input is not UTF-8 text: byte 0xff (invalid start byte)"),
])
@pytest.mark.parametrize("tool", TOOLS)
def test_parse_errors_say_what_is_wrong(tool: str, text: bytes, message: str, capsys: Capsys,
                                        tmp_path: Path) -> None:
    path = tmp_path / "bad.mlir"
    path.write_bytes(text)
    err = refused(run(capsys, tool, *tool_args(tool, path, tmp_path)), path)
    assert f"{path}:{message}" in err
    assert "\ufeff" not in err and "\x00" not in err and "in block definition" not in err


@pytest.mark.parametrize("tool", TOOLS)
def test_empty_file_is_an_empty_module_everywhere(tool: str, capsys: Capsys,
                                                  tmp_path: Path) -> None:
    path = tmp_path / "empty.mlir"
    path.write_text("// nothing but a comment\n")
    code, out, err = run(capsys, tool, *tool_args(tool, path, tmp_path))
    assert "Could not parse entire input" not in err
    if tool == "hswc-opt":
        assert (code, out.strip(), err) == (0, "builtin.module {\n}", "")
    else:  # nothing to run, nothing to package: said as such
        err = refused((code, out, err))
        expected = "found none" if tool == "hswc-run" else "holds no operator to package"
        assert expected in err


def test_stdin_garbage_is_not_echoed(capsys: Capsys, monkeypatch: pytest.MonkeyPatch,
                                     tmp_path: Path) -> None:
    for tool, argv in (("hswc-opt", ["-"]), ("hswc-emit", ["-", "-o", str(tmp_path / "p")])):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"abc\n\xff\xfe junk")))
        err = refused(run(capsys, tool, *argv))
        assert "1:1" not in err and ":2:1: error: the input is not UTF-8 text: byte 0xff" in err
        assert "\\udc" not in err and "\ufffd" not in err


def test_write_error_names_the_output(capsys: Capsys, tmp_path: Path) -> None:
    err = refused(run(capsys, "hswc-opt", _valid(tmp_path), "-o", "/dev/full"))
    assert "hswc-opt: error: cannot write '/dev/full': No space left on device" in err


def test_help_lists_no_refused_flag(capsys: Capsys) -> None:
    code, out, _ = run(capsys, "hswc-opt", "--help")
    assert code == 0 and "--lower-to-ascend" in out
    assert not re.search(r"--shrink|--no-implicit-module|--frontend|-f FRONTEND", out)


@pytest.mark.parametrize("tool", TOOLS)
def test_usage_errors_exit_1(tool: str, capsys: Capsys) -> None:
    code, _, err = run(capsys, tool, "--no-such-flag")
    assert code == 1 and err.count("error:") == 1 and f"{tool}: error:" in err


# endregion
# region check summaries


def test_check_counts_signs_of_zero_apart(capsys: Capsys, tmp_path: Path) -> None:
    # x <= -3 with a negative grad: CANN gives grad*0 = -0.0, PyTorch +0.0; nothing else differs.
    np.save(tmp_path / "g.npy", np.array([[-1.0] * 5] * 4, np.float16))
    np.save(tmp_path / "x.npy", np.array([[-4.0] * 5] * 4, np.float16))
    code, out, err = run(capsys, "hswc-run", _valid(tmp_path), "--input", tmp_path / "g.npy",
                         "--input", tmp_path / "x.npy", "--check", "torch")
    assert code == 1 and err == ""
    assert out.splitlines() == [
        "--check torch: MISMATCH: 20 of 20 float16 elements differ",
        "first difference at index (0, 0): actual 0x8000 (-0.0), expected 0x0000 (0.0)",
        "  values differ:        0",
        "  signs of zero differ: 20, first at index (0, 0): actual 0x8000 (-0.0), "
        "expected 0x0000 (0.0)",
        "  NaN against a number: 0",
    ]


def test_reference_has_the_shape_of_a_call(arrays: tuple[Path, Path, np.ndarray]) -> None:
    grad, x, expected = arrays
    kernel = compile_text(VALID)
    actual = kernel(np.load(grad), np.load(x))
    reference = kernel.reference(np.load(grad), np.load(x))
    assert type(actual) is type(reference) is np.ndarray
    assert compare_bitwise(reference, expected).equal


# endregion

# region issue 20: nothing silently wrong, at any size (the reliability helper's block)


def _chain(ops: int) -> str:
    """A function holding a chain of `ops` named ops, one per line, each on the previous one."""
    t = "tensor<?xf16>"
    unary = ("hsg.leaky_relu %v{i} {{negative_slope = 0.2 : f32}}", "hsg.hardtanh %v{i}",
             "hsg.hard_swish %v{i}", "hsg.softshrink %v{i}")
    lines = [f"func.func @chain(%v0: {t}, %x: {t}) -> {t} {{"]
    for i in range(ops):
        op = f"hsg.hard_swish_grad %v{i}, %x" if i % 5 == 4 else unary[i % 5].format(i=i)
        lines.append(f"  %v{i + 1} = {op} : {t}")
    return "\n".join([*lines, f"  func.return %v{ops} : {t}", "}", ""])


def _long_body(ops: int) -> str:
    """One linalg.generic whose body is a chain of `ops` negf, each on the previous one."""
    t = "tensor<?xf16>"
    lines = [f"func.func @body(%a: {t}) -> {t} {{", "  %c0 = arith.constant 0 : index",
             f"  %n = tensor.dim %a, %c0 : {t}", f"  %e = tensor.empty(%n) : {t}",
             "  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, "
             "affine_map<(i) -> (i)>], iterator_types = [\"parallel\"]} "
             f"ins(%a : {t}) outs(%e : {t}) {{", "  ^bb0(%v0: f16, %o: f16):"]
    lines += [f"    %v{i + 1} = arith.negf %v{i} : f16" for i in range(ops)]
    return "\n".join([*lines, f"    linalg.yield %v{ops} : f16", f"  }} -> {t}",
                      f"  func.return %r : {t}", "}", ""])


def test_a_long_unfused_chain_compiles_runs_and_emits(capsys: Capsys, tmp_path: Path) -> None:
    # 300 ops, one per line: no stage recurses per op (issue 20 saw "nested too deeply" at 90).
    path = tmp_path / "chain.mlir"
    path.write_text(_chain(300))
    x = np.linspace(-5, 5, 64).astype(np.float16)
    np.save(tmp_path / "v.npy", x)
    np.save(tmp_path / "x.npy", x[::-1].copy())
    code, out, err = run(capsys, "hswc-run", path, "--no-fuse", "--input", tmp_path / "v.npy",
                         "--input", tmp_path / "x.npy", "--check")
    assert (code, err) == (0, ""), err
    assert out == "--check (each op's default semantics): bit-exact: all 64 float16 elements " \
                  "match\n"
    code, out, err = run(capsys, "hswc-opt", "-p", "hsg-decompose,hsg-tile-on-cores", path)
    assert code == 0 and out.count("hsg.launch @") == 300, err
    # Equal ops share their kernel: one per distinct op (5 of them), not one per op.
    assert len(re.findall(r"func\.func @\w+_kernel_f16\(", out)) == 5


def test_a_long_body_compiles_and_runs(capsys: Capsys, tmp_path: Path) -> None:
    # 1500 ops in one body: more than Python's default recursion limit (the vectorizer's
    # `uniform` recursed per op).
    path = tmp_path / "body.mlir"
    path.write_text(_long_body(1500))
    a = np.linspace(-5, 5, 64).astype(np.float16)
    np.save(tmp_path / "a.npy", a)
    code, out, err = run(capsys, "hswc-run", path, "--input", tmp_path / "a.npy",
                         "--output", tmp_path / "y.npy")
    assert (code, err) == (0, ""), err
    assert np.array_equal(np.load(tmp_path / "y.npy").view(np.uint16), a.view(np.uint16))
    code, out, err = run(capsys, "hswc-opt", "--lower-to-ascend", "-t", "ascendc", path)
    assert code == 0 and out.count("AscendC::Muls(") + out.count("AscendC::Neg") > 0, err


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_unknown_hsg_op_names_the_ops_it_may_mean(tool: str, capsys: Capsys,
                                                  tmp_path: Path) -> None:
    path = tmp_path / "typo.mlir"
    path.write_text(VALID.replace("hsg.hard_swish_grad", "hsg.hard_swish_gradd"))
    err = refused(run(capsys, tool, *tool_args(tool, path, tmp_path)), path)
    assert f"{path}:2:8: error: Operation hsg.hard_swish_gradd is not registered; did you mean " \
           "hsg.hard_swish_grad, hsg.hard_swish or hsg.hard_shrink_grad?" in err
    path.write_text(VALID.replace("hsg.hard_swish_grad", "hsg.frobnicate"))
    err = refused(run(capsys, tool, *tool_args(tool, path, tmp_path)), path)
    assert "Operation hsg.frobnicate is not registered (the hsg dialect has no op of that " \
           "name)" in err


def test_allow_unregistered_dialect_reads_but_never_lowers(capsys: Capsys,
                                                           tmp_path: Path) -> None:
    path = tmp_path / "typo.mlir"
    path.write_text(VALID.replace("hsg.hard_swish_gradd", "x").replace(
        "hsg.hard_swish_grad", "hsg.hard_swish_gradd"))
    err = refused(run(capsys, "hswc-opt", "--allow-unregistered-dialect", path), path)
    assert f"{path}:2:8: error: Operation hsg.hard_swish_gradd is not registered; an op of a " \
           "dialect hswc does not know (--allow-unregistered-dialect) must be written in the " \
           'generic form "hsg.hard_swish_gradd"(...) : (...) -> ...; did you mean ' in err
    generic = tmp_path / "generic.mlir"
    generic.write_text(VALID.replace(
        "hsg.hard_swish_grad %grad, %x : tensor<4x5xf16>",
        '"foo.bar"(%grad, %x) : (tensor<4x5xf16>, tensor<4x5xf16>) -> tensor<4x5xf16>'))
    code, out, _ = run(capsys, "hswc-opt", "--allow-unregistered-dialect", generic)
    assert code == 0 and '"foo.bar"(%grad, %x)' in out  # printing it back works
    for flags in (["--lower-to-ascend"], ["-t", "ascendc"], ["-p", "hsg-decompose"]):
        err = refused(run(capsys, "hswc-opt", "--allow-unregistered-dialect", *flags, generic),
                      generic)
        assert err == (f"{generic}:2:3: error: 'foo.bar' is an op of a dialect hswc does not "
                       "know (read only because of --allow-unregistered-dialect): hswc cannot "
                       "lower, run or print it\n")


NESTED = "builtin.module {\n  builtin.module {\n" + VALID + "  }\n}\n"


@pytest.mark.parametrize("argv", [["hswc-opt", "--lower-to-ascend"], ["hswc-opt", "-t", "ascendc"],
                                  ["hswc-run"], ["hswc-emit"]])
def test_a_nested_module_is_refused_alike(argv: list[str], capsys: Capsys,
                                          tmp_path: Path) -> None:
    path = tmp_path / "nested.mlir"
    path.write_text(NESTED)
    tool, *flags = argv
    err = refused(run(capsys, tool, *flags, *tool_args(tool, path, tmp_path)), path)
    assert err == (f"{path}:2:3: error: 'builtin.module' is nested in the input's module: hswc "
                   "lowers, runs and prints the functions at the top level of its input only "
                   "(move them out of the inner module)\n")


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_exponent_without_a_dot_is_named(tool: str, capsys: Capsys, tmp_path: Path) -> None:
    path = tmp_path / "big.mlir"
    path.write_text("func.func @f(%x: tensor<4xf16>) -> tensor<4xf16> {\n"
                    "  %y = hsg.leaky_relu %x {negative_slope = 1e39 : f32} : tensor<4xf16>\n"
                    "  func.return %y : tensor<4xf16>\n}\n")
    err = refused(run(capsys, tool, *tool_args(tool, path, tmp_path)), path)
    assert f"{path}:2:44: error: '1e39' is not a number in MLIR: a float literal needs a '.' " \
           "before its exponent (write 1.0e39)" in err


def test_function_naming_a_kernel_says_it_is_one(capsys: Capsys, tmp_path: Path) -> None:
    source = tmp_path / "f.mlir"
    source.write_text(VALID)
    lowered = tmp_path / "lowered.mlir"
    assert run(capsys, "hswc-opt", "--lower-to-ascend", source, "-o", lowered)[0] == 0
    err = refused(run(capsys, "hswc-run", lowered, "--function", "hard_swish_grad_kernel_f16"))
    assert err == ("hswc-run: error: @hard_swish_grad_kernel_f16 is a kernel (hsg.kernel): it "
                   "runs on the device, launched by a host function's hsg.launch, and cannot be "
                   "run directly; run a host function (@f)\n")
    err = refused(run(capsys, "hswc-run", lowered, "--function", "hard_swish_grad_tiling_f16"))
    assert "@hard_swish_grad_tiling_f16 is a host tiling function (hsg.tiling)" in err


def test_a_thousand_function_names_are_cut(capsys: Capsys, tmp_path: Path) -> None:
    path = tmp_path / "many.mlir"
    path.write_text("".join(VALID.replace("@f(", f"@f{i}(") for i in range(1000)))
    err = refused(run(capsys, "hswc-run", path))
    assert err == ("hswc-run: error: the module must hold exactly one function to run, found "
                   "@f0, @f1, @f2, @f3, @f4, @f5, @f6, @f7 and 992 more (1000 in all); name "
                   "one with --function\n")
    err = refused(run(capsys, "hswc-run", path, "--function", "nope"))
    assert len(err) < 200 and "and 992 more" in err


def test_bf16_npy_for_an_f16_input_is_named(capsys: Capsys, tmp_path: Path) -> None:
    import ml_dtypes

    np.save(tmp_path / "b.npy", np.ones((4, 5), ml_dtypes.bfloat16))
    err = refused(run(capsys, "hswc-run", _valid(tmp_path), "--input", tmp_path / "b.npy",
                      "--input", tmp_path / "b.npy"))
    assert err == ("hswc-run: error: input 1 (grad): expected element type f16 (float16) for "
                   "tensor<4x5xf16>, got an array of 2-byte raw values (dtype |V2: how np.save "
                   "writes an ml_dtypes bfloat16 array, so a bf16 array)\n")


def test_input_shapes_that_differ_are_blamed_on_the_op_as_written(capsys: Capsys,
                                                                  tmp_path: Path) -> None:
    example = Path(__file__).parent.parent / "examples" / "grad_times_scale.mlir"
    np.save(tmp_path / "a.npy", np.ones(40, np.float16))
    np.save(tmp_path / "b.npy", np.ones(30, np.float16))
    a, b = tmp_path / "a.npy", tmp_path / "b.npy"
    for level in ("ascend", "linalg"):
        err = refused(run(capsys, "hswc-run", example, "--level", level, "--input", a,
                          "--input", b, "--input", a))
        assert err == (f"{example}:4:3: error: 'hsg.hard_swish_grad' gets input 1 (grad) of "
                       "shape (40,) and input 2 (x) of shape (30,): the operands of an "
                       "elementwise op must have one shape\n")
    err = refused(run(capsys, "hswc-run", example, "--input", a, "--input", a, "--input", b))
    assert err == (f"{example}:8:3: error: 'linalg.generic' gets the result %dx of "
                   "'hsg.hard_swish_grad' (from input 1 (grad)) of shape (40,) and input 3 "
                   "(scale) of shape (30,): the operands of an elementwise op must have one "
                   "shape\n")


def test_runaway_kernel_loop_stops_at_the_tilings_allowance(capsys: Capsys, tmp_path: Path,
                                                            arrays: tuple[Path, Path, np.ndarray]
                                                            ) -> None:
    grad, x, _ = arrays
    lowered = tmp_path / "lowered.mlir"
    assert run(capsys, "hswc-opt", "--lower-to-ascend", _valid(tmp_path), "-o", lowered)[0] == 0
    anchor = "attributes {hsg.kernel} {\n"
    spin = ("    %spin_lo = arith.constant 0 : index\n"
            "    %spin_hi = arith.constant 1000000000000 : index\n"
            "    %spin_step = arith.constant 1 : index\n"
            "    scf.for %spin = %spin_lo to %spin_hi step %spin_step {\n    }\n")
    text = lowered.read_text()
    line = text[:text.index(anchor)].count("\n") + 5
    lowered.write_text(text.replace(anchor, anchor + spin))
    # 20 elements on 48 cores: one chunk a core, one batch: 4 * 1 + 1000 iterations allowed.
    err = refused(run(capsys, "hswc-run", lowered, "--input", grad, "--input", x), lowered)
    assert err == (f"{lowered}:{line}:5: error: 'scf.for' is still iterating after 1004 loop "
                   "iterations of this run (the default limit, 4 per UB chunk of this run's "
                   "launches' tilings plus 1000): a runaway loop? If it is not, raise the limit "
                   "with --max-steps N (hswc-run) or run(..., max_steps=N)\n")


def test_a_real_kernel_stays_far_below_the_default_step_limit(tmp_path: Path) -> None:
    # 5 cores with a small UB: many chunks a core, and more blocks than the ones allowed per
    # chunk would not be reached by the kernel's own loop.
    kernel = compile_text(VALID.replace("4x5", "64x1000"), core_num=5, ub_size=16384)
    rng = np.random.default_rng(20)
    grad = rng.standard_normal((64, 1000)).astype(np.float16)
    x = rng.uniform(-4, 4, (64, 1000)).astype(np.float16)
    y = kernel.run(grad, x).outputs[0]
    assert compare_bitwise(y, hard_swish_grad_cann(grad, x)).equal


def _emit(capsys: Capsys, *argv: str | Path) -> tuple[int, str, str]:
    return run(capsys, "hswc-emit", *argv)


def test_emit_onto_an_unwritable_path_names_it(capsys: Capsys, tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("a file, not a folder")
    target = tmp_path / "afile" / "package"
    err = refused(_emit(capsys, _valid(tmp_path), "-o", target))
    assert err == (f"hswc-emit: error: cannot write the package to '{target}': "
                   f"'{tmp_path / 'afile'}' is not a folder\n")
    assert ".hswc-" not in err


def test_emit_force_never_loses_an_edited_file(capsys: Capsys, tmp_path: Path) -> None:
    examples = Path(__file__).parent.parent / "examples"
    out = tmp_path / "P"
    assert _emit(capsys, examples / "hard_swish_grad.mlir", "-o", out)[0] == 0
    (out / "README.md").write_text("my notes\n")
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    # Another op's package over it: the edited README.md would be replaced: refused.
    err = refused(_emit(capsys, examples / "leaky_relu_grad.mlir", "-o", out, "--force"))
    assert err == ("hswc-emit: error: --force would overwrite or remove 1 file(s) that changed "
                   f"since hswc-emit wrote them, or that it did not write: '{out}/README.md'; "
                   "nothing was written. Move them away, or give --force-overwrite-edits to "
                   "replace them anyway\n")
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    (out / "README.md").unlink()
    code, stdout, err = _emit(capsys, examples / "leaky_relu_grad.mlir", "-o", out, "--force")
    assert code == 0
    lines = err.splitlines()
    # What --force did, file by file: the old package's kernel is removed, the shared names
    # replaced; no edited file was touched.
    assert f"hswc-emit: --force removed '{out}/op_kernel/hard_swish_grad.cpp'" in lines
    assert f"hswc-emit: --force replaced '{out}/CMakeLists.txt'" in lines
    assert all(line.startswith("hswc-emit: --force ") for line in lines)
    assert "changed since" not in err
    assert f"{out}/op_kernel/leaky_relu_grad.cpp" in stdout.splitlines()
    # Told explicitly, an edited file goes.
    (out / "README.md").write_text("edited again\n")
    code, _, err = _emit(capsys, examples / "hard_swish_grad.mlir", "-o", out,
                         "--force-overwrite-edits")
    assert code == 0 and (f"hswc-emit: --force replaced '{out}/README.md' (it had changed since "
                          "hswc-emit wrote it)") in err.splitlines()
    assert (out / "README.md").read_text() != "edited again\n"


# endregion

# region issue 40: the fourth hostile run (each case with its expected answer)

EXAMPLES = Path(__file__).parent.parent / "examples"


@pytest.mark.parametrize(("name", "why"), [
    ("__global__", "it is an AscendC macro or compiler keyword"),
    ("GM_ADDR", "it is an AscendC macro or compiler keyword"),
    ("ASCENDC_TPL_ARGS", "it is an AscendC macro or compiler keyword"),
    ("my__kernel", "C++ reserves names holding a double underscore for the implementation"),
    ("_kernel", "C++ reserves names starting with an underscore at global scope"),
    ("class", "it is a C++ keyword"),
])
def test_kernel_name_that_cpp_cannot_declare_is_refused(name: str, why: str, capsys: Capsys
                                                        ) -> None:
    err = refused(run(capsys, "hswc-opt", "--lower-to-ascend", "-p",
                      f"hsg-tile-on-cores{{kernel-name={name}}}", "-t", "ascendc",
                      EXAMPLES / "squared_difference.mlir"))
    assert err == (f"hswc-opt: error: hsg-tile-on-cores: kernel-name={name} cannot name a "
                   f"kernel entry: {why}; choose another name\n")


def test_reserved_function_and_argument_names_print_as_declarable_cpp(capsys: Capsys,
                                                                      tmp_path: Path) -> None:
    path = tmp_path / "reserved.mlir"
    path.write_text((EXAMPLES / "squared_difference.mlir").read_text()
                    .replace("@squared_difference", "@__global__").replace("%a", "%__gm__"))
    code, out, err = run(capsys, "hswc-opt", "--lower-to-ascend", "-t", "ascendc", path)
    assert (code, err) == (0, "")
    assert ("__global__ __aicore__ void global(GM_ADDR in0, GM_ADDR b, GM_ADDR y, "
            "GM_ADDR workspace, GM_ADDR tiling)") in out


def test_an_input_named_y_leaves_the_unnamed_output_a_name_of_its_own(capsys: Capsys,
                                                                    tmp_path: Path) -> None:
    """`%y` as an input took the output's fallback name too: `void f(GM_ADDR y, GM_ADDR x,
    GM_ADDR y, ...)`, which C++ refuses, and `op.Init(y, x, y)` writes the input."""
    path = tmp_path / "y_input.mlir"
    path.write_text(
        "func.func @f(%y: tensor<1024xf32>, %x: tensor<1024xf32>) -> tensor<1024xf32> {\n"
        "  %e = tensor.empty() : tensor<1024xf32>\n"
        "  %0 = linalg.mul ins(%y, %x : tensor<1024xf32>, tensor<1024xf32>)\n"
        "                  outs(%e : tensor<1024xf32>) -> tensor<1024xf32>\n"
        "  return %0 : tensor<1024xf32>\n}\n")
    code, out, err = run(capsys, "hswc-opt", "--lower-to-ascend", "-t", "ascendc", path)
    assert (code, err) == (0, "")
    assert "(GM_ADDR y, GM_ADDR x, GM_ADDR y_1, GM_ADDR workspace, GM_ADDR tiling)" in out
    assert "op.Init(y, x, y_1, &" in out


@pytest.mark.parametrize("tool", sorted(TOOLS))
@pytest.mark.parametrize("below", [False, True])
def test_output_into_a_symlink_loop_says_so(tool: str, below: bool, capsys: Capsys,
                                            tmp_path: Path,
                                            arrays: tuple[Path, Path, np.ndarray]) -> None:
    (tmp_path / "loop1").symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(tmp_path / "loop1")
    target = tmp_path / "loop1" / "out" if below else tmp_path / "loop1"
    grad, x, _ = arrays
    argv: list[str | Path] = {"hswc-opt": [_valid(tmp_path), "-o", target],
                              "hswc-run": [_valid(tmp_path), "--input", grad, "--input", x,
                                           "--output", target],
                              "hswc-emit": [_valid(tmp_path), "-o", target]}[tool]
    err = refused(run(capsys, tool, *argv))
    what = "cannot write the package to" if tool == "hswc-emit" else "cannot write"
    assert err == (f"{tool}: error: {what} '{target}': '{tmp_path / 'loop1'}' is a symbolic "
                   "link loop (its links lead back to themselves, never to a file or folder)\n")


def _unary(name: str, body: str, dtype: str = "f32", iterator: str = "parallel",
           out: str = "tensor<64xf32>", out_map: str = "(i)") -> str:
    t = f"tensor<64x{dtype}>"
    return f"""\
func.func @{name}(%a: {t}) -> {out} {{
  %e = tensor.empty() : {out}
  %y = linalg.generic {{indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> {out_map}>],
      iterator_types = ["{iterator}"]}} ins(%a : {t}) outs(%e : {out}) {{
  ^bb0(%x: {dtype}, %o: {dtype}):
    {body}
  }} -> {out}
  func.return %y : {out}
}}
"""


SQ = _unary("sq", "%s = arith.mulf %x, %x : f32\n    linalg.yield %s : f32")
NEG = _unary("neg", "%s = arith.negf %x : f32\n    linalg.yield %s : f32")
SUM = _unary("total", "%s = arith.addf %x, %o : f32\n    linalg.yield %s : f32",
             iterator="reduction", out="tensor<f32>", out_map="()")


@pytest.mark.parametrize("other", ["neg", "sum"])
def test_emit_function_ignores_the_other_functions(other: str, capsys: Capsys,
                                                   tmp_path: Path) -> None:
    path = tmp_path / "two.mlir"
    path.write_text(SQ + (NEG if other == "neg" else SUM))
    code, out, err = run(capsys, "hswc-emit", path, "--function", "sq", "--name", "Sq", "-o",
                         tmp_path / "sq")
    assert (code, err) == (0, "")
    assert f"{tmp_path}/sq/op_kernel/sq.cpp" in out.splitlines()
    kernel = (tmp_path / "sq" / "op_kernel" / "sq.h").read_text()
    assert "AscendC::Mul(" in kernel and "Muls" not in kernel and "neg" not in kernel


def test_emit_function_keeps_its_operator_in_other_dtypes(capsys: Capsys,
                                                          tmp_path: Path) -> None:
    """--function picks @F's operator with all of its kernels: a function computing the same
    body in f16 is that operator's f16 kernel; an unrelated one is ignored."""
    sq16 = _unary("sq16", "%s = arith.mulf %x, %x : f16\n    linalg.yield %s : f16",
                  dtype="f16", out="tensor<64xf16>")
    path = tmp_path / "three.mlir"
    path.write_text(SQ + NEG + sq16)
    code, _, err = run(capsys, "hswc-emit", path, "--function", "sq", "--name", "Sq", "-o",
                       tmp_path / "sq")
    assert (code, err) == (0, "")
    definition = (tmp_path / "sq" / "op_host" / "sq_def.cpp").read_text()
    assert ".DataType({ge::DT_FLOAT16, ge::DT_FLOAT})" in definition


def test_emit_of_two_operators_under_one_name_names_both(capsys: Capsys,
                                                         tmp_path: Path) -> None:
    path = tmp_path / "two.mlir"
    path.write_text(SQ + NEG)
    err = refused(run(capsys, "hswc-emit", path, "--name", "Sq", "-o", tmp_path / "p"))
    assert err == ("hswc-emit: error: the module holds 2 operators (a generic operator "
                   "(@sq_kernel_f32), launched by @sq; a generic operator (@sq_1_kernel_f32), "
                   "launched by @neg); a package holds one: pick its host function with "
                   "--function\n")
    err = refused(run(capsys, "hswc-emit", path, "--function", "nope", "--name", "Sq", "-o",
                      tmp_path / "p"))
    assert err == ("hswc-emit: error: no host function @nope launches a kernel (functions "
                   "that do: @neg, @sq)\n")
    assert not (tmp_path / "p").exists()


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def _immutable(folder: Path, on: bool) -> bool:
    """chattr +i / -i: a folder even root cannot write into; False where chattr cannot."""
    import shutil
    import subprocess

    if shutil.which("chattr") is None:
        return False
    done = subprocess.run(["chattr", "+i" if on else "-i", str(folder)], capture_output=True,
                          check=False)
    return done.returncode == 0


@pytest.mark.parametrize("how", ["rename fails", "immutable folder"])
def test_emit_force_is_all_or_nothing(how: str, capsys: Capsys, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 40: --force over a package whose op_host/ could not be written replaced README.md
    and CMakeLists.txt first, leaving a mix of two operators under the old manifest."""
    import os

    out = tmp_path / "P"
    assert run(capsys, "hswc-emit", EXAMPLES / "hard_swish_grad.mlir", "-o", out)[0] == 0
    before = _files(out)
    if how == "rename fails":
        rename = os.rename

        def refusing(src: str | Path, dst: str | Path) -> None:
            # As a folder without write permission: nothing goes in or out of out/op_host/.
            for path in (src, dst):
                if str(Path(path).parent) == str(out / "op_host"):
                    raise PermissionError(13, "Permission denied", str(path))
            rename(src, dst)

        monkeypatch.setattr(os, "rename", refusing)
    elif not _immutable(out / "op_host", True):
        pytest.skip("chattr +i is not available here")
    try:
        err = refused(run(capsys, "hswc-emit", EXAMPLES / "leaky_relu_grad.mlir", "-o", out,
                          "--force"))
    finally:
        if how == "immutable folder":
            _immutable(out / "op_host", False)
    reason = "Permission denied" if how == "rename fails" else "Operation not permitted"
    assert err == (f"hswc-emit: error: cannot write the package to '{out}': {reason} (at "
                   f"'{out}/op_host/CMakeLists.txt'); nothing in '{out}' was changed\n")
    assert _files(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["P"]  # no temporary folder left


def test_emit_force_never_follows_a_symlink_out_of_the_package(capsys: Capsys,
                                                               tmp_path: Path) -> None:
    import hashlib

    out, outside = tmp_path / "P", tmp_path / "outside"
    outside.mkdir()
    (outside / "notes.md").write_text("a file outside the package\n")
    assert run(capsys, "hswc-emit", EXAMPLES / "hard_swish_grad.mlir", "-o", out)[0] == 0
    (out / "extra").symlink_to(outside)
    recorded = hashlib.sha256((outside / "notes.md").read_bytes()).hexdigest()
    with open(out / ".hswc-package", "a") as manifest:
        manifest.write(f"{recorded}  extra/notes.md\n")
    code, _, err = run(capsys, "hswc-emit", EXAMPLES / "leaky_relu_grad.mlir", "-o", out,
                       "--force")
    assert code == 0
    assert (f"hswc-emit: --force kept '{out}/extra/notes.md' (an earlier package's file): its "
            f"path goes through the symbolic link '{out}/extra', which hswc-emit does not "
            "follow") in err.splitlines()
    assert (outside / "notes.md").read_text() == "a file outside the package\n"
    # A folder of the package that is a link: nothing is written through it.
    import shutil

    shutil.rmtree(out / "docs")
    (out / "docs").symlink_to(outside)
    before = _files(out)
    err = refused(run(capsys, "hswc-emit", EXAMPLES / "hard_swish_grad.mlir", "-o", out,
                      "--force"))
    assert err == (f"hswc-emit: error: '{out}/docs' is a symbolic link; the package writes "
                   f"'{out}/docs/aclnnHardswishBackward.md' below it, and hswc-emit writes no "
                   "file through a link: make it a folder, or name another -o\n")
    assert _files(out) == before and sorted(p.name for p in outside.iterdir()) == ["notes.md"]


def test_no_schedule_copies_more_than_one_data_copy_pad_moves(capsys: Capsys,
                                                              tmp_path: Path) -> None:
    """Issue 40: a cached entry naming a single-buffered schedule of an f32 negation (its
    chunk 98304 bytes at 196608 bytes of UB) printed that kernel. The tiling now never makes
    a chunk longer than one DataCopyPad moves, whatever the schedule: 16320 f32 elements."""
    path = tmp_path / "neg.mlir"
    path.write_text(NEG.replace("@neg", "@f"))
    # Double-buffered, 16 bytes an element: 12288; single-buffered, in place, 8 bytes an
    # element: 24576 elements of UB, 16320 of them one copy.
    for variant, ub_factor in (("", "12288"), ("double-buffer=false in-place=true ", "16320")):
        code, out, err = run(capsys, "hswc-opt", "-p", "hsg-tile-on-cores{soc=ascend910b "
                             f"{variant}}}", path)
        assert (code, err) == (0, "")
        assert re.findall(r"%ub_factor = arith.constant (\d+) : index", out) == [ub_factor]


@pytest.mark.parametrize("body", [
    "%nan = arith.constant 0x7FC00000 : f32\n    %p = arith.cmpf olt, %x, %nan : f32\n"
    "    %s = arith.select %p, %x, %nan : f32\n    linalg.yield %s : f32",
    "%p = arith.cmpf false, %x, %x : f32\n    %one = arith.constant 1.0 : f32\n"
    "    %s = arith.select %p, %x, %one : f32\n    linalg.yield %s : f32",
    "%s = arith.constant 2.5 : f32\n    linalg.yield %s : f32",
], ids=["x<NaN", "cmpf-false", "constant"])
def test_a_body_that_does_not_depend_on_x_compiles_to_a_fill(body: str, capsys: Capsys,
                                                            tmp_path: Path) -> None:
    """Issue 40: such bodies got "the planner can build no schedule" at the default level
    while --level linalg ran them: their one output buffer let the UB take chunks longer than
    a DataCopyPad moves, so every candidate was refused. The kernel is a Duplicate."""
    path = tmp_path / "fill.mlir"
    path.write_text(_unary("f", body))
    np.save(tmp_path / "a.npy", np.linspace(-3, 3, 64, dtype=np.float32))
    code, out, err = run(capsys, "hswc-opt", "--lower-to-ascend", "-t", "ascendc", path)
    assert (code, err) == (0, "") and "AscendC::Duplicate(yFp32, " in out
    for level in ("linalg", "ascend"):
        code, out, err = run(capsys, "hswc-run", path, "--input", tmp_path / "a.npy",
                             "--level", level, "--output", tmp_path / f"{level}.npy")
        assert (code, err) == (0, "")
    value = np.nan if "0x7FC00000" in body else 1.0 if "cmpf false" in body else 2.5
    expected = np.full(64, value, np.float32)
    for level in ("linalg", "ascend"):
        assert compare_bitwise(np.load(tmp_path / f"{level}.npy"), expected).equal


def test_the_largest_ub_with_one_core_runs(capsys: Capsys, tmp_path: Path) -> None:
    """Issue 40: --ub-size 4194304 (the documented maximum) with one core made hswc-run fail on
    its own kernel's DataCopyPad (a chunk of 87360 f16 elements, 174720 bytes)."""
    rng = np.random.default_rng(40)
    np.save(tmp_path / "g.npy", rng.standard_normal(200_000).astype(np.float16))
    np.save(tmp_path / "x.npy", rng.uniform(-4, 4, 200_000).astype(np.float16))
    path = tmp_path / "h.mlir"
    path.write_text(VALID.replace("4x5", "?"))
    code, out, err = run(capsys, "hswc-run", path, "--input", tmp_path / "g.npy", "--input",
                         tmp_path / "x.npy", "--ub-size", "4194304", "--core-num", "1",
                         "--check", "--tiling-json", tmp_path / "t.json")
    assert (code, err) == (0, "")
    assert out == "--check (each op's default semantics): bit-exact: all 200000 float16 " \
                  "elements match\n"
    assert json.loads((tmp_path / "t.json").read_text())["ubFactor"] == 32704


# Choice cache: a broken cache only costs time.

def _tool(tool: str, argv: Sequence[str | Path], cache: Path | str,
          timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """A tool in its own process with HSWC_CACHE_DIR=cache (its caches read at start, saved
    at exit)."""
    module = {"hswc-opt": "hswc.tools.hswc_opt", "hswc-run": "hswc.tools.hswc_run"}[tool]
    return subprocess.run([sys.executable, "-m", module, *map(str, argv)], capture_output=True,
                          text=True, check=False, timeout=timeout,
                          env=dict(os.environ, HSWC_CACHE_DIR=str(cache)))


@functools.cache
def _lowered_without_cache(*argv: str | Path) -> str:
    off = _tool("hswc-opt", argv, "")
    assert (off.returncode, off.stderr) == (0, "")
    return off.stdout


CACHE_FILES = ("schedule-choices.json", "schedule-choices.journal",
               f"dataclass-code.{sys.implementation.cache_tag}-"
               f"{importlib.util.MAGIC_NUMBER.hex()}.marshal")
"""The tools' cache files (hswc.tools.choice_cache's file and journal,
hswc.tools.dataclass_code_cache)."""


@pytest.mark.parametrize("damage", ["fifo", "dev-zero", "nested-json", "huge", "lock-fifo"])
def test_a_broken_cache_only_costs_time(damage: str, tmp_path: Path) -> None:
    """Issue 40: a cache file that is a FIFO hung every run; one linked to /dev/zero was an
    internal error (MemoryError); JSON nested too deeply made every run fail with "the module
    is nested too deeply", blaming the user's module. Each run now writes what a run without
    the cache writes, in bounded time, and says nothing."""
    argv = ["--lower-to-ascend", EXAMPLES / "leaky_relu_grad.mlir"]
    expected = _lowered_without_cache(*argv)
    cache = tmp_path / "cache"
    cache.mkdir()
    for name in CACHE_FILES:
        path = cache / name
        if damage == "fifo":
            os.mkfifo(path)
        elif damage == "dev-zero":
            path.symlink_to("/dev/zero")
        elif damage == "nested-json":
            path.write_text("[" * 200_000 + "]" * 200_000)
        elif damage == "huge":
            with open(path, "wb") as stream:
                stream.truncate(100 << 20)  # sparse: 100 MB that take no disk
    if damage == "lock-fifo":
        os.mkfifo(cache / "schedule-choices.json.lock")
    for _ in range(2):
        done = _tool("hswc-opt", argv, cache, timeout=60)
        assert (done.returncode, done.stderr) == (0, "")
        assert done.stdout == expected


def test_tools_saving_at_once_keep_each_others_choices(tmp_path: Path) -> None:
    """Issue 40: six tools run at once with a large choice cache kept only 2-4 of their 6 new
    choices (each read, merged and wrote the file unlocked, and a save over the limit kept only
    its own). Now each save merges under the file's lock, and a full file drops its oldest
    entries, never another process's new ones."""
    from hswc.tools import choice_cache

    cache = tmp_path / "cache"
    cache.mkdir()
    old = {f"{k:064x}": [0, 1.0] for k in range(choice_cache.MAX_ENTRIES - 2)}
    (cache / choice_cache.FILE_NAME).write_text(json.dumps(
        {"code": choice_cache.code_state(), "choices": old}))
    ops = ("hard_swish", "hard_sigmoid", "hardtanh", "leaky_relu", "softshrink", "hard_shrink")
    runs = []
    for op in ops:
        source = tmp_path / f"{op}.mlir"
        source.write_text(f"func.func @f(%x: tensor<?xf16>) -> tensor<?xf16> {{\n"
                          f"  %y = hsg.{op} %x : tensor<?xf16>\n"
                          "  func.return %y : tensor<?xf16>\n}\n")
        runs.append(subprocess.Popen(
            [sys.executable, "-m", "hswc.tools.hswc_opt", "--lower-to-ascend", str(source)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            env=dict(os.environ, HSWC_CACHE_DIR=str(cache))))
    for process in runs:
        _, err = process.communicate(timeout=300)
        assert (process.returncode, err) == (0, "")
    table = json.loads((cache / choice_cache.FILE_NAME).read_text())["choices"]
    new = [key for key in table if key not in old]
    assert len(new) == len(ops)  # every process's choice
    assert len(table) == choice_cache.MAX_ENTRIES  # the four oldest entries made room
    assert list(old)[4:] == [key for key in table if key in old]


def test_a_cached_choice_is_validated_as_a_fresh_one(tmp_path: Path) -> None:
    """Issue 40: a current, well-formed cache entry naming a schedule a fresh choice would not
    make was trusted. On 8 cores with 9728 bytes of UB only two of LeakyReluGrad's candidates
    tile (the others' buffers leave no room for one aligned pass); an entry naming the `fast`
    one is dropped and the choice modelled again, so the run writes what a run without the
    cache writes."""
    from hswc.tools import choice_cache

    argv = ["-p", "hsg-decompose,hsg-tile-on-cores{core-num=8 ub-size=9728}",
            EXAMPLES / "leaky_relu_grad.mlir"]
    expected = _lowered_without_cache(*argv)
    cache = tmp_path / "cache"
    assert _tool("hswc-opt", argv, cache).returncode == 0
    path = cache / choice_cache.FILE_NAME
    table = json.loads(path.read_text())
    ((key, chosen),) = table["choices"].items()
    assert chosen[0] != 0
    table["choices"][key] = [0, 1e-9]  # the fast candidate, faster than anything
    path.write_text(json.dumps(table))
    done = _tool("hswc-opt", argv, cache)
    assert (done.returncode, done.stderr, done.stdout) == (0, "", expected)
    assert json.loads(path.read_text())["choices"][key] == chosen  # modelled again, saved


DIM_OF_STATIC = """\
func.func @f(%a: tensor<4x64xf32>) -> tensor<?x64xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<4x64xf32>
  %e = tensor.empty(%n) : tensor<?x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x64xf32>) outs(%e : tensor<?x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<?x64xf32>
  func.return %y : tensor<?x64xf32>
}
"""
STATIC_OF_DYNAMIC = (DIM_OF_STATIC.replace("tensor<4x64xf32>", "tensor<T>")
                     .replace("tensor<?x64xf32>", "tensor<4x64xf32>")
                     .replace("tensor<T>", "tensor<?x64xf32>")
                     .replace("  %c0 = arith.constant 0 : index\n"
                              "  %n = tensor.dim %a, %c0 : tensor<?x64xf32>\n", "")
                     .replace("tensor.empty(%n)", "tensor.empty()"))


@pytest.mark.parametrize("text", [DIM_OF_STATIC, STATIC_OF_DYNAMIC], ids=["dim-of-static",
                                                                         "static-of-dynamic"])
def test_an_identity_map_between_static_and_dynamic_dims_compiles(text: str, capsys: Capsys,
                                                                  tmp_path: Path) -> None:
    """Issue 40: an identity map whose output dim comes from tensor.dim of a static dim was
    refused as "a broadcast needs static shapes"; it is the identity."""
    path = tmp_path / "dim.mlir"
    path.write_text(text)
    a = np.linspace(-2, 2, 256, dtype=np.float32).reshape(4, 64)
    np.save(tmp_path / "a.npy", a)
    code, _, err = run(capsys, "hswc-run", path, "--input", tmp_path / "a.npy", "--output",
                       tmp_path / "y.npy")
    assert (code, err) == (0, "")
    assert compare_bitwise(np.load(tmp_path / "y.npy"), a * a).equal
    assert run(capsys, "hswc-emit", path, "--name", "Square", "-o", tmp_path / "p")[0] == 0
    if text is STATIC_OF_DYNAMIC:  # the static dim is checked at run time, at the op
        np.save(tmp_path / "b.npy", np.ones((5, 64), np.float32))
        err = refused(run(capsys, "hswc-run", path, "--input", tmp_path / "b.npy"), path)
        assert err == (f"{path}:3:3: error: 'linalg.generic' gets input 1 (a) of shape (5, 64), "
                       "which its map (d0, d1) -> (d0, d1) does not fit to the iteration space "
                       "(4, 64) of its result tensor<4x64xf32>\n")


# hswc-check-kernel: every step ends within --timeout.

CHECK_KERNEL = EXAMPLES / "check_kernel"
LEAKY_FIXTURE = ["--op", "hsg.leaky_relu", "--attr", "negative_slope=0.2", "--tiling",
                 "negativeSlope=0.2", "--core-num", "4", "--ub-size", "16384"]


def _check_kernel(capsys: Capsys, *argv: str | Path) -> tuple[int, str, str]:
    from hswc.tools import hswc_check_kernel

    code = hswc_check_kernel.run([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("value", ["nan", "inf", "0", "-1", "1e9"])
@pytest.mark.parametrize("option", ["--timeout", "--build-timeout"])
def test_check_kernel_refuses_a_timeout_that_is_no_time_limit(option: str, value: str,
                                                              capsys: Capsys) -> None:
    """Issue 40: --timeout nan was a ValueError traceback, inf an OverflowError, and 0 and -1
    were accepted, every run then "did not finish within 0 s"."""
    code, out, err = _check_kernel(capsys, CHECK_KERNEL / "leaky_relu_fixture.cpp",
                                   *LEAKY_FIXTURE, option, value)
    assert (code, out) == (1, "")
    assert err.splitlines()[-1] == (f"hswc-check-kernel: error: argument {option}: '{value}' "
                                    "is not a number of seconds above 0 and at most 86400")
    assert "Traceback" not in err and err.count("error:") == 1


def test_check_kernel_stops_a_build_that_reads_a_fifo(capsys: Capsys, tmp_path: Path) -> None:
    """Issue 40: a kernel that #includes a FIFO made g++ wait for ever (no time limit)."""
    kernel = tmp_path / "leaky_relu_fixture.cpp"
    kernel.write_text('#include "pipe.h"\n'
                      + (CHECK_KERNEL / "leaky_relu_fixture.cpp").read_text())
    os.mkfifo(tmp_path / "pipe.h")
    code, out, err = _check_kernel(capsys, kernel, *LEAKY_FIXTURE, "-I", CHECK_KERNEL,
                                   "--tiling-function",
                                   f"{CHECK_KERNEL / 'fixture_tiling.py'}:one_input",
                                   "--timeout", "2")
    assert (code, out) == (1, "")
    assert err == (f"hswc-check-kernel: error: preprocessing {kernel} (g++) did not finish "
                   "within 2 s (--build-timeout, else --timeout): does it #include a FIFO or a "
                   "device? (If the build is only slow, raise --build-timeout.)\n")


@pytest.mark.parametrize("how", ["loops", "sleeps"])
def test_check_kernel_stops_a_tiling_function_that_never_returns(how: str, capsys: Capsys,
                                                                 tmp_path: Path) -> None:
    """Issue 40: --timeout did not cover the --tiling-function, which runs in hswc's
    process."""
    (tmp_path / "tiling.py").write_text(
        "import time\n\n\ndef tiling(total, core_num, ub_size, dtype):\n"
        + ("    while True:\n        pass\n" if how == "loops" else "    time.sleep(1e6)\n"))
    code, out, err = _check_kernel(capsys, CHECK_KERNEL / "leaky_relu_fixture.cpp",
                                   *LEAKY_FIXTURE, "--tiling-function",
                                   f"{tmp_path / 'tiling.py'}:tiling", "--timeout", "1",
                                   "--build-timeout", "600")  # a loaded machine's preprocessing
    assert (code, out) == (1, "")
    assert err == (f"hswc-check-kernel: error: {tmp_path / 'tiling.py'}:tiling(1048576, 4, "
                   "16384, 'f16') did not finish within 1 s (--timeout): a tiling function "
                   "that never returns?\n")


def test_a_tiling_function_off_the_main_thread_is_stopped_too() -> None:
    import threading

    from hswc.checker.time_limits import TimedOut, call_within

    def spin() -> None:
        while True:
            pass

    caught: list[BaseException] = []

    def call() -> None:
        try:
            call_within(0.5, spin)
        except TimedOut as error:
            caught.append(error)

    thread = threading.Thread(target=call)
    thread.start()
    thread.join(30)
    assert not thread.is_alive() and str(caught[0]) == "did not finish within 0.5 s"
    # The spinning thread was asked to stop: it does at its next bytecode.
    import time

    for _ in range(200):
        if not any(t.name == "tiling-function" for t in threading.enumerate()):
            break
        time.sleep(0.05)
    assert not any(t.name == "tiling-function" for t in threading.enumerate())


def test_the_op_folders_tiling_run_takes_the_timeout(tmp_path: Path) -> None:
    """Issue 40: an op folder's C++ tiling stopped after a fixed 60 s whatever --timeout said.
    The built tiling harness stands here as a program that never returns."""
    import time

    from hswc.checker import host_tiling
    from hswc.checker.errors import CheckError
    from hswc.checker.op_folder import Folder
    from hswc.checker.time_limits import limits

    never = tmp_path / "op_tiling"
    never.write_text("#!/bin/sh\nexec sleep 1000\n")
    never.chmod(0o755)
    op = host_tiling.OpDefinition("Spin", inputs=[("x", (1,))], outputs=[("y", (1,))])
    folder = Folder(tmp_path, "ascend910b", (), (tmp_path / "spin_tiling.cpp",), ())
    tiling = host_tiling.HostTiling(never, op, folder, [], {}, None, "ascend910b")
    start = time.monotonic()
    with limits(run=1.5), pytest.raises(CheckError) as caught:
        tiling.launch(129, "f16", 4, 16384)
    assert time.monotonic() - start < 10
    assert str(caught.value) == (f"Spin's tiling ({tmp_path / 'spin_tiling.cpp'}) for 129 f16 "
                                 "elements did not finish within 1.5 s (--timeout): a tiling "
                                 "that never returns?")


def test_check_kernel_notes_come_from_the_kernels_own_sources(capsys: Capsys,
                                                            tmp_path: Path) -> None:
    """Issue 40: the notes about Div and Exp came from sigmoid_fixture.cpp beside the kernel
    (the checker read every file of its folder); they come from what the build compiles."""
    from hswc.checker.check import plan
    from hswc.checker.options import CheckOptions

    leaky = plan(CheckOptions(kernel=str(CHECK_KERNEL / "leaky_relu_fixture.cpp"),
                              op="hsg.leaky_relu", attrs={"negative_slope": "0.2"},
                              tiling={None: ["negativeSlope=0.2"]},
                              tiling_function=f"{CHECK_KERNEL / 'fixture_tiling.py'}:one_input",
                              core_num=4, ub_size=16384, sizes=(300,), dtypes=("f16",)))
    sigmoid = plan(CheckOptions(kernel=str(CHECK_KERNEL / "sigmoid_fixture.cpp"),
                                op="hsg.sigmoid",
                                tiling_function=f"{CHECK_KERNEL / 'fixture_tiling.py'}:one_input",
                                core_num=4, ub_size=16384, sizes=(300,), dtypes=("f32",)))
    try:
        assert not [n for n in leaky.report.notes if "Div" in n or "Exp" in n]
        assert [n.split(":")[0] for n in sigmoid.report.notes if "Div" in n or "Exp" in n] == [
            "the kernel calls Div", "the kernel calls Exp"]
    finally:
        leaky.cleanup()
        sigmoid.cleanup()


RAW_POINTER_KERNEL = """\
#include "kernel_operator.h"

struct RawTiling {
    int64_t totalNum;
    int64_t blockFactor;
    float negativeSlope;
    int64_t mistake;
};

extern "C" __global__ __aicore__ void raw_store(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(RawTiling, t, tiling);
    const int64_t start = AscendC::GetBlockIdx() * t.blockFactor;
    const int64_t end = start + t.blockFactor < t.totalNum ? start + t.blockFactor : t.totalNum;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), t.totalNum);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), t.totalNum);
    for (int64_t i = start; i < end; ++i) {
        const float v = xGm.GetValue(i);
        yGm.SetValue(i, v > 0.0f ? v : v * t.negativeSlope);
    }
    if (t.mistake == 1 && end == t.totalNum) {
        reinterpret_cast<__gm__ float*>(y)[t.totalNum + 2] = 1.0f;  // 3 elements past y
    }
    if (t.mistake == 2) {
        volatile float before = reinterpret_cast<__gm__ float*>(x)[start - 1];
        (void)before;
    }
}
"""
RAW_TILING = """\
def tiling(total, core_num, ub_size, dtype):
    block = -(-total // core_num)
    return {"totalNum": total, "blockFactor": block, "negativeSlope": 0.5,
            "block_dim": -(-total // block)}
"""


@pytest.fixture(scope="module")
def raw_kernel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The kernel and its tiling in one folder for the module (one build, from the run's build
    cache after the first)."""
    folder = tmp_path_factory.mktemp("raw_pointer")
    (folder / "raw_store.cpp").write_text(RAW_POINTER_KERNEL)
    (folder / "tiling.py").write_text(RAW_TILING)
    return folder


@pytest.mark.parametrize(("mistake", "rules"), [
    (0, []),
    (1, ["n=100: GM: a store through a raw pointer at byte 8 past the end of output 0 (y) (400 "
         "bytes; 4 bytes changed): outside every GM tensor of the launch", "n=1024: GM: a load "
         "or store through a raw pointer at byte 8 past the end of output 0 (y) (4096 bytes): "
         "outside every GM tensor of the launch"]),
    (2, ["n=100: GM: a load or store through a raw pointer at 4 bytes before the start of "
         "input 0 (x): outside every GM tensor of the launch", "n=1024: GM: a load or store "
         "through a raw pointer at 4 bytes before the start of input 0 (x): outside every GM "
         "tensor of the launch"]),
], ids=["in-bounds", "store-past-y", "load-before-x"])
def test_check_kernel_finds_a_raw_pointer_outside_every_gm_tensor(
        mistake: int, rules: list[str], raw_kernel: Path) -> None:
    """Issue 40: a hand-written kernel storing through a raw __gm__ pointer 3 elements past y
    got "PASS ... broke no rule". Each GM tensor of the harness now lies between guard pages:
    the store past y's end (into the bytes after y, or its guard page when y ends on a page)
    and the load before x's start are rules broken, naming the tensor, the byte and the
    block."""
    from hswc.checker.check import check
    from hswc.checker.options import CheckOptions

    report = check(CheckOptions(
        kernel=str(raw_kernel / "raw_store.cpp"), op="hsg.leaky_relu",
        attrs={"negative_slope": "0.5"}, tiling={None: [f"mistake={mistake}"]},
        tiling_function=f"{raw_kernel / 'tiling.py'}:tiling", dtypes=("f32",), core_num=4,
        sizes=(100, 1024)))
    found = [f"n={o.size}: {v.api}: {v.rule}" for o in report.outcomes for v in o.violations]
    assert [r.split(" (the model checks")[0] for r in found] == rules
    assert report.passed == (mistake == 0)


def test_an_internal_failure_of_hswc_emit_is_one_line(capsys: Capsys, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """hswc-emit printed a Python traceback for an exception of its own code (hswc-opt and
    hswc-run say `internal error: ...` in one line); a stand-in bug in the package writer."""
    import hswc.backend.package

    def broken(*_: object, **__: object) -> None:
        raise AssertionError("a bug")

    monkeypatch.setattr(hswc.backend.package, "write_package", broken)
    code, out, err = run(capsys, "hswc-emit", EXAMPLES / "hard_swish_grad.mlir", "-o",
                         tmp_path / "p")
    assert (code, out, err) == (1, "", "internal error: AssertionError: a bug\n")
