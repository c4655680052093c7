"""The ops-nn reductions no named hsg op computes, as the linalg.generics their definitions
write: the reference kind `--op <name>` for a row reduction (the sweep's ROW_GENERIC_FOLDERS).

Each `RowGeneric` is a function of linalg.generics with reduction iterators, written for
tensors of [rows, L] (hswc.checker.halves' kinds: "x" [rows, L], "row" [rows], "column" [L],
"one" [1]) from the op's definition (op_graph/*_proto.h, README.md) and its attributes'
defaults (op_host/*_def.cpp: the last dim reduced). f16 and bf16 inputs are widened exactly, the
work is done in f32 (the accumulation ops-nn's kernels and PyTorch use) and each result is
rounded once to the run's dtype. `module_text` writes it for one run's shape and hswc's
interpreter runs it (`outputs`), as hswc.checker.quantized's generic. Results are compared
within PyTorch's tolerance: the order of a sum is the kernel's own.

    confusion_softmax_grad   y = grad - sum(grad * x, -1)
    softmax_grad_ext         y = (grad - sum(grad * x1, -1)) * x1 * x2, x2 one element
    softmax_cross_entropy_with_logits
                             loss = sum(labels * (log(sum(exp(f - max f))) - (f - max f)), -1),
                             backprop = softmax(f) - labels (TensorFlow's op; f = features)
    p_relu_grad_reduce       da = sum(updates, 0): PReluGradUpdate's per-element update summed
                             over every dim but the channel (x of [N, C], weights of [C]; its
                             tiling's axes, op_host/arch35/prelu_grad_reduce_tiling_arch35.cpp:
                             a 1-d weight of C keeps dim 1)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

MAPS = """#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#row = affine_map<(d0, d1) -> (d0)>
#one = affine_map<(d0, d1) -> (0)>
#v = affine_map<(d0) -> (d0)>
"""
SHAPES = {"x": "{r}x{l}", "row": "{r}", "column": "{l}", "one": "1"}
"""hswc.checker.halves' kind -> the static shape written for a run of [r, l]."""


@dataclass(frozen=True)
class Shape:
    """One run's tensors: rows, L, the element type."""

    rows: int
    length: int
    element: str

    def tensor(self, kind: str, element: str | None = None) -> str:
        dims = SHAPES[kind].format(r=self.rows, l=self.length)
        return f"tensor<{dims}x{element or self.element}>"

    def f32(self, name: str) -> tuple[str, str]:
        """(a line widening block argument %name to f32 or nothing, the f32 value)."""
        if self.element == "f32":
            return "", f"%{name}"
        return f"      %{name}_f = arith.extf %{name} : {self.element} to f32\n", f"%{name}_f"

    def narrowed(self, value: str) -> str:
        """Lines yielding the f32 `value` in the run's element type."""
        if self.element == "f32":
            return f"      linalg.yield {value} : f32"
        return (f"      %n = arith.truncf {value} : f32 to {self.element}\n"
                f"      linalg.yield %n : {self.element}")


@dataclass(frozen=True)
class RowGeneric:
    name: str
    inputs: tuple[tuple[str, str], ...]
    """(input, kind), in the definition's order."""
    outputs: tuple[str, ...]
    """Each output's kind."""
    formula: str
    body: Callable[[Shape], str]
    """The function's body (after its signature, before its return) and its return line."""

    @property
    def input_names(self) -> tuple[str, ...]:
        return tuple(n for n, _ in self.inputs)

    @property
    def kinds(self) -> dict[str, str]:
        return dict(self.inputs)


def _row_sum(s: Shape, result: str, a: str, b: str | None = None) -> str:
    """%result: tensor of [rows] f32 = sum along L of %a (times %b), f32 accumulation."""
    ins = f"%{a}" + (f", %{b}" if b else "")
    types = ", ".join([s.tensor("x")] * (2 if b else 1))
    wa, fa = s.f32("a")
    wb, fb = s.f32("b") if b else ("", "")
    term = f"      %t = arith.mulf {fa}, {fb} : f32\n" if b else ""
    value = "%t" if b else fa
    args = f"%a: {s.element}" + (f", %b: {s.element}" if b else "")
    return f"""  %{result}_e = tensor.empty() : {s.tensor("row", "f32")}
  %{result}_z = linalg.fill ins(%zero : f32) outs(%{result}_e : {s.tensor("row", "f32")})
      -> {s.tensor("row", "f32")}
  %{result} = linalg.generic {{indexing_maps = [{", ".join(["#id"] * (2 if b else 1))}, #row],
      iterator_types = ["parallel", "reduction"]}}
      ins({ins} : {types}) outs(%{result}_z : {s.tensor("row", "f32")}) {{
    ^bb0({args}, %acc: f32):
{wa}{wb}{term}      %s = arith.addf %acc, {value} : f32
      linalg.yield %s : f32
  }} -> {s.tensor("row", "f32")}
"""


def _confusion_softmax_grad(s: Shape) -> str:
    wg, fg = s.f32("g")
    return _row_sum(s, "sum", "grad", "x") + f"""  %ye = tensor.empty() : {s.tensor("x")}
  %y = linalg.generic {{indexing_maps = [#id, #row, #id],
      iterator_types = ["parallel", "parallel"]}}
      ins(%grad, %sum : {s.tensor("x")}, {s.tensor("row", "f32")}) outs(%ye : {s.tensor("x")}) {{
    ^bb0(%g: {s.element}, %p: f32, %o: {s.element}):
{wg}      %d = arith.subf {fg}, %p : f32
{s.narrowed("%d")}
  }} -> {s.tensor("x")}
  func.return %y : {s.tensor("x")}
"""


def _softmax_grad_ext(s: Shape) -> str:
    wg, fg = s.f32("g")
    wa, fa = s.f32("a")
    wc, fc = s.f32("c")
    x, one = s.tensor("x"), s.tensor("one")
    return _row_sum(s, "sum", "grad", "x1") + f"""  %ye = tensor.empty() : {x}
  %y = linalg.generic {{indexing_maps = [#id, #id, #one, #row, #id],
      iterator_types = ["parallel", "parallel"]}}
      ins(%grad, %x1, %x2, %sum : {x}, {x}, {one}, {s.tensor("row", "f32")}) outs(%ye : {x}) {{
    ^bb0(%g: {s.element}, %a: {s.element}, %c: {s.element}, %p: f32, %o: {s.element}):
{wg}{wa}{wc}      %d = arith.subf {fg}, %p : f32
      %m = arith.mulf %d, {fa} : f32
      %v = arith.mulf %m, {fc} : f32
{s.narrowed("%v")}
  }} -> {x}
  func.return %y : {x}
"""


def _softmax_cross_entropy(s: Shape) -> str:
    x, rf = s.tensor("x"), s.tensor("row", "f32")
    wf, ff = s.f32("f")
    wl, fl = s.f32("l")
    return f"""  %ninf = arith.constant 0xFF800000 : f32
  %me = tensor.empty() : {rf}
  %mi = linalg.fill ins(%ninf : f32) outs(%me : {rf}) -> {rf}
  %max = linalg.generic {{indexing_maps = [#id, #row],
      iterator_types = ["parallel", "reduction"]}}
      ins(%features : {x}) outs(%mi : {rf}) {{
    ^bb0(%f: {s.element}, %acc: f32):
{wf}      %m = arith.maximumf %acc, {ff} : f32
      linalg.yield %m : f32
  }} -> {rf}
  %ze = tensor.empty() : {rf}
  %zi = linalg.fill ins(%zero : f32) outs(%ze : {rf}) -> {rf}
  %sum = linalg.generic {{indexing_maps = [#id, #row, #row],
      iterator_types = ["parallel", "reduction"]}}
      ins(%features, %max : {x}, {rf}) outs(%zi : {rf}) {{
    ^bb0(%f: {s.element}, %mx: f32, %acc: f32):
{wf}      %d = arith.subf {ff}, %mx : f32
      %e = math.exp %d : f32
      %a = arith.addf %acc, %e : f32
      linalg.yield %a : f32
  }} -> {rf}
  %le = tensor.empty() : {rf}
  %li = linalg.fill ins(%zero : f32) outs(%le : {rf}) -> {rf}
  %lossf = linalg.generic {{indexing_maps = [#id, #id, #row, #row, #row],
      iterator_types = ["parallel", "reduction"]}}
      ins(%features, %labels, %max, %sum : {x}, {x}, {rf}, {rf}) outs(%li : {rf}) {{
    ^bb0(%f: {s.element}, %l: {s.element}, %mx: f32, %sm: f32, %acc: f32):
{wf}{wl}      %d = arith.subf {ff}, %mx : f32
      %lg = math.log %sm : f32
      %nl = arith.subf %lg, %d : f32
      %t = arith.mulf {fl}, %nl : f32
      %a = arith.addf %acc, %t : f32
      linalg.yield %a : f32
  }} -> {rf}
  %lo = tensor.empty() : {s.tensor("row")}
  %loss = linalg.generic {{indexing_maps = [#v, #v], iterator_types = ["parallel"]}}
      ins(%lossf : {rf}) outs(%lo : {s.tensor("row")}) {{
    ^bb0(%v: f32, %o: {s.element}):
{s.narrowed("%v")}
  }} -> {s.tensor("row")}
  %be = tensor.empty() : {x}
  %backprop = linalg.generic {{indexing_maps = [#id, #id, #row, #row, #id],
      iterator_types = ["parallel", "parallel"]}}
      ins(%features, %labels, %max, %sum : {x}, {x}, {rf}, {rf}) outs(%be : {x}) {{
    ^bb0(%f: {s.element}, %l: {s.element}, %mx: f32, %sm: f32, %o: {s.element}):
{wf}{wl}      %d = arith.subf {ff}, %mx : f32
      %e = math.exp %d : f32
      %p = arith.divf %e, %sm : f32
      %b = arith.subf %p, {fl} : f32
{s.narrowed("%b")}
  }} -> {x}
  func.return %loss, %backprop : {s.tensor("row")}, {x}
"""


def _p_relu_grad_reduce(s: Shape) -> str:
    x, cf = s.tensor("x"), s.tensor("column", "f32")
    wu, fu = s.f32("u")
    return f"""  %ce = tensor.empty() : {cf}
  %ci = linalg.fill ins(%zero : f32) outs(%ce : {cf}) -> {cf}
  %sum = linalg.generic {{indexing_maps = [#id, #col],
      iterator_types = ["reduction", "parallel"]}}
      ins(%updates : {x}) outs(%ci : {cf}) {{
    ^bb0(%u: {s.element}, %acc: f32):
{wu}      %a = arith.addf %acc, {fu} : f32
      linalg.yield %a : f32
  }} -> {cf}
  %de = tensor.empty() : {s.tensor("column")}
  %da = linalg.generic {{indexing_maps = [#v, #v], iterator_types = ["parallel"]}}
      ins(%sum : {cf}) outs(%de : {s.tensor("column")}) {{
    ^bb0(%v: f32, %o: {s.element}):
{s.narrowed("%v")}
  }} -> {s.tensor("column")}
  func.return %da : {s.tensor("column")}
"""


ROW_GENERICS: dict[str, RowGeneric] = {g.name: g for g in (
    RowGeneric("confusion_softmax_grad", (("grad", "x"), ("x", "x")), ("x",),
               "y = grad - sum(grad * x, -1)", _confusion_softmax_grad),
    RowGeneric("softmax_grad_ext", (("grad", "x"), ("x1", "x"), ("x2", "one")), ("x",),
               "y = (grad - sum(grad * x1, -1)) * x1 * x2 (x2 one element)", _softmax_grad_ext),
    RowGeneric("softmax_cross_entropy_with_logits", (("features", "x"), ("labels", "x")),
               ("row", "x"), "loss = -sum(labels * log_softmax(features), -1), backprop = "
               "softmax(features) - labels", _softmax_cross_entropy),
    RowGeneric("p_relu_grad_reduce", (("grads", "x"), ("features", "x"), ("weights", "column"),
                                      ("updates", "x")), ("column",),
               "da = sum(updates, 0) (every dim but the channel, dim 1 of [N, C])",
               _p_relu_grad_reduce),
)}
"""By op name (`--op <name>`; hswc.checker.sweep.ROW_GENERIC_FOLDERS maps folders to them)."""


def is_row_generic(name: str | None) -> bool:
    return name in ROW_GENERICS


def module_text(name: str, rows: int, length: int, dtype: str) -> str:
    """The module of ROW_GENERICS[name] for tensors of [rows, length] of `dtype`."""
    g = ROW_GENERICS[name]
    s = Shape(rows, length, dtype)
    args = ", ".join(f"%{n}: {s.tensor(k)}" for n, k in g.inputs)
    results = ", ".join(s.tensor(k) for k in g.outputs)
    return (f"{MAPS}func.func @{name}({args}) -> ({results}) {{\n"
            "  %zero = arith.constant 0.0 : f32\n" + g.body(s) + "}\n")


@functools.lru_cache(maxsize=32)
def _kernel(name: str, rows: int, length: int, dtype: str) -> object:
    from hswc.runner import compile_text

    return compile_text(module_text(name, rows, length, dtype), name=name, level="linalg")


def outputs(name: str, dtype: str, args: Sequence[np.ndarray]) -> tuple[np.ndarray, ...]:
    """The results of ROW_GENERICS[name] on its inputs (each of its kind's shape), by hswc's
    interpreter."""
    g = ROW_GENERICS[name]
    x = next(a for a, (_, k) in zip(args, g.inputs, strict=True) if k == "x")
    rows, length = x.shape
    kernel = _kernel(name, rows, length, dtype)
    return tuple(kernel.run(*args).outputs)  # type: ignore[attr-defined]
