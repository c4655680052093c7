"""Python API of hswc-run: compile a module once, run it many times on numpy arrays.

    import numpy as np
    import hswc.runner

    kernel = hswc.runner.compile_file("examples/hard_swish_grad.mlir", soc="ascend910b")
    grad = np.random.randn(4, 1000).astype(np.float16)
    x = np.random.randn(4, 1000).astype(np.float16)
    y = kernel(grad, x)                   # the ascend-level kernel on 48 modelled cores
    buffer = np.empty((4, 2000), np.float16)
    kernel(grad, x, out=buffer[:, ::2])   # or into a strided view, as aclnn's ViewCopy
    kernel.tiling((4, 1000))              # {"totalNum": 4000, "blockFactor": 84, ...}
    result = kernel.run(grad, x)          # outputs, plus the tiling of every launch
    expected = kernel.reference(grad, x)  # the hsg-level module under hswc.reference's model,
                                          # shaped as kernel(...) returns it
    kernel.with_platform(core_num=40)     # the same compiled module on 40 cores

    from hswc.interpreter.trace import Trace
    trace = Trace()                       # every AscendC call: op, cores, elements, bytes
    kernel.run(grad, x, on_event=trace)

`compile_*` parses and verifies the module and lowers it to the requested level (`ascend` by
default: hsg-tile-on-cores, hsg-block-into-ub, convert-hsg-to-ascend; already-lowered input is
kept as is). The platform (SoC, core count, UB size) is what the host queries return and how big
each core's UB arena is; with `fold=True` it is also folded into the IR, as
`hsg-tile-on-cores{soc=...}` does. Inputs may be any arrays of the function's dtypes and shapes,
non-contiguous included (they are made contiguous first, as aclnn's Contiguous does); bf16 is
`ml_dtypes.bfloat16`, or its bit patterns as uint16 / 2-byte void.

Errors: `CompileError` (unparsable or invalid IR, a pass that cannot lower it), `InputError`
(arrays that do not fit the function), `KernelError` (a kernel breaking a hardware rule, or a
host check failing, with the op's location). All derive from `RunnerError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType, UnrankedTensorType
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException, ParseError

from hswc.diagnostics import LocatingParser, format_parse_error, verify_located
from hswc.dialects import hsg
from hswc.dialects.ascend_types import element_type_name
from hswc.interpreter.binding import bind_inputs
from hswc.interpreter.errors import CompileError, InputError, KernelError, RunnerError
from hswc.interpreter.execute import call_function
from hswc.interpreter.limits import DEFAULT_MAX_STEPS
from hswc.interpreter.machine import Machine, Model
from hswc.interpreter.trace import EventHook
from hswc.pipeline import DIALECTS, LOWER_TO_ASCEND, PASSES
from hswc.platform import DEFAULT_SOC, Platform, get_platform
from hswc.reference import REFERENCES, hard_swish_grad_cann
from hswc.source_text import SourceError, decode
from hswc.tiling import TilingError, compute_tiling

LEVELS = ("hsg", "tiled", "blocked", "ascend")
"""IR levels, highest first: level i is the input after the first i passes of --lower-to-ascend."""

_LEVEL_OPS: tuple[tuple[type[Operation], str], ...] = (
    (hsg.HardSwishGradOp, "hsg"),
    (hsg.HardSwishGradSliceOp, "tiled"),
    (hsg.HardSwishGradChunkOp, "blocked"),
)


__all__ = ["LEVELS", "CompileError", "InputError", "Kernel", "KernelError", "RunResult",
           "RunnerError", "compile_file", "compile_module", "compile_text", "level_of"]


def level_of(module: ModuleOp) -> str:
    """The highest level any op of the module is at ('ascend' when no hsg compute op is left)."""
    present = {type(op) for op in module.walk()}
    return next((name for op_type, name in _LEVEL_OPS if op_type in present), "ascend")


def _context() -> Context:
    ctx = Context()
    for name, factory in DIALECTS.items():
        ctx.register_dialect(name, factory)
    return ctx


def _passes(level: str, platform: Platform, fold: bool) -> list[ModulePass]:
    from hswc.passes.hsg_tile_on_cores import HsgTileOnCoresPass

    passes: list[ModulePass] = []
    for name in LOWER_TO_ASCEND[: LEVELS.index(level)]:
        if name == HsgTileOnCoresPass.name and fold:
            passes.append(HsgTileOnCoresPass(core_num=platform.core_num, ub_size=platform.ub_size))
        else:
            passes.append(PASSES[name]()())
    return passes


@dataclass
class RunResult:
    """What one run produced: the function's results and the tiling of each launch."""

    outputs: tuple[np.ndarray, ...]
    tilings: list[dict[str, int] | None] = field(default_factory=list)
    """Per hsg.launch (or hsg.hard_swish_grad at the hsg level, None where the tiling fails)."""


class Kernel:
    """A parsed, verified and lowered module, ready to run on numpy arrays."""

    def __init__(self, module: ModuleOp, source: ModuleOp, function: str, platform: Platform,
                 level: str):
        self.module = module
        """The module that runs (lowered to `level`)."""
        self.source = source
        """The module as given (before lowering)."""
        self.function = function
        self.platform = platform
        self.level = level
        fn = self._func(module)
        self.input_types = tuple(fn.function_type.inputs)
        self.result_types = tuple(fn.function_type.outputs)
        block = fn.body.blocks.first
        self.arg_names = tuple(a.name_hint or "" for a in block.args) if block else ()
        """The arguments' SSA names (grad, x), which input errors cite."""

    def _func(self, module: ModuleOp) -> func.FuncOp:
        fn = next((op for op in module.ops if isinstance(op, func.FuncOp)
                   and op.sym_name.data == self.function), None)
        assert fn is not None
        return fn

    def __call__(self, *inputs: np.ndarray, out: np.ndarray | None = None) -> Any:
        """The function's result (a tuple when it has several, as `reference`). With `out`, a
        one-result function's result is copied into it, strided views included (aclnn's
        ViewCopy)."""
        outputs = self.run(*inputs).outputs
        if out is not None:
            if len(outputs) != 1 or out.shape != outputs[0].shape or out.dtype != outputs[0].dtype:
                raise InputError(f"out must be one {outputs[0].dtype} array of shape "
                                 f"{outputs[0].shape}, got {out.dtype} {out.shape}")
            np.copyto(out, outputs[0])
            return out
        return _result(outputs)

    def run(self, *inputs: np.ndarray, model: Model = hard_swish_grad_cann,
            on_event: EventHook | None = None, max_steps: int = DEFAULT_MAX_STEPS) -> RunResult:
        """Run on `inputs`; `model` defines hsg.hard_swish_grad, `on_event` sees every
        AscendC call (hswc.interpreter.trace); more than `max_steps` loop iterations are an
        error (hswc.interpreter.limits)."""
        args = bind_inputs(self.input_types, inputs, self.arg_names)
        machine = Machine(self.platform, model, on_event, max_steps)
        return self._execute(self.module, args, machine)

    def reference(self, *inputs: np.ndarray, model: str = "cann") -> Any:
        """The expected result, shaped as `kernel(...)` returns it (one array, or a tuple for
        several results): the module as given, at the hsg level, under the named golden model
        (hswc.reference.REFERENCES), or the model itself for already-lowered input of a
        (grad, x) -> y function."""
        return _result(self.reference_outputs(*inputs, model=model))

    def reference_outputs(self, *inputs: np.ndarray, model: str = "cann"
                          ) -> tuple[np.ndarray, ...]:
        """`reference`, always as a tuple of the results (as RunResult.outputs)."""
        if model not in REFERENCES:
            raise InputError(f"unknown reference model '{model}' (known: {', '.join(REFERENCES)})")
        args = bind_inputs(self.input_types, inputs, self.arg_names)
        if level_of(self.source) == "hsg":
            machine = Machine(self.platform, REFERENCES[model])
            return self._execute(self.source, args, machine).outputs
        if len(args) != 2 or len(self.result_types) != 1:
            raise InputError("a reference needs the hsg-level module or a (grad, x) -> y "
                             f"function; @{self.function} takes {len(args)} inputs and "
                             f"returns {len(self.result_types)} results")
        return (REFERENCES[model](*args),)

    def profile(self, shape: int | Sequence[int]) -> Any:
        """The cost model's estimate of one launch on `shape` (hswc.cost_model.Report)."""
        from hswc.cost_model import profile

        return profile(self.module, shape, platform=self.platform)

    def tiling(self, shape: Sequence[int], dtype: str | None = None) -> dict[str, int]:
        """The host tiling for a tensor of `shape` (dtype: 'f16', 'bf16' or 'f32', default the
        first input's), by the module's tiling function, or hswc.tiling at the hsg level."""
        dt = dtype or self._dtype_name()
        total = int(np.prod(tuple(shape), dtype=np.int64))
        name = f"hard_swish_grad_tiling_{dt}"
        if not any(isinstance(op, func.FuncOp) and op.sym_name.data == name
                   for op in self.module.ops):
            try:
                return compute_tiling(total, self.platform.core_num, self.platform.ub_size,
                                      dt).as_json()
            except (TilingError, KeyError) as error:
                raise KernelError(f"error: {error}") from None
        machine = Machine(self.platform)
        args = (total, self.platform.core_num, self.platform.ub_size)
        values = self._guard(lambda: call_function(self.module, name, args, machine))
        keys = ("totalNum", "blockFactor", "ubFactor", "usedCoreNum", "tilingKey")
        return {k: int(v) for k, v in zip(keys, values, strict=True)}

    def with_platform(self, soc: str | None = None, core_num: int | None = None,
                      ub_size: int | None = None) -> Kernel:
        """The same compiled module run on another platform (what the host queries return and
        the UB each core has; tiling folded at compile time stays as it was folded)."""
        base = get_platform(soc) if soc is not None else self.platform
        platform = base.with_overrides(core_num, ub_size)
        return Kernel(self.module, self.source, self.function, platform, self.level)

    def _dtype_name(self) -> str:
        first = self.input_types[0] if self.input_types else None
        if isinstance(first, TensorType | UnrankedTensorType):
            return element_type_name(first.get_element_type())
        raise InputError(f"@{self.function} has no tensor input to take a dtype from")

    def _execute(self, module: ModuleOp, args: list[np.ndarray], machine: Machine) -> RunResult:
        outputs = self._guard(lambda: call_function(module, self.function, args, machine))
        return RunResult(tuple(np.asarray(o) for o in outputs), machine.tilings)

    @staticmethod
    def _guard(run: Any) -> Any:
        try:
            return run()
        except DiagnosticException as error:
            raise KernelError(_message(error)) from error


def _result(outputs: tuple[np.ndarray, ...]) -> Any:
    """What `kernel(...)` and `kernel.reference(...)` return: the array of a one-result
    function, else the tuple."""
    return outputs[0] if len(outputs) == 1 else outputs


def _message(error: BaseException) -> str:
    text = str(error).strip()
    return text if "error:" in text.split("\n", 1)[0] else f"error: {text}"


def compile_module(module: ModuleOp, *, soc: str = DEFAULT_SOC, core_num: int | None = None,
                   ub_size: int | None = None, level: str = "ascend",
                   function: str | None = None, fold: bool = False) -> Kernel:
    """Verify a module and lower a copy of it to `level` for the platform."""
    if level not in LEVELS:
        raise CompileError(f"unknown level '{level}' (known: {', '.join(LEVELS)})")
    try:
        platform = get_platform(soc).with_overrides(core_num, ub_size)
    except ValueError as error:
        raise CompileError(str(error)) from None
    try:
        verify_located(module)
    except DiagnosticException as error:
        raise CompileError(_message(error)) from None
    name = _pick_function(module, function)
    lowered = module.clone()
    ctx = _context()
    try:
        for p in _passes(level, platform, fold):
            p.apply(ctx, lowered)
            verify_located(lowered)
    except DiagnosticException as error:
        raise CompileError(_message(error)) from None
    return Kernel(lowered, module, name, platform, level)


def _pick_function(module: ModuleOp, function: str | None) -> str:
    candidates = [op.sym_name.data for op in module.ops if isinstance(op, func.FuncOp)
                  and not hsg.is_kernel(op) and not hsg.is_tiling(op) and op.body.blocks]
    if function is not None:
        if function not in candidates:
            known = ", ".join(f"@{c}" for c in candidates) or "none"
            raise CompileError(f"no function @{function} to run (functions: {known})")
        return function
    if len(candidates) != 1:
        found = ", ".join(f"@{c}" for c in candidates) or "none"
        raise CompileError(f"the module must hold exactly one function to run, found {found}; "
                           "name one with --function")
    return candidates[0]


def compile_text(text: str, *, name: str = "<input>", **options: Any) -> Kernel:
    """Parse MLIR text (`name` is the file name errors cite) and compile it."""
    try:
        module = LocatingParser(_context(), text, name).parse_module()
    except ParseError as error:
        raise CompileError(format_parse_error(error)) from None
    except DiagnosticException as error:
        raise CompileError(_message(error)) from None
    return compile_module(module, **options)


def compile_file(path: str | Path, **options: Any) -> Kernel:
    """Read, parse and compile an MLIR file (options as `compile_module`)."""
    try:
        text = decode(Path(path).read_bytes(), str(path))
    except OSError as error:
        raise CompileError(f"cannot read '{path}': {error.strerror or error}") from None
    except SourceError as error:
        raise CompileError(str(error)) from None
    return compile_text(text, name=str(path), **options)
