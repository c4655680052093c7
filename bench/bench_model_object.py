"""A harness build as one translation unit against one that links the model object
(hswc.checker.model_object), side by side.

    python bench/bench_model_object.py [--runs 3] [--soc ascend910b|ascend950]

Builds test/cpp_fixtures/hard_swish_grad_fixture.cpp into the harness both ways, interleaved,
`--runs` times each, with the tests' flags (-std=c++17 -Wall -Wextra -Werror); the object once
first, into a build cache of the run. Prints the CPU seconds (user + sys of g++) of each build,
their means and ratio, the object's own build and its size on disk (one per flag set).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from hswc.checker import build_cache, model_object
from hswc.checker.cases import soc_flags
from hswc.checker.model_object import HARNESS, MODEL

FIXTURE = Path(__file__).resolve().parents[1] / "test" / "cpp_fixtures" / \
    "hard_swish_grad_fixture.cpp"


def _cpu(command: list[str]) -> float:
    """The CPU seconds of running `command` to its end (it must succeed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--soc", default="ascend910b")
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="hswc-bench-model-object-") as folder:
        os.environ[build_cache.CACHE_VARIABLE] = str(Path(folder) / "cache")
        single = ["g++", "-std=c++17", "-Wall", "-Wextra", "-Werror", *soc_flags(args.soc),
                  f"-I{MODEL}", f'-DHSWC_KERNEL_SOURCE="{FIXTURE}"', str(HARNESS), "-o",
                  str(Path(folder) / "single")]
        flags = model_object.object_flags(single)
        assert flags is not None
        start = resource.getrusage(resource.RUSAGE_CHILDREN)
        found = model_object.model_object("g++", flags)
        end = resource.getrusage(resource.RUSAGE_CHILDREN)
        if isinstance(found, str):
            print(f"bench_model_object: {found}", file=sys.stderr)
            return 1
        object_cpu = (end.ru_utime - start.ru_utime) + (end.ru_stime - start.ru_stime)
        linked = model_object.prebuilt([*single[:-1], str(Path(folder) / "linked")])
        times: dict[str, list[float]] = {"one unit": [], "linked": []}
        for _ in range(args.runs):
            times["one unit"].append(_cpu(single))
            times["linked"].append(_cpu(linked))
        print(f"{'build':10} {'CPU s per run':>30} {'mean':>7}")
        for name, values in times.items():
            print(f"{name:10} {' '.join(f'{v:6.2f}' for v in values):>30} "
                  f"{sum(values) / len(values):7.2f}")
        mean = {name: sum(v) / len(v) for name, v in times.items()}
        print(f"linked / one unit: {mean['linked'] / mean['one unit']:.2f}x; the object "
              f"({args.soc}): {object_cpu:.2f} CPU s once, {found.stat().st_size / 1e6:.1f} MB "
              f"(pays for itself after {object_cpu / (mean['one unit'] - mean['linked']):.1f} "
              "builds)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
