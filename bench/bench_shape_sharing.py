"""Kernels that differ only in a broadcast shape: one kernel with the channel count at run time
against one per shape, in the cost model (issue 35).

MobileNetV3-Small's per-channel ops (a BatchNorm's scale and shift, the squeeze-excitation
product) are one body at many shapes [1, C, H, W]; each shape is a kernel of its own. The
broadcast description already allows C at run time where every dim before it is a static 1
(hswc.broadcast: the weight's flat index is the element's divided by H * W, no wrap). This
script lowers a per-channel add `x[1, C, H, W] + w[C]` both ways, static C and `?`, and models
each candidate schedule at the launch's own element count on ascend910b (the choice's
candidates, schedule_choice.TRADED; the fastest of each kept): printed are both times, their
ratio, how each kernel copies its weight in (hsg.broadcast_copy), and whether hsg-tile-on-cores
shares the kernel (hswc.passes.shape_sharing's rule: only where both copy-ins are the same). A
shared kernel is only worth it where the ratio is at most 1 + the choice's TIE.

A third kernel is the shared one bounded (hswc.broadcast.Broadcast.bounds): C at run time up
to a bound, the weight kept in UB sized for it (`--bound B`, for each shape max(B, C); by
default C itself), timed at the same launch; "-" where the rule does not share even so.

    python bench/bench_shape_sharing.py [--shapes 16x56x56,72x28x28,96x14x14,576x7x7]
                                        [--bound B]
"""

from __future__ import annotations

import argparse
from dataclasses import replace

from xdsl.dialects.builtin import StringAttr
from xdsl.dialects.func import FuncOp
from xdsl.dialects.linalg.ops import GenericOp

from hswc.broadcast import BROADCAST_COPY_ATTR, Broadcast
from hswc.elementwise import elementwise
from hswc.passes.hsg_tile_on_cores import _build_kernel_function
from hswc.passes.schedule_choice import TRADED, Models, _plans, _signature, modelled_times
from hswc.passes.shape_sharing import shared_broadcast
from hswc.pipeline import parse_text
from hswc.platform import get_platform

TEXT = """#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @main(%x: tensor<1x{c}x{h}x{w}xf32>, %w: tensor<{c}xf32>,
                %o: tensor<1x{c}x{h}x{w}xf32>) -> tensor<1x{c}x{h}x{w}xf32> {{
  %r = linalg.generic {{indexing_maps = [#id, #ch, #id],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}}
      ins(%x, %w : tensor<1x{c}x{h}x{w}xf32>, tensor<{c}xf32>)
      outs(%o : tensor<1x{c}x{h}x{w}xf32>) {{
  ^bb0(%a: f32, %b: f32, %unused: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }} -> tensor<1x{c}x{h}x{w}xf32>
  return %r : tensor<1x{c}x{h}x{w}xf32>
}}
"""


def fastest(channels: str, h: int, w: int, elements: int,
            bound: int | None = None) -> tuple[float, str] | None:
    """The fastest candidate's modelled seconds for one launch of `elements`, and how its
    kernel copies the weight in; with `bound`, of the shared kernel bounded so (None where
    the rule does not share it)."""
    module = parse_text(TEXT.format(c=channels, h=h, w=w), "shape_sharing.mlir")
    ew = elementwise(next(op for op in module.walk() if isinstance(op, GenericOp)))
    if bound is not None:
        bounded = shared_broadcast(ew.broadcast, ["f32", "f32"], bound)
        if bounded is None:
            return None
        ew = replace(ew, broadcast=bounded)
    platform = get_platform("ascend910b")

    def build() -> FuncOp:
        return _build_kernel_function("shared_kernel_f32", ew)

    times = modelled_times(build, ew.dag, "f32", ew.output_names(), platform, elements, TRADED)
    schedule, best = min(times, key=lambda found: found[1])
    models = Models(build)
    try:
        plan = _plans(ew.dag, "f32", ew.output_names(), platform.api, (schedule,))[0][1]
        kernel = models.kernel(_signature(plan), plan)
        copies = {attr.data for op in kernel.walk()
                  if isinstance(attr := op.attributes.get(BROADCAST_COPY_ATTR), StringAttr)}
    finally:
        models.close()
    return best, "; ".join(sorted(copies)) or "(none)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", default="16x56x56,72x28x28,96x14x14,576x7x7")
    parser.add_argument("--bound", type=int, default=0,
                        help="the bounded kernel's bound (each shape: at least its C)")
    args = parser.parse_args(argv)
    print(f"{'C x H x W':>12} {'static us':>10} {'C at run time us':>17} {'ratio':>6} "
          f"{'shared':>6} {'bound':>6} {'bounded us':>11} {'ratio':>6}  "
          "copy-in (static | run time | bounded)")
    for shape in args.shapes.split(","):
        c, h, w = (int(n) for n in shape.split("x"))
        found = fastest(str(c), h, w, c * h * w)
        dynamic = fastest("?", h, w, c * h * w)
        assert found is not None and dynamic is not None
        (static, static_copy), (shared, shared_copy) = found, dynamic
        shares = shared_broadcast(Broadcast((1, c, h, w), (None, (0, 1, 0, 0))),
                                  ["f32", "f32"]) is not None
        bound = max(args.bound, c)
        bounded = fastest(str(c), h, w, c * h * w, bound)
        bounded_said = f"{'-':>11} {'-':>6}" if bounded is None else \
            f"{bounded[0] * 1e6:11.2f} {bounded[0] / static:6.3f}"
        print(f"{shape:>12} {static * 1e6:10.2f} {shared * 1e6:17.2f} {shared / static:6.3f} "
              f"{'yes' if shares else 'no':>6} {bound:6d} {bounded_said}  "
              f"{static_copy} | {shared_copy} | {'-' if bounded is None else bounded[1]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
