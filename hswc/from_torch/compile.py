"""From a PyTorch function or module to hswc's kernel in one step (hswc.from_torch.compile).

    export   torch_mlir.fx.export_and_import(..., output_type="linalg-on-tensors") on the
             example inputs -> OUT/NAME.mlir (and the inputs, OUT/NAME.in<i>.npy)
    lower    as hswc-run and hswc-opt --lower-to-ascend lower it -> OUT/NAME.ascend.mlir; what
             hswc does not lower is its located message, about the exported file (kept)
    check    (optional) hswc's interpreter on the example inputs against eager PyTorch's
             result, within torch.testing.assert_close's default tolerances
    emit     (optional) hswc-emit OUT/NAME.mlir --name OpType -o DIR: the ops-nn package

Each step is the tool a user would run on the files the step before wrote, so the commands can
be run again by hand; hswc-emit runs as its own process (its start-up tunes the collector for
a short-lived tool, not for the caller's).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from io import StringIO
from pathlib import Path
from typing import Any

import numpy as np

from hswc.from_torch.check import Comparison, compare
from hswc.from_torch.errors import (
    CheckFailed,
    EmitError,
    InputSpecError,
    LoweringError,
    RunError,
    WriteError,
)
from hswc.from_torch.export import export_linalg, function_name, op_type
from hswc.from_torch.extra import require
from hswc.from_torch.inputs import (
    InputSpec,
    dim_sizes,
    dynamic_shapes,
    example_tensor,
    from_numpy,
    parse_spec,
    to_numpy,
)
from hswc.output_files import Content, OutputError, write_files
from hswc.platform import DEFAULT_SOC

Report = Callable[[str], None]


@dataclass
class Compiled:
    """What compile() made."""

    name: str
    """The exported function's name (the files' and kernels' stem)."""
    exported: Path
    """torch-mlir's linalg-on-tensors module."""
    lowered: Path
    """hswc's lowering of it to the ascend dialect."""
    kernel: Any
    """hswc.runner.Kernel of the exported module: call it on numpy arrays."""
    inputs: tuple[Any, ...]
    """The example tensors."""
    check: tuple[Comparison, ...] | None
    """--check's comparisons with eager PyTorch (None: not checked)."""
    package: Path | None
    """The ops-nn package hswc-emit wrote (None: not emitted)."""

    def __call__(self, *tensors: Any) -> Any:
        """hswc's result (the interpreter on the lowered kernel) for tensors, as tensors."""
        outputs = self.kernel.run(*(to_numpy(t) for t in tensors)).outputs
        results = tuple(from_numpy(np.asarray(v)) for v in outputs)
        return results[0] if len(results) == 1 else results


def compile(fn: Any, example_inputs: Sequence[Any], *,
            dims: Mapping[str, int] | None = None, dynamic_shapes: Any = None,
            out: str | Path | None = None, check: bool = False, emit: str | Path | None = None,
            name: str | None = None, soc: str = DEFAULT_SOC, seed: int = 0,
            report: Report | None = None) -> Compiled:
    """Export `fn` (a function or nn.Module) on `example_inputs`, lower it, and optionally check
    it against eager PyTorch and package it (the module docstring).

    example_inputs: tensors, numpy arrays or shape specs (`"4x1000:f16"`, `"4xN:f16"`: N a
    dynamic dim, its example size from `dims`, hswc.from_torch.inputs). dynamic_shapes: for tensor
    inputs, torch.export's, one entry per input. out: the folder of the files (default: a new
    temporary one). emit: the package's folder. name: the package's op type (default: the
    function's name in CamelCase). soc: the SoC to lower and check for. report: called with a
    line per step done. Raises a TorchStepError (MissingExtra, InputSpecError, SourceError,
    ExportError, LoweringError, RunError, CheckFailed, EmitError, WriteError) with a message
    saying what failed.
    """
    torch, _ = require()
    say: Report = report or (lambda line: None)
    inputs, shapes = _example_inputs(example_inputs, dims or {}, dynamic_shapes, seed)
    stem = function_name(fn)
    folder = Path(out) if out is not None else Path(tempfile.mkdtemp(prefix="hswc-torch-"))
    exported = folder / f"{stem}.mlir"
    text = export_linalg(fn, inputs, shapes, stem)
    files: dict[str | Path, Content] = {exported: text}
    files.update({folder / f"{stem}.in{i}.npy": _npy(to_numpy(t)) for i, t in enumerate(inputs)})
    _write(files)
    say(f"exported {stem} ({_describe(inputs)}) -> {exported} "
        f"({text.count('linalg.generic')} linalg.generic)")
    kernel, lowered = _lower(exported, folder / f"{stem}.ascend.mlir", soc)
    say(f"lowered -> {lowered} ({_kernels(kernel)})")
    comparisons = None
    if check:
        with torch.no_grad():
            expected = fn(*inputs)
        expected = tuple(expected) if isinstance(expected, tuple | list) else (expected,)
        outputs = _run(kernel, inputs)
        comparisons = tuple(compare([from_numpy(np.asarray(v)) for v in outputs], expected))
        for comparison in comparisons:
            say(comparison.summary())
        if not all(c.within for c in comparisons):
            raise CheckFailed("\n".join(c.summary() for c in comparisons if not c.within))
    package = None
    if emit is not None:
        package = _emit(exported, Path(emit), name or op_type(stem), soc)
        say(f"packaged {name or op_type(stem)} -> {package}")
    return Compiled(stem, exported, lowered, kernel, inputs, comparisons, package)


def _example_inputs(given: Sequence[Any], dims: Mapping[str, int], shapes: Any,
                    seed: int) -> tuple[tuple[Any, ...], Any]:
    """The example tensors and torch.export's dynamic_shapes for forward(*inputs)."""
    import torch  # pyright: ignore[reportMissingImports]

    if isinstance(given, str | InputSpec) or not isinstance(given, Sequence):
        raise InputSpecError("example_inputs is a sequence: one tensor, array or shape spec "
                             "per input of the function")
    specs = [parse_spec(g) if isinstance(g, str) else g if isinstance(g, InputSpec) else None
             for g in given]
    named = [s for s in specs if s is not None]
    sizes = dim_sizes(named, dims)
    if sizes and shapes is not None:
        raise InputSpecError("dynamic dims are named in the shape specs and given as "
                             "dynamic_shapes too: give them in one place")
    rng = np.random.default_rng(seed)
    inputs = []
    for g, spec in zip(given, specs, strict=True):
        if spec is not None:
            inputs.append(example_tensor(spec, sizes, rng))
        elif isinstance(g, np.ndarray):
            inputs.append(from_numpy(g))
        elif isinstance(g, torch.Tensor):
            inputs.append(g)
        else:
            raise InputSpecError(f"an example input is a {type(g).__name__}: give a tensor, a "
                                 "numpy array or a shape spec such as '4x1000:f16'")
    if sizes:
        return tuple(inputs), dynamic_shapes(specs)
    return tuple(inputs), None if shapes is None else (tuple(shapes),)


def _describe(inputs: tuple[Any, ...]) -> str:
    shapes = ", ".join(f"{'x'.join(map(str, t.shape)) or 'rank 0'} "
                       f"{str(t.dtype).removeprefix('torch.')}" for t in inputs)
    return f"{len(inputs)} input{'s' * (len(inputs) != 1)}: {shapes}" if inputs else "no inputs"


def _lower(exported: Path, target: Path, soc: str) -> tuple[Any, Path]:
    """hswc-run's kernel of the exported file (its lowering: --lower-to-ascend's passes for the
    SoC), and that lowering written to `target`."""
    from xdsl.printer import Printer

    from hswc.runner import CompileError, compile_file

    try:
        kernel = compile_file(exported, soc=soc)
    except CompileError as error:
        raise LoweringError(f"hswc did not lower what torch-mlir exported ({exported}, kept to "
                            f"look at):\n{error}") from None
    stream = StringIO()
    Printer(stream=stream).print_op(kernel.module)
    _write({target: stream.getvalue() + "\n"})
    return kernel, target


def _run(kernel: Any, inputs: tuple[Any, ...]) -> tuple[np.ndarray, ...]:
    """The kernel's results on the example inputs (hswc's interpreter, as hswc-run runs it)."""
    from hswc.runner import RunnerError

    try:
        return kernel.run(*(to_numpy(t) for t in inputs)).outputs
    except RunnerError as error:
        raise RunError(f"hswc-run of the lowered kernel on the example inputs failed: "
                       f"{error}") from None


def _kernels(kernel: Any) -> str:
    from hswc.dialects import hsg

    names = [op.sym_name.data for op in kernel.module.ops if hsg.is_kernel(op)]
    return f"{len(names)} kernel{'s' * (len(names) != 1)}: " + ", ".join(f"@{n}" for n in names)


def _emit(exported: Path, folder: Path, op: str, soc: str) -> Path:
    """hswc-emit's package of the exported module, written to `folder` (--force: an earlier
    package there is replaced, files edited since are not)."""
    from hswc.platform import PLATFORMS

    own = PLATFORMS[soc].api == "dav_3510"  # Ascend 950: ops-nn's arch35 layout, its own kernel
    command = [sys.executable, "-m", "hswc.tools.hswc_emit", str(exported), "--name", op,
               "-o", str(folder), "--force", *(["--soc", soc] if own else [])]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise EmitError(done.stderr.strip() or f"hswc-emit failed (exit {done.returncode})")
    return folder


def _npy(value: np.ndarray) -> Content:
    return lambda stream: np.save(stream, value, allow_pickle=False)


def _write(files: Mapping[str | Path, Content]) -> None:
    try:
        write_files(files, make_parents=True)
    except OutputError as error:
        raise WriteError(str(error)) from None
