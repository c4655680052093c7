"""ReduceSum / ReduceMax / ReduceMin, WholeReduceSum / Max / Min, Brcb and the level-0 binary
calls: hand-computed results (sums whose value depends on the order of combination, so a change
of order fails them), NaN and infinities, every limit refused by the interpreter and by the C++
CPU model, and the two bit for bit on random data, on Atlas A2/A3 (dav_c220) and Ascend 950
(dav_3510). The order: hswc.reduce_semantics (asc-devkit's documentation and implementations).

Sampled here; test_reduce_calls_sweep.py runs many more random cases (`sweep`)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from cpu_build import compiler
from reduce_calls import Case, Driver, both, interpret, random_data, same

from hswc.interpreter.ascendc_checks import ApiError

FAMILIES = ("dav_c220", "dav_3510")
F32 = np.float32
F16 = np.float16
BIG = float(2**24)
"""2^24: above it float's spacing is 2, so 2^24 + 1 ties to even (2^24) and 2^24 + 3 to 2^24 + 4."""


@pytest.fixture(scope="module")
def drivers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Driver]:
    """The C++ driver built for both families (one compile each for the module)."""
    return Driver.build_all(tmp_path_factory.mktemp("reduce_calls"), compiler())


def run_both(case: Case, drivers: dict[str, Driver], family: str, tmp_path: Path) -> bytes:
    """The buffers after the call, the interpreter and the CPU model agreeing bit for bit."""
    mine, cpu = both(case, drivers[family], tmp_path / family)
    assert not isinstance(mine, ApiError), mine
    assert cpu.status == 0, cpu.message
    assert cpu.data is not None and same(case, cpu.data, mine), \
        "the interpreter and the CPU model differ"
    return mine


def refused_by_both(case: Case, drivers: dict[str, Driver], family: str, tmp_path: Path,
                    interpreter: str, model: str) -> None:
    """Both refuse the call: the interpreter's ApiError and the model's exit 3 with its line."""
    with pytest.raises(ApiError, match=interpreter):
        interpret(case, family)
    cpu = drivers[family].run(case, tmp_path / family)
    assert cpu.status == 3 and re.search(model, cpu.message), cpu.message


def reduce_case(call: str, dtype: str, values: np.ndarray, count: int | None = None,
                work: int = 4096) -> Case:
    """ReduceX(dst = buffer 0, src = buffer 1 holding `values`, work = buffer 2)."""
    size = np.dtype(F16 if dtype == "half" else F32).itemsize
    src_bytes = -(-len(values) * size // 256) * 256
    case = Case(call, dtype, (32, src_bytes, work), ((0, 0), (1, 0), (2, 0)),
                (len(values) if count is None else count,))
    return case.with_values(1, values)


def result(case: Case, out: bytes) -> float:
    return float(case.buffer(out, 0)[0])


# region the order of a sum


@pytest.mark.parametrize("family", FAMILIES)
def test_whole_reduce_sum_adds_neighbours_as_a_tree(family: str, drivers: dict[str, Driver],
                                                    tmp_path: Path) -> None:
    """[2^24, 1, 1, 1]: the tree adds (2^24 + 1) and (1 + 1), then 2^24 + 2 (16777218); adding
    in order would tie back to 2^24 at each step (16777216). half: [2048, 1, 1, 1] gives 2050."""
    for dtype, values, want in (("float", [BIG, 1, 1, 1], BIG + 2),
                                ("half", [2048, 1, 1, 1], 2050.0)):
        case = Case("WholeReduceSum", dtype, (32, 256, 0), ((0, 0), (1, 0), (1, 0)),
                    (4, 1, 1, 1, 8)).with_values(1, np.array(values))
        out = run_both(case, drivers, family, tmp_path)
        assert result(case, out) == want


A2, A950 = FAMILIES
SUM_ORDER = [
    # (count, src values by (element, value), A2/A3's sum, Ascend 950's sum); L = 64 floats.
    # 2 repeats, 950 adds them lane by lane first: lane 0 2^24 - 2^24 = 0, then 63 twos = 126;
    # A2 sums each repeat as a tree (2^24 + 62, -2^24 + 63), then the two: 125.
    (128, [(0, BIG), *[(i, 1.0) for i in range(1, 64)], (64, -BIG),
           *[(i, 1.0) for i in range(65, 128)]], 125.0, 126.0),
    # 65 elements: A2 (2^24 + 62) + 1 = 2^24 + 63, a tie to 2^24 + 64; 950 lane 0 2^24 + 1 ties
    # to 2^24, then the tree 2^24 + 62.
    (65, [(0, BIG), *[(i, 1.0) for i in range(1, 65)]], BIG + 64, BIG + 62),
    # 3 repeats, a 1 in lane 1 of repeats 1 and 2: 950 lane 1 is 2, then 2^24 + 2; A2 adds the
    # repeats' sums 2^24, 1, 1 in order: ties to 2^24 twice.
    (192, [(0, BIG), (65, 1.0), (129, 1.0)], BIG, BIG + 2),
    # 4 repeats: 950 lane 1 = (0 + 1) + (1 + 1) = 3, 2^24 + 3 ties to 2^24 + 4; A2: 2^24.
    (256, [(0, BIG), (65, 1.0), (129, 1.0), (193, 1.0)], BIG, BIG + 4),
    # 5 repeats (> 4L): 950 sums each repeat, then the tree of [2^24, 1, 1, 1, 1]: (2^24 + 1)
    # ties to 2^24, 1 + 1 = 2, so 2^24 + 2, then + 1 ties to 2^24 + 4; A2: 2^24.
    (320, [(0, BIG), (64, 1.0), (128, 1.0), (192, 1.0), (256, 1.0)], BIG, BIG + 4),
]


@pytest.mark.parametrize("count, values, a2, a950", SUM_ORDER)
@pytest.mark.parametrize("family", FAMILIES)
def test_reduce_sum_adds_in_each_socs_order(family: str, count: int, values: list[tuple[int,
                                            float]], a2: float, a950: float,
                                            drivers: dict[str, Driver], tmp_path: Path) -> None:
    """ReduceSum(count): A2/A3 trees per repeat summed in order (方式一), Ascend 950 its
    shapes (dav_3510 ReduceSumCounterMode); the exact sums differ from both."""
    src = np.zeros(count, dtype=F32)
    for i, v in values:
        src[i] = v
    case = reduce_case("ReduceSum", "float", src)
    out = run_both(case, drivers, family, tmp_path)
    assert result(case, out) == (a2 if family == A2 else a950)


def test_half_sum_overflows_to_inf_not_65504(drivers: dict[str, Driver], tmp_path: Path) -> None:
    """[60000, 60000, -30000, 100] (asc_repeat_reduce_sum.md's saturation example): the default,
    non-saturating mode gives inf for 60000 + 60000, so the sum is inf (saturating: 35604)."""
    case = Case("WholeReduceSum", "half", (32, 256, 0), ((0, 0), (1, 0), (1, 0)),
                (4, 1, 1, 1, 8)).with_values(1, np.array([60000, 60000, -30000, 100]))
    for family in FAMILIES:
        assert result(case, run_both(case, drivers, family, tmp_path)) == np.inf


# endregion
# region NaN, infinities, zeros, the 950 start values


@pytest.mark.parametrize("family", FAMILIES)
def test_nan_and_infinities(family: str, drivers: dict[str, Driver], tmp_path: Path) -> None:
    """A NaN anywhere makes the sum, max and min NaN; inf + -inf is NaN; infinities of one
    sign sum to that infinity."""
    cases = {
        "nan": (np.r_[np.ones(100), np.nan, np.ones(99)], (np.nan, np.nan, np.nan)),
        "inf - inf": (np.r_[np.ones(70), np.inf, np.ones(60), -np.inf], (np.nan, np.inf, -np.inf)),
        "+inf": (np.r_[np.ones(150), np.inf], (np.inf, np.inf, 1.0)),
    }
    for values, (total, largest, smallest) in cases.values():
        for call, want in (("ReduceSum", total), ("ReduceMax", largest), ("ReduceMin", smallest)):
            case = reduce_case(call, "float", values.astype(F32))
            got = result(case, run_both(case, drivers, family, tmp_path))
            assert (np.isnan(got) and np.isnan(want)) or got == want, (call, values[:3])


@pytest.mark.parametrize("family", FAMILIES)
def test_which_nan_a_sum_ends_in(family: str, drivers: dict[str, Driver], tmp_path: Path) -> None:
    """A sum of 4 floats is one tree, (a0 + a1) + (a2 + a3), on both families: inf + -inf gives
    the host's default NaN (x86: 0xFFC00000), NaN + 1 that NaN, and when the last step meets two
    NaNs it keeps src0's, the left pair's. Both models give these bits (the emitted RMSNorm
    backward's row kernel, whose sums meet both, differed in the NaN's sign before)."""
    nan, default = 0x7FC00000, 0xFFC00000
    for values, want in (([np.inf, -np.inf, np.nan, 1.0], default),
                         ([np.nan, 1.0, np.inf, -np.inf], nan)):
        for call, count in (("ReduceSum", (4,)), ("WholeReduceSum", (4, 1, 1, 1, 8))):
            case = (reduce_case(call, "float", np.array(values, F32)) if call == "ReduceSum"
                    else Case(call, "float", (32, 256, 0), ((0, 0), (1, 0), (1, 0)),
                              count).with_values(1, np.array(values)))
            out = case.buffer(run_both(case, drivers, family, tmp_path), 0)
            assert int(np.asarray(out[:1], F32).view(np.uint32)[0]) == want, (call, values)


@pytest.mark.parametrize("family", FAMILIES)
def test_arithmetic_on_two_nans_keeps_src0s(family: str, drivers: dict[str, Driver],
                                            tmp_path: Path) -> None:
    """Level-0 Add, Sub, Mul, Div of two NaNs give src0's NaN quieted, in both models (the
    host's + may give either: the C++ compiler is free to swap a commutative operation's
    operands); a NaN and a number give the NaN; inf - inf with no NaN the host's default NaN."""
    sign, signalling = 0x80000000, 0x7F800001
    a = np.full(64, 0x3F800000, np.uint32)  # 1.0
    b = a.copy()
    a[:4] = [0x7FC00000, 0x7FC00000 | sign, signalling, 0x7FC00123]
    b[:4] = [0x7FC00000 | sign, 0x7FC00000, 0x7FC00000 | sign, 0x3F800000]
    quiet = [0x7FC00000, 0x7FC00000 | sign, 0x7FC00001, 0x7FC00123]
    for call in ("Add", "Sub", "Mul", "Div"):
        case = Case(call, "float", (256, 256, 256), ((0, 0), (1, 0), (2, 0)),
                    (64, 1, 1, 1, 1, 8, 8, 8))
        case = case.with_values(1, a.view(F32)).with_values(2, b.view(F32))
        out = case.buffer(run_both(case, drivers, family, tmp_path), 0)
        assert np.asarray(out[:4], F32).view(np.uint32).tolist() == quiet, call


def test_950_extrema_start_from_the_finite_limits(drivers: dict[str, Driver],
                                                  tmp_path: Path) -> None:
    """dav_3510's ReduceMax starts from the lowest finite value (GetMinValue): a row of -inf
    gives -65504 (half) or -FLT_MAX; A2/A3 gives -inf. ReduceMin alike with +inf."""
    for dtype, limit in (("half", 65504.0), ("float", float(np.finfo(F32).max))):
        for call, sign in (("ReduceMax", -1), ("ReduceMin", 1)):
            case = reduce_case(call, dtype, np.full(200, sign * np.inf))
            assert result(case, run_both(case, drivers, A2, tmp_path)) == sign * np.inf
            assert result(case, run_both(case, drivers, A950, tmp_path)) == sign * limit


@pytest.mark.parametrize("family", FAMILIES)
def test_signed_zeros(family: str, drivers: dict[str, Driver], tmp_path: Path) -> None:
    """Lanes the mask leaves out take no part (assumed): -0 + -0 + -0 stays -0, and a one-element
    sum is that element; Max(-0, +0) = +0, Min = -0."""
    minus = np.array([-0.0, -0.0, -0.0])
    whole = Case("WholeReduceSum", "float", (32, 256, 0), ((0, 0), (1, 0), (1, 0)),
                 (3, 1, 1, 1, 8)).with_values(1, minus)
    assert np.signbit(result(whole, run_both(whole, drivers, family, tmp_path)))
    one = reduce_case("ReduceSum", "float", np.array([-0.0]))
    assert np.signbit(result(one, run_both(one, drivers, family, tmp_path)))
    pair = np.array([-0.0, 0.0, -0.0])
    for call, negative in (("ReduceMax", False), ("ReduceMin", True)):
        case = reduce_case(call, "half", pair)
        assert bool(np.signbit(result(case, run_both(case, drivers, family, tmp_path)))) \
            == negative


# endregion
# region Brcb and the row broadcast


@pytest.mark.parametrize("family", FAMILIES)
def test_brcb_fills_blocks_and_sub_subtracts_a_row_value(family: str, drivers: dict[str, Driver],
                                                         tmp_path: Path) -> None:
    """Brcb(b, rowmax, 2, {1, 8}) puts rowmax[i] in 32-byte block i; then Sub(x, x, b, 64, 16,
    {1, 1, 0, 8, 8, 1}) subtracts block r's value from every lane of row r (src1's block stride
    0 re-reads one block, its repeat stride 1 moves one block a row): x - rowmax, exactly."""
    rng = np.random.default_rng(7)
    rowmax = rng.standard_normal(16).astype(F32)
    brcb = Case("Brcb", "float", (512, 64, 0), ((0, 0), (1, 0), (1, 0)), (2, 1, 8)).with_values(
        1, rowmax)
    out = run_both(brcb, drivers, family, tmp_path)
    blocks = brcb.buffer(out, 0).reshape(16, 8)
    assert (blocks == rowmax[:, None]).all()
    x = rng.standard_normal((16, 64)).astype(F32)
    sub = Case("Sub", "float", (4096, 512, 0), ((0, 0), (0, 0), (1, 0)),
               (64, 16, 1, 1, 0, 8, 8, 1)).with_values(0, x.ravel()).with_values(1, blocks.ravel())
    out = run_both(sub, drivers, family, tmp_path)
    np.testing.assert_array_equal(sub.buffer(out, 0).reshape(16, 64), x - rowmax[:, None])


@pytest.mark.parametrize("family", FAMILIES)
def test_masked_lanes_and_strides(family: str, drivers: dict[str, Driver], tmp_path: Path) -> None:
    """Mul with mask 10 over 3 repeats, src0 every other block (block stride 2, repeat stride
    16): lanes 0..9 of each repeat are products, lanes 10..63 keep dst's old values."""
    a = np.arange(3 * 128, dtype=F32)
    case = Case("Mul", "float", (768, 1536, 768), ((0, 0), (1, 0), (2, 0)),
                (10, 3, 1, 2, 1, 8, 16, 8))
    case = case.with_values(0, np.full(192, -1.0)).with_values(1, a).with_values(2, np.full(192, 2))
    dst = case.buffer(run_both(case, drivers, family, tmp_path), 0).reshape(3, 64)
    for r in range(3):
        k = np.arange(10)
        src0 = a[r * 128 + (k // 8) * 16 + k % 8]  # lane k: block k // 8 at stride 2
        assert (dst[r, :10] == 2 * src0).all() and (dst[r, 10:] == -1).all()


@pytest.mark.parametrize("family", FAMILIES)
def test_add_may_accumulate_into_dst(family: str, drivers: dict[str, Driver],
                                     tmp_path: Path) -> None:
    """Add(acc, x, acc, 64, 4, {1, 1, 1, 0, 8, 0}): src1 is dst and both repeat strides are 0,
    which the overlap rules allow for Add: the four rows of x are added into acc in order."""
    x = np.arange(256, dtype=F32).reshape(4, 64)
    case = Case("Add", "float", (256, 1024, 0), ((0, 0), (1, 0), (0, 0)),
                (64, 4, 1, 1, 1, 0, 8, 0)).with_values(0, np.ones(64)).with_values(1, x.ravel())
    got = case.buffer(run_both(case, drivers, family, tmp_path), 0)
    np.testing.assert_array_equal(got, 1 + x.sum(axis=0))


# endregion
# region limits


@pytest.mark.parametrize("family", FAMILIES)
def test_count_and_repeat_zero(family: str, drivers: dict[str, Driver], tmp_path: Path) -> None:
    """count, repeat or mask 0: a NOP on A2/A3 (dst untouched), refused on Ascend 950 (the
    docs do not promise a NOP)."""
    cases = [reduce_case("ReduceSum", "float", np.ones(8), count=0),
             Case("WholeReduceMax", "float", (32, 256, 0), ((0, 0), (1, 0), (1, 0)),
                  (64, 0, 1, 1, 8)),
             Case("Max", "half", (256, 256, 256), ((0, 0), (1, 0), (2, 0)),
                  (0, 1, 1, 1, 1, 8, 8, 8)),
             Case("Brcb", "float", (256, 32, 0), ((0, 0), (1, 0), (1, 0)), (0, 1, 8))]
    for case in cases:
        case = random_data(case, np.random.default_rng(0))
        if family == A2:
            assert run_both(case, drivers, family, tmp_path) == case.data
        else:
            refused_by_both(case, drivers, family, tmp_path, r"0\b.*not modelled on Ascend 950",
                            r"0\b.*not modelled on Ascend 950")


@pytest.mark.parametrize("family", FAMILIES)
def test_work_buffer_minimum(family: str, drivers: dict[str, Driver], tmp_path: Path) -> None:
    """ReduceMax's work on A2/A3: DivCeil(2 * max(1, count / 64), 8) * 8 floats (24 for 640);
    ReduceSum's on Ascend 950: 520 floats store ceil(520 / 64) = 9 repeat sums, one more than
    the documented DivCeil(8, 8) * 8. The other family needs none."""
    rng = np.random.default_rng(1)
    short_max = random_data(reduce_case("ReduceMax", "float", np.ones(640), work=64), rng)
    short_sum = random_data(reduce_case("ReduceSum", "float", np.ones(520), work=32), rng)
    refusing, passing = (short_max, short_sum) if family == A2 else (short_sum, short_max)
    need = "24" if family == A2 else "9"
    refused_by_both(refusing, drivers, family, tmp_path, f"needs at least {need}",
                    rf"work holds \d+ elements; .* needs at least {need}")
    run_both(passing, drivers, family, tmp_path)


@pytest.mark.parametrize("family", FAMILIES)
def test_the_work_buffer_is_left_poisoned(family: str, drivers: dict[str, Driver],
                                          tmp_path: Path) -> None:
    """The work elements the call may use hold a NaN afterwards (their contents are
    unspecified), the others are untouched."""
    case = random_data(reduce_case("ReduceMin", "float", np.ones(640), work=256),
                       np.random.default_rng(2))
    out = run_both(case, drivers, family, tmp_path)
    work, before = case.buffer(out, 2), case.buffer(case.data, 2)
    poisoned = 24 if family == A2 else 0
    assert np.isnan(work[:poisoned]).all()
    assert work[poisoned:].tobytes() == before[poisoned:].tobytes()


@pytest.mark.parametrize("family", FAMILIES)
def test_masks_beyond_a_repeat(family: str, drivers: dict[str, Driver], tmp_path: Path) -> None:
    """A mask of 65 floats is more than a repeat's 64 lanes."""
    case = Case("WholeReduceSum", "float", (32, 256, 0), ((0, 0), (1, 0), (1, 0)),
                (65, 1, 1, 1, 8))
    refused_by_both(random_data(case, np.random.default_rng(3)), drivers, family, tmp_path,
                    r"mask 65 is outside \[0, 64\]", r"mask 65 is outside \[0, 64\]")


@pytest.mark.parametrize("family", FAMILIES)
def test_repeats_beyond_255(family: str, drivers: dict[str, Driver], tmp_path: Path) -> None:
    """WholeReduceSum takes repeatTime as an int32_t and documents [0, 255]."""
    case = Case("WholeReduceSum", "float", (1024, 256, 0), ((0, 0), (1, 0), (1, 0)),
                (64, 256, 1, 1, 0))
    refused_by_both(random_data(case, np.random.default_rng(4)), drivers, family, tmp_path,
                    r"repeat 256 is outside \[0, 255\]", r"repeatTime 256 is outside \[0, 255\]")


@pytest.mark.parametrize("family", FAMILIES)
def test_every_touched_byte_inside_its_tensor(family: str, drivers: dict[str, Driver],
                                              tmp_path: Path) -> None:
    """src1 with repeat stride 8 over 3 repeats needs 768 bytes; its tensor has 512. A
    ReduceSum of 100 elements of a 64-element src alike."""
    case = Case("Add", "float", (768, 768, 512), ((0, 0), (1, 0), (2, 0)),
                (64, 3, 1, 1, 1, 8, 8, 8))
    refused_by_both(random_data(case, np.random.default_rng(5)), drivers, family, tmp_path,
                    "src1 needs 768 bytes but the LocalTensor has 512",
                    "src1 needs 768 bytes but the LocalTensor has 512")
    short = reduce_case("ReduceSum", "float", np.ones(64), count=100)
    refused_by_both(short, drivers, family, tmp_path, "count 100 exceeds src",
                    "src needs 400 bytes but the LocalTensor has 256")


@pytest.mark.parametrize("family", FAMILIES)
def test_overlaps_the_docs_forbid(family: str, drivers: dict[str, Driver], tmp_path: Path) -> None:
    """Within a repeat dst and src0 one block apart (partial overlap); Div accumulating into dst
    (only Add, Sub, Mul, Max, Min may); Brcb's src inside its dst; a WholeReduceSum writing a
    repeat's sum into the next repeat's source."""
    rng = np.random.default_rng(6)
    partial = Case("Add", "float", (1024, 256, 0), ((0, 8), (0, 0), (1, 0)),
                   (64, 1, 1, 1, 1, 8, 8, 8))
    refused_by_both(random_data(partial, rng), drivers, family, tmp_path,
                    "overlap partially in repeat 0", "overlap partially in repeat 0")
    div = Case("Div", "float", (256, 1024, 0), ((0, 0), (1, 0), (0, 0)),
               (64, 4, 1, 1, 1, 0, 8, 0))
    refused_by_both(random_data(div, rng), drivers, family, tmp_path,
                    "src1 of repeat 1 reads UB byte 0, which dst of repeat 0 wrote",
                    "src1 of repeat 1 reads UB byte 0, which dst of repeat 0 wrote")
    brcb = Case("Brcb", "float", (512, 0, 0), ((0, 0), (0, 8), (0, 0)), (1, 1, 8))
    refused_by_both(random_data(brcb, rng), drivers, family, tmp_path,
                    "dst and src share UB byte", "dst and src share UB byte")
    whole = Case("WholeReduceSum", "float", (1024, 0, 0), ((0, 64), (0, 0), (0, 0)),
                 (64, 3, 1, 1, 8))
    refused_by_both(random_data(whole, rng), drivers, family, tmp_path,
                    "src of repeat 1 reads UB byte 256, which dst of repeat 0 wrote",
                    "src of repeat 1 reads UB byte 256, which dst of repeat 0 wrote")


@pytest.mark.parametrize("family", FAMILIES)
def test_a_whole_reduction_over_its_own_source(family: str, drivers: dict[str, Driver],
                                               tmp_path: Path) -> None:
    """WholeReduceMax(t, t, ...) of one repeat (GeluQuant's ComputeReduceMax) writes its result
    over the first lane of its own source: a partial overlap the general rule forbids, refused
    by both; with --record-rules the model reports it and writes the maximum of the lanes it
    read (numpy's max of the 64 floats, computed here)."""
    values = np.random.default_rng(8).standard_normal(64).astype(np.float32)
    case = Case("WholeReduceMax", "float", (256, 0, 0), ((0, 0), (0, 0), (0, 0)),
                (64, 1, 1, 1, 8)).with_values(0, values)
    refused_by_both(case, drivers, family, tmp_path, "overlap partially in repeat 0",
                    "overlap partially in repeat 0")
    recorded = drivers[family].run(case, tmp_path / f"{family}-recorded", record_rules=True)
    assert recorded.status == 0 and "overlap partially in repeat 0" in recorded.message
    assert recorded.data is not None
    assert case.buffer(recorded.data, 0)[0] == values.max()


# endregion
# region random data, bit for bit


def random_case(rng: np.random.Generator, call: str, dtype: str) -> Case:
    """A valid call with random parameters, operands in separate buffers."""
    size = 2 if dtype in ("half", "bfloat16_t") else 4
    lanes = 256 // size
    if call in ("ReduceSum", "ReduceMax", "ReduceMin"):
        count = int(rng.choice([1, 7, lanes - 1, lanes, lanes + 1, 3 * lanes + 5, 4 * lanes,
                                5 * lanes + 3, lanes * lanes + 17, int(rng.integers(1, 20000))]))
        count = min(count, 60000 // size)
        src = -(-count * size // 32) * 32
        return Case(call, dtype, (32, src, src + 64), ((0, 0), (1, 0), (2, 0)), (count,))
    repeat = int(rng.integers(1, 12))
    if call.startswith("WholeReduce"):
        mask, blk, rep, dst_rep = (int(rng.integers(1, lanes + 1)), int(rng.integers(0, 3)),
                                   int(rng.integers(0, 20)), int(rng.integers(0, 4)))
        src = (repeat * rep + 8 * max(blk, 1)) * 32
        offset = int(rng.integers(0, 4))  # a dst need only be aligned to its element
        dst = -(-(repeat * dst_rep + 1 + offset) * size // 32) * 32
        return Case(call, dtype, (dst, src, 0), ((0, offset), (1, 0), (1, 0)),
                    (mask, repeat, dst_rep, blk, rep))
    if call == "Brcb":
        blk, rep = int(rng.integers(1, 3)), int(rng.integers(0, 20))
        dst = (repeat * rep + 8 * blk) * 32
        return Case(call, dtype, (dst, -(-8 * repeat * size // 32) * 32, 0),
                    ((0, 0), (1, 0), (1, 0)), (repeat, blk, rep))
    mask = int(rng.integers(1, lanes + 1))
    blk = [int(rng.integers(1, 3)), *(int(rng.integers(0, 3)) for _ in range(2))]
    rep = [int(rng.integers(1, 17)), *(int(rng.integers(0, 17)) for _ in range(2))]
    sizes = tuple((repeat * r + 8 * max(b, 1)) * 32 for b, r in zip(blk, rep, strict=True))
    return Case(call, dtype, sizes, ((0, 0), (1, 0), (2, 0)), (mask, repeat, *blk, *rep))  # type: ignore[arg-type]


CALLS = ("ReduceSum", "ReduceMax", "ReduceMin", "WholeReduceSum", "WholeReduceMax",
         "WholeReduceMin", "Brcb", "Add", "Sub", "Mul", "Div", "Max", "Min")


def agree_on_random_cases(drivers: dict[str, Driver], tmp_path: Path, seed: int,
                          per_call: int) -> int:
    """`per_call` random cases of every call, dtype and family; the number run."""
    rng = np.random.default_rng(seed)
    ran = 0
    for family in FAMILIES:
        for call in CALLS:
            dtypes = ["half", "float"]
            if call == "Brcb" or (family == A950 and call in ("Add", "Sub", "Mul", "Max",
                                                              "Min")):
                dtypes.append("bfloat16_t")
            for dtype in dtypes:
                for _ in range(per_call):
                    case = random_data(random_case(rng, call, dtype), rng)
                    run_both(case, drivers, family, tmp_path / f"{call}_{dtype}")
                    ran += 1
    return ran


def test_interpreter_and_cpu_model_agree_on_random_data(drivers: dict[str, Driver],
                                                        tmp_path: Path) -> None:
    """One random case of every call, dtype and family (more under `sweep`)."""
    assert agree_on_random_cases(drivers, tmp_path, seed=36, per_call=1) == 59


# endregion
