"""Platform facts: the one place that knows what an Ascend SoC has.

Passes, the interpreter, the printer and the benchmarks read these; none of them
spells a core count or a UB size of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

UB_BLOCK_BYTES = 32
"""The unified buffer's block: UB addresses and DataCopy lengths are multiples of it."""

DATA_COPY_PAD_MAX_BYTES = 0xFFFF
"""The most bytes one DataCopyPad block moves: DataCopyParams.blockLen, which DataCopyPad counts
in bytes, is a uint16_t (asc-devkit include/basic_api/kernel_struct_data_copy.h); a longer
length is truncated to its low 16 bits."""

VECTOR_REPEAT_BYTES = 256
"""One vector instruction repeat handles 256 bytes (64 f32 or 128 f16/bf16 lanes)."""

SELECT_TMP_BYTES = 8 * 1024
"""UB that Select's tensor-scalar and tensor-tensor modes need as temporary space."""

MAX_REPEAT_TIMES = 255
"""A vector instruction's repeatTimes is a uint8: at most 255 repeats per issued instruction."""

MAX_CORE_NUM = 1024
"""The most vector (AIV) cores a platform given by hand (--core-num, core-num=) may have. No
Ascend SoC has more than 64 (Atlas A2/A3: 48; Ascend 950: 64 assumed); beyond this a figure is
a typo, and the interpreter would model that many cores' UB arenas at once."""

MAX_UB_SIZE = 4 * 1024 * 1024
"""The most unified-buffer bytes per core a platform given by hand may have: 4 MiB, 16 times
the largest UB of an Ascend core (192 KiB on Atlas A2/A3, 248 KiB usable on Ascend 950,
256 KiB on earlier parts). The
interpreter allocates this much per modelled core, so MAX_CORE_NUM x MAX_UB_SIZE = 4 GiB."""


FIGURE_STATUS = {
    "clock_hz": "documented",
    "hbm_bytes_per_s": "documented, a parameter",
    "repeat_bytes": "documented",
    "max_repeats_per_instruction": "documented",
    "cycles_per_repeat": "assumption",
    "vector_issue_cycles": "assumption",
    "pipe_barrier_cycles": "assumption",
    "core_gm_bytes_per_s": "assumption",
    "dma_setup_cycles": "assumption (16 KB knee)",
    "scalar_gm_read_cycles": "assumption",
    "scalar_ub_write_cycles": "assumption",
    "scalar_ub_read_cycles": "assumption",
    "scalar_gm_write_cycles": "assumption",
    "launch_cycles": "assumption",
    "slow_repeat_cycles": "assumption",
}
"""Which cost figures of an Atlas A2 core are documented and which are this project's
assumptions (a platform's CostFigures.status overrides them)."""


@dataclass(frozen=True)
class CostFigures:
    """The timing figures of the cost model (hswc.cost_model), kept with the platform facts.

    Each field says whether it is documented (and where) or an assumption of this project.
    Every figure is a parameter: `dataclasses.replace(figures, hbm_bytes_per_s=...)`.
    """

    clock_hz: float = 1.8e9
    """Documented: Atlas A2 (910B) runs its AI Cores at 1.8 GHz (CANN ops-nn,
    docs/zh/develop/cross_platform_migration_guide.md, generation comparison table)."""
    hbm_bytes_per_s: float = 1.6e12
    """Documented: Atlas A2 memory bandwidth 1.6 TB/s (the same ops-nn table), shared by every
    active core. A parameter: `replace(figures, hbm_bytes_per_s=...)`."""
    repeat_bytes: int = VECTOR_REPEAT_BYTES
    """Documented (AscendC API docs): one vector repeat processes 256 bytes (8 blocks of 32)."""
    max_repeats_per_instruction: int = MAX_REPEAT_TIMES
    """Documented (AscendC API docs): repeatTimes is in [0, 255]."""
    cycles_per_repeat: float = 1.0
    """Assumption: one 256-byte repeat per cycle for every op the kernel uses (Cast, Compare,
    Select and the arithmetic alike). Consistent with the A2 vector peak derived from CANN's
    platform config, 128 f16 lanes x 2 x 48 cores x 1.8 GHz = 22.1 TFLOPS (ops-nn issue 6033)."""
    vector_issue_cycles: int = 16
    """Assumption: fixed cycles per issued vector instruction (scalar set-up of the mask and
    repeat parameters, pipeline start)."""
    pipe_barrier_cycles: int = 16
    """Assumption: a PipeBarrier<PIPE_V> drains the vector pipeline, this many cycles."""
    core_gm_bytes_per_s: float = 128e9
    """Assumption: one core's GM port (its MTE2 and MTE3 together) moves at most this many
    bytes per second; Huawei's Hot Chips 2019 Ascend 910 talk gives up to 128 GB/s per core."""
    dma_setup_cycles: int = 32
    """Assumption, calibrated on a documented behaviour: each DataCopy(Pad) occupies its MTE
    pipe this long before data moves. AscendC's best practices say transfers of 16 KB or more
    reach close to the best bandwidth; with this figure a 16 KB copy at the per-core rate
    reaches 88% of it, a 2 KB copy 47%."""
    scalar_gm_read_cycles: int = 100
    """Assumption: one GlobalTensor::GetValue, a scalar load from GM through the scalar unit's
    data cache, averaged over the hits and the misses of a run of neighbouring elements. Not
    documented; AscendC's docs only warn that scalar GM access is slow."""
    scalar_ub_write_cycles: int = 4
    """Assumption: one LocalTensor::SetValue, a scalar store to UB."""
    scalar_ub_read_cycles: int = 4
    """Assumption: one LocalTensor::GetValue, a scalar load from UB (a per-row scale copied into
    UB once, read per row run)."""

    scalar_gm_write_cycles: int = 100
    """Assumption: one GlobalTensor::SetValue, a scalar store to GM (timed as a GetValue)."""
    launch_cycles: int = 9000
    """Assumption: what a launch adds to the cores' own time (scheduling the task onto the
    cores and reporting its end): the profiler's Task Duration less its aiv_time, 0.5 to 9.4
    us in the seven A2 Add cases of asc-devkit's add_high_performance example (5 us taken).
    Only a recorded kernel's total (hswc-check-kernel --profile) includes it."""
    slow_repeat_cycles: tuple[tuple[str, float], ...] = ()
    """Cycles per 256-byte repeat of the vector calls slower than `cycles_per_repeat`:
    (call name in lower case, cycles) pairs. Empty: every call at `cycles_per_repeat`."""

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

    def cycles(self, seconds: float) -> float:
        return seconds * self.clock_hz

    def seconds(self, cycles: float) -> float:
        return cycles / self.clock_hz


COST_FIGURES = CostFigures()
"""The figures of an Atlas A2 (910B) core; A3 (910_93) is assumed to match per core."""

ASCEND950_COST_FIGURES = replace(
    COST_FIGURES,
    status=(("clock_hz", "assumption: the A2 clock, no public figure"),
            ("hbm_bytes_per_s", "documented: Ascend 950PR, HiBL 1.0 at 1.6 TB/s (Huawei "
                                "Connect 2025); 950DT has 4 TB/s, a parameter"),
            ("repeat_bytes", "documented: 256 bytes per cycle (asc-devkit, NPU arch 3510)"),
            ("core_gm_bytes_per_s", "assumption: the A2 figure")),
)
"""The figures of an Ascend 950PR vector core: the A2 core's, except where its status says
otherwise (asc-devkit's NPU architecture 3510 page: the vector unit handles 256 bytes per
cycle, as on A2)."""


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
    # ASC_UB_SIZE = 248 x 1024 of the 256 KB UB). Cores: an assumption, 64 vector cores, the
    # CORE_NUM of ops-nn's arch35 tiling unit tests (e.g. activation/elu_grad/tests/ut/op_host/
    # arch35): no public source gives the product's figure; core-num= / --core-num override it.
    # The whole UB, 256 KB, for kernels laying out their own buffers: the same 3510 page, and
    # asc-devkit's add_high_performance example, whose 950 buffers take 6 x 43680 bytes.
    "ascend950": Platform("ascend950", core_num=64, ub_size=253952,
                          product="Ascend 950PR / Ascend 950DT", semantics="cann-arch35",
                          schedule="arch35", api="dav_3510", cost=ASCEND950_COST_FIGURES,
                          ub_physical=262144),
}

DEFAULT_SOC = "ascend910b"


def get_platform(name: str) -> Platform:
    """The named SoC; a ValueError that lists the known names otherwise."""
    try:
        return PLATFORMS[name]
    except KeyError:
        known = ", ".join(sorted(PLATFORMS))
        raise ValueError(f"unknown SoC '{name}' (known: {known})") from None
