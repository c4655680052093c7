"""A harness build as one translation unit against one that links the model object
(hswc.checker.model_object) and against one that also loads the precompiled standard headers
(hswc.checker.std_unit), side by side.

    python bench/bench_model_object.py [--runs 3] [--soc ascend910b|ascend950]

Builds test/cpp_fixtures/hard_swish_grad_fixture.cpp into the harness the three ways,
interleaved, `--runs` times each, with the tests' flags (-std=c++17 -Wall -Wextra -Werror); the
object and the precompiled header once first, into a build cache of the run. Prints the CPU
seconds (user + sys of g++) of each build, their means and ratios, the object's own build and
its size on disk (one per flag set), and the precompiled header's.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from hswc.checker import build_cache, model_object, std_unit
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
        start = resource.getrusage(resource.RUSAGE_CHILDREN)
        header = std_unit.precompiled("g++", flags, found.stem)
        end = resource.getrusage(resource.RUSAGE_CHILDREN)
        if isinstance(header, str):
            print(f"bench_model_object: {header}", file=sys.stderr)
            return 1
        header_cpu = (end.ru_utime - start.ru_utime) + (end.ru_stime - start.ru_stime)
        both = model_object.prebuilt([*single[:-1], str(Path(folder) / "linked")])
        assert both[1:3] == ["-include", str(header)]
        linked = [both[0], *both[3:]]
        times: dict[str, list[float]] = {"one unit": [], "linked": [], "linked+pch": []}
        for _ in range(args.runs):
            times["one unit"].append(_cpu(single))
            times["linked"].append(_cpu(linked))
            times["linked+pch"].append(_cpu(both))
        print(f"{'build':10} {'CPU s per run':>30} {'mean':>7}")
        for name, values in times.items():
            print(f"{name:10} {' '.join(f'{v:6.2f}' for v in values):>30} "
                  f"{sum(values) / len(values):7.2f}")
        mean = {name: sum(v) / len(v) for name, v in times.items()}
        print(f"linked / one unit: {mean['linked'] / mean['one unit']:.2f}x; the object "
              f"({args.soc}): {object_cpu:.2f} CPU s once, {found.stat().st_size / 1e6:.1f} MB "
              f"(pays for itself after {object_cpu / (mean['one unit'] - mean['linked']):.1f} "
              "builds)")
        size = Path(f"{header}.gch").stat().st_size / 1e6
        print(f"linked+pch / linked: {mean['linked+pch'] / mean['linked']:.2f}x, / one unit: "
              f"{mean['linked+pch'] / mean['one unit']:.2f}x; the precompiled header: "
              f"{header_cpu:.2f} CPU s once, {size:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
