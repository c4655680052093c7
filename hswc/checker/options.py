"""What the checker's options mean: the reference, the kernel's argument order, the tiling
source, the user's input files, the dtypes to check.

`CheckOptions` holds the options as given (hswc-check-kernel's command line, or a caller of
hswc.checker.check); each function here turns some of them into what the check uses, or a
CheckError that names the option.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from hswc.checker import expected, kernel_source, quantized, row_generics
from hswc.checker.channels import Channels
from hswc.checker.dtypes import DTYPES, NUMPY
from hswc.checker.errors import CheckError
from hswc.checker.halves import Halves
from hswc.checker.sizes import DEFAULT_LIMIT
from hswc.checker.tiling_values import TilingSource, load_function, parse_values
from hswc.checker.time_limits import DEFAULT_TIMEOUT
from hswc.platform import DEFAULT_SOC

PerDtype = Mapping[str | None, Sequence[str]]
"""Option values by dtype; None holds those given for every dtype."""


@dataclass(frozen=True)
class CheckOptions:
    kernel: str
    op: str | None = None
    attrs: Mapping[str, str] = field(default_factory=dict)
    reference: str | None = None
    function: str | None = None
    semantics: str | None = None
    entry: str | None = None
    tiling_struct: str | None = None
    tiling: PerDtype = field(default_factory=dict)
    tiling_function: str | None = None
    block_dim: int | None = None
    tiling_key: Mapping[str | None, int] = field(default_factory=dict)
    template_args: PerDtype = field(default_factory=dict)
    defines: PerDtype = field(default_factory=dict)
    include_dirs: Sequence[str] = ()
    forced_includes: Sequence[str] = ()
    kernel_inputs: Sequence[str] | None = None
    ignore_nan_inputs: Sequence[str] = ()
    tolerance: str | None = None
    """--tolerance: bits, torch or ulp:N (hswc.checker.tolerance); None: the reference's own."""
    """Reference inputs whose NaN elements are outside the contract (FAMILY.md: NaN in x):
    elements where one of them is NaN are not compared."""
    soc: str = DEFAULT_SOC
    core_num: int | None = None
    ub_size: int | None = None
    dtypes: Sequence[str] | None = None
    sizes: Sequence[int] | None = None
    max_size: int = DEFAULT_LIMIT
    input_files: Sequence[str] = ()
    first: int = 4
    jobs: int | None = None
    timeout: float = DEFAULT_TIMEOUT
    """Seconds each run of the kernel, each run of the op's tiling and each call of the tiling
    function may take (hswc.checker.time_limits)."""
    build_timeout: float | None = None
    """Seconds each compiler command may take; None: `timeout`."""
    record_gm_reads: bool = False
    record_rules: bool = False
    """--record-rules: every broken rule the model can go on after is recorded (GM reads too)."""
    """A GM read past a tensor's end is a broken rule that does not stop the run: the values
    are still compared."""
    auto_sync: bool = True
    """--auto-sync on|off, as BiSheng's --cce-auto-sync: off, the kernel is taken as built without
    the compiler's automatic synchronisation, so on Atlas A2/A3 two vector calls touching the same
    UB bytes (one writing) need a PipeBarrier<PIPE_V> between them."""
    profile: bool = False
    """--profile: the largest run of the first dtype records its call stream, and the report
    gives its time in the cost model (hswc.cost_model.recorded)."""
    keep_stream: str | None = None
    """--profile: the recorded call stream is also copied to this file (bench_calibration's
    --keep-streams: a stream recorded once is re-timed without the CPU model)."""
    cxx: str | None = None
    work_dir: str | None = None
    channels: Mapping[str, str] = field(default_factory=dict)
    """A per-channel op's inputs by name: their kind of hswc.checker.channels (x, and its
    weight "channel" or "channel_nd"), which the sweep gives PReLU's folders; empty: every
    tensor of one size."""
    halves: Mapping[str, str] = field(default_factory=dict)
    """A --reference module's inputs by name: their kind of hswc.checker.halves (every one "x",
    [rows, L], for a generic on 2-d tensors: the sweep gives SiluMul's folder, whose tiling
    takes 2 dims or more), the results of x's shape; empty: every tensor 1-d."""


def for_dtype(values: PerDtype, dtype: str) -> list[str]:
    return [*values.get(None, ()), *values.get(dtype, ())]


def reference(o: CheckOptions) -> expected.Reference:
    if (o.op is None) == (o.reference is None):
        raise CheckError("give the reference: --op hsg.<op> or --reference FILE.mlir (one of "
                         "them)")
    if o.op is not None:
        if o.channels or o.halves:
            raise CheckError(f"{o.op}: a per-channel weight is given to a --reference "
                             "module's inputs only, as are 2-d tensors")
        if o.function is not None:
            raise CheckError("--function names a function of --reference FILE.mlir")
        if expected.gated_op(o.op) is not None:
            if o.semantics is not None:
                raise CheckError(f"--semantics: {o.op} has one semantics (its definition's)")
            return expected.from_gated_op(o.op, o.attrs)
        one_semantics = {quantized.is_quantized(o.op): expected.from_quantized,
                         row_generics.is_row_generic(o.op): expected.from_row_generic,
                         expected.row_op(o.op) is not None: expected.from_row_op,
                         expected.is_relu_mask(o.op): expected.from_relu_mask}.get(True)
        if one_semantics is not None:
            if o.semantics is not None:
                raise CheckError(f"--semantics: {o.op} has one semantics (its definition's)")
            return one_semantics(o.op, o.attrs)
        return expected.from_op(o.op, o.attrs, o.semantics)
    if o.attrs:
        raise CheckError("--attr sets an attribute of --op; a --reference module holds its "
                         "own values")
    assert o.reference is not None
    return _sized(o, expected.from_file(o.reference, o.function, o.semantics))


def _sized(o: CheckOptions, ref: expected.Reference) -> expected.Reference:
    """A --reference module's reference with its inputs' kinds (o.halves: all [rows, L];
    o.channels: x and a weight per channel); as it is without them."""
    unknown = sorted({*o.halves, *o.channels} - set(ref.input_names))
    if unknown:
        raise CheckError(f"{o.reference} takes no input {unknown[0]} (its inputs: "
                         f"{', '.join(ref.input_names)})")
    if o.halves:
        ref = replace(ref, halves=Halves({n: o.halves.get(n, "x") for n in ref.input_names},
                                         "x"))
    if not o.channels:
        return ref
    return replace(ref, channels=Channels({n: o.channels.get(n, "channel_x")
                                           for n in ref.input_names}))


def argument_order(o: CheckOptions, ref: expected.Reference, entry: kernel_source.Entry,
                   hidden: Sequence[str] = (), masks_out: int = 0) -> tuple[int, ...]:
    """For each GM input of the kernel, the index of the reference input it takes. `hidden`:
    reference inputs the kernel takes only through a mask (ReluGradV2's mask for x); the
    kernel has `masks_out` mask outputs besides the reference's results."""
    visible = [n for n in ref.input_names if n not in hidden]
    n_in, n_out = len(visible), ref.result_count + masks_out
    if len(entry.gm_arguments) != n_in + n_out:
        masks = f" and {masks_out} mask(s)" if masks_out else ""
        raise CheckError(
            f"entry {entry.name} takes {len(entry.gm_arguments)} GM tensors before workspace "
            f"({', '.join(entry.gm_arguments)}), but the reference has {n_in} input(s) "
            f"({', '.join(visible)}) and {ref.result_count} result(s){masks}")
    if o.kernel_inputs is None:
        return tuple(ref.input_names.index(n) for n in visible)
    names = list(o.kernel_inputs)
    if sorted(names) != sorted(visible):
        raise CheckError(f"--kernel-inputs {','.join(names)}: name each of the reference's "
                         f"inputs ({', '.join(visible)}) once, in the order the kernel "
                         "takes them")
    return tuple(ref.input_names.index(n) for n in names)


def tiling_source(o: CheckOptions) -> TilingSource:
    fixed: dict[str, dict[str, int | float]] = {}
    for dtype in DTYPES:
        values: dict[str, int | float] = {}
        for text in for_dtype(o.tiling, dtype):
            values.update(parse_values(text))
        fixed[dtype] = values
    function = load_function(o.tiling_function) if o.tiling_function else None
    keys = {d: o.tiling_key.get(d, o.tiling_key.get(None, 0)) for d in DTYPES}
    return TilingSource(fixed, function, o.tiling_function or "", o.block_dim, keys)


def load_inputs(o: CheckOptions, ref: expected.Reference) -> tuple[np.ndarray, ...] | None:
    if not o.input_files:
        return None
    if len(o.input_files) != len(ref.input_names):
        raise CheckError(f"give one --input per reference input ({', '.join(ref.input_names)}),"
                         f" got {len(o.input_files)}")
    arrays = []
    for path in o.input_files:
        try:
            a = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as error:
            raise CheckError(f"cannot read --input '{path}': {error}") from None
        if (a.dtype.kind == "V" and a.dtype.itemsize == 2) or a.dtype == np.uint16:
            a = a.view(NUMPY["bf16"])
        if a.dtype not in NUMPY.values():
            raise CheckError(f"--input '{path}' holds {a.dtype}; the kernels checked take "
                             "float16, bfloat16 or float32")
        arrays.append(np.ascontiguousarray(a).reshape(-1))
    if len({a.dtype for a in arrays}) != 1 or len({a.size for a in arrays}) != 1:
        raise CheckError("the --input arrays must share one dtype and size")
    return tuple(arrays)


def dtypes_to_check(o: CheckOptions, ref: expected.Reference,
            user: tuple[np.ndarray, ...] | None) -> tuple[str, ...]:
    if user is not None:
        chosen = (next(d for d, t in NUMPY.items() if t == user[0].dtype),)
    else:
        chosen = tuple(o.dtypes) if o.dtypes else ref.dtypes
    missing = [d for d in chosen if d not in ref.dtypes]
    if missing:
        raise CheckError(f"the reference has no {', '.join(missing)} function (it has "
                         f"{', '.join(ref.dtypes)})")
    return chosen


def check_limits(o: CheckOptions) -> None:
    """A CheckError unless the time limits are numbers of seconds above 0 (at most a day)."""
    from hswc.checker.time_limits import seconds

    for name, value in (("timeout", o.timeout), ("build_timeout", o.build_timeout)):
        if value is None:
            continue
        try:
            seconds(repr(value))
        except ValueError as error:
            raise CheckError(f"{name}: {error}") from None
