"""Compiling a hand-written kernel, unchanged, into the CPU model's harness.

One executable per dtype: hswc/checker/ascendc_cpu/harness.cpp with the kernel's entry source
included (-DHSWC_KERNEL_SOURCE), its GM argument counts, its DTYPE_* macros defined as the
element type, every template instance the runs need (HSWC_KERNEL_INSTANCES, run by position
with --instance) or the plain entry (HSWC_KERNEL_UNTEMPLATED), and the tiling struct with its
fields (HSWC_TILING_STRUCT / HSWC_TILING_FIELDS, for --tiling-layout). g++ builds all dtypes
at once, each within the build limit (hswc.checker.time_limits: a source including a FIFO is
stopped). A kernel that does not compile is reported with g++'s first errors, and the calls the
model refuses (no exactly specified hardware result) or does not have are named first.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from hswc.checker import build_cache, model_object, time_limits
from hswc.checker.errors import CheckError
from hswc.checker.model_object import HARNESS, MODEL

FLAGS = ("-std=c++17", "-O0", "-w", "-fmax-errors=20")
"""Warnings off: the checker judges what the kernel does, not its style. -O0: the build is what
costs, not the run. Measured on this model (g++ 12, build and every run of a check, CPU time of
the children): the leaky_relu fixture's 60 default runs 12.0 s at -O0 against 14.6 s at -O1,
its f16 run of 10^6 elements 4.9 against 5.8 s, the softmax folder's f32 runs up to 262144
elements 14.2 against 15.5 s."""
ERROR_LINES = 8
"""How many of g++'s error lines a report shows."""
def c_locale() -> dict[str, str]:
    """The environment of a g++ call: this process's as it is now (a variable set after import,
    as pytest's PYTEST_CURRENT_TEST, reaches the compiler), with g++'s messages in plain ASCII
    ('name', not curly quotes), as summarise_errors reads them."""
    return {**os.environ, "LC_ALL": "C"}


@dataclass(frozen=True)
class BuildSpec:
    """One dtype's executable."""

    dtype: str
    output: Path
    source: Path
    include_dirs: tuple[Path, ...]
    entry: str
    gm_inputs: int
    gm_outputs: int
    instances: tuple[str, ...] | None
    """Template-argument lists, one per instance (None: a plain entry)."""
    defines: tuple[str, ...] = ()
    """NAME=VALUE (or NAME) for -D."""
    forced_includes: tuple[Path, ...] = ()
    tiling_struct: str | None = None
    tiling_fields: tuple[str, ...] = ()
    extra_flags: tuple[str, ...] = ()
    gm_only: bool = False
    """The entry takes its GM tensors only (HSWC_GM_ONLY)."""

    def command(self, cxx: str) -> list[str]:
        flags = [f"-DHSWC_KERNEL_ENTRY={self.entry}", f"-DHSWC_GM_INPUTS={self.gm_inputs}",
                 f"-DHSWC_GM_OUTPUTS={self.gm_outputs}",
                 f'-DHSWC_KERNEL_SOURCE="{self.source.resolve()}"']
        if self.instances is None:
            flags.append("-DHSWC_KERNEL_UNTEMPLATED")
        else:
            listed = " ".join(f"HSWC_INSTANCE({i}, {args})"
                              for i, args in enumerate(self.instances))
            flags.append(f"-DHSWC_KERNEL_INSTANCES={listed}")
        if self.gm_only:
            flags.append("-DHSWC_GM_ONLY")
        if self.tiling_struct is not None:
            flags.append(f"-DHSWC_TILING_STRUCT={self.tiling_struct}")
            fields = " ".join(f"HSWC_TILING_FIELD({f})" for f in self.tiling_fields)
            flags.append(f"-DHSWC_TILING_FIELDS={fields}")
        flags += [f"-D{d}" for d in self.defines]
        flags += [f"-include{p.resolve()}" for p in self.forced_includes]
        includes = [f"-I{MODEL}", *(f"-I{d.resolve()}" for d in self.include_dirs)]
        return [cxx, *FLAGS, *self.extra_flags, *includes, *flags, str(HARNESS), "-o",
                str(self.output)]


class BuildTimedOut(CheckError):
    """A compiler command that did not end within the build limit (hswc.checker.time_limits):
    a source that includes a FIFO or a device, which g++ waits on for ever."""

    def __init__(self, what: Path | str, seconds: float, step: str = "building"):
        super().__init__(f"{step} {what} (g++) did not finish within {seconds:g} s "
                         "(--build-timeout, else --timeout): does it #include a FIFO or a "
                         "device? (If the build is only slow, raise --build-timeout.)")


def compiler(cxx: str | None = None) -> str:
    """The C++ compiler to use (`cxx`, else $CXX, else g++), or a CheckError saying there is
    none."""
    name = cxx or os.environ.get("CXX") or "g++"
    found = shutil.which(name)
    if found is None:
        raise CheckError(f"no C++ compiler: '{name}' is not on PATH (hswc-check-kernel builds "
                         "the kernel with g++ against hswc/checker/ascendc_cpu; install g++ or "
                         "give --cxx)")
    return found


def summarise_errors(output: str) -> list[str]:
    """The lines of g++'s output a person needs first: the model's refusals, missing calls,
    unmodelled mask/repeat forms and the linker's undefined references as one sentence each,
    then the first error lines."""
    headline: list[str] = []
    for m in re.finditer(r"ascendc_cpu: (\w+) is not modelled: ([^\n\"]*)", output):
        line = f"the kernel calls {m.group(1)}, which the CPU model refuses: {m.group(2)}"
        if line not in headline:
            headline.append(line)
    for m in re.finditer(r"'(?:AscendC::)?(\w+)' (?:was not declared in this scope|is not a "
                         r"member of 'AscendC(?:::(MicroAPI|Reg))?')", output):
        name = f"{m.group(2)}::{m.group(1)}" if m.group(2) else m.group(1)
        line = (f"the kernel uses {name}, which hswc/checker/ascendc_cpu does not model (or "
                "the kernel misspells it)")
        if line not in headline:
            headline.append(line)
    for m in re.finditer(r"no matching function for call to '(?:AscendC::)?(\w+)\([^'\n]*"
                         r"RepeatParams[^'\n]*\)'", output):
        line = (f"the kernel calls a mask/repeat (level-0) form of {m.group(1)}, which "
                "hswc/checker/ascendc_cpu does not model (it models those of Copy, Compare, "
                "Compares / CompareScalar, Select, Add, Sub, Mul, Div, Max, Min, Brcb and the "
                "WholeReduce and BlockReduce calls)")
        if line not in headline:
            headline.append(line)
    for m in re.finditer(r"undefined reference to [`']([^'\n]+)'", output):
        line = f"the link lacks {m.group(1)} (declared, defined nowhere in the build)"
        if line not in headline:
            headline.append(line)
    errors = [line.strip() for line in output.splitlines()
              if ": error:" in line or ": fatal error:" in line]
    return headline + errors[:ERROR_LINES]


def build_all(specs: Sequence[BuildSpec], cxx: str) -> dict[Path, list[str]]:
    """Compile every spec at once, each distinct command once (a spec that only differs in its
    output gets a copy); output path -> g++'s summarised errors, for those that failed."""
    first: dict[tuple[str, ...], BuildSpec] = {}
    copies: list[tuple[BuildSpec, BuildSpec]] = []
    for spec in specs:
        key = tuple(spec.command(cxx)[:-1])
        if key in first:
            copies.append((spec, first[key]))
        else:
            first[key] = spec
    running = []
    limit = time_limits.build_limit()
    deadline = time.monotonic() + limit
    for spec in first.values():
        try:
            key = build_cache.build_key(spec.command(cxx), c_locale())
        except time_limits.TimedOut:
            raise BuildTimedOut(spec.source, limit) from None
        if build_cache.restore(key, spec.output):
            continue
        spec.output.parent.mkdir(parents=True, exist_ok=True)
        command = model_object.prebuilt(spec.command(cxx), c_locale())
        running.append((spec, key, command, time_limits.start(command, c_locale(),
                                                              merge_output=True)))
    failed: dict[Path, list[str]] = {}
    for spec, key, command, process in running:
        try:
            output, _ = time_limits.finish(process, max(0.0, deadline - time.monotonic()))
            if process.returncode != 0 and model_object.link_failed(command, output):
                process = time_limits.start(spec.command(cxx), c_locale(), merge_output=True)
                output, _ = time_limits.finish(process, max(0.0, deadline - time.monotonic()))
        except time_limits.TimedOut:
            raise BuildTimedOut(spec.source, limit) from None
        if process.returncode != 0:
            failed[spec.output] = summarise_errors(output) or output.strip().splitlines()[:20]
        else:
            build_cache.store(key, spec.output)
    for spec, built in copies:
        if built.output in failed:
            failed[spec.output] = failed[built.output]
        else:
            spec.output.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(built.output, spec.output)
    return failed


def layout_text(executable: Path) -> str:
    """`run_kernel --tiling-layout` of a built harness."""
    try:
        done = time_limits.run([str(executable), "--tiling-layout"], time_limits.run_limit())
    except time_limits.TimedOut as error:
        raise CheckError(f"{executable} --tiling-layout {error}") from None
    if done.returncode != 0:
        raise CheckError(f"{executable} --tiling-layout failed: {done.stderr.strip()}")
    return done.stdout
