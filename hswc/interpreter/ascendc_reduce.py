"""ReduceSum, ReduceMax and ReduceMin(dst, src, work, count) over numpy views.

The order of combination is hswc.reduce_semantics' (per SoC family); each step is the level-2
Add / Max / Min's lane operation (ascendc_arith.LANE_OPS). The rules checked, from asc-devkit's
归约计算/ReduceSum.md, ReduceMax.md, ReduceMin.md:
- count 0 is a NOP on Atlas A2/A3; on Ascend 950 the call is not promised to be one and is
  refused; count at most src's elements;
- `work` (sharedTmpBuffer) holds at least `work_elements` (the documented minimum, and what the
  implementation writes where that is more); its first that many elements hold a NaN after the
  call (their contents are the implementation's intermediate results: unspecified);
- dst holds at least one element (it may share bytes with work, as documented, and with src:
  every source element is read before anything is written).
"""

from __future__ import annotations

from typing import Final

import numpy as np

from hswc import reduce_semantics
from hswc.interpreter.ascendc_arith import LANE_OPS, arith_dtype
from hswc.interpreter.ascendc_checks import ApiError, check_operand
from hswc.platform import UB_BLOCK_BYTES

CALLS: Final = {"sum": "ReduceSum", "max": "ReduceMax", "min": "ReduceMin"}
POISON: Final = {np.dtype(np.float16): np.uint16(0x7E00),
                  np.dtype(np.float32): np.uint32(0x7FC00000)}
"""The quiet NaN a reduction leaves in its work elements (their values are unspecified)."""


def work_elements(kind: str, family: str, count: int, itemsize: int) -> tuple[int, str]:
    """(the elements of `work` the call needs, where that figure comes from) for `count`
    elements of `itemsize` bytes on a SoC family."""
    lanes = 256 // itemsize
    per_block = UB_BLOCK_BYTES // itemsize
    first = max(1, count // lanes)
    if kind == "sum" and family == "dav_c220":
        return 0, "ReduceSum.md: 方式一, sharedTmpBuffer not used on Atlas A2/A3"
    if kind != "sum" and family == "dav_3510":
        return 0, f"{CALLS[kind]}.md: no sharedTmpBuffer needed on Ascend 950"
    if kind == "sum":
        documented = -(-first // per_block) * per_block
        used = -(-count // lanes) if count > 4 * lanes else 0
        if used > documented:
            return used, (f"ReduceSum.md's DivCeil(max(1, count / {lanes}), {per_block}) * "
                          f"{per_block} = {documented}, and the ceil(count / {lanes}) = {used} "
                          "repeat sums dav_3510's ReduceSumImpl stores there")
        return documented, (f"ReduceSum.md: DivCeil(max(1, count / {lanes}), {per_block}) * "
                            f"{per_block}")
    need = -(-2 * first // per_block) * per_block
    return need, (f"{CALLS[kind]}.md: DivCeil(2 * max(1, count / {lanes}), {per_block}) * "
                  f"{per_block}")


def reduce_count(kind: str, family: str, dst: np.ndarray, src: np.ndarray, work: np.ndarray,
                 count: int) -> None:
    """ReduceSum / ReduceMax / ReduceMin of src[..., :count] into dst[..., 0] (module
    docstring); `kind` sum, max or min, `family` dav_c220 or dav_3510."""
    api = CALLS[kind]
    check_operand(api, "dst", dst)
    dtype = arith_dtype(api, dst)
    check_operand(api, "src", src, dtype)
    check_operand(api, "work", work, dtype)
    if isinstance(count, bool) or not isinstance(count, int | np.integer) or count < 0:
        raise ApiError(f"{api}: count must be a non-negative integer, got {count!r}")
    if count == 0:
        if family == "dav_3510":
            raise ApiError(f"{api}: count 0 is not modelled on Ascend 950 ({api}.md: not "
                           "promised to be a NOP there)")
        return
    if count > src.shape[-1]:
        raise ApiError(f"{api}: count {count} exceeds src ({src.shape[-1]} elements)")
    if dst.shape[-1] < 1:
        raise ApiError(f"{api}: dst holds no element")
    need, why = work_elements(kind, family, int(count), dtype.itemsize)
    if work.shape[-1] < need:
        raise ApiError(f"{api}: work holds {work.shape[-1]} elements; count {count} of "
                       f"{dtype} needs at least {need} ({why})")
    result = reduce_semantics.reduce_count(src[..., :count].copy(), int(count), kind,
                                           family, LANE_OPS["add" if kind == "sum" else kind])
    if need:
        poison = POISON[dtype]
        work[..., :need].view(poison.dtype)[...] = poison
    try:
        dst[..., 0] = result
    except ValueError as err:
        raise ApiError(f"{api}: operands of shapes {result.shape} and {dst.shape} do not batch "
                       "together") from err
