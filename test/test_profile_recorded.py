"""A hand-written kernel timed by the cost model: the C++ CPU model's recorded call stream
(hswc.cost_model.recorded), the UB bank-conflict rule, an asc-devkit `.asc` example's device part
(hswc.checker.asc_source), and hswc-check-kernel --profile end to end, against times worked out
by hand from the figures."""

from __future__ import annotations

import re
import subprocess
from dataclasses import fields, replace
from pathlib import Path

import pytest

from hswc.checker.asc_source import device_part
from hswc.cost_model.recorded import SCALAR, RecordError, read_stream, time_run
from hswc.cost_model.stream import (
    MTE2,
    MTE3,
    VECTOR,
    UbOperand,
    bank_conflict,
    bank_conflict_share,
)
from hswc.platform import COST_FIGURES, PLATFORMS, CostFigures

SIMPLE = CostFigures(clock_hz=1e9, hbm_bytes_per_s=1e9, l2_bytes_per_s=1e9, cycles_per_repeat=1.0,
                     vector_issue_cycles=0, pipe_barrier_cycles=0, core_gm_bytes_per_s=1e9,
                     dma_setup_cycles=0, write_setup_cycles=0, bank_conflict_factor=2.0,
                     scalar_ub_read_cycles=3, scalar_ub_write_cycles=5, scalar_call_cycles=0,
                     scalar_call_load_cycles=0, launch_cycles=0)
"""1 cycle = 1 ns, 1 byte per ns, no overheads: times by hand."""

ONE_CHUNK = """core 0
MTE2 DataCopy k.cpp:10 128 100 1 0
set MTE2_V 0
wait MTE2_V 0
V Add k.cpp:12 0:512:r {y}:512:r 65536:512:w
set V_MTE3 0
wait V_MTE3 0
MTE3 DataCopy k.cpp:14 128 100 1 0
barrier ALL
"""


def test_a_recorded_chunk_in_order() -> None:
    """Copy-in 100 ns, then an Add of 2 repeats (y 1280 bytes after x: other bank groups; z in
    the next 64 KB bank), then copy-out 100 ns: 202 ns; every busy time as its pipe's work."""
    times = time_run(read_stream(ONE_CHUNK.format(y=1024 + 256), SIMPLE), SIMPLE)
    assert times.total * 1e9 == pytest.approx(202)
    assert {k: v * 1e9 for k, v in times.busy.items()} == {
        MTE2: pytest.approx(100), VECTOR: pytest.approx(2), MTE3: pytest.approx(100),
        SCALAR: pytest.approx(0)}
    assert times.line().startswith("modelled: 0.20 us (MTE2 0.10 us, V 0.00 us, MTE3 0.10 us")


def test_sources_in_the_same_bank_groups_double_the_repeats() -> None:
    """y at 1024 bytes after x (a multiple of 512): the same 8 bank groups, 4 cycles."""
    times = time_run(read_stream(ONE_CHUNK.format(y=1024), SIMPLE), SIMPLE)
    assert times.busy[VECTOR] * 1e9 == pytest.approx(4)
    assert times.total * 1e9 == pytest.approx(204)


@pytest.mark.parametrize(("y", "total"), [
    (7168, 125),  # y at 7168 (a multiple of 512): V 50 ns; MTE2 25 bytes in it, 75 after
    (7168 + 256, 100),  # other bank groups: V 25 ns; MTE2 at the port rate throughout
])
def test_a_conflicting_vector_call_slows_the_reads_beside_it(y: int, total: float) -> None:
    """A copy-in of 100 bytes beside an Add of 25 repeats, with no flag between them: while
    the Add's sources conflict in the bank groups, MTE2 reads at conflict_read_factor (0.5 here)
    of its port's 1 byte/ns."""
    stream = (f"core 0\nV Add k.cpp:1 0:6400:r {y}:6400:r 65536:6400:w\n"
              "MTE2 DataCopy k.cpp:2 128 100 1 0\n")
    figures = replace(SIMPLE, conflict_read_factor=0.5)
    times = time_run(read_stream(stream, figures), figures)
    assert times.total * 1e9 == pytest.approx(total)
    assert times.busy[MTE2] * 1e9 == pytest.approx(total)


def test_scalar_accesses_wait_for_the_pipes_and_hold_them() -> None:
    """10 GetValue (3 cycles) and 4 SetValue (5): 50 cycles on the scalar unit after the
    copy-in, before the copy-out; the launch's and the issued calls' cycles counted."""
    stream = ("core 0\nMTE2 DataCopy k.cpp:1 64 64 1 0\nscalar 10 4 0 0\n"
              "MTE3 DataCopy k.cpp:2 64 64 1 0\n")
    figures = replace(SIMPLE, launch_cycles=7, scalar_call_cycles=2)
    times = time_run(read_stream(stream, figures), figures)
    assert times.total * 1e9 == pytest.approx(64 + 50 + 64 + 7)
    assert times.busy[SCALAR] * 1e9 == pytest.approx(50 + 2 * 2)


def test_a_call_issues_slower_under_l2_load() -> None:
    """Two cores each read 100 bytes behind a 1 byte/ns HBM and a 4 byte/ns L2: 200 ns, 200
    bytes moved of L2's 800 (a load of 1/4), so each core's one call takes 2 + 6 / 4 cycles."""
    stream = "".join(f"core {c}\nMTE2 DataCopy k.cpp:1 128 100 1 0\n" for c in (0, 1))
    figures = replace(SIMPLE, l2_bytes_per_s=4e9, scalar_call_cycles=2,
                      scalar_call_load_cycles=6)
    times = time_run(read_stream(stream, figures), figures)
    assert times.total * 1e9 == pytest.approx(200)
    assert times.busy[SCALAR] * 1e9 == pytest.approx(3.5)


def test_cores_share_the_bandwidth_and_are_averaged() -> None:
    """Two cores reading 100 bytes each behind a 1 byte/ns HBM: 200 ns, each MTE2 busy 200."""
    copy = "MTE2 DataCopy k.cpp:1 128 100 1 0\n"
    stream = f"core 0\n{copy}core 1\n{copy}"
    times = time_run(read_stream(stream, SIMPLE), SIMPLE)
    assert times.total * 1e9 == pytest.approx(200)
    assert times.busy[MTE2] * 1e9 == pytest.approx(200)


def test_an_unmodelled_call_is_named_once() -> None:
    stream = "core 0\nother Reg::LoadAlign - V\nother Reg::LoadAlign - V\nother Foo k.cpp:3 S\n"
    assert read_stream(stream, SIMPLE).unmodelled == ["Reg::LoadAlign", "Foo at k.cpp:3"]


@pytest.mark.parametrize(("stream", "message"), [
    ("core 0\nwait MTE2_V 0\n", "never set"),
    ("core 0\nV\n", "cannot read"),
    ("MTE2 DataCopy k.cpp:1 1 1 1 0\n", "before any core"),
])
def test_a_stream_it_cannot_read_is_an_error(stream: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        read_stream(stream, SIMPLE)


@pytest.mark.parametrize(("operands", "conflict"), [
    ([(0, False), (32768, False), (65536, True)], True),  # add_high_performance case 5's ping
    ([(0, False), (32512, False), (131072, True)], False),  # case 6's ping: y 256 bytes on
    ([(65536, False), (98048, False), (163584, True)], False),  # case 6's pong
    ([(0, False), (256, False), (512, True)], True),  # x and z: the same groups, one bank
    ([(0, False), (256, False), (65536 + 512, True)], False),  # z in the next bank
    # asc-devkit bank_conflict_ub (README.md:78-85, measured on A2): src0, src1, dst
    ([(0, False), (0x10100, False), (0x20000, True)], False),  # 1: apart
    ([(0, False), (0x4000, False), (0x10000, True)], True),  # 2: sources in one bank
    ([(0, False), (0x10000, False), (0x14100, True)], True),  # 3: sources in one group
    ([(0, False), (0x10100, False), (0x4000, True)], False),  # 4: dst aligned with src0: delayed
    ([(0, False), (0x10100, False), (0x4020, True)], True),  # 5: dst one group on: read-write
    ([(0, False), (0x10100, False), (0x10100, True)], False),  # 6: in place: delayed
    # one source: in place, or aligned in one bank (delayed); in another bank's same groups
    ([(0x100, False), (0x100, True)], False),
    ([(0x100, False), (0x300, True)], False),
    ([(0, False), (0x10000, True)], False),  # the guide's overview: 0x0 and 0x10000
    ([(0, False), (0x120, True)], True),  # one bank, groups 0-7 against 9-16: group 0 twice
    ([(0, False), (0x100, True)], False),  # the other 8 groups
    # a source read twice (Mul(x, x)) is one read
    ([(0x200, False), (0x200, False), (0x8000, True)], False),
    # the delayed in-place write meets the other source's groups in its bank
    ([(0, False), (0x100, False), (0, True)], True),
    ([(0, False), (0x10100, False), (0, True)], False),  # ... but not in another bank
    # two writes in one group (write-write)
    ([(0, False), (0x10000, True), (0x20040, True)], True),
])
def test_bank_conflicts(operands: list[tuple[int, bool]], conflict: bool) -> None:
    assert bank_conflict(operands) is conflict


@pytest.mark.parametrize(("operands", "conflict"), [
    # bank_conflict_ub scenarios 7 and 8 (README.md:86-87, measured): src0 reads one block a
    # repeat (block stride 0), moving 32 bytes a repeat (7: meets src1's groups) or 256 (8: not)
    ([UbOperand(0, False, 32, 1), UbOperand(0x10100, False), UbOperand(0x10100, True)], True),
    ([UbOperand(0, False, 256, 1), UbOperand(0x10100, False), UbOperand(0x10100, True)], False),
    # a Cast from f16 at 0 (128 bytes, 4 groups a repeat) to f32 256 bytes on, in one bank: its
    # second repeat reads groups 4-7 while it writes 0-7 (a 256-byte step would read 8-15)
    ([UbOperand(0, False, 128, 4), UbOperand(256, True)], True),
    ([UbOperand(0, False, 128, 4), UbOperand(0x10100, True)], False),  # ... in another bank
])
def test_bank_conflicts_of_operands_moving_other_than_256_bytes(operands: list[UbOperand],
                                                                 conflict: bool) -> None:
    assert bank_conflict(operands) is conflict


def test_the_share_of_conflicting_repeats() -> None:
    """Scenario 7 conflicts in every other repeat (README.md:320-322), as does the f16 -> f32
    Cast in one bank above (repeats 1 and 2 of every 4: its source's groups 4-7 and 8-11
    against its destination's 0-7 and 8-15); add_high_performance case 5's ping in every one."""
    assert bank_conflict_share([UbOperand(0, False, 32, 1), UbOperand(0x10100, False),
                                UbOperand(0x10100, True)]) == 0.5
    assert bank_conflict_share([UbOperand(0, False, 128, 4), UbOperand(256, True)]) == 0.5
    assert bank_conflict_share([(0, False), (32768, False), (65536, True)]) == 1.0
    assert bank_conflict_share([(0x100, False), (0x100, True)]) == 0.0


def _strided_add(src0: str) -> str:
    """bank_conflict_ub's in-place Add (src1 = dst at 0x10100, 64 repeats of f32) as the CPU
    model records it, src0's accesses given."""
    return f"core 0\nV Add k.cpp:1 {src0} 65792:16384:r 65792:16384:w\n"


@pytest.mark.parametrize(("src0", "vector_ns"), [
    # scenario 8: block stride 0, repeat stride 8: one block every 256 bytes, recorded as one
    # access a repeat; one operand moving 256 bytes a repeat, no conflict (README.md:87, as fast
    # as scenario 1): 64 repeats. Read as 64 operands of their own, each met the others' groups.
    (" ".join(f"{256 * r}:32:r" for r in range(64)), 64),
    # scenario 7: repeat stride 1, one contiguous access of 64 blocks: every other repeat
    # conflicts (the share above): 64 x 1.5
    ("0:2048:r", 96),
    # 63 blocks at a stride: not one a repeat, so each is an operand of its own, as before
    (" ".join(f"{256 * r}:32:r" for r in range(63)), 128),
])
def test_a_strided_operand_recorded_access_by_access(src0: str, vector_ns: float) -> None:
    times = time_run(read_stream(_strided_add(src0), SIMPLE), SIMPLE)
    assert times.busy[VECTOR] * 1e9 == pytest.approx(vector_ns)


ASC = """#include "acl/acl.h"
#include "kernel_operator.h"
__vector__ __global__ void add_custom(__gm__ uint8_t* x, __gm__ uint8_t* y, __gm__ uint8_t* z)
{
    int a = 1; // main() { aclInit(nullptr); }
}
void launch(uint8_t* x)
{
    add_custom<<<1, 0, nullptr>>>(x, x, x);
}
int32_t main(int32_t argc, char* argv[])
{
    aclInit(nullptr);
    return 0;
}
"""


def test_the_device_part_of_an_asc_example() -> None:
    """The acl include, main and the launcher go, line for line; the kernel and its comment
    (which mentions main and aclInit) stay."""
    kept = device_part(ASC)
    assert len(kept.splitlines()) == len(ASC.splitlines())
    assert "acl/acl.h" not in kept and "<<<" not in kept and "int32_t main" not in kept
    assert kept.splitlines()[2:6] == ASC.splitlines()[2:6]


KERNEL = """#include "kernel_operator.h"
template <uint32_t totalLength, uint32_t tileLength>
__vector__ __global__ void add_custom(__gm__ uint8_t* x, __gm__ uint8_t* y, __gm__ uint8_t* z)
{
    AscendC::GlobalTensor<half> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, totalLength);
    yGm.SetGlobalBuffer((__gm__ half*)y, totalLength);
    zGm.SetGlobalBuffer((__gm__ half*)z, totalLength);
    xGm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
    AscendC::LocalTensor<half> xLocal(AscendC::TPosition::VECCALC, 0, tileLength);
    AscendC::LocalTensor<half> yLocal(AscendC::TPosition::VECCALC, tileLength * 2, tileLength);
    AscendC::LocalTensor<half> zLocal(AscendC::TPosition::VECCALC, tileLength * 4 + 256,
                                      tileLength);
    int64_t before = AscendC::GetSystemCycle();  // asc-devkit's measuring examples time
    for (uint32_t i = 0; i < AscendC::DivCeil(totalLength, tileLength); i++) {
        AscendC::DataCopy(xLocal, xGm[i * tileLength], tileLength);
        AscendC::DataCopy(yLocal, yGm[i * tileLength], tileLength);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(0);
        AscendC::Add(zLocal, xLocal, yLocal, tileLength);
        AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
        AscendC::DataCopy(zGm[i * tileLength], zLocal, tileLength);
        AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(0);
    }
    AscendC::printf("[LOG] cost %ld cycles", AscendC::GetSystemCycle() - before);
}
int32_t main()
{
    aclrtSetDevice(0);
    return 0;
}
"""

ADD = """func.func @add(%a: tensor<?xf16>, %b: tensor<?xf16>) -> tensor<?xf16> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xf16>
  %init = tensor.empty(%n) : tensor<?xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>,
                                        affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<?xf16>, tensor<?xf16>) outs(%init : tensor<?xf16>) {
  ^bb0(%ai: f16, %bi: f16, %out: f16):
    %s = arith.addf %ai, %bi : f16
    linalg.yield %s : f16
  } -> tensor<?xf16>
  func.return %y : tensor<?xf16>
}
"""


def test_check_kernel_profiles_an_asc_example(tmp_path: Path) -> None:
    """One core, 4 tiles of 2048 halves: each tile's Add is 16 repeats (x and y in the same
    bank groups: doubled) after an issue, so V is busy 4 x (21 + 2 x 16) cycles at 1.85 GHz;
    the line follows the verdict. The kernel times itself by GetSystemCycle and prints it, as
    bank_conflict_ub does: neither is timed nor printed (ascendc_cpu_debug.h)."""
    (tmp_path / "add.asc").write_text(KERNEL)
    (tmp_path / "add.mlir").write_text(ADD)
    done = subprocess.run(
        ["hswc-check-kernel", "add.asc", "--entry", "add_custom", "--template-args",
         "8192, 2048", "--block-dim", "1", "--dtypes", "f16", "--sizes", "8192", "--reference",
         "add.mlir", "--profile"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "[LOG]" not in done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[-2].startswith("PASS: all 1 runs are bit-exact")
    m = re.fullmatch(r"modelled: ([\d.]+) us \(MTE2 ([\d.]+) us, V ([\d.]+) us, MTE3 ([\d.]+) "
                     r"us, scalar ([\d.]+) us\) \(f16, n=8192, 1 cores\)", lines[-1])
    assert m is not None, lines[-1]
    f = COST_FIGURES
    assert float(m.group(3)) == pytest.approx(
        4 * (f.vector_issue_cycles + 2 * 16) / f.clock_hz * 1e6, abs=0.006)
    total, mte2, v, mte3 = (float(m.group(k)) for k in range(1, 5))
    assert total >= mte2 + v + mte3  # nothing overlaps: every step waits for the last


def test_register_calls_are_work_on_v_without_issue() -> None:
    """Ascend 950's register calls (`R API COUNT`): 4 registers loaded, multiplied, exponentiated
    and stored: 4 x (0.5 + 0.5 + 2 + 0.5) cycles on V (CostFigures.register_cycles, Exp one of
    slow_register_cycles), no issue overhead, and no scalar call counted for them."""
    stream = ("core 0\nR MicroAPI::LoadAlign 4\nR MicroAPI::Mul 4\nR MicroAPI::Exp 4\n"
              "R MicroAPI::StoreAlign 4\n")
    figures = replace(SIMPLE, vector_issue_cycles=100, scalar_call_cycles=3)
    run = read_stream(stream, figures)
    assert run.calls == {0: 0} and not run.unmodelled
    times = time_run(run, figures)
    assert times.busy[VECTOR] * 1e9 == pytest.approx(4 * (0.5 + 0.5 + 2 + 0.5))
    assert times.busy[SCALAR] == 0


VF_KERNEL = """#include "kernel_operator.h"
__simd_vf__ inline void ExpVf(__ubuf__ float* x, __ubuf__ float* y, uint32_t n, uint32_t loops)
{
    AscendC::Reg::MaskReg mask;
    AscendC::Reg::RegTensor<float> r;
    for (uint16_t i = 0; i < loops; ++i) {
        mask = AscendC::Reg::UpdateMask<float>(n);
        AscendC::Reg::LoadAlign(r, x + i * 64);
        AscendC::Reg::Exp(r, r, mask);
        AscendC::Reg::Muls(r, r, 2.0f, mask);
        AscendC::Reg::StoreAlign(y + i * 64, r, mask);
    }
}
template <uint32_t totalLength>
__vector__ __global__ void exp_custom(__gm__ uint8_t* x, __gm__ uint8_t* y)
{
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, totalLength);
    yGm.SetGlobalBuffer((__gm__ float*)y, totalLength);
    AscendC::LocalTensor<float> xLocal(AscendC::TPosition::VECCALC, 0, totalLength);
    AscendC::LocalTensor<float> yLocal(AscendC::TPosition::VECCALC, totalLength * 4, totalLength);
    AscendC::DataCopy(xLocal, xGm, totalLength);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(0);
    asc_vf_call<ExpVf>((__ubuf__ float*)xLocal.GetPhyAddr(), (__ubuf__ float*)yLocal.GetPhyAddr(),
                       totalLength, totalLength / 64);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::DataCopy(yGm, yLocal, totalLength);
}
"""

EXP_TWICE = """func.func @exp2(%a: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %init = tensor.empty(%n) : tensor<?xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%a : tensor<?xf32>) outs(%init : tensor<?xf32>) {
  ^bb0(%ai: f32, %out: f32):
    %two = arith.constant 2.0 : f32
    %e = math.exp %ai : f32
    %s = arith.mulf %e, %two : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  func.return %y : tensor<?xf32>
}
"""


def test_check_kernel_profiles_register_calls_on_950(tmp_path: Path) -> None:
    """A VF function over 2048 floats on one Ascend 950 core: 32 registers, each loaded,
    exponentiated, scaled and stored (0.5 + 2 + 0.5 + 0.5 cycles a register): V busy 112 cycles
    at 1.65 GHz, where the recorder once named LoadAlign as unmodelled."""
    (tmp_path / "exp.asc").write_text(VF_KERNEL)
    (tmp_path / "exp.mlir").write_text(EXP_TWICE)
    done = subprocess.run(
        ["hswc-check-kernel", "exp.asc", "--entry", "exp_custom", "--template-args", "2048",
         "--soc", "ascend950", "--block-dim", "1", "--dtypes", "f32", "--sizes", "2048",
         "--reference", "exp.mlir", "--profile"], cwd=tmp_path, capture_output=True, text=True,
        check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    line = done.stdout.splitlines()[-1]
    m = re.fullmatch(r"modelled: [\d.]+ us \(MTE2 [\d.]+ us, V ([\d.]+) us, MTE3 [\d.]+ us, "
                     r"scalar [\d.]+ us\) \(f32, n=2048, 1 cores\)", line)
    assert m is not None, line
    assert float(m.group(1)) == pytest.approx(32 * 3.5 / 1.65e9 * 1e6, abs=0.006)


def test_every_cost_figure_says_where_it_comes_from() -> None:
    """Each figure of every platform is documented, fitted or an assumption (hswc.platform)."""
    names = [f.name for f in fields(CostFigures) if f.name != "status"]
    for platform in PLATFORMS.values():
        for name in names:
            assert platform.cost.status_of(name).split(":")[0].split(",")[0] in (
                "documented", "fitted", "assumption"), (platform.name, name)
