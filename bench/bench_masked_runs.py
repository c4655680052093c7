"""Broadcast copy-ins whose rows are not whole 32-byte blocks, in the cost model: the element
loop (what hswc built before) against masked row runs (per-channel weights) and periodic runs
(biases; hswc.vectorizer.broadcast_copy, "Masked runs" and "Periodic runs"), measured side by
side.

A per-channel weight over H x W (`x[1, C, H, W] * w[C]`, the map `(d0, d1, d2, d3) -> (d1)`)
is a constant run of H * W elements per channel; at 14 x 14 and 7 x 7 (MobileNetV3-Small's
late stages) a run of f32 is 784 or 196 bytes, not whole blocks. For each shape and dtype the
kernel is lowered twice, each with its own default schedule on the platform: `loop`, with
masked and periodic runs refused (every such input keeps the element loop: one GetValue +
SetValue per element), and `masked`, what --lower-to-ascend writes now (a GetValue, a
bitwise-mask Duplicate of the run's lanes in its first 64, a count Duplicate of the rest).
Printed: each modelled launch time and loop / masked. Then a bias `x[N, K] + b[K]` whose rows
(K elements) are not whole blocks (MobileNetV3-Small's classifier bias of 10 over [1, 10]), the
same two ways: `periodic` builds a pattern of lcm(K, 32 / sizeof(T)) elements in UB once per
core and fills each chunk by whole-block UB -> UB DataCopys from it.

With `--model FILE` (default: MobileNetV3-Small f32 of test/fixtures/host_models), the whole
file is also lowered both ways, run on random inputs and every launch modelled on its own
elements (hswc-run --profile's total): the file's modelled kernel time and its element-loop
copy-ins, both ways.

    python bench/bench_masked_runs.py [--shapes 16x14x14,96x7x7] [--dtypes f32,f16]
                                      [--biases 1x10,64x10,4096x10,4096x3]
                                      [--model FILE | --no-model] [--soc ascend910b]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
from xdsl.dialects.builtin import StringAttr

import hswc.passes.schedule_choice as schedule_choice
import hswc.vectorizer.broadcast_copy as broadcast_copy
from hswc.broadcast import BROADCAST_COPY_ATTR, Broadcast
from hswc.platform import DEFAULT_SOC
from hswc.runner import compile_file, compile_text
from hswc.vectorizer.broadcast_copy import RowRuns

MODEL = (Path(__file__).resolve().parents[1] / "test" / "fixtures" / "host_models"
         / "mobilenet_v3_small_f32.mlir")

TEXT = """#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @per_channel(%x: tensor<1x{c}x{h}x{w}x{t}>, %w: tensor<{c}x{t}>)
    -> tensor<1x{c}x{h}x{w}x{t}> {{
  %e = tensor.empty() : tensor<1x{c}x{h}x{w}x{t}>
  %r = linalg.generic {{indexing_maps = [#id, #ch, #id],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}}
      ins(%x, %w : tensor<1x{c}x{h}x{w}x{t}>, tensor<{c}x{t}>)
      outs(%e : tensor<1x{c}x{h}x{w}x{t}>) {{
  ^bb0(%a: {t}, %b: {t}, %unused: {t}):
    %s = arith.mulf %a, %b : {t}
    linalg.yield %s : {t}
  }} -> tensor<1x{c}x{h}x{w}x{t}>
  return %r : tensor<1x{c}x{h}x{w}x{t}>
}}
"""

BIAS = """func.func @bias(%x: tensor<{n}x{k}x{t}>, %b: tensor<{k}x{t}>) -> tensor<{n}x{k}x{t}> {{
  %e = tensor.empty() : tensor<{n}x{k}x{t}>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                        affine_map<(d0, d1) -> (d1)>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}}
      ins(%x, %b : tensor<{n}x{k}x{t}>, tensor<{k}x{t}>) outs(%e : tensor<{n}x{k}x{t}>) {{
  ^bb0(%a: {t}, %c: {t}, %unused: {t}):
    %s = arith.addf %a, %c : {t}
    linalg.yield %s : {t}
  }} -> tensor<{n}x{k}x{t}>
  return %r : tensor<{n}x{k}x{t}>
}}
"""

_ROW_RUNS = broadcast_copy.row_runs


def _no_runs_off_blocks(broadcast: Broadcast, i: int, dtype: str) -> RowRuns | str:
    runs = _ROW_RUNS(broadcast, i, dtype)
    if isinstance(runs, RowRuns) and (runs.masked or runs.period):
        return "element loop: the bench's baseline (masked and periodic runs refused)"
    return runs


@contextmanager
def way(name: str) -> Iterator[None]:
    """`loop`: masked and periodic runs refused; otherwise as --lower-to-ascend writes it. Each
    way chooses its own schedules (the choices' memo cleared)."""
    schedule_choice._chosen.clear()
    if name == "loop":
        with mock.patch.object(broadcast_copy, "row_runs", _no_runs_off_blocks):
            yield
    else:
        yield


def kernel_time(shape: tuple[int, int, int], dtype: str, soc: str, name: str) -> float:
    """One launch's modelled seconds."""
    c, h, w = shape
    with way(name):
        kernel = compile_text(TEXT.format(c=c, h=h, w=w, t=dtype), soc=soc)
        return float(kernel.profile(c * h * w).total_time)


def bias_time(n: int, k: int, dtype: str, soc: str, name: str) -> float:
    """One bias add's modelled seconds."""
    with way(name):
        kernel = compile_text(BIAS.format(n=n, k=k, t=dtype), soc=soc)
        return float(kernel.profile(n * k).total_time)


def model_time(path: Path, soc: str, name: str) -> tuple[float, int, int]:
    """The file's modelled kernel time (every launch on its own elements, as hswc-run
    --profile sums it), its launches and its element-loop copy-ins."""
    with way(name):
        kernel = compile_file(path, soc=soc)
        rng = np.random.default_rng(0)
        inputs: list[Any] = [rng.uniform(-1, 1, t.get_shape()).astype(np.float32)
                             for t in kernel.input_types]
        result = kernel.run(*inputs)
        launches = kernel.profile_launches(inputs[0].shape, result)
    loops = sum(1 for op in kernel.module.walk()
                if isinstance(copy := op.attributes.get(BROADCAST_COPY_ATTR), StringAttr)
                and copy.data.startswith("element loop"))
    return float(sum(r.total_time for r in launches.reports)), len(launches.reports), loops


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shapes", default="16x14x14,96x7x7")
    parser.add_argument("--dtypes", default="f32,f16")
    parser.add_argument("--biases", default="1x10,64x10,4096x10,4096x3")
    parser.add_argument("--model", type=Path, default=MODEL)
    parser.add_argument("--no-model", action="store_true")
    parser.add_argument("--soc", default=DEFAULT_SOC)
    args = parser.parse_args(argv)
    print("| kernel | dtype | loop us | masked us | loop / masked |")
    print("|---|---|---|---|---|")
    for text in args.shapes.split(","):
        c, h, w = (int(n) for n in text.split("x"))
        for dtype in args.dtypes.split(","):
            loop, masked = (kernel_time((c, h, w), dtype, args.soc, n) for n in ("loop", "masked"))
            print(f"| x[1, {c}, {h}, {w}] * w[{c}] | {dtype} | {loop * 1e6:.2f} | "
                  f"{masked * 1e6:.2f} | {loop / masked:.1f} |")
    print("\n| kernel | dtype | loop us | periodic us | loop / periodic |")
    print("|---|---|---|---|---|")
    for text in args.biases.split(","):
        n, k = (int(v) for v in text.split("x"))
        for dtype in args.dtypes.split(","):
            loop, periodic = (bias_time(n, k, dtype, args.soc, w) for w in ("loop", "periodic"))
            print(f"| x[{n}, {k}] + b[{k}] | {dtype} | {loop * 1e6:.2f} | {periodic * 1e6:.2f} | "
                  f"{loop / periodic:.2f} |")
    if not args.no_model:
        (loop, launches, loops), (masked, _, left) = (model_time(args.model, args.soc, n)
                                                      for n in ("loop", "masked"))
        print(f"\n{args.model.name}: {launches} launches; element-loop copy-ins {loops} -> "
              f"{left}; modelled kernel time loop {loop * 1e6:.2f} us, now (masked and periodic) "
              f"{masked * 1e6:.2f} us, loop / now {loop / masked:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
