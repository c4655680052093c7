"""The checks after each pass verify what changed since the ops last verified, and what reads
it, and skip the rest (hswc.verification_cache): an edit to an op, to an op nested in it, to
the parent a terminator checks itself against, or to the op a user reads is verified again
and refused at its location."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import FloatAttr, FunctionType, ModuleOp, f16, f32
from xdsl.ir import Operation

from hswc.diagnostics import LocatingParser, OpError
from hswc.pipeline import DIALECTS
from hswc.verification import verify_located
from hswc.verification_cache import VerifiedOps

TEXT = """\
func.func @f(%x: f32, %y: f32) -> f32 {
  %s = arith.addf %x, %y : f32
  %p = arith.mulf %s, %y : f32
  func.return %p : f32
}
func.func @g(%t: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%t : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}
"""


def _module() -> ModuleOp:
    ctx = Context()
    for name, factory in DIALECTS.items():
        ctx.register_dialect(name, factory)
    return LocatingParser(ctx, TEXT, "cache.mlir").parse_module()


@pytest.fixture
def verified_counts(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """How many times each op name's verifier ran."""
    counts: Counter[str] = Counter()
    original = Operation.verify

    def counting(self: Operation, verify_nested_ops: bool = True) -> None:
        counts[self.name] += 1
        original(self, verify_nested_ops)

    monkeypatch.setattr(Operation, "verify", counting)
    yield counts


def _op(module: ModuleOp, name: str) -> Operation:
    return next(op for op in module.walk() if op.name == name)


def test_unchanged_ops_are_not_verified_again(verified_counts: Counter[str]) -> None:
    module = _module()
    verified = VerifiedOps()
    verify_located(module, verified)
    assert verified_counts["arith.addf"] == 1 and verified_counts["linalg.generic"] == 1
    verified_counts.clear()
    verify_located(module, verified)
    assert sum(verified_counts.values()) == 0  # nothing verified again


def test_a_changed_op_and_what_encloses_it_verify_again(
        verified_counts: Counter[str]) -> None:
    module = _module()
    verified = VerifiedOps()
    verify_located(module, verified)
    verified_counts.clear()
    negf = _op(module, "arith.negf")
    negf.attributes["fastmath_probe"] = negf.operands[0].type  # any edit of the op
    verify_located(module, verified)
    # the op, its result's user (linalg.yield) and what encloses them
    assert verified_counts == Counter({"arith.negf": 1, "linalg.yield": 1, "linalg.generic": 1,
                                       "func.func": 1, "builtin.module": 1})


def test_an_operand_of_the_wrong_type_is_refused_after_an_edit() -> None:
    module = _module()
    verified = VerifiedOps()
    verify_located(module, verified)
    mulf = _op(module, "arith.mulf")
    const = arith.ConstantOp(FloatAttr(1.0, f16))
    mulf.parent_block().insert_op_before(const, mulf)  # type: ignore[union-attr]
    mulf.operands[1] = const.result  # f16 into an f32 multiplication
    with pytest.raises(OpError, match=r"arith\.mulf"):
        verify_located(module, verified)


def test_a_terminator_is_checked_again_when_its_parent_changes() -> None:
    module = _module()
    verified = VerifiedOps()
    verify_located(module, verified)
    f = _op(module, "func.func")
    assert isinstance(f, func.FuncOp)
    f.function_type = FunctionType.from_lists([f32, f32], [f16])  # the return still says f32
    with pytest.raises(OpError, match=r"func\.return"):
        verify_located(module, verified)


def test_a_new_op_verifies_with_what_encloses_it(verified_counts: Counter[str]) -> None:
    module = _module()
    verified = VerifiedOps()
    verify_located(module, verified)
    verified_counts.clear()
    mulf = _op(module, "arith.mulf")
    const = arith.ConstantOp(FloatAttr(1.0, f32))
    mulf.parent_block().insert_op_before(const, mulf)  # type: ignore[union-attr]
    verify_located(module, verified)
    assert verified_counts == Counter({"arith.constant": 1, "func.func": 1,
                                       "builtin.module": 1})


def test_a_block_left_without_its_terminator_is_refused() -> None:
    module = _module()
    verified = VerifiedOps()
    verify_located(module, verified)
    yield_op = _op(module, "linalg.yield")
    yield_op.detach()  # the linalg.generic's body now ends in arith.negf
    with pytest.raises(OpError, match=r"cache\.mlir:12:5: .*'arith\.negf'.* is not a terminator"):
        verify_located(module, verified)


def test_the_user_of_a_changed_op_verifies_again(verified_counts: Counter[str]) -> None:
    """A verifier may read an operand's defining op (ascend's constant_index): the users of an
    op that changed verify again although their own operands are the same values."""
    module = _module()
    verified = VerifiedOps()
    verify_located(module, verified)
    verified_counts.clear()
    addf = _op(module, "arith.addf")
    addf.attributes["probe"] = f32
    verify_located(module, verified)
    assert verified_counts["arith.mulf"] == 1  # the user of %s
    assert verified_counts["func.return"] == 0  # it uses %p, not %s


NESTED = """\
func.func @h(%c: i1, %x: f32) {
  scf.if %c {
    %t = arith.constant true
    scf.if %t {
      %n = arith.negf %x : f32
    }
  }
  func.return
}
func.func @k(%c: i1) {
  func.return
}
"""


@pytest.fixture
def incremental_isolation(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tools' IsolatedFromAbove check (hswc.tools.fast_op_verify): a function verified
    again only because it encloses what changed is checked on what changed in it."""
    from xdsl.traits import IsolatedFromAbove

    from hswc.tools.fast_op_verify import isolated_verify

    monkeypatch.setattr(IsolatedFromAbove, "verify", isolated_verify)


def _nested_module() -> ModuleOp:
    ctx = Context()
    for name, factory in DIALECTS.items():
        ctx.register_dialect(name, factory)
    return LocatingParser(ctx, NESTED, "nested.mlir").parse_module()


def _function(module: ModuleOp, name: str) -> func.FuncOp:
    return next(op for op in module.walk()
                if isinstance(op, func.FuncOp) and op.sym_name.data == name)


def test_an_operand_from_another_function_is_refused(incremental_isolation: None) -> None:
    module = _nested_module()
    verified = VerifiedOps()
    verify_located(module, verified)
    negf = _op(module, "arith.negf")
    negf.operands[0] = _function(module, "k").args[0]  # @k's i1 in @h: outside @h
    with pytest.raises(OpError, match=r"nested\.mlir:1:1: .*IsolatedFromAbove"):
        verify_located(module, verified)


def test_ops_deep_in_an_op_moved_into_a_function_are_checked(incremental_isolation: None,
                                                            verified_counts: Counter[str]
                                                            ) -> None:
    """The outer scf.if moved from @h into @k: the arith.negf two levels down, unchanged
    itself, reads @h's %x, which @k's isolation check finds (as the full one does), not only
    the dominance check after it."""
    module = _nested_module()
    verified = VerifiedOps()
    verify_located(module, verified)
    outer = _op(module, "scf.if")
    k = _function(module, "k")
    outer.detach()
    k.body.block.insert_op_before(outer, k.body.block.last_op)  # type: ignore[arg-type]
    outer.operands[0] = k.args[0]
    verified_counts.clear()
    with pytest.raises(OpError, match=r"nested\.mlir:10:1: .*IsolatedFromAbove"):
        verify_located(module, verified)


def test_an_enclosing_function_is_not_walked_again(incremental_isolation: None,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A change inside @h verifies @h again without xDSL's walk of all of it."""
    from xdsl.traits import IsolatedFromAbove

    from hswc.tools import fast_op_verify

    module = _nested_module()
    verified = VerifiedOps()
    verify_located(module, verified)
    walked: list[str] = []
    original = fast_op_verify.xdsl_isolated_verify

    def counting(self: IsolatedFromAbove, op: Operation) -> None:
        walked.append(op.name)
        original(self, op)

    monkeypatch.setattr(fast_op_verify, "xdsl_isolated_verify", counting)
    negf = _op(module, "arith.negf")
    negf.attributes["probe"] = f32
    verify_located(module, verified)
    assert walked == []
