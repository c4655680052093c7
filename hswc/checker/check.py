"""One check, from options to report: scan, reference, launches, builds, runs, comparisons.

    options = CheckOptions(kernel="op_kernel/", op="hsg.hard_sigmoid_grad",
                           tiling_function="tiling.py:tiling")
    report = check(options)          # a CheckReport; CheckError for bad input
    print(report.format())

`plan` does everything up to the builds (so that tests can build several kernels at once with
`build_plans`), `run_plan` the runs and comparisons.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import threading
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from hswc.checker import (
    asc_source,
    counts,
    expected,
    host_tiling,
    inputs,
    kernel_source,
    op_folder,
    quantized,
    row_generics,
    time_limits,
)
from hswc.checker import build as builder
from hswc.checker.cases import Case, build_specs, make_cases
from hswc.checker.dtypes import NUMPY, TENSOR_TYPES
from hswc.checker.errors import CheckError
from hswc.checker.halves import Halves, rows_and_half
from hswc.checker.masks import MASK_RULES, MaskRule, MaskTensor
from hswc.checker.masks import compare as compare_masks
from hswc.checker.op_dir import OpDir, open_op_dir
from hswc.checker.options import (
    CheckOptions,
    argument_order,
    check_limits,
    dtypes_to_check,
    load_inputs,
    reference,
    tiling_source,
)
from hswc.checker.report import BuildFailure, CheckReport, RunOutcome, first_differences
from hswc.checker.run import execute
from hswc.checker.tiling_values import StructLayout, parse_layout
from hswc.checker.tolerance import Tolerance, parse_tolerance
from hswc.platform import Platform, get_platform
from hswc.reference import ToleranceComparison, compare_bitwise

ASSUMED_CALLS: Mapping[str, str] = {
    **dict.fromkeys(("Div", "Divs"),
                    "the model divides with one IEEE round-to-nearest-even rounding; AscendC "
                    "documents no exact result for Div on Atlas A2/A3 (its Ascend 950 default "
                    "instruction is within 1 ulp), so a 1-ulp value difference at a Div result "
                    "may be the hardware's freedom rather than a bug"),
    **dict.fromkeys(("Exp", "Ln", "Log", "Sqrt", "Rsqrt", "Reciprocal"),
                    "the model computes Exp, Ln (and the library's Log, as Ln), Sqrt, Rsqrt and "
                    "Reciprocal correctly rounded (hswc.math_semantics, as hswc's interpreter "
                    "does); the hardware's bits are not published, so compare these kernels "
                    "within a tolerance"),
    **dict.fromkeys(("Erf", "Tanh"),
                    "the model runs the library's Erf and Tanh as asc-devkit's implementation "
                    "composes them (its sequences of Mins, Maxs, Mul, Adds, Div, Exp, ... in "
                    "hswc/checker/ascendc_cpu/ascendc_cpu_vec_library.h), each step with the basic "
                    "call's model; their bits are as exact as Div's and Exp's models are"),
}
"""Calls the CPU model computes under an assumption the docs do not state (a note in the
report when the kernel's sources use them)."""


@dataclass(frozen=True)
class Masks:
    """An op folder's mask tensors (hswc.checker.masks): what they hold and where they are;
    NO_MASKS for a kernel without any."""

    rule: MaskRule | None
    """None: there are no mask tensors."""
    attrs: Mapping[str, str]
    """The reference's attributes (the rule's threshold)."""
    inputs: Mapping[int, MaskTensor]
    """Kernel GM input position -> the mask it takes (computed from x, as forward_inputs)."""
    outputs: Mapping[int, MaskTensor]
    """Kernel GM output position (among its outputs) -> the mask it writes."""
    hidden: tuple[str, ...] = ()
    """Reference inputs the kernel takes only through its mask (ReluGradV2's x)."""

    @property
    def packed(self) -> bool:
        return any(m.packed for m in (*self.inputs.values(), *self.outputs.values()))

    def describe(self, m: MaskTensor) -> str:
        assert self.rule is not None  # m is one of this object's tensors
        return f"the mask of {self.rule.describe(self.attrs)} ({m.layout})"

    def bits(self, ref: expected.Reference, values: Sequence[np.ndarray]) -> np.ndarray:
        """The reference's mask of the drawn inputs (none without a rule)."""
        if self.rule is None:
            return np.zeros(0, bool)
        return self.rule.values(values[ref.input_names.index(self.rule.input)], self.attrs)


NO_MASKS = Masks(None, {}, {}, {})


@dataclass
class Plan:
    """A check ready to build and run."""

    options: CheckOptions
    sources: kernel_source.KernelSources
    reference: expected.Reference
    order: tuple[int, ...]
    """For each GM input of the kernel, the index of the reference input it takes."""
    fields: tuple[kernel_source.TilingField, ...]
    struct: str | None
    """None: the op's own tiling gives the raw bytes and the kernel reads them itself."""
    cases: list[Case]
    builds: dict[str, builder.BuildSpec]
    ub_size: int
    report: CheckReport
    workdir: Path
    temporary: bool
    """The work directory is the checker's own (removed by `cleanup`), not --work-dir."""
    layouts: dict[str, StructLayout] = field(default_factory=dict)
    tolerance: Tolerance = field(default_factory=lambda: Tolerance("bits"))
    """How outputs are compared (--tolerance)."""
    attribute_inputs: dict[int, tuple[str, str]] = field(default_factory=dict)
    """Kernel GM inputs that take an attribute as a one-element tensor: position -> (attribute,
    value)."""
    forward_inputs: dict[int, expected.Reference] = field(default_factory=dict)
    """Kernel GM inputs that take the forward op's result on x (GeluGrad's y): position -> the
    forward op's reference."""
    absent_inputs: frozenset[int] = frozenset()
    """Kernel GM inputs that are optional inputs left out (MishGrad's tanhx): a null address."""
    masks: Masks = NO_MASKS
    """The kernel's mask inputs and outputs (ReluV2's mask, ReluGradV2's)."""
    ub_physical: int = 0
    """The whole UB, for a kernel laying out its own buffers (Platform.ub_physical)."""
    counts_input: int | None = None
    """The absent input the runs with counts give (group_index: hswc.checker.counts)."""

    def cleanup(self) -> None:
        if self.temporary:
            shutil.rmtree(self.workdir, ignore_errors=True)


def _struct(o: CheckOptions, sources: kernel_source.KernelSources,
            include_dirs: tuple[Path, ...], opdir: OpDir | None = None,
            generated: tuple[str, Path] | None = None,
            ) -> tuple[str | None, tuple[kernel_source.TilingField, ...], Path | None]:
    """The tiling struct the kernel reads, its fields and the file declaring it. `generated`:
    the struct an op folder's build generates from its tiling-data class, and its header
    (HostTiling.tiling_data_header), which the kernel gets when it says GET_TILING_DATA or names
    that struct without declaring it."""
    if sources.entry.gm_only:
        if o.tiling_struct is not None:
            raise CheckError(f"--tiling-struct {o.tiling_struct}: entry {sources.entry.name} "
                             "takes its GM tensors only, no tiling")
        return None, (), None
    struct = o.tiling_struct or sources.tiling_struct_used or (
        opdir.struct_from_tiling() if opdir is not None else None)
    if struct is None and generated is not None and sources.gets_tiling_data:
        struct = generated[0]
    if struct is None and opdir is not None:
        return None, (), None
    if struct is None:
        raise CheckError(f"name the kernel's tiling struct with --tiling-struct (the entry "
                         f"{sources.entry.name} names none with GET_TILING_DATA_WITH_STRUCT)")
    for d in include_dirs:
        if not d.is_dir():
            raise CheckError(f"-I {d}: no such directory")
    headers = tuple(Path(f) for f in o.forced_includes)
    for f in headers:
        if not f.is_file():
            raise CheckError(f"--include {f}: no such file")
    if generated is not None and struct == generated[0]:
        # What the build force-includes, whatever else of that name the sources hold
        # (experimental/activation/sigmoid's A2 struct in op_kernel/sigmoid_tiling_data.h).
        declared = kernel_source.declared_fields(generated[1], struct)
        assert declared is not None
        return struct, declared, generated[1]
    fields, where = kernel_source.find_struct(sources, struct, include_dirs, headers)
    return _seen_struct(o, sources, (struct, fields, where), generated, opdir)


def _seen_struct(o: CheckOptions, sources: kernel_source.KernelSources,
                 found: tuple[str, tuple[kernel_source.TilingField, ...], Path],
                 generated: tuple[str, Path] | None, opdir: OpDir | None,
                 ) -> tuple[str | None, tuple[kernel_source.TilingField, ...], Path | None]:
    """`found`, the struct the op's tiling writes (GetTilingData<S>), unless the kernel says
    GET_TILING_DATA, its build does not reach S's header and the op registers a tiling-data
    class: then S is another SoC's path (SwiGluGrad's op_host regbase tiling, S in
    op_kernel/arch35/, which the A2 kernel does not include), and the kernel gets the registered
    class (`_generated_struct`; none before it is known). Without a registered class the header
    is the UT variant's to force-include (`_plan`)."""
    struct, _, where = found
    if (struct == (o.tiling_struct or sources.tiling_struct_used) or not sources.gets_tiling_data
            or kernel_source.reaches(sources.entry.source, where) is not False
            or opdir is None or not opdir.registers_tiling_class()):
        return found
    if generated is None:
        return None, (), None
    return generated[0], kernel_source.declared_fields(generated[1], generated[0]) or (), \
        generated[1]


def _platform(o: CheckOptions) -> Platform:
    try:
        platform = get_platform(o.soc).with_overrides(o.core_num, o.ub_size)
    except ValueError as error:
        raise CheckError(str(error)) from None
    if platform.ub_size % 32 or platform.ub_size == 0 or platform.core_num == 0:
        raise CheckError(f"the platform needs cores and a UB of a positive multiple of 32 "
                         f"bytes, got {platform.core_num} cores, {platform.ub_size} bytes")
    return platform


def _report(sources: kernel_source.KernelSources, ref: expected.Reference, order: tuple[int, ...],
            platform: Platform, struct: str | None, shown: dict[str, str],
            scalars: dict[int, tuple[str, str]],
            forward: dict[int, expected.Reference],
            absent: frozenset[int] = frozenset(), masks: Masks = NO_MASKS,
            o_kernel: str = "", counted: int | None = None) -> CheckReport:
    entry = sources.entry
    kernel = f"{entry.source.name}: the device part of {o_kernel}" if entry.gm_only else str(
        entry.source)
    tensors = iter(order)
    mask_in, mask_out = masks.inputs, masks.outputs
    count = len(order) + len(scalars) + len(forward) + len(absent) + len(mask_in)

    def source(k: int) -> str:
        if k in mask_in:
            return masks.describe(mask_in[k])
        if k in absent:
            given = "; its int64 counts in the group_index runs" if k == counted else ""
            return f"none (an optional input left out: a null address{given})"
        if k in scalars:
            return f"{scalars[k][0]} = {scalars[k][1]} (one element)"
        if k in forward:
            return f"{forward[k].op}(x)"
        return ref.input_names[next(tensors)]

    gm_in = [f"{entry.gm_arguments[k]} <- {source(k)}" for k in range(count)]
    gm_out = [f"{a} (mask: {masks.describe(mask_out[k])})" if k in mask_out else a
              for k, a in enumerate(entry.gm_arguments[count:])]
    report = CheckReport(
        kernel=kernel, entry=entry.name, reference=ref.title,
        platform=f"{platform.name}: {platform.core_num} cores, {platform.ub_size} bytes of UB",
        arguments=f"inputs {', '.join(gm_in)}; outputs {', '.join(gm_out)}; "
                  f"{entry.template_spelling}; "
                  + (f"tiling struct {struct}" if struct else
                     "no tiling (the entry takes its GM tensors only)" if entry.gm_only else
                     "tiling: the raw bytes the op's tiling writes (the kernel reads them "
                     "itself)"),
        per_dtype=shown, input_names=(*entry.gm_arguments[:count],
                                      *(f"{h} (of the mask)" for h in masks.hidden))
        if ref.sizing is None else tuple(ref.sizing.shown_names(ref.input_names)))
    text = sources.own_text()
    called: dict[str, list[str]] = {}
    for call, note in ASSUMED_CALLS.items():  # a call, or ATVOSS's Vec::Call<T> in a DAG
        if re.search(rf"\b{call}\s*(<[^;()]*>)?\s*\(|\bVec::{call}\s*<", text):
            called.setdefault(note, []).append(call)
    for note, calls in called.items():
        report.notes.append(f"the kernel calls {', '.join(calls)}: {note}")
    return report


def plan(o: CheckOptions) -> Plan:
    """Everything up to the builds; a CheckError for any bad input (each step within the
    options' time limits: hswc.checker.time_limits)."""
    check_limits(o)
    workdir = Path(o.work_dir) if o.work_dir else Path(tempfile.mkdtemp(prefix="hswc-check-"))
    try:
        with time_limits.limits(o.timeout, o.build_timeout):
            return _plan(o, workdir)
    except BaseException:
        if o.work_dir is None:
            shutil.rmtree(workdir, ignore_errors=True)
        raise


def _reference(o: CheckOptions, opdir: OpDir | None
               ) -> tuple[expected.Reference, dict[str, str], dict[int, tuple[str, str]],
                          dict[int, expected.Reference], frozenset[int], Masks]:
    """The reference, the attributes for the op's tiling, the kernel inputs that take an
    attribute as a one-element tensor, those that take the forward op's result on x,
    with its reference, the optional inputs left out, and the mask tensors (op folders
    only)."""
    if opdir is None:
        return reference(o), {}, {}, {}, frozenset(), NO_MASKS
    if o.op is None or quantized.is_quantized(o.op) or row_generics.is_row_generic(o.op):
        # A --reference module (and a row generic) holds its values: every --attr is the
        # tiling's; a quantized op's attributes are both the reference's and the tiling's (but
        # the checker's own: how its scales are shaped).
        keep = o.op is not None and quantized.is_quantized(o.op)
        ref = reference(o if keep else replace(o, attrs={}))
        tiling = quantized.tiling_attributes(o.attrs) if keep else o.attrs
        return (ref, opdir.tiling_attributes(tiling), {}, {},
                opdir.absent_inputs(ref.input_names), NO_MASKS)
    semantic, tiling_attrs = opdir.split_attributes(o.op, o.attrs)
    shaped = expected.gated_op(o.op) or expected.row_op(o.op)  # tensors in rows
    if shaped is not None:
        return (reference(replace(o, attrs=semantic)), tiling_attrs, {}, {},
                opdir.absent_inputs(shaped.INPUTS), NO_MASKS)
    ref = expected.from_relu_mask(o.op, semantic) if expected.is_relu_mask(o.op) else \
        expected.from_op(o.op, semantic, o.semantics)
    masks = _masks(opdir, o.op, ref, semantic)
    taken = set(masks.inputs)
    scalars = {k: v for k, v in opdir.attribute_inputs(o.op, semantic).items()
               if k not in taken}
    absent = opdir.absent_inputs(ref.input_names, {*scalars, *taken})
    forward: dict[int, expected.Reference] = {}
    for k, name in opdir.forward_inputs(o.op, ref.input_names,
                                        {*scalars, *absent, *taken}).items():
        op = expected.named_op(name)
        own = {a.name for a in (*op.ATTRIBUTES, *op.OPTIONS)}
        forward[k] = expected.from_op(name, {a: v for a, v in semantic.items() if a in own},
                                      o.semantics)
    if masks.rule is not None and masks.inputs:
        tensors = [k for k in range(len(opdir.op.inputs))
                   if k not in {*scalars, *absent, *forward, *taken}]
        if len(tensors) == len(ref.input_names) - 1:  # the mask stands for x
            masks = replace(masks, hidden=(masks.rule.input,))
    return ref, tiling_attrs, scalars, forward, absent, masks


def _masks(opdir: OpDir, op: str, ref: expected.Reference, semantic: Mapping[str, str]
           ) -> Masks:
    """The definition's masks (hswc.checker.masks), by kernel GM position."""
    found = opdir.masks(op, ref.input_names)
    if not found:
        return NO_MASKS
    rule = MASK_RULES[op]
    return Masks(rule, dict(semantic),
                 {m.position: m for m in found if m.direction == "input"},
                 {m.position: m for m in found if m.direction == "output"})


def _ut_stand_in(opdir: OpDir, sources: kernel_source.KernelSources, struct: str,
                 where: Path | None) -> bool:
    """Whether the kernel's tiling struct is declared only by the op folder's tests/ut header
    while its tiling registers a tiling-data class of that name (REGISTER_TILING_DATA_CLASS):
    the kernel's real build gets the struct generated from that class (`_generated_struct`)."""
    ut = sources.directory.parent / "tests" / "ut"
    if where is None or not where.resolve().is_relative_to(ut.resolve()):
        return False
    registered = re.compile(rf"REGISTER_TILING_DATA_CLASS\(\s*\w+\s*,\s*{re.escape(struct)}\s*\)")
    host = opdir.folder.root / "op_host"
    return any(registered.search(p.read_text(encoding="utf-8", errors="replace"))
               for p in sorted(host.rglob("*")) if p.suffix in (".h", ".hpp", ".cpp"))


def _declared_struct(o: CheckOptions, sources: kernel_source.KernelSources,
                     include_dirs: tuple[Path, ...], opdir: OpDir | None,
                     ) -> tuple[str | None, tuple[kernel_source.TilingField, ...], Path | None,
                                CheckError | None]:
    """`_struct`'s answer, and for an op folder whose kernel names a struct it does not
    declare (perhaps the op's tiling-data class: `_generated_struct`), none and why."""
    try:
        struct, fields, where = _struct(o, sources, include_dirs, opdir)
        if opdir is not None and struct is not None and _ut_stand_in(opdir, sources, struct,
                                                                     where):
            # CANN's kernel build generates the struct from the registered class; the op's
            # tests/ut header is its UT build's stand-in (ClippedSwiglu's packs it, `#pragma
            # pack(1)`, where metadef aligns each field).
            return None, (), None, CheckError(f"tiling struct {struct}: only the op's tests/ut "
                                              f"header ({where}) declares it")
        return struct, fields, where, None
    except CheckError as error:
        if opdir is None or not str(error).startswith("no tiling struct "):
            raise
        return None, (), None, error


def _defined_dtypes(o: CheckOptions, opdir: OpDir, ref: expected.Reference,
                    dtypes: tuple[str, ...], notes: list[str],
                    masks: set[int] | None = None) -> tuple[str, ...]:
    """The dtypes to run that the op's definition takes, its mask inputs and the optional
    inputs left out aside (ClippedSwiglu's int64 group_index; a note for
    those left out)."""
    supported = opdir.dtypes(masks or set())
    left_out = [d for d in dtypes if d not in supported]
    if left_out and o.dtypes:
        raise CheckError(f"--dtypes {','.join(left_out)}: {opdir.op.name}'s definition "
                         f"({opdir.def_names}) does not take them")
    dtypes = tuple(d for d in dtypes if d in supported)
    if left_out:
        notes.append(f"{', '.join(left_out)}: not in {opdir.op.name}'s definition, not run")
    if not dtypes:
        raise CheckError(f"{opdir.def_names}: {opdir.op.name} takes none of the dtypes the "
                         f"reference has ({', '.join(ref.dtypes)})")
    return dtypes


def _generated_struct(o: CheckOptions, sources: kernel_source.KernelSources,
                      include_dirs: tuple[Path, ...], opdir: OpDir,
                      host: host_tiling.HostTiling, missing: CheckError | None,
                      ) -> tuple[str | None, tuple[kernel_source.TilingField, ...], Path | None,
                                 CheckOptions]:
    """The tiling struct of a kernel that declares none (GET_TILING_DATA, or a struct named
    but not declared, or several named, one per tiling key): the one generated from the op's
    registered tiling-data class (with the others the header holds), force-included into the
    kernel build as CANN's build does; a kernel that reads the raw tiling itself keeps None.
    `missing`: why the struct the kernel names was not found."""
    named = o.tiling_struct or sources.tiling_struct_used
    several = () if named else sources.tiling_structs_used  # one per tiling key, say
    generated = host.tiling_data_header(*([named] if named else several)) \
        if missing is not None or sources.gets_tiling_data or several else None
    if generated is None or (missing is not None and named != generated[0]):
        if missing is not None:
            raise missing
        return None, (), None, o
    chosen = replace(o, tiling_struct=generated[0]) if several else o
    struct, fields, where = _struct(chosen, sources, include_dirs, opdir, generated)
    host.fields_of = struct
    return struct, fields, where, replace(o, forced_includes=(*o.forced_includes,
                                                              str(generated[1])))


def _guarded_header(path: Path | None) -> bool:
    """Whether `path` is a header that can be included twice (an include guard or #pragma
    once): one the build can force-include harmlessly."""
    if path is None or path.suffix not in (".h", ".hpp"):
        return False
    text = kernel_source.strip_comments(path.read_text(errors="replace"))
    return bool(re.search(r"^\s*#\s*(?:pragma\s+once|ifndef\s+\w+\s*\n\s*#\s*define)", text,
                          re.MULTILINE))


def _uses_op_dir(o: CheckOptions) -> bool:
    return (o.tiling_function is None and not o.tiling
            and (o.op is not None or o.reference is not None)
            and op_folder.is_op_folder(o.kernel))


HALVES_GRANULE = 32
"""A gated op's run whose size its tiling refuses is moved up to a multiple of 32 elements of
x (16 per half: a whole 32-byte block of f16 or bf16, two of f32), the alignment such tilings
ask of a half (SwigluClamp's)."""


def _check_halves_options(o: CheckOptions, ref: expected.Reference) -> None:
    """A gated or per-channel op's refusals: options that need tensors of one size."""
    if ref.halves is None:
        if ref.channels is not None and o.input_files:
            raise CheckError("--input: the per-channel weight has its own size; the checker "
                             "draws the tensors itself (give --sizes)")
        return
    rows = ref.halves.rows_only
    if o.ignore_nan_inputs:
        why = "each of its elements reads a whole row" if rows else "x holds twice its elements"
        raise CheckError(f"--ignore-nan-inputs: {ref.op}'s result does not match its inputs "
                         f"element for element ({why})")
    if o.input_files:
        what = "are rows of a length the size sets" if rows else "are of two sizes"
        raise CheckError(f"--input: {ref.op}'s tensors {what}; the checker draws them itself "
                         "(give --sizes)")


def _tensor_kinds(ref: expected.Reference, order: tuple[int, ...], elsewhere: set[int],
                  inputs: int, outputs: int) -> dict[tuple[str, int], str]:
    """A gated op's definition tensors by (input or output, position): their kind
    (hswc.checker.halves); empty for an op whose tensors share one size."""
    sizing = ref.sizing
    if sizing is None:
        return {}
    tensors = iter(order)
    kinds = {("input", k): sizing.inputs[ref.input_names[next(tensors)]]
             for k in range(inputs) if k not in elsewhere}
    if isinstance(sizing, Halves):
        return kinds | {("output", k): sizing.output(k) for k in range(outputs)}
    return kinds | {("output", k): sizing.result for k in range(outputs)}


def _output_dtypes(ref: expected.Reference, outputs: int) -> dict[tuple[str, int], str]:
    """The definition's outputs of another dtype than the run's (GeluQuant's int8 y and f32
    out_scale), by ("output", position): their numpy dtype names."""
    return {("output", k): ref.output_dtypes[k] for k in range(min(outputs,
                                                                   len(ref.output_dtypes)))
            if ref.output_dtypes[k]}


def _tensor_type_macros(o: CheckOptions, sources: kernel_source.KernelSources, opdir: OpDir,
                        own: Mapping[tuple[str, int], str]) -> CheckOptions:
    """`o` with the DTYPE_<NAME> and ORIG_DTYPE_<NAME> macros the kernel uses of the
    definition's outputs of another dtype than the run's (SwigluGroupQuant's DTYPE_Y
    fp8_e4m3fn_t, DTYPE_Y_SCALE float) defined to their type, as CANN's kernel build defines
    each tensor's from the op's definition; the others stay the run's (cases.build_specs)."""
    found = []
    for (_, k), numpy_name in own.items():
        name = opdir.op.outputs[k][0].upper()
        cpp, ge = TENSOR_TYPES[numpy_name]
        found += [f"{m}={v}" for m, v in ((f"DTYPE_{name}", cpp), (f"ORIG_DTYPE_{name}", ge))
                  if m in sources.dtype_macros]
    if not found:
        return o
    return replace(o, defines={**o.defines, None: (*o.defines.get(None, ()), *found)})


def _counted(opdir: OpDir | None, host: host_tiling.HostTiling | None, ref: expected.Reference,
             absent: frozenset[int], cases: list[Case], platform: Platform, notes: list[str]
             ) -> int | None:
    """A gated op folder's optional group_index left out (hswc.checker.counts): its position,
    and the runs given it added to `cases`."""
    if opdir is None or host is None or ref.halves is None:
        return None
    counted = counts.counts_input(opdir.op.inputs, opdir.op.optional_inputs)
    if counted is None or counted not in absent:
        return None
    cases += counts.counted_cases(cases, host, counted, platform.core_num, platform.ub_size)
    rest = "the rest as zeros" if ref.counted_rest_zero else "checking the rest unwritten"
    notes.append(f"{opdir.op.name}'s optional group_index (int64 counts): runs without it (every "
                 "row) and with counts summing below, at and above x's rows, each comparing the "
                 f"counted rows and {rest}")
    return counted


def _absent_outputs(opdir: OpDir | None, ref: expected.Reference, masks: Masks
                    ) -> expected.Reference:
    """An op folder's reference with the definition's optional outputs past its results left
    out (expected.with_absent_outputs; not past mask outputs, which follow the results)."""
    if opdir is None or masks.outputs:
        return ref
    return expected.with_absent_outputs(ref, opdir.absent_outputs(ref.result_count))


def _plan(o: CheckOptions, workdir: Path) -> Plan:
    include_dirs = tuple(Path(d) for d in o.include_dirs)
    opdir = None
    kernel: str | Path = o.kernel
    gm_only = asc_source.is_asc(o.kernel)
    if gm_only:  # an asc-devkit example: its device part, beside its own headers
        kernel = asc_source.device_source(Path(o.kernel), workdir)
        include_dirs = (*include_dirs, Path(o.kernel).parent)
    if _uses_op_dir(o) and not gm_only:
        opdir = open_op_dir(o.kernel, o.soc, builder.compiler(o.cxx), workdir)
        kernel = opdir.kernel
        include_dirs = (*include_dirs, *opdir.folder.kernel_include_dirs)
    sources = kernel_source.scan(kernel, o.entry, include_dirs, list(o.defines.get(None, ())),
                                 opdir.kernel_names() if opdir is not None else (), gm_only)
    ref, tiling_attrs, scalars, forward, absent, masks = _reference(o, opdir)
    tolerance = parse_tolerance(o.tolerance, ref.exact)
    mask_in, mask_out, hidden = masks.inputs, masks.outputs, masks.hidden
    ref = _absent_outputs(opdir, ref, masks)
    elsewhere = {*scalars, *forward, *absent, *mask_in}
    if opdir is not None and o.kernel_inputs is None:
        o = replace(o, kernel_inputs=opdir.kernel_inputs(ref.input_names, elsewhere))
    count_in = len(ref.input_names) - len(hidden) + len(elsewhere)
    tensors = tuple(a for k, a in enumerate(sources.entry.gm_arguments) if k not in elsewhere)
    order = argument_order(o, ref, replace(sources.entry, gm_arguments=tensors), hidden,
                           len(mask_out))
    _check_halves_options(o, ref)
    unknown = [n for n in o.ignore_nan_inputs if n not in ref.input_names]
    if unknown:
        raise CheckError(f"--ignore-nan-inputs {','.join(unknown)}: the reference's inputs are "
                         f"{', '.join(ref.input_names)}")
    struct, fields, struct_file, missing = _declared_struct(o, sources, include_dirs, opdir)
    if (opdir is not None and struct_file is not None and _guarded_header(struct_file)
            and kernel_source.reaches(sources.entry.source, struct_file) is False):
        # The UT variant of an entry (`#ifdef DTYPE_X`) leaves the tiling-data header out for
        # the UT build's own to define it; the header found is that definition (after the
        # AscendC header, which gives it its integer types as the UT build's includes do).
        first = str(builder.MODEL / "kernel_operator.h")
        o = replace(o, forced_includes=(*o.forced_includes, first, str(struct_file)))
    platform = _platform(o)
    user = load_inputs(o, ref)
    source = tiling_source(o)
    dtypes = dtypes_to_check(o, ref, user)
    notes = []
    host: host_tiling.HostTiling | None = None
    if opdir is not None:
        entry = sources.entry
        template = None if entry.template is None else [(t.name, t.is_type)
                                                        for t in entry.template]
        host = host_tiling.build(opdir.folder, opdir.op, tiling_attrs, struct,
                                 [f.name for f in fields], struct_file, template, opdir.cxx,
                                 workdir / "host", frozenset(scalars), absent,
                                 {(m.direction, m.position): m for m in (*mask_in.values(),
                                                                         *mask_out.values())},
                                 _tensor_kinds(ref, order, elsewhere, len(opdir.op.inputs),
                                               len(opdir.op.outputs)),
                                 _output_dtypes(ref, len(opdir.op.outputs)),
                                 ref.absent_outputs)
        if struct is None:
            struct, fields, struct_file, o = _generated_struct(o, sources, include_dirs, opdir,
                                                               host, missing)
            if struct is not None:
                notes.append(f"tiling struct {struct}: generated from the tiling-data class "
                             f"{host.op_type}'s tiling registers (REGISTER_TILING_DATA_CLASS), "
                             f"as CANN's kernel build does, and force-included ({struct_file})")
        source = replace(source, host=host.launch)
        o = _tensor_type_macros(o, sources, opdir, _output_dtypes(ref, len(opdir.op.outputs)))
        dtypes = _defined_dtypes(o, opdir, ref, dtypes, notes, {*mask_in, *absent})
    cases, instances = make_cases(o, sources.entry, ref, dtypes, source, platform, user,
                                  8 if masks.packed else (ref.halves.granule or HALVES_GRANULE)
                                  if ref.halves else 1,
                                  notes)
    counted = _counted(opdir, host, ref, absent, cases, platform, notes)
    known = {f.name for f in fields}
    for case in cases:
        unknown = sorted(set(case.launch.fields) - known)
        if unknown:
            raise CheckError(f"tiling of {case.size} {case.dtype} elements: {struct} has no "
                             f"field {', '.join(unknown)} (its fields: {', '.join(sorted(known))})")
    builds, shown = build_specs(o, sources, ref, cases, instances, struct, fields, include_dirs,
                                workdir, count_in, ref.result_count + len(mask_out))
    report = _report(sources, ref, order, platform, struct, shown, scalars, forward, absent,
                     masks, o.kernel, counted)
    if opdir is not None:
        files = ", ".join(str(f) for f in opdir.folder.tiling_files)
        renamed = opdir.folder.op_type not in (None, opdir.op.name)
        registered = (f", registered as {opdir.folder.op_type} (its binary configuration's op "
                      "type)") if renamed else ""
        report.notes.insert(0, f"tiling: {opdir.op.name}'s own{registered} ({files}), on the "
                               "CPU model of the tiling context")
    report.notes += notes
    report.tolerance = None if tolerance.exact else tolerance.describe()
    return Plan(o, sources, ref, order, fields, struct, cases, builds, platform.ub_size,
                report, workdir, o.work_dir is None, tolerance=tolerance,
                attribute_inputs=scalars, forward_inputs=forward, absent_inputs=absent,
                masks=masks, ub_physical=platform.ub_physical if o.ub_size is None else 0,
                counts_input=counted)


def build_plans(plans: Sequence[Plan]) -> None:
    """Compile every plan's executables at once. A dtype that does not compile is recorded in
    its report (its runs are dropped); a plan none of whose dtypes compiles is a CheckError
    with g++'s first errors."""
    if not plans:
        return
    first = plans[0].options
    with time_limits.limits(first.timeout, first.build_timeout):
        _build_plans(plans)


def _build_plans(plans: Sequence[Plan]) -> None:
    cxx = builder.compiler(plans[0].options.cxx)
    failed = builder.build_all([b for p in plans for b in p.builds.values()], cxx)
    for p in plans:
        broken = [d for d, b in p.builds.items() if b.output in failed]
        if broken and len(broken) == len(p.builds):
            lines = "\n".join(f"  {line}" for line in failed[p.builds[broken[0]].output])
            raise CheckError(f"the kernel {p.sources.entry.source} does not compile against "
                             f"hswc/checker/ascendc_cpu (for {', '.join(broken)}):\n{lines}")
        for dtype in broken:
            p.report.build_failures.append(
                BuildFailure(dtype, tuple(failed[p.builds.pop(dtype).output])))
        p.cases = [c for c in p.cases if c.dtype in p.builds]
        for dtype, spec in p.builds.items():
            if p.struct is not None:
                p.layouts[dtype] = parse_layout(p.struct, builder.layout_text(spec.output))


_REFERENCE_LOCK = threading.Lock()


def _kernel_folder(o: CheckOptions) -> Path:
    """The folder the report names the kernel's files from: the one given, or the .cpp's."""
    given = Path(o.kernel)
    return given if given.is_dir() else given.parent


def _profiled_case(p: Plan) -> int | None:
    """--profile: the run whose call stream is recorded, the largest of the first dtype."""
    if not p.options.profile or not p.cases:
        return None
    first = p.cases[0].dtype
    return max((k for k, c in enumerate(p.cases) if c.dtype == first),
               key=lambda k: p.cases[k].size)


def _profile_path(p: Plan) -> Path:
    return p.workdir / "profile.stream"


def _modelled(p: Plan, outcome: RunOutcome) -> str:
    """The cost model's line for the profiled run's recorded stream (hswc.cost_model.recorded),
    or why there is none; the times go into the report (CheckReport.modelled)."""
    from hswc.cost_model.recorded import RecordError, read_stream, time_run
    from hswc.cost_model.schedule import ScheduleError

    path = _profile_path(p)
    if outcome.failure is not None or not path.is_file():
        return "modelled: not timed: the profiled run did not finish"
    figures = get_platform(p.options.soc).cost
    if p.options.keep_stream is not None:
        shutil.copyfile(path, p.options.keep_stream)
    try:
        run = read_stream(path.read_text(), figures)
        if run.unmodelled:
            return ("modelled: not timed: the cost model has no rule for "
                    + ", ".join(run.unmodelled))
        times = time_run(run, figures)
        p.report.modelled = times
    except (RecordError, ScheduleError) as error:
        return f"modelled: not timed: {error}"
    finally:
        path.unlink(missing_ok=True)
    where = f" ({outcome.dtype}, n={outcome.size}, {outcome.block_dim} cores)"
    return times.line() + where


def _run_case(p: Plan, index: int, case: Case, tiling: bytes,
              profile: Path | None = None) -> RunOutcome:
    ref, o = p.reference, p.options
    values = case.user_inputs or tuple(inputs.draw(case.dtype, ref.thresholds,
                                                   len(ref.input_names), case.size))
    halves = ref.sizing  # a gated op's halves or a per-channel op's weight
    if halves is not None and case.user_inputs is None:
        values = tuple(halves.sized(ref.input_names, values, case.size))
    if ref.prepare is not None and case.user_inputs is None:
        values = tuple(ref.prepare(values))
    result_size = case.size if halves is None else halves.result_size(case.size)
    kernel_inputs = [values[i] for i in p.order]
    dtype = NUMPY[case.dtype]
    extra = {k: np.array([float(value)]).astype(dtype)
             for k, (_, value) in p.attribute_inputs.items()}
    if p.forward_inputs:
        x = values[ref.input_names.index("x")]
        with _REFERENCE_LOCK:
            extra |= {k: f.outputs(case.dtype, [x])[0] for k, f in p.forward_inputs.items()}
    extra |= {k: np.empty(0, dtype) for k in p.absent_inputs}  # the harness passes null
    written = _given_counts(p, case, extra)
    bits = p.masks.bits(ref, values)
    extra |= {k: m.pack(bits) for k, m in p.masks.inputs.items()}
    for k in sorted(extra):
        kernel_inputs.insert(k, extra[k])
    mask_out = p.masks.outputs
    outputs_of = [(np.dtype(np.uint8), mask_out[k].nbytes(case.size)) if k in mask_out
                  else (ref.output_dtype(k, dtype), _output_size(ref, k, case.size))
                  for k in range(ref.result_count + len(mask_out))]
    spec = p.builds[case.dtype]
    result = execute(spec.output, p.workdir / f"case{index}", kernel_inputs,
                     outputs_of, tiling, case.launch.block_dim,
                     case.launch.tiling_key, case.instance, p.ub_size,
                     p.sources.entry.gm_arguments, o.timeout, o.record_gm_reads, o.record_rules,
                     o.auto_sync, _kernel_folder(o), profile, p.ub_physical,
                     case.launch.workspace, written)
    outcome = RunOutcome(
        case.dtype, case.size, case.launch.block_dim, case.launch.fields,
        None if case.instance is None or spec.instances is None else spec.instances[case.instance],
        violations=result.violations, failure=result.failure, timed_out=result.timed_out,
        all_patterns=case.user_inputs is None and dtype.itemsize == 2 and case.size == 1 << 16,
        counted=None if case.counts is None else counts.describe(
            case.counts, rows_and_half(case.size)[0], ref.counted_rest_zero))
    if result.outputs is None:
        return outcome
    with _REFERENCE_LOCK:
        wanted = ref.outputs(case.dtype, values)
    wanted = counts.zeroed(wanted, case.counts if ref.counted_rest_zero else None, case.size)
    skip = np.zeros(result_size, bool)
    spread = values if ref.channels is None else ref.channels.spread(ref.input_names, values)
    for name in o.ignore_nan_inputs if ref.halves is None else ():  # refused for a gated op
        skip |= np.isnan(spread[ref.input_names.index(name)].astype(np.float32))
    outcome.ignored = int(skip.sum())
    undefined = ref.left_out(wanted) if ref.left_out is not None else None
    if undefined is not None:
        outcome.ignored = int(undefined[0].sum())
    undefined = counts.past(wanted, written, undefined)
    outcome.comparisons, outcome.differences = [], []
    shown = _shown_inputs(p, values, kernel_inputs, bits) if halves is None else \
        halves.aligned(ref.input_names, values, case.size)
    results = iter(wanted)
    for k, actual in _given_outputs(ref, result.outputs, results):
        if k in mask_out:
            _compare_mask(p, outcome, shown, mask_out[k].unpack(actual, case.size), bits, skip)
            continue
        expected_values = next(results)
        actual = np.where(skip if undefined is None else undefined[k], expected_values, actual)
        comparison = compare_bitwise(actual, expected_values)
        outcome.comparisons.append(comparison)
        if not p.tolerance.exact:
            ok, within = p.tolerance.compare(actual, expected_values)
            outcome.tolerance = p.tolerance.describe()
            outcome.measured.append((ok, within))
            if ok:
                outcome.differences.append([])
                continue
        outcome.differences.append(first_differences(shown, actual, expected_values,
                                                     comparison, o.first))
    return outcome


def _given_outputs(ref: expected.Reference, outputs: Sequence[np.ndarray],
                   wanted: Iterator[np.ndarray]) -> Iterator[tuple[int, np.ndarray]]:
    """The run's outputs by position, but the optional outputs left out (a null address:
    nothing written, nothing compared), whose expected (empty) results are passed over."""
    for k, actual in enumerate(outputs):
        if k in ref.absent_outputs:
            next(wanted)
            continue
        yield k, actual


def _given_counts(p: Plan, case: Case, extra: dict[int, np.ndarray]) -> list[int] | None:
    """A run given group_index (hswc.checker.counts): its counts put in `extra` at the absent
    input's place, and per output the leading elements the kernel writes; None otherwise."""
    if case.counts is None:
        return None
    assert p.counts_input is not None
    extra[p.counts_input] = np.array(case.counts, np.int64)
    ref = p.reference
    if ref.counted_rest_zero:
        return None  # every row written: the rest compared as zeros (counts.zeroed)
    return counts.written(case.counts, case.size, [_output_size(ref, k, case.size)
                                                   for k in range(ref.result_count)])


def _output_size(ref: expected.Reference, k: int, n: int) -> int:
    """Elements of output k in a run of size n."""
    sizing = ref.sizing
    if k in ref.absent_outputs:
        return 0
    if sizing is None:
        return n
    return sizing.output_size(k, n) if isinstance(sizing, Halves) else sizing.result_size(n)


def _shown_inputs(p: Plan, values: Sequence[np.ndarray], kernel_inputs: list[np.ndarray],
                  bits: np.ndarray) -> list[np.ndarray]:
    """The inputs a report's differences show: the kernel's, a mask as its element's bit,
    then the reference inputs the kernel takes only through its mask (the report's
    input_names)."""
    shown = [bits if k in p.masks.inputs else a for k, a in enumerate(kernel_inputs)]
    return shown + [values[p.reference.input_names.index(h)] for h in p.masks.hidden]


def _compare_mask(p: Plan, outcome: RunOutcome, shown: list[np.ndarray], actual: np.ndarray,
                  wanted: np.ndarray, skip: np.ndarray) -> None:
    """A mask output against the mask of the reference's comparison, bit for bit (within a
    --tolerance too), its padding bits and the elements left out (NaN x) aside."""
    actual = np.where(skip, wanted, actual)
    comparison = compare_masks(actual, wanted)
    assert outcome.comparisons is not None
    outcome.comparisons.append(comparison)
    if not p.tolerance.exact:
        first = comparison.first_index
        outcome.tolerance = p.tolerance.describe()
        outcome.measured.append((comparison.equal, ToleranceComparison(
            actual.size, np.inf if comparison.mismatches else 0.0, first,
            float(actual[first[0]]) if first else 0.0,
            float(wanted[first[0]]) if first else 0.0, comparison.mismatches, 0)))
    outcome.differences.append(first_differences(shown, actual, wanted, comparison,
                                                 p.options.first))


def configuration(case: Case) -> tuple[str, int | None, int]:
    """What a run builds and selects: its dtype, template instance and tiling key. A
    configuration that hangs once is not run again at other sizes."""
    return case.dtype, case.instance, case.launch.tiling_key


class _Hangs:
    """The configurations that timed out so far, each with its smallest size that did."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._first: dict[tuple[str, int | None, int], int] = {}

    def seen(self, case: Case) -> int | None:
        with self._lock:
            return self._first.get(configuration(case))

    def record(self, case: Case) -> None:
        with self._lock:
            key = configuration(case)
            self._first[key] = min(self._first.get(key, case.size), case.size)


def _skipped(p: Plan, case: Case, hung_at: int) -> RunOutcome:
    spec = p.builds[case.dtype]
    args = None if case.instance is None or spec.instances is None else (
        spec.instances[case.instance])
    return RunOutcome(case.dtype, case.size, case.launch.block_dim, case.launch.fields, args,
                      failure=f"not run: this configuration timed out at n={hung_at}",
                      skipped=True)


def run_plan(p: Plan) -> CheckReport:
    """Run every case (in parallel), compare, and fill in the report. A configuration
    (dtype, template instance, tiling key) whose run times out is not run at its other sizes:
    those runs say so instead of each waiting for the timeout."""
    tilings = [c.launch.raw if c.launch.raw is not None else
               b"" if p.sources.entry.gm_only else
               p.layouts[c.dtype].pack(c.launch.fields, p.fields,
                                       f"tiling of {c.size} {c.dtype} elements")
               for c in p.cases]
    jobs = p.options.jobs or os.cpu_count() or 1
    hangs = _Hangs()
    profiled = _profiled_case(p)

    def one(k: int) -> RunOutcome:
        case = p.cases[k]
        hung_at = hangs.seen(case)
        if hung_at is not None:
            return _skipped(p, case, hung_at)
        outcome = _run_case(p, k, case, tilings[k],
                            _profile_path(p) if k == profiled else None)
        if outcome.timed_out:
            hangs.record(case)
        return outcome

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        outcomes = list(pool.map(one, range(len(p.cases))))
    p.report.outcomes = outcomes
    if profiled is not None:
        p.report.profile = _modelled(p, outcomes[profiled])
    return p.report


def check(o: CheckOptions) -> CheckReport:
    """Plan, build and run one check (see the module docstring)."""
    p = plan(o)
    try:
        build_plans([p])
        return run_plan(p)
    finally:
        p.cleanup()


__all__ = ["CheckOptions", "CheckReport", "Plan", "build_plans", "check", "plan", "run_plan"]
