"""The host tiling of HardSwishGrad: CANN's formula, written once.

`tiling_formula` is the only copy of the formula. It is written against a small arithmetic
interface, so the same lines compute numbers (`IntArith`: compile-time folding, tests, the
interpreter's cross-checks) and build IR (`hswc.passes.index_arith.IRArith`: the host tiling
function that the interpreter runs and the printer turns into `TilingFunc` C++, and the kernel's
slice and buffer arithmetic).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Generic, Literal, Protocol, TypeVar

from hswc.platform import SELECT_TMP_BYTES, UB_BLOCK_BYTES, VECTOR_REPEAT_BYTES

V = TypeVar("V")
B = TypeVar("B")


@dataclass(frozen=True)
class UbPlan:
    """How the kernel spends UB: what the tiling divides the UB by.

    The reference kernel reserves 1024 bytes for the compare masks and budgets 48 bytes per
    element (queues, f32 copies, slope, four constant buffers), aligned to 64 elements.
    """

    bytes_per_element: int = 48
    ub_reserve: int = 1024
    align_elements: int = 64


REFERENCE_PLAN = UbPlan()


# region kernel variants and their UB plans

ELEMENT_BYTES = {"f16": 2, "bf16": 2, "f32": 4}
F32_BYTES = 4
COMPUTE_ALIGN = VECTOR_REPEAT_BYTES // F32_BYTES
"""Vector steps run over whole 256-byte repeats of f32: roundup(cur, 64) lanes, so ubFactor is a
multiple of 64 and every vector count stays inside its buffer."""
MASK_MIN_BYTES = VECTOR_REPEAT_BYTES
"""A compare mask buffer holds max(256, roundup256(ceil(ubFactor / 8))) bytes."""


@dataclass(frozen=True)
class KernelVariant:
    """Which kernel structure convert-hsg-to-ascend emits; all flags off is the reference.

    Every combination computes the reference's bits (SPEC.md section 2); they differ in UB use
    and in what the pipes may overlap.
    """

    double_buffer: bool = False
    """TQue depth 2 (InitBuffer num 2): copy-in of chunk i+1 overlaps compute of chunk i."""
    scalar_compare: bool = False
    """CompareScalar(-3 / 3) and Select(VSEL_TENSOR_SCALAR_MODE, 0 / 1): no constant buffers."""
    in_place: bool = False
    """The slope is computed in x's f32 copy (f16/bf16) or x's queue buffer (f32), the product in
    grad's f32 copy or directly in y: no slope buffer."""
    early_free: bool = False
    """FreeTensor each input right after its last read, so the next copy-in may start sooner."""
    x_first: bool = False
    """Copy x and hand it to compute before grad: the slope is computed while grad is still
    being copied, and y is taken from its queue only for the product."""

    @property
    def queue_depth(self) -> int:
        return 2 if self.double_buffer else 1

    @property
    def is_reference(self) -> bool:
        return self == REFERENCE_VARIANT

    def describe(self) -> str:
        """The pass options that select this variant, e.g. `double-buffer=true in-place=true`."""
        on = [name.replace("_", "-") + "=true" for name in VARIANT_FLAGS if getattr(self, name)]
        return " ".join(on) if on else "reference"


VARIANT_FLAGS = tuple(flag.name for flag in fields(KernelVariant))
"""The flags, in declaration order (also the pass options' order, with `-` for `_`)."""
REFERENCE_VARIANT = KernelVariant()
FAST_VARIANT = KernelVariant(double_buffer=True, scalar_compare=True, in_place=True,
                             early_free=True, x_first=True)
VARIANTS = {"reference": REFERENCE_VARIANT, "fast": FAST_VARIANT}
"""Named presets of the `variant` pass option."""

BufferSize = Literal["tensor", "float", "mask"]


@dataclass(frozen=True)
class BufferSpec:
    """One InitBuffer of the kernel's Init: a TQue (num buffers) or a TBuf (one)."""

    name: str
    """The buffer's name in the IR: `input_queue_x`, `slope` (a TBuf's value is `<name>_buf`)."""
    position: Literal["vecin", "vecout", "veccalc"]
    size: BufferSize
    """tensor: ubFactor * sizeof(T); float: ubFactor * 4; mask: max(256, roundup256(ubFactor/8))."""
    num: int = 1
    """Buffers of this length (a queue's depth; 1 for a TBuf)."""

    @property
    def is_queue(self) -> bool:
        return self.position != "veccalc"


def kernel_buffers(dtype: str, variant: KernelVariant) -> tuple[BufferSpec, ...]:
    """Every buffer the kernel of `variant` allocates, in InitBuffer order (SPEC.md section 5)."""
    depth = variant.queue_depth
    queues = (
        BufferSpec("input_queue_x", "vecin", "tensor", depth),
        BufferSpec("input_queue_grad", "vecin", "tensor", depth),
        BufferSpec("output_queue_y", "vecout", "tensor", depth),
    )
    scratch = [] if dtype == "f32" else ["x_fp32", "grad_fp32"]
    if not variant.in_place:
        scratch.append("slope")
    if not variant.scalar_compare:
        scratch += ["lower", "upper", "zero", "one"]
    tbufs = tuple(BufferSpec(name, "veccalc", "float") for name in scratch)
    masks = tuple(BufferSpec(name, "veccalc", "mask") for name in ("greater_mask", "less_mask"))
    return queues + tbufs + masks


def mask_length(a: TilingArith[V, B], ub_factor: V) -> V:
    """Bytes of one compare mask: one bit per element, whole 256-byte blocks, at least one."""
    roundup = a.mul(a.ceil_div(a.ceil_div(ub_factor, a.const(8)), a.const(MASK_MIN_BYTES)),
                    a.const(MASK_MIN_BYTES))
    return a.name(a.max(roundup, a.const(MASK_MIN_BYTES)), "mask_bytes")


def linear_bytes(size: BufferSize, dtype: str) -> int:
    """Bytes per element of ubFactor of a tensor- or float-sized buffer."""
    return ELEMENT_BYTES[dtype] if size == "tensor" else F32_BYTES


def buffer_length(spec: BufferSpec, dtype: str, ub_factor: int) -> int:
    """InitBuffer's length of one buffer of `spec` for a ubFactor, as the kernel computes it."""
    if spec.size == "mask":
        return mask_length(IntArith(), ub_factor)
    return ub_factor * linear_bytes(spec.size, dtype)


def ub_bytes_used(dtype: str, variant: KernelVariant, ub_factor: int) -> int:
    """UB the kernel of `variant` claims: every InitBuffer (rounded up to 32 bytes) plus
    Select's temporary space."""
    total = SELECT_TMP_BYTES
    for spec in kernel_buffers(dtype, variant):
        length = buffer_length(spec, dtype, ub_factor)
        total += spec.num * -(-length // UB_BLOCK_BYTES) * UB_BLOCK_BYTES
    return total


def ub_plan(dtype: str, variant: KernelVariant) -> UbPlan:
    """What the tiling divides the UB by for `variant`: the reference's fixed 48 bytes per element
    and 1024-byte mask reserve, or, for any other variant, its buffers' actual bytes.

    A derived plan counts every tensor- and float-sized buffer's bytes per element, a mask's
    eighth of a byte per element rounded up with the rest, and reserves Select's 8 KB temporary
    space plus 256 bytes per mask (a mask's roundup to whole 256-byte blocks). So for every UB size
    the ubFactor it yields keeps `ub_bytes_used` within the UB (test_variants proves it).
    """
    if variant.is_reference:
        return REFERENCE_PLAN
    specs = kernel_buffers(dtype, variant)
    linear = sum(s.num * linear_bytes(s.size, dtype) for s in specs if s.size != "mask")
    masks = sum(s.num for s in specs if s.size == "mask")
    return UbPlan(bytes_per_element=linear + -(-masks // 8),
                  ub_reserve=SELECT_TMP_BYTES + masks * MASK_MIN_BYTES,
                  align_elements=COMPUTE_ALIGN)

# endregion

TILING_KEYS = {"f16": 0, "f32": 1, "bf16": 2}
"""schMode of the kernel entry: HARDSWISHGRAD_TPL_SCH_MODE_FP16 / FP32 / BF16."""

TILING_FIELDS = ("totalNum", "blockFactor", "ubFactor")
"""HardSwishGradTilingData, in order: what the kernel reads."""


class TilingArith(Protocol[V, B]):
    """What the formula needs: index arithmetic, comparisons, selects and failing checks."""

    def const(self, value: int) -> V: ...
    def sub(self, a: V, b: V) -> V: ...
    def mul(self, a: V, b: V) -> V: ...
    def floor_div(self, a: V, b: V) -> V: ...
    def ceil_div(self, a: V, b: V) -> V: ...
    def max(self, a: V, b: V) -> V: ...
    def min(self, a: V, b: V) -> V: ...
    def eq(self, a: V, b: V) -> B: ...
    def gt(self, a: V, b: V) -> B: ...
    def or_(self, a: B, b: B) -> B: ...
    def select(self, cond: B, a: V, b: V) -> V: ...
    def check(self, ok: B, message: str) -> None: ...
    def name(self, value: V, hint: str) -> V: ...


@dataclass(frozen=True)
class Tiling(Generic[V]):
    """HardSwishGradTilingData plus what the host sets on the launch."""

    total_num: V
    block_factor: V
    ub_factor: V
    used_core_num: V
    """SetBlockDim."""
    tiling_key: V
    """SetTilingKey."""

    def as_tuple(self) -> tuple[V, V, V, V, V]:
        return (self.total_num, self.block_factor, self.ub_factor, self.used_core_num,
                self.tiling_key)

    def as_json(self) -> dict[str, V]:
        return {"totalNum": self.total_num, "blockFactor": self.block_factor,
                "ubFactor": self.ub_factor, "usedCoreNum": self.used_core_num,
                "tilingKey": self.tiling_key}


RESULT_NAMES = ("total_num", "block_factor", "ub_factor", "used_core_num", "tiling_key")


def tiling_formula(
    a: TilingArith[V, B], total_num: V, core_num: V, ub_size: V, dtype: str,
    plan: UbPlan = REFERENCE_PLAN,
) -> Tiling[V]:
    """HardSwishGradTilingFunc: split `total_num` elements over the cores, then into UB passes.

    Fails (a.check) as the reference does: no cores, no UB, no UB left after the mask reserve,
    or a UB too small for one aligned pass. An empty tensor runs one core that does nothing.
    """
    zero, one = a.const(0), a.const(1)
    a.check(a.gt(core_num, zero), "coreNum is 0")
    a.check(a.gt(ub_size, zero), "ubSize is 0")
    empty = a.eq(total_num, zero)
    block_factor = a.name(a.ceil_div(total_num, a.max(core_num, one)), "block_factor")
    used_core_num = a.select(empty, one, a.ceil_div(total_num, a.max(block_factor, one)))
    available = a.name(a.sub(ub_size, a.const(plan.ub_reserve)), "available_ub_size")
    a.check(a.or_(empty, a.gt(available, zero)), "available UB size is invalid")
    align = a.const(plan.align_elements)
    raw = a.name(a.floor_div(a.max(available, zero), a.const(plan.bytes_per_element)),
                 "ub_factor_raw")
    ub_factor = a.select(empty, zero, a.mul(a.floor_div(raw, align), align))
    a.check(a.or_(empty, a.gt(ub_factor, zero)), "ubFactor is invalid")
    return Tiling(total_num, block_factor, ub_factor, used_core_num,
                  a.const(TILING_KEYS[dtype]))


class TilingError(ValueError):
    """The host tiling refused the launch (the reference returns ge::GRAPH_FAILED)."""


class IntArith:
    """The formula on Python ints: folding and checks at compile time or before a run."""

    def const(self, value: int) -> int:
        return value

    def sub(self, a: int, b: int) -> int:
        return a - b

    def mul(self, a: int, b: int) -> int:
        return a * b

    def floor_div(self, a: int, b: int) -> int:
        return a // b

    def ceil_div(self, a: int, b: int) -> int:
        return -(-a // b)

    def max(self, a: int, b: int) -> int:
        return a if a > b else b

    def min(self, a: int, b: int) -> int:
        return a if a < b else b

    def eq(self, a: int, b: int) -> bool:
        return a == b

    def gt(self, a: int, b: int) -> bool:
        return a > b

    def or_(self, a: bool, b: bool) -> bool:
        return a or b

    def select(self, cond: bool, a: int, b: int) -> int:
        return a if cond else b

    def name(self, value: int, hint: str) -> int:
        return value

    def check(self, ok: bool, message: str) -> None:
        if not ok:
            raise TilingError(f"HardSwishGrad tiling failed: {message}")


def compute_tiling(
    total_num: int, core_num: int, ub_size: int, dtype: str, plan: UbPlan = REFERENCE_PLAN
) -> Tiling[int]:
    """The tiling as numbers; TilingError where the reference fails."""
    return tiling_formula(IntArith(), total_num, core_num, ub_size, dtype, plan)


def block_slice(a: TilingArith[V, B], total_num: V, block_factor: V, block_idx: V) -> tuple[V, V]:
    """The kernel's Init: (blockOffset, blockLength) of core `block_idx`; only the last is short."""
    offset = a.mul(block_factor, block_idx)
    length = a.max(a.min(block_factor, a.sub(total_num, offset)), a.const(0))
    return offset, length


def chunk_extent(a: TilingArith[V, B], block_length: V, ub_factor: V, index: V) -> tuple[V, V]:
    """The kernel's Process: (offset in the slice, element count) of UB pass `index`."""
    offset = a.mul(index, ub_factor)
    return offset, a.min(ub_factor, a.sub(block_length, offset))


@dataclass(frozen=True)
class CoreSlice:
    """What core `block_idx` owns, as the kernel computes it from the tiling."""

    offset: int
    length: int
    loop_count: int


def core_slice(tiling: Tiling[int], block_idx: int) -> CoreSlice:
    """blockOffset, blockLength and loopCount of one core, by the kernel's own formulas."""
    a = IntArith()
    offset, length = block_slice(a, tiling.total_num, tiling.block_factor, block_idx)
    loops = a.ceil_div(length, tiling.ub_factor) if length > 0 and tiling.ub_factor > 0 else 0
    return CoreSlice(offset, length, loops)
