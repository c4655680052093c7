"""hswc-opt's --verify-each: a pass that builds or changes IR that does not verify is caught by
the default check (only what the passes created or changed: hswc.verification_cache), made once
after the last pass, and reported as a check after each pass reports it (the passes run again
with one after each: the pass that built the failing op named); located as the full
verification locates it; `full` verifies the whole module after each pass, `false` nothing
after the passes."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, ModuleOp, f16
from xdsl.passes import ModulePass

from hswc.pipeline import PASSES
from hswc.tools.hswc_opt import main

TEXT = """\
func.func @f(%x: f32, %y: f32) -> f32 {
  %s = arith.addf %x, %y : f32
  %p = arith.mulf %s, %y : f32
  func.return %p : f32
}
"""

MULF_ERROR = ("in.mlir:3:3: error: 'arith.mulf' operand 'rhs' at position 1 does not verify: "
              "attribute f32 expected from variable 'T', but got f16")
"""What the changed arith.mulf fails with, at its line in the input."""


def _named(module: ModuleOp, name: str) -> arith.FloatingPointLikeBinaryOperation:
    op = next(op for op in module.walk() if op.name == name)
    assert isinstance(op, arith.FloatingPointLikeBinaryOperation)
    return op


@dataclass(frozen=True)
class ChangeAnOperandPass(ModulePass):
    """Broken on purpose: gives the input's arith.mulf an f16 operand (a new constant)."""

    name = "test-change-an-operand"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        mulf = _named(op, "arith.mulf")
        half = arith.ConstantOp(FloatAttr(1.0, f16))
        mulf.parent_block().insert_op_before(half, mulf)  # type: ignore[union-attr]
        mulf.operands[1] = half.result


@dataclass(frozen=True)
class BuildAnOpPass(ModulePass):
    """Broken on purpose: builds an arith.addf of f32 operands whose result is f16."""

    name = "test-build-an-op"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        addf = _named(op, "arith.addf")
        built = arith.AddfOp(addf.lhs, addf.rhs)
        built.result._type = f16  # pyright: ignore[reportPrivateUsage]
        addf.parent_block().insert_op_after(built, addf)  # type: ignore[union-attr]


@dataclass(frozen=True)
class TripOverItPass(ModulePass):
    """Broken on purpose: fails as a pass does that meets IR an earlier pass broke."""

    name = "test-trip-over-it"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        raise AssertionError("an f16 result where f32 was expected")


@pytest.fixture
def broken_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    for broken in (ChangeAnOperandPass, BuildAnOpPass, TripOverItPass):
        monkeypatch.setitem(PASSES, broken.name, lambda broken=broken: broken)


def _run(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    source = tmp_path / "in.mlir"
    source.write_text(TEXT)
    code = main([str(source), *args])
    captured = capsys.readouterr()
    return code, captured.err if code else captured.out


@pytest.mark.parametrize("mode", ["true", "full"])
def test_a_pass_changing_an_op_into_an_invalid_one_is_caught_at_the_op(
        broken_passes: None, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        mode: str) -> None:
    code, err = _run(tmp_path, capsys, "-p", "hsg-fold-slices,test-change-an-operand,"
                     "hsg-fold-reshapes", f"--verify-each={mode}")
    assert code == 1
    assert err.count("error") == 1
    assert MULF_ERROR in err, err
    assert "f16" in err, err


@pytest.mark.parametrize("mode", ["true", "full"])
def test_a_pass_building_an_invalid_op_is_caught(
        broken_passes: None, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        mode: str) -> None:
    code, err = _run(tmp_path, capsys, "-p", "test-build-an-op", f"--verify-each={mode}")
    assert code == 1
    # at the function it is in (the op has no location of its own), naming the pass
    assert err.endswith("in.mlir:1:1: error: 'arith.addf' result 'result' at position 0 does "
                        "not verify: attribute f32 expected from variable 'T', but got f16 "
                        "(built by pass 'test-build-an-op')\n"), err


BUILT_BY = ("in.mlir:1:1: error: 'arith.addf' result 'result' at position 0 does not verify: "
            "attribute f32 expected from variable 'T', but got f16 (built by pass "
            "'test-build-an-op')\n")


def test_the_check_made_once_at_the_end_names_the_pass_that_built_the_op(
        broken_passes: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the default check runs after the last pass; its failure runs the passes again with a
    # check after each, which names the second pass of three, not the last
    code, err = _run(tmp_path, capsys, "-p", "hsg-fold-slices,test-build-an-op,"
                     "hsg-fold-reshapes")
    assert code == 1 and err.endswith(BUILT_BY) and err.count("error") == 1, err


def test_a_pass_failing_on_ir_an_earlier_pass_broke_reports_the_earlier_pass(
        broken_passes: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # as a check after each pass would: the broken op, not the later pass's internal error
    code, err = _run(tmp_path, capsys, "-p", "test-build-an-op,test-trip-over-it")
    assert code == 1 and err.endswith(BUILT_BY) and "internal error" not in err, err
    # with nothing broken before it, the internal error is what there is to report
    code, err = _run(tmp_path, capsys, "-p", "hsg-fold-slices,test-trip-over-it")
    assert code == 1 and "internal error: AssertionError: an f16 result" in err, err


def test_the_last_pass_is_checked_too(broken_passes: None, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _run(tmp_path, capsys, "-p", "test-change-an-operand")
    assert code == 1 and MULF_ERROR in err, err


def test_verify_each_false_checks_nothing_after_the_passes(
        broken_passes: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(tmp_path, capsys, "-p", "test-change-an-operand", "--verify-each=false")
    assert code == 0
    assert "arith.mulf %s, %0 : f32" in out or "arith.mulf" in out, out


def test_verify_each_takes_three_values(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _run(tmp_path, capsys, "--verify-each=sometimes")
    assert code == 1 and "--verify-each" in err and "'true', 'full', 'false'" in err, err
