"""The row choice between summing softmax's exp(x - max) online and in a pass of its own
(hswc.passes.row_schedule_choice), in the cost model: softmax and log_softmax over rows longer
than a chunk holds (in segments: hswc.rows), each candidate the choice models for one launch,
online against in passes side by side with their ratio, and the one taken, per SoC (the
platform named to hsg-tile-on-cores, `soc=`), dtype and row length.

    python bench/bench_online_sum.py [--lengths 20000,60000] [--dtypes f16,f32]
                                     [--ops softmax,log_softmax] [--socs ascend910b,ascend950]

Online reads the row from GM once less and does more vector work a segment (the running
maximum's rescaling), so which is cheaper depends on the SoC, the dtype and the row. The model
is deterministic: the figures do not depend on the machine's load.
"""

from __future__ import annotations

import argparse
import sys

from xdsl.passes import PassPipeline

from hswc.passes import row_schedule_choice, schedule_choice
from hswc.pipeline import PASSES, context, parse_text
from hswc.platform import get_platform
from hswc.rows import read_rows
from hswc.vectorizer.plan import KernelPlan

ROWS = 4


def _op(op: str, length: int, dtype: str) -> str:
    t = f"tensor<{ROWS}x{length}x{dtype}>"
    return (f"func.func @f(%x: {t}) -> {t} {{\n  %y = hsg.{op} %x {{dim = -1 : i64}} : {t}\n"
            f"  func.return %y : {t}\n}}\n")


def modelled(op: str, length: int, dtype: str, soc: str
             ) -> tuple[dict[tuple[str, bool], float], bool | None]:
    """Each candidate's modelled seconds by (schedule, online), and whether the kernel chosen
    sums online (None: no row kernel)."""
    times: dict[tuple[str, bool], float] = {}
    model = schedule_choice.modelled_time

    def recorded(kernel, plan: KernelPlan, *rest):  # type: ignore[no-untyped-def]
        seconds = model(kernel, plan, *rest)
        assert plan.rows is not None
        schedule = "fast" if plan.schedule.double_buffer else "reference"  # the two presets
        times[schedule, plan.rows.online] = seconds
        return seconds

    schedule_choice.modelled_time = recorded  # type: ignore[assignment]
    row_schedule_choice._chosen.clear()
    try:
        module = parse_text(_op(op, length, dtype), "<bench>")
        api = get_platform(soc).api
        pipeline = (f"hsg-decompose,hsg-fuse-elementwise,hsg-tile-on-cores{{soc={soc} "
                    f"rows=true api={api}}},hsg-block-into-ub,convert-hsg-to-ascend{{api={api}}}")
        PassPipeline.parse_spec(PASSES, pipeline).apply(context(), module)
    finally:
        schedule_choice.modelled_time = model
    rows = [read_rows(f) for f in module.walk() if "hsg.rows" in f.attributes]
    return times, (rows[0].online if rows and rows[0] is not None else None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", default="20000,60000")
    parser.add_argument("--dtypes", default="f16,f32")
    parser.add_argument("--ops", default="softmax,log_softmax")
    parser.add_argument("--socs", default="ascend910b,ascend950")
    args = parser.parse_args(argv)
    print(f"{'op':<12} {'soc':<11} {'dtype':<5} {'length':>7} {'schedule':<10} "
          f"{'online us':>10} {'passes us':>10} {'passes/online':>13}  taken")
    for soc in args.socs.split(","):
        for op in args.ops.split(","):
            for dtype in args.dtypes.split(","):
                for length in map(int, args.lengths.split(",")):
                    times, online = modelled(op, length, dtype, soc)
                    taken = {None: "host", True: "online", False: "in passes"}[online]
                    for schedule in dict.fromkeys(s for s, _ in times):
                        on, off = times.get((schedule, True)), times.get((schedule, False))
                        ratio = f"{off / on:13.3f}" if on and off else f"{'-':>13}"
                        shown = [f"{t * 1e6:10.2f}" if t else f"{'-':>10}" for t in (on, off)]
                        print(f"{op:<12} {soc:<11} {dtype:<5} {length:>7} {schedule:<10} "
                              f"{shown[0]} {shown[1]} {ratio}  {taken}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
