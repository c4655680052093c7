"""Running one case: the built harness on every core of one launch, on files in and out.

The inputs go in as raw little-endian files, the tiling as the struct's bytes; the harness
runs blocks 0 .. block_dim-1 with --keep-going (a race is reported once and the run goes on,
so that its outputs can still be compared) and writes the outputs once the last block is done;
with auto-sync off (`--auto-sync off`) it takes the kernel as built with BiSheng's
--cce-auto-sync=off. The model's messages locate calls as `file:line`; files below the kernel's
folder are named from there.
A hard violation ends the run without outputs; a crash, a hang (--timeout) or a harness usage
error is a failure of the run, said in one sentence.
"""

from __future__ import annotations

import signal
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from hswc.checker.rules import Violation, parse
from hswc.checker.time_limits import DEFAULT_TIMEOUT


@dataclass(frozen=True)
class Execution:
    """What one run of the harness produced."""

    outputs: tuple[np.ndarray, ...] | None
    """Each output's elements; None when the run stopped before writing them."""
    violations: tuple[Violation, ...]
    failure: str | None
    """A run that crashed, hung or was refused by the harness."""
    timed_out: bool = False
    """The run did not end within the timeout (its failure says so)."""


def execute(executable: Path, workdir: Path, inputs: Sequence[np.ndarray],
            outputs_of: Sequence[tuple[np.dtype, int]], tiling: bytes, block_dim: int,
            tiling_key: int, instance: int | None, ub_size: int, names: Sequence[str],
            timeout: float = DEFAULT_TIMEOUT, record_gm_reads: bool = False,
            record_rules: bool = False, auto_sync: bool = True,
            root: Path | None = None, profile: Path | None = None,
            ub_physical: int = 0, workspace: int = 0,
            written: Sequence[int] | None = None) -> Execution:
    """One run; `outputs_of` gives each output's dtype and element count (a packed mask:
    uint8 and its bytes), which is the GM tensor the kernel gets and what is read back;
    `names` are the kernel's GM arguments (inputs, then outputs), which the messages use
    instead of the files' paths. With `record_gm_reads`, a read past the end of a
    GM tensor is reported as a broken rule and the run goes on (its outputs are compared); with
    `record_rules`, so is every other rule the model can go on after. Without `auto_sync`,
    vector calls need a PipeBarrier<PIPE_V> between them (Atlas A2/A3). Locations in `root`
    (the kernel's folder) are given relative to it. With `profile`, the harness writes each
    core's call stream there (ascendc_cpu_record.h). `ub_physical`: the whole UB, where a
    kernel laying out its own buffers may use more than `ub_size` (Ascend 950). `workspace`:
    the bytes of GM workspace the entry gets (the op's tiling's GetWorkspaceSizes; 0: a
    workspace of no bytes, never nullptr: hswc/checker/ascendc_cpu/harness.cpp). `written`: per
    output, the leading elements the kernel must write; it must leave the rest (--written-bytes:
    a kernel reading its row count from a tensor)."""
    workdir.mkdir(parents=True, exist_ok=True)
    tiling_file = workdir / "tiling.bin"
    tiling_file.write_bytes(tiling)
    command = [str(executable), "--tiling-key", str(tiling_key), "--block-dim", str(block_dim),
               "--ub-size", str(ub_size), "--tiling-file", str(tiling_file), "--keep-going"]
    command += ["--instance", str(instance)] if instance is not None else []
    command += [flag for flag, on in (("--record-gm-reads", record_gm_reads),
                                      ("--record-rules", record_rules)) if on]
    command += [] if auto_sync else ["--auto-sync", "off"]
    command += [] if profile is None else ["--profile", str(profile)]
    command += ["--ub-physical", str(ub_physical)] if ub_physical > ub_size else []
    command += ["--workspace-bytes", str(workspace)] if workspace > 0 else []
    for k, array in enumerate(inputs):
        path = workdir / f"input{k}.bin"
        np.ascontiguousarray(array).tofile(path)
        command += ["--input", str(path)]
    outputs = [workdir / f"output{k}.bin" for k in range(len(outputs_of))]
    for path, (dtype, count) in zip(outputs, outputs_of, strict=True):
        path.unlink(missing_ok=True)
        command += ["--output", str(path), "--output-bytes", str(count * dtype.itemsize)]
    for (dtype, _), elements in zip(outputs_of, written or [], strict=written is not None):
        command += ["--written-bytes", str(elements * dtype.itemsize)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, errors="replace",
                              timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return Execution(None, (), f"the run did not finish within {timeout:g} s (a loop that "
                                   "never ends?)", timed_out=True)
    stderr = done.stderr
    files = [*(workdir / f"input{k}.bin" for k in range(len(inputs))), *outputs]
    for path, name in zip(files, names, strict=True):
        stderr = stderr.replace(f"({path})", f"({name})")
    if root is not None:
        stderr = stderr.replace(f"{root.resolve()}/", "")
    violations = tuple(parse(stderr))
    failure = None
    if done.returncode < 0:
        name = signal.Signals(-done.returncode).name
        failure = (f"the kernel crashed ({name}): a memory access outside what the model "
                   "checks (a raw pointer, or an index past a buffer)")
    elif done.returncode == 2:
        failure = "the harness refused the run: " + done.stderr.strip().splitlines()[0]
    elif done.returncode not in (0, 3):
        failure = f"the harness exited with status {done.returncode}: {done.stderr.strip()}"
    results = None
    if all(p.exists() for p in outputs) and failure is None:
        results = tuple(np.fromfile(p, dtype=d) for p, (d, _) in zip(outputs, outputs_of,
                                                                     strict=True))
    for path in [*outputs, tiling_file, *(workdir / f"input{k}.bin" for k in range(len(inputs)))]:
        path.unlink(missing_ok=True)
    return Execution(results, violations, failure)
