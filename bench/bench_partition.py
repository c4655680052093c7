"""The partition of a whole model: hswc-opt --lower-to-ascend of MobileNetV3-Small next to xDSL.

The input is the full-width MobileNetV3-Small forward (1x3x224x224, f32, random weights: about
12.5 MB of MLIR, most of it the weights as dense_resource blobs), as torch-mlir writes it. It is
not in the repository; make it with the project's exporter (torch and torch-mlir needed):

    python tools/export_model_fixtures.py --mobilenet-full DIR

and pass `--model DIR/mobilenet_v3_small_full_f32.mlir` (the default path is
/tmp/hswc-mobilenet/mobilenet_v3_small_full_f32.mlir; without the file the script says how to
make it and exits 0).

Timed as whole processes, interleaved, best of `--runs` (CPU seconds: user + sys, os.wait4;
peak resident MB): `hswc-opt --lower-to-ascend FILE` with an empty cache folder (every schedule
chosen by the cost model: a first run), the same with the folder the previous run filled (the
choices kept: hswc.tools.choice_cache), `hswc-opt FILE` (hswc's parse, verify and print, no
pass), and xDSL's own driver (xdsl.xdsl_opt_main.xDSLOptMain: parse, verify, print) with hswc's
dialects registered in place of xDSL's: stock `xdsl-opt` cannot read the file (its linalg has
no `depthwise_conv_2d_nchw_chw`). Printed: each figure and the ratio of each hswc run to
xDSL's; the goal line (issue 35): the lowering at most 1.5x xDSL's parse and print.

With `--before EXE` (the `hswc-opt` of another install, say main's in a venv of its own) the
three hswc runs are made with it too, in the same rounds (each round: the before runs, then
this install's, then xDSL's, each install with a cache folder of its own), and printed side by
side: a change measured before and after under one load.

    python bench/bench_partition.py [--model FILE] [--runs 3] [--before OTHER/bin/hswc-opt]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

from bench_scale import Run, run

DEFAULT = Path("/tmp/hswc-mobilenet/mobilenet_v3_small_full_f32.mlir")

XDSL_DRIVER = """
import sys
from xdsl.xdsl_opt_main import xDSLOptMain
from hswc.pipeline import DIALECTS

class Driver(xDSLOptMain):
    def register_all_dialects(self):
        super().register_all_dialects()
        for name, factory in DIALECTS.items():  # hswc's linalg reads every op of the file
            self.ctx._registered_dialects.pop(name, None)
            self.ctx.register_dialect(name, factory)

Driver(args=sys.argv[1:]).run()
"""
"""xdsl-opt with hswc's dialects in place of xDSL's own of the same name."""


def best(runs: list[Run]) -> Run:
    failed = [r for r in runs if r.failed]
    if failed:
        return failed[0]
    return min(runs, key=lambda r: r.cpu)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=DEFAULT)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--before", help="the hswc-opt of another install, timed alongside")
    args = parser.parse_args(argv)
    if not args.model.is_file():
        print(f"{args.model}: not found; make it with `python tools/export_model_fixtures.py "
              f"--mobilenet-full {args.model.parent}` (torch and torch-mlir needed) and pass "
              "--model; skipped")
        return 0
    print(f"load average {os.getloadavg()[0]:.2f} at the start; {args.model} "
          f"({args.model.stat().st_size / 2**20:.1f} MB)")
    model = str(args.model)
    names = ("lower, first run", "lower, choices kept", "hswc-opt, no pass", "xDSL")
    installs = {"": "hswc-opt"} if args.before is None else {"before: ": args.before,
                                                             "": "hswc-opt"}
    rows = [prefix + name for prefix in installs for name in names[:3]] + [names[3]]
    results: dict[str, list[Run]] = {name: [] for name in rows}
    with tempfile.TemporaryDirectory(prefix="hswc-bench-partition-") as tmp:
        driver = Path(tmp) / "xdsl_driver.py"
        driver.write_text(XDSL_DRIVER)
        for index in range(args.runs):
            for number, (prefix, exe) in enumerate(installs.items()):
                cache = Path(tmp) / f"cache{index}-{number}"
                env = dict(os.environ, HSWC_CACHE_DIR=str(cache))
                lower = [exe, "--lower-to-ascend", model]
                results[prefix + names[0]].append(run(lower, env, args.timeout))
                results[prefix + names[1]].append(run(lower, env, args.timeout))
                results[prefix + names[2]].append(run([exe, model], env, args.timeout))
                shutil.rmtree(cache, ignore_errors=True)
            results[names[3]].append(run([sys.executable, str(driver), model],
                                         dict(os.environ), args.timeout))
    floor = best(results["xDSL"])
    print(f"\nbest of {args.runs}, CPU s and peak MB")
    print(f"{'run':>30} {'CPU s':>8} {'peak MB':>8} {'/ xDSL':>7}")
    for name in rows:
        b = best(results[name])
        if b.failed:
            print(f"{name:>30} failed: {b.failed}")
            continue
        ratio = b.cpu / floor.cpu if not floor.failed else float("nan")
        print(f"{name:>30} {b.cpu:8.2f} {b.peak_mb:8.0f} {ratio:7.2f}")
    for name in names[:2]:
        b = best(results[name])
        if not (b.failed or floor.failed):
            ratio = b.cpu / floor.cpu
            print(f"goal ({name}): {ratio:.2f}x xDSL's parse, verify and print (<= 1.5x: "
                  f"{'met' if ratio <= 1.5 else 'NOT met'})")
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
