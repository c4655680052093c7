"""Platform facts: the one place that knows what an Ascend SoC has.

Passes, the interpreter, the printer and the benchmarks read these; none of them
spells a core count or a UB size of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

UB_BLOCK_BYTES = 32
"""The unified buffer's block: UB addresses and DataCopy lengths are multiples of it."""

UB_BANK_GROUPS = 16
"""Documented: Atlas A2/A3's 192 KB UB is 48 banks of 128 rows of 32 bytes in 16 bank groups of
3 banks each (asc-devkit examples/01_simd_cpp_api/05_best_practices/04_memory_access/
bank_conflict_ub/README.md:34-38). Its 18-bit address is {bank id [17:16], row [15:9], bank group
[8:5], byte [4:0]} (ibid. :42-49), so UB byte b is in bank group (b // 32) % 16."""

UB_BANK_GROUP_SPAN = UB_BANK_GROUPS * UB_BLOCK_BYTES
"""512: the bytes after which the bank groups repeat (UB_BANK_GROUPS). A vector repeat's 8 blocks
from offset o take groups (o // 32) % 16 ... + 7, so two operands whose offsets are equal modulo
512 take the same 8 groups, and operands 256 bytes apart take the other 8 (asc-devkit
add_high_performance README case 6 places its Add's y so)."""

UB_BANK_BYTES = 64 * 1024
"""Documented: the bank id of UB byte b is b // 65536, address bits [17:16] (bank_conflict_ub
README.md:42-49; the bank number is bank group + 16 x bank id, ibid. :37; asc-devkit's guide,
docs/zh/guide/算子实践参考/SIMD算子性能优化/内存访问/避免UB的bank冲突/, its page for NPU
architecture 2201, line 31: 0x10000 is bank 16, 0x10020 bank 17, 0x20020 bank 33)."""

DATA_COPY_PAD_MAX_BYTES = 0xFFFF
"""The most bytes one DataCopyPad block moves: DataCopyParams.blockLen, which DataCopyPad counts
in bytes, is a uint16_t (asc-devkit include/basic_api/kernel_struct_data_copy.h); a longer
length is truncated to its low 16 bits."""

DATA_COPY_PAD_MAX_BLOCKS = 4095
"""DataCopyExtParams.blockCount's range [0, 4095] (asc-devkit's DataCopyPad pages, GM -> UB and
UB -> GM, under 基础API/Memory矢量计算/数据搬运/: the DataCopyExtParams table)."""

VECTOR_REPEAT_BYTES = 256
"""One vector instruction repeat handles 256 bytes (64 f32 or 128 f16/bf16 lanes)."""

SELECT_TMP_BYTES = 8 * 1024
"""UB that Select's tensor-scalar and tensor-tensor modes need as temporary space."""

MAX_REPEAT_TIMES = 255
"""A vector instruction's repeatTimes is a uint8: at most 255 repeats per issued instruction."""

MAX_CORE_NUM = 1024
"""The most vector (AIV) cores a platform given by hand (--core-num, core-num=) may have. No
Ascend SoC has more than 64 (Atlas A2/A3: 48; Ascend 950: 64); beyond this a figure is
a typo, and the interpreter would model that many cores' UB arenas at once."""

MAX_UB_SIZE = 4 * 1024 * 1024
"""The most unified-buffer bytes per core a platform given by hand may have: 4 MiB, 16 times
the largest UB of an Ascend core (192 KiB on Atlas A2/A3, 248 KiB usable on Ascend 950,
256 KiB on earlier parts). The
interpreter allocates this much per modelled core, so MAX_CORE_NUM x MAX_UB_SIZE = 4 GiB."""


ADD_PROFILES = ("asc-devkit examples/01_simd_cpp_api/05_best_practices/00_vector_compute/"
                "add_high_performance/README.md")
"""Huawei's measured msprof profiles of an 8192 x 8192 f16 Add in seven steps on Atlas A2 and
six on Ascend 950 (task time and per-pipe busy times): the fit set of the figures marked
'fitted' (bench/bench_calibration.py prints the model beside every published figure)."""

FIGURE_STATUS = {
    "clock_hz": "documented",
    "hbm_bytes_per_s": "documented, a parameter",
    "l2_bytes_per_s": "fitted",
    "l2_cache_bytes": "documented",
    "repeat_bytes": "documented",
    "max_repeats_per_instruction": "documented",
    "cycles_per_repeat": "documented",
    "vector_issue_cycles": "fitted",
    "bank_conflict_factor": "fitted",
    "conflict_read_factor": "fitted",
    "pipe_barrier_cycles": "assumption",
    "core_gm_bytes_per_s": "fitted",
    "dma_setup_cycles": "fitted",
    "write_setup_cycles": "fitted",
    "scalar_gm_read_cycles": "assumption",
    "scalar_ub_write_cycles": "fitted",
    "scalar_ub_read_cycles": "fitted",
    "scalar_gm_write_cycles": "assumption",
    "scalar_call_cycles": "fitted",
    "scalar_call_load_cycles": "fitted",
    "launch_cycles": "fitted",
    "slow_repeat_cycles": "assumption",
    "register_cycles": "documented",
    "slow_register_cycles": "assumption",
}
"""Which cost figures of an Atlas A2 core are documented, fitted on the measured profiles of
ADD_PROFILES, or this project's assumptions (a platform's CostFigures.status overrides them)."""


@dataclass(frozen=True)
class CostFigures:
    """The timing figures of the cost model (hswc.cost_model), kept with the platform facts.

    Each field says whether it is documented (and where), fitted on Huawei's measured profiles
    (ADD_PROFILES; the case each comes from) or an assumption of this project. Every figure is
    a parameter: `dataclasses.replace(figures, hbm_bytes_per_s=...)`.
    """

    clock_hz: float = 1.85e9
    """Documented: the Atlas A2 of Huawei's measured Add profiles runs its vector cores at
    1.85 GHz (ADD_PROFILES: 'clock frequency 1.85GHz', its theoretical vector time). CANN
    ops-nn's cross-platform migration guide gives 1.8 GHz for the product line."""
    hbm_bytes_per_s: float = 1.6e12
    """Documented: Atlas A2 memory bandwidth 1.6 TB/s (ops-nn's migration guide), shared by
    every core's reads and the write-back of written lines (hswc.cost_model.schedule: a write
    goes into L2 at its port's rate unless the launch writes more than `l2_cache_bytes`).
    Consistent with the measured Add: 1.456 TB/s of reads alone (case 3), 402 MB read and
    written in 257 us (case 4). A parameter: `replace(figures, hbm_bytes_per_s=...)`."""
    l2_bytes_per_s: float = 2.4e12
    """Fitted: what every core's reads and writes reach together through L2 when the writes
    stay in L2 (ADD_PROFILES case 5: 268 MB read and 134 MB written at 2.28 TB/s, each core's
    MTE3 at 17.5 GB/s while its MTE2 reads at 33 GB/s; case 3: the writes alone, 2.36 TB/s)."""
    l2_cache_bytes: int = 192 * 2**20
    """Documented: Atlas A2/A3 (NPU architecture 2201) have 192 MB of L2 cache, shared by every
    core (asc-devkit docs/zh/guide/编程指南/高级编程/内存模型/缓存一致性.md:31); a line replaced in
    it is written back to GM first, on GM's bandwidth, before the new data enters (the same
    docs' 设置合理的L2-CacheMode.md). hswc.cost_model.schedule: a launch that writes more than
    this cannot keep its written lines in L2, and its writes share the HBM."""
    repeat_bytes: int = VECTOR_REPEAT_BYTES
    """Documented (AscendC API docs): one vector repeat processes 256 bytes (8 blocks of 32)."""
    max_repeats_per_instruction: int = MAX_REPEAT_TIMES
    """Documented (AscendC API docs): repeatTimes is in [0, 255]."""
    cycles_per_repeat: float = 1.0
    """Documented: 128 halves (one 256-byte repeat) per cycle (ADD_PROFILES' theoretical vector
    time); measured: an Add of 127 repeats takes 150 cycles (case 6: 6.954 us for 86 per core)."""
    vector_issue_cycles: int = 21
    """Fitted: cycles each issued vector instruction adds to its repeats (ADD_PROFILES: an Add
    of 32 repeats 86 cycles in cases 1 and 2, of 128 conflicting repeats 276 in case 3, of 127
    150 in case 6; ops-nn's turbo_quant README measures about 35 on 910B4)."""
    bank_conflict_factor: float = 2.0
    """Fitted: each repeat of a vector call whose operands conflict in the UB banks
    (hswc.cost_model.stream.bank_conflict_share) takes this many times its cycles
    (ADD_PROFILES: aiv_vec_time 12.846 us in case 5, 6.954 in case 6 after moving y 256 bytes),
    whichever rule it breaks. A check, not fitted: asc-devkit's bank_conflict_ub example
    (README.md:78-85) measures an Add of 64 repeats 1.74x as long with a read-read conflict
    and 1.57x with a read-write one, and 1.50x where every other repeat conflicts (scenario
    7); the model gives (21 + 64 x 2) / (21 + 64) = 1.75x for either of the first two and
    (21 + 64 x 1.5) / 85 = 1.38x for the third. bench/bench_calibration.py runs its eight
    scenarios as published (check set: cases a2-bank-1 to -8, its GetSystemCycle loop time
    against the modelled aiv_vec time, 0.88-1.07 of it)."""
    conflict_read_factor: float = 0.4
    """Fitted: while a vector call whose operands conflict in the UB banks runs, its core's
    MTE2 reads into UB move at most this fraction of the port rate (`core_gm_bytes_per_s`):
    the conflicting call holds the banks' ports twice as long, and MTE2's writes into UB wait
    for them (assumed mechanism). ADD_PROFILES: moving y by 256 bytes (case 6 against case 5)
    shortened aiv_mte2_time from 176.0 to 171.6 us, for the same bytes in more copies; the
    factor is fitted on that difference and keeps the two cases in the measured order."""
    pipe_barrier_cycles: int = 16
    """Assumption: a PipeBarrier<PIPE_V> drains the vector pipeline, this many cycles."""
    core_gm_bytes_per_s: float = 52e9
    """Fitted: one MTE pipe's GM port (MTE2 and MTE3 each): ADD_PROFILES case 1, one core's
    8 KB writes at 51 GB/s and reads at 43 GB/s with their set-up. (Huawei's Hot Chips 2019
    Ascend 910 talk gave up to 128 GB/s per core.)"""
    dma_setup_cycles: int = 61
    """Fitted: each GM -> UB DataCopy(Pad) occupies MTE2 this long before data moves
    (ADD_PROFILES case 1: an 8 KB read every 190 ns, 157 of them at the port rate)."""
    write_setup_cycles: int = 0
    """Fitted: the same for a UB -> GM copy on MTE3 (case 1: an 8 KB write every 159 ns, the
    port rate)."""
    scalar_gm_read_cycles: int = 100
    """Assumption: one GlobalTensor::GetValue, a scalar load from GM through the scalar unit's
    data cache, averaged over the hits and the misses of a run of neighbouring elements. Not
    documented; AscendC's docs only warn that scalar GM access is slow."""
    scalar_ub_write_cycles: int = 12
    """Fitted: one LocalTensor::SetValue, a scalar store to UB, with its share of the loop
    around it (ADD_PROFILES case 0: two GetValue, one SetValue and a float add per element,
    34 cycles an element)."""
    scalar_ub_read_cycles: int = 11
    """Fitted: one LocalTensor::GetValue, a scalar load from UB (as scalar_ub_write_cycles)."""
    scalar_gm_write_cycles: int = 100
    """Assumption: one GlobalTensor::SetValue, a scalar store to GM (timed as a GetValue)."""
    scalar_call_cycles: float = 2.0
    """Fitted: the scalar unit's busy cycles for issuing one recorded API call while the memory
    system is idle (aiv_scalar_time of ADD_PROFILES case 1, one core: 26 cycles a loop
    iteration of 12 calls, 2.2 a call). Counted in a recorded kernel's scalar time only; the
    pipes do not wait for it."""
    scalar_call_load_cycles: float = 4.5
    """Fitted: what each recorded call's issue adds at full L2 load, times the launch's L2 load
    (the bytes every core moved over its duration, a fraction of `l2_bytes_per_s`). Measured:
    A2 cases 1-6 issue the same 12 calls a loop iteration (the same kinds, one GM offset a
    copy), yet take 26 cycles an iteration on one core and 45-97 on 48 (2.2 to 8.0 a call),
    the most in the cases that load L2 most (5 and 6); no cost per call, kind or argument can
    give both case 1 (at most 39 cycles in bounds) and case 5 (at least 65). The mechanism is
    assumed: the scalar unit's own loads (its stack and the kernel's members, through its data
    cache) wait in the memory queues the DMAs fill. Fitted by least squares on the relative
    error of cases 1-6 (2.0 + 4.5 x load: 0.71-1.28 of the measured)."""
    launch_cycles: int = 9250
    """Fitted: what a launch adds to the cores' own time (scheduling the task onto the cores
    and reporting its end): the profiler's Task Duration less its aiv_time, 0.5 to 9.4 us in
    ADD_PROFILES' A2 cases (5 us taken). Only a recorded kernel's total (hswc-check-kernel
    --profile) includes it."""
    slow_repeat_cycles: tuple[tuple[str, float], ...] = ()
    """Cycles per 256-byte repeat of the vector calls slower than `cycles_per_repeat`:
    (call name in lower case, cycles) pairs. Empty: every call at `cycles_per_repeat`."""

    register_cycles: float = 0.5
    """Documented (asc-devkit examples/01_simd_cpp_api/05_best_practices/02_reg_compute/
    gelu_high_performance/README.md): Ascend 950's register calls (MicroAPI, inside a VF
    function) dual-issue, 'regular compute instructions reach 512 bytes/cycle', so one call on a
    256-byte register occupies V half a cycle; a load or store between UB and a register is
    assumed at the same rate. Only a recorded kernel's register calls (`R` lines) use it; Atlas
    A2/A3 have no register calls."""
    slow_register_cycles: tuple[tuple[str, float], ...] = (
        ("exp", 2.0), ("ln", 2.0), ("log", 2.0), ("sqrt", 2.0), ("div", 2.0))
    """Assumption: the register calls slower than `register_cycles`, (call name in lower case,
    cycles a register). The same README documents Exp and Div at 64 bytes/cycle without dual
    issue and says dual issue cannot simply be taken as doubling it to 128; 128 (2 cycles a
    register) is taken, and Ln, Log and Sqrt are assumed to be as Exp. Checked, never fitted, on
    the README's gelu cases (bench/bench_calibration.py)."""

    status: tuple[tuple[str, str], ...] = field(default=(), compare=False, repr=False)
    """Where a platform's figure comes from, where it differs from FIGURE_STATUS: (field,
    status) pairs."""

    def status_of(self, name: str) -> str:
        """'documented ...' or 'assumption ...' for the figure `name`."""
        return dict(self.status).get(name, FIGURE_STATUS.get(name, "?"))

    def repeat_cycles_of(self, call: str) -> float:
        """Cycles per repeat of the vector call `call` (any case; `ascend.` prefix allowed)."""
        name = call.lower().removeprefix("ascend.").replace("_", "")
        return dict(self.slow_repeat_cycles).get(name, self.cycles_per_repeat)

    def register_cycles_of(self, call: str) -> float:
        """Cycles a register of the MicroAPI call `call` (`MicroAPI::` prefix allowed) takes."""
        name = call.removeprefix("MicroAPI::").lower()
        return dict(self.slow_register_cycles).get(name, self.register_cycles)

    def cycles(self, seconds: float) -> float:
        return seconds * self.clock_hz

    def seconds(self, cycles: float) -> float:
        return cycles / self.clock_hz


COST_FIGURES = CostFigures()
"""The figures of an Atlas A2 (910B) core; A3 (910_93) is assumed to match per core."""

ASCEND950_COST_FIGURES = replace(
    COST_FIGURES,
    clock_hz=1.65e9,
    cycles_per_repeat=2.0,
    vector_issue_cycles=35,
    bank_conflict_factor=1.0,
    conflict_read_factor=1.0,
    dma_setup_cycles=127,
    scalar_ub_read_cycles=10,
    scalar_ub_write_cycles=10,
    launch_cycles=8250,
    l2_cache_bytes=128 * 2**20,
    status=(("clock_hz", "documented: 1.65 GHz (ADD_PROFILES, Ascend 950)"),
            ("cycles_per_repeat", "fitted: an Add of 32 repeats takes 100 cycles, of 170 "
                                  "374 (ADD_PROFILES 950 cases 2 and 3): 2 cycles a repeat "
                                  "(the basic API's load, compute and store per register)"),
            ("vector_issue_cycles", "fitted: the same cases"),
            ("bank_conflict_factor", "assumption: no conflicts (ADD_PROFILES: 'BANK "
                                     "arrangement is different', not considered on 950)"),
            ("conflict_read_factor", "assumption: no conflicts, as bank_conflict_factor"),
            ("dma_setup_cycles", "fitted: 950 case 1, one core's 8 KB reads at 35 GB/s"),
            ("scalar_ub_read_cycles", "fitted: 950 case 0, 30 cycles an element"),
            ("scalar_ub_write_cycles", "fitted: 950 case 0"),
            ("launch_cycles", "fitted: 5 us, as on A2"),
            ("hbm_bytes_per_s", "documented: Ascend 950PR, HiBL 1.0 at 1.6 TB/s (Huawei "
                                "Connect 2025); 950DT has 4 TB/s, a parameter"),
            ("l2_cache_bytes", "documented: 128 MB (asc-devkit docs/zh/guide/编程指南/"
                               "高级编程/内存模型/缓存一致性.md:18, NPU arch 3510)"),
            ("repeat_bytes", "documented: 256 bytes per cycle (asc-devkit, NPU arch 3510)"),
            ("core_gm_bytes_per_s", "assumption: the A2 figure")),
)
"""The figures of an Ascend 950PR vector core: the A2 core's, except where its status says
otherwise (asc-devkit's NPU architecture 3510 page: the vector unit handles 256 bytes per
cycle, as on A2; measured, a basic-API call takes two cycles a repeat)."""


@dataclass(frozen=True)
class Platform:
    """One Ascend SoC as the host tiling sees it."""

    name: str
    core_num: int
    """Vector (AIV) cores: GetCoreNumAiv()."""
    ub_size: int
    """Unified buffer bytes per AIV core: GetCoreMemSize(UB)."""
    supports_bf16: bool = True
    product: str = ""
    """The product line it is sold as (what the docs of an operator package list)."""
    semantics: str | None = None
    """The semantics whose CANN kernel this SoC runs (hsg-decompose's `semantics`), for the
    named ops that have it; None: each op's default (the A2/A3 kernels)."""
    schedule: str = "reference"
    """The schedule preset (hswc.vectorizer.schedule.PRESETS) of that kernel."""
    api: str = "dav_c220"
    """Its family's column of the AscendC API table (hswc.soc_api, hswc/api_tables.def):
    which vector calls take which element types."""
    cost: CostFigures = field(default=COST_FIGURES, compare=False, repr=False)
    """Timing figures for the cost model (not part of what the tiling sees)."""
    ub_physical: int = 0
    """The whole UB of a core, where it is larger than `ub_size` (what TPipe hands out): what a
    kernel laying out its own buffers (static LocalTensor(pos, addr, len)) may use. 0: ub_size."""

    def with_overrides(self, core_num: int | None = None, ub_size: int | None = None) -> Platform:
        """The same SoC with the core count or UB size replaced (None keeps the SoC's); a
        ValueError for a figure outside [0, MAX_CORE_NUM] or [0, MAX_UB_SIZE]."""
        for what, value, most in (("core count", core_num, MAX_CORE_NUM),
                                  ("UB size", ub_size, MAX_UB_SIZE)):
            check_figure(what, value, most)
        return replace(
            self,
            core_num=self.core_num if core_num is None else core_num,
            ub_size=self.ub_size if ub_size is None else ub_size,
        )


def check_figure(what: str, value: int | None, most: int) -> None:
    """A ValueError unless `value` (None: not given) is in [0, most]. Zero is allowed: the
    tiling refuses it with its own message, as the CANN tiling does."""
    if value is not None and not 0 <= value <= most:
        raise ValueError(f"the {what} must be between 0 and {most}, got {value} (hswc.platform "
                         "bounds figures given by hand to what an Ascend SoC could have)")


PLATFORMS: dict[str, Platform] = {
    # Atlas A2 training series (910B1/B2): 24 AI cores, 48 AIV cores.
    "ascend910b": Platform("ascend910b", core_num=48, ub_size=196608,
                           product="Atlas A2 training series"),
    # Atlas A3 series.
    "ascend910_93": Platform("ascend910_93", core_num=48, ub_size=196608,
                             product="Atlas A3 series"),
    # Ascend 950PR / 950DT (NPU architecture 3510, ops-nn's arch35). UB: 248 KB, documented
    # (asc-devkit GetUBSizeInBytes: 248 KB on Ascend 950PR/950DT; the 3510 architecture page:
    # ASC_UB_SIZE = 248 x 1024 of the 256 KB UB). Cores: 64 vector cores, documented by
    # asc-devkit's add_high_performance README ('AIV core count 64', ADD_PROFILES; also the
    # CORE_NUM of ops-nn's arch35 tiling unit tests); core-num= / --core-num override it.
    # The whole UB, 256 KB, for kernels laying out their own buffers: the same 3510 page, and
    # asc-devkit's add_high_performance example, whose 950 buffers take 6 x 43680 bytes.
    "ascend950": Platform("ascend950", core_num=64, ub_size=253952,
                          product="Ascend 950PR / Ascend 950DT", semantics="cann-arch35",
                          schedule="arch35", api="dav_3510", cost=ASCEND950_COST_FIGURES,
                          ub_physical=262144),
}

DEFAULT_SOC = "ascend910b"


def soc_of_api(api: str) -> str:
    """The SoC whose cost figures time a kernel written for the API column `api` when no SoC is
    named (a pass given only the API table, as hswc-run and hswc-emit give it): the default SoC
    where its column is `api`, else the first SoC of that column (dav_3510: ascend950)."""
    if PLATFORMS[DEFAULT_SOC].api == api:
        return DEFAULT_SOC
    return next((name for name, platform in PLATFORMS.items() if platform.api == api),
                DEFAULT_SOC)


def get_platform(name: str) -> Platform:
    """The named SoC; a ValueError that lists the known names otherwise."""
    try:
        return PLATFORMS[name]
    except KeyError:
        known = ", ".join(sorted(PLATFORMS))
        raise ValueError(f"unknown SoC '{name}' (known: {known})") from None
