"""A cost model of a lowered elementwise kernel: per chunk, per core, per pipe.

This package is the model itself, below the passes (hsg-tile-on-cores uses it to choose a
schedule, hswc.passes.schedule_choice); hswc.profiling lowers a module through the pipeline and
runs it:

    from hswc.profiling import profile
    report = profile(module, shape=1 << 20, dtype="f16", platform="ascend910b")
    print(report.summary())
    report.write_trace("/tmp/hsg_trace.json")   # open in ui.perfetto.dev

How it works:
1. `stream`: the kernel's IR is walked for each core (index arithmetic and loops evaluated with
   the launch's tiling), every `ascend` op becoming work on MTE2 (GM -> UB copies), V (vector
   instructions, `ceil(count * sizeof(T) / 256)` repeats each) or MTE3 (UB -> GM copies), or an
   event between them (EnQue/DeQue, FreeTensor/AllocTensor, as AscendC's TQue implements them).
2. `schedule`: an event-driven scheduler runs the three in-order pipes of every core; DMAs share
   the HBM bandwidth max-min fairly, each capped by its core's GM port. Depth-1 queues serialise
   a core's chunks because the next copy-in waits for the compute that frees the one buffer;
   depth-2 queues let copy-in, compute and copy-out of neighbouring chunks overlap.
3. `report`: total time, GM bandwidth as a fraction of the HBM roofline, the binding resource,
   per-core imbalance, per-chunk pipe times, UB and vector instruction counts; `trace` writes
   the schedule as Chrome/Perfetto JSON (one track per pipe per core).

The figures (hswc.platform.CostFigures, kept with the platform facts):

| figure                       | value     | status                                            |
|------------------------------|-----------|---------------------------------------------------|
| bytes per vector repeat      | 256       | documented: AscendC API reference                 |
| repeats per instruction      | <= 255    | documented: AscendC repeatTimes is a uint8        |
| clock                        | 1.8 GHz   | documented: Atlas A2 in CANN ops-nn's cross-      |
|                              |           | platform migration guide                          |
| HBM bandwidth (all cores)    | 1.6 TB/s  | documented: Atlas A2, the same table; a parameter |
| cycles per repeat            | 1         | assumption (matches the A2 vector peak of 22.1    |
|                              |           | TFLOPS f16 derived from CANN's platform config)   |
| issue overhead / instruction | 16 cycles | assumption                                        |
| PipeBarrier<PIPE_V>          | 16 cycles | assumption                                        |
| GM port per core             | 128 GB/s  | assumption (Ascend 910, Hot Chips 2019: <= 128    |
|                              |           | GB/s per core)                                    |
| DMA set-up per copy          | 32 cycles | assumption, calibrated on AscendC's documented    |
|                              |           | best practice: copies of >= 16 KB get close to    |
|                              |           | the best bandwidth (88% here; 2 KB: 47%)          |

Not modelled: the scalar unit (its issue work is folded into the per-instruction overhead),
the kernel launch, GM address alignment (AscendC documents up to 30% less bandwidth for copies
whose GM address is 32- but not 512-byte aligned on A2), UB bank conflicts, and L2 caching.
"""

from hswc.cost_model.report import Report
from hswc.cost_model.stream import CostModelError

__all__ = ["CostModelError", "Report"]
