"""hswc.dominance against MLIR's rule, case by case, in single- and multi-block regions.

The check settles most uses with a set of the values in scope and sends the rest to the exact
walk up the enclosing ops; these cases exercise both: uses in later blocks of a region that a
block dominates (valid, decided by the walk), in a sibling block it does not dominate, of a
block argument in another block, of an op's own result inside its region, and of values from
enclosing blocks at any depth.
"""

from __future__ import annotations

import pytest
from xdsl.context import Context

from hswc.diagnostics import LocatingParser, OpError
from hswc.pipeline import DIALECTS
from hswc.verification import verify_located

DIAMOND = """func.func @f(%c: i1, %a: f32) -> f32 {
  %b = arith.addf %a, %a : f32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %d = arith.addf %b, %a : f32
  cf.br ^bb3(%d : f32)
^bb2:
  cf.br ^bb3(%b : f32)
^bb3(%r: f32):
  %e = arith.addf %r, %b : f32
  func.return %e : f32
}
"""

NESTED = """func.func @f(%n: index, %a: f32) -> f32 {
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %s = scf.for %i = %zero to %n step %one iter_args(%acc = %a) -> (f32) {
    %t = arith.addf %acc, %a : f32
    %u = scf.for %j = %zero to %i step %one iter_args(%in = %t) -> (f32) {
      %v = arith.addf %in, %t : f32
      scf.yield %v : f32
    }
    scf.yield %u : f32
  }
  func.return %s : f32
}
"""


def _verify(text: str) -> None:
    ctx = Context()
    for name, factory in DIALECTS.items():
        ctx.register_dialect(name, factory)
    verify_located(LocatingParser(ctx, text, "in.mlir", 0).parse_module())


@pytest.mark.parametrize("text", [DIAMOND, NESTED], ids=["dominating blocks", "nested regions"])
def test_valid_uses_pass(text: str) -> None:
    _verify(text)


@pytest.mark.parametrize(("name", "text", "where", "why"), [
    ("sibling block", DIAMOND.replace("cf.br ^bb3(%b : f32)", "cf.br ^bb3(%d : f32)"),
     "in.mlir:8:3: error: 'cf.br' operand 0 (%d)",
     "it is defined by 'arith.addf' at in.mlir:5:3"),
    ("block argument of a later block",
     DIAMOND.replace("%d = arith.addf %b, %a", "%d = arith.addf %r, %a"),
     "in.mlir:5:3: error: 'arith.addf' operand 0 (%r)",
     "it is an argument of a block that does not enclose this op"),
    ("own result in its region",
     NESTED.replace("%v = arith.addf %in, %t", "%v = arith.addf %in, %u"),
     "in.mlir:7:7: error: 'arith.addf' operand 1 (%u)",
     "it is defined by 'scf.for' at in.mlir:6:5"),
    ("a later op of the enclosing block",
     NESTED.replace("%t = arith.addf %acc, %a", "%t = arith.addf %acc, %s"),
     "in.mlir:5:5: error: 'arith.addf' operand 1 (%s)",
     "it is defined by 'scf.for' at in.mlir:4:3"),
])
def test_uses_that_do_not_dominate_are_refused(name: str, text: str, where: str,
                                               why: str) -> None:
    with pytest.raises(OpError) as error:
        _verify(text)
    assert str(error.value).startswith(where), str(error.value)
    assert str(error.value).endswith(f"does not dominate this use: {why}"), str(error.value)
