"""The computation a kernel is checked against: a named op, or a module of the user's.

`--op hsg.<op> --attr name=value` is the family op (FAMILY.md) under one of its semantics; its
results are hswc.reference's golden model (the op left at the hsg level runs it).
`--reference FILE.mlir` is a module whose function (one per dtype, or one function) holds the
computation, hsg ops or linalg.generic; hswc's interpreter runs it at its own level.

Either way the reference also yields the f32 values the computation compares with or is built
from (every float constant of its linalg form, attribute values included): the inputs
concentrate f32 samples around them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BFloat16Type,
    Float16Type,
    Float32Type,
    FloatAttr,
    ModuleOp,
    TensorType,
    UnrankedTensorType,
)
from xdsl.ir import Attribute, Block, Region
from xdsl.utils.exceptions import DiagnosticException, ParseError

from hswc.checker import group_quant
from hswc.checker.channels import Channels
from hswc.checker.dtypes import DTYPES, dtype_of_element
from hswc.checker.errors import CheckError
from hswc.checker.halves import WHOLE, Halves
from hswc.checker.halves import shape as halves_shape
from hswc.dialects import hsg
from hswc.dialects.hsg_gated_ops import GatedOp
from hswc.dialects.hsg_norm_ops import NormOp
from hswc.interpreter.errors import RunnerError

ELEMENT_TYPES: Mapping[str, Attribute] = {
    "f16": Float16Type(), "bf16": BFloat16Type(), "f32": Float32Type()}


Compute = Callable[[str, Sequence[np.ndarray]], Sequence[np.ndarray]]
"""(dtype, flat inputs) -> the expected results."""


@dataclass
class Reference:
    """What the kernel must compute, per dtype."""

    title: str
    input_names: tuple[str, ...]
    result_count: int
    compute: Compute
    shapes: dict[str, tuple[int, ...] | None]
    """dtype -> the static shape the function requires, or None for any size; the dtypes the
    reference has."""
    thresholds: tuple[float, ...] = ()
    op: str = ""
    """The named op it is the reference of (`--op`), else empty."""
    exact: bool = True
    """Whether the kernel must give the reference's bits (else, by default, PyTorch's
    tolerance of it: the exponential activations, hswc.checker.tolerance)."""
    halves: Halves | None = None
    """A gated op's tensors of two sizes (hswc.checker.halves); None: all of one size."""
    channels: Channels | None = None
    """A per-channel op's x and weight (hswc.checker.channels); None: all of one size."""
    attributes: Mapping[str, float | str | bool | None] = field(default_factory=dict)
    """The named op's attributes as compared, every one (given or its default): what
    bench/bench_vs_opsnn.py builds hswc's own kernel of the op from; empty for a module."""
    output_dtypes: tuple[str, ...] = ()
    """Each output's numpy dtype where it is not the run's (GeluQuant's int8 y and f32
    out_scale; "" for one of the run's); empty: every output of the run's dtype."""
    prepare: Callable[[Sequence[np.ndarray]], list[np.ndarray]] | None = None
    """What becomes of the drawn (and sized) inputs before a run (GeluQuant's: finite values,
    hswc.checker.quantized); None: they are run as drawn."""
    left_out: Callable[[Sequence[np.ndarray]], list[np.ndarray]] | None = None
    """From the expected outputs, each output's elements left out of the comparison (where the
    computation is undefined: a GeluQuant row whose scale is 0); None: none."""
    absent_outputs: frozenset[int] = frozenset()
    """The definition's optional outputs left out (`with_absent_outputs`): empty results, which
    the kernel gets as null GM addresses and the tiling does not see."""
    counted_rest_zero: bool = False
    """In a run given group_index (hswc.checker.counts), whether the rows past the counted
    ones are written as zeros (a gradient's: ClippedSwigluGrad) rather than left unwritten."""

    def output_dtype(self, k: int, run: np.dtype) -> np.dtype:
        """The numpy dtype of output k in a run of dtype `run`."""
        return np.dtype(self.output_dtypes[k]) if self.output_dtypes and self.output_dtypes[k] \
            else run

    @property
    def sizing(self) -> Halves | Channels | None:
        """How its tensors are sized when not all of one size: halves or channels."""
        return self.halves if self.halves is not None else self.channels

    @property
    def dtypes(self) -> tuple[str, ...]:
        return tuple(d for d in DTYPES if d in self.shapes)

    def outputs(self, dtype: str, inputs: Sequence[np.ndarray]) -> tuple[np.ndarray, ...]:
        """The expected results for flat `inputs` (reshaped to a static shape if the function
        has one), each flattened."""
        shape = self.shapes[dtype]
        args = [a.reshape(shape) if shape is not None else a for a in inputs]
        if self.halves is not None:
            n = next(a.size for name, a in zip(self.input_names, inputs, strict=True)
                     if self.halves.inputs[name] in WHOLE)
            args = [a.reshape(halves_shape(self.halves.inputs[name], n))
                    for name, a in zip(self.input_names, inputs, strict=True)]
        if self.channels is not None:  # the weight spread over x's shape by NumPy
            args = self.channels.spread(self.input_names, args)
        try:
            results = self.compute(dtype, args)
        except (RunnerError, ValueError) as error:
            raise CheckError(f"the reference failed on {inputs[0].size} {dtype} elements: "
                             f"{error}") from None
        return tuple(np.asarray(r).reshape(-1) for r in results)


def with_absent_outputs(ref: Reference, absent: frozenset[int]) -> Reference:
    """`ref` with the op definition's optional outputs it does not compute (OpDir.
    absent_outputs: positions past its results) as empty results, which the run passes as null
    GM addresses (the harness maps no memory for an output of 0 bytes)."""
    if not absent:
        return ref
    inner, total = ref.compute, ref.result_count + len(absent)

    def compute(dtype: str, args: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        given = iter(inner(dtype, args))
        return [np.empty(0, np.float32) if k in absent else next(given) for k in range(total)]

    dtypes = (*ref.output_dtypes, *(["float32"] * len(absent))) if ref.output_dtypes else ()
    return replace(ref, result_count=total, compute=compute, absent_outputs=absent,
                   output_dtypes=dtypes)


# region --op hsg.<name>


def named_op(name: str) -> type[hsg.NamedOp]:
    stem = name.removeprefix("hsg.")
    for op in hsg.NAMED_OPS:
        if op.name == f"hsg.{stem}":
            return op
    known = ", ".join(op.name for op in hsg.NAMED_OPS)
    raise CheckError(f"unknown op '{name}' (known: {known})")


def _option_values(op: type[hsg.NamedOp], attrs: Mapping[str, str]) -> dict[str, str | bool]:
    """The op's string / bool attributes among --attr (gelu's approximate=tanh, elu_grad's
    is_result=true), checked against their choices."""
    values: dict[str, str | bool] = {}
    for option in op.OPTIONS:
        if option.name not in attrs:
            continue
        text = attrs[option.name]
        if option.choices:
            if text not in option.choices:
                raise CheckError(f"--attr {option.name}={text}: must be {option.spelling()}")
            values[option.name] = text
        elif text in ("true", "false"):
            values[option.name] = text == "true"
        else:
            raise CheckError(f"--attr {option.name}={text}: must be true or false")
    return values


def _attribute_values(op: type[hsg.NamedOp], attrs: Mapping[str, str]) -> dict[str, float]:
    known = {spec.name: spec for spec in op.ATTRIBUTES}
    options = {o.name for o in op.OPTIONS}
    values: dict[str, float] = {}
    for name, text in attrs.items():
        if name in options:
            continue
        if name not in known:
            names = ", ".join(known) or "none"
            raise CheckError(f"{op.name} has no attribute '{name}' (its attributes: {names})")
        try:
            value = float(text)
        except ValueError:
            raise CheckError(f"--attr {name}={text}: not a number") from None
        if not math.isfinite(value):
            raise CheckError(f"--attr {name}={text}: {op.name}'s attributes must be finite")
        values[name] = value
    missing = [s.name for s in op.ATTRIBUTES if s.required and s.name not in values]
    if missing:
        raise CheckError(f"{op.name} needs --attr for {', '.join(missing)} (it has no default)")
    return values


def _op_module(op: type[hsg.NamedOp], dtype: str, attrs: Mapping[str, float]) -> ModuleOp:
    t = TensorType(ELEMENT_TYPES[dtype], [DYNAMIC_INDEX])
    block = Block(arg_types=[t] * len(op.INPUTS))
    for arg, name in zip(block.args, op.INPUTS, strict=True):
        arg.name_hint = name
    named = op(*block.args, **{k: FloatAttr(v, Float32Type()) for k, v in attrs.items()})
    block.add_ops([named, func.ReturnOp(named.result)])
    fn = func.FuncOp(f"{op.name.removeprefix('hsg.')}_{dtype}", ([t] * len(op.INPUTS), [t]),
                     Region(block))
    return ModuleOp([fn])


def from_op(name: str, attrs: Mapping[str, str], semantics: str | None) -> Reference:
    """The reference of `--op NAME --attr k=v ...` under `semantics` (default: the op's): the
    golden model hswc.reference.OP_REFERENCES holds for it."""
    from hswc.ops import definition_of
    from hswc.reference import OP_REFERENCES
    from hswc.runner import compile_module

    op = named_op(name)
    values = _attribute_values(op, attrs)
    options = _option_values(op, attrs)
    stem = op.name.removeprefix("hsg.")
    known = tuple(definition_of(op.name).semantics)
    chosen = semantics or known[0]
    if chosen not in known:
        raise CheckError(f"{op.name} has no semantics '{chosen}' (it has: {', '.join(known)})")
    try:  # the op's verifier checks the attributes (range, order) as hswc-opt would
        linalg = compile_module(_op_module(op, "f32", values), level="linalg", semantics=chosen)
    except RunnerError as error:
        raise CheckError(f"{op.name}: {_plain(str(error))}") from None
    model = OP_REFERENCES[(stem, chosen)]
    given: dict[str, float | None] = {}
    for s in op.ATTRIBUTES:  # one left out that follows another takes its value
        given[s.name] = values.get(s.name, given[s.same_as] if s.same_as else s.default)
    shown = ", ".join(f"{k} = {v}" for k, v in {**given, **options}.items())
    title = f"{op.name}{' {' + shown + '}' if shown else ''}, {chosen} semantics"
    return Reference(title, op.INPUTS, 1,
                     lambda _dtype, args: (model(*args, **given, **options),),
                     dict.fromkeys(DTYPES), float_constants(linalg.module), op.name,
                     exact=definition_of(op.name).exact, attributes={**given, **options})


def is_relu_mask(name: str) -> bool:
    """Whether `name` is hsg.relu_mask (`relu_mask` too): y and a mask, no attributes."""
    from hswc.dialects.hsg_relu_mask import ReluMaskOp

    return f"hsg.{name.removeprefix('hsg.')}" == ReluMaskOp.name


def from_relu_mask(name: str, attrs: Mapping[str, str]) -> Reference:
    """The reference of `--op hsg.relu_mask`: its y, of hswc.reference_relu_mask's golden
    model; its mask is a mask tensor of the op definition (hswc.checker.masks), compared bit
    for bit with the same model's mask."""
    from hswc.reference_relu_mask import relu_mask

    if attrs:
        raise CheckError(f"{name} takes no attributes (--attr {next(iter(attrs))})")
    return Reference("hsg.relu_mask (y; the mask x > 0 as a mask tensor)", ("x",), 1,
                     lambda _dtype, args: (relu_mask(args[0])[0],), dict.fromkeys(DTYPES),
                     (0.0,), "hsg.relu_mask", exact=True, attributes={})


def _plain(message: str) -> str:
    """A diagnostic without its location prefix (the module was built, not written)."""
    return message.split("error: ", 1)[-1]


# endregion
# region --op hsg.<gated op>

GATED_FIXED = {"threshold": 0.5}
"""The values of the gated ops' one-element operands in a check (FatreluMul's threshold; the
drawn inputs concentrate around it)."""


OPSNN_APPROXIMATE = {"0": "none", "1": "tanh"}
"""ops-nn's GeGluV2 and GeGluGradV2 give `approximate` as an index (their READMEs: 0 "none",
1 "tanh"; the definitions' default 1), which a gated op's --attr takes for the name."""


def gated_op(name: str) -> type[GatedOp] | None:
    """The gated op (hswc.dialects.hsg_gated_ops, hsg_gated_variants) called `name`, or None."""
    from hswc.dialects.hsg_gated_ops import GATED_OPS
    from hswc.dialects.hsg_gated_variants import GATED_VARIANTS
    from hswc.dialects.hsg_group_quant import SwigluGroupQuantOp
    from hswc.dialects.hsg_group_quant_grad import SwigluGroupQuantGradOp

    stem = name.removeprefix("hsg.")
    for op in (*GATED_OPS, *GATED_VARIANTS, SwigluGroupQuantOp, SwigluGroupQuantGradOp):
        if op.name == f"hsg.{stem}":
            return op
    return None


def _gated_defaults(op: type[GatedOp]) -> dict[str, object]:
    """The op's attributes and their defaults."""
    from hswc.dialects.hsg_gated_variants import GatedVariantOp

    if issubclass(op, GatedVariantOp):
        return dict(op.DEFAULTS)
    return {k: v for k, v in (("dim", -1), ("approximate", "none"), ("activate_left", True))
            if k == "dim" or op.GELU}


def gated_op_inputs(name: str) -> tuple[str, ...]:
    op = gated_op(name)
    assert op is not None
    return op.INPUTS


def gated_attribute_names(op: type[GatedOp]) -> tuple[str, ...]:
    return tuple(_gated_defaults(op))


def _gated_attributes(op: type[GatedOp], attrs: Mapping[str, str]) -> dict[str, object]:
    """--attr values as the op's attributes (a float, a bool, an int or a string, as its
    default is)."""
    defaults = _gated_defaults(op)
    values: dict[str, object] = {}
    for name, text in attrs.items():
        if name not in defaults:
            raise CheckError(f"{op.name} has no attribute '{name}' (its attributes: "
                             f"{', '.join(defaults) or 'none'})")
        default = defaults[name]
        if name == "approximate" and text in OPSNN_APPROXIMATE:
            text = OPSNN_APPROXIMATE[text]
        try:
            if isinstance(default, bool):
                if text not in ("true", "false"):
                    raise ValueError
                values[name] = text == "true"
            elif isinstance(default, int):
                values[name] = int(text)
            elif isinstance(default, float):
                values[name] = float(text)
            else:
                values[name] = text
        except ValueError:
            raise CheckError(f"--attr {name}={text}: {op.name}'s {name} is "
                             f"{type(default).__name__} (e.g. {str(default).lower()})") from None
    if values.get("dim", -1) not in (-1,):
        raise CheckError(f"--attr dim={values['dim']}: the checker splits the last dim (-1), "
                         "as ops-nn's gated kernels do by default")
    return values


def _gated_module(op: type[GatedOp], dtype: str, attrs: Mapping[str, object]) -> ModuleOp:
    """The op on a small static x (2 x 8) of `dtype`: what the verifier checks and the float
    constants come from."""
    element = ELEMENT_TYPES[dtype]
    x = TensorType(element, [2, 8])
    half = TensorType(element, [2, 4])
    types = [half if name in op.half_inputs() else TensorType(element, [1])
             if name in GATED_FIXED else x for name in op.INPUTS]
    block = Block(arg_types=types)
    gated = op(*block.args, **attrs)  # type: ignore[arg-type]
    block.add_ops([gated, func.ReturnOp(*gated.results)])
    fn = func.FuncOp(f"{op.name.removeprefix('hsg.')}_{dtype}",
                     (types, [r.type for r in gated.results]),
                     Region(block))
    return ModuleOp([fn])


def from_gated_op(name: str, attrs: Mapping[str, str]) -> Reference:
    """The reference of `--op` a gated op: its golden model (hswc.reference_gated) on x of
    [rows, 2H] (hswc.checker.halves), compared within PyTorch's tolerance."""
    from hswc.dialects.hsg_gated_variants import GatedVariantOp
    from hswc.reference_gated import run_gated_reference, run_variant_outputs
    from hswc.runner import compile_module

    op = gated_op(name)
    assert op is not None
    values = _gated_attributes(op, attrs)
    if group_quant.is_group_quant(op.name):
        return _from_group_quant(op, values)
    try:
        linalg = compile_module(_gated_module(op, "f32", values), level="linalg")
    except RunnerError as error:
        raise CheckError(f"{op.name}: {_plain(str(error))}") from None
    kinds = {n: "half" if n in op.half_inputs() else "one" if n in GATED_FIXED else "x"
             for n in op.INPUTS}
    halves = Halves(kinds, "x" if op.gradient() else "half",
                    {n: GATED_FIXED[n] for n in op.INPUTS if n in GATED_FIXED})
    variant = issubclass(op, GatedVariantOp)
    options = {k: v for k, v in values.items() if k != "dim"}
    if "dim" in _gated_defaults(op):
        options["dim"] = -1

    def compute(_dtype: str, args: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        if variant:  # GeGluV2: y and gelu
            return run_variant_outputs(op.name, list(args), **options)
        return (run_gated_reference(op.name, list(args), **options),)

    shown = ", ".join(f"{k} = {v}" for k, v in values.items())
    thresholds = tuple(sorted({*float_constants(linalg.module), *halves.fixed.values()}))
    return Reference(f"{op.name}{' {' + shown + '}' if shown else ''} (x of [rows, 2H], its "
                     "last dim split)", op.INPUTS, op.RESULTS, compute, dict.fromkeys(DTYPES),
                     thresholds, op.name, exact=False, halves=halves,
                     counted_rest_zero=op.gradient())


def _from_group_quant(op: type[GatedOp], attrs: Mapping[str, object]) -> Reference:
    """The reference of `--op hsg.swiglu_group_quant` (hswc.checker.group_quant): the op as
    hswc compiles it, run by hswc's interpreter on x of [rows, 2H]; y (8-bit floats), y_scale
    and an empty y_origin compared bit for bit."""
    values = {**_gated_defaults(op), **attrs}
    halves = Halves({"x": "x"}, "half", outputs=group_quant.output_kinds(values),
                    granule=group_quant.GRANULE)
    from hswc.runner import compile_text

    try:
        linalg = compile_text(group_quant.module_text(2, group_quant.GRANULE, "bf16", values),
                              level="linalg", soc="ascend950")
    except RunnerError as error:
        raise CheckError(f"{op.name}: {_plain(str(error))}") from None

    def compute(dtype: str, args: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        return group_quant.outputs(dtype, args, values)

    shown = ", ".join(f"{k} = {v}" for k, v in attrs.items())
    return Reference(f"{op.name}{' {' + shown + '}' if shown else ''} (x of [rows, 2H], its "
                     "last dim split; hswc's decomposition run by its interpreter)", ("x",), 3,
                     compute, {"f16": None, "bf16": None},
                     tuple(sorted(float_constants(linalg.module))), op.name, exact=True,
                     halves=halves, attributes=dict(values),  # type: ignore[arg-type]
                     output_dtypes=group_quant.output_dtypes(values),
                     left_out=lambda wanted: [np.zeros(np.asarray(w).size, bool) for w in wanted])


# endregion
# region --op hsg.<reduction along the last dim>

ROW_OPS = ("hsg.softmax", "hsg.log_softmax", "hsg.softmax_grad", "hsg.log_softmax_grad")
"""The reductions the checker compares (hswc.dialects.hsg_norm_ops): every tensor of one
shape, reduced along its last dim. The norms (a weight one row long) are not among them."""


def row_op(name: str) -> type[NormOp] | None:
    """The op of ROW_OPS called `name` (with or without `hsg.`), or None."""
    from hswc.dialects.hsg_norm_ops import NORM_OPS

    full = f"hsg.{name.removeprefix('hsg.')}"
    if full not in ROW_OPS:
        return None
    return next(op for op in NORM_OPS if op.name == full)


def _row_attributes(op: type[NormOp], attrs: Mapping[str, str]) -> int:
    """The dim --attr gives (default -1): only the last dim, the one ops-nn's kernels reduce
    by default (axes = [-1]); 3 is the last dim of tensors viewed as [1, 1, rows, L] (halves'
    "x4": a tiling that takes 4-d tensors and a dim in [0, 3])."""
    for name in attrs:
        if name != "dim":
            raise CheckError(f"{op.name} has no attribute '{name}' (its attributes: dim)")
    text = attrs.get("dim", "-1")
    try:
        dim = int(text)
    except ValueError:
        raise CheckError(f"--attr dim={text}: {op.name}'s dim is an integer (e.g. -1)") from None
    if dim not in (-1, 3):
        raise CheckError(f"--attr dim={dim}: the checker reduces the last dim (-1, or 3 of "
                         "tensors viewed as [1, 1, rows, L]), the one ops-nn's softmax kernels "
                         "reduce by default (axes = [-1])")
    return dim


def from_row_op(name: str, attrs: Mapping[str, str]) -> Reference:
    """The reference of `--op` a reduction of ROW_OPS: its float64 model (hswc.reference_norms)
    rounded once, on tensors of [rows, L] reduced along L (hswc.checker.halves' x: L up to 1024),
    compared within PyTorch's tolerance."""
    from hswc.reference_norms import run_reference
    from hswc.runner import compile_module

    op = row_op(name)
    assert op is not None
    dim = _row_attributes(op, attrs)
    t = TensorType(Float32Type(), [2, 8] if dim == -1 else [1, 1, 2, 8])
    block = Block(arg_types=[t] * len(op.INPUTS))
    reduced = op(*block.args, dim=dim)
    block.add_ops([reduced, func.ReturnOp(reduced.results[0])])
    module = ModuleOp([func.FuncOp(f"{op.name.removeprefix('hsg.')}_f32",
                                   ([t] * len(op.INPUTS), [t]), Region(block))])
    try:
        linalg = compile_module(module, level="linalg")
    except RunnerError as error:
        raise CheckError(f"{op.name}: {_plain(str(error))}") from None
    kind = "x" if dim == -1 else "x4"
    rows = Halves(dict.fromkeys(op.INPUTS, kind), kind)

    def compute(_dtype: str, args: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        return (run_reference(op.name, list(args), dim=dim),)

    shaped = "[rows, L]" if dim == -1 else "[1, 1, rows, L]"
    return Reference(f"{op.name} {{dim = {dim}}} (every tensor of {shaped}, reduced along L)",
                     op.INPUTS, 1, compute, dict.fromkeys(DTYPES),
                     float_constants(linalg.module), op.name, exact=False, halves=rows,
                     attributes={"dim": dim})


# endregion
# region --op gelu_quant (hswc.checker.quantized)


def from_quantized(name: str, attrs: Mapping[str, str]) -> Reference:
    """The reference of `--op gelu_quant`: the generic of hswc.checker.quantized run by hswc's
    interpreter on x of [rows, L] and the smooth scales of [L] (the static mode: input_scale
    and input_offset of [L] or of one element); y (int8) and out_scale (f32) compared bit for
    bit (the static mode: y alone, out_scale a null address)."""
    from hswc.checker import quantized

    values = quantized.attributes(attrs)
    names = quantized.input_names(values)
    halves = Halves(quantized.kinds(values), "x", outputs=quantized.output_kinds(values))
    static = quantized.is_static(values)

    def compute(dtype: str, args: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        return quantized.outputs(dtype, args, values)

    def prepare(args: Sequence[np.ndarray]) -> list[np.ndarray]:
        return quantized.defined(args, args[0].size // args[1].size, static)

    shown = ", ".join(f"{k} = {v}" for k, v in values.items())
    how = ("gelu, times input_scale, plus input_offset, round half to even to int8; "
           "out_scale a null address" if static else
           "gelu, times input_scale, max |g| / 127 per row, round half to even to int8")
    return Reference(f"{name} {{{shown}}}: hswc.checker.quantized's generic ({how}), x of "
                     "[rows, L]", names, len(quantized.OUTPUT_DTYPES), compute,
                     dict.fromkeys(DTYPES), (-3.0, -1.0, 0.0, 1.0, 3.0), name, exact=True,
                     halves=halves, attributes=dict(values),
                     output_dtypes=quantized.OUTPUT_DTYPES, prepare=prepare,
                     left_out=lambda wanted: quantized.left_out(values, wanted))


# endregion
# region --op <row generic> (hswc.checker.row_generics)


def from_row_generic(name: str, attrs: Mapping[str, str]) -> Reference:
    """The reference of `--op` a reduction of hswc.checker.row_generics: its linalg.generics
    run by hswc's interpreter on tensors of [rows, L] (and [rows], [L], [1] by kind), compared
    within PyTorch's tolerance. The definition's attributes (its reduced axes) are its tiling's
    alone: the generic is written for their defaults."""
    from hswc.checker import row_generics

    g = row_generics.ROW_GENERICS[name]
    halves = Halves(g.kinds, "x", outputs=g.outputs)

    def compute(dtype: str, args: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        return row_generics.outputs(name, dtype, args)

    def left_out(wanted: Sequence[np.ndarray]) -> list[np.ndarray]:
        return [np.zeros(np.asarray(w).size, bool) for w in wanted]

    return Reference(f"{name}: hswc.checker.row_generics' generic ({g.formula}), every tensor "
                     "of [rows, L] reduced along L unless its kind says otherwise, run by hswc's "
                     "interpreter", g.input_names, len(g.outputs), compute,
                     dict.fromkeys(DTYPES), (-3.0, -1.0, 0.0, 1.0, 3.0), name, exact=False,
                     halves=halves, left_out=left_out)


# endregion
# region --reference FILE.mlir


def _function_dtype(fn: func.FuncOp, path: str) -> tuple[str, tuple[int, ...] | None]:
    types = [*fn.function_type.inputs, *fn.function_type.outputs]
    dtypes, shapes = set(), set()
    for t in types:
        if not isinstance(t, TensorType | UnrankedTensorType):
            raise CheckError(f"{path}: @{fn.sym_name.data} takes or returns {t}; the reference "
                             "must take and return tensors")
        dtype = dtype_of_element(t.get_element_type())
        if dtype is None:
            raise CheckError(f"{path}: @{fn.sym_name.data} uses {t}: the kernels checked are "
                             "f16, bf16 or f32")
        dtypes.add(dtype)
        if isinstance(t, UnrankedTensorType) or (len(t.get_shape()) in (1, 2)
                                                  and all(d < 0 for d in t.get_shape())):
            shapes.add(None)  # ?x?: [rows, L] as the sweep's halves give it (CheckOptions)
        elif all(d >= 0 for d in t.get_shape()):
            shapes.add(tuple(t.get_shape()))
        else:
            raise CheckError(f"{path}: @{fn.sym_name.data} uses {t}: give tensor<?xT> or "
                             "tensor<*xT> (any size), tensor<?x?xT> or a static shape")
    if len(dtypes) != 1 or len(shapes) != 1:
        raise CheckError(f"{path}: @{fn.sym_name.data} mixes element types or shapes; the "
                         "kernel's tensors share one dtype and size")
    return dtypes.pop(), shapes.pop()


def _load(path: str) -> ModuleOp:
    from hswc.diagnostics import LocatingParser, format_parse_error
    from hswc.pipeline import DIALECTS
    from hswc.source_text import SourceError, decode

    try:
        text = decode(Path(path).read_bytes(), path)
    except OSError as error:
        raise CheckError(f"cannot read reference '{path}': {error.strerror or error}") from None
    except SourceError as error:
        raise CheckError(str(error)) from None
    ctx = Context()
    for name, factory in DIALECTS.items():
        ctx.register_dialect(name, factory)
    try:
        return LocatingParser(ctx, text, path).parse_module()
    except ParseError as error:
        raise CheckError(format_parse_error(error)) from None
    except DiagnosticException as error:
        raise CheckError(str(error)) from None


def from_file(path: str, function: str | None, semantics: str | None) -> Reference:
    """The reference of `--reference FILE`: each function (or only `function`) checks the dtype
    it takes."""
    from hswc.runner import CompileError, Kernel, compile_module

    module = _load(path)
    functions = {op.sym_name.data: op for op in module.ops if isinstance(op, func.FuncOp)
                 and not hsg.is_kernel(op) and not hsg.is_tiling(op) and op.body.blocks}
    names = list(functions)
    if function is not None:
        if function not in names:
            raise CheckError(f"{path} has no function @{function} (functions: "
                             f"{', '.join('@' + n for n in names) or 'none'})")
        names = [function]
    if not names:
        raise CheckError(f"{path} holds no function to check against")
    kernels: dict[str, Kernel] = {}
    shapes: dict[str, tuple[int, ...] | None] = {}
    arities = set()
    try:
        for name in names:
            kernel = compile_module(module, level="linalg", function=name, semantics=semantics)
            dtype, shape = _function_dtype(functions[name], path)
            if dtype in kernels:
                raise CheckError(f"{path}: two functions take {dtype}; name one with --function")
            kernels[dtype], shapes[dtype] = kernel, shape
            arities.add((tuple(n or f"arg{i}" for i, n in enumerate(kernel.arg_names)),
                         len(kernel.result_types)))
    except CompileError as error:
        raise CheckError(str(error)) from None
    if len(arities) != 1:
        raise CheckError(f"{path}: the functions take different inputs or return different "
                         "numbers of results")
    inputs, results = arities.pop()
    title = f"{path} ({', '.join('@' + n for n in names)}), run by hswc's interpreter"
    constants = sorted({c for k in kernels.values() for c in float_constants(k.module)})
    return Reference(title, inputs, results,
                     lambda dtype, args: kernels[dtype].run(*args).outputs, shapes,
                     tuple(constants))


# endregion


def float_constants(module: ModuleOp) -> tuple[float, ...]:
    """Every finite float constant of the module, sorted, without repeats."""
    found = set()
    for op in module.walk():
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, FloatAttr):
            v = float(op.value.value.data)
            if math.isfinite(v):
                found.add(v)
    return tuple(sorted(found))
