"""hswc-run's and hswc-emit's lowerings check the IR as hswc-opt does (hswc.pass_checks): once,
after the last pass, and should that check or a pass fail, the passes run again with a check
after each, so the error is the one of the first pass whose output does not verify (never a
later pass's internal error, never what a later pass made of the broken IR)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from test_verify_each import TripOverItPass
from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import FloatAttr, ModuleOp, f16, f32
from xdsl.passes import ModulePass

import hswc.pass_checks
from hswc import runner
from hswc.diagnostics import OpError
from hswc.interpreter.errors import CompileError
from hswc.pass_checks import apply_checked, checked_once, trusted
from hswc.pipeline import context
from hswc.runner import compile_text
from hswc.tools import hswc_emit
from hswc.verification_cache import VerifiedOps

TEXT = """\
#map = affine_map<(d0) -> (d0)>
func.func @f(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  func.return %r : tensor<64xf32>
}
"""

BROKEN = ("'arith.addf' result 'result' at position 0 does not verify: attribute f32 expected "
          "from variable 'T', but got f16")
"""What the op BreakAnOpPass builds fails with."""


@dataclass(frozen=True)
class BreakAnOpPass(ModulePass):
    """Broken on purpose: builds, in @f, an arith.addf of f32 operands whose result is f16."""

    name = "test-break-an-op"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        f = next(o for o in op.ops if isinstance(o, func.FuncOp) and o.sym_name.data == "f")
        ret = f.body.block.last_op
        assert ret is not None
        one = arith.ConstantOp(FloatAttr(1.0, f32))
        built = arith.AddfOp(one.result, one.result)
        built.result._type = f16  # pyright: ignore[reportPrivateUsage]
        f.body.block.insert_ops_before([one, built], ret)


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of ops each check of hswc.pass_checks verified again, in order."""
    made: list[int] = []
    real = hswc.pass_checks.verify_located

    def counted(module: ModuleOp, verified: Any = None) -> None:
        made.append(len(verified.changed(module)) if verified is not None else -1)
        real(module, verified)

    monkeypatch.setattr(hswc.pass_checks, "verify_located", counted)
    return made


def _with(monkeypatch: pytest.MonkeyPatch, *inserted: ModulePass, at: int = 2) -> None:
    """hswc-run's lowering (runner._passes) with `inserted` after its first `at` passes."""
    real = runner._passes  # pyright: ignore[reportPrivateUsage]

    def passes(*args: Any, **kwargs: Any) -> list[ModulePass]:
        found = real(*args, **kwargs)
        return [*found[:at], *inserted, *found[at:]]

    monkeypatch.setattr(runner, "_passes", passes)


def test_hswc_run_checks_once_after_the_last_pass(checks: list[int]) -> None:
    kernel = compile_text(TEXT, name="in.mlir")
    assert len(checks) == 1, checks  # not one a pass, of which there are several
    assert checks[0] > 0
    assert any(op.name == "hsg.launch" for op in kernel.module.walk())


def test_hswc_run_reports_the_pass_that_broke_the_ir(monkeypatch: pytest.MonkeyPatch,
                                                     checks: list[int]) -> None:
    _with(monkeypatch, BreakAnOpPass())
    with pytest.raises(CompileError) as caught:
        compile_text(TEXT, name="in.mlir")
    assert BROKEN in str(caught.value) and str(caught.value).count("error") == 1, caught.value
    # the check after the last failed, then the passes ran again, checked after each up to the
    # broken one (the first two of the pipeline, then it)
    assert len(checks) == 1 + 3, checks


def test_hswc_run_reports_the_broken_ir_not_a_later_internal_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _with(monkeypatch, BreakAnOpPass(), TripOverItPass())
    with pytest.raises(CompileError) as caught:
        compile_text(TEXT, name="in.mlir")
    assert BROKEN in str(caught.value), caught.value
    # with nothing broken before it, the pass's own failure is what there is to report
    _with(monkeypatch, TripOverItPass(), at=1)
    with pytest.raises(AssertionError, match="an f16 result"):
        compile_text(TEXT, name="in.mlir")


def _emit_with(monkeypatch: pytest.MonkeyPatch, inserted: dict[str, ModulePass]) -> None:
    """hswc-emit's lowering with each pass of `inserted` applied right after the pass it is
    keyed by."""
    real = hswc_emit._pass  # pyright: ignore[reportPrivateUsage]

    @dataclass(frozen=True)
    class Then(ModulePass):
        first: ModulePass
        then: ModulePass

        def apply(self, ctx: Context, op: ModuleOp) -> None:
            self.first.apply(ctx, op)
            self.then.apply(ctx, op)

    def made(name: str, *args: Any) -> ModulePass:
        found = real(name, *args)
        if name not in inserted:
            return found
        then = Then(found, inserted[name])
        object.__setattr__(then, "name", name)
        return then

    monkeypatch.setattr(hswc_emit, "_pass", made)


def test_hswc_emit_checks_once_after_the_last_pass(checks: list[int]) -> None:
    lowered = hswc_emit.lower(TEXT, "in.mlir")
    assert len(checks) == 1, checks
    assert lowered.bodies  # the step around hsg-tile-on-cores still saw its kernels


def test_hswc_emit_reports_the_pass_that_broke_the_ir(monkeypatch: pytest.MonkeyPatch,
                                                      checks: list[int]) -> None:
    names = list(hswc_emit.LOWER_TO_ASCEND)
    broken = names.index("hsg-fuse-elementwise")
    _emit_with(monkeypatch, {names[broken]: BreakAnOpPass(), names[broken + 1]: TripOverItPass()})
    with pytest.raises(OpError) as caught:
        hswc_emit.lower(TEXT, "in.mlir")
    assert BROKEN in str(caught.value), caught.value
    assert str(caught.value).startswith("in.mlir:2:1: error:"), caught.value  # at @f
    # the check after the last pass (TripPass failed first: none), then one a pass up to the
    # broken one
    assert len(checks) == broken + 1, checks


def test_the_policy_runs_again_only_on_a_late_failure_or_an_internal_error() -> None:
    runs: list[bool] = []

    def lowering(fail: Callable[[bool], None]) -> Callable[[bool], None]:
        def lower(each: bool) -> None:
            runs.append(each)
            fail(each)
        return lower

    checked_once(lowering(lambda each: None))
    assert runs == [False]
    runs.clear()

    def diagnostic(each: bool) -> None:
        raise OpError(ModuleOp([]), "a pass's own diagnostic")

    with pytest.raises(OpError, match="own diagnostic"):  # final as it is: not run again
        checked_once(lowering(diagnostic))
    assert runs == [False]
    runs.clear()

    def late(each: bool) -> None:
        if not each:
            raise hswc.pass_checks.LateFailure(OpError(ModuleOp([]), "late"))

    with pytest.raises(OpError, match="late"):  # the second run passing: the first failure
        checked_once(lowering(late))
    assert runs == [False, True]


@dataclass(frozen=True)
class AddAConstantPass(ModulePass):
    """Adds a valid arith.constant at the start of @f."""

    name = "test-add-a-constant"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        f = next(o for o in op.ops if isinstance(o, func.FuncOp))
        f.body.block.insert_op_before(arith.ConstantOp(FloatAttr(1.0, f32)),
                                      f.body.block.first_op)  # type: ignore[arg-type]


def test_a_trusted_clone_verifies_only_what_changes_after_it(checks: list[int]) -> None:
    module = hswc_emit.LocatingParser(context(), TEXT, "in.mlir").parse_module()
    copies: list[ModuleOp] = []

    def fresh() -> tuple[ModuleOp, VerifiedOps]:
        copies.append(module.clone())
        return copies[-1], trusted(copies[-1])

    assert apply_checked([], Context(), fresh) is copies[0]
    assert checks == []  # no pass: nothing to check
    lowered = apply_checked([AddAConstantPass()], Context(), fresh)
    assert lowered is copies[1] and len(copies) == 2  # checked once, not run again
    # the constant, then what encloses it (@f, the module): not the generic and its body
    assert checks == [3], checks
    assert sum(1 for _ in lowered.walk()) == 8  # of 8 ops
