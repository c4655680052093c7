"""One kernel for generics that differ only in a broadcast shape's channel count, where the cost
model says sharing it is free.

A static broadcast description (hswc.broadcast) `[1, C, H, W]` with a per-channel input
`(0, 1, 0, 0)` and an input read at the output's index describes one kernel per C. The same
description with C known only at run time, `[1, ?, H, W]`, is one the kernels already read
(the outermost dim of a run-time size: its digit needs no wrap; the per-channel input's GM
buffer covers what a core reads of it, hswc.vectorizer.broadcast_copy.covered_size), and one
kernel for every C: hsg-tile-on-cores builds, lowers, verifies and prints it once for every
generic of the same body, dtype, H x W and schedule (hswc.passes.kernel_functions keys it by
its body and broadcast), launched with each generic's static tensors (the interpreter and the
package resolve the `?` from the input read at the output's index).

The rule (`shared_broadcast`): a description is shared only where every broadcast input's
copy-in is the same with C at run time as with C static (hswc.vectorizer.broadcast_copy's
`row_runs`: the same runs, neither copied into UB once, or the same element loop). The
kernels then issue the same copies and vector instructions on every chunk, differing only in
the scalar sizes their GlobalTensors are set to, and the cost model times them alike
(test/test_shape_sharing.py checks it at 576 x 7 x 7, and that the shared kernel computes
the same bits). Where the static kernel keeps its weight in UB (a weight of at most
RESIDENT_BYTES: up to 512 f32 channels) the shared one would read it from GM per run:
bench/bench_shape_sharing.py models that 4% to 28% slower at 56 x 56 to 14 x 14, above the
schedule choice's TIE, so those kernels stay one per channel count. In MobileNetV3-Small only
the 576-channel kernels share by this rule (one generic each: no kernel fewer).

Only the outermost dim of a size > 1 is made run-time (the channels of `[1, C, H, W]`, the
batch of `[N, C, H, W]`), and only where some input is read at the output's index (the
kernel's run-time shape comes from it, hswc.interpreter.launch); descriptions with windows
(slices) stay static.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from hswc.broadcast import DYNAMIC_DIM, Broadcast
from hswc.dialects.ascend_types import element_type_name
from hswc.elementwise import Elementwise
from hswc.vectorizer.broadcast_copy import row_runs


def with_shared_shape(ew: Elementwise) -> Elementwise:
    """`ew` read through its shared broadcast description (`shared_broadcast`), if it has
    one; else `ew`."""
    shared = shared_broadcast(ew.broadcast, [element_type_name(t) for t in ew.input_types])
    return ew if shared is None else replace(ew, broadcast=shared)


def shared_broadcast(broadcast: Broadcast | None, dtypes: Sequence[str]) -> Broadcast | None:
    """`broadcast` with its outermost dim of a size > 1 known only at run time, where one
    kernel for every size of that dim costs nothing (module docstring); else None. `dtypes`:
    each input's element type."""
    if broadcast is None or not broadcast.is_static or broadcast.windows:
        return None
    if all(s is not None for s in broadcast.strides):
        return None  # no input at the output's index to take the run-time shape from
    outer = next((k for k, n in enumerate(broadcast.shape) if n != 1), None)
    if outer is None:
        return None
    shape = list(broadcast.shape)
    shape[outer] = DYNAMIC_DIM
    shared = Broadcast(tuple(shape), broadcast.strides)
    if shared.dynamic_refusal() is not None:
        return None
    try:
        same = all(row_runs(broadcast, i, dtypes[i]) == row_runs(shared, i, dtypes[i])
                   for i, s in enumerate(broadcast.strides) if s is not None)
    except KeyError:  # an element type the copy-in has no size for: left as it is
        return None
    return shared if same else None
