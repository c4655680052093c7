"""hswc.tools.fast_op_verify verifies exactly as xDSL's own OpDef.verify does.

Ops that fail each check xDSL makes (a count, an operand's or a result's constraint, a type
variable shared by operands and result, a property missing or not defined, an attribute's
constraint, a trait, a region or successor where the definition has none) fail with xDSL's
own message; definitions with variadic groups, regions or options are left to xDSL; every op of
a lowered example verifies either way, most of them on the fast path.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from xdsl.dialects import arith, func, memref, scf, test
from xdsl.dialects.builtin import (
    FloatAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    f32,
    i32,
)
from xdsl.ir import Block, Operation, Region
from xdsl.irdl import OpDef
from xdsl.utils.exceptions import VerifyException

from hswc.dialects import ascend
from hswc.pipeline import parse_text
from hswc.tools import fast_op_verify
from hswc.tools.fast_op_verify import fast_verify, simple, xdsl_verify

REPO = Path(__file__).resolve().parent.parent

_values = test.TestOp(result_types=[IndexType(), i32, f32])
X, N, F = _values.results



def _inside_a_test_op(op: Operation) -> Operation:
    test.TestOp(regions=[Region(Block([op]))])
    return op


BAD: dict[str, Callable[[], Operation]] = {
    "too few operands": lambda: arith.AddiOp.create(operands=[X], result_types=[IndexType()]),
    "too many results": lambda: arith.AddiOp.create(operands=[X, X],
                                                    result_types=[IndexType(), IndexType()]),
    "an operand's constraint": lambda: arith.AddiOp.create(operands=[F, F], result_types=[f32]),
    "a type variable": lambda: arith.AddiOp.create(operands=[X, N], result_types=[IndexType()]),
    "a result's constraint": lambda: arith.CmpiOp.create(
        operands=[X, X], result_types=[IndexType()],
        properties={"predicate": IntegerAttr(0, i32)}),
    "a missing property": lambda: arith.ConstantOp.create(result_types=[IndexType()]),
    "a property not defined": lambda: arith.AddiOp.create(
        operands=[X, X], result_types=[IndexType()],
        properties={"overflowFlags": arith.IntegerOverflowAttr("none"),
                    "stray": StringAttr("x")}),
    "a property's constraint": lambda: arith.ConstantOp.create(
        result_types=[IndexType()], properties={"value": StringAttr("x")}),
    "a trait (its parent op)": lambda: _inside_a_test_op(scf.ReduceReturnOp.create(operands=[X])),
    "a trait (constant type)": lambda: arith.ConstantOp.create(
        result_types=[f32], properties={"value": IntegerAttr(1, IndexType())}),
    "a region where none is defined": lambda: arith.AddiOp.create(
        operands=[X, X], result_types=[IndexType()], regions=[Region(Block())]),
    "a float where an integer goes": lambda: arith.ConstantOp.create(
        result_types=[IndexType()], properties={"value": FloatAttr(1.0, f32)}),
}


def _failure(op: Operation) -> tuple[type[BaseException], str] | None:
    try:
        op.verify()
    except (VerifyException, ValueError) as error:
        return type(error), str(error)
    return None


@pytest.mark.parametrize("name", list(BAD))
def test_each_failing_check_fails_with_xdsls_message(monkeypatch: pytest.MonkeyPatch,
                                                      name: str) -> None:
    op = BAD[name]()
    monkeypatch.setattr(OpDef, "verify", xdsl_verify)
    expected = _failure(op)
    monkeypatch.setattr(OpDef, "verify", fast_verify)
    assert expected is not None
    assert _failure(op) == expected


def test_only_definitions_without_groups_regions_or_options_take_the_fast_path() -> None:
    assert simple(arith.AddiOp.get_irdl_definition())
    assert simple(ascend.GetBlockIdxOp.get_irdl_definition())
    assert not simple(func.ReturnOp.get_irdl_definition())  # variadic operands
    assert not simple(scf.ForOp.get_irdl_definition())  # a region
    assert not simple(memref.SubviewOp.get_irdl_definition())  # segment sizes


@pytest.mark.parametrize("example", ["torch_bias_add.mlir", "llama_mlp_f16.mlir"])
def test_every_op_of_a_lowered_example_verifies_either_way(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, example: str) -> None:
    from hswc.tools.hswc_opt import main

    monkeypatch.setenv("HSWC_CACHE_DIR", "")
    out = tmp_path / "lowered.mlir"
    assert main([str(REPO / "examples" / example), "--lower-to-ascend", "-o", str(out)]) == 0
    module = parse_text(out.read_text(), str(out))
    assert isinstance(module, ModuleOp)
    fast = 0
    for verify in (xdsl_verify, fast_verify):
        monkeypatch.setattr(OpDef, "verify", verify)
        for op in module.walk():
            op.verify(verify_nested_ops=False)
            fast += verify is fast_verify and simple(type(op).get_irdl_definition()) \
                if hasattr(type(op), "get_irdl_definition") else 0
    ops = sum(1 for _ in module.walk())
    assert fast > ops // 2, (fast, ops)


def test_install_replaces_xdsls_verify(monkeypatch: pytest.MonkeyPatch) -> None:
    from xdsl.traits import IsolatedFromAbove

    monkeypatch.setattr(OpDef, "verify", xdsl_verify)
    monkeypatch.setattr(IsolatedFromAbove, "verify", fast_op_verify.xdsl_isolated_verify)
    fast_op_verify.install()
    assert OpDef.verify is fast_verify
    assert IsolatedFromAbove.verify is fast_op_verify.isolated_verify
