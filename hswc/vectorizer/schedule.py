"""A schedule: the choices the planner and the vectorizer make for one body, never its bits.

All flags off is the structure of ops-nn's A2/A3 HardSwishGrad kernel (SPEC.md section 5):
depth-1 queues, constants in buffers filled by Duplicate with Compare and Select
TENSOR_TENSOR, every input read into the kernel before any compute, a result written in place
only over a temporary it replaces, and inputs freed after the output is queued.

The preset `arch35` is the structure of ops-nn's Ascend 950 HardSwishGrad kernel
(`activation/hard_swish_grad/op_kernel/arch35/hard_swish_grad.h`): queues of depth 1 or 2 by a
run-time choice, Compares and Select TENSOR_SCALAR, inputs in argument order, one f32 scratch
buffer that x's copy and then grad's use, every Cast over whole repeats, CAST_RINT back, and no
PipeBarrier between vector steps.

A schedule with `double_buffer_above` set is a run-time choice between two kernels (its
`variants`): the host tiling picks one by the element count, and launches it under its own
tiling key (hswc.tiling.Variant).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from hswc.soc_api import FAMILIES
from hswc.tiling import DOUBLE_BUFFER_ABOVE

DEFAULT_API = FAMILIES[0]
"""Atlas A2/A3's API table: what a schedule chooses calls from unless told otherwise."""


@dataclass(frozen=True)
class Schedule:
    """How convert-hsg-to-ascend lays out a body's kernel; all off is the reference."""

    double_buffer: bool = False
    """TQue depth 2 (InitBuffer num 2): copy-in of chunk i+1 overlaps compute of chunk i."""
    scalar_compare: bool = False
    """Compare with a constant as CompareScalar, Select with a constant second source in
    VSEL_TENSOR_SCALAR_MODE: no constant buffers for them."""
    in_place: bool = False
    """A result may take the buffer of any operand it replaces (an input's f32 copy, an
    input's queue buffer), not only a temporary's."""
    early_free: bool = False
    """FreeTensor each input right after the last instruction that touches its buffer."""
    x_first: bool = False
    """Take each input from its queue only when the first instruction that needs it runs (the
    first-needed input is copied in and enqueued first), and the output buffer only when it is
    first written, so compute starts while later inputs still arrive."""
    argument_order: bool = False
    """Copy in, take and free the inputs in the function's argument order, not in the order
    compute first needs them."""
    reuse_copies: bool = False
    """Cast each input to f32 just before the first instruction that reads the copy, into the
    buffer of an f32 copy that is dead by then when there is one (taken with a Get of its own,
    under the new copy's name): ops-nn arch35 casts grad into x's scratch buffer."""
    whole_repeat_casts: bool = False
    """Casts run over compute_num lanes (whole 256-byte repeats of f32) like the other vector
    instructions, not over the chunk's `cur` elements."""
    cast_rint: bool = False
    """Narrowing Casts to f16 are CAST_RINT (the same bits as CAST_NONE); bf16's always are."""
    no_pipe_barriers: bool = False
    """No PipeBarrier<PIPE_V> between dependent vector steps: the toolchain orders one pipe's
    instructions (ops-nn's arch35 kernel has none)."""
    raw_queue_tensors: bool = False
    """Vector instructions take queue tensors as they are, without a ReinterpretCast view."""
    compares: bool = False
    """Spell the scalar compare `Compares`, its current AscendC name, not `CompareScalar`."""
    widened_bf16: bool = False
    """bf16 bodies computed as written, in f32, even where the SoC's calls are exact on bf16
    (ops-nn's arch35 HardSwishGrad compares x's f32 copy); otherwise hswc.vectorizer.narrow
    moves the exact steps (compares, selects, maximum, minimum) of widened bf16 values to bf16."""
    l2_bypass: bool = False
    """Each streamed input's GlobalTensor (read once; not a broadcast operand, read again and
    again) set to SetL2CacheHint(CACHE_MODE_DISABLE), so the output's writes keep L2 (asc-devkit
    add_high_performance's L2 bypass, hswc.dialects.ascend_cache). No value changes."""
    bank_offsets: bool = False
    """Buffers placed so that the UB operands of each vector call start in different bank
    groups where the planner can (hswc.vectorizer.bank_layout: a gap TBuf before such a
    buffer), as asc-devkit add_high_performance's last step places its Add's operands 256
    bytes apart. Each gap costs UB (hswc.tiling.BANK_GAP_MOST bytes in the tiling's plan), so
    a chunk holds fewer elements; on a UB too small for them to pay (hswc.tiling.gapped_from)
    the kernel keeps the plain layout. Its InitBuffers come in the order that puts what the
    halves cannot separate in different 64 KB banks at the full chunk
    (hswc.vectorizer.bank_order). No value changes."""
    api: str = DEFAULT_API
    """The SoC family whose API table (hswc.soc_api) the calls are chosen from."""
    double_buffer_above: int | None = None
    """A run-time choice: the tiling launches the depth-2 kernel when totalNum is above this
    many elements and the depth-1 kernel otherwise (ops-nn arch35: 1024); `double_buffer` is
    then ignored."""

    @property
    def queue_depth(self) -> int:
        return 2 if self.double_buffer else 1

    @property
    def structure(self) -> Schedule:
        """The schedule with the default API table: what the presets are compared with (the
        SoC's table changes which calls a body may use, not the kernel's structure)."""
        return replace(self, api=DEFAULT_API)

    @property
    def is_reference(self) -> bool:
        """The reference structure, on any SoC."""
        return self.structure == REFERENCE

    @property
    def chosen_at_run_time(self) -> bool:
        return self.double_buffer_above is not None

    def variants(self) -> list[tuple[Schedule, int | None]]:
        """The kernels of this schedule, each with a fixed queue depth, and the element count
        above which the tiling picks it (None: the kernel picked when no other is)."""
        if self.double_buffer_above is None:
            return [(self, None)]
        fixed = replace(self, double_buffer_above=None)
        return [(replace(fixed, double_buffer=False), None),
                (replace(fixed, double_buffer=True), self.double_buffer_above)]

    def with_depth(self, depth: int) -> Schedule:
        """The variant of a run-time choice that has queues of `depth`."""
        return next(s for s, _ in self.variants() if s.queue_depth == depth)

    def describe(self) -> str:
        """The pass options that select this schedule, e.g. `double-buffer=true in-place=true`."""
        on = [name.replace("_", "-") + "=true" for name in FLAGS if getattr(self, name) is True]
        if self.double_buffer_above is not None:
            on.append(f"double-buffer-above={self.double_buffer_above}")
        if self.api != DEFAULT_API:
            on.append(f"api={self.api}")
        return " ".join(on) if on else "reference"


FLAGS = tuple(flag.name for flag in fields(Schedule) if flag.type in ("bool", bool))
"""The on/off flags, in declaration order (also the pass options' order, with `-` for `_`)."""
OPTIONS = tuple(flag.name for flag in fields(Schedule))
"""Every field of a schedule: the flags, `api`, then `double_buffer_above`."""
REFERENCE = Schedule()
FAST = Schedule(double_buffer=True, scalar_compare=True, in_place=True, early_free=True,
                x_first=True)
ARCH35 = Schedule(scalar_compare=True, argument_order=True, reuse_copies=True,
                  whole_repeat_casts=True, cast_rint=True, no_pipe_barriers=True,
                  raw_queue_tensors=True, compares=True, widened_bf16=True,
                  double_buffer_above=DOUBLE_BUFFER_ABOVE)
FAST_PRESET = replace(FAST, l2_bypass=True)
"""The `fast` preset: FAST with its streamed inputs set to bypass L2. The cost model has an
unhinted launch's reads pay the write-back of the written lines they evict
(hswc.cost_model.schedule), which left HardSwishGrad under FAST at 92.4% (f16, bf16) and
93.6% (f32) of the HBM roofline at 2^24 on Atlas A2; hinted, 114.9% and 118.5%
(bench/bench_default_schedule.py). FAST itself, unhinted, is what the schedule choice's
candidates are built from (hswc.passes.schedule_choice)."""
PRESETS = {"reference": REFERENCE, "fast": FAST_PRESET, "arch35": ARCH35}
"""Named schedules of the `variant` pass option."""
