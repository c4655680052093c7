"""KernelFunctions.ensure: a function equal to one the module holds (attributes and printed
text) gets that one's name; any other gets the first free numbered name. Hand-written cases,
including functions that differ in nothing cheaper than their text (a constant's value, an SSA
name) and one equal to a function further down the numbered names."""

from __future__ import annotations

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr

from hswc.passes import kernel_functions
from hswc.passes.kernel_functions import KernelFunctions
from hswc.pipeline import parse_text

MODULE = """
func.func @host() {
  %a = arith.constant 1 : index
  func.return
}
func.func @f_kernel_f32() {
  %a = arith.constant 1 : index
  func.return
}
func.func @f_1_kernel_f32() {
  %a = arith.constant 2 : index
  func.return
}
"""


def _function(value: int, name: str = "a", mark: str | None = None) -> func.FuncOp:
    module = parse_text(f"""
func.func @f_kernel_f32() {{
  %{name} = arith.constant {value} : index
  func.return
}}""", "new.mlir")
    fn = next(op for op in module.body.block.ops if isinstance(op, func.FuncOp))
    fn.detach()
    if mark is not None:
        fn.attributes["mark"] = StringAttr(mark)
    return fn


def _ensure(table: KernelFunctions, module: ModuleOp, fn: func.FuncOp) -> str:
    host = next(op for op in module.body.block.ops if isinstance(op, func.FuncOp))
    return table.ensure("f_kernel_f32", fn, host)


def test_equal_functions_share_a_name_and_others_are_numbered() -> None:
    module = parse_text(MODULE, "m.mlir")
    table = KernelFunctions(module)
    assert _ensure(table, module, _function(1)) == "f_kernel_f32"
    assert _ensure(table, module, _function(2)) == "f_1_kernel_f32"  # further down
    assert _ensure(table, module, _function(3)) == "f_2_kernel_f32"  # same outline, new text
    assert _ensure(table, module, _function(3)) == "f_2_kernel_f32"  # the one just added
    assert _ensure(table, module, _function(1, name="b")) == "f_3_kernel_f32"  # an SSA name
    assert _ensure(table, module, _function(1, mark="x")) == "f_4_kernel_f32"  # attributes
    assert _ensure(table, module, _function(2)) == "f_1_kernel_f32"
    names = [op.sym_name.data for op in module.body.block.ops if isinstance(op, func.FuncOp)]
    assert names == ["host", "f_kernel_f32", "f_1_kernel_f32", "f_2_kernel_f32",
                     "f_3_kernel_f32", "f_4_kernel_f32"]


def test_functions_of_different_outlines_are_never_printed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    printed: list[str] = []
    real = kernel_functions.function_text

    def counted(fn: func.FuncOp) -> str:
        printed.append(fn.sym_name.data)
        return real(fn)

    monkeypatch.setattr(kernel_functions, "function_text", counted)
    module = parse_text(MODULE, "m.mlir")
    table = KernelFunctions(module)
    fn = _function(1, mark="y")  # attributes differ from every existing function
    assert _ensure(table, module, fn) == "f_2_kernel_f32"
    assert printed == []
