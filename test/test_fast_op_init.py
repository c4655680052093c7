"""hswc.tools.fast_op_init builds every op exactly as xDSL's own IRDLOperation.__init__ does.

Op by op: single, variadic and optional groups, properties and attributes given as None, an op
with segment sizes, and the calls it leaves to xDSL (an Operation as an operand, a list of ops
as a region, a wrong count, which fails with xDSL's own message). Whole runs: hswc-opt
--lower-to-ascend of examples (broadcasts, several dtypes, a fused chain) prints, in the generic
form, the same text with either constructor.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from xdsl.dialects import arith, func, memref, scf, test
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    MemRefType,
    StringAttr,
    UnitAttr,
    f32,
    i32,
)
from xdsl.ir import Block, Operation, Region
from xdsl.irdl import IRDLOperation

from hswc.dialects import ascend
from hswc.tools.fast_op_init import fast_init, layout, xdsl_init
from hswc.tools.hswc_opt import main

REPO = Path(__file__).resolve().parent.parent
Build = Callable[[], Operation]


def _shape(op: Operation) -> tuple[Any, ...]:
    """All an op is made of, its regions' blocks and ops by identity of their values."""
    return (type(op), op.name, tuple(op.operands), tuple(r.type for r in op.results),
            dict(op.properties), dict(op.attributes), tuple(op.successors),
            tuple(tuple((tuple(a.type for a in b.args), tuple(o.name for o in b.ops))
                        for b in r.blocks) for r in op.regions))


def _both(monkeypatch: pytest.MonkeyPatch, build: Build) -> tuple[Operation, Operation]:
    monkeypatch.setattr(IRDLOperation, "__init__", xdsl_init)
    slow = build()
    monkeypatch.setattr(IRDLOperation, "__init__", fast_init)
    fast = build()
    return slow, fast


def _values() -> tuple[Any, Any, Any]:
    index = test.TestOp(result_types=[IndexType(), IndexType()])
    gm = test.TestOp(result_types=[MemRefType(f32, [4])])
    return index.results[0], index.results[1], gm.results[0]


A, B, M = _values()
ONE = arith.ConstantOp(IntegerAttr(1, IndexType()))
BLOCK = Block(arg_types=[IndexType()])

BUILDS: dict[str, Build] = {
    "binary": lambda: arith.AddiOp(A, B),
    "constant with a property": lambda: arith.ConstantOp(IntegerAttr(3, IndexType())),
    "compare": lambda: arith.CmpiOp(A, B, "slt"),
    "variadic operands": lambda: func.ReturnOp(A, B),
    "no operands": lambda: func.ReturnOp(),
    "variadic results and regions": lambda: test.TestOp(
        operands=[A], result_types=[IndexType(), f32], regions=[Region(Block())]),
    "successor": lambda: test.TestTermOp(successors=[BLOCK]),
    "None property and attribute": lambda: arith.AddiOp.create(operands=[A, B],
                                                                result_types=[IndexType()]),
    "segment sizes (xDSL's)": lambda: memref.SubviewOp.from_static_parameters(
        M, MemRefType(f32, [4]), [0], [2], [1]),
    "region from ops (xDSL's)": lambda: scf.ForOp(A, B, A, [], [scf.YieldOp()]),
    "an Operation as an operand (xDSL's)": lambda: arith.AddiOp(ONE, B),
    "hswc's own op": lambda: ascend.GetBlockIdxOp(),
}


@pytest.mark.parametrize("name", list(BUILDS))
def test_every_kind_of_op_is_built_as_xdsl_builds_it(monkeypatch: pytest.MonkeyPatch,
                                                     name: str) -> None:
    slow, fast = _both(monkeypatch, BUILDS[name])
    assert _shape(slow) == _shape(fast)


def test_properties_and_attributes_given_as_none_are_left_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def build() -> Operation:
        return test.TestOp(operands=[A], result_types=[i32],
                           properties={"p": None, "q": UnitAttr()},
                           attributes={"a": StringAttr("x"), "b": None})
    slow, fast = _both(monkeypatch, build)
    assert _shape(slow) == _shape(fast)
    assert dict(fast.properties) == {"q": UnitAttr()} and dict(fast.attributes) == {
        "a": StringAttr("x")}


def test_ops_with_options_are_left_to_xdsl() -> None:
    assert layout(memref.SubviewOp) is None  # AttrSizedOperandSegments
    assert layout(arith.AddiOp) == ((0, 0), (0,), (), ())


@pytest.mark.parametrize("call", [
    lambda: arith.AddiOp.build(operands=[A, B, A], result_types=[IndexType()]),
    lambda: arith.AddiOp.build(operands=[A], result_types=[IndexType()]),
    lambda: arith.AddiOp.build(operands=[A, None], result_types=[IndexType()]),
    lambda: func.ReturnOp.build(operands=[[A, 3]]),
])
def test_a_wrong_call_fails_as_in_xdsl(monkeypatch: pytest.MonkeyPatch,
                                       call: Callable[[], object]) -> None:
    monkeypatch.setattr(IRDLOperation, "__init__", xdsl_init)
    with pytest.raises(Exception) as slow:
        call()
    monkeypatch.setattr(IRDLOperation, "__init__", fast_init)
    with pytest.raises(Exception) as fast:
        call()
    assert (type(slow.value), str(slow.value)) == (type(fast.value), str(fast.value))


@pytest.mark.parametrize("example", ["torch_bias_add.mlir", "llama_mlp_f16.mlir",
                                     "ten_op_body.mlir", "hard_swish_grad.mlir"])
def test_a_lowering_prints_the_same_with_either_constructor(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, example: str) -> None:
    monkeypatch.setenv("HSWC_CACHE_DIR", "")  # every schedule chosen: the candidates built
    texts = []
    for init in (xdsl_init, fast_init):
        monkeypatch.setattr(IRDLOperation, "__init__", init)
        out = tmp_path / f"{len(texts)}.mlir"
        assert main([str(REPO / "examples" / example), "--lower-to-ascend",
                     "--print-op-generic", "-o", str(out)]) == 0
        texts.append(out.read_text())
    assert texts[0] == texts[1]
    assert "ascend." in texts[1]
