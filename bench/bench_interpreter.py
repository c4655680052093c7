"""The interpreter at the ascend level next to the numpy reference model, in one run.

For 2^20, 2^24 and 2^26 f16 elements on the Atlas A2 platform (48 vector cores, 196608-byte
UB): the time of `kernel(grad, x)` (the AscendC kernel of --lower-to-ascend, every core's UB
arena, queues and vector calls modelled) and of hswc.reference.hard_swish_grad_cann on the same
inputs, interleaved so machine noise hits both alike; their ratio (best of N each); and the peak
memory each allocates (tracemalloc), also as a multiple of the inputs' size. The goal of issue 3
is a ratio of at most 1.5 at 2^24.

    python bench/bench_interpreter.py [--log2-sizes 20,24,26] [--repeat 3]
"""

from __future__ import annotations

import argparse
import gc
import resource
import statistics
import time
import tracemalloc
from collections.abc import Callable

import numpy as np

from hswc.reference import compare_bitwise, hard_swish_grad_cann
from hswc.runner import Kernel, compile_text

GOAL_LOG2 = 24
GOAL_RATIO = 1.5

SOURCE = """
func.func @hard_swish_grad(%grad: tensor<?xf16>, %x: tensor<?xf16>) -> tensor<?xf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<?xf16>
  func.return %y : tensor<?xf16>
}
"""


def inputs(n: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(n)
    grad = rng.standard_normal(n, dtype=np.float32).astype(np.float16)
    x = rng.uniform(-6.0, 6.0, n).astype(np.float32).astype(np.float16)
    return grad, x


def seconds(run: Callable[[], object]) -> float:
    gc.collect()
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def peak_bytes(run: Callable[[], object]) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def measure(kernel: Kernel, log2: int, repeat: int) -> dict[str, float]:
    n = 1 << log2
    grad, x = inputs(n)
    result = compare_bitwise(kernel(grad, x), hard_swish_grad_cann(grad, x))
    if not result.equal:
        raise SystemExit(f"2^{log2}: the interpreter disagrees with the reference:\n"
                         f"{result.summary()}")
    ref_t: list[float] = []
    run_t: list[float] = []
    for _ in range(repeat):
        ref_t.append(seconds(lambda: hard_swish_grad_cann(grad, x)))
        run_t.append(seconds(lambda: kernel(grad, x)))
    input_bytes = grad.nbytes + x.nbytes
    return {
        "ref": min(ref_t), "run": min(run_t),
        "ref_median": statistics.median(ref_t), "run_median": statistics.median(run_t),
        "ref_peak": peak_bytes(lambda: hard_swish_grad_cann(grad, x)) / input_bytes,
        "run_peak": peak_bytes(lambda: kernel(grad, x)) / input_bytes,
        "input_mb": input_bytes / 2**20,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log2-sizes", default="20,24,26",
                        help="comma-separated log2 of the element counts (default 20,24,26)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs of each (best counts)")
    args = parser.parse_args()
    kernel = compile_text(SOURCE, name="bench", soc="ascend910b")
    print(f"platform {kernel.platform.name}: {kernel.platform.core_num} cores, "
          f"{kernel.platform.ub_size} B UB; f16; best of {args.repeat}")
    header = (f"{'elements':>9} {'reference s':>12} {'interp s':>9} {'ratio':>6} "
              f"{'(medians)':>9} {'ref peak':>9} {'run peak':>9} {'inputs MB':>10}")
    print(header)
    verdict = None
    for log2 in (int(s) for s in args.log2_sizes.split(",")):
        m = measure(kernel, log2, args.repeat)
        ratio = m["run"] / m["ref"]
        print(f"{'2^' + str(log2):>9} {m['ref']:12.3f} {m['run']:9.3f} {ratio:6.2f} "
              f"{m['run_median'] / m['ref_median']:9.2f} {m['ref_peak']:8.2f}x "
              f"{m['run_peak']:8.2f}x {m['input_mb']:10.0f}")
        if log2 == GOAL_LOG2:
            verdict = ratio
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peaks are tracemalloc's, as multiples of the inputs (grad + x); process max RSS "
          f"{rss:.0f} MB")
    if verdict is not None:
        status = "MET" if verdict <= GOAL_RATIO else "NOT MET"
        print(f"goal: 2^{GOAL_LOG2} within {GOAL_RATIO}x of the reference: {status} "
              f"({verdict:.2f}x)")


if __name__ == "__main__":
    main()
