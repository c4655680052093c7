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

from pathlib import Path

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


SEVERAL = (1, 7, 63, 64, 65, 1000, 1024, 1025)
"""Row lengths around the whole branches of 64 and 1024 (several rows a chunk) and past them."""
CORES = 2

CENTRED = """
func.func @centred(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x?xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant -0.0 : f32
  %e1 = tensor.empty(%n) : tensor<?xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %m, %s = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>,
                                            affine_map<(i, k) -> (i)>,
                                            affine_map<(i, k) -> (i)>],
                           iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x?xf32>) outs(%m0, %s0 : tensor<?xf32>, tensor<?xf32>) {
  ^bb0(%a: f32, %macc: f32, %sacc: f32):
    %t = math.absf %a : f32
    %mr = arith.maximumf %t, %macc : f32
    %sr = arith.addf %a, %sacc : f32
    linalg.yield %mr, %sr : f32, f32
  } -> (tensor<?xf32>, tensor<?xf32>)
  %k = tensor.dim %x, %c0 : tensor<?x?xf32>
  %c1 = arith.constant 1 : index
  %w = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%k, %w) : tensor<?x?xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>,
                                        affine_map<(i, k) -> (i)>,
                                        affine_map<(i, k) -> (i)>,
                                        affine_map<(i, k) -> (i, k)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %m, %s : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>)
      outs(%e : tensor<?x?xf32>) {
  ^bb0(%a: f32, %mv: f32, %sv: f32, %o: f32):
    %d = arith.subf %a, %sv : f32
    %q = arith.divf %d, %mv : f32
    linalg.yield %q : f32
  } -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
"""
"""(x - the row's sum) / the row's max |x| over `?x?` rows: one row kernel of two reductions,
whose every f32 step rounds once, so numpy gives its bits from the order the whole branch of W
combines a row in (hswc.reduction_order: the row padded to W, the tree over W)."""


def _partial_rows(kernel: object, length: int, dtype: str, op: str) -> int:
    """Rows that give each of the CORES cores two chunks of the branch that takes `length`,
    the last one partial (3 rows): the branch's ubFactor read from a launch of one row."""
    record = kernel.run(*_inputs(op, 1, length, dtype)).tilings[0]  # type: ignore[attr-defined]
    assert record is not None
    return CORES * (int(record["ubFactor"]) + 3)


def _inputs(op: str, rows: int, length: int, dtype: str) -> list[np.ndarray]:
    if op == "centred":
        return [np.random.default_rng(length).standard_normal((rows, length))
                .astype(np.float32)]
    return _named_inputs(op, (rows, length), dtype)


def test_several_rows_a_chunk_are_the_numpy_order_bit_for_bit() -> None:
    """The whole branches of 64 and 1024 take several rows a chunk (each chunk's rows of n
    copied W apart, their tails padded to W with each combiner's identity); at every length,
    with two chunks a core, the last partial, every level gives numpy's bits of the row
    padded to W and combined in reduction_order's tree (past 1024, the top branch of one row
    a chunk: within tolerance of that order only, not bit for bit: not traced)."""
    kernels = {level: compile_text(CENTRED, level=level, core_num=CORES)
               for level in ("linalg", *LEVELS)}
    (ascend,) = [kernels["ascend"]]
    several = [r for op in ascend.module.walk() if op.name == "func.func"
               and (r := read_rows(op)) is not None and r.segment is None
               and not r.one_per_chunk]
    assert sorted(r.length for r in several) == [64, 1024]
    whole, _segment = _branches(ascend.module)
    for length in SEVERAL:
        rows = _partial_rows(ascend, length, "f32", "centred")
        (x,) = _inputs("centred", rows, length, "f32")
        width = min(w for w in whole if w >= length)  # the branch that takes it
        m = reduce_rows(padded(np.abs(x), "maximumf", width), "maximumf")
        s = reduce_rows(padded(x, "addf", width), "addf")
        want = ((x - s[:, None]) / m[:, None]).astype(np.float32)
        for level, kernel in kernels.items():
            result = kernel.run(x)
            if level == "ascend":
                (record,) = result.tilings
                assert record is not None
                assert int(record["blockFactor"]) == int(record["ubFactor"]) + 3, length
            got = result.outputs[0]
            if level == "linalg" or length > 1024:
                # MLIR's sequential loop, and the top branch (one row a chunk, not this
                # change's): within tolerance of the numpy order
                assert compare_tolerance(got, want).equal, (level, length)
                continue
            assert got.tobytes() == want.tobytes(), f"{level}, rows of {length}"


@pytest.mark.parametrize("dtype", ["f32", "f16"])
def test_softmax_of_several_rows_a_chunk_agrees_at_every_level(dtype: str) -> None:
    """softmax with two chunks a core, the last partial, at each length: the tiled, blocked
    and ascend levels give the same bits, within tolerance of the float64 model."""
    text = _module_text("hsg.softmax", dtype)
    kernels = {level: compile_text(text, level=level, core_num=CORES) for level in LEVELS}
    for length in SEVERAL:
        rows = _partial_rows(kernels["ascend"], length, dtype, "hsg.softmax")
        inputs = _inputs("hsg.softmax", rows, length, dtype)
        want = _reference("hsg.softmax", inputs, -1)
        bits = set()
        for level, kernel in kernels.items():
            got = kernel.run(*inputs).outputs[0]
            within = compare_tolerance(got, want)
            assert within.equal, f"{level}, rows of {length}: {within.summary()}"
            bits.add(got.tobytes())
        assert len(bits) == 1, f"rows of {length}: the levels differ"


def test_the_host_gives_the_whole_branches_their_rows_a_chunk_as_counted_by_hand() -> None:
    """k, the rows a chunk of the W = 64 and 1024 branches, as the host's tiling function
    computes it from the run-time length (x.amax(-1) of `?x?` f32, the reference schedule:
    depth-1 queues), at a UB of 16384 bytes given by hand and at Atlas A2's 196608.

    Counted from the kernels' buffers (hswc.vectorizer.plan._row_ub_plan): a row of W f32
    values of x (4 W bytes), and one f32 a row each of the init row, the output and the max's
    temporary (12 bytes); W = 1024 also 16 f32 of fold partials a row (64 bytes): 268 and 4172
    bytes a row. Reserved: the three row buffers rounded up to 64 values (3 * 256 bytes) and
    x's up to its alignment (64 f32, 256 bytes): 1024. A chunk's level-0 calls repeat at most
    255 times over its rows: at most 248 rows (whole 8-row blocks of row values) at W = 64,
    255 // 16 repeats a row = 15 at W = 1024. So k = min((UB - 1024) // bytes, bound):
    16384: 15360 // 268 = 57 and 15360 // 4172 = 3; 196608: 195584 // 268 = 729 -> 248 and
    195584 // 4172 = 46 -> 15. Rows past 1024 take one a chunk (the top W), the tiling key
    each branch's (its index * 256: hswc.tiling.template_tiling_key)."""
    from cpu_build import lower

    text = (Path(__file__).parent / "data" / "amax_rows_dynamic_f32.mlir").read_text()
    want = {16384: {1: (57, 0), 64: (57, 0), 65: (3, 256), 1024: (3, 256), 1025: (1, 512)},
            196608: {1: (248, 0), 64: (248, 0), 65: (15, 256), 1024: (15, 256),
                     1025: (1, 512)}}
    for ub, by_length in want.items():
        module = lower(text, "hsg-generalize-named,hsg-decompose,hsg-fuse-elementwise,"
                             f"hsg-tile-on-cores{{soc=ascend910b rows=true variant=reference "
                             f"core-num=2 ub-size={ub}}}")
        kernel = compile_module(module, level="tiled", core_num=2, ub_size=ub)
        for length, (k, key) in by_length.items():
            x = np.random.default_rng(length).standard_normal((300, length)).astype(np.float32)
            run = kernel.run(x)
            (tiling,) = run.tilings
            assert tiling is not None
            assert (tiling["ubFactor"], tiling["tilingKey"]) == (k, key), (ub, length, tiling)
            assert run.outputs[0].tobytes() == x.max(-1).tobytes(), (ub, length)
