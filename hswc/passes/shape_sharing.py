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
the same bits).

Bounded: where the static kernel keeps its weight in UB (a weight of at most RESIDENT_BYTES:
up to 512 f32 channels), the shared one reading it from GM per run would cost 4% to 28% more
at 56 x 56 to 14 x 14 (bench/bench_shape_sharing.py). Such kernels share a description with
a bound (hswc.broadcast.Broadcast.bounds, `hsg.broadcast_bound`): the largest channel count
of the generics it serves (`SizeGroups`: the module's generics of the same shared description
and dtypes, each taking the largest count of its group for which the rule holds). The shared
kernel reserves UB for the bound's weight and copies the core's part of its run-time weight
into it in Init, so its runs are the static kernel's (`row_runs` at the bound: resident), and
a launch whose run-time shape exceeds the bound is refused (Broadcast.resolve: the
interpreter's launch, the package's host tiling). A group of one size stays static. The cost
model times the bounded kernel at most as the static one at the same C (Init copies the
core's part of the weight, not the whole; a bound above C leaves the chunks a little less
UB: bench/README.md, test/test_shape_sharing_bounded.py).

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

SizeKey = tuple[tuple[str, ...], Broadcast]
"""What generics share a kernel by: their inputs' element types and the shared description
without a bound."""


class SizeGroups:
    """The run-time sizes each shared description takes in a module: per SizeKey, the sizes of
    its outermost dim (`add` every generic first, then `shared`)."""

    def __init__(self) -> None:
        self.sizes: dict[SizeKey, set[int]] = {}

    def add(self, ew: Elementwise) -> None:
        found = _key(ew)
        if found is not None:
            key, size = found
            self.sizes.setdefault(key, set()).add(size)

    def shared(self, ew: Elementwise) -> Elementwise:
        """`ew` read through its shared description: unbounded where the rule holds so, else
        bounded by the largest size of its group for which it holds (a group of more than one
        size); else `ew`."""
        found = _key(ew)
        if found is None:
            return ew
        (dtypes, free), size = found
        assert ew.broadcast is not None
        shared = shared_broadcast(ew.broadcast, dtypes)
        if shared is not None:
            return replace(ew, broadcast=shared)
        sizes = sorted(self.sizes.get((dtypes, free), {size}), reverse=True)
        for bound in sizes:
            if bound < size or sum(1 for n in sizes if n <= bound) < 2:
                break
            shared = shared_broadcast(ew.broadcast, dtypes, bound)
            if shared is not None:
                return replace(ew, broadcast=shared)
        return ew


def _key(ew: Elementwise) -> tuple[SizeKey, int] | None:
    """The generic's SizeKey and its outermost size, None where it has no shared form."""
    if ew.broadcast is None:
        return None
    dtypes = tuple(element_type_name(t) for t in ew.input_types)
    outer = _outer(ew.broadcast)
    free = _dynamic(ew.broadcast, outer)
    if free is None or outer is None:
        return None
    return (dtypes, free), ew.broadcast.shape[outer]


def with_shared_shape(ew: Elementwise) -> Elementwise:
    """`ew` read through its shared broadcast description (`shared_broadcast`, no bound), if
    it has one; else `ew`."""
    shared = shared_broadcast(ew.broadcast, [element_type_name(t) for t in ew.input_types])
    return ew if shared is None else replace(ew, broadcast=shared)


def _outer(broadcast: Broadcast) -> int | None:
    """The outermost dim of a size > 1."""
    return next((k for k, n in enumerate(broadcast.shape) if n != 1), None)


def _dynamic(broadcast: Broadcast, outer: int | None) -> Broadcast | None:
    """`broadcast` with dim `outer` at run time, where a kernel can read it so; else None."""
    if outer is None or not broadcast.is_static or broadcast.windows:
        return None
    if all(s is not None for s in broadcast.strides):
        return None  # no input at the output's index to take the run-time shape from
    shape = list(broadcast.shape)
    shape[outer] = DYNAMIC_DIM
    shared = Broadcast(tuple(shape), broadcast.strides)
    return None if shared.dynamic_refusal() is not None else shared


def shared_broadcast(broadcast: Broadcast | None, dtypes: Sequence[str],
                     bound: int | None = None) -> Broadcast | None:
    """`broadcast` with its outermost dim of a size > 1 known only at run time (up to
    `bound`, at least its own size, if given), where one kernel for every size of that dim
    costs nothing (module docstring); else None. `dtypes`: each input's element type."""
    if broadcast is None:
        return None
    outer = _outer(broadcast)
    shared = _dynamic(broadcast, outer)
    if shared is None or outer is None:
        return None
    if bound is not None:
        if bound < broadcast.shape[outer]:
            return None
        bounds = list(broadcast.shape)
        bounds[outer] = bound
        shared = replace(shared, bounds=tuple(bounds))
    try:
        same = all(row_runs(broadcast, i, dtypes[i]) == row_runs(shared, i, dtypes[i])
                   for i, s in enumerate(broadcast.strides) if s is not None)
    except KeyError:  # an element type the copy-in has no size for: left as it is
        return None
    return shared if same else None
