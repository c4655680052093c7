"""The branches of a row kernel of a run-time row length (issue 36: short rows;
hswc.passes.row_branches): whole rows of at most W elements for each W of a short ladder and
the longest a chunk holds, then the segmented kernel; the host's tiling picks one from the
row length.

Checked here: at rows of 1, 7, 64, 65, S, S + 1 and a long row (f16 and f32) the tiling picks
the branch the ladder says (counted by hand from the kernels' W), the row kernel's levels give
the same bits, and every level is within PyTorch's tolerance of the float64 model; the claim
that a row takes the same bits in every branch that holds it (hswc.reduction_order on integer
and random rows); and a branch launched with a row longer than it holds stops with a located
message.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_dynamic_rows import _text
from test_row_kernels import _named_inputs, _reference
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, i1

from hswc.dialects import hsg
from hswc.passes.row_branches import WHOLE_LENGTHS, whole_lengths
from hswc.passes.row_kernels import DYNAMIC_SEGMENT
from hswc.reduction_order import padded, reduce_rows
from hswc.reference import compare_tolerance
from hswc.rows import read_rows
from hswc.runner import compile_module, compile_text
from hswc.tiling import GE_DATA_TYPES

LEVELS = ("tiled", "blocked", "ascend")
"""The levels that run the row kernels (and the host's pick among them)."""
LENGTHS = (1, 7, 64, 65, DYNAMIC_SEGMENT, DYNAMIC_SEGMENT + 1, 20000)


def _module_text(op: str, dtype: str) -> str:
    """The op over x `?x?` (its weights `?`)."""
    text = _text(op, _named_inputs(op, (3, 8), dtype), dtype, (0, 1))
    return text.replace(f"tensor<8x{dtype}>", f"tensor<?x{dtype}>")


def _branches(module: object) -> tuple[list[int], int]:
    """The whole branches' W, in order, and the segmented branch's S."""
    described = [r for op in module.walk()  # type: ignore[attr-defined]
                 if op.name == "func.func" and (r := read_rows(op)) is not None]
    whole = sorted(r.length for r in described if r.segment is None)
    (segment,) = [r.segment for r in described if r.segment is not None]
    return whole, segment


def test_the_ladder_of_whole_lengths() -> None:
    """WHOLE_LENGTHS below the top, the longest 64 * 2^k a chunk holds, then the top."""
    assert whole_lengths(9700, 64) == [*WHOLE_LENGTHS, 8192]
    assert whole_lengths(1000, 64) == [64, 512]
    assert whole_lengths(64, 64) == [64]
    assert whole_lengths(63, 64) == []


@pytest.mark.parametrize("dtype", ["f32", "f16"])
def test_each_length_takes_its_branch_and_the_levels_agree(dtype: str) -> None:
    """softmax: the tiling's key at each length names the first branch whose W holds the row
    (the segmented one past them), the row kernel's levels give the same bits, and all are
    within tolerance."""
    text = _module_text("hsg.softmax", dtype)
    kernels = {level: compile_text(text, level=level) for level in LEVELS}
    whole, _segment = _branches(kernels["ascend"].module)
    assert whole[:len(WHOLE_LENGTHS)] == list(WHOLE_LENGTHS) and whole[-1] >= 4096
    for length in LENGTHS:
        inputs = _named_inputs("hsg.softmax", (3, length), dtype)
        want = _reference("hsg.softmax", inputs, -1)
        branch = sum(w < length for w in whole)  # hand count: the first W >= n, else past
        bits = set()
        for level, kernel in kernels.items():
            result = kernel.run(*inputs)
            (record,) = result.tilings
            assert record is not None
            assert record["tilingKey"] == GE_DATA_TYPES[dtype] | branch << 8, (level, length)
            got = result.outputs[0]
            within = compare_tolerance(got, want)
            assert within.equal, f"{level}, rows of {length}: {within.summary()}"
            bits.add(got.tobytes())
        assert len(bits) == 1, f"rows of {length}: the levels differ"


def test_a_row_takes_the_same_bits_in_every_branch_that_holds_it() -> None:
    """hswc.passes.row_branches: a row of n <= W padded to W and combined whole gives the bits
    of it padded to a longer W' (a whole branch) and to one segment S (the segmented kernel's
    order, its accumulator starting at the identity): for sums and maxima of random rows."""
    rng = np.random.default_rng(36)
    for n in (1, 7, 63, 64, 65, 1000, 1024, 4096):
        x = rng.standard_normal((4, n)).astype(np.float32)
        for combiner in ("addf", "maximumf"):
            orders = [reduce_rows(padded(x, combiner, w), combiner)
                      for w in (64, 1024, 8192) if w >= n]
            orders.append(reduce_rows(padded(x, combiner, DYNAMIC_SEGMENT), combiner,
                                      segment=DYNAMIC_SEGMENT))
            assert len({o.tobytes() for o in orders}) == 1, (n, combiner)


def test_a_branch_given_a_longer_row_than_it_holds_stops_with_a_located_message() -> None:
    """The host made to launch the W = 64 branch whatever the length (its key's test made
    true): rows of 64 run, rows of 65 stop naming the kernel and the length."""
    text = _module_text("hsg.rms_norm", "f32")
    module = compile_text(text, level="tiled").module.clone()
    (first,) = [op for op in module.walk() if isinstance(op, arith.CmpiOp)
                and (op.result.name_hint or "").startswith("use_w64")]
    true = arith.ConstantOp(IntegerAttr(1, i1))
    first.parent_block().insert_op_before(true, first)  # type: ignore[union-attr]
    first.result.replace_all_uses_with(true.result)
    kernel = compile_module(module, level="tiled")
    launched = {op.kernel.root_reference.data for op in module.walk()
                if isinstance(op, hsg.LaunchOp)}
    assert any(name.endswith("_w64") for name in launched)
    inputs = _named_inputs("hsg.rms_norm", (2, 64), "f32")
    assert compare_tolerance(kernel.run(*inputs).outputs[0],
                             _reference("hsg.rms_norm", inputs, -1)).equal
    with pytest.raises(Exception, match=r"error: .*_w64 takes a run-time row length of 65, "
                                        r"longer than the 64 elements its kernel's whole rows "
                                        r"hold"):
        kernel.run(*_named_inputs("hsg.rms_norm", (2, 65), "f32"))
