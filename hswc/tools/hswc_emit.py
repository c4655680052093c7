"""hswc-emit: write the ops-nn operator package of the operator an MLIR module holds.

    hswc-emit in.mlir -o DIR [--force | --force-overwrite-edits]
              [--soc ascend910b --soc ascend910_93 --soc ascend950] [--semantics cann|torch]
              [--name OpType [--aclnn aclnnName]] [--function F]

The input may hold a named op (`hsg.leaky_relu_grad`, any of the family), a user's
`linalg.generic` (a fused chain included), both lowered first with the --lower-to-ascend
pipeline (`--semantics` for hsg-decompose), or an already lowered module. A package holds one
operator:
- a named op gets ops-nn's names: its op type (LeakyReluGrad, ThresholdGradV2D, ...), its
  aclnn API (aclnnLeakyReluBackward) with its attributes where ops-nn's header has them, and
  its docs and example data from hswc.ops;
- a module whose only operator is one row op (hsg.softmax, hsg.rms_norm, ...: `row_op_type`)
  is packaged as a generated row operator named after it (Softmax, RmsNorm) unless `--name`
  names it otherwise;
- a generic needs `--name OpType` (CamelCase, as ops-nn spells op types) and may take
  `--aclnn aclnnName` (default aclnn<OpType>); its inputs are named after the function's
  arguments, the scalars its body captures become its attributes, and its docs show its body;
- a module with several operators is refused, naming them, unless `--function F` picks the
  host function whose operator to package: then only @F and the functions it calls or launches
  are lowered, and the module's other functions are ignored.
`--soc` names the SoCs the op definition registers (default: the A2/A3 SoCs, `PACKAGE_SOCS`).
`--soc ascend950` (`ARCH35_SOCS`) lowers the module a second time for that SoC, as hswc-run
does (its semantics where the named ops have them, its schedule, its API table), and writes
that operator in ops-nn's arch35 layout (hswc.backend.package_arch35), beside the A2/A3 layout
when A2/A3 SoCs are named too; a module given lowered cannot be packaged for it. The
package is written all at once (into a temporary folder next to DIR, then moved into place),
and only after every check passed: DIR must be new or empty unless `--force` is given, and then
only the files of the package (and of an earlier one, listed with their SHA-256 in
DIR/.hswc-package) change, each listed on stderr; a file that changed since hswc-emit wrote it
is not overwritten or removed (the write is refused, naming it) without
`--force-overwrite-edits`.
Errors (unreadable file, text that is not UTF-8, invalid IR, an op the printer has no rule
for, a kernel whose UB plan overflows a target SoC, a module with no operator or several, a
bad --name, a folder that cannot take the package, an Ascend 950 package of a lowered module,
a usage error) print one message and exit 1, and write nothing.

Reductions along the last dims (the softmax family, the norms) are lowered with rows=true, as
hswc-opt lowers them, into row kernels, and packaged like any kernel: their tiling counts rows
(the output's elements / the row length), and each input has the static shape its kernel was
compiled for, or of a run-time row count its rank and static dims with the rows' dims of the
first input (hswc.backend.run_time_shapes.row_run_time_shapes), which the host tiling checks.
A reduction over leading dims (`x.sum(dim=(0, 2, 3))`) is packaged as one kernel whose rows are
strided runs, a kept channel a core: hsg-tile-on-cores{split=false}, since the two kernels of
its split for few channels (hswc.passes.row_split) would pass a workspace of partials from one
operator to the next; a module given lowered with the split is refused, saying so.
"""

from __future__ import annotations

from hswc.tools.startup import importing, parsing

with importing():
    import argparse
    import re
    import sys
    from collections.abc import Sequence
    from dataclasses import dataclass, field
    from io import StringIO
    from pathlib import Path
    from typing import TYPE_CHECKING

    from xdsl.context import Context
    from xdsl.dialects import func
    from xdsl.dialects.builtin import ModuleOp, StringAttr, SymbolRefAttr
    from xdsl.dialects.linalg.ops import GenericOp
    from xdsl.ir import Block, SSAValue
    from xdsl.passes import ModulePass
    from xdsl.printer import Printer
    from xdsl.utils.exceptions import DiagnosticException, ParseError

    from hswc.diagnostics import (
        LocatingParser,
        check_compilable,
        format_parse_error,
    )
    from hswc.dialects import hsg
    from hswc.memory_budget import check_fits
    from hswc.pass_checks import apply_checked
    from hswc.pipeline import DIALECTS, LOWER_TO_ASCEND, PASSES
    from hswc.platform import PLATFORMS
    from hswc.remarks import Remark, collecting, print_remarks
    from hswc.source_text import SourceError, decode
    from hswc.tools.cli import TOO_DEEP, add_version_option, exit_status, report
    from hswc.verification import verify_located
    from hswc.verification_cache import VerifiedOps

    if TYPE_CHECKING:
        from hswc.backend.package_output import Written

OP_TYPE = re.compile(r"[A-Z][A-Za-z0-9]{0,63}")
ACLNN = re.compile(r"aclnn[A-Z][A-Za-z0-9]{0,63}")


def _semantics() -> list[str]:
    from hswc.ops import OPS

    return sorted({s for d in OPS.values() for s in d.semantics})


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="hswc-emit",
        description="Write the ops-nn operator package of the operator a module holds: a named "
                    "op with ops-nn's names, or a generic named with --name.")
    add_version_option(parser)
    parser.add_argument("input", help="MLIR file ('-' for stdin)")
    parser.add_argument("-o", "--output", required=True,
                        help="directory to write the package into (new or empty)")
    parser.add_argument("--force", action="store_true",
                        help="write into a folder that holds files: replace the package's "
                             "files there and remove those of an earlier package it no longer "
                             "writes, each listed on stderr (other files are kept); a file "
                             "that changed since hswc-emit wrote it stops the write")
    parser.add_argument("--force-overwrite-edits", action="store_true",
                        help="--force, and replace or remove files that changed since "
                             "hswc-emit wrote them (or that it did not write) too")
    parser.add_argument("--soc", action="append", choices=sorted(PLATFORMS),
                        help="SoC to register in the op definition (repeatable; default: the Atlas "
                             f"A2/A3 SoCs, {', '.join(PACKAGE_SOCS)})")
    parser.add_argument("--semantics", choices=_semantics(),
                        help="decompose the named ops with these semantics (default: each op's "
                             "own); for a lowered module, the semantics it was lowered with")
    parser.add_argument("--name", metavar="OpType",
                        help="op type of a generic operator (no named op): CamelCase, as "
                             "ops-nn spells op types, e.g. GradTimesScale (default for a "
                             "module of one row op: its name, e.g. Softmax)")
    parser.add_argument("--aclnn", metavar="aclnnName",
                        help="aclnn API of a generic operator (default: aclnn<OpType>)")
    parser.add_argument("--function", metavar="F",
                        help="package the operator that host function @F launches (needed when "
                             "the module holds several operators)")
    return parser.parse_args(argv)


@dataclass
class Lowered:
    """A module lowered to the ascend dialect, and what its lowering showed."""

    module: ModuleOp
    named: frozenset[str] | None = None
    """The operators that came from named ops; None: the module was given lowered."""
    bodies: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Kernel function -> its elementwise body (IR text), as hsg-tile-on-cores made it."""
    semantics: str | None = None
    """The semantics the named ops were decomposed with (None: each op's default)."""
    name: str | None = None
    """The op type of the module's one row op (hsg.softmax -> Softmax: `row_op_type`), when
    no --name was given; None: none derived."""


def _pass(name: str, semantics: str | None, kernel_name: str | None,
          soc: Lowering | None = None) -> ModulePass:
    """The pass `name` of --lower-to-ascend; `soc`: the schedule and API table of an SoC with
    kernels of its own (None: A2/A3's, the passes' defaults)."""
    from hswc.passes.convert_hsg_to_ascend import ConvertHsgToAscendPass
    from hswc.passes.hsg_decompose import HsgDecomposePass
    from hswc.passes.hsg_tile_on_cores import HsgTileOnCoresPass

    if name == HsgDecomposePass.name:
        return HsgDecomposePass(semantics=semantics)
    if name == HsgTileOnCoresPass.name:
        # split=False: a package is one kernel (module docstring); share_shapes=False: of
        # the static shapes its example runs (a kernel shared across channel counts is not)
        if soc is not None:
            return HsgTileOnCoresPass(kernel_name=kernel_name, split=False, variant=soc.variant,
                                      api=soc.api, share_shapes=False)
        return HsgTileOnCoresPass(kernel_name=kernel_name, split=False, share_shapes=False)
    if name == ConvertHsgToAscendPass.name and soc is not None:
        return ConvertHsgToAscendPass(variant=soc.variant, api=soc.api)
    return PASSES[name]()()


@dataclass(frozen=True)
class Lowering:
    """How an SoC with kernels of its own (Ascend 950) lowers a module."""

    variant: str | None
    """The schedule preset (None: the reference schedule)."""
    api: str
    """Its column of the API table."""


def _bodies(module: ModuleOp) -> dict[str, tuple[str, ...]]:
    """Each kernel's elementwise body, printed as the IR holds it (after hsg-tile-on-cores)."""
    found: dict[str, tuple[str, ...]] = {}
    for fn in module.ops:
        sym = fn.properties.get("sym_name")
        if not hsg.is_kernel(fn) or not isinstance(sym, StringAttr):
            continue
        for op in fn.walk():
            if isinstance(op, hsg.ElementwiseSliceOp):
                stream = StringIO()
                Printer(stream=stream).print_block(op.body.block)
                found[sym.data] = tuple(line for line in stream.getvalue().splitlines() if line)
    return found


def _keep_only(module: ModuleOp, function: str) -> None:
    """Erase the module's functions that are not @function, called or launched by it, nor the
    same operator in another dtype (the same computation: named ops of one name, generics of
    one body whatever their element type): --function packages @function's operator, with
    all of its kernels, and the module's other functions are not looked at. Nothing changes
    when there is no @function (the package's request names it then) or the module is given
    lowered."""
    table = {op.sym_name.data: op for op in module.ops if isinstance(op, func.FuncOp)}
    if function not in table or any(hsg.is_kernel(fn) for fn in table.values()):
        return
    shape = _operator_shape(table[function])
    kept: set[str] = set()
    todo = [function, *(name for name, fn in table.items()
                        if shape and _operator_shape(fn) == shape)]
    while todo:
        symbol = todo.pop()
        if symbol in kept or symbol not in table:
            continue
        kept.add(symbol)
        for op in table[symbol].walk():
            for attr in (*op.properties.values(), *op.attributes.values()):
                if isinstance(attr, SymbolRefAttr):
                    todo.append(attr.root_reference.data)
    for symbol, fn in table.items():
        if symbol not in kept:
            module.body.block.erase_op(fn, safe_erase=False)


_ELEMENT_TYPES = re.compile(r"\b(?:bf16|f16|f32)\b")


def _operator_shape(fn: func.FuncOp) -> tuple[object, ...]:
    """What a function computes, element types aside: its named ops by name, its generics by
    their maps, iterators and body (each op's name, where its operands come from, and its
    properties with element types erased)."""
    shape: list[object] = []
    for op in fn.walk():
        if isinstance(op, hsg.OPERATOR_OPS):
            shape.append(op.name)
        elif isinstance(op, GenericOp):
            shape.append(("linalg.generic", len(op.inputs), str(op.indexing_maps),
                          str(op.iterator_types), _body_shape(op.body.block)))
    return tuple(shape)


def _body_shape(block: Block) -> tuple[object, ...]:
    numbers: dict[SSAValue, tuple[str, int]] = {arg: ("arg", i)
                                                for i, arg in enumerate(block.args)}
    ops: list[object] = []
    for k, op in enumerate(block.ops):
        operands = tuple(numbers.get(v, ("outside",)) for v in op.operands)
        properties = tuple(sorted((key, _ELEMENT_TYPES.sub("T", str(value)))
                                  for key, value in (*op.properties.items(),
                                                     *op.attributes.items())))
        ops.append((op.name, operands, properties))
        for result in op.results:
            numbers[result] = ("op", k)
    return tuple(ops)


def lower(text: str, name: str, semantics: str | None = None,
          kernel_name: str | None = None, soc: str | None = None,
          function: str | None = None) -> Lowered:
    """Parse and verify; lower to the ascend dialect when named ops or generics are there
    (`kernel_name`: the operator name of generics, hsg-tile-on-cores' option; `soc`: lower for
    that SoC's own kernels, its semantics, schedule and API table, as hswc-run does;
    `function`: only that function and what it calls or launches, the others erased)."""
    ctx = Context()
    for dialect, factory in DIALECTS.items():
        ctx.register_dialect(dialect, factory)

    def parsed() -> tuple[ModuleOp, VerifiedOps]:
        module = LocatingParser(ctx, text, name).parse_module()
        verified = VerifiedOps()  # what the passes change verifies again (verification_cache)
        verify_located(module, verified)
        if function is not None:
            _keep_only(module, function)
        return module, verified

    module, verified = parsed()
    check_compilable(module)
    check_fits(module)
    if not any(isinstance(op, (*hsg.OPERATOR_OPS, GenericOp))
               for op in module.walk()):
        return Lowered(module, semantics=semantics)
    derived = row_op_type(module) if kernel_name is None else None
    if derived is not None:
        from hswc.backend.operator import snake_case

        kernel_name = snake_case(derived)
    own: Lowering | None = None
    if soc is not None:
        from hswc.runner import platform_kernels

        platform = PLATFORMS[soc]
        semantics, variant = platform_kernels(module, platform, semantics)
        own = Lowering(variant, platform.api)
    lowered = Lowered(module, frozenset(), semantics=semantics, name=derived)

    def step(lowering: ModulePass, module: ModuleOp) -> None:
        tiling = lowering.name == "hsg-tile-on-cores"
        if tiling:
            lowered.named = frozenset(
                op.attributes[hsg.OP_NAME_ATTR].data for op in module.walk()  # type: ignore[attr-defined]
                if isinstance(op, GenericOp) and hsg.OP_NAME_ATTR in op.attributes)
        lowering.apply(ctx, module)
        if tiling:
            lowered.bodies = _bodies(module)

    first = [(module, verified)]  # then the input again, should the check at the end fail
    passes = [_pass(pass_name, semantics, kernel_name, own) for pass_name in LOWER_TO_ASCEND]
    # One check after the last pass (hswc.pass_checks), each pass's when that fails.
    apply_checked(passes, ctx, lambda: first.pop() if first else parsed(), step)
    return lowered


def row_op_type(module: ModuleOp) -> str | None:
    """The op type of a module whose only operator is one row op (hsg.softmax,
    hsg.log_softmax_grad, hsg.rms_norm, ...: the same op in every function, with no other
    named op or generic), CamelCase as ops-nn spells op types (LogSoftmaxGrad); None
    otherwise (such a module's row kernel is a generated operator, which needs --name)."""
    from hswc.dialects.hsg_norm_ops import NormOp
    from hswc.ops.definition import camel

    names = {op.name for op in module.walk()
             if isinstance(op, (*hsg.OPERATOR_OPS, GenericOp))}
    rows = {op.name for op in module.walk() if isinstance(op, NormOp)}
    if len(names) != 1 or names != rows:
        return None
    return camel(names.pop().removeprefix("hsg."))


def load(text: str, name: str) -> ModuleOp:
    """Parse and verify; lower to the ascend dialect when the operator is still there."""
    return lower(text, name).module


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of hswc-emit; returns the exit code (1 for usage errors too)."""
    return exit_status(lambda: _main(argv))


def _read(path: str, name: str) -> str:
    data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    return decode(data, name)


def _read_or_report(path: str, name: str) -> str | int:
    """The input's text, or the exit status of the message saying why it cannot be read."""
    try:
        return _read(path, name)
    except OSError as error:
        return report("hswc-emit", f"cannot read '{name}': {error.strerror}")
    except SourceError as error:
        return report("hswc-emit", str(error))


PACKAGE_SOCS = tuple(name for name, platform in PLATFORMS.items()
                     if platform.semantics is None and platform.schedule == "reference")
"""The SoCs of a package by default: those whose CANN kernel has the reference structure (the
A2/A3 kernels)."""
ARCH35_SOCS = tuple(name for name, platform in PLATFORMS.items() if platform.api == "dav_3510")
"""The SoCs of ops-nn's arch35 layout (Ascend 950): their kernels are lowered for them."""


def _usage_error(args: argparse.Namespace) -> str | None:
    """What is wrong with the options, if anything."""
    from hswc.backend.operator import snake_case
    from hswc.cpp_identifiers import unusable

    if not args.output.strip():
        return "-o is empty: name the folder to write the package into"
    if args.name is not None:
        if not OP_TYPE.fullmatch(args.name):
            return (f"--name '{args.name}' is not an op type: write it as ops-nn does, a "
                    "capital letter then up to 63 letters and digits (e.g. GradTimesScale)")
        why = unusable(snake_case(args.name))
        if why is not None:
            return (f"--name '{args.name}' makes the kernel entry '{snake_case(args.name)}', "
                    f"which C++ code cannot declare ({why}): choose another name")
    if args.aclnn is not None and not ACLNN.fullmatch(args.aclnn):
        return (f"--aclnn '{args.aclnn}' is not an aclnn API name: 'aclnn', a capital letter, "
                "then letters and digits (e.g. aclnnGradTimesScale)")
    if args.aclnn is not None and args.name is None:
        return "--aclnn names a generic operator's API: give --name too"
    for soc in args.soc or ():
        if soc not in PACKAGE_SOCS + ARCH35_SOCS:
            return (f"--soc {soc}: hswc-emit does not package that SoC's kernel; the package's "
                    f"SoCs can be {', '.join(PACKAGE_SOCS + ARCH35_SOCS)}")
    return None


def _main(argv: Sequence[str] | None) -> int:
    args = _arguments(argv)
    name = "<stdin>" if args.input == "-" else args.input
    from hswc.backend.cpp_types import UnprintableType
    from hswc.backend.description import PackageRefused, PackageRequest
    from hswc.backend.operator import snake_case
    from hswc.backend.package import Arch35Module, write_package
    from hswc.backend.package_output import OutputRefused

    problem = _usage_error(args)
    if problem is not None:
        return report("hswc-emit", problem)
    text = _read_or_report(args.input, name)
    if isinstance(text, int):
        return text
    try:
        kernel_name = snake_case(args.name) if args.name is not None else None
        socs = list(dict.fromkeys(args.soc or PACKAGE_SOCS))
        own = [s for s in socs if s in ARCH35_SOCS]
        # parsing(): the module and its lowering live to the end, no full collection walks them
        with collecting() as said, parsing():
            lowered = lower(text, name, args.semantics, kernel_name,
                            None if len(own) < len(socs) else own[0], args.function)
        op_type = args.name or lowered.name
        if _emit_model(args, op_type, lowered, said, socs, name):
            return 0
        arch35 = lowered if len(own) == len(socs) else \
            lower(text, name, args.semantics, kernel_name, own[0], args.function) if own else None
        if arch35 is not None and arch35.named is None:
            raise PackageRefused(
                f"the module is given lowered, for one SoC family: an {', '.join(own)} package "
                "is lowered by hswc-emit for that SoC; give the module before lowering")
        request = PackageRequest(op_type, args.aclnn, args.function, lowered.semantics,
                                 lowered.named, lowered.bodies)
        arch35_module = None if arch35 is None else Arch35Module(arch35.module, PackageRequest(
            op_type, args.aclnn, args.function, arch35.semantics, arch35.named, arch35.bodies))
        written = write_package(lowered.module, Path(args.output),
                                socs, args.force or args.force_overwrite_edits,
                                request, args.force_overwrite_edits, arch35_module)
    except (OutputRefused, PackageRefused) as error:
        return report("hswc-emit", str(error))
    except OSError as error:
        return report("hswc-emit", f"cannot write '{error.filename or args.output}': "
                      f"{error.strerror}")
    except ParseError as error:
        return report("hswc-emit", format_parse_error(error))
    except DiagnosticException as error:
        return report("hswc-emit", str(error))
    except UnprintableType as error:  # met outside every op's rule (inside one, the op is named)
        return report("hswc-emit", str(error))
    except RecursionError:
        return report("hswc-emit", TOO_DEEP)
    except Exception as error:  # the contract: one line, never a traceback (as hswc-opt)
        return report("hswc-emit", f"internal error: {type(error).__name__}: {error}")
    _list_written(written)
    return 0


def _refuse_without_kernel(module: ModuleOp, said: list[Remark]) -> None:
    """PackageRefused, after the warnings that say why, for a module whose ops all stay on the
    host (an 8-bit float output on Atlas A2/A3, a reduction no row kernel takes, ...)."""
    from hswc.backend import model_packages as mp
    from hswc.backend.description import PackageRefused

    left = mp.has_ops_left(module)
    if left and not any(hsg.is_kernel(fn) for fn in module.ops):
        print_remarks(said, everything=False)  # the ops that could be kernels, and why not
        what = "its only op" if left == 1 else f"all of its {left} ops"
        raise PackageRefused(
            f"the module holds no kernel to package: --lower-to-ascend leaves {what} on the "
            "host (hswc-opt --lower-to-ascend --remarks says why each stays)")


def _emit_model(args: argparse.Namespace, op_type: str | None, lowered: Lowered,
                said: list[Remark], socs: list[str], name: str) -> bool:
    """Write the packages of a whole model file, list them, and say how many; False (nothing
    written) when the module is not one, or `op_type` (--name, or the module's one row op's)
    names its one operator. PackageRefused for --name on a whole model of several kernels."""
    from hswc.backend import model_packages as mp
    from hswc.backend.description import PackageRefused
    from hswc.backend.package_output import write_files

    if op_type is not None:
        kernels = sum(1 for fn in lowered.module.ops if hsg.is_kernel(fn))
        _refuse_without_kernel(lowered.module, said)
        if kernels > 1 and lowered.named is not None and mp.is_whole_model(lowered.module):
            raise PackageRefused(
                f"--name {op_type} names the one operator of a file, and this one is a whole "
                f"model of {kernels} kernels: without --name, hswc-emit writes a package per "
                "kernel, named after its function and region")
        # a named row op's package (its name derived): the whole op, or no package
        left = mp.computations_left(lowered.module) if lowered.name is not None else 0
        if kernels == 1 and left:
            raise PackageRefused(
                f"the operator {op_type} keeps {left} computation{'s' if left != 1 else ''} "
                "(linalg.generic) on the host besides its kernel (hswc-opt --lower-to-ascend "
                "--remarks says why: e.g. a softmax over a dim other than the last is no row "
                "kernel), and a package is one kernel computing the whole operator: none is "
                "written")
        return False
    model = _model_files(lowered, said, socs, name)
    if model is None:
        return False
    written = write_files(model.files, Path(args.output), args.force or args.force_overwrite_edits,
                          args.force_overwrite_edits)
    _list_written(written)
    print(f"hswc-emit: {model.summary}", file=sys.stderr)
    return True


@dataclass(frozen=True)
class ModelFiles:
    """The packages of a whole model file, with their index, and what to say about them."""

    files: dict[str, str]
    summary: str


def _model_files(lowered: Lowered, said: list[Remark], socs: list[str],
                 name: str) -> ModelFiles | None:
    """The files of one package per kernel of a partitioned module, and their index
    (hswc.backend.model_packages); None when the module is not one (one operator: the
    package of the module docstring). PackageRefused for a file with no kernel at all whose
    ops stay on the host."""
    from hswc.backend import model_packages as mp
    from hswc.backend.description import PackageRefused
    from hswc.backend.package import package_files
    from hswc.runner import RunnerError

    module = lowered.module
    _refuse_without_kernel(module, said)
    left = mp.has_ops_left(module)
    if lowered.named is None or not mp.is_whole_model(module):
        return None
    print_remarks(said, everything=False)
    mp.refuse_arch35(socs)
    packages = mp.plan_packages(module, said)
    files: dict[str, str] = {}
    skipped: dict[str, str] = {}
    for package in packages:
        try:
            sub, kernel_name = mp.package_module(package, module)
            request = mp.request_for(package, kernel_name, lowered.bodies, lowered.semantics)
            made = package_files(sub, socs, request)
        except (RunnerError, DiagnosticException, PackageRefused) as error:
            # A kernel the checks refuse (its UB plan, a hardware rule broken on the goldens'
            # data) gets no package; the model's other kernels do, and the index says why.
            skipped[package.stem] = str(error).splitlines()[0]
            continue
        for path, body in made.items():
            files[f"{package.stem}/{path}"] = body
    refusals = [f"{p.stem} (@{p.kernel.func.sym_name.data}): {skipped[p.stem]}"
                for p in packages if p.stem in skipped]
    if len(skipped) == len(packages):
        # Nothing the user asked for is written: one error naming every kernel's reason.
        raise PackageRefused("no kernel of the module can be packaged, so nothing is written: "
                             + "; ".join(refusals))
    for refusal in refusals:
        print(f"hswc-emit: warning: no package {refusal}", file=sys.stderr)
    entries = mp.index_entries(packages, skipped)
    files[mp.INDEX_JSON] = mp.index_json(name, entries, left)
    files[mp.INDEX_MD] = mp.index_md(name, packages, left, skipped)
    regions = sum(len(p.launches) for p in packages)
    done = len(packages) - len(skipped)
    refused = f" ({len(skipped)} kernel{'s' if len(skipped) != 1 else ''} not packaged)" \
        if skipped else ""
    summary = (f"{done} package{'s' if done != 1 else ''}{refused}, one per kernel, "
               f"for {regions} region{'s' if regions != 1 else ''}; {left} "
               f"op{'s' if left != 1 else ''} left on the host; the index is {mp.INDEX_MD} and "
               f"{mp.INDEX_JSON}")
    return ModelFiles(files, summary)


def _list_written(written: Written) -> None:
    """The files written on stdout; what they replaced or removed on stderr."""
    for path in written.files:
        print(path)
    edited = set(written.edited)
    for verb, paths in (("replaced", written.replaced), ("removed", written.removed)):
        for path in paths:
            note = " (it had changed since hswc-emit wrote it)" if path in edited else ""
            print(f"hswc-emit: --force {verb} '{path}'{note}", file=sys.stderr)
    for path, link in written.kept:
        print(f"hswc-emit: --force kept '{path}' (an earlier package's file): its path goes "
              f"through the symbolic link '{link}', which hswc-emit does not follow",
              file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
