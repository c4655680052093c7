"""A schedule: the choices the planner and the vectorizer make for one body, never its bits.

All flags off is the structure of ops-nn's A2/A3 HardSwishGrad kernel (SPEC.md section 5):
depth-1 queues, constants in buffers filled by Duplicate with Compare and Select
TENSOR_TENSOR, every input read into the kernel before any compute, a result written in place
only over a temporary it replaces, and inputs freed after the output is queued.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


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

    @property
    def queue_depth(self) -> int:
        return 2 if self.double_buffer else 1

    @property
    def is_reference(self) -> bool:
        return self == REFERENCE

    def describe(self) -> str:
        """The pass options that select this schedule, e.g. `double-buffer=true in-place=true`."""
        on = [name.replace("_", "-") + "=true" for name in FLAGS if getattr(self, name)]
        return " ".join(on) if on else "reference"


FLAGS = tuple(flag.name for flag in fields(Schedule))
"""The flags, in declaration order (also the pass options' order, with `-` for `_`)."""
REFERENCE = Schedule()
FAST = Schedule(double_buffer=True, scalar_compare=True, in_place=True, early_free=True,
                x_first=True)
PRESETS = {"reference": REFERENCE, "fast": FAST}
"""Named schedules of the `variant` pass option."""
