"""The interpreter at the ascend level next to numpy, in one run.

Two comparisons on the Atlas A2 platform (48 vector cores, 196608-byte UB), each kernel compiled
once with --lower-to-ascend and run by the interpreter (host tiling, then every core's UB arena,
queues and AscendC calls modelled, the cores as one batch):

- HardSwishGrad on `tensor<?xDT>` for f16, bf16 and f32 at 2^20, 2^24 and 2^26 elements, against
  the numpy reference model hswc.reference.hard_swish_grad_cann on the same inputs;
- a 10-op elementwise body (one linalg.generic over three tensors: mulf, addf, maximumf,
  minimumf, mulf, subf, divf, addf, mulf, subf) in f16 and f32 at 2^24, against a plain numpy
  evaluation of the same ten operations.

Each pair is first checked to agree bit for bit, then timed interleaved, so machine noise hits
both alike. Printed: the best of N CPU seconds (process time; numpy here runs on one thread) and
wall seconds of each, the ratios of the bests and of the medians, and the peak memory each
allocates (tracemalloc) as a multiple of the inputs' size. The goal lines (issue 13):
HardSwishGrad at 2^24 f16 and the 10-op body at 2^24, each at most 1.0x of its numpy
counterpart, met only when all four ratios (best and median, CPU and wall) are.

    python bench/bench_interpreter.py [--log2-sizes 20,24,26] [--dtypes f16,bf16,f32] [--repeat 3]
"""

from __future__ import annotations

import argparse
import gc
import resource
import statistics
import time
import tracemalloc
from collections.abc import Callable, Sequence

import ml_dtypes
import numpy as np

from hswc.reference import compare_bitwise, hard_swish_grad_cann
from hswc.runner import compile_text

GOAL_LOG2 = 24
GOAL_RATIO = 1.0
FUSED_LOG2 = 24
NUMPY_DTYPES = {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16),
                "f32": np.dtype(np.float32)}

HSG = """
func.func @hard_swish_grad(%grad: tensor<?x{t}>, %x: tensor<?x{t}>) -> tensor<?x{t}> {{
  %y = hsg.hard_swish_grad %grad, %x : tensor<?x{t}>
  func.return %y : tensor<?x{t}>
}}
"""

# The ten operations of the fused body, as (result, op, lhs, rhs); a, b, c are the inputs.
BODY = (("t0", "mulf", "a", "b"), ("t1", "addf", "t0", "c"), ("t2", "maximumf", "t1", "a"),
        ("t3", "minimumf", "t2", "b"), ("t4", "mulf", "t3", "c"), ("t5", "subf", "t4", "a"),
        ("t6", "divf", "t5", "c"), ("t7", "addf", "t6", "b"), ("t8", "mulf", "t7", "t7"),
        ("t9", "subf", "t8", "c"))
NUMPY_OPS: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "mulf": np.multiply, "addf": np.add, "subf": np.subtract, "divf": np.divide,
    "maximumf": np.maximum, "minimumf": np.minimum,
}


def fused_source(dtype: str) -> str:
    t = f"tensor<?x{dtype}>"
    body = "\n".join(f"    %e{r} = arith.{op} %e{x}, %e{y} : {dtype}" for r, op, x, y in BODY)
    maps = ", ".join(["affine_map<(i) -> (i)>"] * 4)
    return f"""
func.func @body(%a: {t}, %b: {t}, %c: {t}) -> {t} {{
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : {t}
  %init = tensor.empty(%n) : {t}
  %y = linalg.generic {{indexing_maps = [{maps}], iterator_types = ["parallel"]}}
      ins(%a, %b, %c : {t}, {t}, {t}) outs(%init : {t}) {{
  ^bb0(%ea: {dtype}, %eb: {dtype}, %ec: {dtype}, %out: {dtype}):
{body}
    linalg.yield %e{BODY[-1][0]} : {dtype}
  }} -> {t}
  func.return %y : {t}
}}
"""


def fused_numpy(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """The body's ten operations, one numpy call each, in the inputs' dtype."""
    values = {"a": a, "b": b, "c": c}
    for result, op, lhs, rhs in BODY:
        values[result] = NUMPY_OPS[op](values[lhs], values[rhs])
    return values[BODY[-1][0]]


def hsg_inputs(n: int, dtype: np.dtype) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(n)
    grad = rng.standard_normal(n, dtype=np.float32).astype(dtype)
    x = rng.uniform(-6.0, 6.0, n).astype(np.float32).astype(dtype)
    return grad, x


def fused_inputs(n: int, dtype: np.dtype) -> tuple[np.ndarray, ...]:
    """a, b anywhere in [-2, 2]; c in [1, 2], so the division stays finite."""
    rng = np.random.default_rng(n + 1)
    a, b = (rng.uniform(-2.0, 2.0, n).astype(np.float32).astype(dtype) for _ in range(2))
    c = rng.uniform(1.0, 2.0, n).astype(np.float32).astype(dtype)
    return a, b, c


def timed(run: Callable[[], object]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one call."""
    gc.collect()
    cpu, wall = time.process_time(), time.perf_counter()
    run()
    return time.process_time() - cpu, time.perf_counter() - wall


def peak_bytes(run: Callable[[], object]) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def measure(label: str, ours: Callable[..., np.ndarray], theirs: Callable[..., np.ndarray],
            inputs: Sequence[np.ndarray], repeat: int) -> dict[str, float]:
    """ours(*inputs) against theirs(*inputs)."""
    result = compare_bitwise(ours(*inputs), theirs(*inputs))
    if not result.equal:
        raise SystemExit(f"{label}: the interpreter disagrees with numpy:\n{result.summary()}")
    times: dict[str, list[tuple[float, float]]] = {"ours": [], "theirs": []}
    for _ in range(repeat):
        for name, run in (("theirs", theirs), ("ours", ours)):
            times[name].append(timed(lambda run=run: run(*inputs)))
    best = {name: (min(c for c, _ in t), min(w for _, w in t)) for name, t in times.items()}
    median = {name: (statistics.median(c for c, _ in t), statistics.median(w for _, w in t))
              for name, t in times.items()}
    size = sum(a.nbytes for a in inputs)
    return {
        "theirs_cpu": best["theirs"][0], "ours_cpu": best["ours"][0],
        "theirs_wall": best["theirs"][1], "ours_wall": best["ours"][1],
        "cpu_ratio": best["ours"][0] / best["theirs"][0],
        "wall_ratio": best["ours"][1] / best["theirs"][1],
        "median_cpu_ratio": median["ours"][0] / median["theirs"][0],
        "median_wall_ratio": median["ours"][1] / median["theirs"][1],
        "theirs_peak": peak_bytes(lambda: theirs(*inputs)) / size,
        "ours_peak": peak_bytes(lambda: ours(*inputs)) / size,
        "input_mb": size / 2**20,
    }


HEADER = (f"{'case':24} {'numpy cpu/wall s':>17} {'interp cpu/wall s':>18} "
          f"{'best ratio c/w':>15} {'median ratio c/w':>17} {'numpy peak':>11} "
          f"{'interp peak':>12} {'inputs MB':>10}")


def row(label: str, m: dict[str, float]) -> str:
    return (f"{label:24} {m['theirs_cpu']:8.3f}/{m['theirs_wall']:<8.3f} "
            f"{m['ours_cpu']:9.3f}/{m['ours_wall']:<8.3f} "
            f"{m['cpu_ratio']:7.2f}/{m['wall_ratio']:<6.2f}x "
            f"{m['median_cpu_ratio']:9.2f}/{m['median_wall_ratio']:<6.2f}x "
            f"{m['theirs_peak']:10.2f}x "
            f"{m['ours_peak']:11.2f}x {m['input_mb']:10.0f}")


RATIOS = ("cpu_ratio", "wall_ratio", "median_cpu_ratio", "median_wall_ratio")


def _worst(m: dict[str, float]) -> float:
    return max(m[r] for r in RATIOS)


def verdict(what: str, m: dict[str, float] | None) -> str:
    if m is None:
        return f"goal {what}: not measured in this run"
    status = "MET" if _worst(m) <= GOAL_RATIO else "NOT MET"
    return (f"goal {what} <= {GOAL_RATIO}x (best and median, CPU and wall): {status} "
            f"(best CPU {m['cpu_ratio']:.2f}x wall {m['wall_ratio']:.2f}x; median CPU "
            f"{m['median_cpu_ratio']:.2f}x wall {m['median_wall_ratio']:.2f}x)")


def load() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def hsg_rows(dtype: str, sizes: Sequence[int], repeat: int
             ) -> list[tuple[int, dict[str, float]]]:
    kernel = compile_text(HSG.format(t=dtype), name="bench", soc="ascend910b")
    rows = []
    for log2 in sizes:
        grad, x = hsg_inputs(1 << log2, NUMPY_DTYPES[dtype])
        label = f"hard_swish_grad 2^{log2} {dtype}"
        m = measure(label, kernel, hard_swish_grad_cann, (grad, x), repeat)
        print(row(label, m), flush=True)
        rows.append((log2, m))
    return rows


def fused_row(dtype: str, repeat: int) -> dict[str, float]:
    kernel = compile_text(fused_source(dtype), name="bench", soc="ascend910b")
    a, b, c = fused_inputs(1 << FUSED_LOG2, NUMPY_DTYPES[dtype])
    label = f"10-op body 2^{FUSED_LOG2} {dtype}"
    m = measure(label, kernel, fused_numpy, (a, b, c), repeat)
    print(row(label, m), flush=True)
    return m


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log2-sizes", default="20,24,26",
                        help="comma-separated log2 of the element counts (default 20,24,26)")
    parser.add_argument("--dtypes", default="f16,bf16,f32", help="default f16,bf16,f32")
    parser.add_argument("--repeat", type=int, default=5,
                        help="timed runs of each, interleaved (best and median shown)")
    parser.add_argument("--no-fused", action="store_true", help="skip the 10-op body")
    args = parser.parse_args()
    dtypes = args.dtypes.split(",")
    sizes = [int(s) for s in args.log2_sizes.split(",")]
    print(f"ascend910b (48 cores, 196608 B UB); best and median of {args.repeat}, interleaved; "
          f"load {load()}")
    print(HEADER)
    goal_hsg = goal_fused = None
    for dtype in dtypes:
        for log2, m in hsg_rows(dtype, sizes, args.repeat):
            if dtype == "f16" and log2 == GOAL_LOG2:
                goal_hsg = m
    if not args.no_fused:
        for dtype in (d for d in dtypes if d != "bf16"):  # bf16 arithmetic needs extf first
            m = fused_row(dtype, args.repeat)
            if goal_fused is None or _worst(m) > _worst(goal_fused):
                goal_fused = m
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peaks are tracemalloc's, as multiples of the inputs; process max RSS {rss:.0f} MB; "
          f"load {load()}")
    print(verdict(f"hard_swish_grad 2^{GOAL_LOG2} f16", goal_hsg))
    print(verdict(f"10-op body 2^{FUSED_LOG2} (worst dtype)", goal_fused))


if __name__ == "__main__":
    main()
