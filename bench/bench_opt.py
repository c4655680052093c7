"""Wall time of `hswc-opt --lower-to-ascend` next to stock `xdsl-opt` on the same file.

Both run as fresh processes, interleaved, so machine noise hits both alike. xdsl-opt runs the
same passes through hswc's `xdsl.universe` entry point, and also just parses and prints
the file, which is the floor of any xDSL-based tool.

    python bench/bench_opt.py [FILE] [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time
from pathlib import Path

from hswc.pipeline import LOWER_TO_ASCEND

PASSES = ",".join(LOWER_TO_ASCEND)


def wall(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    root = Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(root / "examples/hard_swish_grad.mlir"))
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    commands = {
        "hswc-opt --lower-to-ascend": ["hswc-opt", "--lower-to-ascend", args.file],
        "xdsl-opt -p <same passes>": ["xdsl-opt", "-p", PASSES, args.file],
        "xdsl-opt (parse + print)": ["xdsl-opt", args.file],
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(args.runs):
        for name, cmd in commands.items():
            times[name].append(wall(cmd))
    base = statistics.median(times["xdsl-opt (parse + print)"])
    print(f"{'command':32} {'median s':>9} {'vs xdsl-opt':>12}")
    for name, samples in times.items():
        median = statistics.median(samples)
        print(f"{name:32} {median:9.3f} {median / base:11.2f}x")


if __name__ == "__main__":
    main()
