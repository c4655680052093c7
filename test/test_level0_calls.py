"""The CPU model's vector mask register (SetMaskCount / SetMaskNorm / SetVectorMask, read by
isSetMask = false calls), Duplicate's mask forms (ascendc_cpu_vec_fill.h), BlockReduceSum / Max,
WholeReduceMax's index orders, TransDataTo5HD,
Gather's count form and ArithProgression (hswc/checker/ascendc_cpu/ascendc_cpu_mask.h,
ascendc_cpu_vec_block_reduce.h, ascendc_cpu_vec_reduce.h, ascendc_cpu_vec_transpose.h,
ascendc_cpu_gather.h), against values computed by hand from asc-devkit's documentation (掩码.md,
SetVectorMask.md, ReduceDataBlock.md, ReduceRepeat.md, TransDataTo5HD.md, Gather.md). One
driver build per SoC family (test/cpp_fixtures/level0_calls_driver.cpp);
Ascend 950's, for the one case where the families differ, under `sweep`."""

from __future__ import annotations

import struct
import subprocess
from pathlib import Path

import pytest
from cpu_build import compiler

from hswc.checker.build import MODEL

REPO = Path(__file__).resolve().parents[1]
DRIVER = REPO / "test" / "cpp_fixtures" / "level0_calls_driver.cpp"
FLAGS = {"dav_c220": (), "dav_3510": ("-DASCENDC_CPU_DAV_3510",)}
BIG = 2.0**24


def _build(directory: Path, family: str) -> Path:
    exe = directory / f"level0_calls_{family}"
    command = [compiler(), "-std=c++17", "-Wall", "-Wextra", "-Werror", "-O1", *FLAGS[family],
               "-I", str(MODEL), "-I", str(REPO / "test" / "cpp_fixtures"), str(DRIVER), "-o",
               str(exe)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return exe


@pytest.fixture(scope="module")
def a2(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _build(tmp_path_factory.mktemp("level0_calls"), "dav_c220")


def run(exe: Path, scenario: str) -> list[tuple[float, int]]:
    """dst's first 16 floats (value, bits) after the scenario; asserts the run ended well."""
    done = subprocess.run([str(exe), scenario], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr
    return [(float(v), int(b)) for v, b in (line.split() for line in done.stdout.splitlines())]


def refused(exe: Path, scenario: str) -> str:
    done = subprocess.run([str(exe), scenario], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 3, (done.returncode, done.stdout)
    return done.stderr


def values(out: list[tuple[float, int]]) -> list[float]:
    return [v for v, _ in out]


UNTOUCHED = -7.0
"""What the driver's dst holds before the call."""


def test_block_sum_is_a_tree_per_block(a2: Path) -> None:
    # each block [2^24, 1, 1, 1, 1, 1, 1, 1]: pairs 2^24 (2^24 + 1 ties to even), 2, 2, 2; then
    # 2^24 + 2 and 4; then 2^24 + 6 (adding in order would stay at 2^24)
    assert values(run(a2, "block_tree")) == [BIG + 6] * 16


def test_block_max_takes_each_blocks_largest(a2: Path) -> None:
    assert values(run(a2, "block_max")) == [7, 15, 23, 31, 39, 47, 55, 63] + [UNTOUCHED] * 8


def test_counter_mode_runs_count_elements_over_repeats(a2: Path) -> None:
    # 70 ones, repeatTime 1 ignored: a whole repeat (8 blocks of 8) and 6 lanes of a second;
    # on Atlas A2/A3 the blocks with no lane keep dst
    assert values(run(a2, "ones_counter")) == [8] * 8 + [6] + [UNTOUCHED] * 7
    # WholeReduceSum with repeatTime 0 (log_softmax_v2.h:183's MASK_PLACEHOLDER there): 64 and 6
    assert values(run(a2, "whole_counter")) == [64, 6] + [UNTOUCHED] * 14


@pytest.mark.sweep
def test_ascend_950_fills_empty_blocks(tmp_path: Path) -> None:
    exe = _build(tmp_path, "dav_3510")
    # ReduceDataBlock.md: a block with no lane on gets 0 for a sum on Ascend 950
    assert values(run(exe, "ones_counter")) == [8] * 8 + [6] + [0] * 7
    assert values(run(exe, "whole_counter")) == [64, 6] + [UNTOUCHED] * 14


def test_copy_in_counter_mode_copies_the_count_in_each_repeat(a2: Path) -> None:
    # Copy's mask-form page (UBToUB, lines 169-174): the count is each repeat's elements,
    # repeatTime counts; 10 floats are blocks 0 and 1 (8 and 2 lanes), from src blocks 0 and 2
    assert values(run(a2, "copy_counter")) == [*range(8), 16, 17] + [UNTOUCHED] * 6
    # Normal mode, lanes 0 and 2 of the register, 2 repeats: dst repeat stride 1 block, src 8
    assert values(run(a2, "copy_register")) == [0, UNTOUCHED, 2, UNTOUCHED, UNTOUCHED,
                                                UNTOUCHED, UNTOUCHED, UNTOUCHED,
                                                64, UNTOUCHED, 66] + [UNTOUCHED] * 5


def test_duplicate_writes_the_lanes_its_mask_enables(a2: Path) -> None:
    # Duplicate.md:72-84, 掩码.md:113-132: mask[0] = 0x7F8 enables lanes 3..10 of one repeat
    # (they cross the first 32-byte block); the others keep their value
    assert values(run(a2, "duplicate_lanes")) == [UNTOUCHED] * 3 + [2.5] * 8 + [UNTOUCHED] * 5
    # a continuous mask of 3 lanes in each of 2 repeats whose dst repeat stride is 1 block
    assert values(run(a2, "duplicate_continuous")) == [4.0] * 3 + [UNTOUCHED] * 5 \
        + [4.0] * 3 + [UNTOUCHED] * 5
    assert "mask[1] is 1, not 0" in refused(a2, "duplicate_mask_high")
    assert "dst" in refused(a2, "duplicate_past_tensor")


def test_normal_mode_reads_the_registers_lanes(a2: Path) -> None:
    # SetVectorMask(0, 0b1011): lanes 0, 1 and 3 of each of 2 repeats of src[i] = i
    assert values(run(a2, "whole_register")) == [0 + 1 + 3, 64 + 65 + 67] + [UNTOUCHED] * 14
    # a call reading the register leaves it known for the next: max of lanes 0, 1, 3 is 3
    out = values(run(a2, "whole_register_twice"))
    assert out[0] == 4 and out[8] == 3


def test_max_with_its_index(a2: Path) -> None:
    # ORDER_VALUE_INDEX: [value, lane] per repeat, a float's lane as uint32 bits; a tie (lanes
    # 5 and 9 hold 1000) gives the lowest lane
    out = run(a2, "max_value_index")
    assert out[0][0] == 1000 and out[1][1] == 5
    assert out[2][0] == 127 and out[3][1] == 63
    # ORDER_INDEX_VALUE; a NaN result's lane is the lowest NaN's (assumed), though quieted
    out = run(a2, "max_nan_index")
    assert out[0][1] == 3 and out[1][1] == 0x7FC00001


def test_what_the_model_does_not_follow_is_refused(a2: Path) -> None:
    assert "isSetMask = false after another vector call" in refused(a2, "stale_register")
    assert "counter mode (SetMaskCount) with isSetMask = true" in refused(a2, "counter_set_mask")


def test_transpose_of_32_bit_blocks(a2: Path) -> None:
    # src block b holds 100 b + i (i < 8); round j gathers element j of blocks 0..7 into dst
    # block 2j and of blocks 8..15 into 2j + 1: dst's first block is 0, 100, ..., 700, its second
    # 800, ..., 1500, its third 1, 101, ..., 701
    out = run(a2, "transpose_b32")
    first = [v for v, which in out if which == 0]
    assert first == [100 * b for b in range(16)]
    # repeatTimes 1 with strides 0 writes those 16 blocks only: the next 16 keep the UB's fill
    rest = {b for v, which in out if which == 1 for b in [struct.pack("<f", v)]}
    assert rest == {bytes([0xA5] * 4)}

def test_transpose_repeats_move_by_their_strides(a2: Path) -> None:
    out = run(a2, "transpose_twice")
    assert [v for v, which in out if which == 0] == [100 * b for b in range(16)]
    # the second repeat: blocks 16..31 (-(100 b + i)) into dst blocks 16..31
    assert [v for v, which in out if which == 1] == [-100 * b for b in range(16)]


def test_transpose_of_16_bit_blocks(a2: Path) -> None:
    # TransDataTo5HDImpl (GeGluGradV2 calls it) on 16 blocks of 16 halves, src[16 b + i] = 16 b + i:
    # dst block j, element i = src block i, element j: the matrix's transpose
    out = [v for v, _ in run(a2, "transpose_b16")]
    assert out[:16] == [16 * i for i in range(16)]
    assert out[16:32] == [16 * i + 1 for i in range(16)]


def test_scalar_bit_counts(a2: Path) -> None:
    # CountLeadingZero.md: 0x0100000000000020 has 7 leading zeros, 0 has 64; 0xF0F0 has 8 ones
    # and 56 zeros (GetBitCount.md)
    assert [v for v, _ in run(a2, "scalar_bits")] == [7, 64, 8, 56]


def test_gather_picks_by_byte_offsets_and_arith_progression_fills_blocks(a2: Path) -> None:
    """Gather.md: dst[i] = src[(srcBaseAddr + srcOffset[i]) / sizeof(T)]; src[i] = i, offsets
    0, 8, 16, .. (ArithProgression, 4-byte elements): base 4 the odd elements, base 0 the even.
    ArithProgression of 9 int32_t writes two whole blocks (its Adds fill CeilAlign(9, 8)): the
    element at 10 is the sequence's 80, the one at 20 untouched (-9)."""
    got = values(run(a2, "gather_pairs"))
    assert got[:6] == [1, 3, 5, 7, 9, 11] and got[6:8] == [UNTOUCHED] * 2
    assert got[8:14] == [0, 2, 4, 6, 8, 10]
    assert got[14:16] == [80, -9]
    assert "is not a multiple of the element's 4" in refused(a2, "gather_misaligned")
