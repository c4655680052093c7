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
2. `schedule`: an event-driven scheduler runs the three in-order pipes of every core; DMAs
   share the HBM and L2 bandwidths max-min fairly, each capped by its pipe's GM port. Depth-1
   queues serialise a core's chunks because the next copy-in waits for the compute that frees
   the one buffer; depth-2 queues let copy-in, compute and copy-out of neighbouring chunks
   overlap.
3. `report`: total time, GM bandwidth as a fraction of the HBM roofline, the binding resource,
   per-core imbalance, per-chunk pipe times, UB and vector instruction counts; `trace` writes
   the schedule as Chrome/Perfetto JSON (one track per pipe per core).

The figures (hswc.platform.CostFigures, kept with the platform facts, each with its source):
documented ones (clock, HBM bandwidth, 256-byte repeats of one cycle, at most 255 repeats an
instruction), ones fitted on Huawei's measured profiles of asc-devkit's add_high_performance
example (hswc.platform.ADD_PROFILES: the vector issue overhead, UB bank conflicts doubling a
call's repeats, each MTE pipe's GM port and set-up, the L2 bandwidth reads and writes share,
the scalar accesses, the launch) and assumptions (a PipeBarrier's drain, scalar GM access).
bench/bench_calibration.py prints the model beside every published measurement it can run.

`hswc.cost_model.recorded` times a hand-written kernel the same way: the C++ CPU model records
its call stream (hswc-check-kernel --profile), turned into the same pipe streams.

UB bank conflicts: a generated kernel's buffers are placed as TPipe places them (InitBuffer
after InitBuffer, as the interpreter and the CPU model do), so each vector call's operands have
addresses, and a call is timed by the same rule (`stream.bank_conflict_share`, asc-devkit's
documented A2 rule: read-read in one bank group, read-write in one bank, an aligned write such
as an in-place call's delayed one repeat) as a recorded one.

Not modelled: GM burst size (a copy of many short GM runs costs what one of their total does),
GM address alignment (AscendC documents up to 30% less bandwidth for copies whose GM address is
32- but not 512-byte aligned on A2), L2 hits of data read twice, and Ascend 950's RegBase
(MicroAPI) register calls.
"""

from hswc.cost_model.report import Report
from hswc.cost_model.stream import CostModelError

__all__ = ["CostModelError", "Report"]
