"""Upstream linalg as hswc reads it (hswc.dialects.linalg): each named op generalizes to the
indexing maps, iterators and body MLIR gives it, a generic with several results parses, fill
checks its value's type as MLIR does, and weights stored as resources survive any number of
parses in one process."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import DenseResourceAttr, ModuleOp
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.transforms.linalg_generalize_named_ops import LinalgGeneralizeNamedOpsPass
from xdsl.utils.exceptions import DiagnosticException, ParseError

from hswc.diagnostics import LocatingParser
from hswc.dialects.builtin import resource_blobs, resource_handles
from hswc.pipeline import context, parse_text

WINDOW = "{dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}"
NAMED = {
    "depthwise": (f"linalg.depthwise_conv_2d_nchw_chw {WINDOW}", "tensor<1x4x9x9xf16>",
                  "tensor<4x3x3xf16>", "tensor<1x4x4x4xf32>"),
    "conv": ("linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = "
             "dense<1> : vector<2xi64>}", "tensor<1x4x9x9xf16>", "tensor<8x4x3x3xf16>",
             "tensor<1x8x7x7xf32>"),
    "pool_sum": (f"linalg.pooling_nchw_sum {WINDOW}", "tensor<1x4x9x9xbf16>", "tensor<3x3xf32>",
                 "tensor<1x4x4x4xf32>"),
    "pool_max": (f"linalg.pooling_nchw_max {WINDOW}", "tensor<1x4x9x9xf16>", "tensor<3x3xf32>",
                 "tensor<1x4x4x4xf32>"),
    "batch_matmul": ("linalg.batch_matmul", "tensor<2x3x4xf16>", "tensor<2x4x5xf16>",
                     "tensor<2x3x5xf32>"),
    "matmul_i8_f32": ("linalg.matmul", "tensor<3x4xi8>", "tensor<4x5xi8>", "tensor<3x5xf32>"),
    "matmul_f32_f16": ("linalg.matmul", "tensor<3x4xf32>", "tensor<4x5xf32>",
                       "tensor<3x5xf16>"),
    "matmul_i8_i32": ("linalg.matmul", "tensor<3x4xi8>", "tensor<4x5xi8>", "tensor<3x5xi32>"),
    "conv_1d": ("linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = "
                "dense<2> : vector<1xi64>}", "tensor<1x3x9xf32>", "tensor<4x3x3xf32>",
                "tensor<1x4x4xf32>"),
    "conv_3d": ("linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : vector<3xi64>, strides = "
                "dense<1> : vector<3xi64>}", "tensor<1x2x4x4x4xf32>", "tensor<2x2x2x2x2xf32>",
                "tensor<1x2x3x3x3xf32>"),
    "group_conv": ("linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides "
                   "= dense<1> : vector<2xi64>}", "tensor<1x2x2x9x9xf16>",
                   "tensor<2x4x2x3x3xf16>", "tensor<1x2x4x7x7xf32>"),
}
P, R = "parallel", "reduction"
MAC_F16 = ("arith.extf(0) : f32", "arith.extf(1) : f32", "arith.mulf(3, 4) : f32",
           "arith.addf(2, 5) : f32")
MLIR: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    # What torch-mlir 20261001's `linalg-generalize-named-ops` prints for each op: the maps,
    # the iterators and the body, each body op with its operands (block arguments 0, 1, ...;
    # then the body's results in order, continuing the count) and its result type.
    "depthwise": (("(d0, d1, d2, d3, d4, d5) -> (d0, d3, ((d1 * 2) + d4), ((d2 * 2) + d5))",
                   "(d0, d1, d2, d3, d4, d5) -> (d3, d4, d5)",
                   "(d0, d1, d2, d3, d4, d5) -> (d0, d3, d1, d2)"),
                  (P, P, P, P, R, R), MAC_F16),
    "conv": (("(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, (d2 + d5), (d3 + d6))",
              "(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)",
              "(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)"),
             (P, P, P, P, R, R, R), MAC_F16),
    "pool_sum": (("(d0, d1, d2, d3, d4, d5) -> (d0, d1, ((d2 * 2) + d4), ((d3 * 2) + d5))",
                  "(d0, d1, d2, d3, d4, d5) -> (d4, d5)",
                  "(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)"),
                 (P, P, P, P, R, R), ("arith.extf(0) : f32", "arith.addf(2, 3) : f32")),
    "pool_max": (("(d0, d1, d2, d3, d4, d5) -> (d0, d1, ((d2 * 2) + d4), ((d3 * 2) + d5))",
                  "(d0, d1, d2, d3, d4, d5) -> (d4, d5)",
                  "(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)"),
                 (P, P, P, P, R, R), ("arith.extf(0) : f32", "arith.maximumf(2, 3) : f32")),
    "batch_matmul": (("(d0, d1, d2, d3) -> (d0, d1, d3)", "(d0, d1, d2, d3) -> (d0, d3, d2)",
                      "(d0, d1, d2, d3) -> (d0, d1, d2)"), (P, P, P, R), MAC_F16),
    "matmul_i8_f32": (("(d0, d1, d2) -> (d0, d2)", "(d0, d1, d2) -> (d2, d1)",
                       "(d0, d1, d2) -> (d0, d1)"), (P, P, R),
                      ("arith.sitofp(0) : f32", "arith.sitofp(1) : f32",
                       "arith.mulf(3, 4) : f32", "arith.addf(2, 5) : f32")),
    "matmul_f32_f16": (("(d0, d1, d2) -> (d0, d2)", "(d0, d1, d2) -> (d2, d1)",
                        "(d0, d1, d2) -> (d0, d1)"), (P, P, R),
                       ("arith.truncf(0) : f16", "arith.truncf(1) : f16",
                        "arith.mulf(3, 4) : f16", "arith.addf(2, 5) : f16")),
    "matmul_i8_i32": (("(d0, d1, d2) -> (d0, d2)", "(d0, d1, d2) -> (d2, d1)",
                       "(d0, d1, d2) -> (d0, d1)"), (P, P, R),
                      ("arith.extsi(0) : i32", "arith.extsi(1) : i32",
                       "arith.muli(3, 4) : i32", "arith.addi(2, 5) : i32")),
    "conv_1d": (("(d0, d1, d2, d3, d4) -> (d0, d3, ((d2 * 2) + d4))",
                 "(d0, d1, d2, d3, d4) -> (d1, d3, d4)", "(d0, d1, d2, d3, d4) -> (d0, d1, d2)"),
                (P, P, P, R, R), ("arith.mulf(0, 1) : f32", "arith.addf(2, 3) : f32")),
    "conv_3d": (("(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d5, (d2 + d6), (d3 + d7), "
                 "(d4 + d8))", "(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d1, d5, d6, d7, d8)",
                 "(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d1, d2, d3, d4)"),
                (P, P, P, P, P, R, R, R, R), ("arith.mulf(0, 1) : f32", "arith.addf(2, 3) : f32")),
    "group_conv": (("(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d5, (d3 + d6), (d4 + d7))",
                    "(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d5, d6, d7)",
                    "(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)"),
                   (P, P, P, P, P, R, R, R), MAC_F16),
}


def _generalized(name: str) -> GenericOp:
    op, a, b, out = NAMED[name]
    text = (f"func.func @f(%a: {a}, %b: {b}, %c: {out}) -> {out} {{\n"
            f"  %r = {op} ins(%a, %b : {a}, {b}) outs(%c : {out}) -> {out}\n"
            f"  func.return %r : {out}\n}}")
    module = parse_text(text, name)
    module.verify()
    LinalgGeneralizeNamedOpsPass().apply(context(), module)
    module.verify()
    return next(op for op in module.walk() if isinstance(op, GenericOp))


def _body(generic: GenericOp) -> tuple[str, ...]:
    block = generic.body.block
    numbers = {arg: i for i, arg in enumerate(block.args)}
    lines = []
    for op in block.ops:
        if op is block.last_op:
            break
        numbers[op.results[0]] = len(numbers)
        operands = ", ".join(str(numbers[v]) for v in op.operands)
        lines.append(f"{op.name}({operands}) : {op.results[0].type}")
    return tuple(lines)


@pytest.mark.parametrize("name", sorted(MLIR))
def test_named_op_generalizes_as_mlir_does(name: str) -> None:
    generic = _generalized(name)
    maps, iterators, body = MLIR[name]
    assert tuple(str(m.data) for m in generic.indexing_maps) == maps
    assert tuple(i.data.value for i in generic.iterator_types) == iterators
    assert _body(generic) == body


TWO_RESULTS = """
func.func @main(%x: tensor<4x16xf32>, %m: tensor<4xf32>, %i: tensor<4xi64>)
    -> (tensor<4xf32>, tensor<4xi64>) {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
      affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x16xf32>) outs(%m, %i : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%in: f32, %out: f32, %out_0: i64):
    %j = linalg.index 1 : index
    %k = arith.index_cast %j : index to i64
    %mx = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %s = arith.select %gt, %k, %out_0 : i64
    linalg.yield %mx, %s : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xi64>
}
"""


def test_a_generic_with_two_results_parses() -> None:
    module = parse_text(TWO_RESULTS, "two.mlir")
    module.verify()
    generic = next(op for op in module.walk() if isinstance(op, GenericOp))
    assert [str(r.type) for r in generic.results] == ["tensor<4xf32>", "tensor<4xi64>"]
    assert isinstance(generic, GenericOp) and type(generic) is not GenericOp


def test_a_generic_without_maps_is_refused_at_its_attributes() -> None:
    text = TWO_RESULTS.replace("indexing_maps", "indexing_mapz")
    with pytest.raises(ParseError, match="expected indexing_maps"):
        parse_text(text, "bad.mlir")


def test_fill_with_a_value_of_another_type_is_refused_as_mlir_does() -> None:
    text = """
func.func @f(%v: f64, %o: tensor<3xf16>) -> tensor<3xf16> {
  %r = linalg.fill ins(%v : f64) outs(%o : tensor<3xf16>) -> tensor<3xf16>
  func.return %r : tensor<3xf16>
}"""
    module = parse_text(text, "fill.mlir")
    with pytest.raises(DiagnosticException, match=r"fill value's type \(f64\) to be the "
                       r"output's element type \(f16\)"):
        module.verify()


WEIGHTS = """
func.func @f() -> tensor<2xf32> {
  %w = arith.constant dense_resource<torch_tensor_2_torch.float32> : tensor<2xf32>
  func.return %w : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      torch_tensor_2_torch.float32: "0x04000000BLOB"
    }
  }
#-}
"""


def _parse_weights(blob: str) -> tuple[ModuleOp, dict[str, str]]:
    ctx = context()
    module = LocatingParser(ctx, WEIGHTS.replace("BLOB", blob), "w.mlir").parse_module()
    return module, resource_blobs(ctx, resource_handles(module))


def test_each_parse_keeps_its_own_weights() -> None:
    """xDSL's one store per process renames a handle seen before, leaving the second module's
    weights pointing at no data; each context has its own store here."""
    first, first_blobs = _parse_weights("0000803F00000040")
    second, second_blobs = _parse_weights("0000404000008040")
    for module, blobs, data in ((first, first_blobs, "0000803F00000040"),
                                (second, second_blobs, "0000404000008040")):
        (value,) = [op.properties["value"] for op in module.walk() if "value" in op.properties]
        assert isinstance(value, DenseResourceAttr)
        assert value.resource_handle.data == "torch_tensor_2_torch.float32"
        assert blobs == {"torch_tensor_2_torch.float32": "0x04000000" + data}


def test_a_dense_float_in_hexadecimal_is_its_bit_pattern() -> None:
    """As MLIR reads it (torch-mlir writes a masked attention's -inf so); xDSL 0.75 took the
    integer 4286578688 for the value."""
    from xdsl.dialects import arith

    module = parse_text("""
func.func @f() -> (tensor<f32>, tensor<2xf16>, tensor<3xbf16>) {
  %a = arith.constant dense<0xFF800000> : tensor<f32>
  %b = arith.constant dense<[0x7C00, 1.5]> : tensor<2xf16>
  %c = arith.constant dense<[0x0001, 0xFF80, -2.0]> : tensor<3xbf16>
  func.return %a, %b, %c : tensor<f32>, tensor<2xf16>, tensor<3xbf16>
}""", "hex.mlir")
    values = [op.value.get_values() for op in module.walk() if isinstance(op, arith.ConstantOp)]
    assert values[0] == (-np.inf,) and values[1] == (np.inf, 1.5)
    assert values[2] == (2.0 ** -133, -np.inf, -2.0)  # the smallest bf16 subnormal
    with pytest.raises(ParseError, match="hexadecimal float 0x1ff80 is wider than bf16"):
        parse_text("func.func @f() -> tensor<bf16> {\n  %a = arith.constant dense<0x1FF80> : "
                   "tensor<bf16>\n  func.return %a : tensor<bf16>\n}", "wide.mlir")
