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
kept as is, at the level of its kernels). Ops no kernel takes (matmul, convolutions, reshapes,
reductions, ...) run on the host with their MLIR semantics at every level; a file's
dense_resource weights are read from the blobs it carries (`Kernel.resources`). The platform
(SoC, core count, UB size) is what the host queries return and how big each core's UB arena is;
with `fold=True` it is also folded into the IR, as `hsg-tile-on-cores{soc=...}` does. Inputs
may be any arrays of the function's dtypes and shapes, non-contiguous included (they are made
contiguous first, as aclnn's Contiguous does); bf16 is `ml_dtypes.bfloat16`, or its bit
patterns as uint16 / 2-byte void.

Errors: `CompileError` (unparsable or invalid IR, a pass that cannot lower it), `InputError`
(arrays that do not fit the function), `KernelError` (a kernel breaking a hardware rule, or a
host check failing, with the op's location). All derive from `RunnerError`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import ModuleOp, TensorType, UnrankedTensorType
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.ops import BroadcastOp, GenericOp, ReduceOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException, ParseError

from hswc.diagnostics import (
    LocatingParser,
    check_compilable,
    format_parse_error,
    symbol_list,
)
from hswc.dialects import hsg
from hswc.dialects.ascend_types import element_type_name
from hswc.dialects.builtin import resource_blobs, resource_handles
from hswc.dialects.hsg_norm_ops import NormOp
from hswc.interpreter.binding import bind_inputs
from hswc.interpreter.dtypes import NAMES
from hswc.interpreter.errors import CompileError, InputError, KernelError, RunnerError
from hswc.interpreter.execute import call_function
from hswc.interpreter.input_shapes import check_input_shapes
from hswc.interpreter.limits import DEFAULT_MAX_STEPS
from hswc.interpreter.machine import Machine
from hswc.interpreter.trace import EventHook
from hswc.memory_budget import check_fits
from hswc.pass_checks import apply_checked, trusted
from hswc.passes.packed_outputs import packed_results
from hswc.pipeline import LEVEL_PASSES, PASSES, context
from hswc.platform import DEFAULT_SOC, Platform, get_platform
from hswc.reference import OP_REFERENCES
from hswc.rows import ROW_LENGTH_FIELD
from hswc.source_text import SourceError, decode
from hswc.verification import verify_located
from hswc.verification_cache import VerifiedOps

LEVELS = ("hsg", *LEVEL_PASSES)
"""IR levels, highest first: named ops, then each level hswc.pipeline.LEVEL_PASSES reaches."""

_LEVEL_OPS: tuple[tuple[type[Operation], str], ...] = (
    *((op_type, "hsg") for op_type in hsg.OPERATOR_OPS),
    (GenericOp, "hsg"),  # generics as written: the linalg level normalises and fuses them
    (LinalgStructuredOperation, "hsg"),  # named ops: generalized, or refused by name
    (BroadcastOp, "hsg"),
    (ReduceOp, "hsg"),
    (hsg.ElementwiseSliceOp, "tiled"),
    (hsg.ElementwiseChunkOp, "blocked"),
)


__all__ = ["LEVELS", "CompileError", "InputError", "Kernel", "KernelError", "RunResult",
           "RunnerError", "compile_file", "compile_module", "compile_text", "level_of"]


def level_of(module: ModuleOp) -> str:
    """The highest level any op of the module is at ('ascend' when no hsg compute op is left).
    In a module that has kernels, hsg-tile-on-cores has run: its linalg ops stay on the host
    at every level."""
    ops = list(module.walk())
    tiled = any(isinstance(op, func.FuncOp) and hsg.is_kernel(op) for op in module.ops)
    levels = _LEVEL_OPS[-2:] if tiled else _LEVEL_OPS
    return next((name for op_type, name in levels
                 if any(isinstance(op, op_type) for op in ops)), "ascend")


ROW_KERNEL_LEVELS = ("tiled", "blocked", "ascend")
"""The levels a run lowers row regions to row kernels at (hsg-tile-on-cores' `rows`): every
level below hsg (convert-hsg-to-ascend lowers row chunks: hswc.passes.row_chunk_lowering)."""


def _passes(start: str, level: str, platform: Platform, fold: bool, semantics: str | None,
            fuse: bool, variant: str | None = None,
            strict_f64: bool = False) -> list[ModulePass]:
    """The passes of --lower-to-ascend that take a module at `start` to `level`, with the
    schedule preset `variant` (None: the reference schedule)."""
    from hswc.passes.convert_hsg_to_ascend import ConvertHsgToAscendPass
    from hswc.passes.hsg_decompose import HsgDecomposePass
    from hswc.passes.hsg_demote_f64 import HsgDemoteF64Pass
    from hswc.passes.hsg_fuse_elementwise import HsgFuseElementwisePass
    from hswc.passes.hsg_tile_on_cores import HsgTileOnCoresPass

    passes: list[ModulePass] = []
    for stage in LEVELS[LEVELS.index(start) + 1: LEVELS.index(level) + 1]:
        for name in LEVEL_PASSES[stage]:
            if name == HsgTileOnCoresPass.name:
                rows = level in ROW_KERNEL_LEVELS
                if fold:
                    passes.append(HsgTileOnCoresPass(core_num=platform.core_num,
                                                     ub_size=platform.ub_size, variant=variant,
                                                     api=platform.api, rows=rows))
                else:
                    passes.append(HsgTileOnCoresPass(variant=variant, api=platform.api,
                                                     rows=rows))
            elif name == ConvertHsgToAscendPass.name:
                passes.append(ConvertHsgToAscendPass(variant=variant, api=platform.api))
            elif name == HsgDecomposePass.name:
                passes.append(HsgDecomposePass(semantics=semantics))
            elif name == HsgDemoteF64Pass.name:
                passes.append(HsgDemoteF64Pass(strict=strict_f64))
            elif name == HsgFuseElementwisePass.name and not fuse:
                continue
            else:
                passes.append(PASSES[name]()())
    return passes


def platform_kernels(module: ModuleOp, platform: Platform,
                     semantics: str | None) -> tuple[str | None, str | None]:
    """The semantics and schedule preset to lower `module` with on `platform`. With no semantics
    given, the SoC's own CANN kernels' (Platform.semantics; ascend950: cann-arch35) when every
    named op of the module has them, else each op's default. The schedule is the SoC's preset
    (Platform.schedule; ascend950: arch35) for the SoC's semantics, else the reference (None)."""
    from hswc.ops import definition_of

    if semantics is None and platform.semantics is not None:
        named = [op for op in module.walk() if isinstance(op, hsg.NamedOp)]
        if named and all(platform.semantics in definition_of(op.name).semantics
                         for op in named):
            semantics = platform.semantics
    if semantics is None or semantics != platform.semantics:
        return semantics, None
    return semantics, platform.schedule


@dataclass
class RunResult:
    """What one run produced: the function's results and the tiling of each launch."""

    outputs: tuple[np.ndarray, ...]
    launched: list[dict[str, int] | None] = field(default_factory=list)
    """Per hsg.launch, in launch order (none above the tiled level)."""
    kernels: list[str] = field(default_factory=list)
    """The kernel each launch ran, in launch order (none above the tiled level)."""
    would_launch: Callable[[], list[dict[str, int] | None]] | None = None
    """Above the tiled level, where nothing launches: the tilings the tiled module would
    launch with, computed when `tilings` is first read (lowering a whole model to the tiled
    level only to report them would cost more than the run)."""

    @property
    def tilings(self) -> list[dict[str, int] | None]:
        """Per launch, in launch order; above the tiled level, the tiled module's."""
        if self.would_launch is not None:
            self.launched, self.would_launch = self.would_launch(), None
        return self.launched


def _sums_into_its_outputs(op: GenericOp | ReduceOp) -> bool:
    """Whether a reduction's body adds floats into one of its output (accumulator) arguments:
    a sum, whose value depends on the order of the additions."""
    if isinstance(op, GenericOp) and not any(
            str(it.data.value) == "reduction" for it in op.iterator_types):
        return False
    if isinstance(op, GenericOp):
        block = op.body.block
        outs = set(block.args[len(block.args) - len(op.outputs):])
    else:  # linalg.reduce: its inputs' then its inits' elements
        block = op.region.block
        outs = set(block.args[len(block.args) // 2:])
    return any(isinstance(inner, arith.AddfOp | arith.SubfOp)
               and any(o in outs for o in inner.operands) for inner in block.ops)


class Kernel:
    """A parsed, verified and lowered module, ready to run on numpy arrays."""

    def __init__(self, module: ModuleOp, source: ModuleOp, function: str, platform: Platform,
                 level: str, semantics: str | None = None, fuse: bool = True,
                 resources: Mapping[str, str] | None = None):
        self.module = module
        """The module that runs (lowered to `level`)."""
        self.source = source
        """The module as given (before lowering)."""
        self.function = function
        self.platform = platform
        self.level = level
        self.semantics = semantics
        """What the named ops were decomposed as (None: each op's default)."""
        self.fuse = fuse
        """Whether the elementwise generics were fused (hsg-fuse-elementwise)."""
        self.resources: Mapping[str, str] = resources or {}
        """The blobs of the module's dense_resource constants (its weights), by handle."""
        self._tiled_module: ModuleOp | None = None
        fn = self._func(module)
        self.input_types = tuple(fn.function_type.inputs)
        self.result_types = tuple(fn.function_type.outputs)
        self.packed_results = tuple(packed_results(fn))
        """The results stored packed, 8 elements a byte (`hsg.storage = "bits"`: hswc.passes.
        packed_outputs): hswc-run writes their bytes."""
        block = fn.body.blocks.first
        self.arg_names = tuple(a.name_hint or "" for a in block.args) if block else ()
        """The arguments' SSA names (grad, x), which input errors cite."""

    def _labels(self) -> list[str]:
        """How input errors name each argument: `input 1 (grad)`."""
        return [f"input {i + 1}" + (f" ({name})" if name else "")
                for i, name in enumerate(self.arg_names)]

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

    def run(self, *inputs: np.ndarray, on_event: EventHook | None = None,
            max_steps: int | None = DEFAULT_MAX_STEPS) -> RunResult:
        """Run on `inputs`; `on_event` sees every AscendC call (hswc.interpreter.trace); more
        than `max_steps` loop iterations are an error (hswc.interpreter.limits; None: a few per
        UB chunk of the run's launches' tilings). Named ops left
        at the hsg level run their golden model for the compiled semantics; every other op
        outside a kernel, its MLIR semantics on the host."""
        args = bind_inputs(self.input_types, inputs, self.arg_names)
        check_input_shapes(self._func(self.source), args, self._labels())
        machine = Machine(self.platform, self.semantics, on_event, max_steps, self.resources)
        return self._execute(self.module, args, machine)

    def inexact_reason(self) -> str | None:
        """Why the module's results are compared within a tolerance and not bit for bit, or
        None: a named op whose golden model is the exact function (an exponential activation:
        hswc.ops.OpDefinition.exact), or a reduction, whose golden sums in float64 (the softmax
        family and the norms: hswc.reference_norms) or in an order the kernel's vector
        reductions do not keep (a linalg.generic with a reduction iterator, linalg.reduce)."""
        from hswc.ops import OPS

        for op in self.source.walk():
            if isinstance(op, hsg.NamedOp) and not OPS[op.name.removeprefix("hsg.")].exact:
                return f"{op.name} is an exponential activation"
            if isinstance(op, NormOp):
                return f"{op.name} reduces along a dim"
            if isinstance(op, GenericOp | ReduceOp) and _sums_into_its_outputs(op):
                return f"{op.name} sums along a reduction iterator"
        return None

    def reference(self, *inputs: np.ndarray, model: str | None = None) -> Any:
        """The expected result, shaped as `kernel(...)` returns it (one array, or a tuple for
        several results); see `reference_outputs`."""
        return _result(self.reference_outputs(*inputs, model=model))

    def reference_outputs(self, *inputs: np.ndarray, model: str | None = None
                          ) -> tuple[np.ndarray, ...]:
        """The expected results, always as a tuple: the module as given, run at its own level,
        with its named ops defined by the golden models of semantics `model`
        (hswc.reference.OP_REFERENCES; default the compiled semantics) and every other op by
        its MLIR semantics, on the host. Input that is already
        lowered below linalg has no independent definition to compare with, except a (grad, x)
        -> y function, which is compared with HardSwishGrad's model."""
        model = model or self.semantics
        known = sorted({s for _, s in OP_REFERENCES})
        if model is not None and model not in known:
            raise InputError(f"unknown reference model '{model}' (known: {', '.join(known)})")
        args = bind_inputs(self.input_types, inputs, self.arg_names)
        if level_of(self.source) in ("hsg", "linalg"):
            machine = Machine(self.platform, model, resources=self.resources)
            return self._execute(self.source, args, machine).outputs
        if len(args) != 2 or len(self.result_types) != 1:
            raise InputError("a reference needs an hsg- or linalg-level module, or a "
                             f"(grad, x) -> y function; @{self.function} takes {len(args)} "
                             f"inputs and returns {len(self.result_types)} results")
        return (OP_REFERENCES[("hard_swish_grad", model or "cann")](*args),)

    def profile_launches(self, shape: int | Sequence[int], result: RunResult | None = None
                         ) -> Any:
        """The cost model's estimate of every launch of the function, each on `shape`; given a
        run's result (at the tiled level or below), of the launches that run made, each on
        its own elements (hswc.profiling.launches.Launches)."""
        from hswc.profiling.launches import profile_launches

        runs: list[tuple[str, int, int | None]] | None = None
        if result is not None and result.kernels:  # each with its run-time row length, if any
            runs = [(name, int(t["totalNum"]) if t else 0,
                     int(t[ROW_LENGTH_FIELD]) if t and ROW_LENGTH_FIELD in t else None)
                    for name, t in zip(result.kernels, result.tilings, strict=True)]
        return profile_launches(self.module, shape, platform=self.platform,
                                function=self.function, runs=runs)

    def profile(self, shape: int | Sequence[int], row_length: int | None = None) -> Any:
        """The cost model's estimate of one launch on `shape` (hswc.cost_model.Report; of a
        row kernel, `shape` counts rows, each `row_length` long where the kernel takes that
        at run time)."""
        from hswc.profiling import profile

        return profile(self.module, shape, platform=self.platform, row_length=row_length)

    def tiling(self, shape: Sequence[int], dtype: str | None = None) -> dict[str, int]:
        """The host tiling for a tensor of `shape` (dtype: 'f16', 'bf16' or 'f32', default the
        first input's), by the module's tiling function (at the hsg and linalg levels, by the
        one hsg-tile-on-cores would give it)."""
        dt = dtype or self._dtype_name()
        total = int(np.prod(tuple(shape), dtype=np.int64))
        module = self._tiled()
        names = [op.sym_name.data for op in module.ops if isinstance(op, func.FuncOp)
                 and hsg.is_tiling(op) and op.sym_name.data.endswith(f"_tiling_{dt}")]
        if not names:
            raise KernelError(f"error: the module has no {dt} host tiling function")
        if len(names) > 1:
            raise KernelError(f"error: the module has {len(names)} {dt} tiling functions "
                              f"({', '.join('@' + n for n in names)}); run one launch and read "
                              "its tilings from Kernel.run(...).tilings")
        name = names[0]
        machine = Machine(self.platform)
        args = (total, self.platform.core_num, self.platform.ub_size)
        values = self._guard(lambda: call_function(module, name, args, machine))
        keys = ("totalNum", "blockFactor", "ubFactor", "usedCoreNum", "tilingKey")
        return {k: int(v) for k, v in zip(keys, values, strict=True)}

    def with_platform(self, soc: str | None = None, core_num: int | None = None,
                      ub_size: int | None = None) -> Kernel:
        """The same compiled module run on another platform (what the host queries return and
        the UB each core has; tiling folded at compile time stays as it was folded)."""
        base = get_platform(soc) if soc is not None else self.platform
        platform = base.with_overrides(core_num, ub_size)
        return Kernel(self.module, self.source, self.function, platform, self.level,
                      self.semantics, self.fuse, self.resources)

    def _dtype_name(self) -> str:
        first = self.input_types[0] if self.input_types else None
        if isinstance(first, TensorType | UnrankedTensorType):
            return element_type_name(first.get_element_type())
        raise InputError(f"@{self.function} has no tensor input to take a dtype from")

    def _tiled(self) -> ModuleOp:
        """The module, or above the tiled level a clone lowered to it (for its tilings)."""
        if LEVELS.index(self.level) >= LEVELS.index("tiled"):
            return self.module
        if self._tiled_module is None:
            self._tiled_module = compile_module(self.source, soc=self.platform.name,
                                                level="tiled", semantics=self.semantics,
                                                fuse=self.fuse).module
        return self._tiled_module

    def _execute(self, module: ModuleOp, args: list[np.ndarray], machine: Machine) -> RunResult:
        outputs = self._guard(lambda: call_function(module, self.function, args, machine))
        result = RunResult(tuple(np.asarray(o) for o in outputs), machine.tilings,
                           machine.launched)
        if module is self.module and LEVELS.index(self.level) < LEVELS.index("tiled") and args:
            result.would_launch = lambda: self._would_launch(args[0])
        return result

    def _would_launch(self, first: np.ndarray) -> list[dict[str, int] | None]:
        """The launch the tiled module would make for this first input (none known when it
        launches several kernels: only the tiled level knows them)."""
        try:
            return [self.tiling(first.shape, NAMES.get(first.dtype))]
        except (KernelError, CompileError):
            return [None]

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
                   function: str | None = None, fold: bool = False,
                   semantics: str | None = None, fuse: bool = True,
                   strict_f64: bool = False,
                   resources: Mapping[str, str] | None = None) -> Kernel:
    """Verify a module and lower a copy of it to `level` for the platform, decomposing its
    named ops with `semantics` (default: each op's own; hsg-decompose), unless `fuse` is false
    fusing its elementwise generics (hsg-fuse-elementwise), and computing its f64 arithmetic in
    f32 unless `strict_f64` (then it is refused: hsg-demote-f64). `resources` are the blobs of
    its dense_resource constants by handle (default: those xDSL's own parser keeps,
    hswc.dialects.builtin)."""
    if level not in LEVELS:
        raise CompileError(f"unknown level '{level}' (known: {', '.join(LEVELS)})")
    try:
        platform = get_platform(soc).with_overrides(core_num, ub_size)
    except ValueError as error:
        raise CompileError(str(error)) from None
    try:
        verify_located(module)
        check_compilable(module)
        if not any(isinstance(op, func.FuncOp) and hsg.is_kernel(op) for op in module.ops):
            check_fits(module)  # not yet tiled: the lowering's peak is still to come
    except DiagnosticException as error:
        raise CompileError(_message(error)) from None
    name = _pick_function(module, function)
    ctx = context()
    start = level_of(module)  # input already below `level` is kept as it is
    semantics, variant = platform_kernels(module, platform, semantics)

    def fresh() -> tuple[ModuleOp, VerifiedOps]:
        copy = module.clone()  # a copy of what verified above: not verified again
        return copy, trusted(copy)

    try:
        passes = list(_passes(start, level, platform, fold, semantics, fuse, variant,
                              strict_f64))
        # One check after the last pass (hswc.pass_checks), each pass's when that fails.
        lowered = apply_checked(passes, ctx, fresh)
    except DiagnosticException as error:
        raise CompileError(_message(error)) from None
    if resources is None:
        resources = resource_blobs(None, resource_handles(module))
    return Kernel(lowered, module, name, platform, level, semantics, fuse, resources)


def _pick_function(module: ModuleOp, function: str | None) -> str:
    candidates = [op.sym_name.data for op in module.ops if isinstance(op, func.FuncOp)
                  and not hsg.is_kernel(op) and not hsg.is_tiling(op) and op.body.blocks]
    if function is not None:
        if function not in candidates:
            known = symbol_list(candidates)
            other = next((op for op in module.ops if isinstance(op, func.FuncOp)
                          and op.sym_name.data == function), None)
            if other is not None and hsg.is_kernel(other):
                raise CompileError(f"@{function} is a kernel (hsg.kernel): it runs on the "
                                   "device, launched by a host function's hsg.launch, and "
                                   f"cannot be run directly; run a host function ({known})")
            if other is not None and hsg.is_tiling(other):
                raise CompileError(f"@{function} is a host tiling function (hsg.tiling), "
                                   "called by a host function before its launch, not run on "
                                   f"its own; run a host function ({known})")
            if other is not None:
                raise CompileError(f"@{function} is a declaration (it has no body) and cannot "
                                   f"be run; run a function with a body ({known})")
            raise CompileError(f"no function @{function} to run (functions: {known})")
        return function
    if len(candidates) != 1:
        raise CompileError("the module must hold exactly one function to run, found "
                           f"{symbol_list(candidates)}; name one with --function")
    return candidates[0]


def compile_text(text: str, *, name: str = "<input>", **options: Any) -> Kernel:
    """Parse MLIR text (`name` is the file name errors cite) and compile it."""
    ctx = context()
    try:
        module = LocatingParser(ctx, text, name).parse_module()
    except ParseError as error:
        raise CompileError(format_parse_error(error)) from None
    except DiagnosticException as error:
        raise CompileError(_message(error)) from None
    resources = resource_blobs(ctx, resource_handles(module))
    return compile_module(module, resources=resources, **options)


def compile_file(path: str | Path, **options: Any) -> Kernel:
    """Read, parse and compile an MLIR file (options as `compile_module`)."""
    try:
        text = decode(Path(path).read_bytes(), str(path))
    except OSError as error:
        raise CompileError(f"cannot read '{path}': {error.strerror or error}") from None
    except SourceError as error:
        raise CompileError(str(error)) from None
    return compile_text(text, name=str(path), **options)
