"""Joint outputs (hswc.output_windows): the boxes `tensor.insert_slice` writes, the description
of kernel outputs written at windows of one tensor, its attribute, and what it refuses.

The oracle of every index is numpy's slicing of `np.arange` over the joint tensor: the flat
indices a box holds, in its own C order."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import tensor
from xdsl.dialects.builtin import ModuleOp

from hswc.broadcast import Broadcast
from hswc.diagnostics import OpError
from hswc.output_windows import (
    Box,
    describe,
    from_attr,
    insert_box,
    joint_refusal,
    read_output_windows,
    to_attr,
)
from hswc.passes.hsg_decompose import HsgDecomposePass
from hswc.pipeline import context, parse_text

GLU_GRAD = """
func.func @f(%g: tensor<{half}xf32>, %x: tensor<{shape}xf32>) -> tensor<{shape}xf32> {{
  %y = hsg.glu_grad %g, %x {{dim = {dim} : i64}} : tensor<{half}xf32>, tensor<{shape}xf32>
  return %y : tensor<{shape}xf32>
}}
"""


def _inserts(module: ModuleOp) -> list[tensor.InsertSliceOp]:
    return [op for op in module.walk() if isinstance(op, tensor.InsertSliceOp)]


def _decomposed(shape: str, half: str, dim: int) -> ModuleOp:
    module = parse_text(GLU_GRAD.format(shape=shape, half=half, dim=dim), "glu_grad.mlir")
    HsgDecomposePass().apply(context(), module)
    return module


def _boxes(module: ModuleOp) -> list[Box]:
    found = [insert_box(op) for op in _inserts(module)]
    assert all(isinstance(b, Box) for b in found), found
    return [b for b in found if isinstance(b, Box)]


def _written(description: Broadcast, i: int) -> np.ndarray:
    return description.index(i, np.arange(description.total))


@pytest.mark.parametrize(("shape", "half", "dim", "expected"), [
    ("4x128", "4x64", -1, [[128, 1, 0, 512], [128, 1, 64, 512]]),
    ("8x16", "4x16", 0, [[16, 1, 0, 128], [16, 1, 64, 128]]),
    ("2x6x3", "2x3x3", 1, [[18, 3, 1, 0, 36], [18, 3, 1, 9, 36]]),
])
def test_the_halves_of_glu_grads_dx(shape: str, half: str, dim: int,
                                    expected: list[list[int]]) -> None:
    """hsg.glu_grad's decomposition inserts da and db into dx: two boxes writing dx whole,
    each at the indices numpy's halves of dx hold."""
    boxes = _boxes(_decomposed(shape, half, dim))
    assert len(boxes) == 2 and joint_refusal(boxes) is None
    out_shape = [int(n) for n in half.split("x")]
    description = describe(out_shape, boxes)
    attr = to_attr(description)
    assert [list(a.get_values()) for a in attr.data[1:]] == expected
    assert from_attr(attr) == description
    dx = np.arange(int(np.prod([int(n) for n in shape.split("x")]))).reshape(
        [int(n) for n in shape.split("x")])
    first, second = np.split(dx, 2, axis=dim)
    np.testing.assert_array_equal(_written(description, 0), first.ravel())
    np.testing.assert_array_equal(_written(description, 1), second.ravel())
    together = np.sort(np.concatenate([_written(description, 0), _written(description, 1)]))
    np.testing.assert_array_equal(together, dx.ravel())


INSERTS = """
func.func @f(%a: tensor<{small}xf32>, %b: tensor<{small}xf32>) -> tensor<{big}xf32> {{
  %e = tensor.empty() : tensor<{big}xf32>
  %0 = tensor.insert_slice %a into %e{first} : tensor<{small}xf32> into tensor<{big}xf32>
  %1 = tensor.insert_slice %b into %0{second} : tensor<{small}xf32> into tensor<{big}xf32>
  return %1 : tensor<{big}xf32>
}}
"""


def _parsed_boxes(small: str, big: str, first: str, second: str) -> list[Box | str]:
    module = parse_text(INSERTS.format(small=small, big=big, first=first, second=second),
                        "inserts.mlir")
    return [insert_box(op) for op in _inserts(module)]


def test_a_rank_reducing_insert_writes_one_row() -> None:
    """tensor<4> into row 1 and row 2 of a 3x4 tensor: strides (1,), offsets 4 and 8; the
    two rows leave row 0 unwritten."""
    boxes = _parsed_boxes("4", "3x4", "[1, 0] [1, 4] [1, 1]", "[2, 0] [1, 4] [1, 1]")
    assert all(isinstance(b, Box) for b in boxes)
    description = describe([4], [b for b in boxes if isinstance(b, Box)])
    rows = np.arange(12).reshape(3, 4)
    np.testing.assert_array_equal(_written(description, 0), rows[1])
    np.testing.assert_array_equal(_written(description, 1), rows[2])
    assert joint_refusal([b for b in boxes if isinstance(b, Box)]) == (
        "the inserts write 8 of its 12 elements; the rest would be undefined (a "
        "tensor.empty's)")


def test_overlapping_inserts_are_refused() -> None:
    boxes = _parsed_boxes("4x3", "4x5", "[0, 0] [4, 3] [1, 1]", "[0, 2] [4, 3] [1, 1]")
    assert joint_refusal([b for b in boxes if isinstance(b, Box)]) == (
        "the inserts 1 and 2 write overlapping elements (at [0, 0] and [0, 2])")


def test_a_strided_insert_is_not_a_box() -> None:
    boxes = _parsed_boxes("4x3", "4x6", "[0, 0] [4, 3] [1, 2]", "[0, 1] [4, 3] [1, 2]")
    assert boxes == ["a strided slice (strides [1, 2]; hswc reads slices of unit stride)"] * 2


def test_an_insert_past_its_destination_is_located() -> None:
    module = parse_text(INSERTS.format(small="4x3", big="4x5", first="[0, 0] [4, 3] [1, 1]",
                                       second="[0, 0] [4, 3] [1, 1]"), "inserts.mlir")
    op = _inserts(module)[1]
    op.static_offsets = op.static_offsets.from_list(op.static_offsets.elt_type,
                                                    [0, 3])  # type: ignore[arg-type]
    with pytest.raises(OpError, match="writes elements 3 to 5 of dim 1 of its destination, "
                                      "which has 5: out of bounds"):
        insert_box(op)


@pytest.mark.parametrize(("arrays", "message"), [
    ([[4, 64], [128, 0, 0, 512]], "output 1's strides \\[128, 0\\] write two of its \\[4, 64\\] "
                                  "elements to one index"),
    ([[4, 64], [64, 2, 0, 512]], "output 1's strides \\[64, 2\\] write two"),
    ([[4, 64], [128, 1, 100, 512]], "output 1 is at flat indices 100 to 547, outside its "
                                    "512 elements"),
    ([[-1, 64], [128, 1, 64, 512]], "output 1 is at an offset \\(a slice\\) of a dynamic shape"),
])
def test_a_bad_description_is_refused(arrays: list[list[int]], message: str) -> None:
    from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, i64

    attr = ArrayAttr([DenseArrayBase.from_list(i64, a) for a in arrays])
    with pytest.raises(ValueError, match=f"^hsg.output_windows: {message}"):
        from_attr(attr)


def test_an_op_without_the_attribute_has_no_windows() -> None:
    module = parse_text(INSERTS.format(small="4", big="2x4", first="[0, 0] [1, 4] [1, 1]",
                                       second="[1, 0] [1, 4] [1, 1]"), "inserts.mlir")
    assert read_output_windows(_inserts(module)[0]) is None
